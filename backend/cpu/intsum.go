package cpu

import (
	"math"
	"unsafe"

	"github.com/tensorsh/tensorsh/backend"
	"github.com/tensorsh/tensorsh/dtypes"
)

// Sums and means of integers: bools, uint8, int8, int32 and uint32 summed
// into a wider dtype (NumPy's sum of int8 into int64, the float64 mean of
// bools and of int32). A sum of
// integers gives the same bits in any order where no partial sum wraps or
// rounds, so these are summed as integers, their bytes read in place, and
// converted once: into an integer dtype a sum wraps as the sum of the
// converted elements does (two's complement), and into a float dtype every
// partial sum of at most l elements of magnitude at most M (255 for bytes,
// 2^31 for int32) is exact while M·l stays within the float's integers
// (2^53 for float64, 2^24 for float32), as NumPy's pairwise and
// row-by-row float sums of them are.

// byteWords returns the whole 8-byte words of x (its first len(x)/8·8
// bytes) as uint64s, nil when there is none: the address of fewer than
// 8 bytes must not become a *uint64 (go test -race's checkptr stopped
// sum of a 4-element int8 tensor there).
func byteWords(x []byte) []uint64 {
	n := len(x) / 8
	if n == 0 {
		return nil
	}
	return unsafe.Slice((*uint64)(unsafe.Pointer(unsafe.SliceData(x))), n)
}

// sumBytesGo returns the sum of the bytes of x read as uint8, or as int8
// where signed: the reference of sumBytes. Eight bytes a word, their
// halves added in 16-bit lanes.
func sumBytesGo(x []byte, signed bool) int64 {
	const lo = 0x00ff00ff00ff00ff
	flip := uint64(0)
	if signed {
		flip = 0x8080808080808080 // an int8 XOR 0x80 is the int8 plus 128
	}
	var c int64
	words := byteWords(x)
	for len(words) > 0 {
		// Up to 128 words: a 16-bit lane takes two bytes a word, and
		// holds 257 bytes of 255.
		m := min(len(words), 128)
		var acc uint64
		for _, w := range words[:m] {
			w ^= flip
			acc += w&lo + w>>8&lo
		}
		c += int64(acc&0xffff + acc>>16&0xffff + acc>>32&0xffff + acc>>48)
		words = words[m:]
	}
	for _, b := range x[len(x)&^7:] {
		c += int64(b ^ byte(flip))
	}
	if signed {
		c -= 128 * int64(len(x))
	}
	return c
}

// colBytesGo adds rows rows of x, stride bytes apart, to acc column by
// column: acc[j] += x[i*stride+j], the bytes read as uint8 or, where
// signed, int8. The reference of colBytes.
func colBytesGo(acc []int32, x []byte, rows, stride int, signed bool) {
	for i := range rows {
		row := x[i*stride : i*stride+len(acc)]
		if signed {
			for j, b := range row {
				acc[j] += int32(int8(b))
			}
			continue
		}
		for j, b := range row {
			acc[j] += int32(b)
		}
	}
}

// byteSumsMax bounds the rows colBytes adds into 32-bit columns: 2^23
// bytes of 255 stay below 2^31.
const byteSumsMax = 1 << 23

// An intSource is the input of intReduce: its sums of a run and of
// columns, and the largest magnitude of an element.
type intSource struct {
	n, size int   // elements, and bytes an element
	max     int64 // the largest |element|
	// run returns the sum of the elements [lo, lo+n).
	run func(lo, n int) int64
	// cols adds to dst[j] the elements at base + i·stride + j for the
	// rows i (at most colRows) and j < len(dst), with acc (as long as
	// dst) as scratch.
	cols    func(dst []int64, base, rows, stride int, acc []int32)
	colRows int
}

