package cpu

import (
	"fmt"
	"math"
	"math/bits"
	"sync/atomic"
	"unsafe"

	"github.com/tensorsh/tensorsh/dtypes"
)

// Conversions (OpCast).
//
//   - int → int wraps (two's complement).
//   - int → float rounds once, to nearest even, from the exact integer (no
//     double rounding through float64 for 64-bit integers), except that
//     bfloat16 rounds through float32 like the reference libraries.
//   - float → float rounds once from the exact value (f64 → f16 directly),
//     bfloat16 again through float32.
//   - float → int truncates toward zero. NaN and values out of range give
//     what NumPy gives on x86-64 (where the C cast compiles to cvttsd2si):
//     int32 and int64 get their minimum value (the "integer indefinite");
//     int8, int16, uint8 and uint16 convert through int32 and wrap (so
//     NaN → 0, 300.0 → 44 for uint8); uint32 converts through int64 and
//     wraps; uint64 converts values below 2^63 through int64 (so -1.0 →
//     2^64-1 and NaN → 2^63) and subtracts 2^63 first otherwise (so values
//     of 2^64 or more and +inf give 0).
//   - anything → bool is "nonzero" (NaN is true); bool → number is 0 or 1.
//   - complex → real keeps the real part (NumPy's ComplexWarning case);
//     real → complex has a zero imaginary part.
func castKernel(from, to dtypes.DType) (kfn, error) {
	if !from.IsValid() || !to.IsValid() {
		return nil, fmt.Errorf("cpu: cast from %v to %v", from, to)
	}
	m := &castMemo[from][to]
	if e := m.Load(); e != nil {
		return e.k, e.err
	}
	k, err := newCastKernel(from, to)
	m.Store(&castEntry{k, err})
	return k, err
}

// castMemo holds castKernel's kernels (or refusals) by the two dtypes,
// made on first use (see kmemo).
var castMemo [dtypes.NumDTypes][dtypes.NumDTypes]atomic.Pointer[castEntry]

type castEntry struct {
	k   kfn
	err error
}

func newCastKernel(from, to dtypes.DType) (kfn, error) {
	if from == dtypes.I8 && to == dtypes.F32 {
		if k := vecConvKernel(ctI8, ctF32); k != nil {
			return k, nil // AVX-512
		}
		return un(cvtI8F32), nil // exact, vectorised
	}
	cf, ct := computeOf(from), computeOf(to)
	if !narrow(to) {
		if k := vecConvKernel(cf, ct); k != nil {
			return k, nil // vectorised, same bits as below
		}
	}
	if cf == ct && (!narrow(to) || from == to) {
		// Same compute type and nothing to round: f16 → f32, tf32 → f32,
		// u64 → index, …
		return identityKernel(cf), nil
	}
	switch {
	case ct == ctBool:
		return toBoolKernel(cf), nil
	case cf == ctBool:
		return fromBoolKernel(ct), nil
	case to == dtypes.C32 && cf == ctC64:
		// complex64 → complex32: each part rounds once to float16.
		return un(func(d, a []complex64) {
			copy(d, a)
			roundComplex32(d)
		}), nil
	case to == dtypes.C32 && cf == ctC128:
		// complex128 → complex32: each part rounds once, directly, to
		// float16 (no double rounding through float32).
		return un(func(d []complex64, a []complex128) {
			a = a[:len(d)]
			for i := range d {
				d[i] = complex(roundTo64(dtypes.F16, real(a[i])), roundTo64(dtypes.F16, imag(a[i])))
			}
		}), nil
	case cf == ctC64 || cf == ctC128:
		// Complex → anything: convert the real part (complex → complex
		// keeps both).
		if ct == ctC64 || ct == ctC128 {
			if cf == ctC64 && ct == ctC128 {
				return un(func(d []complex128, a []complex64) {
					for i := range d {
						d[i] = complex128(a[i])
					}
				}), nil
			}
			return un(func(d []complex64, a []complex128) {
				for i := range d {
					d[i] = complex64(a[i])
				}
			}), nil
		}
		inner, err := castKernel(from.Real(), to)
		if err != nil {
			return nil, err
		}
		rt := computeOf(from.Real())
		return func(d any, a []any) error {
			re := newBuf(rt, bufLen(d))
			realParts(re, a[0])
			return inner(d, []any{re})
		}, nil
	case ct == ctC64 || ct == ctC128:
		// Real → complex: convert to the part's dtype, imaginary 0.
		part := to.Real()
		if from == part {
			// Nothing to convert (float64 → complex128, float32 →
			// complex64): the parts straight from the source, not
			// through a buffer made each call (0.85 ms for 10^6
			// float64, against NumPy's 0.45).
			return func(d any, a []any) error {
				toComplex(d, a[0])
				return nil
			}, nil
		}
		inner, err := castKernel(from, part)
		if err != nil {
			return nil, err
		}
		// The parts are converted into the second half of d's memory
		// and spread from the front: complex i takes the words 2i and
		// 2i+1, at or before part i (word n+i), which it has read. A
		// buffer of the whole length each call was 8 MB made and
		// cleared for 10^6 int32 → complex128. (A source that shares
		// d's memory goes through a buffer.)
		pt := computeOf(part)
		return func(d any, a []any) error {
			if db, ab := bufBytes(d), bufBytes(a[0]); len(db) > 0 && len(ab) > 0 &&
				uintptr(unsafe.Pointer(&ab[0])) < uintptr(unsafe.Pointer(&db[0]))+uintptr(len(db)) &&
				uintptr(unsafe.Pointer(&db[0])) < uintptr(unsafe.Pointer(&ab[0]))+uintptr(len(ab)) {
				re := newBuf(pt, bufLen(d))
				if err := inner(re, a); err != nil {
					return err
				}
				toComplex(d, re)
				return nil
			}
			switch dd := d.(type) {
			case []complex128:
				n := len(dd)
				f := unsafe.Slice((*float64)(unsafe.Pointer(unsafe.SliceData(dd))), 2*n)
				if err := inner(f[n:], a); err != nil {
					return err
				}
				for i := range dd {
					dd[i] = complex(f[n+i], 0)
				}
			case []complex64:
				n := len(dd)
				f := unsafe.Slice((*float32)(unsafe.Pointer(unsafe.SliceData(dd))), 2*n)
				if err := inner(f[n:], a); err != nil {
					return err
				}
				for i := range dd {
					dd[i] = complex(f[n+i], 0)
				}
			}
			return nil
		}, nil
	}
	// Real → real, bool excluded.
	switch cf {
	case ctI8:
		return fromInt[int8](to), nil
	case ctI16:
		return fromInt[int16](to), nil
	case ctI32:
		return fromInt[int32](to), nil
	case ctI64:
		return fromInt[int64](to), nil
	case ctU8:
		return fromInt[uint8](to), nil
	case ctU16:
		return fromInt[uint16](to), nil
	case ctU32:
		return fromInt[uint32](to), nil
	case ctU64:
		return fromInt[uint64](to), nil
	case ctF32:
		return fromFloat[float32](to), nil
	case ctF64:
		return fromFloat[float64](to), nil
	}
	return nil, fmt.Errorf("cpu: cast from %v to %v is not supported", from, to)
}

