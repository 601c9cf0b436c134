package promote

import (
	"fmt"
	"math"
	"math/big"

	"github.com/tensorsh/tensorsh/dtypes"
)

// Triton's promotion rules, in two versions.
//
// "triton" is Triton 3.6 as implemented: semantic.computation_type_impl and
// binary_op_type_checking_impl (python/triton/language/semantic.py), pinned
// cell by cell by refs/triton.json. "triton-doc" is Triton as its semantics
// page (seed 001) describes it: kind, then width, then supremum, then prefer
// unsigned. The two differ for bf16 (the code computes bf16 with anything but
// bf16 in fp32), for f16+bf16 (the code gives fp16, the page fp32), for fp8
// with integers (the code raises) and for / // % (the code upcasts fp16 and
// bf16 to fp32 and refuses integers of different signedness).
//
// Both share everything the page does not talk about: Python scalars and
// their value-chosen dtype, the range checks on them, the operators' own
// rules (int / int is fp32, // needs integers, math functions need fp32 or
// fp64), reductions and the C-style // and % on tensors.
//
// Operands map onto Triton like this: a literal is a Python scalar (a
// constexpr); any other rank-0 operand is a Triton scalar of its dtype
// (is_scalar in computation_type_impl); everything else is a tensor. Weak
// operands that are not literals (bracket literals) are tensors of their
// dtype: Triton has no weak tensors, so weakness only survives when both
// operands are weak.

func init() {
	register("triton", func() Policy { return tritonPolicy{} })
	register("triton-doc", func() Policy { return tritonPolicy{doc: true} })
}

// tritonPolicy implements "triton" and, with doc set, "triton-doc".
type tritonPolicy struct{ doc bool }

var tritonDTypes = []dtypes.DType{
	dtypes.Bool, dtypes.I8, dtypes.I16, dtypes.I32, dtypes.I64,
	dtypes.U8, dtypes.U16, dtypes.U32, dtypes.U64,
	dtypes.F16, dtypes.BF16, dtypes.F32, dtypes.F64, dtypes.F8E4M3, dtypes.F8E5M2,
}

// tritonNames are Triton's own spellings (tl.dtype.name).
var tritonNames = map[dtypes.DType]string{
	dtypes.Bool: "int1", dtypes.I8: "int8", dtypes.I16: "int16", dtypes.I32: "int32", dtypes.I64: "int64",
	dtypes.U8: "uint8", dtypes.U16: "uint16", dtypes.U32: "uint32", dtypes.U64: "uint64",
	dtypes.F16: "fp16", dtypes.BF16: "bf16", dtypes.F32: "fp32", dtypes.F64: "fp64",
	dtypes.F8E4M3: "fp8e4nv", dtypes.F8E5M2: "fp8e5",
}

func (p tritonPolicy) Name() string {
	if p.doc {
		return "triton-doc"
	}
	return "triton"
}

func (p tritonPolicy) Title() string {
	if p.doc {
		return "Triton as documented (semantics page)"
	}
	return "Triton 3.6 (computation_type_impl)"
}

func (p tritonPolicy) DTypes() []dtypes.DType { return tritonDTypes }

func (p tritonPolicy) Host() Host { return Python }

func (p tritonPolicy) Check(d dtypes.DType) (dtypes.DType, string, error) {
	if _, ok := tritonNames[d]; ok {
		return d, "", nil
	}
	return dtypes.Invalid, "", Errorf(p.Name(), -1, "no dtype %s (Triton has int1, int8–int64, uint8–uint64, fp16, bf16, fp32, fp64, fp8e4nv, fp8e5)", d)
}

// tritonKind is tl.dtype.kind(): bool 0 < integral 1 < floating 2. Signed
// and unsigned integers are one kind.
func tritonKind(d dtypes.DType) int {
	switch {
	case d == dtypes.Bool:
		return 0
	case d.IsInt():
		return 1
	}
	return 2
}

var tritonKindNames = [...]string{"bool", "int", "float"}

// tritonBits is int_bitwidth / primitive_bitwidth: int1 is one bit wide.
func tritonBits(d dtypes.DType) int {
	if d == dtypes.Bool {
		return 1
	}
	return d.Bits()
}

// tritonUnsigned reports Triton's signedness: int1 counts as unsigned
// (tl.dtype.UINT_TYPES starts with int1).
func tritonUnsigned(d dtypes.DType) bool { return d == dtypes.Bool || d.IsUnsigned() }

