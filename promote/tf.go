package promote

import (
	"fmt"
	"math"
	"math/big"

	"github.com/tensorsh/tensorsh/dtypes"
)

// The tf policy: TensorFlow 2 as it behaves by default ("classic"), without
// tf.experimental.numpy's dtype conversion (tfnumpy.go has that).
//
// TensorFlow does not promote between tensors: every kernel takes its
// inputs in one dtype T, so int8 + uint8 fails with the kernel's
// InvalidArgumentError ("cannot compute AddV2 as input #1(zero-based) was
// expected to be a int8 tensor but is a uint8 tensor"), and / refuses
// mixed dtypes in Python (math_ops._truediv_python3: "`x` and `y` must have
// the same dtype"). A Python scalar is converted to the other operand's
// dtype by the eager converter (tensorflow/python/lib/core/py_seq_tensor.cc
// PySeqToTFE_TensorHandle, then pywrap_tensor.cc
// ConvertToEagerTensorUncached):
//
//   - an int meets an int tensor through int64 and a wrapping Cast, so
//     int8 + 300 is 44 and uint8 + -1 is 255; ints beyond int64 fail
//     ("Can't convert Python sequence with out-of-range integer to
//     Tensor."), as do negative ints or ints beyond 2**64-1 for uint64;
//   - an int meets a float or complex tensor through a double
//     (PyLong_AsDouble), or through int64 and a Cast for bfloat16 and
//     complex64; a float overflows to inf (the failed float32 conversion is
//     retried in double and cast);
//   - a float meets an int or bool tensor not at all, a complex meets only
//     complex tensors, and a bool meets only bool, int32, int64, uint64 and
//     the float, double, half and complex128 tensors (whose converters take
//     Python ints, and True is one): "Cannot convert 1.5 to EagerTensor of
//     dtype int32". For + the failed conversion is retried without a
//     dtype (math_ops._add_dispatch's dtype_hint) and AddV2 then refuses
//     the mismatch.
//
// / converts ints to floats by math_ops._TRUEDIV_TABLE (8- and 16-bit ints
// to float32, 32- and 64-bit ints to float64) and refuses bools. // and %
// are FloorDiv and FloorMod: they floor like Python, and an integer
// division by zero is an error ("Integer division by zero"). Integer
// arithmetic wraps. Reductions keep the dtype (reduce_sum of int8 wraps in
// int8; reduce_mean of ints is an integer mean), argmax gives int64.
// Functions such as exp take only float and complex tensors. &, | and ^
// are logical on bool tensors and bitwise on ints (math_ops.and_, or_,
// xor_); Tensor has no << or >>.

func init() {
	register("tf", func() Policy { return tfPolicy{} })
}

type tfPolicy struct{}

const tfName = "tf"

// tfDTypes are the dtypes of TensorFlow's arithmetic, the dtypes of
// flexible_dtypes.py's tables.
var tfDTypes = []dtypes.DType{
	dtypes.Bool, dtypes.I8, dtypes.I16, dtypes.I32, dtypes.I64,
	dtypes.U8, dtypes.U16, dtypes.U32, dtypes.U64,
	dtypes.F16, dtypes.BF16, dtypes.F32, dtypes.F64, dtypes.C64, dtypes.C128,
}

func (tfPolicy) Name() string { return tfName }

func (tfPolicy) Title() string { return "TensorFlow 2, no implicit promotion" }

func (tfPolicy) DTypes() []dtypes.DType { return tfDTypes }

func (tfPolicy) Host() Host { return Python }

func (tfPolicy) Check(d dtypes.DType) (dtypes.DType, string, error) { return tfCheck(tfName, d) }

// tfCheck refuses the dtypes TensorFlow's arithmetic lacks, for policy p.
func tfCheck(p string, d dtypes.DType) (dtypes.DType, string, error) {
	if numpyHas(tfDTypes, d) {
		return d, "", nil
	}
	return dtypes.Invalid, "", Errorf(p, -1, "no dtype %s (TensorFlow's arithmetic has bool, i8–i64, u8–u64, f16, bf16, f32, f64, c64, c128)", d)
}

