package promote

import (
	"fmt"
	"math/big"

	"github.com/tensorsh/tensorsh/dtypes"
)

// anvil (r-xla/anvil, the ambiguity era; research/anvil.md): common_dtype()
// with an "ambiguous" flag per operand, which is tensorsh's weak flag.
//
//   - known × known and ambiguous × ambiguous: promote_dt_known (bool gives
//     way; a float wins whatever the integer's width; signed with unsigned
//     doubles the unsigned width up to 64 bits). The result is ambiguous iff
//     both operands are.
//   - one ambiguous: the known dtype wins, even when narrower, except (a) an
//     ambiguous float meets a known non-float and (b) an ambiguous non-bool
//     meets a known bool; then the ambiguous dtype wins and the result stays
//     ambiguous.
//
// Literals are R values: 1 (an R integer, 1L) is i32?, 1.5 is f32?, TRUE is
// a known bool. R evaluates expressions of literals itself (32-bit integers).

func init() {
	register("anvil", func() Policy { return anvilPolicy{} })
}

// anvilPolicy implements "anvil".
type anvilPolicy struct{}

var anvilDTypes = []dtypes.DType{
	dtypes.Bool, dtypes.I8, dtypes.I16, dtypes.I32, dtypes.I64,
	dtypes.U8, dtypes.U16, dtypes.U32, dtypes.U64, dtypes.F32, dtypes.F64,
}

func (anvilPolicy) Name() string           { return "anvil" }
func (anvilPolicy) Title() string          { return "anvil common_dtype with ambiguity" }
func (anvilPolicy) DTypes() []dtypes.DType { return anvilDTypes }
func (anvilPolicy) Host() Host             { return R }

func anvilKnown(d dtypes.DType) bool {
	for _, e := range anvilDTypes {
		if d == e {
			return true
		}
	}
	return false
}

// anvilName is anvil's spelling of a dtype (ui8, not u8).
func anvilName(d dtypes.DType) string {
	if d.IsUnsigned() {
		return "ui" + d.String()[1:]
	}
	return d.String()
}

func anvilTypeName(t dtypes.Type) string {
	if t.Weak {
		return anvilName(t.DType) + "?"
	}
	return anvilName(t.DType)
}

func anvilNoDType(d dtypes.DType, operand int) error {
	return Errorf("anvil", operand, "no dtype %s (anvil has bool, i8–i64, ui8–ui64, f32, f64)", d)
}

func (anvilPolicy) Check(d dtypes.DType) (dtypes.DType, string, error) {
	if anvilKnown(d) {
		return d, "", nil
	}
	return dtypes.Invalid, "", anvilNoDType(d, -1)
}

// anvilRInt reports whether i is an R integer (32-bit; -2^31 is NA).
func anvilRInt(i *big.Int) bool {
	return i.IsInt64() && i.Int64() > -1<<31 && i.Int64() <= 1<<31-1
}

func (anvilPolicy) Literal(v Scalar) (dtypes.Type, error) {
	switch v.Kind {
	case BoolScalar:
		return dtypes.Strong(dtypes.Bool), nil
	case IntScalar:
		if anvilRInt(v.Int) {
			return dtypes.Weak(dtypes.I32), nil
		}
		return dtypes.Weak(dtypes.F32), nil // R reads it as a double
	case FloatScalar:
		return dtypes.Weak(dtypes.F32), nil
	}
	return dtypes.Type{}, Errorf("anvil", 0, "anvil has no complex dtype (no default type for a complex R value)")
}

func (anvilPolicy) ArrayLiteral(k ScalarKind) (dtypes.Type, error) {
	switch k {
	case BoolScalar:
		return dtypes.Strong(dtypes.Bool), nil
	case IntScalar:
		return dtypes.Weak(dtypes.I32), nil
	case FloatScalar:
		return dtypes.Weak(dtypes.F32), nil
	}
	return dtypes.Type{}, Errorf("anvil", 0, "anvil has no complex dtype")
}

