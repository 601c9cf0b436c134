package cpu

import (
	"math/rand"
	"testing"

	"github.com/tensorsh/tensorsh/backend"
	"github.com/tensorsh/tensorsh/dtypes"
)

func mm(a, b *backend.Node, shape []int) *backend.Node {
	return &backend.Node{Op: backend.OpMatMul, DType: a.DType, Shape: shape, Args: []*backend.Node{a, b}}
}

func TestMatMul(t *testing.T) {
	a := in(mk(dtypes.F32, []int{2, 3}, 1, 2, 3, 4, 5, 6))
	b := in(mk(dtypes.F32, []int{3, 2}, 7, 8, 9, 10, 11, 12))
	v := in(mk(dtypes.F32, []int{3}, 1, 0, -1))
	w := in(mk(dtypes.F32, []int{2}, 1, 1))
	cases := []struct {
		name string
		n    *backend.Node
		want []float64
	}{
		{"(2,3)@(3,2)", mm(a, b, []int{2, 2}), []float64{58, 64, 139, 154}},
		{"(3,2)@(2,3)", mm(b, a, []int{3, 3}), []float64{39, 54, 69, 49, 68, 87, 59, 82, 105}},
		{"(2,3)@(3,)", mm(a, v, []int{2}), []float64{-2, -2}},
		{"(2,)@(2,3)", mm(w, a, []int{3}), []float64{5, 7, 9}},
		{"(3,)@(3,)", mm(v, v, []int{}), []float64{2}},
	}
	for _, c := range cases {
		if got := vals(run(t, c.n)); !sameAll(got, c.want) {
			t.Errorf("%s = %v, want %v", c.name, got, c.want)
		}
	}
	// Batch broadcasting: (2,1,2,3) @ (4,3,2) → (2,4,2,2).
	x := in(mk(dtypes.I32, []int{2, 1, 2, 3}, seq(12, 0, 1)...))
	y := in(mk(dtypes.I32, []int{4, 3, 2}, seq(24, 0, 1)...))
	res := run(t, mm(x, y, []int{2, 4, 2, 2}))
	got := vals(res)
	// Reference by the definition.
	for i := range 2 {
		for j := range 4 {
			for r := range 2 {
				for c := range 2 {
					s := 0.0
					for p := range 3 {
						s += float64(i*6+r*3+p) * float64(j*6+p*2+c)
					}
					if g := got[((i*4+j)*2+r)*2+c]; g != s {
						t.Fatalf("batch matmul [%d,%d,%d,%d] = %v, want %v", i, j, r, c, g, s)
					}
				}
			}
		}
	}
	// Integer matmul wraps.
	i8 := in(mk(dtypes.I8, []int{1, 2}, 100, 100))
	col := in(mk(dtypes.I8, []int{2, 1}, 2, 1))
	if got := vals(run(t, mm(i8, col, []int{1, 1}))); got[0] != 300-256 {
		t.Errorf("i8 matmul = %v", got)
	}
	// bool matmul is an OR of ANDs.
	bm := in(mk(dtypes.Bool, []int{2, 2}, 1, 0, 0, 0))
	if got := vals(run(t, mm(bm, bm, []int{2, 2}))); !sameAll(got, []float64{1, 0, 0, 0}) {
		t.Errorf("bool matmul = %v", got)
	}
	// f16 accumulates exactly and rounds once: 2048 + 1 + 1 = 2050.
	h := in(mk(dtypes.F16, []int{1, 3}, 2048, 1, 1))
	ones := in(mk(dtypes.F16, []int{3, 1}, 1, 1, 1))
	if got := vals(run(t, mm(h, ones, []int{1, 1}))); got[0] != 2050 {
		t.Errorf("f16 matmul = %v, want 2050", got)
	}
	if err := runErr(mm(a, a, []int{2, 2})); err == nil {
		t.Errorf("(2,3)@(2,3) should fail")
	}
	// Complex.
	c := in(raw(dtypes.C64, []int{1, 2}, []complex64{1i, 2}))
	if got := run(t, mm(c, in(raw(dtypes.C64, []int{2}, []complex64{1i, 1})), []int{1})).Data.([]complex64); got[0] != 1 {
		t.Errorf("complex matmul = %v", got)
	}
}

func sl(start, stop, step int) backend.Slice {
	return backend.Slice{Start: start, Stop: stop, Step: step}
}