// newIntSource returns the intSource of an input of bools, bytes or
// 32-bit integers, or false.
func newIntSource(data any) (intSource, bool) {
	byteSource := func(x []byte, signed bool) intSource {
		return intSource{n: len(x), size: 1, max: 255, colRows: byteSumsMax,
			run: func(lo, n int) int64 { return sumBytes(x[lo:lo+n], signed) },
			cols: func(dst []int64, base, rows, stride int, acc []int32) {
				acc = acc[:len(dst)]
				clear(acc)
				colBytes(acc, x[base:base+(rows-1)*stride+len(dst)], rows, stride, signed)
				for j, v := range acc {
					dst[j] += int64(v)
				}
			}}
	}
	switch d := data.(type) {
	case []bool:
		return byteSource(boolBytes(d), false), true
	case []uint8:
		return byteSource(d, false), true
	case []int8:
		return byteSource(asBytes(d), true), true
	case []int32:
		return intSource{n: len(d), size: 4, max: 1 << 31, colRows: math.MaxInt,
			run: func(lo, n int) int64 { return sumInt32s(d[lo : lo+n]) },
			cols: func(dst []int64, base, rows, stride int, _ []int32) {
				colInt32s(dst, d[base:base+(rows-1)*stride+len(dst)], rows, stride)
			}}, true
	case []uint32:
		x := unsafe.Slice((*int32)(unsafe.Pointer(unsafe.SliceData(d))), len(d))
		return intSource{n: len(d), size: 4, max: 1<<32 - 1, colRows: math.MaxInt,
			run: func(lo, n int) int64 { return sumUint32s(x[lo : lo+n]) },
			cols: func(dst []int64, base, rows, stride int, _ []int32) {
				colUint32s(dst, x[base:base+(rows-1)*stride+len(dst)], rows, stride)
			}}, true
	}
	return intSource{}, false
}

// intReduce returns the sum (or mean) over p of src, an input of bools,
// uint8, int8, int32 or uint32, in the compute type of at, or false where
// it leaves the reduction to the general walk: at another than int32,
// int64, uint32, uint64, float32 or float64, a float sum that could round,
// or a walk other than one run (all of it), consecutive rows (the last
// axis) or equally spaced rows of columns (a kept last axis).
func (r *runner) intReduce(src *backend.Node, p *redPlan, at dtypes.DType, mean bool) (any, bool, error) {
	x, ok := newIntSource(src.Tensor.Data)
	if !ok || p.m == 0 || p.l == 0 || x.n != p.m*p.l {
		return nil, false, nil
	}
	var limit int64 // the largest exact sum, 0 for wrapping integers
	switch computeOf(at) {
	case ctI32, ctI64, ctU32, ctU64:
		if mean {
			return nil, false, nil // an integer mean divides as integers
		}
	case ctF64:
		limit = 1 << 53
	case ctF32:
		limit = 1 << 24
	default:
		return nil, false, nil
	}
	if limit > 0 && int64(p.l) > limit/x.max {
		return nil, false, nil
	}
	// The sums and the converted result come from the runner (blocks
	// recycled between Runs): made by make, they took fresh pages from
	// the system while the heap grew toward its goal, and on the AMD
	// EPYC guest a fresh page costs microseconds (sum(m3, axis=0) of 10^6
	// int32: 36 µs on recycled memory, 250 µs on fresh pages).
	sb, err := r.allocBufFull(ctI64, p.m)
	if err != nil {
		return nil, true, err
	}
	sums := sb.([]int64)
	clear(sums)
	switch {
	case p.m == 1 && len(p.offs) == 1:
		// One run: cut in parts of 64 KB at least for the workers.
		parts := min(r.workers(), max(1, x.n*x.size>>16))
		part := make([]int64, parts)
		err = r.parallel(parts, 1, func(_, lo, hi int) error {
			for h := lo; h < hi; h++ {
				part[h] = x.run(h*x.n/parts, (h+1)*x.n/parts-h*x.n/parts)
			}
			return nil
		})
		for _, v := range part {
			sums[0] += v
		}
	case p.rowMajor() && p.l >= 32:
		l := p.l
		err = r.parallel(p.m, max(1, grainSize/l), func(_, lo, hi int) error {
			for o := lo; o < hi; o++ {
				sums[o] = x.run(o*l, l)
			}
			return r.ctx.Err()
		})
	case p.inner > 0 && len(p.offs) <= x.colRows:
		stride := 0
		if len(p.offs) > 1 {
			stride = p.offs[1]
		}
		for j, off := range p.offs {
			if off != j*stride {
				return nil, false, nil
			}
		}
		err = r.intCols(sums, x, p, stride)
	default:
		return nil, false, nil
	}
	if err != nil {
		return nil, true, err
	}
	ct := computeOf(at)
	if ct == ctI64 {
		return sums, true, nil
	}
	out, err := r.allocBufFull(ct, len(sums))
	if err != nil {
		return nil, true, err
	}
	n := int64(p.l)
	switch out := out.(type) {
	case []int32:
		convertSums(out, sums, n, false)
	case []uint64:
		convertSums(out, sums, n, false)
	case []uint32:
		convertSums(out, sums, n, false)
	case []float64:
		convertSums(out, sums, n, mean)
	case []float32:
		convertSums(out, sums, n, mean)
	}
	return out, true, nil
}

