package promote

import (
	"fmt"
	"math/big"

	"github.com/tensorsh/tensorsh/dtypes"
)

// The Mojo MAX graph lattice (max.graph.type_promotion, Feb–Apr 2024;
// research/max.md §1). Promotion is the join on a semilattice given by its
// direct edges; the join is computed the way the Mojo code computes it (the
// minimal elements of the intersection of the two up-sets), so the table is
// derived, not transcribed. Literals take the other operand's dtype
// (_consistent_scalar → graph.scalar), integers wrap, and graph.scalar has
// no Int path to float16, tensor_float32, bool, index or address and no
// Float64 path to anything but bfloat16, float32 and float64. Comparisons do
// not promote (result bool); cos floor round roundeven rsqrt sqrt sin tanh
// trunc cast to join(dtype, float16) first; exp, log and the other unary ops
// keep the input dtype.

func init() {
	register("max", func() Policy { return maxPolicy{} })
}

// maxPolicy implements "max".
type maxPolicy struct{}

var maxDTypes = []dtypes.DType{
	dtypes.Bool, dtypes.I8, dtypes.I16, dtypes.I32, dtypes.I64,
	dtypes.U8, dtypes.U16, dtypes.U32, dtypes.U64, dtypes.Index, dtypes.Address,
	dtypes.F16, dtypes.BF16, dtypes.F32, dtypes.TF32, dtypes.F64,
}

// maxEdges are the promotes_to calls of _promotion_semilattice.
var maxEdges = map[dtypes.DType][]dtypes.DType{
	dtypes.Bool:    {dtypes.I8, dtypes.U8},
	dtypes.I8:      {dtypes.I16},
	dtypes.U8:      {dtypes.I16, dtypes.U16},
	dtypes.I16:     {dtypes.I32},
	dtypes.U16:     {dtypes.I32, dtypes.U32},
	dtypes.I32:     {dtypes.I64},
	dtypes.U32:     {dtypes.I64, dtypes.U64},
	dtypes.Index:   {dtypes.U64},
	dtypes.Address: {dtypes.U64},
	dtypes.I64:     {dtypes.F16},
	dtypes.U64:     {dtypes.F16},
	dtypes.BF16:    {dtypes.F32},
	dtypes.F16:     {dtypes.BF16, dtypes.F32},
	dtypes.F32:     {dtypes.TF32, dtypes.F64},
	dtypes.TF32:    {dtypes.F64},
}

// maxSet is a set of dtypes.
type maxSet [dtypes.NumDTypes]bool

// maxGreater is _greater_subset: every dtype reachable from d, d included.
func maxGreater(d dtypes.DType) maxSet {
	var s maxSet
	queue := []dtypes.DType{d}
	s[d] = true
	for len(queue) > 0 {
		e := queue[0]
		queue = queue[1:]
		for _, n := range maxEdges[e] {
			if !s[n] {
				s[n] = true
				queue = append(queue, n)
			}
		}
	}
	return s
}

// maxJoinOf is _join: the elements of greater(a) ∩ greater(b) that are not
// a direct successor of another element of it. ok is false when there is
// not exactly one ("no unique join").
func maxJoinOf(a, b dtypes.DType) (dtypes.DType, bool) {
	ga, gb := maxGreater(a), maxGreater(b)
	var g maxSet
	for d := range g {
		g[d] = ga[d] && gb[d]
	}
	var succ maxSet
	for d, in := range g {
		if in {
			for _, n := range maxEdges[dtypes.DType(d)] {
				succ[n] = true
			}
		}
	}
	var mins []dtypes.DType
	for d, in := range g {
		if in && !succ[d] {
			mins = append(mins, dtypes.DType(d))
		}
	}
	if len(mins) != 1 {
		return dtypes.Invalid, false
	}
	return mins[0], true
}

// maxJoins caches maxJoinOf for every pair of the lattice's dtypes.
var maxJoins = func() map[[2]dtypes.DType]dtypes.DType {
	m := map[[2]dtypes.DType]dtypes.DType{}
	for _, a := range maxDTypes {
		for _, b := range maxDTypes {
			if j, ok := maxJoinOf(a, b); ok {
				m[[2]dtypes.DType{a, b}] = j
			}
		}
	}
	return m
}()

