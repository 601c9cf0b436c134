package eval

import (
	"context"
	"encoding/hex"
	"slices"
	"testing"
)

// reduceOrderCases are reductions whose bits depend on the order of their
// additions, in tensorsh and in NumPy. NumPy reduces a view in the order
// of its memory, and stores an elementwise result of a transposed operand
// in that operand's order (order='K'), so x.T.sum(axis=1) adds what
// x.sum(axis=0) adds, in its order: a float32 sum of 300 rows differs in
// most outputs from the sum of a row-major copy of x.T
// (np.ascontiguousarray(x.T).sum(axis=1)). Its reductions run on a
// buffered iterator whose inner loop is at most 8192 elements, so a
// longer run is summed pairwise in pieces of 8192, added in order.
// (Matrix products of float32 and float64 are left out: NumPy's are
// OpenBLAS's, whose order tensorsh does not follow.)
var reduceOrderCases = []struct{ ts, py string }{
	{"sum(transpose(x), axis=1)", "x.T.sum(axis=1)"},
	{"sum(transpose(x), axis=0)", "x.T.sum(axis=0)"},
	{"sum(transpose(e))", "e.T.sum()"},
	{"sum(transpose(x), axis=1, keepdims=true)", "x.T.sum(axis=1, keepdims=True)"},
	{"mean(transpose(x), axis=1)", "x.T.mean(axis=1)"},
	{"prod(transpose(x) + 0.5, axis=1)", "(x.T + np.float32(0.5)).prod(axis=1)"},
	{"max(transpose(x), axis=1)", "x.T.max(axis=1)"},
	{"std(transpose(x), axis=1)", "x.T.std(axis=1)"},
	{"sum(transpose(x) * r, axis=1)", "(x.T * r).sum(axis=1)"},
	{"sum(sqrt(transpose(c, (2, 0, 1))), axis=(0, 1))", "np.sqrt(c.transpose(2, 0, 1)).sum(axis=(0, 1))"},
	{"sum(c, axis=(0, 2))", "c.sum(axis=(0, 2))"},
	{"sum(transpose(c, (2, 0, 1)), axis=1)", "c.transpose(2, 0, 1).sum(axis=1)"},
	{"mean(transpose(c, (1, 2, 0)), axis=2, keepdims=true)", "c.transpose(1, 2, 0).mean(axis=2, keepdims=True)"},
	{"sum(transpose(c, (0, 2, 1)) * q, axis=2)", "(c.transpose(0, 2, 1) * q).sum(axis=2)"},
	{"sum(sum(transpose(c, (2, 0, 1)), axis=1), axis=0)", "c.transpose(2, 0, 1).sum(axis=1).sum(axis=0)"},
	{"sum(d.T, axis=1)", "d.T.sum(axis=1)"},
	{"mean(d.T)", "d.T.mean()"},
	{"sum(h.T, axis=1)", "h.T.sum(axis=1)"},
	{"sum(h, axis=0)", "h.sum(axis=0)"},
	// Runs longer than NumPy's buffer (8192 elements) are summed in
	// pieces of 8192 added in order.
	{"sum(x)", "x.sum()"},
	{"sum(transpose(x))", "x.T.sum()"},
	{"mean(x)", "x.mean()"},
	{"sum(x * x)", "(x * x).sum()"},
	{"sum(x[:, :100])", "x[:, :100].sum()"},
	{"sum(g, axis=1)", "g.sum(axis=1)"},
	{"mean(g, axis=-1, keepdims=true)", "g.mean(axis=-1, keepdims=True)"},
	{"sum(reshape(g, (3, 2, 25000)), axis=(1, 2))", "g.reshape(3, 2, 25000).sum(axis=(1, 2))"},
	{"std(g, axis=1)", "g.std(axis=1)"},
	{"sum(d)", "d.sum()"},
	{"sum(h)", "h.sum()"},
	{"mean(h)", "h.mean()"},
	{"sum(cast(h, f32) * 3)", "(h.astype(np.float32) * np.float32(3)).sum()"},
	{"sum(cast(x, c64) * (1 + 2j))", "(x.astype(np.complex64) * np.complex64(1 + 2j)).sum()"},
	{"sum(v)", "v.sum()"},
	// Reversed and strided views, other axes, other reductions: NumPy's
	// order as the walk by rows gives it.
	{"sum(x[::-1])", "x[::-1].sum()"},
	{"sum(x[::-1], axis=0)", "x[::-1].sum(axis=0)"},
	{"sum(x[:, ::-1], axis=1)", "x[:, ::-1].sum(axis=1)"},
	{"sum(v[::-1])", "v[::-1].sum()"},
	{"sum(v[::3])", "v[::3].sum()"},
	{"sum(x[::2, ::3], axis=1)", "x[::2, ::3].sum(axis=1)"},
	{"sum(x[::2, ::3], axis=0)", "x[::2, ::3].sum(axis=0)"},
	{"sum(x, axis=0)", "x.sum(axis=0)"},
	{"mean(x, axis=0)", "x.mean(axis=0)"},
	{"prod(x + 0.5, axis=0)", "(x + np.float32(0.5)).prod(axis=0)"},
	{"prod(x + 0.5)", "(x + np.float32(0.5)).prod()"},
	{"var(x, axis=0)", "x.var(axis=0)"},
	{"var(x)", "x.var()"},
	{"std(c, axis=(0, 2))", "c.std(axis=(0, 2))"},
	{"sum(c, axis=(0, 2))", "c.sum(axis=(0, 2))"},
	{"sum(c, axis=(1, 2))", "c.sum(axis=(1, 2))"},
	{"mean(c, axis=1)", "c.mean(axis=1)"},
	{"sum(h, axis=0)", "h.sum(axis=0)"},
	{"mean(h, axis=0)", "h.mean(axis=0)"},
	{"mean(h, axis=1)", "h.mean(axis=1)"},
	{"var(h, axis=1)", "h.var(axis=1)"},
	{"sum(broadcast_to(r, (4, 300)))", "np.broadcast_to(r, (4, 300)).sum()"},
	{"sum(broadcast_to(reshape(r, (300, 1)), (300, 40)), axis=0)", "np.broadcast_to(r.reshape(300, 1), (300, 40)).sum(axis=0)"},
	{"sum(x - mean(x, axis=0), axis=0)", "(x - x.mean(axis=0)).sum(axis=0)"},
	{"sum(cast(x, f64), axis=1)", "x.astype(np.float64).sum(axis=1)"},
	{"sum(x, axis=1) / 200", "x.sum(axis=1) / np.float32(200)"},
	{"max(v)", "v.max()"},
	{"min(x, axis=0)", "x.min(axis=0)"},
	{"cumsum(x, axis=1)", "x.cumsum(axis=1)"},
	{"cumsum(v)", "v.cumsum()"},
	{"cumsum(transpose(x), axis=1)", "x.T.cumsum(axis=1)"},
	{"sum(v * v)", "(v * v).sum()"},
	// float16 products: float32 sums in order, rounded once (NumPy's
	// float16 matmul loop; its float32 and float64 products are
	// OpenBLAS's, whose order tensorsh does not follow).
	{"h @ transpose(h)", "h @ h.T"},
	{"h[:50] @ h[0]", "h[:50] @ h[0]"},
	{"h[0] @ transpose(h[:40])", "h[0] @ h[:40].T"},
	// A result stored in its operand's order, reduced later.
	{"z = transpose(x) * 2\nsum(z, axis=1)", "(x.T * np.float32(2)).sum(axis=1)"},
	{"w = sum(transpose(c, (2, 0, 1)), axis=1)\nsum(w, axis=0)", "c.transpose(2, 0, 1).sum(axis=1).sum(axis=0)"},
}

