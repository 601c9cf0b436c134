package eval

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// TestMatricesPolicies checks matrices.go's functions where the libraries
// differ (TestBuiltinsNumPy checks their values against NumPy):
//
//   - jnp.tril and jnp.triu refuse fewer than two dimensions
//     (jax/_src/numpy/tensor_creation.py, tril: "Argument to jax.numpy.tril
//     must be at least 2D"), as torch.tril does; np.tril of a vector
//     broadcasts tri(n) against it.
//   - np.outer and jnp.outer ravel their operands (numeric.py:
//     multiply(a.ravel()[:, newaxis], b.ravel()[newaxis, :]); jnp.outer:
//     ravel(a)[:, None] * ravel(b)[None, :]); torch.outer takes vectors.
//   - jnp.asarray of a Python number keeps the weak type, np.asarray makes
//     a strong array of the kind's default dtype: np.outer(f32, 2.5) is
//     float64, jnp.outer's float32; np.repeat(7, 3) + int8 is int64.
//   - jnp.tril, jnp.diag and jnp.tile keep a weak operand's weak type
//     (lax.select of m and zeros_like(m)); trace sums as sum does
//     (jnp.trace of int8 is int32 with x64 off, np.trace's and
//     torch.trace's int64).
func TestMatricesPolicies(t *testing.T) {
	for _, c := range []struct {
		policy, expr, want string
	}{
		{"numpy", "dtype(tril(i8([1, 2])))", "i8"},
		{"numpy", "shape(triu(i8([1, 2, 3])))", "(3, 3)"},
		{"jax", "tril(i8([1, 2]))", "tril needs a tensor of at least 2 dimensions"},
		{"torch", "triu(i8([1, 2]))", "triu needs a tensor of at least 2 dimensions"},
		{"numpy", "tril(7)", "tril needs a tensor of at least 2 dimensions"},
		{"jax", "shape(outer(i8([[1, 2], [3, 4]]), i8([1, 2, 3])))", "(4, 3)"},
		{"numpy", "shape(outer(i8([[1, 2], [3, 4]]), 5))", "(4, 1)"},
		{"torch", "outer(i8([[1, 2], [3, 4]]), i8([1, 2, 3]))", "outer takes vectors"},
		{"numpy", "dtype(outer(f32([1, 2]), 2.5))", "f64"},
		{"jax", "dtype(outer(f32([1, 2]), 2.5))", "f32"},
		{"numpy", "dtype(repeat(7, 3) + i8([1, 2, 3]))", "i64"},
		{"jax", "dtype(repeat(7, 3) + i8([1, 2, 3]))", "i8"},
		{"jax", "dtype(repeat(7, 3))", "i32?"},
		{"jax", "dtype(tril(weak(f32([[1, 2], [3, 4]]))))", "f32?"},
		{"jax", "dtype(diag(weak(i16([1, 2]))))", "i16?"},
		{"jax", "dtype(tile(weak(i16([1, 2])), 2))", "i16?"},
		{"jax", "dtype(trace(i8([[1, 2], [3, 4]])))", "i32"},
		{"numpy", "dtype(trace(i8([[1, 2], [3, 4]])))", "i64"},
		{"torch", "dtype(trace(i8([[1, 2], [3, 4]])))", "i64"},
		{"torch", "trace(i8([[1, 2], [3, 4]]))", "5"},
		{"jax", "dtype(nan_to_num(weak(f32([1]))))", "f32?"},
		{"jax", "dtype(logical_xor(f32([1]), 0))", "bool"},
		{"numpy", "nan_to_num(c64([1]))", "nan_to_num of complex64 is not supported"},
		{"numpy", "repeat(i8([1, 2]), [1, 2])", "repeats as a list is not supported"},
		{"numpy", "repeat(i8([1, 2]), 2, axis=1)", "axis 1 is out of bounds"},
		{"numpy", "diagonal(i8([[1, 2]]), 0, 1, -1)", "axis1 and axis2 cannot be the same"},
		{"numpy", "trace(i8([[1, 2]]), offset=1, 0)", "SyntaxError"},
		{"numpy", "diag(i8([1]), 1, k=1)", `got multiple values for argument "k"`},
		// sort: jnp.sort(descending=True) is lax.rev of the ascending
		// sort (NaN first); complex numbers in NumPy's order only.
		{"jax", "sort(f32([nan, 1, -inf]), descending=true)", "[ nan   1. -inf]"},
		{"jax", "dtype(sort(weak(f32([2, 1]))))", "f32?"},
		{"jax", "sort(c64([1, 2]))", "sort of complex64 is not supported"},
		{"torch", "sort(c128([1, 2]))", "sort of complex128 is not supported"},
		{"numpy", "sort(i8([3, 1]), axis=1)", "axis 1 is out of bounds"},
		// median: np.median is the mean of the middle one or two (the
		// mean of one element is that element); jnp.median is
		// quantile(method="midpoint"), (low + high) * 0.5 in the inexact
		// dtype, which overflows for one element past max/2; torch.median
		// is the lower middle element in x's dtype.
		{"numpy", "median(f32([3e38]))", "f32 3e+38"},
		{"jax", "median(f32([3e38]))", "f32 inf"},
		{"jax", "median(i8([3, 1, 4, 1, 5, 9]))", "f32 3.5"},
		{"torch", "median(i8([3, 1, 4, 1, 5, 9]))", "i8 3"},
		{"torch", "median(f32([1, 2, 3, 4]))", "f32 2.0"},
		{"torch", "median(f32([1, nan, 3]))", "f32 nan"},
		{"jax", "median(f32([1, nan, 3, 4]), keepdims=true)", "[nan]"},
		{"torch", "median(f32([]))", "cannot compute the median of an empty tensor"},
		{"triton", "median(f32([1]))", "triton has no median"},
		{"numpy", "median(c64([1]))", "median of complex64 is not supported"},
		// around: np.round computes float16 in float16 (0.145 * 100 is
		// 14.5 there, which rounds to 14), jnp.round and torch.round in
		// float32 (14.500001, to 15).
		{"numpy", "around(f16([0.145]), 2)", "[0.14]"},
		{"jax", "around(f16([0.145]), 2)", "[0.15]"},
		{"torch", "around(f16([0.145]), 2)", "[0.15]"},
		{"jax", "around(i8([15]), -1)", "integer np.round not implemented for decimals < 0"},
		{"torch", "around(i8([15]), 1)", "round with decimals of integers is not supported"},
		{"numpy", "dtype(around(i8([15]), 1))", "i8"},
		{"numpy", "round(f32([1.25]), 1)", "write around(x, decimals)"},
		{"numpy", "around(c64([1.5]))", "around of complex64 is not supported"},
		{"triton", "around(f32([1.5]))", "triton has no around"},
		// The nan-reductions: jnp.nanmean of integers is jnp.mean (float32
		// with x64 off); PyTorch has nansum and nanmean, no nanmax.
		{"jax", "nanmean(i8([1, 2]))", "f32 1.5"},
		{"jax", "nanmax(f32([nan, 1, nan]))", "f32 1.0"},
		{"jax", "nanmin(reshape(f32([nan, nan, 1, nan]), (2, 2)), axis=1)", "[nan  1.]"},
		{"torch", "nanmean(f16([1, nan, 2]))", "f16 1.5"},
		{"torch", "nanmax(f32([1]))", "torch has no nanmax"},
		{"triton", "nansum(f32([1]))", "triton has no nansum"},
		{"numpy", "nanmax(c64([1]))", "nanmax of complex64 is not supported"},
		// argsort's indices: argmax's dtype (jnp.argsort is int32 with x64
		// off); stable, so ties keep index order.
		{"jax", "argsort(i8([2, 1, 2, 1]))", "[1 3 0 2]\ni32[4]"},
		{"jax64", "dtype(argsort(i8([2, 1])))", "i64"},
		{"torch", "argsort(f32([1, nan, -inf]))", "[2 0 1]\ni64[3]"},
		{"jax", "argsort(c64([1]))", "argsort of complex64 is not supported"},
		// ptp: um.subtract of the max and the min, which wraps without a
		// warning (np.ptp(int8([-128, 127])) is -1); PyTorch has none.
		{"numpy", "ptp(i8([-128, 127]))", "i8 -1"},
		{"jax", "ptp(i8([-128, 127]))", "i8 -1"},
		{"torch", "ptp(f32([1]))", "torch has no ptp"},
		{"torch", "isin(i8([1, 2]), i8([2]))", "[false true]"},
		{"triton", "isin(f32([1]), f32([1]))", "triton has no isin"},
		// cross: jnp.cross and torch.linalg.cross take 3-vectors; NumPy
		// also 2-vectors.
		{"jax", "cross(f32([1, 2]), f32([3, 4]))", "dimension must be 3, got 2"},
		{"numpy", "cross(f32([1, 2]), f32([3, 4]))", "f32 -2.0"},
		{"torch", "cross(i8([1, 2, 3]), i8([4, 5, 6]))", "[-3  6 -3]"},
		// average: jnp.average makes a and the weights inexact (float32
		// with x64 off) and does not check the weights' sum; np.average
		// raises ZeroDivisionError.
		{"jax", "average(i8([1, 2, 3]), weights=i8([3, 1, 0]))", "f32 1.25"},
		{"jax", "average(f32([1, 2]), weights=f32([1, -1]))", "f32 -inf"},
		{"numpy", "average(f32([1, 2]), weights=f32([1, -1]))", "ZeroDivisionError"},
		{"torch", "average(f32([1]))", "torch has no average"},
		// Sizes and offsets past int: a clear error or NumPy's answer,
		// never a wrapped product.
		{"numpy", "tile(i8([1, 2, 3, 4]), 2**62)", "MemoryError"},
		{"numpy", "repeat(i8([1, 2, 3, 4]), 2**62)", "MemoryError"},
		{"numpy", "repeat(i8([[1, 2, 3, 4]]), 2**62, axis=1)", "MemoryError"},
		{"numpy", "diag(i8([1]), 2**63 - 1)", "MemoryError"},
		{"numpy", "diag(i8([1]), -2**63)", "MemoryError"},
		{"numpy", "sum(tril(i8([[1, 2], [3, 4]]), k=2**63 - 1))", "10"},
		{"numpy", "sum(triu(i8([[1, 2], [3, 4]]), k=-2**63 + 1))", "10"},
		{"numpy", "sum(tril(i8([[1, 2], [3, 4]]), k=-2**63))", "0"},
		{"numpy", "shape(diagonal(i8([[1, 2], [3, 4]]), -2**63))", "(0,)"},
	} {
		s, err := New(c.policy)
		if err != nil {
			t.Fatal(err)
		}
		if got := run(t, s, c.expr); !strings.Contains(got, c.want) {
			t.Errorf("%s: %s = %q, want %q", c.policy, c.expr, got, c.want)
		}
	}
}

