package cpu

import (
	"reflect"
	"unsafe"
)

// A sliceBox is an interface value holding a slice of one storage slice,
// which can be pointed at another part of that storage without
// allocating. A block loop that reads its operands and writes its result
// in place would otherwise box a new slice header (24 bytes of garbage)
// per operand and block: on x + y of 10^6 int8, 12 µs of a 60 µs
// statement went to those allocations.
//
// The interface value's data word points at hdr, which set rewrites: such
// an interface value is mutable, which Go's own conversions never make.
// That is safe here because a box belongs to one worker, every reader
// copies the slice out of it (a type switch or assertion) when it uses
// it, within the block it was set for, and hdr, allocated as a
// sliceHeader, is scanned by the collector as the slice it describes.
type sliceBox struct {
	v    any
	hdr  *sliceHeader
	base unsafe.Pointer // the storage's first element
	n    int            // the storage's length
	size uintptr        // its element size
}

// sliceHeader is the layout of a slice.
type sliceHeader struct {
	data     unsafe.Pointer
	len, cap int
}

// eface is the layout of an interface value of type any.
type eface struct {
	typ, data unsafe.Pointer
}

// newSliceBox returns a box for slices of storage, a non-empty slice of
// any element type.
func newSliceBox(storage any) *sliceBox {
	b := &sliceBox{hdr: new(sliceHeader)}
	b.reset(storage)
	return b
}

// reset points b at storage, a non-empty slice of any element type: the
// box of a pooled worker serves the next statement's storage without
// allocating. Slices b gave before are invalid after it (they are
// invalid after the next slice call already).
func (b *sliceBox) reset(storage any) {
	e := (*eface)(unsafe.Pointer(&storage))
	src := (*sliceHeader)(e.data)
	*b.hdr = *src
	b.base, b.n, b.size = src.data, src.len, reflect.TypeOf(storage).Elem().Size()
	be := (*eface)(unsafe.Pointer(&b.v))
	be.typ, be.data = e.typ, unsafe.Pointer(b.hdr)
}

// drop makes b hold no storage, keeping b for a later reset.
func (b *sliceBox) drop() {
	*b.hdr = sliceHeader{}
	b.base, b.n = nil, 0
}

// holds reports whether b boxes slices of storage.
func (b *sliceBox) holds(storage any) bool {
	if b == nil {
		return false
	}
	e := (*eface)(unsafe.Pointer(&storage))
	h := (*sliceHeader)(e.data)
	return e.typ == (*eface)(unsafe.Pointer(&b.v)).typ && h.data == b.base && h.len == b.n
}

// slice returns storage[lo:hi:hi] in the box, valid until the next call.
func (b *sliceBox) slice(lo, hi int) any {
	if lo < 0 || hi < lo || hi > b.n {
		panic("cpu: sliceBox: slice bounds out of range")
	}
	b.hdr.data = unsafe.Add(b.base, uintptr(lo)*b.size)
	b.hdr.len, b.hdr.cap = hi-lo, hi-lo
	return b.v
}

// boxed returns storage[lo:hi] in the worker's box number i, made or
// remade for storage as needed.
func (w *worker) boxed(i int, storage any, lo, hi int) any {
	if i >= len(w.boxes) {
		w.boxes = append(w.boxes, make([]*sliceBox, i+1-len(w.boxes))...)
	}
	switch b := w.boxes[i]; {
	case b == nil:
		w.boxes[i] = newSliceBox(storage)
	case !b.holds(storage):
		b.reset(storage)
	}
	return w.boxes[i].slice(lo, hi)
}
