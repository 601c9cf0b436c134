package promote

import (
	"testing"

	"github.com/tensorsh/tensorsh/dtypes"
)

// TestJuliaRefs checks every cell of testdata/refs/julia.json, derived by
// testdata/refs/gen/julia_src.py from the promote_rule methods of Julia's
// base/int.jl, base/float.jl, base/bool.jl and base/complex.jl with the
// promote_type algorithm of base/promotion.jl: promote_type, broadcast +,
// /, an array plus a (strong) literal, sum (base/reduce.jl add_sum) and
// exp.
func TestJuliaRefs(t *testing.T) {
	p := refsMust(t, "julia")
	var tally refsTally
	arr := refsAsArray(p, false)
	tally.Add(refsCheckOp(t, t.Errorf, p, Where, "julia", "pairs", arr, arr, nil))
	tally.Add(refsCheckOp(t, t.Errorf, p, Add, "julia", "add", arr, arr, nil))
	tally.Add(refsCheckOp(t, t.Errorf, p, TrueDiv, "julia", "divide", arr, arr, nil))
	tally.Add(refsCheck(t, t.Errorf, p, "julia", "array_literal", arr, refsAsLiteral(p), func(c refsCell, r Result, err error) string {
		if err == nil && r.Type.Weak {
			return "a Julia literal is not weak"
		}
		return ""
	}))
	ops := map[string]UnaryOp{"exp": Exp, "sum": Sum}
	for _, c := range refsTable(t, "julia", "unary") {
		x, ok := arr(c.LHS)
		op, ok2 := ops[c.RHS]
		if !ok || !ok2 {
			t.Fatalf("julia unary: cannot map %s", c.Key)
		}
		r, err := p.Unary(op, x)
		refsExpect(&tally, t.Errorf, p, "julia unary", c, r, err)
	}
	if tally.Checked != 3*14*14+14*4+14*2 {
		t.Errorf("checked %d cells of julia.json", tally.Checked)
	}
	t.Logf("julia: %d cells of julia.json checked, %d mismatches", tally.Checked, tally.Mismatches)
}

// TestJuliaRules pins Julia's other rules, each from Base:
//   - bool.jl: +(x::Bool) = Int(x), -(x::Bool) = -Int(x); Bool * Bool is
//     Bool (x & y).
//   - int.jl: div (÷) and rem truncate (tensorsh's // and %), and a zero
//     divisor throws DivideError.
//   - int.jl: a shift keeps the type of the shifted value.
//   - reduce.jl mul_prod widens small integers; Statistics.mean of integers
//     is Float64; argmax is an Int index; any and all need Bools.
//   - matmul.jl: a product of Bool matrices sums Bool products, Int64.
func TestJuliaRules(t *testing.T) {
	p := refsMust(t, "julia")
	const (
		b, i8, i16, i64, u8, u64 = dtypes.Bool, dtypes.I8, dtypes.I16, dtypes.I64, dtypes.U8, dtypes.U64
		f16, f32, f64, c64       = dtypes.F16, dtypes.F32, dtypes.F64, dtypes.C64
	)
	mineBinary(t, p, []mineBin{
		{mineArr(b), Mul, mineArr(b), "bool", b},
		{mineArr(b), Sub, mineArr(b), "i64", i64},
		{mineArr(i8), Shl, mineArr(i64), "i8", i8},
		{mineArr(b), Shl, mineArr(i8), "i64", i64},
		{mineArr(b), MatMul, mineArr(b), "i64", i64},
		{mineArr(i8), MatMul, mineArr(i8), "i8", i8},
		{mineArr(f32), Add, mineLit(p, 2.0), "f64", f64},
		{mineArr(f32), Add, mineLit(p, 2), "f32", f32},
		{mineArr(i8), And, mineArr(i8), "error@-1: TypeError: non-boolean", 0},
		{mineArr(c64), Lt, mineArr(c64), "error@-1: MethodError: no method matching isless", 0},
		{mineArr(f32), BitAnd, mineArr(f32), "error@-1: MethodError", 0},
	})
	for _, op := range []BinaryOp{FloorDiv, Mod} {
		r, err := p.Binary(op, mineArr(i16), mineArr(u8))
		if err != nil || r.Type != dtypes.Strong(i16) || !r.CDiv || !r.ZeroDivError {
			t.Errorf("julia: i16 %s u8 = %v (CDiv %v, ZeroDivError %v), %v", op, r.Type, r.CDiv, r.ZeroDivError, err)
		}
		if r, err := p.Binary(op, mineArr(f16), mineArr(f16)); err != nil || !r.CDiv || r.ZeroDivError {
			t.Errorf("julia: f16 %s f16: CDiv %v ZeroDivError %v, %v; want truncating float div/rem", op, r.CDiv, r.ZeroDivError, err)
		}
	}
	mineUnary(t, p, []mineUn{
		{Neg, mineArr(b), "i64", i64},
		{Pos, mineArr(b), "i64", i64},
		{Abs, mineArr(c64), "f32", c64},
		{Prod, mineArr(u8), "u64", u64},
		{Prod, mineArr(b), "bool", b},
		{Mean, mineArr(i8), "f64", f64},
		{Mean, mineArr(f16), "f16", f16},
		{ArgMax, mineArr(f32), "i64", f32},
		{Any, mineArr(i8), "error@0: TypeError: non-boolean (Int8) used in boolean context", 0},
		{Not, mineArr(i8), "error@0: MethodError", 0},
	})
	if _, _, err := p.Check(dtypes.BF16); err == nil {
		t.Error("julia: bfloat16 accepted; Base has no BFloat16 arithmetic")
	}
	if err := p.Convert(Int64Value(300), i8); err == nil {
		t.Error("julia: Int8(300) converts; Julia throws InexactError")
	}
	if err := p.Convert(FloatValue(1.5), i8); err == nil {
		t.Error("julia: Int8(1.5) converts; Julia throws InexactError")
	}
	if err := p.Convert(FloatValue(-128), i8); err != nil {
		t.Errorf("julia: Int8(-128.0): %v", err)
	}
}
