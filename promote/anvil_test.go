package promote

import (
	"errors"
	"math/big"
	"strings"
	"testing"

	"github.com/tensorsh/tensorsh/dtypes"
)

// The four tables of research/anvil.md §1 (row op column; a trailing ? marks
// an ambiguous result), transcribed as written.
const (
	anvilKK = `
| lhs \ rhs | bool | i8 | i16 | i32 | i64 | ui8 | ui16 | ui32 | ui64 | f32 | f64 |
|---|---|---|---|---|---|---|---|---|---|---|---|
| **bool** | bool | i8 | i16 | i32 | i64 | ui8 | ui16 | ui32 | ui64 | f32 | f64 |
| **i8** | i8 | i8 | i16 | i32 | i64 | i16 | i32 | i64 | i64 | f32 | f64 |
| **i16** | i16 | i16 | i16 | i32 | i64 | i16 | i32 | i64 | i64 | f32 | f64 |
| **i32** | i32 | i32 | i32 | i32 | i64 | i32 | i32 | i64 | i64 | f32 | f64 |
| **i64** | i64 | i64 | i64 | i64 | i64 | i64 | i64 | i64 | i64 | f32 | f64 |
| **ui8** | ui8 | i16 | i16 | i32 | i64 | ui8 | ui16 | ui32 | ui64 | f32 | f64 |
| **ui16** | ui16 | i32 | i32 | i32 | i64 | ui16 | ui16 | ui32 | ui64 | f32 | f64 |
| **ui32** | ui32 | i64 | i64 | i64 | i64 | ui32 | ui32 | ui32 | ui64 | f32 | f64 |
| **ui64** | ui64 | i64 | i64 | i64 | i64 | ui64 | ui64 | ui64 | ui64 | f32 | f64 |
| **f32** | f32 | f32 | f32 | f32 | f32 | f32 | f32 | f32 | f32 | f32 | f64 |
| **f64** | f64 | f64 | f64 | f64 | f64 | f64 | f64 | f64 | f64 | f64 | f64 |
`
	anvilAK = `
| lhs \ rhs | bool | i8 | i16 | i32 | i64 | ui8 | ui16 | ui32 | ui64 | f32 | f64 |
|---|---|---|---|---|---|---|---|---|---|---|---|
| **bool?** | bool | i8 | i16 | i32 | i64 | ui8 | ui16 | ui32 | ui64 | f32 | f64 |
| **i8?** | i8? | i8 | i16 | i32 | i64 | ui8 | ui16 | ui32 | ui64 | f32 | f64 |
| **i16?** | i16? | i8 | i16 | i32 | i64 | ui8 | ui16 | ui32 | ui64 | f32 | f64 |
| **i32?** | i32? | i8 | i16 | i32 | i64 | ui8 | ui16 | ui32 | ui64 | f32 | f64 |
| **i64?** | i64? | i8 | i16 | i32 | i64 | ui8 | ui16 | ui32 | ui64 | f32 | f64 |
| **ui8?** | ui8? | i8 | i16 | i32 | i64 | ui8 | ui16 | ui32 | ui64 | f32 | f64 |
| **ui16?** | ui16? | i8 | i16 | i32 | i64 | ui8 | ui16 | ui32 | ui64 | f32 | f64 |
| **ui32?** | ui32? | i8 | i16 | i32 | i64 | ui8 | ui16 | ui32 | ui64 | f32 | f64 |
| **ui64?** | ui64? | i8 | i16 | i32 | i64 | ui8 | ui16 | ui32 | ui64 | f32 | f64 |
| **f32?** | f32? | f32? | f32? | f32? | f32? | f32? | f32? | f32? | f32? | f32 | f64 |
| **f64?** | f64? | f64? | f64? | f64? | f64? | f64? | f64? | f64? | f64? | f32 | f64 |
`
	anvilKA = `
| lhs \ rhs | bool? | i8? | i16? | i32? | i64? | ui8? | ui16? | ui32? | ui64? | f32? | f64? |
|---|---|---|---|---|---|---|---|---|---|---|---|
| **bool** | bool | i8? | i16? | i32? | i64? | ui8? | ui16? | ui32? | ui64? | f32? | f64? |
| **i8** | i8 | i8 | i8 | i8 | i8 | i8 | i8 | i8 | i8 | f32? | f64? |
| **i16** | i16 | i16 | i16 | i16 | i16 | i16 | i16 | i16 | i16 | f32? | f64? |
| **i32** | i32 | i32 | i32 | i32 | i32 | i32 | i32 | i32 | i32 | f32? | f64? |
| **i64** | i64 | i64 | i64 | i64 | i64 | i64 | i64 | i64 | i64 | f32? | f64? |
| **ui8** | ui8 | ui8 | ui8 | ui8 | ui8 | ui8 | ui8 | ui8 | ui8 | f32? | f64? |
| **ui16** | ui16 | ui16 | ui16 | ui16 | ui16 | ui16 | ui16 | ui16 | ui16 | f32? | f64? |
| **ui32** | ui32 | ui32 | ui32 | ui32 | ui32 | ui32 | ui32 | ui32 | ui32 | f32? | f64? |
| **ui64** | ui64 | ui64 | ui64 | ui64 | ui64 | ui64 | ui64 | ui64 | ui64 | f32? | f64? |
| **f32** | f32 | f32 | f32 | f32 | f32 | f32 | f32 | f32 | f32 | f32 | f32 |
| **f64** | f64 | f64 | f64 | f64 | f64 | f64 | f64 | f64 | f64 | f64 | f64 |
`
	anvilAA = `
| lhs \ rhs | bool? | i8? | i16? | i32? | i64? | ui8? | ui16? | ui32? | ui64? | f32? | f64? |
|---|---|---|---|---|---|---|---|---|---|---|---|
| **bool?** | bool? | i8? | i16? | i32? | i64? | ui8? | ui16? | ui32? | ui64? | f32? | f64? |
| **i8?** | i8? | i8? | i16? | i32? | i64? | i16? | i32? | i64? | i64? | f32? | f64? |
| **i16?** | i16? | i16? | i16? | i32? | i64? | i16? | i32? | i64? | i64? | f32? | f64? |
| **i32?** | i32? | i32? | i32? | i32? | i64? | i32? | i32? | i64? | i64? | f32? | f64? |
| **i64?** | i64? | i64? | i64? | i64? | i64? | i64? | i64? | i64? | i64? | f32? | f64? |
| **ui8?** | ui8? | i16? | i16? | i32? | i64? | ui8? | ui16? | ui32? | ui64? | f32? | f64? |
| **ui16?** | ui16? | i32? | i32? | i32? | i64? | ui16? | ui16? | ui32? | ui64? | f32? | f64? |
| **ui32?** | ui32? | i64? | i64? | i64? | i64? | ui32? | ui32? | ui32? | ui64? | f32? | f64? |
| **ui64?** | ui64? | i64? | i64? | i64? | i64? | ui64? | ui64? | ui64? | ui64? | f32? | f64? |
| **f32?** | f32? | f32? | f32? | f32? | f32? | f32? | f32? | f32? | f32? | f32? | f64? |
| **f64?** | f64? | f64? | f64? | f64? | f64? | f64? | f64? | f64? | f64? | f64? | f64? |
`
)