// reduceOrderSetup makes the operands of reduceOrderCases.
const reduceOrderSetup = `x = rand((300, 200), dtype=f32, seed=1)
r = rand((300,), dtype=f32, seed=2)
c = rand((20, 30, 40), dtype=f32, seed=3)
q = rand((30,), dtype=f32, seed=4)
d = rand((300, 200), dtype=f64, seed=5)
h = cast(rand((300, 200), dtype=f32, seed=6), f16)
e = rand((100, 80), dtype=f32, seed=7)
g = rand((3, 50000), dtype=f32, seed=8)
v = rand((1000000,), dtype=f32, seed=9)`

// TestReduceOrderNumPy runs reduceOrderCases in the installed NumPy on
// the same operands and compares the bits and the shape of each result.
func TestReduceOrderNumPy(t *testing.T) {
	needNumPy(t)
	s, err := New("numpy")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Execute(context.Background(), "", reduceOrderSetup); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	ops := numpyOperands(t, s, dir, map[string]string{"x": "float32", "r": "float32", "c": "float32", "q": "float32",
		"d": "float64", "h": "float16", "e": "float32", "g": "float32", "v": "float32"})
	var exprs []string
	for _, tc := range reduceOrderCases {
		exprs = append(exprs, tc.py)
	}
	want := numpyValues(t, dir, ops, exprs)
	for i, tc := range reduceOrderCases {
		v, b, err := lastValueBytes(s, tc.ts)
		if err != nil {
			t.Errorf("%s: %v", tc.ts, err)
			continue
		}
		w := want[i]
		if hex.EncodeToString(b) != w.Hex || !slices.Equal(v.Dims(), w.Shape) {
			t.Errorf("%s: %v%v differs from NumPy's %s %v (%s)", tc.ts, v.Type, v.Dims(), w.DType, w.Shape, tc.py)
		}
	}
}

