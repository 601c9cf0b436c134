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

// A wordOp is a binary operation on eight bools held in a uint64.
type wordOp uint8

const (
	wNone wordOp = iota
	wOr
	wAnd
	wXor
	wEq
	wLt
	wLe
	wGt
	wGe
)

// boolWordOp returns the word form of a binary operation on bools, or
// wNone.
func boolWordOp(o backend.Op) wordOp {
	switch o {
	case backend.OpAdd, backend.OpBitOr, backend.OpOr, backend.OpMax:
		return wOr
	case backend.OpMul, backend.OpBitAnd, backend.OpAnd, backend.OpMin:
		return wAnd
	case backend.OpBitXor, backend.OpNe:
		return wXor
	case backend.OpEq:
		return wEq
	case backend.OpLt: // false < true: !x && y
		return wLt
	case backend.OpLe: // !x || y
		return wLe
	case backend.OpGt: // x && !y
		return wGt
	case backend.OpGe: // x || !y
		return wGe
	}
	return wNone
}

// apply computes the operation on words whose bytes are 0 or 1; each
// result byte is 0 or 1 again.
func (w wordOp) apply(x, y uint64) uint64 {
	switch w {
	case wOr:
		return x | y
	case wAnd:
		return x & y
	case wXor:
		return x ^ y
	case wEq:
		return x ^ y ^ ones
	case wLt:
		return ^x & y
	case wLe:
		return (x ^ ones) | y
	case wGt:
		return x &^ y
	}
	return x | (y ^ ones) // wGe
}

// boolWords returns the kernel of a binary operation on bools computed a
// word at a time, by one small function per operation (in one large
// function the compiler would not inline the loads and stores, and apply
// would cost a call a word); apply does the tail.
func boolWords(w wordOp) func(d, a, b []bool) {
	words := map[wordOp]func(d, a, b []byte){
		wOr:  orWords,
		wAnd: andWords,
		wXor: xorWords,
		wEq:  eqWords,
		wLt:  ltWords,
		wLe:  leWords,
		wGt:  gtWords,
		wGe:  geWords,
	}[w]
	return func(d, a, b []bool) {
		n := len(d)
		db, ab, bb := boolBytes(d), boolBytes(a[:n]), boolBytes(b[:n])
		m := n - n%8
		words(db[:m], ab[:m], bb[:m])
		for i := m; i < n; i++ {
			db[i] = byte(w.apply(uint64(ab[i]), uint64(bb[i]))) & 1
		}
	}
}

// The word loops: d, a and b have the same length, a multiple of 8.

func orWords(d, a, b []byte) {
	for i := 0; i+8 <= len(d); i += 8 {
		x, y := binary.LittleEndian.Uint64(a[i:i+8]), binary.LittleEndian.Uint64(b[i:i+8])
		binary.LittleEndian.PutUint64(d[i:i+8], x|y)
	}
}

func andWords(d, a, b []byte) {
	for i := 0; i+8 <= len(d); i += 8 {
		x, y := binary.LittleEndian.Uint64(a[i:i+8]), binary.LittleEndian.Uint64(b[i:i+8])
		binary.LittleEndian.PutUint64(d[i:i+8], x&y)
	}
}

func xorWords(d, a, b []byte) {
	for i := 0; i+8 <= len(d); i += 8 {
		x, y := binary.LittleEndian.Uint64(a[i:i+8]), binary.LittleEndian.Uint64(b[i:i+8])
		binary.LittleEndian.PutUint64(d[i:i+8], x^y)
	}
}

func eqWords(d, a, b []byte) {
	for i := 0; i+8 <= len(d); i += 8 {
		x, y := binary.LittleEndian.Uint64(a[i:i+8]), binary.LittleEndian.Uint64(b[i:i+8])
		binary.LittleEndian.PutUint64(d[i:i+8], x^y^ones)
	}
}

func ltWords(d, a, b []byte) {
	for i := 0; i+8 <= len(d); i += 8 {
		x, y := binary.LittleEndian.Uint64(a[i:i+8]), binary.LittleEndian.Uint64(b[i:i+8])
		binary.LittleEndian.PutUint64(d[i:i+8], ^x&y)
	}
}

func leWords(d, a, b []byte) {
	for i := 0; i+8 <= len(d); i += 8 {
		x, y := binary.LittleEndian.Uint64(a[i:i+8]), binary.LittleEndian.Uint64(b[i:i+8])
		binary.LittleEndian.PutUint64(d[i:i+8], (x^ones)|y)
	}
}

func gtWords(d, a, b []byte) {
	for i := 0; i+8 <= len(d); i += 8 {
		x, y := binary.LittleEndian.Uint64(a[i:i+8]), binary.LittleEndian.Uint64(b[i:i+8])
		binary.LittleEndian.PutUint64(d[i:i+8], x&^y)
	}
}

func geWords(d, a, b []byte) {
	for i := 0; i+8 <= len(d); i += 8 {
		x, y := binary.LittleEndian.Uint64(a[i:i+8]), binary.LittleEndian.Uint64(b[i:i+8])
		binary.LittleEndian.PutUint64(d[i:i+8], x|(y^ones))
	}
}

// notWords is logical not of bools, a word at a time.
func notWords(d, a []bool) {
	n := len(d)
	db, ab := boolBytes(d), boolBytes(a[:n])
	m := n - n%8
	for i := 0; i < m; i += 8 {
		binary.LittleEndian.PutUint64(db[i:i+8], binary.LittleEndian.Uint64(ab[i:i+8])^ones)
	}
	for i := m; i < n; i++ {
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
