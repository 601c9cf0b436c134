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
