package cpu

import (
	"fmt"
	"sync/atomic"
	"unsafe"

	"github.com/tensorsh/tensorsh/backend"
	"github.com/tensorsh/tensorsh/dtypes"
)

// kernel returns the kernel of the elementwise operation n (not cast or
// where) on operands of dtype dt, and the dtype it naturally gives: dt,
// bool for comparisons and predicates, the real part's dtype for the
// absolute value of a complex number.
func kernel(n *backend.Node, dt dtypes.DType) (kfn, dtypes.DType, error) {
	o := n.Op
	natural := dt
	switch o {
	case backend.OpNot, backend.OpIsNaN, backend.OpIsInf, backend.OpIsFinite,
		backend.OpEq, backend.OpNe, backend.OpLt, backend.OpLe, backend.OpGt, backend.OpGe,
		backend.OpAnd, backend.OpOr:
		natural = dtypes.Bool
	case backend.OpAbs:
		natural = dt.Real()
	}
	if o == backend.OpFMA && dt != dtypes.F32 && dt != dtypes.F64 {
		// One rounding of a·b + c to float32 or float64 (a narrower
		// format would round twice, through float32).
		return nil, natural, fmt.Errorf("cpu: fma of %v is not supported", dt)
	}
	if (o == backend.OpMax || o == backend.OpMin) && computeOf(dt) == ctF32 && dt != dtypes.F32 {
		return narrowMinMax(o), natural, nil
	}
	if k := simdFloatKernel(n, computeOf(dt)); k != nil {
		return k, natural, nil
	}
	var k kfn
	switch computeOf(dt) {
	case ctBool:
		k = boolKernel(o)
	case ctI8:
		k = intKernel[int8](n)
	case ctI16:
		k = intKernel[int16](n)
	case ctI32:
		k = intKernel[int32](n)
	case ctI64:
		k = intKernel[int64](n)
	case ctU8:
		k = intKernel[uint8](n)
	case ctU16:
		k = intKernel[uint16](n)
	case ctU32:
		k = intKernel[uint32](n)
	case ctU64:
		k = intKernel[uint64](n)
	case ctF32:
		k = firstKernel(func() kfn { return constPowKernel[float32](n) }, func() kfn { return vectorF32Kernel(o) },
			func() kfn { return composedKernel[float32](o) }, func() kfn { return floatKernel[float32](n) })
	case ctF64:
		k = firstKernel(func() kfn { return constPowKernel[float64](n) }, func() kfn { return vectorF64Kernel(o) },
			func() kfn { return composedKernel[float64](o) }, func() kfn { return floatKernel[float64](n) })
	case ctC64:
		switch {
		case dt == dtypes.C32:
			k = complex32Kernel(o)
		case o == backend.OpAbs && n.ScaledCAbs:
			k = un(scaledCAbsC64)
		default:
			if k = complexMinMax[complex64](n); k == nil {
				k = complex64Kernel(o)
			}
		}
	case ctC128:
		if o == backend.OpAbs && n.ScaledCAbs {
			k = un(scaledCAbsC128)
		} else if k = complexMinMax[complex128](n); k == nil {
			k = complex128Kernel(o)
		}
	}
	if k == nil {
		return nil, dtypes.Invalid, backend.Unsupported(o, dt)
	}
	return k, natural, nil
}

// firstKernel returns the first kernel that one of fs makes, in order, or
// nil.
func firstKernel(fs ...func() kfn) kfn {
	for _, f := range fs {
		if k := f(); k != nil {
			return k
		}
	}
	return nil
}

// vectorF32Kernel returns the vector kernel (see simd.go) of o on
// float32, or nil when o has none.
func vectorF32Kernel(o backend.Op) kfn {
	return vecF32Memo[o].get(func() kfn { return newVectorF32Kernel(o) })
}

// vecF32Memo and vecF64Memo hold vectorF32Kernel's and vectorF64Kernel's
// kernels by operation.
var vecF32Memo, vecF64Memo [backend.NumOps]kmemo

func newVectorF32Kernel(o backend.Op) kfn {
	switch o {
	case backend.OpAdd:
		return bin(binaryF32('+'))
	case backend.OpSub:
		return bin(binaryF32('-'))
	case backend.OpMul:
		return bin(binaryF32('*'))
	case backend.OpDiv:
		return bin(binaryF32('/'))
	case backend.OpTanh:
		return un(tanhF32)
	}
	return libmKernel[float32](o)
}

