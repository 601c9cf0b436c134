package promote

import (
	"fmt"

	"github.com/tensorsh/tensorsh/dtypes"
)

// The torch policy: PyTorch's at::result_type (refs/torch.json).
//
// Operands fall in three groups: tensors with dimensions, zero-dim tensors,
// and wrapped numbers (Python scalars: bool, int as int64, float as the
// default float32, complex as complex64). Each group promotes within itself
// by torch.promote_types; then a lower group takes part only when it is of a
// higher category (bool < int < float < complex): int8 + int64(0-d) is int8,
// int8 + 1.5 is float32. A complex from a lower group meeting a float keeps
// the float's precision (float64 + 1j is complex128).
//
// torch.promote_types refuses float8 with any other dtype, and uint16,
// uint32 and uint64 with anything but themselves and floats.

func init() {
	register("torch", func() Policy { return torchPolicy{} })
}

type torchPolicy struct{}

// torchDTypes is NumPy's set (with ml_dtypes' float8 formats) and
// complex32 (torch.complex32, alias torch.chalf: a pair of float16).
var torchDTypes = []dtypes.DType{
	dtypes.Bool, dtypes.I8, dtypes.I16, dtypes.I32, dtypes.I64,
	dtypes.U8, dtypes.U16, dtypes.U32, dtypes.U64,
	dtypes.F16, dtypes.BF16, dtypes.F32, dtypes.F64, dtypes.C32, dtypes.C64, dtypes.C128,
	dtypes.F8E4M3, dtypes.F8E5M2,
}

func (torchPolicy) Name() string { return "torch" }

func (torchPolicy) Title() string { return "PyTorch" }

func (torchPolicy) DTypes() []dtypes.DType { return torchDTypes }

func (torchPolicy) Host() Host { return Python }

func (torchPolicy) Check(d dtypes.DType) (dtypes.DType, string, error) {
	if numpyHas(torchDTypes, d) {
		return d, "", nil
	}
	return dtypes.Invalid, "", Errorf("torch", -1, "no dtype %s (PyTorch has bool, i8–i64, u8–u64, f16, bf16, f32, f64, c32, c64, c128, f8e4m3, f8e5m2)", d)
}

// torchWrapped is the dtype of a wrapped number (a Python scalar): bool,
// int64 (uint64 for an int above int64), the default float32, complex64.
func torchWrapped(v Scalar) (dtypes.DType, bool) {
	switch v.Kind {
	case BoolScalar:
		return dtypes.Bool, true
	case IntScalar:
		return numpyPyDType(v)
	case FloatScalar:
		return dtypes.F32, true
	}
	return dtypes.C64, true
}

// Literal gives a Python scalar its wrapped-number dtype, weak.
func (torchPolicy) Literal(v Scalar) (dtypes.Type, error) {
	d, ok := torchWrapped(v)
	if !ok {
		return dtypes.Type{}, Errorf("torch", 0, "Python int %s is too large for PyTorch (Overflow when unpacking long)", v)
	}
	return dtypes.Weak(d), nil
}

// ArrayLiteral gives torch.tensor's dtype for a list of Python scalars.
func (torchPolicy) ArrayLiteral(k ScalarKind) (dtypes.Type, error) {
	d, _ := torchWrapped(Scalar{Kind: k})
	return dtypes.Strong(d), nil
}

// Convert checks torch.tensor(v, dtype=d): values that overflow d are
// refused ("value cannot be converted to type … without overflow").
func (p torchPolicy) Convert(v Scalar, d dtypes.DType) error {
	if _, _, err := p.Check(d); err != nil {
		return err
	}
	return numpyConvert("torch", v, d, true, true)
}

// torchName is the torch spelling of a dtype, for messages.
func torchName(d dtypes.DType) string { return "torch." + d.FullName() }

