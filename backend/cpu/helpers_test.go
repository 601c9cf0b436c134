package cpu

import (
	"context"
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/tensorsh/tensorsh/backend"
	"github.com/tensorsh/tensorsh/backend/internal/plantest"
	"github.com/tensorsh/tensorsh/dtypes"
)

// mk builds a tensor of dtype d and shape from float64 values (converted
// exactly: ints by Go conversion, narrow floats by dtypes' rounding).
func mk(d dtypes.DType, shape []int, vals ...float64) *backend.Tensor {
	n := backend.Size(shape)
	if len(vals) != n {
		panic(fmt.Sprintf("mk: %d values for shape %v", len(vals), shape))
	}
	data := backend.NewStorage(d, n)
	for i, v := range vals {
		switch s := data.(type) {
		case []bool:
			s[i] = v != 0
		case []int8:
			s[i] = int8(v)
		case []int16:
			s[i] = int16(v)
		case []int32:
			s[i] = int32(v)
		case []int64:
			s[i] = int64(v)
		case []uint8:
			switch d {
			case dtypes.F8E4M3:
				s[i] = dtypes.F8E4M3FromFloat64(v)
			case dtypes.F8E5M2:
				s[i] = dtypes.F8E5M2FromFloat64(v)
			default:
				s[i] = uint8(v)
			}
		case []uint16:
			switch d {
			case dtypes.F16:
				s[i] = dtypes.F16FromFloat64(v)
			case dtypes.BF16:
				s[i] = dtypes.BF16FromFloat64(v)
			default:
				s[i] = uint16(v)
			}
		case []uint32:
			s[i] = uint32(v)
			if d == dtypes.C32 {
				s[i] = dtypes.C32FromComplex128(complex(v, 0))
			}
		case []uint64:
			s[i] = uint64(v)
		case []float32:
			s[i] = float32(v)
			if d == dtypes.TF32 {
				s[i] = dtypes.TF32Round(float32(v))
			}
		case []float64:
			s[i] = v
		case []complex64:
			s[i] = complex(float32(v), 0)
		case []complex128:
			s[i] = complex(v, 0)
		}
	}
	return &backend.Tensor{DType: d, Shape: shape, Data: data}
}

// raw wraps storage data in a tensor.
func raw(d dtypes.DType, shape []int, data any) *backend.Tensor {
	return &backend.Tensor{DType: d, Shape: shape, Data: data}
}

// Plan nodes: an input, a binary and a unary operation.
var (
	in = plantest.In
	nb = plantest.Binary
	nu = plantest.Unary
)

func cast(a *backend.Node, d dtypes.DType) *backend.Node {
	return &backend.Node{Op: backend.OpCast, DType: d, Shape: a.Shape, Args: []*backend.Node{a}}
}

func run(t *testing.T, n *backend.Node, opts ...Option) *backend.Tensor {
	t.Helper()
	res, err := New(opts...).Run(context.Background(), n)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if res.DType != n.DType || !slices.Equal(res.Shape, n.Shape) {
		t.Fatalf("Run gave %v%v, want %v%v", res.DType, res.Shape, n.DType, n.Shape)
	}
	if err := backend.CheckStorage(res.DType, res.Data, backend.Size(res.Shape)); err != nil {
		t.Fatalf("Run: %v", err)
	}
	return res
}

func runErr(n *backend.Node, opts ...Option) error {
	_, err := New(opts...).Run(context.Background(), n)
	return err
}

// vals returns the elements of t as float64 (real parts of complex
// numbers, 0/1 for bool, decoded narrow floats).
func vals(t *backend.Tensor) []float64 {
	n := backend.Size(t.Shape)
	out := make([]float64, n)
	for i := range out {
		out[i] = at(t, i)
	}
	return out
}

func at(t *backend.Tensor, i int) float64 {
	switch s := t.Data.(type) {
	case []bool:
		if s[i] {
			return 1
		}
		return 0
	case []int8:
		return float64(s[i])
	case []int16:
		return float64(s[i])
	case []int32:
		return float64(s[i])
	case []int64:
		return float64(s[i])
	case []uint8:
		switch t.DType {
		case dtypes.F8E4M3:
			return dtypes.F8E4M3ToFloat64(s[i])
		case dtypes.F8E5M2:
			return dtypes.F8E5M2ToFloat64(s[i])
		}
		return float64(s[i])
	case []uint16:
		switch t.DType {
		case dtypes.F16:
			return dtypes.F16ToFloat64(s[i])
		case dtypes.BF16:
			return dtypes.BF16ToFloat64(s[i])
		}
		return float64(s[i])
	case []uint32:
		if t.DType == dtypes.C32 {
			return real(dtypes.C32ToComplex128(s[i]))
		}
		return float64(s[i])
	case []uint64:
		return float64(s[i])
	case []float32:
		return float64(s[i])
	case []float64:
		return s[i]
	case []complex64:
		return float64(real(s[i]))
	case []complex128:
		return real(s[i])
	}
	panic("at: bad data")
}

// same reports whether a and b are the same float64, telling -0 from +0
// and treating NaNs as equal.
func same(a, b float64) bool {
	if math.IsNaN(a) || math.IsNaN(b) {
		return math.IsNaN(a) && math.IsNaN(b)
	}
	return a == b && math.Signbit(a) == math.Signbit(b)
}

func sameAll(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !same(a[i], b[i]) {
			return false
		}
	}
	return true
}

// seq returns 0, 1, …, n-1 scaled by step and shifted by start.
func seq(n int, start, step float64) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = start + float64(i)*step
	}
	return v
}

var (
	nan  = math.NaN()
	inf  = math.Inf(1)
	negz = math.Copysign(0, -1)
)
