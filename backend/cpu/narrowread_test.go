package cpu

import (
	"testing"

	"github.com/tensorsh/tensorsh/backend"
	"github.com/tensorsh/tensorsh/dtypes"
)

// TestNarrowLeafRows checks operands of the narrow float formats (and
// complex32) read row by row into a fused block (leaf.read's last path,
// loadNarrow): a transposed operand and a strided slice, whose blocks
// start and end inside rows, give the bits of the same values stored
// contiguously, on one worker and two.
func TestNarrowLeafRows(t *testing.T) {
	const rows, cols = 300, 700
	v := make([]float64, rows*cols)
	for i := range v {
		v[i] = float64(i%97)/8 - 6
	}
	for _, d := range []dtypes.DType{dtypes.F16, dtypes.BF16, dtypes.F8E4M3, dtypes.F8E5M2, dtypes.C32} {
		x := in(mk(d, []int{rows, cols}, v...))
		y := in(mk(d, []int{cols, rows}, v...))
		// transpose(x) + y against x's values transposed, contiguous.
		tv := make([]float64, len(v))
		for i := range rows {
			for j := range cols {
				tv[j*rows+i] = v[i*cols+j]
			}
		}
		tr := &backend.Node{Op: backend.OpTranspose, DType: d, Shape: []int{cols, rows}, Axes: []int{1, 0}, Args: []*backend.Node{x}}
		// x[:, ::2] + z against the even columns, contiguous.
		ev := make([]float64, 0, rows*cols/2)
		for i := range rows {
			for j := 0; j < cols; j += 2 {
				ev = append(ev, v[i*cols+j])
			}
		}
		sl := &backend.Node{Op: backend.OpSlice, DType: d, Shape: []int{rows, cols / 2}, Args: []*backend.Node{x},
			Slices: []backend.Slice{{Start: 0, Stop: rows, Step: 1}, {Start: 0, Stop: cols, Step: 2}}}
		z := in(mk(d, []int{rows, cols / 2}, ev...))
		for _, c := range []struct {
			name      string
			got, want *backend.Node
		}{
			{"transpose(x) + y", nb(backend.OpAdd, tr, y), nb(backend.OpAdd, in(mk(d, []int{cols, rows}, tv...)), y)},
			{"x[:, ::2] * z", nb(backend.OpMul, sl, z), nb(backend.OpMul, in(mk(d, []int{rows, cols / 2}, ev...)), z)},
		} {
			for _, w := range []int{1, 2} {
				got, want := run(t, c.got, Workers(w)), run(t, c.want, Workers(w))
				if !sameBits(got, want) {
					t.Fatalf("%v %s, %d workers: %v, want %v", d, c.name, w, head(got), head(want))
				}
			}
		}
	}
}
