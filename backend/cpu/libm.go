package cpu

import "math"

// Go's math package is far from the C library that NumPy's loops and the
// CUDA backend use for some of the everyday functions: asin and acos near
// ±1 (1024 and 1.7e7 ULP from glibc 2.36; math.Asin and math.Acos take
// an arctangent and two divisions anywhere), sinh and cosh of 709.8…710.5
// (+Inf where the result is finite), log10 of subnormal numbers, log2 near
// 1 (its result loses all precision) and tan of tiny arguments (25 ULP).
// The functions below replace them there; measured on 200000 inputs of
// every magnitude against glibc 2.36 on x86-64, each is within 3 ULP
// (asin, acos, log10 and log2 within 2). Since stop 43 log, log1p, sin,
// cos and tan (and the functions on them) are Go's algorithms with their
// multiplies and adds fused, each rounding explicit: Go compiles its own
// without FMAs on amd64, and the vector loops that replayed each product
// and sum apart waited on their latency.

// asinF64 is asin: a = |x| up to 1/2, or √((1 - a)/2) beyond (1 - a is
// exact there, so the result keeps its precision near ±1) with asin a =
// π/2 - 2·asin √((1 - a)/2), and asin t = t + t·u·P(u), u = t², by its
// Taylor series to t^49 (asinTaylor; the rest is below 2^-58 of asin t
// for t <= 1/2): one square root and no division but √u's rest (see
// asinParts), within 1 ULP (TestAsinAccuracy). math.Asin took an
// arctangent, two divisions.
func asinF64(x float64) float64 {
	a := math.Abs(x)
	if !(a <= 1) {
		return math.Asin(x) // NaN
	}
	hi, lo, far := asinParts(a)
	if !far {
		return math.Copysign(hi, x)
	}
	// π/2 - 2·(hi + lo): the first difference and its error (TwoSum),
	// then the small terms.
	r, e := twoSum(pio2Hi, -2*hi)
	return math.Copysign(r+(e+(pio2Lo-2*lo)), x)
}

// acosF64 is acos: π/2 - asin x up to 1/2, 2·asin √((1 - x)/2) beyond
// for x > 0 and π - 2·asin √((1 + x)/2) for x < 0 (see asinF64).
func acosF64(x float64) float64 {
	a := math.Abs(x)
	if !(a <= 1) {
		return math.Acos(x) // NaN
	}
	hi, lo, far := asinParts(a)
	switch {
	case !far:
		if math.Signbit(x) {
			hi, lo = -hi, -lo
		}
		r, e := twoSum(pio2Hi, -hi)
		return r + (e + (pio2Lo - lo))
	case x > 0:
		return 2 * (hi + lo)
	}
	r, e := twoSum(piHi, -2*hi)
	return r + (e + (piLo - 2*lo))
}

// π/2 and π as sums of two float64.
const (
	pio2Hi = 0x1.921fb54442d18p+0
	pio2Lo = 0x1.1a62633145c07p-54
	piHi   = 0x1.921fb54442d18p+1
	piLo   = 0x1.1a62633145c07p-53
)

// asinTaylor holds c_n, the Taylor coefficients (2k)!/(4^k·(k!)²·(2k+1))
// of asin for k = n + 1: asin t = t + t·u·Σ c_n·u^n, u = t².
var asinTaylor = [24]float64{
	0x1.5555555555555p-3, 0x1.3333333333333p-4, 0x1.6db6db6db6db7p-5, 0x1.f1c71c71c71c7p-6,
	0x1.6e8ba2e8ba2e9p-6, 0x1.1c4ec4ec4ec4fp-6, 0x1.c99999999999ap-7, 0x1.7a87878787878p-7,
	0x1.3fde50d79435ep-7, 0x1.12ef3cf3cf3cfp-7, 0x1.df3bd37a6f4dfp-8, 0x1.a6863d70a3d71p-8,
	0x1.782dda12f684cp-8, 0x1.51ba308d3dcb1p-8, 0x1.31683bdef7bdfp-8, 0x1.15ee9d45d1746p-8,
	0x1.fcaf8fb6db6dbp-9, 0x1.d3d2a8e0dd67dp-9, 0x1.b026f57b13b14p-9, 0x1.90cb77f60c7cep-9,
	0x1.750de64d7d05fp-9, 0x1.5c5f56efaaaabp-9, 0x1.464c0950f7d47p-9, 0x1.3275586c5f2f0p-9,
}

