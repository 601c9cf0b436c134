package cpu

import (
	"encoding/binary"
	"errors"
	"sync"
	"unsafe"

	"github.com/tensorsh/tensorsh/backend"
)

// errNegativePower is NumPy's error for an integer raised to a negative
// integer power.
var errNegativePower = errors.New("integers to negative integer powers are not allowed")

// intKernel returns the kernel of n on integers of type T. Arithmetic
// wraps (two's complement); division and remainder follow n.CDiv and
// n.ZeroDivError.
func intKernel[T integer](n *backend.Node) kfn {
	floor := !n.CDiv
	zeroErr := n.ZeroDivError
	if k := doubleIntKernel[T](n); k != nil {
		return k
	}
	if k := constShiftKernel[T](n); k != nil {
		return k
	}
	if k := vectorIntKernel[T](n.Op); k != nil {
		return k
	}
	switch n.Op {
	case backend.OpNeg:
		return un(negL[T])
	case backend.OpAbs:
		return un(absL[T])
	case backend.OpInvert:
		return un(invertL[T])
	case backend.OpNot:
		return un(notL[T])
	case backend.OpRelu:
		return un(func(d, a []T) {
			a = a[:len(d)]
			for i := range d {
				d[i] = max(a[i], 0)
			}
		})
	case backend.OpFloor, backend.OpCeil, backend.OpRound, backend.OpRoundEven, backend.OpTrunc:
		return un(copyL[T])
	case backend.OpIsNaN, backend.OpIsInf:
		return un(func(d []bool, a []T) { clear(d) })
	case backend.OpIsFinite:
		return un(func(d []bool, a []T) {
			for i := range d {
				d[i] = true
			}
		})
	case backend.OpSign:
		// Without a branch (signInt). The branching loop took 1.3 ms on
		// 10^6 int8 or int32.
		return un(func(d, a []T) { signInt(d, a) })
	case backend.OpSquare:
		return un(func(d, a []T) {
			a = a[:len(d)]
			for i := range d {
				d[i] = a[i] * a[i]
			}
		})
	case backend.OpReciprocal:
		return un(reciprocalL[T])
	case backend.OpAdd:
		return bin(addL[T])
	case backend.OpSub:
		return bin(subL[T])
	case backend.OpMul:
		return bin(mulL[T])
	case backend.OpDiv, backend.OpFloorDiv:
		ref := intDivL[T](floor, zeroErr, n.IntDiv)
		if k := constIntDiv(n, floor, ref); k != nil {
			return binErr(k)
		}
		return binErr(vectorIntDiv(ref, floor, false, n.IntDiv))
	case backend.OpMod:
		return binErr(vectorIntDiv(intModL[T](floor, zeroErr, n.IntDiv), floor, true, n.IntDiv))
	case backend.OpPow:
		if unsafe.Sizeof(T(0)) == 1 {
			return binErr(func(d, a, b []T) error {
				t := pow8Table()
				a, b = a[:len(d)], b[:len(d)]
				for i := range d {
					if b[i] < 0 {
						return errNegativePower
					}
					d[i] = T(t[int(uint8(a[i]))<<8|int(uint8(b[i]))])
				}
				return nil
			})
		}
		return binErr(func(d, a, b []T) error {
			a, b = a[:len(d)], b[:len(d)]
			for i := range d {
				x, e := a[i], b[i]
				if e < 0 {
					return errNegativePower
				}
				r := T(1)
				for e > 0 {
					if e&1 != 0 {
						r *= x
					}
					x *= x
					e >>= 1
				}
				d[i] = r
			}
			return nil
		})
	case backend.OpMax:
		return bin(maxIntL[T])
	case backend.OpMin:
		return bin(minIntL[T])
	case backend.OpEq:
		return bin(eqL[T])
	case backend.OpNe:
		return bin(neL[T])
	case backend.OpLt:
		return bin(ltL[T])
	case backend.OpLe:
		return bin(leL[T])
	case backend.OpGt:
		return bin(gtL[T])
	case backend.OpGe:
		return bin(geL[T])
	case backend.OpBitAnd:
		return bin(bitAndL[T])
	case backend.OpBitOr:
		return bin(bitOrL[T])
	case backend.OpBitXor:
		return bin(bitXorL[T])
	case backend.OpShl:
		// A count of the width or more (or negative, read as unsigned)
		// gives 0, as in NumPy.
		return bin(shlL[T])
	case backend.OpShr:
		// Arithmetic for signed types: a count of the width or more gives
		// 0 or -1, as in NumPy.
		return bin(shrL[T])
	case backend.OpAnd:
		return bin(andL[T])
	case backend.OpOr:
		return bin(orL[T])
	}
	return nil
}

