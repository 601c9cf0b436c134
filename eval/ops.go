package eval

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/tensorsh/tensorsh/backend"
	"github.com/tensorsh/tensorsh/broadcast"
	"github.com/tensorsh/tensorsh/dtypes"
	"github.com/tensorsh/tensorsh/internal/teach"
	"github.com/tensorsh/tensorsh/lang"
	"github.com/tensorsh/tensorsh/promote"
)

// An operand is a value during compilation of one statement: a literal, a
// tensor plan (not yet computed), or a non-tensor value.
type operand struct {
	kind  Kind
	typ   dtypes.Type
	shape []int
	node  *backend.Node   // TensorValue: the plan that computes it
	lit   promote.Scalar  // LiteralValue
	value *promote.Scalar // TensorValue of rank 0 whose value is known
	str   string          // StringValue, TextValue
	html  string
	svg   string
	dims  []int      // ShapeValue
	elems []*operand // tupleKind, listKind
	// litErr is the policy's refusal to type a literal, reported when the
	// literal is used as a value.
	litErr error

	start, end lang.Position // the source span, for error carets
}

// Kinds that exist only while a statement compiles.
const (
	tupleKind Kind = 100 + iota // (a, b): shapes and axes
	listKind                    // [a, b] whose elements are not all literals
	noneKind                    // None
)

// A span is a source range an error points at.
type span struct{ start, end lang.Position }

func (o *operand) span() span { return span{o.start, o.end} }

// compiler compiles one statement against a session.
type compiler struct {
	s      *Session
	ctx    context.Context
	policy promote.Policy
	file   string
	src    string
	steps  *[]teach.Step // when non-nil, explain() records the rules that fired
}

// errorf returns an Error of the given name spanning sp, its message
// formatted as fmt.Sprintf does. An error argument formatted with %w
// becomes the Error's cause (Err), as with fmt.Errorf: the message is the
// same as with %v.
func (c *compiler) errorf(sp span, name, format string, args ...any) *Error {
	wrapped := fmt.Errorf(format, args...)
	e := c.s.newError(c.file, c.src, sp.start, sp.end, name, wrapped.Error())
	e.Err = errors.Unwrap(wrapped)
	return e
}

// promoteError turns a policy error into an Error whose caret points at the
// operand the policy blamed, or at the operator.
func (c *compiler) promoteError(err error, opSpan span, operands ...*operand) *Error {
	sp := opSpan
	var pe *promote.Error
	if errors.As(err, &pe) && pe.Operand >= 0 && pe.Operand < len(operands) {
		sp = operands[pe.Operand].span()
	}
	return c.errorf(sp, "PromotionError", "%w", err)
}

// toOperand describes o for a policy.
func toPolicyOperand(o *operand) promote.Operand {
	p := promote.Operand{Type: o.typ, Rank: len(o.shape)}
	if o.kind == LiteralValue {
		p.Literal = true
		p.Value = &o.lit // policies only read it
		p.Rank = 0
	} else if o.value != nil {
		p.Value = o.value
	}
	return p
}

// requireNumeric checks that o can take part in arithmetic. what names o
// in an error ("operand of +", "sqrt()"): the concatenation of its parts,
// made only for an error, as most statements have none.
//
// A bracket literal passed straight to a function (sum([1.5, 2.5]),
// add(x, [4])) becomes a tensor here, in place, exactly as it does as an
// operand of an operator: the policy's ArrayLiteral type.
func (c *compiler) requireNumeric(o *operand, what ...string) error {
	switch o.kind {
	case TensorValue:
		return nil
	case listKind:
		t, err := c.listTensor(o, nil, o.span())
		if err != nil {
			return err
		}
		*o = *t
		return nil
	case LiteralValue:
		return o.litErr
	}
	w := strings.Join(what, "")
	switch o.kind {
	case DTypeValue:
		return c.errorf(o.span(), "TypeError", "%s: %s is a dtype, not a value (to make a value write %s(…))", w, o.typ, o.typ)
	case StringValue:
		return c.errorf(o.span(), "TypeError", "%s: a string is not a number", w)
	case ShapeValue:
		return c.errorf(o.span(), "TypeError", "%s: a shape is not a tensor", w)
	case noneKind:
		return c.errorf(o.span(), "TypeError", "%s: %s", w, noneHint)
	}
	return c.errorf(o.span(), "TypeError", "%s: not a number", w)
}

