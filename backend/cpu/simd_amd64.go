//go:build amd64 && !purego

package cpu

import (
	"math"
	"strings"
)

// haveAVX2 reports whether the CPU (and the OS) support AVX2 and FMA.
var haveAVX2 = cpuHasAVX2FMA()

func cpuHasAVX2FMA() bool

// Assembly kernels (simd_amd64.s, simd_binary_amd64.s; the AVX512 ones
// need only AVX-512F, see haveAVX512). Those without a tail loop handle
// len(d) - len(d)%8 elements; the wrappers below finish with the Go
// reference.

//go:noescape
func addF32AVX2(d, a, b []float32)

//go:noescape
func subF32AVX2(d, a, b []float32)

//go:noescape
func mulF32AVX2(d, a, b []float32)

//go:noescape
func divF32AVX2(d, a, b []float32)

//go:noescape
func addF64AVX2(d, a, b []float64)

//go:noescape
func subF64AVX2(d, a, b []float64)

//go:noescape
func mulF64AVX2(d, a, b []float64)

//go:noescape
func divF64AVX2(d, a, b []float64)

//go:noescape
func addF32AVX2NT(d, a, b []float32)

//go:noescape
func subF32AVX2NT(d, a, b []float32)

//go:noescape
func mulF32AVX2NT(d, a, b []float32)

//go:noescape
func divF32AVX2NT(d, a, b []float32)

//go:noescape
func addF64AVX2NT(d, a, b []float64)

//go:noescape
func subF64AVX2NT(d, a, b []float64)

//go:noescape
func mulF64AVX2NT(d, a, b []float64)

//go:noescape
func divF64AVX2NT(d, a, b []float64)

//go:noescape
func addF32AVX512(d, a, b []float32)

//go:noescape
func subF32AVX512(d, a, b []float32)

//go:noescape
func mulF32AVX512(d, a, b []float32)

//go:noescape
func divF32AVX512(d, a, b []float32)

//go:noescape
func addF64AVX512(d, a, b []float64)

//go:noescape
func subF64AVX512(d, a, b []float64)

//go:noescape
func mulF64AVX512(d, a, b []float64)

//go:noescape
func divF64AVX512(d, a, b []float64)

//go:noescape
func addF32AVX512NT(d, a, b []float32)

//go:noescape
func subF32AVX512NT(d, a, b []float32)

//go:noescape
func mulF32AVX512NT(d, a, b []float32)

//go:noescape
func divF32AVX512NT(d, a, b []float32)

//go:noescape
func addF64AVX512NT(d, a, b []float64)

//go:noescape
func subF64AVX512NT(d, a, b []float64)

//go:noescape
func mulF64AVX512NT(d, a, b []float64)

//go:noescape
func divF64AVX512NT(d, a, b []float64)

//go:noescape
func tanhF32AVX2(d, a []float32, pf []byte)

//go:noescape
func expSumF32AVX2(d []float64, a []float32, m float64, pf []byte) float64

//go:noescape
func expSumF32AVX512(d []float64, a []float32, m float64, pf []byte) float64

//go:noescape
func colExpSumF32AVX512(e []float64, x []float32, stride int, mx *[16]float64, acc *[8][16]float64, rows, n8 int)

//go:noescape
func divColsF32AVX512(out []float32, e []float64, stride int, s, rs *[16]float64, rows int)

//go:noescape
func divToF32AVX512(d []float32, a []float64, s, rs float64)

//go:noescape
func divExactF64AVX512(d, a, b, rb []float64)

//go:noescape
func sumBytesAVX2(x []byte, flip uint64) uint64

//go:noescape
func colBytesAVX2(acc []int32, x []byte, rows, stride, signed int)

//go:noescape
func sumInt32sAVX2(x []int32, unsigned int) int64

//go:noescape
func colInt32sAVX2(dst []int64, x []int32, rows, stride, unsigned int)

//go:noescape
func divByF64AVX512(d, a []float64, b, rb float64)

//go:noescape
func logColsF32AVX512(out, x []float32, stride int, mx, ls *[16]float64, rows int)

//go:noescape
func divToF32AVX2(d []float32, a []float64, s float64)

//go:noescape
func cvtI8F32AVX2(d []float32, a []int8)

//go:noescape
func sum8F32AVX2(a []float32) float32

//go:noescape
func maxF32AVX2(a []float32) (m float32, nan bool)

