package promote

import (
	"fmt"
	"strings"

	"github.com/tensorsh/tensorsh/dtypes"
)

// The keras policy: Keras 3's keras.backend.result_type, which keras.ops
// use to choose the dtype of their results, with floatx float32 and the
// JAX backend (refs/keras.json), after keras/src/backend/common/dtypes.py.
//
// result_type joins its inputs on a lattice adapted from JAX's, with the
// weak types of Python's int and float (written i*, f*):
//
//	bool → i* → u8, i8, c64;  u64, i64 → f*;  f* → bf16, f16;
//	f32 → f64, c64;  f64 → c128;  c64 → c128
//
// It differs from JAX's: there is no weak complex (a Python complex is a
// strong complex64), i* sits directly below c64, and f* reaches the
// complex types only through f32. A Python int is a weak int32 and a
// Python float a weak float32 (_dtype_and_weaktype: only the types int
// and float are weak; PYTHON_DTYPES_MAP gives int32 and complex64 on the
// backends other than TensorFlow). When all inputs are weak their dtypes
// are joined as strong and the result is weak. A weak result takes the
// precision of floatx ("32"): int32, uint32 or float32. Last, every result
// is forced to 32 bits (BIT64_TO_BIT32_DTYPE: int64 → int32, uint64 →
// uint32, float64 → float32, complex128 → complex64), to match JAX's
// default; so result_type(float64, float64) is float32. A float8 input is
// refused, even with itself ("There is no implicit conversions from float8
// dtypes to others").
//
// Docs and code disagree in one place: result_type's docstring says
// result_type(complex64, int) is "float64"; the code gives complex64 (i*
// is below c64), and the policy follows the code, which is what runs.
// Which file version: keras-team/keras commit 01a4a576 (after pull 21604,
// which dropped JAX's 64-bit mode from Keras' tests); the earlier versions
// did not force 32 bits.
//
// The operations follow the JAX backend (keras/src/backend/jax/numpy.py):
// / is result_type(x, y, float) (int8 / int8 is float32), exp, the other
// float functions, floor and ceil are result_type(x, float), // and % are jnp's (bool operands become int32),
// sum and prod give int32 for bool, int8 and int16 and uint32 for uint8
// and uint16, mean is result_type(x, float32) for ints (accumulated in
// float32 for float16 and bfloat16), argmax gives int32. As the backend is
// JAX's with x64 off, 64-bit dtypes are made 32-bit (Check).

func init() {
	register("keras", func() Policy { return kerasPolicy{} })
}

type kerasPolicy struct{}

const kerasName = "keras"

// The weak nodes of Keras' lattice.
const (
	kerasInt   = latticeExtra + iota // Python's int
	kerasFloat                       // Python's float
)

var kerasDTypes = []dtypes.DType{
	dtypes.Bool, dtypes.I8, dtypes.I16, dtypes.I32, dtypes.I64,
	dtypes.U8, dtypes.U16, dtypes.U32, dtypes.U64,
	dtypes.F16, dtypes.BF16, dtypes.F32, dtypes.F64, dtypes.C64, dtypes.C128,
	dtypes.F8E4M3, dtypes.F8E5M2,
}

// kerasEdges is _type_promotion_lattice.
func kerasEdges() map[latticeNode][]latticeNode {
	n := func(d dtypes.DType) latticeNode { return latticeNode(d) }
	return map[latticeNode][]latticeNode{
		n(dtypes.Bool): {kerasInt},
		n(dtypes.U8):   {n(dtypes.I16), n(dtypes.U16)},
		n(dtypes.U16):  {n(dtypes.I32), n(dtypes.U32)},
		n(dtypes.U32):  {n(dtypes.I64), n(dtypes.U64)},
		n(dtypes.U64):  {kerasFloat},
		kerasInt:       {n(dtypes.U8), n(dtypes.I8), n(dtypes.C64)},
		n(dtypes.I8):   {n(dtypes.I16)},
		n(dtypes.I16):  {n(dtypes.I32)},
		n(dtypes.I32):  {n(dtypes.I64)},
		n(dtypes.I64):  {kerasFloat},
		kerasFloat:     {n(dtypes.BF16), n(dtypes.F16)},
		n(dtypes.BF16): {n(dtypes.F32)},
		n(dtypes.F16):  {n(dtypes.F32)},
		n(dtypes.F32):  {n(dtypes.F64), n(dtypes.C64)},
		n(dtypes.F64):  {n(dtypes.C128)},
		n(dtypes.C64):  {n(dtypes.C128)},
		n(dtypes.C128): nil,
	}
}

