package eval

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/tensorsh/tensorsh/backend"
	"github.com/tensorsh/tensorsh/dtypes"
	"github.com/tensorsh/tensorsh/promote"
)

// A Kind says what a Value holds.
type Kind uint8

// The kinds of values.
const (
	TensorValue  Kind = iota // a tensor (0-d included) with a dtype and weak flag
	LiteralValue             // a literal not yet given a dtype (a Python scalar)
	DTypeValue               // a dtype, from promote(…), dtype(x) or a dtype name
	StringValue              // a string
	ShapeValue               // a shape tuple, from shape(x) or broadcast_shapes(…)
	TextValue                // preformatted text, from explain, table, …
)

// A Value is the result of a statement, and what a variable holds.
type Value struct {
	Kind Kind
	// Type is the dtype and weak flag of a tensor or literal (for a literal:
	// the policy's literal default), or the dtype of a DTypeValue.
	Type dtypes.Type
	// Tensor holds a TensorValue's data, on the backend named by Device,
	// in the order Perm gives.
	Tensor *backend.Tensor
	Device string
	// Perm, when not nil, says that the value is Tensor transposed by Perm
	// (dimension i of the value is dimension Perm[i] of Tensor): an
	// elementwise result keeps its operands' order, as NumPy's does, and
	// Session.Fetch gives the row-major form.
	Perm []int
	// Lit is a LiteralValue's exact value.
	Lit promote.Scalar
	// Str is a StringValue's text, or a TextValue's plain text.
	Str string
	// HTML and SVG are rich forms of a TextValue (may be empty).
	HTML, SVG string
	// Shape is a ShapeValue's dims.
	Shape []int
}

// Dims returns the shape of a tensor value (nil, i.e. 0-d, for literals).
func (v *Value) Dims() []int {
	if v.Kind != TensorValue {
		return nil
	}
	if v.Perm == nil {
		return v.Tensor.Shape
	}
	d := make([]int, len(v.Perm))
	for i, p := range v.Perm {
		d[i] = v.Tensor.Shape[p]
	}
	return d
}

// Describe returns a short description: "f32?[3]", "i32? literal 3", "dtype".
func (v *Value) Describe() string {
	switch v.Kind {
	case TensorValue:
		return v.Type.String() + formatDims(v.Dims())
	case LiteralValue:
		return v.litTypeName() + " literal " + v.Lit.String()
	case DTypeValue:
		return "dtype " + v.Type.String()
	case StringValue:
		return "string"
	case ShapeValue:
		return "shape " + formatShape(v.Shape)
	}
	return "text"
}

func formatDims(s []int) string {
	if len(s) == 0 {
		return ""
	}
	b := make([]byte, 0, 2+4*len(s))
	b = append(b, '[')
	for i, d := range s {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(d), 10)
	}
	return string(append(b, ']'))
}

