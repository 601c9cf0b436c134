package promote

import (
	"strings"
	"testing"

	"github.com/tensorsh/tensorsh/dtypes"
)

// torchRefs checks the torch policy against every cell of refs/torch.json:
// pairs (torch.promote_types), tensors meeting Python scalars
// (tensor_scalar) and tensors meeting 0-dim tensors (tensor_zerodim).
// Cells whose result is complex32 (three: float16 with a complex scalar or
// 0-dim complex tensor) must give c32.
func torchRefs(t testing.TB, report func(string, ...any)) refsTally {
	p := refsMust(t, "torch")
	var n refsTally
	n.Add(refsCheck(t, report, p, "torch", "pairs", refsAsArray(p, false), refsAsArray(p, false), nil))
	n.Add(refsCheck(t, report, p, "torch", "tensor_scalar", refsAsArray(p, false), refsAsLiteral(p), nil))
	n.Add(refsCheck(t, report, p, "torch", "tensor_zerodim", refsAsArray(p, false), refsAsZeroDim, nil))
	return n
}

func TestTorchRefs(t *testing.T) {
	n := torchRefs(t, t.Errorf)
	t.Logf("torch: %d cells checked, %d mismatches", n.Checked, n.Mismatches)
	if n.Checked != 289+170+289 {
		t.Errorf("torch: checked %d cells, want %d", n.Checked, 289+170+289)
	}
}

func TestTorchBinary(t *testing.T) {
	p := refsMust(t, "torch")
	const (
		b, i8, i16, i64, u8, u16 = dtypes.Bool, dtypes.I8, dtypes.I16, dtypes.I64, dtypes.U8, dtypes.U16
		f16, bf16, f32, f64      = dtypes.F16, dtypes.BF16, dtypes.F32, dtypes.F64
		c32, c64, c128, e4       = dtypes.C32, dtypes.C64, dtypes.C128, dtypes.F8E4M3
	)
	one, onef := Int64Value(1), FloatValue(1)
	mineBinary(t, p, []mineBin{
		{mineArr(i8), Add, mineLit(p, 1.5), "f32", f32},
		{mineArr(i8), Add, mineLit(p, 300), "i8", 0},
		{mineArr(i8), Add, mineZero(i64, &one), "i8", 0},
		{mineArr(i8), Add, mineZero(f64, &onef), "f64", 0},
		{mineArr(f16), Add, mineZero(f64, &onef), "f16", 0},
		{mineArr(f64), Add, mineLit(p, 1i), "c128", 0},
		{mineArr(bf16), Add, mineLit(p, 1i), "c64", 0},
		// c10::toComplexType(Half) is ComplexHalf; c10's _promoteTypesLookup
		// row c2 (c10/core/ScalarType.cpp): c2 with f2 or an int is c2,
		// with f4 or bf16 c4, with f8 c8.
		{mineArr(f16), Add, mineLit(p, 1i), "c32", c32},
		{mineArr(f16), Add, mineZero(c128, nil), "c32", c32},
		{mineArr(c32), Add, mineArr(f16), "c32", c32},
		{mineArr(c32), Add, mineArr(i64), "c32", c32},
		{mineArr(c32), Add, mineArr(b), "c32", c32},
		{mineArr(c32), Add, mineArr(f32), "c64", c64},
		{mineArr(bf16), Add, mineArr(c32), "c64", c64},
		{mineArr(c32), Add, mineArr(f64), "c128", c128},
		{mineArr(c32), Add, mineArr(c64), "c64", c64},
		{mineArr(c32), Add, mineLit(p, 1.5), "c32", c32},
		{mineArr(c32), Add, mineZero(c128, nil), "c32", c32},
		{mineArr(c32), Add, mineArr(e4), "error@-1: float8", 0},
		{mineArr(c32), Add, mineArr(u16), "error@-1: uint16, uint32, uint64", 0},
		{mineArr(e4), Add, mineLit(p, 1i), "error@-1: float8", 0},
		{mineArr(u16), Add, mineArr(i8), "error@-1: uint16, uint32, uint64", 0},
		{mineArr(u16), Add, mineArr(f16), "f16", 0},
		{mineArr(e4), Add, mineArr(f32), "error@-1: float8", 0},
		{mineArr(e4), Add, mineArr(e4), "f8e4m3", 0},
		{mineArr(f16), Add, mineArr(bf16), "f32", 0},
		{mineArr(u8), Add, mineArr(i8), "i16", 0},
		{mineArr(f64), Add, mineArr(c64), "c128", 0},
		{mineArr(b), Add, mineLit(p, minePow2(63)), "error@-1: uint16, uint32, uint64", 0},
		{mineArr(i8), Add, mineLit(p, minePow2(64)), "error@1: does not fit", 0},
		{mineArr(i8), TrueDiv, mineArr(i8), "f32", f32},
		{mineArr(b), TrueDiv, mineLit(p, 2), "f32", 0},
		{mineArr(b), Sub, mineArr(i8), "error@-1: subtraction", 0},
		{mineArr(i8), Sub, mineLit(p, true), "error@-1: subtraction", 0},
		{mineArr(i8), Pow, mineLit(p, -1), "error@1: negative integer powers", 0},
		{mineArr(c64), Lt, mineArr(c64), "error@-1: not supported for complex", 0},
		{mineArr(c64), Maximum, mineArr(c128), "error@-1: not supported for complex", 0},
		{mineArr(c64), Eq, mineArr(c128), "bool", c128},
		{mineArr(b), Mod, mineArr(b), "error@-1: not implemented", 0},
		{mineArr(f32), BitOr, mineArr(i8), "error@-1: needs int or bool", 0},
		{mineArr(b), Shl, mineArr(b), "error@-1: not implemented for bool", 0},
		{mineArr(i8), Shl, mineArr(i16), "i16", 0},
		{mineLit(p, 1), Add, mineLit(p, 1.5), "f32?", 0},
		{mineArr(i8), Or, mineArr(f32), "bool", b},
	})
	for _, c := range []struct {
		x, y    Operand
		zeroErr bool
	}{
		{mineArr(i8), mineArr(i8), true},
		{mineArr(f32), mineArr(i8), false},
	} {
		r, err := p.Binary(FloorDiv, c.x, c.y)
		if err != nil || r.ZeroDivError != c.zeroErr || r.CDiv {
			t.Errorf("torch: %s // %s = %+v, %v; want ZeroDivError=%v, floor semantics", c.x.Type, c.y.Type, r, err, c.zeroErr)
		}
	}
}

