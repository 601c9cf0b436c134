package promote

import (
	"errors"
	"math/big"
	"strings"
	"testing"

	"github.com/tensorsh/tensorsh/dtypes"
)

// maxGraphTable is research/max.md §2.2 (RMO strong × strong promotion) as
// written: "✗ A→B" is an unsafe-cast error naming A and the candidate B.
const maxGraphTable = `
| | bool | i8 | i16 | i32 | i64 | u8 | u16 | u32 | u64 | f16 | bf16 | f32 | f64 |
|---|---|---|---|---|---|---|---|---|---|---|---|---|---|
| bool | bool | i8 | i16 | i32 | i64 | u8 | u16 | u32 | u64 | f16 | bf16 | f32 | f64 |
| i8 | i8 | i8 | i16 | i32 | i64 | ✗ ui8→si8 | ✗ ui16→si16 | ✗ ui32→si32 | ✗ ui64→si64 | f16 | bf16 | f32 | f64 |
| i16 | i16 | i16 | i16 | i32 | i64 | i16 | ✗ ui16→si16 | ✗ ui32→si32 | ✗ ui64→si64 | ✗ si16→f16 | ✗ si16→bf16 | f32 | f64 |
| i32 | i32 | i32 | i32 | i32 | i64 | i32 | i32 | ✗ ui32→si32 | ✗ ui64→si64 | ✗ si32→f32 | ✗ si32→f32 | ✗ si32→f32 | f64 |
| i64 | i64 | i64 | i64 | i64 | i64 | i64 | i64 | i64 | ✗ ui64→si64 | ✗ si64→f64 | ✗ si64→f64 | ✗ si64→f64 | ✗ si64→f64 |
| u8 | u8 | ✗ ui8→si8 | i16 | i32 | i64 | u8 | u16 | u32 | u64 | f16 | bf16 (?) | f32 | f64 |
| u16 | u16 | ✗ ui16→si16 | ✗ ui16→si16 | i32 | i64 | u16 | u16 | u32 | u64 | ✗ ui16→f16 | ✗ ui16→bf16 | f32 | f64 |
| u32 | u32 | ✗ ui32→si32 | ✗ ui32→si32 | ✗ ui32→si32 | i64 | u32 | u32 | u32 | u64 | ✗ ui32→f32 | ✗ ui32→f32 | ✗ ui32→f32 | f64 |
| u64 | u64 | ✗ ui64→si64 | ✗ ui64→si64 | ✗ ui64→si64 | ✗ ui64→si64 | u64 | u64 | u64 | u64 | ✗ ui64→f64 | ✗ ui64→f64 | ✗ ui64→f64 | ✗ ui64→f64 |
| f16 | f16 | f16 | ✗ si16→f16 | ✗ si32→f32 | ✗ si64→f64 | f16 | ✗ ui16→f16 | ✗ ui32→f32 | ✗ ui64→f64 | f16 | ✗ (same width) | f32 | f64 |
| bf16 | bf16 | bf16 | ✗ si16→bf16 | ✗ si32→f32 | ✗ si64→f64 | bf16 (?) | ✗ ui16→bf16 | ✗ ui32→f32 | ✗ ui64→f64 | ✗ (same width) | bf16 | f32 | f64 |
| f32 | f32 | f32 | f32 | ✗ si32→f32 | ✗ si64→f64 | f32 | f32 | ✗ ui32→f32 | ✗ ui64→f64 | f32 | f32 | f32 | f64 |
| f64 | f64 | f64 | f64 | f64 | ✗ si64→f64 | f64 | f64 | f64 | ✗ ui64→f64 | f64 | f64 | f64 | f64 |
`