func tritonRepr(d dtypes.DType) string { return "triton.language." + tritonNames[d] }

// tritonLiteralDType is semantic.to_tensor_type: the dtype Triton gives a
// Python scalar, chosen by its value.
func tritonLiteralDType(v Scalar) (dtypes.DType, error) {
	switch v.Kind {
	case BoolScalar:
		return dtypes.Bool, nil
	case IntScalar:
		for _, d := range []dtypes.DType{dtypes.I32, dtypes.U32, dtypes.I64, dtypes.U64} {
			if tritonFits(v.Int, d) {
				return d, nil
			}
		}
		//lint:ignore ST1005 Triton's own message (semantic.to_tensor_type)
		return dtypes.Invalid, fmt.Errorf("Nonrepresentable integer %s. (Triton scalars are int32, uint32, int64 or uint64)", v.Int)
	case FloatScalar:
		a := math.Abs(v.Float)
		if math.IsInf(a, 0) || a == 0 || a != a || (a >= 0x1p-126 && a <= math.MaxFloat32) {
			return dtypes.F32, nil
		}
		return dtypes.F64, nil
	}
	return dtypes.Invalid, fmt.Errorf("cannot convert %s of type <class 'complex'> to tensor (Triton has no complex dtype)", v)
}

// tritonFits reports whether integer i lies in the range of d.
func tritonFits(i *big.Int, d dtypes.DType) bool {
	lo, hi := d.IntRange()
	return i.Cmp(big.NewInt(lo)) >= 0 && i.Cmp(new(big.Int).SetUint64(hi)) <= 0
}

func (p tritonPolicy) Literal(v Scalar) (dtypes.Type, error) {
	d, err := tritonLiteralDType(v)
	if err != nil {
		return dtypes.Type{}, Errorf(p.Name(), 0, "%v", err)
	}
	return dtypes.Type{DType: d, Weak: d != dtypes.Bool}, nil
}

func (p tritonPolicy) ArrayLiteral(k ScalarKind) (dtypes.Type, error) {
	switch k {
	case BoolScalar:
		return dtypes.Strong(dtypes.Bool), nil
	case IntScalar:
		return dtypes.Weak(dtypes.I32), nil
	case FloatScalar:
		return dtypes.Weak(dtypes.F32), nil
	}
	return dtypes.Type{}, Errorf(p.Name(), 0, "Triton has no complex dtype")
}

func (p tritonPolicy) Convert(v Scalar, d dtypes.DType) error {
	if _, _, err := p.Check(d); err != nil {
		return err
	}
	// A dtype call is tl.cast(value, dtype): the value becomes a scalar of
	// its own dtype first, then converts (integers wrap).
	if _, err := tritonLiteralDType(v); err != nil {
		return Errorf(p.Name(), 0, "%v", err)
	}
	return nil
}

// tritonOperand is one operand as computation_type_impl sees it.
type tritonOperand struct {
	d      dtypes.DType
	scalar bool    // is_scalar: a Python scalar or a scalar of a dtype
	py     *Scalar // the Python value, range-checked against the result dtype
	weak   bool
}

func (p tritonPolicy) operand(x Operand, i int) (tritonOperand, error) {
	// binary_op_type_checking_impl (Triton 3.6, python/triton/language/
	// semantic.py) counts an operand as a scalar when it is a Python number
	// (isinstance(x, numbers.Number): a literal or a tl.constexpr), and the
	// semantics page (seed 001) says the same ("a numeric literal, a
	// variable marked with tl.constexpr or a combination of these"). A 0-d
	// tensor is a tensor: i32 0-d + 2**56 is "out of range for type int32".
	o := tritonOperand{d: x.Type.DType, scalar: x.Literal, weak: x.Type.Weak}
	if x.Literal && x.Value != nil {
		d, err := tritonLiteralDType(*x.Value)
		if err != nil {
			return o, Errorf(p.Name(), i, "%v", err)
		}
		o.d = d
	}
	if _, ok := tritonNames[o.d]; !ok {
		return o, Errorf(p.Name(), i, "no dtype %s (Triton has int1, int8–int64, uint8–uint64, fp16, bf16, fp32, fp64, fp8e4nv, fp8e5)", o.d)
	}
	if x.Literal && x.Value != nil {
		o.py = x.Value
	}
	return o, nil
}

// tritonFail is a refusal of computation_type_impl: Triton's message and
// the operand to blame.
type tritonFail struct {
	operand int
	msg     string
}