func anvilTensor(d dtypes.DType, weak bool) Operand {
	return Operand{Type: dtypes.Type{DType: d, Weak: weak}, Rank: 1}
}

func TestAnvilTables(t *testing.T) {
	p := tritonMustPolicy(t, "anvil")
	checked, bad := 0, 0
	for _, tab := range []struct {
		name       string
		text       string
		xWeak, yWk bool
	}{
		{"KK", anvilKK, false, false},
		{"AK", anvilAK, true, false},
		{"KA", anvilKA, false, true},
		{"AA", anvilAA, true, true},
	} {
		rows, cols, cells := maxParseTable(t, tab.text, nil)
		if len(rows) != 11 || len(cols) != 11 {
			t.Fatalf("%s is %d×%d, want 11×11", tab.name, len(rows), len(cols))
		}
		for i, a := range rows {
			for j, b := range cols {
				want, err := dtypes.ParseType(cells[i][j])
				if err != nil {
					t.Fatal(err)
				}
				x, y := anvilTensor(a, tab.xWeak), anvilTensor(b, tab.yWk)
				for _, op := range []BinaryOp{Add, Mul, Maximum, Where} {
					r, err := p.Binary(op, x, y)
					checked++
					if err != nil || r.Type != want || r.Compute != want.DType || r.Rule == "" {
						bad++
						t.Errorf("anvil %s: %v %s %v = %v %v, want %v", tab.name, x.Type, op, y.Type, r.Type, err, want)
					}
				}
				// A comparison's bool is ambiguous iff the promoted pair is.
				r, err := p.Binary(Lt, x, y)
				checked++
				if err != nil || r.Type != (dtypes.Type{DType: dtypes.Bool, Weak: want.Weak}) || r.Compute != want.DType {
					bad++
					t.Errorf("anvil %s: %v < %v = %v (compute %s) %v, want bool with flag %v", tab.name, x.Type, y.Type, r.Type, r.Compute, err, want.Weak)
				}
			}
		}
	}
	t.Logf("anvil: %d cells checked, %d mismatches", checked, bad)
}