// TestReductionsNumPy runs the reductions and scans of every integer
// dtype, bool and float16 along every axis in the installed NumPy on the
// same operands, under the policy of its version, and compares dtypes and
// bits: wrapping products and cumulative products, float64 means and
// variances of integers, float16 sums rounded per NumPy's loops, first
// extremes. (count_nonzero over all axes gives a Python int on both sides
// and is left out.)
func TestReductionsNumPy(t *testing.T) {
	s, err := New(needNumPy(t))
	if err != nil {
		t.Fatal(err)
	}
	setup := `b = rand((20, 30), seed=1) < 0.5
i = cast(floor(rand((20, 30), seed=2) * 256) - 128, i8)
u = cast(floor(rand((20, 30), seed=3) * 256), u8)
k = cast(floor(rand((20, 30), seed=4) * 4e9) - 2e9, i32)
w = cast(floor(rand((20, 30), seed=5) * 6e4), u16)
q = cast(floor(rand((20, 30), seed=6) * 4e9), u32)
l = cast(floor(rand((20, 30), seed=7) * 1e18) - 5e17, i64)
h = cast(rand((20, 30), dtype=f32, seed=8) * 4 - 2, f16)`
	if _, err := s.Execute(context.Background(), "", setup); err != nil {
		t.Fatal(err)
	}
	names := map[string]string{"b": "bool", "i": "int8", "u": "uint8", "k": "int32", "w": "uint16", "q": "uint32",
		"l": "int64", "h": "float16"}
	dir := t.TempDir()
	ops := numpyOperands(t, s, dir, names)
	var ts, py []string
	for n := range names {
		for _, f := range []string{"sum", "prod", "mean", "max", "min", "cumsum", "cumprod", "any", "all", "argmax",
			"argmin", "count_nonzero", "var", "std"} {
			for _, ax := range []string{"", ", axis=0", ", axis=1"} {
				if ax == "" && (f == "cumsum" || f == "cumprod" || f == "count_nonzero") {
					continue
				}
				ts = append(ts, f+"("+n+ax+")")
				py = append(py, "np."+f+"("+n+ax+")")
			}
		}
	}
	checkNumPyBits(t, s, ts, py, numpyValues(t, dir, ops, py))
}
