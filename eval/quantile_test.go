package eval

import (
	"strings"
	"testing"
)

// TestQuantilePolicies checks quantile and percentile where the
// libraries differ (TestBuiltinsNumPy checks NumPy 1.24's against NumPy,
// bit for bit):
//
//   - The dtype: NumPy 1.24 computes q as a float64 (np.true_divide(q,
//     100), np.asanyarray(q)), so an interpolation is float64; NumPy
//     2.5.2, run, keeps a Python q's rank and weight in float64 and
//     interpolates in a float x's dtype, the weight meeting x as a
//     Python float (weak): 1.9 below, where converting q to x's dtype
//     first (2.0's source: "Use dtype of array if possible") gave
//     1.9000001 (TestLibraryAnswers has NumPy 2.5.2's own answers); a
//     list q stays float64; jnp.quantile makes x inexact and converts the result back
//     to it (reductions.py, _quantile: lax.convert_element_type(result,
//     a.dtype)); torch.quantile takes float32 and float64 only, and a q
//     tensor of the input's dtype (aten/src/ATen/native/Sorting.cpp,
//     quantile_checks).
//   - nearest: NumPy rounds the rank half to even (np.around), jnp takes
//     the lower place where the weight is at most 0.5, torch rounds half
//     to even (ranks.round_()): for 3 elements and q = 0.75 (rank 1.5),
//     NumPy's and PyTorch's place 2, JAX's place 1.
//   - midpoint: jnp adds the two places and halves in x's dtype, which
//     overflows past max/2 as jnp.median does; NumPy's _lerp and torch.lerp
//     interpolate at 0.5.
//   - A q outside [0, 1]: NumPy's ValueError, PyTorch's RuntimeError; jnp
//     does not check, and clamps the places.
func TestQuantilePolicies(t *testing.T) {
	for _, c := range []struct {
		policy, expr, want string
	}{
		{"numpy1", "dtype(quantile(f32([1, 2, 3, 4]), 0.3))", "f64"},
		{"numpy", "dtype(quantile(f32([1, 2, 3, 4]), 0.3))", "f32"},
		{"numpy", "dtype(quantile(f32([1, 2, 3, 4]), [0.3]))", "f64"},
		{"numpy", "dtype(percentile(f16([1, 2, 3, 4]), 30))", "f16"},
		{"numpy1", "dtype(percentile(f16([1, 2, 3, 4]), 30))", "f64"},
		{"numpy", "dtype(quantile(i8([1, 2]), 0.5))", "f64"},
		{"numpy1", "quantile(f32([3, 1, 2]), 1)", "f32 3.0"},
		{"numpy1", "percentile(f32([3, 1, 2]), 100)", "f64 3.0"},
		{"jax", "dtype(quantile(i8([1, 2]), 0.5))", "f32"},
		{"jax64", "dtype(quantile(i8([1, 2]), 0.5))", "f32"}, // dtypes.to_inexact_dtype: int8 to float32
		{"jax64", "dtype(quantile(i64([1, 2]), 0.5))", "f64"},
		{"jax64", "dtype(quantile(f32([1, 2]), 0.5))", "f32"},
		{"torch", "dtype(quantile(f64([1, 2, 3]), 0.5))", "f64"},
		{"numpy", "quantile(f32([1, 2, 3, 4]), 0.3)", "f32 1.9"},
		{"numpy1", "quantile(f32([1, 2, 3, 4]), 0.3)", "f64 1.9"},
		{"numpy", "quantile(f32([1, 2, 3]), 0.75, method=\"nearest\")", "f32 3.0"},
		{"jax", "quantile(f32([1, 2, 3]), 0.75, method=\"nearest\")", "f32 2.0"},
		{"torch", "quantile(f32([1, 2, 3]), 0.75, method=\"nearest\")", "f32 3.0"},
		{"jax", "quantile(f32([1, 2, 3]), 0.25, method=\"nearest\")", "f32 1.0"},
		{"jax", "quantile(f32([3e38, 3e38]), 0.5, method=\"midpoint\")", "f32 inf"},
		{"numpy", "quantile(f32([3e38, 3e38]), 0.5, method=\"midpoint\")", "f32 3e+38"},
		{"torch", "quantile(f32([3e38, 3e38]), 0.5, method=\"midpoint\")", "f32 3e+38"},
		{"torch", "quantile(f32([1, 2, 3, 4]), 0.5, method=\"lower\")", "f32 2.0"},
		{"torch", "quantile(f64([0.1, 0.7]), 0.5)", "f64 0.39999999999999997"}, // torch.lerp's end - (end-self)·(1-w) from w = 0.5
		{"torch", "quantile(f32([1, 2, 3, 4]), 0.5, method=\"higher\")", "f32 3.0"},
		{"jax", "quantile(f32([1, 2, 3]), 1.5)", "f32 3.0"},
		{"numpy", "quantile(f32([1, nan, 3]), 0.5)", "f32 nan"},
		{"torch", "quantile(f32([1, nan, 3]), [0.1, 0.5])", "[nan nan]"},
		{"jax", "quantile(reshape(f32([1, nan, 3, 4]), (2, 2)), 0.5, axis=1)", "[nan 3.5]"},
		{"numpy", "shape(quantile(zeros((3, 4)), [0.1, 0.5], axis=1))", "(2, 3)"},
		{"jax", "shape(quantile(zeros((3, 4)), [0.1, 0.5], axis=0, keepdims=true))", "(2, 1, 4)"},
		{"numpy", "shape(percentile(zeros((3, 4)), [], axis=1))", "(0, 3)"},
		// Errors, as each library gives them.
		{"numpy", "quantile(f32([1]), 1.5)", "Quantiles must be in the range [0, 1]"},
		{"numpy", "percentile(f32([1]), 101)", "Percentiles must be in the range [0, 100]"},
		{"torch", "quantile(f32([1]), -0.5)", "q values must be in the range [0, 1]"},
		{"torch", "percentile(f32([1]), 50)", "torch has no percentile"},
		{"torch", "quantile(i8([1]), 0.5)", "input tensor must be either float or double"},
		{"torch", "quantile(f64([1, 2]), f32([0.5]))", "q tensor must be same dtype as the input tensor"},
		{"numpy", "quantile(c64([1]), 0.5)", "a must be an array of real numbers"},
		{"jax", "quantile(c64([1]), 0.5)", "does not support complex input"},
		{"numpy", "quantile(f32([1]), 0.5, method=\"hazen\")", "linear, lower, higher, midpoint and nearest"},
		{"jax", "quantile(f32([1]), 0.5, method=\"hazen\")", "method can only be"},
		{"numpy", "quantile(b1([true, false]), 0.5)", "numpy boolean subtract"},
		{"numpy", "quantile(f32([]), 0.5)", "cannot do a non-empty take from an empty axes"},
		{"numpy", "quantile(f32([1, 2]), [[0.5]])", "q must be a scalar or 1d"},
		{"triton", "quantile(f32([1]), 0.5)", "triton has no quantile"},
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