var kerasLattice = newLattice(kerasEdges())

func kerasNodeName(n latticeNode) string {
	switch n {
	case kerasInt:
		return `"int"`
	case kerasFloat:
		return `"float"`
	}
	return dtypes.DType(n).FullName()
}

func (kerasPolicy) Name() string { return kerasName }

func (kerasPolicy) Title() string { return "Keras 3 result_type, JAX backend, floatx float32" }

func (kerasPolicy) DTypes() []dtypes.DType { return kerasDTypes }

func (kerasPolicy) Host() Host { return Python }

// Check refuses the dtypes Keras lacks and makes 64-bit dtypes 32-bit, as
// the JAX backend (x64 off) does, with JAX's warning.
func (kerasPolicy) Check(d dtypes.DType) (dtypes.DType, string, error) {
	if !numpyHas(kerasDTypes, d) {
		return dtypes.Invalid, "", Errorf(kerasName, -1, "no dtype %s (Keras has bool, i8–i64, u8–u64, f16, bf16, f32, f64, c64, c128, f8e4m3, f8e5m2)", d)
	}
	if c := kerasTo32(d); c != d {
		return c, fmt.Sprintf("Explicitly requested dtype %s is not available, and will be truncated to dtype %s (Keras' JAX backend runs with x64 off)", d.FullName(), c.FullName()), nil
	}
	return d, "", nil
}

// kerasTo32 is BIT64_TO_BIT32_DTYPE on the backends other than TensorFlow.
func kerasTo32(d dtypes.DType) dtypes.DType {
	switch d {
	case dtypes.I64:
		return dtypes.I32
	case dtypes.U64:
		return dtypes.U32
	case dtypes.F64:
		return dtypes.F32
	case dtypes.C128:
		return dtypes.C64
	}
	return d
}

// Literal gives a Python scalar its Keras type: int and float are weak
// int32 and float32, bool and complex are strong bool and complex64. A
// Python int must fit int32, as the JAX backend parses it as one.
func (kerasPolicy) Literal(v Scalar) (dtypes.Type, error) { return kerasLiteral(0, v) }

func kerasLiteral(idx int, v Scalar) (dtypes.Type, error) {
	switch v.Kind {
	case BoolScalar:
		return dtypes.Strong(dtypes.Bool), nil
	case IntScalar:
		if !numpyIntFits(v.Int, dtypes.I32) {
			return dtypes.Type{}, Errorf(kerasName, idx, "Python int %s does not fit int32, the dtype Keras' JAX backend parses Python ints as (OverflowError)", v.Int)
		}
		return dtypes.Weak(dtypes.I32), nil
	case FloatScalar:
		return dtypes.Weak(dtypes.F32), nil
	}
	return dtypes.Strong(dtypes.C64), nil
}

// ArrayLiteral gives keras.ops.convert_to_tensor's dtype for a list of
// Python scalars: result_type of the element types, strong.
func (kerasPolicy) ArrayLiteral(k ScalarKind) (dtypes.Type, error) {
	t, _ := kerasLiteral(0, tfKindValue(k))
	return dtypes.Strong(t.DType), nil
}

// Convert checks keras.ops.convert_to_tensor(v, dtype=d): as jnp.asarray,
// an int must fit the (32-bit) dtype.
func (p kerasPolicy) Convert(v Scalar, d dtypes.DType) error {
	c, _, err := p.Check(d)
	if err != nil {
		return err
	}
	return numpyConvert(kerasName, v, c, true, false)
}

// A kerasArg is an input of result_type: a dtype and whether it is weak.
type kerasArg struct {
	idx  int
	d    dtypes.DType
	weak bool
	lit  bool
}

func (p kerasPolicy) arg(idx int, o Operand) (kerasArg, error) {
	if o.Literal && o.Value != nil {
		t, err := kerasLiteral(idx, *o.Value)
		return kerasArg{idx: idx, d: t.DType, weak: t.Weak, lit: true}, err
	}
	if !numpyHas(kerasDTypes, o.Type.DType) {
		return kerasArg{}, Errorf(kerasName, idx, "no dtype %s in Keras", o.Type.DType)
	}
	return kerasArg{idx: idx, d: o.Type.DType, weak: o.Type.Weak && o.Type.DType != dtypes.Bool, lit: o.Literal}, nil
}

