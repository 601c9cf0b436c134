package cpu

import (
	"fmt"
	"sync"
	"unsafe"
)

// transposeInto writes the transpose of a cols×rows window of src into a
// rows×cols window of dst:
//
//	dst[dp + r*ldd + c] = src[sp + r + c*lds]  for r < rows, c < cols
//
// dst and src are storage slices of one element type. It reads a
// transposed operand's rows (lds the operand's stride along the result's
// last axis) and copies a transposed view into a contiguous result. On
// amd64 with AVX2, 1-, 2-, 4- and 8-byte elements are moved in register
// tiles (transpose_amd64.s) and the edges by transposeGo, which gives the
// same bits: the elements are copied, not converted.
func transposeInto(dst any, dp, ldd int, src any, sp, lds, rows, cols int) {
	if rows <= 0 || cols <= 0 {
		return
	}
	switch s := src.(type) {
	case []bool:
		transposeT(dst.([]bool), dp, ldd, s, sp, lds, rows, cols)
	case []int8:
		transposeT(dst.([]int8), dp, ldd, s, sp, lds, rows, cols)
	case []int16:
		transposeT(dst.([]int16), dp, ldd, s, sp, lds, rows, cols)
	case []int32:
		transposeT(dst.([]int32), dp, ldd, s, sp, lds, rows, cols)
	case []int64:
		transposeT(dst.([]int64), dp, ldd, s, sp, lds, rows, cols)
	case []uint8:
		transposeT(dst.([]uint8), dp, ldd, s, sp, lds, rows, cols)
	case []uint16:
		transposeT(dst.([]uint16), dp, ldd, s, sp, lds, rows, cols)
	case []uint32:
		transposeT(dst.([]uint32), dp, ldd, s, sp, lds, rows, cols)
	case []uint64:
		transposeT(dst.([]uint64), dp, ldd, s, sp, lds, rows, cols)
	case []float32:
		transposeT(dst.([]float32), dp, ldd, s, sp, lds, rows, cols)
	case []float64:
		transposeT(dst.([]float64), dp, ldd, s, sp, lds, rows, cols)
	case []complex64:
		transposeT(dst.([]complex64), dp, ldd, s, sp, lds, rows, cols)
	case []complex128:
		transposeT(dst.([]complex128), dp, ldd, s, sp, lds, rows, cols)
	default:
		panic(fmt.Sprintf("cpu: bad storage %T", src))
	}
}

// transBand is how many source lines (result columns) a tiled transpose
// walks before its next band of rows: their cache lines stay in L1 from
// one strip of rows to the next.
const transBand = 256

func transposeT[T any](dst []T, dp, ldd int, src []T, sp, lds, rows, cols int) {
	// Bounds, once: the kernels take pointers.
	last := dst[dp+(rows-1)*ldd+cols-1]
	_ = src[sp+rows-1+(cols-1)*lds]
	_ = dst[dp]
	_ = src[sp]
	es := int(unsafe.Sizeof(last))
	k, R, C := tileKernel(es)
	if k == nil || rows < R || cols < C || ldd < cols || lds < rows {
		transposeGo(dst, dp, ldd, src, sp, lds, rows, cols)
		return
	}
	d0 := unsafe.Pointer(&dst[dp])
	s0 := unsafe.Pointer(&src[sp])
	tiles := func(r0, c0, n int) {
		k((*byte)(unsafe.Add(d0, (r0*ldd+c0)*es)), ldd*es, (*byte)(unsafe.Add(s0, (r0+c0*lds)*es)), lds*es, n)
	}
	// Strips of R rows; where rows or cols are not multiples of the
	// tile, the last strip and the last tile of each strip overlap the
	// ones before (their elements are written twice, with the same
	// values), so that no element is left to a scalar loop.
	rowsT, colsT := rows-rows%R, cols-cols%C
	for c0 := 0; c0 < colsT; c0 += transBand {
		n := (min(c0+transBand, colsT) - c0) / C
		for r0 := 0; r0 < rowsT; r0 += R {
			tiles(r0, c0, n)
		}
		if rowsT < rows {
			tiles(rows-R, c0, n)
		}
	}
	if colsT < cols {
		for r0 := 0; r0 < rowsT; r0 += R {
			tiles(r0, cols-C, 1)
		}
		if rowsT < rows {
			tiles(rows-R, cols-C, 1)
		}
	}
}