func (maxPolicy) Name() string           { return "max" }
func (maxPolicy) Title() string          { return "Mojo MAX graph lattice (2024)" }
func (maxPolicy) DTypes() []dtypes.DType { return maxDTypes }
func (maxPolicy) Host() Host             { return Mojo }
func (maxPolicy) inSet(d dtypes.DType) bool {
	for _, e := range maxDTypes {
		if d == e {
			return true
		}
	}
	return false
}

func (p maxPolicy) noDType(d dtypes.DType, operand int) error {
	return Errorf("max", operand, "no dtype %s (the MAX lattice has bool, i8–i64, u8–u64, index, address, f16, bf16, f32, tf32, f64)", d)
}

func (p maxPolicy) Check(d dtypes.DType) (dtypes.DType, string, error) {
	if p.inSet(d) {
		return d, "", nil
	}
	return dtypes.Invalid, "", p.noDType(d, -1)
}

// maxIntFits reports whether i fits Mojo's Int (64-bit signed), or, for an
// explicit conversion, any 64-bit integer.
func maxIntFits(i *big.Int, explicit bool) bool {
	lo, hi := dtypes.I64.IntRange()
	if explicit {
		_, hi = dtypes.U64.IntRange()
	}
	return i.Cmp(big.NewInt(lo)) >= 0 && i.Cmp(new(big.Int).SetUint64(hi)) <= 0
}

func (p maxPolicy) Literal(v Scalar) (dtypes.Type, error) {
	switch v.Kind {
	case BoolScalar:
		return dtypes.Weak(dtypes.Bool), nil
	case IntScalar:
		if !maxIntFits(v.Int, false) {
			return dtypes.Type{}, Errorf("max", 0, "integer literal %s does not fit Mojo's Int (64-bit signed)", v.Int)
		}
		return dtypes.Weak(dtypes.I64), nil
	case FloatScalar:
		return dtypes.Weak(dtypes.F64), nil
	}
	return dtypes.Type{}, Errorf("max", 0, "Mojo has no complex literals (and MAX no complex dtype)")
}

func (p maxPolicy) ArrayLiteral(k ScalarKind) (dtypes.Type, error) {
	switch k {
	case BoolScalar:
		return dtypes.Weak(dtypes.Bool), nil
	case IntScalar:
		return dtypes.Weak(dtypes.I64), nil
	case FloatScalar:
		return dtypes.Weak(dtypes.F64), nil
	}
	return dtypes.Type{}, Errorf("max", 0, "MAX has no complex dtype")
}

func (p maxPolicy) Convert(v Scalar, d dtypes.DType) error {
	if !p.inSet(d) {
		return p.noDType(d, -1)
	}
	switch v.Kind {
	case ComplexScalar:
		return Errorf("max", 0, "MAX has no complex dtype")
	case IntScalar:
		if !maxIntFits(v.Int, true) {
			return Errorf("max", 0, "integer %s does not fit in 64 bits", v.Int)
		}
	}
	return nil // ops.cast converts anything, wrapping integers
}

// maxIntPath and maxFloatPath are the dtypes graph.scalar can make from a
// Mojo Int and a Float64 (float16 is commented out, TODO #33932; bfloat16
// is there on x86, not on NEON).
var (
	maxIntPath   = map[dtypes.DType]bool{dtypes.U8: true, dtypes.U16: true, dtypes.U32: true, dtypes.U64: true, dtypes.I8: true, dtypes.I16: true, dtypes.I32: true, dtypes.I64: true, dtypes.BF16: true, dtypes.F32: true, dtypes.F64: true}
	maxFloatPath = map[dtypes.DType]bool{dtypes.BF16: true, dtypes.F32: true, dtypes.F64: true}
)