func formatShape(s []int) string {
	switch len(s) {
	case 0:
		return "()"
	case 1:
		return fmt.Sprintf("(%d,)", s[0])
	}
	parts := make([]string, len(s))
	for i, d := range s {
		parts[i] = fmt.Sprint(d)
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

// fullTensor returns a CPU tensor of dtype d and shape whose elements the
// caller sets, every one: storage from the CPU backend (a recycled block
// of the size when one is free, see cpu.Backend.StorageFull), or
// newTensor's.
func (s *Session) fullTensor(d dtypes.DType, shape []int) *backend.Tensor {
	if a, ok := s.backends["cpu"].(interface {
		StorageFull(d dtypes.DType, n int) any
	}); ok {
		return &backend.Tensor{DType: d, Shape: append([]int(nil), shape...), Data: a.StorageFull(d, backend.Size(shape))}
	}
	return newTensor(d, shape)
}

// newTensor allocates a CPU tensor of dtype d and shape.
func newTensor(d dtypes.DType, shape []int) *backend.Tensor {
	n := backend.Size(shape)
	t := &backend.Tensor{DType: d, Shape: append([]int(nil), shape...)}
	switch d {
	case dtypes.Bool:
		t.Data = make([]bool, n)
	case dtypes.I8:
		t.Data = make([]int8, n)
	case dtypes.I16:
		t.Data = make([]int16, n)
	case dtypes.I32:
		t.Data = make([]int32, n)
	case dtypes.I64:
		t.Data = make([]int64, n)
	case dtypes.U8, dtypes.F8E4M3, dtypes.F8E5M2:
		t.Data = make([]uint8, n)
	case dtypes.U16, dtypes.F16, dtypes.BF16:
		t.Data = make([]uint16, n)
	case dtypes.U32, dtypes.C32:
		t.Data = make([]uint32, n)
	case dtypes.U64, dtypes.Index, dtypes.Address:
		t.Data = make([]uint64, n)
	case dtypes.F32, dtypes.TF32:
		t.Data = make([]float32, n)
	case dtypes.F64:
		t.Data = make([]float64, n)
	case dtypes.C64:
		t.Data = make([]complex64, n)
	case dtypes.C128:
		t.Data = make([]complex128, n)
	default:
		panic("eval: newTensor of invalid dtype " + d.String())
	}
	return t
}

// wrapInt returns the low 64 bits of i in two's complement.
func wrapInt(i *big.Int) uint64 {
	if i.Sign() >= 0 && i.BitLen() <= 64 {
		return i.Uint64()
	}
	m := new(big.Int).And(i, new(big.Int).SetUint64(math.MaxUint64))
	return m.Uint64()
}

// roundInt rounds integer i to a float with mant explicit mantissa bits,
// to nearest even, directly (no double rounding through float64).
func roundInt(i *big.Int, mant uint) float64 {
	f := new(big.Float).SetPrec(mant + 1).SetMode(big.ToNearestEven).SetInt(i)
	r, _ := f.Float64()
	return r
}

// setScalar stores literal v, converted to t's dtype, at element k of t.
// Integers wrap like a C cast; floats round to nearest even, directly;
// a float converted to an integer dtype truncates toward zero.
func setScalar(t *backend.Tensor, k int, v promote.Scalar) {
	d := t.DType
	switch d.Kind() {
	case dtypes.KindBool:
		t.Data.([]bool)[k] = truth(v)
		return
	case dtypes.KindInt, dtypes.KindUint:
		var bits uint64
		switch v.Kind {
		case promote.BoolScalar, promote.IntScalar:
			bits = wrapInt(intOf(v))
		case promote.FloatScalar:
			bits = floatToIntBits(v.Float, d)
		default:
			bits = floatToIntBits(real(v.Complex), d)
		}
		setIntBits(t, k, bits)
		return
	}
	var re, im float64
	switch v.Kind {
	case promote.BoolScalar, promote.IntScalar:
		i := intOf(v)
		if d == dtypes.C64 || d == dtypes.C128 || d == dtypes.F64 {
			re = roundInt(i, 52)
		} else {
			re = roundInt(i, uint(d.MantissaBits()))
		}
	case promote.FloatScalar:
		re = v.Float
	default:
		re, im = real(v.Complex), imag(v.Complex)
	}
	switch d {
	case dtypes.F16:
		t.Data.([]uint16)[k] = dtypes.F16FromFloat64(re)
	case dtypes.BF16:
		t.Data.([]uint16)[k] = dtypes.BF16FromFloat64(re)
	case dtypes.F8E4M3:
		t.Data.([]uint8)[k] = dtypes.F8E4M3FromFloat64(re)
	case dtypes.F8E5M2:
		t.Data.([]uint8)[k] = dtypes.F8E5M2FromFloat64(re)
	case dtypes.F32:
		t.Data.([]float32)[k] = float32(re)
	case dtypes.TF32:
		t.Data.([]float32)[k] = dtypes.TF32Round(float32(re))
	case dtypes.F64:
		t.Data.([]float64)[k] = re
	case dtypes.C32:
		t.Data.([]uint32)[k] = dtypes.C32FromComplex128(complex(re, im))
	case dtypes.C64:
		t.Data.([]complex64)[k] = complex64(complex(re, im))
	case dtypes.C128:
		t.Data.([]complex128)[k] = complex(re, im)
	}
}

// floatToIntBits converts f to integer dtype d like NumPy's astype on x86:
// truncation toward zero; NaN and out-of-range values give the integer
// indefinite value (the minimum int64) before narrowing.
func floatToIntBits(f float64, d dtypes.DType) uint64 {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return 1 << 63
	}
	f = math.Trunc(f)
	if d.IsUnsigned() && d.Bits() == 64 {
		if f >= 0 && f < 1<<64 {
			return uint64(f)
		}
		if f < 0 && f >= -(1<<63) {
			return uint64(int64(f))
		}
		return 1 << 63
	}
	if f >= -(1<<63) && f < 1<<63 {
		return uint64(int64(f))
	}
	return 1 << 63
}

func setIntBits(t *backend.Tensor, k int, bits uint64) {
	switch data := t.Data.(type) {
	case []int8:
		data[k] = int8(bits)
	case []int16:
		data[k] = int16(bits)
	case []int32:
		data[k] = int32(bits)
	case []int64:
		data[k] = int64(bits)
	case []uint8:
		data[k] = uint8(bits)
	case []uint16:
		data[k] = uint16(bits)
	case []uint32:
		data[k] = uint32(bits)
	case []uint64:
		data[k] = bits
	}
}

// scalarAt returns element k of a CPU tensor as an exact Scalar.
func scalarAt(t *backend.Tensor, k int) promote.Scalar {
	switch data := t.Data.(type) {
	case []bool:
		return promote.BoolValue(data[k])
	case []int8:
		return promote.Int64Value(int64(data[k]))
	case []int16:
		return promote.Int64Value(int64(data[k]))
	case []int32:
		return promote.Int64Value(int64(data[k]))
	case []int64:
		return promote.Int64Value(data[k])
	case []uint8:
		switch t.DType {
		case dtypes.F8E4M3:
			return promote.FloatValue(dtypes.F8E4M3ToFloat64(data[k]))
		case dtypes.F8E5M2:
			return promote.FloatValue(dtypes.F8E5M2ToFloat64(data[k]))
		}
		return promote.Int64Value(int64(data[k]))
	case []uint16:
		switch t.DType {
		case dtypes.F16:
			return promote.FloatValue(dtypes.F16ToFloat64(data[k]))
		case dtypes.BF16:
			return promote.FloatValue(dtypes.BF16ToFloat64(data[k]))
		}
		return promote.Int64Value(int64(data[k]))
	case []uint32:
		if t.DType == dtypes.C32 {
			return promote.ComplexValue(dtypes.C32ToComplex128(data[k]))
		}
		return promote.Int64Value(int64(data[k]))
	case []uint64:
		return promote.IntValue(new(big.Int).SetUint64(data[k]))
	case []float32:
		return promote.FloatValue(float64(data[k]))
	case []float64:
		return promote.FloatValue(data[k])
	case []complex64:
		return promote.ComplexValue(complex128(data[k]))
	case []complex128:
		return promote.ComplexValue(data[k])
	}
	panic(fmt.Sprintf("eval: scalarAt of %T", t.Data))
}