// requireOperand is requireNumeric for operand o of the binary operation
// op with other, except that a literal the policy cannot type on its own
// (a Python int beyond int64 under numpy) is left to the policy's Binary
// when it meets a tensor and the policy types literals from the operation
// (promote.ContextLiterals).
func (c *compiler) requireOperand(o, other *operand, op promote.BinaryOp) error {
	if _, ok := c.policy.(promote.ContextLiterals); ok && o.kind == LiteralValue && o.litErr != nil && other.kind == TensorValue {
		return nil
	}
	return c.requireNumeric(o, "operand of ", op.String())
}

// inputNode returns a plan leaf for a materialised tensor.
func inputNode(t *backend.Tensor) *backend.Node {
	return &backend.Node{Op: backend.OpInput, DType: t.DType, Shape: t.Shape, Tensor: t}
}

// literalTensor converts literal v to a 0-d tensor of dtype d.
func literalTensor(v promote.Scalar, d dtypes.DType) *backend.Tensor {
	t := newTensor(d, nil)
	setScalar(t, 0, v)
	return t
}

// constNode returns a plan leaf for literal v converted to a 0-d tensor of
// dtype d: literalTensor's tensor and its leaf, allocated together (every
// literal operand of a statement takes one).
func constNode(v promote.Scalar, d dtypes.DType) *backend.Node {
	var n *backend.Node
	switch d {
	case dtypes.Bool:
		n = constLeaf[bool](d)
	case dtypes.I8:
		n = constLeaf[int8](d)
	case dtypes.I16:
		n = constLeaf[int16](d)
	case dtypes.I32:
		n = constLeaf[int32](d)
	case dtypes.I64:
		n = constLeaf[int64](d)
	case dtypes.U8:
		n = constLeaf[uint8](d)
	case dtypes.U16:
		n = constLeaf[uint16](d)
	case dtypes.U32:
		n = constLeaf[uint32](d)
	case dtypes.U64:
		n = constLeaf[uint64](d)
	case dtypes.F32:
		n = constLeaf[float32](d)
	case dtypes.F64:
		n = constLeaf[float64](d)
	default:
		return inputNode(literalTensor(v, d))
	}
	setScalar(n.Tensor, 0, v)
	return n
}

// constLeaf returns an input node of dtype d (stored as T) and shape (),
// its tensor and the tensor's element in one allocation.
func constLeaf[T any](d dtypes.DType) *backend.Node {
	m := new(struct {
		n backend.Node
		t backend.Tensor
		v [1]T
	})
	m.t = backend.Tensor{DType: d, Data: m.v[:]}
	m.n = backend.Node{Op: backend.OpInput, DType: d, Tensor: &m.t}
	return &m.n
}

// asNode returns a plan for o converted to dtype d: literals become 0-d
// constants (converted like a C cast: the policy already approved), tensors
// get a cast node when their dtype differs.
func asNode(o *operand, d dtypes.DType) *backend.Node {
	if o.kind == LiteralValue {
		return constNode(o.lit, d)
	}
	return castNode(o.node, d)
}

func castNode(n *backend.Node, d dtypes.DType) *backend.Node {
	if n.DType == d {
		return n
	}
	if n.Op == backend.OpInput && len(n.Shape) == 0 && hostStorage(n.Tensor.Data) {
		// Fold casts of constants now: it keeps plans small (not of a
		// value held on a device, cast there).
		return constNode(scalarAt(n.Tensor, 0), d)
	}
	return &backend.Node{Op: backend.OpCast, DType: d, Shape: n.Shape, Args: []*backend.Node{n}}
}

// known fills in o.value for a 0-d tensor whose value a policy may need,
// computing small plans eagerly.
func (c *compiler) known(o *operand) error {
	if o.kind != TensorValue || len(o.shape) != 0 || o.value != nil {
		return nil
	}
	n := o.node
	t := n.Tensor
	if n.Op != backend.OpInput || !hostStorage(t.Data) {
		// Computed now, or held on a device: read on the host.
		var err error
		if t, err = c.s.runOnHost(c.ctx, backend.InOrder(n)); err != nil {
			return c.errorf(o.span(), "RuntimeError", "%w", err)
		}
		if n.Op != backend.OpInput {
			o.node = inputNode(t)
		}
	}
	v := scalarAt(t, 0)
	o.value = &v
	return nil
}

