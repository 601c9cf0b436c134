package cpu

import (
	"encoding/binary"
	"unsafe"

	"github.com/tensorsh/tensorsh/backend"
)

// Branch-free kernels for bools and for the minimum and maximum of
// narrow integers. A bool is one byte, 0 or 1, so the logical operations and
// the comparisons of bools work on eight of them at once in a uint64;
// the compiled `a[i] && b[i]` branches on every element, and on random
// data half the branches are mispredicted (some 30 ns an element on the
// benchmark machine, against well under 1 ns here).

// ones has the low bit of each of a word's bytes set: the bool true in
// each of eight bytes.
const ones = 0x0101010101010101

func boolBytes(b []bool) []byte {
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(b))), len(b))
}

// boolWordOp returns the word form of a binary operation on bools (each
// result byte 0 or 1 again), or nil.
func boolWordOp(o backend.Op) func(x, y uint64) uint64 {
	switch o {
	case backend.OpAdd, backend.OpBitOr, backend.OpOr, backend.OpMax:
		return func(x, y uint64) uint64 { return x | y }
	case backend.OpMul, backend.OpBitAnd, backend.OpAnd, backend.OpMin:
		return func(x, y uint64) uint64 { return x & y }
	case backend.OpBitXor, backend.OpNe:
		return func(x, y uint64) uint64 { return x ^ y }
	case backend.OpEq:
		return func(x, y uint64) uint64 { return x ^ y ^ ones }
	case backend.OpLt: // false < true: !x && y
		return func(x, y uint64) uint64 { return ^x & y }
	case backend.OpLe: // !x || y
		return func(x, y uint64) uint64 { return (x ^ ones) | y }
	case backend.OpGt: // x && !y
		return func(x, y uint64) uint64 { return x &^ y }
	case backend.OpGe: // x || !y
		return func(x, y uint64) uint64 { return x | (y ^ ones) }
	}
	return nil
}

// boolWords returns the kernel of a binary operation on bools computed a
// word at a time with f.
func boolWords(f func(x, y uint64) uint64) func(d, a, b []bool) {
	return func(d, a, b []bool) {
		n := len(d)
		db, ab, bb := boolBytes(d), boolBytes(a[:n]), boolBytes(b[:n])
		i := 0
		for ; i+8 <= n; i += 8 {
			binary.LittleEndian.PutUint64(db[i:], f(binary.LittleEndian.Uint64(ab[i:]), binary.LittleEndian.Uint64(bb[i:])))
		}
		for ; i < n; i++ {
			db[i] = byte(f(uint64(ab[i]), uint64(bb[i]))) & 1
		}
	}
}

// notWords is logical not of bools, a word at a time.
func notWords(d, a []bool) {
	n := len(d)
	db, ab := boolBytes(d), boolBytes(a[:n])
	i := 0
	for ; i+8 <= n; i += 8 {
		binary.LittleEndian.PutUint64(db[i:], binary.LittleEndian.Uint64(ab[i:])^ones)
	}
	for ; i < n; i++ {
		db[i] = ab[i] ^ 1
	}
}

// minIntL and maxIntL are the elementwise minimum and maximum of
// integers. Go compiles min and max of 32- and 64-bit integers to
// conditional moves, but of 8- and 16-bit ones to branches; those are
// widened to int64 (order and values kept, signed or not) first.
func minIntL[T integer](d, a, b []T) {
	a, b = a[:len(d)], b[:len(d)]
	if unsafe.Sizeof(T(0)) >= 4 {
		for i := range d {
			d[i] = min(a[i], b[i])
		}
		return
	}
	for i := range d {
		d[i] = T(min(int64(a[i]), int64(b[i])))
	}
}

func maxIntL[T integer](d, a, b []T) {
	a, b = a[:len(d)], b[:len(d)]
	if unsafe.Sizeof(T(0)) >= 4 {
		for i := range d {
			d[i] = max(a[i], b[i])
		}
		return
	}
	for i := range d {
		d[i] = T(max(int64(a[i]), int64(b[i])))
	}
}
