package cpu

import (
	"math/bits"
	"unsafe"

	"github.com/tensorsh/tensorsh/backend"
)

//go:generate go run gen_simdint.go

// Vector kernels of integers and bools.
//
// On amd64 with AVX2 the common elementwise operations of integers (add,
// sub, mul, square, the bitwise operations and shifts, maximum and
// minimum, the comparisons, logical not, and and or, neg, abs and invert)
// and the logical operations and comparisons of bools run as assembly
// loops written by gen_simdint.go (simd_int_amd64.s). Integer arithmetic
// is exact, so each vector loop gives the bits of the Go loop it
// replaces; that loop stays the reference, does the last elements of a
// block (fewer than a vector step), and is the whole kernel elsewhere and
// under the purego tag.

// An intAsmKey names an assembly loop: an operation on integers of size
// bytes, signed or not.
type intAsmKey struct {
	op     backend.Op
	size   uintptr
	signed bool
}

// An intAsm is an assembly loop over n elements, n a multiple of unit:
// bin for binary operations, un for unary ones.
type intAsm struct {
	bin  func(d, a, b unsafe.Pointer, n int)
	un   func(d, a unsafe.Pointer, n int)
	unit int
}

// doubleIntKernel returns the kernel of x * 2 or 2 * x for a product n
// of integers of type T with a constant 2 (a one-element input, as a
// literal is): x + x by the vector add, which wraps as the product does
// (int8 multiplies take five vector instructions a step, adds one), or
// nil when n is not such a product or T has no vector add.
func doubleIntKernel[T integer](n *backend.Node) kfn {
	if !haveIntSIMD || n.Op != backend.OpMul || len(n.Args) != 2 {
		return nil
	}
	two := -1
	for i, a := range n.Args {
		if a.Op != backend.OpInput || a.Tensor == nil || backend.Size(a.Tensor.Shape) != 1 {
			continue
		}
		if v, ok := a.Tensor.Data.([]T); ok && len(v) == 1 && v[0] == 2 {
			two = i
			break
		}
	}
	if two < 0 {
		return nil
	}
	sign := 0
	if ^T(0) < 0 {
		sign = 1
	}
	return doubleIntMemo[bits.TrailingZeros(uint(unsafe.Sizeof(T(0))))][sign][two].get(func() kfn {
		v, ok := intAsms[intAsmKey{backend.OpAdd, unsafe.Sizeof(T(0)), ^T(0) < 0}]
		if !ok {
			return nil
		}
		add := vbin(v, addL[T])
		if two == 1 {
			return bin(func(d, a, _ []T) { add(d, a, a) })
		}
		return bin(func(d, _, b []T) { add(d, b, b) })
	})
}

// doubleIntMemo holds doubleIntKernel's kernels by log2 of the integer's
// size in bytes, signedness and the operand that is 2.
var doubleIntMemo [4][2][2]kmemo

// constShiftKernel returns the kernel of x << c or x >> c for a shift
// n of 8- or 16-bit integers of type T with one count c, a one-element
// input (a literal): constShiftAsms's loop, which reads the count once
// (on 10^6 int8, x >> 3 took 0.11 ms with the per-element count loop,
// x * 2 0.03), or nil.
func constShiftKernel[T integer](n *backend.Node) kfn {
	size := unsafe.Sizeof(T(0))
	if !haveIntSIMD || size > 2 || n.Op != backend.OpShl && n.Op != backend.OpShr || len(n.Args) != 2 {
		return nil
	}
	c := n.Args[1]
	if c.Op != backend.OpInput || c.Tensor == nil || backend.Size(c.Tensor.Shape) != 1 {
		return nil
	}
	sign := 0
	if ^T(0) < 0 {
		sign = 1
	}
	o, dir := n.Op, 0
	if o == backend.OpShr {
		dir = 1
	}
	return constShiftMemo[dir][size-1][sign].get(func() kfn {
		v, ok := constShiftAsms[intAsmKey{o, size, sign == 1}]
		if !ok {
			return nil
		}
		if o == backend.OpShl {
			return bin(vbin(v, shlL[T]))
		}
		return bin(vbin(v, shrL[T]))
	})
}

// constShiftMemo holds constShiftKernel's kernels by direction (>>),
// size in bytes - 1 and signedness.
var constShiftMemo [2][2][2]kmemo

// vectorIntKernel returns the vector kernel of o on integers of type T,
// or nil when o has none: made once for each operation and type (its
// closures were a tenth of a small statement's allocations).
func vectorIntKernel[T integer](o backend.Op) kfn {
	if !haveIntSIMD {
		return nil
	}
	sign := 0
	if ^T(0) < 0 {
		sign = 1
	}
	return vecIntMemo[o][bits.TrailingZeros(uint(unsafe.Sizeof(T(0))))][sign].get(func() kfn { return newVectorIntKernel[T](o) })
}

// vecIntMemo holds vectorIntKernel's kernels by operation, log2 of the
// integer's size in bytes, and signedness.
var vecIntMemo [backend.NumOps][4][2]kmemo

