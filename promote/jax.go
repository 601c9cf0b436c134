package promote

import (
	"fmt"
	"math/bits"

	"github.com/tensorsh/tensorsh/dtypes"
)

// The jax and jax64 policies: JAX's type promotion lattice with weak types
// (refs/jax_x32.json, refs/jax_x64.json, seed 003), after jax._src.dtypes.
//
// The lattice has the dtypes plus three weak nodes, the Python types int,
// float and complex (written i*, f*, c*). The result of a binary operation
// is the least upper bound (join) of its operands on the lattice, where a
// weak operand stands for its weak node: int8 + (weak int) is int8, int8 +
// (weak float) is f*, which becomes the default float, still weak. When all
// operands are weak, their dtypes are joined as if strong and the result is
// weak (weak int8 + weak int8 is a weak int8, jax issue 6051; weak int8 +
// weak float16 a weak float16). A join at a weak node has the default dtype
// of its kind: int32/float32/complex64 with x64 off,
// int64/float64/complex128 with x64 on. Python bools are
// strong bools; a result of dtype bool is never weak. Float8 types join only
// with bools, ints and weak floats.
//
// With x64 off, 64-bit dtypes are not available: Check truncates them to
// their 32-bit counterparts with a warning, and Python ints must fit int32.
//
// jax_nary.go holds the n-ary join, jnp.promote_types (PromoteTypes),
// jnp.result_type (ResultType) and the documented lattice (DocLattice).

func init() {
	register("jax", func() Policy { return jaxPolicy{} })
	register("jax64", func() Policy { return jaxPolicy{x64: true} })
}

type jaxPolicy struct{ x64 bool }

// A jaxNode is a node of the promotion lattice: a dtype, or a weak type.
type jaxNode uint8

// The weak nodes follow the dtypes.
const (
	jaxWeakInt jaxNode = jaxNode(dtypes.NumDTypes) + iota
	jaxWeakFloat
	jaxWeakComplex
	jaxNumNodes
)

var jaxDTypes = []dtypes.DType{
	dtypes.Bool, dtypes.I8, dtypes.I16, dtypes.I32, dtypes.I64,
	dtypes.U8, dtypes.U16, dtypes.U32, dtypes.U64,
	dtypes.F16, dtypes.BF16, dtypes.F32, dtypes.F64, dtypes.C64, dtypes.C128,
	dtypes.F8E4M3, dtypes.F8E5M2,
}

// jaxLattice returns the edges of the lattice: each node maps to the nodes
// immediately above it. With x64 off, uint32 sits below int32 instead of
// int64, so that no join of 32-bit inputs is a 64-bit type.
func jaxLattice(x64 bool) map[jaxNode][]jaxNode {
	n := func(d dtypes.DType) jaxNode { return jaxNode(d) }
	l := map[jaxNode][]jaxNode{
		n(dtypes.Bool):   {jaxWeakInt},
		jaxWeakInt:       {n(dtypes.U8), n(dtypes.I8)},
		n(dtypes.U8):     {n(dtypes.I16), n(dtypes.U16)},
		n(dtypes.U16):    {n(dtypes.I32), n(dtypes.U32)},
		n(dtypes.U32):    {n(dtypes.I64), n(dtypes.U64)},
		n(dtypes.U64):    {jaxWeakFloat},
		n(dtypes.I8):     {n(dtypes.I16)},
		n(dtypes.I16):    {n(dtypes.I32)},
		n(dtypes.I32):    {n(dtypes.I64)},
		n(dtypes.I64):    {jaxWeakFloat},
		jaxWeakFloat:     {n(dtypes.F8E4M3), n(dtypes.F8E5M2), n(dtypes.BF16), n(dtypes.F16), jaxWeakComplex},
		n(dtypes.F8E4M3): nil,
		n(dtypes.F8E5M2): nil,
		n(dtypes.BF16):   {n(dtypes.F32)},
		n(dtypes.F16):    {n(dtypes.F32)},
		n(dtypes.F32):    {n(dtypes.F64), n(dtypes.C64)},
		n(dtypes.F64):    {n(dtypes.C128)},
		jaxWeakComplex:   {n(dtypes.C64)},
		n(dtypes.C64):    {n(dtypes.C128)},
		n(dtypes.C128):   nil,
	}
	if !x64 {
		l[n(dtypes.U32)] = []jaxNode{n(dtypes.I32), n(dtypes.U64)}
	}
	return l
}

