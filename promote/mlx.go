package promote

import (
	"fmt"

	"github.com/tensorsh/tensorsh/dtypes"
)

// The mlx policy: Apple's MLX (mlx.core), as its sources define it.
//
// Arrays promote by the literal table type_rules of mlx/dtype.cpp
// (promote_types), a JAX-like table without weak types: uint64 with a
// signed int is float32, float16 with bfloat16 is float32, float64 with
// complex64 is complex64 (MLX has no complex128).
//
// A Python scalar meeting an array is weak (python/src/utils.cpp,
// to_arrays and to_array): it is made an array of the other operand's
// dtype, except that an int meeting a bool array becomes int32 (the
// result is int32), a float meeting a non-floating array becomes float32,
// and a complex is always complex64. An int outside the range of an
// integer dtype narrower than 64 bits is an error ("Converting 300 to
// int8 would result in overflow."). On its own a Python int is int32
// (int64 outside int32's range), a float float32, a complex complex64.
//
// Operations (mlx/ops.cpp): divide promotes, then at_least_float (an
// integer or bool result is promoted with float32); floor_divide of
// integers is the Divide primitive, C's truncating division; remainder
// takes the divisor's sign; exp, log, sin and the like apply
// at_least_float; sum and prod accumulate ints of at most 32 bits in int32
// or uint32 (bool in int32); max and min keep the dtype; mean is the sum
// times a float normalizer of dtype at_least_float; abs of complex64 is
// float32; argmax and argmin give uint32; matmul needs real floats
// (mlx/ops.cpp at commit fc96f021d7fd3ac34ce25d74e8da07593ea72d3d).

func init() {
	register("mlx", func() Policy { return mlxPolicy{} })
}

type mlxPolicy struct{}

const mlxName = "mlx"

var mlxDTypes = []dtypes.DType{
	dtypes.Bool, dtypes.I8, dtypes.I16, dtypes.I32, dtypes.I64,
	dtypes.U8, dtypes.U16, dtypes.U32, dtypes.U64,
	dtypes.F16, dtypes.BF16, dtypes.F32, dtypes.F64, dtypes.C64,
}

func (mlxPolicy) Name() string { return mlxName }

func (mlxPolicy) Title() string { return "MLX (mlx.core promote_types, weak Python scalars)" }

func (mlxPolicy) DTypes() []dtypes.DType { return mlxDTypes }

func (mlxPolicy) Host() Host { return Python }

func (mlxPolicy) Check(d dtypes.DType) (dtypes.DType, string, error) {
	if numpyHas(mlxDTypes, d) {
		return d, "", nil
	}
	return dtypes.Invalid, "", Errorf(mlxName, -1, "no dtype %s in MLX (it has bool, i8–i64, u8–u64, f16, bf16, f32, f64, c64)", d)
}

// mlxPyDType is the dtype to_array gives a Python scalar on its own.
func mlxPyDType(v Scalar) (dtypes.DType, bool) {
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
	return dtypes.C64, true
}

// mlxDefault is the dtype of a Python scalar of kind k whose value is
// not known.
func mlxDefault(k ScalarKind) dtypes.DType {
	switch k {
	case BoolScalar:
		return dtypes.Bool
	case IntScalar:
		return dtypes.I32
	case FloatScalar:
		return dtypes.F32
	}
	return dtypes.C64
}

// Literal gives a Python scalar its to_array dtype, weak.
func (mlxPolicy) Literal(v Scalar) (dtypes.Type, error) {
	d, ok := mlxPyDType(v)
	if !ok {
		return dtypes.Type{}, Errorf(mlxName, 0, "Python int %s does not fit int64 (MLX reads Python ints as a C long)", v)
	}
	return dtypes.Weak(d), nil
}

// ArrayLiteral gives mx.array's dtype for a list of Python scalars.
func (mlxPolicy) ArrayLiteral(k ScalarKind) (dtypes.Type, error) {
	return dtypes.Strong(mlxDefault(k)), nil
}

