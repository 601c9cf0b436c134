package dtypes

import "math"

// This file holds exact scalar conversions between float64 and the narrow
// float formats. Every rounding is done once, from the exact binary value of
// the float64, with round-to-nearest-even (RNE), unless a doc comment says
// otherwise (BF16FromFloat64 follows the reference libraries and rounds
// through float32).

// A format describes a binary floating-point format with a hidden leading
// bit, an exponent field of exp bits and mant explicit mantissa bits.
type format struct {
	mant, exp int
	// fn marks an "fn" (finite) format such as float8_e4m3fn: it has no
	// infinities, the all-ones exponent holds ordinary numbers, and only the
	// all-ones exponent with the all-ones mantissa is NaN.
	fn bool
	// canonNaN makes every NaN the format's one quiet NaN (with the sign
	// kept), as Eigen and ml_dtypes do for bfloat16 and float8; otherwise
	// the top bits of the NaN payload are kept, as NumPy does for float16.
	canonNaN bool
}

var (
	fmtF16    = format{mant: 10, exp: 5}
	fmtBF16   = format{mant: 7, exp: 8, canonNaN: true}
	fmtTF32   = format{mant: 10, exp: 8}
	fmtE4M3FN = format{mant: 3, exp: 4, fn: true, canonNaN: true}
	fmtE5M2   = format{mant: 2, exp: 5, canonNaN: true}
)

func (f format) bias() int       { return 1<<(f.exp-1) - 1 }
func (f format) expMask() uint64 { return 1<<f.exp - 1 }
func (f format) mantMask() uint64 {
	return 1<<f.mant - 1
}
func (f format) signBit() uint64 { return 1 << (f.mant + f.exp) }

// nan returns the quiet NaN of f with the given sign bit (0 or signBit) and,
// unless f.canonNaN, as many of the top bits of the float64 NaN payload of x
// as fit.
func (f format) nan(sign uint64, x float64) uint64 {
	if f.fn {
		return sign | f.expMask()<<f.mant | f.mantMask()
	}
	var payload uint64
	if !f.canonNaN && math.IsNaN(x) {
		payload = (math.Float64bits(x) & (1<<52 - 1)) >> (52 - f.mant)
	}
	return sign | f.expMask()<<f.mant | payload | 1<<(f.mant-1)
}

// encode rounds x to f with round-to-nearest-even and returns its bits.
// Overflow gives ±Inf, or NaN for an fn format; NaN stays NaN with its sign.
func (f format) encode(x float64) uint64 {
	var sign uint64
	if math.Signbit(x) {
		sign = f.signBit()
	}
	switch {
	case math.IsNaN(x):
		return f.nan(sign, x)
	case math.IsInf(x, 0):
		if f.fn {
			return f.nan(sign, x)
		}
		return sign | f.expMask()<<f.mant
	case x == 0:
		return sign
	}
	// |x| = m * 2^e exactly, with m a 53-bit integer.
	fr, e := math.Frexp(math.Abs(x)) // fr in [0.5, 1)
	m := uint64(fr * (1 << 53))
	e -= 53
	// The quantum (unit in the last place) of the result: 2^q.
	top := e + 52 // floor(log2 |x|)
	emin := 1 - f.bias()
	q := max(top, emin) - f.mant
	shift := q - e // > 0 for every format narrower than float64
	var n uint64
	if shift < 64 {
		n = m >> shift
		rem := m & (1<<shift - 1)
		half := uint64(1) << (shift - 1)
		if rem > half || rem == half && n&1 == 1 {
			n++
		}
	} // else |x| < 2^(q-11): rounds to zero
	if n == 0 {
		return sign
	}
	if n == 1<<(f.mant+1) { // rounding carried into the next binade
		n >>= 1
		q++
	}
	var biased, frac uint64
	if n < 1<<f.mant { // subnormal
		frac = n
	} else {
		biased = uint64(q + f.mant + f.bias())
		frac = n - 1<<f.mant
	}
	if f.fn {
		if biased > f.expMask() || biased == f.expMask() && frac == f.mantMask() {
			return f.nan(sign, x)
		}
	} else if biased >= f.expMask() {
		return sign | f.expMask()<<f.mant
	}
	return sign | biased<<f.mant | frac
}

