package pow

import (
	"math"
	"math/big"
	"math/rand"
	"testing"
)

// exactPow returns x**n (n an integer) correctly rounded to float64, by
// exact big.Float arithmetic.
func exactPow(x float64, n int) float64 {
	prec := uint(53*(max(n, -n)+1) + 64)
	p := new(big.Float).SetPrec(prec).SetFloat64(1)
	b := new(big.Float).SetPrec(prec).SetFloat64(x)
	for range max(n, -n) {
		p.Mul(p, b)
	}
	if n < 0 {
		// 1/p to 200 bits is enough for a correct float64 rounding away
		// from exact ties (1/p is never a tie unless p is a power of 2,
		// which is exact).
		q := new(big.Float).SetPrec(400).Quo(new(big.Float).SetPrec(400).SetFloat64(1), p)
		v, _ := q.Float64()
		return v
	}
	v, _ := p.Float64()
	return v
}

func TestPowF64(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	bad := 0
	for i := range 20000 {
		x := rng.Float64()*4 - 2
		if i%3 == 0 {
			x = math.Exp(rng.NormFloat64() * 5)
		}
		n := rng.Intn(41) - 20
		if i%10 == 0 {
			n = rng.Intn(400) - 200
		}
		want := exactPow(x, n)
		if got := Float64(x, float64(n)); got != want {
			bad++
			t.Errorf("Float64(%v, %d) = %v, want %v", x, n, got, want)
			if bad > 5 {
				break
			}
		}
	}
	// Special cases follow math.Pow (C99).
	cases := [][3]float64{
		{2, 0.5, math.Sqrt2}, {negz, 0.5, 0}, {math.Inf(-1), 0.5, math.Inf(1)}, {-8, 1.0 / 3, math.NaN()},
		{0, -1, math.Inf(1)}, {negz, -1, math.Inf(-1)}, {math.NaN(), 0, 1}, {1, math.NaN(), 1},
		{-1, math.Inf(1), 1}, {2, 1024, math.Inf(1)}, {2, -1074, 5e-324}, {-2, 3, -8}, {10, -1, 0.1},
		{1e300, 2, math.Inf(1)}, {1e-300, 2, 0},
	}
	for _, c := range cases {
		if got := Float64(c[0], c[1]); !same(got, c[2]) {
			t.Errorf("Float64(%v, %v) = %v, want %v", c[0], c[1], got, c[2])
		}
	}
}

// exactPowHalf returns x**(n + 1/2) correctly rounded to float64: x**n
// exact in big.Float, √x to 600 bits (exact where x is a square), their
// product or quotient to 600 bits. A result within 2^-540 of a rounding
// midpoint without being one would round wrongly; none is (an exact √x
// makes the product exact, and an irrational one keeps it that far from
// every midpoint for doubles).
func exactPowHalf(x float64, n int) float64 {
	prec := uint(53*(max(n, -n)+1) + 64)
	p := new(big.Float).SetPrec(prec).SetFloat64(1)
	b := new(big.Float).SetPrec(prec).SetFloat64(x)
	for range max(n, -n) {
		p.Mul(p, b)
	}
	r := new(big.Float).SetPrec(600).Sqrt(new(big.Float).SetPrec(600).SetFloat64(x))
	v := new(big.Float).SetPrec(max(600, prec+600))
	if n >= 0 {
		v.Mul(p, r)
	} else {
		v.Quo(r, p)
	}
	f, _ := v.Float64()
	return f
}

// TestPowHalf checks x**(n + 1/2) against its correctly rounded value,
// bit for bit (NumPy's pow is glibc's, correctly rounded in practice;
// math.Pow's x·Exp(0.5·Log(x)) missed it on 36% of x**1.5), on random x
// over the exponent range, on squares of short odd integers (whose
// powers are exact: some are float64 rounding midpoints, which round to
// even), and on the ends of the range before math.Pow takes over.
func TestPowHalf(t *testing.T) {
	rng := rand.New(rand.NewSource(11))
	ys := []float64{0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 3.5, -3.5, 7.5, -10.5, 20.5, -33.5}
	var xs []float64
	for range 3000 {
		xs = append(xs, rng.Float64()*4, math.Exp(rng.NormFloat64()*20), math.Ldexp(1+rng.Float64(), rng.Intn(120)-60),
			math.Ldexp(1+rng.Float64(), rng.Intn(2000)-1000))
	}
	for range 500 {
		// s³ with s odd and 18 bits (x = s²) has 52-54 bits: exact or a
		// midpoint.
		s := float64(1<<17 + 2*rng.Intn(1<<16) + 1)
		xs = append(xs, s*s, s*s*0x1p-40)
	}
	xs = append(xs, 1, 2, 4, 0.25, 0x1p-1000, 0x1p1000, math.Nextafter(0x1p-1000, 1), math.Nextafter(0x1p1000, 0),
		1.0000000000000002, 0.9999999999999999, 5e-324, 0x1p-1022, math.MaxFloat64, 0x1p-700, 0x1p700, 0x1.8p-600)
	for k := 1; k < 40; k += 2 {
		// half-integer powers of x near 1 fall within 2^-100 of a
		// rounding midpoint (see ddRound)
		xs = append(xs, 1-float64(k)*0x1p-53, 1+float64(k)*0x1p-52)
	}
	missed := map[float64]int{}
	ties := 0
	for _, y := range ys {
		n := int(math.Floor(y))
		for _, x := range xs {
			want := exactPowHalf(x, n)
			if got := Float64(x, y); math.Float64bits(got) != math.Float64bits(want) {
				t.Fatalf("Float64(%v, %v) = %v (%#x), want %v (%#x)", x, y, got, math.Float64bits(got), want, math.Float64bits(want))
			}
			if math.Pow(x, y) != want {
				missed[y]++
			}
			if y == 1.5 && x == math.Trunc(x) && x > 1<<34 {
				if h := math.Sqrt(x); h*h == x {
					// exact product h·x: a midpoint where rounding h·x
					// to 53 bits drops a single one bit
					if p := new(big.Float).SetPrec(200).Mul(big.NewFloat(h), big.NewFloat(x)); !p.IsInt() || big.NewFloat(want).Cmp(p) != 0 {
						ties++
					}
				}
			}
		}
	}
	if ties == 0 {
		t.Errorf("no x**1.5 rounded (exact cubes that are midpoints or need 54 bits)")
	}
	t.Logf("math.Pow not correctly rounded, of %d inputs each: %v; exact cubes rounded: %d", len(xs), missed, ties)
}

// negz is -0.
var negz = math.Copysign(0, -1)

// same reports whether a and b are the same float64 (NaN equal to NaN,
// -0 not to +0).
func same(a, b float64) bool {
	return a == b && math.Signbit(a) == math.Signbit(b) || a != a && b != b
}