// tfTypeString is TensorFlow's DataTypeString, the name its kernel
// errors use ("float" for float32, "half" for float16).
func tfTypeString(d dtypes.DType) string {
	switch d {
	case dtypes.F16:
		return "half"
	case dtypes.F32:
		return "float"
	case dtypes.F64:
		return "double"
	}
	return d.FullName()
}

// tfInferred is the dtype TensorFlow infers for a Python scalar converted
// without a dtype: int32 (int64 when it does not fit), float32, complex128,
// bool; false when the int does not fit int64.
func tfInferred(v Scalar) (dtypes.DType, bool) {
	switch v.Kind {
	case BoolScalar:
		return dtypes.Bool, true
	case IntScalar:
		switch {
		case numpyIntFits(v.Int, dtypes.I32):
			return dtypes.I32, true
		case numpyIntFits(v.Int, dtypes.I64):
			return dtypes.I64, true
		}
		return dtypes.Invalid, false
	case FloatScalar:
		return dtypes.F32, true
	}
	return dtypes.C128, true
}

// Literal gives a Python scalar the dtype tf.constant infers for it, weak
// in tensorsh's terms: it is converted to the dtype of the tensor it meets.
func (tfPolicy) Literal(v Scalar) (dtypes.Type, error) { return tfLiteral(tfName, v) }

func tfLiteral(p string, v Scalar) (dtypes.Type, error) {
	d, ok := tfInferred(v)
	if !ok {
		return dtypes.Type{}, Errorf(p, 0, "Python int %s does not fit int64: Can't convert Python sequence with out-of-range integer to Tensor. (ValueError)", v.Int)
	}
	return dtypes.Weak(d), nil
}

// ArrayLiteral gives tf.constant's dtype for a list of Python scalars.
func (tfPolicy) ArrayLiteral(k ScalarKind) (dtypes.Type, error) {
	d, _ := tfInferred(tfKindValue(k))
	return dtypes.Strong(d), nil
}

// tfKindValue is a small value of kind k (1, 1.0, 1j, True).
func tfKindValue(k ScalarKind) Scalar {
	switch k {
	case BoolScalar:
		return BoolValue(true)
	case IntScalar:
		return Int64Value(1)
	case FloatScalar:
		return FloatValue(1)
	}
	return ComplexValue(1)
}

// Convert checks tf.constant(v, dtype=d): the eager converter's rules.
func (tfPolicy) Convert(v Scalar, d dtypes.DType) error {
	if _, _, err := tfCheck(tfName, d); err != nil {
		return err
	}
	_, err := tfConvert(tfName, 0, v, d)
	return err
}

// tfConvert converts Python scalar v to a tensor of dtype d as the eager
// converter does (see the package comment of tf.go), blaming operand idx.
// It returns the float format an int is rounded to first (IntVia), or
// Invalid.
func tfConvert(p string, idx int, v Scalar, d dtypes.DType) (dtypes.DType, error) {
	cannot := func() (dtypes.DType, error) {
		return dtypes.Invalid, Errorf(p, idx, "Cannot convert %s to EagerTensor of dtype %s (TypeError)", v, tfTypeString(d))
	}
	// direct reports whether d has a converter of its own in
	// PySeqToTFE_TensorHandle; the others convert the inferred dtype and
	// Cast.
	direct := d == dtypes.F32 || d == dtypes.F64 || d == dtypes.F16 || d == dtypes.I64 || d == dtypes.I32 ||
		d == dtypes.U64 || d == dtypes.C128 || d == dtypes.Bool
	switch v.Kind {
	case BoolScalar:
		if d == dtypes.Bool || direct {
			return dtypes.Invalid, nil
		}
		return cannot()
	case IntScalar:
		if d == dtypes.Bool {
			return cannot()
		}
		if d == dtypes.U64 {
			if v.Int.Sign() < 0 {
				return dtypes.Invalid, Errorf(p, idx, "Python int %s does not convert to uint64: can't convert negative int to unsigned (OverflowError)", v.Int)
			}
			if !numpyIntFits(v.Int, dtypes.U64) {
				return dtypes.Invalid, Errorf(p, idx, "Python int %s does not convert to uint64: int too big to convert (OverflowError)", v.Int)
			}
			return dtypes.Invalid, nil
		}
		if d.IsInt() || d == dtypes.BF16 || d == dtypes.C64 {
			// Through int64, then a Cast (which wraps).
			if !numpyIntFits(v.Int, dtypes.I64) {
				return dtypes.Invalid, Errorf(p, idx, "Python int %s does not fit int64: Can't convert Python sequence with out-of-range integer to Tensor. (ValueError)", v.Int)
			}
			if d == dtypes.BF16 {
				// Eigen's bfloat16 from an int64 goes through float.
				return dtypes.F32, nil
			}
			return dtypes.Invalid, nil
		}
		// ConvertOneFloat: PyLong_AsDouble, then static_cast.
		if f, _ := new(big.Float).SetInt(v.Int).Float64(); math.IsInf(f, 0) {
			return dtypes.Invalid, Errorf(p, idx, "Python int %s does not fit a double: Can't convert Python sequence with a value out of range for a double-precision float. (ValueError)", v.Int)
		}
		switch d {
		case dtypes.F32:
			return dtypes.F64, nil
		case dtypes.F16:
			// Eigen::half from a double goes through float.
			return dtypes.F32, nil
		}
		return dtypes.Invalid, nil
	case FloatScalar:
		if !d.IsInexact() {
			return cannot()
		}
		return dtypes.Invalid, nil
	}
	if !d.IsComplex() {
		return cannot()
	}
	return dtypes.Invalid, nil
}