func TestTorchUnary(t *testing.T) {
	p := refsMust(t, "torch")
	const (
		b, i8, i32, i64, u8, u16 = dtypes.Bool, dtypes.I8, dtypes.I32, dtypes.I64, dtypes.U8, dtypes.U16
		f16, bf16, f32, c64      = dtypes.F16, dtypes.BF16, dtypes.F32, dtypes.C64
	)
	mineUnary(t, p, []mineUn{
		{Exp, mineArr(i32), "f32", f32},
		{Sigmoid, mineArr(b), "f32", 0},
		{Tanh, mineArr(f16), "f16", 0},
		{Gelu, mineArr(c64), "error@0: not implemented for complex", 0},
		{Mean, mineArr(i32), "error@0: mean(): could not infer output dtype", 0},
		{Mean, mineArr(f16), "f16", f32},
		{Sum, mineArr(u8), "i64", i64},
		{Prod, mineArr(u16), "i64", 0},
		{Sum, mineArr(b), "i64", 0},
		{Sum, mineArr(bf16), "bf16", f32},
		{ArgMax, mineArr(f16), "i64", f16},
		{ArgMax, mineArr(c64), "error@0: not supported for complex", 0},
		{Floor, mineArr(i8), "i8", 0},
		{Round, mineArr(c64), "error@0: not supported for complex", 0},
		{Neg, mineArr(b), "error@0: negation", 0},
		{Neg, mineLit(p, 2.5), "f32?", 0},
		{Invert, mineArr(f32), "error@0: needs an int or bool", 0},
		{Not, mineArr(f32), "bool", b},
		{ReduceMax, mineArr(c64), "error@0: not supported for complex", 0},
	})
}