var binaryOps = map[promote.BinaryOp]backend.Op{
	promote.Add: backend.OpAdd, promote.Sub: backend.OpSub, promote.Mul: backend.OpMul,
	promote.TrueDiv: backend.OpDiv, promote.FloorDiv: backend.OpFloorDiv, promote.Mod: backend.OpMod,
	promote.Pow: backend.OpPow, promote.Maximum: backend.OpMax, promote.Minimum: backend.OpMin,
	promote.Eq: backend.OpEq, promote.Ne: backend.OpNe, promote.Lt: backend.OpLt, promote.Le: backend.OpLe,
	promote.Gt: backend.OpGt, promote.Ge: backend.OpGe,
	promote.BitAnd: backend.OpBitAnd, promote.BitOr: backend.OpBitOr, promote.BitXor: backend.OpBitXor,
	promote.Shl: backend.OpShl, promote.Shr: backend.OpShr, promote.And: backend.OpAnd, promote.Or: backend.OpOr,
	promote.Arctan2: backend.OpAtan2, promote.Hypot: backend.OpHypot,
}

// literalVia returns o, a literal Python int, rounded first to the float
// format res.IntVia when the policy converts ints to its inexact Compute
// dtype that way (NumPy: through float64), or a literal Python float
// rounded first to float32 when res.FloatVia says so (MLX); other operands
// unchanged.
func literalVia(o *operand, res promote.Result) *operand {
	if o.kind == LiteralValue && o.lit.Kind == promote.FloatScalar && res.FloatVia == dtypes.F32 && res.Compute.IsInexact() {
		m := *o
		m.lit = promote.FloatValue(float64(float32(o.lit.Float)))
		return &m
	}
	if o.kind != LiteralValue || o.lit.Kind != promote.IntScalar || !res.IntVia.IsInexact() || !res.Compute.IsInexact() {
		return o
	}
	m := *o
	m.lit = promote.FloatValue(roundInt(o.lit.Int, uint(res.IntVia.MantissaBits())))
	return &m
}

// squareAsMul reports whether square and x * x compute alike on dtype d
// on every backend: the integers (wrapping) and float32 and float64 (one
// rounding of the exact square: a * a in both backends' kernels). The
// complex types and the narrow floats keep x * x: their products go
// through each backend's own complex and widened paths, which this
// rewrite has not been checked against.
func squareAsMul(d dtypes.DType) bool {
	return d.IsInt() || d == dtypes.F32 || d == dtypes.F64
}

// intDivRules maps the policies' integer division rules to the backends'.
var intDivRules = map[promote.IntDivRule]backend.IntDiv{
	promote.IntDivNumPy: backend.IntDivZero, promote.IntDivJNP: backend.IntDivJNP,
	promote.IntDivXLA: backend.IntDivXLA, promote.IntDivNvMod: backend.IntDivNvMod,
}

