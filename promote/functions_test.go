package promote

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tensorsh/tensorsh/dtypes"
)

// The everyday functions by name, for the reference tables.
var (
	functionUnary = map[string]UnaryOp{
		"tan": Tan, "arcsin": Arcsin, "arccos": Arccos, "arctan": Arctan, "sinh": Sinh, "cosh": Cosh,
		"arcsinh": Arcsinh, "arccosh": Arccosh, "arctanh": Arctanh, "log2": Log2, "log10": Log10,
		"exp2": Exp2, "expm1": Expm1, "sign": Sign, "square": Square, "reciprocal": Reciprocal,
		"isfinite": IsFinite,
	}
	functionBinary = map[string]BinaryOp{"arctan2": Arctan2, "hypot": Hypot}
	refsScalars    = map[string]Scalar{
		"int_1": Int64Value(1), "int_-1": Int64Value(-1), "int_300": Int64Value(300),
		"float_1.5": FloatValue(1.5), "float_1e300": FloatValue(1e300), "bool_true": BoolValue(true),
	}
)

// TestNumPy1FunctionRefs checks the numpy1 policy's dtype for every cell
// of testdata/refs/numpy1_functions.json, which NumPy 1.24.2 wrote
// (testdata/refs/gen_functions.py): each function on an array of each
// dtype, arctan2 and hypot on every pair of arrays and on an array with a
// Python scalar. The loops behind them are numpy/_core/code_generators/
// generate_umath.py's: 'efd' plus complex for the float functions (a bool
// or an integer takes the first loop it casts to safely), nobool for sign,
// ints + inexact for square and reciprocal, flts only ('efdg') for arctan2
// and hypot.
func TestNumPy1FunctionRefs(t *testing.T) {
	p, _ := Lookup("numpy1")
	check := func(key string, r Result, err error, want, wantErr string) {
		t.Helper()
		switch {
		case wantErr != "" && err == nil:
			t.Errorf("%s: got %v, want an error (%s)", key, r.Type, wantErr)
		case wantErr == "" && err != nil:
			t.Errorf("%s: got error %v, want %s", key, err, want)
		case wantErr == "" && r.Type.DType.String() != want && r.Type.DType.FullName() != want:
			t.Errorf("%s: got %s, want %s", key, r.Type.DType.FullName(), want)
		}
	}
	n := 0
	for _, c := range refsTable(t, "numpy1_functions", "unary") {
		d, ok := refsDType(c.RHS)
		if !ok {
			t.Fatalf("%s: unknown dtype", c.Key)
		}
		r, err := p.Unary(functionUnary[c.LHS], Operand{Type: dtypes.Strong(d), Rank: 1})
		check(c.Key, r, err, c.DType, c.Err)
		n++
	}
	for _, c := range refsTable(t, "numpy1_functions", "binary") {
		a, b, _ := strings.Cut(c.RHS, ",")
		da, ok1 := refsDType(a)
		db, ok2 := refsDType(b)
		if !ok1 || !ok2 {
			t.Fatalf("%s: unknown dtype", c.Key)
		}
		r, err := p.Binary(functionBinary[c.LHS], Operand{Type: dtypes.Strong(da), Rank: 1}, Operand{Type: dtypes.Strong(db), Rank: 1})
		check(c.Key, r, err, c.DType, c.Err)
		n++
	}
	for _, c := range refsTable(t, "numpy1_functions", "array_scalar") {
		a, s, _ := strings.Cut(c.RHS, ",")
		da, ok := refsDType(a)
		v, okv := refsScalars[s]
		if !ok || !okv {
			t.Fatalf("%s: unknown dtype or scalar", c.Key)
		}
		lt, err := p.Literal(v)
		if err != nil {
			t.Fatalf("%s: %v", c.Key, err)
		}
		r, err := p.Binary(functionBinary[c.LHS], Operand{Type: dtypes.Strong(da), Rank: 1}, Operand{Type: lt, Literal: true, Value: &v})
		check(c.Key, r, err, c.DType, c.Err)
		n++
	}
	if n < 700 {
		t.Errorf("only %d cells checked", n)
	}
}