func TestTorchCheckLiteralConvert(t *testing.T) {
	p := refsMust(t, "torch")
	if _, _, err := p.Check(dtypes.TF32); err == nil || !strings.HasPrefix(err.Error(), "torch: no dtype tf32") {
		t.Errorf("torch.Check(tf32) = %v", err)
	}
	for _, c := range []struct {
		v    Scalar
		want string
	}{
		{Int64Value(3), "i64?"}, {IntValue(minePow2(63)), "u64?"}, {FloatValue(1.5), "f32?"},
		{ComplexValue(1i), "c64?"}, {BoolValue(true), "bool?"},
	} {
		if got, err := p.Literal(c.v); err != nil || got.String() != c.want {
			t.Errorf("torch.Literal(%s) = %s, %v; want %s", c.v, got, err, c.want)
		}
	}
	for k, want := range map[ScalarKind]string{IntScalar: "i64", FloatScalar: "f32", ComplexScalar: "c64", BoolScalar: "bool"} {
		if got, err := p.ArrayLiteral(k); err != nil || got.String() != want {
			t.Errorf("torch.ArrayLiteral(%s) = %s, %v; want %s", k, got, err, want)
		}
	}
	mineConvert(t, p, []mineConv{
		{Int64Value(300), dtypes.U8, "out of bounds for uint8"},
		{Int64Value(-1), dtypes.U8, "out of bounds"},
		{Int64Value(255), dtypes.U8, ""},
		{FloatValue(1e300), dtypes.F32, "overflow"},
		{FloatValue(2.5), dtypes.I8, ""},
		{ComplexValue(1i), dtypes.F32, "cannot convert complex"},
	})
}

// TestTorchMatMul pins torch.matmul's refusal to promote, with the message of
// the kernel each rank combination reaches on CPU (aten/src/ATen/native/
// LinearAlgebra.cpp _matmul_impl: dot, mv, mm or bmm; Blas.cpp dot_check and
// the addmv meta function; addmm_impl_cpu_; baddbmm_cpu_kernel's accessor),
// and the dtypes those kernels dispatch on (_AT_DISPATCH_ADDMM_TYPES for mm:
// all types, complex, bfloat16, float16 and float8; dot, addmv and bmm:
// AT_DISPATCH_ALL_TYPES_AND_COMPLEX_AND2(kBFloat16, kHalf)).
func TestTorchMatMul(t *testing.T) {
	p := refsMust(t, "torch")
	const (
		b, u8, u16, i32, i64 = dtypes.Bool, dtypes.U8, dtypes.U16, dtypes.I32, dtypes.I64
		f16, bf16, f32, f64  = dtypes.F16, dtypes.BF16, dtypes.F32, dtypes.F64
		c32, c64, e4         = dtypes.C32, dtypes.C64, dtypes.F8E4M3
	)
	ten := func(d dtypes.DType, rank int) Operand { return Operand{Type: dtypes.Strong(d), Rank: rank} }
	mineBinary(t, p, []mineBin{
		{ten(f32, 2), MatMul, ten(f64, 2), "error@-1: expected m1 and m2 to have the same dtype, but got: float != double", 0},
		{ten(i64, 1), MatMul, ten(f32, 2), "error@-1: expected m1 and m2 to have the same dtype, but got: long int != float", 0},
		{ten(f32, 3), MatMul, ten(f16, 2), "error@-1: expected m1 and m2 to have the same dtype, but got: float != c10::Half", 0},
		{ten(f32, 2), MatMul, ten(bf16, 2), "error@-1: but got: float != c10::BFloat16", 0},
		{ten(f32, 1), MatMul, ten(f64, 1), "error@-1: dot : expected both vectors to have same dtype, but found Float and Double", 0},
		{ten(f32, 2), MatMul, ten(f64, 1), "error@-1: addmv input tensors must have the same dtype, but got Double, Float, and Double", 0},
		{ten(i32, 3), MatMul, ten(i64, 1), "error@-1: addmv input tensors must have the same dtype, but got Long, Int, and Long", 0},
		{ten(f32, 3), MatMul, ten(f64, 3), "error@-1: expected scalar type Float but found Double", 0},
		{ten(f32, 2), MatMul, ten(f64, 3), "error@-1: expected scalar type Float but found Double", 0},
		{ten(f32, 2), MatMul, ten(f64, 3), "error@-1: torch.matmul does not promote", 0},
		{ten(f32, 2), MatMul, mineLit(p, 2), "error@-1: unsupported operand type(s) for @: 'Tensor' and 'int'", 0},
		{mineLit(p, 1.5), MatMul, ten(f32, 2), "error@-1: unsupported operand type(s) for @: 'float' and 'Tensor'", 0},
		{ten(f32, 0), MatMul, ten(f32, 1), "error@-1: both arguments to matmul need to be at least 1D, but they are 0D and 1D", 0},
		{ten(i64, 2), MatMul, ten(i64, 2), "i64", i64},
		{ten(u8, 1), MatMul, ten(u8, 1), "u8", u8},
		{ten(f16, 2), MatMul, ten(f16, 1), "f16", f16},
		{ten(c64, 3), MatMul, ten(c64, 3), "c64", c64},
		{ten(e4, 2), MatMul, ten(e4, 2), "f8e4m3", e4},
		{ten(e4, 1), MatMul, ten(e4, 1), `error@-1: "dot" not implemented for 'Float8_e4m3fn'`, 0},
		{ten(b, 2), MatMul, ten(b, 2), `error@-1: "addmm_impl_cpu_" not implemented for 'Bool'`, 0},
		{ten(b, 1), MatMul, ten(b, 1), `error@-1: "dot" not implemented for 'Bool'`, 0},
		{ten(b, 2), MatMul, ten(b, 1), `error@-1: "addmv_impl_cpu" not implemented for 'Bool'`, 0},
		{ten(b, 3), MatMul, ten(b, 3), `error@-1: "bmm" not implemented for 'Bool'`, 0},
		{ten(u16, 2), MatMul, ten(u16, 2), `error@-1: "addmm_impl_cpu_" not implemented for 'UInt16'`, 0},
		{ten(c32, 2), MatMul, ten(c32, 2), `error@-1: "addmm_impl_cpu_" not implemented for 'ComplexHalf'`, 0},
	})
}

