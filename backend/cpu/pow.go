package cpu

import (
	"math"
	"sync"

	"github.com/tensorsh/tensorsh/backend"
	"github.com/tensorsh/tensorsh/internal/pow"
)

// powF64 returns x**y: pow.Float64, correctly rounded for integer and
// half-integer y, math.Pow for the others.
func powF64(x, y float64) float64 { return pow.Float64(x, y) }

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
	if pow.HalfInteger(y) && math.Abs(y) <= 14.5 && !(f32 && libmAVX512) {
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
