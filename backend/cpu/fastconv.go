package cpu

import (
	"math"

	"github.com/tensorsh/tensorsh/dtypes"
)

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

// The float8 and float64 → narrow conversions below use the same two
// tricks as f32ToF16: a result that is normal in the narrow format is a
// rebias-and-round add on the source bits (add the lowest kept bit to
// 0b0111…1 below it, so that ties go to even, then shift); a subnormal
// result is an add of a "magic" power of two whose ulp is the narrow
// format's subnormal step, so that the FPU rounds to nearest even, and the
// low bits of the sum are the result. Every one gives the bits of the
// dtypes package's exact conversion (dtypes.format.encode, which takes
// Frexp and a 53-bit shift per element); TestNarrowBits checks them on
// every float16 and bfloat16 value, a spread of float32 and float64 bit
// patterns around every rounding position, and the edge values.

// f32ToE4M3 rounds x to float8_e4m3fn (bias 7, no infinities, largest
// finite 448) like dtypes.F8E4M3FromFloat64(float64(x)): |x| > 464, ±Inf
// and NaN give NaN with the sign kept (0x7F or 0xFF); 464 ties to 448.
func f32ToE4M3(x float32) uint8 {
	const (
		over    = 0x43E80000 // 464
		normMin = 121 << 23  // 2^-6, the smallest normal e4m3fn
		magic   = 141 << 23  // 2^14: its ulp is 2^-9, the subnormal step
	)
	b := math.Float32bits(x)
	sign := uint8(b>>24) & 0x80
	b &^= 0x80000000
	switch {
	case b > over:
		return sign | 0x7F
	case b < normMin:
		f := float32(math.Float32frombits(b) + math.Float32frombits(magic))
		return sign | uint8(math.Float32bits(f)-magic)
	}
	odd := b >> 20 & 1
	b += 0xC4000000 + 0x7FFFF + odd // (7-127)<<23 wrapping, then round
	return sign | uint8(b>>20)
}

// f32ToE5M2 rounds x to float8_e5m2 (bias 15, IEEE-like) like
// dtypes.F8E5M2FromFloat64(float64(x)): |x| >= 61440 gives ±Inf (0x7C),
// every NaN the quiet NaN 0x7E with its sign.
func f32ToE5M2(x float32) uint8 {
	const (
		f32Inf  = 0xFF << 23
		over    = 0x47700000 // 61440: rounds to inf
		normMin = 113 << 23  // 2^-14
		magic   = 134 << 23  // 2^7: its ulp is 2^-16
	)
	b := math.Float32bits(x)
	sign := uint8(b>>24) & 0x80
	b &^= 0x80000000
	switch {
	case b >= over:
		if b > f32Inf {
			return sign | 0x7E
		}
		return sign | 0x7C
	case b < normMin:
		f := float32(math.Float32frombits(b) + math.Float32frombits(magic))
		return sign | uint8(math.Float32bits(f)-magic)
	}
	odd := b >> 21 & 1
	b += 0xC8000000 + 0xFFFFF + odd // (15-127)<<23 wrapping, then round
	return sign | uint8(b>>21)
}

// f64ToF16 rounds x to binary16 once, directly, like
// dtypes.F16FromFloat64: |x| >= 65520 gives ±Inf, NaN a quiet NaN with its
// sign and the top 9 bits of its payload.
func f64ToF16(x float64) uint16 {
	const (
		f64Inf  = 0x7FF << 52
		over    = 0x40EFFE0000000000 // 65520
		normMin = (1023 - 14) << 52
		magic   = (1023 + 28) << 52 // 2^28: its ulp is 2^-24
	)
	b := math.Float64bits(x)
	sign := uint16(b>>48) & 0x8000
	b &^= 1 << 63
	switch {
	case b >= over:
		if b > f64Inf {
			return sign | 0x7E00 | uint16(b>>42)&0x3FF
		}
		return sign | 0x7C00
	case b < normMin:
		f := math.Float64frombits(b) + math.Float64frombits(magic)
		return sign | uint16(math.Float64bits(f)-magic)
	}
	odd := b >> 42 & 1
	b += 0xC100000000000000 + (1<<41 - 1) + odd // (15-1023)<<52 wrapping
	return sign | uint16(b>>42)
}

// f64ToE4M3 rounds x to float8_e4m3fn once, directly, like
// dtypes.F8E4M3FromFloat64.
func f64ToE4M3(x float64) uint8 {
	const (
		over    = 0x407D000000000000 // 464
		normMin = (1023 - 6) << 52
		magic   = (1023 + 43) << 52 // 2^43: its ulp is 2^-9
	)
	b := math.Float64bits(x)
	sign := uint8(b>>56) & 0x80
	b &^= 1 << 63
	switch {
	case b > over:
		return sign | 0x7F
	case b < normMin:
		f := math.Float64frombits(b) + math.Float64frombits(magic)
		return sign | uint8(math.Float64bits(f)-magic)
	}
	odd := b >> 49 & 1
	b += 0xC080000000000000 + (1<<48 - 1) + odd // (7-1023)<<52 wrapping
	return sign | uint8(b>>49)
}

