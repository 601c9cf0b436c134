package promote

import (
	"encoding/json"
	"errors"
	"math"
	"math/big"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/tensorsh/tensorsh/dtypes"
)

// tritonRefs is refs/triton.json: computation_type_impl run by Triton 3.6.
type tritonRefs struct {
	Library           string            `json:"library"`
	TensorTensor      map[string]string `json:"tensor_tensor"`
	TensorTensorDiv   map[string]string `json:"tensor_tensor_divmod"`
	TensorScalarDType map[string]string `json:"tensor_scalardtype"`
}

// tritonCell is one cell of a reference table: a dtype, or Triton's error
// message.
type tritonCell struct {
	key  string
	a, b dtypes.DType
	want dtypes.DType
	err  string
}

func tritonLoadRefs(t *testing.T) tritonRefs {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "testdata", "refs", "triton.json"))
	if err != nil {
		t.Fatal(err)
	}
	var r tritonRefs
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatal(err)
	}
	return r
}

// tritonParseCells parses a table; dtype names are numpy's in keys and
// Triton's (int1, fp16, fp8e4nv…) in values, all accepted by dtypes.Parse.
func tritonParseCells(t *testing.T, table map[string]string) []tritonCell {
	t.Helper()
	if len(table) == 0 {
		t.Fatal("empty reference table")
	}
	var cells []tritonCell
	for k, v := range table {
		l, r, ok := strings.Cut(k, ",")
		if !ok {
			t.Fatalf("bad key %q", k)
		}
		c := tritonCell{key: k}
		var err error
		if c.a, err = dtypes.Parse(l); err != nil {
			t.Fatal(err)
		}
		if c.b, err = dtypes.Parse(r); err != nil {
			t.Fatal(err)
		}
		if msg, isErr := strings.CutPrefix(v, "error: "); isErr {
			_, c.err, _ = strings.Cut(msg, ": ") // drop the exception class
		} else if c.want, err = dtypes.Parse(v); err != nil {
			t.Fatal(err)
		}
		cells = append(cells, c)
	}
	sort.Slice(cells, func(i, j int) bool { return cells[i].key < cells[j].key })
	return cells
}

func tritonTensor(d dtypes.DType) Operand { return Operand{Type: dtypes.Strong(d), Rank: 1} }

// tritonScalar is a scalar of dtype d as computation_type_impl takes it
// (is_scalar true, with that dtype): how refs/triton.json's
// tensor_scalardtype table was made, by calling computation_type_impl
// directly. In a program only Python numbers and tl.constexpr are scalars,
// and their dtype comes from to_tensor_type (int32, uint32, int64, uint64,
// fp32, fp64, int1).
func tritonScalar(d dtypes.DType) Operand { return Operand{Type: dtypes.Strong(d), Literal: true} }

// tritonZeroDim is a 0-d tensor of dtype d, such as tl.full((), 3, tl.int8):
// a tensor to binary_op_type_checking_impl, not a scalar.
func tritonZeroDim(d dtypes.DType) Operand { return Operand{Type: dtypes.Strong(d)} }

// tritonLit makes a literal operand the way eval does: typed by p.Literal.
func tritonLit(t *testing.T, p Policy, v Scalar) Operand {
	t.Helper()
	ty, err := p.Literal(v)
	if err != nil {
		t.Fatalf("%s: Literal(%s): %v", p.Name(), v, err)
	}
	return Operand{Type: ty, Literal: true, Value: &v}
}

func tritonInt(i int64) Scalar     { return Int64Value(i) }
func tritonFloat(f float64) Scalar { return FloatValue(f) }