func identityKernel(ct ctype) kfn {
	return func(d any, a []any) error {
		switch dd := d.(type) {
		case []bool:
			copy(dd, a[0].([]bool))
		case []int8:
			copy(dd, a[0].([]int8))
		case []int16:
			copy(dd, a[0].([]int16))
		case []int32:
			copy(dd, a[0].([]int32))
		case []int64:
			copy(dd, a[0].([]int64))
		case []uint8:
			copy(dd, a[0].([]uint8))
		case []uint16:
			copy(dd, a[0].([]uint16))
		case []uint32:
			copy(dd, a[0].([]uint32))
		case []uint64:
			copy(dd, a[0].([]uint64))
		case []float32:
			copy(dd, a[0].([]float32))
		case []float64:
			copy(dd, a[0].([]float64))
		case []complex64:
			copy(dd, a[0].([]complex64))
		case []complex128:
			copy(dd, a[0].([]complex128))
		}
		return nil
	}
}

func realParts(dst, src any) {
	switch s := src.(type) {
	case []complex64:
		d := dst.([]float32)
		for i := range d {
			d[i] = real(s[i])
		}
	case []complex128:
		d := dst.([]float64)
		for i := range d {
			d[i] = real(s[i])
		}
	}
}

func toComplex(dst, src any) {
	switch d := dst.(type) {
	case []complex64:
		s := src.([]float32)
		for i := range d {
			d[i] = complex(s[i], 0)
		}
	case []complex128:
		s := src.([]float64)
		for i := range d {
			d[i] = complex(s[i], 0)
		}
	}
}

func toBoolKernel(cf ctype) kfn {
	switch cf {
	case ctBool:
		return un(copyL[bool])
	case ctI8:
		return un(nonzeroL[int8])
	case ctI16:
		return un(nonzeroL[int16])
	case ctI32:
		return un(nonzeroL[int32])
	case ctI64:
		return un(nonzeroL[int64])
	case ctU8:
		return un(nonzeroL[uint8])
	case ctU16:
		return un(nonzeroL[uint16])
	case ctU32:
		return un(nonzeroL[uint32])
	case ctU64:
		return un(nonzeroL[uint64])
	case ctF32:
		return un(nonzeroL[float32])
	case ctF64:
		return un(nonzeroL[float64])
	case ctC64:
		return un(nonzeroL[complex64])
	default:
		return un(nonzeroL[complex128])
	}
}