// Convert checks mx.array(v, dtype=d): to_array refuses an int outside
// the range of an integer dtype narrower than 64 bits.
func (p mlxPolicy) Convert(v Scalar, d dtypes.DType) error {
	if _, _, err := p.Check(d); err != nil {
		return err
	}
	if v.Kind == IntScalar {
		if !numpyIntFits(v.Int, dtypes.I64) {
			return Errorf(mlxName, 0, "Python int %s does not fit int64 (MLX reads Python ints as a C long)", v)
		}
		if d.IsInt() && d.Bits() < 64 && !numpyIntFits(v.Int, d) {
			return Errorf(mlxName, 0, "Converting %s to %s would result in overflow.", v, d.FullName())
		}
	}
	return numpyConvert(mlxName, v, d, false, false)
}

// mlxTypeRules is type_rules of mlx/dtype.cpp, in the order of its rows
// and columns.
var mlxTypeRules = func() map[[2]dtypes.DType]dtypes.DType {
	b, u8, u16, u32, u64 := dtypes.Bool, dtypes.U8, dtypes.U16, dtypes.U32, dtypes.U64
	i8, i16, i32, i64 := dtypes.I8, dtypes.I16, dtypes.I32, dtypes.I64
	f16, f32, f64, bf, c := dtypes.F16, dtypes.F32, dtypes.F64, dtypes.BF16, dtypes.C64
	order := []dtypes.DType{b, u8, u16, u32, u64, i8, i16, i32, i64, f16, f32, f64, bf, c}
	rows := [][]dtypes.DType{
		{b, u8, u16, u32, u64, i8, i16, i32, i64, f16, f32, f64, bf, c},
		{u8, u8, u16, u32, u64, i16, i16, i32, i64, f16, f32, f64, bf, c},
		{u16, u16, u16, u32, u64, i32, i32, i32, i64, f16, f32, f64, bf, c},
		{u32, u32, u32, u32, u64, i64, i64, i64, i64, f16, f32, f64, bf, c},
		{u64, u64, u64, u64, u64, f32, f32, f32, f32, f16, f32, f64, bf, c},
		{i8, i16, i32, i64, f32, i8, i16, i32, i64, f16, f32, f64, bf, c},
		{i16, i16, i32, i64, f32, i16, i16, i32, i64, f16, f32, f64, bf, c},
		{i32, i32, i32, i64, f32, i32, i32, i32, i64, f16, f32, f64, bf, c},
		{i64, i64, i64, i64, f32, i64, i64, i64, i64, f16, f32, f64, bf, c},
		{f16, f16, f16, f16, f16, f16, f16, f16, f16, f16, f32, f64, f32, c},
		{f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f64, f32, c},
		{f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, c},
		{bf, bf, bf, bf, bf, bf, bf, bf, bf, f32, f32, f64, bf, c},
		{c, c, c, c, c, c, c, c, c, c, c, c, c, c},
	}
	m := map[[2]dtypes.DType]dtypes.DType{}
	for i, a := range order {
		for j, b := range order {
			m[[2]dtypes.DType{a, b}] = rows[i][j]
		}
	}
	return m
}()

// mlxPromote is mlx::core::promote_types.
func mlxPromote(a, b dtypes.DType) dtypes.DType { return mlxTypeRules[[2]dtypes.DType{a, b}] }

// mlxAtLeastFloat is at_least_float of mlx/ops.cpp: an inexact dtype is
// kept, any other is promoted with float32.
func mlxAtLeastFloat(d dtypes.DType) dtypes.DType {
	if d.IsInexact() {
		return d
	}
	return mlxPromote(d, dtypes.F32)
}

// mlxSumType is the dtype sum and prod give (mlx/ops.cpp): signed ints of
// at most 4 bytes int32, unsigned ones uint32, bool int32; 64-bit ints and
// inexact dtypes keep theirs.
func mlxSumType(d dtypes.DType) dtypes.DType {
	switch {
	case d == dtypes.Bool:
		return dtypes.I32
	case d.IsSigned() && d.Bits() <= 32:
		return dtypes.I32
	case d.IsUnsigned() && d.Bits() <= 32:
		return dtypes.U32
	}
	return d
}

// mlxIsFloating is issubdtype(d, floating): real floats only.
func mlxIsFloating(d dtypes.DType) bool { return d.IsFloat() }

