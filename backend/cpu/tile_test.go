package cpu

import (
	"fmt"
	"testing"

	"github.com/tensorsh/tensorsh/backend"
	"github.com/tensorsh/tensorsh/dtypes"
)

// TestTransposedOperands checks fused expressions whose operand is a
// transposed view, read in tiles (leaf.tiled, readTiled): every element
// against its index formula, for 2-d and 3-d permutations whose rows are
// shorter than minRow (tiled, in blocks of whole rows) or longer (not),
// sizes that leave partial tiles and rows split between workers, and
// storage types with and without a compute conversion.
func TestTransposedOperands(t *testing.T) {
	for _, tc := range []struct {
		shape []int // of the stored array
		axes  []int // the permutation
	}{
		{[]int{1000, 1000}, []int{1, 0}},
		{[]int{300, 37}, []int{1, 0}},
		{[]int{37, 300}, []int{1, 0}},
		{[]int{2000, 17}, []int{1, 0}},
		{[]int{17, 1500}, []int{1, 0}},
		{[]int{7, 40, 33}, []int{0, 2, 1}},
		{[]int{40, 7, 33}, []int{2, 1, 0}},
		{[]int{5, 64, 700}, []int{0, 2, 1}},
	} {
		for _, d := range []dtypes.DType{dtypes.F32, dtypes.I8, dtypes.F64, dtypes.F16, dtypes.Bool} {
			t.Run(fmt.Sprintf("%v%v/%v", tc.shape, tc.axes, d), func(t *testing.T) {
				n := 1
				for _, s := range tc.shape {
					n *= s
				}
				src := make([]float64, n)
				for i := range src {
					src[i] = float64(i%97) - 40
					if d == dtypes.Bool {
						src[i] = float64(i % 3 % 2)
					}
				}
				x := in(mk(d, tc.shape, src...))
				out := make([]int, len(tc.shape))
				for i, a := range tc.axes {
					out[i] = tc.shape[a]
				}
				tr := &backend.Node{Op: backend.OpTranspose, DType: d, Shape: out, Args: []*backend.Node{x}, Axes: tc.axes}
				// transpose(x) == transpose(x) + 0 keeps the values (and
				// makes a tree of two operations, not a copy).
				zero := in(mk(d, []int{}, 0))
				expr := nb(backend.OpEq, nb(backend.OpMax, tr, zero), nb(backend.OpMax, tr, zero))
				if d == dtypes.Bool {
					expr = nb(backend.OpEq, tr, nb(backend.OpOr, tr, zero))
				}
				got := vals(run(t, nb(backend.OpMax, tr, zero)))
				if d == dtypes.Bool {
					got = vals(run(t, nb(backend.OpOr, tr, zero)))
				}
				all := vals(run(t, expr))
				// Strides of the stored array, permuted.
				st := make([]int, len(tc.shape))
				for i, s := 0, 1; i < len(st); i++ {
					a := len(st) - 1 - i
					st[a] = s
					s *= tc.shape[a]
				}
				idx := make([]int, len(out))
				for i := range got {
					p, r := 0, i
					for a := len(out) - 1; a >= 0; a-- {
						idx[a] = r % out[a]
						r /= out[a]
					}
					for a, ax := range tc.axes {
						p += idx[a] * st[ax]
					}
					want := max(src[p], 0)
					if d == dtypes.Bool {
						want = src[p]
					}
					if got[i] != want || all[i] != 1 {
						t.Fatalf("element %d %v: got %v, want %v (x[%d])", i, idx, got[i], want, p)
					}
				}
			})
		}
	}
}

