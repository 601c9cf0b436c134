//go:build amd64 && !purego

package cpu

import (
	"math"
	"math/rand"
	"testing"
)

// TestPow3F64Vector checks the double-double x ** 3 of pow3F64AVX2 on
// inputs it computes itself (|x| in [2^-330, 2^330], ±0, ±Inf, NaNs):
// the bits of powF64 (pow.go), without falling back to it, and the
// fallback for the rest.
func TestPow3F64Vector(t *testing.T) {
	if !haveAVX2 {
		t.Skip("no AVX2: the Go loop is the kernel")
	}
	rng := rand.New(rand.NewSource(5))
	special := []float64{0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.NaN(),
		math.Float64frombits(0x7ff0000000000001), math.Float64frombits(0xfff8000000012345),
		0x1p-330, -0x1p-330, 0x1p330, -0x1p330, 1, -1, 3, 1.0000000000000002}
	for trial := 0; trial < 2000; trial++ {
		n := 4 * (1 + rng.Intn(16))
		a, d := make([]float64, n), make([]float64, n)
		for i := range a {
			switch rng.Intn(4) {
			case 0:
				a[i] = special[rng.Intn(len(special))]
			case 1:
				a[i] = rng.Float64() + 0.5
			default:
				a[i] = math.Ldexp(rng.Float64()+0.5, rng.Intn(659)-329) * float64(1-2*rng.Intn(2))
			}
		}
		if pow3F64AVX2(d, a) {
			t.Fatalf("%v: fell back to math.Pow", a)
		}
		for i, x := range a {
			if want := powF64(x, 3); math.Float64bits(d[i]) != math.Float64bits(want) {
				t.Fatalf("%#x ** 3 = %#x, powF64 %#x", math.Float64bits(x), math.Float64bits(d[i]), math.Float64bits(want))
			}
		}
	}
	for _, x := range []float64{0x1p-331, 0x1p331, 1e300, 5e-324, -1e-300} {
		a := []float64{1, 2, x, 3}
		if !pow3F64AVX2(make([]float64, 4), a) {
			t.Errorf("%g: no fallback", x)
		}
	}
}
