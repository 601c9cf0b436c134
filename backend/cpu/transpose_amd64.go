//go:build amd64 && !purego

package cpu

//go:generate go run gen_transpose.go

// The tile transposes of transpose_amd64.s (see gen_transpose.go): for t
// in [0, n), the tile of C source lines (line c at src + (t*C+c)*lds
// bytes) of R elements is written as R rows (row r at dst + r*ldd bytes)
// of C elements from column t*C on.

//go:noescape
func trans1AVX2(dst *byte, ldd int, src *byte, lds int, n int)

//go:noescape
func trans2AVX2(dst *byte, ldd int, src *byte, lds int, n int)

//go:noescape
func trans4AVX2(dst *byte, ldd int, src *byte, lds int, n int)

//go:noescape
func trans8AVX2(dst *byte, ldd int, src *byte, lds int, n int)

// tileKernel returns the tile transpose for elements of es bytes and its
// tile's rows and columns, or nil.
func tileKernel(es int) (k func(dst *byte, ldd int, src *byte, lds int, n int), rows, cols int) {
	if !haveAVX2 {
		return nil, 0, 0
	}
	switch es {
	case 1:
		return trans1AVX2, 16, 16
	case 2:
		return trans2AVX2, 8, 16
	case 4:
		return trans4AVX2, 8, 8
	case 8:
		return trans8AVX2, 4, 4
	}
	return nil, 0, 0
}
