package promote

import (
	"errors"
	"strings"
	"testing"

	"github.com/tensorsh/tensorsh/dtypes"
)

// maxTable is research/max.md §1.3, the join of every pair computed from the
// coded edges of max.graph.type_promotion, transcribed as written.
const maxTable = `
| | bool | i8 | i16 | i32 | i64 | u8 | u16 | u32 | u64 | idx | addr | f16 | bf16 | f32 | tf32 | f64 |
| bool | bool | i8 | i16 | i32 | i64 | u8 | u16 | u32 | u64 | u64 | u64 | f16 | bf16 | f32 | tf32 | f64 |
| i8 | i8 | i8 | i16 | i32 | i64 | i16 | i32 | i64 | f16 | f16 | f16 | f16 | bf16 | f32 | tf32 | f64 |
| i16 | i16 | i16 | i16 | i32 | i64 | i16 | i32 | i64 | f16 | f16 | f16 | f16 | bf16 | f32 | tf32 | f64 |
| i32 | i32 | i32 | i32 | i32 | i64 | i32 | i32 | i64 | f16 | f16 | f16 | f16 | bf16 | f32 | tf32 | f64 |
| i64 | i64 | i64 | i64 | i64 | i64 | i64 | i64 | i64 | f16 | f16 | f16 | f16 | bf16 | f32 | tf32 | f64 |
| u8 | u8 | i16 | i16 | i32 | i64 | u8 | u16 | u32 | u64 | u64 | u64 | f16 | bf16 | f32 | tf32 | f64 |
| u16 | u16 | i32 | i32 | i32 | i64 | u16 | u16 | u32 | u64 | u64 | u64 | f16 | bf16 | f32 | tf32 | f64 |
| u32 | u32 | i64 | i64 | i64 | i64 | u32 | u32 | u32 | u64 | u64 | u64 | f16 | bf16 | f32 | tf32 | f64 |
| u64 | u64 | f16 | f16 | f16 | f16 | u64 | u64 | u64 | u64 | u64 | u64 | f16 | bf16 | f32 | tf32 | f64 |
| idx | u64 | f16 | f16 | f16 | f16 | u64 | u64 | u64 | u64 | idx | u64 | f16 | bf16 | f32 | tf32 | f64 |
| addr | u64 | f16 | f16 | f16 | f16 | u64 | u64 | u64 | u64 | u64 | addr | f16 | bf16 | f32 | tf32 | f64 |
| f16 | f16 | f16 | f16 | f16 | f16 | f16 | f16 | f16 | f16 | f16 | f16 | f16 | bf16 | f32 | tf32 | f64 |
| bf16 | bf16 | bf16 | bf16 | bf16 | bf16 | bf16 | bf16 | bf16 | bf16 | bf16 | bf16 | bf16 | bf16 | f32 | tf32 | f64 |
| f32 | f32 | f32 | f32 | f32 | f32 | f32 | f32 | f32 | f32 | f32 | f32 | f32 | f32 | f32 | tf32 | f64 |
| tf32 | tf32 | tf32 | tf32 | tf32 | tf32 | tf32 | tf32 | tf32 | tf32 | tf32 | tf32 | tf32 | tf32 | tf32 | tf32 | f64 |
| f64 | f64 | f64 | f64 | f64 | f64 | f64 | f64 | f64 | f64 | f64 | f64 | f64 | f64 | f64 | f64 | f64 |
`

// maxParseTable reads a markdown table whose first row and column name
// dtypes. Cells are returned verbatim.
func maxParseTable(t *testing.T, table string, alias map[string]string) (rows, cols []dtypes.DType, cells [][]string) {
	t.Helper()
	parse := func(s string) dtypes.DType {
		s = strings.TrimSuffix(strings.Trim(s, "* "), "?")
		if a, ok := alias[s]; ok {
			s = a
		}
		d, err := dtypes.Parse(s)
		if err != nil {
			t.Fatalf("table: %v", err)
		}
		return d
	}
	for i, line := range strings.Split(strings.TrimSpace(table), "\n") {
		f := strings.Split(strings.Trim(strings.TrimSpace(line), "|"), "|")
		for j := range f {
			f[j] = strings.TrimSpace(f[j])
		}
		if i == 0 {
			for _, c := range f[1:] {
				cols = append(cols, parse(c))
			}
			continue
		}
		if strings.HasPrefix(f[0], "---") {
			continue
		}
		if len(f) != len(cols)+1 {
			t.Fatalf("table row %q has %d cells, want %d", line, len(f)-1, len(cols))
		}
		rows = append(rows, parse(f[0]))
		cells = append(cells, f[1:])
	}
	return rows, cols, cells
}

