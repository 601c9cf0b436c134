package promote

import (
	"fmt"
	"math/big"

	"github.com/tensorsh/tensorsh/dtypes"
)

// The MAX Python graph API (max.graph, 2025–2026; research/max.md §2–§4).
//
// Two strong operands are promoted by RMO: the candidate is (the higher
// category, the wider bit width) with bool < unsigned < signed < float, and
// the promotion fails when an input has values the candidate cannot
// represent, or has the candidate's width in another float format. A weak
// operand (a Python scalar or a NumPy array) always takes the strong
// operand's dtype, after a range check for integers; floats are accepted only
// by float dtypes. Two weak operands are refused (Python folds two Python
// scalars itself), and so is a unary MAX op on a weak operand. Division of
// two integral tensors is float64; mul of an integral and a float tensor
// casts the integer side to the float first (2026).

func init() {
	register("max-graph", func() Policy { return maxGraphPolicy{} })
}

// maxGraphPolicy implements "max-graph".
type maxGraphPolicy struct{}

var maxGraphDTypes = []dtypes.DType{
	dtypes.Bool, dtypes.I8, dtypes.I16, dtypes.I32, dtypes.I64,
	dtypes.U8, dtypes.U16, dtypes.U32, dtypes.U64,
	dtypes.F16, dtypes.BF16, dtypes.F32, dtypes.F64, dtypes.F8E4M3, dtypes.F8E5M2,
}

func (maxGraphPolicy) Name() string           { return "max-graph" }
func (maxGraphPolicy) Title() string          { return "MAX Python graph (RMO promotion, weak Python scalars)" }
func (maxGraphPolicy) DTypes() []dtypes.DType { return maxGraphDTypes }
func (maxGraphPolicy) Host() Host             { return Python }

func maxGraphIn(d dtypes.DType) bool {
	for _, e := range maxGraphDTypes {
		if d == e {
			return true
		}
	}
	return false
}

func maxGraphNoDType(d dtypes.DType, operand int) error {
	return Errorf("max-graph", operand, "no dtype %s (MAX's Python DType has bool, int8–int64, uint8–uint64, float16, bfloat16, float32, float64, float8_e4m3fn, float8_e5m2)", d)
}

func (maxGraphPolicy) Check(d dtypes.DType) (dtypes.DType, string, error) {
	if maxGraphIn(d) {
		return d, "", nil
	}
	return dtypes.Invalid, "", maxGraphNoDType(d, -1)
}

func (maxGraphPolicy) Literal(v Scalar) (dtypes.Type, error) {
	switch v.Kind {
	case BoolScalar:
		return dtypes.Weak(dtypes.Bool), nil
	case IntScalar:
		return dtypes.Weak(dtypes.I64), nil
	case FloatScalar:
		return dtypes.Weak(dtypes.F64), nil
	}
	return dtypes.Type{}, Errorf("max-graph", 0, "MAX has no complex dtype")
}

func (p maxGraphPolicy) ArrayLiteral(k ScalarKind) (dtypes.Type, error) {
	// A bracket literal is a NumPy array: weak, with NumPy's default dtype.
	return p.Literal(Scalar{Kind: k, Int: big.NewInt(0)})
}

func (maxGraphPolicy) Convert(v Scalar, d dtypes.DType) error {
	if !maxGraphIn(d) {
		return maxGraphNoDType(d, -1)
	}
	if v.Kind == ComplexScalar {
		return Errorf("max-graph", 0, "MAX has no complex dtype")
	}
	return nil // ops.constant(value, dtype) / ops.cast convert without checks
}

// maxGraphCategory is RMO's category: bool 0 < unsigned 1 < signed 2 < float 3.
func maxGraphCategory(d dtypes.DType) int {
	switch {
	case d == dtypes.Bool:
		return 0
	case d.IsUnsigned():
		return 1
	case d.IsSigned():
		return 2
	}
	return 3
}

