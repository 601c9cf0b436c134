package cpu

import (
	"context"
	"math"
	"testing"

	"github.com/tensorsh/tensorsh/backend"
	"github.com/tensorsh/tensorsh/dtypes"
)

// TestSplitRanges checks how many ranges Elementwise makes of trees of a
// few thousand to 10^5 elements (see splitMin): equal ranges over the
// workers for the functions of libm and general powers, one range for
// cheap and short operations, and the same bits either way.
func TestSplitRanges(t *testing.T) {
	vec := func(d dtypes.DType, n int) *backend.Node {
		v := make([]float64, n)
		for i := range v {
			v[i] = 0.25 + float64(i%977)/311
		}
		return in(mk(d, []int{n}, v...))
	}
	scalar := func(d dtypes.DType, y float64) *backend.Node { return in(mk(d, nil, y)) }
	cases := []struct {
		name    string
		n       *backend.Node
		workers int
		ranges  int
	}{
		{"exp f64 10^4", nu(backend.OpExp, vec(dtypes.F64, 10000)), 2, 2},
		{"exp f64 10^4, one worker", nu(backend.OpExp, vec(dtypes.F64, 10000)), 1, 1},
		{"exp f64 below splitMin", nu(backend.OpExp, vec(dtypes.F64, splitMin-1)), 2, 1},
		{"exp f64 10^4, 16 workers", nu(backend.OpExp, vec(dtypes.F64, 10000)), 16, 3},
		{"exp f64 10^5", nu(backend.OpExp, vec(dtypes.F64, 100000)), 2, 2},
		{"exp f64 10^6", nu(backend.OpExp, vec(dtypes.F64, 1000000)), 2, 16},
		{"tanh of a sum f32", nu(backend.OpTanh, nb(backend.OpAdd, vec(dtypes.F32, 20000), vec(dtypes.F32, 20000))), 2, 2},
		{"arctan2 f32", nb(backend.OpAtan2, vec(dtypes.F32, 10000), vec(dtypes.F32, 10000)), 2, 2},
		{"exp c64", nu(backend.OpExp, vec(dtypes.C64, 10000)), 2, 2},
		{"x ** y f64", nb(backend.OpPow, vec(dtypes.F64, 10000), vec(dtypes.F64, 10000)), 2, 2},
		{"x ** 1.5 f64", nb(backend.OpPow, vec(dtypes.F64, 10000), scalar(dtypes.F64, 1.5)), 2, 2},
		{"x ** 1.5 f32 (short loop)", nb(backend.OpPow, vec(dtypes.F32, 10000), scalar(dtypes.F32, 1.5)), 2, 1},
		{"x ** 2 f64 (short loop)", nb(backend.OpPow, vec(dtypes.F64, 10000), scalar(dtypes.F64, 2)), 2, 1},
		{"x ** -0.5 f64 (square root)", nb(backend.OpPow, vec(dtypes.F64, 10000), scalar(dtypes.F64, -0.5)), 2, 2},
		{"x ** 0.5 f64 (square root)", nb(backend.OpPow, vec(dtypes.F64, 10000), scalar(dtypes.F64, 0.5)), 2, 2},
		{"x ** 0.5 f32 (short loop)", nb(backend.OpPow, vec(dtypes.F32, 10000), scalar(dtypes.F32, 0.5)), 2, 1},
		{"x / y f32 (not a libm function)", nb(backend.OpDiv, vec(dtypes.F32, 10000), vec(dtypes.F32, 10000)), 2, 1},
		{"sqrt f64", nu(backend.OpSqrt, vec(dtypes.F64, 10000)), 2, 2},
		{"rsqrt f64", nu(backend.OpRsqrt, vec(dtypes.F64, 10000)), 2, 2},
		{"sqrt f32", nu(backend.OpSqrt, vec(dtypes.F32, 10000)), 2, 1},
		{"exp f16 (tables and conversions)", nu(backend.OpExp, vec(dtypes.F16, 10000)), 2, 1},
		{"x ** y i32", nb(backend.OpPow, vec(dtypes.I32, 10000), vec(dtypes.I32, 10000)), 2, 1},
	}
	for _, c := range cases {
		b := New(Workers(c.workers))
		r := &runner{b: b, ctx: context.Background(), nw: b.nworkers()}
		r.x.Init(r.ctx, "cpu", r, nil)
		size := backend.Size(c.n.Shape)
		f, _, err := r.fuse(c.n, size)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		g := f.grain(c.n.DType)
		if got := r.workersFor(size, g); got != min(c.ranges, c.workers) || (size+g-1)/g != c.ranges {
			t.Errorf("%s: ranges of %d give %d ranges on %d workers, want %d", c.name, g, (size+g-1)/g, got, c.ranges)
		}
		if c.ranges == 2 && c.workers == 2 && 2*g-size > 128 {
			t.Errorf("%s: ranges of %d for %d elements, want halves", c.name, g, size)
		}
		one, two := vals(run(t, c.n, Workers(1))), vals(run(t, c.n, Workers(c.workers)))
		for i := range one {
			if math.Float64bits(one[i]) != math.Float64bits(two[i]) {
				t.Fatalf("%s: element %d is %v on one worker, %v on %d", c.name, i, one[i], two[i], c.workers)
			}
		}
	}
}