// mlxWeakWith is the dtype to_array makes a Python scalar w into when it
// meets an array of dtype d, or the overflow error.
func mlxWeakWith(w numpyArg, d dtypes.DType) (dtypes.DType, string, error) {
	switch w.kind {
	case BoolScalar:
		return d, fmt.Sprintf("a Python bool becomes an array of the other operand's dtype %s", d.FullName()), nil
	case IntScalar:
		if w.v != nil && w.v.Int != nil {
			if !numpyIntFits(w.v.Int, dtypes.I64) {
				return dtypes.Invalid, "", Errorf(mlxName, w.idx, "Python int %s does not fit int64 (MLX reads Python ints as a C long)", w.v)
			}
			if d.IsInt() && d.Bits() < 64 && !numpyIntFits(w.v.Int, d) {
				return dtypes.Invalid, "", Errorf(mlxName, w.idx, "Converting %s to %s would result in overflow.", w.v, d.FullName())
			}
		}
		if d == dtypes.Bool {
			return dtypes.I32, "a Python int meeting a bool array becomes int32 (to_array: bool_ is always promoted)", nil
		}
		return d, fmt.Sprintf("a Python int is weak: it becomes an array of the other operand's dtype %s", d.FullName()), nil
	case FloatScalar:
		if mlxIsFloating(d) {
			return d, fmt.Sprintf("a Python float is weak: it becomes an array of the floating dtype %s", d.FullName()), nil
		}
		return dtypes.F32, fmt.Sprintf("a Python float meeting a non-floating %s array becomes float32", d.FullName()), nil
	}
	return dtypes.C64, "a Python complex is always complex64", nil
}

// promote returns the dtype both operands are converted to, and whether
// the result is a Python scalar.
func (mlxPolicy) promote(a, b numpyArg) (dtypes.Type, string, error) {
	switch {
	case a.weak && b.weak:
		return dtypes.Weak(mlxDefault(max(a.kind, b.kind))), "both operands are Python scalars: Python arithmetic", nil
	case a.weak || b.weak:
		w, s := a, b
		if b.weak {
			w, s = b, a
		}
		wd, rule, err := mlxWeakWith(w, s.d)
		if err != nil {
			return dtypes.Type{}, "", err
		}
		d := mlxPromote(s.d, wd)
		if d != wd {
			rule += fmt.Sprintf("; promote_types(%s, %s) is %s", s.d.FullName(), wd.FullName(), d.FullName())
		}
		return dtypes.Strong(d), rule, nil
	}
	d := mlxPromote(a.d, b.d)
	return dtypes.Strong(d), fmt.Sprintf("promote_types(%s, %s) is %s (mlx/dtype.cpp type_rules)", a.d.FullName(), b.d.FullName(), d.FullName()), nil
}

func (p mlxPolicy) Binary(op BinaryOp, x, y Operand) (Result, error) {
	a, err := numpyArgOf(mlxName, mlxDTypes, 0, x, mlxPyDType)
	if err != nil {
		return Result{}, err
	}
	b, err := numpyArgOf(mlxName, mlxDTypes, 1, y, mlxPyDType)
	if err != nil {
		return Result{}, err
	}
	if op.Class() == Logical {
		// logical_and and logical_or convert both operands to bool.
		return Result{Type: dtypes.Type{DType: dtypes.Bool, Weak: a.weak && b.weak}, Compute: dtypes.Bool, Rule: "logical " + op.String() + " converts both operands to bool"}, nil
	}
	t, rule, err := p.promote(a, b)
	if err != nil {
		return Result{}, err
	}
	d := t.DType
	r := Result{Type: t, Compute: d, Rule: rule, IntDiv: IntDivNumPy}
	if r, ok, err := mlxEverydayBinary(op, r); ok {
		return r, err
	}
	if (a.lit && a.kind == FloatScalar || b.lit && b.kind == FloatScalar) && !(a.weak && b.weak) {
		// to_array makes a Python float a C float first.
		r.FloatVia = dtypes.F32
	}
	switch op.Class() {
	case Arith:
		if op == MatMul && !mlxIsFloating(d) {
			return Result{}, Errorf(mlxName, -1, "[matmul] Only real floating point types are supported but %s and %s were provided which results in %s, which is not a real floating point type.", a.d.FullName(), b.d.FullName(), d.FullName())
		}
	case Div:
		f := mlxAtLeastFloat(d)
		if f != d {
			r.Rule += fmt.Sprintf("; divide applies at_least_float: %s", f.FullName())
		}
		r.Type.DType, r.Compute = f, f
	case DivMod:
		if d.IsComplex() {
			return Result{}, Errorf(mlxName, -1, "%s is not supported for complex64", op)
		}
		if op == FloorDiv && !d.IsInexact() {
			r.CDiv = true
			r.Rule += "; floor_divide of integers is the Divide primitive, which truncates toward zero"
		} else if op == Mod {
			r.Rule += "; remainder takes the sign of the divisor"
		}
	case Compare:
		r.Type.DType = dtypes.Bool
		r.Rule += "; the comparison gives bool"
	case Bitwise:
		if !d.IsInt() && d != dtypes.Bool {
			return Result{}, Errorf(mlxName, -1, "[%s] Only allowed on integer types, not %s.", mlxBitwiseName(op), d.FullName())
		}
	}
	return r, nil
}

