package cpu

import (
	"math"
	"sync"
	"unsafe"

	"github.com/tensorsh/tensorsh/backend"
)

//go:generate go run gen_libm.go

// Vector loops of Go's math functions.
//
// exp, log, log1p, sin, cos, sigmoid, silu, exp2, expm1, arctan, tan,
// arcsin, arccos, log10, cosh, sinh, arctanh, log2, arcsinh and arccosh of
// float32 and float64 are Go's math.Exp, logF64 (math.Log), log1pF64,
// sinF64 and cosF64 (math.Log1p's, math.Sin's and math.Cos's algorithms
// with fused multiply-adds), sigmoid, x·sigmoid(x), exp2F64 and expm1F64
// (algorithms of their own, libm.go), atanF64 (math.Atan's algorithm
// with fused multiply-adds), tanF64 (math.Tan's
// algorithm with fused multiply-adds), asinF64 and acosF64 (algorithms
// of their own), log10F64 (math.Log10), coshF64 (math.Cosh), sinhF64
// (math.Sinh), atanhF64 (math.Atanh's with log1pF64), log2F64
// (Log(x)·(1/Ln2) near 1, math.Log2 elsewhere), asinhF64 and acoshF64
// (math.Asinh's and math.Acosh's with log1pF64) computed in float64 (and
// rounded once to float32), tanh of float64 is math.Tanh
// (float32 has tanhF32), x**y is powF64 (internal/pow: correctly rounded
// for integer and half-integer y, math.Pow for the others), and arctan2 is
// atan2F64 (math.Atan2's on atanF64). On amd64 with AVX2 and FMA, the loops of simd_libm_amd64.s
// (written by gen_libm.go) compute four lanes at a time with the same IEEE
// operations in the same order as the scalar code (Go's math package's on
// that CPU, or libm.go's own), so they give the same bits; a group of four
// with a lane that the scalar code treats apart (NaN, ±Inf, results that
// overflow or are subnormal, subnormal or negative arguments of log, |x|
// >= 2^29 for sin, cos and tan; for pow see powHead in gen_libm.go) is
// left to the scalar function. Where that lane lies
// outside the function's domain (libmDomain: log of a negative number,
// arcsin beyond 1, exp of -800, NaN), the next 1024 elements are patched
// instead (libmPatch): the vector loop computes them with each such
// argument replaced by one inside the domain, the places where the
// function is constant there (NaN, 0, ±1, ±Inf) take that constant, and
// the scalar function computes the rest. With AVX-512 (F, DQ, VL)
// the same bodies, translated by gen_libm.go, compute sixteen lanes at a
// time (two interleaved groups of eight, whose checks of their lanes
// test both groups' masks with one branch: mergeChecks in gen_libm.go),
// and a float32 kernel looks the
// float16 values up in a table of its own results (libmF16), as float16
// tensors are computed in float32. Tests check the bits against the scalar
// functions on every float32 input (TestLibmF32Exhaustive, opt-in:
// TENSORSH_EXHAUSTIVE=1), on every float16 value (TestLibmF16) and on
// random and special float64 inputs, each edge also in a group of its own
// (TestLibmVector), for the AVX2 and the AVX-512 loops.
//
// For float32, log2, log1p, expm1, arcsinh, arccosh and arctanh (and
// x ** 1.5, see constPowKernel) have shorter loops that do not replay the
// scalar code: they compute a float64 result within 2^9 float64 ULP of
// the exact value (through log's or exp's body: Log(x)/Ln2, Log(1 + x),
// Exp(x) - 1, log(|x| + √(x² + 1)), …), so that where its bits below
// float32's lie more than 2^10 ULP from the float32 rounding midpoint,
// the scalar result, within a few ULP of the exact value too, rounds to
// the same float32 (roundCheck32 in gen_libm.go: Ziv's rounding test).
// A group with a lane nearer the midpoint (about one in 2^18), or outside
// the range where the error bound holds, is left to the function's own
// loop (chained) or the scalar code. TestLibmF32Exhaustive checks them on
// every float32 input like the others.
//
// With AVX-512, float32 log, log2, log10, log1p, exp, exp2, expm1, cosh,
// sinh, tanh, arcsinh, arccosh, arctanh, sin, cos, tan, arctan, arcsin,
// arccos, arctan2, rsqrt and x**y first run loops that only AVX-512 has
// (funcs512 and binFuncs512 in gen_libm.go), built the same way on its
// own instructions: the logarithms split x as 2^k·m (VGETEXPPD, VGETMANTPD) and
// look 1/c and log2(c) up for the c nearest m in tables of sixteen held in
// two registers (VPERMI2PD), the exponentials split x as n + s/ln 2 with
// n a multiple of 1/16 and look 2^(n mod 1) up likewise, then scale by
// 2^floor(n) (VSCALEFPD); sin, cos and tan reduce by π/16 (three parts)
// and look up the sine and cosine of jπ/16; arctan2 looks up atan(c) for
// c near min(|x|, |y|)/max and takes atan((a - c·b)/(b + c·a)) (one
// division), arctan is arctan2 of x and 1 (without its tests of x:
// atanCore); arcsin and arccos evaluate asin's series in x² (degree 13)
// for |x| <= 1/2 and asin's half-angle form beyond; rsqrt refines
// VRSQRT14PD's estimate. Each then needs a polynomial of degree 5 to 13
// and no division (but cosh, sinh, tanh,
// tan, arctanh and the arctangents: one; arcsinh and arccosh take a
// square root, and arcsin and arccos beyond 1/2); x**y is 2^(y·log2 x)
// with log2 x in two parts. Their float64 results lie within 2^-45 of the exact value, and go
// through the same rounding test; the groups they leave go on to the
// function's loop above. They take about half the time of those loops
// (one ZMM instruction a cycle is what this generation of Xeon runs).
// The AVX-512 loops read a constant with one value in every lane as that
// value, broadcast, and their lookup tables from a copy aligned to 64
// bytes (broadcastConsts and alignTables in gen_libm.go): the linker
// aligns data to 32 bytes, and a 64-byte read across two cache lines made
// the loops 15–20% slower in some builds.