// implCompute is semantic.computation_type_impl (Triton 3.6).
func (p tritonPolicy) implCompute(a, b tritonOperand, divmod bool) (dtypes.DType, string, *tritonFail) {
	if a.scalar != b.scalar {
		s, t := a, b
		if b.scalar {
			s, t = b, a
		}
		if tritonKind(s.d) <= tritonKind(t.d) {
			if divmod && (t.d == dtypes.F16 || t.d == dtypes.BF16) {
				return dtypes.F32, fmt.Sprintf("the scalar (%s) is of a lower or equal kind than the tensor, so it does not take part; / // %% on a %s tensor compute in fp32", tritonKindNames[tritonKind(s.d)], tritonNames[t.d]), nil
			}
			return t.d, fmt.Sprintf("Triton: scalar of a lower or equal kind (%s ≤ %s) does not take part; the tensor's dtype %s wins", tritonKindNames[tritonKind(s.d)], tritonKindNames[tritonKind(t.d)], tritonNames[t.d]), nil
		}
		d, rule, fail := p.implTensors(a.d, b.d, divmod)
		return d, fmt.Sprintf("the scalar is of a higher kind (%s > %s), so it takes part as %s; %s", tritonKindNames[tritonKind(s.d)], tritonKindNames[tritonKind(t.d)], tritonNames[s.d], rule), fail
	}
	return p.implTensors(a.d, b.d, divmod)
}

// implTensors is computation_type_impl from rule 1 on, where both operands
// take part.
func (p tritonPolicy) implTensors(ad, bd dtypes.DType, divmod bool) (dtypes.DType, string, *tritonFail) {
	either := func(d dtypes.DType) bool { return ad == d || bd == d }
	switch {
	case either(dtypes.F64):
		return dtypes.F64, "if one operand is fp64 the other is converted to fp64", nil
	case either(dtypes.F32):
		return dtypes.F32, "if one operand is fp32 the other is converted to fp32", nil
	case either(dtypes.F16):
		if divmod {
			return dtypes.F32, "one operand is fp16, and / // % have no fp16 instruction, so both compute in fp32", nil
		}
		return dtypes.F16, "if one operand is fp16 the other is converted to fp16", nil
	case ad == dtypes.BF16 && bd == dtypes.BF16:
		if divmod {
			return dtypes.F32, "bf16 / // % compute in fp32", nil
		}
		return dtypes.BF16, "both operands are bf16", nil
	case either(dtypes.BF16):
		return dtypes.F32, "bf16 stays bf16 only with bf16: with anything else both are converted to fp32", nil
	case ad.IsFloat8() && bd.IsFloat8():
		if ad == bd {
			return ad, "both operands are " + tritonNames[ad], nil
		}
		return dtypes.F16, "two different fp8 formats are both converted to fp16", nil
	case ad.IsFloat8() || bd.IsFloat8():
		return dtypes.Invalid, "", &tritonFail{-1, fmt.Sprintf("unexpected type %s and %s (Triton does not mix fp8 with integers)", tritonNames[ad], tritonNames[bd])}
	}
	if divmod && tritonUnsigned(ad) != tritonUnsigned(bd) {
		return dtypes.Invalid, "", &tritonFail{-1, fmt.Sprintf("Cannot use /, #, or %% with %s and %s because they have different signedness;this is unlikely to result in a useful answer. Cast them to the same signedness.", tritonRepr(ad), tritonRepr(bd))}
	}
	d := tritonIntPromote(ad, bd)
	return d, "integer promotion (C's usual arithmetic conversions): the wider type wins, and at equal width the unsigned one", nil
}

// tritonIntPromote is semantic.integer_promote_impl.
func tritonIntPromote(a, b dtypes.DType) dtypes.DType {
	ar, br := tritonBits(a), tritonBits(b)
	au, bu := tritonUnsigned(a), tritonUnsigned(b)
	switch {
	case au == bu:
		if ar > br {
			return a
		}
		return b
	case au:
		if ar >= br {
			return a
		}
		return b
	default:
		if br >= ar {
			return b
		}
		return a
	}
}