// tfOpName is the TensorFlow kernel behind a binary operator, for its
// error messages.
func tfOpName(op BinaryOp, d dtypes.DType) string {
	switch op {
	case Add:
		return "AddV2"
	case Sub:
		return "Sub"
	case Mul:
		return "Mul"
	case TrueDiv:
		return "RealDiv"
	case FloorDiv:
		return "FloorDiv"
	case Mod:
		return "FloorMod"
	case Pow:
		return "Pow"
	case Maximum:
		return "Maximum"
	case Minimum, Clip:
		return "Minimum"
	case Eq:
		return "Equal"
	case Ne:
		return "NotEqual"
	case Lt:
		return "Less"
	case Le:
		return "LessEqual"
	case Gt:
		return "Greater"
	case Ge:
		return "GreaterEqual"
	case BitAnd:
		if d == dtypes.Bool {
			return "LogicalAnd"
		}
		return "BitwiseAnd"
	case BitOr:
		if d == dtypes.Bool {
			return "LogicalOr"
		}
		return "BitwiseOr"
	case BitXor:
		if d == dtypes.Bool {
			return "LogicalXor"
		}
		return "BitwiseXor"
	case Shl:
		return "LeftShift"
	case Shr:
		return "RightShift"
	case And:
		return "LogicalAnd"
	case Or:
		return "LogicalOr"
	case MatMul:
		return "MatMul"
	case Arctan2:
		return "Atan2"
	}
	return "SelectV2"
}

// tfMismatch is the error of a kernel given inputs of two dtypes.
func tfMismatch(p string, op BinaryOp, a, b dtypes.DType) error {
	if op == TrueDiv {
		return Errorf(p, 1, "`x` and `y` must have the same dtype, got tf.%s != tf.%s. (TypeError; TensorFlow does not promote between tensors: cast one, e.g. tf.cast(y, tf.%s))", a.FullName(), b.FullName(), a.FullName())
	}
	name := tfOpName(op, a)
	return Errorf(p, 1, "cannot compute %s as input #1(zero-based) was expected to be a %s tensor but is a %s tensor [Op:%s] (InvalidArgumentError; TensorFlow does not promote between tensors: cast one, e.g. tf.cast(y, tf.%s))", name, tfTypeString(a), tfTypeString(b), name, a.FullName())
}

// tfUnsupported is the error of a kernel that has no version for dtype d.
func tfUnsupported(p string, idx int, kernel string, d dtypes.DType) error {
	return Errorf(p, idx, "Value for attr 'T' of %s is not in the list of allowed values for %s (%s has no %s kernel)", tfTypeString(d), kernel, kernel, d.FullName())
}

