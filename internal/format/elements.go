package format

import (
	"fmt"
	"math"
	"strconv"

	"github.com/tensorsh/tensorsh/backend"
	"github.com/tensorsh/tensorsh/dtypes"
)

// Check reports whether t can be formatted: a known dtype, no negative
// dimension, and Data holding the CPU slice type of the dtype (see
// backend.Tensor) with one element per position of Shape. The other
// functions of this package call it; Values and HTML show its error in
// place of the values, JSON returns it.
func Check(t *backend.Tensor) error {
	if t == nil {
		return fmt.Errorf("format: nil tensor")
	}
	if !t.DType.IsValid() {
		return fmt.Errorf("format: invalid dtype %v", t.DType)
	}
	n := 1
	for _, d := range t.Shape {
		if d < 0 {
			return fmt.Errorf("format: negative dimension in shape %v", t.Shape)
		}
		if d != 0 && n > math.MaxInt/d {
			return fmt.Errorf("format: shape %v is too large", t.Shape)
		}
		n *= d
	}
	var got int
	ok := true
	switch t.DType {
	case dtypes.Bool:
		got, ok = lenOf[bool](t.Data)
	case dtypes.I8:
		got, ok = lenOf[int8](t.Data)
	case dtypes.I16:
		got, ok = lenOf[int16](t.Data)
	case dtypes.I32:
		got, ok = lenOf[int32](t.Data)
	case dtypes.I64:
		got, ok = lenOf[int64](t.Data)
	case dtypes.U8, dtypes.F8E4M3, dtypes.F8E5M2:
		got, ok = lenOf[uint8](t.Data)
	case dtypes.U16, dtypes.F16, dtypes.BF16:
		got, ok = lenOf[uint16](t.Data)
	case dtypes.U32, dtypes.C32:
		got, ok = lenOf[uint32](t.Data)
	case dtypes.U64, dtypes.Index, dtypes.Address:
		got, ok = lenOf[uint64](t.Data)
	case dtypes.F32, dtypes.TF32:
		got, ok = lenOf[float32](t.Data)
	case dtypes.F64:
		got, ok = lenOf[float64](t.Data)
	case dtypes.C64:
		got, ok = lenOf[complex64](t.Data)
	case dtypes.C128:
		got, ok = lenOf[complex128](t.Data)
	default:
		return fmt.Errorf("format: no CPU layout for dtype %v", t.DType)
	}
	if !ok {
		return fmt.Errorf("format: %v tensor holds %T, not its CPU slice type", t.DType, t.Data)
	}
	if got != n {
		return fmt.Errorf("format: %v tensor of shape %v has %d elements, want %d", t.DType, t.Shape, got, n)
	}
	return nil
}

func lenOf[T any](data any) (int, bool) {
	s, ok := data.([]T)
	return len(s), ok
}

// An elemKind is how a dtype's elements are printed.
type elemKind uint8

const (
	kindBool elemKind = iota
	kindInt
	kindUint
	kindFloat
	kindComplex
)

// elems reads the elements of a checked tensor by flat index.
type elems struct {
	dtype dtypes.DType
	kind  elemKind
	ff    floatFormat // of floats, or of the parts of complex values
	data  any
}

func newElems(t *backend.Tensor) elems {
	e := elems{dtype: t.DType, data: t.Data}
	switch d := t.DType; {
	case d.IsBool():
		e.kind = kindBool
	case d.IsSigned():
		e.kind = kindInt
	case d.IsUnsigned():
		e.kind = kindUint
	case d.IsFloat():
		e.kind = kindFloat
		e.ff = floatFormatOf(d)
	case d.IsComplex():
		e.kind = kindComplex
		e.ff = floatFormatOf(d)
	}
	return e
}

func (e elems) boolAt(i int) bool { return e.data.([]bool)[i] }

func (e elems) intAt(i int) int64 {
	switch s := e.data.(type) {
	case []int8:
		return int64(s[i])
	case []int16:
		return int64(s[i])
	case []int32:
		return int64(s[i])
	case []int64:
		return s[i]
	}
	return 0
}

func (e elems) uintAt(i int) uint64 {
	switch s := e.data.(type) {
	case []uint8:
		return uint64(s[i])
	case []uint16:
		return uint64(s[i])
	case []uint32:
		return uint64(s[i])
	case []uint64:
		return s[i]
	}
	return 0
}

// floatAt returns the exact value of float element i.
func (e elems) floatAt(i int) float64 {
	switch e.dtype {
	case dtypes.F16:
		return dtypes.F16ToFloat64(e.data.([]uint16)[i])
	case dtypes.BF16:
		return dtypes.BF16ToFloat64(e.data.([]uint16)[i])
	case dtypes.F8E4M3:
		return dtypes.F8E4M3ToFloat64(e.data.([]uint8)[i])
	case dtypes.F8E5M2:
		return dtypes.F8E5M2ToFloat64(e.data.([]uint8)[i])
	case dtypes.F32:
		return float64(e.data.([]float32)[i])
	case dtypes.TF32:
		// Round in case a producer left extra mantissa bits.
		return float64(dtypes.TF32Round(e.data.([]float32)[i]))
	case dtypes.F64:
		return e.data.([]float64)[i]
	}
	return 0
}

// complexAt returns the parts of complex element i.
func (e elems) complexAt(i int) (re, im float64) {
	switch s := e.data.(type) {
	case []complex64:
		return float64(real(s[i])), float64(imag(s[i]))
	case []complex128:
		return real(s[i]), imag(s[i])
	case []uint32: // complex32 bits
		c := dtypes.C32ToComplex128(s[i])
		return real(c), imag(c)
	}
	return 0, 0
}

// repr returns element i the way numpy prints a scalar of its dtype, with
// bools as true and false.
func (e elems) repr(i int) string {
	switch e.kind {
	case kindBool:
		return strconv.FormatBool(e.boolAt(i))
	case kindInt:
		return strconv.FormatInt(e.intAt(i), 10)
	case kindUint:
		return strconv.FormatUint(e.uintAt(i), 10)
	case kindFloat:
		return floatRepr(e.floatAt(i), e.ff, false)
	default:
		re, im := e.complexAt(i)
		return complexRepr(re, im, e.ff)
	}
}
