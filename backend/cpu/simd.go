package cpu

import "math"

//go:generate go run gen_simd.go

// Vector kernels.
//
// The hot loops of float32 and float64 evaluation have two implementations:
// the Go loops in this file, which define their results, and AVX2+FMA
// assembly on amd64 (simd_amd64.s, simd_binary_amd64.s; AVX-512 for
// division) used when the CPU has those instructions. The assembly does the same IEEE operations in
// the same order, so both give the same bits; tests check this on random
// and special inputs. Build with the purego tag to use the Go loops only.

// Constants of the exponential: ln 2 split in two (fdlibm's ln2_hi has
// all 53 bits here, the FMAs make k·ln2Hi exact).
const (
	log2e = 1.4426950408889634      // 1/ln 2
	ln2Hi = 6.93147180559945286e-01 // 0x3FE62E42FEFA39EF
	ln2Lo = 2.319046813846299558e-17
)

// expCore returns e^x for x in [-708, 709] (or NaN): x = k·ln 2 + r with
// |r| <= ln2/2, e^r = 1 + r·expPoly(r), then scaled by 2^k (a normal
// float64 for these k: the product is exact). The result is within 2 ULP
// of e^x (tests check it against a 160-bit reference).
func expCore(x float64) float64 {
	// k = x·log2e rounded to an integer (to even on ties, as roundMagic
	// is even), and kt, whose low mantissa bits hold k, gives 2^k by a
	// shift. float64() keeps the compiler from fusing the multiply and
	// the add.
	kt := float64(x*log2e) + roundMagic
	k := kt - roundMagic
	r := math.FMA(-k, ln2Hi, x)
	r = math.FMA(-k, ln2Lo, r)
	e := math.FMA(expPoly(r), r, 1)
	return e * math.Float64frombits(math.Float64bits(kt)<<52+math.Float64bits(1))
}

// roundMagic is 1.5·2^52: adding it to a float64 of magnitude below
// 2^51 rounds it to an integer k and leaves k in the low bits.
const roundMagic = 0x1.8p52

// expm1Coef are the coefficients of T(r) ≈ (e^r - 1 - r)/r^2 on
// |r| <= ln2/2, degree 9: a near-minimax (Chebyshev) fit made with mpmath,
// within 2^-54.5 of e^r - 1 - r once multiplied by r^2 (Taylor's
// polynomial needs degree 11 for that).
var expm1Coef = [...]float64{
	0x1.0000000000001p-1,
	0x1.5555555555556p-3,
	0x1.5555555553d68p-5,
	0x1.11111111109b5p-7,
	0x1.6c16c17889f40p-10,
	0x1.a01a01a7c2f2ep-13,
	0x1.a019b9148739fp-16,
	0x1.71de0db2eafc6p-19,
	0x1.28917ca046b86p-22,
	0x1.af389eeb9e5e9p-26,
}

// expm1Core returns e^y - 1 for y in [0, 40]: y = k·ln 2 + r as in
// expCore, p = expPoly(r) = 1 + r·T(r) (so that r·p = e^r - 1 to full relative
// precision: no 1 is added, nothing cancels for small y), then
// e^y - 1 = p·(r·2^k) + (2^k - 1) in one FMA (r·2^k is exact).
func expm1Core(y float64) float64 {
	kt := float64(y*log2e) + roundMagic // as in expCore
	k := kt - roundMagic
	r := math.FMA(-k, ln2Hi, y)
	r = math.FMA(-k, ln2Lo, r)
	p := expPoly(r)
	s := math.Float64frombits(math.Float64bits(kt)<<52 + math.Float64bits(1)) // 2^k
	return math.FMA(p, r*s, s-1)
}

// expPoly returns 1 + r·T(r) (with T of expm1Coef), so that e^r = 1 +
// r·expPoly(r) and e^r - 1 = r·expPoly(r), for |r| <= ln2/2. T is
// evaluated by Estrin's scheme (pairs, then r^2, r^4, r^8): the kernels
// are bound by the number and latency of these operations; the largest
// term, 1, is added last so that the error of T is scaled down by r.
func expPoly(r float64) float64 {
	c := &expm1Coef
	r2 := r * r
	p0 := math.FMA(c[1], r, c[0])
	p1 := math.FMA(c[3], r, c[2])
	p2 := math.FMA(c[5], r, c[4])
	p3 := math.FMA(c[7], r, c[6])
	p4 := math.FMA(c[9], r, c[8])
	q0 := math.FMA(p1, r2, p0)
	q1 := math.FMA(p3, r2, p2)
	r4 := r2 * r2
	q0 = math.FMA(q1, r4, q0)
	r8 := r4 * r4
	t := math.FMA(p4, r8, q0)
	return math.FMA(t, r, 1)
}