func TestMAXGraphTable(t *testing.T) {
	p := tritonMustPolicy(t, "max-graph")
	rows, cols, cells := maxParseTable(t, maxGraphTable, nil)
	if len(rows) != 13 || len(cols) != 13 {
		t.Fatalf("table is %d×%d, want 13×13", len(rows), len(cols))
	}
	checked, bad := 0, 0
	for i, a := range rows {
		for j, b := range cols {
			cell := cells[i][j]
			var want dtypes.DType
			var wantErr string
			switch {
			case cell == "✗ (same width)":
				wantErr = "same bit width, different format"
			case strings.HasPrefix(cell, "✗ "):
				src, dst, ok := strings.Cut(strings.TrimPrefix(cell, "✗ "), "→")
				if !ok {
					t.Fatalf("bad cell %q", cell)
				}
				wantErr = "unsafe cast from " + src + " to " + dst + " ("
			default:
				var err error
				if want, err = dtypes.Parse(strings.TrimSuffix(cell, " (?)")); err != nil {
					t.Fatal(err)
				}
			}
			for _, op := range []BinaryOp{Add, Sub, Maximum, Mod, Pow, Where, MatMul, Eq} {
				r, err := p.Binary(op, maxTensor(a), maxTensor(b))
				if op == Eq && err == nil {
					if r.Type != dtypes.Strong(dtypes.Bool) {
						bad++
						t.Errorf("max-graph %s == %s = %v, want bool", a, b, r.Type)
					}
					r.Type = dtypes.Strong(r.Compute)
				}
				checked++
				if ok, why := tritonMatch("max-graph", r, err, want, wantErr); !ok {
					bad++
					t.Errorf("max-graph %s %s %s: %s", a, op, b, why)
				}
				if wantErr != "" && !strings.Contains(wantErr, "same bit width") {
					// The error blames the input that does not fit.
					src := strings.Fields(wantErr)[3]
					i := maxGraphBlamed(err)
					if i < 0 || []dtypes.DType{a, b}[i].MLIRName() != src {
						bad++
						t.Errorf("max-graph %s %s %s blames operand %d, want the %s side", a, op, b, i, src)
					}
				}
			}
		}
	}
	t.Logf("max-graph: %d cells checked, %d mismatches", checked, bad)
}

// maxGraphBlamed returns the operand err blames, or -2 if it is not an *Error.
func maxGraphBlamed(err error) int {
	var e *Error
	if errors.As(err, &e) {
		return e.Operand
	}
	return -2
}