// tritonMustPolicy looks a policy up.
func tritonMustPolicy(t *testing.T, name string) Policy {
	t.Helper()
	p, err := Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// tritonMatch reports whether a result is the expected dtype, or the
// expected error (a *Error of policy whose message contains wantErr).
func tritonMatch(policy string, r Result, err error, want dtypes.DType, wantErr string) (bool, string) {
	if wantErr != "" {
		var e *Error
		if !errors.As(err, &e) {
			return false, "want error " + wantErr + ", got " + r.Type.String()
		}
		if e.Policy != policy || !strings.Contains(e.Msg, wantErr) {
			return false, "want error " + wantErr + ", got " + err.Error()
		}
		return true, ""
	}
	if err != nil {
		return false, "want " + want.String() + ", got error " + err.Error()
	}
	if r.Type.DType != want {
		return false, "want " + want.String() + ", got " + r.Type.String()
	}
	return true, ""
}

func TestTritonTensorTensor(t *testing.T) {
	p := tritonMustPolicy(t, "triton")
	refs := tritonLoadRefs(t)
	checked, bad := 0, 0
	for _, c := range tritonParseCells(t, refs.TensorTensor) {
		for _, op := range []BinaryOp{Add, Sub, Mul, Where, Lt, Eq} {
			r, err := p.Binary(op, tritonTensor(c.a), tritonTensor(c.b))
			want := c.want
			if op.Class() == Compare && err == nil {
				if r.Type.DType != dtypes.Bool || r.Type.Weak {
					bad++
					t.Errorf("%s %s: comparison gives %s, want bool", c.key, op, r.Type)
				}
				r.Type.DType = r.Compute // the promoted dtype is the compute dtype
			}
			checked++
			if ok, why := tritonMatch("triton", r, err, want, c.err); !ok {
				bad++
				t.Errorf("triton %s %s: %s", c.key, op, why)
			}
			if err == nil && (r.Compute != want || r.Type.Weak || r.Rule == "") {
				bad++
				t.Errorf("triton %s %s: compute %s, weak %v, rule %q", c.key, op, r.Compute, r.Type.Weak, r.Rule)
			}
		}
	}
	t.Logf("triton: %d cells checked, %d mismatches (tensor_tensor)", checked, bad)
}

func TestTritonDivMod(t *testing.T) {
	p := tritonMustPolicy(t, "triton")
	refs := tritonLoadRefs(t)
	checked, bad := 0, 0
	for _, c := range tritonParseCells(t, refs.TensorTensorDiv) {
		isInt := c.err == "" && !c.want.IsFloat()
		// % follows the computation type exactly: frem on floats, srem or
		// urem on integers, C-style on tensors.
		r, err := p.Binary(Mod, tritonTensor(c.a), tritonTensor(c.b))
		checked++
		if ok, why := tritonMatch("triton", r, err, c.want, c.err); !ok {
			bad++
			t.Errorf("triton %s %%: %s", c.key, why)
		} else if err == nil && !r.CDiv {
			bad++
			t.Errorf("triton %s %%: CDiv false for tensors", c.key)
		}
		// / converts an integer computation type to fp32.
		want := c.want
		if isInt {
			want = dtypes.F32
		}
		r, err = p.Binary(TrueDiv, tritonTensor(c.a), tritonTensor(c.b))
		checked++
		if ok, why := tritonMatch("triton", r, err, want, c.err); !ok {
			bad++
			t.Errorf("triton %s /: %s", c.key, why)
		}
		// // divides integers only (semantic.floordiv raises "unexpected
		// type" for anything else).
		wantErr := c.err
		if c.err == "" && !isInt {
			wantErr = "unexpected type " + tritonNames[c.want]
		}
		r, err = p.Binary(FloorDiv, tritonTensor(c.a), tritonTensor(c.b))
		checked++
		if ok, why := tritonMatch("triton", r, err, c.want, wantErr); !ok {
			bad++
			t.Errorf("triton %s //: %s", c.key, why)
		} else if err == nil && !r.CDiv {
			bad++
			t.Errorf("triton %s //: CDiv false for tensors", c.key)
		}
	}
	t.Logf("triton: %d cells checked, %d mismatches (tensor_tensor_divmod)", checked, bad)
}

func TestTritonScalarDType(t *testing.T) {
	p := tritonMustPolicy(t, "triton")
	refs := tritonLoadRefs(t)
	checked, bad := 0, 0
	for _, c := range tritonParseCells(t, refs.TensorScalarDType) {
		r, err := p.Binary(Add, tritonTensor(c.a), tritonScalar(c.b))
		checked++
		if ok, why := tritonMatch("triton", r, err, c.want, c.err); !ok {
			bad++
			t.Errorf("triton tensor %s + scalar %s: %s", c.a, c.b, why)
		}
		// The scalar on the left gives the same dtype.
		r2, err2 := p.Binary(Add, tritonScalar(c.b), tritonTensor(c.a))
		checked++
		if (err == nil) != (err2 == nil) || r.Type != r2.Type {
			bad++
			t.Errorf("triton scalar %s + tensor %s: %v %v, want %v %v", c.b, c.a, r2.Type, err2, r.Type, err)
		}
	}
	t.Logf("triton: %d cells checked, %d mismatches (tensor_scalardtype)", checked, bad)
}

// tritonCase is one operation and its expected outcome.
type tritonCase struct {
	name    string
	op      BinaryOp
	x, y    Operand
	want    dtypes.Type
	cdiv    bool
	wantErr string
	blame   int
}

func tritonRunCases(t *testing.T, p Policy, cases []tritonCase) {
	t.Helper()
	for _, c := range cases {
		r, err := p.Binary(c.op, c.x, c.y)
		if c.wantErr != "" {
			var e *Error
			if !errors.As(err, &e) || !strings.Contains(e.Msg, c.wantErr) || e.Policy != p.Name() || e.Operand != c.blame {
				t.Errorf("%s: %s: got %v %v, want error %q blaming %d", p.Name(), c.name, r.Type, err, c.wantErr, c.blame)
			}
			continue
		}
		if err != nil || r.Type != c.want || r.CDiv != c.cdiv || r.Rule == "" {
			t.Errorf("%s: %s: got %v (cdiv %v, rule %q) %v, want %v (cdiv %v)", p.Name(), c.name, r.Type, r.CDiv, r.Rule, err, c.want, c.cdiv)
		}
	}
}

func TestTritonScalars(t *testing.T) {
	p := tritonMustPolicy(t, "triton")
	lit := func(v Scalar) Operand { return tritonLit(t, p, v) }
	ten := tritonTensor
	S, W := dtypes.Strong, dtypes.Weak
	big63 := IntValue(new(big.Int).Lsh(big.NewInt(1), 63))
	tritonRunCases(t, p, []tritonCase{
		{name: "u8 + 1", op: Add, x: ten(dtypes.U8), y: lit(tritonInt(1)), want: S(dtypes.U8)},
		{name: "i16 + 4.0", op: Add, x: ten(dtypes.I16), y: lit(tritonFloat(4)), want: S(dtypes.F32)},
		{name: "4.0 + i16", op: Add, x: lit(tritonFloat(4)), y: ten(dtypes.I16), want: S(dtypes.F32)},
		{name: "i8 + 1e300", op: Add, x: ten(dtypes.I8), y: lit(tritonFloat(1e300)), want: S(dtypes.F64)},
		{name: "i8 + 1e-40 (below fp32's normal range)", op: Add, x: ten(dtypes.I8), y: lit(tritonFloat(1e-40)), want: S(dtypes.F64)},
		{name: "i8 + inf", op: Add, x: ten(dtypes.I8), y: lit(tritonFloat(math.Inf(1))), want: S(dtypes.F32)},
		{name: "f16 + 1.5", op: Add, x: ten(dtypes.F16), y: lit(tritonFloat(1.5)), want: S(dtypes.F16)},
		{name: "bf16 * 1e300", op: Mul, x: ten(dtypes.BF16), y: lit(tritonFloat(1e300)), want: S(dtypes.BF16)},
		{name: "f16 / 2", op: TrueDiv, x: ten(dtypes.F16), y: lit(tritonInt(2)), want: S(dtypes.F32)},
		{name: "f16 % 2.0", op: Mod, x: ten(dtypes.F16), y: lit(tritonFloat(2)), want: S(dtypes.F32), cdiv: true},
		{name: "bool + 5", op: Add, x: ten(dtypes.Bool), y: lit(tritonInt(5)), want: S(dtypes.I32)},
		{name: "bool + 2**40", op: Add, x: ten(dtypes.Bool), y: lit(tritonInt(1 << 40)), want: S(dtypes.I64)},
		{name: "bool + 2**63", op: Add, x: ten(dtypes.Bool), y: lit(big63), want: S(dtypes.U64)},
		{name: "bool + True", op: Add, x: ten(dtypes.Bool), y: lit(BoolValue(true)), want: S(dtypes.Bool)},
		{name: "i8 + 2**31 (same kind: out of range)", op: Add, x: ten(dtypes.I8), y: lit(tritonInt(1 << 31)), wantErr: "Scalar 2147483648 is out of range for type int8", blame: 1},
		{name: "i8 + 200", op: Add, x: ten(dtypes.I8), y: lit(tritonInt(200)), wantErr: "Scalar 200 is out of range for type int8", blame: 1},
		{name: "-1 + u8", op: Add, x: lit(tritonInt(-1)), y: ten(dtypes.U8), wantErr: "unsigned tensor and a negative scalar", blame: 0},
		{name: "u8 - 1.5 is a float sum", op: Sub, x: ten(dtypes.U8), y: lit(tritonFloat(-1.5)), want: S(dtypes.F32)},
		{name: "i8 < 1000: to_tensor makes the literal an int32 tensor", op: Lt, x: ten(dtypes.I8), y: lit(tritonInt(1000)), want: S(dtypes.Bool)},
		{name: "u8 == -1 compares in int32", op: Eq, x: ten(dtypes.U8), y: lit(tritonInt(-1)), want: S(dtypes.Bool)},
		{name: "f16 < 1.0 compares in fp32", op: Lt, x: ten(dtypes.F16), y: lit(tritonFloat(1)), want: S(dtypes.Bool)},
		{name: "max(i8, 1000) is int32", op: Maximum, x: ten(dtypes.I8), y: lit(tritonInt(1000)), want: S(dtypes.I32)},
		{name: "max(bf16, bf16) is fp32", op: Maximum, x: ten(dtypes.BF16), y: ten(dtypes.BF16), want: S(dtypes.F32)},
		{name: "where(c, f16, 0)", op: Where, x: ten(dtypes.F16), y: lit(tritonInt(0)), want: S(dtypes.F16)},
		{name: "clip(f16, 0)", op: Clip, x: ten(dtypes.F16), y: lit(tritonInt(0)), want: S(dtypes.F16)},
		{name: "clip(i32, 0)", op: Clip, x: ten(dtypes.I32), y: lit(tritonInt(0)), wantErr: "Only floating point clamp is supported", blame: -1},
		{name: "i32 // 2", op: FloorDiv, x: ten(dtypes.I32), y: lit(tritonInt(2)), want: S(dtypes.I32), cdiv: true},
		{name: "i32 // -2 (negative is fine for signed)", op: FloorDiv, x: ten(dtypes.I32), y: lit(tritonInt(-2)), want: S(dtypes.I32), cdiv: true},
		{name: "u32 // 2", op: FloorDiv, x: ten(dtypes.U32), y: lit(tritonInt(2)), want: S(dtypes.U32), cdiv: true},
		{name: "f32 // f32", op: FloorDiv, x: ten(dtypes.F32), y: ten(dtypes.F32), wantErr: "unexpected type fp32", blame: -1},
		{name: "f32 % f32 is frem", op: Mod, x: ten(dtypes.F32), y: ten(dtypes.F32), want: S(dtypes.F32), cdiv: true},
		{name: "i64 / i64 is fp32", op: TrueDiv, x: ten(dtypes.I64), y: ten(dtypes.I64), want: S(dtypes.F32)},
		{name: "i32 / u32", op: TrueDiv, x: ten(dtypes.I32), y: ten(dtypes.U32), wantErr: "different signedness", blame: -1},
		{name: "i8 ** 2", op: Pow, x: ten(dtypes.I8), y: lit(tritonInt(2)), wantErr: "no ** operator", blame: -1},
		{name: "u8 & i8", op: BitAnd, x: ten(dtypes.U8), y: ten(dtypes.I8), want: S(dtypes.U8)},
		{name: "i32 << 3", op: Shl, x: ten(dtypes.I32), y: lit(tritonInt(3)), want: S(dtypes.I32)},
		{name: "f32 & i32", op: BitAnd, x: ten(dtypes.F32), y: ten(dtypes.I32), wantErr: "invalid operands of type triton.language.fp32 and triton.language.fp32", blame: -1},
		{name: "bool and bool", op: And, x: ten(dtypes.Bool), y: ten(dtypes.Bool), want: S(dtypes.Bool)},
		{name: "i32 and bool", op: And, x: ten(dtypes.I32), y: ten(dtypes.Bool), wantErr: "Cannot bitcast data-type of size 32", blame: 0},
		{name: "f16 @ f16", op: MatMul, x: ten(dtypes.F16), y: ten(dtypes.F16), want: S(dtypes.F32)},
		{name: "i8 @ i8", op: MatMul, x: ten(dtypes.I8), y: ten(dtypes.I8), want: S(dtypes.I32)},
		{name: "f64 @ f64", op: MatMul, x: ten(dtypes.F64), y: ten(dtypes.F64), want: S(dtypes.F64)},
		{name: "f8e4m3 @ f8e5m2", op: MatMul, x: ten(dtypes.F8E4M3), y: ten(dtypes.F8E5M2), want: S(dtypes.F32)},
		{name: "f16 @ f32", op: MatMul, x: ten(dtypes.F16), y: ten(dtypes.F32), wantErr: "Both operands must be same dtype. Got fp16 and fp32", blame: -1},
		{name: "i32 @ i32", op: MatMul, x: ten(dtypes.I32), y: ten(dtypes.I32), wantErr: "Unsupported lhs dtype int32", blame: 0},
		{name: "c64 tensor", op: Add, x: ten(dtypes.C64), y: ten(dtypes.F32), wantErr: "no dtype c64", blame: 0},
		// A 0-d tensor is a tensor (semantic.py: is_scalar is
		// isinstance(x, numbers.Number)), so only literals follow the
		// scalar rules and the Python-style // and %.
		{name: "i8 0-d + 1: the literal does not take part", op: Add, x: tritonZeroDim(dtypes.I8), y: lit(tritonInt(1)), want: S(dtypes.I8)},
		{name: "i32 0-d // i32 0-d: C-style like tensors", op: FloorDiv, x: tritonZeroDim(dtypes.I32), y: tritonZeroDim(dtypes.I32), want: S(dtypes.I32), cdiv: true},
		{name: "i32 0-d + 2**56: out of range like a tensor", op: Add, x: tritonZeroDim(dtypes.I32), y: lit(tritonInt(1 << 56)), wantErr: "Scalar 72057594037927936 is out of range for type int32", blame: 1},
		{name: "i8 0-d + 1.5: the float literal takes part", op: Add, x: tritonZeroDim(dtypes.I8), y: lit(tritonFloat(1.5)), want: S(dtypes.F32)},
		{name: "-7 // 2: only literals", op: FloorDiv, x: lit(tritonInt(-7)), y: lit(tritonInt(2)), want: W(dtypes.I32)},
		{name: "1 / 2: only literals", op: TrueDiv, x: lit(tritonInt(1)), y: lit(tritonInt(2)), want: W(dtypes.F32)},
		{name: "True + True: only literals", op: Add, x: lit(BoolValue(true)), y: lit(BoolValue(true)), want: W(dtypes.I32)},
		{name: "1 < 2: only literals", op: Lt, x: lit(tritonInt(1)), y: lit(tritonInt(2)), want: S(dtypes.Bool)},
		{name: "2**40 + 1: only literals", op: Add, x: lit(tritonInt(1 << 40)), y: lit(tritonInt(1)), want: W(dtypes.I64)},
		{name: "[1, 2] + [3, 4] stays weak", op: Add, x: Operand{Type: W(dtypes.I32), Rank: 1}, y: Operand{Type: W(dtypes.I32), Rank: 1}, want: W(dtypes.I32), cdiv: false},
		{name: "promote(i16, f32?)", op: Add, x: tritonZeroDim(dtypes.I16), y: Operand{Type: W(dtypes.F32)}, want: S(dtypes.F32)},
	})
}

func TestTritonLiterals(t *testing.T) {
	p := tritonMustPolicy(t, "triton")
	two := func(n uint) Scalar { return IntValue(new(big.Int).Lsh(big.NewInt(1), n)) }
	neg := func(s Scalar) Scalar { return IntValue(new(big.Int).Neg(s.Int)) }
	minus1 := func(s Scalar) Scalar { return IntValue(new(big.Int).Sub(s.Int, big.NewInt(1))) }
	cases := []struct {
		v       Scalar
		want    dtypes.Type
		wantErr string
	}{
		{tritonInt(1), dtypes.Weak(dtypes.I32), ""},
		{neg(two(31)), dtypes.Weak(dtypes.I32), ""},
		{minus1(neg(two(31))), dtypes.Weak(dtypes.I64), ""},
		{minus1(two(31)), dtypes.Weak(dtypes.I32), ""},
		{two(31), dtypes.Weak(dtypes.U32), ""},
		{two(32), dtypes.Weak(dtypes.I64), ""},
		{two(63), dtypes.Weak(dtypes.U64), ""},
		{minus1(two(64)), dtypes.Weak(dtypes.U64), ""},
		{two(64), dtypes.Type{}, "Nonrepresentable integer 18446744073709551616"},
		{minus1(neg(two(63))), dtypes.Type{}, "Nonrepresentable integer"},
		{tritonFloat(1.5), dtypes.Weak(dtypes.F32), ""},
		{tritonFloat(0), dtypes.Weak(dtypes.F32), ""},
		{tritonFloat(math.NaN()), dtypes.Weak(dtypes.F32), ""},
		{tritonFloat(math.Inf(-1)), dtypes.Weak(dtypes.F32), ""},
		{tritonFloat(math.MaxFloat32), dtypes.Weak(dtypes.F32), ""},
		{tritonFloat(1e39), dtypes.Weak(dtypes.F64), ""},
		{tritonFloat(0x1p-126), dtypes.Weak(dtypes.F32), ""},
		{tritonFloat(0x1p-127), dtypes.Weak(dtypes.F64), ""},
		{BoolValue(true), dtypes.Strong(dtypes.Bool), ""},
		{ComplexValue(1 + 2i), dtypes.Type{}, "no complex dtype"},
	}
	for _, c := range cases {
		got, err := p.Literal(c.v)
		if c.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), c.wantErr) {
				t.Errorf("Literal(%s) = %v, %v; want error %q", c.v, got, err, c.wantErr)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("Literal(%s) = %v, %v; want %v", c.v, got, err, c.want)
		}
	}
	if err := p.Convert(tritonInt(300), dtypes.I8); err != nil {
		t.Errorf("Convert(300, i8) = %v, want nil (tl.cast wraps)", err)
	}
	if err := p.Convert(tritonInt(1), dtypes.C64); err == nil {
		t.Error("Convert(1, c64) succeeded")
	}
	if d, _, err := p.Check(dtypes.TF32); err == nil {
		t.Errorf("Check(tf32) = %v", d)
	}
	for k, want := range map[ScalarKind]dtypes.Type{BoolScalar: dtypes.Strong(dtypes.Bool), IntScalar: dtypes.Weak(dtypes.I32), FloatScalar: dtypes.Weak(dtypes.F32)} {
		if got, err := p.ArrayLiteral(k); err != nil || got != want {
			t.Errorf("ArrayLiteral(%s) = %v, %v; want %v", k, got, err, want)
		}
	}
	if _, err := p.ArrayLiteral(ComplexScalar); err == nil {
		t.Error("ArrayLiteral(complex) succeeded")
	}
}