// tanh64 returns tanh x in float64 to within a few ULP (tests check 4
// against a 160-bit reference), so that rounding it to float32 gives the
// correctly rounded float32 tanh except when the exact value lies within
// about 2^-26 float32 ULP of a rounding boundary:
//
//	tanh |x| = em / (em + 2), em = e^(2·min(|x|, 20)) - 1
//
// with the sign of x put back (so tanh(-0) = -0, tanh(±inf) = ±1, and
// NaN stays NaN). One formula for every x: no branch in the vector loop.
func tanh64(x float64) float64 {
	ax := math.Abs(x)
	em := expm1Core(2 * math.Min(ax, 20))
	t := em / (em + 2)
	return math.Float64frombits(math.Float64bits(t) | math.Float64bits(x)&(1<<63))
}

// tanhF32Go is the reference of tanhF32.
func tanhF32Go(d, a []float32) {
	a = a[:len(d)]
	for i, x := range a {
		d[i] = float32(tanh64(float64(x)))
	}
}

// expSumF32Go is the reference of expSumF32: d[i] = e^(a[i] - m) for
// float32 a and float64 m (the exponent clamped to [-708, 709]: e^-708
// rounds to 0 in float32 and every narrower format, so nothing changes
// below), and returns the sum of d: d[i] goes to accumulator i mod 8 for
// the first len(d) - len(d)%8 elements; the accumulators are added as
// ((s0+s1)+(s2+s3))+((s4+s5)+(s6+s7)), then the rest one by one.
func expSumF32Go(d []float64, a []float32, m float64) float64 {
	a = a[:len(d)]
	for i, x := range a {
		d[i] = expCore(clampExp(float64(x) - m))
	}
	return sum8F64(d)
}

// sum8F64 adds x with eight interleaved accumulators (see expSumF32Go).
func sum8F64(x []float64) float64 {
	var s [8]float64
	n8 := len(x) - len(x)%8
	for i := 0; i < n8; i += 8 {
		s[0] += x[i]
		s[1] += x[i+1]
		s[2] += x[i+2]
		s[3] += x[i+3]
		s[4] += x[i+4]
		s[5] += x[i+5]
		s[6] += x[i+6]
		s[7] += x[i+7]
	}
	t := ((s[0] + s[1]) + (s[2] + s[3])) + ((s[4] + s[5]) + (s[6] + s[7]))
	for _, v := range x[n8:] {
		t += v
	}
	return t
}

// divF32Go is the reference of divToF32: d[i] = float32(a[i] / s).
func divToF32Go(d []float32, a []float64, s float64) {
	a = a[:len(d)]
	for i, x := range a {
		d[i] = float32(x / s)
	}
}

// cvtI8F32Go is the reference of cvtI8F32 (exact).
func cvtI8F32Go(d []float32, a []int8) {
	a = a[:len(d)]
	for i, x := range a {
		d[i] = float32(x)
	}
}

// sum8Go is the inner block of NumPy's pairwise sum for 8 <= len(a)
// (see pairwise): accumulators r[0..7] start at a[0..7], r[j] += a[i+j]
// for each further full group of 8, and the result is
// ((r0+r1)+(r2+r3))+((r4+r5)+(r6+r7)). The last len(a)%8 elements are
// left to the caller.
func sum8Go[T float](a []T) T {
	var r [8]T
	copy(r[:], a[:8])
	n := len(a) - len(a)%8
	for i := 8; i < n; i += 8 {
		r[0] += a[i]
		r[1] += a[i+1]
		r[2] += a[i+2]
		r[3] += a[i+3]
		r[4] += a[i+4]
		r[5] += a[i+5]
		r[6] += a[i+6]
		r[7] += a[i+7]
	}
	return ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]))
}

// sum8F32Go is the reference of sum8F32.
func sum8F32Go(a []float32) float32 { return sum8Go(a) }

// binaryF32Go returns the Go loop of a float32 operation (+ - * /).
func binaryF32Go(op byte) func(d, a, b []float32) { return binaryGo[float32](op) }

// binaryF64Go returns the Go loop of a float64 operation (+ - * /).
func binaryF64Go(op byte) func(d, a, b []float64) { return binaryGo[float64](op) }

func binaryGo[T float](op byte) func(d, a, b []T) {
	switch op {
	case '+':
		return addL[T]
	case '-':
		return subL[T]
	case '*':
		return mulL[T]
	}
	return func(d, a, b []T) {
		a, b = a[:len(d)], b[:len(d)]
		for i := range d {
			d[i] = a[i] / b[i]
		}
	}
}
