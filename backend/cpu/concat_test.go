package cpu

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/tensorsh/tensorsh/backend"
	"github.com/tensorsh/tensorsh/dtypes"
)

// TestConcatInto checks concatenations with short runs per operand
// (ConcatInto: stack along the last axis, concat of narrow operands along
// it), long runs in many rows (ConcatInto, whole rows a worker), long
// runs in few rows (left to CopyInto) and non-contiguous operands against
// element-by-element concatenation, on shapes small and large enough to
// be split among workers.
func TestConcatInto(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	cases := []struct {
		shapes [][]int
		ax     int
	}{
		{[][]int{{3, 4, 1}, {3, 4, 1}}, 2},            // stack(axis=-1) of two
		{[][]int{{3, 4, 1}, {3, 4, 1}, {3, 4, 1}}, 2}, // of three
		{[][]int{{5, 3}, {5, 2}, {5, 1}}, 1},          // runs of 3, 2 and 1
		{[][]int{{2, 3, 4}, {2, 1, 4}}, 1},            // runs of 12 and 4
		{[][]int{{7, 1}, {7, 0}, {7, 1}}, 1},          // an empty operand
		{[][]int{{4, 2}, {3, 2}}, 0},                  // one row: runs are whole operands
		{[][]int{{1000, 300, 1}, {1000, 300, 1}}, 2},  // split among workers
		{[][]int{{20000, 3}, {20000, 5}}, 1},          // runs of 3 and 5, split
		{[][]int{{100, 100, 20}, {100, 100, 20}}, 2},  // long runs (most types), many rows
		{[][]int{{300, 700}, {300, 50}, {300, 9}}, 1}, // long and short runs, many rows
		{[][]int{{2, 3000}, {2, 500}}, 1},             // long runs, too few rows: CopyInto
		{[][]int{{3, 40, 50}, {3, 60, 50}}, 1},        // runs of 2000 and 3000 in 3 rows
	}
	for _, d := range []dtypes.DType{dtypes.Bool, dtypes.I8, dtypes.U16, dtypes.F16, dtypes.I32, dtypes.F32, dtypes.F64, dtypes.C64, dtypes.C128} {
		for _, c := range cases {
			var args []*backend.Node
			var ins []*backend.Tensor
			shape := slices.Clone(c.shapes[0])
			shape[c.ax] = 0
			for _, s := range c.shapes {
				n := backend.Size(s)
				v := make([]float64, n)
				for i := range v {
					v[i] = float64(r.IntN(100))
				}
				x := mk(d, s, v...)
				ins = append(ins, x)
				args = append(args, in(x))
				shape[c.ax] += s[c.ax]
			}
			name := fmt.Sprintf("%v %v axis %d", d, c.shapes, c.ax)
			got := vals(run(t, &backend.Node{Op: backend.OpConcat, DType: d, Shape: shape, Axes: []int{c.ax}, Args: args}))
			if !sameAll(got, concatRef(ins, shape, c.ax)) {
				t.Errorf("%s: wrong elements", name)
			}
		}
	}
	// Transposed operands are not contiguous: CopyInto copies them.
	x := mk(dtypes.I32, []int{2, 3}, 1, 2, 3, 4, 5, 6)
	tr := &backend.Node{Op: backend.OpTranspose, DType: dtypes.I32, Shape: []int{3, 2}, Axes: []int{1, 0}, Args: []*backend.Node{in(x)}}
	y := mk(dtypes.I32, []int{3, 1}, 7, 8, 9)
	got := vals(run(t, &backend.Node{Op: backend.OpConcat, DType: dtypes.I32, Shape: []int{3, 3}, Axes: []int{1}, Args: []*backend.Node{tr, in(y)}}))
	if want := []float64{1, 4, 7, 2, 5, 8, 3, 6, 9}; !sameAll(got, want) {
		t.Errorf("concat of a transpose = %v, want %v", got, want)
	}
}

// concatRef concatenates ins along ax into shape, element by element.
func concatRef(ins []*backend.Tensor, shape []int, ax int) []float64 {
	out := make([]float64, backend.Size(shape))
	strides := backend.RowMajor(shape)
	start := 0
	for _, x := range ins {
		xs := backend.RowMajor(x.Shape)
		for i := range backend.Size(x.Shape) {
			p := 0
			for k := range x.Shape {
				idx := i / xs[k] % x.Shape[k]
				if k == ax {
					idx += start
				}
				p += idx * strides[k]
			}
			out[p] = at(x, i)
		}
		start += x.Shape[ax]
	}
	return out
}