// libmRef returns the scalar function that defines the vector loop of o,
// or nil when o has none.
func libmRef(o backend.Op) func(float64) float64 {
	switch o {
	case backend.OpExp:
		return math.Exp
	case backend.OpLog:
		return logF64
	case backend.OpSin:
		return sinF64
	case backend.OpCos:
		return cosF64
	case backend.OpSigmoid:
		return sigmoid
	case backend.OpSilu:
		return silu
	case backend.OpLog1p:
		return log1pF64
	case backend.OpTanh:
		return math.Tanh
	case backend.OpExp2:
		return exp2F64
	case backend.OpAtan:
		return atanF64
	case backend.OpTan:
		return tanF64
	case backend.OpExpm1:
		return expm1F64
	case backend.OpAsin:
		return asinF64
	case backend.OpAcos:
		return acosF64
	case backend.OpLog10:
		return log10F64
	case backend.OpCosh:
		return coshF64
	case backend.OpSinh:
		return sinhF64
	case backend.OpAtanh:
		return atanhF64
	case backend.OpLog2:
		return log2F64
	case backend.OpAsinh:
		return asinhF64
	case backend.OpAcosh:
		return acoshF64
	}
	return nil
}

// libmDomain returns the domain of o's vector loops on T (libmLoop), or
// nil where o has none: the arguments their checks let through, as the
// bodies in gen_libm.go state them, narrowed to one interval that every
// loop of o computes (AVX2's and AVX-512's; a float32 loop passes the
// groups it leaves to the float64 one, chained), and where the result,
// rounded to T, is constant. A narrower interval only slows the
// arguments it leaves out.
func libmDomain[T float](o backend.Op) *domain {
	const max = math.MaxFloat64
	inf := math.Inf(1)
	below1 := math.Nextafter(1, 0)
	if _, f32 := any(T(0)).(float32); f32 && libmAVX512 {
		// The exponentials' own float32 loops (funcs512: expRange), and
		// where float32's results are 0, -1 or ±Inf.
		switch o {
		case backend.OpExp:
			return &domain{-87, 89, 0, -104, 89}
		case backend.OpExp2:
			return &domain{-126, 129, 0, -150, 128}
		case backend.OpExpm1:
			return &domain{-100, 89, 0.5, -100, 89}
		case backend.OpSinh, backend.OpCosh:
			return &domain{-100, 100, 0.5, -100, 100}
		}
	}
	switch o {
	case backend.OpExp:
		return &domain{-708, 709, 0, -750, 710} // round(x·log2(e)) in [-1022, 1023]; 0, +Inf
	case backend.OpExp2:
		return &domain{-1000, 1000, 0, -1080, 1025} // 0, +Inf
	case backend.OpExpm1:
		return &domain{expm1Lo, expm1Hi, 0.5, -50, 710} // -1 (from -38), +Inf
	case backend.OpSigmoid:
		return &domain{-708, 708, 0, -750, 750} // Exp(-x); 0, 1
	case backend.OpSilu:
		return &domain{-708, 708, 0, -750, inf} // -0 (x·0)
	case backend.OpSinh, backend.OpCosh:
		return &domain{-709, 709, 0.5, -711, 711} // ±Inf
	case backend.OpTanh:
		const m = 0.5 * 8.8029691931113054295988e+01 // MAXLOG/2: ±1 beyond
		return &domain{-m, m, 0.5, -m, m}
	case backend.OpSin, backend.OpCos, backend.OpTan:
		return &domain{-0x1p28, 0x1p28, 0.5, -inf, inf} // |x| < 2^29 (float32's AVX-512 loops: 2^20)
	case backend.OpAtan:
		return &domain{-inf, inf, 0.5, -inf, inf}
	case backend.OpAsin, backend.OpAcos, backend.OpAtanh:
		return &domain{-below1, below1, 0.5, -1, 1} // NaN
	case backend.OpLog, backend.OpLog10, backend.OpLog2:
		return &domain{0x1p-1022, max, 1.5, 0, inf} // positive normal numbers; NaN
	case backend.OpLog1p:
		return &domain{-below1, 0x1p53, 0.5, -1, inf} // NaN
	case backend.OpAsinh, backend.OpAcosh:
		return &domain{-max, max, 1.5, -inf, inf}
	}
	return nil
}