// TestTorchComplexHalfOps pins which operations the torch policy computes
// for complex32: the ones PyTorch has ComplexHalf CPU kernels for (ufunc
// add, mul_kernel, neg_kernel, abs_kernel, comparisons), and torch's
// "not implemented for 'ComplexHalf'" for div (div_true_kernel) and pow
// (pow_tensor_tensor_kernel), whose dispatch lists leave it out.
func TestTorchComplexHalfOps(t *testing.T) {
	p := refsMust(t, "torch")
	c32, f16 := dtypes.C32, dtypes.F16
	mineBinary(t, p, []mineBin{
		{mineArr(c32), Add, mineArr(c32), "c32", c32},
		{mineArr(c32), Sub, mineArr(f16), "c32", c32},
		{mineArr(c32), Mul, mineLit(p, 2), "c32", c32},
		{mineArr(c32), Eq, mineArr(c32), "bool", c32},
		{mineArr(c32), TrueDiv, mineArr(c32), `error@-1: "div_cpu" not implemented for 'ComplexHalf'`, 0},
		{mineArr(c32), Pow, mineArr(c32), `error@-1: "pow" not implemented for 'ComplexHalf'`, 0},
		{mineArr(c32), Lt, mineArr(c32), "error@-1: not supported", 0},
		{mineArr(c32), Where, mineArr(c32), "c32", c32},
		{mineArr(c32), And, mineArr(c32), `error@-1: "logical_and_cpu" not implemented for 'ComplexHalf'`, 0},
	})
	mineUnary(t, p, []mineUn{
		{Neg, mineArr(c32), "c32", c32},
		{Abs, mineArr(c32), "f16", c32},
		{Exp, mineArr(c32), `error@0: "exp_vml_cpu" not implemented for 'ComplexHalf'`, 0},
		{Sum, mineArr(c32), "error@0: sum of torch.complex32 is not supported", 0},
	})
}
