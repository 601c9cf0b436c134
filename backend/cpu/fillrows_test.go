package cpu

import (
	"math/rand/v2"
	"testing"

	"github.com/tensorsh/tensorsh/backend"
	"github.com/tensorsh/tensorsh/dtypes"
)

// TestBroadcastColumns checks x + y for an x broadcast along the last axis
// (a (a, b, 1) operand of an (a, b, c) result, each row of the result's
// blocks filled from one value: fillRows) against element-by-element sums,
// for elements of 1 to 16 bytes, rows shorter and longer than a vector
// store, blocks that start inside rows and cross groups, and x read in
// reverse along its second axis (a negative row step).
func TestBroadcastColumns(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for _, d := range []dtypes.DType{dtypes.I8, dtypes.I16, dtypes.I32, dtypes.F32, dtypes.I64, dtypes.F64, dtypes.C64, dtypes.C128} {
		for _, sh := range [][3]int{{3, 5, 7}, {4, 7, 33}, {5, 9, 100}, {3, 100, 100}, {2, 3, 1000}, {70, 60, 3}, {4, 509, 40}, {3, 210, 90}, {2, 101, 50}} {
			a, b, c := sh[0], sh[1], sh[2]
			xv := make([]float64, a*b)
			for i := range xv {
				xv[i] = float64(r.IntN(100))
			}
			yv := make([]float64, b*c)
			for i := range yv {
				yv[i] = float64(r.IntN(100))
			}
			x := in(mk(d, []int{a, b, 1}, xv...))
			y := in(mk(d, []int{1, b, c}, yv...))
			rev := &backend.Node{Op: backend.OpSlice, DType: d, Shape: []int{a, b, 1}, Args: []*backend.Node{x},
				Slices: []backend.Slice{{Start: 0, Stop: a, Step: 1}, {Start: b - 1, Stop: -1, Step: -1}, {Start: 0, Stop: 1, Step: 1}}}
			for _, rv := range []bool{false, true} {
				xn := x
				if rv {
					xn = rev
				}
				got := vals(run(t, nb(backend.OpAdd, xn, y)))
				for i := range a {
					for j := range b {
						jj := j
						if rv {
							jj = b - 1 - j
						}
						for k := range c {
							want := xv[i*b+jj] + yv[j*c+k]
							if d == dtypes.I8 {
								want = float64(int8(want))
							}
							if g := got[(i*b+j)*c+k]; g != want {
								t.Fatalf("%v %v reversed %v: [%d %d %d] = %v, want %v", d, sh, rv, i, j, k, g, want)
							}
						}
					}
				}
			}
		}
	}
	// fillRows itself, on every element size and row length around a
	// vector store.
	for _, rowLen := range []int{1, 3, 4, 8, 16, 31, 32, 33, 64, 100} {
		src := []int8{1, 2, 3, 4, 5, 6}
		d := make([]int8, 3*rowLen+1)
		d[len(d)-1] = 99
		fillRows(d[:3*rowLen], src, 4, -2, 3, rowLen)
		for i, v := range d[:3*rowLen] {
			if want := src[4-2*(i/rowLen)]; v != want {
				t.Fatalf("fillRows int8 rowLen %d: d[%d] = %d, want %d", rowLen, i, v, want)
			}
		}
		if d[len(d)-1] != 99 {
			t.Fatalf("fillRows int8 rowLen %d wrote past its rows", rowLen)
		}
		checkFillRows(t, rowLen, []int16{-1, 2, -3, 4})
		checkFillRows(t, rowLen, []float32{1.5, -2, 3})
		checkFillRows(t, rowLen, []complex64{1i, 2, 3 + 3i})
		checkFillRows(t, rowLen, []complex128{1i, 2, 3 + 3i})
	}
}

func checkFillRows[T comparable](t *testing.T, rowLen int, src []T) {
	t.Helper()
	d := make([]T, len(src)*rowLen+1)
	var zero T
	fillRows(d[:len(src)*rowLen], src, 0, 1, len(src), rowLen)
	for i, v := range d[:len(src)*rowLen] {
		if v != src[i/rowLen] {
			t.Fatalf("fillRows %T rowLen %d: d[%d] = %v, want %v", src, rowLen, i, v, src[i/rowLen])
		}
	}
	if d[len(d)-1] != zero {
		t.Fatalf("fillRows %T rowLen %d wrote past its rows", src, rowLen)
	}
}

// TestGroupBlock checks the block length of a tree with a rows-contiguous
// operand: whole groups where they fit flatBlock, else the largest
// divisor of the group's rows that does, and the default (0) where only
// short blocks would divide the group.
func TestGroupBlock(t *testing.T) {
	for _, c := range []struct{ group, rowLen, want int }{
		{100, 100, 10000},   // p + q on (100, 100, 1) and (1, 100, 100)
		{210, 90, 105 * 90}, // 210 rows do not fit; 105 do
		{509, 40, 0},        // 509 is prime: one row of 40 is too short
		{997, 10, 9970},
		{1, 1000, 0},          // one row is shorter than blockSize/2
		{48, 1000, 16 * 1000}, // flatBlock/1000 = 16 rows at most
		{53, 1000, 0},         // 53 is prime: one row is too short
	} {
		if got := groupBlock(c.group, c.rowLen); got != c.want {
			t.Errorf("groupBlock(%d, %d) = %d, want %d", c.group, c.rowLen, got, c.want)
		}
		if got := groupBlock(c.group, c.rowLen); got > flatBlock || got%c.rowLen != 0 || got > 0 && c.group%(got/c.rowLen) != 0 {
			t.Errorf("groupBlock(%d, %d) = %d: not whole rows dividing the group within flatBlock", c.group, c.rowLen, got)
		}
	}
}