func TestTritonUnary(t *testing.T) {
	p := tritonMustPolicy(t, "triton")
	ten := tritonTensor
	cases := []struct {
		op      UnaryOp
		x       Operand
		want    dtypes.Type
		wantErr string
	}{
		{Exp, ten(dtypes.F32), dtypes.Strong(dtypes.F32), ""},
		{Sqrt, ten(dtypes.F64), dtypes.Strong(dtypes.F64), ""},
		{Exp, ten(dtypes.F16), dtypes.Type{}, "Expected dtype ['fp32', 'fp64'] but got fp16"},
		{Sin, ten(dtypes.I32), dtypes.Type{}, "Expected dtype ['fp32', 'fp64'] but got int32"},
		{Floor, ten(dtypes.Bool), dtypes.Type{}, "but got int1"},
		{Exp, tritonLit(t, p, tritonFloat(1)), dtypes.Strong(dtypes.F32), ""},
		{Exp, tritonLit(t, p, tritonFloat(1e300)), dtypes.Strong(dtypes.F64), ""},
		{Exp, tritonLit(t, p, tritonInt(1)), dtypes.Type{}, "but got int32"},
		{Softmax, ten(dtypes.F16), dtypes.Strong(dtypes.F32), ""},
		{Softmax, ten(dtypes.F64), dtypes.Strong(dtypes.F64), ""},
		{Softmax, ten(dtypes.U8), dtypes.Type{}, "but got int32"},
		{Softmax, ten(dtypes.U32), dtypes.Type{}, "but got uint32"},
		{Sum, ten(dtypes.I8), dtypes.Strong(dtypes.I32), ""},
		{Sum, ten(dtypes.U16), dtypes.Strong(dtypes.U32), ""},
		{Sum, ten(dtypes.Bool), dtypes.Strong(dtypes.U32), ""},
		{Sum, ten(dtypes.I64), dtypes.Strong(dtypes.I64), ""},
		{Sum, ten(dtypes.F16), dtypes.Strong(dtypes.F16), ""},
		{ReduceMax, ten(dtypes.I8), dtypes.Strong(dtypes.I32), ""},
		{ReduceMax, ten(dtypes.U8), dtypes.Strong(dtypes.I32), ""},
		{ReduceMin, ten(dtypes.BF16), dtypes.Strong(dtypes.F32), ""},
		{ReduceMax, ten(dtypes.U64), dtypes.Strong(dtypes.U64), ""},
		{ArgMax, ten(dtypes.F64), dtypes.Strong(dtypes.I32), ""},
		{Mean, ten(dtypes.I8), dtypes.Strong(dtypes.F32), ""},
		{Mean, ten(dtypes.F16), dtypes.Strong(dtypes.F32), ""},
		{Mean, ten(dtypes.F64), dtypes.Strong(dtypes.F64), ""},
		{Invert, ten(dtypes.I8), dtypes.Strong(dtypes.I8), ""},
		{Invert, ten(dtypes.F32), dtypes.Type{}, "wrong type argument to unary invert (triton.language.fp32)"},
		{Not, ten(dtypes.Bool), dtypes.Strong(dtypes.Bool), ""},
		{Not, ten(dtypes.I32), dtypes.Type{}, "Cannot bitcast data-type of size 32 to data-type of size 1"},
		{Neg, ten(dtypes.U8), dtypes.Strong(dtypes.U8), ""},
		{Abs, ten(dtypes.F8E5M2), dtypes.Strong(dtypes.F8E5M2), ""},
		{IsNaN, ten(dtypes.F16), dtypes.Strong(dtypes.Bool), ""},
		{Any, ten(dtypes.I32), dtypes.Strong(dtypes.Bool), ""},
		{Neg, tritonLit(t, p, BoolValue(true)), dtypes.Weak(dtypes.I32), ""},
		{Relu, Operand{Type: dtypes.Weak(dtypes.F32), Rank: 1}, dtypes.Weak(dtypes.F32), ""},
	}
	for _, c := range cases {
		r, err := p.Unary(c.op, c.x)
		if c.wantErr != "" {
			var e *Error
			if !errors.As(err, &e) || !strings.Contains(e.Msg, c.wantErr) || e.Operand != 0 {
				t.Errorf("triton %s(%v): got %v %v, want error %q", c.op, c.x.Type, r.Type, err, c.wantErr)
			}
			continue
		}
		if err != nil || r.Type != c.want || r.Rule == "" {
			t.Errorf("triton %s(%v): got %v %v, want %v", c.op, c.x.Type, r.Type, err, c.want)
		}
	}
}

