package promote

import (
	"fmt"
	"math"

	"github.com/tensorsh/tensorsh/dtypes"
)

// The julia policy: Julia's arithmetic on arrays (broadcast .+ and
// friends) of its bit types, as base/promotion.jl, base/int.jl,
// base/float.jl, base/bool.jl, base/complex.jl and base/reduce.jl define
// it (Julia 1.11, Int = Int64).
//
// promote_type: Bool is below every number; of two integer types the
// wider wins, and at equal width the unsigned one; a float wins over any
// integer (Float16 + Int64 is Float16); the wider float wins; Complex{T}
// with S is Complex{promote_type(T, S)}. ComplexF16 is left out (tensorsh's
// c32 is PyTorch's ComplexHalf, with PyTorch's few kernels), and there is
// no bfloat16 in Base.
//
// Literals are not weak: 1 is an Int64, 1.5 a Float64, true a Bool and a
// complex literal a ComplexF64, so Int8[1] .+ 1 is Int64 and
// Float32[1] .* 2.0 is Float64. Integer arithmetic wraps. Bool + Bool and
// Bool - Bool are Int64; Bool * Bool is Bool. / on integers converts both
// operands with float (Float64). tensorsh's // is Julia's ÷ (div, which
// truncates toward zero) and % is rem (truncating), so both follow the
// dividend's sign; an integer divisor of zero is a DivideError. Julia's
// fld and mod (flooring) have no operator in tensorsh. exp, log, sqrt …
// of an integer or Bool are Float64. sum and prod widen Int8–Int32 to
// Int64 and UInt8–UInt32 to UInt64 (Base.add_sum, Base.mul_prod); the sum
// of Bools is Int64; Statistics.mean of integers is Float64; argmax is an
// Int64 index. where(c, a, b) is promote_type of a and b, as vcat and
// promote give; ifelse.(c, a, b) over arrays of two element types would
// instead collect into their typejoin (Vector{Integer}), which tensorsh
// has no dtype for.

func init() {
	register("julia", func() Policy { return juliaPolicy{} })
}

type juliaPolicy struct{}

const juliaName = "julia"

var juliaDTypes = []dtypes.DType{
	dtypes.Bool, dtypes.I8, dtypes.I16, dtypes.I32, dtypes.I64,
	dtypes.U8, dtypes.U16, dtypes.U32, dtypes.U64,
	dtypes.F16, dtypes.F32, dtypes.F64, dtypes.C64, dtypes.C128,
}

func (juliaPolicy) Name() string { return juliaName }

func (juliaPolicy) Title() string { return "Julia 1.11 promote_type and array arithmetic" }

func (juliaPolicy) DTypes() []dtypes.DType { return juliaDTypes }

func (juliaPolicy) Host() Host { return Python }

// juliaTypeName is Julia's name of a dtype, for messages.
func juliaTypeName(d dtypes.DType) string {
	switch d {
	case dtypes.Bool:
		return "Bool"
	case dtypes.I8, dtypes.I16, dtypes.I32, dtypes.I64:
		return fmt.Sprintf("Int%d", d.Bits())
	case dtypes.U8, dtypes.U16, dtypes.U32, dtypes.U64:
		return fmt.Sprintf("UInt%d", d.Bits())
	case dtypes.F16, dtypes.F32, dtypes.F64:
		return fmt.Sprintf("Float%d", d.Bits())
	case dtypes.C32:
		return "ComplexF16"
	case dtypes.C64:
		return "ComplexF32"
	case dtypes.C128:
		return "ComplexF64"
	}
	return d.FullName()
}

func (juliaPolicy) Check(d dtypes.DType) (dtypes.DType, string, error) {
	if numpyHas(juliaDTypes, d) {
		return d, "", nil
	}
	return dtypes.Invalid, "", Errorf(juliaName, -1, "no dtype %s in Julia's Base (tensorsh models Bool, Int8–Int64, UInt8–UInt64, Float16, Float32, Float64, ComplexF32 and ComplexF64)", d)
}

