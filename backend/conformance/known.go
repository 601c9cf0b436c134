package conformance

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/tensorsh/tensorsh/backend"
	"github.com/tensorsh/tensorsh/dtypes"
)

// knownCases are results the libraries document or give, for the
// functions where a wrong domain or a wrong special value is easy to miss:
// the C99 Annex F special values (which NumPy's loops, glibc, CUDA's math
// library and Go's math package follow: asin(2) is NaN, log10(0) is -inf,
// atanh(±1) is ±inf, acosh below 1 is NaN, hypot(±inf, NaN) is +inf,
// atan2(±0, -0) is ±pi), NumPy's sign (loops.c.src: 0 for either zero, NaN
// for NaN), integer square wrapping, and NumPy's integer reciprocal as
// NumPy 1.24 gives it on x86-64 (1/0 is the minimum of int32 and int64,
// 0 for int8 and the unsigned types).
var knownCases = []struct {
	op   backend.Op
	d    dtypes.DType
	a, b []float64 // b for binary operations
	want []float64 // for a bool result, 1 is true
}{
	{backend.OpAsin, dtypes.F64, []float64{2, -1, 0.5}, nil, []float64{math.NaN(), -math.Pi / 2, math.Asin(0.5)}},
	{backend.OpAcos, dtypes.F32, []float64{1, -1.5}, nil, []float64{0, math.NaN()}},
	{backend.OpLog10, dtypes.F64, []float64{0, 1000, -1, math.Inf(1)}, nil, []float64{math.Inf(-1), 3, math.NaN(), math.Inf(1)}},
	{backend.OpLog2, dtypes.F32, []float64{8, 0, 0.5}, nil, []float64{3, math.Inf(-1), -1}},
	{backend.OpExp2, dtypes.F64, []float64{10, -1, math.Inf(-1), 1024}, nil, []float64{1024, 0.5, 0, math.Inf(1)}},
	{backend.OpExpm1, dtypes.F64, []float64{0, math.Copysign(0, -1), math.Inf(-1), 1e-20}, nil, []float64{0, math.Copysign(0, -1), -1, 1e-20}},
	{backend.OpAtanh, dtypes.F64, []float64{1, -1, 2, 0}, nil, []float64{math.Inf(1), math.Inf(-1), math.NaN(), 0}},
	{backend.OpAcosh, dtypes.F64, []float64{1, 0.5}, nil, []float64{0, math.NaN()}},
	{backend.OpAsinh, dtypes.F64, []float64{0, math.Inf(-1)}, nil, []float64{0, math.Inf(-1)}},
	{backend.OpTan, dtypes.F64, []float64{0, math.Inf(1)}, nil, []float64{0, math.NaN()}},
	{backend.OpSinh, dtypes.F32, []float64{0, 100}, nil, []float64{0, math.Inf(1)}},
	{backend.OpCosh, dtypes.F64, []float64{0, math.Inf(-1)}, nil, []float64{1, math.Inf(1)}},
	{backend.OpAtan, dtypes.F64, []float64{math.Inf(1), 0}, nil, []float64{math.Pi / 2, 0}},
	{backend.OpSign, dtypes.F64, []float64{-2.5, math.Copysign(0, -1), 0, 3, math.NaN(), math.Inf(-1)}, nil, []float64{-1, 0, 0, 1, math.NaN(), -1}},
	{backend.OpSign, dtypes.I8, []float64{-128, 0, 7}, nil, []float64{-1, 0, 1}},
	{backend.OpSign, dtypes.U8, []float64{0, 200}, nil, []float64{0, 1}},
	{backend.OpSquare, dtypes.I8, []float64{12, -3}, nil, []float64{-112, 9}},
	{backend.OpSquare, dtypes.F32, []float64{3, math.NaN(), 1e20}, nil, []float64{9, math.NaN(), math.Inf(1)}},
	{backend.OpReciprocal, dtypes.I32, []float64{0, 1, -1, 2, -3}, nil, []float64{math.MinInt32, 1, -1, 0, 0}},
	{backend.OpReciprocal, dtypes.I64, []float64{0, 1}, nil, []float64{math.MinInt64, 1}},
	{backend.OpReciprocal, dtypes.I8, []float64{0, -1, -128}, nil, []float64{0, -1, 0}},
	{backend.OpReciprocal, dtypes.U32, []float64{0, 1, 2}, nil, []float64{0, 1, 0}},
	{backend.OpReciprocal, dtypes.F32, []float64{0, math.Copysign(0, -1), 4}, nil, []float64{math.Inf(1), math.Inf(-1), 0.25}},
	{backend.OpIsFinite, dtypes.F64, []float64{1, math.Inf(1), math.NaN(), -1e308}, nil, []float64{1, 0, 0, 1}},
	{backend.OpIsFinite, dtypes.I16, []float64{-5}, nil, []float64{1}},
	{backend.OpAtan2, dtypes.F64, []float64{1, 0, math.Copysign(0, -1), 1}, []float64{0, -1, -1, math.Inf(1)}, []float64{math.Pi / 2, math.Pi, -math.Pi, 0}},
	{backend.OpHypot, dtypes.F64, []float64{3, math.Inf(-1), 1e300, math.NaN()}, []float64{4, math.NaN(), 1e300, 1}, []float64{5, math.Inf(1), 1.4142135623730951e300, math.NaN()}},
	{backend.OpHypot, dtypes.F32, []float64{3, 1e30}, []float64{4, 1e30}, []float64{5, 1.4142135e30}},
}

// known checks the backend's results against knownCases, within one ULP
// (the functions are computed in float64 and rounded once).
func (c *checker) known(t *testing.T) {
	for _, k := range knownCases {
		name := fmt.Sprintf("%v %v %v", k.op, k.d, k.a)
		tensor := func(vs []float64) *backend.Tensor {
			if k.d.IsInt() {
				is := make([]int64, len(vs))
				for i, v := range vs {
					is[i] = int64(v)
				}
				return intTensor(k.d, is)
			}
			return floatTensor(k.d, vs)
		}
		n := unary(k.op, input(tensor(k.a)))
		if k.b != nil {
			n = binary(k.op, input(tensor(k.a)), input(tensor(k.b)))
		}
		want := tensor(k.want)
		if n.DType == dtypes.Bool {
			bs := make([]bool, len(k.want))
			for i, v := range k.want {
				bs[i] = v != 0
			}
			want = &backend.Tensor{DType: dtypes.Bool, Shape: []int{len(bs)}, Data: bs}
		}
		dn, err := c.onBackend(n, map[*backend.Node]*backend.Node{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		res, err := c.b.Run(context.Background(), dn)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		got, err := c.b.Fetch(res)
		if err != nil {
			t.Fatalf("%s: fetch: %v", name, err)
		}
		compare(t, name, got, want, tol{ulps: 1}, n)
		c.free(res)
	}
}
