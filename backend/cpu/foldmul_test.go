package cpu

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// TestFoldMul checks the product folds (foldMul64, foldMul32) against
// the plain loop foldWith(acc, x, mul) bit for bit: products of numbers
// in [0.5, 1.5) that sink to the least subnormal and stay there (the
// benchmark matrix's prod), random walks through the subnormal range and
// back (factors of both signs and every scale), the rounding ties of the
// subnormal grid, and steps by zeros, infinities, NaN (payloads kept)
// and factors large enough to overflow a scaled product. foldMul, which
// takes the scaled steps or not as this CPU measured, is checked too.
func TestFoldMul(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	nan64 := math.Float64frombits(0x7ff8000000000abc)
	nan32 := math.Float32frombits(0x7fc00abc)
	check64 := func(what string, acc float64, x []float64) {
		t.Helper()
		got, want := foldMul64(acc, x), foldWith(acc, x, mul[float64])
		if g := foldMul(acc, x); math.Float64bits(g) != math.Float64bits(want) {
			t.Fatalf("%s: foldMul (scaled %v) of %d from %g = %g, plain %g", what, scaleSubnormals(), len(x), acc, g, want)
		}
		if math.Float64bits(got) != math.Float64bits(want) {
			t.Fatalf("%s: float64 fold of %d from %g = %g (%#x), plain %g (%#x)", what, len(x), acc, got, math.Float64bits(got), want, math.Float64bits(want))
		}
	}
	check32 := func(what string, acc float32, x []float32) {
		t.Helper()
		got, want := foldMul32(acc, x), foldWith(acc, x, mul[float32])
		if g := foldMul(acc, x); math.Float32bits(g) != math.Float32bits(want) {
			t.Fatalf("%s: foldMul (scaled %v) of %d from %g = %g, plain %g", what, scaleSubnormals(), len(x), acc, g, want)
		}
		if math.Float32bits(got) != math.Float32bits(want) {
			t.Fatalf("%s: float32 fold of %d from %g = %g (%#x), plain %g (%#x)", what, len(x), acc, got, math.Float32bits(got), want, math.Float32bits(want))
		}
	}
	both := func(what string, acc float64, x []float64) {
		t.Helper()
		check64(what, acc, x)
		x32 := make([]float32, len(x))
		for i, v := range x {
			x32[i] = float32(v)
		}
		check32(what, float32(acc), x32)
	}
	// Sinking: 10^5 factors in [0.5, 1.5), every prefix length near the
	// ends of blocks.
	sink := make([]float64, 100000)
	for i := range sink {
		sink[i] = r.Float64() + 0.5
	}
	for _, n := range []int{0, 1, 7, 8, 9, 1500, 3001, len(sink)} {
		both("sinking", 1, sink[:n])
	}
	// Ties of the subnormal grid: k·2^-1074 (2^-149) times 1/2 and 3/2.
	for k := 1; k < 12; k++ {
		for _, f := range []float64{0.5, 1.5, 0.25, 0.75, 2.5} {
			check64("tie", float64(k)*0x1p-1074, []float64{f, f, 1, f})
			check32("tie", float32(k)*0x1p-149, []float32{float32(f), float32(f), 1, float32(f)})
		}
	}
	// Special factors in the subnormal range.
	specials := []float64{0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), nan64, 1e300, -1e300, 0x1p900, 0x1p971,
		0x1p1000, 1e-300, 0x1p-1074, 0x1p-1022, 2, -2, 1, -1, 3e30, 1e-30, 0x1p-149}
	for _, s := range specials {
		for _, acc := range []float64{0x1p-1074, 3e-320, -0x1p-1030, 0x1.fffffffffffffp-1023} {
			check64("special", acc, []float64{0.9, s, 0.9, 1.1, 0.5})
		}
		for _, acc := range []float32{0x1p-149, 3e-40, -0x1p-140, 0x1.fffffcp-127} {
			s32 := float32(s)
			if s == nan64 {
				s32 = nan32
			}
			check32("special", acc, []float32{0.9, s32, 0.9, 1.1, 0.5})
		}
	}
	// Random walks: factors of both signs and scales from 2^-6 to 2^6
	// (now and then far larger or smaller, or a special), from normal
	// and subnormal starts.
	for trial := range 100000 {
		n := r.IntN(40)
		x := make([]float64, n)
		for i := range x {
			v := math.Ldexp(r.Float64()+0.5, r.IntN(13)-6)
			switch r.IntN(40) {
			case 0:
				v = math.Ldexp(v, r.IntN(200)-100)
			case 1:
				v = specials[r.IntN(len(specials))]
			}
			if r.IntN(2) == 0 {
				v = -v
			}
			x[i] = v
		}
		acc := math.Ldexp(r.Float64()+0.5, -1000-r.IntN(80))
		if trial%3 == 0 {
			acc = float64(r.IntN(100)) * 0x1p-1074
		}
		check64("walk", acc, x)
		x32 := make([]float32, n)
		for i, v := range x {
			x32[i] = float32(math.Ldexp(v, -r.IntN(3)))
		}
		acc32 := float32(math.Ldexp(r.Float64()+0.5, -120-r.IntN(30)))
		if trial%3 == 0 {
			acc32 = float32(r.IntN(100)) * 0x1p-149
		}
		check32("walk", acc32, x32)
	}
}