// kerasResolve is _resolve_weak_type with floatx's precision "32".
func kerasResolve(d dtypes.DType) dtypes.DType {
	switch {
	case d == dtypes.Bool:
		return d
	case d.IsSigned():
		return dtypes.I32
	case d.IsUnsigned():
		return dtypes.U32
	}
	return dtypes.F32
}

// resultType is keras.backend.result_type of args, with the rule that
// fired.
func (p kerasPolicy) resultType(args ...kerasArg) (dtypes.DType, string, error) {
	var names []string
	for _, a := range args {
		if a.d.IsFloat8() {
			return dtypes.Invalid, "", Errorf(kerasName, a.idx, "There is no implicit conversions from float8 dtypes to others. You must cast it internally. (ValueError: result_type refuses %s, even with itself)", a.d.FullName())
		}
		n := a.d.FullName()
		if a.weak {
			n = kerasPyName(a.d)
		}
		names = append(names, n)
	}
	call := "result_type(" + strings.Join(names, ", ") + ")"
	same, allWeak := true, true
	for _, a := range args {
		same = same && a.d == args[0].d
		allWeak = allWeak && a.weak
	}
	var out dtypes.DType
	var rule string
	switch {
	case same && !allWeak:
		out, rule = args[0].d, fmt.Sprintf("%s: one dtype, nothing to promote", call)
	case allWeak:
		var ns []latticeNode
		for _, a := range args {
			ns = append(ns, latticeNode(a.d))
		}
		n, ok := kerasLattice.join(ns...)
		if !ok {
			return dtypes.Invalid, "", p.joinError(-1, ns)
		}
		out = kerasResolve(dtypes.DType(n))
		rule = fmt.Sprintf("%s: all inputs are weak, so Keras joins their dtypes as strong, at %s, and resolves the weak result to %s (floatx's precision)", call, kerasNodeName(n), out.FullName())
	default:
		var ns []latticeNode
		blame := -1
		for _, a := range args {
			switch {
			case !a.weak:
				ns = append(ns, latticeNode(a.d))
			case a.d.IsInt():
				ns = append(ns, kerasInt)
			case a.d.IsFloat():
				ns = append(ns, kerasFloat)
			default:
				return dtypes.Invalid, "", Errorf(kerasName, a.idx, "dtype='complex' is not a valid dtype for Keras type promotion. (ValueError: Keras has no weak complex)")
			}
			if a.lit {
				blame = a.idx
			}
		}
		n, ok := kerasLattice.join(ns...)
		if !ok {
			return dtypes.Invalid, "", p.joinError(blame, ns)
		}
		if n >= latticeExtra {
			out = kerasResolve(map[latticeNode]dtypes.DType{kerasInt: dtypes.I32, kerasFloat: dtypes.F32}[n])
			rule = fmt.Sprintf("%s: the lattice join is the weak %s, which resolves to %s (floatx's precision)", call, kerasNodeName(n), out.FullName())
		} else {
			out = dtypes.DType(n)
			rule = fmt.Sprintf("%s: the lattice join is %s", call, out.FullName())
		}
	}
	if c := kerasTo32(out); c != out {
		rule += fmt.Sprintf(", forced to 32 bits: %s (BIT64_TO_BIT32_DTYPE)", c.FullName())
		out = c
	}
	return out, rule, nil
}

// kerasPyName is the Python type a weak input stands for.
func kerasPyName(d dtypes.DType) string {
	switch {
	case d.IsInt():
		return "int"
	case d.IsFloat():
		return "float"
	}
	return "complex"
}

func (p kerasPolicy) joinError(blame int, ns []latticeNode) error {
	var names []string
	for _, n := range ns {
		names = append(names, "'"+strings.Trim(kerasNodeName(n), `"`)+"'")
	}
	return Errorf(kerasName, blame, "Input dtypes (%s) have no available implicit dtype promotion path. Try explicitly casting inputs to the desired output type. (ValueError)", strings.Join(names, ", "))
}

func (p kerasPolicy) Binary(op BinaryOp, x, y Operand) (Result, error) {
	a, err := p.arg(0, x)
	if err != nil {
		return Result{}, err
	}
	b, err := p.arg(1, y)
	if err != nil {
		return Result{}, err
	}
	return p.apply(op, []kerasArg{a, b})
}

