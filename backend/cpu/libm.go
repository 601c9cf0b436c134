package cpu

import "math"

// Go's math package is far from the C library that NumPy's loops and the
// CUDA backend use for some of the everyday functions: asin and acos near
// ±1 (1024 and 1.7e7 ULP from glibc 2.36), sinh and cosh of 709.8…710.5
// (+Inf where the result is finite), log10 of subnormal numbers, log2 near
// 1 (its result loses all precision) and tan of tiny arguments (25 ULP).
// The functions below replace them there; measured on 200000 inputs of
// every magnitude against glibc 2.36 on x86-64, each is within 3 ULP
// (asin, acos, log10 and log2 within 2).

// asinF64 is asin, as atan2(x, sqrt((1-x)(1+x))) where |x| > 1/2: 1-x is
// exact there, so the result keeps its precision near ±1.
func asinF64(x float64) float64 {
	if math.Abs(x) <= 0.5 {
		return math.Asin(x)
	}
	return math.Atan2(x, math.Sqrt((1-x)*(1+x)))
}

// acosF64 is acos, as atan2(sqrt((1-x)(1+x)), x) where |x| > 1/2.
func acosF64(x float64) float64 {
	if math.Abs(x) <= 0.5 {
		return math.Acos(x)
	}
	return math.Atan2(math.Sqrt((1-x)*(1+x)), x)
}

// sinhF64 is sinh; beyond 709 it is exp(|x|/2)² / 2, which stays finite
// up to the true overflow threshold (glibc's __ieee754_sinh does the same).
func sinhF64(x float64) float64 {
	if a := math.Abs(x); a > 709 {
		w := math.Exp(0.5 * a)
		return math.Copysign(0.5*w*w, x)
	}
	return math.Sinh(x)
}

// coshF64 is cosh, computed as sinhF64 beyond 709.
func coshF64(x float64) float64 {
	if a := math.Abs(x); a > 709 {
		w := math.Exp(0.5 * a)
		return 0.5 * w * w
	}
	return math.Cosh(x)
}

// log10F64 is log10, with subnormal arguments scaled into the normal
// range first (as logF64).
func log10F64(x float64) float64 {
	if x > 0 && x < 0x1p-1022 {
		return math.Log10(x*0x1p54) - 54*math.Log10(2)
	}
	return math.Log10(x)
}

// log2F64 is log2, as Log(x)·(1/Ln2) on [1/2, 2]: math.Log2 takes
// Log(x/2)·(1/Ln2) + 1 above 1, which cancels near 1, and Log keeps its
// precision there (its reduction is exact: x - 1). Within 2 ULP of the
// exact value (TestLog2Accuracy), as Log1p(x-1)·(1/Ln2) was before stop
// 41, at half its cost: the vector loops are log's.
func log2F64(x float64) float64 {
	if x >= 0.5 && x <= 2 {
		return math.Log(x) * (1 / math.Ln2)
	}
	return math.Log2(x)
}

// tanF64 is tan, with its Taylor series below 2^-12.
func tanF64(x float64) float64 {
	if math.Abs(x) < 0x1p-12 {
		x2 := x * x
		return x + x*x2*(1.0/3+x2*(2.0/15))
	}
	return math.Tan(x)
}

// expm1F64 is e^x - 1, computed so that its vector loops (expm1Body in
// gen_libm.go) give the same bits without a division (math.Expm1's
// rational correction takes one, and its six finishing cases a blend
// each; its loop took 2.4 ms for 10^6 float64 where NumPy's took 1.2):
// k = x/ln 2 rounded to even, r + rlo = x - k·ln 2 (Ln2Hi·k exact,
// Ln2Lo·k rounded, the rest of r kept in rlo), e^r - 1 = r + u with u =
// r·(r·q(r)) + rlo and q the Taylor series of (e^r - 1 - r)/r² to r^11
// (|r| <= ln2/2: the terms left out are below 2^-56 of e^r - 1), and
// (2^k - 1) + 2^k·r + 2^k·u: the first two summed exactly into hi + lo
// (2^k - 1 is exact for k >= -53, 2^k·r too, and |2^k - 1| >= |2^k·r|
// where k != 0: Fast2Sum), then hi + (lo + 2^k·u), one rounding of a
// small term and the last. Within 1 ULP of the exact value, correctly
// rounded about as often as math.Expm1 (91% and 92% of
// TestExpm1Accuracy's inputs). Every step is an explicit rounding (a
// conversion or math.FMA), so that no compiler fuses two of them.
func expm1F64(x float64) float64 {
	switch {
	case x != x, x == 0:
		return x
	case x > 709.8:
		return math.Inf(1) // e^x overflows from 709.78
	case x < expm1Lo:
		return math.Exp(x) - 1 // e^x < 2^-51: Exp's error is far below the result's ULP
	}
	k := float64(float64(x*(1/math.Ln2))+rndMagic) - rndMagic
	rhi := math.FMA(-k, em1Ln2Hi, x) // exact
	c := float64(k * em1Ln2Lo)
	r := rhi - c
	rlo := float64(rhi-r) - c
	q := expm1Q[len(expm1Q)-1]
	for i := len(expm1Q) - 2; i >= 0; i-- {
		q = math.FMA(q, r, expm1Q[i])
	}
	u := math.FMA(float64(r*q), r, rlo) // e^r - 1 = r + u
	if k > 1023 {
		// x beyond 709.43 (the loops' range ends at 709): 2^(k-1)·(1 +
		// r + u), doubled (math.Exp overflows from 709.44 on amd64).
		pk := math.Float64frombits(math.Float64bits(k-1+aeMagic) << 52)
		b := pk * r
		hi := pk + b
		lo := b - float64(hi-pk)
		return 2 * (hi + math.FMA(pk, u, lo))
	}
	pk := math.Float64frombits(math.Float64bits(k+aeMagic) << 52) // 2^k
	pm1 := pk - 1
	b := pk * r // exact
	hi := pm1 + b
	lo := b - float64(hi-pm1) // hi + lo = 2^k - 1 + 2^k·r exactly
	return hi + math.FMA(pk, u, lo)
}

// The constants of expm1F64 (gen_libm.go writes them for the loops).
const (
	expm1Lo  = -36 // k >= -52
	expm1Hi  = 709 // the loops' end: k <= 1023
	rndMagic = 0x1.8p52
	aeMagic  = 0x1p52 + 1023
	em1Ln2Hi = 6.93147180369123816490e-01 // 32 bits (fdlibm's): k·em1Ln2Hi is exact
	em1Ln2Lo = 1.90821492927058770002e-10
)

// expm1Q are the Taylor coefficients of (e^r - 1 - r)/r²: 1/(j+2)!.
var expm1Q = [...]float64{
	1.0 / 2, 1.0 / 6, 1.0 / 24, 1.0 / 120, 1.0 / 720, 1.0 / 5040, 1.0 / 40320, 1.0 / 362880,
	1.0 / 3628800, 1.0 / 39916800, 1.0 / 479001600, 1.0 / 6227020800,
}
