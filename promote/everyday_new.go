package promote

// The everyday functions of issue 16 (tan … isfinite, cumsum, cumprod,
// var, std, count_nonzero, arctan2, hypot, dot) under the policies of
// issue 18: tf and tf-numpy, keras, mlx, julia and c. Each policy's Unary
// and Binary ask these first; a false ok leaves the operation to the
// policy's class rules.

import (
	"fmt"
	"strings"

	"github.com/tensorsh/tensorsh/dtypes"
)

// tfEveryday is unary op on a in TensorFlow (tf and tf-numpy share
// TensorFlow's functions), from the op registrations of
// tensorflow/core/ops/math_ops.cc and the CPU kernels of
// tensorflow/core/kernels/cwise_op_*.cc, scan_ops.cc:
//
//   - Tan, Asin, Acos, Atan, Sinh, Cosh, Asinh, Acosh, Atanh, Expm1: float
//     and complex kernels only; the dtype is kept.
//   - tf.math has no log2, log10 or exp2.
//   - Sign (cwise_op_sign.cc): float, complex, int32 and int64 kernels;
//     Square (cwise_op_square.cc): float, complex and every int kernel;
//     Reciprocal (cwise_op_inverse.cc): float and complex kernels on the
//     CPU, no integer one. Tan, Asin, Acos, Atan, Reciprocal and Sign
//     list int8 … int64 in T (UNARY()) without a CPU kernel for them:
//     NotFoundError; other dtypes outside T are InvalidArgumentError.
//   - IsFinite: T in {bfloat16, half, float, double}, gives bool.
//   - Cumsum, Cumprod (scan_ops.cc): every number type, the dtype kept (an
//     int8 running sum wraps in int8); tf.math.cumsum's axis defaults to
//     0, it never flattens.
//   - math_ops.py reduce_variance, reduce_std: an integer mean raises
//     "Input must be either real or complex"; a complex input gives the
//     real dtype; there is no ddof.
//   - math_ops.py count_nonzero: dtype=tf.int64 by default.
func tfEveryday(p string, op UnaryOp, a tfArg) (Result, bool, error) {
	d := a.d
	keep := dtypes.Type{DType: d, Weak: a.weak}
	refuse := func(kernel string) (Result, bool, error) {
		if d.IsSigned() && (op == Tan || op == Arcsin || op == Arccos || op == Arctan || op == Reciprocal || op == Sign) {
			// The op's T (UNARY() in math_ops.cc) lists int8 … int64, but
			// no CPU kernel is registered for them.
			return Result{}, true, Errorf(p, 0, "Could not find device for node: {{node %s}} = %s[T=%s] (NotFoundError: TensorFlow registers no CPU %s kernel for %s: %s has no %s kernel)", kernel, kernel, tfDTString(d), kernel, d.FullName(), kernel, d.FullName())
		}
		return Result{}, true, tfUnsupported(p, 0, kernel, d)
	}
	kernel := map[UnaryOp]string{Tan: "Tan", Arcsin: "Asin", Arccos: "Acos", Arctan: "Atan", Sinh: "Sinh", Cosh: "Cosh", Arcsinh: "Asinh", Arccosh: "Acosh", Arctanh: "Atanh", Expm1: "Expm1",
		Sign: "Sign", Square: "Square", Reciprocal: "Reciprocal", IsFinite: "IsFinite", CumSum: "Cumsum", CumProd: "Cumprod", Var: "Mean", Std: "Mean"}[op]
	switch op {
	case Tan, Arcsin, Arccos, Arctan, Sinh, Cosh, Arcsinh, Arccosh, Arctanh, Expm1:
		if !d.IsInexact() {
			return refuse(kernel)
		}
		return Result{Type: keep, Compute: d, Rule: fmt.Sprintf("tf.math's %s keeps %s (float and complex kernels only; ints are not converted)", kernel, d.FullName())}, true, nil
	case Log2, Log10, Exp2:
		hint := map[UnaryOp]string{Log2: "write tf.math.log(x) / tf.math.log(2.0)", Log10: "write tf.math.log(x) / tf.math.log(10.0)", Exp2: "write tf.math.pow(2.0, x)"}[op]
		return Result{}, true, noFunction(p, "tf.math", op.String(), hint)
	case Sign:
		if !d.IsInexact() && d != dtypes.I32 && d != dtypes.I64 {
			return refuse(kernel)
		}
		return Result{Type: keep, Compute: d, Rule: "tf.math.sign keeps the dtype"}, true, nil
	case Square:
		if d == dtypes.Bool {
			return refuse(kernel)
		}
		return Result{Type: keep, Compute: d, Rule: "tf.math.square keeps the dtype (an int square wraps)"}, true, nil
	case Reciprocal:
		if !d.IsInexact() {
			return refuse(kernel)
		}
		return Result{Type: keep, Compute: d, Rule: "tf.math.reciprocal keeps the dtype"}, true, nil
	case IsFinite:
		if !d.IsFloat() {
			return refuse(kernel)
		}
		return Result{Type: dtypes.Strong(dtypes.Bool), Compute: d, Rule: "tf.math.is_finite gives bool"}, true, nil
	case CumSum, CumProd:
		if d == dtypes.Bool {
			return refuse(kernel)
		}
		return Result{Type: dtypes.Strong(d), Compute: d, Rule: fmt.Sprintf("tf.math.%s keeps %s (it accumulates, and wraps, in that dtype)", op, d.FullName())}, true, nil
	case Var, Std:
		fn := map[UnaryOp]string{Var: "reduce_variance", Std: "reduce_std"}[op]
		switch {
		case d == dtypes.Bool:
			return refuse(kernel)
		case d.IsInt():
			return Result{}, true, Errorf(p, 0, "Input must be either real or complex. Received integer type %s. (TypeError from tf.math.%s: cast to a float first)", tfTypeString(d), fn)
		}
		out := d.Real()
		return Result{Type: dtypes.Strong(out), Compute: d, Rule: fmt.Sprintf("tf.math.%s of %s gives %s (TensorFlow has no ddof: it divides by n)", fn, d.FullName(), out.FullName())}, true, nil
	case CountNonzero:
		return Result{Type: dtypes.Strong(dtypes.I64), Compute: d, Rule: "tf.math.count_nonzero gives int64 (its dtype= default)"}, true, nil
	}
	return Result{}, false, nil
}

