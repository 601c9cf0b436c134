package eval

import (
	"context"
	"strings"
	"testing"

	"github.com/tensorsh/tensorsh/internal/format"
)

// TestEverydayValues checks the values and dtypes of cumsum, cumprod, var,
// std, count_nonzero and dot against what the libraries print. The NumPy
// values are NumPy 1.24.2's (np.var and np.std are numpy/_core/_methods.py
// _var: the mean by umr_sum / n, the squared deviations summed by umr_sum
// — pairwise along the last axis — and divided by max(n - ddof, 0); the
// float results below match it to the last digit, which the shortest
// repr shows); np.cumsum(np.float16(...)) rounds after every step.
func TestEverydayValues(t *testing.T) {
	cases := []struct{ policy, src, want string }{
		{"numpy", "var(f64([1, 2, 3, 4]))", "f64 1.25"},
		{"numpy", "var(i8([1, 2, 3, 4]))", "f64 1.25"},
		{"numpy", "std(i64([1, 2, 3, 4]), ddof=1)", "f64 1.2909944487358056"},
		{"numpy", "std(i64([1, 2, 3, 4]), correction=1)", "f64 1.2909944487358056"},
		{"numpy", "var(f32(arange(1000)) / 7)", "f32 1700.6785"},
		{"numpy", "std(f32(arange(1000)) / 7, ddof=1)", "f32 41.25992"},
		{"numpy", "var(reshape(f64(arange(10000)) / 3, (100, 100)))", "f64 925925.9166666667"},
		{"numpy", "var(reshape(f64(arange(10000)) / 3, (100, 100)), axis=0)[0]", "f64 925833.3333333335"},
		{"numpy", "var(reshape(f64(arange(10000)) / 3, (100, 100)), axis=1)[1]", "f64 92.58333333333334"},
		{"numpy", "var(c64(f32(arange(300))) * c64(0.3+0.7j))", "f32 4349.9517"},
		{"numpy", "var(f16(arange(50) / 3))", "f16 23.14"},
		{"numpy", "cumsum(f16(arange(50) / 3))[-1]", "f16 408.2"},
		// np.var of float16 computes in float16 (_methods._var has no
		// float32 path, unlike _mean): 694.5, where the float32 var is
		// 694.0086; np.std is its float16 square root, 26.36.
		{"numpy", "var(f16([-25.328125, -45.5625, -22.4375, 1.4873046875, -83.6875, -7.875, -44.875]))", "f16 694.5"},
		{"numpy", "std(f16([-25.328125, -45.5625, -22.4375, 1.4873046875, -83.6875, -7.875, -44.875]))", "f16 26.36"},
		// jnp.var of float16 computes in float32 (_upcast_f16), var
		// 2.0034347 rounds to float16 2.004, and jnp.std is lax.sqrt of
		// that: 1.416. torch takes the square root in float (its
		// accumulation type) before rounding: 1.415.
		{"jax", "std(f16([-0.39306640625, 0.3818359375, 0.142333984375, -2.025390625, 2.375]))", "f16 1.416"},
		{"torch", "std(f16([-0.39306640625, 0.3818359375, 0.142333984375, -2.025390625, 2.375]), correction=0)", "f16 1.415"},
		{"numpy", "cumsum(i8([100, 100]))", "[100 200]\ni64[2] cpu"},
		{"numpy", "cumsum(reshape(arange(6), (2, 3)))", "[ 0  1  3  6 10 15]\ni64[6] cpu"},
		{"numpy", "cumprod(reshape(i8(arange(1, 7)), (2, 3)), axis=1)", "[[  1   2   6]\n [  4  20 120]]\ni64[2,3] cpu"},
		{"numpy", "count_nonzero(i8([[0, 1], [2, 0]]), axis=0)", "[1 1]\ni64[2] cpu"},
		// np.arange fills b0 + i*delta in the dtype, delta = (start +
		// step) - start (ctors.c PyArray_ArangeObj, arraytypes.c.src
		// FLOAT_fill, DOUBLE_fill, HALF_fill); values printed by NumPy
		// 1.24.2: np.arange(0.1, 100, 0.1, dtype=np.float32)[6] is
		// 0x1.666668p-1 (start + 6*step rounded once is 0.7),
		// np.arange(1e8, 1e8 + 1e6, 1.1)[2] 0x1.7d78408ccccccp+26,
		// np.arange(0.1, 10, 0.3, dtype=np.float16)[2] 0.6997 (not 0.7002),
		// np.arange(1, 2**25, 3, dtype=np.float32)[5592407] 16777220.0.
		// jnp.arange with concrete arguments is np.arange's
		// (jax/_src/numpy/lax_numpy.py), in float32 without x64.
		{"numpy", "arange(0.1, 100, 0.1, dtype=f32)[6]", "f32 0.70000005"},
		{"numpy", "arange(1e8, 1e8 + 1e6, 1.1)[2]", "f64 100000002.19999999"},
		{"numpy", "arange(0.1, 10, 0.3, dtype=f16)[2]", "f16 0.6997"},
		{"numpy", "arange(1, 2**25, 3, dtype=f32)[5592407]", "f32 16777220.0"},
		{"jax", "arange(0.1, 100, 0.1)[8]", "f32 0.90000004"},
		{"numpy", "arange(5, 0, -2)", "[5 3 1]\ni64[3] cpu"},
		// np.eye(2, 3, dtype=np.int8), np.eye(3, 2, dtype=bool): ones on
		// the main diagonal of a rectangle, in the dtype.
		{"numpy", "eye(2, 3, dtype=i8)", "[[1 0 0]\n [0 1 0]]\ni8[2,3] cpu"},
		{"numpy", "eye(3, 2, dtype=bool)", "[[ true false]\n [false  true]\n [false false]]\nbool[3,2] cpu"},
		{"numpy", "eye(2, dtype=c64)", "[[1.+0.j 0.+0.j]\n [0.+0.j 1.+0.j]]\nc64[2,2] cpu"},
		{"numpy", "sum(eye(300, 1000, dtype=f16))", "f16 300.0"},
		{"numpy", "shape(eye(2, 0))", "(2, 0)"},
		{"numpy", "eye(1, dtype=i8)", "[[1]]\ni8[1,1] cpu"},
		// A bool mask is counted as it is summed: np.count_nonzero(
		// np.array([[1, 0, 1], [0, 0, 1]], bool), axis=0) is [1 0 2].
		{"numpy", "count_nonzero(bool([[true, false, true], [false, false, true]]), axis=0)", "[1 0 2]\ni64[3] cpu"},
		{"numpy", "count_nonzero(bool([[true, false, true], [false, false, true]]))", "i64? 3"},
		{"jax", "count_nonzero(bool([true, true, false]))", "i32 2"},
		// np.count_nonzero without an axis is a Python int (numeric.py),
		// so it meets an int8 array as a weak scalar.
		{"numpy", "count_nonzero(c64([0, 1j, 0]))", "i64? 1"},
		{"numpy", "count_nonzero(f32([0, 1, 2])) + i8(1)", "i8 3"},
		{"numpy", "count_nonzero(f32([0, 1, 2]), keepdims=true)", "[2]\ni64[1] cpu"},
		{"numpy", "dot(i8([1, 2]), i16([3, 4]))", "i16 11"},
		{"numpy", "dot(i8([[1, 2], [3, 4]]), i8([[5, 6], [7, 8]]))", "[[19 22]\n [43 50]]\ni8[2,2] cpu"},
		// np.dot(np.arange(24).reshape(2,3,4), np.arange(40).reshape(5,4,2)): shape (2, 3, 5, 2);
		// element [1, 2, 3, 1] is 2418.
		{"numpy", "shape(dot(reshape(arange(24), (2, 3, 4)), reshape(arange(40), (5, 4, 2))))", "(2, 3, 5, 2)"},
		{"numpy", "dot(reshape(arange(24), (2, 3, 4)), reshape(arange(40), (5, 4, 2)))[1, 2, 3, 1]", "i64 2418"},
		{"numpy", "dot(i8([1, 2]), 3)", "[3 6]\ni64[2] cpu"},
		{"numpy", "dot(f32([1, 2, 3]), f32([1, 2]))", "ValueError: shapes (3,) and (2,) not aligned: 3 (dim 0) != 2 (dim 0)"},
		// jnp.cumsum keeps int8 (wrapping); jnp.var of ints is float32.
		{"jax", "cumsum(i8([100, 100]))", "[100 -56]\ni8[2] cpu"},
		{"jax", "var(i8([1, 2, 3, 4]))", "f32 1.25"},
		{"jax", "count_nonzero(i8([0, 1, 2]))", "i32 2"},
		// torch.var's correction defaults to 1.
		{"torch", "var(f32([1, 2, 3, 4]))", "f32 1.6666666"},
		{"torch", "var(f32([1, 2, 3, 4]), correction=0)", "f32 1.25"},
		{"torch", "cumsum(i8([100, 100]))", "[100 200]\ni64[2] cpu"},
		// torch's CPU cumsum of float32 runs in double and rounds each
		// element (ReduceOpsKernel.cpp cumsum_cpu_kernel, acc_type):
		// 1e8 + 1 + 1 + 1 - 1e8 is 3; NumPy's float32 add.accumulate loses
		// the ones (np.cumsum gives 0 and 0.5 at the end).
		{"torch", "cumsum(f32([1e8, 1, 1, 1, -1e8, 0.5]))", "[1.0e+08 1.0e+08 1.0e+08 1.0e+08 3.0e+00 3.5e+00]\nf32[6] cpu"},
		{"numpy", "cumsum(f32([1e8, 1, 1, 1, -1e8, 0.5]))", "[1.e+08 1.e+08 1.e+08 1.e+08 0.e+00 5.e-01]\nf32[6] cpu"},
		{"torch", "var(i32([1, 2]))", "PromotionError: torch: std and var only support floating point and complex dtypes (got torch.int32)"},
		{"triton", "cumsum(i8([100, 100]))", "[100 200]\ni32[2] cpu"},
		// The standard's cumulative_sum needs an axis beyond one dimension.
		{"array-api", "cumsum(f32([[1, 2], [3, 4]]))", "ValueError: array-api: cumsum needs a tensor of one or more dimensions, and an axis= when it has more than one (rank 2)"},
		{"array-api", "cumsum(i8([[1, 2], [3, 4]]), axis=1)", "[[1 3]\n [3 7]]\ni64[2,2] cpu"},
		{"max-graph", "dot(f32([1, 2]), f32([1, 2]))", "PromotionError: max-graph: max.graph.ops has no dot; use a @ b (ops.matmul)"},
	}
	for _, c := range cases {
		s, err := New(c.policy)
		if err != nil {
			t.Fatal(err)
		}
		if got := run(t, s, c.src); got != c.want {
			t.Errorf("%s: %s\ngot  %q\nwant %q", c.policy, c.src, got, c.want)
		}
	}
}