func nonzeroL[T number](d []bool, a []T) {
	a = a[:len(d)]
	for i := range d {
		d[i] = a[i] != 0
	}
}

func fromBoolKernel(ct ctype) kfn {
	switch ct {
	case ctI8:
		return un(boolToL[int8])
	case ctI16:
		return un(boolToL[int16])
	case ctI32:
		return un(boolToL[int32])
	case ctI64:
		return un(boolToL[int64])
	case ctU8:
		return un(boolToL[uint8])
	case ctU16:
		return un(boolToL[uint16])
	case ctU32:
		return un(boolToL[uint32])
	case ctU64:
		return un(boolToL[uint64])
	case ctF32:
		return un(boolToL[float32])
	case ctF64:
		return un(boolToL[float64])
	case ctC64:
		return un(boolToC[complex64])
	default:
		return un(boolToC[complex128])
	}
}

// boolToC converts bools to the complex numbers 0 and 1.
func boolToC[T complex64 | complex128](d []T, a []bool) {
	a = a[:len(d)]
	for i := range d {
		if a[i] {
			d[i] = 1
		} else {
			d[i] = 0
		}
	}
}

// boolToL converts bools to 0 and 1 without a branch per element (a
// branch mispredicts on half of random data: sum(a > 0.5) spent 5 ns an
// element here): a Go bool is one byte holding 0 or 1.
func boolToL[T realNum](d []T, a []bool) {
	b := unsafe.Slice((*uint8)(unsafe.Pointer(unsafe.SliceData(a))), len(a))[:len(d)]
	for i := range d {
		d[i] = T(b[i])
	}
}

// convL converts with Go's conversion, which is exact for int → int
// (wrapping), int → float32/float64 (one rounding to nearest even) and
// float32 ↔ float64.
func convL[S, T realNum](d []T, a []S) {
	a = a[:len(d)]
	for i := range d {
		d[i] = T(a[i])
	}
}

// fromInt returns the conversion from integers of type S to dtype to (not
// bool, not complex).
func fromInt[S integer](to dtypes.DType) kfn {
	if unsafe.Sizeof(S(0)) == 1 && (to == dtypes.F16 || to == dtypes.BF16) {
		// An 8-bit integer has at most 8 significant bits: float16 (11)
		// and bfloat16 (8) hold every one exactly, so the conversion
		// needs no rounding.
		if k, err := castKernel(intDType[S](), dtypes.F32); err == nil {
			return k // vectorised where it can be
		}
		return un(convL[S, float32])
	}
	if narrow(to) {
		toF32, err := castKernel(intDType[S](), dtypes.F32)
		if err == nil && (unsafe.Sizeof(S(0)) <= 2 || to == dtypes.F16 || to == dtypes.F8E4M3 || to == dtypes.F8E5M2) {
			// float32 holds every integer of 16 bits or fewer, and any
			// other below 2^24 in magnitude; those it rounds are far past
			// the largest float16 or float8 and round to float32 values
			// past it too, which overflow alike: one rounding from
			// float32 (roundFloat32, vectorised) is the rounding from the
			// integer. int16 → float16 took 5.9 ms on 10^6, one element
			// at a time through float64.
			return func(d any, a []any) error {
				if err := toF32(d, a); err != nil {
					return err
				}
				roundFloat32(to, d.([]float32))
				return nil
			}
		}
		return un(func(d []float32, a []S) {
			a = a[:len(d)]
			for i := range d {
				d[i] = roundTo64(to, intToFloat64Odd(a[i]))
			}
		})
	}
	switch computeOf(to) {
	case ctI8:
		return intConv[S, int8]()
	case ctI16:
		return intConv[S, int16]()
	case ctI32:
		return intConv[S, int32]()
	case ctI64:
		return intConv[S, int64]()
	case ctU8:
		return intConv[S, uint8]()
	case ctU16:
		return intConv[S, uint16]()
	case ctU32:
		return intConv[S, uint32]()
	case ctU64:
		return intConv[S, uint64]()
	case ctF32:
		var zero S
		if unsafe.Sizeof(zero) == 8 && math.MaxInt == math.MaxInt32 {
			// Go's 32-bit platforms convert 64-bit integers to float32
			// in two roundings (1 ULP off at times); round to odd in
			// float64 first, then once to float32.
			return un(func(d []float32, a []S) {
				a = a[:len(d)]
				for i := range d {
					d[i] = float32(intToFloat64Odd(a[i]))
				}
			})
		}
		return un(convL[S, float32])
	default:
		return un(convL[S, float64])
	}
}