// tfEverydayBinary is arctan2, hypot and dot in TensorFlow: Atan2 takes
// T in {bfloat16, half, float, double} (math_ops.cc), tf.math has no
// hypot, and there is no tf.dot.
func tfEverydayBinary(p string, op BinaryOp, r Result) (Result, bool, error) {
	switch op {
	case Arctan2:
		if !r.Compute.IsFloat() {
			return Result{}, true, tfUnsupported(p, -1, "Atan2", r.Compute)
		}
		r.Rule += "; tf.math.atan2 keeps the dtype"
		return r, true, nil
	case Hypot:
		return Result{}, true, noFunction(p, "tf.math", "hypot", "write tf.sqrt(a * a + b * b)")
	case Dot:
		return Result{}, true, noFunction(p, "TensorFlow", "dot", "use a @ b (tf.linalg.matmul) or tf.tensordot")
	}
	return Result{}, false, nil
}

// cumulativeNeedsAxis: tf.math.cumsum and cumprod scan axis 0 by default
// and never flatten, so a tensor of more than one dimension needs an
// explicit axis to mean what tensorsh computes.
func (tfPolicy) cumulativeNeedsAxis()      {}
func (tfNumPyPolicy) cumulativeNeedsAxis() {}

// noDOF: TensorFlow's reduce_variance divides by n and does not warn.
func (tfPolicy) noDOF(UnaryOp) (bool, string)      { return false, "" }
func (tfNumPyPolicy) noDOF(UnaryOp) (bool, string) { return false, "" }