// binary compiles x op y. opSpan is the operator's position.
func (c *compiler) binary(op promote.BinaryOp, x, y *operand, opSpan span) (*operand, error) {
	whole := span{x.start, y.end}
	if x.kind == LiteralValue && y.kind == LiteralValue && op != promote.MatMul {
		return c.foldBinary(op, x, y, opSpan)
	}
	if err := c.requireOperand(x, y, op); err != nil {
		return nil, err
	}
	if err := c.requireOperand(y, x, op); err != nil {
		return nil, err
	}
	if err := c.known(x); err != nil {
		return nil, err
	}
	if err := c.known(y); err != nil {
		return nil, err
	}
	res, err := c.policy.Binary(op, toPolicyOperand(x), toPolicyOperand(y))
	if err != nil {
		return nil, c.promoteError(err, opSpan, x, y)
	}
	c.warn(res.Warning)
	if op == promote.MatMul {
		return c.matmul(x, y, res, whole, opSpan)
	}
	shape, err := broadcast.Shapes(x.shape, y.shape)
	if err != nil {
		return nil, c.errorf(opSpan, "BroadcastError", "%v", err)
	}
	// The node and its list of two arguments are one allocation.
	na := new(struct {
		n    backend.Node
		args [2]*backend.Node
	})
	na.args = [2]*backend.Node{asNode(literalVia(x, res), res.Compute), asNode(literalVia(y, res), res.Compute)}
	n := &na.n
	*n = backend.Node{
		Op: binaryOps[op], DType: res.Type.DType, Shape: shape,
		Args:         na.args[:],
		CDiv:         res.CDiv,
		ZeroDivError: res.ZeroDivError,
		IntDiv:       intDivRules[res.IntDiv],
		XLAMinMax:    res.ComplexOrder == promote.ComplexXLA,
		WarnIntDiv:   res.WarnIntDiv,
	}
	if w, scalar := scalarBinaryWarning(op, x, y, res); scalar {
		n.WarnIntDiv = false
		if c.steps == nil { // explain computes nothing, so nothing warns
			c.warn(w)
		}
	}
	if op == promote.TrueDiv && !res.Compute.IsInt() && !res.Compute.IsBool() {
		n.CDiv = false
	}
	if (op.Class() == promote.Compare || op.Class() == promote.Logical) && !res.Type.DType.IsBool() {
		// A system whose comparisons give an int 0 or 1 (C): compare, then
		// convert the bool.
		n.DType = dtypes.Bool
		n = castNode(n, res.Type.DType)
	}
	if op.Class() == promote.DivMod && res.Compute.IsBool() {
		// A policy that divides bools as bools (Triton: int1 is unsigned,
		// so // and % are LLVM's udiv and urem on i1) gets them computed as
		// uint8 and converted back: 1 // 1 is 1 and 1 % 1 is 0.
		n.DType = dtypes.U8
		n.Args = []*backend.Node{asNode(x, dtypes.U8), asNode(y, dtypes.U8)}
		n = castNode(n, res.Type.DType)
	}
	if op == promote.Pow && isTwo(y) && !res.Compute.IsBool() {
		// x ** 2 is x * x, as every library computes it (NumPy's
		// fast_scalar_power squares, jax.numpy's integer_pow multiplies,
		// PyTorch's pow kernel special-cases 2): the same bits as pow —
		// the square is exact before its one rounding, and integers wrap
		// alike — fused, without a pow per element.
		n.Op, n.Args = backend.OpMul, []*backend.Node{n.Args[0], n.Args[0]}
		if b := n.Args[0]; b.Op != backend.OpInput && squareAsMul(res.Compute) {
			// The base computed in the statement, as in (x - y) ** 2:
			// square(base), one use of it, so that it fuses with the
			// square (and with a sum of it) rather than being stored
			// for its two uses (sum((x - y) ** 2) of 10^6 float32 0.76
			// → 0.3 ms). square is the same x * x on both backends for
			// these types.
			n.Op, n.Args = backend.OpSquare, n.Args[:1]
		}
	}
	if k := smallPower(y); op == promote.Pow && k > 0 && res.Compute.IsInt() && res.Compute == n.DType {
		intPower(n, k)
	}

	if err := c.checkBinaryKinds(op, res.Compute, res.ComplexOrder, opSpan); err != nil {
		return nil, err
	}
	out := &operand{kind: TensorValue, typ: res.Type, shape: shape, node: n, start: x.start, end: y.end}
	if c.explaining() {
		if op == promote.Arctan2 || op == promote.Hypot {
			c.record(fmt.Sprintf("%s(%s, %s)", op, c.describe(x), c.describe(y)), out, res.Rule)
		} else {
			c.record(fmt.Sprintf("%s %s %s", c.describe(x), op, c.describe(y)), out, res.Rule)
		}
		if x.kind == TensorValue && y.kind == TensorValue && !slices.Equal(x.shape, y.shape) {
			(*c.steps)[len(*c.steps)-1].Broadcast = formatDims0(x.shape) + " with " + formatDims0(y.shape) + " → " + formatDims0(shape)
		}
	}
	return out, nil
}

// formatDims0 formats a shape in brackets, "[]" for 0-d.
func formatDims0(s []int) string {
	if len(s) == 0 {
		return "[]"
	}
	return formatDims(s)
}

