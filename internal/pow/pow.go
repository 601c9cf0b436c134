// Package pow computes float64 powers as C's pow does in practice
// (glibc's, which CPython's ** and NumPy's loops without SVML call):
// correctly rounded, for
// the exponents where Go's math.Pow is not (integers and integers plus
// one half), so that the backend's kernels and the constant folding of
// Python and R scalars give the same bits.
package pow

import (
	"math"
	"math/big"
)

// Float powers.
//
// Go's math.Pow raises to integer powers by repeated squaring in float64,
// rounding at every step, so x**3 can be an ULP away from the correctly
// rounded value that NumPy's pow (glibc) gives; to a half-integer power
// n + 1/2 it takes Exp(0.5·Log(x)) (1/Sqrt(x) for -1/2), two or three
// ULP from it (x**1.5 of 2·10^4 inputs: 36% not correctly rounded).
// Float64 instead raises to integer exponents in double-double arithmetic
// (about 100 bits) and rounds once, and to half-integer ones multiplies
// (or divides) that power by √x as a double-double, rounded once (within
// 2^-96 of a rounding midpoint, the exact power in big.Float decides:
// ddRound): the correctly rounded result. Exponent 0.5 is a square root
// (one rounding). Powers beyond double-double's range are computed
// exactly (powExact). Other exponents use math.Pow.

// Float64 returns x**y.
func Float64(x, y float64) float64 {
	switch {
	case y == 0.5 && x > 0 && !math.IsInf(x, 1):
		return math.Sqrt(x)
	case x == 0 || math.IsInf(x, 0) || math.IsNaN(x) || math.IsInf(y, 0) || math.IsNaN(y):
		return math.Pow(x, y)
	case HalfInteger(y) && x > 0:
		if v, ok := powHalf(x, y); ok {
			return v
		}
	case y == math.Trunc(y) && math.Abs(y) <= 1<<53:
		if v, ok := powInt(x, y); ok {
			return v
		}
	default:
		return math.Pow(x, y)
	}
	// A power or result beyond double-double's range: exactly where the
	// result is a float64 or near one (then |y·log2 |x|| is below 1075
	// plus a little), and math.Pow's ±Inf or ±0 beyond.
	if l := y * math.Log2(math.Abs(x)); math.Abs(l) < 1100 {
		return powExact(x, y)
	}
	return math.Pow(x, y)
}

// powInt returns x**y for an integer y, |y| <= 2^53, and a finite
// nonzero x: x**|y| in double-double arithmetic and, for y < 0, its
// reciprocal, rounded once (ddRound); false where a power or the result
// leaves [2^-1000, 2^1000].
func powInt(x, y float64) (float64, bool) {
	rh, rl, ok := ddPowInt(x, int64(math.Abs(y)))
	if !ok {
		return 0, false
	}
	if y >= 0 {
		return ddRound(rh, rl, x, y), true
	}
	// 1/(rh+rl): q = 1/rh, then one correction step with the exact
	// remainder.
	q := 1 / rh
	r := math.FMA(-q, rh, 1) - q*rl
	if a := math.Abs(q); !(a <= 0x1p1000 && a >= 0x1p-1000) {
		return 0, false
	}
	return ddRound(q, r/rh, x, y), true
}

// ddRound returns hi + lo rounded to float64, for a double-double within
// 2^-96 of x**y relative to it (|lo| at most about an ULP of hi; each
// double-double product or square adds at most 2^-104, and x**n takes
// two for each bit of n, at most 106), or the exact power (powExact)
// where a value that near might round otherwise: hi + lo within 2^-96 of
// a rounding midpoint (x**1.5 for x = 1 - 2^-53 is 1 - 1.5·2^-53 +
// 0.375·2^-106, just above one; half-integer powers of x near 1 fall
// there often, random ones about once in 2^42).
func ddRound(hi, lo, x, y float64) float64 {
	e := math.Abs(hi) * 0x1p-96
	v := hi + lo
	if hi+(lo+e) != v || hi+(lo-e) != v {
		return powExact(x, y)
	}
	return v
}