// Nary is result_type of all the operands at once: Keras joins them as a
// set, and forces 32 bits only at the end (uint64, uint64, int8 is
// float32, where a fold would give int32).
func (p kerasPolicy) Nary(op BinaryOp, xs []Operand) (Result, error) {
	var args []kerasArg
	for i, x := range xs {
		a, err := p.arg(i, x)
		if err != nil {
			return Result{}, err
		}
		args = append(args, a)
	}
	if len(args) == 1 {
		t := dtypes.Type{DType: args[0].d, Weak: args[0].weak}
		return Result{Type: t, Compute: t.DType, Rule: "a single operand keeps its type"}, nil
	}
	return p.apply(op, args)
}

// apply is op on operands args: their result_type (with float for /),
// then the operation's own rules.
func (p kerasPolicy) apply(op BinaryOp, args []kerasArg) (Result, error) {
	lits := true
	for _, a := range args {
		lits = lits && a.lit
	}
	if op.Class() == Div {
		// / and arctan2 join float in (result_type(x1, x2, float));
		// jnp.hypot promotes to inexact, the same dtype.
		args = append(args, kerasArg{idx: -1, d: dtypes.F32, weak: true})
	}
	d, rule, err := p.resultType(args...)
	if err != nil {
		return Result{}, err
	}
	// Python scalars with Python scalars stay Python scalars; Keras'
	// tensors carry no weak type.
	weak := lits && d != dtypes.Bool
	r := Result{Type: dtypes.Type{DType: d, Weak: weak}, Compute: d, Rule: rule, IntVia: dtypes.Invalid}
	numeric := func(what string) {
		if d == dtypes.Bool {
			r.Type.DType, r.Compute = dtypes.I32, dtypes.I32
			r.Rule += "; " + what + " makes bools int32"
		}
	}
	switch op.Class() {
	case Arith:
		switch {
		case op == Sub && d == dtypes.Bool:
			return Result{}, Errorf(kerasName, -1, "subtract does not accept dtype bool (jnp.subtract is not defined on booleans)")
		case op == Pow:
			numeric("power")
		case (op == Maximum || op == Minimum) && d.IsComplex():
			r.ComplexOrder = ComplexXLA
		}
	case Div:
		if op != TrueDiv {
			return kerasEverydayBinary(op, r)
		}
		r.Rule = "/ is " + r.Rule
	case DivMod:
		if d.IsComplex() {
			return Result{}, Errorf(kerasName, -1, "%s does not support complex (%s)", op, d.FullName())
		}
		numeric(map[BinaryOp]string{FloorDiv: "floor_divide", Mod: "mod"}[op])
		if r.Compute.IsInt() {
			r.IntDiv = IntDivJNP
		}
	case Compare:
		r.Type = dtypes.Strong(dtypes.Bool)
		r.Rule += "; the comparison gives bool"
	case Bitwise:
		if d.IsInexact() {
			return Result{}, Errorf(kerasName, -1, "%s needs int or bool operands, got %s", op, d.FullName())
		}
	case Logical:
		r.Type, r.Compute = dtypes.Strong(dtypes.Bool), dtypes.Bool
		r.Rule = "logical " + op.String() + " converts both operands to bool"
	}
	return r, nil
}