// torchPromoteTypes is torch.promote_types.
func torchPromoteTypes(a, b dtypes.DType) (dtypes.DType, error) {
	if a == b {
		return a, nil
	}
	if a.IsFloat8() || b.IsFloat8() {
		return dtypes.Invalid, Errorf("torch", -1, "promotion for float8 types is not supported (%s with %s)", torchName(a), torchName(b))
	}
	if torchBareUnsigned(a) || torchBareUnsigned(b) {
		switch {
		case a.IsFloat():
			return a, nil
		case b.IsFloat():
			return b, nil
		}
		return dtypes.Invalid, Errorf("torch", -1, "promotion for uint16, uint32, uint64 types is not supported (%s with %s); only floats promote with them", torchName(a), torchName(b))
	}
	if a == dtypes.Bool {
		return b, nil
	}
	if b == dtypes.Bool {
		return a, nil
	}
	if numpyCategory(a) > numpyCategory(b) {
		a, b = b, a
	}
	switch {
	case a.IsInt() && b.IsInt():
		if a.IsSigned() == b.IsSigned() {
			return numpyWider(a, b), nil
		}
		// uint8 with a signed int: the signed int of at least 16 bits.
		s := b
		if a.IsSigned() {
			s = a
		}
		return numpyWider(dtypes.I16, s), nil
	case a.IsInt():
		return b, nil
	case a.IsFloat() && b.IsFloat():
		if a.Bits() == b.Bits() {
			return dtypes.F32, nil // float16 with bfloat16
		}
		return numpyWider(a, b), nil
	case a.IsFloat():
		// c10's _promoteTypesLookup: a float meets a complex type in the
		// complex type of the higher precision (float32 or bfloat16 with
		// complex32 is complex64).
		switch {
		case a == dtypes.F64:
			return dtypes.C128, nil
		case b == dtypes.C32 && (a == dtypes.F32 || a == dtypes.BF16):
			return dtypes.C64, nil
		}
		return b, nil
	}
	return numpyWider(a, b), nil
}

// torchBareUnsigned reports the "barebones" unsigned types uint16–uint64.
func torchBareUnsigned(d dtypes.DType) bool {
	return d == dtypes.U16 || d == dtypes.U32 || d == dtypes.U64
}

// torchToComplex is c10::toComplexType for a float (float16 gives
// complex32).
func torchToComplex(f dtypes.DType) (dtypes.DType, error) {
	switch f {
	case dtypes.F16:
		return dtypes.C32, nil
	case dtypes.BF16, dtypes.F32:
		return dtypes.C64, nil
	case dtypes.F64:
		return dtypes.C128, nil
	}
	return dtypes.Invalid, Errorf("torch", -1, "unknown complex type for %s: a float8 tensor cannot meet a complex scalar", torchName(f))
}

// torchCombine is at::native's combine_categories: the group higher meets
// the lower-priority group lower (Invalid means the group is empty).
func torchCombine(higher, lower dtypes.DType) (dtypes.DType, error) {
	switch {
	case higher == dtypes.Invalid:
		return lower, nil
	case lower == dtypes.Invalid:
		return higher, nil
	case higher.IsComplex():
		return higher, nil
	case lower.IsComplex():
		if higher.IsFloat() {
			return torchToComplex(higher)
		}
		return lower, nil
	case higher.IsFloat():
		return higher, nil
	case higher == dtypes.Bool || lower.IsFloat():
		return torchPromoteTypes(higher, lower)
	}
	return higher, nil
}

// torchGroup names an operand's group.
func torchGroup(a numpyArg) int {
	switch {
	case a.weak:
		return 2 // wrapped number
	case a.rank == 0:
		return 1 // zero-dim tensor
	}
	return 0 // tensor with dimensions
}

var torchGroupNames = [...]string{"tensor", "0-dim tensor", "Python scalar"}