// juliaLiteralDType is the type Julia's parser gives a literal.
func juliaLiteralDType(v Scalar) (dtypes.DType, bool) {
	switch v.Kind {
	case BoolScalar:
		return dtypes.Bool, true
	case IntScalar:
		return dtypes.I64, numpyIntFits(v.Int, dtypes.I64)
	case FloatScalar:
		return dtypes.F64, true
	}
	return dtypes.C128, true
}

// Literal gives a literal Julia's type for it: strong, not weak.
func (juliaPolicy) Literal(v Scalar) (dtypes.Type, error) {
	d, ok := juliaLiteralDType(v)
	if !ok {
		return dtypes.Type{}, Errorf(juliaName, 0, "the literal %s is an Int128 or BigInt in Julia, which tensorsh does not have", v)
	}
	return dtypes.Strong(d), nil
}

// ArrayLiteral gives the element type of a vector literal [1, 2.5].
func (juliaPolicy) ArrayLiteral(k ScalarKind) (dtypes.Type, error) {
	d, _ := juliaLiteralDType(Scalar{Kind: k})
	return dtypes.Strong(d), nil
}

// Convert checks T(v): an integer or float that does not fit T exactly is
// an InexactError.
func (p juliaPolicy) Convert(v Scalar, d dtypes.DType) error {
	if _, _, err := p.Check(d); err != nil {
		return err
	}
	inexact := func() error {
		return Errorf(juliaName, 0, "InexactError: %s(%s)", juliaTypeName(d), v)
	}
	switch {
	case v.Kind == ComplexScalar && !d.IsComplex():
		if imag(v.Complex) != 0 {
			return inexact()
		}
	case d == dtypes.Bool:
		switch v.Kind {
		case IntScalar:
			if v.Int.Sign() < 0 || v.Int.BitLen() > 1 {
				return inexact()
			}
		case FloatScalar:
			if v.Float != 0 && v.Float != 1 {
				return inexact()
			}
		}
	case d.IsInt():
		switch v.Kind {
		case IntScalar:
			if !numpyIntFits(v.Int, d) {
				return inexact()
			}
		case FloatScalar:
			// hi+1 is a power of two, exact as a float64.
			lo, hi := d.IntRange()
			if v.Float != math.Trunc(v.Float) || v.Float < float64(lo) || v.Float >= float64(hi)+1 {
				return inexact()
			}
		}
	}
	return nil
}

// juliaIntOrder ranks integer types for promote_type: the wider wins, and
// at equal width the unsigned one.
func juliaIntOrder(d dtypes.DType) int {
	r := d.Bits() * 2
	if d.IsUnsigned() {
		r++
	}
	return r
}

// juliaPromote is promote_type on Julia's bit types.
func juliaPromote(a, b dtypes.DType) dtypes.DType {
	switch {
	case a == b:
		return a
	case a == dtypes.Bool:
		return b
	case b == dtypes.Bool:
		return a
	case a.IsComplex() || b.IsComplex():
		// promote_rule(Complex{T}, S) = Complex{promote_type(T, S)}.
		ar, br := a, b
		if a.IsComplex() {
			ar = a.Real()
		}
		if b.IsComplex() {
			br = b.Real()
		}
		return juliaComplexOf(juliaPromote(ar, br))
	case a.IsFloat() && b.IsFloat():
		return numpyWider(a, b)
	case a.IsFloat():
		return a
	case b.IsFloat():
		return b
	}
	if juliaIntOrder(a) > juliaIntOrder(b) {
		return a
	}
	return b
}

// juliaComplexOf is Complex{T} for a float T.
func juliaComplexOf(d dtypes.DType) dtypes.DType {
	switch d {
	case dtypes.F16:
		return dtypes.C32
	case dtypes.F32:
		return dtypes.C64
	}
	return dtypes.C128
}

// juliaFloat is float(T): Float64 for Bool and the integers.
func juliaFloat(d dtypes.DType) dtypes.DType {
	if d.IsInexact() {
		return d
	}
	return dtypes.F64
}

