package eval

import (
	"context"
	"strings"
	"testing"

	"github.com/tensorsh/tensorsh/internal/format"
)

// TestSquareIsPow checks that x ** 2, compiled as x * x, gives the bits
// the pow kernel gives for an exponent array of 2s, for the real dtypes
// (integers wrap alike; a float square is exact before its one rounding;
// NaN, inf, subnormals, overflow included). For complex x, x ** 2 is x * x
// as NumPy (npy_cpow's n == 2 case), jax.numpy (integer_pow) and PyTorch
// (pow_tensor_scalar_optimized_kernel) compute it.
func TestSquareIsPow(t *testing.T) {
	s, err := New("numpy")
	if err != nil {
		t.Fatal(err)
	}
	check := func(what, src string) {
		t.Helper()
		outs, err := s.Execute(context.Background(), "", src)
		if err != nil {
			t.Errorf("%s: %v", what, err)
			return
		}
		if got := s.Text(outs[len(outs)-1], format.Options{}); got != "bool True" && got != "bool true" && !strings.HasSuffix(got, "True") {
			t.Errorf("%s: x ** 2 and the pow kernel differ: %s", what, got)
		}
	}
	const floats = "[0, 1, -1, 3, 100, -127, 1e3, 3.5e18, 1e-30, 1e200, -2.5, nan, inf, -inf, 1e-310, 65504, 1.7976931348623157e308]"
	const ints = "[0, 1, 3, 100, 127, 15, 16, 255, 181, 46341, 3037000499, -1, -128, -46341]"
	for _, d := range []string{"i8", "u8", "i16", "u16", "i32", "u32", "i64", "u64"} {
		check(d, "x = cast(i64("+ints+"), "+d+")\nall(x ** 2 == x ** full(shape(x), 2, dtype="+d+"))")
	}
	for _, d := range []string{"f16", "bf16", "f32", "f64"} {
		check(d, "x = cast(f64("+floats+"), "+d+")\ny = x ** full(shape(x), 2, dtype="+d+")\nall((x ** 2 == y) | (is_nan(x ** 2) & is_nan(y)))")
	}
	for _, d := range []string{"c64", "c128"} {
		check(d, "x = "+d+"([1+2j, -3.5+0.25j, 1e10+1e10j, 1e-20j, 0j])\nall(x ** 2 == x * x)")
	}
}