// checkBinaryKinds refuses operations no backend defines for a dtype, in case
// a policy let them through.
func (c *compiler) checkBinaryKinds(op promote.BinaryOp, d dtypes.DType, order promote.ComplexOrder, sp span) error {
	switch op.Class() {
	case promote.Bitwise:
		if !d.IsInt() && !d.IsBool() {
			return c.errorf(sp, "TypeError", "%s: bitwise %s needs integer or bool operands, not %s", c.policy.Name(), op, d)
		}
		if d.IsBool() && (op == promote.Shl || op == promote.Shr) {
			return c.errorf(sp, "TypeError", "%s: cannot shift bool values", c.policy.Name())
		}
	case promote.DivMod:
		if d.IsComplex() {
			return c.errorf(sp, "TypeError", "%s: %s is not defined for complex values", c.policy.Name(), op)
		}
	case promote.Compare:
		if d.IsComplex() && op != promote.Eq && op != promote.Ne && order != promote.ComplexNumPy {
			return c.errorf(sp, "TypeError", "%s: complex values are not ordered (%s)", c.policy.Name(), op)
		}
	}
	if (op == promote.Arctan2 || op == promote.Hypot) && !d.IsFloat() {
		return c.errorf(sp, "TypeError", "%s: %s needs real float operands, not %s", c.policy.Name(), op, d)
	}
	if (op == promote.Maximum || op == promote.Minimum) && d.IsComplex() && order == promote.ComplexUnordered {
		return c.errorf(sp, "TypeError", "%s: complex values are not ordered (%s)", c.policy.Name(), op)
	}
	return nil
}

func (c *compiler) foldBinary(op promote.BinaryOp, x, y *operand, opSpan span) (*operand, error) {
	if f, ok := c.policy.(promote.LiteralFolder); ok {
		// C and Julia compute literals in their own fixed-width types.
		v, handled, err := f.FoldBinary(op, x.lit, y.lit)
		if err != nil {
			return nil, c.errorf(opSpan, "ValueError", "%s: %v", c.policy.Name(), err)
		}
		if handled {
			return c.literal(v, span{x.start, y.end}, func() string { return fmt.Sprintf("%s %s %s", x.lit, op, y.lit) })
		}
	}
	v, err := foldBinary(c.policy.Host(), op, x.lit, y.lit)
	if err != nil {
		name := "ValueError"
		if errors.Is(err, errZeroDiv) {
			name = "ZeroDivisionError"
		}
		return nil, c.errorf(opSpan, name, "%s: %w", c.policy.Name(), err)
	}
	return c.literal(v, span{x.start, y.end}, func() string { return fmt.Sprintf("%s %s %s", x.lit, op, y.lit) })
}

// literal makes a literal operand, typed by the policy's literal defaults.
// For a literal folded from others, expr gives the folded expression's text
// for explain() (called only then); it is nil for a literal as written.
func (c *compiler) literal(v promote.Scalar, sp span, expr func() string) (*operand, error) {
	v = foldLiteral(c.policy.Host(), v)
	o := &operand{kind: LiteralValue, lit: v, start: sp.start, end: sp.end}
	t, err := c.policy.Literal(v)
	if err != nil {
		// A literal the policy cannot type (a Python int beyond int32 under
		// jax) is still fine as a shape, an axis or inside a folded
		// expression; the error comes when it would become a value.
		o.litErr = c.promoteError(err, sp)
		return o, nil
	}
	o.typ = t
	if expr != nil && c.explaining() {
		if _, ok := c.policy.(promote.LiteralFolder); ok {
			c.record(expr(), o, "literals fold in "+c.policy.Name()+"'s own types, and stay literals")
		} else {
			c.record(expr(), o, "literals fold like "+hostName(c.policy.Host())+" and stay weak")
		}
	}
	return o, nil
}

func hostName(h promote.Host) string {
	switch h {
	case promote.Mojo:
		return "Mojo"
	case promote.R:
		return "R"
	}
	return "Python"
}