func (p juliaPolicy) arg(idx int, o Operand) (dtypes.DType, error) {
	d := o.Type.DType
	if o.Literal && o.Value != nil {
		t, err := p.Literal(*o.Value)
		if err != nil {
			return dtypes.Invalid, Errorf(juliaName, idx, "%s", err.(*Error).Msg)
		}
		return t.DType, nil
	}
	if !numpyHas(juliaDTypes, d) {
		return dtypes.Invalid, Errorf(juliaName, idx, "no dtype %s in Julia's Base", d)
	}
	return d, nil
}

func (p juliaPolicy) Binary(op BinaryOp, x, y Operand) (Result, error) {
	a, err := p.arg(0, x)
	if err != nil {
		return Result{}, err
	}
	b, err := p.arg(1, y)
	if err != nil {
		return Result{}, err
	}
	names := juliaTypeName(a) + " and " + juliaTypeName(b)
	noMethod := func(fn string) error {
		return Errorf(juliaName, -1, "MethodError: no method matching %s(::%s, ::%s)", fn, juliaTypeName(a), juliaTypeName(b))
	}
	if op.Class() == Logical {
		if a != dtypes.Bool || b != dtypes.Bool {
			return Result{}, Errorf(juliaName, -1, "TypeError: non-boolean used in boolean context (%s needs Bool operands, got %s)", op, names)
		}
		return Result{Type: dtypes.Strong(dtypes.Bool), Compute: dtypes.Bool, Rule: "Bool " + op.String() + " Bool is Bool"}, nil
	}
	d := juliaPromote(a, b)
	rule := fmt.Sprintf("promote_type(%s) is %s", names, juliaTypeName(d))
	if a == b {
		rule = fmt.Sprintf("both operands are %s", juliaTypeName(d))
	}
	r := Result{Type: dtypes.Strong(d), Compute: d, Rule: rule}
	if r, ok, err := juliaEverydayBinary(op, a, b, d); ok {
		return r, err
	}
	switch op.Class() {
	case Arith:
		switch op {
		case Add, Sub:
			if d == dtypes.Bool {
				// bool.jl: +(x::Bool, y::Bool) = Int(x) + Int(y).
				r.Type.DType, r.Compute = dtypes.I64, dtypes.I64
				r.Rule += fmt.Sprintf("; Bool %s Bool converts both to Int64", op)
			}
		case MatMul:
			if d == dtypes.Bool {
				// matprod(x, y) = x*y + x*y: Bool*Bool is Bool, Bool+Bool is Int64.
				r.Type.DType, r.Compute = dtypes.I64, dtypes.I64
				r.Rule += "; a matrix product of Bools sums Bool products, which is Int64"
			}
		case Maximum, Minimum, Clip:
			if d.IsComplex() {
				return Result{}, noMethod("isless")
			}
		}
	case Div:
		f := juliaFloat(d)
		if f != d {
			r.Rule += fmt.Sprintf("; / converts integers with float: %s", juliaTypeName(f))
		}
		r.Type.DType, r.Compute = f, f
	case DivMod:
		if d.IsComplex() {
			if op == FloorDiv {
				return Result{}, noMethod("div")
			}
			return Result{}, noMethod("rem")
		}
		r.CDiv = true
		r.ZeroDivError = !d.IsInexact()
		if op == FloorDiv {
			r.Rule += "; // is Julia's ÷ (div), which truncates toward zero"
		} else {
			r.Rule += "; % is Julia's rem, which takes the dividend's sign"
		}
	case Compare:
		if d.IsComplex() && op != Eq && op != Ne {
			return Result{}, noMethod("isless")
		}
		r.Type.DType = dtypes.Bool
		r.Rule += "; the comparison gives Bool"
	case Bitwise:
		if !a.IsInt() && a != dtypes.Bool || !b.IsInt() && b != dtypes.Bool {
			return Result{}, noMethod(map[BinaryOp]string{BitAnd: "&", BitOr: "|", BitXor: "xor", Shl: "<<", Shr: ">>"}[op])
		}
		if op == Shl || op == Shr {
			// A shift keeps the type of the shifted value; bool.jl shifts a
			// Bool as Int(x).
			s := a
			if s == dtypes.Bool {
				s = dtypes.I64
			}
			r.Type.DType, r.Compute = s, s
			r.Rule = fmt.Sprintf("a shift keeps the type of its left operand: %s", juliaTypeName(s))
		}
	}
	return r, nil
}

