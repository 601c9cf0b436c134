package cpu

import (
	"hash/maphash"
	"sync/atomic"
	"unsafe"

	"github.com/tensorsh/tensorsh/dtypes"
)

// Blocks of constants.
//
// A constant leaf (one value broadcast everywhere, the 2 of p * 2) is read
// as a block of that value, which the kernel takes like any operand.
// Filling it costs as much as the kernel itself on a small statement (10^4
// int32: 0.6 µs of a 4 µs statement), and a loop or :timeit fills the same
// block again at every statement. So filled blocks are kept, by the value's
// dtype and bits, and shared: nothing writes a leaf's block (see
// fnode.eval), so every worker of every statement may read one.

const (
	constSlots    = 8         // blocks kept
	constMaxBytes = 128 << 10 // largest block kept
)

// A constBlock is a filled block: n ≥ the blocks it serves.
type constBlock struct {
	key constKey
	buf any // compute buffer of the value, never written
	n   int
}

// A constKey names a constant: its dtype and its bits in storage.
type constKey struct {
	dtype dtypes.DType
	size  int
	bits  [16]byte
}

var (
	constBlocks [constSlots]atomic.Pointer[constBlock]
	constSeed   = maphash.MakeSeed()
)

// constBuf returns a block of n elements (or more) of the constant leaf
// l, for reading only; nil when such a block is too large to keep, or
// the value too wide to key.
func constBuf(l *leaf, n int) any {
	if n*l.ct.Size() > constMaxBytes {
		return nil
	}
	raw, cnt := bufBytes(l.v.data), bufLen(l.v.data)
	if cnt == 0 || len(raw)%cnt != 0 {
		return nil
	}
	size := len(raw) / cnt
	if size > len(constKey{}.bits) {
		return nil
	}
	k := constKey{dtype: l.v.dtype, size: size}
	copy(k.bits[:], raw[l.v.off*size:(l.v.off+1)*size])
	slot := &constBlocks[maphash.Comparable(constSeed, k)%constSlots]
	if b := slot.Load(); b != nil && b.key == k && b.n >= n {
		return b.buf
	}
	buf := offsetBuf(l.ct, n)
	loadSeg(l.v.dtype, buf, l.v.data, l.v.off, 0, n)
	slot.Store(&constBlock{key: k, buf: buf, n: n})
	return buf
}

// constPageOffset is where in a page of 4 kB a constant's block starts.
// The operands' and results' blocks start where their pages do (large
// allocations are page-aligned and blocks are whole multiples of 4 kB
// into them), and a constant's block there too made a kernel's loads
// from it wait on its stores to the result at the same offsets (4K
// aliasing): float64 p * 2 of 10^4 spent 1.66 µs in its multiplies where
// p * p spent 1.02. Half a page away, no load and store of a step share
// their low 12 bits.
const constPageOffset = 2 << 10

// offsetBuf is newBuf(ct, n) starting constPageOffset into a page.
func offsetBuf(ct ctype, n int) any {
	size := ct.Size()
	extra := 4096 / size
	buf := newBuf(ct, n+extra)
	addr := uintptr(unsafe.Pointer(unsafe.SliceData(bufBytes(buf))))
	skip := int((constPageOffset-addr%4096+4096)%4096) / size
	return sliceBuf(buf, skip, skip+n)
}