var unaryOps = map[promote.UnaryOp]backend.Op{
	promote.Neg: backend.OpNeg, promote.Abs: backend.OpAbs, promote.Invert: backend.OpInvert,
	promote.Not: backend.OpNot, promote.Relu: backend.OpRelu, promote.Exp: backend.OpExp,
	promote.Log: backend.OpLog, promote.Log1p: backend.OpLog1p, promote.Sin: backend.OpSin,
	promote.Cos: backend.OpCos, promote.Tanh: backend.OpTanh, promote.Sqrt: backend.OpSqrt,
	promote.Rsqrt: backend.OpRsqrt, promote.Erf: backend.OpErf, promote.Sigmoid: backend.OpSigmoid,
	promote.Silu: backend.OpSilu, promote.Gelu: backend.OpGelu, promote.Floor: backend.OpFloor,
	promote.Ceil: backend.OpCeil, promote.Round: backend.OpRound, promote.RoundEven: backend.OpRoundEven,
	promote.Trunc: backend.OpTrunc, promote.IsNaN: backend.OpIsNaN, promote.IsInf: backend.OpIsInf,
	promote.Softmax: backend.OpSoftmax, promote.LogSoftmax: backend.OpLogSoftmax,
	promote.Tan: backend.OpTan, promote.Arcsin: backend.OpAsin, promote.Arccos: backend.OpAcos,
	promote.Arctan: backend.OpAtan, promote.Sinh: backend.OpSinh, promote.Cosh: backend.OpCosh,
	promote.Arcsinh: backend.OpAsinh, promote.Arccosh: backend.OpAcosh, promote.Arctanh: backend.OpAtanh,
	promote.Log2: backend.OpLog2, promote.Log10: backend.OpLog10, promote.Exp2: backend.OpExp2,
	promote.Expm1: backend.OpExpm1, promote.Sign: backend.OpSign, promote.Square: backend.OpSquare,
	promote.Reciprocal: backend.OpReciprocal, promote.IsFinite: backend.OpIsFinite,
}

// everyday reports the functions of issue 16 (tan … isfinite), which the
// backends compute for real dtypes only.
// complexInverse reports the inverse trigonometric and hyperbolic
// functions, which tensorsh does not compute for complex values.
func complexInverse(op promote.UnaryOp) bool {
	switch op {
	case promote.Arcsin, promote.Arccos, promote.Arctan, promote.Arcsinh, promote.Arccosh, promote.Arctanh:
		return true
	}
	return false
}

// unary compiles op x for the elementwise unary operations (and softmax).
func (c *compiler) unary(op promote.UnaryOp, x *operand, opSpan span, axis int) (*operand, error) {
	if x.kind == LiteralValue && (op == promote.Neg || op == promote.Pos || op == promote.Invert || op == promote.Not) {
		v, err := foldUnary(c.policy.Host(), op, x.lit)
		if err != nil {
			return nil, c.errorf(opSpan, "ValueError", "%s: %v", c.policy.Name(), err)
		}
		return c.literal(v, span{opSpan.start, x.end}, func() string { return op.String() + x.lit.String() })
	}
	if err := c.requireNumeric(x, op.String()); err != nil {
		return nil, err
	}
	if err := c.known(x); err != nil {
		return nil, err
	}
	res, err := c.policy.Unary(op, toPolicyOperand(x))
	if err != nil {
		return nil, c.promoteError(err, opSpan, x)
	}
	c.warn(res.Warning)
	if err := c.checkUnaryKinds(op, res.Compute, opSpan); err != nil {
		return nil, err
	}
	if c.steps == nil {
		c.warn(scalarUnaryWarning(op, x, res))
	}
	arg := asNode(x, res.Compute)
	var n *backend.Node
	if op == promote.Pos {
		n = arg
		if n.DType != res.Type.DType {
			n = castNode(n, res.Type.DType)
		}
	} else {
		n = &backend.Node{Op: unaryOps[op], DType: res.Type.DType, Shape: x.shape, Args: []*backend.Node{arg},
			ScaledCAbs: res.ScaledCAbs && op == promote.Abs}
		if (op == promote.Not || op.Class() == promote.Predicate) && !res.Type.DType.IsBool() {
			// A system whose ! gives an int 0 or 1 (C): negate, then
			// convert the bool.
			n.DType = dtypes.Bool
			n = castNode(n, res.Type.DType)
		}
		if op == promote.Softmax || op == promote.LogSoftmax {
			a, err := c.normAxis(axis, len(x.shape), opSpan)
			if err != nil {
				return nil, err
			}
			n.Axes = []int{a}
		}
	}
	out := &operand{kind: TensorValue, typ: res.Type, shape: x.shape, node: n, start: opSpan.start, end: x.end}
	if x.start.Offset < out.start.Offset {
		out.start = x.start
	}
	if c.explaining() {
		c.record(fmt.Sprintf("%s(%s)", op, c.describe(x)), out, res.Rule)
	}
	return out, nil
}