// kerasEveryday is unary op on a in Keras 3 with the JAX backend
// (keras/src/backend/jax/numpy.py), which calls jax.numpy with x64 off:
//
//   - tan … arctanh, expm1, exp2, log2, log10: a bool or int operand is
//     cast to floatx (float32) or result_type(x.dtype, float) first;
//     floats keep their dtype (the class rule, toFloat).
//   - sign, square, reciprocal: jnp.sign (bool refused), jnp.square (bool
//     becomes int32), jnp.reciprocal (ints and bool become float32).
//   - cumsum, cumprod: jnp.cumsum, jnp.cumprod: bool becomes int32, any
//     other dtype is kept.
//   - var: cast(jnp.var(x, dtype=result_type(x.dtype, "float32")),
//     result_type(x.dtype, float)): ints give float32, float16 is computed
//     in float32 and rounded back, complex64 stays complex64 (jnp.var with
//     a complex dtype= keeps it). std: jnp.std (int64 cast to floatx
//     first): ints give float32, complex64 gives float32.
//   - count_nonzero: cast(jnp.count_nonzero(x), "int32").
func (p kerasPolicy) everyday(op UnaryOp, a kerasArg) (Result, bool, error) {
	d := a.d
	strong := func(out, compute dtypes.DType, rule string) (Result, bool, error) {
		return Result{Type: dtypes.Strong(out), Compute: compute, Rule: rule}, true, nil
	}
	switch op {
	case Sign:
		if d == dtypes.Bool {
			return Result{}, true, Errorf(kerasName, 0, "sign does not accept dtype bool (jnp.sign: lax.sign takes numbers)")
		}
	case Square:
		if d == dtypes.Bool {
			return strong(dtypes.I32, dtypes.I32, "jnp.square promotes bool to int32")
		}
	case Reciprocal:
		if !d.IsInexact() {
			return strong(dtypes.F32, dtypes.F32, fmt.Sprintf("jnp.reciprocal promotes %s to float32 (promote_dtypes_inexact, x64 off)", d.FullName()))
		}
	case CumSum, CumProd:
		if d == dtypes.Bool {
			return strong(dtypes.I32, dtypes.I32, fmt.Sprintf("jnp.%s of bool accumulates in int32", op))
		}
		return strong(d, d, fmt.Sprintf("jnp.%s keeps %s", op, d.FullName()))
	case Var, Std:
		if d.IsComplex() && d != dtypes.C64 {
			return Result{}, true, Errorf(kerasName, 0, "%s is not defined for %s", op, d.FullName())
		}
		out := dtypes.F32
		if d.IsInexact() {
			out = d
		}
		compute := out
		if out == dtypes.F16 || out == dtypes.BF16 {
			compute = dtypes.F32
		}
		rule := fmt.Sprintf("keras.ops.var computes in result_type(%s, float32) = %s and casts to result_type(%s, float) = %s", d.FullName(), compute.FullName(), d.FullName(), out.FullName())
		if op == Std {
			if d.IsComplex() {
				out, compute = d.Real(), d
			}
			rule = fmt.Sprintf("keras.ops.std is jnp.std: %s of %s gives %s", op, d.FullName(), out.FullName())
			if compute != out {
				rule += ", computed in " + compute.FullName()
			}
		}
		return strong(out, compute, rule)
	case CountNonzero:
		return strong(dtypes.I32, d, "keras.ops.count_nonzero casts jnp.count_nonzero to int32")
	}
	return Result{}, false, nil
}

// kerasEverydayBinary: jnp.arctan2 (keras casts both to result_type(x1,
// x2, float)) takes real floats only, and jnp.hypot raises for complex
// inputs; keras.ops.dot is jnp.dot, which promotes as matmul without
// Keras' int8 matmul rule.
func kerasEverydayBinary(op BinaryOp, r Result) (Result, error) {
	if (op == Arctan2 || op == Hypot) && r.Compute.IsComplex() {
		return Result{}, Errorf(kerasName, -1, "%s is not defined for complex inputs (%s)", op, r.Compute.FullName())
	}
	r.Rule = op.String() + " is " + r.Rule
	return r, nil
}

// noDOF: keras.ops.var and std are jnp.var and jnp.std, which give NaN
// where n <= ddof (Keras has no ddof; tensorsh's ddof= reaches jnp).
func (kerasPolicy) noDOF(UnaryOp) (bool, string) { return true, "" }