// decode returns the exact value of the bit pattern b of format f.
func (f format) decode(b uint64) float64 {
	neg := b&f.signBit() != 0
	biased := (b >> f.mant) & f.expMask()
	frac := b & f.mantMask()
	var v float64
	switch {
	case biased == f.expMask() && !f.fn:
		if frac == 0 {
			v = math.Inf(1)
		} else {
			v = math.Float64frombits(0x7FF<<52 | frac<<(52-f.mant))
		}
	case biased == f.expMask() && frac == f.mantMask(): // fn NaN
		v = math.Float64frombits(0x7FF<<52 | 1<<51)
	case biased == 0:
		v = math.Ldexp(float64(frac), 1-f.bias()-f.mant)
	default:
		v = math.Ldexp(float64(frac|1<<f.mant), int(biased)-f.bias()-f.mant)
	}
	if neg {
		v = math.Copysign(v, -1)
	}
	return v
}

// F16FromFloat64 returns the IEEE 754 binary16 bits of x rounded once, to
// nearest with ties to even, directly from the float64 value (no double
// rounding through float32, like NumPy's npy_double_to_half). Values beyond
// the rounding range give ±Inf, subnormals are kept, and NaN stays a quiet
// NaN with its sign and the top bits of its payload.
func F16FromFloat64(x float64) uint16 { return uint16(fmtF16.encode(x)) }

// F16ToFloat64 returns the exact value of the binary16 bits b.
func F16ToFloat64(b uint16) float64 { return fmtF16.decode(uint64(b)) }

// BF16FromFloat32 returns the bfloat16 bits of x rounded to nearest with ties
// to even. Every NaN becomes the quiet NaN 0x7FC0 with its sign kept (0xFFC0
// when negative), as Eigen's float_to_bfloat16_rtne (ml_dtypes' bfloat16)
// does; a NaN whose payload lies only in the low 16 bits, such as
// 0x7F800001, never becomes Inf as a plain "add 0x7FFF and shift" rounding
// would make it.
func BF16FromFloat32(x float32) uint16 { return uint16(fmtBF16.encode(float64(x))) }

// BF16FromFloat64 returns the bfloat16 bits of x, rounded the way the
// reference libraries do it: first to float32, then to bfloat16, each to
// nearest with ties to even. This double rounding is what all of them do:
// ml_dtypes (NumPy's bfloat16) casts arrays with
// static_cast<To>(static_cast<float>(from)) (NPyCast in
// ml_dtypes/_src/custom_float.h) and builds Eigen::bfloat16 from a double
// through static_cast<float>; PyTorch's c10::BFloat16 has only a float
// constructor; XLA's elemental IR emitter converts F64 to F32 before
// rounding to BF16. It differs from a single direct rounding only when x is
// not a float32 and rounds to a float32 that is a bfloat16 tie (the midpoint
// of two bfloat16 numbers): 1+2^-8+2^-40 gives 1.0 here, where a direct
// rounding gives 1+2^-7. NaN gives 0x7FC0 or 0xFFC0.
func BF16FromFloat64(x float64) uint16 {
	if math.IsNaN(x) {
		return uint16(fmtBF16.encode(x))
	}
	return BF16FromFloat32(float32(x))
}

// BF16ToFloat64 returns the exact value of the bfloat16 bits b.
func BF16ToFloat64(b uint16) float64 { return fmtBF16.decode(uint64(b)) }