func (c *compiler) checkUnaryKinds(op promote.UnaryOp, d dtypes.DType, sp span) error {
	if l, ok := c.policy.(interface{ LegacyComplexSign() bool }); ok && op == promote.Sign && d.IsComplex() && l.LegacyComplexSign() {
		return c.errorf(sp, "TypeError", "%s: NumPy 1's sign of complex values (the sign of the real part, else of the imaginary part, as a complex) is not computed by tensorsh; NumPy 2's z/|z| is (:policy numpy)", c.policy.Name())
	}
	if d.IsComplex() && complexInverse(op) {
		// Go's math/cmplx computes these through logarithms that lose up
		// to 4.5e7 ULP near 0 against glibc's casin, cacos, catan, casinh,
		// cacosh and catanh (Hull et al.'s algorithms), which NumPy calls.
		return c.errorf(sp, "TypeError", "%s: tensorsh does not compute %s of complex values (no implementation here matches the libraries' to the last bits)", c.policy.Name(), op)
	}
	if op == promote.Reciprocal && d.IsBool() {
		return c.errorf(sp, "TypeError", "%s: reciprocal of bool values is not defined", c.policy.Name())
	}
	switch op.Class() {
	case promote.FloatFn:
		if !d.IsInexact() {
			return c.errorf(sp, "TypeError", "%s: %s needs a float input, got %s", c.policy.Name(), op, d)
		}
		if d.IsComplex() && (op == promote.Erf || op == promote.Sigmoid || op == promote.Silu || op == promote.Gelu || op == promote.Softmax || op == promote.LogSoftmax || op == promote.Log1p || op == promote.Rsqrt) {
			return c.errorf(sp, "TypeError", "%s: %s is not defined for complex values", c.policy.Name(), op)
		}
	case promote.Rounding:
		if d.IsComplex() {
			return c.errorf(sp, "TypeError", "%s: %s is not defined for complex values", c.policy.Name(), op)
		}
	case promote.BitNot:
		if !d.IsInt() && !d.IsBool() {
			return c.errorf(sp, "TypeError", "%s: ~ needs integer or bool operands, not %s", c.policy.Name(), d)
		}
	}
	if op == promote.Relu && d.IsComplex() {
		return c.errorf(sp, "TypeError", "%s: relu is not defined for complex values", c.policy.Name())
	}
	return nil
}

func (c *compiler) normAxis(axis, rank int, sp span) (int, error) {
	if rank == 0 {
		if axis == 0 || axis == -1 {
			return 0, nil
		}
	}
	if axis < -rank || axis >= rank {
		return 0, c.errorf(sp, "IndexError", "axis %d is out of bounds for a tensor of rank %d", axis, rank)
	}
	if axis < 0 {
		axis += rank
	}
	return axis, nil
}

// describe returns a short form of o for explain: "i16[1]" or "4.0".
func (c *compiler) describe(o *operand) string {
	switch o.kind {
	case LiteralValue:
		return o.lit.String()
	case TensorValue:
		return o.typ.String() + formatDims(o.shape)
	}
	return o.str
}

// explaining reports whether explain() is recording the rules that fire.
// A step's description is built only then: formatting it for every
// statement would cost more than a small operation itself.
func (c *compiler) explaining() bool { return c.steps != nil }

// record adds a step for explain().
func (c *compiler) record(expr string, o *operand, rule string) {
	if c.steps == nil {
		return
	}
	res := o.typ.String() + formatDims(o.shape)
	if o.kind == LiteralValue {
		res = o.typ.String() + " " + o.lit.String()
	}
	*c.steps = append(*c.steps, teach.Step{Expr: expr, Result: res, Rule: rule})
}

func (c *compiler) warn(w string) {
	if w != "" {
		c.s.warn(w)
	}
}