// maxLiteralLike reports whether x is a Mojo literal: a literal, or a weak
// scalar (promote(i16, i64?)). Weak tensors (bracket literals) are constant
// tensors of their dtype.
func maxLiteralLike(x Operand) bool { return x.Literal || (x.Type.Weak && x.Rank == 0) }

// maxKindOf is the literal kind of a literal-like operand.
func maxKindOf(x Operand) ScalarKind { return tritonScalarKind(x) }

// convertLiteral is _consistent_scalar: literal x (operand i) becomes a
// scalar of dtype d.
func (p maxPolicy) convertLiteral(x Operand, i int, d dtypes.DType) error {
	switch maxKindOf(x) {
	case FloatScalar, ComplexScalar:
		if !maxFloatPath[d] {
			return Errorf("max", i, "a float literal cannot be converted to %s", d.FullName())
		}
	default:
		if !maxIntPath[d] {
			article := "an int"
			if maxKindOf(x) == BoolScalar {
				article = "a bool"
			}
			return Errorf("max", i, "%s literal cannot be converted to %s (graph.scalar has no Int path to it)", article, d.FullName())
		}
	}
	return nil
}

// maxLacks reports the everyday functions that the Mojo graph API of
// this era does not have (research/max.md §4.2: its unary ops are cos,
// floor, round, rsqrt, sqrt, sin, tanh, trunc, is_nan, is_inf, abs, exp,
// erf, gelu, log, log1p, logsoftmax, relu, sigmoid and softmax).
func maxLacks(policy, op string) error {
	return Errorf(policy, -1, "MAX has no %s operation in this API (it is not among the graph's elementwise ops)", op)
}

// maxEveryday reports the unary functions of issue 16 that neither MAX
// policy has, but for the two max.graph.ops provides.
func maxEveryday(op UnaryOp) bool {
	switch op {
	case Tan, Arcsin, Arccos, Arctan, Sinh, Cosh, Arcsinh, Arccosh, Arctanh, Log2, Log10, Exp2, Expm1,
		Sign, Square, Reciprocal, IsFinite:
		return true
	}
	return false
}

func (p maxPolicy) Binary(op BinaryOp, x, y Operand) (Result, error) {
	if op == Dot {
		return Result{}, noFunction("max", "the Mojo graph API", "dot", "use a @ b (matmul)")
	}
	if op == Arctan2 || op == Hypot {
		return Result{}, maxLacks("max", op.String())
	}
	for i, o := range []Operand{x, y} {
		if !p.inSet(o.Type.DType) {
			return Result{}, p.noDType(o.Type.DType, i)
		}
	}
	lx, ly := maxLiteralLike(x), maxLiteralLike(y)
	if lx && ly {
		k, err := tritonPythonKind(op, x, y)
		if err != nil {
			return Result{}, Errorf("max", -1, "%v", err)
		}
		t, _ := p.Literal(Scalar{Kind: k, Int: big.NewInt(0)})
		return Result{Type: t, Compute: t.DType, Rule: "only literals: Mojo folds them like Python and the result stays a literal"}, nil
	}
	var d dtypes.DType
	var rule string
	switch {
	case lx || ly:
		lit, i, sym := x, 0, y.Type.DType
		if ly {
			lit, i, sym = y, 1, x.Type.DType
		}
		if err := p.convertLiteral(lit, i, sym); err != nil {
			return Result{}, err
		}
		d = sym
		rule = fmt.Sprintf("the literal takes the tensor's dtype %s (Mojo _consistent_scalar: graph.scalar(value, dtype), integers wrap)", d)
	default:
		a, b := x.Type.DType, y.Type.DType
		d = maxJoins[[2]dtypes.DType{a, b}]
		rule = fmt.Sprintf("lattice join: %s is the least dtype both %s and %s promote to", d, a, b)
		if a == b {
			rule = "both operands have the same dtype"
		}
	}
	r := Result{Type: dtypes.Strong(d), Compute: d, Rule: rule}
	switch op.Class() {
	case Compare:
		r.Type = dtypes.Strong(dtypes.Bool)
		r.Rule = "comparisons do not promote in the Mojo graph (the result is bool); tensorsh compares in " + d.String() + " (" + rule + ")"
	case Div:
		if d.IsInt() || d == dtypes.Bool {
			r.CDiv = true
			r.Rule = rule + "; / on integers stays integer division (mo.div), truncating like C"
		}
	case Bitwise:
		if d.IsFloat() {
			return Result{}, Errorf("max", -1, "%s needs integer or bool operands, got %s", op, d)
		}
	case Logical:
		for i, o := range []Operand{x, y} {
			if o.Type.DType != dtypes.Bool {
				return Result{}, Errorf("max", i, "%s needs bool operands, got %s", op, o.Type.DType)
			}
		}
	}
	return r, nil
}

