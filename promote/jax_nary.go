package promote

import (
	"fmt"
	"strings"

	"github.com/tensorsh/tensorsh/dtypes"
)

// JAX's three answers to "what do these types promote to", after
// jax/_src/dtypes.py:
//
//   - jnp.promote_types(a, b): the least upper bound of a and b on the
//     lattice (_least_upper_bound), where a weak type stands for Python's
//     int, float or complex; a join at one of those is np.dtype(int),
//     np.dtype(float), np.dtype(complex): int64, float64, complex128, even
//     with x64 off. No canonicalisation; the x64-off lattice has uint32
//     below int32 (_type_promotion_lattice), so promote_types(uint32, int32)
//     is int32 with x64 off and int64 with it on. PromoteTypes.
//   - What operations do (jnp's promote_dtypes, lattice_result_type): the
//     least upper bound of all operands at once, weak when it is a Python
//     type (or when every operand is weak); Binary and Nary.
//   - jnp.result_type(*args): the same, then canonicalised (64-bit dtypes
//     become 32-bit with x64 off, inputs included), and a weak result
//     reported as the default dtype of its kind. ResultType.
//
// A join of several nodes is associative and commutative, so none of these
// depends on the order of the operands.

// jaxArgs describes xs as JAX sees them.
func (p jaxPolicy) jaxArgs(xs []Operand) ([]jaxArg, error) {
	args := make([]jaxArg, len(xs))
	for i, x := range xs {
		a, err := p.arg(i, x)
		if err != nil {
			return nil, err
		}
		args[i] = a
	}
	return args, nil
}

// node is the lattice node of a: its dtype, or the Python type a weak
// value stands for.
func (a jaxArg) node() jaxNode {
	if a.weak {
		return jaxWeakNode(a.d)
	}
	return jaxNode(a.d)
}

// latticeResult is lattice_result_type over args: the join of all of them,
// weak when the join is a Python type, and when every operand is weak the
// join of their dtypes, kept weak.
func (p jaxPolicy) latticeResult(args []jaxArg) (dtypes.Type, string, error) {
	same, allWeak := true, true
	nodes := make([]jaxNode, len(args))
	names := make([]string, len(args))
	lits := 0
	blame := -1
	for i, a := range args {
		same = same && a.d == args[0].d
		allWeak = allWeak && a.weak
		nodes[i] = a.node()
		names[i] = jaxNodeName(nodes[i])
		if a.lit {
			lits++
			blame = a.idx
		}
	}
	if lits != 1 {
		blame = -1
	}
	switch {
	case same && !allWeak:
		d := args[0].d
		return dtypes.Strong(d), fmt.Sprintf("all operands are %s: nothing to promote", d.FullName()), nil
	case allWeak:
		for i, a := range args {
			nodes[i] = jaxNode(a.d)
			names[i] = a.d.FullName()
		}
		n, ok := jaxJoin(p.x64, nodes...)
		if !ok {
			return dtypes.Type{}, "", p.joinErrorN(-1, nodes)
		}
		return p.allWeak(n, strings.Join(names, ", "))
	}
	n, ok := jaxJoin(p.x64, nodes...)
	if !ok {
		return dtypes.Type{}, "", p.joinErrorN(blame, nodes)
	}
	if !jaxIsWeak(n) {
		d := dtypes.DType(n)
		return dtypes.Strong(d), fmt.Sprintf("JAX lattice join of all operands at once: %s = %s", strings.Join(names, " ∨ "), d.FullName()), nil
	}
	if anyWeak(args) {
		kind := jaxNodeKind(n)
		d := p.defaultOf(kind)
		return dtypes.Weak(d), fmt.Sprintf("JAX lattice join of all operands at once: %s = the %s, so the result is a weak %s (JAX's default %s)", strings.Join(names, " ∨ "), jaxNodeName(n), d.FullName(), p.mode()), nil
	}
	// Only strong operands, joined at the weak float (uint64 with a signed
	// int): float64, weak, as Binary gives it.
	return dtypes.Weak(dtypes.F64), fmt.Sprintf("JAX lattice join: %s meet only at the weak float, so the result is a weak float64", strings.Join(names, ", ")), nil
}

// anyWeak reports whether at least one of args is weak.
func anyWeak(args []jaxArg) bool {
	for _, a := range args {
		if a.weak {
			return true
		}
	}
	return false
}

