package eval

import (
	"context"
	"testing"
)

// TestBuiltinsNumPy runs the constructors and the everyday functions in
// the installed NumPy and in tensorsh and compares the dtype and the bits
// of every element, or that both refuse: arange with float steps (NumPy
// fills start + i·step), linspace with and without its endpoint, eye off
// its main diagonal, scans, means, variances and sums of float16 and
// integers, clip with crossed bounds, where and concat across dtypes,
// sqrt of integers. dot of float vectors is left out: NumPy's is
// OpenBLAS's sdot and ddot, several accumulators in its kernel's order,
// where tensorsh adds the products in order (as its matrix products do);
// and so are non-integer powers of integers (SVML's pow on an AVX-512
// CPU, see elementwiseExprs).
func TestBuiltinsNumPy(t *testing.T) {
	s, err := New(needNumPy(t))
	if err != nil {
		t.Fatal(err)
	}
	setup := `x = cast(rand((300,), seed=1) * 20 - 10, f32)
d = rand((300,), seed=2) * 20 - 10
i = cast(floor(rand((300,), seed=3) * 256) - 128, i8)
u = cast(floor(rand((300,), seed=4) * 256), u8)
k = cast(floor(rand((300,), seed=5) * 2000) - 1000, i32)
h = cast(rand((300,), seed=6) * 20 - 10, f16)
m = cast(rand((20, 30), seed=7) * 20 - 10, f32)
b = rand((300,), seed=8) < 0.5`
	if _, err := s.Execute(context.Background(), "", setup); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	names := map[string]string{"x": "float32", "d": "float64", "i": "int8", "u": "uint8", "k": "int32", "h": "float16", "m": "float32", "b": "bool"}
	ops := numpyOperands(t, s, dir, names)
	pairs := [][2]string{
		{"arange(10)", "np.arange(10)"},
		{"arange(0.5, 100, 0.1)", "np.arange(0.5, 100, 0.1)"},
		{"arange(0, 1, 0.1)", "np.arange(0, 1, 0.1)"},
		{"arange(-3, 7.5, 0.7)", "np.arange(-3, 7.5, 0.7)"},
		{"arange(10, 0, -3)", "np.arange(10, 0, -3)"},
		{"arange(0, 5, 0.5, dtype=f32)", "np.arange(0, 5, 0.5, dtype=np.float32)"},
		{"arange(1e16, 1e16 + 10)", "np.arange(1e16, 1e16 + 10)"},
		{"linspace(0, 1, 11)", "np.linspace(0, 1, 11)"},
		{"linspace(-7.3, 2.9, 1000)", "np.linspace(-7.3, 2.9, 1000)"},
		{"linspace(0, 1, 7, endpoint=false)", "np.linspace(0, 1, 7, endpoint=False)"},
		{"linspace(-7.3, 2.9, 1000, endpoint=false)", "np.linspace(-7.3, 2.9, 1000, endpoint=False)"},
		{"linspace(0, 1, 1, endpoint=false)", "np.linspace(0, 1, 1, endpoint=False)"},
		{"linspace(0, 5e-324, 4)", "np.linspace(0, 5e-324, 4)"},
		{"linspace(0, 10, 4, endpoint=false, dtype=i8)", "np.linspace(0, 10, 4, endpoint=False, dtype=np.int8)"},
		{"linspace(1, 0, 9)", "np.linspace(1, 0, 9)"},
		{"linspace(0, 10, 5, dtype=i32)", "np.linspace(0, 10, 5, dtype=np.int32)"},
		{"linspace(0, 1, 1)", "np.linspace(0, 1, 1)"},
		{"linspace(2, 3, 2)", "np.linspace(2, 3, 2)"},
		{"zeros_like(x)", "np.zeros_like(x)"},
		{"ones_like(i)", "np.ones_like(i)"},
		{"ones_like(b)", "np.ones_like(b)"},
		{"full_like(k, 7)", "np.full_like(k, 7)"},
		{"full_like(d, -3.25)", "np.full_like(d, -3.25)"},
		{"full_like(x, 2.5, dtype=i8)", "np.full_like(x, 2.5, dtype=np.int8)"},
		{"full_like(i, 2.9)", "np.full_like(i, 2.9)"},
		{"zeros_like(m, dtype=f16)", "np.zeros_like(m, dtype=np.float16)"},
		{"full_like(m, 1) + m", "np.full_like(m, 1) + m"},
		{"flip(x)", "np.flip(x)"},
		{"flip(m)", "np.flip(m)"},
		{"flip(m, 1)", "np.flip(m, 1)"},
		{"flip(m, axis=-2) + 1", "np.flip(m, axis=-2) + 1"},
		{"flip(m, (0, 1)) * m", "np.flip(m, (0, 1)) * m"},
		{"sum(flip(x))", "np.sum(np.flip(x))"},
		{"sum(flip(m), axis=0)", "np.sum(np.flip(m), axis=0)"},
		{"sum(flip(m, 1), axis=1)", "np.sum(np.flip(m, 1), axis=1)"},
		{"cumsum(flip(d))", "np.cumsum(np.flip(d))"},
		{"flip(m, 2)", "np.flip(m, 2)"},
		{"eye(4)", "np.eye(4)"},
		{"eye(3, 5, 1)", "np.eye(3, 5, 1)"},
		{"eye(4, k=-2, dtype=i8)", "np.eye(4, k=-2, dtype=np.int8)"},
		{"eye(2, M=4, k=3)", "np.eye(2, M=4, k=3)"},
		{"eye(3, None, 1)", "np.eye(3, None, 1)"},
		{"eye(2, 3, k=5)", "np.eye(2, 3, k=5)"},
		{"eye(3, k=-3, dtype=bool)", "np.eye(3, k=-3, dtype=bool)"},
		{"eye(1, k=1)", "np.eye(1, k=1)"},
		{"dot(i, i)", "np.dot(i, i)"},
		{"dot(k, k)", "np.dot(k, k)"},
		{"dot(h, h)", "np.dot(h, h)"},
		{"count_nonzero(m, axis=0)", "np.count_nonzero(m, axis=0)"},
		{"cumsum(h)", "np.cumsum(h)"},
		{"cumsum(x)", "np.cumsum(x)"},
		{"cumprod(i)", "np.cumprod(i)"},
		{"cumsum(b)", "np.cumsum(b)"},
		{"cumsum(m, axis=0)", "np.cumsum(m, axis=0)"},
		{"mean(h)", "np.mean(h)"},
		{"mean(i)", "np.mean(i)"},
		{"mean(m, axis=1)", "np.mean(m, axis=1)"},
		{"std(x)", "np.std(x)"},
		{"var(h)", "np.var(h)"},
		{"std(k)", "np.std(k)"},
		{"var(m, axis=0)", "np.var(m, axis=0)"},
		{"sum(h)", "np.sum(h)"},
		{"prod(h)", "np.prod(h)"},
		{"prod(x)", "np.prod(x)"},
		{"sum(m)", "np.sum(m)"},
		{"clip(i, -3, 300)", "np.clip(i, -3, 300)"},
		{"clip(x, 1, -1)", "np.clip(x, 1, -1)"},
		{"full((3,), 2.5)", "np.full((3,), 2.5)"},
		{"full((3,), 7)", "np.full((3,), 7)"},
		{"ones((2, 3), dtype=i8)", "np.ones((2, 3), dtype=np.int8)"},
		{"roundeven(x * 3)", "np.rint(x * 3)"},
		{"sign(d)", "np.sign(d)"},
		{"sign(h)", "np.sign(h)"},
		{"argmin(x)", "np.argmin(x)"},
		{"argmax(m, axis=0)", "np.argmax(m, axis=0)"},
		{"max(h)", "np.max(h)"},
		{"min(i)", "np.min(i)"},
		{"square(i)", "np.square(i)"},
		{"reciprocal(k)", "np.reciprocal(k)"},
		{"true_divide(i, u)", "np.true_divide(i, u)"},
		{"floor_divide(x, h)", "np.floor_divide(x, h)"},
		{"mod(k, i)", "np.mod(k, i)"},
		{"sqrt(h)", "np.sqrt(h)"},
		{"sqrt(x)", "np.sqrt(x)"},
		{"sqrt(d)", "np.sqrt(d)"},
		{"sqrt(i)", "np.sqrt(i)"},
		{"sqrt(u)", "np.sqrt(u)"},
		{"sqrt(k)", "np.sqrt(k)"},
		{"x ** 0.5", "x ** 0.5"},
		{"h ** 0.5", "h ** 0.5"},
		{"abs(h)", "np.abs(h)"},
		{"stack([x, x], axis=1)", "np.stack([x, x], axis=1)"},
		{"concat([i, u])", "np.concatenate([i, u])"},
		{"concat([x, d])", "np.concatenate([x, d])"},
		{"where(b, i, u)", "np.where(b, i, u)"},
		{"where(b, x, 1.5)", "np.where(b, x, 1.5)"},
		{"where(b, i, 300)", "np.where(b, i, 300)"},
		{"maximum(i, u)", "np.maximum(i, u)"},
		{"minimum(x, d)", "np.minimum(x, d)"},
		{"expand_dims(x, 0) + m[:1, :1]", "np.expand_dims(x, 0) + m[:1, :1]"},
	}
	var ts, py []string
	for _, p := range pairs {
		ts, py = append(ts, p[0]), append(py, p[1])
	}
	checkNumPyBits(t, s, ts, py, numpyValues(t, dir, ops, py))
}