// constIntDiv returns the loop of the floor division n of integers of 8,
// 16 or 32 bits by a constant divisor (its second operand a one-element
// input holding a value other than 0) where there is one
// (floorDivConst), else nil.
func constIntDiv[T integer](n *backend.Node, floor bool, ref func(d, a, b []T) error) func(d, a, b []T) error {
	if !floor || len(n.Args) != 2 {
		return nil
	}
	y := n.Args[1]
	if y.Op != backend.OpInput || y.Tensor == nil {
		return nil
	}
	c, ok := y.Tensor.Data.([]T)
	if !ok || len(c) != 1 {
		return nil
	}
	return floorDivConst(c[0], ref)
}

// intDivL is the integer division loop: floor division unless floor is
// false (then truncating, Go's /); a zero divisor gives
// backend.ErrDivideByZero when zeroErr, else intDivByZero under rule. It is
// the reference of the vector loops (see vectorIntDiv).
func intDivL[T integer](floor, zeroErr bool, rule backend.IntDiv) func(d, a, b []T) error {
	return func(d, a, b []T) error {
		a, b = a[:len(d)], b[:len(d)]
		for i := range d {
			x, y := a[i], b[i]
			if y == 0 {
				if zeroErr {
					return backend.ErrDivideByZero
				}
				d[i] = intDivByZero(x, rule)
				continue
			}
			q := x / y // Go gives MinInt / -1 = MinInt, as NumPy and XLA do
			if floor && x%y != 0 && (x < 0) != (y < 0) {
				q--
			}
			d[i] = q
		}
		return nil
	}
}

// intModL is the integer remainder loop: the floor modulo (the sign of the
// divisor) unless floor is false (then Go's %, the sign of the dividend),
// or anvil's nv_mod under backend.IntDivNvMod; a zero divisor gives
// backend.ErrDivideByZero when zeroErr, else x (XLA, nv_mod) or 0. It is
// the reference of the vector loops (see vectorIntDiv).
func intModL[T integer](floor, zeroErr bool, rule backend.IntDiv) func(d, a, b []T) error {
	return func(d, a, b []T) error {
		a, b = a[:len(d)], b[:len(d)]
		for i := range d {
			x, y := a[i], b[i]
			if y == 0 {
				if zeroErr {
					return backend.ErrDivideByZero
				}
				if rule == backend.IntDivXLA || rule == backend.IntDivNvMod {
					d[i] = x // XLA's Rem: x % 0 is x (and so is nv_mod's)
				} else {
					d[i] = 0
				}
				continue
			}
			r := x % y // Go gives MinInt % -1 = 0, as NumPy and XLA do
			switch {
			case rule == backend.IntDivNvMod:
				r = (r + y) % y // anvil's nv_mod, wrapping like XLA
			case floor && r != 0 && (r < 0) != (y < 0):
				r += y
			}
			d[i] = r
		}
		return nil
	}
}

