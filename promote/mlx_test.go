package promote

import (
	"testing"

	"github.com/tensorsh/tensorsh/dtypes"
)

// TestMLXRefs checks every cell of testdata/refs/mlx.json, read from MLX's
// source by testdata/refs/gen/mlx_src.py: promote_types (mlx/dtype.cpp
// type_rules), an array meeting a Python scalar (python/src/utils.cpp
// to_arrays, to_array), divide and exp (at_least_float), sum, prod, abs
// and argmax (mlx/ops.cpp at commit fc96f021d7fd3ac34ce25d74e8da07593ea72d3d).
func TestMLXRefs(t *testing.T) {
	p := refsMust(t, "mlx")
	var tally refsTally
	arr := refsAsArray(p, false)
	tally.Add(refsCheckOp(t, t.Errorf, p, Where, "mlx", "pairs", arr, arr, nil))
	tally.Add(refsCheckOp(t, t.Errorf, p, Add, "mlx", "pairs", arr, arr, nil))
	tally.Add(refsCheckOp(t, t.Errorf, p, TrueDiv, "mlx", "divide", arr, arr, nil))
	tally.Add(refsCheck(t, t.Errorf, p, "mlx", "array_scalar", arr, refsAsLiteral(p), nil))
	ops := map[string]UnaryOp{"exp": Exp, "sum": Sum, "prod": Prod, "abs": Abs, "argmax": ArgMax}
	for _, c := range refsTable(t, "mlx", "unary") {
		x, ok := arr(c.LHS)
		op, ok2 := ops[c.RHS]
		if !ok || !ok2 {
			t.Fatalf("mlx unary: cannot map %s", c.Key)
		}
		r, err := p.Unary(op, x)
		refsExpect(&tally, t.Errorf, p, "mlx unary", c, r, err)
	}
	if tally.Checked != 3*14*14+14*9+14*5 {
		t.Errorf("checked %d cells of mlx.json", tally.Checked)
	}
	t.Logf("mlx: %d cells of mlx.json checked, %d mismatches", tally.Checked, tally.Mismatches)
}

// TestMLXRules pins the rest of MLX's rules, each from its source:
//   - python/src/utils.cpp to_array: a Python int on its own is int32, int64
//     outside int32's range; a float is float32; a scalar meeting a scalar
//     is Python arithmetic.
//   - mlx/ops.cpp floor_divide: an integer result is the Divide primitive,
//     C's truncating division; remainder (backend Remainder) takes the
//     divisor's sign.
//   - mlx/ops.cpp mean: sum (int8 accumulates in int32), then times a
//     normalizer of dtype at_least_float.
//   - mlx/ops.cpp negative: "[negative] Not supported for bool".
//   - mlx/ops.cpp matmul: real floating types only.
func TestMLXRules(t *testing.T) {
	p := refsMust(t, "mlx")
	const (
		b, i8, i32, i64, u8 = dtypes.Bool, dtypes.I8, dtypes.I32, dtypes.I64, dtypes.U8
		f16, bf16, f32, c64 = dtypes.F16, dtypes.BF16, dtypes.F32, dtypes.C64
	)
	mineBinary(t, p, []mineBin{
		{mineLit(p, 1), Add, mineLit(p, 2), "i32?", i32},
		{mineLit(p, 1), Add, mineLit(p, 2.5), "f32?", f32},
		{mineArr(u8), Add, mineLit(p, -1), "error@1: Converting -1 to uint8 would result in overflow.", 0},
		{mineArr(bf16), Add, mineLit(p, 2.5), "bf16", bf16},
		{mineArr(i64), Add, mineLit(p, 2.5), "f32", f32},
		{mineArr(b), Add, mineLit(p, 2.5), "f32", f32},
		{mineArr(f16), Add, mineLit(p, complex(0, 1)), "c64", c64},
		{mineArr(i8), FloorDiv, mineArr(i8), "i8", i8},
		{mineArr(i8), Mod, mineArr(i8), "i8", i8},
		{mineArr(f16), FloorDiv, mineArr(f16), "f16", f16},
		{mineArr(i32), MatMul, mineArr(i32), "error@-1: [matmul] Only real floating point types", 0},
		{mineArr(bf16), MatMul, mineArr(f16), "f32", f32},
	})
	if r, _ := p.Binary(FloorDiv, mineArr(i32), mineArr(i32)); !r.CDiv {
		t.Error("mlx: i32 // i32 floors; floor_divide of integers is the truncating Divide")
	}
	if r, _ := p.Binary(Mod, mineArr(i32), mineArr(i32)); r.CDiv {
		t.Error("mlx: i32 % i32 truncates; Remainder takes the divisor's sign")
	}
	if r, _ := p.Binary(FloorDiv, mineArr(f32), mineArr(f32)); r.CDiv {
		t.Error("mlx: f32 // f32 truncates; it is floor(divide(a, b))")
	}
	// to_array: mx::array(nb::cast<float>(*pv), out_t), a Python float is
	// a C float before it becomes an array of the other operand's dtype.
	if r, _ := p.Binary(Add, mineArr(dtypes.F64), mineLit(p, 0.1)); r.FloatVia != f32 {
		t.Errorf("mlx: f64 + 0.1: FloatVia %v, want float32", r.FloatVia)
	}
	if r, _ := p.Binary(Add, mineLit(p, 0.1), mineLit(p, 0.2)); r.FloatVia != dtypes.Invalid {
		t.Errorf("mlx: 0.1 + 0.2 is Python arithmetic, but FloatVia is %v", r.FloatVia)
	}
	if typ, err := p.Literal(Int64Value(1 << 40)); err != nil || typ != dtypes.Weak(i64) {
		t.Errorf("mlx: literal 2**40 is %v, %v; want i64?", typ, err)
	}
	mineUnary(t, p, []mineUn{
		{Mean, mineArr(i8), "f32", i32},
		{Mean, mineArr(b), "f32", i32},
		{Mean, mineArr(i64), "f32", i64},
		{Mean, mineArr(f16), "f16", f16},
		{Prod, mineArr(b), "i32", i32},
		{Neg, mineArr(b), "error@0: [negative] Not supported for bool", 0},
		{Sqrt, mineArr(u8), "f32", f32},
	})
	if _, _, err := p.Check(dtypes.C128); err == nil {
		t.Error("mlx: complex128 accepted; MLX has complex64 only")
	}
}