// newVectorIntKernel makes vectorIntKernel's kernel.
func newVectorIntKernel[T integer](o backend.Op) kfn {
	signed := ^T(0) < 0
	if o == backend.OpAbs && !signed {
		return un(copyL[T]) // absL of an unsigned integer is a copy
	}
	if o == backend.OpSquare {
		if v, ok := intAsms[intAsmKey{backend.OpMul, unsafe.Sizeof(T(0)), signed}]; ok {
			v = mulAsm(v, unsafe.Sizeof(T(0)))
			mul := vbin(v, mulL[T])
			return un(func(d, a []T) { mul(d, a, a) })
		}
		return nil
	}
	v, ok := intAsms[intAsmKey{o, unsafe.Sizeof(T(0)), signed}]
	if !ok {
		return nil
	}
	if o == backend.OpMul {
		v = mulAsm(v, unsafe.Sizeof(T(0)))
	}
	switch o {
	case backend.OpAdd:
		return bin(vbin(v, addL[T]))
	case backend.OpSub:
		return bin(vbin(v, subL[T]))
	case backend.OpMul:
		return bin(vbin(v, mulL[T]))
	case backend.OpBitAnd:
		return bin(vbin(v, bitAndL[T]))
	case backend.OpBitOr:
		return bin(vbin(v, bitOrL[T]))
	case backend.OpBitXor:
		return bin(vbin(v, bitXorL[T]))
	case backend.OpMax:
		return bin(vbin(v, maxIntL[T]))
	case backend.OpMin:
		return bin(vbin(v, minIntL[T]))
	case backend.OpEq:
		return bin(vbin(v, eqL[T]))
	case backend.OpNe:
		return bin(vbin(v, neL[T]))
	case backend.OpLt:
		return bin(vbin(v, ltL[T]))
	case backend.OpLe:
		return bin(vbin(v, leL[T]))
	case backend.OpGt:
		return bin(vbin(v, gtL[T]))
	case backend.OpGe:
		return bin(vbin(v, geL[T]))
	case backend.OpNot:
		return un(vun(v, notL[T]))
	case backend.OpAnd:
		return bin(vbin(v, andL[T]))
	case backend.OpOr:
		return bin(vbin(v, orL[T]))
	case backend.OpShl:
		return bin(vbin(v, shlL[T]))
	case backend.OpShr:
		return bin(vbin(v, shrL[T]))
	case backend.OpNeg:
		return un(vun(v, negL[T]))
	case backend.OpSign:
		return un(vun(v, signInt[T]))
	case backend.OpAbs:
		return un(vun(v, absL[T]))
	case backend.OpInvert:
		return un(vun(v, invertL[T]))
	}
	return nil
}

// vectorBoolKernel returns the vector kernel of o on bools, or nil.
func vectorBoolKernel(o backend.Op) kfn {
	if !haveIntSIMD {
		return nil
	}
	if o == backend.OpNot || o == backend.OpInvert {
		return un(vun(notBoolAsm, notWords))
	}
	w := boolWordOp(o)
	if v, ok := boolAsms[w]; ok {
		return bin(vbin(v, boolWords(w)))
	}
	return nil
}

// mulAsm returns the multiply loop of this CPU for integers of size
// bytes, v (the table's AVX2 loop) unless AVX-512 has a faster one.
func mulAsm(v intAsm, size uintptr) intAsm {
	switch size {
	case 1:
		return mul8Asm(v)
	case 8:
		return mul64Asm(v)
	}
	return v
}

// vbin returns the binary loop v, finished by ref.
func vbin[T, R any](v intAsm, ref func(d []R, a, b []T)) func(d []R, a, b []T) {
	return func(d []R, a, b []T) {
		n := len(d)
		a, b = a[:n], b[:n]
		m := n - n%v.unit
		if m > 0 {
			v.bin(unsafe.Pointer(unsafe.SliceData(d)), unsafe.Pointer(unsafe.SliceData(a)),
				unsafe.Pointer(unsafe.SliceData(b)), m)
		}
		ref(d[m:], a[m:], b[m:])
	}
}

// vun returns the unary loop v, finished by ref.
func vun[T, R any](v intAsm, ref func(d []R, a []T)) func(d []R, a []T) {
	return func(d []R, a []T) {
		n := len(d)
		a = a[:n]
		m := n - n%v.unit
		if m > 0 {
			v.un(unsafe.Pointer(unsafe.SliceData(d)), unsafe.Pointer(unsafe.SliceData(a)), m)
		}
		ref(d[m:], a[m:])
	}
}

// Reference loops of the bitwise operations, the shifts (a count of the
// width or more, or a negative one read as unsigned, gives 0, or for >> of
// a signed type 0 or -1, as in NumPy) and the absolute value.

func bitAndL[T integer](d, a, b []T) {
	a, b = a[:len(d)], b[:len(d)]
	for i := range d {
		d[i] = a[i] & b[i]
	}
}

func bitOrL[T integer](d, a, b []T) {
	a, b = a[:len(d)], b[:len(d)]
	for i := range d {
		d[i] = a[i] | b[i]
	}
}

func bitXorL[T integer](d, a, b []T) {
	a, b = a[:len(d)], b[:len(d)]
	for i := range d {
		d[i] = a[i] ^ b[i]
	}
}

func invertL[T integer](d, a []T) {
	a = a[:len(d)]
	for i := range d {
		d[i] = ^a[i]
	}
}

func shlL[T integer](d, a, b []T) {
	a, b = a[:len(d)], b[:len(d)]
	for i := range d {
		d[i] = a[i] << uint64(b[i])
	}
}

func shrL[T integer](d, a, b []T) {
	a, b = a[:len(d)], b[:len(d)]
	for i := range d {
		d[i] = a[i] >> uint64(b[i])
	}
}

// absL keeps the minimum of a signed type, whose negation wraps to itself
// (as NumPy's absolute does).
func absL[T integer](d, a []T) {
	a = a[:len(d)]
	for i := range d {
		x := a[i]
		if x < 0 {
			x = -x
		}
		d[i] = x
	}
}