func (anvilPolicy) Convert(v Scalar, d dtypes.DType) error {
	if !anvilKnown(d) {
		return anvilNoDType(d, -1)
	}
	if v.Kind == ComplexScalar {
		return Errorf("anvil", 0, "anvil has no complex dtype")
	}
	return nil // convert wraps silently
}

// anvilPromoteKnown is promote_dt_known.
func anvilPromoteKnown(a, b dtypes.DType) (dtypes.DType, string) {
	switch {
	case a == b:
		return a, "both dtypes are equal"
	case a == dtypes.Bool:
		return b, "bool gives way to the other dtype"
	case b == dtypes.Bool:
		return a, "bool gives way to the other dtype"
	case a.IsFloat() && b.IsFloat():
		if b.Bits() > a.Bits() {
			return b, "two floats: the wider one"
		}
		return a, "two floats: the wider one"
	case a.IsFloat():
		return a, "a float wins over any integer, whatever its width"
	case b.IsFloat():
		return b, "a float wins over any integer, whatever its width"
	case a.IsUnsigned() == b.IsUnsigned():
		if b.Bits() > a.Bits() {
			return b, "same signedness: the wider one"
		}
		return a, "same signedness: the wider one"
	}
	s, u := a, b
	if a.IsUnsigned() {
		s, u = b, a
	}
	if u.Bits() < s.Bits() {
		return s, "signed with a narrower unsigned: the signed one"
	}
	w := min(64, 2*u.Bits())
	d := map[int]dtypes.DType{16: dtypes.I16, 32: dtypes.I32, 64: dtypes.I64}[w]
	if u.Bits() == 64 {
		return d, "signed with ui64 gives i64 (anvil: \"this can lead to overflows\")"
	}
	return d, fmt.Sprintf("signed with unsigned: the signed int of twice the unsigned width, %s", anvilName(d))
}

// anvilCommon is common_dtype(lhs, rhs, lhs_ambiguous, rhs_ambiguous).
func anvilCommon(x, y dtypes.Type) (dtypes.Type, string) {
	switch {
	case x.Weak && y.Weak:
		d, rule := anvilPromoteKnown(x.DType, y.DType)
		return dtypes.Weak(d), "both ambiguous: " + rule + ", and the result stays ambiguous"
	case !x.Weak && !y.Weak:
		d, rule := anvilPromoteKnown(x.DType, y.DType)
		return dtypes.Strong(d), "both known: " + rule
	}
	amb, known := x, y
	if y.Weak {
		amb, known = y, x
	}
	a, k := amb.DType, known.DType
	switch {
	case a == k:
		return dtypes.Strong(k), fmt.Sprintf("%s meets known %s: the same dtype, known", anvilTypeName(amb), anvilName(k))
	case a.IsFloat() && !k.IsFloat():
		return dtypes.Weak(a), fmt.Sprintf("weak float meets known %s: the known side takes the ambiguous float's dtype %s (anvil rule a)", anvilName(k), anvilName(a))
	case a != dtypes.Bool && k == dtypes.Bool:
		return dtypes.Weak(a), fmt.Sprintf("ambiguous %s meets known bool: the known side takes the ambiguous dtype (anvil rule b)", anvilName(a))
	}
	return dtypes.Strong(k), fmt.Sprintf("ambiguous %s meets known %s: the ambiguous side takes the known dtype", anvilName(a), anvilName(k))
}

// anvilType is an operand's type: a literal's type comes from its R value.
func (p anvilPolicy) anvilType(x Operand, i int) (dtypes.Type, error) {
	t := x.Type
	if x.Literal && x.Value != nil {
		var err error
		if t, err = p.Literal(*x.Value); err != nil {
			err.(*Error).Operand = i
			return t, err
		}
	}
	if !anvilKnown(t.DType) {
		return t, anvilNoDType(t.DType, i)
	}
	return t, nil
}

// anvilNumericOps reject bool after promotion (stablehlo: numeric only).
var anvilNumericOps = map[BinaryOp]bool{Sub: true, TrueDiv: true, Mod: true, Pow: true}

