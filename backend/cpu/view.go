package cpu

import (
	"fmt"
	"unsafe"

	"github.com/tensorsh/tensorsh/backend"
	"github.com/tensorsh/tensorsh/dtypes"
)

// A view is a strided window on storage: element (i0, …, ik) is
// data[off + Σ ij*strides[j]]. Strides are in elements and may be zero
// (broadcast) or negative (reversed slices).
type view struct {
	dtype   dtypes.DType
	data    any // storage slice (see backend.Tensor)
	shape   []int
	strides []int
	off     int
}

// tensorView returns the contiguous view of t.
func tensorView(t *backend.Tensor) *view {
	return newContigView(t.DType, t.Data, t.Shape)
}

// contigView returns a contiguous view of storage data with the given shape.
func contigView(d dtypes.DType, data any, shape []int) *view {
	return &view{dtype: d, data: data, shape: append([]int{}, shape...), strides: backend.RowMajor(shape)}
}

func (v *view) size() int { return backend.Size(v.shape) }

// contiguous reports whether v's elements are data[off : off+size] in
// row-major order.
func (v *view) contiguous() bool { return v.Layout().Contiguous() }

// DType, Layout and WithLayout make a view a backend.View.

func (v *view) DType() dtypes.DType { return v.dtype }

func (v *view) Layout() backend.Layout {
	return backend.Layout{Shape: v.shape, Strides: v.strides, Off: v.off}
}

func (v *view) WithLayout(l backend.Layout) *view {
	return &view{dtype: v.dtype, data: v.data, shape: l.Shape, strides: l.Strides, off: l.Off}
}

// CopyInto copies the elements of src into dst (same dtype and shape, any
// strides), without conversion, in parallel. A source transposed in its
// last two axes (a transposed view) is copied tile by tile (see
// transposeInto); other runs along the last axis with memmove where both
// are contiguous along it.
func (r *runner) CopyInto(dst, src *view) error {
	n := src.size()
	shape, st := backend.Coalesce(src.shape, [][]int{dst.strides, src.strides})
	ds, ss := st[0], st[1]
	nd := len(shape)
	grain := grainSize
	if b := n * backend.ElemSize(src.dtype); b <= copyLimit(r.workers(), b) {
		grain = n
	}
	if nd >= 2 && ss[nd-2] == 1 && ss[nd-1] > 1 && ds[nd-1] == 1 {
		return r.copyTransposed(dst, src, shape, ds, ss, grain)
	}
	if a := outerUnitAxis(shape, ss); a >= 0 && ds[nd-1] == 1 {
		return r.copyPermuted(dst, src, shape, ds, ss, a, grain)
	}
	return r.parallel(n, grain, func(_, lo, hi int) error {
		idx, pos := make([]int, len(shape)), make([]int, 2)
		segments(shape, [][]int{ds, ss}, []int{dst.off, src.off}, idx, pos, lo, hi-lo, func(done int, pos []int, run int) {
			copyRaw(dst.data, pos[0], ds[len(ds)-1], src.data, pos[1], ss[len(ss)-1], run)
		})
		return nil
	})
}

// outerUnitAxis returns the axis a below the last two along which a
// source of strides ss (over shape, coalesced) is contiguous while it is
// not along the last axis (a 3-d transpose(m3), whose first axis reads
// m3's last), or -1.
func outerUnitAxis(shape, ss []int) int {
	nd := len(shape)
	if nd < 3 || ss[nd-1] <= 1 {
		return -1
	}
	for a := range nd - 2 {
		if ss[a] == 1 && shape[a] > 1 {
			return a
		}
	}
	return -1
}

// copyPermuted is CopyInto for a source contiguous along axis a of the
// result (outerUnitAxis): for every index of the other axes but the last,
// the rows along a and the last axis are one transposeInto, whole cache
// lines of the source at a time where an element loop would read one
// value a line (transpose(m3) of 100×100×100 float32: 0.95 ms that way).
// The groups spread over the workers, about grain elements each.
func (r *runner) copyPermuted(dst, src *view, shape, ds, ss []int, a, grain int) error {
	nd := len(shape)
	rows, cols := shape[a], shape[nd-1]
	var outer []int // the other axes
	groups := 1
	for d := range nd - 1 {
		if d != a {
			outer = append(outer, d)
			groups *= shape[d]
		}
	}
	g := max(1, grain/max(1, rows*cols))
	return r.parallel(groups, g, func(_, lo, hi int) error {
		for i := lo; i < hi; i++ {
			dp, sp := dst.off, src.off
			m := i
			for k := len(outer) - 1; k >= 0; k-- {
				d := outer[k]
				dp += m % shape[d] * ds[d]
				sp += m % shape[d] * ss[d]
				m /= shape[d]
			}
			transposeInto(dst.data, dp, ds[a], src.data, sp, ss[nd-1], rows, cols)
		}
		return nil
	})
}

// copySerialMax is the most bytes CopyInto copies on one worker: a second
// one does not make a copy in the cache faster (two vCPUs share a core's
// bandwidth), and it costs a goroutine hand-off.
const copySerialMax = 4 << 20