// TestFunctionRules checks each policy's dtype rule for the everyday
// functions where the libraries differ, and the clear error where a
// library lacks one.
func TestFunctionRules(t *testing.T) {
	arr := func(d dtypes.DType) Operand { return Operand{Type: dtypes.Strong(d), Rank: 1} }
	lit := func(v Scalar, d dtypes.DType) Operand { return Operand{Type: dtypes.Weak(d), Literal: true, Value: &v} }
	for _, tt := range []struct {
		policy string
		op     any // UnaryOp or BinaryOp
		x, y   Operand
		want   string // the result type, or "error: " and a part of the message
	}{
		// NumPy 2 has NumPy 1's loops (generate_umath.py: sign is
		// TD(nobool_or_datetime), square and reciprocal TD(ints+inexact),
		// arctan2 and hypot TD(flts)); under NEP 50 a Python scalar casts
		// to any loop of its kind, so only the array picks the loop.
		{"numpy", Tan, arr(dtypes.I8), Operand{}, "f16"},
		{"numpy", Log10, arr(dtypes.I32), Operand{}, "f64"},
		{"numpy", Sign, arr(dtypes.Bool), Operand{}, "error: ufunc 'sign'"},
		{"numpy", Square, arr(dtypes.Bool), Operand{}, "i8"},
		{"numpy", Reciprocal, arr(dtypes.I16), Operand{}, "i16"},
		{"numpy", IsFinite, arr(dtypes.U8), Operand{}, "bool"},
		{"numpy", Arctan2, arr(dtypes.I8), arr(dtypes.U8), "f16"},
		{"numpy", Arctan2, arr(dtypes.I8), lit(Int64Value(300), dtypes.I64), "f16"},
		{"numpy", Arctan2, arr(dtypes.I16), arr(dtypes.F16), "f32"},
		{"numpy", Hypot, arr(dtypes.C64), arr(dtypes.F32), "error: not supported for the input types"},
		// jax/_src/numpy/ufuncs.py: the float functions and arctan2 and
		// hypot are promote_args_inexact (x64 off: float32); sign is
		// lax.sign (numbers only); square is promote_dtypes_numeric;
		// reciprocal promote_dtypes_inexact; hypot raises for complex.
		{"jax", Tan, arr(dtypes.I8), Operand{}, "f32"},
		{"jax", Sign, arr(dtypes.Bool), Operand{}, "error: sign does not accept dtype bool"},
		{"jax", Square, arr(dtypes.Bool), Operand{}, "i32"},
		{"jax", Square, lit(BoolValue(true), dtypes.Bool), Operand{}, "i32"}, // a Python bool is not weak in JAX (dtypes._weak_types)
		{"jax", Reciprocal, arr(dtypes.I16), Operand{}, "f32"},
		{"jax", Reciprocal, lit(Int64Value(2), dtypes.I32), Operand{}, "f32?"},
		{"jax", Arctan2, arr(dtypes.I8), arr(dtypes.U8), "f32"},
		{"jax", Hypot, arr(dtypes.C64), arr(dtypes.C64), "error: not defined for complex"},
		// torch/_refs/__init__.py: the float functions, atan2 and
		// reciprocal are INT_TO_FLOAT (the default float32); square is
		// BOOL_TO_LONG; hypot_kernel dispatches on floating types only;
		// torch.sign refuses complex (torch.sgn takes it).
		{"torch", Expm1, arr(dtypes.I64), Operand{}, "f32"},
		{"torch", Square, arr(dtypes.Bool), Operand{}, "i64"},
		{"torch", Square, arr(dtypes.U8), Operand{}, "u8"},
		{"torch", Reciprocal, arr(dtypes.I32), Operand{}, "f32"},
		{"torch", Sign, arr(dtypes.Bool), Operand{}, "bool"},
		{"torch", Sign, arr(dtypes.C64), Operand{}, "error: not supported for complex"},
		{"torch", Arctan2, arr(dtypes.I8), arr(dtypes.I16), "f32"},
		{"torch", Hypot, arr(dtypes.I8), arr(dtypes.I8), "error: \"hypot_cpu\" not implemented for 'Char'"},
		{"torch", Hypot, arr(dtypes.F16), arr(dtypes.F32), "f32"},
		// The Array API standard's elementwise functions: floating-point
		// inputs for the float functions, reciprocal, atan2 and hypot
		// (real only); no exp2.
		{"array-api", Arcsin, arr(dtypes.I32), Operand{}, "error: needs a floating-point input"},
		{"array-api", Exp2, arr(dtypes.F32), Operand{}, "error: the standard has no exp2"},
		{"array-api", Reciprocal, arr(dtypes.I32), Operand{}, "error: needs a floating-point input"},
		{"array-api", Square, arr(dtypes.I32), Operand{}, "i32"},
		{"array-api", Hypot, arr(dtypes.F32), arr(dtypes.F64), "f64"},
		{"array-api", Arctan2, arr(dtypes.C64), arr(dtypes.F32), "error: needs real-valued floating-point"},
		// Triton: exp2 and log2 in triton.language, the others in
		// libdevice (fp32 and fp64 only); no sign, square, reciprocal or
		// isfinite.
		{"triton", Log2, arr(dtypes.F32), Operand{}, "f32"},
		{"triton", Arcsinh, arr(dtypes.F16), Operand{}, "error: libdevice.asinh"},
		{"triton", Square, arr(dtypes.F32), Operand{}, "error: triton.language has no square"},
		{"triton", Hypot, arr(dtypes.F32), arr(dtypes.F64), "f64"},
		{"triton", Arctan2, arr(dtypes.F16), arr(dtypes.F16), "error: libdevice.atan2"},
		// MAX (research/max.md §4): the Mojo graph API has none of them;
		// max.graph.ops has acos and atanh, float-only.
		{"max", Log2, arr(dtypes.F32), Operand{}, "error: MAX has no log2"},
		{"max", Hypot, arr(dtypes.F32), arr(dtypes.F32), "error: MAX has no hypot"},
		{"max-graph", Arccos, arr(dtypes.F16), Operand{}, "f16"},
		{"max-graph", Arctanh, arr(dtypes.I32), Operand{}, "error: only supports floating point"},
		{"max-graph", Sinh, arr(dtypes.F32), Operand{}, "error: MAX has no sinh"},
		// anvil (research/anvil.md §4): tan, expm1 and the inverse
		// functions are float-only; sign takes floats and signed ints;
		// atan2 promotes and is float-only; no log2, log10, exp2,
		// square, reciprocal or hypot.
		{"anvil", Tan, arr(dtypes.I32), Operand{}, "error: must have dtype FloatType"},
		{"anvil", Sign, arr(dtypes.I8), Operand{}, "i8"},
		{"anvil", Sign, arr(dtypes.U8), Operand{}, "error: sign needs a float or signed int"},
		{"anvil", Arctan2, arr(dtypes.F32), arr(dtypes.F64), "f64"},
		{"anvil", Arctan2, arr(dtypes.I32), arr(dtypes.I32), "error: must have dtype FloatType"},
		{"anvil", Log10, arr(dtypes.F32), Operand{}, "error: anvil has no log10"},
		{"anvil", IsFinite, arr(dtypes.F32), Operand{}, "bool"},
	} {
		p, err := Lookup(tt.policy)
		if err != nil {
			t.Fatal(err)
		}
		var r Result
		var name string
		switch op := tt.op.(type) {
		case UnaryOp:
			r, err = p.Unary(op, tt.x)
			name = fmt.Sprintf("%s: %s(%s)", tt.policy, op, tt.x.Type)
		case BinaryOp:
			r, err = p.Binary(op, tt.x, tt.y)
			name = fmt.Sprintf("%s: %s(%s, %s)", tt.policy, op, tt.x.Type, tt.y.Type)
		}
		if msg, isErr := strings.CutPrefix(tt.want, "error: "); isErr {
			if err == nil || !strings.Contains(err.Error(), msg) {
				t.Errorf("%s: got %v, %v; want an error with %q", name, r.Type, err, msg)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v, want %s", name, err, tt.want)
		} else if r.Type.String() != tt.want {
			t.Errorf("%s: got %s, want %s", name, r.Type, tt.want)
		}
	}
}