// resultType is at::result_type of a and b, with the rule that fired.
func (p torchPolicy) resultType(a, b numpyArg) (dtypes.DType, string, error) {
	var groups [3]dtypes.DType
	for _, o := range []numpyArg{a, b} {
		g, d := torchGroup(o), o.d
		if g == 2 && !o.lit {
			// A weak value that is not a literal acts as a wrapped number
			// of its kind.
			d, _ = torchWrapped(Scalar{Kind: o.kind})
		}
		if groups[g] == dtypes.Invalid {
			groups[g] = d
			continue
		}
		r, err := torchPromoteTypes(groups[g], d)
		if err != nil {
			return dtypes.Invalid, "", err
		}
		groups[g] = r
	}
	low, err := torchCombine(groups[1], groups[2])
	if err != nil {
		return dtypes.Invalid, "", err
	}
	d, err := torchCombine(groups[0], low)
	if err != nil {
		return dtypes.Invalid, "", err
	}
	ga, gb := torchGroup(a), torchGroup(b)
	var rule string
	switch {
	case ga == gb:
		rule = fmt.Sprintf("torch.promote_types(%s, %s) is %s", torchName(a.d), torchName(b.d), torchName(d))
	default:
		hi, lo := a, b
		if gb < ga {
			hi, lo = b, a
		}
		loD := groups[torchGroup(lo)]
		switch {
		case d == hi.d:
			rule = fmt.Sprintf("the %s (%s) is not of a higher category than the %s (%s), so the %s's dtype wins", torchGroupNames[torchGroup(lo)], torchName(loD), torchGroupNames[torchGroup(hi)], torchName(hi.d), torchGroupNames[torchGroup(hi)])
		case loD.IsComplex() && hi.d.IsFloat():
			rule = fmt.Sprintf("the complex %s meets a %s %s: the complex type of its precision, %s", torchGroupNames[torchGroup(lo)], torchGroupNames[torchGroup(hi)], torchName(hi.d), torchName(d))
		default:
			rule = fmt.Sprintf("the %s (%s) is of a higher category than the %s (%s), so it takes part: %s", torchGroupNames[torchGroup(lo)], torchName(loD), torchGroupNames[torchGroup(hi)], torchName(hi.d), torchName(d))
		}
	}
	return d, rule, nil
}

func (p torchPolicy) Binary(op BinaryOp, x, y Operand) (Result, error) {
	a, err := numpyArgOf("torch", torchDTypes, 0, x, torchWrapped)
	if err != nil {
		return Result{}, err
	}
	b, err := numpyArgOf("torch", torchDTypes, 1, y, torchWrapped)
	if err != nil {
		return Result{}, err
	}
	if op == MatMul {
		return p.matMul(a, b)
	}
	if op == Dot {
		return p.dot(a, b)
	}
	if op == Sub && (a.d == dtypes.Bool || b.d == dtypes.Bool) {
		return Result{}, Errorf("torch", -1, "subtraction, the `-` operator, with a bool tensor is not supported; use ^ or logical_xor (or ~ to invert a mask)")
	}
	d, rule, err := p.resultType(a, b)
	if err != nil {
		return Result{}, err
	}
	r := Result{Type: dtypes.Type{DType: d, Weak: a.weak && b.weak}, Compute: d, Rule: rule}
	if d == dtypes.C32 {
		if err := torchComplexHalfBinary(op); err != nil {
			return Result{}, err
		}
	}
	// torch.atan2 promotes integers to the default float
	// (torch/_refs/__init__.py: atan2 is INT_TO_FLOAT); the hypot kernel
	// (BinaryOpsKernel.cpp, hypot_kernel) dispatches on floating types
	// only; neither takes complex.
	if op == Hypot && !d.IsInexact() {
		return Result{}, Errorf("torch", -1, "\"hypot_cpu\" not implemented for '%s' (torch.hypot takes floating tensors only)", torchScalarTypeName(d))
	}
	ordering := op == Maximum || op == Minimum || op == Clip || op == Lt || op == Le || op == Gt || op == Ge || op == Arctan2 || op == Hypot
	if ordering && d.IsComplex() {
		return Result{}, Errorf("torch", -1, "%s is not supported for complex tensors (%s)", op, torchName(d))
	}
	switch op.Class() {
	case Arith:
		if d == dtypes.Bool && (op == Pow || op == MatMul) {
			return Result{}, Errorf("torch", -1, "%s is not implemented for bool", op)
		}
		if err := numpyNegativePower("torch", op, r, b); err != nil {
			return Result{}, err
		}
	case Div:
		if d == dtypes.Bool || d.IsInt() {
			r.Type.DType, r.Compute = dtypes.F32, dtypes.F32
			what := "true division"
			if op != TrueDiv {
				what = "torch.atan2 (INT_TO_FLOAT)"
			}
			r.Rule += fmt.Sprintf("; %s of %s gives the default float32", what, torchName(d))
		}
	case DivMod:
		if d == dtypes.Bool || d.IsComplex() {
			return Result{}, Errorf("torch", -1, "%s is not implemented for %s", op, torchName(d))
		}
		r.ZeroDivError = d.IsInt()
	case Compare:
		r.Type.DType = dtypes.Bool
		r.Rule += "; the comparison is made in " + torchName(d) + " and gives bool"
	case Bitwise:
		if d.IsInexact() {
			return Result{}, Errorf("torch", -1, "%s is not implemented for %s: it needs int or bool tensors", op, torchName(d))
		}
		if d == dtypes.Bool && (op == Shl || op == Shr) {
			return Result{}, Errorf("torch", -1, "%s is not implemented for bool", op)
		}
	case Logical:
		r.Type.DType, r.Compute = dtypes.Bool, dtypes.Bool
		r.Rule = "logical " + op.String() + " converts both operands to bool"
	}
	return r, nil
}