func mlxBitwiseName(op BinaryOp) string {
	switch op {
	case BitAnd:
		return "bitwise_and"
	case BitOr:
		return "bitwise_or"
	case BitXor:
		return "bitwise_xor"
	case Shl:
		return "left_shift"
	}
	return "right_shift"
}

func (p mlxPolicy) Unary(op UnaryOp, x Operand) (Result, error) {
	a, err := numpyArgOf(mlxName, mlxDTypes, 0, x, mlxPyDType)
	if err != nil {
		return Result{}, err
	}
	d := a.d
	keep := a.weak && (op.Class() == SameType || op.Class() == BitNot || op.Class() == LogicalNot)
	res := func(out, compute dtypes.DType, rule string) (Result, error) {
		return Result{Type: dtypes.Type{DType: out, Weak: keep}, Compute: compute, Rule: rule}, nil
	}
	if r, ok, err := mlxEveryday(op, a); ok {
		return r, err
	}
	switch op.Class() {
	case SameType:
		if op == Neg && d == dtypes.Bool {
			return Result{}, Errorf(mlxName, 0, "[negative] Not supported for bool, use logical_not instead.")
		}
		if op == Abs && d.IsComplex() {
			return res(dtypes.F32, d, "abs of complex64 is converted to float32")
		}
		if op == Relu && d == dtypes.Bool {
			// nn.relu is maximum(x, 0): a Python int meeting a bool array is int32.
			return res(dtypes.I32, dtypes.I32, "relu is maximum(x, 0), and 0 meeting a bool array is int32")
		}
		return res(d, d, "the operand's dtype")
	case BitNot:
		if !d.IsInt() && d != dtypes.Bool {
			return Result{}, Errorf(mlxName, 0, "[bitwise_invert] Bitwise inverse only allowed on integer types, not %s.", d.FullName())
		}
		return res(d, d, "the operand's dtype")
	case LogicalNot:
		return res(dtypes.Bool, dtypes.Bool, "logical_not converts its operand to bool")
	case FloatFn:
		if d.IsComplex() && (op == Erf || op == Gelu) {
			return Result{}, Errorf(mlxName, 0, "%s is not supported for complex64", op)
		}
		f := mlxAtLeastFloat(d)
		if f != d {
			return res(f, f, fmt.Sprintf("%s applies at_least_float: %s becomes %s", op, d.FullName(), f.FullName()))
		}
		return res(d, d, "an inexact operand keeps its dtype")
	case Rounding:
		if d.IsComplex() {
			return Result{}, Errorf(mlxName, 0, "[%s] Not supported for complex64.", op)
		}
		return res(d, d, "rounding keeps the dtype")
	case Predicate:
		return res(dtypes.Bool, d, op.String()+" gives bool")
	case SumProd:
		w := mlxSumType(d)
		if w != d {
			return res(w, w, fmt.Sprintf("%s of %s accumulates in %s", op, d.FullName(), w.FullName()))
		}
		return res(d, d, fmt.Sprintf("%s keeps %s", op, d.FullName()))
	case MeanOp:
		acc := mlxSumType(d)
		f := mlxAtLeastFloat(d)
		return res(f, acc, fmt.Sprintf("mean is sum (in %s) times a normalizer of dtype at_least_float: %s", acc.FullName(), f.FullName()))
	case Extreme:
		return res(d, d, "the operand's dtype")
	case ArgOp:
		return res(dtypes.U32, d, op.String()+" gives uint32")
	case BoolReduce:
		return res(dtypes.Bool, d, op.String()+" gives bool")
	}
	return Result{}, Errorf(mlxName, -1, "unknown operation %s", op)
}
