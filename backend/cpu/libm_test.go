package cpu

import (
	"math"
	"testing"
)

// TestLibm checks the replacements of Go's math functions against values
// of glibc 2.36 (printed with %a by a C program, x86-64), at the inputs
// where Go's own functions are far off.
func TestLibm(t *testing.T) {
	for _, tt := range []struct {
		name string
		f    func(float64) float64
		x    float64
		want float64 // glibc's
	}{
		{"asin", asinF64, -0.9999, -1.5566540733173846},
		{"acos", acosF64, 0.9999, 0.014142253477512098},
		{"sinh", sinhF64, 710, 1.1169973830808557e+308},
		{"cosh", coshF64, -710, 1.1169973830808557e+308},
		{"sinh", sinhF64, 711, math.Inf(1)},
		{"log10", log10F64, 5e-324, -323.3062153431158},
		{"log10", log10F64, 1e-310, -310},
		{"log2", log2F64, 1.000000000000001, 1.6017132519074579e-15},
		{"tan", tanF64, 9.970187044841838e-08, 9.9701870448418706e-08},
	} {
		got := tt.f(tt.x)
		if d := math.Abs(float64(int64(math.Float64bits(got)) - int64(math.Float64bits(tt.want)))); d > 2 || math.IsInf(tt.want, 0) && got != tt.want {
			t.Errorf("%s(%v) = %v, glibc gives %v (%v ULP apart)", tt.name, tt.x, got, tt.want, d)
		}
	}
}