func (p anvilPolicy) Binary(op BinaryOp, x, y Operand) (Result, error) {
	if op == Dot {
		return Result{}, noFunction("anvil", "anvil", "dot", "use a @ b (nv_matmul)")
	}
	tx, err := p.anvilType(x, 0)
	if err != nil {
		return Result{}, err
	}
	ty, err := p.anvilType(y, 1)
	if err != nil {
		return Result{}, err
	}
	if op == Hypot {
		return Result{}, anvilLacks(op.String())
	}
	if x.Literal && y.Literal {
		return p.fold(op, tx, ty)
	}
	if op == Clip {
		return Result{Type: tx, Compute: tx.DType, Rule: "nv_clamp does not promote: the bound is converted to x's dtype, and x keeps its flag"}, nil
	}
	if op == FloorDiv {
		return Result{}, Errorf("anvil", -1, "anvil arrays have no %%/%% (integer division) method; / on integers already divides in the integer dtype")
	}
	t, rule := anvilCommon(tx, ty)
	d := t.DType
	r := Result{Type: t, Compute: d, Rule: rule}
	switch {
	case op == Arctan2 && !d.IsFloat():
		// nv_atan2 promotes, then stablehlo.atan2 is float-only.
		return Result{}, Errorf("anvil", -1, "`lhs` must have dtype FloatType. Got %s. (atan2 does not promote to float: convert to f32 or f64 first)", anvilTypeName(t))
	case anvilNumericOps[op] && d == dtypes.Bool:
		return Result{}, Errorf("anvil", -1, "%s needs numeric operands (float, int or uint), got bool", op)
	case op.Class() == Bitwise || op.Class() == Logical:
		if d.IsFloat() {
			return Result{}, Errorf("anvil", -1, "%s needs bool, int or uint operands, got %s", op, anvilName(d))
		}
	case op.Class() == Compare:
		r.Type.DType = dtypes.Bool
		r.Rule = rule + "; the comparison's bool is ambiguous iff the promoted pair is"
	case op == TrueDiv && d.IsInt():
		r.CDiv = true
		r.IntDiv = IntDivXLA
		r.Rule = rule + "; / divides in the promoted integer dtype, truncating (stablehlo.divide: x / 0 is -1, all ones unsigned)"
	case op == Mod && d.IsInt():
		r.IntDiv = IntDivNvMod
		r.Rule = rule + "; % is nv_mod, remainder(remainder(x, y) + y, y) on stablehlo.remainder (x % 0 is x; the sum wraps)"
	case op == Mod:
		r.Rule = rule + "; % is a floored remainder (R's %%)"
	case op == MatMul:
		r.Type.Weak = false
		r.Rule = rule + "; dot_general's result is known"
	}
	return r, nil
}

// fold answers for two literals: R computes the value. R integers stay
// integers except under / and ^, logicals become integers under arithmetic,
// and comparisons give a logical, which is a known bool.
func (p anvilPolicy) fold(op BinaryOp, x, y dtypes.Type) (Result, error) {
	isF := x.DType.IsFloat() || y.DType.IsFloat()
	bothBool := x.DType == dtypes.Bool && y.DType == dtypes.Bool
	var t dtypes.Type
	switch {
	case op.Class() == Compare, op.Class() == Logical, op.Class() == Bitwise && bothBool && op != Shl && op != Shr:
		t = dtypes.Strong(dtypes.Bool)
	case op.Class() == Bitwise && isF:
		return Result{}, Errorf("anvil", -1, "%s needs integer or logical values, not doubles", op)
	case isF || op == TrueDiv || op == Pow || op == Arctan2:
		t = dtypes.Weak(dtypes.F32)
	default:
		t = dtypes.Weak(dtypes.I32)
	}
	return Result{Type: t, Compute: t.DType, Rule: "only literals: R computes them (integers are 32-bit), and the result is an R value again"}, nil
}

