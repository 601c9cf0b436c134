//go:build amd64 && !purego

package cpu

// haveIntSIMD reports whether the integer and bool kernels use the AVX2
// loops of simd_int_amd64.s (tests turn it off to get the Go loops).
var haveIntSIMD = haveAVX2
