//go:build amd64 && !purego

package cpu

// intDivAsms are the division loops integer floor division and modulo use
// (intdiv_amd64.s): AVX-512 where the CPU has it, else AVX2 (with FMA),
// else none.
var intDivAsms = func() map[intDivKey]intDivAsm {
	switch {
	case haveIntDiv512:
		return intDivAsms512
	case haveAVX2:
		return intDivAsmsAVX2
	}
	return nil
}()

// haveIntDiv512 reports whether the CPU runs the AVX-512 division loops.
var haveIntDiv512 = haveAVX512DQVL
