package cpu

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestCmul checks the vector complex products (cmulC64, cmulC128)
// against cmulParts bit for bit, NaN payloads included, on parts of
// every sign and magnitude, ±0, ±Inf and NaN in every pairing, products
// that overflow or underflow, and lengths that leave every tail.
func TestCmul(t *testing.T) {
	special := []float64{0, math.Copysign(0, -1), 1, -1, 0.5, 3, math.Inf(1), math.Inf(-1), math.NaN(),
		1e30, -1e30, 1e-30, 1e200, 1e-200, 1e-310, math.MaxFloat32, math.MaxFloat64}
	var pa, pb [][2]float64
	for _, x := range special {
		for _, y := range special {
			pa = append(pa, [2]float64{x, y})
			pb = append(pb, [2]float64{y, x})
		}
	}
	n0 := len(pa)
	for i := range n0 {
		for _, j := range []int{(i * 7) % n0, (i*13 + 5) % n0} {
			pa = append(pa, pa[i])
			pb = append(pb, pa[j])
		}
	}
	r := rand.New(rand.NewPCG(9, 10))
	for range 3001 {
		g := func() float64 { return math.Ldexp(r.Float64()-0.5, r.IntN(120)-60) }
		pa = append(pa, [2]float64{g(), g()})
		pb = append(pb, [2]float64{g(), g()})
	}
	for _, n := range []int{0, 1, 2, 3, 4, 5, 7, 9, len(pa)} {
		a64, b64 := make([]complex64, n), make([]complex64, n)
		a128, b128 := make([]complex128, n), make([]complex128, n)
		for i := range n {
			a64[i] = complex(float32(pa[i][0]), float32(pa[i][1]))
			b64[i] = complex(float32(pb[i][0]), float32(pb[i][1]))
			a128[i] = complex(pa[i][0], pa[i][1])
			b128[i] = complex(pb[i][0], pb[i][1])
		}
		got64, want64 := make([]complex64, n), make([]complex64, n)
		cmulC64(got64, a64, b64)
		cmulGo(want64, a64, b64)
		for i := range n {
			g, w := got64[i], want64[i]
			if math.Float32bits(real(g)) != math.Float32bits(real(w)) || math.Float32bits(imag(g)) != math.Float32bits(imag(w)) {
				t.Fatalf("n=%d: %v·%v = %v, want %v", n, a64[i], b64[i], g, w)
			}
		}
		got128, want128 := make([]complex128, n), make([]complex128, n)
		cmulC128(got128, a128, b128)
		cmulGo128(want128, a128, b128)
		for i := range n {
			g, w := got128[i], want128[i]
			if math.Float64bits(real(g)) != math.Float64bits(real(w)) || math.Float64bits(imag(g)) != math.Float64bits(imag(w)) {
				t.Fatalf("n=%d i=%d: %v·%v = %v, want %v (%x %x / %x %x)", n, i, a128[i], b128[i], g, w, math.Float64bits(real(g)), math.Float64bits(imag(g)), math.Float64bits(real(w)), math.Float64bits(imag(w)))
			}
		}
	}
}