func (p torchPolicy) Unary(op UnaryOp, x Operand) (Result, error) {
	a, err := numpyArgOf("torch", torchDTypes, 0, x, torchWrapped)
	if err != nil {
		return Result{}, err
	}
	d := a.d
	keep := a.weak && (op.Class() == SameType || op.Class() == BitNot || op.Class() == LogicalNot)
	res := func(out, compute dtypes.DType, rule string) (Result, error) {
		return Result{Type: dtypes.Type{DType: out, Weak: keep}, Compute: compute, Rule: rule}, nil
	}
	noComplex := func() error {
		if d.IsComplex() {
			return Errorf("torch", 0, "%s is not supported for complex tensors (%s)", op, torchName(d))
		}
		return nil
	}
	half := func(out dtypes.DType) dtypes.DType {
		if out == dtypes.F16 || out == dtypes.BF16 {
			return dtypes.F32
		}
		return out
	}
	if d == dtypes.C32 {
		if err := torchComplexHalfUnary(op); err != nil {
			return Result{}, err
		}
	}
	switch op {
	case Square:
		// torch/_refs/__init__.py: square is pow(x, 2) with
		// type_promotion_kind BOOL_TO_LONG.
		if d == dtypes.Bool {
			return Result{Type: dtypes.Strong(dtypes.I64), Compute: dtypes.I64, Rule: "square is pow(x, 2): a bool tensor gives int64 (BOOL_TO_LONG)"}, nil
		}
	case Reciprocal:
		// torch/_refs/__init__.py: reciprocal is INT_TO_FLOAT.
		if d == dtypes.Bool || d.IsInt() {
			return res(dtypes.F32, dtypes.F32, fmt.Sprintf("reciprocal of %s gives the default float32 (INT_TO_FLOAT)", torchName(d)))
		}
	case Sign:
		if err := noComplex(); err != nil {
			return Result{}, err
		}
	}
	switch op.Class() {
	case SameType:
		if op == Neg && d == dtypes.Bool {
			return Result{}, Errorf("torch", 0, "negation, the `-` operator, on a bool tensor is not supported; use ~ or logical_not to invert a mask")
		}
		if op == Relu {
			if err := noComplex(); err != nil {
				return Result{}, err
			}
		}
		if op == Abs && d.IsComplex() {
			// at::abs is unary_op_impl_with_complex_to_float: a complex
			// tensor gives the real type of its precision (toRealValueType).
			return res(d.Real(), d, fmt.Sprintf("abs of %s gives %s (toRealValueType)", torchName(d), torchName(d.Real())))
		}
		return res(d, d, "the operand's dtype")
	case BitNot:
		if d.IsInexact() {
			return Result{}, Errorf("torch", 0, "~ (bitwise_not) is not implemented for %s: it needs an int or bool tensor", torchName(d))
		}
		return res(d, d, "the operand's dtype")
	case LogicalNot:
		return res(dtypes.Bool, dtypes.Bool, "logical_not gives bool")
	case FloatFn:
		if d.IsComplex() && (op == Erf || op == Gelu) {
			return Result{}, Errorf("torch", 0, "%s is not implemented for complex (%s)", op, torchName(d))
		}
		if d == dtypes.Bool || d.IsInt() {
			return res(dtypes.F32, dtypes.F32, fmt.Sprintf("%s of %s gives the default float32", op, torchName(d)))
		}
		return res(d, d, "a float operand keeps its dtype")
	case Rounding:
		if err := noComplex(); err != nil {
			return Result{}, err
		}
		return res(d, d, "rounding keeps the dtype (ints and bools are returned unchanged)")
	case Predicate:
		return res(dtypes.Bool, d, op.String()+" gives bool")
	case SumProd:
		if d == dtypes.Bool || d.IsInt() {
			return res(dtypes.I64, dtypes.I64, fmt.Sprintf("%s of %s gives int64 (integral inputs are promoted to int64)", op, torchName(d)))
		}
		return res(d, half(d), fmt.Sprintf("%s keeps %s", op, torchName(d)))
	case MeanOp:
		if d == dtypes.Bool || d.IsInt() {
			return Result{}, Errorf("torch", 0, "mean(): could not infer output dtype; the input must be a float or complex tensor, got %s", torchName(d))
		}
		return res(d, half(d), fmt.Sprintf("mean keeps %s", torchName(d)))
	case Extreme:
		if err := noComplex(); err != nil {
			return Result{}, err
		}
		return res(d, d, "the operand's dtype")
	case ArgOp:
		if err := noComplex(); err != nil {
			return Result{}, err
		}
		return res(dtypes.I64, d, op.String()+" gives an int64 index")
	case BoolReduce:
		return res(dtypes.Bool, d, op.String()+" gives bool")
	case Cumulative:
		// aten/src/ATen/native/ReduceOps.cpp cumsum/cumprod meta: an
		// integral (or bool) input with no dtype= gives kLong; the CPU
		// kernels (cpu/ReduceOpsKernel.cpp cumsum_cpu_kernel) run the
		// scan in at::acc_type<scalar_t, false> (ATen/AccumulateType.h:
		// float for half and bfloat16, double for float, complex<double>
		// for complex<float>) and round each output.
		if d == dtypes.Bool || d.IsInt() {
			return res(dtypes.I64, dtypes.I64, fmt.Sprintf("%s of %s gives int64 (integral inputs are promoted to int64)", op, torchName(d)))
		}
		acc := map[dtypes.DType]dtypes.DType{dtypes.F16: dtypes.F32, dtypes.BF16: dtypes.F32, dtypes.F32: dtypes.F64, dtypes.C64: dtypes.C128}[d]
		if acc == dtypes.Invalid {
			acc = d
		}
		rule := fmt.Sprintf("%s keeps %s", op, torchName(d))
		if acc != d {
			rule += fmt.Sprintf(", accumulating in %s (the CPU kernel's acc_type) and rounding each element", torchName(acc))
		}
		return res(d, acc, rule)
	case Moment:
		// ReduceOps.cpp std_var_out: "std and var only support floating
		// point and complex dtypes"; a complex input gives
		// toRealValueType (var(real) + var(imag)).
		if d == dtypes.Bool || d.IsInt() {
			return Result{}, Errorf("torch", 0, "std and var only support floating point and complex dtypes (got %s)", torchName(d))
		}
		out := d.Real()
		return res(out, half(d), fmt.Sprintf("%s of %s gives %s (tensorsh computes two passes, as NumPy; torch's CPU kernel uses Welford's method, which can differ in the last bits)", op, torchName(d), torchName(out)))
	case Count:
		// ReduceOps.cpp count_nonzero: (self != 0).sum(dims), an int64.
		return res(dtypes.I64, d, "count_nonzero gives int64")
	}
	return Result{}, Errorf("torch", -1, "unknown operation %s", op)
}

