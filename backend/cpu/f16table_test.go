package cpu

import (
	"testing"

	"github.com/tensorsh/tensorsh/backend"
	"github.com/tensorsh/tensorsh/dtypes"
)

// TestF16TreeTable checks the table path of one-operand float16 trees
// (f16Leaf, f16TreeTable) on every float16 bit pattern (NaN payloads,
// ±Inf, ±0, subnormals), and the same in bfloat16: a tree of f16TableMin
// elements or more, which is looked up, gives the bits of the same tree on
// fewer elements, which the kernels compute block by block.
func TestF16TreeTable(t *testing.T) {
	for _, d := range []dtypes.DType{dtypes.F16, dtypes.BF16} {
		testTreeTable(t, d)
	}
}

func testTreeTable(t *testing.T, dt dtypes.DType) {
	const m = 1 << 16
	small := make([]uint16, m)
	for i := range small {
		small[i] = uint16(i)
	}
	// Every pattern at two offsets, then a few thousand more.
	n := 2*m + 4321
	large := make([]uint16, n)
	for i := range large {
		large[i] = uint16(i*40503 + 7) // odd multiplier: a permutation
	}
	if n < f16TableMin || m >= f16TableMin {
		t.Fatalf("sizes %d and %d do not straddle f16TableMin", n, m)
	}
	ops := []backend.Op{backend.OpExp, backend.OpLog, backend.OpSin, backend.OpCos, backend.OpTanh,
		backend.OpLog1p, backend.OpSigmoid, backend.OpRsqrt, backend.OpSqrt, backend.OpAbs, backend.OpNeg, backend.OpFloor}
	for _, o := range ops {
		for _, chain := range []bool{false, true} {
			tree := func(d []uint16) *backend.Node {
				x := in(raw(dt, []int{len(d)}, d))
				if chain {
					x = nu(backend.OpNeg, x)
				}
				return nu(o, x)
			}
			want := run(t, tree(small)).Data.([]uint16)
			got := run(t, tree(large)).Data.([]uint16)
			for i, b := range large {
				if got[i] != want[b] {
					t.Fatalf("%v (after - : %v) of %v bits %#04x: got %#04x, want %#04x", o, chain, dt, b, got[i], want[b])
				}
			}
		}
	}
}

// TestF16TiledTable checks the table path of a transposed float16 operand
// (lookupTiled: bits transposed a chunk at a time, then looked up)
// against the same operation on a small contiguous input holding every
// pattern, which the kernels compute: exp(transpose(x)) on a 400×333 x,
// large enough for the table, with every float16 pattern in it; the same
// in bfloat16.
func TestF16TiledTable(t *testing.T) {
	for _, d := range []dtypes.DType{dtypes.F16, dtypes.BF16} {
		testTiledTable(t, d)
	}
}

func testTiledTable(t *testing.T, dt dtypes.DType) {
	const m = 1 << 16
	small := make([]uint16, m)
	for i := range small {
		small[i] = uint16(i)
	}
	rows, cols := 400, 333 // x is rows×cols; transpose(x) cols×rows
	if rows*cols < f16TableMin || m >= f16TableMin {
		t.Fatalf("sizes %d and %d do not straddle f16TableMin", rows*cols, m)
	}
	x := make([]uint16, rows*cols)
	for i := range x {
		x[i] = uint16(i*40503 + 11)
	}
	for _, o := range []backend.Op{backend.OpExp, backend.OpTanh, backend.OpTan} {
		want := run(t, nu(o, in(raw(dt, []int{m}, small)))).Data.([]uint16)
		tr := &backend.Node{Op: backend.OpTranspose, DType: dt, Shape: []int{cols, rows},
			Args: []*backend.Node{in(raw(dt, []int{rows, cols}, x))}, Axes: []int{1, 0}}
		got := run(t, nu(o, tr), Workers(2)).Data.([]uint16)
		for i := range cols {
			for j := range rows {
				b := x[j*cols+i]
				if g := got[i*rows+j]; g != want[b] {
					t.Fatalf("%v of transposed %v bits %#04x at (%d, %d): got %#04x, want %#04x", o, dt, b, i, j, g, want[b])
				}
			}
		}
	}
}

// TestF16TableConstants checks the table path of float16 chains with a
// constant operand (exp(x - 1), arcsin(0.5 * x), 2 ** x: chainArg, and
// f16TreeTable filling the constant's lanes) on every float16 pattern,
// against the same trees on fewer elements than f16TableMin, which the
// kernels compute; the same in bfloat16.
func TestF16TableConstants(t *testing.T) {
	for _, d := range []dtypes.DType{dtypes.F16, dtypes.BF16} {
		testTableConstants(t, d)
	}
}