// transTile is the side of transposeGo's tiles: tile columns are that
// many lines of src, read again for each row while in the cache.
const transTile = 16

// transposeGo is transposeInto in Go, tile by tile.
func transposeGo[T any](dst []T, dp, ldd int, src []T, sp, lds, rows, cols int) {
	for c0 := 0; c0 < cols; c0 += transTile {
		c1 := min(c0+transTile, cols)
		for r := range rows {
			d := dst[dp+r*ldd+c0 : dp+r*ldd+c1]
			p := sp + r + c0*lds
			for j := range d {
				d[j] = src[p]
				p += lds
			}
		}
	}
}

// readTiled fills buf with the cnt values of a tiled leaf (a transposed
// operand, see leaf.tiled) from the fused block's flat position off on.
// Within a group of rows along the second-to-last axis, element (r, c) is
// at rowStart(r) + c*st and rowStart(r+1) = rowStart(r) + 1: a column of
// the block is a run of storage, and the block is the transpose of a
// window of storage. The block's first and last rows may be partial, so
// its columns are cut where they start and end into at most three bands,
// each a rectangle of rows transposed whole.
//
// A leaf stored in another type than its compute type (float16, bfloat16,
// the 8-bit floats, complex32) has its bits transposed into a pooled
// buffer and then converted in one contiguous run (loadSeg).
func (l *leaf) readTiled(buf any, off, cnt int) {
	if !identityStorage(l.v.dtype) {
		raw, put := rawScratch(l.v.data, cnt)
		defer put()
		l.transposeBlock(raw, off, cnt)
		loadSeg(l.v.dtype, buf, raw, 0, 1, cnt)
		return
	}
	l.transposeBlock(buf, off, cnt)
}

// transposeBlock is readTiled into dst, of the leaf's storage type.
func (l *leaf) transposeBlock(buf any, off, cnt int) {
	shape := l.f.shape
	rowLen := shape[len(shape)-1]
	st := l.strides[len(shape)-1]
	group := shape[len(shape)-2] * rowLen
	for done := 0; done < cnt; {
		lo := off + done
		n := min(cnt-done, group-lo%group)
		hi := lo + n
		row, col := lo/rowLen, lo%rowLen
		endRow, endCol := hi/rowLen, hi%rowLen
		base := l.rowStart(row)
		// Column c holds rows [row + (c < col), endRow + (c < endCol)).
		cuts := [4]int{0, min(col, endCol), max(col, endCol), rowLen}
		for i := range 3 {
			a, b := cuts[i], cuts[i+1]
			if a == b {
				continue
			}
			r0, r1 := row, endRow
			if a < col {
				r0++
			}
			if a < endCol {
				r1++
			}
			if r0 < r1 {
				transposeInto(buf, r0*rowLen+a-off, rowLen, l.v.data, base+(r0-row)+a*st, st, r1-r0, b-a)
			}
		}
		done += n
	}
}

// Pools of the bits of narrow storage types for readTiled.
var (
	rawPool8  = sync.Pool{New: func() any { return new([]uint8) }}
	rawPool16 = sync.Pool{New: func() any { return new([]uint16) }}
	rawPool32 = sync.Pool{New: func() any { return new([]uint32) }}
)

// rawScratch returns a buffer of n elements of data's storage type
// (uint8, uint16 or uint32), and the function that gives it back.
func rawScratch(data any, n int) (any, func()) {
	switch data.(type) {
	case []uint8:
		return pooled[uint8](&rawPool8, n)
	case []uint16:
		return pooled[uint16](&rawPool16, n)
	case []uint32:
		return pooled[uint32](&rawPool32, n)
	}
	panic(fmt.Sprintf("cpu: bad narrow storage %T", data))
}

func pooled[T any](p *sync.Pool, n int) (any, func()) {
	b := p.Get().(*[]T)
	if cap(*b) < n {
		*b = make([]T, n)
	}
	return (*b)[:n], func() { p.Put(b) }
}