// f64ToE5M2 rounds x to float8_e5m2 once, directly, like
// dtypes.F8E5M2FromFloat64.
func f64ToE5M2(x float64) uint8 {
	const (
		f64Inf  = 0x7FF << 52
		over    = 0x40EE000000000000 // 61440
		normMin = (1023 - 14) << 52
		magic   = (1023 + 36) << 52 // 2^36: its ulp is 2^-16
	)
	b := math.Float64bits(x)
	sign := uint8(b>>56) & 0x80
	b &^= 1 << 63
	switch {
	case b >= over:
		if b > f64Inf {
			return sign | 0x7E
		}
		return sign | 0x7C
	case b < normMin:
		f := math.Float64frombits(b) + math.Float64frombits(magic)
		return sign | uint8(math.Float64bits(f)-magic)
	}
	odd := b >> 50 & 1
	b += 0xC100000000000000 + (1<<49 - 1) + odd // (15-1023)<<52 wrapping
	return sign | uint8(b>>50)
}

// f64ToBF16 rounds x to bfloat16 through float32, like
// dtypes.BF16FromFloat64 (NaN gives 0x7FC0 with its sign).
func f64ToBF16(x float64) uint16 { return f32ToBF16(float32(x)) }

// The float16 array conversions: the reference loops, which
// f16c_amd64.go's F16C kernels must match bit for bit.

func f32sToF16Go(d []uint16, a []float32) {
	a = a[:len(d)]
	for i, x := range a {
		d[i] = f32ToF16(x)
	}
}

func f16sToF32Go(d []float32, a []uint16) {
	table := f16Table[:1<<16]
	a = a[:len(d)]
	for i, b := range a {
		d[i] = table[b]
	}
}

func roundF16Go(d []float32) {
	table := f16Table[:1<<16]
	for i, x := range d {
		d[i] = table[f32ToF16(x)]
	}
}

// The bfloat16 array conversions: the reference loops for bf16_amd64.s.

func f32sToBF16Go(d []uint16, a []float32) {
	a = a[:len(d)]
	for i, x := range a {
		d[i] = f32ToBF16(x)
	}
}

func roundBF16Go(d []float32) {
	for i, x := range d {
		d[i] = bf16Value(f32ToBF16(x))
	}
}

// f64NarrowKernel returns the conversion of float64 to the narrow float
// dtype to (float16, bfloat16, the float8s), each element giving
// roundTo64(to, x), with the dtype chosen once rather than per element;
// nil for the others.
func f64NarrowKernel(to dtypes.DType) kfn {
	switch to {
	case dtypes.F16:
		return un(f64sToF16Vals)
	case dtypes.BF16:
		// Through float32, as f64ToBF16: the vector float64 → float32
		// conversion, then the bfloat16 rounding in place.
		narrow := vecConvKernel(ctF64, ctF32)
		return func(d any, a []any) error {
			if narrow != nil {
				if err := narrow(d, a); err != nil {
					return err
				}
			} else {
				convL(d.([]float32), a[0].([]float64))
			}
			roundBF16(d.([]float32))
			return nil
		}
	case dtypes.F8E4M3:
		return un(func(d []float32, a []float64) {
			a = a[:len(d)]
			for i, x := range a {
				d[i] = e4m3Table[f64ToE4M3(x)]
			}
		})
	case dtypes.F8E5M2:
		return un(func(d []float32, a []float64) {
			a = a[:len(d)]
			for i, x := range a {
				d[i] = e5m2Table[f64ToE5M2(x)]
			}
		})
	}
	return nil
}

// The float8 array conversions: the reference loops for f8_amd64.s, and
// the rounding in place that uses them.

func f32sToE4M3Go(d []uint8, a []float32) {
	a = a[:len(d)]
	for i, x := range a {
		d[i] = f32ToE4M3(x)
	}
}

func f32sToE5M2Go(d []uint8, a []float32) {
	a = a[:len(d)]
	for i, x := range a {
		d[i] = f32ToE5M2(x)
	}
}

// roundF8 rounds the values of buf in place to float8_e5m2 if e5m2, else
// to float8_e4m3fn: the array conversion to bits a chunk at a time, then
// the decoding table.
func roundF8(buf []float32, e5m2 bool) {
	var tmp [512]uint8
	table := &e4m3Table
	if e5m2 {
		table = &e5m2Table
	}
	for len(buf) > 0 {
		k := min(len(buf), len(tmp))
		if e5m2 {
			f32sToE5M2(tmp[:k], buf[:k])
		} else {
			f32sToE4M3(tmp[:k], buf[:k])
		}
		for i, b := range tmp[:k] {
			buf[i] = table[b]
		}
		buf = buf[k:]
	}
}