// silu returns x·sigmoid(x).
func silu(x float64) float64 { return x * sigmoid(x) }

// libmFused reports whether the scalar code of o is Go code with
// multiplies and adds that the compiler fuses (goFusesMulAdd), which the
// vector loops do not replay: tanh, exp2, expm1, tan, asin, acos and
// sinh (math.Exp is assembly; sigmoid, silu, pow, log10 and cosh add
// nothing to a product in Go; logF64, log1pF64, log2F64, sinF64, cosF64,
// atanF64, atan2F64, asinhF64, acoshF64 and atanhF64 round each step
// explicitly).
func libmFused(o backend.Op) bool {
	switch o {
	case backend.OpTanh, backend.OpExp2,
		backend.OpTan, backend.OpExpm1, backend.OpAsin, backend.OpAcos, backend.OpSinh:
		return goFusesMulAdd
	}
	return false
}

// libmKernel returns the vector kernel of o on T, or nil when o has none
// (or the CPU lacks AVX2 and FMA, or see libmFused).
func libmKernel[T float32 | float64](o backend.Op) kfn {
	switch o {
	case backend.OpPow, backend.OpAtan2:
		if v := binAsm[T](o); v != nil && !libmFused(o) {
			return bin(binLoop(v, libmRef2(o), o, pairDomainOf(o)))
		}
		return nil
	}
	f := libmRef(o)
	v := libmAsm[T](o)
	if f == nil || v == nil || libmFused(o) {
		return nil
	}
	return un(libmF16(o, libmLoop(v, f, libmDomain[T](o))))
}

