package promote

import (
	"testing"

	"github.com/tensorsh/tensorsh/dtypes"
)

// TestNewPoliciesEveryday pins the everyday functions (issue 16) under the
// policies of issue 18, each case next to the library source it comes
// from.
func TestNewPoliciesEveryday(t *testing.T) {
	b, i8, i16, i32, i64 := dtypes.Bool, dtypes.I8, dtypes.I16, dtypes.I32, dtypes.I64
	u8, u16 := dtypes.U8, dtypes.U16
	f16, bf16, f32, f64 := dtypes.F16, dtypes.BF16, dtypes.F32, dtypes.F64
	c64, c128 := dtypes.C64, dtypes.C128

	// TensorFlow, tf.math: the op registrations of
	// tensorflow/core/ops/math_ops.cc and the CPU kernels
	// tensorflow/core/kernels/cwise_op_tan.cc, cwise_op_asin.cc …,
	// cwise_op_inverse.cc (Reciprocal: half, bfloat16, float, double,
	// complex64, complex128; no int kernel on the CPU), cwise_op_sign.cc
	// (float, double, int32, int64, half, bfloat16, complex),
	// cwise_op_square.cc (floats, complex and every int), cwise_op_isfinite.cc, scan_ops.cc (Cumsum,
	// Cumprod: TF_CALL_NUMBER_TYPES); tensorflow/python/ops/math_ops.py
	// reduce_variance and reduce_std ("Input must be either real or
	// complex"; complex gives the real dtype), count_nonzero (dtype=int64),
	// atan2 (Atan2: T in {bfloat16, half, float, double}); tf.math has no
	// log2, log10, exp2 or hypot, and there is no tf.dot. tf-numpy shares
	// TensorFlow's functions (tfnumpy.go).
	for _, name := range []string{"tf", "tf-numpy", "tf-numpy-safe"} {
		p := refsMust(t, name)
		mineUnary(t, p, []mineUn{
			{Tan, mineArr(f32), "f32", f32},
			{Arcsin, mineArr(f16), "f16", f16},
			{Arccosh, mineArr(c128), "c128", c128},
			{Tan, mineArr(i32), "error@0: Tan has no int32 kernel", 0},
			{Expm1, mineArr(i64), "error@0: Expm1 has no int64 kernel", 0},
			{Log2, mineArr(f32), "error@-1: tf.math has no log2; write tf.math.log(x) / tf.math.log(2.0)", 0},
			{Log10, mineArr(f64), "error@-1: tf.math has no log10", 0},
			{Exp2, mineArr(f32), "error@-1: tf.math has no exp2", 0},
			{Sign, mineArr(i32), "i32", i32},
			{Sign, mineArr(i8), "error@0: Sign has no int8 kernel", 0},
			{Sign, mineArr(b), "error@0: Sign has no bool kernel", 0},
			{Square, mineArr(i8), "i8", i8},
			{Square, mineArr(u8), "u8", u8},
			{Square, mineArr(b), "error@0: Square has no bool kernel", 0},
			{Tan, mineArr(i8), "error@0: Could not find device for node: {{node Tan}} = Tan[T=DT_INT8]", 0},
			{Sinh, mineArr(i8), "error@0: Value for attr 'T' of int8 is not in the list of allowed values for Sinh", 0},
			{Reciprocal, mineArr(i32), "error@0: Reciprocal has no int32 kernel", 0},
			{Reciprocal, mineArr(f16), "f16", f16},
			{IsFinite, mineArr(bf16), "bool", bf16},
			{IsFinite, mineArr(i32), "error@0: IsFinite has no int32 kernel", 0},
			{IsFinite, mineArr(c64), "error@0: IsFinite has no complex64 kernel", 0},
			{CumSum, mineArr(i8), "i8", i8},
			{CumProd, mineArr(u16), "u16", u16},
			{CumSum, mineArr(b), "error@0: Cumsum has no bool kernel", 0},
			{Var, mineArr(i32), "error@0: Input must be either real or complex", 0},
			{Var, mineArr(f16), "f16", f16},
			{Std, mineArr(c64), "f32", c64},
			{CountNonzero, mineArr(b), "i64", b},
			{CountNonzero, mineArr(f32), "i64", f32},
		})
		mineBinary(t, p, []mineBin{
			{mineArr(f32), Arctan2, mineArr(f32), "f32", f32},
			{mineArr(i32), Arctan2, mineArr(i32), "error@-1: Atan2 has no int32 kernel", 0},
			{mineArr(f32), Hypot, mineArr(f32), "error@-1: tf.math has no hypot", 0},
			{mineArr(f32), Dot, mineArr(f32), "error@-1: TensorFlow has no dot; use a @ b", 0},
		})
	}
	// tf: mixed dtypes are still refused before the function applies.
	mineBinary(t, refsMust(t, "tf"), []mineBin{
		{mineArr(f32), Arctan2, mineArr(f64), "error@1: cannot compute Atan2 as input #1(zero-based) was expected to be a float tensor but is a double tensor", 0},
	})

	// Keras 3, JAX backend (keras/src/backend/jax/numpy.py): tan … arctanh
	// cast to result_type(x.dtype, float) (int64 to floatx); exp2, expm1
	// cast ints and bool to floatx; log2, log10 leave ints to jnp (float32
	// with x64 off); sign, square, reciprocal, isfinite, cumsum, cumprod
	// are jnp's; var casts jnp.var(x, dtype=result_type(x, "float32")) to
	// result_type(x, float); std is jnp.std; count_nonzero casts to int32;
	// arctan2 casts both to result_type(x1, x2, float); hypot is
	// jnp.hypot; dot is jnp.dot.
	k := refsMust(t, "keras")
	mineUnary(t, k, []mineUn{
		{Tan, mineArr(i8), "f32", f32},
		{Arcsinh, mineArr(f16), "f16", f16},
		{Log2, mineArr(u8), "f32", f32},
		{Exp2, mineArr(b), "f32", f32},
		{Sign, mineArr(i16), "i16", i16},
		{Sign, mineArr(b), "error@0: sign does not accept dtype bool", 0},
		{Square, mineArr(b), "i32", i32},
		{Square, mineArr(u8), "u8", u8},
		{Reciprocal, mineArr(i32), "f32", f32},
		{Reciprocal, mineArr(bf16), "bf16", bf16},
		{IsFinite, mineArr(i8), "bool", i8},
		{CumSum, mineArr(b), "i32", i32},
		{CumSum, mineArr(i8), "i8", i8},
		{CumProd, mineArr(f16), "f16", f16},
		{Var, mineArr(i32), "f32", f32},
		{Var, mineArr(f16), "f16", f32},
		{Var, mineArr(c64), "c64", c64},
		{Std, mineArr(c64), "f32", c64},
		{Std, mineArr(u8), "f32", f32},
		{CountNonzero, mineArr(f32), "i32", f32},
	})
	mineBinary(t, k, []mineBin{
		{mineArr(i8), Arctan2, mineArr(u8), "f32", f32},
		{mineArr(f16), Arctan2, mineArr(i8), "f16", f16},
		{mineArr(i32), Hypot, mineArr(i32), "f32", f32},
		{mineArr(c64), Hypot, mineArr(f32), "error@-1: hypot is not defined for complex inputs", 0},
		{mineArr(i8), Dot, mineArr(i8), "i8", i8},
	})

	// MLX (mlx/ops.cpp, commit fc96f021d7fd3ac34ce25d74e8da07593ea72d3d):
	// the float functions apply at_least_float; reciprocal is
	// divide(array(1.0f, at_least_float(a.dtype())), a); sign and square
	// keep a.dtype(); cumsum's out_type is int32 for bool, else a.dtype();
	// var is at_least_float; arctan2 is at_least_float of promote_types.
	// python/src/ops.cpp exports no exp2, hypot, count_nonzero or dot.
	m := refsMust(t, "mlx")
	mineUnary(t, m, []mineUn{
		{Arctan, mineArr(i16), "f32", f32},
		{Log10, mineArr(f16), "f16", f16},
		{Exp2, mineArr(f32), "error@-1: mlx.core has no exp2", 0},
		{Sign, mineArr(b), "bool", b},
		{Square, mineArr(u8), "u8", u8},
		{Reciprocal, mineArr(i32), "f32", f32},
		{Reciprocal, mineArr(bf16), "bf16", bf16},
		{IsFinite, mineArr(i32), "bool", i32},
		{CumSum, mineArr(b), "i32", i32},
		{CumProd, mineArr(i8), "i8", i8},
		{Var, mineArr(i64), "f32", f32},
		{Std, mineArr(f16), "f16", f16},
		{Var, mineArr(c64), "error@0: tensorsh does not model", 0},
		{CountNonzero, mineArr(f32), "error@-1: mlx.core has no count_nonzero", 0},
	})
	mineBinary(t, m, []mineBin{
		{mineArr(i8), Arctan2, mineArr(u8), "f32", f32},
		{mineArr(f16), Arctan2, mineArr(f16), "f16", f16},
		{mineArr(f32), Hypot, mineArr(f32), "error@-1: mlx.core has no hypot", 0},
		{mineArr(f32), Dot, mineArr(f32), "error@-1: mlx.core has no dot", 0},
	})

	// Julia 1.11: base/math.jl and base/special/*.jl take float(x) of an
	// Integer (Float64); base/number.jl sign keeps the type; inv(x::Integer)
	// is one(x)/x (Float64); Base has no square (abs2, x .^ 2);
	// base/accumulate.jl cumsum and cumprod are accumulate(add_sum) and
	// accumulate(mul_prod) (base/reduce.jl: small ints widen to Int64 and
	// UInt64, Bool + Bool is Int); Statistics.var and std give a float
	// (integers: Float64; complex: the real type) with corrected=true;
	// count(!iszero, x) is an Int; atan(y, x) takes float of both and has
	// no complex method; LinearAlgebra.dot is not NumPy's dot.
	j := refsMust(t, "julia")
	mineUnary(t, j, []mineUn{
		{Tan, mineArr(i8), "f64", f64},
		{Exp2, mineArr(f32), "f32", f32},
		{Sign, mineArr(i8), "i8", i8},
		{Sign, mineArr(b), "bool", b},
		{Square, mineArr(i32), "error@-1: Julia's Base has no square; write abs2.(x) or x .^ 2", 0},
		{Reciprocal, mineArr(i32), "f64", f64},
		{Reciprocal, mineArr(f16), "f16", f16},
		{IsFinite, mineArr(i32), "bool", i32},
		{CumSum, mineArr(i8), "i64", i64},
		{CumSum, mineArr(u16), "u64", dtypes.U64},
		{CumSum, mineArr(b), "i64", i64},
		{CumProd, mineArr(b), "bool", b},
		{CumProd, mineArr(f32), "f32", f32},
		{Var, mineArr(i32), "f64", f64},
		{Std, mineArr(f32), "f32", f32},
		{Var, mineArr(c64), "f32", c64},
		{CountNonzero, mineArr(f32), "i64", f32},
	})
	mineBinary(t, j, []mineBin{
		{mineArr(i8), Arctan2, mineArr(u8), "f64", f64},
		{mineArr(f32), Arctan2, mineArr(f32), "f32", f32},
		{mineArr(c64), Arctan2, mineArr(f32), "error@-1: MethodError: no method matching atan(::ComplexF32, ::Float32)", 0},
		{mineArr(i32), Hypot, mineArr(i32), "f64", f64},
		{mineArr(c64), Hypot, mineArr(c64), "error@-1: write hypot(abs(a), abs(b))", 0},
		{mineArr(f64), Dot, mineArr(f64), "error@-1: LinearAlgebra.dot", 0},
	})
	// tf.math.reduce_variance and keras.ops.var have no ddof argument.
	for _, name := range Names() {
		want := name != "tf" && name != "tf-numpy" && name != "tf-numpy-safe" && name != "keras"
		if got := TakesDDOF(refsMust(t, name)); got != want {
			t.Errorf("%s: TakesDDOF = %v, want %v", name, got, want)
		}
	}
	if got := NoDDOFMessage(refsMust(t, "tf"), Var, "ddof"); got != "tf.math.reduce_variance() got an unexpected keyword argument 'ddof' (tf.math.reduce_variance has no ddof: it divides by n)" {
		t.Errorf("tf: NoDDOFMessage = %q", got)
	}
	if got := DefaultDDOF(j); got != 1 {
		t.Errorf("julia: DefaultDDOF = %d, want 1 (Statistics.var: corrected=true)", got)
	}

	// C17: §7.12 and §7.25 <tgmath.h> (a function of an integer is the
	// double one; atan2 and hypot take the common real type; log2, log10,
	// exp2 and expm1 have no complex version, §7.25p5); isfinite is a
	// macro on real floating types (§7.12.3.2) giving an int; C has no
	// sign, square, reciprocal, cumsum, cumprod, var, std, count_nonzero
	// or dot.
	c := refsMust(t, "c")
	mineUnary(t, c, []mineUn{
		{Tan, mineArr(i8), "f64", f64},
		{Arccos, mineArr(c64), "c64", c64},
		{Log2, mineArr(c64), "error@0: <tgmath.h> has no complex log2", 0},
		{Expm1, mineArr(f32), "f32", f32},
		{Sign, mineArr(i32), "error@-1: C has no sign", 0},
		{Square, mineArr(f64), "error@-1: C has no square; write x * x", 0},
		{Reciprocal, mineArr(i32), "error@-1: C has no reciprocal; write 1.0 / x", 0},
		{IsFinite, mineArr(f32), "bool", f32},
		{IsFinite, mineArr(i32), "error@0: isfinite needs a real floating argument", 0},
		{CumSum, mineArr(i32), "error@-1: C has no cumsum", 0},
		{Var, mineArr(f64), "error@-1: C has no var", 0},
		{CountNonzero, mineArr(f64), "error@-1: C has no count_nonzero", 0},
	})
	mineBinary(t, c, []mineBin{
		{mineArr(i32), Arctan2, mineArr(i32), "f64", f64},
		{mineArr(f32), Hypot, mineArr(f32), "f32", f32},
		{mineArr(f32), Hypot, mineArr(f64), "f64", f64},
		{mineArr(c64), Arctan2, mineArr(f32), "error@-1: <tgmath.h> has no complex atan2", 0},
		{mineArr(f16), Hypot, mineArr(f16), "error@-1: <tgmath.h> has no hypot for _Float16", 0},
		{mineArr(f64), Dot, mineArr(f64), "error@-1: C has no dot", 0},
	})
}
