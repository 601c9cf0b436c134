//go:build amd64 && !purego

package cpu

import "unsafe"

//go:noescape
func patchArgsF32AVX512(t, x []float32, at []int32, below, above []byte, a []float32, b *float32) int

//go:noescape
func patchArgsF64AVX512(t, x []float64, at []int32, below, above []byte, a []float64, b *float64) int

//go:noescape
func patchConstF32AVX512(d []float32, m []byte, v float32)

//go:noescape
func patchConstF64AVX512(d []float64, m []byte, v float64)

// patchArgs is libmPatch's partition (patchArgsGo) with AVX-512 on the
// whole vectors of a, the last elements in Go.
func patchArgs[T float](t, x []T, at []int32, below, above []byte, a []T, b *patchBounds[T]) int {
	if !haveAVX512DQVL {
		return patchArgsGo(t, x, at, below, above, a, b, 0, 0)
	}
	var n, w int
	switch a := any(a).(type) {
	case []float32:
		w = len(a) &^ 15
		n = patchArgsF32AVX512(any(t).([]float32), any(x).([]float32), at, below, above, a[:w], (*float32)(unsafe.Pointer(b)))
	case []float64:
		w = len(a) &^ 7
		n = patchArgsF64AVX512(any(t).([]float64), any(x).([]float64), at, below, above, a[:w], (*float64)(unsafe.Pointer(b)))
	}
	return patchArgsGo(t, x, at, below, above, a, b, w, n)
}

// patchConst sets d[i] = v where bit i of m is set.
func patchConst[T float](d []T, m []byte, v T) {
	if !haveAVX512DQVL {
		patchConstGo(d, m, v, 0)
		return
	}
	var w int
	switch d := any(d).(type) {
	case []float32:
		w = len(d) &^ 15
		patchConstF32AVX512(d[:w], m, float32(v))
	case []float64:
		w = len(d) &^ 7
		patchConstF64AVX512(d[:w], m, float64(v))
	}
	patchConstGo(d, m, v, w)
}