func (p juliaPolicy) Unary(op UnaryOp, x Operand) (Result, error) {
	d, err := p.arg(0, x)
	if err != nil {
		return Result{}, err
	}
	res := func(out, compute dtypes.DType, rule string) (Result, error) {
		return Result{Type: dtypes.Strong(out), Compute: compute, Rule: rule}, nil
	}
	noMethod := func(fn string) error {
		return Errorf(juliaName, 0, "MethodError: no method matching %s(::%s)", fn, juliaTypeName(d))
	}
	if r, ok, err := juliaEveryday(op, d); ok {
		return r, err
	}
	switch op.Class() {
	case SameType:
		switch {
		case (op == Neg || op == Pos) && d == dtypes.Bool:
			return res(dtypes.I64, dtypes.I64, fmt.Sprintf("%sBool is %sInt(x), an Int64", op, op))
		case op == Abs && d.IsComplex():
			return res(d.Real(), d, fmt.Sprintf("abs of %s is %s", juliaTypeName(d), juliaTypeName(d.Real())))
		case op == Relu && d.IsComplex():
			return Result{}, noMethod("isless")
		}
		return res(d, d, "the operand's type")
	case BitNot:
		if !d.IsInt() && d != dtypes.Bool {
			return Result{}, noMethod("~")
		}
		return res(d, d, "the operand's type")
	case LogicalNot:
		if d != dtypes.Bool {
			return Result{}, noMethod("!")
		}
		return res(dtypes.Bool, dtypes.Bool, "!Bool is Bool")
	case FloatFn:
		f := juliaFloat(d)
		if f != d {
			return res(f, f, fmt.Sprintf("%s of %s takes float(x), a Float64", op, juliaTypeName(d)))
		}
		return res(d, d, "a float operand keeps its type")
	case Rounding:
		if d.IsComplex() && op != Round && op != RoundEven {
			return Result{}, noMethod(op.String())
		}
		return res(d, d, "rounding keeps the type (an integer is returned as it is)")
	case Predicate:
		return res(dtypes.Bool, d, op.String()+" gives Bool")
	case SumProd:
		w := d
		switch {
		case d == dtypes.Bool && op == Sum:
			w = dtypes.I64
		case d.IsSigned() && d.Bits() < 64:
			w = dtypes.I64
		case d.IsUnsigned() && d.Bits() < 64:
			w = dtypes.U64
		}
		if w != d {
			fn := "add_sum"
			if op == Prod {
				fn = "mul_prod"
			}
			return res(w, w, fmt.Sprintf("%s widens %s to %s (Base.%s)", op, juliaTypeName(d), juliaTypeName(w), fn))
		}
		return res(d, d, fmt.Sprintf("%s keeps %s", op, juliaTypeName(d)))
	case MeanOp:
		f := juliaFloat(d)
		return res(f, f, fmt.Sprintf("Statistics.mean divides by the length: %s", juliaTypeName(f)))
	case Extreme:
		if d.IsComplex() {
			return Result{}, noMethod("isless")
		}
		return res(d, d, "the operand's type")
	case ArgOp:
		if d.IsComplex() {
			return Result{}, noMethod("isless")
		}
		return res(dtypes.I64, d, op.String()+" gives an Int64 index")
	case BoolReduce:
		if d != dtypes.Bool {
			return Result{}, Errorf(juliaName, 0, "TypeError: non-boolean (%s) used in boolean context", juliaTypeName(d))
		}
		return res(dtypes.Bool, dtypes.Bool, op.String()+" of Bools is Bool")
	}
	return Result{}, Errorf(juliaName, -1, "unknown operation %s", op)
}
