package cpu

import (
	"math"
	"math/rand"
	"slices"
	"testing"

	"github.com/tensorsh/tensorsh/backend"
	"github.com/tensorsh/tensorsh/dtypes"
)

func scanNode(op backend.Op, x *backend.Tensor, axis int) *backend.Node {
	return &backend.Node{Op: op, DType: x.DType, Shape: x.Shape, Args: []*backend.Node{in(x)}, Axes: []int{axis}}
}

// TestScanKnown pins cumsum and cumprod against values NumPy 1.24 gives
// (np.cumsum and np.cumprod, which are add.accumulate and
// multiply.accumulate: the first element copied, then one step at a time
// in the dtype's loop; numpy/_core/src/umath/loops.c.src HALF_add
// rounds to float16 after every step).
func TestScanKnown(t *testing.T) {
	cases := []struct {
		name string
		op   backend.Op
		x    *backend.Tensor
		axis int
		want []float64
	}{
		// np.cumsum(np.int8(...), dtype=np.int8) wraps: [100, -56, 44].
		{"i8 wraps", backend.OpCumSum, mk(dtypes.I8, []int{3}, 100, 100, 100), 0, []float64{100, -56, 44}},
		{"i64", backend.OpCumSum, mk(dtypes.I64, []int{2}, 100, 100), 0, []float64{100, 200}},
		// np.cumsum(np.float16([0.1, 0.2, 0.3, 1000, 0.1, 0.1])).
		{"f16 rounds each step", backend.OpCumSum, mk(dtypes.F16, []int{6}, 0.1, 0.2, 0.3, 1000, 0.1, 0.1), 0,
			[]float64{0.0999755859375, 0.2998046875, 0.599609375, 1000.5, 1000.5, 1000.5}},
		// Sequential, not pairwise: np.cumsum(np.float32([1e8, 1, 1, 1, -1e8, 0.5])).
		{"f32 sequential", backend.OpCumSum, mk(dtypes.F32, []int{6}, 1e8, 1, 1, 1, -1e8, 0.5), 0, []float64{1e8, 1e8, 1e8, 1e8, 0, 0.5}},
		// np.cumsum(np.arange(6).reshape(2, 3), axis=0).
		{"axis 0", backend.OpCumSum, mk(dtypes.I64, []int{2, 3}, 0, 1, 2, 3, 4, 5), 0, []float64{0, 1, 2, 3, 5, 7}},
		// np.cumprod(np.arange(1, 7).reshape(2, 3), axis=1).
		{"cumprod axis 1", backend.OpCumProd, mk(dtypes.I64, []int{2, 3}, 1, 2, 3, 4, 5, 6), 1, []float64{1, 2, 6, 4, 20, 120}},
		{"i32 cumprod wraps", backend.OpCumProd, mk(dtypes.I32, []int{3}, 65536, 65536, 3), 0, []float64{65536, 0, 0}},
		{"bool cumsum is or", backend.OpCumSum, mk(dtypes.Bool, []int{3}, 0, 1, 0), 0, []float64{0, 1, 1}},
		{"bool cumprod is and", backend.OpCumProd, mk(dtypes.Bool, []int{3}, 1, 0, 1), 0, []float64{1, 0, 0}},
		{"empty", backend.OpCumSum, mk(dtypes.F64, []int{0, 3}), 0, []float64{}},
	}
	for _, c := range cases {
		got := vals(run(t, scanNode(c.op, c.x, c.axis), Workers(3)))
		if !sameAll(got, c.want) {
			t.Errorf("%s: got %v, want %v", c.name, got, c.want)
		}
	}
	// The first element is copied, not added to 0: np.cumsum([-0.0, -0.0]).
	got := run(t, scanNode(backend.OpCumSum, mk(dtypes.F64, []int{2}, math.Copysign(0, -1), math.Copysign(0, -1)), 0))
	if s := got.Data.([]float64); !math.Signbit(s[0]) || !math.Signbit(s[1]) {
		t.Errorf("cumsum of -0.0s: got %v, want [-0 -0]", s)
	}
	// np.cumprod(np.complex64([1+2j, 3-1j, 0.5+0.5j])) is [1+2j, 5+5j, 5j].
	c := run(t, scanNode(backend.OpCumProd, raw(dtypes.C64, []int{3}, []complex64{1 + 2i, 3 - 1i, 0.5 + 0.5i}), 0))
	if s := c.Data.([]complex64); !slices.Equal(s, []complex64{1 + 2i, 5 + 5i, 5i}) {
		t.Errorf("complex cumprod: got %v", s)
	}
}

// TestScanParallel checks that a scan split over workers and tiles gives
// the sequential answer along every axis.
func TestScanParallel(t *testing.T) {
	shape := []int{3, 700, 1100}
	n := backend.Size(shape)
	x := make([]float64, n)
	for i := range x {
		x[i] = float64(i%7) - 3
	}
	xt := raw(dtypes.F64, shape, x)
	for ax := range shape {
		got := run(t, scanNode(backend.OpCumSum, xt, ax), Workers(4)).Data.([]float64)
		outer, m, inner := 1, shape[ax], 1
		for _, d := range shape[:ax] {
			outer *= d
		}
		for _, d := range shape[ax+1:] {
			inner *= d
		}
		for o := range outer {
			for k := range inner {
				acc := 0.0
				for q := range m {
					i := (o*m+q)*inner + k
					acc += x[i]
					if got[i] != acc {
						t.Fatalf("axis %d: element %d is %v, want %v", ax, i, got[i], acc)
					}
				}
			}
		}
	}
	// A plan whose axis is out of range is refused.
	bad := scanNode(backend.OpCumSum, mk(dtypes.F32, []int{2}, 1, 2), 1)
	if err := runErr(bad); err == nil {
		t.Errorf("cumsum along axis 1 of a vector: no error")
	}
}

// TestScanLastAxis checks scans along the last axis (scanSeq, one loop a
// run) against NumPy's order, a running value in the dtype's arithmetic:
// float32 sums and products rounded at every step, int8 sums wrapping.
func TestScanLastAxis(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	shape := []int{5, 20011}
	n := backend.Size(shape)
	xf := make([]float64, n)
	xi := make([]float64, n)
	for i := range xf {
		xf[i] = float64(float32(rng.Float64() + 0.5))
		xi[i] = float64(rng.Intn(256) - 128)
	}
	for _, op := range []backend.Op{backend.OpCumSum, backend.OpCumProd} {
		got := run(t, scanNode(op, mk(dtypes.F32, shape, xf...), 1), Workers(2)).Data.([]float32)
		for o := range shape[0] {
			var acc float32
			for q := range shape[1] {
				i := o*shape[1] + q
				switch {
				case q == 0:
					acc = float32(xf[i])
				case op == backend.OpCumSum:
					acc += float32(xf[i])
				default:
					acc *= float32(xf[i])
				}
				if math.Float32bits(got[i]) != math.Float32bits(acc) {
					t.Fatalf("%v float32 row %d element %d = %v, want %v", op, o, q, got[i], acc)
				}
			}
		}
	}
	got := run(t, scanNode(backend.OpCumSum, mk(dtypes.I8, shape, xi...), 1)).Data.([]int8)
	for o := range shape[0] {
		var acc int8
		for q := range shape[1] {
			i := o*shape[1] + q
			acc += int8(xi[i])
			if got[i] != acc {
				t.Fatalf("int8 cumsum row %d element %d = %d, want %d", o, q, got[i], acc)
			}
		}
	}
}
