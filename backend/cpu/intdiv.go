package cpu

import (
	"unsafe"

	"github.com/tensorsh/tensorsh/backend"
)

//go:generate go run gen_intdiv.go

// Vector integer floor division and modulo.
//
// On amd64 with AVX-512 (F, DQ, VL) x // y and x % y of integers (floor
// semantics: NumPy's floor_divide and remainder) run as assembly loops
// written by gen_intdiv.go (intdiv_amd64.s) that divide in floating point:
// 16 float32 lanes for 8- and 16-bit integers, 8 float64 lanes for 32 and
// 64 bits, in place of one scalar IDIV per element. With AVX2 and FMA
// only, 8 float32 lanes and 4 float64 lanes do the same for 8-, 16-bit
// and int32 (not uint32 and 64 bits, which AVX2 cannot convert). They
// compute
//
//	q = floor(fl(x / y)),   x // y = q,   x % y = fl(x - y*q) (one FMA)
//
// which are the exact floor quotient and remainder (with CDiv, trunc in
// place of floor: C's quotient and remainder, the same argument applied
// to |Q|):
//
// Let x, y be integers exactly representable in the float format, y != 0,
// with unit roundoff u (2^-24 for float32, 2^-53 for float64), and
// |x| < 1/u. Let Q = x/y (the exact rational) and n = floor(Q). The
// rounding fl is monotone and n, n+1 are representable (|n| <= |x| < 1/u,
// |n+1| <= 1/u, a power of two),
// so n <= Q < n+1 gives n <= fl(Q) <= n+1. If Q is an integer, fl(Q) = Q.
// Otherwise fl(Q) could only reach n+1 by rounding Q up across the gap
// n+1 - Q >= 1/|y| (Q is a fraction with denominator |y|), but the
// rounding error is |fl(Q) - Q| <= u·|Q| = u·|x|/|y| < 1/|y| (Q is not
// subnormal: |Q| >= 1/|y| >= 2^-64). So
// fl(Q) < n+1 and floor(fl(Q)) = n exactly. Then x - y*n is an integer
// with |x - y*n| < |y|, representable, so the fused multiply-add that
// rounds once gives it exactly.
//
// int8, uint8, int16 and uint16 (|x| <= 2^16 < 2^24) and int32, uint32
// (< 2^32 < 2^53) are always in range; int64 and uint64 steps whose
// operands all have magnitude below 2^53 use the float64 loop, the others
// the Go loop. MIN // -1 gives the float 2^(w-1), which the conversion
// back wraps to MIN as Go does (VCVTTPD2DQ's integer indefinite for int32,
// the truncating VPMOVDB/VPMOVDW for 8 and 16 bits; int64 MIN is out of
// range), and MIN % -1 gives 0. A vector step holding a zero divisor is
// left to the Go loop (intDivL, intModL), which applies Node.IntDiv and
// ZeroDivError; that loop also does the last elements and is the whole
// kernel for anvil's nv_mod and elsewhere.

// An intDivAsm is a division loop and its unit (see gen_intdiv.go).
type intDivAsm struct {
	f    func(d, a, b unsafe.Pointer, n int) int
	unit int
}

// An intDivKey names a division loop: integers of size bytes, signed or
// not, the quotient (mod false) or the remainder.
type intDivKey struct {
	size   uintptr
	signed bool
	mod    bool
	trunc  bool // truncating (CDiv; signed only: unsigned ones floor)
}

// vectorIntDiv returns the vector form of ref, the Go loop of floor (or
// truncating) division (mod false) or modulo of T under rule, or ref
// itself where there is none (nv_mod, no AVX-512).
func vectorIntDiv[T integer](ref func(d, a, b []T) error, floor, mod bool, rule backend.IntDiv) func(d, a, b []T) error {
	return vectorIntDivFrom(intDivAsms, ref, floor, mod, rule)
}

// vectorIntDivFrom is vectorIntDiv with the loops of table.
func vectorIntDivFrom[T integer](table map[intDivKey]intDivAsm, ref func(d, a, b []T) error, floor, mod bool, rule backend.IntDiv) func(d, a, b []T) error {
	if mod && rule == backend.IntDivNvMod {
		return ref
	}
	size, signed := unsafe.Sizeof(T(0)), ^T(0) < 0
	v, ok := table[intDivKey{size, signed, mod, signed && !floor}]
	if !ok {
		return ref
	}
	asm, unit := v.f, v.unit
	return func(d, a, b []T) error {
		n := len(d)
		a, b = a[:n], b[:n]
		for i := 0; i < n; {
			if m := (n - i) / unit * unit; m > 0 {
				i += asm(unsafe.Pointer(&d[i]), unsafe.Pointer(&a[i]), unsafe.Pointer(&b[i]), m)
				if i == n {
					break
				}
			}
			// The step the loop stopped at (a zero divisor, an int64
			// out of range) or the last elements.
			j := min(i+unit, n)
			if err := ref(d[i:j], a[i:j], b[i:j]); err != nil {
				return err
			}
			i = j
		}
		return nil
	}
}

// intDivWarnSkip returns how many of the first n elements of x and y
// hold nothing NumPy warns about for op o (see intDivWarnBits), as found
// by the vector scan: a prefix the Go loop need not look at.
func intDivWarnSkip[T integer](x, y []T, n int, o backend.Op) int {
	if !haveIntSIMD || n == 0 {
		return 0
	}
	size := unsafe.Sizeof(T(0))
	scan := intDivScans[size]
	if scan == nil {
		return 0
	}
	m := n / int(32/size) * int(32/size)
	if m == 0 {
		return 0
	}
	bits := scan(unsafe.Pointer(&x[0]), unsafe.Pointer(&y[0]), m)
	if bits&1 != 0 || (bits&2 != 0 && ^T(0) < 0 && o == backend.OpFloorDiv) {
		return 0
	}
	return m
}
