package cpu

import "math"

// Fast float32 → narrow rounding on bits. Each gives the same bits as the
// dtypes package's exact conversions (checked by tests), without going
// through float64 decomposition.

// f32ToF16 rounds x to binary16 to nearest even, like
// dtypes.F16FromFloat64(float64(x)): overflow gives ±inf, subnormals are
// kept, NaN stays a quiet NaN with its sign and top payload bits.
func f32ToF16(x float32) uint16 {
	b := math.Float32bits(x)
	sign := uint16(b>>16) & 0x8000
	exp := int(b>>23) & 0xFF
	mant := b & 0x7FFFFF
	if exp == 0xFF {
		if mant == 0 {
			return sign | 0x7C00
		}
		return sign | 0x7E00 | uint16(mant>>13)
	}
	e := exp - 112 // the binary16 biased exponent
	if e >= 31 {
		return sign | 0x7C00
	}
	if e <= 0 {
		if e < -10 {
			return sign // below half the smallest subnormal
		}
		m := mant | 1<<23
		shift := uint(14 - e)
		k := m >> shift
		rem := m & (1<<shift - 1)
		half := uint32(1) << (shift - 1)
		if rem > half || rem == half && k&1 == 1 {
			k++
		}
		return sign | uint16(k)
	}
	h := uint32(e)<<10 | mant>>13
	rem := mant & 0x1FFF
	if rem > 0x1000 || rem == 0x1000 && h&1 == 1 {
		h++ // a carry into the exponent is right, up to inf
	}
	return sign | uint16(h)
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