// TestTritonTour checks the triton lines of TOUR.md.
func TestTritonTour(t *testing.T) {
	p := tritonMustPolicy(t, "triton")
	r, err := p.Binary(FloorDiv, tritonTensor(dtypes.I32), tritonTensor(dtypes.I32))
	if err != nil || r.Type != dtypes.Strong(dtypes.I32) || !r.CDiv {
		t.Errorf("i32([-7, 7]) // i32([2, -2]): %v cdiv %v %v, want i32 with C division", r.Type, r.CDiv, err)
	}
	r, err = p.Binary(FloorDiv, tritonLit(t, p, tritonInt(-7)), tritonLit(t, p, tritonInt(2)))
	if err != nil || r.Type != dtypes.Weak(dtypes.I32) || r.CDiv {
		t.Errorf("-7 // 2: %v cdiv %v %v, want i32? with Python division", r.Type, r.CDiv, err)
	}
	r, err = p.Binary(Add, tritonTensor(dtypes.I16), tritonLit(t, p, tritonFloat(4)))
	if err != nil || r.Type != dtypes.Strong(dtypes.F32) || !strings.Contains(r.Rule, "fp32") {
		t.Errorf("i16([1]) + 4.0: %v %q %v, want f32 by the fp32 rule", r.Type, r.Rule, err)
	}
	r, err = p.Binary(Add, tritonTensor(dtypes.I8), tritonLit(t, p, tritonFloat(1.5)))
	if err != nil || r.Type != dtypes.Strong(dtypes.F32) {
		t.Errorf("i8([100]) + 1.5: %v %v, want f32", r.Type, err)
	}
}