// TestAnvilLaws checks the properties research/anvil.md verified with its
// translation: the four tables are symmetric, promote_dt_known is
// associative, and a left fold over three operands with any flags does not
// depend on their order.
func TestAnvilLaws(t *testing.T) {
	checked, bad := 0, 0
	flags := []bool{false, true}
	var types []dtypes.Type
	for _, d := range anvilDTypes {
		for _, f := range flags {
			types = append(types, dtypes.Type{DType: d, Weak: f})
		}
	}
	for _, a := range types {
		for _, b := range types {
			ab, _ := anvilCommon(a, b)
			ba, _ := anvilCommon(b, a)
			checked++
			if ab != ba {
				bad++
				t.Errorf("common(%v, %v) = %v but swapped %v", a, b, ab, ba)
			}
			for _, c := range types {
				if !a.Weak && !b.Weak && !c.Weak {
					l, _ := anvilCommon(ab, c)
					bc, _ := anvilCommon(b, c)
					r, _ := anvilCommon(a, bc)
					checked++
					if l != r {
						bad++
						t.Errorf("promote_dt_known is not associative for %v, %v, %v: %v vs %v", a, b, c, l, r)
					}
				}
				fold := func(x, y, z dtypes.Type) dtypes.Type {
					xy, _ := anvilCommon(x, y)
					xyz, _ := anvilCommon(xy, z)
					return xyz
				}
				want := fold(a, b, c)
				for _, perm := range [][3]dtypes.Type{{a, c, b}, {b, a, c}, {b, c, a}, {c, a, b}, {c, b, a}} {
					checked++
					if got := fold(perm[0], perm[1], perm[2]); got != want {
						bad++
						t.Errorf("fold(%v) = %v, but fold(%v, %v, %v) = %v", perm, got, a, b, c, want)
					}
				}
			}
		}
	}
	t.Logf("anvil: %d cells checked, %d mismatches (laws)", checked, bad)
}