var maxAlias = map[string]string{"idx": "index", "addr": "address"}

func maxTensor(d dtypes.DType) Operand { return Operand{Type: dtypes.Strong(d), Rank: 1} }

func TestMAXLatticeTable(t *testing.T) {
	p := tritonMustPolicy(t, "max")
	rows, cols, cells := maxParseTable(t, maxTable, maxAlias)
	if len(rows) != 16 || len(cols) != 16 {
		t.Fatalf("table is %d×%d, want 16×16", len(rows), len(cols))
	}
	checked, bad := 0, 0
	for i, a := range rows {
		for j, b := range cols {
			name := cells[i][j]
			if a, ok := maxAlias[name]; ok {
				name = a
			}
			want, err := dtypes.Parse(name)
			if err != nil {
				t.Fatal(err)
			}
			for _, op := range []BinaryOp{Add, Mul, TrueDiv, Pow, Where} {
				r, err := p.Binary(op, maxTensor(a), maxTensor(b))
				checked++
				if err != nil || r.Type != dtypes.Strong(want) || r.Compute != want || r.Rule == "" {
					bad++
					t.Errorf("max %s %s %s = %v %v, want %s", a, op, b, r.Type, err, want)
				}
			}
			r, err := p.Binary(Lt, maxTensor(a), maxTensor(b))
			checked++
			if err != nil || r.Type != dtypes.Strong(dtypes.Bool) {
				bad++
				t.Errorf("max %s < %s = %v %v, want bool", a, b, r.Type, err)
			}
		}
	}
	if got := p.DTypes(); len(got) != 16 || got[0] != rows[0] || got[15] != rows[15] {
		t.Errorf("DTypes() = %v, want the table's 16 dtypes", got)
	}
	t.Logf("max: %d cells checked, %d mismatches", checked, bad)
}

// TestMAXDocTableErrors pins the four cells where the docstring's table (seed
// 000) disagrees with the coded lattice: the lattice wins.
func TestMAXDocTableErrors(t *testing.T) {
	p := tritonMustPolicy(t, "max")
	for _, c := range []struct {
		a, b      dtypes.DType
		doc, want dtypes.DType
	}{
		{dtypes.Bool, dtypes.Index, dtypes.I64, dtypes.U64},
		{dtypes.Bool, dtypes.Address, dtypes.I64, dtypes.U64},
		{dtypes.I8, dtypes.Index, dtypes.Index, dtypes.F16},
		{dtypes.I8, dtypes.Address, dtypes.Address, dtypes.F16},
	} {
		r, err := p.Binary(Add, maxTensor(c.a), maxTensor(c.b))
		if err != nil || r.Type.DType != c.want || r.Type.DType == c.doc {
			t.Errorf("max %s + %s = %v %v, want %s (the doc table's %s is wrong)", c.a, c.b, r.Type, err, c.want, c.doc)
		}
	}
}

// TestMAXLatticeLaws checks that the join is commutative, associative and
// idempotent, and that every pair has a unique join.
func TestMAXLatticeLaws(t *testing.T) {
	checked, bad := 0, 0
	for _, a := range maxDTypes {
		for _, b := range maxDTypes {
			ab, ok := maxJoins[[2]dtypes.DType{a, b}]
			if !ok {
				t.Fatalf("no unique join for %s, %s", a, b)
			}
			checked++
			if ab != maxJoins[[2]dtypes.DType{b, a}] {
				bad++
				t.Errorf("join(%s, %s) is not commutative", a, b)
			}
			for _, c := range maxDTypes {
				checked++
				if l, r := maxJoins[[2]dtypes.DType{ab, c}], maxJoins[[2]dtypes.DType{a, maxJoins[[2]dtypes.DType{b, c}]}]; l != r {
					bad++
					t.Errorf("join is not associative for %s, %s, %s: %s vs %s", a, b, c, l, r)
				}
			}
		}
		checked++
		if maxJoins[[2]dtypes.DType{a, a}] != a {
			bad++
			t.Errorf("join(%s, %s) != %s", a, a, a)
		}
	}
	t.Logf("max: %d cells checked, %d mismatches (lattice laws)", checked, bad)
}