// tfArg is an operand as the TensorFlow policies see it: a tensor of a
// dtype, or a Python scalar (a literal, or a weak value), with its value
// when known.
type tfArg struct {
	idx    int
	d      dtypes.DType
	scalar bool
	weak   bool // tf-numpy: a WeakTensor (or a Python scalar)
	v      *Scalar
}

func tfArgOf(p string, idx int, o Operand) (tfArg, error) {
	if o.Literal && o.Value != nil {
		// A Python int beyond int64 may still convert (to uint64);
		// tfConvert decides.
		d, ok := tfInferred(*o.Value)
		if !ok {
			d = dtypes.I64
		}
		return tfArg{idx: idx, d: d, scalar: true, weak: true, v: o.Value}, nil
	}
	if _, _, err := tfCheck(p, o.Type.DType); err != nil {
		e := err.(*Error)
		e.Operand = idx
		return tfArg{}, e
	}
	return tfArg{idx: idx, d: o.Type.DType, scalar: o.Type.Weak, weak: o.Type.Weak, v: o.Value}, nil
}

func (p tfPolicy) Binary(op BinaryOp, x, y Operand) (Result, error) {
	if op == Hypot || op == Dot {
		_, _, err := tfEverydayBinary(tfName, op, Result{})
		return Result{}, err
	}
	a, err := tfArgOf(tfName, 0, x)
	if err != nil {
		return Result{}, err
	}
	b, err := tfArgOf(tfName, 1, y)
	if err != nil {
		return Result{}, err
	}
	var r Result
	switch {
	case a.scalar && b.scalar:
		// Python arithmetic on Python scalars; the result is a Python
		// scalar of the wider kind.
		k := max(numpyKindOf(a.d), numpyKindOf(b.d))
		d, _ := tfInferred(tfKindValue(k))
		if k == IntScalar && (a.d.Bits() == 64 || b.d.Bits() == 64) {
			d = dtypes.I64
		}
		r = Result{Type: dtypes.Weak(d), Compute: d, Rule: fmt.Sprintf("both operands are Python scalars: Python arithmetic gives a Python %s", k)}
	case a.scalar || b.scalar:
		s, t := a, b
		if b.scalar {
			s, t = b, a
		}
		var via dtypes.DType
		if s.v != nil {
			via, err = tfConvert(tfName, s.idx, *s.v, t.d)
		} else {
			via, err = tfConvert(tfName, s.idx, tfKindValue(numpyKindOf(s.d)), t.d)
		}
		if err != nil {
			if op == Add && s.idx == 1 && s.v != nil {
				// _add_dispatch converts y with a dtype_hint: when that
				// fails, it converts y on its own and AddV2 refuses the
				// mismatch.
				f, ok := tfInferred(*s.v)
				if !ok {
					return Result{}, err
				}
				return Result{}, Errorf(tfName, 1, "cannot compute AddV2 as input #1(zero-based) was expected to be a %s tensor but is a %s tensor [Op:AddV2] (InvalidArgumentError: the Python %s %s does not convert to %s, so TensorFlow made it a %s tensor)", tfTypeString(t.d), tfTypeString(f), s.v.Kind, s.v, t.d.FullName(), f.FullName())
			}
			return Result{}, err
		}
		r = Result{Type: dtypes.Strong(t.d), Compute: t.d, IntVia: via, Rule: fmt.Sprintf("the Python scalar is converted to the tensor's dtype %s (TensorFlow converts Python scalars to the other operand's dtype)", t.d.FullName())}
	case a.d != b.d:
		return Result{}, tfMismatch(tfName, op, a.d, b.d)
	default:
		r = Result{Type: dtypes.Strong(a.d), Compute: a.d, Rule: fmt.Sprintf("both operands are %s: TensorFlow's kernels take one dtype", a.d.FullName())}
	}
	return tfApply(tfName, op, r)
}

