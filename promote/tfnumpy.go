package promote

import (
	"fmt"

	"github.com/tensorsh/tensorsh/dtypes"
)

// The tf-numpy and tf-numpy-safe policies: TensorFlow with
// tf.experimental.numpy.experimental_enable_numpy_behavior(
// dtype_conversion_mode="all") and "safe" (refs/tf_numpy.json,
// refs/tf_numpy_safe.json).
//
// TensorFlow states these rules as data: the table _BINARY_DTYPE_RES_HALF
// of tensorflow/python/framework/flexible_dtypes.py gives, for each pair of
// (dtype, weak) inputs, the result (dtype, weak) and the lowest mode that
// allows it (SAFE or ALL). Its inputs are the fifteen dtypes and five weak
// types, int32, int64, float32, float64 and complex128 written i32?, i64?,
// f32?, f64?, c128? here: a Python int is a weak int32 (it must fit int32:
// "Python int … too large to convert to np.int32"), a float a weak
// float32, a complex a weak complex128, a bool a bool; a WeakTensor keeps
// its weak type through operations.
//
// The policy does not copy the table. It joins on a lattice read off it,
// which refs_test checks against every cell of the table: the dtypes form
// JAX's x64 lattice, and the weak types sit in it as
//
//	bool → i32? → i64? → u8, i8 and f32?;  i64, u64 → f64?;  f32? → f64?;
//	f64? → bf16, f16, c128?;  c128? → c64
//
// so that an int tensor with a Python float gives a weak float64 (JAX: a
// weak float32), uint64 with a signed int a weak float64, a 16- or 32-bit
// float with a Python complex complex64. A cell is SAFE exactly when its
// result has the dtype of one input and the other input is weak or has
// values that all fit that dtype exactly (int8 + int16 is SAFE; uint8 +
// int8 = int16, int32 + float32 and any int with a Python float are ALL);
// tf-numpy-safe refuses the others with TensorFlow's TypeError.
//
// The operations are TensorFlow's (tf.go): / converts ints by
// _TRUEDIV_TABLE after promotion, // and % floor, integer division by zero
// is an error, reductions keep the dtype.

func init() {
	register("tf-numpy", func() Policy { return tfNumPyPolicy{} })
	register("tf-numpy-safe", func() Policy { return tfNumPyPolicy{safe: true} })
}

type tfNumPyPolicy struct{ safe bool }

// The weak nodes of the tf-numpy lattice.
const (
	tfnI32w = latticeExtra + iota
	tfnI64w
	tfnF32w
	tfnF64w
	tfnC128w
)

var tfnWeakDType = map[latticeNode]dtypes.DType{
	tfnI32w: dtypes.I32, tfnI64w: dtypes.I64, tfnF32w: dtypes.F32, tfnF64w: dtypes.F64, tfnC128w: dtypes.C128,
}

// tfnEdges is the covering relation of the tf-numpy lattice.
func tfnEdges() map[latticeNode][]latticeNode {
	n := func(d dtypes.DType) latticeNode { return latticeNode(d) }
	return map[latticeNode][]latticeNode{
		n(dtypes.Bool): {tfnI32w},
		tfnI32w:        {tfnI64w},
		tfnI64w:        {n(dtypes.U8), n(dtypes.I8), tfnF32w},
		n(dtypes.U8):   {n(dtypes.I16), n(dtypes.U16)},
		n(dtypes.U16):  {n(dtypes.I32), n(dtypes.U32)},
		n(dtypes.U32):  {n(dtypes.I64), n(dtypes.U64)},
		n(dtypes.U64):  {tfnF64w},
		n(dtypes.I8):   {n(dtypes.I16)},
		n(dtypes.I16):  {n(dtypes.I32)},
		n(dtypes.I32):  {n(dtypes.I64)},
		n(dtypes.I64):  {tfnF64w},
		tfnF32w:        {tfnF64w},
		tfnF64w:        {n(dtypes.BF16), n(dtypes.F16), tfnC128w},
		n(dtypes.BF16): {n(dtypes.F32)},
		n(dtypes.F16):  {n(dtypes.F32)},
		n(dtypes.F32):  {n(dtypes.F64), n(dtypes.C64)},
		n(dtypes.F64):  {n(dtypes.C128)},
		tfnC128w:       {n(dtypes.C64)},
		n(dtypes.C64):  {n(dtypes.C128)},
		n(dtypes.C128): nil,
	}
}

var tfnLattice = newLattice(tfnEdges())

// tfnType is the (dtype, weak) pair a node stands for.
func tfnType(n latticeNode) dtypes.Type {
	if d, ok := tfnWeakDType[n]; ok {
		return dtypes.Weak(d)
	}
	return dtypes.Strong(dtypes.DType(n))
}