// powExact returns x**y for y an integer or half-integer, correctly
// rounded, in big.Float arithmetic: x**|n| exact (to 4096 bits where it
// has more: then it is no float64 nor a midpoint, as only x**n with at
// most 54 bits in its odd part can be, so 2^-4000 decides), √x and the
// quotient to 600 bits more (an irrational result is no midpoint either,
// and lies farther from each than that).
func powExact(x, y float64) float64 {
	n := math.Floor(y)
	half := y != n
	an := math.Abs(n)
	prec := uint(min(53*(an+1)+64, 4096))
	b := new(big.Float).SetPrec(prec).SetFloat64(x)
	p := new(big.Float).SetPrec(prec).SetFloat64(1)
	for k := uint64(an); k > 0; k >>= 1 {
		if k&1 == 1 {
			p.Mul(p, b)
		}
		if k > 1 {
			b.Mul(b, b)
		}
	}
	v := new(big.Float).SetPrec(prec + 600)
	switch {
	case half && n >= 0:
		v.Mul(p, new(big.Float).SetPrec(prec+600).Sqrt(new(big.Float).SetFloat64(x)))
	case half:
		v.Quo(new(big.Float).SetPrec(prec+600).Sqrt(new(big.Float).SetFloat64(x)), p)
	case n >= 0:
		v.Set(p)
	default:
		v.Quo(new(big.Float).SetFloat64(1), p)
	}
	f, _ := v.Float64()
	return f
}

// ddPowInt returns x**n (n >= 0) as a double-double, exponentiated by
// squaring, or false where a square or the result leaves [2^-1000,
// 2^1000] (overflow, underflow or NaN near).
func ddPowInt(x float64, n int64) (hi, lo float64, ok bool) {
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
			return 0, 0, false
		}
	}
	if a := math.Abs(rh); !(a <= 0x1p1000 && a >= 0x1p-1000) {
		return 0, 0, false
	}
	return rh, rl, true
}

// HalfInteger reports whether y is an integer plus one half (then |y| <
// 2^52).
func HalfInteger(y float64) bool {
	t := 2 * y
	return t == math.Trunc(t) && y != math.Trunc(y)
}

// powHalf returns x**y for a finite x > 0 and y = n + 1/2: x**n (n >= 0)
// times √x, or √x divided by x**-n (n < 0), in double-double arithmetic,
// rounded once (ddRound); false where a power or the result leaves
// [2^-1000, 2^1000]. √x is sh + sl with sh the rounded
// root and sl = (x - sh²)/(2·sh) (x - sh² is exact, an FMA), within
// 2^-105 of it.
func powHalf(x, y float64) (float64, bool) {
	if !(x >= 0x1p-1000 && x <= 0x1p1000) {
		return 0, false
	}
	n := math.Floor(y) // y - 1/2
	sh := math.Sqrt(x)
	sl := math.FMA(-sh, sh, x) / (2 * sh)
	rh, rl, ok := ddPowInt(x, int64(math.Abs(n)))
	if !ok {
		return 0, false
	}
	h, l := ddMul(rh, rl, sh, sl)
	if n < 0 {
		// (sh+sl)/(rh+rl): q = sh/rh and one correction step with
		// the exact remainder sh - q·rh.
		h = sh / rh
		l = (math.FMA(-h, rh, sh) + sl - h*rl) / rh
	}
	if a := math.Abs(h); !(a <= 0x1p1000 && a >= 0x1p-1000) {
		return 0, false
	}
	return ddRound(h, l, x, y), true
}

// ddMul returns (ah+al)(bh+bl) as a normalised double-double.
func ddMul(ah, al, bh, bl float64) (float64, float64) {
	p := ah * bh
	e := math.FMA(ah, bh, -p)
	e += ah*bl + al*bh
	hi := p + e
	return hi, e - (hi - p)
}