// jaxUpper holds, per lattice (x32, x64), each node's upper bounds as a
// bit set (the node itself included); 0 for nodes not in the lattice.
var jaxUpper [2][jaxNumNodes]uint32

func init() {
	for i, x64 := range []bool{false, true} {
		l := jaxLattice(x64)
		var up func(n jaxNode) uint32
		up = func(n jaxNode) uint32 {
			s := uint32(1) << n
			for _, m := range l[n] {
				s |= up(m)
			}
			return s
		}
		for n := range l {
			jaxUpper[i][n] = up(n)
		}
	}
}

// jaxJoin is the least upper bound of nodes on the lattice; false when
// there is none.
func jaxJoin(x64 bool, nodes ...jaxNode) (jaxNode, bool) {
	ub := &jaxUpper[0]
	if x64 {
		ub = &jaxUpper[1]
	}
	common := ^uint32(0)
	var in uint32
	for _, n := range nodes {
		if n >= jaxNumNodes || ub[n] == 0 {
			return 0, false
		}
		common &= ub[n]
		in |= 1 << n
	}
	lub := common & in
	if lub == 0 {
		for c := jaxNode(0); c < jaxNumNodes; c++ {
			if common&(1<<c) != 0 && common&^ub[c] == 0 {
				lub |= 1 << c
			}
		}
	}
	if bits.OnesCount32(lub) != 1 {
		return 0, false
	}
	return jaxNode(bits.TrailingZeros32(lub)), true
}

// jaxIsWeak reports whether n is one of the weak nodes.
func jaxIsWeak(n jaxNode) bool { return n >= jaxWeakInt && n < jaxNumNodes }

func jaxNodeName(n jaxNode) string {
	switch n {
	case jaxWeakInt:
		return "weak int"
	case jaxWeakFloat:
		return "weak float"
	case jaxWeakComplex:
		return "weak complex"
	}
	return dtypes.DType(n).FullName()
}

// jaxWeakNode is the node that a weak value of dtype d stands for: the
// Python type of its kind (bool stays bool; bfloat16 and float8 are floats).
func jaxWeakNode(d dtypes.DType) jaxNode {
	switch {
	case d == dtypes.Bool:
		return jaxNode(d)
	case d.IsInt():
		return jaxWeakInt
	case d.IsFloat():
		return jaxWeakFloat
	}
	return jaxWeakComplex
}

func (p jaxPolicy) Name() string {
	if p.x64 {
		return "jax64"
	}
	return "jax"
}

func (p jaxPolicy) Title() string {
	if p.x64 {
		return "JAX, x64 on"
	}
	return "JAX, x64 off"
}

func (p jaxPolicy) DTypes() []dtypes.DType { return jaxDTypes }

func (p jaxPolicy) Host() Host { return Python }