// torchScalarTypeName is c10's ScalarType name of d ("Float", "Long"), as
// torch's messages print it.
func torchScalarTypeName(d dtypes.DType) string {
	switch d {
	case dtypes.Bool:
		return "Bool"
	case dtypes.U8:
		return "Byte"
	case dtypes.I8:
		return "Char"
	case dtypes.I16:
		return "Short"
	case dtypes.I32:
		return "Int"
	case dtypes.I64:
		return "Long"
	case dtypes.U16:
		return "UInt16"
	case dtypes.U32:
		return "UInt32"
	case dtypes.U64:
		return "UInt64"
	case dtypes.F16:
		return "Half"
	case dtypes.BF16:
		return "BFloat16"
	case dtypes.F32:
		return "Float"
	case dtypes.F64:
		return "Double"
	case dtypes.C32:
		return "ComplexHalf"
	case dtypes.C64:
		return "ComplexFloat"
	case dtypes.C128:
		return "ComplexDouble"
	case dtypes.F8E4M3:
		return "Float8_e4m3fn"
	case dtypes.F8E5M2:
		return "Float8_e5m2"
	}
	return d.String()
}

// torchTypeMetaName is the name caffe2::TypeMeta prints for d: the C++
// type's name as GCC spells it (PyTorch's Linux wheels are built with GCC),
// e.g. "float", "long int", "c10::Half".
func torchTypeMetaName(d dtypes.DType) string {
	switch d {
	case dtypes.Bool:
		return "bool"
	case dtypes.U8:
		return "unsigned char"
	case dtypes.I8:
		return "signed char"
	case dtypes.I16:
		return "short int"
	case dtypes.I32:
		return "int"
	case dtypes.I64:
		return "long int"
	case dtypes.U16:
		return "short unsigned int"
	case dtypes.U32:
		return "unsigned int"
	case dtypes.U64:
		return "long unsigned int"
	case dtypes.F16:
		return "c10::Half"
	case dtypes.BF16:
		return "c10::BFloat16"
	case dtypes.F32:
		return "float"
	case dtypes.F64:
		return "double"
	case dtypes.C32:
		return "c10::complex<c10::Half>"
	case dtypes.C64:
		return "c10::complex<float>"
	case dtypes.C128:
		return "c10::complex<double>"
	case dtypes.F8E4M3:
		return "c10::Float8_e4m3fn"
	case dtypes.F8E5M2:
		return "c10::Float8_e5m2"
	}
	return d.String()
}