func TestTritonDocSeedExamples(t *testing.T) {
	p := tritonMustPolicy(t, "triton-doc")
	lit := func(v Scalar) Operand { return tritonLit(t, p, v) }
	ten, S := tritonTensor, dtypes.Strong
	tritonRunCases(t, p, []tritonCase{
		{name: "kind: (int32, bfloat16)", op: Add, x: ten(dtypes.I32), y: ten(dtypes.BF16), want: S(dtypes.BF16)},
		{name: "width: (float32, float16)", op: Add, x: ten(dtypes.F32), y: ten(dtypes.F16), want: S(dtypes.F32)},
		{name: "supremum: (float16, bfloat16)", op: Add, x: ten(dtypes.F16), y: ten(dtypes.BF16), want: S(dtypes.F32)},
		{name: "3.1: two fp8", op: Add, x: ten(dtypes.F8E4M3), y: ten(dtypes.F8E5M2), want: S(dtypes.F16)},
		{name: "prefer unsigned: (int32, uint32)", op: Add, x: ten(dtypes.I32), y: ten(dtypes.U32), want: S(dtypes.U32)},
		{name: "scalar rule 1: (uint8, int)", op: Add, x: ten(dtypes.U8), y: lit(tritonInt(1)), want: S(dtypes.U8)},
		{name: "scalar rule 2: (int16, 4.0)", op: Add, x: ten(dtypes.I16), y: lit(tritonFloat(4)), want: S(dtypes.F32)},
		{name: "scalar rule 2: (bool, 2**32)", op: Add, x: ten(dtypes.Bool), y: lit(tritonInt(1 << 32)), want: S(dtypes.I64)},
		{name: "C rounding: int // int on tensors", op: FloorDiv, x: ten(dtypes.I32), y: ten(dtypes.I32), want: S(dtypes.I32), cdiv: true},
		{name: "Python rounding when all inputs are scalars", op: FloorDiv, x: lit(tritonInt(-7)), y: lit(tritonInt(2)), want: dtypes.Weak(dtypes.I32)},
		{name: "the page has no signedness error", op: Mod, x: ten(dtypes.I32), y: ten(dtypes.U32), want: S(dtypes.U32), cdiv: true},
		{name: "the page has no fp16 upcast for /", op: TrueDiv, x: ten(dtypes.F16), y: ten(dtypes.F16), want: S(dtypes.F16)},
	})
}