// canon is dtypes.canonicalize_dtype: with x64 off, 64-bit dtypes become
// their 32-bit counterparts.
func (p jaxPolicy) canon(d dtypes.DType) dtypes.DType {
	if p.x64 {
		return d
	}
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

// defaultOf is the default (canonical) dtype of kind k: what a weak result
// of that kind becomes.
func (p jaxPolicy) defaultOf(k dtypes.Kind) dtypes.DType {
	switch k {
	case dtypes.KindBool:
		return dtypes.Bool
	case dtypes.KindInt:
		return p.canon(dtypes.I64)
	case dtypes.KindUint:
		return p.canon(dtypes.U64)
	case dtypes.KindFloat:
		return p.canon(dtypes.F64)
	}
	return p.canon(dtypes.C128)
}

// Check truncates 64-bit dtypes to 32 bits with x64 off, with JAX's
// warning.
func (p jaxPolicy) Check(d dtypes.DType) (dtypes.DType, string, error) {
	if !numpyHas(jaxDTypes, d) {
		return dtypes.Invalid, "", Errorf(p.Name(), -1, "no dtype %s (JAX has bool, i8–i64, u8–u64, f16, bf16, f32, f64, c64, c128, f8e4m3, f8e5m2)", d)
	}
	if c := p.canon(d); c != d {
		return c, fmt.Sprintf("Explicitly requested dtype %s is not available, and will be truncated to dtype %s (JAX with x64 off; enable jax_enable_x64 or use :policy jax64)", d.FullName(), c.FullName()), nil
	}
	return d, "", nil
}

// Literal gives a Python scalar its JAX type: a weak default int, float or
// complex, or a strong bool. A Python int must fit the default int (int32
// with x64 off, int64 with x64 on), as JAX parses it as one.
func (p jaxPolicy) Literal(v Scalar) (dtypes.Type, error) { return p.literal(v, 0) }

func (p jaxPolicy) literal(v Scalar, idx int) (dtypes.Type, error) {
	switch v.Kind {
	case BoolScalar:
		return dtypes.Strong(dtypes.Bool), nil
	case IntScalar:
		d := p.defaultOf(dtypes.KindInt)
		if !numpyIntFits(v.Int, d) {
			return dtypes.Type{}, Errorf(p.Name(), idx, "Python int %s does not fit %s, the dtype JAX parses Python ints as %s (OverflowError)", v.Int, d.FullName(), p.mode())
		}
		return dtypes.Weak(d), nil
	case FloatScalar:
		return dtypes.Weak(p.defaultOf(dtypes.KindFloat)), nil
	}
	return dtypes.Weak(p.defaultOf(dtypes.KindComplex)), nil
}

func (p jaxPolicy) mode() string {
	if p.x64 {
		return "with x64 on"
	}
	return "with x64 off"
}

// ArrayLiteral gives jnp.array's dtype for a list of Python scalars: the
// default dtype of the kind, strong.
func (p jaxPolicy) ArrayLiteral(k ScalarKind) (dtypes.Type, error) {
	switch k {
	case BoolScalar:
		return dtypes.Strong(dtypes.Bool), nil
	case IntScalar:
		return dtypes.Strong(p.defaultOf(dtypes.KindInt)), nil
	case FloatScalar:
		return dtypes.Strong(p.defaultOf(dtypes.KindFloat)), nil
	}
	return dtypes.Strong(p.defaultOf(dtypes.KindComplex)), nil
}

// Convert checks jnp.int8(300)-style conversions: JAX converts Python
// scalars with NumPy 2, so an int must fit the (canonical) dtype; floats
// overflow to infinity with only a warning.
func (p jaxPolicy) Convert(v Scalar, d dtypes.DType) error {
	c, _, err := p.Check(d)
	if err != nil {
		return err
	}
	return numpyConvert(p.Name(), v, c, true, false)
}

// A jaxArg is an operand as JAX sees it.
type jaxArg struct {
	idx  int
	d    dtypes.DType
	weak bool
	lit  bool
}

func (p jaxPolicy) arg(idx int, o Operand) (jaxArg, error) {
	if o.Literal && o.Value != nil {
		t, err := p.literal(*o.Value, idx)
		return jaxArg{idx: idx, d: t.DType, weak: t.Weak, lit: true}, err
	}
	if !numpyHas(jaxDTypes, o.Type.DType) {
		return jaxArg{}, Errorf(p.Name(), idx, "no dtype %s in JAX", o.Type.DType)
	}
	return jaxArg{idx: idx, d: o.Type.DType, weak: o.Type.Weak, lit: o.Literal}, nil
}

// promote is jax.numpy's result_type of two operands, with the rule that
// fired. Operands are not canonicalised (Check does that), so with 64-bit
// operands it answers like jnp.promote_types.
func (p jaxPolicy) promote(a, b jaxArg) (dtypes.Type, string, error) {
	if a.d == b.d && !(a.weak && b.weak) {
		return dtypes.Strong(a.d), fmt.Sprintf("both operands are %s: nothing to promote", a.d.FullName()), nil
	}
	if a.weak && b.weak {
		// jax._src.dtypes.lattice_result_type: when every input is weak, the
		// join is taken over their dtypes as if they were strong, and the
		// result is weak: weak int8 + weak int8 stays a weak int8 (jax
		// issue 6051).
		n, ok := jaxJoin(p.x64, jaxNode(a.d), jaxNode(b.d))
		if !ok {
			return dtypes.Type{}, "", p.joinError(-1, jaxNode(a.d), jaxNode(b.d))
		}
		return p.allWeak(n, fmt.Sprintf("%s and %s", a.d.FullName(), b.d.FullName()))
	}
	na, nb := jaxNode(a.d), jaxNode(b.d)
	if a.weak {
		na = jaxWeakNode(a.d)
	}
	if b.weak {
		nb = jaxWeakNode(b.d)
	}
	blame := -1
	if a.lit != b.lit {
		blame = a.idx
		if b.lit {
			blame = b.idx
		}
	}
	n, ok := jaxJoin(p.x64, na, nb)
	if !ok {
		return dtypes.Type{}, "", p.joinError(blame, na, nb)
	}
	if !jaxIsWeak(n) {
		d := dtypes.DType(n)
		switch {
		case a.weak && n == nb:
			return dtypes.Strong(d), fmt.Sprintf("%s takes the known dtype %s (JAX lattice join)", jaxNodeName(na), d.FullName()), nil
		case b.weak && n == na:
			return dtypes.Strong(d), fmt.Sprintf("%s takes the known dtype %s (JAX lattice join)", jaxNodeName(nb), d.FullName()), nil
		}
		return dtypes.Strong(d), fmt.Sprintf("JAX lattice join: %s ∨ %s = %s", jaxNodeName(na), jaxNodeName(nb), d.FullName()), nil
	}
	kind := map[jaxNode]dtypes.Kind{jaxWeakInt: dtypes.KindInt, jaxWeakFloat: dtypes.KindFloat, jaxWeakComplex: dtypes.KindComplex}[n]
	if !a.weak && !b.weak {
		// Only uint64 with a signed int gets here: jnp.promote_types gives
		// np.dtype(float), float64, in both modes.
		d := dtypes.F64
		return dtypes.Weak(d), fmt.Sprintf("JAX lattice join: %s and %s meet only at the weak float, so the result is a weak %s", jaxNodeName(na), jaxNodeName(nb), d.FullName()), nil
	}
	d := p.defaultOf(kind)
	known, weak := na, nb
	if a.weak {
		known, weak = nb, na
	}
	return dtypes.Weak(d), fmt.Sprintf("%s meets known %s: the join is the %s, so the result is a weak %s (JAX's default %s)", jaxNodeName(weak), jaxNodeName(known), jaxNodeName(n), d.FullName(), p.mode()), nil
}

// allWeak is the result when all operands are weak and their dtypes join
// at n: n, weak (a bool is never weak; a join at the weak float, uint64
// with a signed int, is the default float).
func (p jaxPolicy) allWeak(n jaxNode, what string) (dtypes.Type, string, error) {
	if jaxIsWeak(n) {
		d := p.defaultOf(dtypes.KindFloat)
		return dtypes.Weak(d), fmt.Sprintf("all operands are weak: JAX joins their dtypes %s at the %s, so the result is a weak %s", what, jaxNodeName(n), d.FullName()), nil
	}
	d := dtypes.DType(n)
	if d == dtypes.Bool {
		return dtypes.Strong(d), "all operands are bool: a bool is never weak", nil
	}
	return dtypes.Weak(d), fmt.Sprintf("all operands are weak: JAX joins their dtypes %s as if strong, at %s, and keeps the result weak", what, d.FullName()), nil
}

func (p jaxPolicy) joinError(blame int, a, b jaxNode) error {
	why := "no implicit promotion path"
	if a < jaxNumNodes && b < jaxNumNodes && (dtypes.DType(a).IsFloat8() || dtypes.DType(b).IsFloat8()) {
		why = "8-bit floats do not take part in implicit promotion; cast explicitly, e.g. x.astype('float32')"
	}
	return Errorf(p.Name(), blame, "%s and %s have no common type: %s (TypePromotionError)", jaxNodeName(a), jaxNodeName(b), why)
}

// inexact is dtypes.to_inexact_dtype followed by canonicalisation: bool and
// ints up to 32 bits become float32, 64-bit ints float64 (float32 with x64
// off).
func (p jaxPolicy) inexact(d dtypes.DType) dtypes.DType {
	switch {
	case d.IsInexact():
		return d
	case d == dtypes.I64 || d == dtypes.U64:
		return p.canon(dtypes.F64)
	}
	return dtypes.F32
}

func (p jaxPolicy) Binary(op BinaryOp, x, y Operand) (Result, error) {
	if op == Dot {
		// jax/_src/numpy/tensor_contractions.py dot: promote_dtypes(a, b),
		// then lax.dot_general, as matmul.
		return dotAsMatMul(p, "jnp.dot", x, y)
	}
	a, err := p.arg(0, x)
	if err != nil {
		return Result{}, err
	}
	b, err := p.arg(1, y)
	if err != nil {
		return Result{}, err
	}
	t, rule, err := p.promote(a, b)
	if err != nil {
		return Result{}, err
	}
	return p.apply(op, t, rule)
}

// apply gives op's result once the operands' promoted type t is known.
func (p jaxPolicy) apply(op BinaryOp, t dtypes.Type, rule string) (Result, error) {
	r := Result{Type: t, Compute: t.DType, Rule: rule}
	d := t.DType
	numeric := func(why string) {
		if d == dtypes.Bool {
			r.Type, r.Compute = dtypes.Strong(dtypes.I32), dtypes.I32
			r.Rule += fmt.Sprintf("; %s promotes bools to int32 (to_numeric_dtype)", why)
		}
	}
	switch op.Class() {
	case Arith:
		switch {
		case op == Sub && d == dtypes.Bool:
			return Result{}, Errorf(p.Name(), -1, "subtract does not accept dtype bool (lax.sub is not defined on booleans); use ^ or logical_xor")
		case op == Pow:
			numeric("jnp.power")
		case d.IsComplex() && (op == Maximum || op == Minimum):
			// jax/_src/interpreters/mlir.py _minmax_hlo: lexicographic by
			// strict comparison; a NaN picks the other operand.
			r.ComplexOrder = ComplexXLA
			r.Rule += "; lax.max and lax.min order complex numbers lexicographically (real part, then imaginary)"
		}
	case Div:
		// jnp.arctan2 and jnp.hypot promote like true division
		// (promote_args_inexact); lax.atan2 takes real floats only, and
		// jnp.hypot raises for complex inputs.
		if (op == Arctan2 || op == Hypot) && d.IsComplex() {
			return Result{}, Errorf(p.Name(), -1, "%s is not defined for complex inputs (%s)", op, d.FullName())
		}
		if f := p.inexact(d); f != d {
			r.Type.DType, r.Compute = f, f
			what := "true division"
			if op != TrueDiv {
				what = "jnp." + op.String() + " (promote_args_inexact)"
			}
			r.Rule += fmt.Sprintf("; %s promotes %s to the inexact %s", what, d.FullName(), f.FullName())
		}
	case DivMod:
		if op == Mod && d.IsComplex() {
			return Result{}, Errorf(p.Name(), -1, "remainder does not support complex (%s)", d.FullName())
		}
		numeric("jnp." + map[BinaryOp]string{FloorDiv: "floor_divide", Mod: "remainder"}[op])
		if r.Compute.IsInt() {
			// jax/_src/numpy/ufuncs.py: floor_divide is lax.div (XLA: x / 0
			// is -1, all ones unsigned) corrected by one where the signs
			// differ and lax.rem (x % 0 is x) is not 0; remainder replaces a
			// zero divisor by 1.
			r.IntDiv = IntDivJNP
			if op == FloorDiv {
				r.Rule += "; integer x // 0 is XLA's -1 corrected by jnp.floor_divide: -2 for x != 0, -1 for 0, the maximum for unsigned"
			} else {
				r.Rule += "; integer x % 0 is 0 (jnp.remainder divides by 1 where the divisor is 0)"
			}
		}
	case Compare:
		r.Type = dtypes.Strong(dtypes.Bool)
		r.Rule += "; the comparison is made in " + d.FullName() + " and gives a strong bool"
	case Bitwise:
		if d.IsInexact() {
			return Result{}, Errorf(p.Name(), -1, "%s needs int or bool operands, got %s", op, d.FullName())
		}
		if op == Shl || op == Shr {
			numeric("a shift")
		}
	case Logical:
		r.Type, r.Compute = dtypes.Strong(dtypes.Bool), dtypes.Bool
		r.Rule = "logical " + op.String() + " converts both operands to bool"
	}
	return r, nil
}

func (p jaxPolicy) Unary(op UnaryOp, x Operand) (Result, error) {
	a, err := p.arg(0, x)
	if err != nil {
		return Result{}, err
	}
	d := a.d
	same := func(rule string) (Result, error) {
		return Result{Type: dtypes.Type{DType: d, Weak: a.weak}, Compute: d, Rule: rule}, nil
	}
	strong := func(out, compute dtypes.DType, rule string) (Result, error) {
		return Result{Type: dtypes.Strong(out), Compute: compute, Rule: rule}, nil
	}
	// jax/_src/numpy/ufuncs.py: sign is lax.sign after promote_args
	// (lax.sign takes numbers, not bool); square is lax.integer_pow(x, 2)
	// after promote_dtypes_numeric (bool becomes the default int, the
	// weak flag kept); reciprocal is lax.integer_pow(x, -1) after
	// promote_dtypes_inexact, so integers give floats, unlike NumPy.
	switch {
	case op == Sign && d == dtypes.Bool:
		return Result{}, Errorf(p.Name(), 0, "sign does not accept dtype bool (lax.sign takes numbers)")
	case op == Square && d == dtypes.Bool:
		i := p.defaultOf(dtypes.KindInt)
		return Result{Type: dtypes.Type{DType: i, Weak: a.weak}, Compute: i, Rule: fmt.Sprintf("square promotes bool to the default int %s (promote_dtypes_numeric), keeping weakness", i.FullName())}, nil
	case op == Reciprocal && !d.IsInexact():
		f := p.inexact(d)
		return Result{Type: dtypes.Type{DType: f, Weak: a.weak}, Compute: f, Rule: fmt.Sprintf("reciprocal promotes %s to the inexact %s (promote_dtypes_inexact), keeping weakness; NumPy keeps integers", d.FullName(), f.FullName())}, nil
	}
	switch op.Class() {
	case SameType:
		if op == Neg && d == dtypes.Bool {
			return Result{}, Errorf(p.Name(), 0, "negative does not accept dtype bool (lax.neg is not defined on booleans); use ~ or logical_not")
		}
		if op == Abs && d.IsComplex() {
			// lax.abs_p's dtype rule is _complex_basetype, and unops keep
			// the operand's weak type.
			r := d.Real()
			return Result{Type: dtypes.Type{DType: r, Weak: a.weak}, Compute: d, Rule: fmt.Sprintf("abs of %s gives its real dtype %s (lax.abs: _complex_basetype)", d.FullName(), r.FullName())}, nil
		}
		return same("the operand's type")
	case BitNot:
		if d.IsInexact() {
			return Result{}, Errorf(p.Name(), 0, "~ (invert) needs an int or bool operand, got %s", d.FullName())
		}
		return same("the operand's type")
	case LogicalNot:
		return strong(dtypes.Bool, dtypes.Bool, "logical_not gives bool")
	case FloatFn:
		if d.IsComplex() && (op == Erf || op == Gelu) {
			return Result{}, Errorf(p.Name(), 0, "%s is not defined for complex (%s)", op, d.FullName())
		}
		f := p.inexact(d)
		if f == d {
			return same("a float operand keeps its type")
		}
		return Result{Type: dtypes.Type{DType: f, Weak: a.weak}, Compute: f, Rule: fmt.Sprintf("%s promotes %s to the inexact %s (to_inexact_dtype), keeping weakness", op, d.FullName(), f.FullName())}, nil
	case Rounding:
		if d.IsComplex() && op != Round && op != RoundEven {
			return Result{}, Errorf(p.Name(), 0, "%s is not defined for complex (%s)", op, d.FullName())
		}
		return same("rounding keeps the type (ints and bools are returned unchanged)")
	case Predicate:
		return strong(dtypes.Bool, d, op.String()+" gives bool")
	case SumProd:
		out := d
		switch {
		case d == dtypes.Bool:
			out = p.defaultOf(dtypes.KindInt)
		case d.IsSigned() && d.Bits() < p.defaultOf(dtypes.KindInt).Bits():
			out = p.defaultOf(dtypes.KindInt)
		case d.IsUnsigned() && d.Bits() < p.defaultOf(dtypes.KindUint).Bits():
			out = p.defaultOf(dtypes.KindUint)
		}
		compute := out
		if out == dtypes.F16 || out == dtypes.BF16 {
			compute = dtypes.F32
		}
		rule := fmt.Sprintf("%s of %s gives %s", op, d.FullName(), out.FullName())
		if out != d {
			rule += " (small ints are promoted to the default int)"
		}
		if compute != out {
			rule += ", accumulated in float32"
		}
		return strong(out, compute, rule)
	case MeanOp:
		out := p.inexact(d)
		compute := out
		if out == dtypes.F16 || out == dtypes.BF16 {
			compute = dtypes.F32
		}
		return strong(out, compute, fmt.Sprintf("mean of %s is %s (to_inexact_dtype)", d.FullName(), out.FullName()))
	case Extreme:
		return same("the operand's type")
	case ArgOp:
		i := p.defaultOf(dtypes.KindInt)
		return strong(i, d, fmt.Sprintf("%s gives the default int %s", op, i.FullName()))
	case BoolReduce:
		return strong(dtypes.Bool, d, op.String()+" gives bool")
	case Cumulative:
		// jax/_src/numpy/reductions.py _cumulative_reduction: cumsum and
		// cumprod keep the dtype (promote_integers is False for them); only
		// bool is promoted, by _promote_integer_dtype, to the default int.
		if d == dtypes.Bool {
			i := p.defaultOf(dtypes.KindInt)
			return strong(i, i, fmt.Sprintf("%s of bool accumulates in the default int %s", op, i.FullName()))
		}
		rule := fmt.Sprintf("%s keeps %s (jnp.cumsum and jnp.cumprod do not promote integers)", op, d.FullName())
		if d.IsInexact() {
			// jax/_src/lax/control_flow/loops.py lowers cumsum through
			// reduce_window (associative_scan in older versions), which
			// XLA computes as a tree.
			rule += "; XLA combines floats in a tree order (reduce_window, associative_scan), tensorsh one by one: the last bits can differ"
		}
		return strong(d, d, rule)
	case Moment:
		// reductions.py _var_promote_types: a non-inexact operand becomes
		// to_inexact_dtype; a complex one gives its real dtype; the
		// computation dtype is _upcast_f16 of the operand's.
		out, compute := p.inexact(d), p.inexact(d)
		if d.IsComplex() {
			out = d.Real()
		}
		if compute == dtypes.F16 || compute == dtypes.BF16 {
			compute = dtypes.F32
		}
		rule := fmt.Sprintf("%s of %s is %s (_var_promote_types)", op, d.FullName(), out.FullName())
		if compute != out {
			rule += ", computed in " + compute.FullName()
		}
		return strong(out, compute, rule)
	case Count:
		// reductions.py count_nonzero: sum(a != 0, dtype=canonicalize_dtype(int)).
		i := p.defaultOf(dtypes.KindInt)
		return strong(i, d, fmt.Sprintf("count_nonzero sums a != 0 in the default int %s", i.FullName()))
	}
	return Result{}, Errorf(p.Name(), -1, "unknown operation %s", op)
}
