//go:build ignore

// A tensorsh user policy: promote like C. It is an example of writing a
// policy in Go; tensorsh's built-in policy "c" models C in full (constants
// of type long, signed overflow as undefined behavior, <tgmath.h>), and a
// user policy may not take a built-in's name, so this one is "c-user".
//
//	:policy load examples/cpolicy.go
//	table()
//	diff("c", "c-user")
//
// It follows the usual arithmetic conversions of C11 §6.3.1.8 on an LP64
// machine (int is 32 bits, long 64), with GCC's _Float16 and __bf16:
//
//   - A complex operand makes the result complex, of the larger real type.
//   - Otherwise a floating operand wins over an integer one, and the wider
//     float wins (float + double is double). _Float16 and __bf16 have no
//     common type: GCC refuses to mix them.
//   - Otherwise both operands go through the integer promotions: _Bool,
//     char and short (signed or not) become int, which holds all their
//     values; so i8 + i8 is an i32, and so is u16 + u16.
//   - Then the type of higher rank wins; at equal rank, unsigned wins
//     (i32 + u32 is u32, i64 + u64 is u64); a signed type wins over a
//     narrower unsigned one, since it holds all its values (i64 + u32 is
//     i64).
//
// Literals have C's types: 1 is an int, 1.5 a double, true an int. C has
// no weak types, so u8 + 1 is an int, and f32 + 1.5 is a double. Integer
// division truncates toward zero, / on integers stays integer, and
// integer constants wrap when converted (C's modular conversion to
// unsigned types; for signed types GCC wraps too).
//
// The build constraint keeps the go tool from compiling this file with the
// rest of the project; tensorsh reads it with the tag "ignore" set.
package cpolicy

import (
	"errors"
	"fmt"

	"tensorsh"
)

const (
	Name         = "c-user"
	Title        = "C usual arithmetic conversions (LP64, GCC _Float16 and __bf16)"
	Base         = "numpy" // for what C does not say: sums, argmax
	CDiv         = true
	IntTrueDiv   = true
	WrapLiterals = true
)

// DTypes are the types of C: _Bool; signed and unsigned char, short, int
// and long; _Float16, __bf16, float, double; float and double _Complex.
func DTypes() []tensorsh.DType {
	return []tensorsh.DType{
		tensorsh.Bool,
		tensorsh.I8, tensorsh.I16, tensorsh.I32, tensorsh.I64,
		tensorsh.U8, tensorsh.U16, tensorsh.U32, tensorsh.U64,
		tensorsh.F16, tensorsh.BF16, tensorsh.F32, tensorsh.F64,
		tensorsh.C64, tensorsh.C128,
	}
}

// Literal gives C's type of a constant: true and 1 are ints, 1.5 is a
// double, 1j (a GNU imaginary constant) is a double _Complex.
func Literal(k tensorsh.Kind) (tensorsh.Type, error) {
	switch k {
	case tensorsh.KindBool, tensorsh.KindInt:
		return tensorsh.Strong(tensorsh.I32), nil
	case tensorsh.KindFloat:
		return tensorsh.Strong(tensorsh.F64), nil
	}
	return tensorsh.Strong(tensorsh.C128), nil
}

// FloatResult is the type of exp(x), sqrt(x) … for an integer x: the
// functions of <math.h> take and return double.
func FloatResult(a tensorsh.Type) (tensorsh.Type, error) {
	return tensorsh.Strong(tensorsh.F64), nil
}

// rank is the integer conversion rank (C11 §6.3.1.1).
func rank(d tensorsh.DType) int {
	if d == tensorsh.Bool {
		return 0
	}
	return d.Bits() / 8 // char 1, short 2, int 4, long 8
}

// promoteInt applies the integer promotions: types of lower rank than int
// become int.
func promoteInt(d tensorsh.DType) tensorsh.DType {
	if rank(d) < rank(tensorsh.I32) {
		return tensorsh.I32
	}
	return d
}

// unsignedOf is the unsigned type of the same rank as a signed type.
func unsignedOf(d tensorsh.DType) tensorsh.DType {
	switch d {
	case tensorsh.I32:
		return tensorsh.U32
	case tensorsh.I64:
		return tensorsh.U64
	}
	return d
}

// floatRank orders the floating types; _Float16 and __bf16 share a rank
// but do not convert to each other.
func floatRank(d tensorsh.DType) int {
	switch d {
	case tensorsh.F16, tensorsh.BF16:
		return 1
	case tensorsh.F32:
		return 2
	}
	return 3
}

func joinFloat(x, y tensorsh.DType) (tensorsh.DType, error) {
	switch {
	case !x.IsFloat():
		return y, nil
	case !y.IsFloat():
		return x, nil
	case x == y:
		return x, nil
	case floatRank(x) == floatRank(y):
		return 0, fmt.Errorf("%s and %s have no common type in C (GCC: invalid operands to binary expression)", x, y)
	case floatRank(x) > floatRank(y):
		return x, nil
	}
	return y, nil
}

// Promote applies the usual arithmetic conversions.
func Promote(a, b tensorsh.Type) (tensorsh.Type, error) {
	x, y := a.DType, b.DType
	if x.IsComplex() || y.IsComplex() {
		r, err := joinFloat(x.Real(), y.Real())
		if err != nil {
			return tensorsh.Type{}, err
		}
		if r == tensorsh.F64 {
			return tensorsh.Strong(tensorsh.C128), nil
		}
		return tensorsh.Strong(tensorsh.C64), nil
	}
	if x.IsFloat() || y.IsFloat() {
		r, err := joinFloat(x, y)
		return tensorsh.Strong(r), err
	}
	if !x.IsInt() && !x.IsBool() || !y.IsInt() && !y.IsBool() {
		return tensorsh.Type{}, errors.New("C has no such type")
	}
	x, y = promoteInt(x), promoteInt(y)
	switch {
	case x == y:
		return tensorsh.Strong(x), nil
	case x.IsSigned() == y.IsSigned():
		if rank(x) > rank(y) {
			return tensorsh.Strong(x), nil
		}
		return tensorsh.Strong(y), nil
	}
	u, s := x, y
	if x.IsSigned() {
		u, s = y, x
	}
	switch {
	case rank(u) >= rank(s):
		return tensorsh.Strong(u), nil
	case s.Bits() > u.Bits():
		return tensorsh.Strong(s), nil
	}
	return tensorsh.Strong(unsignedOf(s)), nil
}
