package promote

import (
	"math/big"
	"strings"
	"testing"

	"github.com/tensorsh/tensorsh/dtypes"
)

// TestCRefs checks every cell of testdata/refs/c.json, the types GCC 12
// gives C expressions on x86-64 (made by testdata/refs/gen/c_gcc.py with
// _Generic): x + y, c ? x : y, x % y and x << y for every pair of types,
// an array element plus a constant, and exp (<tgmath.h>), - and ~.
func TestCRefs(t *testing.T) {
	p := refsMust(t, "c")
	var tally refsTally
	arr := refsAsArray(p, false)
	for _, tc := range []struct {
		table string
		op    BinaryOp
	}{{"pairs", Add}, {"where", Where}, {"mod", Mod}, {"shl", Shl}} {
		tally.Add(refsCheckOp(t, t.Errorf, p, tc.op, "c", tc.table, arr, arr, nil))
	}
	tally.Add(refsCheck(t, t.Errorf, p, "c", "array_constant", arr, refsAsLiteral(p), nil))
	ops := map[string]UnaryOp{"exp": Exp, "neg": Neg, "not": Invert}
	for _, c := range refsTable(t, "c", "unary") {
		x, ok := arr(c.LHS)
		op, ok2 := ops[c.RHS]
		if !ok || !ok2 {
			t.Fatalf("c unary: cannot map %s", c.Key)
		}
		r, err := p.Unary(op, x)
		refsExpect(&tally, t.Errorf, p, "c unary", c, r, err)
	}
	if tally.Checked != 4*14*14+14*5+14*3 {
		t.Errorf("checked %d cells of c.json", tally.Checked)
	}
	t.Logf("c: %d cells of c.json checked, %d mismatches", tally.Checked, tally.Mismatches)
}

// TestCExtendedFloats pins the rules for __bf16, which GCC 12 lacks.
// Clang's LanguageExtensions.rst, "Half-Precision Floating Point":
// "_Float16 and __bf16 follow the usual rules for arithmetic floating-point
// types ... arithmetic operations on operands of these types are formally
// performed in the type and produce values of the type." Neither holds the
// other's values, so they have no common type, which GCC 13 reports as
// "invalid operands to binary +".
func TestCExtendedFloats(t *testing.T) {
	p := refsMust(t, "c")
	for _, tc := range []struct{ a, b, want string }{
		{"bf16", "bf16", "bf16"},
		{"bf16", "i8", "bf16"},
		{"bf16", "u64", "bf16"},
		{"bf16", "f32", "f32"},
		{"bf16", "f64", "f64"},
		{"bf16", "c64", "c64"},
		{"bf16", "f16", "error"},
		{"f16", "i64", "f16"},
	} {
		a, _ := dtypes.Parse(tc.a)
		b, _ := dtypes.Parse(tc.b)
		for _, ab := range [][2]dtypes.DType{{a, b}, {b, a}} {
			r, err := p.Binary(Add, mineArr(ab[0]), mineArr(ab[1]))
			got := r.Type.String()
			if err != nil {
				got = "error"
			}
			if got != tc.want {
				t.Errorf("%s + %s = %s (%v), want %s", ab[0], ab[1], got, err, tc.want)
			}
		}
	}
	if _, err := p.Unary(Exp, mineArr(dtypes.BF16)); err == nil {
		t.Error("exp of __bf16 answers; <tgmath.h> has no __bf16 functions")
	}
}