// BenchmarkFoldMul is the matrix's prod of 10^6 float64 in [0.5, 1.5),
// which sinks to the least subnormal: the plain loop against foldMul64.
func BenchmarkFoldMul(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	x := make([]float64, 1e6)
	for i := range x {
		x[i] = r.Float64() + 0.5
	}
	b.Run("plain", func(b *testing.B) {
		for b.Loop() {
			foldWith(1, x, mul[float64])
		}
	})
	b.Run("foldMul64", func(b *testing.B) {
		for b.Loop() {
			foldMul64(1, x)
		}
	})
}

// TestFoldMulStuck checks the folds' runs of a stuck accumulator
// (skipStuck) against the plain loop bit for bit: zeros, infinities and
// the least subnormal of both signs, through runs of factors of both
// signs that end on each kind of factor that ends them (an infinity or
// NaN after zero; a zero or NaN after infinity; a magnitude at or past
// 1/2 or 3/2, the ties included, after the least subnormal), at every
// position of the scan's groups of four, and random products that sink,
// stick and come back.
func TestFoldMulStuck(t *testing.T) {
	r := rand.New(rand.NewPCG(52, 7))
	nan := math.Float64frombits(0x7ff8000000000def)
	least := math.Float64frombits(1)
	inf := math.Inf(1)
	check := func(what string, acc float64, x []float64) {
		t.Helper()
		for _, scaled := range []bool{false, true} {
			got, want := foldMulT(acc, x, scaled), foldWith(acc, x, mul[float64])
			if math.Float64bits(got) != math.Float64bits(want) {
				t.Fatalf("%s (scaled %v): float64 fold of %v from %g = %g (%#x), plain %g (%#x)", what, scaled, x, acc, got,
					math.Float64bits(got), want, math.Float64bits(want))
			}
			x32 := make([]float32, len(x))
			for i, v := range x {
				x32[i] = float32(v)
			}
			acc32 := float32(acc)
			if acc == least {
				acc32 = math.Float32frombits(1)
			}
			got32, want32 := foldMulT(acc32, x32, scaled), foldWith(acc32, x32, mul[float32])
			if math.Float32bits(got32) != math.Float32bits(want32) {
				t.Fatalf("%s (scaled %v): float32 fold of %v from %g = %g (%#x), plain %g (%#x)", what, scaled, x32, acc32, got32,
					math.Float32bits(got32), want32, math.Float32bits(want32))
			}
		}
	}
	type stuck struct {
		acc        float64
		keep, ends []float64 // factors that keep it; factors that end the run
	}
	cases := []stuck{
		{0, []float64{1, -2, 0.5, -1e300, 1e-310, 0, math.Copysign(0, -1), 3.5e38, -1e-45},
			[]float64{inf, -inf, nan}},
		{inf, []float64{1, -2, 1e-310, -1e-320, inf, -inf, 1e300},
			[]float64{0, math.Copysign(0, -1), nan}},
		{least, []float64{0.75, -0.75, 1, -1.25, math.Nextafter(0.5, 1), -math.Nextafter(1.5, 1), math.Nextafter(1.5, 0)},
			[]float64{0.5, -0.5, 1.5, -1.5, math.Nextafter(0.5, 0), math.Nextafter(1.5, 2), 0.25, 2, 3, 1e10, 0, inf, nan, 1e-310}},
	}
	for _, c := range cases {
		for _, acc := range []float64{c.acc, -c.acc} {
			for n := 0; n <= 40; n++ {
				for _, end := range append(c.ends, 1) {
					x := make([]float64, n, n+3)
					for i := range x {
						x[i] = c.keep[r.IntN(len(c.keep))]
					}
					x = append(x, end, c.keep[r.IntN(len(c.keep))], 0.75)
					check(fmt.Sprintf("acc %g, %d kept then %g", acc, n, end), acc, x)
				}
			}
		}
	}
	// Random products: factors that mostly keep a product sinking to the
	// least subnormal (or to zero, for float32 where 0.5 ties), now and
	// then one that lifts it, a zero, an infinity or a NaN.
	for range 300 {
		x := make([]float64, r.IntN(4000))
		for i := range x {
			switch k := r.IntN(1000); {
			case k == 0:
				x[i] = 0
			case k == 1:
				x[i] = inf
			case k == 2:
				x[i] = nan
			case k < 5:
				x[i] = math.Ldexp(1, r.IntN(80))
			case k < 15:
				x[i] = 0.5
			default:
				x[i] = r.Float64() + 0.5
			}
			if r.IntN(3) == 0 {
				x[i] = -x[i]
			}
		}
		for _, acc := range []float64{1, 1e-300, least, 1e300} {
			check("random", acc, x)
		}
	}
}
