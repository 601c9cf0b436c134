package cpu

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/tensorsh/tensorsh/backend"
)

// TestCmul checks the vector complex products (cmulC64, cmulC128)
// against cmulParts bit for bit, NaN payloads included, on parts of
// every sign and magnitude, ±0, ±Inf and NaN in every pairing, products
// that overflow or underflow, and lengths that leave every tail.
func TestCmul(t *testing.T) { eachCmulLoop(t, testCmul) }

// eachCmulLoop runs test with the complex products' AVX2 loops, then
// with their AVX-512 loops where the CPU has them.
func eachCmulLoop(t *testing.T, test func(*testing.T)) {
	defer func(old bool) { cmulAVX512 = old }(cmulAVX512)
	for _, on := range []bool{false, true} {
		if on && !cmulHasAVX512 {
			continue
		}
		cmulAVX512 = on
		t.Run(map[bool]string{false: "avx2", true: "avx512"}[on], test)
	}
}

func testCmul(t *testing.T) {
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
		a64, b64, a128, b128 := complexOperands(pa[:n], pb[:n])
		got64, want64 := make([]complex64, n), make([]complex64, n)
		cmulC64(got64, a64, b64)
		cmulGo(want64, a64, b64)
		for i := range n {
			g, w := got64[i], want64[i]
			if !sameBitsT(g, w) {
				t.Fatalf("n=%d: %v·%v = %v, want %v", n, a64[i], b64[i], g, w)
			}
		}
		got128, want128 := make([]complex128, n), make([]complex128, n)
		cmulC128(got128, a128, b128)
		cmulGo128(want128, a128, b128)
		for i := range n {
			g, w := got128[i], want128[i]
			if !sameBitsT(g, w) {
				t.Fatalf("n=%d i=%d: %v·%v = %v, want %v (%x %x / %x %x)", n, i, a128[i], b128[i], g, w, math.Float64bits(real(g)), math.Float64bits(imag(g)), math.Float64bits(real(w)), math.Float64bits(imag(w)))
			}
		}
	}
}

// TestComplexSquareKernel checks square's kernels (the product's vector
// loop on x and x, in place too) against the product's reference loop
// (cmulGo, cmulGo128: cmulParts(x, x)) bit for bit: every special pairing
// of parts and random parts, past the vector loop's tails. (Where both
// parts are NaN with different payloads, the payload is the product's:
// Go may fold re·im and im·re of an inlined cmulParts(x, x) into one
// product, as a C compiler may NumPy's in1r*in1i + in1i*in1r.)
func TestComplexSquareKernel(t *testing.T) { eachCmulLoop(t, testComplexSquareKernel) }

func testComplexSquareKernel(t *testing.T) {
	special := []float64{0, math.Copysign(0, -1), 1, -1, 3, math.Inf(1), math.Inf(-1), math.NaN(),
		math.Float64frombits(0x7ff0000000000123), 1e30, 1e-30, 1e200, 1e-310}
	var xs []complex128
	for _, x := range special {
		for _, y := range special {
			xs = append(xs, complex(x, y))
		}
	}
	r := rand.New(rand.NewPCG(3, 4))
	for range 1001 {
		xs = append(xs, complex(math.Ldexp(r.Float64()-0.5, r.IntN(120)-60), math.Ldexp(r.Float64()-0.5, r.IntN(120)-60)))
	}
	x64 := make([]complex64, len(xs))
	for i, z := range xs {
		x64[i] = complex64(z)
	}
	w64, w128 := make([]complex64, len(xs)), make([]complex128, len(xs))
	cmulGo(w64, x64, x64)
	cmulGo128(w128, xs, xs)
	k64, k128 := complex64Kernel(backend.OpSquare), complex128Kernel(backend.OpSquare)
	for _, inPlace := range []bool{false, true} {
		d64, d128 := make([]complex64, len(xs)), make([]complex128, len(xs))
		a64, a128 := x64, xs
		if inPlace {
			copy(d64, x64)
			copy(d128, xs)
			a64, a128 = d64, d128
		}
		if err := k64(d64, []any{a64}); err != nil {
			t.Fatal(err)
		}
		if err := k128(d128, []any{a128}); err != nil {
			t.Fatal(err)
		}
		for i, z := range x64 {
			if g, w := d64[i], w64[i]; math.Float32bits(real(g)) != math.Float32bits(real(w)) || math.Float32bits(imag(g)) != math.Float32bits(imag(w)) {
				t.Fatalf("complex64 square(%v) = %v, want %v (in place %v)", z, g, w, inPlace)
			}
		}
		for i, z := range xs {
			if g, w := d128[i], w128[i]; math.Float64bits(real(g)) != math.Float64bits(real(w)) || math.Float64bits(imag(g)) != math.Float64bits(imag(w)) {
				t.Fatalf("complex128 square(%v) = %v, want %v (in place %v)", z, g, w, inPlace)
			}
		}
	}
}