// asinParts returns asin t as hi + lo for t = a (a <= 1/2) or, far (a >
// 1/2), t = √u, u = (1 - a)/2 exact: hi = t + corr rounded, corr =
// (t·u)·P(u), lo its rounding error plus, far, √u's rest tl = (u -
// t²)/(2t) (u - t² exact, an FMA; asin of t + tl is asin t + tl to
// 2^-105). Every product is rounded on its own (float64(...)) and every
// multiply-add is an FMA, as in the loops (asinBody in gen_libm.go).
func asinParts(a float64) (hi, lo float64, far bool) {
	t, u, tl := a, float64(a*a), 0.0
	if far = a > 0.5; far {
		u = (1 - a) * 0.5
		t = math.Sqrt(u)
		tl = math.FMA(-t, t, u) / math.Max(2*t, 0x1p-1000) // 0 for t = 0
	}
	p := asinTaylor[len(asinTaylor)-1]
	for i := len(asinTaylor) - 2; i >= 0; i-- {
		p = math.FMA(p, u, asinTaylor[i])
	}
	corr := float64(float64(t*u) * p)
	hi = t + corr
	lo = corr - (hi - t) + tl
	return hi, lo, far
}

// twoSum returns a + b rounded and its rounding error (Knuth's TwoSum:
// exact for any a and b without overflow).
func twoSum(a, b float64) (s, e float64) {
	s = a + b
	z := s - a
	return s, (a - (s - z)) + (b - z)
}

// exp2F64 is 2^x, an algorithm of its own where |x| <= 1000 (math.Exp2
// elsewhere): k = x rounded to nearest, halves down, f = x - k (exact,
// -1/2 < f <= 1/2: every half-integer x takes f = 1/2, 2^x = √2·2^k),
// and
// 2^f = 1 + c1·f + f²·r(f), r the Taylor series of (2^f - 1 - c1·f)/f²
// to f^11 (exp2Taylor; the rest is below 2^-57), with c1·f and 1 + c1·f
// carried exactly (an FMA's rest, Fast2Sum) and ln 2's second part
// added, so that the sum is within 2^-56 of 2^f before its one rounding;
// times 2^k (exact: the result is normal). No division (math.Exp2 takes
// one): within 1 ULP and correctly rounded on 98% of inputs
// (TestExp2Accuracy; math.Exp2 87%, whose 2^0.5 is one ULP below √2's
// correctly rounded value, which NumPy gives, as exp2F64 does).
func exp2F64(x float64) float64 {
	if !(math.Abs(x) <= 1000) {
		return math.Exp2(x) // NaN, ±Inf, overflow, subnormal results
	}
	k := math.Ceil(x - 0.5) // halves round down: f = +1/2 there, not -1/2
	f := x - k
	r := exp2Taylor[len(exp2Taylor)-1]
	for i := len(exp2Taylor) - 2; i >= 1; i-- {
		r = math.FMA(r, f, exp2Taylor[i])
	}
	f2 := float64(f * f)
	p := float64(exp2Taylor[0] * f)
	pe := math.FMA(exp2Taylor[0], f, -p)
	s := 1 + p
	sl := (1 - s) + p
	t := math.FMA(f2, r, math.FMA(ln2Lo, f, pe))
	return (s + (sl + t)) * math.Float64frombits(uint64(int64(k)+1023)<<52)
}