// intDType returns the dtype of the integers S.
func intDType[S integer]() dtypes.DType {
	switch any(S(0)).(type) {
	case int8:
		return dtypes.I8
	case int16:
		return dtypes.I16
	case int32:
		return dtypes.I32
	case int64:
		return dtypes.I64
	case uint8:
		return dtypes.U8
	case uint16:
		return dtypes.U16
	case uint32:
		return dtypes.U32
	}
	return dtypes.U64
}

// intConv returns the conversion of integers S to integers T: convL, or
// where they have the same size, a copy of the bits, read as T's
// signedness (int8 → uint8 took 0.37 ms on 10^6 in the Go loop).
func intConv[S, T integer]() kfn {
	if unsafe.Sizeof(S(0)) == unsafe.Sizeof(T(0)) {
		return un(func(d []T, a []S) {
			copy(d, unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(a))), len(a)))
		})
	}
	return un(convL[S, T])
}

// fromFloat returns the conversion from floats computed in S to dtype to
// (not bool, not complex).
func fromFloat[S float](to dtypes.DType) kfn {
	if _, f32 := any(S(0)).(float32); f32 && narrow(to) {
		return un(func(d, a []float32) {
			copy(d, a)
			roundFloat32(to, d)
		})
	}
	if _, f64 := any(S(0)).(float64); f64 && narrow(to) {
		if k := f64NarrowKernel(to); k != nil {
			return k
		}
	}
	if narrow(to) {
		return un(func(d []float32, a []S) {
			a = a[:len(d)]
			for i := range d {
				d[i] = roundTo64(to, float64(a[i]))
			}
		})
	}
	switch computeOf(to) {
	case ctI8:
		return un(floatToIntL[S, int8])
	case ctI16:
		return un(floatToIntL[S, int16])
	case ctI32:
		return un(floatToIntL[S, int32])
	case ctI64:
		return un(floatToIntL[S, int64])
	case ctU8:
		return un(floatToIntL[S, uint8])
	case ctU16:
		return un(floatToIntL[S, uint16])
	case ctU32:
		return un(floatToIntL[S, uint32])
	case ctU64:
		return un(floatToIntL[S, uint64])
	case ctF32:
		return un(convL[S, float32])
	default:
		return un(convL[S, float64])
	}
}

func floatToIntL[S float, T integer](d []T, a []S) {
	a = a[:len(d)]
	for i := range d {
		d[i] = floatToInt[T](float64(a[i]))
	}
}

// floatToInt converts x to T as NumPy does on x86-64 (see castKernel).
func floatToInt[T integer](x float64) T {
	var zero T
	isSigned := ^zero < 0
	switch unsafe.Sizeof(zero) {
	case 1, 2:
		return T(cvtt32(x))
	case 4:
		if isSigned {
			return T(cvtt32(x))
		}
		return T(cvtt64(x))
	}
	if isSigned {
		return T(cvtt64(x))
	}
	return T(cvttU64(x))
}

// cvtt32 is x86's cvttsd2si into 32 bits: truncation, with NaN and values
// out of range giving math.MinInt32.
func cvtt32(x float64) int32 {
	if x > -2147483649 && x < 2147483648 {
		return int32(x)
	}
	return math.MinInt32
}

// cvtt64 is cvttsd2si into 64 bits.
func cvtt64(x float64) int64 {
	if x >= -9223372036854775808 && x < 9223372036854775808 {
		return int64(x)
	}
	return math.MinInt64
}

// cvttU64 is GCC's float → uint64 sequence on x86-64.
func cvttU64(x float64) uint64 {
	if x >= 9223372036854775808 {
		return uint64(cvtt64(x-9223372036854775808)) ^ 1<<63
	}
	return uint64(cvtt64(x))
}

// intToFloat64Odd returns x as a float64, rounded to odd when it has more
// than 53 significant bits: rounding that value once more to any format of
// at most 51 significand bits gives the correctly rounded x.
func intToFloat64Odd[S integer](x S) float64 {
	var zero S
	if ^zero < 0 && x < 0 { // signed and negative
		return -u64ToFloat64Odd(uint64(-int64(x)))
	}
	return u64ToFloat64Odd(uint64(x))
}

func u64ToFloat64Odd(m uint64) float64 {
	if m < 1<<53 {
		return float64(m)
	}
	shift := bits.Len64(m) - 53
	keep := m >> shift
	if m&(1<<shift-1) != 0 {
		keep |= 1
	}
	return math.Ldexp(float64(keep), shift)
}