func TestMAXLiterals(t *testing.T) {
	p := tritonMustPolicy(t, "max")
	lit := func(v Scalar) Operand { return tritonLit(t, p, v) }
	ten, S := maxTensor, dtypes.Strong
	tritonRunCases(t, p, []tritonCase{
		{name: "promote(i8, u64)", op: Add, x: ten(dtypes.I8), y: ten(dtypes.U64), want: S(dtypes.F16)},
		{name: "i8 + 1.5", op: Add, x: ten(dtypes.I8), y: lit(tritonFloat(1.5)), wantErr: "a float literal cannot be converted to int8", blame: 1},
		{name: "1.5 * i8", op: Mul, x: lit(tritonFloat(1.5)), y: ten(dtypes.I8), wantErr: "a float literal cannot be converted to int8", blame: 0},
		{name: "i8 + 300 wraps", op: Add, x: ten(dtypes.I8), y: lit(tritonInt(300)), want: S(dtypes.I8)},
		{name: "u8 - 1", op: Sub, x: ten(dtypes.U8), y: lit(tritonInt(-1)), want: S(dtypes.U8)},
		{name: "f32 + 1.5", op: Add, x: ten(dtypes.F32), y: lit(tritonFloat(1.5)), want: S(dtypes.F32)},
		{name: "bf16 + 1", op: Add, x: ten(dtypes.BF16), y: lit(tritonInt(1)), want: S(dtypes.BF16)},
		{name: "f16 + 1: no Int path to float16", op: Add, x: ten(dtypes.F16), y: lit(tritonInt(1)), wantErr: "an int literal cannot be converted to float16", blame: 1},
		{name: "f16 + 1.5: no Float64 path to float16", op: Add, x: ten(dtypes.F16), y: lit(tritonFloat(1.5)), wantErr: "a float literal cannot be converted to float16", blame: 1},
		{name: "tf32 + 1.5", op: Add, x: ten(dtypes.TF32), y: lit(tritonFloat(1.5)), wantErr: "a float literal cannot be converted to tensor_float32", blame: 1},
		{name: "index + 1", op: Add, x: ten(dtypes.Index), y: lit(tritonInt(1)), wantErr: "an int literal cannot be converted to index", blame: 1},
		{name: "i32 / 2 stays integer", op: TrueDiv, x: ten(dtypes.I32), y: lit(tritonInt(2)), want: S(dtypes.I32), cdiv: true},
		{name: "i32 < 2.5", op: Lt, x: ten(dtypes.I32), y: lit(tritonFloat(2.5)), wantErr: "a float literal cannot be converted to int32", blame: 1},
		{name: "f64 == 1", op: Eq, x: ten(dtypes.F64), y: lit(tritonInt(1)), want: S(dtypes.Bool)},
		{name: "1 + 2.5: only literals", op: Add, x: lit(tritonInt(1)), y: lit(tritonFloat(2.5)), want: dtypes.Weak(dtypes.F64)},
		{name: "7 // 2: only literals", op: FloorDiv, x: lit(tritonInt(7)), y: lit(tritonInt(2)), want: dtypes.Weak(dtypes.I64)},
		{name: "f32 & i32", op: BitAnd, x: ten(dtypes.F32), y: ten(dtypes.I32), wantErr: "needs integer or bool operands", blame: -1},
		{name: "u8 | i8", op: BitOr, x: ten(dtypes.U8), y: ten(dtypes.I8), want: S(dtypes.I16)},
		{name: "i32 and bool", op: And, x: ten(dtypes.I32), y: ten(dtypes.Bool), wantErr: "needs bool operands", blame: 0},
		{name: "c64", op: Add, x: ten(dtypes.C64), y: ten(dtypes.F32), wantErr: "no dtype c64", blame: 0},
		{name: "f8e4m3", op: Add, x: ten(dtypes.F32), y: ten(dtypes.F8E4M3), wantErr: "no dtype f8e4m3", blame: 1},
	})
	if got, err := p.Literal(Int64Value(1)); err != nil || got != dtypes.Weak(dtypes.I64) {
		t.Errorf("Literal(1) = %v %v, want i64?", got, err)
	}
	if got, err := p.Literal(FloatValue(1)); err != nil || got != dtypes.Weak(dtypes.F64) {
		t.Errorf("Literal(1.0) = %v %v, want f64?", got, err)
	}
	if _, err := p.Literal(ComplexValue(1i)); err == nil {
		t.Error("Literal(1j) succeeded")
	}
	if err := p.Convert(Int64Value(300), dtypes.I8); err != nil {
		t.Errorf("Convert(300, i8) = %v, want nil (ops.cast wraps)", err)
	}
	if _, _, err := p.Check(dtypes.C64); err == nil {
		t.Error("Check(c64) succeeded")
	}
	if d, _, err := p.Check(dtypes.TF32); err != nil || d != dtypes.TF32 {
		t.Errorf("Check(tf32) = %v %v", d, err)
	}
}

