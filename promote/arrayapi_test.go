package promote

import (
	"runtime/debug"
	"strings"
	"testing"

	"github.com/tensorsh/tensorsh/dtypes"
)

// arrayAPITable is the standard's promotion table (2023.12, "Type
// Promotion Rules"), written out as the standard draws it: rows and
// columns in arrayAPIDTypes order (b i1 i2 i4 i8 u1 u2 u4 u8 f4 f8 c8 c16),
// "-" where the standard defines no promotion.
var arrayAPITable = []string{
	//  b   i1   i2   i4   i8   u1   u2   u4   u8   f4   f8   c8  c16
	"b    -    -    -    -    -    -    -    -    -    -    -    -",
	"-   i1   i2   i4   i8   i2   i4   i8    -    -    -    -    -",
	"-   i2   i2   i4   i8   i2   i4   i8    -    -    -    -    -",
	"-   i4   i4   i4   i8   i4   i4   i8    -    -    -    -    -",
	"-   i8   i8   i8   i8   i8   i8   i8    -    -    -    -    -",
	"-   i2   i2   i4   i8   u1   u2   u4   u8    -    -    -    -",
	"-   i4   i4   i4   i8   u2   u2   u4   u8    -    -    -    -",
	"-   i8   i8   i8   i8   u4   u4   u4   u8    -    -    -    -",
	"-    -    -    -    -   u8   u8   u8   u8    -    -    -    -",
	"-    -    -    -    -    -    -    -    -   f4   f8   c8  c16",
	"-    -    -    -    -    -    -    -    -   f8   f8  c16  c16",
	"-    -    -    -    -    -    -    -    -   c8  c16   c8  c16",
	"-    -    -    -    -    -    -    -    -  c16  c16  c16  c16",
}

// arrayAPICode maps the standard's short codes to dtypes.
var arrayAPICode = map[string]dtypes.DType{
	"b": dtypes.Bool, "i1": dtypes.I8, "i2": dtypes.I16, "i4": dtypes.I32, "i8": dtypes.I64,
	"u1": dtypes.U8, "u2": dtypes.U16, "u4": dtypes.U32, "u8": dtypes.U64,
	"f4": dtypes.F32, "f8": dtypes.F64, "c8": dtypes.C64, "c16": dtypes.C128,
}

func TestArrayAPITable(t *testing.T) {
	p := refsMust(t, "array-api")
	ds := p.DTypes()
	if len(arrayAPITable) != len(ds) {
		t.Fatalf("table has %d rows for %d dtypes", len(arrayAPITable), len(ds))
	}
	cells := 0
	for i, row := range arrayAPITable {
		f := strings.Fields(row)
		if len(f) != len(ds) {
			t.Fatalf("row %d has %d cells", i, len(f))
		}
		for j, code := range f {
			cells++
			x, y := mineArr(ds[i]), mineArr(ds[j])
			op := Add
			if ds[i] == dtypes.Bool {
				op = BitAnd // the standard defines no arithmetic on bools
			}
			r, err := p.Binary(op, x, y)
			// promote() answers from the same table, bool with bool
			// included: the standard's result_type table covers bool
			// (array-api "Type Promotion Rules"; result_type(bool, bool)
			// is bool), although + is not defined on bools.
			pr, perr := PromoteTypes(p, x, y)
			if wantPr, ok := arrayAPICode[code]; code != "-" && (!ok || perr != nil || pr.Type.DType != wantPr) {
				t.Errorf("array-api: promote(%s, %s) = %s, %v; want %s", ds[i], ds[j], pr.Type, perr, wantPr)
			} else if code == "-" && perr == nil {
				t.Errorf("array-api: promote(%s, %s) = %s, want an error", ds[i], ds[j], pr.Type)
			}
			if code == "-" {
				if err == nil {
					t.Errorf("array-api: %s %s %s = %s, want an error", ds[i], op, ds[j], r.Type)
				} else if refsBlame(err) != -1 || !strings.Contains(err.Error(), "not defined") {
					t.Errorf("array-api: %s %s %s: error %q (blame %d), want one saying not defined, blaming the operator", ds[i], op, ds[j], err, refsBlame(err))
				}
				continue
			}
			if want := arrayAPICode[code]; err != nil || r.Type != dtypes.Strong(want) {
				t.Errorf("array-api: %s %s %s = %s, %v; want %s", ds[i], op, ds[j], r.Type, err, want)
			}
		}
	}
	t.Logf("array-api: %d promotion table cells checked", cells)
}

