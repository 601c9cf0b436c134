package cpu

import (
	"math"
	"math/big"
	"math/rand"
	"slices"
	"sync"
	"testing"

	"github.com/tensorsh/tensorsh/backend"
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

// TestLog2Accuracy checks log2F64 against log2 to 240 bits (bigLn) on
// [1/2, 2], where it is
// Log(x)·(1/Ln2), near 1 at every scale, and beyond, where it is
// math.Log2: within 2 ULP everywhere (glibc 2.36's log2 agrees with it
// bit for bit on 74% of such inputs and is 1 ULP away on the rest), and
// exact at powers of two.
func TestLog2Accuracy(t *testing.T) {
	ln2 := bigLn(2)
	exact := func(x float64) float64 {
		l := bigLn(x)
		f, _ := l.Quo(l, ln2).Float64()
		return f
	}
	rng := rand.New(rand.NewSource(1))
	var xs []float64
	for i := 0; i < 3000; i++ {
		xs = append(xs, 0.5+1.5*rng.Float64(), 1+(rng.Float64()-0.5)*math.Ldexp(1, -rng.Intn(52)),
			math.Ldexp(0.5+rng.Float64()/2, rng.Intn(2000)-1000))
	}
	for e := -1074; e <= 1023; e++ {
		x := math.Ldexp(1, e)
		if got := log2F64(x); got != float64(e) {
			t.Errorf("log2F64(2^%d) = %v, want %d", e, got, e)
		}
	}
	worst, at := 0.0, 0.0
	for _, x := range xs {
		got, want := log2F64(x), exact(x)
		if d := math.Abs(float64(int64(math.Float64bits(got)) - int64(math.Float64bits(want)))); d > worst {
			worst, at = d, x
		}
	}
	if worst > 2 {
		t.Errorf("log2F64(%v) is %v ULP from the exact value, want at most 2", at, worst)
	}
}

// TestLog2Groups checks the vector loops of log2 on groups with lanes on
// both sides of [1/2, 2] (log's argument is x there, Frexp's mantissa
// elsewhere, and the AVX-512 loop skips the second where no lane of its
// sixteen needs it): one lane beyond among lanes inside, at each place,
// and the other way round.
func TestLog2Groups(t *testing.T) {
	k := libmKernel[float64](backend.OpLog2)
	if k == nil {
		t.Skip("no vector loop for log2 here")
	}
	inside := []float64{0.5, 0.75, 1, math.Nextafter(1, 2), math.Nextafter(1, 0), 1.5, 2, 0.6}
	beyond := []float64{0.25, 3, 1e10, 1e-300, math.Nextafter(0.5, 0), math.Nextafter(2, 3), 1024, 0.3}
	for _, base := range [][]float64{inside, beyond} {
		other := beyond
		if &base[0] == &inside[0] {
			other = inside
		}
		for at := 0; at < 48; at++ {
			x := make([]float64, 48)
			for i := range x {
				x[i] = base[i%len(base)]
			}
			x[at] = other[at%len(other)]
			d := make([]float64, len(x))
			_ = k(d, []any{x})
			for i, v := range x {
				if want := log2F64(v); math.Float64bits(d[i]) != math.Float64bits(want) {
					t.Errorf("log2(%v) at %d (odd lane at %d) = %v, want %v", v, i, at, d[i], want)
				}
			}
		}
	}
}

// TestExpm1Accuracy checks expm1F64 against e^x - 1 to 160 bits (its
// Taylor series below 1/2; beyond, e^r by its series for r = x - k·ln 2,
// ln 2 from its atanh series, times 2^k, less 1) on [-40, 710]: near 0 at every scale, either side of
// ±ln2/2 (where k becomes ±1), near the ends of the loops' range, and at
// random: within 1 ULP (correctly rounded on 91% of these inputs, most of
// them near ln2/2, where the results lie closest to a midpoint;
// math.Expm1 on 92%).
func TestExpm1Accuracy(t *testing.T) {
	const prec = 160
	bf := func(v float64) *big.Float { return new(big.Float).SetPrec(prec).SetFloat64(v) }
	ln2 := bigLn(2)
	exact := func(x float64) float64 {
		if math.Abs(x) < 0.5 {
			f, _ := bigExpm1(bf(x)).Float64() // 1 + x would lose a tiny x
			return f
		}
		k := math.Round(x / math.Ln2)
		r := new(big.Float).SetPrec(prec).Sub(bf(x), new(big.Float).SetPrec(prec).Mul(bf(k), ln2))
		sum := bigExpm1(r)
		sum.Add(sum, bf(1)).SetMantExp(sum, int(k))
		f, _ := sum.Sub(sum, bf(1)).Float64()
		return f
	}
	rng := rand.New(rand.NewSource(2))
	xs := []float64{expm1Lo, math.Nextafter(expm1Lo, 0), expm1Hi, math.Nextafter(expm1Hi, 0), 709.5, -37, -38, -45,
		math.Ln2 / 2, math.Nextafter(math.Ln2/2, 1), -math.Ln2 / 2, math.Nextafter(-math.Ln2/2, -1), 5e-324, -5e-324, 0x1p-1022}
	for i := 0; i < 4000; i++ {
		e := math.Ldexp(1, -rng.Intn(60))
		xs = append(xs, (rng.Float64()*2-1)*e, rng.Float64()*750-40, math.Ln2/2+(rng.Float64()-0.5)*1e-6)
	}
	checkULP(t, "expm1F64", expm1F64, math.Expm1, exact, xs)
}

// TestAsinAccuracy checks asinF64 and acosF64 against asin and acos to
// 200 bits (asin's Taylor series up to 1/2 and asin a = π/2 - 2·asin
// √((1 - a)/2) beyond, acos = π/2 - asin, in big.Float; π from its
// digits): within 1 ULP on both sides of 1/2, near ±1, near 0 at every
// scale and at random.
func TestAsinAccuracy(t *testing.T) {
	const prec = 200
	bf := func(v float64) *big.Float { return new(big.Float).SetPrec(prec).SetFloat64(v) }
	pi, _, err := big.ParseFloat("3.14159265358979323846264338327950288419716939937510582097494459230781640628620899", 10, prec, big.ToNearestEven)
	if err != nil {
		t.Fatal(err)
	}
	pio2 := new(big.Float).SetPrec(prec).Quo(pi, bf(2))
	// series returns asin t for 0 <= t <= 1/2.
	series := func(t *big.Float) *big.Float {
		u := new(big.Float).SetPrec(prec).Mul(t, t)
		sum := new(big.Float).SetPrec(prec).Set(t)
		c := new(big.Float).SetPrec(prec).Set(t) // t·(2k)!/(4^k (k!)²)·u^k
		for k := 1; k < 200; k++ {
			c.Mul(c, u)
			c.Mul(c, bf(float64(2*k-1)))
			c.Quo(c, bf(float64(2*k)))
			sum.Add(sum, new(big.Float).SetPrec(prec).Quo(c, bf(float64(2*k+1))))
		}
		return sum
	}
	asin := func(x float64) *big.Float {
		a := bf(math.Abs(x))
		var r *big.Float
		if math.Abs(x) <= 0.5 {
			r = series(a)
		} else {
			u := new(big.Float).SetPrec(prec).Sub(bf(1), a)
			u.Quo(u, bf(2))
			r = series(new(big.Float).SetPrec(prec).Sqrt(u))
			r.Mul(r, bf(2))
			r.Sub(pio2, r)
		}
		if x < 0 {
			r.Neg(r)
		}
		return r
	}
	rng := rand.New(rand.NewSource(3))
	xs := []float64{0, 1, -1, 0.5, -0.5, math.Nextafter(0.5, 1), math.Nextafter(-0.5, -1), math.Nextafter(1, 0),
		math.Nextafter(-1, 0), 5e-324, 0x1p-1022, 1e-300, 0.49999999999999994}
	for range 6000 {
		xs = append(xs, rng.Float64()*2-1, 0.5+(rng.Float64()-0.5)*1e-6, 1-math.Ldexp(rng.Float64(), -rng.Intn(52)),
			math.Ldexp(rng.Float64(), -rng.Intn(60)))
	}
	f64 := func(v *big.Float) float64 { f, _ := v.Float64(); return f }
	checkULP(t, "asinF64", asinF64, math.Asin, func(x float64) float64 { return f64(asin(x)) }, xs)
	checkULP(t, "acosF64", acosF64, math.Acos, func(x float64) float64 {
		return f64(new(big.Float).SetPrec(prec).Sub(pio2, asin(x)))
	}, xs)
}

// TestExp2Accuracy checks exp2F64 against 2^x to 200 bits (2^k times
// e^(f·ln 2) by its Taylor series in big.Float, ln 2 from its digits)
// and exp2Taylor's coefficients against (ln 2)^n/n!: within 1 ULP at
// the integers and half-integers, near them, at the ends of the range and
// at random.
func TestExp2Accuracy(t *testing.T) {
	const prec = 200
	bf := func(v float64) *big.Float { return new(big.Float).SetPrec(prec).SetFloat64(v) }
	ln2 := bigLn(2)
	c := bf(1)
	for n := range exp2Taylor {
		c.Mul(c, ln2)
		c.Quo(c, bf(float64(n+1)))
		if want, _ := c.Float64(); exp2Taylor[n] != want {
			t.Errorf("exp2Taylor[%d] = %v, want %v", n, exp2Taylor[n], want)
		}
	}
	exact := func(x float64) float64 {
		k := math.RoundToEven(x)
		sum := bigExpm1(new(big.Float).SetPrec(prec).Mul(bf(x-k), ln2))
		sum.Add(sum, bf(1)).SetMantExp(sum, int(k))
		f, _ := sum.Float64()
		return f
	}
	rng := rand.New(rand.NewSource(4))
	xs := []float64{0, 1, -1, 0.5, -0.5, 1000, -1000, 999.5, -999.5, 1e-300, -1e-300, 0x1p-30, math.Nextafter(0.5, 1),
		math.Nextafter(0.5, 0), math.Nextafter(-0.5, -1), 3.5, -2.5}
	for range 20000 {
		xs = append(xs, rng.Float64()*2000-1000, rng.Float64()*2-1, math.Round(rng.NormFloat64()*50)+0.5+(rng.Float64()-0.5)*1e-9)
	}
	checkULP(t, "exp2F64", exp2F64, math.Exp2, exact, xs)
}

// checkULP checks f against exact (its correctly rounded values) on xs:
// within 1 ULP, and logs how many are not correctly rounded, beside Go's
// function goF.
func checkULP(t *testing.T, name string, f, goF, exact func(float64) float64, xs []float64) {
	t.Helper()
	checkULPWithin(t, name, 1, f, goF, exact, xs)
}

// checkULPWithin is checkULP with a bound of its own.
func checkULPWithin(t *testing.T, name string, bound float64, f, goF, exact func(float64) float64, xs []float64) {
	t.Helper()
	ulps := func(got, want float64) float64 {
		return math.Abs(float64(int64(math.Float64bits(got)) - int64(math.Float64bits(want))))
	}
	worst, at := 0.0, 0.0
	var off, offGo int
	for _, x := range xs {
		want := exact(x)
		d := ulps(f(x), want)
		if d > worst {
			worst, at = d, x
		}
		if d > 0 {
			off++
		}
		if goF(x) != want {
			offGo++
		}
	}
	t.Logf("%s: not correctly rounded on %d of %d (Go's math: %d); worst %v ULP at %v", name, off, len(xs), offGo, worst, at)
	if worst > bound {
		t.Errorf("%s(%v) is %v ULP from the exact value, want at most %v", name, at, worst, bound)
	}
}

// bigPi is π to 330 bits.
var bigPi, _, _ = big.ParseFloat("3.14159265358979323846264338327950288419716939937510582097494459230781640628620899862803482534211706798", 10, 330, big.ToNearestEven)

// bigSinCos returns sin x and cos x to 200 bits, and tan x: x less
// k·π/2 (k the nearest integer to x/(π/2)) by their Taylor series.
func bigSinCos(x float64) (s, c, tn float64) {
	if x == 0 {
		return x, 1, x
	}
	const prec = 300
	bf := func(v float64) *big.Float { return new(big.Float).SetPrec(prec).SetFloat64(v) }
	half := new(big.Float).SetPrec(prec).Quo(bigPi, bf(2))
	q := new(big.Float).SetPrec(prec).Quo(bf(x), half)
	kf, _ := q.Float64()
	k := math.Round(kf)
	r := new(big.Float).SetPrec(prec).Mul(half, bf(k))
	r.Sub(bf(x), r)
	r2 := new(big.Float).SetPrec(prec).Mul(r, r)
	sin, cos := new(big.Float).SetPrec(prec).Set(r), bf(1)
	ts, tc := new(big.Float).SetPrec(prec).Set(r), bf(1)
	for n := 1; n < 60; n++ {
		ts.Mul(ts, r2)
		ts.Quo(ts, bf(float64(-(2*n)*(2*n+1))))
		sin.Add(sin, ts)
		tc.Mul(tc, r2)
		tc.Quo(tc, bf(float64(-(2*n-1)*(2*n))))
		cos.Add(cos, tc)
	}
	switch int64(k) & 3 {
	case 1:
		sin, cos = cos, sin.Neg(sin)
	case 2:
		sin.Neg(sin)
		cos.Neg(cos)
	case 3:
		sin, cos = cos.Neg(cos), sin
	}
	s, _ = sin.Float64()
	c, _ = cos.Float64()
	tn, _ = new(big.Float).SetPrec(prec).Quo(sin, cos).Float64()
	return s, c, tn
}

// trigInputs are arguments of sin, cos and tan of every magnitude below
// 2^29 and both signs, tiny ones too (ordinary), and arguments within
// 2^-40 of a multiple of π/4 (near), where the reduction cancels: near a
// zero or a pole the three-part π/4 of math.Sin's algorithm leaves an
// error of many ULP, fused multiply-adds or not.
func trigInputs() (ordinary, near []float64) {
	rng := rand.New(rand.NewSource(5))
	ordinary = []float64{0, math.Copysign(0, -1), 1, -1, 0.5, 1e-300, 5e-324, 0x1p-12, math.Nextafter(0x1p-12, 0), 1e-7,
		1<<29 - 0.5, math.Nextafter(1<<29, 0), 710, 1e6}
	near = []float64{math.Pi / 4, math.Pi / 2, math.Pi, 3 * math.Pi / 4, -math.Pi / 2, 355, 103993, 1 << 28}
	for range 8000 {
		ordinary = append(ordinary, rng.Float64()*20-10, math.Ldexp(rng.Float64(), rng.Intn(60)-30),
			-math.Ldexp(1+rng.Float64(), rng.Intn(29)))
		k := math.Round(rng.Float64() * 2e5)
		near = append(near, k*math.Pi/4*(1+math.Ldexp(rng.Float64()-0.5, -rng.Intn(40))))
	}
	return ordinary, near
}

// checkTrig checks f within bound ULP of exact on ordinary, and on near
// within bound or no further from it than Go's function goF plus 1 ULP.
func checkTrig(t *testing.T, name string, bound int64, f, goF, exact func(float64) float64, ordinary, near []float64) {
	t.Helper()
	checkULPWithin(t, name, float64(bound), f, goF, exact, ordinary)
	ulps := func(got, want float64) int64 {
		d := int64(math.Float64bits(got)) - int64(math.Float64bits(want))
		return max(d, -d)
	}
	var worst, worstGo int64
	for _, x := range near {
		want := exact(x)
		d, dGo := ulps(f(x), want), ulps(goF(x), want)
		worst, worstGo = max(worst, d), max(worstGo, dGo)
		if d > max(bound, dGo+1) {
			t.Errorf("%s(%v) = %v is %d ULP from the exact %v; Go's %v, %d", name, x, f(x), d, want, goF(x), dGo)
		}
	}
	t.Logf("%s near the multiples of π/4: worst %d ULP (Go's math: %d)", name, worst, worstGo)
}

// TestTrigAccuracy checks sinF64, cosF64 and tanF64 (math.Sin's,
// math.Cos's and math.Tan's algorithms with fused multiply-adds) against
// the exact values: sin and cos within 1 ULP, tan within 2, as math.Tan
// (on 10^5 arguments in [-10, 10], 0.69% of tanF64's and 0.70% of
// math.Tan's are 2 ULP off: -1/y rounds once more).
func TestTrigAccuracy(t *testing.T) {
	ordinary, near := trigInputs()
	type sct struct{ s, c, t float64 }
	exact := map[uint64]sct{}
	for _, x := range append(ordinary, near...) {
		s, c, tn := bigSinCos(x)
		exact[math.Float64bits(x)] = sct{s, c, tn}
	}
	at := func(x float64) sct { return exact[math.Float64bits(x)] }
	checkTrig(t, "sinF64", 1, sinF64, math.Sin, func(x float64) float64 { return at(x).s }, ordinary, near)
	checkTrig(t, "cosF64", 1, cosF64, math.Cos, func(x float64) float64 { return at(x).c }, ordinary, near)
	checkTrig(t, "tanF64", 2, tanF64, math.Tan, func(x float64) float64 { return at(x).t }, ordinary, near)
}

// bigLn1p returns ln(1 + y) to about 200 bits: 2·atanh(z), z = y/(2 + y),
// by its series where |y| < 1/2; elsewhere 1 + y = m·2^e with m in
// [1/2, 1) and ln m + e·ln 2.
func bigLn1p(y *big.Float) *big.Float {
	const prec = 240
	bf := func(v float64) *big.Float { return new(big.Float).SetPrec(prec).SetFloat64(v) }
	series := func(z *big.Float) *big.Float { // 2·atanh z
		z2 := new(big.Float).SetPrec(prec).Mul(z, z)
		sum, term := new(big.Float).SetPrec(prec), new(big.Float).SetPrec(prec).Set(z)
		for k := 0; k < 400 && term.Sign() != 0; k++ {
			q := new(big.Float).SetPrec(prec).Quo(term, bf(float64(2*k+1)))
			sum.Add(sum, q)
			if q.MantExp(nil)-sum.MantExp(nil) < -prec {
				break
			}
			term.Mul(term, z2)
		}
		return sum.Mul(sum, bf(2))
	}
	if new(big.Float).Abs(y).Cmp(bf(0.5)) < 0 {
		return series(new(big.Float).SetPrec(prec).Quo(y, new(big.Float).SetPrec(prec).Add(y, bf(2))))
	}
	v := new(big.Float).SetPrec(prec).Add(y, bf(1))
	m := new(big.Float).SetPrec(prec)
	e := v.MantExp(m) // v = m·2^e, m in [1/2, 1)
	l := series(new(big.Float).SetPrec(prec).Quo(new(big.Float).SetPrec(prec).Sub(m, bf(1)), new(big.Float).SetPrec(prec).Add(m, bf(1))))
	ln2 := series(new(big.Float).SetPrec(prec).Quo(bf(1), bf(3))) // ln 2 = 2·atanh(1/3)
	return l.Add(l, ln2.Mul(ln2, bf(float64(e))))
}

// bigLn returns ln x to about 240 bits for a positive x: ln m + e·ln 2,
// x = m·2^e with m in [1/2, 1) (exact), by bigLn1p.
func bigLn(x float64) *big.Float {
	const prec = 240
	bf := func(v float64) *big.Float { return new(big.Float).SetPrec(prec).SetFloat64(v) }
	m := new(big.Float).SetPrec(prec)
	e := bf(x).MantExp(m)
	l := bigLn1p(m.Sub(m, bf(1)))
	return l.Add(l, new(big.Float).SetPrec(prec).Mul(bigLn2(), bf(float64(e))))
}

// bigLn2 is ln 2 to about 240 bits (bigLn1p of 1), computed once.
var bigLn2 = sync.OnceValue(func() *big.Float { return bigLn1p(new(big.Float).SetPrec(240).SetInt64(1)) })

// bigExpm1 returns e^r - 1 for |r| <= 1/2 as Σ r^n/n! from n = 1 (the
// terms past the 60th below 2^-300), at r's precision.
func bigExpm1(r *big.Float) *big.Float {
	prec := r.Prec()
	sum, term := new(big.Float).SetPrec(prec), new(big.Float).SetPrec(prec).SetInt64(1)
	for n := int64(1); n < 60; n++ {
		term.Mul(term, r)
		term.Quo(term, new(big.Float).SetPrec(prec).SetInt64(n))
		sum.Add(sum, term)
	}
	return sum
}

// TestLog1pAccuracy checks log1pF64 (math.Log1p's algorithm with fused
// multiply-adds) within 1 ULP of the exact values, and asinhF64,
// acoshF64 and atanhF64 on the ranges where they take it within 2 (their
// square roots and quotients round before log1p; Go's functions are not
// correctly rounded on as many of these inputs).
func TestLog1pAccuracy(t *testing.T) {
	const prec = 240
	bf := func(v float64) *big.Float { return new(big.Float).SetPrec(prec).SetFloat64(v) }
	round := func(v *big.Float) float64 { f, _ := v.Float64(); return f }
	rng := rand.New(rand.NewSource(6))
	xs := []float64{-0.5, 0.5, 1, 2, 3, math.Sqrt2 - 1, math.Sqrt2/2 - 1, math.Nextafter(math.Sqrt2-1, 0), 0x1p-29,
		-0x1p-29, 0x1p-54, 1e-300, -1e-300, 5e-324, 1 << 53, 1<<53 - 1, 1e300, math.MaxFloat64, math.Nextafter(-1, 0), -0.75}
	for range 8000 {
		xs = append(xs, rng.Float64()*2-1, math.Ldexp(rng.Float64(), -rng.Intn(60)), -math.Ldexp(rng.Float64(), -rng.Intn(60)),
			math.Ldexp(1+rng.Float64(), rng.Intn(80)), -1+math.Ldexp(rng.Float64(), -rng.Intn(50)))
	}
	xs = slices.DeleteFunc(xs, func(x float64) bool { return x <= -1 })
	checkULP(t, "log1pF64", log1pF64, math.Log1p, func(x float64) float64 { return round(bigLn1p(bf(x))) }, xs)

	var as, ac, at []float64
	for range 4000 {
		as = append(as, rng.Float64()*2, math.Ldexp(1+rng.Float64(), -rng.Intn(28)))
		ac = append(ac, 1+rng.Float64(), 1+math.Ldexp(rng.Float64(), -rng.Intn(52)))
		at = append(at, rng.Float64(), math.Ldexp(1+rng.Float64(), -rng.Intn(28)-1), 1-math.Ldexp(rng.Float64(), -rng.Intn(52)))
	}
	for i := range as {
		if i%2 == 1 {
			as[i], at[i] = -as[i], -at[i]
		}
	}
	ac = slices.DeleteFunc(ac, func(x float64) bool { return x == 1 })
	at = slices.DeleteFunc(at, func(x float64) bool { return math.Abs(x) == 1 })
	checkULPWithin(t, "asinhF64", 2, asinhF64, math.Asinh, func(x float64) float64 {
		a := bf(math.Abs(x))
		a2 := new(big.Float).SetPrec(prec).Mul(a, a)
		s := new(big.Float).SetPrec(prec).Add(a2, bf(1))
		s.Sqrt(s).Add(s, bf(1))
		a2.Quo(a2, s).Add(a2, a) // a + a²/(1 + √(1 + a²))
		return math.Copysign(round(bigLn1p(a2)), x)
	}, as)
	checkULPWithin(t, "acoshF64", 2, acoshF64, math.Acosh, func(x float64) float64 {
		tt := new(big.Float).SetPrec(prec).Sub(bf(x), bf(1))
		s := new(big.Float).SetPrec(prec).Mul(tt, tt)
		s.Add(s, tt).Add(s, tt).Sqrt(s).Add(s, tt) // t + √(2t + t²)
		return round(bigLn1p(s))
	}, ac)
	checkULPWithin(t, "atanhF64", 2, atanhF64, math.Atanh, func(x float64) float64 {
		a := bf(math.Abs(x))
		q := new(big.Float).SetPrec(prec).Quo(new(big.Float).SetPrec(prec).Add(a, a), new(big.Float).SetPrec(prec).Sub(bf(1), a))
		l := bigLn1p(q)
		return math.Copysign(round(l.Quo(l, bf(2))), x)
	}, at)
}

// TestLogAccuracy checks logF64 (math.Log's algorithm with fused
// multiply-adds) within 1 ULP of the exact values, subnormal inputs too,
// and log2F64 and log10F64 beyond [1/2, 2] within 2.
func TestLogAccuracy(t *testing.T) {
	ln, ln2, ln10 := bigLn, bigLn(2), bigLn(10)
	round := func(v *big.Float) float64 { f, _ := v.Float64(); return f }
	rng := rand.New(rand.NewSource(7))
	xs := []float64{1, 2, 0.5, math.Sqrt2 / 2, math.Nextafter(math.Sqrt2/2, 1), math.Nextafter(1, 0), math.Nextafter(1, 2),
		math.MaxFloat64, 0x1p-1022, 5e-324, 1e-310, 10, 1e300}
	for range 3000 {
		xs = append(xs, rng.Float64()*2, math.Ldexp(1+rng.Float64(), rng.Intn(2000)-1000),
			1+math.Ldexp(rng.Float64()-0.5, -rng.Intn(50)), math.Ldexp(rng.Float64(), -1022-rng.Intn(50)))
	}
	xs = slices.DeleteFunc(xs, func(x float64) bool { return x == 0 })
	checkULP(t, "logF64", logF64, math.Log, func(x float64) float64 { return round(ln(x)) }, xs)
	far := slices.DeleteFunc(slices.Clone(xs), func(x float64) bool { return x >= 0.5 && x <= 2 })
	checkULPWithin(t, "log2F64", 2, log2F64, math.Log2, func(x float64) float64 { l := ln(x); return round(l.Quo(l, ln2)) }, far)
	checkULPWithin(t, "log10F64", 2, log10F64, math.Log10, func(x float64) float64 { l := ln(x); return round(l.Quo(l, ln10)) }, far)
}

// TestAtanAccuracy checks atanF64 (math.Atan's algorithm with fused
// multiply-adds) against 300-bit values: atan a = 2^4·atan(a_4), a_4 by
// four halvings a/(1 + √(1 + a²)), then the Taylor series; π/2 - atan(1/a)
// above 1.
func TestAtanAccuracy(t *testing.T) {
	const prec = 300
	bf := func(v float64) *big.Float { return new(big.Float).SetPrec(prec).SetFloat64(v) }
	exact := func(x float64) float64 {
		a := bf(math.Abs(x))
		far := a.Cmp(bf(1)) > 0
		if far {
			a.Quo(bf(1), a)
		}
		for range 4 {
			s := new(big.Float).SetPrec(prec).Mul(a, a)
			s.Add(s, bf(1)).Sqrt(s).Add(s, bf(1))
			a.Quo(a, s)
		}
		a2 := new(big.Float).SetPrec(prec).Mul(a, a)
		sum, term := new(big.Float).SetPrec(prec).Set(a), new(big.Float).SetPrec(prec).Set(a)
		for k := 1; k < 80; k++ {
			term.Mul(term, a2).Neg(term)
			sum.Add(sum, new(big.Float).SetPrec(prec).Quo(term, bf(float64(2*k+1))))
		}
		sum.Mul(sum, bf(16))
		if far {
			sum.Sub(new(big.Float).SetPrec(prec).Quo(bigPi, bf(2)), sum)
		}
		r, _ := sum.Float64()
		return math.Copysign(r, x)
	}
	rng := rand.New(rand.NewSource(8))
	xs := []float64{1, -1, 0.66, math.Nextafter(0.66, 1), 2.41421356237309504880, math.Nextafter(2.41421356237309504880, 3),
		1e-300, 5e-324, 1e300, math.MaxFloat64, 0.5, 3}
	for range 6000 {
		xs = append(xs, rng.Float64()*20-10, math.Ldexp(rng.Float64(), rng.Intn(80)-40), -math.Ldexp(1+rng.Float64(), -rng.Intn(60)))
	}
	checkULP(t, "atanF64", atanF64, math.Atan, exact, xs)
}
