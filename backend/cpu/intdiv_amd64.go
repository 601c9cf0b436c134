//go:build amd64 && !purego

package cpu

// haveIntDivSIMD reports whether integer floor division and modulo use
// the AVX-512 loops of intdiv_amd64.s.
var haveIntDivSIMD = haveAVX512DQVL