// TestEverydayWarnings checks var and std with no degrees of freedom:
// NumPy divides by 0 and warns (numpy/_core/_methods.py _var: "Degrees of
// freedom <= 0 for slice"), torch divides by 0 and warns
// (ReduceOps.cpp std_var_out), jax.numpy gives NaN without a warning
// (reductions.py _var: _where(normalizer > 0, result, nan)).
func TestEverydayWarnings(t *testing.T) {
	cases := []struct{ policy, src, value, warning string }{
		{"numpy", "var(f64([1]), ddof=1)", "f64 nan", "RuntimeWarning: Degrees of freedom <= 0 for slice"},
		{"numpy", "var(f64([1, 2]), ddof=2)", "f64 inf", "RuntimeWarning: Degrees of freedom <= 0 for slice"},
		{"torch", "std(f32([1, 2]), correction=2)", "f32 inf", "UserWarning: std(): degrees of freedom is <= 0."},
		{"jax", "var(f32([1, 2]), ddof=2)", "f32 nan", ""},
	}
	for _, c := range cases {
		s, err := New(c.policy)
		if err != nil {
			t.Fatal(err)
		}
		outs, err := s.Execute(context.Background(), "", c.src)
		if err != nil {
			t.Fatal(err)
		}
		var warnings []string
		value := ""
		for _, o := range outs {
			if o.Warning != "" {
				warnings = append(warnings, o.Warning)
			} else {
				value = s.Text(o, format.Options{})
			}
		}
		w := strings.Join(warnings, "; ")
		if value != c.value || (c.warning == "") != (w == "") || !strings.Contains(w, c.warning) {
			t.Errorf("%s: %s = %q, warnings %q; want %q, warning %q", c.policy, c.src, value, w, c.value, c.warning)
		}
	}
}