// docCompute is the algorithm of the semantics page (seed 001).
func (p tritonPolicy) docCompute(a, b tritonOperand) (dtypes.DType, string) {
	if a.scalar != b.scalar {
		s, t := a, b
		if b.scalar {
			s, t = b, a
		}
		if tritonKind(s.d) <= tritonKind(t.d) {
			return t.d, fmt.Sprintf("scalar rule 1: a scalar of a kind lower or equal to the tensor's (%s ≤ %s) does not participate; the tensor's dtype %s wins", tritonKindNames[tritonKind(s.d)], tritonKindNames[tritonKind(t.d)], tritonNames[t.d])
		}
		if s.py != nil {
			order := "int32 < uint32 < int64 < uint64"
			if s.py.Kind == FloatScalar {
				order = "float32 < float64"
			}
			return s.d, fmt.Sprintf("scalar rule 2: the scalar is of a higher kind, so both are promoted to the lowest of %s in which it fits: %s", order, tritonNames[s.d])
		}
	}
	ad, bd := a.d, b.d
	switch {
	case ad == bd:
		return ad, "both operands have the same dtype"
	case tritonKind(ad) != tritonKind(bd):
		d := ad
		if tritonKind(bd) > tritonKind(ad) {
			d = bd
		}
		return d, fmt.Sprintf("rule 1 (kind): the operand of the higher kind wins: %s", tritonNames[d])
	case ad.Bits() != bd.Bits():
		d := ad
		if bd.Bits() > ad.Bits() {
			d = bd
		}
		return d, fmt.Sprintf("rule 2 (width): same kind, so the wider dtype wins: %s", tritonNames[d])
	case ad.IsFloat8() && bd.IsFloat8():
		return dtypes.F16, "rule 3.1: two different fp8 dtypes are both cast to float16"
	case ad.IsFloat():
		return dtypes.F32, "rule 3 (supremum): same width and signedness but different dtypes, so both go to the next larger dtype, float32"
	}
	d := ad
	if bd.IsUnsigned() {
		d = bd
	}
	return d, fmt.Sprintf("rule 4 (prefer unsigned): same width, different signedness: %s", tritonNames[d])
}

func (p tritonPolicy) compute(a, b tritonOperand, divmod bool) (dtypes.DType, string, *tritonFail) {
	if p.doc {
		d, rule := p.docCompute(a, b)
		return d, rule, nil
	}
	return p.implCompute(a, b, divmod)
}

// checkScalars applies binary_op_type_checking_impl's checks on Python
// scalars once the computation dtype is known.
func (p tritonPolicy) checkScalars(ret dtypes.DType, ops ...tritonOperand) error {
	for i, o := range ops {
		if !o.scalar || o.py == nil {
			continue
		}
		v := o.py
		if tritonUnsigned(ret) && tritonNegative(*v) {
			return Errorf(p.Name(), i, "Cannot perform a binary operation between an unsigned tensor and a negative scalar. Perform a explicit cast on one of them. (the result dtype is %s)", tritonNames[ret])
		}
		if ret.IsInt() || ret == dtypes.Bool {
			iv := v.Int
			if v.Kind == BoolScalar {
				iv = BoolValue(v.Bool).Int
			}
			if iv != nil && !tritonFits(iv, ret) {
				return Errorf(p.Name(), i, "Scalar %s is out of range for type %s", v, tritonNames[ret])
			}
		}
	}
	return nil
}

func tritonNegative(v Scalar) bool {
	switch v.Kind {
	case IntScalar:
		return v.Int.Sign() < 0
	case FloatScalar:
		return v.Float < 0
	}
	return false
}

// tritonUpcast32 is what tl.max, tl.min and their arg forms do first: floats
// narrower than 32 bits become fp32, integers narrower than 32 bits int32.
func tritonUpcast32(d dtypes.DType) dtypes.DType {
	if tritonBits(d) >= 32 {
		return d
	}
	if d.IsFloat() {
		return dtypes.F32
	}
	return dtypes.I32
}