func TestMAXGraphWeak(t *testing.T) {
	p := tritonMustPolicy(t, "max-graph")
	lit := func(v Scalar) Operand { return tritonLit(t, p, v) }
	two := func(n uint) Scalar { return IntValue(new(big.Int).Lsh(big.NewInt(1), n)) }
	ten, S, W := maxTensor, dtypes.Strong, dtypes.Weak
	weakArr := func(d dtypes.DType) Operand { return Operand{Type: W(d), Rank: 1} }
	tritonRunCases(t, p, []tritonCase{
		{name: "i8 + 1000", op: Add, x: ten(dtypes.I8), y: lit(tritonInt(1000)), wantErr: "unsafe cast: can't promote python int with value (1000) to int8: it would lose precision", blame: 1},
		{name: "i8 + 127", op: Add, x: ten(dtypes.I8), y: lit(tritonInt(127)), want: S(dtypes.I8)},
		{name: "-128 + i8", op: Add, x: lit(tritonInt(-128)), y: ten(dtypes.I8), want: S(dtypes.I8)},
		{name: "u8 + -1", op: Add, x: ten(dtypes.U8), y: lit(tritonInt(-1)), wantErr: "value (-1) to uint8", blame: 1},
		{name: "i8 + 1.5", op: Add, x: ten(dtypes.I8), y: lit(tritonFloat(1.5)), wantErr: "unsafe cast: can't promote python float to int8", blame: 1},
		{name: "i32 + 1.5", op: Add, x: ten(dtypes.I32), y: lit(tritonFloat(1.5)), wantErr: "can't promote python float to int32", blame: 1},
		{name: "f32 + 16777217", op: Add, x: ten(dtypes.F32), y: lit(IntValue(big.NewInt(16777217))), wantErr: "value (16777217) to float32", blame: 1},
		{name: "f32 + 16777216", op: Add, x: ten(dtypes.F32), y: lit(two(24)), want: S(dtypes.F32)},
		{name: "f16 + 3000 (conservative)", op: Add, x: ten(dtypes.F16), y: lit(tritonInt(3000)), wantErr: "value (3000) to float16", blame: 1},
		{name: "f16 + 2048", op: Add, x: ten(dtypes.F16), y: lit(tritonInt(2048)), want: S(dtypes.F16)},
		{name: "bf16 + 257", op: Add, x: ten(dtypes.BF16), y: lit(tritonInt(257)), wantErr: "value (257) to bfloat16", blame: 1},
		{name: "f16 + 1e6 (floats unchecked)", op: Add, x: ten(dtypes.F16), y: lit(tritonFloat(1e6)), want: S(dtypes.F16)},
		{name: "f8e4m3 + 448", op: Add, x: ten(dtypes.F8E4M3), y: lit(tritonInt(448)), want: S(dtypes.F8E4M3)},
		{name: "f8e4m3 + 449", op: Add, x: ten(dtypes.F8E4M3), y: lit(tritonInt(449)), wantErr: "value (449)", blame: 1},
		{name: "f8e5m2 + 72089", op: Add, x: ten(dtypes.F8E5M2), y: lit(tritonInt(72089)), want: S(dtypes.F8E5M2)},
		{name: "f8e5m2 + 72090", op: Add, x: ten(dtypes.F8E5M2), y: lit(tritonInt(72090)), wantErr: "value (72090)", blame: 1},
		{name: "u64 + 2**64-1", op: Add, x: ten(dtypes.U64), y: lit(IntValue(new(big.Int).Sub(two(64).Int, big.NewInt(1)))), want: S(dtypes.U64)},
		{name: "u8 + True", op: Add, x: ten(dtypes.U8), y: lit(BoolValue(true)), want: S(dtypes.U8)},
		{name: "bool + 2", op: Add, x: ten(dtypes.Bool), y: lit(tritonInt(2)), wantErr: "value (2) to bool", blame: 1},
		{name: "i32 < 2.5", op: Lt, x: ten(dtypes.I32), y: lit(tritonFloat(2.5)), wantErr: "can't promote python float to int32", blame: 1},
		{name: "i32 / 2 is float64", op: TrueDiv, x: ten(dtypes.I32), y: lit(tritonInt(2)), want: S(dtypes.F64)},
		{name: "f16 * 2", op: Mul, x: ten(dtypes.F16), y: lit(tritonInt(2)), want: S(dtypes.F16)},
		{name: "i64 + [1.5]", op: Add, x: ten(dtypes.I64), y: weakArr(dtypes.F64), wantErr: "can't promote numpy float array to int64", blame: 1},
		{name: "f16 + [1, 2]", op: Add, x: ten(dtypes.F16), y: weakArr(dtypes.I64), want: S(dtypes.F16)},
		{name: "1 + 2: Python folds it", op: Add, x: lit(tritonInt(1)), y: lit(tritonInt(2)), want: W(dtypes.I64)},
		{name: "1 / 2: Python folds it", op: TrueDiv, x: lit(tritonInt(1)), y: lit(tritonInt(2)), want: W(dtypes.F64)},
		{name: "[1, 2] + 1", op: Add, x: weakArr(dtypes.I64), y: lit(tritonInt(1)), wantErr: "binary ops require at least one max object", blame: -1},
		{name: "promote(i16?, f32?)", op: Add, x: Operand{Type: W(dtypes.I16)}, y: Operand{Type: W(dtypes.F32)}, wantErr: "at least one max object", blame: -1},
		{name: "promote(i8, f32?)", op: Add, x: ten(dtypes.I8), y: Operand{Type: W(dtypes.F32)}, wantErr: "can't promote python float to int8", blame: 1},
	})
}