// tfApply gives op's result once the operands meet in r.Compute: the
// kernels' dtype constraints and the Python wrappers' conversions.
func tfApply(p string, op BinaryOp, r Result) (Result, error) {
	d := r.Compute
	refuse := func() (Result, error) { return Result{}, tfUnsupported(p, -1, tfOpName(op, d), d) }
	if r, ok, err := tfEverydayBinary(p, op, r); ok {
		return r, err
	}
	realNum := d != dtypes.Bool && !d.IsComplex()
	switch op.Class() {
	case Arith:
		switch {
		case op == Where:
		case op == Maximum || op == Minimum || op == Clip:
			if !realNum {
				return refuse()
			}
		case d == dtypes.Bool:
			return refuse()
		}
	case Div:
		// math_ops._TRUEDIV_TABLE.
		var f dtypes.DType
		switch {
		case d == dtypes.Bool:
			return Result{}, Errorf(p, -1, "Invalid dtype tf.bool in __truediv__ (TypeError: math_ops._TRUEDIV_TABLE has no bool)")
		case d.IsInt() && d.Bits() <= 16:
			f = dtypes.F32
		case d.IsInt():
			f = dtypes.F64
		}
		if f != dtypes.Invalid {
			r.Type.DType, r.Compute = f, f
			r.IntVia = dtypes.Invalid
			r.Rule += fmt.Sprintf("; / casts %s to %s (math_ops._TRUEDIV_TABLE)", d.FullName(), f.FullName())
		}
	case DivMod:
		if !realNum {
			return refuse()
		}
		if d.IsInt() {
			r.ZeroDivError = true
			r.Rule += "; FloorDiv and FloorMod floor like Python, and an integer division by zero is an error"
		}
	case Compare:
		if op != Eq && op != Ne && !realNum {
			return refuse()
		}
		r.Type = dtypes.Type{DType: dtypes.Bool, Weak: r.Type.Weak}
		r.Rule += "; the comparison gives bool"
	case Bitwise:
		// math_ops.and_, or_, xor_: logical on bool tensors, bitwise on
		// ints. math_ops overrides no shift operator on Tensor.
		if op == Shl || op == Shr {
			return Result{}, Errorf(p, -1, "unsupported operand type(s) for %s: TensorFlow's Tensor has no %s operator (TypeError; call tf.bitwise.%s_shift)", op, op, map[BinaryOp]string{Shl: "left", Shr: "right"}[op])
		}
		if d.IsInexact() {
			return refuse()
		}
		if d == dtypes.Bool {
			r.Rule += "; &, | and ^ on bool tensors are logical_and, logical_or and logical_xor"
		}
	case Logical:
		if d != dtypes.Bool {
			return Result{}, Errorf(p, -1, "logical %s needs bool tensors (tf.math.logical_%s), got %s", op, op, d.FullName())
		}
	}
	return r, nil
}

func (p tfPolicy) Unary(op UnaryOp, x Operand) (Result, error) {
	a, err := tfArgOf(tfName, 0, x)
	if err != nil {
		return Result{}, err
	}
	return tfUnary(tfName, op, a)
}