func (p tritonPolicy) Binary(op BinaryOp, x, y Operand) (Result, error) {
	if op == Dot {
		// tl.dot is Triton's matmul.
		return dotAsMatMul(p, "tl.dot", x, y)
	}
	a, err := p.operand(x, 0)
	if err != nil {
		return Result{}, err
	}
	b, err := p.operand(y, 1)
	if err != nil {
		return Result{}, err
	}
	if x.Literal && y.Literal {
		return p.fold(op, x, y, a, b)
	}
	scalarsOnly := a.scalar && b.scalar
	weak := x.Type.Weak && y.Type.Weak
	switch op {
	case Pow:
		return Result{}, Errorf(p.Name(), -1, "Triton tensors have no ** operator (unsupported operand type(s) for ** or pow(): 'tensor'); use libdevice.pow")
	case MatMul:
		return p.dot(a, b)
	case Arctan2, Hypot:
		// libdevice.atan2 and libdevice.hypot
		// (triton/language/extra/cuda/libdevice.py): extern_elementwise
		// promotes the arguments as arithmetic does, then has only the
		// (fp32, fp32) and (fp64, fp64) signatures.
		ret, rule, fail := p.compute(a, b, false)
		if fail != nil {
			return Result{}, Errorf(p.Name(), fail.operand, "%s", fail.msg)
		}
		fn := tritonMathName(op.String())
		if ret != dtypes.F32 && ret != dtypes.F64 {
			return Result{}, Errorf(p.Name(), -1, "Expected dtype %s but got %s (%s follows libdevice: cast to fp32 first)", tritonMathDTypes, tritonNames[ret], fn)
		}
		return Result{Type: dtypes.Type{DType: ret, Weak: weak}, Compute: ret, Rule: rule + "; " + fn + " takes fp32 or fp64"}, nil
	}
	prefix := ""
	switch op.Class() {
	case Compare, Logical:
		// tensor.__lt__ and friends call to_tensor first: a Python scalar
		// becomes a 0-d tensor of its dtype and no longer counts as a scalar.
		if a.scalar || b.scalar {
			prefix = "comparisons turn a scalar into a tensor of its dtype first (to_tensor); "
		}
		a.scalar, b.scalar = false, false
	}
	if op == Maximum || op == Minimum || op == Clip {
		// tl.maximum, tl.minimum and tl.clamp call to_tensor and promote
		// bfloat16 to float32 before type checking.
		a.scalar, b.scalar = false, false
		prefix = "tl." + map[BinaryOp]string{Maximum: "maximum", Minimum: "minimum", Clip: "clamp"}[op] + " turns scalars into tensors and bf16 into fp32 first; "
		for _, o := range []*tritonOperand{&a, &b} {
			if o.d == dtypes.BF16 {
				o.d = dtypes.F32
			}
		}
	}
	if op.Class() == Logical {
		for i, o := range []tritonOperand{a, b} {
			if o.d != dtypes.Bool {
				return Result{}, Errorf(p.Name(), i, "Cannot bitcast data-type of size %d to data-type of size 1 (logical %s needs int1 operands)", tritonBits(o.d), op)
			}
		}
		return Result{Type: dtypes.Type{DType: dtypes.Bool, Weak: weak}, Compute: dtypes.Bool, Rule: "logical " + op.String() + " of two int1 tensors"}, nil
	}
	divmod := op.Class() == Div || op.Class() == DivMod
	ret, rule, fail := p.compute(a, b, divmod)
	if fail != nil {
		return Result{}, Errorf(p.Name(), fail.operand, "%s", fail.msg)
	}
	if err := p.checkScalars(ret, a, b); err != nil {
		return Result{}, err
	}
	rule = prefix + rule
	r := Result{Type: dtypes.Type{DType: ret, Weak: weak}, Compute: ret, Rule: rule}
	switch op.Class() {
	case Div:
		if ret.IsInt() || ret == dtypes.Bool {
			r.Type.DType, r.Compute = dtypes.F32, dtypes.F32
			r.Rule = rule + "; then int / int converts both to fp32 (truediv)"
		}
	case DivMod:
		if op == FloorDiv && !(ret.IsInt() || ret == dtypes.Bool) {
			return Result{}, Errorf(p.Name(), -1, "unexpected type %s (Triton's // only divides integers; use / and floor)", tritonNames[ret])
		}
		if !scalarsOnly {
			r.CDiv = true
			if ret.IsFloat() {
				r.Rule = rule + "; % on floats is frem, C's fmod (the sign of the dividend)"
			} else {
				r.Rule = rule + "; tensors divide like C: // truncates toward zero and % takes the dividend's sign"
			}
		} else {
			r.Rule = rule + "; only scalars: Python-style // and %"
		}
	case Compare:
		r.Type.DType = dtypes.Bool
		r.Rule = rule + "; the comparison gives int1"
	case Bitwise:
		if !(ret.IsInt() || ret == dtypes.Bool) {
			return Result{}, Errorf(p.Name(), -1, "invalid operands of type %s and %s (bitwise %s needs integers)", tritonRepr(ret), tritonRepr(ret), op)
		}
	}
	if op == Clip && !ret.IsFloat() {
		return Result{}, Errorf(p.Name(), -1, "Unexpected dtype %s. Only floating point clamp is supported", tritonNames[ret])
	}
	return r, nil
}