// TestArrayAPIScalars checks every dtype against every Python scalar kind:
// a bool only with bool, an int with ints (in range) and floats, a float
// with floats, a complex only with complex.
func TestArrayAPIScalars(t *testing.T) {
	p := refsMust(t, "array-api")
	allowed := map[ScalarKind]func(dtypes.DType) bool{
		BoolScalar:    func(d dtypes.DType) bool { return d == dtypes.Bool },
		IntScalar:     func(d dtypes.DType) bool { return d != dtypes.Bool },
		FloatScalar:   dtypes.DType.IsInexact,
		ComplexScalar: dtypes.DType.IsComplex,
	}
	for _, d := range p.DTypes() {
		for k, ok := range allowed {
			lit := refsLiteral(p, refsOne(k))
			op := Eq
			r, err := p.Binary(op, mineArr(d), lit)
			switch {
			case ok(d) && (err != nil || r.Type != dtypes.Strong(dtypes.Bool) || r.Compute != d):
				t.Errorf("array-api: %s == Python %s = %s in %s, %v; want bool computed in %s", d, k, r.Type, r.Compute, err, d)
			case !ok(d) && (err == nil || refsBlame(err) != 1 || !strings.Contains(err.Error(), "is not defined by the standard")):
				t.Errorf("array-api: %s == Python %s = %s, %v; want an error blaming the scalar", d, k, r.Type, err)
			}
		}
	}
}

func TestArrayAPIBinary(t *testing.T) {
	p := refsMust(t, "array-api")
	const (
		b, i8, i16, u8, u64 = dtypes.Bool, dtypes.I8, dtypes.I16, dtypes.U8, dtypes.U64
		f32, f64, c64, c128 = dtypes.F32, dtypes.F64, dtypes.C64, dtypes.C128
	)
	mineBinary(t, p, []mineBin{
		// TOUR.md
		{mineArr(i8), Add, mineLit(p, 1.5), "error@1: array-api: mixing an int array with a Python float is not defined by the standard", 0},
		{mineArr(i8), Add, mineArr(f32), "error@-1: mixing int8 and float32 is not defined", 0},
		{mineArr(u64), Add, mineArr(i8), "error@-1: uint64 with a signed int", 0},
		{mineArr(u8), Add, mineLit(p, 300), "error@1: out of bounds for uint8", 0},
		{mineArr(u8), Add, mineLit(p, 255), "u8", u8},
		{mineArr(f32), Add, mineLit(p, 1), "f32", 0},
		{mineArr(f32), Add, mineLit(p, 1e300), "error@1: overflows float32", 0},
		{mineArr(c64), Mul, mineLit(p, 1.5), "c64", 0},
		{mineArr(f32), Add, mineLit(p, 1i), "error@1: mixing a real float array with a Python complex", 0},
		{mineArr(i8), Add, mineLit(p, true), "error@1: mixing an int array with a Python bool", 0},
		{mineArr(b), Add, mineArr(b), "error@-1: needs numeric operands", 0},
		{mineArr(b), BitXor, mineLit(p, true), "bool", 0},
		{mineArr(b), Eq, mineArr(b), "bool", b},
		{mineArr(b), Where, mineArr(b), "bool", 0},
		{mineArr(i8), TrueDiv, mineArr(i8), "error@-1: implementation-defined", 0},
		{mineArr(f32), TrueDiv, mineLit(p, 2), "f32", 0},
		{mineArr(i8), FloorDiv, mineArr(i16), "i16", 0},
		{mineArr(c64), FloorDiv, mineArr(c64), "error@-1: needs real-valued", 0},
		{mineArr(i8), Shl, mineArr(u8), "i16", 0},
		{mineArr(b), Shl, mineArr(b), "error@-1: needs integer", 0},
		{mineArr(c64), Lt, mineArr(c128), "error@-1: needs real-valued", 0},
		{mineArr(c64), Ne, mineArr(c128), "bool", c128},
		{mineArr(c64), Maximum, mineArr(c64), "error@-1: needs real-valued", 0},
		{mineArr(f32), Clip, mineLit(p, 0), "f32", 0},
		{mineArr(b), And, mineArr(i8), "error@1: needs bool operands", 0},
		{mineArr(b), Or, mineLit(p, false), "bool", b},
		{mineLit(p, 1), Add, mineLit(p, 2.5), "f64?", 0},
		{mineArr(f32), Add, mineArr(c128), "c128", 0},
		{mineArr(f64), Add, mineArr(c64), "c128", 0},
		{mineArr(dtypes.F16), Add, mineArr(f32), "error@0: no dtype f16", 0},
	})
	r, err := p.Binary(Mod, mineArr(i8), mineArr(i8))
	if err != nil || r.CDiv || r.ZeroDivError {
		t.Errorf("array-api: i8 %% i8 = %+v, %v; want Python floor semantics", r, err)
	}
}

