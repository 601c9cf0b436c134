package cpu

import (
	"math"
	"math/cmplx"
	"math/rand/v2"
	"testing"
)

// TestCexp checks exp's complex kernels (cexp) against expC128 bit for
// bit, NaN payloads included: parts of every sign and magnitude, ±0,
// ±Inf and NaN in every pairing, real parts where exp overflows or
// underflows, imaginary parts past the reduction threshold of the sine
// and cosine (2^29) and of every octant, and lengths that leave every
// tail of the vector loops.
func TestCexp(t *testing.T) {
	special := []float64{0, math.Copysign(0, -1), 1, -1, 0.5, 3, -3, math.Pi / 4, 3 * math.Pi / 4, math.Pi,
		math.Inf(1), math.Inf(-1), math.NaN(), 88.7, 89, -103, -104, 709.7, 710, -745, -746, 1e-30, 1e-310,
		1 << 29, 1<<29 + 0.5, 1e10, 1e300, -1e300, math.MaxFloat32, math.MaxFloat64}
	var xs []complex128
	for _, x := range special {
		for _, y := range special {
			xs = append(xs, complex(x, y))
		}
	}
	r := rand.New(rand.NewPCG(13, 14))
	for range 5000 {
		g := func() float64 { return math.Ldexp(r.Float64()-0.5, r.IntN(40)-20) }
		xs = append(xs, complex(g(), g()), complex(r.NormFloat64()*300, r.NormFloat64()*1e9))
	}
	// expC128 is cmplx.Exp but for the sine's and cosine's last bit:
	// each part within 2 ULP, the special cases bit for bit.
	for _, x := range xs {
		g, w := expC128(x), cmplx.Exp(x)
		for _, p := range [][2]float64{{real(g), real(w)}, {imag(g), imag(w)}} {
			if p[0] != p[0] && p[1] != p[1] {
				continue
			}
			if d := int64(math.Float64bits(p[0])) - int64(math.Float64bits(p[1])); d < -2 || d > 2 {
				t.Fatalf("expC128(%v) = %v, cmplx.Exp: %v", x, g, w)
			}
		}
	}
	for _, n := range []int{0, 1, 2, 3, 7, 8, 9, 15, 16, 17, 255, 256, 257, len(xs)} {
		a64, a128 := make([]complex64, n), xs[:n]
		for i := range n {
			a64[i] = complex64(xs[i])
		}
		got64 := make([]complex64, n)
		cexp[complex64]()(got64, a64)
		for i, g := range got64 {
			w := complex64(expC128(complex128(a64[i])))
			if !sameBitsT(g, w) {
				t.Fatalf("n=%d: exp(%v) = %v, want %v", n, a64[i], g, w)
			}
		}
		got128 := make([]complex128, n)
		cexp[complex128]()(got128, a128)
		for i, g := range got128 {
			w := expC128(a128[i])
			if !sameBitsT(g, w) {
				t.Fatalf("n=%d: exp(%v) = %v, want %v", n, a128[i], g, w)
			}
		}
	}
}
