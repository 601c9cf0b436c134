//go:build !amd64 || purego

package cpu

const haveAVX2 = false

func binaryF32(op byte) func(d, a, b []float32) { return binaryF32Go(op) }

func binaryF64(op byte) func(d, a, b []float64) { return binaryF64Go(op) }

func tanhF32(d, a []float32) { tanhF32Go(d, a) }

func expSumF32(d []float64, a []float32, m float64) float64 { return expSumF32Go(d, a, m) }

func divToF32(d []float32, a []float64, s float64) { divToF32Go(d, a, s) }

func cvtI8F32(d []float32, a []int8) { cvtI8F32Go(d, a) }

func sum8F32(a []float32) float32 { return sum8F32Go(a) }

func rowMaxF32(x []float32) float32 { return rowMax(x) }

func binaryF32NT(op byte) func(d, a, b []float32) { return nil }

func binaryF64NT(op byte) func(d, a, b []float64) { return nil }

func tanhF32PF(d, a []float32, pf [][]byte) { tanhF32(d, a) }

func expSumF32PF(d []float64, a []float32, m float64, pf []byte) float64 { return expSumF32(d, a, m) }

func softmaxColsAVX512(out, x []float32, m, inner, b, w int, log bool, e []float64, mx32 []float32) bool {
	return false
}

func divExactF64(d, a, b, rb []float64) { divF64(d, a, b) }

func divByF64(d, a []float64, b float64, c []float64) {
	c = c[:len(d)]
	fillF64(c, b)
	divF64(d, a, c)
}

func logDiffF32(d, x []float32, mx, ls float64) { logDiffF32Go(d, x, mx, ls) }

func countOnes(x []byte) uint64 { return countOnesGo(x) }

func sumBytes(x []byte, signed bool) int64 { return sumBytesGo(x, signed) }

func colBytes(acc []int32, x []byte, rows, stride int, signed bool) {
	colBytesGo(acc, x, rows, stride, signed)
}

func sumInt32s(x []int32) int64 { return sumInt32sGo(x) }

func sumUint32s(x []int32) int64 { return sumUint32sGo(x) }

func colInt32s(dst []int64, x []int32, rows, stride int) { colInt32sGo(dst, x, rows, stride) }

func colUint32s(dst []int64, x []int32, rows, stride int) { colUint32sGo(dst, x, rows, stride) }