// tfUnary is the result of unary op on a in classic TensorFlow (and in
// tf-numpy, which keeps a weak operand weak).
func tfUnary(p string, op UnaryOp, a tfArg) (Result, error) {
	if r, ok, err := tfEveryday(p, op, a); ok {
		return r, err
	}
	d := a.d
	keep := dtypes.Type{DType: d, Weak: a.weak}
	refuse := func(kernel string) (Result, error) { return Result{}, tfUnsupported(p, 0, kernel, d) }
	realNum := d != dtypes.Bool && !d.IsComplex()
	switch op.Class() {
	case SameType:
		switch {
		case d == dtypes.Bool:
			return refuse(map[UnaryOp]string{Neg: "Neg", Pos: "Identity", Abs: "Abs", Relu: "Relu"}[op])
		case op == Relu && d.IsComplex():
			return refuse("Relu")
		case op == Abs && d.IsComplex():
			r := d.Real()
			return Result{Type: dtypes.Type{DType: r, Weak: a.weak}, Compute: d, Rule: fmt.Sprintf("abs of %s is ComplexAbs, which gives %s", d.FullName(), r.FullName())}, nil
		}
		return Result{Type: keep, Compute: d, Rule: "the operand's dtype"}, nil
	case BitNot:
		switch {
		case d == dtypes.Bool:
			return Result{Type: keep, Compute: d, Rule: "~ on a bool tensor is logical_not"}, nil
		case d.IsInt():
			return Result{Type: keep, Compute: d, Rule: "~ on an int tensor is tf.bitwise.invert"}, nil
		}
		return refuse("Invert")
	case LogicalNot:
		if d != dtypes.Bool {
			return refuse("LogicalNot")
		}
		return Result{Type: keep, Compute: d, Rule: "logical_not of bool"}, nil
	case FloatFn:
		if !d.IsInexact() || (d.IsComplex() && (op == Erf || op == Gelu || op == Softmax || op == LogSoftmax || op == Relu)) {
			return refuse(tfUnaryKernel(op))
		}
		return Result{Type: keep, Compute: d, Rule: fmt.Sprintf("%s keeps %s (TensorFlow's %s takes only float and complex tensors; ints are not converted)", op, d.FullName(), tfUnaryKernel(op))}, nil
	case Rounding:
		switch {
		case op == Round:
			return Result{}, Errorf(p, 0, "TensorFlow has no round half away from zero: tf.math.round rounds half to even (use roundeven)")
		case op == RoundEven:
			if d == dtypes.Bool || d.IsUnsigned() {
				return refuse("Round")
			}
		case !d.IsFloat():
			return refuse(tfUnaryKernel(op))
		}
		return Result{Type: keep, Compute: d, Rule: "rounding keeps the dtype"}, nil
	case Predicate:
		if !d.IsFloat() {
			return refuse(tfUnaryKernel(op))
		}
		return Result{Type: dtypes.Strong(dtypes.Bool), Compute: d, Rule: op.String() + " gives bool"}, nil
	case SumProd, MeanOp:
		if d == dtypes.Bool {
			return refuse(map[UnaryOp]string{Sum: "Sum", Prod: "Prod", Mean: "Mean"}[op])
		}
		rule := fmt.Sprintf("reduce_%s keeps %s (it accumulates, and wraps, in that dtype)", op, d.FullName())
		if op == Mean && d.IsInt() {
			rule = fmt.Sprintf("reduce_mean keeps %s: the mean of ints is an integer division", d.FullName())
		}
		return Result{Type: dtypes.Strong(d), Compute: d, Rule: rule}, nil
	case Extreme:
		if !realNum {
			return refuse(map[UnaryOp]string{ReduceMax: "Max", ReduceMin: "Min"}[op])
		}
		return Result{Type: dtypes.Strong(d), Compute: d, Rule: "the operand's dtype"}, nil
	case ArgOp:
		if !realNum {
			return refuse(map[UnaryOp]string{ArgMax: "ArgMax", ArgMin: "ArgMin"}[op])
		}
		return Result{Type: dtypes.Strong(dtypes.I64), Compute: d, Rule: op.String() + " gives int64 (its output_type default)"}, nil
	case BoolReduce:
		if d != dtypes.Bool {
			return refuse(map[UnaryOp]string{Any: "Any", All: "All"}[op])
		}
		return Result{Type: dtypes.Strong(dtypes.Bool), Compute: d, Rule: "reduce_" + op.String() + " of bool"}, nil
	}
	return Result{}, Errorf(p, -1, "unknown operation %s", op)
}

// tfUnaryKernel names the kernel of a float function or rounding.
func tfUnaryKernel(op UnaryOp) string {
	switch op {
	case Exp:
		return "Exp"
	case Log:
		return "Log"
	case Log1p:
		return "Log1p"
	case Sin:
		return "Sin"
	case Cos:
		return "Cos"
	case Tanh:
		return "Tanh"
	case Sqrt:
		return "Sqrt"
	case Rsqrt:
		return "Rsqrt"
	case Erf:
		return "Erf"
	case Sigmoid, Silu:
		return "Sigmoid"
	case Gelu:
		return "Gelu"
	case Softmax:
		return "Softmax"
	case LogSoftmax:
		return "LogSoftmax"
	case Floor:
		return "Floor"
	case Ceil:
		return "Ceil"
	case Trunc:
		return "Trunc"
	case IsNaN:
		return "IsNan"
	case IsInf:
		return "IsInf"
	}
	return op.String()
}
