package format

import (
	"math"
	"math/rand"
	"testing"

	"github.com/tensorsh/tensorsh/dtypes"
)

// TestFloat64ReprIsPython checks that numpy's str of a float64 or
// complex128 scalar, which floatRepr and complexRepr write for every float
// format, is Python's repr for those two (numpy writes float scalars with
// Dragon4's shortest digits, positional from 1e-4 to 1e16, as Python does:
// numpy/_core/src/multiarray/scalartypes.c.src): the one Python repr is
// dtypes.PyFloat and dtypes.PyComplex, and this general writer agrees with
// it at float64.
func TestFloat64ReprIsPython(t *testing.T) {
	f64 := floatFormatOf(dtypes.F64)
	vals := []float64{0, math.Copysign(0, -1), 1, -2.5, 0.1, 1e-4, 9.999e-5, 1e6, 1e15, 1e16, 9999999999999998,
		1e22, 1 << 60, 1.0 / 3, 5e-324, math.MaxFloat64, math.NaN(), math.Inf(1), math.Inf(-1)}
	r := rand.New(rand.NewSource(1))
	for range 2000 {
		vals = append(vals, math.Float64frombits(r.Uint64()))
	}
	for i, v := range vals {
		if got, want := floatRepr(v, f64, false), dtypes.PyFloat(v); got != want {
			t.Errorf("floatRepr(%v) = %q, Python's repr %q", v, got, want)
		}
		w := vals[(i+7)%len(vals)]
		if got, want := complexRepr(v, w, f64), dtypes.PyComplex(complex(v, w)); got != want {
			t.Errorf("complexRepr(%v, %v) = %q, Python's repr %q", v, w, got, want)
		}
	}
}