// intDivByZero is x / 0 (or x // 0) under rule: 0 (NumPy); all ones, -1
// when signed (XLA's Div); and jax.numpy's floor_divide, which corrects
// XLA's quotient -1 to -2 when the signs of x and 0 differ and XLA's
// remainder x % 0 = x is not 0 (so -2 for signed x != 0, -1 for 0, and the
// maximum, all ones, for unsigned types, whose floor_divide is a bare
// lax.div).
func intDivByZero[T integer](x T, rule backend.IntDiv) T {
	switch rule {
	case backend.IntDivJNP:
		if signed := ^T(0) < 0; signed && x != 0 {
			return ^T(1)
		}
		return ^T(0)
	case backend.IntDivXLA, backend.IntDivNvMod:
		return ^T(0)
	}
	return 0
}

// warnIntDiv wraps the integer OpFloorDiv or OpMod kernel k so that the
// run records NumPy's warnings (Node.WarnIntDiv): a zero divisor, and for
// floor division MIN // -1.
func (r *runner) warnIntDiv(k kfn, o backend.Op) kfn {
	return func(d any, a []any) error {
		if err := k(d, a); err != nil {
			return err
		}
		var bits uint32
		switch x := a[0].(type) {
		case []int8:
			bits = intDivWarnBits(x, a[1].([]int8), len(d.([]int8)), o)
		case []int16:
			bits = intDivWarnBits(x, a[1].([]int16), len(d.([]int16)), o)
		case []int32:
			bits = intDivWarnBits(x, a[1].([]int32), len(d.([]int32)), o)
		case []int64:
			bits = intDivWarnBits(x, a[1].([]int64), len(d.([]int64)), o)
		case []uint8:
			bits = intDivWarnBits(x, a[1].([]uint8), len(d.([]uint8)), o)
		case []uint16:
			bits = intDivWarnBits(x, a[1].([]uint16), len(d.([]uint16)), o)
		case []uint32:
			bits = intDivWarnBits(x, a[1].([]uint32), len(d.([]uint32)), o)
		case []uint64:
			bits = intDivWarnBits(x, a[1].([]uint64), len(d.([]uint64)), o)
		}
		if bits != 0 {
			r.warn.Or(bits)
		}
		return nil
	}
}

// intDivWarnBits returns the warning bits of x // y (or x % y) over the
// first n elements: NumPy warns for a zero divisor ("divide by zero
// encountered in floor_divide", or "remainder") and for MIN // -1
// ("overflow encountered in floor_divide"; MIN % -1 is 0 without one).
func intDivWarnBits[T integer](x, y []T, n int, o backend.Op) uint32 {
	k := intDivWarnSkip(x, y, n, o)
	x, y = x[k:n], y[k:n]
	var bits uint32
	signed := ^T(0) < 0
	minT := T(1) << (unsafe.Sizeof(T(0))*8 - 1)
	for i, v := range y {
		switch {
		case v == 0 && o == backend.OpMod:
			bits |= backend.WarnDivZeroRemainder
		case v == 0:
			bits |= backend.WarnDivZeroFloorDivide
		case signed && o == backend.OpFloorDiv && v == ^T(0) && x[i] == minT:
			bits |= backend.WarnOverflowFloorDivide
		}
	}
	return bits
}

// reciprocalL is NumPy's integer reciprocal (numpy/_core/src/umath/
// loops.c.src, @TYPE@_reciprocal): 1.0/x in double, converted back to the
// integer type. That is 1 at 1, -1 at -1 and 0 elsewhere, but for 1/0 = inf,
// whose conversion C leaves undefined: on x86-64, which NumPy's wheels
// target, cvttsd2si gives the minimum of a 32- or 64-bit signed type, and
// the narrower and unsigned types keep the low bits of that pattern, 0
// (measured: NumPy 1.24, reciprocal of int8 … uint64 zeros).
func reciprocalL[T integer](d, a []T) {
	a = a[:len(d)]
	var minusOne, zeroRecip T
	minusOne--
	signed := minusOne < 0
	if signed && unsafe.Sizeof(zeroRecip) >= 4 {
		zeroRecip = T(1) << (8*unsafe.Sizeof(zeroRecip) - 1)
	}
	for i := range d {
		switch x := a[i]; {
		case x == 1:
			d[i] = 1
		case signed && x == minusOne:
			d[i] = minusOne
		case x == 0:
			d[i] = zeroRecip
		default:
			d[i] = 0
		}
	}
}

