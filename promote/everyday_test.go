package promote

import (
	"strings"
	"testing"

	"github.com/tensorsh/tensorsh/dtypes"
)

// TestNumPyEverydaySweep checks cumsum, cumprod, var, std and
// count_nonzero over NumPy's dtypes against what NumPy 1.24.2 printed for
// np.cumsum(a).dtype, np.cumprod(a).dtype, np.var(a).dtype,
// np.std(a).dtype and np.count_nonzero(a, axis=0).dtype with a =
// np.ones(3, dtype=t) (these array rules are NumPy 2's too:
// numpy/_core/fromnumeric.py cumsum → PyArray_CumSum with the reduction
// dtype; numpy/_core/_methods.py _var; numpy/_core/numeric.py
// count_nonzero sums with dtype=np.intp).
func TestNumPyEverydaySweep(t *testing.T) {
	want := map[dtypes.DType][5]string{
		dtypes.Bool: {"i64", "i64", "f64", "f64", "i64"},
		dtypes.I8:   {"i64", "i64", "f64", "f64", "i64"},
		dtypes.I16:  {"i64", "i64", "f64", "f64", "i64"},
		dtypes.I32:  {"i64", "i64", "f64", "f64", "i64"},
		dtypes.I64:  {"i64", "i64", "f64", "f64", "i64"},
		dtypes.U8:   {"u64", "u64", "f64", "f64", "i64"},
		dtypes.U16:  {"u64", "u64", "f64", "f64", "i64"},
		dtypes.U32:  {"u64", "u64", "f64", "f64", "i64"},
		dtypes.U64:  {"u64", "u64", "f64", "f64", "i64"},
		dtypes.F16:  {"f16", "f16", "f16", "f16", "i64"}, // _var computes in float16 itself
		dtypes.F32:  {"f32", "f32", "f32", "f32", "i64"},
		dtypes.F64:  {"f64", "f64", "f64", "f64", "i64"},
		dtypes.C64:  {"c64", "c64", "f32", "f32", "i64"},
		dtypes.C128: {"c128", "c128", "f64", "f64", "i64"},
	}
	ops := [5]UnaryOp{CumSum, CumProd, Var, Std, CountNonzero}
	for _, name := range []string{"numpy", "numpy1"} {
		p := refsMust(t, name)
		for d, w := range want {
			for i, op := range ops {
				r, err := p.Unary(op, mineArr(d))
				if err != nil || r.Type.String() != w[i] {
					t.Errorf("%s: %s(%s) = %s, %v; NumPy gives %s", name, op, d, r.Type, err, w[i])
				}
			}
		}
	}
}

// TestNumPyDot checks np.dot's dtypes against NumPy 1.24.2's
// np.dot(np.ones(2, dtype=a), np.ones(2, dtype=b)).dtype, and with Python
// scalars, which PyArray_MatrixProduct2 (multiarraymodule.c) types with
// PyArray_ObjectType: np.dot(np.int8([1, 2]), 3) is int64,
// np.dot(np.float32([1, 2]), 3.0) and np.dot(np.float16([1, 2]), 2) are
// float64, np.dot(np.uint8([1]), True) is uint8 — no weak scalars.
func TestNumPyDot(t *testing.T) {
	const (
		b, i8, i16, u8, u64 = dtypes.Bool, dtypes.I8, dtypes.I16, dtypes.U8, dtypes.U64
		f16, f32            = dtypes.F16, dtypes.F32
	)
	for _, name := range []string{"numpy", "numpy1"} {
		p := refsMust(t, name)
		mineBinary(t, p, []mineBin{
			{mineArr(i8), Dot, mineArr(i16), "i16", 0},
			{mineArr(i8), Dot, mineArr(f32), "f32", 0},
			{mineArr(i8), Dot, mineArr(b), "i8", 0},
			{mineArr(i8), Dot, mineArr(u64), "f64", 0},
			{mineArr(u8), Dot, mineArr(u64), "u64", 0},
			{mineArr(f16), Dot, mineArr(i16), "f32", 0},
			{mineArr(f16), Dot, mineArr(b), "f16", 0},
			{mineArr(b), Dot, mineArr(b), "bool", 0},
			{mineArr(i8), Dot, mineLit(p, 3), "i64", 0},
			{mineArr(f32), Dot, mineLit(p, 3.0), "f64", 0},
			{mineArr(f16), Dot, mineLit(p, 2), "f64", 0},
			{mineArr(u8), Dot, mineLit(p, true), "u8", 0},
		})
	}
}