// tfnNode is the node of type t; false for a weak dtype that is none of
// the five weak types.
func tfnNode(t dtypes.Type) (latticeNode, bool) {
	if !t.Weak || t.DType == dtypes.Bool {
		return latticeNode(t.DType), true
	}
	for n, d := range tfnWeakDType {
		if d == t.DType {
			return n, true
		}
	}
	return 0, false
}

func (p tfNumPyPolicy) Name() string {
	if p.safe {
		return "tf-numpy-safe"
	}
	return "tf-numpy"
}

func (p tfNumPyPolicy) Title() string {
	if p.safe {
		return `TensorFlow NumPy behaviour, dtype_conversion_mode="safe"`
	}
	return `TensorFlow NumPy behaviour, dtype_conversion_mode="all"`
}

func (tfNumPyPolicy) DTypes() []dtypes.DType { return tfDTypes }

func (tfNumPyPolicy) Host() Host { return Python }

func (p tfNumPyPolicy) Check(d dtypes.DType) (dtypes.DType, string, error) {
	return tfCheck(p.Name(), d)
}

// Literal gives a Python scalar its weak type (flexible_dtypes.py
// _get_dtype_and_weakness): int32?, float32?, complex128?, or bool.
func (p tfNumPyPolicy) Literal(v Scalar) (dtypes.Type, error) { return p.literal(0, v) }

func (p tfNumPyPolicy) literal(idx int, v Scalar) (dtypes.Type, error) {
	switch v.Kind {
	case BoolScalar:
		return dtypes.Strong(dtypes.Bool), nil
	case IntScalar:
		if !numpyIntFits(v.Int, dtypes.I32) {
			return dtypes.Type{}, Errorf(p.Name(), idx, "Python int %s too large to convert to np.int32 (OverflowError: TensorFlow's auto dtype conversion makes Python ints weak int32)", v.Int)
		}
		return dtypes.Weak(dtypes.I32), nil
	case FloatScalar:
		return dtypes.Weak(dtypes.F32), nil
	}
	return dtypes.Weak(dtypes.C128), nil
}

// ArrayLiteral gives tf.constant's dtype for a list of Python scalars.
func (tfNumPyPolicy) ArrayLiteral(k ScalarKind) (dtypes.Type, error) {
	d, _ := tfInferred(tfKindValue(k))
	return dtypes.Strong(d), nil
}

// Convert checks tf.constant(v, dtype=d), as under tf.
func (p tfNumPyPolicy) Convert(v Scalar, d dtypes.DType) error {
	if _, _, err := p.Check(d); err != nil {
		return err
	}
	_, err := tfConvert(p.Name(), 0, v, d)
	return err
}

func (p tfNumPyPolicy) arg(idx int, o Operand) (tfArg, latticeNode, error) {
	t := o.Type
	var v *Scalar
	if o.Literal && o.Value != nil {
		lt, err := p.literal(idx, *o.Value)
		if err != nil {
			return tfArg{}, 0, err
		}
		t, v = lt, o.Value
	} else if _, _, err := p.Check(t.DType); err != nil {
		e := err.(*Error)
		e.Operand = idx
		return tfArg{}, 0, e
	}
	n, ok := tfnNode(t)
	if !ok {
		return tfArg{}, 0, Errorf(p.Name(), idx, "a weak %s is none of TensorFlow's weak types (int32, int64, float32, float64, complex128): Implicit Conversion is not allowed (KeyError)", t.DType.FullName())
	}
	return tfArg{idx: idx, d: t.DType, scalar: v != nil, weak: t.Weak, v: v}, n, nil
}

// tfnFits reports whether every value of dtype a is exactly a value of
// dtype b.
func tfnFits(a, b dtypes.DType) bool {
	switch {
	case a == dtypes.Bool || a == b:
		return true
	case b == dtypes.Bool:
		return false
	case a.IsInt() && b.IsInt():
		alo, ahi := a.IntRange()
		blo, bhi := b.IntRange()
		return alo >= blo && ahi <= bhi
	case a.IsInt():
		// Every int of a is exact in b's significand.
		need := a.Bits()
		if a.IsSigned() {
			need--
		}
		return need <= b.Real().MantissaBits()+1
	case b.IsInt():
		return false
	case a.IsComplex() && !b.IsComplex():
		return false
	}
	ar, br := a.Real(), b.Real()
	return ar.MantissaBits() <= br.MantissaBits() && ar.ExponentBits() <= br.ExponentBits()
}

// tfnSafe reports whether the table marks a ⊕ b = r as allowed in SAFE
// mode: r has the dtype of one input, and the other is weak or fits r.
func tfnSafe(a, b tfArg, r dtypes.Type) bool {
	return (a.d == r.DType && (b.weak || tfnFits(b.d, r.DType))) ||
		(b.d == r.DType && (a.weak || tfnFits(a.d, r.DType)))
}

