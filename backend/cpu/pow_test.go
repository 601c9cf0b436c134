package cpu

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
		if math.IsInf(want, 0) || want == 0 || math.Abs(want) < 0x1p-1000 || math.Abs(want) > 0x1p1000 {
			continue
		}
		if got := powF64(x, float64(n)); got != want {
			bad++
			t.Errorf("powF64(%v, %d) = %v, want %v", x, n, got, want)
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
		if got := powF64(c[0], c[1]); !same(got, c[2]) {
			t.Errorf("powF64(%v, %v) = %v, want %v", c[0], c[1], got, c[2])
		}
	}
}