func TestMAXUnary(t *testing.T) {
	p := tritonMustPolicy(t, "max")
	cases := []struct {
		op      UnaryOp
		x       dtypes.DType
		want    dtypes.DType
		compute dtypes.DType
		wantErr string
	}{
		{Sqrt, dtypes.I32, dtypes.F16, dtypes.F16, ""},
		{Sqrt, dtypes.U64, dtypes.F16, dtypes.F16, ""},
		{Sin, dtypes.Bool, dtypes.F16, dtypes.F16, ""},
		{Floor, dtypes.Index, dtypes.F16, dtypes.F16, ""},
		{Cos, dtypes.BF16, dtypes.BF16, dtypes.BF16, ""},
		{Tanh, dtypes.F32, dtypes.F32, dtypes.F32, ""},
		{Trunc, dtypes.TF32, dtypes.TF32, dtypes.TF32, ""},
		{Rsqrt, dtypes.F64, dtypes.F64, dtypes.F64, ""},
		{Exp, dtypes.F16, dtypes.F16, dtypes.F16, ""},
		{Exp, dtypes.I32, dtypes.I32, dtypes.F64, ""},
		{Sigmoid, dtypes.U8, dtypes.U8, dtypes.F64, ""},
		{Relu, dtypes.I8, dtypes.I8, dtypes.I8, ""},
		{Abs, dtypes.F32, dtypes.F32, dtypes.F32, ""},
		{IsNaN, dtypes.I32, dtypes.Bool, dtypes.I32, ""},
		{ArgMax, dtypes.F32, dtypes.I64, dtypes.F32, ""},
		{Sum, dtypes.I8, dtypes.I8, dtypes.I8, ""},
		{Invert, dtypes.F32, 0, 0, "needs an integer or bool operand"},
		{Not, dtypes.I32, 0, 0, "needs a bool operand"},
		{Exp, dtypes.C64, 0, 0, "no dtype c64"},
	}
	for _, c := range cases {
		r, err := p.Unary(c.op, maxTensor(c.x))
		if c.wantErr != "" {
			var e *Error
			if !errors.As(err, &e) || !strings.Contains(e.Msg, c.wantErr) || e.Policy != "max" {
				t.Errorf("max %s(%s): got %v %v, want error %q", c.op, c.x, r.Type, err, c.wantErr)
			}
			continue
		}
		if err != nil || r.Type != dtypes.Strong(c.want) || r.Compute != c.compute || r.Rule == "" {
			t.Errorf("max %s(%s) = %v (compute %s) %v, want %s (compute %s)", c.op, c.x, r.Type, r.Compute, err, c.want, c.compute)
		}
	}
	r, err := p.Unary(Sqrt, tritonLit(t, p, Int64Value(2)))
	if err != nil || r.Type != dtypes.Weak(dtypes.F64) {
		t.Errorf("max sqrt(2) = %v %v, want f64? (Mojo computes on its literals)", r.Type, err)
	}
}