func TestSliceTransposeReshape(t *testing.T) {
	x := in(mk(dtypes.I16, []int{10}, seq(10, 0, 1)...))
	slice := func(a *backend.Node, shape []int, s ...backend.Slice) *backend.Node {
		return &backend.Node{Op: backend.OpSlice, DType: a.DType, Shape: shape, Args: []*backend.Node{a}, Slices: s}
	}
	cases := []struct {
		name string
		n    *backend.Node
		want []float64
	}{
		{"x[::-1]", slice(x, []int{10}, sl(9, -1, -1)), []float64{9, 8, 7, 6, 5, 4, 3, 2, 1, 0}},
		{"x[8:2:-2]", slice(x, []int{3}, sl(8, 2, -2)), []float64{8, 6, 4}},
		{"x[1:8:3]", slice(x, []int{3}, sl(1, 8, 3)), []float64{1, 4, 7}},
		{"x[5:2]", slice(x, []int{0}, sl(5, 2, 1)), []float64{}},
		{"x[3]", slice(x, []int{}, backend.Slice{Start: 3, Stop: 4, Step: 1, Drop: true}), []float64{3}},
	}
	for _, c := range cases {
		if got := vals(run(t, c.n)); !sameAll(got, c.want) {
			t.Errorf("%s = %v, want %v", c.name, got, c.want)
		}
	}
	// m = arange(12).reshape(3, 4); m[1:, ::-2] and m[:, 2].
	m := in(mk(dtypes.F64, []int{3, 4}, seq(12, 0, 1)...))
	if got := vals(run(t, slice(m, []int{2, 2}, sl(1, 3, 1), sl(3, -1, -2)))); !sameAll(got, []float64{7, 5, 11, 9}) {
		t.Errorf("m[1:, ::-2] = %v", got)
	}
	col := slice(m, []int{3}, sl(0, 3, 1), backend.Slice{Start: 2, Stop: 3, Step: 1, Drop: true})
	if got := vals(run(t, col)); !sameAll(got, []float64{2, 6, 10}) {
		t.Errorf("m[:, 2] = %v", got)
	}
	// A view feeds a fused expression: m.T[::-1] * 10 + col.
	tr := &backend.Node{Op: backend.OpTranspose, DType: dtypes.F64, Shape: []int{4, 3}, Args: []*backend.Node{m}, Axes: []int{1, 0}}
	rev := slice(tr, []int{4, 3}, sl(3, -1, -1), sl(0, 3, 1))
	ten := in(mk(dtypes.F64, []int{}, 10))
	expr := nb(backend.OpAdd, nb(backend.OpMul, rev, ten), col)
	want := []float64{32, 76, 120, 22, 66, 110, 12, 56, 100, 2, 46, 90}
	if got := vals(run(t, expr)); !sameAll(got, want) {
		t.Errorf("m.T[::-1]*10 + m[:,2] = %v, want %v", got, want)
	}
	// Reshape of a transposed view copies it in its logical order.
	rs := &backend.Node{Op: backend.OpReshape, DType: dtypes.F64, Shape: []int{12}, Args: []*backend.Node{tr}}
	if got := vals(run(t, rs)); !sameAll(got, []float64{0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11}) {
		t.Errorf("reshape(m.T) = %v", got)
	}
	// f16 transpose copies bits.
	h := in(mk(dtypes.F16, []int{2, 2}, 1, 2, 3, 4))
	ht := &backend.Node{Op: backend.OpTranspose, DType: dtypes.F16, Shape: []int{2, 2}, Args: []*backend.Node{h}, Axes: []int{1, 0}}
	if got := vals(run(t, ht)); !sameAll(got, []float64{1, 3, 2, 4}) {
		t.Errorf("f16 transpose = %v", got)
	}
	if err := runErr(slice(x, []int{3}, sl(8, 11, 1))); err == nil {
		t.Errorf("out-of-range slice should fail")
	}
}

func TestConcatBroadcastTo(t *testing.T) {
	a := in(mk(dtypes.U8, []int{2, 2}, 1, 2, 3, 4))
	b := in(mk(dtypes.U8, []int{2, 1}, 5, 6))
	c0 := &backend.Node{Op: backend.OpConcat, DType: dtypes.U8, Shape: []int{2, 3}, Args: []*backend.Node{a, b}, Axes: []int{1}}
	if got := vals(run(t, c0)); !sameAll(got, []float64{1, 2, 5, 3, 4, 6}) {
		t.Errorf("concat axis 1 = %v", got)
	}
	tr := &backend.Node{Op: backend.OpTranspose, DType: dtypes.U8, Shape: []int{1, 2}, Args: []*backend.Node{b}, Axes: []int{1, 0}}
	c1 := &backend.Node{Op: backend.OpConcat, DType: dtypes.U8, Shape: []int{3, 2}, Args: []*backend.Node{a, tr}, Axes: []int{0}}
	if got := vals(run(t, c1)); !sameAll(got, []float64{1, 2, 3, 4, 5, 6}) {
		t.Errorf("concat axis 0 = %v", got)
	}
	bt := &backend.Node{Op: backend.OpBroadcastTo, DType: dtypes.U8, Shape: []int{3, 2, 2}, Args: []*backend.Node{b}}
	if got := vals(run(t, bt)); !sameAll(got, []float64{5, 5, 6, 6, 5, 5, 6, 6, 5, 5, 6, 6}) {
		t.Errorf("broadcast_to = %v", got)
	}
}