// TestSplitSums checks that sums over a fused tree with a splitOp are
// split into their pieces over the workers from two pieces on (splits),
// with the bits of one worker's sum.
func TestSplitSums(t *testing.T) {
	vec := func(n int) *backend.Node {
		v := make([]float64, n)
		for i := range v {
			v[i] = float64(i%1013)/97 - 5
		}
		return in(mk(dtypes.F64, []int{n}, v...))
	}
	cases := []struct {
		name   string
		n      *backend.Node
		size   int
		splits bool
	}{
		{"sum(exp(x)), 10^5", nu(backend.OpExp, vec(100000)), 100000, true},
		{"mean(tanh(x)), two pieces", nu(backend.OpTanh, vec(2*backend.SumPiece)), 2 * backend.SumPiece, true},
		{"sum(exp(x)), one piece and a part", nu(backend.OpExp, vec(2*backend.SumPiece-1)), 2*backend.SumPiece - 1, false},
		{"sum(x * x), 10^5", nb(backend.OpMul, vec(100000), vec(100000)), 100000, false},
	}
	for _, c := range cases {
		b := New(Workers(2))
		r := &runner{b: b, ctx: context.Background(), nw: b.nworkers()}
		r.x.Init(r.ctx, "cpu", r, nil)
		f, _, err := r.fuse(c.n, c.size)
		if err != nil {
			t.Fatal(err)
		}
		s := &source[float64]{r: r, f: f, n: c.size}
		if got := s.splits(c.size); got != c.splits {
			t.Errorf("%s: splits %v, want %v", c.name, got, c.splits)
		}
		for _, o := range []backend.Op{backend.OpSum, backend.OpMean} {
			one, two := vals(run(t, red(o, dtypes.F64, c.n, false), Workers(1))), vals(run(t, red(o, dtypes.F64, c.n, false), Workers(2)))
			if math.Float64bits(one[0]) != math.Float64bits(two[0]) {
				t.Errorf("%s, %v: %v on one worker, %v on two", c.name, o, one[0], two[0])
			}
		}
	}
}

// TestFlatBlocks checks the block length of flat trees (see flatBlock,
// flatConstBytes): flatBlock for operands read in place, blocks of at
// most flatConstBytes where a constant is read as a block, and the same
// bits as one element at a time.
func TestFlatBlocks(t *testing.T) {
	vec := func(d dtypes.DType, n int) *backend.Node {
		v := make([]float64, n)
		for i := range v {
			v[i] = float64(i%977)/31 - 7
		}
		return in(mk(d, []int{n}, v...))
	}
	scalar := func(d dtypes.DType, y float64) *backend.Node { return in(mk(d, nil, y)) }
	const n = 100000
	cases := []struct {
		name  string
		n     *backend.Node
		block int
	}{
		{"x + y f32", nb(backend.OpAdd, vec(dtypes.F32, n), vec(dtypes.F32, n)), flatBlock},
		{"x * 2 f32", nb(backend.OpMul, vec(dtypes.F32, n), scalar(dtypes.F32, 2)), flatConstBytes / 4},
		{"2 - x f64", nb(backend.OpSub, scalar(dtypes.F64, 2), vec(dtypes.F64, n)), flatConstBytes / 8},
		{"x << 3 i32", nb(backend.OpShl, vec(dtypes.I32, n), scalar(dtypes.I32, 3)), flatConstBytes / 4},
		{"x + 1 u8", nb(backend.OpAdd, vec(dtypes.U8, n), scalar(dtypes.U8, 1)), min(flatBlock, flatConstBytes)},
		{"x * 2 c64", nb(backend.OpMul, vec(dtypes.C64, n), scalar(dtypes.C64, 2)), flatConstBytes / 8},
	}
	for _, c := range cases {
		if block := fusedBlock(t, c.n, n); block != c.block {
			t.Errorf("%s: blocks of %d, want %d", c.name, block, c.block)
		}
		got := vals(run(t, c.n, Workers(2)))
		x := vals(run(t, c.n.Args[0], Workers(1)))
		y := vals(run(t, c.n.Args[1], Workers(1)))
		for i := range got {
			xi, yi := x[min(i, len(x)-1)], y[min(i, len(y)-1)]
			var want float64
			switch c.n.Op {
			case backend.OpAdd:
				want = xi + yi
			case backend.OpMul:
				want = xi * yi
			case backend.OpSub:
				want = xi - yi
			case backend.OpShl:
				want = float64(int32(xi) << int32(yi))
			}
			if c.n.DType == dtypes.U8 {
				want = float64(uint8(int(xi) + int(yi)))
			} else if c.n.DType == dtypes.F32 {
				want = float64(float32(want))
			}
			if got[i] != want {
				t.Fatalf("%s: element %d is %v, want %v", c.name, i, got[i], want)
			}
		}
	}
}