// mlxEveryday is unary op on a in MLX (mlx/ops.cpp, the functions
// python/src/ops.cpp exports):
//
//   - tan … arctanh, log2, log10, expm1: at_least_float, the class rule;
//     MLX has no exp2 and no count_nonzero.
//   - sign and square keep the dtype (bool included: the primitives are
//     made with a.dtype()).
//   - reciprocal is divide(array(1.0f, at_least_float(a.dtype())), a).
//   - isfinite gives bool.
//   - cumsum and cumprod: out_type is int32 for bool, else a.dtype().
//   - var: at_least_float of the dtype, the mean of the squared
//     deviations (square, not abs squared: complex64 gives a complex
//     variance, which tensorsh does not model), times 1/max(n - ddof, 0);
//     std is sqrt(var).
func mlxEveryday(op UnaryOp, a numpyArg) (Result, bool, error) {
	d := a.d
	res := func(out, compute dtypes.DType, rule string) (Result, bool, error) {
		return Result{Type: dtypes.Strong(out), Compute: compute, Rule: rule}, true, nil
	}
	switch op {
	case Exp2, CountNonzero:
		hint := map[UnaryOp]string{Exp2: "write 2 ** x (mx.power)", CountNonzero: "write sum(x != 0)"}[op]
		return Result{}, true, noFunction(mlxName, "mlx.core", op.String(), hint)
	case Sign, Square:
		return Result{Type: dtypes.Type{DType: d, Weak: a.weak}, Compute: d, Rule: op.String() + " keeps the dtype"}, true, nil
	case Reciprocal:
		f := mlxAtLeastFloat(d)
		return Result{Type: dtypes.Type{DType: f, Weak: a.weak}, Compute: f, Rule: fmt.Sprintf("reciprocal divides 1.0 of dtype at_least_float(%s) = %s by x", d.FullName(), f.FullName())}, true, nil
	case CumSum, CumProd:
		out := d
		if d == dtypes.Bool {
			out = dtypes.I32
		}
		return res(out, out, fmt.Sprintf("%s gives %s (bool becomes int32, any other dtype is kept)", op, out.FullName()))
	case Var, Std:
		if d.IsComplex() {
			return Result{}, true, Errorf(mlxName, 0, "%s of complex64 squares the deviations (a complex variance, not |x - mean|²), which tensorsh does not model", op)
		}
		f := mlxAtLeastFloat(d)
		return res(f, f, fmt.Sprintf("%s computes in at_least_float(%s) = %s", op, d.FullName(), f.FullName()))
	}
	return Result{}, false, nil
}

// mlxEverydayBinary: arctan2 is at_least_float(promote_types(a, b)), real
// only; MLX has no hypot and no dot (mlx.core.inner, tensordot and matmul
// are its products).
func mlxEverydayBinary(op BinaryOp, r Result) (Result, bool, error) {
	switch op {
	case Arctan2:
		if r.Compute.IsComplex() {
			return Result{}, true, Errorf(mlxName, -1, "[arctan2] is not supported for complex64")
		}
	case Hypot:
		return Result{}, true, noFunction(mlxName, "mlx.core", "hypot", "write mx.sqrt(a * a + b * b)")
	case Dot:
		return Result{}, true, noFunction(mlxName, "mlx.core", "dot", "use a @ b (matmul), inner or tensordot")
	}
	return r, false, nil
}

// noDOF: mlx/ops.cpp var multiplies by 1 / max(n - ddof, 0), without a
// warning.
func (mlxPolicy) noDOF(UnaryOp) (bool, string) { return false, "" }