// TestIsclosePolicies checks isclose and allclose where NumPy, JAX and
// PyTorch compute them in different dtypes (TestBuiltinsNumPy checks
// NumPy's against NumPy): jnp.isclose converts both operands to their
// common inexact type first (promote_args_inexact: int32 becomes float32,
// where 16777217 is 16777216); np.isclose makes y float64 and subtracts in
// float64; torch.isclose compares a == b alone when both tolerances are 0
// and otherwise subtracts b converted to the default float
// (aten/src/ATen/native/TensorCompare.cpp: cast_other =
// other.to(at::get_default_dtype()) for integral self), so 127 and -128 of
// int8 differ by 255, not by a wrapped 1. torch.isclose takes two tensors
// of one dtype and non-negative tolerances; jnp.allclose is a 0-d bool
// array, np.allclose and torch.allclose Python bools.
func TestIsclosePolicies(t *testing.T) {
	for _, c := range []struct {
		policy, expr, want string
	}{
		{"jax", "isclose(i32([16777217]), i32([16777216]), rtol=0, atol=0)", "[true]"},
		{"numpy", "isclose(i32([16777217]), i32([16777216]), rtol=0, atol=0)", "[false]"},
		{"torch", "isclose(i32([16777217]), i32([16777216]), rtol=0, atol=0)", "[false]"},
		{"torch", "isclose(i32([16777217]), i32([16777216]), rtol=0, atol=0.5)", "[true]"},
		{"torch", "isclose(i8([127, 5]), i8([-128, 5]), rtol=0, atol=1)", "[false true]"},
		{"torch", "isclose(b1([true, false]), b1([true, true]))", "[true false]"},
		{"jax", "isclose(f32([inf, inf, 1, nan]), f32([inf, -inf, inf, nan]))", "[true false false false]"},
		{"jax", "isclose(f32([nan, 1]), f32([nan, nan]), equal_nan=true)", "[true false]"},
		{"torch", "isclose(c64([nan]), c64([nan]), equal_nan=true)", "[true]"},
		{"jax", "dtype(allclose(f32([1]), f32([1])))", "bool"},
		{"jax", "allclose(f32([1]), f32([1]))", "bool true"},
		{"numpy", "allclose(f32([1]), f32([1]))", "bool? true"},
		{"torch", "allclose(f32([1, 2]), f32([1, 3]))", "bool? false"},
		{"numpy", "isclose(1.0, 1.0)", "bool true"},
		{"torch", "isclose(f32([1]), 1)", "takes tensors"},
		{"torch", "isclose(f32([1]), f64([1]))", "f32 did not match f64"},
		{"torch", "isclose(f32([1]), f32([1]), rtol=-1)", "must be greater than or equal to zero"},
		{"triton", "isclose(f32([1]), f32([1]))", "triton has no isclose"},
		{"numpy", "isclose(f32([1]), f32([1]), rtol=i8([1]))", "rtol= must be a real number"},
		{"numpy", "isclose(f32([1]), 2**1100)", "too large"},
	} {
		s, err := New(c.policy)
		if err != nil {
			t.Fatal(err)
		}
		if got := run(t, s, c.expr); !strings.Contains(got, c.want) {
			t.Errorf("%s: %s = %q, want %q", c.policy, c.expr, got, c.want)
		}
	}
}