// F8E4M3FromFloat64 returns the float8_e4m3fn bits of x (bias 7, no
// infinities, largest finite 448), rounded once and directly from float64 to
// nearest with ties to even, with ml_dtypes semantics (no saturation): a value
// whose rounding would pass 448 (|x| > 464; 464 itself ties to 448) and ±Inf
// give NaN with the sign kept (0x7F or 0xFF); NaN gives NaN; -0 stays -0.
// This is ml_dtypes' ConvertImpl<double, float8_e4m3fn> (include/float8.h),
// used by its scalar constructor from a Python float. (ml_dtypes' NumPy
// array casts from float64 go through float32 first; the two differ only
// for float64 values that float32 rounds onto a float8 tie.)
func F8E4M3FromFloat64(x float64) uint8 { return uint8(fmtE4M3FN.encode(x)) }

// F8E4M3ToFloat64 returns the exact value of the float8_e4m3fn bits b
// (0x7F and 0xFF are NaN).
func F8E4M3ToFloat64(b uint8) float64 { return fmtE4M3FN.decode(uint64(b)) }

// F8E5M2FromFloat64 returns the float8_e5m2 bits of x (IEEE-like: bias 15,
// infinities and NaNs, largest finite 57344), rounded once and directly to
// nearest with ties to even, like ml_dtypes' ConvertImpl; |x| >= 61440
// gives ±Inf; every NaN gives the quiet NaN 0x7E, or 0xFE when negative.
func F8E5M2FromFloat64(x float64) uint8 { return uint8(fmtE5M2.encode(x)) }

// F8E5M2ToFloat64 returns the exact value of the float8_e5m2 bits b.
func F8E5M2ToFloat64(b uint8) float64 { return fmtE5M2.decode(uint64(b)) }

// TF32Round returns x rounded to TensorFloat-32 precision (8 exponent bits,
// 10 explicit mantissa bits) to nearest with ties to even, as a float32. NaN
// and ±Inf are kept; a value that rounds past the largest TF32 number gives
// ±Inf. (PTX's cvt.rna.tf32.f32 rounds ties away from zero instead; a
// backend that uses it differs from this only on exact ties.)
func TF32Round(x float32) float32 {
	if math.IsNaN(float64(x)) {
		return x
	}
	return float32(fmtTF32.decode(fmtTF32.encode(float64(x))))
}

// FloatFromFloat64 returns x rounded to the precision and range of the float
// dtype d, as a float64: the value a tensor of dtype d holds when x is stored
// in it (see the From functions above for the rounding of each format; TF32
// rounds x directly, once). F32 and C64 round to float32, C32 (each part) to
// float16; F64, C128 and non-float dtypes return x unchanged.
func FloatFromFloat64(d DType, x float64) float64 {
	switch d {
	case F16, C32:
		return F16ToFloat64(F16FromFloat64(x))
	case BF16:
		return BF16ToFloat64(BF16FromFloat64(x))
	case F32, C64:
		return float64(float32(x))
	case TF32:
		return fmtTF32.decode(fmtTF32.encode(x))
	case F8E4M3:
		return F8E4M3ToFloat64(F8E4M3FromFloat64(x))
	case F8E5M2:
		return F8E5M2ToFloat64(F8E5M2FromFloat64(x))
	}
	return x
}

// C32FromComplex128 returns the storage bits of complex32 c: each part
// rounded to binary16 like F16FromFloat64, the real part in the low 16 bits
// and the imaginary part in the high 16 (c10::complex<c10::Half> is
// {real_, imag_}, so this is its memory as a little-endian uint32).
func C32FromComplex128(c complex128) uint32 {
	return uint32(F16FromFloat64(real(c))) | uint32(F16FromFloat64(imag(c)))<<16
}

// C32ToComplex128 returns the exact value of the complex32 bits b.
func C32ToComplex128(b uint32) complex128 {
	return complex(F16ToFloat64(uint16(b)), F16ToFloat64(uint16(b>>16)))
}