func TestAnvilExamples(t *testing.T) {
	p := tritonMustPolicy(t, "anvil")
	lit := func(v Scalar) Operand { return tritonLit(t, p, v) }
	K := func(d dtypes.DType) Operand { return anvilTensor(d, false) }
	A := func(d dtypes.DType) Operand { return anvilTensor(d, true) }
	S, W := dtypes.Strong, dtypes.Weak
	tritonRunCases(t, p, []tritonCase{
		// TOUR.md
		{name: "i32([1, 2]) < 1.5", op: Lt, x: K(dtypes.I32), y: lit(tritonFloat(1.5)), want: W(dtypes.Bool)},
		{name: "i8([100]) + 1.5", op: Add, x: K(dtypes.I8), y: lit(tritonFloat(1.5)), want: W(dtypes.F32)},
		// vignette: z <- TRUE * 1L is i32? by rule (b); z * i16 is i16
		{name: "TRUE * 1L", op: Mul, x: lit(BoolValue(true)), y: lit(tritonInt(1)), want: W(dtypes.I32)},
		{name: "bool * 1L", op: Mul, x: K(dtypes.Bool), y: lit(tritonInt(1)), want: W(dtypes.I32)},
		{name: "z(i32?) * i16", op: Mul, x: A(dtypes.I32), y: K(dtypes.I16), want: S(dtypes.I16)},
		// test-literals.R
		{name: "x_i16 * 2L", op: Mul, x: K(dtypes.I16), y: lit(tritonInt(2)), want: S(dtypes.I16)},
		{name: "nv_mul(2, 3)", op: Mul, x: lit(tritonFloat(2)), y: lit(tritonFloat(3)), want: W(dtypes.F32)},
		{name: "nv_mul(2, x_f64)", op: Mul, x: lit(tritonFloat(2)), y: K(dtypes.F64), want: S(dtypes.F64)},
		{name: "x_f32 * 2", op: Mul, x: K(dtypes.F32), y: lit(tritonFloat(2)), want: S(dtypes.F32)},
		{name: "x_bool == TRUE", op: Eq, x: K(dtypes.Bool), y: lit(BoolValue(true)), want: S(dtypes.Bool)},
		// test-ambiguity.R
		{name: "f32? + f32?", op: Add, x: A(dtypes.F32), y: A(dtypes.F32), want: W(dtypes.F32)},
		{name: "f32 + f32?", op: Add, x: K(dtypes.F32), y: A(dtypes.F32), want: S(dtypes.F32)},
		// test-promotion-rules.R
		{name: "ui32, i32", op: Add, x: K(dtypes.U32), y: K(dtypes.I32), want: S(dtypes.I64)},
		{name: "f32? + i32", op: Add, x: A(dtypes.F32), y: K(dtypes.I32), want: W(dtypes.F32)},
		{name: "i32? + f32", op: Add, x: A(dtypes.I32), y: K(dtypes.F32), want: S(dtypes.F32)},
		{name: "i32? + i32", op: Add, x: A(dtypes.I32), y: K(dtypes.I32), want: S(dtypes.I32)},
		{name: "i32? + i64", op: Add, x: A(dtypes.I32), y: K(dtypes.I64), want: S(dtypes.I64)},
		{name: "i64? + i8 narrows", op: Add, x: A(dtypes.I64), y: K(dtypes.I8), want: S(dtypes.I8)},
		{name: "f64? + f32 narrows", op: Add, x: A(dtypes.F64), y: K(dtypes.F32), want: S(dtypes.F32)},
		{name: "i64 + ui64 is i64", op: Add, x: K(dtypes.I64), y: K(dtypes.U64), want: S(dtypes.I64)},
		{name: "x_i8 + 300L wraps", op: Add, x: K(dtypes.I8), y: lit(tritonInt(300)), want: S(dtypes.I8)},
		{name: "x_ui8 + -1L wraps", op: Add, x: K(dtypes.U8), y: lit(tritonInt(-1)), want: S(dtypes.U8)},
		// operators
		{name: "i32 / i32 truncates", op: TrueDiv, x: K(dtypes.I32), y: K(dtypes.I32), want: S(dtypes.I32), cdiv: true},
		{name: "i16 / 2L", op: TrueDiv, x: K(dtypes.I16), y: lit(tritonInt(2)), want: S(dtypes.I16), cdiv: true},
		{name: "i32 / 2.0 is f32?", op: TrueDiv, x: K(dtypes.I32), y: lit(tritonFloat(2)), want: W(dtypes.F32)},
		{name: "5L / 2L in R is a double", op: TrueDiv, x: lit(tritonInt(5)), y: lit(tritonInt(2)), want: W(dtypes.F32)},
		{name: "i32 % i32 is floored", op: Mod, x: K(dtypes.I32), y: K(dtypes.I32), want: S(dtypes.I32)},
		{name: "i32 // i32", op: FloorDiv, x: K(dtypes.I32), y: K(dtypes.I32), wantErr: "no %/% (integer division) method", blame: -1},
		{name: "bool - bool", op: Sub, x: K(dtypes.Bool), y: K(dtypes.Bool), wantErr: "- needs numeric operands", blame: -1},
		{name: "bool + bool", op: Add, x: K(dtypes.Bool), y: K(dtypes.Bool), want: S(dtypes.Bool)},
		{name: "bool? * bool?", op: Mul, x: A(dtypes.Bool), y: A(dtypes.Bool), want: W(dtypes.Bool)},
		{name: "f32 & i32", op: BitAnd, x: K(dtypes.F32), y: K(dtypes.I32), wantErr: "needs bool, int or uint operands", blame: -1},
		{name: "i8 << ui8", op: Shl, x: K(dtypes.I8), y: K(dtypes.U8), want: S(dtypes.I16)},
		{name: "f32? @ f32? is known", op: MatMul, x: A(dtypes.F32), y: A(dtypes.F32), want: S(dtypes.F32)},
		{name: "clip(i16, 1.5) does not promote", op: Clip, x: K(dtypes.I16), y: lit(tritonFloat(1.5)), want: S(dtypes.I16)},
		{name: "where(c, 1L, i16)", op: Where, x: lit(tritonInt(1)), y: K(dtypes.I16), want: S(dtypes.I16)},
		{name: "2^40 is an R double", op: Add, x: K(dtypes.I8), y: lit(IntValue(new(big.Int).Lsh(big.NewInt(1), 40))), want: W(dtypes.F32)},
		{name: "f16", op: Add, x: K(dtypes.F16), y: K(dtypes.F32), wantErr: "no dtype f16 (anvil has bool, i8–i64, ui8–ui64, f32, f64)", blame: 0},
		{name: "c64", op: Add, x: K(dtypes.F32), y: K(dtypes.C64), wantErr: "no dtype c64", blame: 1},
	})
	d, _, err := p.Check(dtypes.F16)
	if err == nil || err.Error() != "anvil: no dtype f16 (anvil has bool, i8–i64, ui8–ui64, f32, f64)" {
		t.Errorf("Check(f16) = %v, %v", d, err)
	}
	for _, c := range []struct {
		v    Scalar
		want dtypes.Type
	}{
		{tritonInt(1), dtypes.Weak(dtypes.I32)},
		{tritonInt(-2147483647), dtypes.Weak(dtypes.I32)},
		{tritonInt(-2147483648), dtypes.Weak(dtypes.F32)}, // NA as an integer, so R reads a double
		{tritonInt(1 << 31), dtypes.Weak(dtypes.F32)},
		{tritonFloat(1e300), dtypes.Weak(dtypes.F32)},
		{BoolValue(true), dtypes.Strong(dtypes.Bool)},
	} {
		if got, err := p.Literal(c.v); err != nil || got != c.want {
			t.Errorf("Literal(%s) = %v %v, want %v", c.v, got, err, c.want)
		}
	}
	if _, err := p.Literal(ComplexValue(1i)); err == nil {
		t.Error("Literal(1j) succeeded")
	}
	for k, want := range map[ScalarKind]dtypes.Type{BoolScalar: dtypes.Strong(dtypes.Bool), IntScalar: dtypes.Weak(dtypes.I32), FloatScalar: dtypes.Weak(dtypes.F32)} {
		if got, err := p.ArrayLiteral(k); err != nil || got != want {
			t.Errorf("ArrayLiteral(%s) = %v %v, want %v", k, got, err, want)
		}
	}
	if err := p.Convert(tritonInt(300), dtypes.I8); err != nil {
		t.Errorf("Convert(300, i8) = %v, want nil", err)
	}
	if p.Host() != R {
		t.Errorf("Host() = %v, want R", p.Host())
	}
}