// dot is tl.dot: both operands of one dtype (any two fp8 formats mix),
// accumulating in int32 for integers, fp64 for fp64 and fp32 otherwise.
func (p tritonPolicy) dot(a, b tritonOperand) (Result, error) {
	ok := map[dtypes.DType]bool{dtypes.I8: true, dtypes.U8: true, dtypes.F16: true, dtypes.BF16: true, dtypes.F32: true, dtypes.F64: true}
	if !(a.d.IsFloat8() && b.d.IsFloat8()) {
		for i, o := range []tritonOperand{a, b} {
			if !ok[o.d] {
				return Result{}, Errorf(p.Name(), i, "Unsupported %s dtype %s (tl.dot takes int8, uint8, fp8, fp16, bf16, fp32 or fp64)", [...]string{"lhs", "rhs"}[i], tritonNames[o.d])
			}
		}
		if a.d != b.d {
			return Result{}, Errorf(p.Name(), -1, "Both operands must be same dtype. Got %s and %s", tritonNames[a.d], tritonNames[b.d])
		}
	}
	d := dtypes.F32
	switch {
	case a.d.IsInt():
		d = dtypes.I32
	case a.d == dtypes.F64:
		d = dtypes.F64
	}
	return Result{Type: dtypes.Strong(d), Compute: d, Rule: fmt.Sprintf("tl.dot of %s operands accumulates in %s", tritonNames[a.d], tritonNames[d])}, nil
}

// tritonPythonKind is the kind of the Python value of x op y on Python
// scalars of kinds kx and ky (Triton and max-graph fold literals in Python).
func tritonPythonKind(op BinaryOp, x, y Operand) (ScalarKind, error) {
	kx, ky := tritonScalarKind(x), tritonScalarKind(y)
	k := kx
	if ky > k {
		k = ky
	}
	switch op.Class() {
	case Compare, Logical:
		return BoolScalar, nil
	case Bitwise:
		if k > IntScalar {
			return k, fmt.Errorf("unsupported operand type(s) for %s: bitwise operations need ints or bools", op)
		}
		if k == BoolScalar && op != Shl && op != Shr {
			return BoolScalar, nil
		}
		return IntScalar, nil
	case Div:
		if k < FloatScalar {
			return FloatScalar, nil
		}
		return k, nil
	}
	if op == Maximum || op == Minimum {
		return k, nil // one of the operands; its value decides which
	}
	if op == Pow && k <= IntScalar && y.Value != nil && y.Value.Kind == IntScalar && y.Value.Int.Sign() < 0 {
		return FloatScalar, nil
	}
	if k == BoolScalar {
		return IntScalar, nil
	}
	return k, nil
}

// tritonScalarKind is the Python kind of a literal operand.
func tritonScalarKind(x Operand) ScalarKind {
	if x.Value != nil {
		return x.Value.Kind
	}
	switch d := x.Type.DType; {
	case d == dtypes.Bool:
		return BoolScalar
	case d.IsInt():
		return IntScalar
	case d.IsComplex():
		return ComplexScalar
	}
	return FloatScalar
}

// fold answers for two literals: Python computes the value, and Triton would
// then give it the dtype its value chooses (Literal of the folded value).
// Without the value, the wider of the operands' own dtypes stands in.
func (p tritonPolicy) fold(op BinaryOp, x, y Operand, a, b tritonOperand) (Result, error) {
	k, err := tritonPythonKind(op, x, y)
	if err != nil {
		return Result{}, Errorf(p.Name(), -1, "%v", err)
	}
	var d dtypes.DType
	switch k {
	case BoolScalar:
		d = dtypes.Bool
	case IntScalar:
		d = dtypes.I32
		for _, o := range []tritonOperand{a, b} {
			if o.d.IsInt() && tritonRank(o.d) > tritonRank(d) {
				d = o.d
			}
		}
	default:
		d = dtypes.F32
		if a.d == dtypes.F64 || b.d == dtypes.F64 {
			d = dtypes.F64
		}
	}
	return Result{
		Type:    dtypes.Type{DType: d, Weak: d != dtypes.Bool},
		Compute: d,
		Rule:    "only literals: folded in Python (floor // and %), and the result's dtype is chosen by its value (int32 < uint32 < int64 < uint64, fp32 < fp64)",
	}, nil
}

// tritonRank orders the literal integer dtypes int32 < uint32 < int64 < uint64.
func tritonRank(d dtypes.DType) int {
	switch d {
	case dtypes.I32:
		return 1
	case dtypes.U32:
		return 2
	case dtypes.I64:
		return 3
	case dtypes.U64:
		return 4
	}
	return 0
}

