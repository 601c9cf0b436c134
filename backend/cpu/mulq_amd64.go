//go:build amd64 && !purego

package cpu

import "unsafe"

// mul64AVX512 is d[i] = a[i] * b[i] on 64-bit integers, n a multiple of
// 8 (mulq_amd64.s; only where haveAVX512DQVL).
//
//go:noescape
func mul64AVX512(d, a, b unsafe.Pointer, n int)

// mul8AVX512 is d[i] = a[i] * b[i] on 8-bit integers, n a multiple of
// 64 (mulq_amd64.s; only where haveAVX512BW).
//
//go:noescape
func mul8AVX512(d, a, b unsafe.Pointer, n int)

// haveAVX512BW reports whether the CPU (and the OS) support AVX-512 F,
// BW and VL.
var haveAVX512BW = cpuHasAVX512Features(1<<16 | 1<<30 | 1<<31)

// mul8Asm returns the 8-bit multiply of this CPU: 64 bytes a step where
// AVX-512 BW is there (the loop on 10^4 int8: 0.27 → 0.17 µs), else the
// AVX2 loop of the table.
func mul8Asm(v intAsm) intAsm {
	if haveAVX512BW {
		return intAsm{bin: mul8AVX512, unit: 64}
	}
	return v
}

// mul64Asm returns the 64-bit multiply of this CPU: VPMULLQ where AVX-512
// DQ is there (the loop on 10^4 int64: 2.8 → 1.7 µs; bench/matrix's p ** 2
// on them took 5.6 µs through mul64AVX2, NumPy's 2.8), else the AVX2 loop
// of the table.
func mul64Asm(v intAsm) intAsm {
	if haveAVX512DQVL {
		return intAsm{bin: mul64AVX512, unit: 8}
	}
	return v
}