// copyTransposed is CopyInto for a source whose second-to-last axis is
// contiguous and last is not, with a destination contiguous along its
// last: each matrix of the last two axes is one transposeInto, split in
// strips of rows among the workers (grain elements at least per strip).
func (r *runner) copyTransposed(dst, src *view, shape, ds, ss []int, grain int) error {
	nd := len(shape)
	rows, cols := shape[nd-2], shape[nd-1]
	// Strips of whole tiles' rows, about grain elements each.
	strip := max(16, (grain/max(cols, 1)+15)/16*16)
	per := (rows + strip - 1) / strip // strips per matrix
	mats := 1
	for _, d := range shape[:nd-2] {
		mats *= d
	}
	g := 1
	if grain >= backend.Size(shape) {
		g = mats * per // one worker
	}
	return r.parallel(mats*per, g, func(_, lo, hi int) error {
		for i := lo; i < hi; i++ {
			m, k := i/per, i%per
			dp, sp := dst.off, src.off
			for d := nd - 3; d >= 0; d-- {
				dp += m % shape[d] * ds[d]
				sp += m % shape[d] * ss[d]
				m /= shape[d]
			}
			r0 := k * strip
			r1 := min(r0+strip, rows)
			transposeInto(dst.data, dp+r0*ds[nd-2], ds[nd-2], src.data, sp+r0, ss[nd-1], r1-r0, cols)
		}
		return nil
	})
}

// copyRaw copies n storage elements from src (at sp, step ss) to dst (at
// dp, step ds).
func copyRaw(dst any, dp, ds int, src any, sp, ss, n int) {
	switch d := dst.(type) {
	case []bool:
		stridedCopy(d, dp, ds, src.([]bool), sp, ss, n)
	case []int8:
		stridedCopy(d, dp, ds, src.([]int8), sp, ss, n)
	case []int16:
		stridedCopy(d, dp, ds, src.([]int16), sp, ss, n)
	case []int32:
		stridedCopy(d, dp, ds, src.([]int32), sp, ss, n)
	case []int64:
		stridedCopy(d, dp, ds, src.([]int64), sp, ss, n)
	case []uint8:
		stridedCopy(d, dp, ds, src.([]uint8), sp, ss, n)
	case []uint16:
		stridedCopy(d, dp, ds, src.([]uint16), sp, ss, n)
	case []uint32:
		stridedCopy(d, dp, ds, src.([]uint32), sp, ss, n)
	case []uint64:
		stridedCopy(d, dp, ds, src.([]uint64), sp, ss, n)
	case []float32:
		stridedCopy(d, dp, ds, src.([]float32), sp, ss, n)
	case []float64:
		stridedCopy(d, dp, ds, src.([]float64), sp, ss, n)
	case []complex64:
		stridedCopy(d, dp, ds, src.([]complex64), sp, ss, n)
	case []complex128:
		stridedCopy(d, dp, ds, src.([]complex128), sp, ss, n)
	default:
		panic(fmt.Sprintf("cpu: bad storage %T", dst))
	}
}

func stridedCopy[T any](dst []T, dp, ds int, src []T, sp, ss, n int) {
	if ds == 1 && ss == 1 {
		copy(dst[dp:dp+n], src[sp:sp+n])
		return
	}
	if ds == 1 && ss == 0 && n > 0 {
		fillValue(dst[dp:dp+n], src[sp])
		return
	}
	for range n {
		dst[dp] = src[sp]
		dp += ds
		sp += ss
	}
}

// fillBlock is the most bytes fillValue writes by doubling copies: the
// block it then copies again and again stays in L1.
const fillBlock = 4 << 10

// fillValue sets every element of d to v (zeros((1000, 1000)), full, a
// broadcast constant materialised): a value whose bytes are all zero by
// clear, the rest by doubling copies up to fillBlock bytes, which move
// whole vectors (an element at a time took 0.5 ms for 10^6 float64), and
// then copies of that block, so that the bytes are written once and read
// only from L1. Doubling copies over the whole of d read half its bytes
// back from memory: zeros((1000, 1000)) of float32 took 111 µs that way
// on the AMD EPYC guest, and float32 diag(v) of 1000 elements 145.
func fillValue[T any](d []T, v T) {
	size := int(unsafe.Sizeof(v))
	zero := true
	for _, b := range unsafe.Slice((*byte)(unsafe.Pointer(&v)), size) {
		zero = zero && b == 0
	}
	if zero {
		clear(d)
		return
	}
	d[0] = v
	blk := min(len(d), max(1, fillBlock/max(size, 1)))
	for done := 1; done < blk; done *= 2 {
		copy(d[done:blk], d[:done])
	}
	for done := blk; done < len(d); done += blk {
		copy(d[done:], d[:blk])
	}
}

// segments walks the flat row-major positions [off, off+cnt) of shape and
// calls fn once per run along the last axis: done is how many elements came
// before the run, pos the storage position of the run's first element for
// each stride set (starting from base), run its length. idx (len(shape))
// and pos (len(strides)) are scratch.
func segments(shape []int, strides [][]int, base, idx, pos []int, off, cnt int, fn func(done int, pos []int, run int)) {
	nd := len(shape)
	rem := off
	for d := nd - 1; d >= 0; d-- {
		idx[d] = rem % shape[d]
		rem /= shape[d]
	}
	for k, s := range strides {
		p := base[k]
		for d := range nd {
			p += idx[d] * s[d]
		}
		pos[k] = p
	}
	last := nd - 1
	done := 0
	for done < cnt {
		run := min(shape[last]-idx[last], cnt-done)
		fn(done, pos, run)
		done += run
		if done == cnt {
			return
		}
		// Move to the start of the next row.
		for k, s := range strides {
			pos[k] -= idx[last] * s[last] // back to index 0 of the row
		}
		idx[last] = 0
		for d := last - 1; d >= 0; d-- {
			idx[d]++
			for k, s := range strides {
				pos[k] += s[d]
			}
			if idx[d] < shape[d] {
				break
			}
			for k, s := range strides {
				pos[k] -= shape[d] * s[d]
			}
			idx[d] = 0
		}
	}
}