// jaxNodeKind is the dtype kind a weak node stands for.
func jaxNodeKind(n jaxNode) dtypes.Kind {
	switch n {
	case jaxWeakInt:
		return dtypes.KindInt
	case jaxWeakFloat:
		return dtypes.KindFloat
	}
	return dtypes.KindComplex
}

// joinErrorN is _least_upper_bound's TypePromotionError for nodes.
func (p jaxPolicy) joinErrorN(blame int, nodes []jaxNode) error {
	if len(nodes) == 2 {
		return p.joinError(blame, nodes[0], nodes[1])
	}
	why := "no implicit promotion path"
	names := make([]string, len(nodes))
	for i, n := range nodes {
		names[i] = jaxNodeName(n)
		if n < jaxNumNodes && !jaxIsWeak(n) && dtypes.DType(n).IsFloat8() {
			why = "8-bit floats do not take part in implicit promotion; cast explicitly, e.g. x.astype('float32')"
		}
	}
	return Errorf(p.Name(), blame, "%s have no common type: %s (TypePromotionError)", strings.Join(names, ", "), why)
}

// Nary is JAX's promotion of all of xs at once (lattice_result_type, as
// jnp's promote_dtypes applies it to an operation's inputs).
func (p jaxPolicy) Nary(op BinaryOp, xs []Operand) (Result, error) {
	switch len(xs) {
	case 1:
		a, err := p.arg(0, xs[0])
		if err != nil {
			return Result{}, err
		}
		t := dtypes.Type{DType: a.d, Weak: a.weak && a.d != dtypes.Bool}
		return Result{Type: t, Compute: a.d, Rule: "a single operand keeps its type " + t.String()}, nil
	case 2:
		return p.Binary(op, xs[0], xs[1])
	}
	args, err := p.jaxArgs(xs)
	if err != nil {
		return Result{}, err
	}
	t, rule, err := p.latticeResult(args)
	if err != nil {
		return Result{}, err
	}
	return p.apply(op, t, rule)
}

// PromoteTypes is jnp.promote_types, for any number of types: the least
// upper bound on the lattice, a weak type standing for its Python type, a
// join at a Python type being its 64-bit NumPy dtype. Nothing is
// canonicalised, with x64 off too.
func (p jaxPolicy) PromoteTypes(xs []Operand) (Result, error) {
	nodes := make([]jaxNode, len(xs))
	names := make([]string, len(xs))
	for i, x := range xs {
		var n jaxNode
		switch {
		case x.Literal && x.Value != nil:
			switch x.Value.Kind {
			case BoolScalar:
				n = jaxNode(dtypes.Bool)
			case IntScalar:
				n = jaxWeakInt
			case FloatScalar:
				n = jaxWeakFloat
			default:
				n = jaxWeakComplex
			}
		case !numpyHas(jaxDTypes, x.Type.DType):
			return Result{}, Errorf(p.Name(), i, "no dtype %s in JAX", x.Type.DType)
		case x.Type.Weak:
			n = jaxWeakNode(x.Type.DType)
		default:
			n = jaxNode(x.Type.DType)
		}
		nodes[i], names[i] = n, jaxNodeName(n)
	}
	n, ok := jaxJoin(p.x64, nodes...)
	if !ok {
		return Result{}, p.joinErrorN(-1, nodes)
	}
	var d dtypes.DType
	rule := fmt.Sprintf("jnp.promote_types: the join of %s on JAX's lattice", strings.Join(names, ", "))
	if !p.x64 && nodeIn(nodes, jaxNode(dtypes.U32)) && !jaxIsWeak(n) && dtypes.DType(n).IsSigned() {
		rule += " (with x64 off uint32 sits below int32, so that 32-bit inputs never give int64)"
	}
	if jaxIsWeak(n) {
		d = map[jaxNode]dtypes.DType{jaxWeakInt: dtypes.I64, jaxWeakFloat: dtypes.F64, jaxWeakComplex: dtypes.C128}[n]
		rule += fmt.Sprintf(" is Python's %s, which promote_types gives as %s (no x32 canonicalisation)", strings.TrimPrefix(jaxNodeName(n), "weak "), d.FullName())
	} else {
		d = dtypes.DType(n)
		rule += " is " + d.FullName()
	}
	return Result{Type: dtypes.Strong(d), Compute: d, Rule: rule}, nil
}