// TestCdiv checks the vector complex quotients and reciprocals (cdivC64,
// cdivC128, crecipC64, crecipC128) against cdivParts and crecipParts bit
// for bit, NaN payloads included: parts of every sign and magnitude, ±0,
// ±Inf and NaN in every pairing (zero divisors too), |re| = |im| (where
// Smith's algorithm changes branch), quotients that overflow or
// underflow, and lengths that leave every tail.
func TestCdiv(t *testing.T) {
	special := []float64{0, math.Copysign(0, -1), 1, -1, 0.5, 3, -3, math.Inf(1), math.Inf(-1), math.NaN(),
		1e30, -1e30, 1e-30, 1e200, 1e-200, 1e-310, math.MaxFloat32, math.MaxFloat64, 1e-45}
	var pa, pb [][2]float64
	for _, x := range special {
		for _, y := range special {
			for _, z := range []float64{1, -2.5, 0, math.Inf(-1)} {
				pa = append(pa, [2]float64{z, x})
				pb = append(pb, [2]float64{x, y})
				pa = append(pa, [2]float64{x, y})
				pb = append(pb, [2]float64{y, z})
			}
		}
	}
	r := rand.New(rand.NewPCG(11, 12))
	for range 4001 {
		g := func() float64 { return math.Ldexp(r.Float64()-0.5, r.IntN(120)-60) }
		pa = append(pa, [2]float64{g(), g()})
		pb = append(pb, [2]float64{g(), g()})
	}
	for range 500 {
		// |br| = |bi| and near it.
		x := r.Float64() + 0.5
		y := math.Copysign(math.Nextafter(x, float64(r.IntN(3)-1)*10), r.Float64()-0.5)
		pa = append(pa, [2]float64{r.Float64(), -r.Float64()})
		pb = append(pb, [2]float64{x, y})
	}
	for _, n := range []int{0, 1, 2, 3, 4, 5, 7, 9, len(pa)} {
		a64, b64, a128, b128 := complexOperands(pa[:n], pb[:n])
		got64, want64 := make([]complex64, n), make([]complex64, n)
		cdivC64(got64, a64, b64)
		cdivGo(want64, a64, b64)
		for i := range n {
			if !sameBitsT(got64[i], want64[i]) {
				t.Fatalf("n=%d: %v/%v = %v, want %v", n, a64[i], b64[i], got64[i], want64[i])
			}
		}
		crecipC64(got64, b64)
		crecipGo(want64, b64)
		for i := range n {
			if !sameBitsT(got64[i], want64[i]) {
				t.Fatalf("n=%d: 1/%v = %v, want %v", n, b64[i], got64[i], want64[i])
			}
		}
		got128, want128 := make([]complex128, n), make([]complex128, n)
		cdivC128(got128, a128, b128)
		cdivGo128(want128, a128, b128)
		for i := range n {
			if !sameBitsT(got128[i], want128[i]) {
				t.Fatalf("n=%d: %v/%v = %v, want %v", n, a128[i], b128[i], got128[i], want128[i])
			}
		}
		crecipC128(got128, b128)
		crecipGo128(want128, b128)
		for i := range n {
			if !sameBitsT(got128[i], want128[i]) {
				t.Fatalf("n=%d: 1/%v = %v, want %v", n, b128[i], got128[i], want128[i])
			}
		}
	}
}

// complexOperands returns the pairs of parts pa and pb as complex64 and
// complex128 operands.
func complexOperands(pa, pb [][2]float64) (a64, b64 []complex64, a128, b128 []complex128) {
	for i := range pa {
		a64 = append(a64, complex(float32(pa[i][0]), float32(pa[i][1])))
		b64 = append(b64, complex(float32(pb[i][0]), float32(pb[i][1])))
		a128 = append(a128, complex(pa[i][0], pa[i][1]))
		b128 = append(b128, complex(pb[i][0], pb[i][1]))
	}
	return a64, b64, a128, b128
}
