package cpu

import (
	"math"
	"testing"

	"github.com/tensorsh/tensorsh/backend"
	"github.com/tensorsh/tensorsh/dtypes"
)

// TestComplexMinMax pins the order of complex maximum and minimum.
//
// NumPy (numpy/_core/src/umath/loops.c.src, @TYPE@_maximum/_minimum)
// keeps the first operand a when a part of a is NaN or CGE(a, b) (CLE)
// holds, CGE(a, b) = (ar > br && !isnan(ai) && !isnan(bi)) ||
// (ar == br && ai >= bi): lexicographic, a NaN propagates (a's first), ties
// keep a. JAX (jax/_src/interpreters/mlir.py, _minmax_hlo, the lowering of
// lax.max and lax.min) selects a where (ar == br ? ai > bi : ar > br) (LT
// for min), else b: a NaN compares false, so b wins.
func TestComplexMinMax(t *testing.T) {
	nan := math.NaN()
	c := func(re, im float64) complex128 { return complex(re, im) }
	a := []complex128{c(1, 2), c(1, 3), c(nan, 0), c(5, 0), c(2, nan), c(2, 1), c(0, 0), c(3, 1)}
	b := []complex128{c(1, 3), c(1, 2), c(5, 0), c(nan, 0), c(2, 0), c(2, nan), c(math.Copysign(0, -1), 0), c(3, 1)}
	for _, tc := range []struct {
		op   backend.Op
		xla  bool
		want []complex128
	}{
		{backend.OpMax, false, []complex128{c(1, 3), c(1, 3), c(nan, 0), c(nan, 0), c(2, nan), c(2, nan), c(0, 0), c(3, 1)}},
		{backend.OpMin, false, []complex128{c(1, 2), c(1, 2), c(nan, 0), c(nan, 0), c(2, nan), c(2, nan), c(0, 0), c(3, 1)}},
		{backend.OpMax, true, []complex128{c(1, 3), c(1, 3), c(5, 0), c(nan, 0), c(2, 0), c(2, nan), c(math.Copysign(0, -1), 0), c(3, 1)}},
		{backend.OpMin, true, []complex128{c(1, 2), c(1, 2), c(5, 0), c(nan, 0), c(2, 0), c(2, nan), c(math.Copysign(0, -1), 0), c(3, 1)}},
	} {
		for _, d := range []dtypes.DType{dtypes.C64, dtypes.C128} {
			n := nb(tc.op, in(complexTensor(d, a)), in(complexTensor(d, b)))
			n.XLAMinMax = tc.xla
			got := complexValues(run(t, n))
			for i := range got {
				w := tc.want[i]
				if !sameComplex(got[i], w) {
					t.Errorf("%v %v xla=%v: %v, %v → %v, want %v", tc.op, d, tc.xla, a[i], b[i], got[i], w)
				}
			}
		}
	}
}

// TestComplexOrderReductions pins NumPy's complex max, min (maximum.reduce and
// minimum.reduce: the loop above folded in order, so the first NaN wins)
// and argmax, argmin (numpy/_core/src/multiarray/arraytypes.c.src,
// @fname@_argmax for CFLOAT/CDOUBLE: lexicographic, strictly greater
// replaces, and the first element with a NaN part is the answer).
func TestComplexOrderReductions(t *testing.T) {
	nan := math.NaN()
	c := func(re, im float64) complex128 { return complex(re, im) }
	for _, tc := range []struct {
		x              []complex128
		max, min       complex128
		argmax, argmin int64
	}{
		{[]complex128{c(1, 2), c(3, -1), c(3, -2), c(-1, 5)}, c(3, -1), c(-1, 5), 1, 3},
		{[]complex128{c(2, 0), c(2, 0), c(1, 0)}, c(2, 0), c(1, 0), 0, 2},
		{[]complex128{c(1, 0), c(2, nan), c(nan, 0), c(9, 9)}, c(2, nan), c(2, nan), 1, 1},
		{[]complex128{c(nan, 1), c(9, 9)}, c(nan, 1), c(nan, 1), 0, 0},
	} {
		for _, d := range []dtypes.DType{dtypes.C64, dtypes.C128} {
			x := in(complexTensor(d, tc.x))
			if got := complexValues(run(t, red(backend.OpReduceMax, d, x, false)))[0]; !sameComplex(got, tc.max) {
				t.Errorf("max %v %v = %v, want %v", d, tc.x, got, tc.max)
			}
			if got := complexValues(run(t, red(backend.OpReduceMin, d, x, false)))[0]; !sameComplex(got, tc.min) {
				t.Errorf("min %v %v = %v, want %v", d, tc.x, got, tc.min)
			}
			if got := run(t, red(backend.OpArgMax, dtypes.I64, x, false)).Data.([]int64)[0]; got != tc.argmax {
				t.Errorf("argmax %v %v = %d, want %d", d, tc.x, got, tc.argmax)
			}
			if got := run(t, red(backend.OpArgMin, dtypes.I64, x, false)).Data.([]int64)[0]; got != tc.argmin {
				t.Errorf("argmin %v %v = %d, want %d", d, tc.x, got, tc.argmin)
			}
		}
	}
}

func complexTensor(d dtypes.DType, v []complex128) *backend.Tensor {
	if d == dtypes.C64 {
		s := make([]complex64, len(v))
		for i, x := range v {
			s[i] = complex64(x)
		}
		return raw(d, []int{len(v)}, s)
	}
	return raw(d, []int{len(v)}, append([]complex128(nil), v...))
}

func complexValues(t *backend.Tensor) []complex128 {
	switch s := t.Data.(type) {
	case []complex64:
		out := make([]complex128, len(s))
		for i, x := range s {
			out[i] = complex128(x)
		}
		return out
	}
	return t.Data.([]complex128)
}

// sameComplex compares parts bit for bit, any NaN matching any NaN.
func sameComplex(a, b complex128) bool {
	same := func(x, y float64) bool {
		return math.Float64bits(x) == math.Float64bits(y) || math.IsNaN(x) && math.IsNaN(y)
	}
	return same(real(a), real(b)) && same(imag(a), imag(b))
}