func TestMAXGraphOps(t *testing.T) {
	p := tritonMustPolicy(t, "max-graph")
	ten, S := maxTensor, dtypes.Strong
	tritonRunCases(t, p, []tritonCase{
		{name: "i32 / i32", op: TrueDiv, x: ten(dtypes.I32), y: ten(dtypes.I32), want: S(dtypes.F64)},
		{name: "u8 / i8 (no uN/iN error)", op: TrueDiv, x: ten(dtypes.U8), y: ten(dtypes.I8), want: S(dtypes.F64)},
		{name: "bool / i8 goes through RMO", op: TrueDiv, x: ten(dtypes.Bool), y: ten(dtypes.I8), want: S(dtypes.I8)},
		{name: "f16 / f16", op: TrueDiv, x: ten(dtypes.F16), y: ten(dtypes.F16), want: S(dtypes.F16)},
		{name: "i32 / f32", op: TrueDiv, x: ten(dtypes.I32), y: ten(dtypes.F32), wantErr: "unsafe cast from si32 to f32 (int32 values do not all fit in float32)", blame: 0},
		{name: "i64 * f16 (2026 mul)", op: Mul, x: ten(dtypes.I64), y: ten(dtypes.F16), want: S(dtypes.F16)},
		{name: "f32 * i32 (2026 mul)", op: Mul, x: ten(dtypes.F32), y: ten(dtypes.I32), want: S(dtypes.F32)},
		{name: "bool * f16", op: Mul, x: ten(dtypes.Bool), y: ten(dtypes.F16), want: S(dtypes.F16)},
		{name: "i32 + f32", op: Add, x: ten(dtypes.I32), y: ten(dtypes.F32), wantErr: "unsafe cast from si32 to f32", blame: 0},
		{name: "i16 * f32", op: Mul, x: ten(dtypes.I16), y: ten(dtypes.F32), want: S(dtypes.F32)},
		{name: "i8 @ f32", op: MatMul, x: ten(dtypes.I8), y: ten(dtypes.F32), want: S(dtypes.F32)},
		// ops.floor_div (modular/modular max/python/max/graph/ops/
		// elementwise.py, called by TensorValue.__floordiv__ in
		// max/graph/value.py): integral operands stay integral, promoted
		// like rmo.DivOp (so u8 // i8 is refused like u8 + i8).
		{name: "i32 // i32 stays integral", op: FloorDiv, x: ten(dtypes.I32), y: ten(dtypes.I32), want: S(dtypes.I32)},
		{name: "i8 // i32", op: FloorDiv, x: ten(dtypes.I8), y: ten(dtypes.I32), want: S(dtypes.I32)},
		{name: "u16 // u8", op: FloorDiv, x: ten(dtypes.U16), y: ten(dtypes.U8), want: S(dtypes.U16)},
		{name: "u8 // i8: no common dtype", op: FloorDiv, x: ten(dtypes.U8), y: ten(dtypes.I8), wantErr: "unsafe cast", blame: 0},
		{name: "i32 // f64: floor(div)", op: FloorDiv, x: ten(dtypes.I32), y: ten(dtypes.F64), want: S(dtypes.F64)},
		{name: "f32 // f32", op: FloorDiv, x: ten(dtypes.F32), y: ten(dtypes.F32), want: S(dtypes.F32)},
		{name: "i8 // bool", op: FloorDiv, x: ten(dtypes.I8), y: ten(dtypes.Bool), wantErr: "floor only supports floating point inputs", blame: -1},
		{name: "i16 == f32", op: Eq, x: ten(dtypes.I16), y: ten(dtypes.F32), want: S(dtypes.Bool)},
		{name: "i8 & i32 keeps the lhs dtype", op: BitAnd, x: ten(dtypes.I8), y: ten(dtypes.I32), want: S(dtypes.I8)},
		{name: "bool | bool", op: BitOr, x: ten(dtypes.Bool), y: ten(dtypes.Bool), want: S(dtypes.Bool)},
		{name: "f32 ^ i32", op: BitXor, x: ten(dtypes.F32), y: ten(dtypes.I32), wantErr: "bitwise ops require boolean or integral tensors, got DType.float32, DType.int32", blame: 0},
		{name: "i32 and bool", op: And, x: ten(dtypes.I32), y: ten(dtypes.Bool), wantErr: "logical ops require boolean tensors, got DType.int32, DType.bool", blame: 0},
		{name: "f8e4m3 + f8e5m2", op: Add, x: ten(dtypes.F8E4M3), y: ten(dtypes.F8E5M2), wantErr: "same bit width", blame: 1},
		{name: "f8e4m3 + i8", op: Add, x: ten(dtypes.F8E4M3), y: ten(dtypes.I8), wantErr: "unsafe cast from si8 to f8E4M3FN", blame: 1},
		{name: "f8e4m3 + i16", op: Add, x: ten(dtypes.F8E4M3), y: ten(dtypes.I16), wantErr: "unsafe cast from si16 to f16", blame: 1},
		{name: "f8e5m2 + f16", op: Add, x: ten(dtypes.F8E5M2), y: ten(dtypes.F16), want: S(dtypes.F16)},
		{name: "f8e4m3 + bool", op: Add, x: ten(dtypes.F8E4M3), y: ten(dtypes.Bool), want: S(dtypes.F8E4M3)},
		{name: "f8e4m3 + bf16", op: Add, x: ten(dtypes.F8E4M3), y: ten(dtypes.BF16), want: S(dtypes.BF16)},
		{name: "tf32", op: Add, x: ten(dtypes.TF32), y: ten(dtypes.F32), wantErr: "no dtype tf32", blame: 0},
	})
	ucases := []struct {
		op      UnaryOp
		x       Operand
		want    dtypes.Type
		compute dtypes.DType
		wantErr string
	}{
		{Sqrt, ten(dtypes.F16), S(dtypes.F16), dtypes.F16, ""},
		{Sqrt, ten(dtypes.I32), dtypes.Type{}, 0, "sqrt only supports floating point inputs"},
		{Exp, ten(dtypes.Bool), dtypes.Type{}, 0, "exp only supports floating point inputs"},
		{Round, ten(dtypes.I8), dtypes.Type{}, 0, "only supports floating point inputs"},
		{Sigmoid, ten(dtypes.BF16), S(dtypes.BF16), dtypes.F32, ""},
		{Gelu, ten(dtypes.F8E4M3), S(dtypes.F8E4M3), dtypes.F32, ""},
		{Silu, ten(dtypes.F64), S(dtypes.F64), dtypes.F64, ""},
		{Softmax, ten(dtypes.F16), S(dtypes.F16), dtypes.F16, ""},
		{Relu, ten(dtypes.I32), S(dtypes.I32), dtypes.I32, ""},
		{Abs, ten(dtypes.I8), S(dtypes.I8), dtypes.I8, ""},
		{IsInf, ten(dtypes.F32), S(dtypes.Bool), dtypes.F32, ""},
		{ArgMin, ten(dtypes.F32), S(dtypes.I64), dtypes.F32, ""},
		{Not, ten(dtypes.Bool), S(dtypes.Bool), dtypes.Bool, ""},
		{Invert, ten(dtypes.I32), dtypes.Type{}, 0, "logical_not, which needs a bool tensor"},
		{Exp, tritonLit(t, p, tritonFloat(1)), dtypes.Type{}, 0, "unary ops do not support non-max objects"},
		{Sum, Operand{Type: dtypes.Weak(dtypes.I64), Rank: 1}, dtypes.Type{}, 0, "non-max objects"},
		{Neg, tritonLit(t, p, tritonInt(3)), dtypes.Weak(dtypes.I64), dtypes.I64, ""},
		{Neg, tritonLit(t, p, BoolValue(true)), dtypes.Weak(dtypes.I64), dtypes.I64, ""},
	}
	for _, c := range ucases {
		r, err := p.Unary(c.op, c.x)
		if c.wantErr != "" {
			var e *Error
			if !errors.As(err, &e) || !strings.Contains(e.Msg, c.wantErr) || e.Operand != 0 {
				t.Errorf("max-graph %s(%v): got %v %v, want error %q", c.op, c.x.Type, r.Type, err, c.wantErr)
			}
			continue
		}
		if err != nil || r.Type != c.want || r.Compute != c.compute || r.Rule == "" {
			t.Errorf("max-graph %s(%v) = %v (compute %s) %v, want %v (compute %s)", c.op, c.x.Type, r.Type, r.Compute, err, c.want, c.compute)
		}
	}
}

// TestMAXGraphSymmetry checks that swapping two strong operands gives the
// same dtype or an error both ways, for every pair and most ops.
func TestMAXGraphSymmetry(t *testing.T) {
	p := tritonMustPolicy(t, "max-graph")
	checked, bad := 0, 0
	for _, a := range maxGraphDTypes {
		for _, b := range maxGraphDTypes {
			for _, op := range []BinaryOp{Add, Mul, TrueDiv, FloorDiv, Mod, Lt, Where} {
				r1, e1 := p.Binary(op, maxTensor(a), maxTensor(b))
				r2, e2 := p.Binary(op, maxTensor(b), maxTensor(a))
				checked++
				if (e1 == nil) != (e2 == nil) || r1.Type != r2.Type {
					bad++
					t.Errorf("max-graph %s %s %s = %v %v but swapped %v %v", a, op, b, r1.Type, e1, r2.Type, e2)
				}
			}
		}
	}
	t.Logf("max-graph: %d cells checked, %d mismatches (symmetry)", checked, bad)
}
