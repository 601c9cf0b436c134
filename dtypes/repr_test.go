package dtypes

import (
	"math"
	"testing"
)

// TestPyRepr checks PyFloat and PyComplex against CPython 3.11's repr
// (Objects/floatobject.c float_repr, Objects/complexobject.c
// complex_repr): the strings below are what repr printed.
func TestPyRepr(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	for _, tc := range []struct {
		f    float64
		want string
	}{
		{0, "0.0"}, {math.Copysign(0, -1), "-0.0"}, {1, "1.0"}, {-2.5, "-2.5"}, {0.1, "0.1"},
		{1e-4, "0.0001"}, {9.999e-5, "9.999e-05"}, {1e16, "1e+16"}, {9999999999999998, "9999999999999998.0"},
		{1e22, "1e+22"}, {1 << 60, "1.152921504606847e+18"}, {1.0 / 3, "0.3333333333333333"},
		{5e-324, "5e-324"}, {math.MaxFloat64, "1.7976931348623157e+308"}, {123456789.125, "123456789.125"},
		{nan, "nan"}, {inf, "inf"}, {-inf, "-inf"},
	} {
		if got := PyFloat(tc.f); got != tc.want {
			t.Errorf("PyFloat(%v) = %q, want %q", tc.f, got, tc.want)
		}
	}
	for _, tc := range []struct {
		c    complex128
		want string
	}{
		{complex(1, 2), "(1+2j)"}, {complex(0, 2), "2j"}, {complex(math.Copysign(0, -1), 1), "(-0+1j)"},
		{complex(0, -1), "-1j"}, {complex(1, math.Copysign(0, -1)), "(1-0j)"}, {complex(nan, -inf), "(nan-infj)"},
		{complex(1e16, 1e-5), "(1e+16+1e-05j)"}, {complex(-1.5, nan), "(-1.5+nanj)"},
	} {
		if got := PyComplex(tc.c); got != tc.want {
			t.Errorf("PyComplex(%v) = %q, want %q", tc.c, got, tc.want)
		}
	}
}