func (p kerasPolicy) Unary(op UnaryOp, x Operand) (Result, error) {
	a, err := p.arg(0, x)
	if err != nil {
		return Result{}, err
	}
	d := a.d
	if d.IsFloat8() && op.Class() != SameType && op.Class() != Extreme {
		_, _, err := p.resultType(a)
		return Result{}, err
	}
	same := func(rule string) (Result, error) {
		return Result{Type: dtypes.Type{DType: d, Weak: a.weak}, Compute: d, Rule: rule}, nil
	}
	strong := func(out, compute dtypes.DType, rule string) (Result, error) {
		return Result{Type: dtypes.Strong(out), Compute: compute, Rule: rule}, nil
	}
	if r, ok, err := p.everyday(op, a); ok {
		return r, err
	}
	toFloat := func() (Result, error) {
		f, rule, err := p.resultType(kerasArg{d: d}, kerasArg{idx: -1, d: dtypes.F32, weak: true})
		if err != nil {
			return Result{}, err
		}
		return strong(f, f, op.String()+" is "+rule)
	}
	switch op.Class() {
	case SameType:
		if op == Neg && d == dtypes.Bool {
			return Result{}, Errorf(kerasName, 0, "negative does not accept dtype bool; use logical_not")
		}
		if op == Abs && d.IsComplex() {
			return strong(d.Real(), d, fmt.Sprintf("abs of %s gives %s", d.FullName(), d.Real().FullName()))
		}
		return same("the operand's dtype")
	case BitNot:
		if d.IsInexact() {
			return Result{}, Errorf(kerasName, 0, "~ (invert) needs an int or bool operand, got %s", d.FullName())
		}
		return same("the operand's dtype")
	case LogicalNot:
		return strong(dtypes.Bool, dtypes.Bool, "logical_not gives bool")
	case FloatFn:
		if d.IsComplex() && (op == Erf || op == Gelu) {
			return Result{}, Errorf(kerasName, 0, "%s is not defined for complex (%s)", op, d.FullName())
		}
		return toFloat()
	case Rounding:
		if d.IsComplex() && op != Round && op != RoundEven {
			return Result{}, Errorf(kerasName, 0, "%s is not defined for complex (%s)", op, d.FullName())
		}
		if (op == Floor || op == Ceil) && !d.IsInexact() {
			// keras/src/backend/jax/numpy.py ceil, floor: the operand is
			// cast to result_type(x.dtype, float) first.
			return toFloat()
		}
		return same("rounding keeps the dtype")
	case Predicate:
		return strong(dtypes.Bool, d, op.String()+" gives bool")
	case SumProd:
		out := d
		switch d {
		case dtypes.Bool, dtypes.I8, dtypes.I16:
			out = dtypes.I32
		case dtypes.U8, dtypes.U16:
			out = dtypes.U32
		}
		compute := out
		if out == dtypes.F16 || out == dtypes.BF16 {
			compute = dtypes.F32
		}
		return strong(out, compute, fmt.Sprintf("%s of %s gives %s, as jnp.%s does with x64 off", op, d.FullName(), out.FullName(), op))
	case MeanOp:
		c, _, err := p.resultType(kerasArg{d: d}, kerasArg{d: dtypes.F32})
		if err != nil {
			return Result{}, err
		}
		out := d
		if d == dtypes.Bool || d.IsInt() {
			out = c
		}
		return strong(out, c, fmt.Sprintf("mean computes in result_type(%s, float32) = %s and gives %s", d.FullName(), c.FullName(), out.FullName()))
	case Extreme:
		return same("the operand's dtype")
	case ArgOp:
		return strong(dtypes.I32, d, op.String()+" gives int32")
	case BoolReduce:
		return strong(dtypes.Bool, d, op.String()+" gives bool")
	}
	return Result{}, Errorf(kerasName, -1, "unknown operation %s", op)
}

// DocLattice is Keras' _type_promotion_lattice: the dtypes (float8 has no
// place in it) and the weak types i*, f* of Python's int and float.
func (p kerasPolicy) DocLattice() ([]Header, []Edge, string) {
	var nodes []Header
	index := map[latticeNode]int{}
	for _, d := range kerasDTypes {
		if d.IsFloat8() {
			continue
		}
		index[latticeNode(d)] = len(nodes)
		nodes = append(nodes, Header{Type: dtypes.Strong(d)})
	}
	index[kerasInt] = len(nodes)
	nodes = append(nodes, Header{Type: dtypes.Weak(dtypes.I32), Label: "i*"})
	index[kerasFloat] = len(nodes)
	nodes = append(nodes, Header{Type: dtypes.Weak(dtypes.F32), Label: "f*"})
	var edges []Edge
	for n, ups := range kerasEdges() {
		for _, m := range ups {
			edges = append(edges, Edge{From: index[n], To: index[m]})
		}
	}
	doc := "Keras 3's type promotion lattice (keras/src/backend/common/dtypes.py, _type_promotion_lattice, adapted from JAX's): a → b: b is immediately above a; i*, f* are Python's int and float, the weak types (Keras has no weak complex; i* sits directly below c64). " +
		"result_type is the least upper bound; a join at i* or f* resolves to floatx's precision (int32, float32), and every result is then forced to 32 bits (int64 → int32, float64 → float32, …). float8 is refused"
	return nodes, edges, doc
}