// streamKernel returns the kernel of o on compute type ct with
// non-temporal stores (for a large result, see streamMin), or nil. It is
// made once per operation and type (streamMemo): every fused operation
// asks for it, and making it took two of the seven allocations of a
// statement such as t + t (stop 52).
func streamKernel(o backend.Op, ct ctype) kfn {
	i := 0
	switch ct {
	case ctF32:
	case ctF64:
		i = 1
	default:
		return nil
	}
	return streamMemo[o][i].get(func() kfn { return newStreamKernel(o, ct) })
}

// streamMemo holds streamKernel's kernels by operation, float32 then
// float64.
var streamMemo [backend.NumOps][2]kmemo

// newStreamKernel makes the kernel streamKernel returns.
func newStreamKernel(o backend.Op, ct ctype) kfn {
	var c byte
	switch o {
	case backend.OpAdd:
		c = '+'
	case backend.OpSub:
		c = '-'
	case backend.OpMul:
		c = '*'
	case backend.OpDiv:
		c = '/'
	default:
		return nil
	}
	switch ct {
	case ctF32:
		if f := binaryF32NT(c); f != nil {
			return bin(f)
		}
	case ctF64:
		if f := binaryF64NT(c); f != nil {
			return bin(f)
		}
	}
	return nil
}

// vectorF64Kernel returns the vector kernel of o on float64, or nil.
func vectorF64Kernel(o backend.Op) kfn {
	return vecF64Memo[o].get(func() kfn { return newVectorF64Kernel(o) })
}

func newVectorF64Kernel(o backend.Op) kfn {
	switch o {
	case backend.OpAdd:
		return bin(binaryF64('+'))
	case backend.OpSub:
		return bin(binaryF64('-'))
	case backend.OpMul:
		return bin(binaryF64('*'))
	case backend.OpDiv:
		return bin(binaryF64('/'))
	}
	return libmKernel[float64](o)
}

// Adapters from typed loops to kernels. Each asserts the buffer types once
// per block.

func un[T, R any](f func(d []R, a []T)) kfn {
	return func(d any, a []any) error {
		f(d.([]R), a[0].([]T))
		return nil
	}
}

func bin[T, R any](f func(d []R, a, b []T)) kfn {
	return func(d any, a []any) error {
		f(d.([]R), a[0].([]T), a[1].([]T))
		return nil
	}
}

func binErr[T, R any](f func(d []R, a, b []T) error) kfn {
	return func(d any, a []any) error {
		return f(d.([]R), a[0].([]T), a[1].([]T))
	}
}

// whereKernel returns the kernel of where(cond, a, b) for a, b of dtype dt.
func whereKernel(dt dtypes.DType) kfn {
	if k := simdWhereKernel(computeOf(dt)); k != nil {
		return k
	}
	switch computeOf(dt) {
	case ctBool:
		return whereBool()
	case ctI8:
		return whereInt[int8]()
	case ctI16:
		return whereInt[int16]()
	case ctI32:
		return whereInt[int32]()
	case ctI64:
		return whereInt[int64]()
	case ctU8:
		return whereInt[uint8]()
	case ctU16:
		return whereInt[uint16]()
	case ctU32:
		return whereInt[uint32]()
	case ctU64:
		return whereInt[uint64]()
	case ctF32:
		return whereOf[float32]()
	case ctF64:
		return whereOf[float64]()
	case ctC64:
		return whereOf[complex64]()
	default:
		return whereOf[complex128]()
	}
}

// whereInt is whereOf for integers, without a branch per element: a
// condition from random data is mispredicted half the time, and the
// select by mask runs ten times faster. A Go bool is the byte 0 or 1.
func whereInt[T integer]() kfn {
	return func(d any, a []any) error {
		dd, c, x, y := d.([]T), a[0].([]bool), a[1].([]T), a[2].([]T)
		c, x, y = c[:len(dd)], x[:len(dd)], y[:len(dd)]
		for i := range dd {
			m := -T(*(*uint8)(unsafe.Pointer(&c[i]))) // 0 or all ones
			dd[i] = y[i] ^ (x[i]^y[i])&m
		}
		return nil
	}
}

// whereBool is whereInt for bools, as bytes.
func whereBool() kfn {
	return func(d any, a []any) error {
		dd, c, x, y := d.([]bool), a[0].([]bool), a[1].([]bool), a[2].([]bool)
		c, x, y = c[:len(dd)], x[:len(dd)], y[:len(dd)]
		for i := range dd {
			m := -*(*uint8)(unsafe.Pointer(&c[i]))
			xb, yb := *(*uint8)(unsafe.Pointer(&x[i])), *(*uint8)(unsafe.Pointer(&y[i]))
			*(*uint8)(unsafe.Pointer(&dd[i])) = yb ^ (xb^yb)&m
		}
		return nil
	}
}

