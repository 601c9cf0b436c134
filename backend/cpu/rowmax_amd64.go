//go:build amd64 && !purego

package cpu

//go:noescape
func maxF64AVX2(a []float64) (m float64, nan bool)

// rowMaxF64 is rowMax of a float64 row by vector maxima (maxF64AVX2,
// rowmax_amd64.s) where the answer does not depend on their order (see
// rowMaxVec); rowMaxF64Go without AVX2.
func rowMaxF64(x []float64) float64 { return rowMaxVec(x, maxF64AVX2, rowMaxF64Go) }