func (p anvilPolicy) Unary(op UnaryOp, x Operand) (Result, error) {
	t, err := p.anvilType(x, 0)
	if err != nil {
		return Result{}, err
	}
	d := t.DType
	if x.Literal {
		switch op {
		case Neg, Pos, Invert, Not:
			// R applies these to its own values.
			switch {
			case op == Not || op == Invert:
				return Result{Type: dtypes.Strong(dtypes.Bool), Compute: dtypes.Bool, Rule: "only a literal: R's ! gives a logical"}, nil
			case d == dtypes.Bool:
				t = dtypes.Weak(dtypes.I32)
			}
			return Result{Type: t, Compute: t.DType, Rule: "only a literal: R computes it"}, nil
		}
	}
	keep := func(rule string) (Result, error) { return Result{Type: t, Compute: d, Rule: rule}, nil }
	// research/anvil.md §4: tan, expm1 and the asin…atanh family are
	// float-only stablehlo/chlo ops; sign takes a float or a signed int;
	// anvil has no log2, log10, exp2, square or reciprocal.
	switch op {
	case Log2, Log10, Exp2, Square, Reciprocal:
		return Result{}, anvilLacks(op.String())
	case Sign:
		if d == dtypes.Bool || d.IsUnsigned() {
			return Result{}, Errorf("anvil", 0, "sign needs a float or signed int operand, got %s", anvilName(d))
		}
	}
	switch op.Class() {
	case SameType:
		switch {
		case op == Neg && d == dtypes.Bool:
			return Result{}, Errorf("anvil", 0, "negate needs a numeric operand (float, int or uint), got bool")
		case op == Abs && (d == dtypes.Bool || d.IsUnsigned()):
			return Result{}, Errorf("anvil", 0, "abs needs a float or signed int operand, got %s", anvilName(d))
		}
		return keep(op.String() + " keeps the dtype and the flag")
	case BitNot, LogicalNot:
		if d.IsFloat() {
			return Result{}, Errorf("anvil", 0, "not needs a bool, int or uint operand, got %s", anvilName(d))
		}
		return keep("not keeps the dtype and the flag")
	case FloatFn, Rounding:
		if !d.IsFloat() {
			return Result{}, Errorf("anvil", 0, "`operand` must have dtype FloatType. Got %s. (%s does not promote: convert to f32 or f64 first)", anvilTypeName(t), op)
		}
		return keep(op.String() + " keeps the dtype and the flag")
	case Predicate:
		if !d.IsFloat() {
			return Result{}, Errorf("anvil", 0, "`operand` must have dtype FloatType. Got %s.", anvilTypeName(t))
		}
		return Result{Type: dtypes.Strong(dtypes.Bool), Compute: d, Rule: op.String() + " gives a known bool"}, nil
	case SumProd, Extreme:
		return keep(op.String() + " keeps the dtype and the flag (a sum of bools stays bool)")
	case Cumulative:
		// anvil.md §3: prim cumsum/cumprod keep the operand's dtype and flag.
		return keep(op.String() + " keeps the dtype and the flag (nv_cumsum, nv_cumprod)")
	case Moment, Count:
		return Result{}, noFunction("anvil", "anvil", op.String(), "")
	case MeanOp:
		m, rule := anvilCommon(t, dtypes.Weak(dtypes.F32))
		return Result{Type: m, Compute: m.DType, Rule: "mean is sum(x) / n with n an R double (f32?): " + rule}, nil
	case ArgOp:
		return Result{Type: dtypes.Strong(dtypes.I32), Compute: d, Rule: op.String() + " gives known i32 indices"}, nil
	}
	return Result{Type: dtypes.Strong(dtypes.Bool), Compute: dtypes.Bool, Rule: op.String() + " gives a known bool"}, nil
}

// anvilLacks is the error for a function anvil does not have.
func anvilLacks(fn string) error {
	return Errorf("anvil", -1, "anvil has no %s (there is no nv_%s)", fn, fn)
}
