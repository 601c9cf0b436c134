//go:build amd64 && !purego

package cpu

import (
	"math"
	"math/rand"
	"testing"

	"github.com/tensorsh/tensorsh/dtypes"
)

// quotientKinds is the number of kinds of dividends quotient makes.
const quotientKinds = 6

// quotient returns a dividend for divisor s of a kind (0 to
// quotientKinds-1): a/s a special value (zeros, infinities, NaN, negative
// values, float32's limits), spread over float32's range and past it,
// within a few float64 ULP of a float32 rounding midpoint (or on it) where
// float32(a·(1/s)) and float32(a/s) can differ, just outside DIVQ32's
// window around one, around the midpoint of two float32 subnormals, or
// around float32's overflow threshold. A group of lanes of one kind is
// taken by the products unless one of its lanes is left to the division.
func quotient(rng *rand.Rand, kind int, s float64) float64 {
	// near returns x moved by d float64 ULP.
	near := func(x float64, d int) float64 {
		return math.Float64frombits(uint64(int64(math.Float64bits(x)) + int64(d)))
	}
	switch kind {
	case 0:
		special := []float64{0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.NaN(), 1, -1,
			0x1p-126, 0x1p-125, 0x1p-149, 0x1p127, 0x1p128, math.MaxFloat32, 5e-324}
		return special[rng.Intn(len(special))] * s
	case 1:
		return math.Ldexp(rng.Float64(), rng.Intn(300)-150) * s
	}
	// mid is a float32 rounding midpoint: that of a normal float32 v and
	// the next (exact in float64), of two subnormals, or of the largest
	// float32 and 2^128.
	v := float64(math.Float32frombits(rng.Uint32()&0x7effffff | 0x00800000))
	mid := math.Float64frombits(math.Float64bits(v) + 1<<28)
	d := rng.Intn(9) - 4
	switch kind {
	case 3:
		d = (1<<10 + rng.Intn(64)) * (1 - 2*rng.Intn(2))
	case 4:
		mid = (float64(rng.Intn(1<<23)) + 0.5) * 0x1p-149
	case 5:
		mid = math.MaxFloat32 + 0x1p103
	}
	return near(mid, d) * s
}

// quotientCases returns n dividends for divisor s, in groups of 16 of one
// kind (see quotient).
func quotientCases(rng *rand.Rand, s float64, n int) []float64 {
	a := make([]float64, n)
	kind := 0
	for i := range a {
		if i%16 == 0 {
			kind = rng.Intn(quotientKinds)
		}
		a[i] = quotient(rng, kind, s)
	}
	return a
}

// TestDivQuotientsF32 checks the float32 quotients taken by products with
// the reciprocal (DIVQ32: divToF32AVX512 and divColsF32AVX512, the
// division of softmax) bit for bit against float32(a / s), on quotients
// at and around float32 rounding midpoints, subnormal, overflowing and
// special ones, for divisors that are powers of two, ordinary, and too
// large or small for an exact reciprocal (division throughout).
func TestDivQuotientsF32(t *testing.T) {
	if !libmAVX512 {
		t.Skip("no AVX-512: divToF32AVX2 divides")
	}
	rng := rand.New(rand.NewSource(17))
	divisors := []float64{1, 3, 7, 0.1, 2, 1000.5, 1 + 0x1p-52, 0x1p-1010, 0x1p1010, 3e-310, math.Inf(1), math.NaN()}
	for range 200 {
		divisors = append(divisors, math.Ldexp(1+rng.Float64(), rng.Intn(40)-20))
	}
	for _, s := range divisors {
		a := quotientCases(rng, s, 4096+13)
		d := make([]float32, len(a))
		divToF32(d, a, s)
		for i, v := range a {
			if w := float32(v / s); math.Float32bits(d[i]) != math.Float32bits(w) {
				t.Fatalf("divToF32: %v / %v = %v (%#x), want %v (%#x)", v, s, d[i], math.Float32bits(d[i]), w, math.Float32bits(w))
			}
		}
	}
	// Sixteen columns of rows, each column its own divisor.
	const rows, stride = 300, 21
	for round := range 40 {
		var s, rs [16]float64
		for k := range s {
			s[k] = divisors[rng.Intn(len(divisors))]
			rs[k] = recipOrNaN(s[k])
		}
		e := make([]float64, 16*rows)
		for i := range rows {
			kind := rng.Intn(quotientKinds)
			for k := range 16 {
				e[16*i+k] = quotient(rng, kind, s[k])
			}
		}
		out := make([]float32, (rows-1)*stride+16)
		divColsF32AVX512(out, e, stride, &s, &rs, rows)
		for i := range rows {
			for k := range 16 {
				g, w := out[i*stride+k], float32(e[16*i+k]/s[k])
				if math.Float32bits(g) != math.Float32bits(w) {
					t.Fatalf("round %d: divColsF32AVX512 row %d column %d: %v / %v = %v (%#x), want %v (%#x)",
						round, i, k, e[16*i+k], s[k], g, math.Float32bits(g), w, math.Float32bits(w))
				}
			}
		}
	}
}