// maxCastOps are the unary ops that cast their input to join(dtype, f16).
var maxCastOps = map[UnaryOp]bool{Cos: true, Floor: true, Ceil: true, Round: true, RoundEven: true, Rsqrt: true, Sqrt: true, Sin: true, Tanh: true, Trunc: true}

func (p maxPolicy) Unary(op UnaryOp, x Operand) (Result, error) {
	if maxEveryday(op) {
		return Result{}, maxLacks("max", op.String())
	}
	d := x.Type.DType
	if !p.inSet(d) {
		return Result{}, p.noDType(d, 0)
	}
	if c := op.Class(); c == Cumulative || c == Moment || c == Count {
		// The Mojo graph API of 2024 (max.md §1.5) has no cumulative,
		// variance or counting ops.
		return Result{}, noFunction("max", "the Mojo graph API", op.String(), "")
	}
	if maxLiteralLike(x) {
		// Mojo computes on its own literals, like Python.
		k := maxKindOf(x)
		switch op.Class() {
		case FloatFn, MeanOp:
			k = FloatScalar
		case LogicalNot, Predicate, BoolReduce:
			k = BoolScalar
		case ArgOp:
			k = IntScalar
		default:
			if k == BoolScalar && op != Abs {
				k = IntScalar
			}
		}
		t, _ := p.Literal(Scalar{Kind: k, Int: big.NewInt(0)})
		return Result{Type: t, Compute: t.DType, Rule: "only a literal: Mojo computes it like Python and the result stays a literal"}, nil
	}
	same := func(rule string) (Result, error) { return Result{Type: dtypes.Strong(d), Compute: d, Rule: rule}, nil }
	switch {
	case maxCastOps[op]:
		j := maxJoins[[2]dtypes.DType{d, dtypes.F16}]
		return Result{Type: dtypes.Strong(j), Compute: j, Rule: fmt.Sprintf("%s casts its input to join(%s, float16) = %s first", op, d, j)}, nil
	case op.Class() == FloatFn:
		if d.IsFloat() {
			return same(fmt.Sprintf("%s keeps the input dtype", op))
		}
		return Result{Type: dtypes.Strong(d), Compute: dtypes.F64, Rule: fmt.Sprintf("%s keeps the input dtype even for %s (no float cast in the Mojo graph); tensorsh computes it in f64 and converts back", op, d)}, nil
	case op == Invert:
		if d.IsFloat() {
			return Result{}, Errorf("max", 0, "~ needs an integer or bool operand, got %s", d)
		}
		return same("~ keeps the dtype")
	case op == Not:
		if d != dtypes.Bool {
			return Result{}, Errorf("max", 0, "not needs a bool operand, got %s", d)
		}
		return same("not of a bool tensor")
	case op.Class() == Predicate:
		return Result{Type: dtypes.Strong(dtypes.Bool), Compute: d, Rule: op.String() + " gives a bool tensor of the same shape"}, nil
	case op.Class() == ArgOp:
		return Result{Type: dtypes.Strong(dtypes.I64), Compute: d, Rule: op.String() + " gives int64 indices"}, nil
	case op.Class() == BoolReduce:
		return Result{Type: dtypes.Strong(dtypes.Bool), Compute: dtypes.Bool, Rule: op.String() + " reduces x != 0 to bool"}, nil
	}
	return same(op.String() + " keeps the input dtype")
}