// libmRef2 returns the scalar function of two operands that defines the
// vector loop of o: powF64 (math.Pow where y is not an integer) or
// atan2F64.
func libmRef2(o backend.Op) func(x, y float64) float64 {
	if o == backend.OpAtan2 {
		return atan2F64
	}
	return powF64
}

// libmLoop returns the loop d[i] = T(f(float64(a[i]))) that runs v, the
// vector loop of f (which computes groups of libmGroup elements), and
// computes the groups v leaves and the last elements with f. Where a
// group v leaves has an argument outside dom (nil: none), the next
// patchRun elements are patched (libmPatch) rather than left to f.
func libmLoop[T float32 | float64](v func(d, a []T) int, f func(float64) float64, dom *domain) func(d, a []T) {
	g := libmGroup()
	var loop func(d, a []T, dom *domain)
	loop = func(d, a []T, dom *domain) {
		a = a[:len(d)]
		n := len(d) &^ (g - 1)
		i := 0
		for {
			i += v(d[i:n], a[i:n])
			if i == n {
				break
			}
			j := min(i+g, n) // v may stop inside a group of g (log's AVX2 loop)
			if dom != nil && !inside(dom, a[i:j]) {
				j = min(i+patchRun, n)
				libmPatch(d[i:j], a[i:j], dom, f, func(d, a []T) { loop(d, a, nil) })
			} else {
				map64(d[i:j], a[i:j], f)
			}
			i = j
		}
		if lastGroup(len(d), n, disjoint(d, a)) {
			// The last elements as part of the last whole group, which
			// v computes again (the same bits: v's are f's).
			k := len(d) - g
			i += max(v(d[k:], a[k:])-(n-k), 0)
		}
		map64(d[i:], a[i:], f)
	}
	return func(d, a []T) { loop(d, a, dom) }
}

// A domain is the interval [lo, hi] of float64 arguments inside which
// the vector loops of a function compute every lane (but rarely, for
// reasons of their own such as a rounding test), and safe, an argument
// inside it; below flatLo the function is one constant (log's NaN, exp's
// 0), above flatHi another (-Inf and +Inf where it is not), for finite
// arguments (-Inf and +Inf go to the function: x ** 1.5 is NaN for x <
// 0, but +Inf at -Inf). NaN lies outside every interval.
type domain struct{ lo, hi, safe, flatLo, flatHi float64 }

// inside reports whether every element of a lies inside [m.lo, m.hi].
func inside[T float](m *domain, a []T) bool {
	for _, x := range a {
		if !(m.lo <= float64(x) && float64(x) <= m.hi) {
			return false
		}
	}
	return true
}

// patchRun is how many elements libmPatch takes at a time.
const patchRun = 1024

// patchScratch holds libmPatch's copy of its arguments, the arguments
// it leaves to the scalar function with their places, and the places
// below flatLo and above flatHi, a bit each.
type patchScratch[T float] struct {
	t, x         [patchRun]T
	at           [patchRun]int32
	below, above [patchRun / 8]byte
}

var patchPools [2]sync.Pool // *patchScratch[float32], *patchScratch[float64]

// scratch returns an S from pools (pools[0] for float32, pools[1] for
// float64), new if it holds none, and the pool to put it back in.
func scratch[S any, T float](pools *[2]sync.Pool) (*S, *sync.Pool) {
	p := &pools[1]
	if _, f32 := any(T(0)).(float32); f32 {
		p = &pools[0]
	}
	s, _ := p.Get().(*S)
	if s == nil {
		s = new(S)
	}
	return s, p
}

// patchBounds is a domain in T, as patchArgs reads it: each bound
// rounded to T toward the inside of its interval (lo up, flatLo down),
// and T's largest finite value, negated and not.
type patchBounds[T float] struct{ lo, hi, safe, flatLo, flatHi, negMax, max T }