// TestChainBlocks checks the block length of trees of several operations
// (see chainBlockBytes): with a constant leaf, chainBlockBytes of their
// widest compute type within [blockSize/4, blockSize]; none set for a
// tree without a constant or with a splitOp;
// and the same values as the operations element by element on one and
// two workers, over many blocks and a partial last one.
func TestChainBlocks(t *testing.T) {
	const n = 100003
	xs := make([]float64, n)
	for i := range xs {
		xs[i] = float64(i%977)/31 - 7
	}
	x := func(d dtypes.DType) *backend.Node { return in(mk(d, []int{n}, xs...)) }
	c := func(d dtypes.DType, v float64) *backend.Node { return in(mk(d, nil, v)) }
	un := func(o backend.Op, a *backend.Node) *backend.Node {
		return &backend.Node{Op: o, DType: a.DType, Shape: a.Shape, Args: []*backend.Node{a}}
	}
	f32 := func(v float64) float64 { return float64(float32(v)) }
	cases := []struct {
		name  string
		n     *backend.Node
		block int
		want  func(x float64) float64
	}{
		{"x * 2 + 1 f32", nb(backend.OpAdd, nb(backend.OpMul, x(dtypes.F32), c(dtypes.F32, 2)), c(dtypes.F32, 1)), chainBlockBytes / 4,
			func(x float64) float64 { return f32(f32(x*2) + 1) }},
		{"(x - 1) / (x + 1) f32", nb(backend.OpDiv, nb(backend.OpSub, x(dtypes.F32), c(dtypes.F32, 1)), nb(backend.OpAdd, x(dtypes.F32), c(dtypes.F32, 1))), chainBlockBytes / 4,
			func(x float64) float64 { return f32(f32(x-1) / f32(x+1)) }},
		{"x * 3 - 1 f64", nb(backend.OpSub, nb(backend.OpMul, x(dtypes.F64), c(dtypes.F64, 3)), c(dtypes.F64, 1)), chainBlockBytes / 8,
			func(x float64) float64 { return x*3 - 1 }},
		{"x * 2 + 1 i8", nb(backend.OpAdd, nb(backend.OpMul, x(dtypes.I8), c(dtypes.I8, 2)), c(dtypes.I8, 1)), blockSize,
			func(x float64) float64 { return float64(int8(int8(x)*2 + 1)) }},
		{"x * 2 + 1 c128", nb(backend.OpAdd, nb(backend.OpMul, x(dtypes.C128), c(dtypes.C128, 2)), c(dtypes.C128, 1)), blockSize / 4,
			func(x float64) float64 { return x*2 + 1 }},
		{"x * x + x f32", nb(backend.OpAdd, nb(backend.OpMul, x(dtypes.F32), x(dtypes.F32)), x(dtypes.F32)), 0,
			func(x float64) float64 { return f32(f32(x*x) + x) }},
		{"tanh(x * 2) f64", un(backend.OpTanh, nb(backend.OpMul, x(dtypes.F64), c(dtypes.F64, 2))), 0,
			func(x float64) float64 { return math.Tanh(x * 2) }},
	}
	for _, tc := range cases {
		if block := fusedBlock(t, tc.n, n); block != tc.block {
			t.Errorf("%s: blocks of %d, want %d", tc.name, block, tc.block)
		}
		// The operand as stored (rounded to its dtype).
		in := vals(mk(tc.n.DType, []int{n}, xs...))
		for _, w := range []int{1, 2} {
			got := vals(run(t, tc.n, Workers(w)))
			for i, g := range got {
				if want := tc.want(in[i]); g != want {
					t.Fatalf("%s, %d workers: element %d is %v, want %v", tc.name, w, i, g, want)
				}
			}
		}
	}
}

// fusedBlock returns the block length that grain sets for the fused tree
// of n (size elements) on two workers (0: blockSize, the default).
func fusedBlock(t *testing.T, n *backend.Node, size int) int {
	t.Helper()
	b := New(Workers(2))
	r := &runner{b: b, ctx: context.Background(), nw: b.nworkers()}
	r.x.Init(r.ctx, "cpu", r, nil)
	f, _, err := r.fuse(n, size)
	if err != nil {
		t.Fatalf("fuse %v: %v", n.Op, err)
	}
	f.grain(n.DType)
	return f.block
}
