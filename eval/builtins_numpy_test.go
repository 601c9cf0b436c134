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
		// matrices.go
		{"diagonal(m)", "np.diagonal(m)"},
		{"diagonal(m, 3) * 2", "np.diagonal(m, 3) * 2"},
		{"diagonal(m, -5)", "np.diagonal(m, -5)"},
		{"diagonal(m, offset=40)", "np.diagonal(m, offset=40)"},
		{"diagonal(transpose(m), 1)", "np.diagonal(m.T, 1)"},
		{"diagonal(reshape(k[:60], (3, 4, 5)), 1, 2, 0)", "np.diagonal(k[:60].reshape(3, 4, 5), 1, 2, 0)"},
		{"diagonal(reshape(k[:60], (3, 4, 5)), axis1=-1, axis2=-2)", "np.diagonal(k[:60].reshape(3, 4, 5), axis1=-1, axis2=-2)"},
		{"diagonal(x)", "np.diagonal(x)"},
		{"diagonal(m, 0, 1, 1)", "np.diagonal(m, 0, 1, 1)"},
		{"diag(m, 2)", "np.diag(m, 2)"},
		{"diag(m, k=-19)", "np.diag(m, k=-19)"},
		{"diag(x[:10])", "np.diag(x[:10])"},
		{"diag(i[:7], 3)", "np.diag(i[:7], 3)"},
		{"diag(h[:5], -2)", "np.diag(h[:5], -2)"},
		{"diag(b[:6], 1)", "np.diag(b[:6], 1)"},
		{"diag(d[5:5])", "np.diag(d[5:5])"},
		{"diag(reshape(k[:60], (3, 4, 5)))", "np.diag(k[:60].reshape(3, 4, 5))"},
		{"trace(m)", "np.trace(m)"},
		{"trace(m, -3)", "np.trace(m, -3)"},
		{"trace(reshape(k[:100], (10, 10)))", "np.trace(k[:100].reshape(10, 10))"},
		{"trace(reshape(i[:36], (6, 6)), 1)", "np.trace(i[:36].reshape(6, 6), 1)"},
		{"trace(reshape(u[:60], (3, 4, 5)), 0, 1, 2)", "np.trace(u[:60].reshape(3, 4, 5), 0, 1, 2)"},
		{"trace(reshape(b[:25], (5, 5)))", "np.trace(b[:25].reshape(5, 5))"},
		{"trace(reshape(h[:64], (8, 8)))", "np.trace(h[:64].reshape(8, 8))"},
		{"tril(m)", "np.tril(m)"},
		{"tril(m, 3)", "np.tril(m, 3)"},
		{"triu(m, -2)", "np.triu(m, -2)"},
		{"triu(transpose(m), k=1)", "np.triu(m.T, k=1)"},
		{"tril(x[:8])", "np.tril(x[:8])"},
		{"triu(i[:5], 2)", "np.triu(i[:5], 2)"},
		{"triu(reshape(k[:60], (3, 4, 5)), 1)", "np.triu(k[:60].reshape(3, 4, 5), 1)"},
		{"tril(reshape(b[:30], (5, 6)), -1)", "np.tril(b[:30].reshape(5, 6), -1)"},
		{"tril(reshape(h[:30], (6, 5)), 10)", "np.tril(h[:30].reshape(6, 5), 10)"},
		{"tril(x[0])", "np.tril(x[0])"},
		{"outer(x[:10], d[:7])", "np.outer(x[:10], d[:7])"},
		{"outer(i[:5], u[:6])", "np.outer(i[:5], u[:6])"},
		{"outer(m[:2, :3], k[:4])", "np.outer(m[:2, :3], k[:4])"},
		{"outer(h[:4], 2.5)", "np.outer(h[:4], 2.5)"},
		{"outer(b[:3], b[3:7])", "np.outer(b[:3], b[3:7])"},
		{"outer(i[:3], 7)", "np.outer(i[:3], 7)"},
		{"tile(x[:5], 3)", "np.tile(x[:5], 3)"},
		{"tile(m[:2, :3], (2, 2))", "np.tile(m[:2, :3], (2, 2))"},
		{"tile(i[:4], (2, 1, 3))", "np.tile(i[:4], (2, 1, 3))"},
		{"tile(m[:2, :3], 0)", "np.tile(m[:2, :3], 0)"},
		{"tile(transpose(m[:2, :3]), 2) + 1", "np.tile(m[:2, :3].T, 2) + 1"},
		{"tile(2.5, (2, 2))", "np.tile(2.5, (2, 2))"},
		{"tile(x[:3], -1)", "np.tile(x[:3], -1)"},
		{"repeat(x[:5], 3)", "np.repeat(x[:5], 3)"},
		{"repeat(m[:2, :3], 2)", "np.repeat(m[:2, :3], 2)"},
		{"repeat(m[:2, :3], 2, axis=1)", "np.repeat(m[:2, :3], 2, axis=1)"},
		{"repeat(transpose(m[:2, :3]), 3, -2)", "np.repeat(m[:2, :3].T, 3, -2)"},
		{"repeat(k[:4], 0)", "np.repeat(k[:4], 0)"},
		{"repeat(7, 3)", "np.repeat(7, 3)"},
		{"repeat(7, 3) + i[:3]", "np.repeat(7, 3) + i[:3]"},
		{"repeat(x[:3], -1)", "np.repeat(x[:3], -1)"},
		{"repeat(m, 2, axis=2)", "np.repeat(m, 2, axis=2)"},
		{"logical_xor(x, d)", "np.logical_xor(x, d)"},
		{"logical_xor(i, b)", "np.logical_xor(i, b)"},
		{"logical_xor(x / 0, u)", "np.logical_xor(x / 0, u)"},
		{"logical_xor(k, 0)", "np.logical_xor(k, 0)"},
		{"nan_to_num(x / 0)", "np.nan_to_num(x / 0)"},
		{"nan_to_num(h / 0)", "np.nan_to_num(h / 0)"},
		{"nan_to_num(d / 0, nan=1.5, posinf=7, neginf=-7)", "np.nan_to_num(d / 0, nan=1.5, posinf=7, neginf=-7)"},
		{"nan_to_num(x / 0, posinf=1e30)", "np.nan_to_num(x / 0, posinf=1e30)"},
		{"nan_to_num(i)", "np.nan_to_num(i)"},
		{"nan_to_num(b)", "np.nan_to_num(b)"},
		// np.empty's values are arbitrary; tensorsh's are zeros.
		{"empty((2, 3))", "np.zeros((2, 3))"},
		{"empty(4, dtype=i8)", "np.zeros(4, dtype=np.int8)"},
	}
	var ts, py []string
	for _, p := range pairs {
		ts, py = append(ts, p[0]), append(py, p[1])
	}
	checkNumPyBits(t, s, ts, py, numpyValues(t, dir, ops, py))
}
