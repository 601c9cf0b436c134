//go:build amd64 && !purego

package cpu

import "unsafe"

// mul64AVX512 is d[i] = a[i] * b[i] on 64-bit integers, n a multiple of
// 8 (mulq_amd64.s; only where haveAVX512DQVL).
//
//go:noescape
func mul64AVX512(d, a, b unsafe.Pointer, n int)

// mul64Asm returns the 64-bit multiply of this CPU: VPMULLQ where AVX-512
// DQ is there (NumPy's loops take it too: 10^4 int64 p ** 2 took 5.6 µs
// through mul64AVX2 against NumPy's 2.8), else the AVX2 loop of the
// table.
func mul64Asm(v intAsm) intAsm {
	if haveAVX512DQVL {
		return intAsm{bin: mul64AVX512, unit: 8}
	}
	return v
}