// maxGraphCanonical is the dtype of a (category, width) candidate that
// neither input has.
func maxGraphCanonical(cat, bits int) dtypes.DType {
	switch cat {
	case 0:
		return dtypes.Bool
	case 1:
		return map[int]dtypes.DType{8: dtypes.U8, 16: dtypes.U16, 32: dtypes.U32, 64: dtypes.U64}[bits]
	case 2:
		return map[int]dtypes.DType{8: dtypes.I8, 16: dtypes.I16, 32: dtypes.I32, 64: dtypes.I64}[bits]
	}
	return map[int]dtypes.DType{16: dtypes.F16, 32: dtypes.F32, 64: dtypes.F64}[bits]
}

// maxGraphValueBits is the number of magnitude bits an integer dtype needs.
func maxGraphValueBits(d dtypes.DType) int {
	if d.IsSigned() {
		return d.Bits() - 1
	}
	return d.Bits()
}

// maxGraphFits reports whether every value of src is representable in dst.
// Integers fit a float when their magnitude bits fit its significand
// (implicit bit included: f16 11, bf16 8, f32 24, f64 53).
func maxGraphFits(src, dst dtypes.DType) bool {
	switch {
	case src == dst || src == dtypes.Bool:
		return true
	case dst == dtypes.Bool:
		return false
	case src.IsInt() && dst.IsFloat():
		return maxGraphValueBits(src) <= dst.MantissaBits()+1
	case src.IsInt() && dst.IsInt():
		if src.IsSigned() && dst.IsUnsigned() {
			return false
		}
		return maxGraphValueBits(src) <= maxGraphValueBits(dst)
	case src.IsFloat() && dst.IsFloat():
		return dst.ExponentBits() >= src.ExponentBits() && dst.MantissaBits() >= src.MantissaBits()
	}
	return false // float to integer
}

// maxGraphPromote is RMO's strong × strong promotion.
func maxGraphPromote(a, b dtypes.DType) (dtypes.DType, string, error) {
	if a == b {
		return a, "both operands have the same dtype", nil
	}
	cat := max(maxGraphCategory(a), maxGraphCategory(b))
	bits := max(a.Bits(), b.Bits())
	match := func(d dtypes.DType) bool { return maxGraphCategory(d) == cat && d.Bits() == bits }
	var cand dtypes.DType
	switch {
	case match(a) && match(b):
		return dtypes.Invalid, "", Errorf("max-graph", 1, "unsafe cast from %s to %s (same bit width, different format: insert an explicit cast)", b.MLIRName(), a.MLIRName())
	case match(a):
		cand = a
	case match(b):
		cand = b
	default:
		cand = maxGraphCanonical(cat, bits)
	}
	for i, d := range []dtypes.DType{a, b} {
		if !maxGraphFits(d, cand) {
			why := fmt.Sprintf("%s values do not all fit in %s", d.FullName(), cand.FullName())
			if d.IsFloat() && cand.IsFloat() && d.Bits() == cand.Bits() {
				why = "same bit width, different format"
			}
			return dtypes.Invalid, "", Errorf("max-graph", i, "unsafe cast from %s to %s (%s)", d.MLIRName(), cand.MLIRName(), why)
		}
	}
	return cand, fmt.Sprintf("RMO promotion: the candidate (%s, %d bits) is %s, and both inputs fit it", [...]string{"bool", "unsigned int", "signed int", "float"}[cat], bits, cand.FullName()), nil
}

// maxGraphRange is _DTYPE_MIN_AND_MAX_FULL_PRECISION: the integers a weak
// Python int may have to be promoted to d, as exact rationals.
func maxGraphRange(d dtypes.DType) (lo, hi *big.Rat) {
	pow := func(n int64) *big.Rat { return new(big.Rat).SetInt(new(big.Int).Lsh(big.NewInt(1), uint(n))) }
	switch d {
	case dtypes.BF16:
		hi = pow(8)
	case dtypes.F16:
		hi = pow(11)
	case dtypes.F32:
		hi = pow(24)
	case dtypes.F64:
		hi = pow(53)
	case dtypes.F8E5M2:
		hi = new(big.Rat).Mul(big.NewRat(110, 100), pow(16)) // 1.10 * 2**16, as written
	case dtypes.F8E4M3:
		hi = new(big.Rat).Mul(big.NewRat(7, 4), pow(8)) // 448
	default:
		l, h := d.IntRange()
		return new(big.Rat).SetInt64(l), new(big.Rat).SetInt(new(big.Int).SetUint64(h))
	}
	return new(big.Rat).Neg(hi), hi
}