func TestBroadcastingAndFusion(t *testing.T) {
	col := in(mk(dtypes.I32, []int{3, 1}, 1, 2, 3))
	row := in(mk(dtypes.I32, []int{1, 4}, 10, 20, 30, 40))
	s := in(mk(dtypes.I32, []int{}, 100))
	// (col + col) is smaller than the result: it is evaluated on its own,
	// then read with a zero stride.
	small := nb(backend.OpAdd, col, col)
	expr := nb(backend.OpSub, nb(backend.OpMul, small, row), s)
	want := []float64{-80, -60, -40, -20, -60, -20, 20, 60, -40, 20, 80, 140}
	if got := vals(run(t, expr)); !sameAll(got, want) {
		t.Errorf("(col+col)*row-100 = %v, want %v", got, want)
	}
	// A shared subexpression is computed once and used twice.
	sq := nb(backend.OpMul, row, col)
	shared := nb(backend.OpAdd, sq, sq)
	if got := vals(run(t, shared)); got[11] != 240 || got[0] != 20 {
		t.Errorf("shared = %v", got)
	}
	// (2,3,4) + (3,1) + (4,).
	x := in(mk(dtypes.F64, []int{2, 3, 4}, seq(24, 0, 1)...))
	y := in(mk(dtypes.F64, []int{3, 1}, 100, 200, 300))
	z := in(mk(dtypes.F64, []int{4}, 0.5, 0.25, 0.125, 0))
	got := vals(run(t, nb(backend.OpAdd, nb(backend.OpAdd, x, y), z)))
	for i := range 2 {
		for j := range 3 {
			for k := range 4 {
				w := float64(i*12+j*4+k) + float64(100*(j+1)) + []float64{0.5, 0.25, 0.125, 0}[k]
				if g := got[i*12+j*4+k]; g != w {
					t.Fatalf("3-way broadcast [%d,%d,%d] = %v, want %v", i, j, k, g, w)
				}
			}
		}
	}
	// Many blocks, several workers, narrow dtypes through fused casts.
	n := 300001
	a := in(mk(dtypes.F32, []int{n}, seq(n, -1000, 0.01)...))
	e := cast(nb(backend.OpMul, cast(a, dtypes.BF16), in(mk(dtypes.BF16, []int{}, 3))), dtypes.F64)
	res := run(t, e, Workers(4)).Data.([]float64)
	for i, v := range seq(n, -1000, 0.01) {
		b := float64(bf16Value(bf16RNE(float32(v))))
		if w := float64(bf16Value(bf16RNE(float32(b * 3)))); res[i] != w {
			t.Fatalf("bf16 chain [%d] = %v, want %v", i, res[i], w)
		}
	}
}