// signInt sets d[i] to the sign of a[i] (-1, 0, 1; 0 or 1 unsigned)
// without a branch: x>>top is -1 for a negative x, and the top bit of -x
// (signed) or of x|-x (unsigned) is set for a nonzero one; MIN's -x is
// MIN, and -1 | 1 is still -1. Each type has its constant shifts (a
// generic shift by a variable count cost twice the instructions).
func signInt[T integer](d, a []T) {
	switch d := any(d).(type) {
	case []int8:
		sign8(unsafe.Slice((*uint8)(unsafe.Pointer(unsafe.SliceData(d))), len(d)),
			unsafe.Slice((*uint8)(unsafe.Pointer(unsafe.SliceData(any(a).([]int8)))), len(d)), true)
	case []int16:
		for i, x := range any(a).([]int16)[:len(d)] {
			d[i] = x>>15 | int16(uint16(-x)>>15)
		}
	case []int32:
		for i, x := range any(a).([]int32)[:len(d)] {
			d[i] = x>>31 | int32(uint32(-x)>>31)
		}
	case []int64:
		for i, x := range any(a).([]int64)[:len(d)] {
			d[i] = x>>63 | int64(uint64(-x)>>63)
		}
	case []uint8:
		sign8(d, any(a).([]uint8)[:len(d)], false)
	case []uint16:
		for i, x := range any(a).([]uint16)[:len(d)] {
			d[i] = (x | -x) >> 15
		}
	case []uint32:
		for i, x := range any(a).([]uint32)[:len(d)] {
			d[i] = (x | -x) >> 31
		}
	case []uint64:
		for i, x := range any(a).([]uint64)[:len(d)] {
			d[i] = (x | -x) >> 63
		}
	}
}

// sign8 is signInt for bytes, eight a word: per byte, nz is 1 where the
// byte is not zero (its low seven bits plus 0x7f carry into the top bit,
// or the top bit is set), neg its top bit; the sign is nz | neg·0xfe (1,
// 0xff = -1 or 0), or nz alone for unsigned bytes. 10^6 int8 took 0.8 ms
// a byte at a time.
func sign8(d, a []uint8, signed bool) {
	const lo7, ones = 0x7f7f7f7f7f7f7f7f, 0x0101010101010101
	a = a[:len(d)]
	n := len(d) &^ 7
	for i := 0; i < n; i += 8 {
		x := binary.LittleEndian.Uint64(a[i:])
		nz := (((x & lo7) + lo7) | x) >> 7 & ones
		if signed {
			nz |= (x >> 7 & ones) * 0xfe
		}
		binary.LittleEndian.PutUint64(d[i:], nz)
	}
	for i := n; i < len(d); i++ {
		x := a[i]
		switch {
		case signed && int8(x) < 0:
			d[i] = 0xff
		case x != 0:
			d[i] = 1
		default:
			d[i] = 0
		}
	}
}

// pow8Table holds x ** e wrapped to 8 bits at [x<<8 | e], for the bits
// x and e of int8 and uint8 operands (their products wrap alike). The
// squarings loop of the wider integers takes a branch on each of the
// exponent's bits, which random exponents mispredict: p ** q on 10^6
// uint8 took 8.3 ms on two workers, NumPy's 6.8 ms on one.
var pow8Table = sync.OnceValue(func() *[1 << 16]uint8 {
	t := new([1 << 16]uint8)
	for x := range 256 {
		r := uint8(1)
		for e := range 256 {
			t[x<<8|e] = r
			r *= uint8(x)
		}
	}
	return t
})