func maxGraphDTypeName(d dtypes.DType) string { return "DType." + d.FullName() }

// toStrong is _promote_to_strong: weak operand x (operand i) takes dtype d.
func (p maxGraphPolicy) toStrong(x Operand, i int, d dtypes.DType) (string, error) {
	k := tritonScalarKind(x)
	if x.Rank > 0 {
		// A NumPy array: bool arrays count as uint8, float arrays need a
		// float dtype, integer arrays are range-checked element by element.
		if x.Type.DType.IsInexact() && !d.IsFloat() {
			return "", Errorf("max-graph", i, "unsafe cast: can't promote numpy float array to %s", d.FullName())
		}
		return fmt.Sprintf("the weak NumPy array takes the strong dtype %s (its values must fit it)", d.FullName()), nil
	}
	switch k {
	case BoolScalar, IntScalar:
		if x.Value == nil {
			return fmt.Sprintf("the weak Python int takes the strong dtype %s", d.FullName()), nil
		}
		v := new(big.Rat).SetInt(BoolValue(x.Value.Bool).Int)
		if k == IntScalar {
			v.SetInt(x.Value.Int)
		}
		lo, hi := maxGraphRange(d)
		if v.Cmp(lo) < 0 || v.Cmp(hi) > 0 {
			return "", Errorf("max-graph", i, "unsafe cast: can't promote python int with value (%s) to %s: it would lose precision (%s holds integers in %s..%s exactly)", x.Value, d.FullName(), d.FullName(), maxGraphRatString(lo), maxGraphRatString(hi))
		}
		return fmt.Sprintf("the weak Python int %s takes the strong dtype %s (it fits)", x.Value, d.FullName()), nil
	case FloatScalar:
		if !d.IsFloat() {
			return "", Errorf("max-graph", i, "unsafe cast: can't promote python float to %s", d.FullName())
		}
		return fmt.Sprintf("the weak Python float takes the strong dtype %s (floats are not range-checked)", d.FullName()), nil
	}
	return "", Errorf("max-graph", i, "_promote_weak_dtypes() argument must be a TensorValueLike, not 'complex'")
}

func maxGraphRatString(r *big.Rat) string {
	if r.IsInt() {
		return r.Num().String()
	}
	return r.FloatString(1)
}

// maxGraphIntegral is DType.is_integral: signed or unsigned, not bool.
func maxGraphIntegral(d dtypes.DType) bool { return d.IsInt() }

