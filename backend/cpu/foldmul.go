package cpu

import (
	"math"
	"sync"
	"unsafe"
)

// A product fold, acc·x[0]·x[1]·… rounded after every step, is one long
// dependency chain; where the accumulator is subnormal, every step of it
// takes a microcode assist on x86 (about 150 cycles on the Xeon guest
// rather than 4). A product of numbers in [0.5, 1.5) sinks to the least
// subnormal and stays there, since each step rounds it back up: NumPy's
// prod of 10^6 such float64 took 55 ms, this fold's plain loop 60 ms.
//
// foldMul64 and foldMul32 give the plain loop's bits and take the
// subnormal steps in a scaled form: the accumulator's magnitude times
// 2^1074 (float64) or 2^149 (float32) is an integer below 2^52 (2^23),
// and a step whose product stays below that bound is that integer times
// |x| rounded to an integer, ties to even, as IEEE rounds a subnormal
// result to its grid (an FMA with 2^52 added rounds once). A product at
// or above the bound is a normal number, rounded as the scaled product
// rounds; the fold then goes back to the plain loop. A NaN step is the
// plain product, for its payload. TestFoldMul checks the bits against
// foldWith(acc, x, mul) on products that cross the subnormal range both
// ways, stay in it, reach zero, infinity and NaN.
//
// Not every CPU takes an assist: on an AMD EPYC guest (Zen 5) NumPy's prod
// of 10^6 float32 in [0.5, 1.5) took 1.2 ms, this fold's scaled steps 7.4
// ms. So foldMul takes the scaled steps only where they measured faster
// than the plain ones (see scaleSubnormals); the bits are the same.

// foldMul is foldWith(acc, x, mul[T]), subnormal steps scaled where
// that is faster.
func foldMul[T float](acc T, x []T) T {
	switch x := any(x).(type) {
	case []float64:
		return T(foldMulT(float64(acc), x, scaleSubnormals()))
	case []float32:
		return T(foldMulT(float32(acc), x, scaleSubnormals()))
	}
	return foldWith(acc, x, mul[T])
}

// foldMul64 is foldWith(acc, x, mul[float64]), subnormal steps scaled.
func foldMul64(acc float64, x []float64) float64 { return foldMulT(acc, x, true) }

// foldMul32 is foldWith(acc, x, mul[float32]), subnormal steps scaled.
func foldMul32(acc float32, x []float32) float32 { return foldMulT(acc, x, true) }

// foldMulT is foldWith(acc, x, mul[T]), subnormal steps scaled if scaled.
func foldMulT[T float32 | float64](acc T, x []T, scaled bool) T {
	least := leastSubnormal[T]()
	for len(x) > 0 {
		if a := math.Abs(float64(acc)); a == 0 || a == least || math.IsInf(a, 0) {
			// A stuck accumulator (see stuckRun): the run of factors
			// that keep it, by a scan, then the factor that ends the
			// run, plain. Where the run is empty, the steps below
			// (eight at least, or the scaled ones) come before the next
			// scan.
			if r, rest := skipStuck(acc, x); len(rest) < len(x) {
				acc, x = r, rest
				if len(x) > 0 {
					acc *= x[0]
					x = x[1:]
				}
				continue
			}
		}
		if scaled && subnormal(acc) {
			acc, x = subnormalSteps(acc, x)
			continue
		}
		// Plain products, eight between checks (a zero accumulator
		// stays zero, or becomes NaN: plain too).
		if len(x) >= 8 {
			b := x[:8:8]
			acc = acc * b[0] * b[1] * b[2] * b[3] * b[4] * b[5] * b[6] * b[7]
			x = x[8:]
			continue
		}
		acc *= x[0]
		x = x[1:]
	}
	return acc
}

// subnormal reports whether x is a subnormal number of its type.
func subnormal[T float32 | float64](x T) bool {
	a, least := math.Abs(float64(x)), 0x1p-1022
	if unsafe.Sizeof(x) == 4 {
		least = 0x1p-126
	}
	return a < least && a != 0
}

