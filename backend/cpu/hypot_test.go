package cpu

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// hypotExact returns sqrt(x²+y²) correctly rounded to float64.
func hypotExact(x, y float64) float64 {
	const prec = 2000
	bx, by := new(big.Float).SetPrec(prec).SetFloat64(x), new(big.Float).SetPrec(prec).SetFloat64(y)
	s := new(big.Float).SetPrec(prec).Mul(bx, bx)
	s.Add(s, new(big.Float).SetPrec(prec).Mul(by, by))
	r := new(big.Float).SetPrec(prec).Sqrt(s)
	f, _ := r.Float64()
	return f
}

// TestHypot pins the absolute value of complex numbers against C's hypot
// semantics (C99 Annex F.10.4.3: hypot(±Inf, y) is +Inf even for a NaN y;
// NumPy's npy_cabs is hypot of the parts, numpy/_core/src/npymath) and
// checks that the glibc algorithm is correctly rounded on random inputs of
// every magnitude, so that no square overflows or underflows on the way.
func TestHypot(t *testing.T) {
	inf, nan := math.Inf(1), math.NaN()
	for _, c := range []struct{ x, y, want float64 }{
		{3, 4, 5},
		{inf, nan, inf},
		{nan, -inf, inf},
		{nan, 1, nan},
		{0, 0, 0},
		{math.Copysign(0, -1), 0, 0},
		{1e300, 1e300, 1.4142135623730952e300},
		{1e-300, 1e-300, 1.4142135623730951e-300},
		{math.MaxFloat64, math.MaxFloat64, inf},
		{5e-324, 5e-324, 5e-324},
		{1, 1e-17, 1},
	} {
		if got := hypotF64(c.x, c.y); !same(got, c.want) {
			t.Errorf("hypotF64(%v, %v) = %v, want %v", c.x, c.y, got, c.want)
		}
	}
	for _, c := range []struct{ x, y, want float32 }{
		{3, 4, 5},
		{float32(inf), float32(nan), float32(inf)},
		{3e38, 3e38, float32(inf)}, // 4.24e38 is beyond float32
		{2e38, 2e38, 2.828427e38},  // no overflow on the way
		{1e-45, 1e-45, 1e-45},
	} {
		if got := hypotF32(c.x, c.y); !same(float64(got), float64(c.want)) {
			t.Errorf("hypotF32(%v, %v) = %v, want %v", c.x, c.y, got, c.want)
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	bad := 0
	const n = 20000
	for range n {
		e1, e2 := r.IntN(2000)-1000, r.IntN(2000)-1000
		if r.IntN(4) == 0 {
			e2 = e1 - r.IntN(60)
		}
		x := math.Ldexp(1+r.Float64(), e1)
		y := math.Ldexp(1+r.Float64(), e2)
		if got, want := hypotF64(x, y), hypotExact(x, y); got != want {
			bad++
			if bad <= 5 {
				t.Logf("hypotF64(%v, %v) = %v, exact %v", x, y, got, want)
			}
		}
	}
	// glibc's algorithm is correctly rounded but for rare cases; Go's
	// math.Hypot misses on about one input in six.
	if bad > n/1000 {
		t.Errorf("hypotF64: %d of %d results not correctly rounded", bad, n)
	}
	t.Logf("hypotF64: %d of %d results not correctly rounded", bad, n)
}

// TestAbsC64 checks the vector loop of |complex64| (absC64) against
// hypotF32 bit for bit, on lengths that leave every tail, on values of
// every magnitude and on ±0, ±Inf, NaN, subnormals and the largest
// finite values, in every pairing of parts.
func TestAbsC64(t *testing.T) {
	inf, nan := float32(math.Inf(1)), float32(math.NaN())
	special := []float32{0, float32(math.Copysign(0, -1)), 1, -1, inf, -inf, nan, -nan,
		1e-45, -1e-45, 1e-40, math.MaxFloat32, -math.MaxFloat32, 3e38, 1.5, 1e-20, 1e20}
	var a []complex64
	for _, x := range special {
		for _, y := range special {
			a = append(a, complex(x, y))
		}
	}
	r := rand.New(rand.NewPCG(3, 4))
	for range 4099 {
		x := float32(math.Ldexp(1+r.Float64(), r.IntN(300)-150))
		y := float32(math.Ldexp(1+r.Float64(), r.IntN(300)-150))
		if r.IntN(2) == 0 {
			x = -x
		}
		a = append(a, complex(x, y))
	}
	for _, n := range []int{0, 1, 3, 4, 5, 7, 8, 17, len(special), len(a)} {
		got, want := make([]float32, n), make([]float32, n)
		absC64(got, a[:n])
		absC64Go(want, a[:n])
		for i := range want {
			if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
				t.Fatalf("n=%d: |%v| = %v (%#x), want %v (%#x)", n, a[i], got[i], math.Float32bits(got[i]), want[i], math.Float32bits(want[i]))
			}
		}
	}
	// The rotated inputs: an Inf beside a NaN in the same group of four.
	b := []complex64{complex(1, 2), complex(inf, nan), complex(3, 4), complex(nan, 1)}
	got := make([]float32, 4)
	absC64(got, b)
	if want := []float32{float32(math.Sqrt(5)), inf, 5}; got[0] != want[0] || got[1] != want[1] || got[2] != want[2] || got[3] == got[3] {
		t.Errorf("absC64(%v) = %v", b, got)
	}
}

// TestScaledCAbs checks scaledCAbsC64 and scaledCAbsC128 (AVX2 eight and
// four a time where the CPU has it) against scaledCAbsC64Go and
// scaledCAbsC128Go bit for bit, on every pair of edge
// parts (signed zeros, subnormals, the largest float32, infinities, NaNs
// with and without payloads) and random parts of many magnitudes, in runs
// of every length up to 40; and values by hand: |3+4i| = 5, an infinite
// part gives +inf even with a NaN one, a NaN part otherwise NaN, |-0+0i|
// is +0, and r·r + 1 is fused (a random value where that shows).
func TestScaledCAbs(t *testing.T) {
	f := func(b uint32) float32 { return math.Float32frombits(b) }
	edges := []float32{0, f(0x80000000), 1, -3, 4, f(1), f(0x807fffff), math.MaxFloat32, -math.MaxFloat32,
		float32(math.Inf(1)), float32(math.Inf(-1)), f(0x7fc00000), f(0xffc00001), 1e-30, 3e30}
	var a []complex64
	for _, x := range edges {
		for _, y := range edges {
			a = append(a, complex(x, y))
		}
	}
	rng := rand.New(rand.NewPCG(3, 0))
	for range 4000 {
		m := float32(math.Pow(10, float64(rng.IntN(70)-35)))
		a = append(a, complex(float32(rng.NormFloat64())*m, float32(rng.NormFloat64())*m*float32(rng.IntN(3))))
	}
	for n := 0; n <= 40; n++ {
		for lo := 0; lo+n <= len(a); lo += 97 {
			got, want := make([]float32, n), make([]float32, n)
			scaledCAbsC64(got, a[lo:lo+n])
			scaledCAbsC64Go(want, a[lo:lo+n])
			for i := range got {
				if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
					t.Fatalf("|%v|: %x, scaledCAbsC64Go's %x", a[lo+i], math.Float32bits(got[i]), math.Float32bits(want[i]))
				}
			}
		}
	}
	// complex128: the same parts widened, and float64 edges.
	b := make([]complex128, 0, len(a)+64)
	for _, z := range a {
		b = append(b, complex128(z))
	}
	for _, x := range []float64{math.MaxFloat64, 5e-324, math.Float64frombits(0xfff8000000000001), 1e300} {
		for _, y := range []float64{0, 1e-300, math.Inf(1), x} {
			b = append(b, complex(x, y), complex(y, -x))
		}
	}
	for n := 0; n <= 20; n++ {
		for lo := 0; lo+n <= len(b); lo += 89 {
			got, want := make([]float64, n), make([]float64, n)
			scaledCAbsC128(got, b[lo:lo+n])
			scaledCAbsC128Go(want, b[lo:lo+n])
			for i := range got {
				if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
					t.Fatalf("|%v|: %x, scaledCAbsC128Go's %x", b[lo+i], math.Float64bits(got[i]), math.Float64bits(want[i]))
				}
			}
		}
	}
	// A value whose r·r + 1 rounds otherwise when not fused.
	for i := 0; ; i++ {
		re, im := float32(rng.Float64()), float32(rng.Float64())
		l, s := max(re, im), min(re, im)
		r := s / l
		fused := float32(math.Sqrt(float64(fma32(r, r, 1)))) * l
		if fused == float32(math.Sqrt(float64(r*r+1)))*l {
			if i == 100000 {
				t.Fatal("no value of 100000 where fusing r·r + 1 changes |z|")
			}
			continue
		}
		d := make([]float32, 8)
		scaledCAbsC64(d, []complex64{complex(re, im), 0, 0, 0, 0, 0, 0, 0})
		if d[0] != fused {
			t.Errorf("|%v| = %v, want %v (r·r + 1 fused)", complex(re, im), d[0], fused)
		}
		break
	}
	for _, c := range []struct {
		z    complex64
		want uint32
	}{
		{3 + 4i, math.Float32bits(5)},
		{complex(float32(math.Inf(-1)), f(0x7fc00000)), 0x7f800000},
		{complex(f(0x7fc00000), float32(math.Inf(1))), 0x7f800000},
		{complex(f(0x7fc00000), 2), 0x7fc00000},
		{complex(f(0x80000000), 0), 0},
	} {
		d := make([]float32, 8)
		scaledCAbsC64(d, []complex64{c.z, c.z, c.z, c.z, c.z, c.z, c.z, c.z})
		for _, v := range d {
			if math.Float32bits(v) != c.want {
				t.Errorf("|%v| = %x, want %x", c.z, math.Float32bits(v), c.want)
				break
			}
		}
	}
}