// rowMaxF32 is rowMax on float32 (the largest element, or the first
// NaN), by vector maxima when the answer does not depend on their order:
// no NaN, and a nonzero maximum (equal nonzero floats have the same
// bits; of +0 and -0 rowMax keeps the first).
func rowMaxF32(x []float32) float32 { return rowMaxVec(x, maxF32AVX2, rowMax[float32]) }

// rowMaxVec is rowMax of x by the vector maximum vec of its first
// len(x)&^7 elements where the answer does not depend on the order of the
// maxima (no NaN, a nonzero maximum), by rowMax otherwise, and by slow
// without AVX2 or a vector's worth of x.
func rowMaxVec[T float](x []T, vec func([]T) (T, bool), slow func([]T) T) T {
	n := len(x) &^ 7
	if !haveAVX2 || n == 0 {
		return slow(x)
	}
	m, nan := vec(x[:n])
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

// binaryTable holds the assembly loops of + - * / (in the order of
// binaryOps) on one element type: [0] with ordinary stores, [1] with
// non-temporal ones.
type binaryTable[T float32 | float64] [2][4]func(d, a, b []T)

// binaryOps orders the operations of a binaryTable.
const binaryOps = "+-*/"

var (
	binaryF32AVX2 = binaryTable[float32]{
		{addF32AVX2, subF32AVX2, mulF32AVX2, divF32AVX2},
		{addF32AVX2NT, subF32AVX2NT, mulF32AVX2NT, divF32AVX2NT},
	}
	binaryF64AVX2 = binaryTable[float64]{
		{addF64AVX2, subF64AVX2, mulF64AVX2, divF64AVX2},
		{addF64AVX2NT, subF64AVX2NT, mulF64AVX2NT, divF64AVX2NT},
	}
	binaryF32AVX512 = binaryTable[float32]{
		{addF32AVX512, subF32AVX512, mulF32AVX512, divF32AVX512},
		{addF32AVX512NT, subF32AVX512NT, mulF32AVX512NT, divF32AVX512NT},
	}
	binaryF64AVX512 = binaryTable[float64]{
		{addF64AVX512, subF64AVX512, mulF64AVX512, divF64AVX512},
		{addF64AVX512NT, subF64AVX512NT, mulF64AVX512NT, divF64AVX512NT},
	}
)

// binaryLoop returns the loop of op (one of binaryOps), with non-temporal
// stores if nt, or nil when the CPU lacks AVX2. Division takes the zmm
// loop where the CPU has AVX-512: on an AMD EPYC with AVX-512 it divides
// twice the elements per second on operands in the cache, about 10%
// more with non-temporal stores, and a few percent fewer from memory with
// plain stores. + - * keep the ymm loops: they run at memory speed either
// way, and there the zmm loops measured up to 10% slower on that machine.
func binaryLoop[T float32 | float64](ymm, zmm *binaryTable[T], op byte, nt bool) func(d, a, b []T) {
	var t *binaryTable[T]
	switch {
	case haveAVX512 && op == '/':
		t = zmm
	case haveAVX2:
		t = ymm
	default:
		return nil
	}
	i := strings.IndexByte(binaryOps, op)
	if i < 0 {
		return nil
	}
	j := 0
	if nt {
		j = 1
	}
	f := t[j][i]
	return func(d, a, b []T) { f(d, a[:len(d)], b[:len(d)]) }
}

// binaryF32 returns the vector loop of a float32 operation (+ - * /).
func binaryF32(op byte) func(d, a, b []float32) {
	if f := binaryLoop(&binaryF32AVX2, &binaryF32AVX512, op, false); f != nil {
		return f
	}
	return binaryF32Go(op)
}

// binaryF32NT returns binaryF32(op) with non-temporal stores, or nil.
func binaryF32NT(op byte) func(d, a, b []float32) {
	return binaryLoop(&binaryF32AVX2, &binaryF32AVX512, op, true)
}

// binaryF64NT returns binaryF64(op) with non-temporal stores, or nil.
func binaryF64NT(op byte) func(d, a, b []float64) {
	return binaryLoop(&binaryF64AVX2, &binaryF64AVX512, op, true)
}

// binaryF64 returns the vector loop of a float64 operation (+ - * /).
func binaryF64(op byte) func(d, a, b []float64) {
	if f := binaryLoop(&binaryF64AVX2, &binaryF64AVX512, op, false); f != nil {
		return f
	}
	return binaryF64Go(op)
}

// tanhF32 sets d[i] = float32(tanh64(a[i])).
func tanhF32(d, a []float32) { tanhF32PF(d, a, nil) }

// tanhF32PF is tanhF32 that also prefetches the memory of pf while it
// computes: the elements are split into len(pf) runs, and run i
// prefetches pf[i].
func tanhF32PF(d, a []float32, pf [][]byte) {
	a = a[:len(d)]
	if !haveAVX2 {
		tanhF32Go(d, a)
		return
	}
	n := len(d) &^ 7
	if len(pf) == 0 {
		i := 0
		if libmAVX512 {
			i = tanhtF32(d[:n], a[:n])
		}
		tanhF32AVX2(d[i:n], a[i:n], nil)
	} else {
		run := (n/len(pf) + 7) &^ 7
		for i, p := range pf {
			lo := min(i*run, n)
			hi := min(lo+run, n)
			if i == len(pf)-1 {
				hi = n
			}
			if libmAVX512 {
				tanhtPF(d[lo:hi], a[lo:hi], p)
			} else {
				tanhF32AVX2(d[lo:hi], a[lo:hi], p)
			}
		}
	}
	tanhF32Go(d[n:], a[n:])
}

// tanhtF32 sets d[i] = float32(tanh64(a[i])) with tanhtF32AVX512 (tanh64's
// formula through gen_libm.go's expTable, checked to round as tanh64)
// and tanhF32AVX2 on each group of sixteen that loop leaves; it returns
// how many it set, all but the last len(d) % 16.
func tanhtF32(d, a []float32) int {
	return chained(tanhtF32AVX512, whole(func(d, a []float32) { tanhF32AVX2(d, a, nil) }))(d, a)
}

// tanhtPF is tanhtF32 on d (len(d) a multiple of 8) that also prefetches
// the lines of pf, one a group of eight elements as tanhF32AVX2 does
// (tanhtPFF32AVX512), and computes the last eight with tanhF32AVX2.
func tanhtPF(d, a []float32, pf []byte) {
	at := func(i int) []byte { return pf[min(len(pf), i/8*64):] }
	fast := func(dd, aa []float32) int { return tanhtPFF32AVX512(dd, aa, at(len(d)-len(dd))) }
	i := chained(fast, whole(func(d, a []float32) { tanhF32AVX2(d, a, nil) }))(d, a)
	tanhF32AVX2(d[i:], a[i:], at(i))
}

// rsqrtF32 sets d[i] = float32(1/√a[i]) (len(d) a multiple of 8):
// rsqrtF32AVX2, after rsqrttF32AVX512 with AVX-512 (no division, checked
// to round as the scalar code; see rsqrtBody in gen_libm.go).
func rsqrtF32(d, a []float32) {
	i := 0
	if libmAVX512 {
		i = chained(rsqrttF32AVX512, whole(rsqrtF32AVX2))(d, a)
	}
	rsqrtF32AVX2(d[i:], a[i:])
}

// whole turns a loop that sets all of d into one of chained's form.
func whole(f func(d, a []float32)) func(d, a []float32) int {
	return func(d, a []float32) int {
		f(d, a)
		return len(d)
	}
}

// expSumF32 is expSumF32Go.
func expSumF32(d []float64, a []float32, m float64) float64 {
	return expSumF32PF(d, a, m, nil)
}

// expSumF32PF is expSumF32 that also prefetches the memory of pf while
// it computes.
func expSumF32PF(d []float64, a []float32, m float64, pf []byte) float64 {
	a = a[:len(d)]
	n := len(d) &^ 7
	if !haveAVX2 || n == 0 {
		return expSumF32Go(d, a, m)
	}
	var s float64
	if libmAVX512 {
		s = expSumF32AVX512(d[:n], a[:n], m, pf)
	} else {
		s = expSumF32AVX2(d[:n], a[:n], m, pf)
	}
	for i := n; i < len(d); i++ {
		d[i] = expCore(clampExp(float64(a[i]) - m))
		s += d[i]
	}
	return s
}

// divToF32 sets d[i] = float32(a[i] / s).
func divToF32(d []float32, a []float64, s float64) {
	a = a[:len(d)]
	n := len(d) &^ 7
	if n16, rs := len(d)&^15, recipOrNaN(s); libmAVX512 && n16 > 0 && rs == rs {
		divToF32AVX512(d[:n16], a[:n16], s, rs)
		d, a = d[n16:], a[n16:]
		n = len(d) &^ 7
	}
	if haveAVX2 && n > 0 {
		divToF32AVX2(d[:n], a[:n], s)
		d, a = d[n:], a[n:]
	}
	divToF32Go(d, a, s)
}

// cvtI8F32 sets d[i] = float32(a[i]).
func cvtI8F32(d []float32, a []int8) {
	a = a[:len(d)]
	n := len(d) &^ 7
	if haveAVX2 && n > 0 {
		cvtI8F32AVX2(d[:n], a[:n])
		d, a = d[n:], a[n:]
	}
	cvtI8F32Go(d, a)
}

// sum8F32 is sum8F32Go (len(a) >= 8).
func sum8F32(a []float32) float32 {
	if haveAVX2 {
		return sum8F32AVX2(a[:len(a)&^7])
	}
	return sum8F32Go(a)
}

// softmaxColsAVX512 computes the float32 softmax (or log-softmax) of the
// w adjacent columns of x at b (w a multiple of 16; m values each,
// stride elements apart) into out, reading rows of the columns in
// place, with e (16·m float64s) and mx32 (w float32s) as scratch, where
// the CPU has AVX-512; it reports whether it did. The steps are
// softmaxRow's on each column: the maximum (the row step of max along a
// kept axis, redVecsMaxPS, from -Inf: rowMax's first NaN and first of
// equal values), expCore(clampExp(x - max)) summed by sum8F64's eight
// accumulators in its order (the rows i < m&^7 into accumulator i mod 8,
// folded, then the others in order), then e/s, or x - max - log(s),
// rounded once to float32. The maxima of all w columns are taken first,
// reading whole rows of them (which the CPU prefetches), so that the
// later passes, sixteen columns at a time, find x in the cache.
func softmaxColsAVX512(out, x []float32, m, inner, b, w int, log bool, e []float64, mx32 []float32) bool {
	maxRows := redVecsAsm["MaxPS"]
	if !libmAVX512 || maxRows == nil || m == 0 || w%16 != 0 {
		return false
	}
	mx32 = mx32[:w]
	for k := range mx32 {
		mx32[k] = float32(math.Inf(-1))
	}
	maxRows(byteView(mx32), byteView(x[b:b+(m-1)*inner+w]), m, 4*inner)
	e = e[:16*m]
	n8 := m &^ 7
	for c := 0; c < w; c += 16 {
		end := b + c + (m-1)*inner + 16
		xs, ys := x[b+c:end], out[b+c:end]
		var mx [16]float64
		for k, v := range mx32[c : c+16] {
			mx[k] = float64(v)
		}
		var acc [8][16]float64
		colExpSumF32AVX512(e, xs, inner, &mx, &acc, m, n8)
		var s [16]float64
		for k := range s {
			t := ((acc[0][k] + acc[1][k]) + (acc[2][k] + acc[3][k])) + ((acc[4][k] + acc[5][k]) + (acc[6][k] + acc[7][k]))
			for i := n8; i < m; i++ {
				t += e[16*i+k]
			}
			s[k] = t
		}
		if log {
			var ls [16]float64
			for k, v := range s {
				ls[k] = math.Log(v)
			}
			logColsF32AVX512(ys, xs, inner, &mx, &ls, m)
			continue
		}
		var rs [16]float64
		for k, v := range s {
			rs[k] = recipOrNaN(v) // NaN: every row by division
		}
		divColsF32AVX512(ys, e, inner, &s, &rs, m)
	}
	return true
}

// divExactF64 sets d[i] = a[i] / b[i], where rb[i] = recipOrNaN(b[i]):
// with AVX-512, by products with the reciprocal and one correction where
// a test shows the quotient rounded (DIVX64), else by division.
func divExactF64(d, a, b, rb []float64) {
	a, b, rb = a[:len(d)], b[:len(d)], rb[:len(d)]
	if n := len(d) &^ 7; libmAVX512 && n > 0 {
		divExactF64AVX512(d[:n], a[:n], b[:n], rb[:n])
		d, a, b = d[n:], a[n:], b[n:]
	}
	divF64(d, a, b)
}

// divByF64 sets d[i] = a[i] / b, as divExactF64 with one divisor; c
// (len(d) values) is scratch.
func divByF64(d, a []float64, b float64, c []float64) {
	a = a[:len(d)]
	if n := len(d) &^ 7; libmAVX512 && n > 0 {
		divByF64AVX512(d[:n], a[:n], b, recipOrNaN(b))
		d, a = d[n:], a[n:]
	}
	c = c[:len(d)]
	fillF64(c, b)
	divF64(d, a, c)
}

// logDiffF32 sets d[i] = float32(float64(x[i]) - mx - ls): with AVX-512,
// sixteen at a time by logColsF32AVX512 (the row taken as rows of
// sixteen columns, each column's maximum and logarithm mx and ls).
func logDiffF32(d, x []float32, mx, ls float64) {
	x = x[:len(d)]
	if n := len(d) &^ 15; libmAVX512 && n > 0 {
		var mxs, lss [16]float64
		for k := range mxs {
			mxs[k], lss[k] = mx, ls
		}
		logColsF32AVX512(d[:n], x[:n], 16, &mxs, &lss, n/16)
		d, x = d[n:], x[n:]
	}
	logDiffF32Go(d, x, mx, ls)
}

// countOnes returns the sum of the bytes of x, each 0 or 1: with AVX2,
// 32 bytes a step by sumBytesAVX2, the rest by countOnesGo.
func countOnes(x []byte) uint64 {
	var c uint64
	if n := len(x) &^ 31; haveAVX2 && n > 0 {
		c, x = sumBytesAVX2(x[:n], 0), x[n:]
	}
	return c + countOnesGo(x)
}

// sumBytes returns the sum of the bytes of x read as uint8, or as int8
// where signed: with AVX2, 32 bytes a step by sumBytesAVX2 (an int8 as its
// byte XOR 0x80, which is the int8 plus 128), the rest by sumBytesGo.
func sumBytes(x []byte, signed bool) int64 {
	var c int64
	if n := len(x) &^ 31; haveAVX2 && n > 0 {
		if signed {
			c = int64(sumBytesAVX2(x[:n], 0x8080808080808080)) - 128*int64(n)
		} else {
			c = int64(sumBytesAVX2(x[:n], 0))
		}
		x = x[n:]
	}
	return c + sumBytesGo(x, signed)
}

// sumInt32s returns the sum of x: with AVX2, 16 elements a step by
// sumInt32sAVX2, the rest by sumInt32sGo.
func sumInt32s(x []int32) int64 {
	var s int64
	if n := len(x) &^ 15; haveAVX2 && n > 0 {
		s, x = sumInt32sAVX2(x[:n], 0), x[n:]
	}
	return s + sumInt32sGo(x)
}

// sumUint32s is sumInt32s with x read as uint32.
func sumUint32s(x []int32) int64 {
	var s int64
	if n := len(x) &^ 15; haveAVX2 && n > 0 {
		s, x = sumInt32sAVX2(x[:n], 1), x[n:]
	}
	return s + sumUint32sGo(x)
}

// colInt32s adds rows rows of x, stride elements apart, to dst column by
// column (colInt32sGo): with AVX2, 16 columns a step held in registers
// down the rows by colInt32sAVX2. (A row at a time, in order, with the
// sums in memory, took 1.2-1.6 times as long, even for rows 40 KB apart.)
func colInt32s(dst []int64, x []int32, rows, stride int) { col32(dst, x, rows, stride, 0) }

// colUint32s is colInt32s with x read as uint32.
func colUint32s(dst []int64, x []int32, rows, stride int) { col32(dst, x, rows, stride, 1) }

func col32(dst []int64, x []int32, rows, stride, unsigned int) {
	if n := len(dst) &^ 15; haveAVX2 && n > 0 && rows > 0 {
		checkCols(len(x), rows, stride, len(dst))
		colInt32sAVX2(dst[:n], x, rows, stride, unsigned)
		dst, x = dst[n:], x[n:]
	}
	if unsigned != 0 {
		colUint32sGo(dst, x, rows, stride)
	} else {
		colInt32sGo(dst, x, rows, stride)
	}
}

// checkCols panics unless x holds rows rows of k elements, stride apart,
// before an assembly loop reads them.
func checkCols(n, rows, stride, k int) {
	if rows > 0 && n < (rows-1)*stride+k {
		panic("cpu: column sum past the end of its input")
	}
}

// colBytes adds rows rows of x, stride bytes apart, to acc column by
// column (colBytesGo): with AVX2, 32 columns a step by colBytesAVX2.
func colBytes(acc []int32, x []byte, rows, stride int, signed bool) {
	if n := len(acc) &^ 31; haveAVX2 && n > 0 && rows > 0 {
		checkCols(len(x), rows, stride, len(acc))
		sg := 0
		if signed {
			sg = 1
		}
		colBytesAVX2(acc[:n], x, rows, stride, sg)
		acc, x = acc[n:], x[n:]
	}
	colBytesGo(acc, x, rows, stride, signed)
}