var tritonMathDTypes = "['fp32', 'fp64']"

// tritonLibdevice maps tensorsh's names of the functions that Triton has
// only in libdevice (triton/language/extra/cuda/libdevice.py, each an
// extern_elementwise with fp32 and fp64 signatures) to their names there;
// exp2 and log2 are in triton.language itself.
var tritonLibdevice = map[string]string{
	"tan": "tan", "arcsin": "asin", "arccos": "acos", "arctan": "atan", "sinh": "sinh", "cosh": "cosh",
	"arcsinh": "asinh", "arccosh": "acosh", "arctanh": "atanh", "log10": "log10", "expm1": "expm1",
	"arctan2": "atan2", "hypot": "hypot",
}

// tritonMathName is the Triton spelling of a math function.
func tritonMathName(op string) string {
	if n, ok := tritonLibdevice[op]; ok {
		return "libdevice." + n
	}
	return "tl." + op
}

// tritonLacks are the everyday functions Triton has neither in
// triton.language nor in libdevice, with what to write instead.
var tritonLacks = map[UnaryOp]string{
	Sign:       "write tl.where(x > 0, 1, 0) - tl.where(x < 0, 1, 0)",
	Square:     "write x * x",
	Reciprocal: "write 1 / x",
	IsFinite:   "libdevice's finitef and isfinited give int32; write tl.abs(x) < float(\"inf\")",
}