// libmPatch computes d[i] = T(f(float64(a[i]))) for up to patchRun
// elements, some outside dom (log of negative numbers, arcsin beyond 1,
// NaN, exp whose result underflows), which would otherwise send their
// group to f whole: loop, the vector loop, computes a copy of a with
// every argument outside dom replaced by dom.safe; the places below
// dom.flatLo and above dom.flatHi take f's value there; f computes the
// other arguments outside dom. log of 10^6 float32 normal numbers, half
// of them negative, took 11 ms this way against NumPy's 0.65.
func libmPatch[T float](d, a []T, dom *domain, f func(float64) float64, loop func(d, a []T)) {
	s, pool := scratch[patchScratch[T], T](&patchPools)
	a = a[:len(d)]
	b := newPatchBounds[T](dom)
	m := (len(d) + 7) / 8
	t, x, at, below, above := s.t[:len(d)], s.x[:len(d)], s.at[:len(d)], s.below[:m], s.above[:m]
	n := patchArgs(t, x, at, below, above, a, &b) // before d is written: d and a may share their storage
	loop(d, t)
	if !math.IsInf(dom.flatLo, -1) {
		patchConst(d, below, T(f(dom.flatLo-1)))
	}
	if !math.IsInf(dom.flatHi, 1) {
		patchConst(d, above, T(f(dom.flatHi+1)))
	}
	x = x[:n]
	map64(x, x, f)
	for i, y := range x {
		d[at[i]] = y
	}
	pool.Put(s)
}

// newPatchBounds returns m's patchBounds in T.
func newPatchBounds[T float](m *domain) patchBounds[T] {
	mx := math.MaxFloat64
	if _, f32 := any(T(0)).(float32); f32 {
		mx = math.MaxFloat32
	}
	return patchBounds[T]{rounded[T](m.lo, 1), rounded[T](m.hi, -1), T(m.safe),
		rounded[T](m.flatLo, -1), rounded[T](m.flatHi, 1), T(-mx), T(mx)}
}

// rounded returns v rounded to T: to nearest, then a step up (dir 1) or
// down (-1) where that went the other way.
func rounded[T float](v float64, dir int) T {
	r := T(v)
	if _, f32 := any(r).(float32); f32 && float64(r) != v && (float64(r) < v) == (dir > 0) {
		return T(math.Nextafter32(float32(r), float32(dir)*float32(math.Inf(1))))
	}
	return r
}

// patchArgsGo is patchArgs in Go from a[i], with n arguments already
// left to f.
func patchArgsGo[T float](t, x []T, at []int32, below, above []byte, a []T, b *patchBounds[T], i, n int) int {
	clear(below[i/8:])
	clear(above[i/8:])
	for ; i < len(a); i++ {
		y := a[i]
		// Without branches: half the arguments outside [lo, hi], at
		// random, would mispredict one in two.
		x[n], at[n] = y, int32(i)
		out := 1 - bit(b.lo <= y)&bit(y <= b.hi)
		lo, hi := out&bit(y < b.flatLo)&bit(y >= b.negMax), out&bit(y > b.flatHi)&bit(y <= b.max)
		if out != 0 {
			y = b.safe
		}
		t[i] = y
		below[i/8] |= byte(lo << (i % 8))
		above[i/8] |= byte(hi << (i % 8))
		n += out &^ (lo | hi)
	}
	return n
}

// patchConstGo is patchConst in Go from d[i].
func patchConstGo[T float](d []T, m []byte, v T, i int) {
	for ; i < len(d); i++ {
		if m[i/8]>>(i%8)&1 != 0 {
			d[i] = v
		}
	}
}