// TestTritonDocDiffers lists where the page and the code disagree for
// tensor + tensor; f16 + bf16 must be among them.
func TestTritonDocDiffers(t *testing.T) {
	impl, doc := tritonMustPolicy(t, "triton"), tritonMustPolicy(t, "triton-doc")
	var diffs []string
	seen := map[string]bool{}
	for _, a := range tritonDTypes {
		for _, b := range tritonDTypes {
			ri, ei := impl.Binary(Add, tritonTensor(a), tritonTensor(b))
			rd, ed := doc.Binary(Add, tritonTensor(a), tritonTensor(b))
			if ed != nil {
				t.Errorf("triton-doc %s + %s: %v (the page's algorithm is total)", a, b, ed)
			}
			gi := ri.Type.String()
			if ei != nil {
				gi = "error"
			}
			if gi != rd.Type.String() {
				diffs = append(diffs, a.String()+"+"+b.String()+": triton "+gi+", doc "+rd.Type.String())
				seen[a.String()+"+"+b.String()] = true
			}
		}
	}
	for _, want := range []string{"f16+bf16", "bf16+f16", "i32+bf16", "bool+bf16", "f8e4m3+i8", "f8e4m3+bf16"} {
		if !seen[want] {
			t.Errorf("%s should differ between triton and triton-doc", want)
		}
	}
	if seen["i32+u32"] || seen["f32+f16"] {
		t.Error("triton and triton-doc should agree on (int32, uint32) and (float32, float16)")
	}
	t.Logf("triton-doc: %d of %d tensor+tensor cells differ from triton:\n%s", len(diffs), len(tritonDTypes)*len(tritonDTypes), strings.Join(diffs, "\n"))
}