// promote is flexible_dtypes' result of a and b, with the rule that fired.
func (p tfNumPyPolicy) promote(a, b tfArg, na, nb latticeNode) (dtypes.Type, string, error) {
	n, ok := tfnLattice.join(na, nb)
	if !ok {
		return dtypes.Type{}, "", Errorf(p.Name(), -1, "Implicit Conversion between <dtype: '%s'> and <dtype: '%s'> is not allowed. Please convert the input manually if you need to. (KeyError)", a.d.FullName(), b.d.FullName())
	}
	t := tfnType(n)
	if p.safe && !tfnSafe(a, b, t) {
		return dtypes.Type{}, "", Errorf(p.Name(), -1, "In promotion mode PromoMode.SAFE, implicit dtype promotion between (<dtype: '%s'>, weak=%s) and (<dtype: '%s'>, weak=%s) is disallowed. (TypeError; mode ALL would give %s: cast explicitly, or use :policy tf-numpy)",
			a.d.FullName(), pyBool(a.weak), b.d.FullName(), pyBool(b.weak), t)
	}
	return t, fmt.Sprintf("flexible_dtypes' table: (%s, weak=%s) with (%s, weak=%s) is (%s, weak=%s), allowed in mode %s",
		a.d.FullName(), pyBool(a.weak), b.d.FullName(), pyBool(b.weak), t.DType.FullName(), pyBool(t.Weak), p.safety(a, b, t)), nil
}

func (p tfNumPyPolicy) safety(a, b tfArg, t dtypes.Type) string {
	if tfnSafe(a, b, t) {
		return "SAFE"
	}
	return "ALL"
}

func pyBool(b bool) string {
	if b {
		return "True"
	}
	return "False"
}

func (p tfNumPyPolicy) Binary(op BinaryOp, x, y Operand) (Result, error) {
	if op == Hypot || op == Dot {
		_, _, err := tfEverydayBinary(p.Name(), op, Result{})
		return Result{}, err
	}
	a, na, err := p.arg(0, x)
	if err != nil {
		return Result{}, err
	}
	b, nb, err := p.arg(1, y)
	if err != nil {
		return Result{}, err
	}
	t, rule, err := p.promote(a, b, na, nb)
	if err != nil {
		return Result{}, err
	}
	r := Result{Type: t, Compute: t.DType, Rule: rule}
	for _, s := range []tfArg{a, b} {
		if s.v == nil || (a.v != nil && b.v != nil) {
			continue
		}
		// The Python scalar becomes a tensor of the result's dtype.
		via, err := tfConvert(p.Name(), s.idx, *s.v, t.DType)
		if err != nil {
			return Result{}, err
		}
		r.IntVia = via
	}
	if t.DType == dtypes.Bool {
		r.Type.Weak = false
	}
	return tfApply(p.Name(), op, r)
}

func (p tfNumPyPolicy) Unary(op UnaryOp, x Operand) (Result, error) {
	a, _, err := p.arg(0, x)
	if err != nil {
		return Result{}, err
	}
	return tfUnary(p.Name(), op, a)
}

// DocLattice is the lattice read off flexible_dtypes.py's table: the
// dtypes and the five weak types.
func (p tfNumPyPolicy) DocLattice() ([]Header, []Edge, string) {
	var nodes []Header
	index := map[latticeNode]int{}
	for _, d := range tfDTypes {
		index[latticeNode(d)] = len(nodes)
		nodes = append(nodes, Header{Type: dtypes.Strong(d)})
	}
	for n := tfnI32w; n <= tfnC128w; n++ {
		index[n] = len(nodes)
		nodes = append(nodes, Header{Type: tfnType(n)})
	}
	var edges []Edge
	for n, ups := range tfnEdges() {
		for _, m := range ups {
			edges = append(edges, Edge{From: index[n], To: index[m]})
		}
	}
	doc := "The lattice of TensorFlow's auto dtype conversion, read off the table of tensorflow/python/framework/flexible_dtypes.py: a → b: b is immediately above a; i32?, i64?, f32?, f64?, c128? are its weak types (a Python int is i32?, a float f32?, a complex c128?). " +
		"a + b is the least upper bound, weak when it is a weak type: an int tensor with a Python float gives f64?, uint64 with a signed int f64?. "
	if p.safe {
		doc += "Mode SAFE allows only the joins whose result has the dtype of one input that the other (weak, or of a dtype whose values all fit) can take: uint8 + int8 = int16 and int32 + float32 are refused"
	} else {
		doc += "Mode ALL allows every join; mode SAFE (:policy tf-numpy-safe) refuses those whose result is neither input's dtype, or that an input's values do not all fit"
	}
	return nodes, edges, doc
}