// ResultType is jnp.result_type(*xs): inputs canonicalised (with x64 off
// a 64-bit dtype is truncated to 32 bits, with JAX's warning), joined as
// operations join them, the result canonicalised, and a weak result given
// as the default dtype of its kind (bfloat16 and float8: of float), still
// marked weak.
func (p jaxPolicy) ResultType(xs []Operand) (Result, error) {
	args, err := p.jaxArgs(xs)
	if err != nil {
		return Result{}, err
	}
	var warning string
	for i, a := range args {
		if a.lit {
			continue
		}
		if c, w, _ := p.Check(a.d); c != a.d {
			args[i].d, warning = c, w
		}
	}
	var t dtypes.Type
	var rule string
	if len(args) == 1 {
		a := args[0]
		t = dtypes.Type{DType: a.d, Weak: a.weak && a.d != dtypes.Bool}
		rule = "a single operand keeps its type " + t.String()
	} else if t, rule, err = p.latticeResult(args); err != nil {
		return Result{}, err
	}
	if t.Weak {
		k := t.DType.Kind()
		if t.DType == dtypes.BF16 || t.DType.IsFloat8() {
			k = dtypes.KindFloat
		}
		if d := p.defaultOf(k); d != t.DType {
			rule += fmt.Sprintf("; jnp.result_type gives a weak result as the default %s dtype, %s", k, d.FullName())
			t.DType = d
		}
	}
	if c := p.canon(t.DType); c != t.DType {
		rule += fmt.Sprintf("; canonicalised to %s (x64 off)", c.FullName())
		t.DType = c
	}
	return Result{Type: t, Compute: t.DType, Rule: rule, Warning: warning}, nil
}

func nodeIn(nodes []jaxNode, n jaxNode) bool {
	for _, m := range nodes {
		if m == n {
			return true
		}
	}
	return false
}

// DocLattice is JAX's type promotion lattice as jax/_src/dtypes.py
// (_type_promotion_lattice) defines it with x64 on and JAX's type
// promotion docs draw it: bool → i* → u8, i8 …, f* → bf16, f16, c* …,
// where i*, f*, c* are the weak types of Python's int, float and complex.
// It is the same for jax and jax64; what x64 off changes is said beside
// it.
func (p jaxPolicy) DocLattice() ([]Header, []Edge, string) {
	var nodes []Header
	index := map[jaxNode]int{}
	for _, d := range jaxDTypes {
		index[jaxNode(d)] = len(nodes)
		nodes = append(nodes, Header{Type: dtypes.Strong(d)})
	}
	for _, w := range []struct {
		n     jaxNode
		kind  dtypes.Kind
		label string
	}{{jaxWeakInt, dtypes.KindInt, "i*"}, {jaxWeakFloat, dtypes.KindFloat, "f*"}, {jaxWeakComplex, dtypes.KindComplex, "c*"}} {
		index[w.n] = len(nodes)
		nodes = append(nodes, Header{Type: dtypes.Weak(p.defaultOf(w.kind)), Label: w.label})
	}
	var edges []Edge
	for n, ups := range jaxLattice(true) {
		for _, m := range ups {
			edges = append(edges, Edge{From: index[n], To: index[m]})
		}
	}
	doc := "JAX's type promotion lattice (jax/_src/dtypes.py, _type_promotion_lattice, as JAX's type promotion docs draw it): a → b: b is immediately above a; i*, f*, c* are Python's int, float and complex, the weak types. " +
		"promote(a, b) is the least upper bound (a join at i*, f*, c* gives i64, f64, c128); an operation with a weak operand joins it at its weak type and stays weak there. "
	x32 := "uint32 sits below int32 instead of int64 (u32 ∨ i32 = i32, so that 32-bit inputs never give a 64-bit type), and values are never 64-bit: i64, u64, f64, c128 are made i32, u32, f32, c64, and a weak result takes the 32-bit default"
	if p.x64 {
		doc += "With x64 off (:policy jax) two things change: " + x32
	} else {
		doc += "With x64 off, as here, two things change: " + x32
	}
	return nodes, edges, doc
}

// TypesNote says where the x64-off promote_types table differs from JAX's
// documented one (made with x64 on).
func (p jaxPolicy) TypesNote() string {
	if p.x64 {
		return "dtype × dtype cells are jnp.promote_types, JAX's documented promotion table"
	}
	return "dtype × dtype cells are jnp.promote_types, JAX's documented promotion table, except that with x64 off uint32 sits below int32: u32 with i8, i16 or i32 is i32 (i64 in the docs' table, made with x64 on)"
}
