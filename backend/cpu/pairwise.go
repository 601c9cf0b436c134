package cpu

// Pairwise summation, NumPy's order for float and complex sums.

import (
	"math"
)

// pairwise is NumPy's pairwise summation (loops_utils.h.src).
func pairwise[T float](a []T) T {
	if a32, ok := any(a).([]float32); ok {
		return any(pairwiseF32(a32)).(T)
	}
	if a64, ok := any(a).([]float64); ok {
		return any(pairwiseF64(a64)).(T)
	}
	return pairwiseBy(a, sum8Go[T])
}

// pairwiseF32 is pairwise for float32, with the blocks of 8
// accumulators vectorised (sum8F32), and no generic dispatch: it is the
// innermost loop of float32 sums.
func pairwiseF32(a []float32) float32 { return pairwiseBy(a, sum8F32) }

// pairwiseF64 is pairwise for float64, with the blocks of 8
// accumulators vectorised (pairLeafF64).
func pairwiseF64(a []float64) float64 { return pairwiseBy(a, pairLeafF64) }

// pairwiseBy is pairwise with leaf, NumPy's eight accumulators over the
// first len(a)&^7 of 8..128 elements (sum8Go's order).
func pairwiseBy[T float](a []T, leaf func([]T) T) T {
	n := len(a)
	switch {
	case n < 8:
		res := T(math.Copysign(0, -1))
		for _, v := range a {
			res += v
		}
		return res
	case n <= 128:
		res := leaf(a)
		for _, v := range a[n-n%8:] {
			res += v
		}
		return res
	}
	n2 := splitReal(n)
	return pairwiseBy(a[:n2], leaf) + pairwiseBy(a[n2:], leaf)
}

// cpairwise is NumPy's pairwise summation of complex numbers: four
// complex accumulators, blocks of up to 64 numbers.
func cpairwise[T complex64 | complex128](a []T) T {
	n := len(a)
	switch {
	case n < 4:
		res := T(complex(math.Copysign(0, -1), math.Copysign(0, -1)))
		for _, v := range a {
			res += v
		}
		return res
	case n <= 64:
		var r [4]T
		i := n - n%4
		var vec bool
		switch c := any(a).(type) {
		case []complex128:
			vec = cpairLeaf128(any(&r).(*[4]complex128), c[:i])
		case []complex64:
			vec = cpairLeaf64(any(&r).(*[4]complex64), c[:i])
		}
		if !vec {
			// complex128 sum(z) of 10^6 took 0.48 ms in this loop, 0.06 ms
			// for float64 with its vector leaf.
			copy(r[:], a[:4])
			for i = 4; i < n-n%4; i += 4 {
				r[0] += a[i]
				r[1] += a[i+1]
				r[2] += a[i+2]
				r[3] += a[i+3]
			}
		}
		res := (r[0] + r[1]) + (r[2] + r[3])
		for ; i < n; i++ {
			res += a[i]
		}
		return res
	}
	n2 := (n - n%8) / 2
	return cpairwise(a[:n2]) + cpairwise(a[n2:])
}