// TestRowBroadcast checks x + row for rows shorter than minRow, whose
// blocks hold whole rows and fill the row's buffer once for all blocks
// that start at the same column (leaf.row): sizes split between workers
// mid-row, and storage with a compute conversion (f16).
func TestRowBroadcast(t *testing.T) {
	for _, shape := range [][]int{{300, 500}, {1000, 1000}, {3, 7, 999}, {40, 3}, {2, 70000}} {
		for _, d := range []dtypes.DType{dtypes.F32, dtypes.I16, dtypes.F16} {
			t.Run(fmt.Sprintf("%v/%v", shape, d), func(t *testing.T) {
				n, cols := 1, shape[len(shape)-1]
				for _, s := range shape {
					n *= s
				}
				xv, rv := make([]float64, n), make([]float64, cols)
				for i := range xv {
					xv[i] = float64(i % 13)
				}
				for i := range rv {
					rv[i] = float64(i%29) * 2
				}
				x, r := in(mk(d, shape, xv...)), in(mk(d, []int{cols}, rv...))
				got := vals(run(t, nb(backend.OpAdd, x, r)))
				for i := range got {
					if want := xv[i] + rv[i%cols]; got[i] != want {
						t.Fatalf("element %d: got %v, want %v", i, got[i], want)
					}
				}
			})
		}
	}
}

// TestBroadcast3 checks (l, m, 1) + (1, m, n) and (l, 1, n) + (1, m, n)
// against their index formulas: the (1, m, n) operand's rows of one group
// are read in place (leaf.rowsContig), the others row by row (gatherRows),
// with blocks that cross groups.
func TestBroadcast3(t *testing.T) {
	for _, sh := range [][3]int{{100, 100, 100}, {7, 33, 90}, {3, 5, 2000}, {50, 41, 3}} {
		for _, d := range []dtypes.DType{dtypes.F32, dtypes.I8, dtypes.F64, dtypes.F16} {
			l, m, n := sh[0], sh[1], sh[2]
			for _, form := range []string{"lm1", "l1n"} {
				t.Run(fmt.Sprintf("%v/%v/%s", sh, d, form), func(t *testing.T) {
					as := []int{l, m, 1}
					if form == "l1n" {
						as = []int{l, 1, n}
					}
					av := make([]float64, as[0]*as[1]*as[2])
					bv := make([]float64, m*n)
					for i := range av {
						av[i] = float64(i % 11)
					}
					for i := range bv {
						bv[i] = float64(i%7) * 16
					}
					got := vals(run(t, nb(backend.OpAdd, in(mk(d, as, av...)), in(mk(d, []int{1, m, n}, bv...)))))
					for i := range got {
						a, j, k := i/(m*n), i/n%m, i%n
						ai := a*m + j
						if form == "l1n" {
							ai = a*n + k
						}
						if want := av[ai] + bv[j*n+k]; got[i] != want {
							t.Fatalf("element %d (%d,%d,%d): got %v, want %v", i, a, j, k, got[i], want)
						}
					}
				})
			}
		}
	}
}

// TestSharedLeaf checks trees that read one operand several times
// (x ** 2 lowered to x * x, where(x > y, x, y)): one leaf, its block read
// once per worker and block (leaf.uses, worker.memo), for operands read
// in place, transposed, strided and broadcast.
func TestSharedLeaf(t *testing.T) {
	const r, c = 300, 500
	xv, yv := make([]float64, r*c), make([]float64, r*c)
	for i := range xv {
		xv[i] = float64(i%23) - 11
		yv[i] = float64(i%7) - 3
	}
	x := in(mk(dtypes.F32, []int{r, c}, xv...))
	xt := in(mk(dtypes.F32, []int{c, r}, xv...)) // read transposed
	y := in(mk(dtypes.F32, []int{r, c}, yv...))
	row := in(mk(dtypes.F32, []int{c}, xv[:c]...))
	tr := &backend.Node{Op: backend.OpTranspose, DType: dtypes.F32, Shape: []int{r, c}, Args: []*backend.Node{xt}, Axes: []int{1, 0}}
	for _, tc := range []struct {
		name string
		a    *backend.Node
		at   func(i int) float64
	}{
		{"contiguous", x, func(i int) float64 { return xv[i] }},
		{"transposed", tr, func(i int) float64 { return xv[(i%c)*r+i/c] }},
		{"row", row, func(i int) float64 { return xv[i%c] }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sq := vals(run(t, nb(backend.OpMul, tc.a, tc.a)))
			gt := nb(backend.OpGt, tc.a, y)
			wh := vals(run(t, &backend.Node{Op: backend.OpWhere, DType: dtypes.F32, Shape: []int{r, c}, Args: []*backend.Node{gt, tc.a, y}}))
			for i := range sq {
				a := tc.at(i)
				if sq[i] != a*a {
					t.Fatalf("a*a at %d: got %v, want %v", i, sq[i], a*a)
				}
				if want := max(a, yv[i]); wh[i] != want {
					t.Fatalf("where(a > y, a, y) at %d: got %v, want %v", i, wh[i], want)
				}
			}
		})
	}
}

