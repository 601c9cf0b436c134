package cpu

import (
	"math"
	"math/big"
	"sync"

	"github.com/tensorsh/tensorsh/backend"
)

// Float powers.
//
// Go's math.Pow raises to integer powers by repeated squaring in float64,
// rounding at every step, so x**3 can be an ULP away from the correctly
// rounded value that NumPy's pow (glibc) gives; to a half-integer power
// n + 1/2 it takes Exp(0.5·Log(x)) (1/Sqrt(x) for -1/2), two or three
// ULP from it (x**1.5 of 2·10^5 inputs: 36% not correctly rounded).
// powF64 instead raises to integer exponents in double-double arithmetic
// (about 100 bits) and rounds once, and to half-integer ones multiplies
// (or divides) that power by √x as a double-double, rounded once (within
// 2^-96 of a rounding midpoint, the exact power in big.Float decides:
// ddRound): the correctly rounded result. Exponent 0.5 is a square root
// (one rounding). Powers beyond double-double's range are computed
// exactly (powExact). Other exponents use math.Pow.

// powF64 returns x**y.
func powF64(x, y float64) float64 {
	switch {
	case y == 0.5 && x > 0 && !math.IsInf(x, 1):
		return math.Sqrt(x)
	case x == 0 || math.IsInf(x, 0) || math.IsNaN(x) || math.IsInf(y, 0) || math.IsNaN(y):
		return math.Pow(x, y)
	case halfInteger(y) && x > 0:
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

// halfInteger reports whether y is an integer plus one half (then |y| <
// 2^52).
func halfInteger(y float64) bool {
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

// constPowKernel returns the kernel of x**y for a constant integer y whose
// powF64 (double-double exponentiation, rounded once) has a short exact
// form, or nil:
//
//   - y = -1, any T: powF64 takes q = 1/x and returns q + r/x with the
//     exact remainder r = fma(-q, x, 1), for |x| in [2^-1000, 2^1000]
//     (for a float32 x that is q itself, the float32 quotient: see the
//     case);
//   - y = 1.5, float32 x: x·√x in float64, where it rounds as powF64
//     does (the loop checks each lane: see pow15Body in gen_libm.go);
//   - y = 4 and y = -2, float32 x: x*x is exact in float64 (48 bits), so
//     the double-double square is (x*x, 0); x**4 is then the product
//     (x*x)*(x*x) rounded once, as powF64 rounds the exact double-double
//     (96 bits) once, and x**-2 is 1/(x*x), the y = -1 form on x*x.
//
// Zero, infinite and NaN x (and float64 x outside the range) take powF64
// itself, so every element has powF64's bits; what changes is the time:
// x**4 and x**-1 on 10^6 float32 took 13-14 ms through powF64's loop.
func constPowKernel[T float](n *backend.Node) kfn {
	if n.Op != backend.OpPow {
		return nil
	}
	y, ok := constExponent(n)
	if !ok {
		return nil
	}
	_, f32 := any(T(0)).(float32)
	if k := constPowLoop[T](y); k != nil && !(y == -1 && f32) {
		return k
	}
	if halfInteger(y) && math.Abs(y) <= 14.5 && !(f32 && libmAVX512) {
		// The loop of half-integer powers, on the exponent's
		// constant block (float32 on AVX-512 has the general
		// loop, powtBody, which rounds as powF64).
		if k := powhLoop[T](); k != nil {
			return k
		}
	}
	var blk func(b []float64) // b[i] = x**y in place
	switch {
	case y == -1 && f32:
		// For a float32 x the correction never moves q: 1/x is a
		// 24-bit odd-part quotient, at least 2^-25 ULP of q from a
		// rounding midpoint, so r/x stays far below the half ULP it
		// would take (x**-2 likewise: x*x has 48 bits, 2^-49 ULP). And
		// float32(1/float64(x)) is the float32 quotient 1/x itself (a
		// division rounded to 53 bits and then to 24 rounds as if once,
		// 53 >= 2·24+2: Figueroa, "When is double rounding innocuous?",
		// 1995), so the kernel is reciprocal's, float32 division (eight
		// lanes a VDIVPS); zeros and infinities give powF64's ±Inf and
		// ±0, and NaN takes powF64 (its NaN, not x's payload).
		recip := &backend.Node{Op: backend.OpReciprocal}
		rk := firstKernel(func() kfn { return simdFloatKernel(recip, ctF32) },
			func() kfn { return floatKernel[float32](recip) })
		return bin(func(d, a, _ []T) {
			_ = rk(d, []any{a})
			if hasNaN32(any(a[:len(d)]).([]float32)) {
				for i, x := range a[:len(d)] {
					if x != x {
						d[i] = T(powF64(float64(x), y))
					}
				}
			}
		})
	case y == -1:
		blk = func(b []float64) {
			for i, x := range b {
				if a := math.Abs(x); !(a <= 0x1p1000 && a >= 0x1p-1000) {
					b[i] = powF64(x, y)
					continue
				}
				q := 1 / x
				b[i] = q + math.FMA(-q, x, 1)/x
			}
		}
	case y == 4 && f32:
		blk = func(b []float64) {
			for i, x := range b {
				if !finiteNonzero(x) {
					b[i] = powF64(x, y)
					continue
				}
				x2 := x * x
				b[i] = x2 * x2
			}
		}
	case y == -2 && f32:
		blk = func(b []float64) {
			for i, x := range b {
				if !finiteNonzero(x) {
					b[i] = powF64(x, y)
					continue
				}
				b[i] = 1 / (x * x)
			}
		}
	default:
		return nil
	}
	return bin(func(d, a, _ []T) { mapBlocks64(d, a, blk) })
}

// constPowLoop returns the kernel of x ** y that runs the vector loop of
// constPowAsm (y = 4, -2 and 1.5 on float32, -1, 1.5 and -0.5 on
// float64: the forms below, x·√x in float64 checked to round as powF64
// does, and double-double forms; see their bodies in gen_libm.go), or
// nil; the lanes the loop leaves take powF64.
func constPowLoop[T float](y float64) kfn {
	f := func(x float64) float64 { return powF64(x, y) }
	switch any(T(0)).(type) {
	case float32:
		if v := constPowAsm[float32](y); v != nil {
			var dom *domain
			if y == 1.5 {
				// The range of x·√x's loop (pow15Body); NaN below 0.
				dom = &domain{0x1p-84, math.MaxFloat64, 1, 0, math.Inf(1)}
			}
			loop := libmLoop(v, f, dom)
			return bin(func(d, a, _ []T) { loop(any(d).([]float32), any(a).([]float32)) })
		}
	case float64:
		if v := constPowAsm[float64](y); v != nil {
			var dom *domain
			switch y {
			case 1.5: // pow15dBody's range; NaN below 0
				dom = &domain{0x1p-600, 0x1p600, 1, 0, math.Inf(1)}
			case -0.5: // powmhBody's
				dom = &domain{0x1p-1000, 0x1p1000, 1, 0, math.Inf(1)}
			}
			loop := libmLoop(v, f, dom)
			return bin(func(d, a, _ []T) { loop(any(d).([]float64), any(a).([]float64)) })
		}
	}
	return nil
}

// powhLoop returns the kernel of x ** y for a half-integer constant y
// that runs the loop of powhAsm, or nil; the pairs the loop leaves take
// powF64.
func powhLoop[T float]() kfn {
	switch any(T(0)).(type) {
	case float32:
		if v := powhAsm[float32](); v != nil {
			loop := binLoop(v, powF64, backend.OpPow, powhDomain)
			return bin(func(d, a, b []T) { loop(any(d).([]float32), any(a).([]float32), any(b).([]float32)) })
		}
	case float64:
		if v := powhAsm[float64](); v != nil {
			loop := binLoop(v, powF64, backend.OpPow, powhDomain)
			return bin(func(d, a, b []T) { loop(any(d).([]float64), any(a).([]float64), any(b).([]float64)) })
		}
	}
	return nil
}

// hasNaN32Go reports whether some element of a is NaN, without a branch
// an element: (bits &^ sign) + 0x7fffff reaches bit 31 exactly when the
// bits lie above +Inf's.
func hasNaN32Go(a []float32) bool {
	const abs, lift = 0x7fffffff, 0x7fffff
	var m0, m1, m2, m3 uint32 // four chains: one would wait on each OR
	n := len(a) &^ 3
	for i := 0; i < n; i += 4 {
		b := a[i : i+4 : i+4]
		m0 |= math.Float32bits(b[0])&abs + lift
		m1 |= math.Float32bits(b[1])&abs + lift
		m2 |= math.Float32bits(b[2])&abs + lift
		m3 |= math.Float32bits(b[3])&abs + lift
	}
	for _, x := range a[n:] {
		m0 |= math.Float32bits(x)&abs + lift
	}
	return (m0|m1|m2|m3)>>31 != 0
}

// finiteNonzero reports whether x is neither 0, infinite nor NaN.
func finiteNonzero(x float64) bool {
	a := math.Abs(x)
	return a > 0 && a <= math.MaxFloat64
}

// f64Runs holds mapBlocks64's buffers.
var f64Runs = sync.Pool{New: func() any { return new([f64Run]float64) }}

// mapBlocks64 sets d[i] = T(v[i]) where blk turns v[i] = float64(a[i])
// into its result in place: float64 elements in d itself, float32 ones
// through a float64 buffer (see map64).
func mapBlocks64[T float](d, a []T, blk func(b []float64)) {
	a = a[:len(d)]
	if len(d) == 0 {
		return
	}
	if d64, ok := any(d).([]float64); ok {
		copy(d64, any(a).([]float64))
		blk(d64)
		return
	}
	// The buffer escapes to blk, so a fresh one would come from the heap
	// at every call (2 KiB for the few last elements of a vector loop's
	// chunk): a pooled one.
	buf := f64Runs.Get().(*[f64Run]float64)
	defer f64Runs.Put(buf)
	for len(d) > 0 {
		n := min(len(d), f64Run)
		b := buf[:n]
		for i := range b {
			b[i] = float64(a[i])
		}
		blk(b)
		for i, x := range b {
			d[i] = T(x)
		}
		d, a = d[n:], a[n:]
	}
}