// TestEverydayMethods checks ndarray's spellings of the everyday
// functions (ndarray.cumsum(axis=None, ...), ndarray.var(axis=None,
// dtype=None, out=None, ddof=0, ...), ndarray.dot(b)) under every policy:
// the same value, or the same error.
func TestEverydayMethods(t *testing.T) {
	pairs := []struct{ method, function string }{
		{"x.cumsum()", "cumsum(x)"},
		{"x.cumsum(1)", "cumsum(x, axis=1)"},
		{"x.cumprod(axis=0)", "cumprod(x, axis=0)"},
		{"x.var()", "var(x)"},
		{"x.var(0, ddof=1)", "var(x, axis=0, ddof=1)"},
		{"x.std(1)", "std(x, axis=1)"},
		{"x.dot(x.T)", "dot(x, transpose(x))"},
	}
	for _, policy := range []string{"numpy", "jax", "torch", "triton", "max-graph", "array-api"} {
		s, err := New(policy)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.Execute(context.Background(), "", "x = f32([[1, 2, 3], [4, 5, 7]])"); err != nil {
			t.Fatal(err)
		}
		for _, p := range pairs {
			if got, want := run(t, s, p.method), run(t, s, p.function); got != want {
				t.Errorf("%s: %s = %q, %s = %q", policy, p.method, got, p.function, want)
			}
		}
	}
}
