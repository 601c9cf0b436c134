package format

import (
	"github.com/tensorsh/tensorsh/backend"
	"github.com/tensorsh/tensorsh/dtypes"
)

// Constructors of test tensors. Each takes the shape, then the elements in
// row-major order; nil shape means 0-d.

func tensor(d dtypes.DType, shape []int, data any) *backend.Tensor {
	if shape == nil {
		shape = []int{}
	}
	return &backend.Tensor{DType: d, Shape: shape, Data: data}
}

func sh(dims ...int) []int { return dims }

func f64(shape []int, v ...float64) *backend.Tensor { return tensor(dtypes.F64, shape, v) }

func f32(shape []int, v ...float64) *backend.Tensor {
	s := make([]float32, len(v))
	for i, x := range v {
		s[i] = float32(x)
	}
	return tensor(dtypes.F32, shape, s)
}

func tf32(shape []int, v ...float64) *backend.Tensor {
	s := make([]float32, len(v))
	for i, x := range v {
		s[i] = dtypes.TF32Round(float32(x))
	}
	return tensor(dtypes.TF32, shape, s)
}

func f16(shape []int, v ...float64) *backend.Tensor {
	s := make([]uint16, len(v))
	for i, x := range v {
		s[i] = dtypes.F16FromFloat64(x)
	}
	return tensor(dtypes.F16, shape, s)
}

func bf16(shape []int, v ...float64) *backend.Tensor {
	s := make([]uint16, len(v))
	for i, x := range v {
		s[i] = dtypes.BF16FromFloat64(x)
	}
	return tensor(dtypes.BF16, shape, s)
}

func e4m3(shape []int, v ...float64) *backend.Tensor {
	s := make([]uint8, len(v))
	for i, x := range v {
		s[i] = dtypes.F8E4M3FromFloat64(x)
	}
	return tensor(dtypes.F8E4M3, shape, s)
}

func e5m2(shape []int, v ...float64) *backend.Tensor {
	s := make([]uint8, len(v))
	for i, x := range v {
		s[i] = dtypes.F8E5M2FromFloat64(x)
	}
	return tensor(dtypes.F8E5M2, shape, s)
}

func c128(shape []int, v ...complex128) *backend.Tensor { return tensor(dtypes.C128, shape, v) }

func c64(shape []int, v ...complex128) *backend.Tensor {
	s := make([]complex64, len(v))
	for i, x := range v {
		s[i] = complex64(x)
	}
	return tensor(dtypes.C64, shape, s)
}

func bools(shape []int, v ...bool) *backend.Tensor { return tensor(dtypes.Bool, shape, v) }

// ints makes an integer tensor of dtype d (index and address included).
func ints(d dtypes.DType, shape []int, v ...int64) *backend.Tensor {
	var data any
	switch d {
	case dtypes.I8:
		data = conv[int8](v)
	case dtypes.I16:
		data = conv[int16](v)
	case dtypes.I32:
		data = conv[int32](v)
	case dtypes.I64:
		data = v
	case dtypes.U8:
		data = conv[uint8](v)
	case dtypes.U16:
		data = conv[uint16](v)
	case dtypes.U32:
		data = conv[uint32](v)
	default:
		data = conv[uint64](v)
	}
	return tensor(d, shape, data)
}

func u64(shape []int, v ...uint64) *backend.Tensor { return tensor(dtypes.U64, shape, v) }

// arange returns 0, 1, …, n-1 scaled by step.
func arange(n int, step float64) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = float64(i) * step
	}
	return v
}

func arangeInt(n int) []int64 {
	v := make([]int64, n)
	for i := range v {
		v[i] = int64(i)
	}
	return v
}

// c32 makes a complex32 tensor, each part rounded to float16.
func c32(shape []int, v ...complex128) *backend.Tensor {
	s := make([]uint32, len(v))
	for i, x := range v {
		s[i] = dtypes.C32FromComplex128(x)
	}
	return &backend.Tensor{DType: dtypes.C32, Shape: shape, Data: s}
}