// juliaEveryday is unary op on an array of element type d in Julia 1.11
// (Base, and the Statistics stdlib for var and std):
//
//   - tan, asin … atanh, log2, log10, exp2, expm1 of an Integer or Bool
//     take float(x): Float64 (base/math.jl, base/special/*.jl), the class
//     rule.
//   - sign(x) keeps the type (base/number.jl sign, base/int.jl).
//   - There is no square: abs2(x) (x*x for reals) or x .^ 2.
//   - inv(x::Integer) is one(x) / x, a Float64; inv of a float keeps it.
//   - isfinite gives Bool.
//   - cumsum and cumprod are accumulate(add_sum) and accumulate(mul_prod)
//     (base/accumulate.jl): Int8–Int32 widen to Int64, UInt8–UInt32 to
//     UInt64, the cumsum of Bools is Int64, the cumprod of Bools Bool;
//     beyond a vector they need dims.
//   - Statistics.var and std: a real float keeps its type, integers and
//     Bool give Float64, a complex one its real type; corrected=true
//     divides by n - 1 by default; n - 1 = 0 gives NaN, silently.
//   - count(!iszero, x) is an Int.
func juliaEveryday(op UnaryOp, d dtypes.DType) (Result, bool, error) {
	res := func(out, compute dtypes.DType, rule string) (Result, bool, error) {
		return Result{Type: dtypes.Strong(out), Compute: compute, Rule: rule}, true, nil
	}
	switch op {
	case Sign:
		if d.IsComplex() {
			// sign(z::Complex) is z / abs(z) in Julia, not NumPy's.
			return Result{}, true, Errorf(juliaName, 0, "sign of %s is z / abs(z) in Julia, which tensorsh does not model", juliaTypeName(d))
		}
		return res(d, d, "sign keeps the type")
	case Square:
		return Result{}, true, noFunction(juliaName, "Julia's Base", "square", "write abs2.(x) or x .^ 2")
	case Reciprocal:
		f := juliaFloat(d)
		if f != d {
			return res(f, f, fmt.Sprintf("inv(x::%s) is one(x) / x, a Float64", juliaTypeName(d)))
		}
		return res(d, d, "inv keeps the float type")
	case CumSum, CumProd:
		w := d
		switch {
		case d == dtypes.Bool && op == CumSum:
			w = dtypes.I64
		case d.IsSigned() && d.Bits() < 64:
			w = dtypes.I64
		case d.IsUnsigned() && d.Bits() < 64:
			w = dtypes.U64
		}
		fn := map[UnaryOp]string{CumSum: "add_sum", CumProd: "mul_prod"}[op]
		if w != d {
			return res(w, w, fmt.Sprintf("%s is accumulate(Base.%s), which widens %s to %s", op, fn, juliaTypeName(d), juliaTypeName(w)))
		}
		return res(d, d, fmt.Sprintf("%s is accumulate(Base.%s), which keeps %s", op, fn, juliaTypeName(d)))
	case Var, Std:
		out := juliaFloat(d)
		if d.IsComplex() {
			out = d.Real()
		}
		return res(out, juliaFloat(d), fmt.Sprintf("Statistics.%s of %s is %s (corrected=true by default: ddof 1)", op, juliaTypeName(d), juliaTypeName(out)))
	case CountNonzero:
		return res(dtypes.I64, d, "count(!iszero, x) is an Int (Int64)")
	}
	return Result{}, false, nil
}

// juliaEverydayBinary: atan(y, x) takes float of both (Float64 for
// integers, base/math.jl) and has no complex method; hypot(x, y) of
// complex numbers is hypot(abs(x), abs(y)), real, which tensorsh refuses
// with that spelling as the hint; LinearAlgebra.dot of two
// matrices is the inner product of all their elements (conjugating the
// first), not NumPy's dot.
func juliaEverydayBinary(op BinaryOp, a, b, d dtypes.DType) (Result, bool, error) {
	switch op {
	case Arctan2:
		if d.IsComplex() {
			return Result{}, true, Errorf(juliaName, -1, "MethodError: no method matching atan(::%s, ::%s)", juliaTypeName(a), juliaTypeName(b))
		}
	case Hypot:
		if d.IsComplex() {
			return Result{}, true, Errorf(juliaName, -1, "hypot of complex numbers is hypot(abs(x), abs(y)) in Julia, a %s, which tensorsh does not compute in one step: write hypot(abs(a), abs(b))", juliaTypeName(d.Real()))
		}
	case Dot:
		return Result{}, true, noFunction(juliaName, "Julia", "dot with NumPy's meaning", "LinearAlgebra.dot is the inner product of all elements (conjugating the first); write a @ b for a matrix product (Julia's a * b)")
	}
	return Result{}, false, nil
}

func (juliaPolicy) defaultDDOF() int             { return 1 }
func (juliaPolicy) noDOF(UnaryOp) (bool, string) { return false, "" }
func (juliaPolicy) cumulativeNeedsAxis()         {}