// torchMatMul is torch.matmul on CPU tensors (aten/src/ATen/native/
// LinearAlgebra.cpp, _matmul_impl). It does not promote: each rank
// combination goes to a kernel that checks that both operands have one dtype,
// each with its own message, and dispatches on a set of dtypes:
//
//	1-d @ 1-d              dot (Blas.cpp, dot_check)            "dot"
//	2-d @ 1-d, N-d @ 1-d   mv → addmv (Blas.cpp, meta addmv)     "addmv_impl_cpu"
//	1-d or 2-d @ 2-d,
//	N-d @ 2-d              mm (addmm_impl_cpu_)                  "addmm_impl_cpu_"
//	otherwise              bmm (bmm_out_or_baddbmm_)             "bmm"
//
// (N ≥ 3; an N-d operand is folded into a matrix when it is contiguous, as
// tensorsh's tensors are.) The bmm message is the one of its kernel for small
// products (contraction × rows × columns < 400), where the result, made with
// the second operand's dtype, is read as the first's. Python scalars are not
// matmul operands: Tensor.__matmul__ returns NotImplemented for them and
// Python raises TypeError.
func (p torchPolicy) matMul(a, b numpyArg) (Result, error) {
	for _, o := range []numpyArg{a, b} {
		if o.lit {
			l, r := "Tensor", "Tensor"
			if a.lit {
				l = a.kind.String()
			}
			if b.lit {
				r = b.kind.String()
			}
			return Result{}, Errorf("torch", -1, "unsupported operand type(s) for @: '%s' and '%s' (a Python scalar is not a matmul operand)", l, r)
		}
	}
	if a.rank == 0 || b.rank == 0 {
		return Result{}, Errorf("torch", -1, "both arguments to matmul need to be at least 1D, but they are %dD and %dD", a.rank, b.rank)
	}
	kernel := "bmm"
	switch {
	case a.rank == 1 && b.rank == 1:
		kernel = "dot"
	case b.rank == 1 && a.rank != 1:
		kernel = "addmv_impl_cpu"
	case b.rank == 2 && a.rank >= 1:
		kernel = "addmm_impl_cpu_"
	}
	if a.d != b.d {
		var msg string
		switch kernel {
		case "dot":
			msg = fmt.Sprintf("dot : expected both vectors to have same dtype, but found %s and %s", torchScalarTypeName(a.d), torchScalarTypeName(b.d))
		case "addmv_impl_cpu":
			// mv makes its result with the vector's dtype and passes it to
			// addmv as self.
			msg = fmt.Sprintf("addmv input tensors must have the same dtype, but got %s, %s, and %s", torchScalarTypeName(b.d), torchScalarTypeName(a.d), torchScalarTypeName(b.d))
		case "addmm_impl_cpu_":
			msg = fmt.Sprintf("expected m1 and m2 to have the same dtype, but got: %s != %s", torchTypeMetaName(a.d), torchTypeMetaName(b.d))
		default:
			msg = fmt.Sprintf("expected scalar type %s but found %s", torchScalarTypeName(a.d), torchScalarTypeName(b.d))
		}
		return Result{}, Errorf("torch", -1, "%s (torch.matmul does not promote: %s @ %s; convert one operand with .to())", msg, torchName(a.d), torchName(b.d))
	}
	d := a.d
	// The kernels dispatch on AT_DISPATCH_ALL_TYPES_AND_COMPLEX_AND2(kBFloat16,
	// kHalf, …): uint8, int8–int64, float32, float64, complex64, complex128,
	// bfloat16, float16; mm (_AT_DISPATCH_ADDMM_TYPES) adds the float8 types.
	ok := d != dtypes.Bool && !torchBareUnsigned(d) && d != dtypes.C32
	if d.IsFloat8() && kernel != "addmm_impl_cpu_" {
		ok = false
	}
	if !ok {
		return Result{}, Errorf("torch", -1, "%q not implemented for '%s' (torch.matmul on CPU)", kernel, torchScalarTypeName(d))
	}
	return Result{Type: dtypes.Strong(d), Compute: d, Rule: fmt.Sprintf("torch.matmul does not promote: both operands are %s (%s)", torchName(d), kernel)}, nil
}