// TestEverydayPolicies pins each policy's rule for the everyday functions,
// with the library source it follows next to its cases.
func TestEverydayPolicies(t *testing.T) {
	const (
		b, i8, i16, i32, i64 = dtypes.Bool, dtypes.I8, dtypes.I16, dtypes.I32, dtypes.I64
		u8, u32, u64         = dtypes.U8, dtypes.U32, dtypes.U64
		f16, bf16, f32, f64  = dtypes.F16, dtypes.BF16, dtypes.F32, dtypes.F64
		c64, c128            = dtypes.C64, dtypes.C128
	)
	jax, jax64 := refsMust(t, "jax"), refsMust(t, "jax64")
	// jax/_src/numpy/reductions.py: _cumulative_reduction promotes only
	// bool (promote_integers is False for cumsum and cumprod);
	// _var_promote_types: to_inexact_dtype for non-inexact operands,
	// _complex_elem_type for complex, computed in _upcast_f16;
	// count_nonzero: sum(a != 0, dtype=dtypes.canonicalize_dtype(int)).
	mineUnary(t, jax, []mineUn{
		{CumSum, mineArr(i8), "i8", i8},
		{CumProd, mineArr(u8), "u8", u8},
		{CumSum, mineArr(b), "i32", i32},
		{CumSum, mineArr(f16), "f16", f16},
		{Var, mineArr(i8), "f32", f32},
		{Var, mineArr(i64), "f32", f32},
		{Std, mineArr(f16), "f16", f32},
		{Var, mineArr(bf16), "bf16", f32},
		{Var, mineArr(c64), "f32", c64},
		{CountNonzero, mineArr(f32), "i32", f32},
	})
	mineUnary(t, jax64, []mineUn{
		{CumSum, mineArr(b), "i64", i64},
		{Var, mineArr(i64), "f64", f64},
		{Var, mineArr(i8), "f32", f32},
		{CountNonzero, mineArr(i8), "i64", i8},
	})
	// jax/_src/numpy/tensor_contractions.py dot: promote_dtypes, weak
	// scalars included, as matmul.
	mineBinary(t, jax, []mineBin{
		{mineArr(i8), Dot, mineArr(i16), "i16", 0},
		{mineArr(i8), Dot, mineLit(jax, 3), "i8", 0},
	})

	torch := refsMust(t, "torch")
	// aten/src/ATen/native/ReduceOps.cpp: cumsum and cumprod of integral
	// or bool inputs give kLong; the CPU kernels scan in acc_type (float
	// for half, double for float: ATen/AccumulateType.h CPU_ACC_TYPE);
	// std_var: "std and var only support floating point and complex
	// dtypes", complex gives toRealValueType; count_nonzero is int64.
	mineUnary(t, torch, []mineUn{
		{CumSum, mineArr(i8), "i64", i64},
		{CumProd, mineArr(b), "i64", i64},
		{CumSum, mineArr(f16), "f16", f32},
		{CumSum, mineArr(f32), "f32", f64},
		{CumProd, mineArr(c64), "c64", c128},
		{CumSum, mineArr(f64), "f64", f64},
		{Var, mineArr(i32), "error@0: std and var only support floating point and complex dtypes", 0},
		{Std, mineArr(bf16), "bf16", f32},
		{Var, mineArr(c128), "f64", c128},
		{CountNonzero, mineArr(f32), "i64", f32},
	})
	// LinearAlgebra.cpp dot_check: 1-D operands of one dtype.
	mineBinary(t, torch, []mineBin{
		{mineArr(f32), Dot, mineArr(f32), "f32", 0},
		{mineArr(i64), Dot, mineArr(f32), "error@-1: dot : expected both vectors to have same dtype, but found Long and Float", 0},
		{Operand{Type: dtypes.Strong(f32), Rank: 2}, Dot, mineArr(f32), "error@-1: 1D tensors expected, but got 2D and 1D tensors", 0},
		{mineArr(f32), Dot, mineLit(torch, 2.0), "error@1: must be Tensor, not float", 0},
	})
	if DefaultDDOF(torch) != 1 || DefaultDDOF(jax) != 0 {
		t.Errorf("DefaultDDOF: torch %d, jax %d; want 1 (correction_opt.value_or(1)) and 0", DefaultDDOF(torch), DefaultDDOF(jax))
	}

	triton := refsMust(t, "triton")
	// python/triton/language/standard.py cumsum: _promote_bfloat16_to_float32,
	// then _pick_sum_dtype (int32/uint32 below 32 bits); cumprod only the
	// bf16 promotion. No var, std or count_nonzero in triton.language.
	mineUnary(t, triton, []mineUn{
		{CumSum, mineArr(i8), "i32", i32},
		{CumSum, mineArr(u8), "u32", u32},
		{CumSum, mineArr(bf16), "f32", f32},
		{CumProd, mineArr(i8), "i8", i8},
		{CumProd, mineArr(bf16), "f32", f32},
		{Var, mineArr(f32), "error@-1: triton.language has no var", 0},
		{CountNonzero, mineArr(f32), "error@-1: triton.language has no count_nonzero", 0},
	})
	mineBinary(t, triton, []mineBin{{Operand{Type: dtypes.Strong(f16), Rank: 2}, Dot, Operand{Type: dtypes.Strong(f16), Rank: 2}, "f32", 0}})

	// max/graph/ops/cumsum.py: rmo.MoCumsumOp with result=x.type; there is
	// no cumprod, var, std, count_nonzero or dot among max.graph.ops.
	mg := refsMust(t, "max-graph")
	mineUnary(t, mg, []mineUn{
		{CumSum, mineArr(i8), "i8", i8},
		{CumProd, mineArr(f32), "error@-1: max.graph.ops has no cumprod", 0},
		{Std, mineArr(f32), "error@-1: max.graph.ops has no std", 0},
	})
	mineBinary(t, mg, []mineBin{{mineArr(f32), Dot, mineArr(f32), "error@-1: max.graph.ops has no dot", 0}})
	// The Mojo graph API of 2024 (max.md §1.5) has none of them.
	mineUnary(t, refsMust(t, "max"), []mineUn{{CumSum, mineArr(f32), "error@-1: the Mojo graph API has no cumsum", 0}})

	// anvil.md §3: cumsum/cumprod keep the operand's dtype and flag.
	anvil := refsMust(t, "anvil")
	mineUnary(t, anvil, []mineUn{
		{CumSum, mineArr(i32), "i32", i32},
		{CumSum, mineWeak(f32), "f32?", f32},
		{Var, mineArr(f32), "error@-1: anvil has no var", 0},
	})

	// The Array API standard: cumulative_sum (2023.12) and cumulative_prod
	// (2024.12) widen small ints to the default integer as sum does; var
	// and std need a real floating-point x and keep its dtype;
	// count_nonzero (2024.12) gives the default index dtype; no dot.
	aa := refsMust(t, "array-api")
	mineUnary(t, aa, []mineUn{
		{CumSum, mineArr(i8), "i64", i64},
		{CumProd, mineArr(u8), "u64", u64},
		{CumSum, mineArr(f32), "f32", f32},
		{CumSum, mineArr(b), "error@0: needs a numeric input", 0},
		{Var, mineArr(i16), "error@0: needs a real floating-point input", 0},
		{Std, mineArr(f64), "f64", f64},
		{CountNonzero, mineArr(b), "i64", b},
	})
	mineBinary(t, aa, []mineBin{{mineArr(f32), Dot, mineArr(f32), "error@-1: the standard has no dot", 0}})

	// The hooks eval asks about the functions' calls (everyday.go).
	for _, name := range Names() {
		p := refsMust(t, name)
		wantInt := name == "numpy" || name == "numpy1"
		if got := CountGivesPythonInt(p); got != wantInt {
			t.Errorf("%s: CountGivesPythonInt = %v, want %v", name, got, wantInt)
		}
		needsAxis := map[string]bool{"array-api": true, "tf": true, "tf-numpy": true, "tf-numpy-safe": true, "julia": true}[name]
		if got := CumulativeNeedsAxis(p); got != needsAxis {
			t.Errorf("%s: CumulativeNeedsAxis = %v", name, got)
		}
		nan, w := NoDOF(p, Std)
		switch name {
		case "jax", "jax64":
			if !nan || w != "" {
				t.Errorf("%s: NoDOF = %v, %q; want NaN without a warning", name, nan, w)
			}
		case "torch":
			if nan || !strings.HasPrefix(w, "UserWarning: std(): degrees of freedom is <= 0") {
				t.Errorf("torch: NoDOF = %v, %q", nan, w)
			}
		case "keras":
			if !nan || w != "" {
				t.Errorf("%s: NoDOF = %v, %q; want NaN without a warning", name, nan, w)
			}
		case "tf", "tf-numpy", "tf-numpy-safe", "mlx", "julia":
			if nan || w != "" {
				t.Errorf("%s: NoDOF = %v, %q; want a division by zero without a warning", name, nan, w)
			}
		default:
			if nan || w != "RuntimeWarning: Degrees of freedom <= 0 for slice" {
				t.Errorf("%s: NoDOF = %v, %q", name, nan, w)
			}
		}
		if got := StdAfterRounding(p); got != (name != "torch") {
			t.Errorf("%s: StdAfterRounding = %v", name, got)
		}
	}
}