// intCols is intReduce's sums of columns: for each block of p.inner
// outputs (the kept last axis), the rows at p.offs from the block's base,
// stride elements apart, added column by column; the blocks' columns cut
// into strips of at least 256 for the workers.
func (r *runner) intCols(sums []int64, x intSource, p *redPlan, stride int) error {
	k := p.inner
	strip := max(256, ((k+1)/2+31)&^31)
	strips := (k + strip - 1) / strip
	rows := len(p.offs)
	units := p.m / k * strips
	// The byte sources' int32 column sums, a strip a worker (made a call,
	// they were a hundred allocations a statement along the middle axis
	// of a 100×100×100 int8 input).
	accs, as := workerTemps[int32](r, min(strip, k))
	return r.parallel(units, max(1, grainSize/(rows*strip)), func(w, lo, hi int) error {
		acc := accs[w*as:][:min(strip, k)]
		for u := lo; u < hi; u++ {
			oo, st := u/strips, u%strips
			k0, k1 := st*strip, min(st*strip+strip, k)
			x.cols(sums[oo*k+k0:oo*k+k1], p.base(oo*k)+k0, rows, stride, acc)
			if err := r.ctx.Err(); err != nil {
				return err
			}
		}
		return nil
	})
}

// sumInt32sGo returns the sum of x: the reference of sumInt32s.
func sumInt32sGo(x []int32) int64 {
	var s int64
	for _, v := range x {
		s += int64(v)
	}
	return s
}

// sumUint32sGo returns the sum of x read as uint32: the reference of
// sumUint32s.
func sumUint32sGo(x []int32) int64 {
	var s int64
	for _, v := range x {
		s += int64(uint32(v))
	}
	return s
}

// colInt32sGo adds rows rows of x, stride elements apart, to dst column
// by column: the reference of colInt32s.
func colInt32sGo(dst []int64, x []int32, rows, stride int) {
	for i := range rows {
		for j, v := range x[i*stride : i*stride+len(dst)] {
			dst[j] += int64(v)
		}
	}
}

// colUint32sGo is colInt32sGo with x read as uint32.
func colUint32sGo(dst []int64, x []int32, rows, stride int) {
	for i := range rows {
		for j, v := range x[i*stride : i*stride+len(dst)] {
			dst[j] += int64(uint32(v))
		}
	}
}

// convertSums sets out to the exact integer sums as T, divided by n where
// mean (T a float).
func convertSums[T int32 | uint32 | uint64 | float32 | float64](out []T, sums []int64, n int64, mean bool) {
	out = out[:len(sums)]
	for i, s := range sums {
		out[i] = T(s)
		if mean {
			out[i] /= T(n)
		}
	}
}