// PyTorch implements few ComplexHalf kernels on CPU. The ones tensorsh
// computes: add and sub (the ufunc add, self + alpha*other, dispatched for
// ComplexHalf: aten/src/ATen/native/ufunc/add.h and native_functions.yaml),
// mul (BinaryOpsKernel.cpp mul_kernel: in complex<float>), neg (neg_kernel:
// AT_DISPATCH_ALL_TYPES_AND_COMPLEX_AND3(kComplexHalf, …)), abs (abs_kernel:
// in complex<float>), == and != (the comparison kernels dispatch on
// kComplexHalf: eq_kernel, ne_kernel in BinaryOpsKernel.cpp), where
// (where_kernel_impl in TensorCompareKernel.cpp) and what reduces to them
// (is_nan is x != x, is_inf looks at the real and imaginary parts). Others
// are refused: those whose CPU kernel is known not to dispatch on
// ComplexHalf with torch's message, the rest with a plain refusal.
var torchNoComplexHalf = map[string]string{
	TrueDiv.String(): "div_cpu",         // div_true_kernel: FLOATING_AND_COMPLEX_TYPES_AND2(kBFloat16, kHalf)
	Pow.String():     "pow",             // pow_tensor_tensor_kernel: the same set
	And.String():     "logical_and_cpu", // ALL_TYPES_AND_COMPLEX_AND3(kBool, kBFloat16, kHalf)
	Or.String():      "logical_or_cpu",
	Exp.String():     "exp_vml_cpu",
	Log.String():     "log_vml_cpu",
	Log1p.String():   "log1p_vml_cpu",
	Sin.String():     "sin_vml_cpu",
	Cos.String():     "cos_vml_cpu",
	Tanh.String():    "tanh_vml_cpu",
	Sqrt.String():    "sqrt_vml_cpu",
}