// matmul compiles x @ y with NumPy's shape rules.
func (c *compiler) matmul(x, y *operand, res promote.Result, whole, opSpan span) (*operand, error) {
	xs, ys := x.shape, y.shape
	if len(xs) == 0 || len(ys) == 0 {
		return nil, c.errorf(opSpan, "ValueError", "matmul: input operand does not have enough dimensions (a 0-d value cannot be multiplied with @; use *)")
	}
	a, b := xs, ys
	if len(a) == 1 {
		a = []int{1, a[0]}
	}
	if len(b) == 1 {
		b = []int{b[0], 1}
	}
	if a[len(a)-1] != b[len(b)-2] {
		return nil, c.errorf(opSpan, "ValueError", "matmul: core dimension mismatch: %s @ %s (%d != %d)", formatShape(xs), formatShape(ys), a[len(a)-1], b[len(b)-2])
	}
	batch, err := broadcast.Shapes(a[:len(a)-2], b[:len(b)-2])
	if err != nil {
		return nil, c.errorf(opSpan, "BroadcastError", "matmul batch dimensions: %v", err)
	}
	shape := append([]int(nil), batch...)
	if len(xs) > 1 {
		shape = append(shape, a[len(a)-2])
	}
	if len(ys) > 1 {
		shape = append(shape, b[len(b)-1])
	}
	d := res.Compute
	if d.IsBool() && res.Type.DType.IsBool() {
		d = dtypes.Bool
	}
	n := &backend.Node{Op: backend.OpMatMul, DType: res.Type.DType, Shape: shape,
		Args: []*backend.Node{asNode(x, d), asNode(y, d)}}
	out := &operand{kind: TensorValue, typ: res.Type, shape: shape, node: n, start: whole.start, end: whole.end}
	if c.explaining() {
		c.record(fmt.Sprintf("%s @ %s", c.describe(x), c.describe(y)), out, res.Rule)
	}
	return out, nil
}

// isTwo reports whether o is the number 2 (a literal, or a 0-d value
// known before evaluation): 2, 2.0 or 2+0j.
// sqrtPower computes o = x ** y as sqrt(x) where the policy's ** operator
// does (NumPy's fast_scalar_power, see numpyPolicy.SqrtPower): x a float
// or complex array and y the Python float 0.5. The pow function (np.power)
// keeps pow's bits.
func (c *compiler) sqrtPower(o, x, y *operand) {
	sp, ok := c.policy.(interface{ SqrtPower() bool })
	if !ok || !sp.SqrtPower() || x.kind != TensorValue || !(x.typ.DType.IsFloat() || x.typ.DType.IsComplex()) ||
		y.kind != LiteralValue || y.lit.Kind != promote.FloatScalar || y.lit.Float != 0.5 ||
		o.node == nil || o.node.Op != backend.OpPow {
		return
	}
	o.node.Op, o.node.Args = backend.OpSqrt, o.node.Args[:1]
}

// smallPower returns k where o is an integer scalar (a literal, or a 0-d
// value known before evaluation) from 3 to 16, and 0 otherwise.
func smallPower(o *operand) int {
	v := scalarInt(o)
	if v == nil || !v.IsInt64() || v.Int64() < 3 || v.Int64() > 16 {
		return 0
	}
	return int(v.Int64())
}

// intPower turns n, x ** k on integers (3 <= k <= 16), into products of
// x by squaring: x ** 3 is (x * x) * x, x ** 4 (x * x) * (x * x). The
// products wrap as pow's own loop does (the same loop, by squaring, in
// the same dtype), and integer products modulo 2^bits do not depend on
// their order, so the bits are pow's; the products are fused vector
// multiplies where pow took a loop an element (x ** 3 on 10^6 int32:
// 2.3 ms, NumPy's power 2.1 ms).
func intPower(n *backend.Node, k int) {
	mul := func(a, b *backend.Node) *backend.Node {
		return &backend.Node{Op: backend.OpMul, DType: n.DType, Shape: n.Shape, Args: []*backend.Node{a, b}}
	}
	var r *backend.Node
	for b := n.Args[0]; ; {
		if k&1 == 1 {
			if r == nil {
				r = b
			} else {
				r = mul(r, b)
			}
		}
		if k >>= 1; k == 0 {
			break
		}
		b = mul(b, b)
	}
	n.Op, n.Args = backend.OpMul, r.Args // r is a product: k >= 3
}

func isTwo(o *operand) bool {
	v := o.scalar()
	if v == nil {
		return false
	}
	switch v.Kind {
	case promote.IntScalar:
		return v.Int.IsInt64() && v.Int.Int64() == 2
	case promote.FloatScalar:
		return v.Float == 2
	case promote.ComplexScalar:
		return v.Complex == 2
	}
	return false
}