// subnormalSteps is subnormalSteps64 or subnormalSteps32.
func subnormalSteps[T float32 | float64](acc T, x []T) (T, []T) {
	if x64, ok := any(x).([]float64); ok {
		r, rest := subnormalSteps64(float64(acc), x64)
		return T(r), any(rest).([]T)
	}
	r, rest := subnormalSteps32(float32(acc), any(x).([]float32))
	return T(r), any(rest).([]T)
}

// subnormalSteps64 folds the elements of x into a subnormal acc, scaled,
// up to the first whose product is not subnormal (or is zero): it
// returns that product and the elements after it.
func subnormalSteps64(acc float64, x []float64) (float64, []float64) {
	a := acc * 0x1p600 * 0x1p474 // an integer below 2^52
	for i, v := range x {
		if !(math.Abs(v) < 0x1p900) {
			// NaN, an infinity or a factor whose scaled product
			// could overflow: the plain product, once.
			return a * 0x1p-600 * 0x1p-474 * v, x[i+1:]
		}
		p := a * v
		if math.Abs(p) >= 0x1p52 {
			return p * 0x1p-600 * 0x1p-474, x[i+1:] // normal: exact
		}
		a = math.Copysign(math.FMA(math.Abs(a), math.Abs(v), 0x1p52)-0x1p52, p)
		if a == 0 {
			return a, x[i+1:] // a signed zero
		}
	}
	return a * 0x1p-600 * 0x1p-474, nil
}

// subnormalSteps32 is subnormalSteps64 for float32: the scaled
// accumulator is an integer below 2^23, and its product by a float32 is
// exact in float64.
func subnormalSteps32(acc float32, x []float32) (float32, []float32) {
	a := float64(acc) * 0x1p149
	for i, v := range x {
		q := a * float64(v)
		if q != q {
			return float32(a*0x1p-149) * v, x[i+1:] // NaN: the plain product's
		}
		if math.Abs(q) >= 0x1p23 {
			return float32(q * 0x1p-149), x[i+1:] // normal or infinite: rounded once
		}
		a = math.Copysign((math.Abs(q)+0x1p52)-0x1p52, q)
		if a == 0 {
			return float32(a), x[i+1:]
		}
	}
	return float32(a * 0x1p-149), nil
}

// scaleSubnormals reports whether subnormal steps taken scaled
// (subnormalSteps64) measured faster than plain products on this CPU:
// the best of five runs each over 1024 factors near 1 that keep a
// subnormal accumulator subnormal (about 0.3 ms where the plain steps
// take assists, measured once). On the Xeon guest the scaled steps were
// about 12 times as fast; on the AMD EPYC guest (Zen 5) 5 times slower.
var scaleSubnormals = sync.OnceValue(func() bool {
	x := make([]float64, 1024)
	for i := range x {
		x[i] = 1 + float64(i%3-1)*0x1p-20
	}
	const acc = 0x1p-1060
	var p, s float64
	plain := bestTime(5, func() { p = foldMulT(acc, x, false) })
	scaled := bestTime(5, func() { s, _ = subnormalSteps64(acc, x) })
	return scaled < plain && p == s // the same product either way
})

// Stuck accumulators. Three magnitudes of the accumulator stay what they
// are over long runs of factors, and a run is found by a scan of the
// factors' bits rather than a chain of products, one rounding each (4
// cycles of latency a factor): zero times a finite factor is zero;
// infinity times a factor that is neither zero nor NaN is infinity; and
// the least subnormal m times a factor of magnitude in (1/2, 3/2) is m
// again, as |x|·m rounds to the grid of m, ties to even (1/2 to 0, 3/2 to
// 2m). A product of numbers in [0.5, 1.5) sinks to m and stays there
// (NumPy's prod of 10^6 of them, the benchmark matrix's, takes one
// multiplication after another: 1.2-1.5 ms on the AMD EPYC guest, this
// fold 1.5-1.6 ms before stop 52; 0.46-0.57 with the scan in Go, float32
// and float64 alike; 0.13 ms (float64) and 0.06 ms (float32) with the
// scan in AVX2, stuckscan_amd64.s); a product of numbers in [0, 1) sinks
// to zero. Each step's sign is the product of the signs, so the run's is
// the parity of its factors' sign bits. The bits are the plain loop's
// (TestFoldMul, TestFoldMulStuck).