func whereOf[T any]() kfn {
	return func(d any, a []any) error {
		dd, c, x, y := d.([]T), a[0].([]bool), a[1].([]T), a[2].([]T)
		c, x, y = c[:len(dd)], x[:len(dd)], y[:len(dd)]
		for i := range dd {
			if c[i] {
				dd[i] = x[i]
			} else {
				dd[i] = y[i]
			}
		}
		return nil
	}
}

// Loops shared by several kinds.

func addL[T number](d, a, b []T) {
	a, b = a[:len(d)], b[:len(d)]
	for i := range d {
		d[i] = a[i] + b[i]
	}
}

func subL[T number](d, a, b []T) {
	a, b = a[:len(d)], b[:len(d)]
	for i := range d {
		d[i] = a[i] - b[i]
	}
}

func mulL[T integer | float](d, a, b []T) {
	a, b = a[:len(d)], b[:len(d)]
	for i := range d {
		d[i] = a[i] * b[i]
	}
}

func negL[T number](d, a []T) {
	a = a[:len(d)]
	for i := range d {
		d[i] = -a[i]
	}
}

func copyL[T any](d, a []T) { copy(d, a) }

func eqL[T comparable](d []bool, a, b []T) {
	a, b = a[:len(d)], b[:len(d)]
	for i := range d {
		d[i] = a[i] == b[i]
	}
}

func neL[T comparable](d []bool, a, b []T) {
	a, b = a[:len(d)], b[:len(d)]
	for i := range d {
		d[i] = a[i] != b[i]
	}
}

func ltL[T realNum](d []bool, a, b []T) {
	a, b = a[:len(d)], b[:len(d)]
	for i := range d {
		d[i] = a[i] < b[i]
	}
}

func leL[T realNum](d []bool, a, b []T) {
	a, b = a[:len(d)], b[:len(d)]
	for i := range d {
		d[i] = a[i] <= b[i]
	}
}

func gtL[T realNum](d []bool, a, b []T) {
	a, b = a[:len(d)], b[:len(d)]
	for i := range d {
		d[i] = a[i] > b[i]
	}
}

func geL[T realNum](d []bool, a, b []T) {
	a, b = a[:len(d)], b[:len(d)]
	for i := range d {
		d[i] = a[i] >= b[i]
	}
}

// Truth values (logical and, or, not on any dtype).

func notL[T number](d []bool, a []T) {
	a = a[:len(d)]
	for i := range d {
		d[i] = a[i] == 0
	}
}

func andL[T number](d []bool, a, b []T) {
	a, b = a[:len(d)], b[:len(d)]
	for i := range d {
		d[i] = a[i] != 0 && b[i] != 0
	}
}

func orL[T number](d []bool, a, b []T) {
	a, b = a[:len(d)], b[:len(d)]
	for i := range d {
		d[i] = a[i] != 0 || b[i] != 0
	}
}

// Booleans.

func boolKernel(o backend.Op) kfn {
	if k := vectorBoolKernel(o); k != nil {
		return k
	}
	if w := boolWordOp(o); w != wNone {
		return bin(boolWords(w))
	}
	switch o {
	case backend.OpInvert, backend.OpNot:
		return un(notWords)
	case backend.OpAbs, backend.OpRelu, backend.OpFloor, backend.OpCeil, backend.OpRound,
		backend.OpRoundEven, backend.OpTrunc, backend.OpSign, backend.OpSquare:
		return un(copyL[bool])
	case backend.OpIsNaN, backend.OpIsInf:
		return un(func(d, a []bool) { clear(d) })
	case backend.OpIsFinite:
		return un(func(d, a []bool) {
			for i := range d {
				d[i] = true
			}
		})
	}
	return nil
}

// prefetchKernel returns the prefetching form of the kernel of o on
// compute type ct when that kernel is compute-bound enough for its
// operands' memory to be read while it computes, or nil.
func prefetchKernel(o backend.Op, ct ctype) pfkfn {
	if o == backend.OpTanh && ct == ctF32 {
		return func(d any, a []any, pf [][]byte) { tanhF32PF(d.([]float32), a[0].([]float32), pf) }
	}
	return nil
}

// A kmemo is a kernel made once, on first use, and shared by every
// statement after: a kernel is a closure (or several), and making it per
// statement was a tenth of a small statement's allocations. Only kernels
// that depend on nothing but the memo's index (an operation, a type) are
// kept so; a kernel may be nil.
type kmemo struct{ p atomic.Pointer[kfn] }

// get returns the kernel, made by mk on first use (two goroutines may
// both make it; either's is kept, and both are the same function).
func (m *kmemo) get(mk func() kfn) kfn {
	if k := m.p.Load(); k != nil {
		return *k
	}
	k := mk()
	m.p.Store(&k)
	return k
}