func testTableConstants(t *testing.T, dt dtypes.DType) {
	const m = 1 << 16
	small := make([]uint16, m)
	for i := range small {
		small[i] = uint16(i)
	}
	n := 2*m + 999
	large := make([]uint16, n)
	for i := range large {
		large[i] = uint16(i*40503 + 3)
	}
	c := func(v float64) *backend.Node { return in(mk(dt, []int{}, v)) }
	trees := []struct {
		name string
		tree func(x *backend.Node) *backend.Node
	}{
		{"exp(x - 1)", func(x *backend.Node) *backend.Node { return nu(backend.OpExp, nb(backend.OpSub, x, c(1))) }},
		{"arcsin(0.5 * x)", func(x *backend.Node) *backend.Node { return nu(backend.OpAsin, nb(backend.OpMul, c(0.5), x)) }},
		{"2 ** x", func(x *backend.Node) *backend.Node { return nb(backend.OpPow, c(2), x) }},
		{"tanh(x) * 3", func(x *backend.Node) *backend.Node { return nb(backend.OpMul, nu(backend.OpTanh, x), c(3)) }},
		// Kept tables are told apart by constant and side.
		{"x - 1", func(x *backend.Node) *backend.Node { return nb(backend.OpSub, x, c(1)) }},
		{"1 - x", func(x *backend.Node) *backend.Node { return nb(backend.OpSub, c(1), x) }},
		{"x - 2", func(x *backend.Node) *backend.Node { return nb(backend.OpSub, x, c(2)) }},
		{"x ** 2", func(x *backend.Node) *backend.Node { return nb(backend.OpPow, x, c(2)) }},
		{"exp(x - 2)", func(x *backend.Node) *backend.Node { return nu(backend.OpExp, nb(backend.OpSub, x, c(2))) }},
	}
	for _, tr := range trees {
		want := run(t, tr.tree(in(raw(dt, []int{m}, small)))).Data.([]uint16)
		// Twice: the table made, then the one kept.
		for range 2 {
			got := run(t, tr.tree(in(raw(dt, []int{n}, large)))).Data.([]uint16)
			for i, b := range large {
				if got[i] != want[b] {
					t.Fatalf("%s of %v bits %#04x: got %#04x, want %#04x", tr.name, dt, b, got[i], want[b])
				}
			}
		}
	}
}

// TestLookupF16 checks lookupF16's gather loop (lookup16) against the
// plain loop: every float16 bit pattern as an index (0xFFFF, whose
// four-byte read the loop leaves out, included), each length 0..70 at
// offsets 0..3, in place too.
func TestLookupF16(t *testing.T) {
	tab := new([1 << 16]uint16)
	for i := range tab {
		tab[i] = uint16(i*7919 + 13)
	}
	idx := make([]uint16, 1<<16+100)
	for i := range idx {
		idx[i] = uint16(i*40503 + 7) // a permutation, then more
	}
	idx[3], idx[20], idx[37] = 0xFFFF, 0, 0xFFFF
	check := func(name string, d, a []uint16, want []uint16) {
		t.Helper()
		for i := range d {
			if d[i] != want[i] {
				t.Fatalf("%s: d[%d] = %#04x, want tab[%#04x] = %#04x", name, i, d[i], a[i], want[i])
			}
		}
	}
	for _, avx512 := range []bool{false, true} {
		if avx512 && !libmAVX512 {
			continue
		}
		saved := libmAVX512
		libmAVX512 = avx512
		d := make([]uint16, len(idx))
		want := make([]uint16, len(idx))
		for i, v := range idx {
			want[i] = tab[v]
		}
		lookupF16(d, idx, tab)
		check("all", d, idx, want)
		for off := range 4 {
			for n := range 71 {
				a := idx[off : off+n]
				d := make([]uint16, n)
				lookupF16(d, a, tab)
				check("part", d, a, want[off:off+n])
				in := append([]uint16(nil), a...)
				lookupF16(in, in, tab)
				check("in place", in, a, want[off:off+n])
			}
		}
		libmAVX512 = saved
	}
	if libmAVX512 {
		d := make([]uint16, 35)
		if n := lookup16(d, idx[:35], tab); n != 32 {
			t.Errorf("lookup16 set %d of 35, want 32", n)
		}
		check("lookup16", d[:32], idx[:32], want32(tab, idx[:32]))
	}
	// lookupF16 takes lookup16 or not as this CPU measured
	// (gatherFaster); the scalar loop on its own:
	for n := range 71 {
		d := make([]uint16, n)
		lookupScalar(d, idx[:n], tab)
		check("lookupScalar", d, idx[:n], want32(tab, idx[:n]))
	}
	t.Logf("gatherFaster: %v", gatherFaster())
}

// want32 returns tab[a[i]] for each i.
func want32(tab *[1 << 16]uint16, a []uint16) []uint16 {
	w := make([]uint16, len(a))
	for i, v := range a {
		w[i] = tab[v]
	}
	return w
}
