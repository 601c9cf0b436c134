package cpu

import (
	"encoding/binary"
	"unsafe"

	"github.com/tensorsh/tensorsh/backend"
)

// concatRunMax is the longest run, in bytes, of one operand in a row of a
// concatenation's result up to which ConcatInto interleaves the operands
// in one pass whatever the number of rows: with longer runs and fewer
// rows than two a worker, a copy per operand (CopyInto) spreads the same
// bytes over the workers with fewer calls.
const concatRunMax = 64

// ConcatInto copies contiguous operands in one pass over dst, row by row
// of the axes before ax, rather than one strided pass per operand, when
// their runs in the result's rows are short (at most concatRunMax bytes:
// stack along the last axis, or concat along it of narrow operands: each
// strided pass would rewrite every cache line of the result) or there
// are rows enough for two a worker: a worker then writes whole rows of
// the result, where the passes per operand split each operand's part
// among the workers and a line at the end of a row's first part was
// written by one worker and then by the other (concat([x, y], axis=1) of
// two 1000×1000 int8 took 94–97 µs that way, 51–56 row by row, and 65
// on one worker). Other concatenations (along the first axis: one row)
// are left to CopyInto (see backend.Concatenator).
func (r *runner) ConcatInto(dst *view, srcs []*view, ax int) (bool, error) {
	if !dst.contiguous() || len(srcs) < 2 {
		return false, nil
	}
	es := backend.ElemSize(dst.dtype)
	inner := 1
	for _, d := range dst.shape[ax+1:] {
		inner *= d
	}
	rows := 1
	for _, d := range dst.shape[:ax] {
		rows *= d
	}
	runs := make([]int, len(srcs))
	for i, s := range srcs {
		if !s.contiguous() || s.dtype != dst.dtype {
			return false, nil
		}
		runs[i] = s.shape[ax] * inner
		if runs[i]*es > concatRunMax && rows < 2*r.workers() {
			return false, nil
		}
	}
	width := backend.Size(dst.shape) / max(rows, 1) // elements per row of dst
	grain := max(1, grainSize/max(width, 1))
	if b := backend.Size(dst.shape) * es * 2; b <= copyLimit(r.workers(), b) {
		grain = rows
	}
	return true, r.parallel(rows, grain, func(_, lo, hi int) error {
		interleaveAny(dst, srcs, runs, width, lo, hi)
		return nil
	})
}

// interleaveAny is interleave on the storage type of dst.
func interleaveAny(dst *view, srcs []*view, runs []int, width, lo, hi int) {
	switch d := dst.data.(type) {
	case []bool:
		interleave(d, dst.off, srcs, runs, width, lo, hi)
	case []int8:
		interleave(d, dst.off, srcs, runs, width, lo, hi)
	case []int16:
		interleave(d, dst.off, srcs, runs, width, lo, hi)
	case []int32:
		interleave(d, dst.off, srcs, runs, width, lo, hi)
	case []int64:
		interleave(d, dst.off, srcs, runs, width, lo, hi)
	case []uint8:
		interleave(d, dst.off, srcs, runs, width, lo, hi)
	case []uint16:
		interleave(d, dst.off, srcs, runs, width, lo, hi)
	case []uint32:
		interleave(d, dst.off, srcs, runs, width, lo, hi)
	case []uint64:
		interleave(d, dst.off, srcs, runs, width, lo, hi)
	case []float32:
		interleave(d, dst.off, srcs, runs, width, lo, hi)
	case []float64:
		interleave(d, dst.off, srcs, runs, width, lo, hi)
	case []complex64:
		interleave(d, dst.off, srcs, runs, width, lo, hi)
	case []complex128:
		interleave(d, dst.off, srcs, runs, width, lo, hi)
	default:
		panic("cpu: bad storage in concat")
	}
}

// interleave writes rows [lo, hi) of a concatenation into d (from off):
// row o is the run o of each operand in turn, runs[i] elements of srcs[i]
// (contiguous views of d's type), width elements in all.
func interleave[T any](d []T, off int, srcs []*view, runs []int, width, lo, hi int) {
	d = d[off+lo*width : off+hi*width]
	if len(srcs) == 2 && runs[0] == 1 && runs[1] == 1 {
		// stack([x, y], axis=-1): pairs.
		a := srcs[0].data.([]T)[srcs[0].off+lo : srcs[0].off+hi]
		b := srcs[1].data.([]T)[srcs[1].off+lo : srcs[1].off+hi]
		pairs(d[:2*len(a)], a, b[:len(a)])
		return
	}
	pos := 0
	for i, s := range srcs {
		n := runs[i]
		src := s.data.([]T)[s.off+lo*n : s.off+hi*n]
		if n == 1 {
			for j, v := range src {
				d[pos+j*width] = v
			}
		} else {
			for j := range hi - lo {
				copy(d[pos+j*width:pos+j*width+n], src[j*n:j*n+n])
			}
		}
		pos += n
	}
}

// littleEndian reports whether the first byte of a word in memory is its
// lowest (pairs then stores a pair as one word).
var littleEndian = binary.NativeEndian.Uint16([]byte{1, 0}) == 1

// pairs sets d[2j], d[2j+1] = a[j], b[j]. Elements of 1, 2 or 4 bytes are
// stored a pair per word, twice the width (1.35 ms for 10^6 pairs of
// int8 one element at a time, against NumPy's 0.96 ms).
func pairs[T any](d, a, b []T) {
	n := len(a)
	if n == 0 {
		return
	}
	if littleEndian {
		switch unsafe.Sizeof(a[0]) {
		case 1:
			pairWords(unsafe.Slice((*uint16)(unsafe.Pointer(&d[0])), n),
				unsafe.Slice((*uint8)(unsafe.Pointer(&a[0])), n), unsafe.Slice((*uint8)(unsafe.Pointer(&b[0])), n), 8)
			return
		case 2:
			pairWords(unsafe.Slice((*uint32)(unsafe.Pointer(&d[0])), n),
				unsafe.Slice((*uint16)(unsafe.Pointer(&a[0])), n), unsafe.Slice((*uint16)(unsafe.Pointer(&b[0])), n), 16)
			return
		case 4:
			pairWords(unsafe.Slice((*uint64)(unsafe.Pointer(&d[0])), n),
				unsafe.Slice((*uint32)(unsafe.Pointer(&a[0])), n), unsafe.Slice((*uint32)(unsafe.Pointer(&b[0])), n), 32)
			return
		}
	}
	d = d[:2*n]
	b = b[:n]
	for j := range a {
		p := d[2*j : 2*j+2 : 2*j+2]
		p[0], p[1] = a[j], b[j]
	}
}

// pairWords sets d[j] = a[j] | b[j]<<shift: a pair of elements of half
// d's width, a first in memory on a little-endian machine.
func pairWords[W uint16 | uint32 | uint64, H uint8 | uint16 | uint32](d []W, a, b []H, shift uint) {
	b = b[:len(a)]
	d = d[:len(a)]
	for j, x := range a {
		d[j] = W(x) | W(b[j])<<shift
	}
}