// lastGroup reports whether the total-n last elements of a loop over
// total elements, n of which whole groups cover, are better computed as
// part of the last whole group, by the vector loop again: in calls of 1000
// elements, the 8 of each call left to the scalar function (and a buffer
// from the heap for them) doubled the time of float32 cosh. The vector
// loop writes the earlier elements of that group again, which it may only
// where the result and operands do not overlap.
func lastGroup(total, n int, noOverlap bool) bool {
	return total > n && n > 0 && noOverlap
}

// disjoint reports whether the storage of d shares no element with
// that of any of ops (all non-empty).
func disjoint[T any](d []T, ops ...[]T) bool {
	d0 := uintptr(unsafe.Pointer(unsafe.SliceData(d)))
	d1 := d0 + uintptr(len(d))*unsafe.Sizeof(d[0])
	for _, a := range ops {
		a0 := uintptr(unsafe.Pointer(unsafe.SliceData(a)))
		if a1 := a0 + uintptr(len(a))*unsafe.Sizeof(a[0]); a0 < d1 && d0 < a1 {
			return false
		}
	}
	return true
}

// binLoop returns the loop d[i] = T(f(float64(a[i]), float64(b[i])))
// that runs v, the vector loop of f (o's: backend.OpPow or
// backend.OpAtan2), and computes the groups v leaves and the last
// elements with f. Where a group v leaves has a pair outside the domain
// of v (dom), the next patchRun elements are patched
// (binPatch) rather than left to f.
func binLoop[T float32 | float64](v func(d, a, b []T) int, f func(x, y float64) float64, o backend.Op, dom *pairDomain) func(d, a, b []T) {
	g := libmGroup()
	var loop func(d, a, b []T, patch bool)
	loop = func(d, a, b []T, patch bool) {
		a, b = a[:len(d)], b[:len(d)]
		n := len(d) &^ (g - 1)
		i := 0
		for {
			i += v(d[i:n], a[i:n], b[i:n])
			if i == n {
				break
			}
			j := min(i+g, n)
			if patch && pairsIn(dom.in, a[i:j], b[i:j]) < j-i {
				j = min(i+patchRun, n)
				binPatch(d[i:j], a[i:j], b[i:j], o, dom, f, func(d, a, b []T) { loop(d, a, b, false) })
			} else {
				map64x2(d[i:j], a[i:j], b[i:j], f)
			}
			i = j
		}
		if lastGroup(len(d), n, disjoint(d, a, b)) {
			k := len(d) - g
			i += max(v(d[k:], a[k:], b[k:])-(n-k), 0)
		}
		map64x2(d[i:], a[i:], b[i:], f)
	}
	return func(d, a, b []T) { loop(d, a, b, true) }
}

// A pairDomain is the set of pairs (x, y) that the vector loops of a
// function of two operands take (but rarely, for reasons of their own):
// in reports 1 for them and 0 for the others; (sx, sy) is one of them.
type pairDomain struct {
	in     func(x, y float64) int
	sx, sy float64
}

var (
	powDomain   = &pairDomain{powIn, 1.5, 0.25}
	powhDomain  = &pairDomain{powhIn, 1.5, 1.5}
	atan2Domain = &pairDomain{atan2In, 1.5, 0.25}
)

// pairDomainOf returns the pairDomain of the loops of o (backend.OpPow or
// backend.OpAtan2).
func pairDomainOf(o backend.Op) *pairDomain {
	if o == backend.OpPow {
		return powDomain
	}
	return atan2Domain
}

// powIn is powDomain's test, x ** y (powHead in gen_libm.go): x in [2^-256,
// 2^256], y neither an integer nor an integer plus 1/2, and |y| < 15.5.
// Without branches: lanes outside at random would mispredict.
func powIn(x, y float64) int {
	yf := math.Abs(y) - math.Trunc(math.Abs(y))
	return bit(x >= 0x1p-256) & bit(x <= 0x1p256) & bit(math.Abs(y) < 15.5) & bit(yf != 0) & bit(yf != 0.5)
}

