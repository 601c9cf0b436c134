package eval

import (
	"math/big"

	"github.com/tensorsh/tensorsh/promote"
)

// NumPy checks integer arithmetic on scalars (its scalar types, which a
// 0-d tensor stands for) and warns when the result wraps, in the words of
// numpy/_core/src/umath/scalarmath.c.src: the ufunc's name after
// "scalar". Arrays wrap silently.

// scalar returns the value of a scalar operand known before evaluation: a
// literal, or a 0-d tensor whose value is known; nil for any other.
func (o *operand) scalar() *promote.Scalar {
	switch {
	case o.kind == LiteralValue:
		return &o.lit
	case o.kind == TensorValue && len(o.shape) == 0:
		return o.value
	}
	return nil
}

// scalarInt returns the exact value of an integer or bool scalar operand:
// a literal, or a 0-d tensor whose value is known. It returns nil for any
// other operand.
func scalarInt(o *operand) *big.Int {
	v := o.scalar()
	if v == nil || v.Kind != promote.IntScalar && v.Kind != promote.BoolScalar {
		return nil
	}
	return v.Int
}

// scalarUfuncs names the binary operations as NumPy's warnings do.
var scalarUfuncs = map[promote.BinaryOp]string{
	promote.Add: "add", promote.Sub: "subtract", promote.Mul: "multiply",
	promote.FloorDiv: "floor_divide", promote.Mod: "remainder",
}

// scalarBinaryWarning returns NumPy's RuntimeWarning for x op y on integer
// scalars ("" when there is none). scalar reports whether the operands are
// scalars whose arithmetic the policy checks: then the scalar wording
// replaces the array loops' warnings of // and % (res.WarnIntDiv).
func scalarBinaryWarning(op promote.BinaryOp, x, y *operand, res promote.Result) (warning string, scalar bool) {
	name, ok := scalarUfuncs[op]
	if !ok || !res.Compute.IsInt() || !res.WarnScalarOverflow && !res.WarnIntDiv {
		return "", false
	}
	a, b := scalarInt(x), scalarInt(y)
	if a == nil || b == nil {
		return "", false
	}
	d := res.Compute
	lo, hi := d.IntRange()
	switch op {
	case promote.Add, promote.Sub, promote.Mul:
		// @name@_ctype_add, _subtract, _multiply: NPY_FPE_OVERFLOW when the
		// exact result does not fit.
		exact := new(big.Int)
		switch op {
		case promote.Add:
			exact.Add(a, b)
		case promote.Sub:
			exact.Sub(a, b)
		default:
			exact.Mul(a, b)
		}
		if exact.Cmp(big.NewInt(lo)) < 0 || exact.Cmp(new(big.Int).SetUint64(hi)) > 0 {
			return "RuntimeWarning: overflow encountered in scalar " + name, true
		}
	case promote.FloorDiv, promote.Mod:
		// @name@_ctype_divide and _remainder: a zero divisor sets
		// NPY_FPE_DIVIDEBYZERO; MIN // -1 sets NPY_FPE_OVERFLOW (MIN % -1
		// is 0 without one).
		switch {
		case b.Sign() == 0:
			return "RuntimeWarning: divide by zero encountered in scalar " + name, true
		case op == promote.FloorDiv && d.IsSigned() && a.Cmp(big.NewInt(lo)) == 0 && b.Cmp(big.NewInt(-1)) == 0:
			return "RuntimeWarning: overflow encountered in scalar " + name, true
		}
	}
	return "", true
}

// scalarUnaryWarning returns NumPy's RuntimeWarning for -x or abs(x) on an
// integer scalar, or "": @name@_ctype_negative warns for a nonzero
// unsigned x and the minimum signed one, @name@_ctype_absolute for the
// minimum signed one.
func scalarUnaryWarning(op promote.UnaryOp, x *operand, res promote.Result) string {
	a := scalarInt(x)
	if !res.WarnScalarOverflow || a == nil || !res.Compute.IsInt() {
		return ""
	}
	lo, _ := res.Compute.IntRange()
	isMin := res.Compute.IsSigned() && a.Cmp(big.NewInt(lo)) == 0
	switch {
	case op == promote.Neg && (isMin || !res.Compute.IsSigned() && a.Sign() != 0):
		return "RuntimeWarning: overflow encountered in scalar negative"
	case op == promote.Abs && isMin:
		return "RuntimeWarning: overflow encountered in scalar absolute"
	}
	return ""
}
