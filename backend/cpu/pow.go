package cpu

import "math"

// Float powers.
//
// Go's math.Pow raises to integer powers by repeated squaring in float64,
// rounding at every step, so x**3 can be an ULP away from the correctly
// rounded value that NumPy's pow (glibc) gives. powF64 instead raises to
// integer exponents in double-double arithmetic (about 100 bits) and
// rounds once, which gives the correctly rounded result except for values
// within about 2^-90 ULP of a rounding boundary. Exponent 0.5 is a square
// root (one rounding). Other exponents, and results near the ends of the
// float64 range, use math.Pow.

// powF64 returns x**y.
func powF64(x, y float64) float64 {
	switch {
	case y == 0.5 && x > 0 && !math.IsInf(x, 1):
		return math.Sqrt(x)
	case y != math.Trunc(y) || math.Abs(y) > 1<<53 || x == 0 || math.IsInf(x, 0) || math.IsNaN(x):
		return math.Pow(x, y)
	}
	n := int64(y)
	neg := n < 0
	if neg {
		n = -n
	}
	// Double-double exponentiation by squaring.
	rh, rl := 1.0, 0.0
	bh, bl := x, 0.0
	for {
		if n&1 == 1 {
			rh, rl = ddMul(rh, rl, bh, bl)
		}
		n >>= 1
		if n == 0 {
			break
		}
		bh, bl = ddMul(bh, bl, bh, bl)
		if a := math.Abs(bh); !(a <= 0x1p1000 && a >= 0x1p-1000) {
			return math.Pow(x, y)
		}
	}
	if a := math.Abs(rh); !(a <= 0x1p1000 && a >= 0x1p-1000) {
		return math.Pow(x, y) // near overflow or underflow (or NaN)
	}
	if !neg {
		return rh + rl
	}
	// 1/(rh+rl): q = 1/rh, then one correction step with the exact
	// remainder.
	q := 1 / rh
	r := math.FMA(-q, rh, 1) - q*rl
	return q + r/rh
}

// ddMul returns (ah+al)(bh+bl) as a normalised double-double.
func ddMul(ah, al, bh, bl float64) (float64, float64) {
	p := ah * bh
	e := math.FMA(ah, bh, -p)
	e += ah*bl + al*bh
	hi := p + e
	return hi, e - (hi - p)
}