// cEveryday is unary op in C17 (§7.12, §7.25 <tgmath.h>):
//
//   - tan, asin … atanh: real and complex (ctan …) versions, the class
//     rule; log2, log10, exp2 and expm1 are real only: <tgmath.h> has no
//     complex version (§7.25p5).
//   - isfinite is a macro on real floating types; it gives an int, shown
//     as bool like isnan and isinf.
//   - C has no sign, square, reciprocal (1 / x of integers divides
//     integers), cumsum, cumprod, var, std or count_nonzero.
func cEveryday(op UnaryOp, d dtypes.DType) (Result, bool, error) {
	switch op {
	case Log2, Log10, Exp2, Expm1:
		if d.IsComplex() {
			return Result{}, true, Errorf(cName, 0, "<tgmath.h> has no complex %s (C17 §7.25p5 lists no c%s)", op, op)
		}
	case IsFinite:
		if !d.IsFloat() {
			return Result{}, true, Errorf(cName, 0, "isfinite needs a real floating argument, not '%s' (C17 §7.12.3.2; GCC: non-floating-point argument in call to function '__builtin_isfinite')", cTypeName(d))
		}
		return Result{Type: dtypes.Strong(dtypes.Bool), Compute: d, Rule: "isfinite gives an int 0 or 1 (shown as bool)"}, true, nil
	case Sign, Square, Reciprocal, CumSum, CumProd, Var, Std, CountNonzero:
		hint := map[UnaryOp]string{
			Sign:         "write (x > 0) - (x < 0)",
			Square:       "write x * x",
			Reciprocal:   "write 1.0 / x (1 / x of an integer divides integers)",
			CumSum:       "it has no reductions: write a loop",
			CumProd:      "it has no reductions: write a loop",
			Var:          "it has no reductions: write a loop",
			Std:          "it has no reductions: write a loop",
			CountNonzero: "it has no reductions: write a loop",
		}[op]
		return Result{}, true, noFunction(cName, "C", op.String(), hint)
	}
	return Result{}, false, nil
}

// cEverydayBinary: atan2 and hypot are <tgmath.h> functions of two real
// arguments (double for integers, §7.25p3), with no complex version; C has
// no dot.
func cEverydayBinary(op BinaryOp, a, b dtypes.DType) (Result, bool, error) {
	switch op {
	case Arctan2, Hypot:
		fn := map[BinaryOp]string{Arctan2: "atan2", Hypot: "hypot"}[op]
		if a.IsComplex() || b.IsComplex() {
			return Result{}, true, Errorf(cName, -1, "<tgmath.h> has no complex %s (C17 §7.25p5)", fn)
		}
		d, err := cMathType(fn, a, b)
		if err != nil {
			return Result{}, true, err
		}
		return Result{Type: dtypes.Strong(d), Compute: d, Rule: fmt.Sprintf("<tgmath.h> %s of %s and %s is %s", fn, cTypeName(a), cTypeName(b), cTypeName(d))}, true, nil
	case Dot:
		return Result{}, true, noFunction(cName, "C", "dot", "write a loop")
	}
	return Result{}, false, nil
}

// tfDTString is the DataType enum name TensorFlow prints for d
// (tensorflow/core/framework/types.proto): DT_INT8, DT_HALF, DT_FLOAT.
func tfDTString(d dtypes.DType) string {
	return "DT_" + strings.ToUpper(tfTypeString(d))
}

// TakesDDOF reports whether the system's var and std take a ddof (or
// correction) argument. TensorFlow's tf.math.reduce_variance and
// reduce_std (math_ops.py) and Keras' keras.ops.var and std
// (keras/src/ops/numpy.py) have none: they always divide by n.
func TakesDDOF(p Policy) bool {
	_, no := p.(interface{ noDDOF(UnaryOp) string })
	return !no
}

// NoDDOFMessage is the error for a ddof (or correction, arg) given to op
// where the system's var and std take none.
func NoDDOFMessage(p Policy, op UnaryOp, arg string) string {
	fn := op.String()
	if d, ok := p.(interface{ noDDOF(UnaryOp) string }); ok {
		fn = d.noDDOF(op)
	}
	return fmt.Sprintf("%s() got an unexpected keyword argument '%s' (%s has no ddof: it divides by n)", fn, arg, fn)
}

func tfMomentName(op UnaryOp) string {
	return map[UnaryOp]string{Var: "tf.math.reduce_variance", Std: "tf.math.reduce_std"}[op]
}

func (tfPolicy) noDDOF(op UnaryOp) string      { return tfMomentName(op) }
func (tfNumPyPolicy) noDDOF(op UnaryOp) string { return tfMomentName(op) }
func (kerasPolicy) noDDOF(op UnaryOp) string   { return "keras.ops." + op.String() }