// TestWhereSelect checks the branch-free where of integers and bools
// (whereInt, whereBool) against the branching loop (whereOf), for every
// integer width, both signs, and extreme values.
func TestWhereSelect(t *testing.T) {
	const n = 1037
	c := make([]bool, n)
	for i := range c {
		c[i] = (i*7919)%3 == 0
	}
	check := func(name string, k, ref kfn, x, y, d1, d2 any) {
		t.Helper()
		if err := k(d1, []any{c, x, y}); err != nil {
			t.Fatal(err)
		}
		if err := ref(d2, []any{c, x, y}); err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(d1) != fmt.Sprint(d2) {
			t.Errorf("%s: branch-free where differs from the loop", name)
		}
	}
	ints := func(k func(i int) int64) []int64 {
		v := make([]int64, n)
		for i := range v {
			v[i] = k(i)
		}
		return v
	}
	xs := ints(func(i int) int64 { return int64(i)*0x1E3779B97F4A7C15>>3 ^ -1<<62 })
	ys := ints(func(i int) int64 { return -int64(i) * 0x7F4A7C15 })
	testWhere[int8](t, check, xs, ys)
	testWhere[int16](t, check, xs, ys)
	testWhere[int32](t, check, xs, ys)
	testWhere[int64](t, check, xs, ys)
	testWhere[uint8](t, check, xs, ys)
	testWhere[uint16](t, check, xs, ys)
	testWhere[uint32](t, check, xs, ys)
	testWhere[uint64](t, check, xs, ys)
	bx, by := make([]bool, n), make([]bool, n)
	for i := range bx {
		bx[i], by[i] = i%2 == 0, i%5 < 2
	}
	check("bool", whereBool(), whereOf[bool](), bx, by, make([]bool, n), make([]bool, n))
}

func testWhere[T integer](t *testing.T, check func(string, kfn, kfn, any, any, any, any), xs, ys []int64) {
	x, y := make([]T, len(xs)), make([]T, len(ys))
	for i := range xs {
		x[i], y[i] = T(xs[i]), T(ys[i])
	}
	check(fmt.Sprintf("%T", x), whereInt[T](), whereOf[T](), x, y, make([]T, len(x)), make([]T, len(x)))
}

// TestFillRows checks a row leaf's block (fillRows) against its index
// formula where the block starts inside the row, ends inside a later one
// and spans whole rows between, for a row stored in its compute type and
// one converted (float16).
func TestFillRows(t *testing.T) {
	initTables() // float16 conversions
	const rowLen = 7
	for _, d := range []dtypes.DType{dtypes.I32, dtypes.F16} {
		rv := make([]float64, rowLen+2)
		for i := range rv {
			rv[i] = float64(i*3 + 1)
		}
		v := tensorView(mk(d, []int{rowLen + 2}, rv...))
		v.off = 2 // the row is rv[2:]
		l := &leaf{v: v, f: &fusion{shape: []int{9, rowLen}}}
		for col := range rowLen {
			for cnt := 1; cnt <= 4*rowLen; cnt++ {
				buf := make([]float32, cnt)
				if d == dtypes.I32 {
					b := make([]int32, cnt)
					l.fillRows(b, col, cnt)
					for i, x := range b {
						buf[i] = float32(x)
					}
				} else {
					l.fillRows(buf, col, cnt)
				}
				for i, got := range buf {
					if want := float32(rv[2+(col+i)%rowLen]); got != want {
						t.Fatalf("%v col %d cnt %d: element %d = %v, want %v", d, col, cnt, i, got, want)
					}
				}
			}
		}
	}
}