// TestTritonSymmetry checks that swapping the operands changes nothing but
// the blamed operand, for every pair of dtypes, tensors and scalars.
func TestTritonSymmetry(t *testing.T) {
	for _, name := range []string{"triton", "triton-doc"} {
		p := tritonMustPolicy(t, name)
		checked, bad := 0, 0
		for _, a := range tritonDTypes {
			for _, b := range tritonDTypes {
				for _, op := range []BinaryOp{Add, Mul, Mod, TrueDiv, Lt, Maximum, BitOr} {
					for _, pair := range [][2]Operand{{tritonTensor(a), tritonTensor(b)}, {tritonTensor(a), tritonScalar(b)}, {tritonZeroDim(a), tritonZeroDim(b)}} {
						r1, e1 := p.Binary(op, pair[0], pair[1])
						r2, e2 := p.Binary(op, pair[1], pair[0])
						checked++
						if (e1 == nil) != (e2 == nil) || r1.Type != r2.Type || r1.Compute != r2.Compute || r1.CDiv != r2.CDiv {
							bad++
							t.Errorf("%s: %v %s %v = %v %v but swapped %v %v", name, pair[0].Type, op, pair[1].Type, r1.Type, e1, r2.Type, e2)
						}
					}
				}
			}
		}
		t.Logf("%s: %d cells checked, %d mismatches (symmetry)", name, checked, bad)
	}
}
