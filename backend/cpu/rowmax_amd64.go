//go:build amd64 && !purego

package cpu

//go:noescape
func maxF64AVX2(a []float64) (m float64, nan bool)

// rowMaxF64 is rowMax of a float64 row, by vector maxima (maxF64AVX2)
// where the answer does not depend on their order: no NaN, and a nonzero
// maximum (equal nonzero floats have the same bits; of +0 and -0 rowMax
// keeps the first); rowMaxF64Go otherwise.
func rowMaxF64(x []float64) float64 {
	n := len(x) &^ 7
	if !haveAVX2 || n == 0 {
		return rowMaxF64Go(x)
	}
	m, nan := maxF64AVX2(x[:n])
	if nan {
		return rowMax(x)
	}
	for _, v := range x[n:] {
		if v != v {
			return rowMax(x)
		}
		if v > m {
			m = v
		}
	}
	if m == 0 {
		return rowMax(x)
	}
	return m
}