func torchComplexHalfRefusal(op string, operand int) error {
	if k, ok := torchNoComplexHalf[op]; ok {
		return Errorf("torch", operand, "%q not implemented for 'ComplexHalf' (%s of torch.complex32 on CPU)", k, op)
	}
	return Errorf("torch", operand, "%s of torch.complex32 is not supported: PyTorch has few ComplexHalf kernels on CPU (add, sub, mul, neg, abs, ==, !=); convert to torch.complex64 first", op)
}

// torchComplexHalfBinary refuses the binary operations tensorsh does not
// compute for complex32.
func torchComplexHalfBinary(op BinaryOp) error {
	switch op {
	case Add, Sub, Mul, Eq, Ne, Where, MatMul:
		return nil
	}
	return torchComplexHalfRefusal(op.String(), -1)
}

// torchComplexHalfUnary refuses the unary operations tensorsh does not
// compute for complex32.
func torchComplexHalfUnary(op UnaryOp) error {
	switch op {
	case Neg, Pos, Abs, IsNaN, IsInf:
		return nil
	}
	return torchComplexHalfRefusal(op.String(), 0)
}

// dot is torch.dot (aten/src/ATen/native/LinearAlgebra.cpp dot_check):
// two 1-D tensors of one dtype, no promotion; Python scalars are not
// tensors. The dtype set is matmul's dot kernel's.
func (p torchPolicy) dot(a, b numpyArg) (Result, error) {
	for i, o := range []numpyArg{a, b} {
		if o.lit {
			return Result{}, Errorf("torch", i, "dot(): argument '%s' (position %d) must be Tensor, not %s", [...]string{"input", "tensor"}[i], i+1, o.kind)
		}
	}
	if a.rank != 1 || b.rank != 1 {
		return Result{}, Errorf("torch", -1, "1D tensors expected, but got %dD and %dD tensors (torch.dot takes two vectors; use @ or torch.matmul)", a.rank, b.rank)
	}
	if a.d != b.d {
		return Result{}, Errorf("torch", -1, "dot : expected both vectors to have same dtype, but found %s and %s (torch.dot does not promote; convert one with .to())", torchScalarTypeName(a.d), torchScalarTypeName(b.d))
	}
	r, err := p.matMul(a, b)
	if err != nil {
		return Result{}, err
	}
	r.Rule = "torch.dot does not promote: both vectors are " + torchName(a.d)
	return r, nil
}