// TestDivExactF64 checks the float64 quotients of DIVX64 (divExactF64,
// divByF64: softmax's divisions) bit for bit against a / b, on dividends
// and divisors across float64's range and past the ranges it takes
// (subnormals, huge values, zeros, infinities, NaNs, negative values), on
// quotients near powers of two and equal to 1, and in groups of eight of
// one kind, so that the products are taken where they may be.
func TestDivExactF64(t *testing.T) {
	if !libmAVX512 {
		t.Skip("no AVX-512: divF64 divides")
	}
	rng := rand.New(rand.NewSource(23))
	special := []float64{0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.NaN(), 1, -1, 5e-324,
		0x1p-1022, 0x1p-960, 0x1p-961, 0x1p1000, 0x1.0000000000001p1000, math.MaxFloat64}
	value := func(kind int) float64 {
		switch kind {
		case 0:
			return special[rng.Intn(len(special))]
		case 1:
			return math.Ldexp(1+rng.Float64(), rng.Intn(2100)-1050)
		case 2:
			return rng.Float64()
		}
		return math.Ldexp(1+rng.Float64(), rng.Intn(40)-20)
	}
	const n = 8 * 2000
	a, b, rb, d := make([]float64, n+5), make([]float64, n+5), make([]float64, n+5), make([]float64, n+5)
	for g := 0; g < len(a); g += 8 {
		ka, kb := rng.Intn(4), rng.Intn(4)
		for i := g; i < min(g+8, len(a)); i++ {
			a[i], b[i] = value(ka), value(kb)
			switch rng.Intn(8) {
			case 0:
				a[i] = b[i] // a quotient of 1
			case 1:
				// Near a power of two: a/b within a few ULP of 2^k.
				a[i] = math.Float64frombits(math.Float64bits(math.Ldexp(b[i], rng.Intn(20)-10)) + uint64(rng.Intn(5)) - 2)
			}
			rb[i] = recipOrNaN(b[i])
		}
	}
	divExactF64(d, a, b, rb)
	for i := range d {
		if w := a[i] / b[i]; math.Float64bits(d[i]) != math.Float64bits(w) {
			t.Fatalf("divExactF64: %v / %v = %v (%#x), want %v (%#x)", a[i], b[i], d[i], math.Float64bits(d[i]), w, math.Float64bits(w))
		}
	}
	for range 300 {
		s := value(rng.Intn(4))
		x := make([]float64, 64+rng.Intn(9))
		kind := rng.Intn(4)
		for i := range x {
			x[i] = value(kind)
			if rng.Intn(8) == 0 {
				x[i] = s
			}
		}
		y, c := make([]float64, len(x)), make([]float64, len(x))
		divByF64(y, x, s, c)
		for i := range y {
			if w := x[i] / s; math.Float64bits(y[i]) != math.Float64bits(w) {
				t.Fatalf("divByF64: %v / %v = %v (%#x), want %v (%#x)", x[i], s, y[i], math.Float64bits(y[i]), w, math.Float64bits(w))
			}
		}
	}
}

// TestF64sToF16Vals checks the float64 → float16 rounding of
// f64sToF16ValsAVX512 (rounding to odd in float32, then to nearest in
// float16) bit for bit against f64ToF16, the single rounding: every
// float16 rounding midpoint and value, moved by up to 4 float64 ULP,
// subnormal ones and 65520 (the overflow threshold) among them, float32's
// subnormals and values below them, ±0, ±Inf, NaNs with payloads and
// random values.
func TestF64sToF16Vals(t *testing.T) {
	if !libmAVX512 {
		t.Skip("no AVX-512: f64ToF16 rounds")
	}
	initTables()
	var a []float64
	near := func(x float64) {
		for d := -4; d <= 4; d++ {
			a = append(a, math.Float64frombits(uint64(int64(math.Float64bits(x))+int64(d))))
		}
	}
	for h := range uint32(0x7c00) {
		v := float64(f16Table[h])
		next := float64(f16Table[h+1])
		near(v)
		near((v + next) / 2) // exact in float64
		near(-(v + next) / 2)
	}
	rng := rand.New(rand.NewSource(99))
	for range 20000 {
		a = append(a, math.Ldexp(rng.NormFloat64(), rng.Intn(400)-200))
	}
	special := []float64{0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), 0x1p-149, -0x1p-149, 0x1p-126,
		0x1p-1074, -0x1p-1074, 0x1p-150, 0x1.8p-150, math.MaxFloat32, 0x1p128, math.MaxFloat64, -math.MaxFloat64,
		math.Float64frombits(0x7ff8000000000001), math.Float64frombits(0xfff4000000000000), math.NaN(),
		math.Float64frombits(0x7ff0040000000000), math.Float64frombits(0xfff0000000000001), math.Float64frombits(0x7ff7fc0000000000)}
	for range 100 {
		for range 8 {
			a = append(a, special[rng.Intn(len(special))])
		}
	}
	d := make([]float32, len(a))
	f64sToF16Vals(d, a)
	for i, x := range a {
		if w := f16Table[f64ToF16(x)]; math.Float32bits(d[i]) != math.Float32bits(w) {
			t.Fatalf("f16 of %v (%#x) = %v (%#x), want %v (%#x)", x, math.Float64bits(x), d[i], math.Float32bits(d[i]), w, math.Float32bits(w))
		}
	}
}

// TestSoftmaxColsAllocs checks that softmaxColsF32 on the AVX-512 path
// allocates nothing: its column maxima live in the worker's colScratch.
// A local array for them escaped to the heap (softmaxColsAVX512 hands it
// to a kernel through a function value), a kilobyte each call: for a
// softmax along axis 0 of 1000×1000 float32, 18 kB a statement and two
// page faults on the AMD EPYC guest.
func TestSoftmaxColsAllocs(t *testing.T) {
	if !libmAVX512 {
		t.Skip("the column loop is AVX-512's")
	}
	const m, inner = 64, 256
	x, out := make([]float32, m*inner), make([]float32, m*inner)
	for i := range x {
		x[i] = float32(i%97) / 10
	}
	sc := new(colScratch)
	y, e, c := sc.rows(m)
	run := func() { softmaxColsF32(out, x, m, inner, 0, inner, false, sc, y, e, c, dtypes.F32) }
	run() // makes the scratch
	if n := testing.AllocsPerRun(20, run); n != 0 {
		t.Errorf("softmaxColsF32 made %v allocations a call, want 0", n)
	}
}