// TestFusedLongRows checks fused blocks over long rows (which stop at row
// ends and read row operands in place) against element-by-element
// evaluation: broadcast columns, rows and scalars, transposed and sliced
// operands, float16 operands (converted, not read in place), rows shorter
// and longer than a block, with one worker and several.
func TestFusedLongRows(t *testing.T) {
	rng := rand.New(rand.NewSource(8))
	randv := func(n int) []float64 {
		v := make([]float64, n)
		for i := range v {
			v[i] = float64(rng.Intn(2000) - 1000)
		}
		return v
	}
	for _, cols := range []int{1023, 1024, 3000, 4096, 5000, 9000} {
		const rows = 7
		for _, d := range []dtypes.DType{dtypes.F32, dtypes.F16, dtypes.I32} {
			cv, rv, mv := randv(rows), randv(cols), randv(rows*cols)
			col := in(mk(d, []int{rows, 1}, cv...))
			row := in(mk(d, []int{cols}, rv...))
			m := in(mk(d, []int{rows, cols}, mv...))
			// mt is m stored transposed, read through a transpose view.
			mtData := transpose2(mv, rows, cols)
			mt := &backend.Node{Op: backend.OpTranspose, DType: d, Shape: []int{rows, cols}, Axes: []int{1, 0},
				Args: []*backend.Node{in(mk(d, []int{cols, rows}, mtData...))}}
			// rr is row reversed through a slice.
			rr := &backend.Node{Op: backend.OpSlice, DType: d, Shape: []int{cols}, Slices: []backend.Slice{{Start: cols - 1, Stop: -1, Step: -1}},
				Args: []*backend.Node{row}}
			s := in(mk(d, []int{}, 3))
			// ((col + row) * s - m) + mt - rr
			e := nb(backend.OpSub, nb(backend.OpAdd, nb(backend.OpSub, nb(backend.OpMul, nb(backend.OpAdd, col, row), s), m), mt), rr)
			want := make([]float64, rows*cols)
			for i := range rows {
				for j := range cols {
					v := roundIn(d, roundIn(d, cv[i]+rv[j])*3)
					v = roundIn(d, v-mv[i*cols+j])
					v = roundIn(d, v+mv[i*cols+j]) // mt holds m's values
					v = roundIn(d, v-rv[cols-1-j])
					want[i*cols+j] = v
				}
			}
			for _, w := range []int{1, 3} {
				got := vals(run(t, e, Workers(w)))
				for i := range got {
					if got[i] != want[i] {
						t.Fatalf("%v cols=%d workers=%d: [%d] = %v, want %v", d, cols, w, i, got[i], want[i])
					}
				}
			}
		}
	}
}

// roundIn rounds v to dtype d (f16 or f32; ints are exact here).
func roundIn(d dtypes.DType, v float64) float64 {
	switch d {
	case dtypes.F16:
		return dtypes.F16ToFloat64(dtypes.F16FromFloat64(v))
	case dtypes.F32:
		return float64(float32(v))
	}
	return v
}

// TestStridedCopyFill checks the broadcast of one value (source stride 0)
// by doubling copies: every element written, none past the run.
func TestStridedCopyFill(t *testing.T) {
	for _, n := range []int{1, 2, 3, 7, 8, 1000, 1025} {
		src := []float32{1, 2, 3}
		dst := make([]float32, n+3)
		for i := range dst {
			dst[i] = -1
		}
		stridedCopy(dst, 1, 1, src, 2, 0, n)
		for i, v := range dst {
			want := float32(3)
			if i == 0 || i > n {
				want = -1
			}
			if v != want {
				t.Fatalf("n %d: dst[%d] = %v, want %v", n, i, v, want)
			}
		}
	}
}

// TestCopyPermuted checks copies of 3-d and 4-d transposes whose source
// is contiguous along an outer axis of the result (copyPermuted: batched
// tile transposes) against the element-by-element definition, on sizes
// around the tiles' and with a sliced source.
func TestCopyPermuted(t *testing.T) {
	for _, sh := range [][]int{{100, 100, 100}, {3, 33, 17}, {40, 7, 9, 35}, {16, 2, 64}} {
		n := backend.Size(sh)
		v := make([]float64, n)
		for i := range v {
			v[i] = float64(i)
		}
		for _, d := range []dtypes.DType{dtypes.F32, dtypes.I8, dtypes.F64, dtypes.I16} {
			x := in(mk(d, sh, v...))
			nd := len(sh)
			perm := make([]int, nd)
			for i := range perm {
				perm[i] = nd - 1 - i // full reverse: the result's first axis reads x's last
			}
			outShape := make([]int, nd)
			for i, p := range perm {
				outShape[i] = sh[p]
			}
			tr := &backend.Node{Op: backend.OpTranspose, DType: d, Shape: outShape, Args: []*backend.Node{x}, Axes: perm}
			got := vals(run(t, tr))
			st := backend.RowMajor(sh)
			ost := backend.RowMajor(outShape)
			for i := range n {
				src, rem := 0, i
				for k := range nd {
					idx := rem / ost[k]
					rem %= ost[k]
					src += idx * st[perm[k]]
				}
				want := v[src]
				if d == dtypes.I8 {
					want = float64(int8(int64(want)))
				}
				if d == dtypes.I16 {
					want = float64(int16(int64(want)))
				}
				if d == dtypes.F32 {
					want = float64(float32(want))
				}
				if got[i] != want {
					t.Fatalf("%v %v reversed: element %d = %v, want %v", d, sh, i, got[i], want)
				}
			}
		}
	}
}