func TestArrayAPIUnary(t *testing.T) {
	p := refsMust(t, "array-api")
	const (
		b, i8, i32, u8, u64 = dtypes.Bool, dtypes.I8, dtypes.I32, dtypes.U8, dtypes.U64
		f32, f64, c64       = dtypes.F32, dtypes.F64, dtypes.C64
	)
	mineUnary(t, p, []mineUn{
		{Exp, mineArr(i32), "error@0: needs a floating-point input", 0},
		{Exp, mineArr(f32), "f32", f32},
		{Sqrt, mineArr(c64), "c64", 0},
		{Erf, mineArr(c64), "error@0: needs a real floating-point", 0},
		{Neg, mineArr(b), "error@0: needs a numeric", 0},
		{Neg, mineLit(p, 2), "i64?", 0},
		{Relu, mineArr(c64), "error@0: needs a real-valued", 0},
		{Not, mineArr(i8), "error@0: needs a bool", 0},
		{Not, mineArr(b), "bool", b},
		{Invert, mineArr(b), "bool", 0},
		{Invert, mineArr(f32), "error@0: needs an integer or bool", 0},
		{Sum, mineArr(i8), "i64", 0},
		{Prod, mineArr(u8), "u64", u64},
		{Sum, mineArr(u64), "u64", 0},
		{Sum, mineArr(f32), "f32", 0},
		{Sum, mineArr(b), "error@0: needs a numeric", 0},
		{Mean, mineArr(i32), "error@0: needs a real floating-point", 0},
		{Mean, mineArr(c64), "error@0: needs a real floating-point", 0},
		{Mean, mineArr(f64), "f64", 0},
		{ReduceMax, mineArr(c64), "error@0: needs a real-valued", 0},
		{ArgMax, mineArr(i8), "i64", i8},
		{Floor, mineArr(i8), "i8", 0},
		{Floor, mineArr(b), "error@0: needs a real-valued", 0},
		{Round, mineArr(c64), "c64", 0},
		{IsNaN, mineArr(b), "error@0: needs a numeric", 0},
		{Any, mineArr(f32), "bool", f32},
	})
}

func TestArrayAPICheckLiteralConvert(t *testing.T) {
	p := refsMust(t, "array-api")
	if p.Name() != "array-api" || !strings.Contains(p.Title(), "2023.12") || len(p.DTypes()) != 13 {
		t.Errorf("array-api metadata: %s %q %d", p.Name(), p.Title(), len(p.DTypes()))
	}
	for _, d := range []dtypes.DType{dtypes.F16, dtypes.BF16, dtypes.F8E5M2, dtypes.TF32, dtypes.Index} {
		if _, _, err := p.Check(d); err == nil || !strings.HasPrefix(err.Error(), "array-api: no dtype "+d.String()) {
			t.Errorf("array-api.Check(%s) = %v, want an error naming array-api", d, err)
		}
	}
	for _, c := range []struct {
		v    Scalar
		want string
	}{
		{Int64Value(1), "i64?"}, {FloatValue(1), "f64?"}, {ComplexValue(1i), "c128?"}, {BoolValue(true), "bool?"},
	} {
		if got, err := p.Literal(c.v); err != nil || got.String() != c.want {
			t.Errorf("array-api.Literal(%s) = %s, %v; want %s", c.v, got, err, c.want)
		}
	}
	if got, err := p.ArrayLiteral(IntScalar); err != nil || got != dtypes.Strong(dtypes.I64) {
		t.Errorf("array-api.ArrayLiteral(int) = %s, %v", got, err)
	}
	mineConvert(t, p, []mineConv{
		{Int64Value(3), dtypes.F32, ""},
		{Int64Value(300), dtypes.I8, "out of bounds"},
		{FloatValue(1.5), dtypes.I32, "not defined by the standard"},
		{BoolValue(true), dtypes.I8, "not defined by the standard"},
		{ComplexValue(1i), dtypes.C64, ""},
		{Int64Value(3), dtypes.F16, "no dtype f16"},
	})
}

// TestArrayAPIAndOthersRobust feeds malformed operands (invalid dtypes,
// literals without values, values without their integer) to every binary
// and unary operation of jax, jax64, numpy, numpy1, torch and array-api:
// each must answer with a result or an error, never a panic.
func TestArrayAPIAndOthersRobust(t *testing.T) {
	nilInt := Scalar{Kind: IntScalar}
	nilBool := Scalar{Kind: BoolScalar, Bool: true}
	odd := []Operand{
		{Type: dtypes.Weak(dtypes.Invalid), Literal: true},
		{Type: dtypes.Strong(dtypes.DType(99)), Rank: 1},
		{Type: dtypes.Strong(dtypes.Index), Rank: 1},
		{Type: dtypes.Weak(dtypes.I64), Literal: true, Value: &nilInt},
		{Type: dtypes.Weak(dtypes.Bool), Literal: true, Value: &nilBool},
		{Type: dtypes.Strong(dtypes.I8), Rank: 0, Value: &nilInt},
		{Type: dtypes.Strong(dtypes.F32), Rank: 0, Value: &nilBool},
		{Type: dtypes.Strong(dtypes.C128), Rank: 0, Value: &nilInt},
	}
	for _, name := range []string{"jax", "jax64", "numpy", "numpy1", "torch", "array-api"} {
		p := refsMust(t, name)
		ops := append(mineOperands(p), odd...)
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("%s panicked: %v\n%s", name, r, debug.Stack())
				}
			}()
			for _, x := range ops {
				for op := Add; op <= Clip; op++ {
					for _, y := range odd {
						p.Binary(op, x, y)
						p.Binary(op, y, x)
					}
				}
			}
			for _, x := range ops {
				for op := Neg; op <= All; op++ {
					p.Unary(op, x)
				}
			}
			for _, v := range []Scalar{nilInt, nilBool, {Kind: FloatScalar}} {
				p.Literal(v)
				for _, d := range dtypes.All {
					p.Convert(v, d)
				}
			}
		}()
	}
}