// exp2Taylor holds (ln 2)^n/n!, n = 1…13, correctly rounded: 2^f - 1 =
// Σ exp2Taylor[i]·f^(i+1).
var exp2Taylor = [13]float64{
	0x1.62e42fefa39efp-1, 0x1.ebfbdff82c58fp-3, 0x1.c6b08d704a0c0p-5, 0x1.3b2ab6fba4e77p-7,
	0x1.5d87fe78a6731p-10, 0x1.430912f86c787p-13, 0x1.ffcbfc588b0c7p-17, 0x1.62c0223a5c824p-20,
	0x1.b5253d395e7c4p-24, 0x1.e4cf5158b8ecap-28, 0x1.e8cac7351bb25p-32, 0x1.c3bd650fc2986p-36,
	0x1.816193166d0f9p-40,
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

// logF64 is log by math.Log's algorithm on amd64 ($GOROOT/src/math/
// log_amd64.s, archLog, after fdlibm's e_log.c: x = 2^k·f1 with f1 in
// (√2/2, √2], f = f1 - 1, s = f/(2 + f), R = t1 + t2 from s² and s⁴ in two
// polynomials, and k·Ln2Hi - ((hfsq - (s·(hfsq + R) + k·Ln2Lo)) - f)),
// with each polynomial step and the sum after s·(hfsq + R) fused, as
// log1pF64: within 1 ULP (TestLogAccuracy); its loop waits on fewer
// roundings. Subnormal x, where Go's assembly gives about -709.09 for
// every input (the true logs reach -744.44), is scaled into the normal
// range first (exactly) and the scale's log subtracted; NaN, ±Inf, zero
// and negative x take math.Log.
func logF64(x float64) float64 {
	const (
		hSqrt2 = 7.07106781186547524401e-01 // √2/2
		ln2Hi  = 6.93147180369123816490e-01 // ln 2 in two parts
		ln2Lo  = 1.90821492927058770002e-10
	)
	switch {
	case x > 0 && x < 0x1p-1022:
		return logF64(x*0x1p54) - 54*math.Ln2
	case !(x > 0 && x < math.Inf(1)):
		return math.Log(x)
	}
	f1, e := math.Frexp(x)
	k := float64(e)
	if f1 <= hSqrt2 {
		f1 *= 2
		k--
	}
	f := f1 - 1
	s := float64(f / (2 + f))
	s2 := float64(s * s)
	s4 := float64(s2 * s2)
	t1 := float64(s2 * math.FMA(s4, math.FMA(s4, math.FMA(s4, logCoef[6], logCoef[4]), logCoef[2]), logCoef[0]))
	t2 := float64(s4 * math.FMA(s4, math.FMA(s4, logCoef[5], logCoef[3]), logCoef[1]))
	hfsq := float64(float64(0.5*f) * f)
	t := math.FMA(s, float64(hfsq+float64(t1+t2)), float64(k*ln2Lo))
	return math.FMA(k, ln2Hi, -float64(float64(hfsq-t)-f))
}

// logCoef are math.Log's L1…L7 ($GOROOT/src/math/log.go), log1pF64's
// polynomial in the other order.
var logCoef = [7]float64{6.666666666666735130e-01, 3.999999999940941908e-01, 2.857142874366239149e-01,
	2.222219843214978396e-01, 1.818357216161805012e-01, 1.531383769920937332e-01, 1.479819860511658591e-01}

// log10F64 is log10, logF64(x)·(1/Ln10) as math.Log10 is math.Log's,
// with subnormal arguments scaled into the normal range first.
func log10F64(x float64) float64 {
	if x > 0 && x < 0x1p-1022 {
		return float64(logF64(x*0x1p54)*(1/math.Ln10)) - float64(54*math.Log10(2))
	}
	return logF64(x) * (1 / math.Ln10)
}

// log2F64 is log2, as logF64(x)·(1/Ln2) on [1/2, 2]: math.Log2 takes
// Log(x/2)·(1/Ln2) + 1 above 1, which cancels near 1, and Log keeps its
// precision there (its reduction is exact: x - 1). Within 2 ULP of the
// exact value (TestLog2Accuracy), as Log1p(x-1)·(1/Ln2) was before stop
// 41, at half its cost: the vector loops are log's. Elsewhere math.Log2's
// algorithm with logF64: Frexp(x) = frac·2^exp, exp - 1 where frac is
// 1/2, else logF64(frac)·(1/Ln2) + exp, the product rounded before the
// sum.
func log2F64(x float64) float64 {
	if x >= 0.5 && x <= 2 {
		return logF64(x) * (1 / math.Ln2)
	}
	frac, exp := math.Frexp(x)
	if frac == 0.5 {
		return float64(exp - 1)
	}
	return float64(logF64(frac)*(1/math.Ln2)) + float64(exp)
}

// log1pF64 is log(1 + x) by math.Log1p's algorithm ($GOROOT/src/math/log1p.go,
// after fdlibm's s_log1p.c: 1 + x = 2^k·(1 + f), √2/2 <= 1 + f < √2, with
// c the rounding error of 1 + x over 1 + x; log(1 + f) = f - (hfsq -
// s·(hfsq + R)), hfsq = f²/2, s = f/(2 + f) and R = s²·P(s²)), with the
// multiplies and adds of P and of the sums after it fused: within 1 ULP
// (TestLog1pAccuracy). Its vector loop (log1pBody in gen_libm.go) waits
// on one rounding a step where math.Log1p's waited on two: log1p of 10^6
// float64 took 1.6 ms where it now takes 1.3, and arcsinh, arccosh and
// arctanh, which take it, run faster too.
func log1pF64(x float64) float64 {
	const (
		sqrt2M1     = 4.142135623730950488017e-01  // √2 - 1
		sqrt2HalfM1 = -2.928932188134524755992e-01 // √2/2 - 1
		ln2Hi       = 6.93147180369123816490e-01   // ln 2 in two parts
		ln2Lo       = 1.90821492927058770002e-10
	)
	a := math.Abs(x)
	switch {
	case !(x > -1) || math.IsInf(x, 1):
		return math.Log1p(x) // NaN, -Inf, +Inf
	case a < 0x1p-54:
		return x
	case a < 0x1p-29:
		return x - float64(x*x)*0.5
	}
	var k, c, f float64
	iu := uint64(1) // not the branch of |f| < 2^-20
	if a < sqrt2M1 && x > sqrt2HalfM1 {
		f = x
	} else {
		u := x
		if a < 1<<53 {
			u = 1 + x
			if u >= 2 {
				c = 1 - float64(u-x)
			} else {
				c = x - float64(u-1)
			}
			c /= u
		}
		iu = math.Float64bits(u)
		k = float64(int(iu>>52) - 1023)
		iu &= 1<<52 - 1
		if iu < 0x6a09e667f3bcd { // √2's mantissa
			u = math.Float64frombits(iu | 0x3ff<<52)
		} else {
			k++
			u = math.Float64frombits(iu | 0x3fe<<52)
			iu = (1<<52 - iu) >> 2
		}
		f = u - 1
	}
	hfsq := float64(float64(0.5*f) * f)
	if iu == 0 {
		switch {
		case f == 0 && k == 0:
			return 0
		case f == 0:
			return math.FMA(k, ln2Hi, math.FMA(k, ln2Lo, c))
		}
		r := float64(hfsq * math.FMA(-0.66666666666666666, f, 1))
		if k == 0 {
			return f - r
		}
		return math.FMA(k, ln2Hi, -float64(float64(r-math.FMA(k, ln2Lo, c))-f))
	}
	s := float64(f / (2 + f))
	z := float64(s * s)
	p := log1pCoef[0]
	for _, v := range log1pCoef[1:] {
		p = math.FMA(p, z, v)
	}
	w := float64(hfsq + float64(z*p))
	if k == 0 {
		return f - math.FMA(-s, w, hfsq)
	}
	t := math.FMA(s, w, math.FMA(k, ln2Lo, c))
	return math.FMA(k, ln2Hi, -float64(float64(hfsq-t)-f))
}

// log1pCoef are math.Log1p's polynomial Lp7…Lp1 ($GOROOT/src/math/log1p.go):
// R = z·P(z), z = s².
var log1pCoef = [7]float64{1.479819860511658591e-01, 1.531383769920937332e-01, 1.818357216161805012e-01,
	2.222219843214978396e-01, 2.857142874366239149e-01, 3.999999999940941908e-01, 6.666666666666735130e-01}

// asinhF64, acoshF64 and atanhF64 are math.Asinh, math.Acosh and
// math.Atanh ($GOROOT/src/math/asinh.go, acosh.go, atanh.go) with
// log1pF64 and logF64 in place of math.Log1p and math.Log, each product
// rounded before a sum: asinh of a = |x| (x's sign) is a below 2^-28,
// log1pF64(a + a²/(1 + √(1 + a²))) up to 2, logF64(2a + 1/(√(a² + 1) +
// a)) up to 2^28 and logF64(a) + Ln2 above; acosh of x is
// log1pF64(t + √(2t + t²)) with t = x - 1 on (1, 2], logF64(2x - 1/(x +
// √(x² - 1))) up to 2^28 and logF64(x) + Ln2 from there; atanh of a in
// [2^-28, 1) is log1pF64(2a + 2a·a/(1 - a))/2 below 1/2 and
// log1pF64(2a/(1 - a))/2 above. Elsewhere (NaN, ±Inf, 1, below 1 for
// acosh, outside (-1, 1) and below 2^-28 for atanh) Go's own, which
// compute nothing there.
func asinhF64(x float64) float64 {
	a := math.Abs(x)
	var r float64
	switch {
	case !(a >= 0x1p-28 && a <= 1<<28):
		if a > 1<<28 && a < math.Inf(1) {
			return math.Copysign(logF64(a)+math.Ln2, x)
		}
		return math.Asinh(x) // NaN, ±Inf, a itself below 2^-28
	case a > 2:
		r = logF64(2*a + 1/(math.Sqrt(float64(a*a)+1)+a))
	default:
		a2 := float64(a * a)
		r = log1pF64(a + a2/(1+math.Sqrt(1+a2)))
	}
	return math.Copysign(r, x)
}

func acoshF64(x float64) float64 {
	switch {
	case !(x > 1 && x < math.Inf(1)):
		return math.Acosh(x) // NaN below 1, 0 at 1, NaN, +Inf
	case x >= 1<<28:
		return logF64(x) + math.Ln2
	case x > 2:
		return logF64(2*x - 1/(x+math.Sqrt(float64(x*x)-1)))
	}
	t := x - 1
	return log1pF64(t + math.Sqrt(2*t+float64(t*t)))
}

func atanhF64(x float64) float64 {
	a := math.Abs(x)
	switch {
	case !(a >= 0x1p-28 && a < 1):
		return math.Atanh(x)
	case a < 0.5:
		t := a + a
		return math.Copysign(0.5*log1pF64(t+t*a/(1-a)), x)
	}
	return math.Copysign(0.5*log1pF64((a+a)/(1-a)), x)
}

// sinF64 and cosF64 are sin and cos by math.Sin's and math.Cos's
// algorithm ($GOROOT/src/math/sin.go: |x| reduced by π/4 in three parts,
// Cody and Waite's, to z in [-π/4, π/4] and an even octant j, then the
// Cephes polynomials of z) with each product and the sum after it fused
// into one FMA: the reduction's three steps, Horner's, and the last sum
// of each polynomial. Within 1 ULP of the exact values, correctly rounded
// on more inputs than math.Sin and math.Cos (TestTrigAccuracy); their
// vector loops (trigReduce in gen_libm.go) take 20-25% less time than the
// separate multiplies and adds did. From 2^29 on (NaN and ±Inf too) they
// are math.Sin and math.Cos, whose Payne-Hanek reduction the vector loops
// leave to this code.
func sinF64(x float64) float64 {
	a := math.Abs(x)
	if !(a < 1<<29) {
		return math.Sin(x)
	}
	j, s, c := trigPolys(a)
	if j&2 != 0 {
		s = c // octants 2 and 6
	}
	if j&4 != 0 {
		s = -s // octants 4 and 6
	}
	if math.Signbit(x) {
		s = -s
	}
	return s
}

func cosF64(x float64) float64 {
	a := math.Abs(x)
	if !(a < 1<<29) {
		return math.Cos(x)
	}
	j, s, c := trigPolys(a)
	if j&2 != 0 {
		c = s
	}
	if (j>>1^j>>2)&1 != 0 {
		c = -c
	}
	return c
}

// trigPolys returns for 0 <= a < 2^29 trigArg's j and sin z and cos z.
// Every rounding is explicit (a conversion or math.FMA), so that no
// compiler fuses two of them.
func trigPolys(a float64) (j int32, s, c float64) {
	j, z := trigArg(a)
	zz := float64(z * z)
	p, q := sinCoef[0], cosCoef[0]
	for k := 1; k < len(sinCoef); k++ {
		p = math.FMA(p, zz, sinCoef[k])
		q = math.FMA(q, zz, cosCoef[k])
	}
	s = math.FMA(float64(z*zz), p, z)
	c = math.FMA(float64(zz*zz), q, math.FMA(-0.5, zz, 1))
	return j, s, c
}

// trigArg returns for 0 <= a < 2^29 the octant j of a (a·4/π truncated,
// rounded up to even) and z = a - j·π/4, with π/4 in three parts
// (math.Sin's: the first two products are exact).
func trigArg(a float64) (j int32, z float64) {
	const (
		pi4A = 0x1.921fb4p-1
		pi4B = 0x1.4442dp-25
		pi4C = 0x1.8469898cc5170p-49
	)
	j = int32(float64(a * (4 / math.Pi)))
	j = (j + 1) &^ 1
	y := float64(j)
	z = math.FMA(-y, pi4A, a)
	z = math.FMA(-y, pi4B, z)
	return j, math.FMA(-y, pi4C, z)
}

// sinCoef and cosCoef are math.Sin's and math.Cos's polynomials
// ($GOROOT/src/math/sin.go, _sin and _cos): sin z = z + z³·P(z²), cos z =
// 1 - z²/2 + z⁴·Q(z²), highest degree first.
var (
	sinCoef = [6]float64{0x1.5d8fd1fd19ccdp-33, -0x1.ae5e5a9291f5dp-26, 0x1.71de3567d48a1p-19,
		-0x1.a01a019bfdf03p-13, 0x1.111111110f7d0p-7, -0x1.5555555555548p-3}
	cosCoef = [6]float64{-0x1.8fa49a0861a9bp-37, 0x1.1ee9d7b4e3f05p-29, -0x1.27e4f7eac4bc6p-22,
		0x1.a01a019c844f5p-16, -0x1.6c16c16c14f91p-10, 0x1.555555555554bp-5}
)

// tanF64 is tan, with its Taylor series below 2^-12, and elsewhere below
// 2^29 math.Tan's algorithm ($GOROOT/src/math/tan.go: sin's reduction,
// then Cephes' rational function of z² and -1/y in the octants with bit 1
// of j) with its multiplies and adds fused, as sinF64's, and the rational
// function for tiny z too, where math.Tan takes z itself (zz <= 1e-14:
// 25 ULP off at z = 1e-7, as near x = 355). Within 2 ULP
// (TestTrigAccuracy).
func tanF64(x float64) float64 {
	a := math.Abs(x)
	if a < 0x1p-12 {
		x2 := x * x
		return x + x*x2*(1.0/3+x2*(2.0/15))
	}
	if !(a < 1<<29) {
		return math.Tan(x)
	}
	j, z := trigArg(a)
	zz := float64(z * z)
	p := math.FMA(math.FMA(tanP[0], zz, tanP[1]), zz, tanP[2])
	q := float64(zz + tanQ[0])
	for _, c := range tanQ[1:] {
		q = math.FMA(q, zz, c)
	}
	y := math.FMA(z, float64(float64(zz*p)/q), z)
	if j&2 != 0 {
		y = -1 / y
	}
	if math.Signbit(x) {
		y = -y
	}
	return y
}

// tanP and tanQ are math.Tan's rational function ($GOROOT/src/math/tan.go,
// _tanP and _tanQ but _tanQ's leading 1): tan z = z + z·(z²·P(z²)/Q(z²)),
// highest degree first.
var (
	tanP = [3]float64{-0x1.992d8d24f3f38p+13, 0x1.199eca5fc9dddp+20, -0x1.11fead3299176p+24}
	tanQ = [4]float64{0x1.ab8a5eeb36572p+13, -0x1.427bc582abc96p+20, 0x1.7d98fc2ead8efp+24, -0x1.9afe03cbe5a31p+25}
)

// atanF64 is arctan by math.Atan's algorithm ($GOROOT/src/math/atan.go:
// a = |x| taken to a itself up to 0.66, to 1/a above tan(3π/8) and to
// (a-1)/(a+1) between, Cephes' rational function there, then π/2 - r +
// Morebits or π/4 + r + Morebits/2, and x's sign) with the steps of its
// two polynomials and the last of the rational function fused, as
// sinF64: within 1 ULP (TestAtanAccuracy). ±0 and NaN are math.Atan's.
func atanF64(x float64) float64 {
	const (
		morebits = 6.123233995736765886130e-17 // π/2 = Pi/2 + morebits
		tan3pio8 = 2.41421356237309504880      // tan(3π/8)
	)
	if x == 0 || x != x {
		return math.Atan(x)
	}
	a := math.Abs(x)
	var r float64
	switch {
	case a <= 0.66:
		r = xatanF64(a)
	case a > tan3pio8:
		r = float64(math.Pi/2-xatanF64(1/a)) + morebits
	default:
		r = float64(math.Pi/4+xatanF64((a-1)/(a+1))) + 0.5*morebits
	}
	return math.Copysign(r, x)
}

// xatanF64 is math.Atan's xatan, u + u·(z·P(z)/Q(z)) with z = u², each
// multiply-add fused.
func xatanF64(u float64) float64 {
	z := float64(u * u)
	p := atanP[0]
	for _, c := range atanP[1:] {
		p = math.FMA(p, z, c)
	}
	q := float64(z + atanQ[0])
	for _, c := range atanQ[1:] {
		q = math.FMA(q, z, c)
	}
	return math.FMA(u, float64(float64(z*p)/q), u)
}

// atanP and atanQ are math.Atan's P0…P4 and Q0…Q4 ($GOROOT/src/math/atan.go,
// xatan): Q's leading coefficient is 1.
var (
	atanP = [5]float64{-8.750608600031904122785e-01, -1.615753718733365076637e+01, -7.500855792314704667340e+01,
		-1.228866684490136173410e+02, -6.485021904942025371773e+01}
	atanQ = [5]float64{+2.485846490142306297962e+01, +1.650270098316988542046e+02, +4.328810604912902668951e+02,
		+4.853903996359136964868e+02, +1.945506571482613964425e+02}
)

// atan2F64 is arctan2 by math.Atan2's algorithm ($GOROOT/src/math/
// atan2.go) on atanF64: atanF64(y/x), plus π where x < 0 and the result
// is <= 0, minus π where it is above. Its special cases (NaN, a zero or
// an infinity among y and x) are math.Atan2's.
func atan2F64(y, x float64) float64 {
	if y != y || x != x || y == 0 || x == 0 || math.IsInf(y, 0) || math.IsInf(x, 0) {
		return math.Atan2(y, x)
	}
	q := atanF64(y / x)
	if x < 0 {
		if q <= 0 {
			return q + math.Pi
		}
		return q - math.Pi
	}
	return q
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
