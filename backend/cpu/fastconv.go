package cpu

import "math"

// Fast float32 → narrow rounding on bits. Each gives the same bits as the
// dtypes package's exact conversions (checked by tests), without going
// through float64 decomposition.

// f32ToF16 rounds x to binary16 to nearest even, like
// dtypes.F16FromFloat64(float64(x)): overflow gives ±inf, subnormals are
// kept, NaN stays a quiet NaN with its sign and top payload bits.
//
// Normal results are a rounding add on the bits (the "float_to_half_fast3
// _rtne" method: add the exponent rebias, 0xFFF and the lowest kept bit,
// then shift), subnormal results an add of a magic float32 that makes the
// FPU round; only NaN and overflow take a separate branch, so that the
// common case is a few integer operations (it is half the cost of
// cast(a, f16)). TestF32ToF16 checks it against the plain rounding on
// every float32 with TENSORSH_EXHAUSTIVE=1, and on a sample otherwise.
func f32ToF16(x float32) uint16 {
	const (
		f32Inf  = 0xFF << 23
		f16Max  = (127 + 16) << 23                   // 2^16: rounds to inf and beyond
		normMin = 113 << 23                          // 2^-14, the smallest normal binary16
		magic   = ((127 - 15) + (23 - 10) + 1) << 23 // 0.5: its ulp is 2^-24
	)
	b := math.Float32bits(x)
	sign := uint16(b>>16) & 0x8000
	b &^= 0x80000000
	switch {
	case b >= f16Max:
		if b > f32Inf {
			return sign | 0x7E00 | uint16(b>>13)&0x3FF
		}
		return sign | 0x7C00
	case b < normMin:
		// x + 0.5 rounds x to a multiple of 2^-24 (the binary16 subnormal
		// step) in the FPU, to nearest even; the low bits are the result.
		f := float32(math.Float32frombits(b) + math.Float32frombits(magic))
		return sign | uint16(math.Float32bits(f)-magic)
	}
	odd := b >> 13 & 1
	b += 0xC8000FFF + odd // (15-127)<<23 + 0xFFF, wrapping: rebias and round
	return sign | uint16(b>>13)
}

// f32ToBF16 rounds x to bfloat16 to nearest even, like
// dtypes.BF16FromFloat32: every NaN becomes the quiet NaN 0x7FC0 with its
// sign.
func f32ToBF16(x float32) uint16 {
	b := math.Float32bits(x)
	if b&0x7F800000 == 0x7F800000 && b&0x7FFFFF != 0 {
		return uint16(b>>16)&0x8000 | 0x7FC0
	}
	return uint16((b + 0x7FFF + (b>>16)&1) >> 16)
}

// tf32Round rounds x to 10 mantissa bits to nearest even, like
// dtypes.TF32Round.
func tf32Round(x float32) float32 {
	b := math.Float32bits(x)
	if b&0x7F800000 == 0x7F800000 {
		return x
	}
	return math.Float32frombits((b + 0xFFF + (b>>13)&1) &^ 0x1FFF)
}