func (p maxGraphPolicy) Binary(op BinaryOp, x, y Operand) (Result, error) {
	if op == Dot {
		// max/graph/ops has matmul but no dot.
		return Result{}, noFunction("max-graph", "max.graph.ops", "dot", "use a @ b (ops.matmul)")
	}
	if op == Arctan2 || op == Hypot {
		return Result{}, maxLacks("max-graph", op.String())
	}
	for i, o := range []Operand{x, y} {
		if !maxGraphIn(o.Type.DType) {
			return Result{}, maxGraphNoDType(o.Type.DType, i)
		}
	}
	wx, wy := x.Literal || x.Type.Weak, y.Literal || y.Type.Weak
	if x.Literal && y.Literal {
		k, err := tritonPythonKind(op, x, y)
		if err != nil {
			return Result{}, Errorf("max-graph", -1, "%v", err)
		}
		t, _ := p.Literal(Scalar{Kind: k, Int: big.NewInt(0)})
		return Result{Type: t, Compute: t.DType, Rule: "only Python scalars: Python computes them, MAX never sees them"}, nil
	}
	if wx && wy {
		return Result{}, Errorf("max-graph", -1, "binary ops require at least one max object as input (non-max objects tend to overpromote the dtype; convert one side with ops.constant)")
	}
	a, b := x.Type.DType, y.Type.DType
	weakRule := ""
	switch {
	case wx:
		r, err := p.toStrong(x, 0, b)
		if err != nil {
			return Result{}, err
		}
		a, weakRule = b, r+"; "
	case wy:
		r, err := p.toStrong(y, 1, a)
		if err != nil {
			return Result{}, err
		}
		b, weakRule = a, r+"; "
	}
	switch op.Class() {
	case Logical:
		if a != dtypes.Bool || b != dtypes.Bool {
			return Result{}, Errorf("max-graph", maxGraphBlame(a != dtypes.Bool), "logical ops require boolean tensors, got %s, %s", maxGraphDTypeName(a), maxGraphDTypeName(b))
		}
		return Result{Type: dtypes.Strong(dtypes.Bool), Compute: dtypes.Bool, Rule: weakRule + "logical " + op.String() + " of two bool tensors"}, nil
	case Bitwise:
		if a == dtypes.Bool && b == dtypes.Bool && op != Shl && op != Shr {
			return Result{Type: dtypes.Strong(dtypes.Bool), Compute: dtypes.Bool, Rule: weakRule + "bool " + op.String() + " bool is the logical op"}, nil
		}
		for i, d := range []dtypes.DType{a, b} {
			if d.IsFloat() {
				return Result{}, Errorf("max-graph", i, "bitwise ops require boolean or integral tensors, got %s, %s", maxGraphDTypeName(a), maxGraphDTypeName(b))
			}
		}
		return Result{Type: dtypes.Strong(a), Compute: a, Rule: weakRule + "bitwise ops do not promote: the result has the left operand's dtype " + a.FullName()}, nil
	}
	if op == TrueDiv && maxGraphIntegral(a) && maxGraphIntegral(b) {
		return Result{Type: dtypes.Strong(dtypes.F64), Compute: dtypes.F64, Rule: weakRule + "div of two integral tensors casts both to float64"}, nil
	}
	// ops.floor_div (modular/modular, max/python/max/graph/ops/
	// elementwise.py; TensorValue.__floordiv__ calls it since 2026):
	// integral operands stay integral — rmo.DivOp on the promoted dtype,
	// which truncates, corrected toward negative infinity for signed
	// integers, so the result is Python's //. Other operands compute
	// floor(div(a, b)), below.
	intFloorDiv := op == FloorDiv && maxGraphIntegral(a) && maxGraphIntegral(b)
	if op == Mul && maxGraphIntegral(a) != maxGraphIntegral(b) && (a.IsFloat() || b.IsFloat()) && (maxGraphIntegral(a) || maxGraphIntegral(b)) {
		f := a
		if b.IsFloat() {
			f = b
		}
		return Result{Type: dtypes.Strong(f), Compute: f, Rule: weakRule + "mul of an integral and a float tensor casts the integral side to " + f.FullName() + " first (MAX 2026, PyTorch-style)"}, nil
	}
	d, rule, err := maxGraphPromote(a, b)
	if err != nil {
		return Result{}, err
	}
	r := Result{Type: dtypes.Strong(d), Compute: d, Rule: weakRule + rule}
	switch {
	case op.Class() == Compare:
		r.Type = dtypes.Strong(dtypes.Bool)
		r.Rule += "; the comparison gives bool"
	case intFloorDiv:
		r.Rule += "; // of integral tensors is ops.floor_div: an integer division rounded toward negative infinity, like Python's //"
	case op == FloorDiv:
		if !d.IsFloat() {
			return Result{}, Errorf("max-graph", -1, "// is floor(div(a, b)), and floor only supports floating point inputs, got %s", d.FullName())
		}
		r.Rule += "; // is floor(div(a, b))"
	}
	return r, nil
}