func (p tritonPolicy) Unary(op UnaryOp, x Operand) (Result, error) {
	a, err := p.operand(x, 0)
	if err != nil {
		return Result{}, err
	}
	d := a.d
	if x.Literal {
		switch op {
		case Neg, Pos, Invert, Not:
			// Python applies these to its own scalars.
			k := tritonScalarKind(x)
			switch {
			case op == Not:
				return Result{Type: dtypes.Strong(dtypes.Bool), Compute: dtypes.Bool, Rule: "only literals: Python's not"}, nil
			case op == Invert && k > IntScalar:
				return Result{}, Errorf(p.Name(), 0, "bad operand type for unary ~: 'float'")
			case k == BoolScalar:
				d = dtypes.I32
			}
			return Result{Type: dtypes.Weak(d), Compute: d, Rule: "only literals: folded in Python; the result's dtype is chosen by its value"}, nil
		}
	}
	// Everything else is a Triton function: a literal argument becomes a
	// tensor of its value-chosen dtype (to_tensor), and the result is a tensor.
	weak := x.Type.Weak && !x.Literal
	same := func(rule string) (Result, error) {
		return Result{Type: dtypes.Type{DType: d, Weak: weak}, Compute: d, Rule: rule}, nil
	}
	name := tritonNames[d]
	needMath := func(fn string) error {
		if d != dtypes.F32 && d != dtypes.F64 {
			return Errorf(p.Name(), 0, "Expected dtype %s but got %s (%s follows libdevice: cast to fp32 first)", tritonMathDTypes, name, tritonMathName(fn))
		}
		return nil
	}
	if hint, ok := tritonLacks[op]; ok {
		return Result{}, Errorf(p.Name(), 0, "triton.language has no %s (%s)", op, hint)
	}
	switch op.Class() {
	case SameType:
		switch op {
		case Neg:
			return same("unary minus is 0 - x in x's dtype")
		case Abs:
			return same("tl.abs keeps the dtype")
		case Relu:
			return same("relu is tl.where(x > 0, x, 0): the 0 is a scalar of a lower or equal kind, so x's dtype stays")
		}
		return same("unary plus returns x")
	case BitNot:
		if d.IsFloat() {
			return Result{}, Errorf(p.Name(), 0, "wrong type argument to unary invert (%s)", tritonRepr(d))
		}
		return same("~x is x ^ all-ones in x's dtype")
	case LogicalNot:
		if d != dtypes.Bool {
			return Result{}, Errorf(p.Name(), 0, "Cannot bitcast data-type of size %d to data-type of size 1 (not needs an int1 operand)", tritonBits(d))
		}
		return same("not of an int1 tensor")
	case FloatFn:
		if op == Softmax || op == LogSoftmax {
			// softmax is exp(x - max(x)) / sum(...): tl.max upcasts narrow
			// floats to fp32, so x - max(x) is fp32; exp needs fp32 or fp64.
			z := d
			if tritonBits(d) < 32 {
				z, _, _ = p.compute(tritonOperand{d: d}, tritonOperand{d: tritonUpcast32(d)}, false)
			}
			if z != dtypes.F32 && z != dtypes.F64 {
				return Result{}, Errorf(p.Name(), 0, "Expected dtype %s but got %s (softmax takes exp of x - max(x), which is %s)", tritonMathDTypes, tritonNames[z], tritonNames[z])
			}
			return Result{Type: dtypes.Type{DType: z, Weak: weak && z == d}, Compute: z, Rule: "softmax is exp(x - max(x)) / sum: tl.max computes narrow floats in fp32, so the result is " + tritonNames[z]}, nil
		}
		if err := needMath(op.String()); err != nil {
			return Result{}, err
		}
		return same(fmt.Sprintf("%s takes fp32 or fp64 and keeps the dtype", tritonMathName(op.String())))
	case Rounding:
		if err := needMath(op.String()); err != nil {
			return Result{}, err
		}
		return same(fmt.Sprintf("%s takes fp32 or fp64 (libdevice) and keeps the dtype", op))
	case Predicate:
		return Result{Type: dtypes.Type{DType: dtypes.Bool, Weak: weak}, Compute: d, Rule: op.String() + " gives int1 (computed as a comparison in x's dtype)"}, nil
	case SumProd:
		if op == Prod {
			return same("Triton has no tl.prod; tl.reduce with a * b keeps the dtype")
		}
		s := tritonSumDType(d)
		return Result{Type: dtypes.Type{DType: s, Weak: weak && s == d}, Compute: s, Rule: "tl.sum accumulates integers narrower than 32 bits in int32 (signed) or uint32 (unsigned, int1 included)"}, nil
	case MeanOp:
		// Triton has no tl.mean: tl.sum(x) / n, with n a Python int.
		s := tritonSumDType(d)
		m, rule, _ := p.compute(tritonOperand{d: s}, tritonOperand{d: dtypes.I32, scalar: true}, true)
		if m.IsInt() || m == dtypes.Bool {
			m, rule = dtypes.F32, rule+"; int / int is fp32"
		}
		return Result{Type: dtypes.Type{DType: m, Weak: weak && m == d}, Compute: m, Rule: "Triton has no tl.mean: tensorsh computes tl.sum(x) / n, with the sum in " + tritonNames[s] + " and n a Python int: " + rule}, nil
	case Extreme:
		u := tritonUpcast32(d)
		return Result{Type: dtypes.Type{DType: u, Weak: weak && u == d}, Compute: u, Rule: "tl.max and tl.min reduce floats narrower than 32 bits in fp32 and integers narrower than 32 bits in int32"}, nil
	case ArgOp:
		return Result{Type: dtypes.Strong(dtypes.I32), Compute: tritonUpcast32(d), Rule: "tl.argmax and tl.argmin return int32 indices"}, nil
	case Cumulative:
		// python/triton/language/standard.py cumsum and cumprod:
		// _promote_bfloat16_to_float32 first; cumsum then takes
		// _pick_sum_dtype, as tl.sum.
		s := d
		if s == dtypes.BF16 {
			s = dtypes.F32
		}
		rule := fmt.Sprintf("tl.%s keeps the dtype (bf16 is promoted to fp32 first)", op)
		if op == CumSum {
			s = tritonSumDType(s)
			rule = "tl.cumsum promotes bf16 to fp32 and accumulates integers narrower than 32 bits in int32 (signed) or uint32 (unsigned, int1 included)"
		}
		if s.IsFloat() {
			rule += "; tl.associative_scan combines floats in a tree order, tensorsh one by one: the last bits can differ"
		}
		return Result{Type: dtypes.Type{DType: s, Weak: weak && s == d}, Compute: s, Rule: rule}, nil
	case Moment, Count:
		return Result{}, noFunction(p.Name(), "triton.language", op.String(), "")
	}
	return Result{Type: dtypes.Strong(dtypes.Bool), Compute: dtypes.Bool, Rule: "Triton has no any/all; tensorsh reduces x != 0 with or/and, giving int1"}, nil
}

// tritonSumDType is tl.sum's _pick_sum_dtype.
func tritonSumDType(d dtypes.DType) dtypes.DType {
	if tritonBits(d) < 32 && (d.IsInt() || d == dtypes.Bool) {
		if tritonUnsigned(d) {
			return dtypes.U32
		}
		return dtypes.I32
	}
	return d
}
