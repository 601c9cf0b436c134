package cpu

import (
	"sync"
	"unsafe"

	"github.com/tensorsh/tensorsh/backend"
)

// Complex addition and subtraction are those of the parts, each rounded
// once: (a + bi) ± (c + di) = (a ± c) + (b ± d)i, which is what Go's
// complex64 and complex128 arithmetic and NumPy's loops compute
// (numpy/_core/src/umath/loops.c.src, @TYPE@_add and @TYPE@_subtract on
// the complex types: in1r + in2r and in1i + in2i). So the float loops
// (simd.go) compute them on the parts, a slice of twice the length, with
// the same bits as addL and subL, where the Go loops took several times
// as long (BenchmarkComplexParts, stop 52: 4096 complex64 added in 0.85
// µs rather than 5.0, compared (!=) in 2.7 µs rather than 6.4).
//
// Negation is that of the parts too: the float loop on them where the
// CPU has one (negPartsC64, negPartsC128).
//
// Equality is that of both parts and inequality that of either, both
// float comparisons (NaN unequal): the vector comparisons of the parts,
// then the pairs combined (cmpPartsC64, cmpPartsC128), where the CPU has
// them.

// parts64 is s as its float32 parts, real before imaginary.
func parts64(s []complex64) []float32 {
	return unsafe.Slice((*float32)(unsafe.Pointer(unsafe.SliceData(s))), 2*len(s))
}

// parts128 is s as its float64 parts, real before imaginary.
func parts128(s []complex128) []float64 {
	return unsafe.Slice((*float64)(unsafe.Pointer(unsafe.SliceData(s))), 2*len(s))
}

// partsC64 returns complex64 addition ('+') or subtraction ('-') on the
// parts.
func partsC64(op byte) func(d, a, b []complex64) {
	f := binaryF32(op)
	return func(d, a, b []complex64) {
		f(parts64(d), parts64(a[:len(d)]), parts64(b[:len(d)]))
	}
}

// partsC128 is partsC64 for complex128.
func partsC128(op byte) func(d, a, b []complex128) {
	f := binaryF64(op)
	return func(d, a, b []complex128) {
		f(parts128(d), parts128(a[:len(d)]), parts128(b[:len(d)]))
	}
}

// pairsBlock is how many complex values cmpParts compares a step: its
// parts' results (twice as many bools) fit in a small pooled array
// (pairsScratch; one on the stack would escape through pred).
const pairsBlock = 256

// combinePairs sets d[i] to t[2i] && t[2i+1] (both, for ==) or t[2i] ||
// t[2i+1] (for !=), reading each pair as one uint16: a bool is 0 or 1.
func combinePairs(d, t []bool, either bool) {
	w := unsafe.Slice((*uint16)(unsafe.Pointer(unsafe.SliceData(t))), len(t)/2)[:len(d)]
	if either {
		for i, v := range w {
			d[i] = v != 0
		}
		return
	}
	for i, v := range w {
		d[i] = v == 0x0101
	}
}

// pairsScratch holds cmpParts's arrays of the parts' results.
var pairsScratch = sync.Pool{New: func() any { return new([2 * pairsBlock]bool) }}

// cmpParts returns == (ne false) or != (ne true) of complex values on
// pred, the vector comparison of their parts (of a length that is a
// multiple of 8), finishing each block's last parts in Go.
func cmpParts[C complex64 | complex128, F float32 | float64](pred func(d []bool, a, b []F), parts func([]C) []F, ne bool) func(d []bool, a, b []C) {
	return func(d []bool, a, b []C) {
		a, b = a[:len(d)], b[:len(d)]
		t := pairsScratch.Get().(*[2 * pairsBlock]bool)
		for len(d) > 0 {
			n := min(len(d), pairsBlock)
			pa, pb, tt := parts(a[:n]), parts(b[:n]), t[:2*n]
			m := 2 * n &^ 7
			pred(tt[:m], pa[:m], pb[:m])
			for j := m; j < 2*n; j++ {
				tt[j] = (pa[j] != pb[j]) == ne
			}
			combinePairs(d[:n], tt, ne)
			d, a, b = d[n:], a[n:], b[n:]
		}
		pairsScratch.Put(t)
	}
}

// cmpPartsC64 returns the kernel of o (== or !=) on complex64 from the
// float32 vector comparisons, or nil where there are none.
func cmpPartsC64(o backend.Op) kfn {
	if pred := floatPred32(o); pred != nil {
		return bin(cmpParts(pred, parts64, o == backend.OpNe))
	}
	return nil
}

// cmpPartsC128 is cmpPartsC64 for complex128.
func cmpPartsC128(o backend.Op) kfn {
	if pred := floatPred64(o); pred != nil {
		return bin(cmpParts(pred, parts128, o == backend.OpNe))
	}
	return nil
}

// negParts returns complex negation on neg, the vector negation of the
// parts (of a length that is a multiple of 8), the last parts in Go.
func negParts[C complex64 | complex128, F float32 | float64](neg func(d, a []F), parts func([]C) []F) func(d, a []C) {
	return func(d, a []C) {
		pd, pa := parts(d), parts(a[:len(d)])
		m := len(pd) &^ 7
		neg(pd[:m], pa[:m])
		for i := m; i < len(pd); i++ {
			pd[i] = -pa[i]
		}
	}
}

// negPartsC64 returns the kernel of complex64 negation on the float32
// vector loop, or nil where there is none.
func negPartsC64() kfn {
	if f := floatUnary32(backend.OpNeg); f != nil {
		return un(negParts(f, parts64))
	}
	return nil
}

// negPartsC128 is negPartsC64 for complex128.
func negPartsC128() kfn {
	if f := floatUnary64(backend.OpNeg); f != nil {
		return un(negParts(f, parts128))
	}
	return nil
}
