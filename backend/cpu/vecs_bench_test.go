package cpu

import "testing"

// benchVecs times vecsKernel's row step over rows rows of l elements,
// stride apart: the loop of a reduction along the first axis (each
// worker takes a band of the columns and all the rows).
func benchVecs[T number | bool](b *testing.B, k redKind, c func(acc, x T) T, l, rows, stride int) {
	vecs := vecsKernel(k, func(acc, x []T) { vecWith(acc, x, c) })
	if vecs == nil {
		b.Skip("no vecs kernel")
	}
	x, acc := make([]T, rows*stride), make([]T, l)
	// Written, so that the pages are the input's own (pages never
	// written all map the one zero page, which the cache holds).
	xb := byteView(x)
	for i := range xb {
		xb[i] = byte(i & 1)
	}
	b.SetBytes(int64(len(x) * sizeOf[T]()))
	for b.Loop() {
		vecs(acc, x, rows, stride)
	}
}

// The 100×100×100 int8 and bool of bench/matrix's 3-d reductions along
// axis 0, and the halves of its 1000×1000 floats along axis 0.
func BenchmarkVecsMaxInt8(b *testing.B)    { benchVecs(b, kMax, maxInt[int8], 10000, 100, 10000) }
func BenchmarkVecsOrBool(b *testing.B)     { benchVecs(b, kOr, or, 10000, 100, 10000) }
func BenchmarkVecsSumF64(b *testing.B)     { benchVecs(b, kAdd, add[float64], 500, 1000, 1000) }
func BenchmarkVecsMaxF64(b *testing.B)     { benchVecs(b, kMax, maxFloat[float64], 500, 1000, 1000) }
func BenchmarkVecsSumF32(b *testing.B)     { benchVecs(b, kAdd, add[float32], 500, 1000, 1000) }
func BenchmarkVecsSumF64Cube(b *testing.B) { benchVecs(b, kAdd, add[float64], 10000, 100, 10000) }