// TestCDivisionAndOverflow pins C17 §6.5.5 (integer / truncates, % takes
// the dividend's sign; a zero divisor is undefined) and §6.5p5 (signed
// overflow is undefined; unsigned arithmetic wraps, §6.2.5p9).
func TestCDivisionAndOverflow(t *testing.T) {
	p := refsMust(t, "c")
	lit := func(v int64) Operand {
		s := Int64Value(v)
		return Operand{Type: dtypes.Strong(dtypes.I32), Literal: true, Value: &s}
	}
	for _, op := range []BinaryOp{TrueDiv, FloorDiv, Mod} {
		r, err := p.Binary(op, mineArr(dtypes.I16), mineArr(dtypes.I8))
		if err != nil || r.Type != dtypes.Strong(dtypes.I32) || !r.CDiv || !r.ZeroDivError {
			t.Errorf("i16 %s i8 = %v (CDiv %v, ZeroDivError %v), %v; want a truncating i32", op, r.Type, r.CDiv, r.ZeroDivError, err)
		}
	}
	if r, err := p.Binary(TrueDiv, mineArr(dtypes.F32), mineArr(dtypes.I64)); err != nil || r.Type != dtypes.Strong(dtypes.F32) || r.CDiv {
		t.Errorf("f32 / i64 = %v (CDiv %v), %v; want a true f32 division", r.Type, r.CDiv, err)
	}
	if _, err := p.Binary(FloorDiv, mineArr(dtypes.F32), mineArr(dtypes.F32)); err == nil {
		t.Error("f32 // f32 answers; C has no floor division")
	}
	for _, tc := range []struct {
		op   BinaryOp
		a, b int64
		ub   bool
	}{
		{Add, 2147483647, 1, true},
		{Add, 2147483646, 1, false},
		{Mul, 65536, 65536, true},
		{Sub, -2147483648, 1, true}, // -2147483648 is a long: no overflow
		{FloorDiv, 7, 0, true},
		{Mod, 7, 0, true},
		{FloorDiv, -7, 2, false},
	} {
		x, y := lit(tc.a), lit(tc.b)
		_, err := p.Binary(tc.op, x, y)
		want := tc.ub && !(tc.a == -2147483648)
		if (err != nil) != want {
			t.Errorf("%d %s %d: error %v, want undefined behavior %v", tc.a, tc.op, tc.b, err, want)
		}
		if err != nil && !strings.Contains(err.Error(), "undefined behavior") {
			t.Errorf("%d %s %d: error %q does not say undefined behavior", tc.a, tc.op, tc.b, err)
		}
	}
	// Unsigned arithmetic wraps: no error for known unsigned values.
	u := Int64Value(4294967295)
	one := Int64Value(1)
	if _, err := p.Binary(Add, Operand{Type: dtypes.Strong(dtypes.U32), Value: &u}, Operand{Type: dtypes.Strong(dtypes.U32), Value: &one}); err != nil {
		t.Errorf("u32 4294967295 + 1: %v, want it to wrap", err)
	}
	// §6.4.4.1: a decimal constant is the first of int, long that holds it;
	// GCC makes a larger one unsigned long with a warning.
	for _, tc := range []struct {
		v    *big.Int
		want string
	}{
		{big.NewInt(2147483647), "i32"},
		{big.NewInt(2147483648), "i64"},
		{big.NewInt(-2147483648), "i64"},
		{new(big.Int).Lsh(big.NewInt(1), 63), "u64"},
		{new(big.Int).Lsh(big.NewInt(1), 64), "error"},
	} {
		typ, err := p.Literal(IntValue(tc.v))
		got := typ.String()
		if err != nil {
			got = "error"
		}
		if got != tc.want {
			t.Errorf("constant %s: %s (%v), want %s", tc.v, got, err, tc.want)
		}
	}
}

// TestCComparisons pins C17 §6.5.8 and §6.5.9 (relational and equality
// operators: "The result has type int", 1 or 0, after the usual arithmetic
// conversions), §6.5.13, §6.5.14 (&& and || give an int too) and §6.5.3.3
// (so does !).
func TestCComparisons(t *testing.T) {
	p := refsMust(t, "c")
	mineBinary(t, p, []mineBin{
		{mineArr(dtypes.I8), Lt, mineArr(dtypes.U8), "i32", dtypes.I32},
		{mineArr(dtypes.I32), Lt, mineArr(dtypes.U32), "i32", dtypes.U32},
		{mineArr(dtypes.F32), Eq, mineArr(dtypes.F64), "i32", dtypes.F64},
		{mineArr(dtypes.F32), And, mineArr(dtypes.I8), "i32", dtypes.Bool},
		{mineArr(dtypes.C64), Lt, mineArr(dtypes.C64), "error@-1: invalid operands to binary <", 0},
	})
	// §6.5.3.3: "The result of the logical negation operator ! is 0 if the
	// value of its operand compares unequal to 0, 1 if ... equal to 0. The
	// result has type int."
	mineUnary(t, p, []mineUn{{Not, mineArr(dtypes.F32), "i32", dtypes.F32}})
}

// TestCReductions pins the loop model of sum, mean and argmax.
func TestCReductions(t *testing.T) {
	mineUnary(t, refsMust(t, "c"), []mineUn{
		{Sum, mineArr(dtypes.I8), "i32", dtypes.I32},
		{Sum, mineArr(dtypes.U32), "u32", dtypes.U32},
		{Prod, mineArr(dtypes.F16), "f16", dtypes.F16},
		{Mean, mineArr(dtypes.I16), "f64", dtypes.I32},
		{ArgMax, mineArr(dtypes.F32), "u64", dtypes.F32},
	})
}