// leastSubnormal returns the least positive subnormal T, as a float64.
func leastSubnormal[T float32 | float64]() float64 {
	if unsafe.Sizeof(T(0)) == 4 {
		return float64(math.Float32frombits(1))
	}
	return math.Float64frombits(1)
}

// skipStuck folds into acc, stuck at zero, infinity or the least
// subnormal (in magnitude), the factors of the run that keeps it there,
// and returns it and the factors after the run.
func skipStuck[T float32 | float64](acc T, x []T) (T, []T) {
	var n int
	var neg bool
	switch xs := any(x).(type) {
	case []float64:
		a := math.Float64bits(float64(acc)) &^ (1 << 63)
		base, span := stuckBits(uint64(a), 0x7ff0000000000000, math.Float64bits(0.5), math.Float64bits(1.5))
		w := unsafe.Slice((*uint64)(unsafe.Pointer(unsafe.SliceData(xs))), len(xs))
		var s uint64
		n, s = stuckScan64(w, base, span)
		neg = s>>63 != 0
	case []float32:
		a := math.Float32bits(float32(acc)) &^ (1 << 31)
		base, span := stuckBits(uint32(a), 0x7f800000, math.Float32bits(0.5), math.Float32bits(1.5))
		w := unsafe.Slice((*uint32)(unsafe.Pointer(unsafe.SliceData(xs))), len(xs))
		var s uint32
		n, s = stuckScan32(w, base, span)
		neg = s>>31 != 0
	}
	if neg {
		acc = -acc
	}
	return acc, x[n:]
}

// stuckBits returns the run condition of a stuck accumulator whose
// magnitude has the bits a (0, inf or 1: the least subnormal): a factor
// whose magnitude bits f satisfy f - base < span (unsigned) keeps it.
// Magnitudes order as their bits, so each condition is one range: finite
// factors (f < inf) for zero; nonzero ones up to infinity (1 <= f <=
// inf) for infinity; (1/2, 3/2) for the least subnormal.
func stuckBits[U uint32 | uint64](a, inf, half, threeHalves U) (base, span U) {
	switch a {
	case 0:
		return 0, inf
	case inf:
		return 1, inf
	}
	return half + 1, threeHalves - half - 1
}

// stuckRun returns the length of the run of words w[0], w[1], … whose
// magnitude bits (w & abs) satisfy the condition of stuckBits, and the
// XOR of their words (whose top bit is the parity of their signs).
func stuckRun[U uint32 | uint64](w []U, base, span, abs U) (int, U) {
	var s, s2 U
	i := 0
	for ; i+8 <= len(w); i += 8 {
		g := w[i : i+8 : i+8]
		m0 := max(g[0]&abs-base, g[1]&abs-base)
		m1 := max(g[2]&abs-base, g[3]&abs-base)
		m2 := max(g[4]&abs-base, g[5]&abs-base)
		m3 := max(g[6]&abs-base, g[7]&abs-base)
		if max(max(m0, m1), max(m2, m3)) >= span {
			break
		}
		s ^= g[0] ^ g[1] ^ g[2] ^ g[3]
		s2 ^= g[4] ^ g[5] ^ g[6] ^ g[7]
	}
	s ^= s2
	for ; i < len(w) && w[i]&abs-base < span; i++ {
		s ^= w[i]
	}
	return i, s
}