// TestDiagWhere checks diag's plan for a vector held on a device (jnp.diag's
// where of eye's mask, padded v and zeros) against its host path (zeros
// with v written along the diagonal), which TestBuiltinsNumPy checks
// against NumPy.
func TestDiagWhere(t *testing.T) {
	s, err := New("numpy")
	if err != nil {
		t.Fatal(err)
	}
	for _, src := range []string{"f32([1.5, -2, nan])", "i8([1, -2, 3, 4])", "b1([true, false])", "f16([])"} {
		for off := -3; off <= 3; off++ {
			run(t, s, "v = "+src)
			want := run(t, s, fmt.Sprintf("diag(v, %d)", off))
			v, _ := s.Var("v")
			c := &compiler{s: s, policy: s.policy, ctx: context.Background()}
			x, err := c.varOperand(v, span{})
			if err != nil {
				t.Fatal(err)
			}
			o := c.diagWhere(x, off, x.shape[0]+max(off, -off), &call{name: "diag"})
			res, err := s.run(context.Background(), o.node)
			if err != nil {
				t.Fatal(err)
			}
			s.setVar("w", &Value{Kind: TensorValue, Type: o.typ, Tensor: res, Device: "cpu"})
			if got := run(t, s, "w"); got != want {
				t.Errorf("diag(%s, %d): where gives %q, host path %q", src, off, got, want)
			}
		}
	}
}

// TestHelpMoreNamesFunctions checks that every longer help is of a builtin
// function, and shows after its one-line doc under :help.
func TestHelpMoreNamesFunctions(t *testing.T) {
	for name, more := range helpMore {
		if _, ok := builtins[name]; !ok {
			t.Errorf("helpMore[%q]: no such function", name)
			continue
		}
		if h := Help(name); !strings.Contains(h, more) {
			t.Errorf(":help %s does not show its longer help", name)
		}
	}
}