func TestAnvilUnary(t *testing.T) {
	p := tritonMustPolicy(t, "anvil")
	K := func(d dtypes.DType) Operand { return anvilTensor(d, false) }
	A := func(d dtypes.DType) Operand { return anvilTensor(d, true) }
	S, W := dtypes.Strong, dtypes.Weak
	cases := []struct {
		op      UnaryOp
		x       Operand
		want    dtypes.Type
		wantErr string
	}{
		{Exp, K(dtypes.F64), S(dtypes.F64), ""},
		{Exp, A(dtypes.F32), W(dtypes.F32), ""},
		{Sqrt, K(dtypes.I32), dtypes.Type{}, "`operand` must have dtype FloatType. Got i32."},
		{Floor, K(dtypes.U8), dtypes.Type{}, "Got ui8."},
		{Exp, tritonLit(t, p, tritonInt(1)), dtypes.Type{}, "Got i32?."},
		{Exp, tritonLit(t, p, BoolValue(true)), dtypes.Type{}, "Got bool."},
		{Exp, tritonLit(t, p, tritonFloat(1)), W(dtypes.F32), ""},
		{Neg, A(dtypes.F32), W(dtypes.F32), ""},
		{Neg, K(dtypes.Bool), dtypes.Type{}, "negate needs a numeric operand"},
		{Abs, K(dtypes.U16), dtypes.Type{}, "abs needs a float or signed int operand, got ui16"},
		{Abs, A(dtypes.I8), W(dtypes.I8), ""},
		{Not, K(dtypes.I32), S(dtypes.I32), ""},
		{Not, K(dtypes.F32), dtypes.Type{}, "not needs a bool, int or uint operand"},
		{Sum, A(dtypes.I32), W(dtypes.I32), ""},
		{Sum, K(dtypes.Bool), S(dtypes.Bool), ""},
		{ReduceMax, A(dtypes.F64), W(dtypes.F64), ""},
		{Mean, K(dtypes.I32), W(dtypes.F32), ""},
		{Mean, K(dtypes.F64), S(dtypes.F64), ""},
		{Mean, A(dtypes.F32), W(dtypes.F32), ""},
		{Mean, K(dtypes.F32), S(dtypes.F32), ""},
		{Any, A(dtypes.Bool), S(dtypes.Bool), ""},
		{ArgMax, A(dtypes.F32), S(dtypes.I32), ""},
		{IsNaN, A(dtypes.F32), S(dtypes.Bool), ""},
		{IsInf, K(dtypes.I32), dtypes.Type{}, "must have dtype FloatType"},
		{Neg, tritonLit(t, p, tritonInt(1)), W(dtypes.I32), ""},
		{Not, tritonLit(t, p, tritonInt(1)), S(dtypes.Bool), ""},
		{Exp, K(dtypes.BF16), dtypes.Type{}, "no dtype bf16"},
	}
	for _, c := range cases {
		r, err := p.Unary(c.op, c.x)
		if c.wantErr != "" {
			var e *Error
			if !errors.As(err, &e) || !strings.Contains(e.Msg, c.wantErr) || e.Operand != 0 || e.Policy != "anvil" {
				t.Errorf("anvil %s(%v): got %v %v, want error %q", c.op, c.x.Type, r.Type, err, c.wantErr)
			}
			continue
		}
		if err != nil || r.Type != c.want || r.Rule == "" {
			t.Errorf("anvil %s(%v) = %v %v, want %v", c.op, c.x.Type, r.Type, err, c.want)
		}
	}
}