// powhIn is powhDomain's test, the loop of half-integer powers (powhBody in
// gen_libm.go): x in [2^-60, 2^60], y an integer plus 1/2, |y| <= 14.5.
func powhIn(x, y float64) int {
	yf := math.Abs(y) - math.Trunc(math.Abs(y))
	return bit(x >= 0x1p-60) & bit(x <= 0x1p60) & bit(math.Abs(y) <= 14.5) & bit(yf == 0.5)
}

// atan2In is atan2Domain's test, arctan2 (atan2Body): y and x normal numbers
// (finite, not 0), by their exponents.
func atan2In(x, y float64) int {
	ex, ey := math.Float64bits(x)>>52&0x7FF, math.Float64bits(y)>>52&0x7FF
	return bit(ex-1 < 0x7FE) & bit(ey-1 < 0x7FE)
}

// pairsIn returns how many pairs of a and b in takes.
func pairsIn[T float](in func(x, y float64) int, a, b []T) int {
	n := 0
	for i, x := range a {
		n += in(float64(x), float64(b[i]))
	}
	return n
}

// binScratch is patchScratch for two operands.
type binScratch[T float] struct {
	s, t, x, y [patchRun]T
	at         [patchRun]int32
}

var binPools [2]sync.Pool // *binScratch[float32], *binScratch[float64]

// binPatch is libmPatch for x ** y and arctan2: loop computes a copy of
// a and b with each pair outside dom replaced by (dom.sx, dom.sy), and
// f those pairs (but math.Pow's NaN of a negative x and math.Atan2 of a
// zero). x ** 0.3 of 10^6 float64,
// half of them negative, took 26 ms with their groups left to f whole
// (NumPy 16).
func binPatch[T float](d, a, b []T, o backend.Op, dom *pairDomain, f func(x, y float64) float64, loop func(d, a, b []T)) {
	sc, pool := scratch[binScratch[T], T](&binPools)
	a, b = a[:len(d)], b[:len(d)]
	s, t, x, y, at := sc.s[:len(d)], sc.t[:len(d)], sc.x[:len(d)], sc.y[:len(d)], sc.at[:len(d)]
	n, pow := 0, o == backend.OpPow
	sx, sy := math.Float64bits(dom.sx), math.Float64bits(dom.sy)
	for i, u := range a {
		w := b[i]
		x[n], y[n], at[n] = u, w, int32(i)
		in := dom.in(float64(u), float64(w))
		// (sx, sy) where out, without a branch: outside lanes at
		// random would mispredict one in two.
		m := uint64(in) - 1
		s[i] = T(math.Float64frombits(math.Float64bits(float64(u))&^m | sx&m))
		t[i] = T(math.Float64frombits(math.Float64bits(float64(w))&^m | sy&m))
		n += 1 - in
	}
	// d may share its storage with a or b: x and y hold what f needs.
	if n < len(d) {
		loop(d, s, t)
	}
	var nan T
	if pow {
		nan = T(f(-1.5, 0.25)) // math.Pow's NaN()
	}
	for i := range n {
		u, w := float64(x[i]), float64(y[i])
		if pow && u < 0 && u >= -math.MaxFloat64 && math.Abs(w) <= math.MaxFloat64 && w != math.Trunc(w) && math.Abs(w) != 0.5 {
			// math.Pow: NaN() for a finite x < 0 and a finite y no
			// integer (but ±0.5: Sqrt(x)'s NaN), without the calls.
			d[at[i]] = nan
			continue
		}
		if !pow && u == u && w == w && (u == 0 || w == 0) {
			// math.Atan2(y, x) of a zero: ±0 or ±Pi for y = 0 (Pi where
			// x < 0 or is -0), else ±Pi/2; y's sign.
			r := math.Copysign(math.Pi/2, u)
			if u == 0 {
				r = math.Copysign(0, u)
				if w < 0 || math.Signbit(w) {
					r = math.Copysign(math.Pi, u)
				}
			}
			d[at[i]] = T(r)
			continue
		}
		d[at[i]] = T(f(u, w))
	}
	pool.Put(sc)
}