func maxGraphBlame(first bool) int {
	if first {
		return 0
	}
	return 1
}

// maxGraphAccum is _accum_type: sigmoid, silu and gelu compute narrow
// floats in float32 and cast back.
func maxGraphAccum(d dtypes.DType) dtypes.DType {
	if d == dtypes.F16 || d == dtypes.BF16 || d.IsFloat8() {
		return dtypes.F32
	}
	return d
}

func (p maxGraphPolicy) Unary(op UnaryOp, x Operand) (Result, error) {
	// Of the everyday functions, max.graph.ops has acos (a custom mo.acos)
	// and atanh, both float-only and keeping the dtype (research/max.md
	// §4.1); the rest are refused.
	if maxEveryday(op) && op != Arccos && op != Arctanh {
		return Result{}, maxLacks("max-graph", op.String())
	}
	d := x.Type.DType
	if !maxGraphIn(d) {
		return Result{}, maxGraphNoDType(d, 0)
	}
	switch op {
	case CumProd, Var, Std, CountNonzero:
		// max/graph/ops has cumsum but no cumprod, var, std or
		// count_nonzero.
		return Result{}, noFunction("max-graph", "max.graph.ops", op.String(), "it has cumsum, sum and mean")
	}
	if x.Literal || x.Type.Weak {
		switch op {
		case Neg, Pos, Abs, Invert, Not:
			// Python (or NumPy) applies these itself; the value stays weak.
			k := tritonScalarKind(x)
			switch {
			case op == Not:
				k = BoolScalar
			case op == Invert && k > IntScalar:
				return Result{}, Errorf("max-graph", 0, "bad operand type for unary ~: 'float'")
			case k == BoolScalar && op != Abs && x.Rank == 0:
				k = IntScalar
			}
			t, _ := p.Literal(Scalar{Kind: k, Int: big.NewInt(0)})
			if x.Rank > 0 && op != Not {
				t = x.Type
			}
			return Result{Type: t, Compute: t.DType, Rule: "Python applies " + op.String() + " to its own values; the result stays weak"}, nil
		}
		return Result{}, Errorf("max-graph", 0, "unary ops do not support non-max objects as input (non-max objects tend to overpromote the dtype; convert it with ops.constant first)")
	}
	same := func(rule string) (Result, error) { return Result{Type: dtypes.Strong(d), Compute: d, Rule: rule}, nil }
	switch op.Class() {
	case FloatFn, Rounding:
		if !d.IsFloat() {
			return Result{}, Errorf("max-graph", 0, "%s only supports floating point inputs, got %s (cast to a float dtype first)", op, d.FullName())
		}
		switch op {
		case Sigmoid, Silu, Gelu:
			a := maxGraphAccum(d)
			return Result{Type: dtypes.Strong(d), Compute: a, Rule: fmt.Sprintf("%s computes in %s and casts back to %s", op, a.FullName(), d.FullName())}, nil
		}
		return same(op.String() + " keeps the input dtype")
	case BitNot, LogicalNot:
		if d != dtypes.Bool {
			return Result{}, Errorf("max-graph", 0, "%s is logical_not, which needs a bool tensor, got %s", op, maxGraphDTypeName(d))
		}
		return same("logical_not of a bool tensor")
	case Predicate:
		return Result{Type: dtypes.Strong(dtypes.Bool), Compute: d, Rule: op.String() + " gives a bool tensor of the same shape"}, nil
	case ArgOp:
		return Result{Type: dtypes.Strong(dtypes.I64), Compute: d, Rule: op.String() + " gives int64 indices"}, nil
	case BoolReduce:
		return Result{Type: dtypes.Strong(dtypes.Bool), Compute: dtypes.Bool, Rule: op.String() + " reduces x != 0 to bool"}, nil
	case Cumulative:
		// max/graph/ops/cumsum.py: rmo.MoCumsumOp with result=x.type.
		return same("ops.cumsum keeps the input type (rmo.mo.cumsum, result=x.type)")
	}
	return same(op.String() + " keeps the input dtype")
}
