package promote

import (
	"fmt"
	"math/big"
	"strings"
	"testing"

	"github.com/tensorsh/tensorsh/dtypes"
)

// numpyRefs checks the numpy policy against every cell of refs/numpy.json:
// pairs of arrays, and arrays meeting Python scalars (NEP 50).
func numpyRefs(t testing.TB, report func(string, ...any)) refsTally {
	p := refsMust(t, "numpy")
	literalBlamed := func(c refsCell, r Result, err error) string {
		if err != nil && refsBlame(err) != 1 {
			return fmt.Sprintf("error %q blames operand %d, want the Python scalar (1)", err, refsBlame(err))
		}
		return ""
	}
	var n refsTally
	// "pairs" is numpy.promote_types: tensorsh's promote(a, b) (Where).
	n.Add(refsCheckOp(t, report, p, Where, "numpy", "pairs", refsAsArray(p, false), refsAsArray(p, false), nil))
	n.Add(refsCheck(t, report, p, "numpy", "array_scalar", refsAsArray(p, false), refsAsLiteral(p), literalBlamed))
	return n
}

func TestNumPyRefs(t *testing.T) {
	n := numpyRefs(t, t.Errorf)
	t.Logf("numpy: %d cells checked, %d mismatches", n.Checked, n.Mismatches)
	if n.Checked != 289+170 {
		t.Errorf("numpy: checked %d cells, want %d", n.Checked, 289+170)
	}
}

// TestRefsSummary prints, for go test -v, the number of reference cells
// each of the jax, jax64, numpy, numpy1 and torch policies was checked
// against, and fails on any mismatch (the policy tests give the details).
func TestRefsSummary(t *testing.T) {
	quiet := func(string, ...any) {}
	for _, c := range []struct {
		name string
		run  func() refsTally
	}{
		{"jax", func() refsTally { return jaxRefs(t, quiet, "jax") }},
		{"jax64", func() refsTally { return jaxRefs(t, quiet, "jax64") }},
		{"numpy", func() refsTally { return numpyRefs(t, quiet) }},
		{"numpy1", func() refsTally { return numpy1Refs(t, quiet) }},
		{"torch", func() refsTally { return torchRefs(t, quiet) }},
	} {
		n := c.run()
		t.Logf("%-7s %4d cells checked, %d mismatches", c.name+":", n.Checked, n.Mismatches)
		if n.Mismatches != 0 {
			t.Errorf("%s: %d mismatches", c.name, n.Mismatches)
		}
	}
}

func TestNumPyBinary(t *testing.T) {
	p := refsMust(t, "numpy")
	const (
		b, i8, i16, i64, u8, u64 = dtypes.Bool, dtypes.I8, dtypes.I16, dtypes.I64, dtypes.U8, dtypes.U64
		f16, bf16, f32, f64, c64 = dtypes.F16, dtypes.BF16, dtypes.F32, dtypes.F64, dtypes.C64
	)
	mineBinary(t, p, []mineBin{
		// TOUR.md
		{mineArr(i8), Add, mineLit(p, 200), "error@1: numpy: Python int 200 is out of bounds for int8 (NEP 50: a Python int must fit the array's dtype)", 0},
		{mineArr(i16), Add, mineLit(p, 1.5), "f64", f64},
		{mineArr(i8), Add, mineLit(p, 100), "i8", i8},
		{mineLit(p, -1), Add, mineArr(u8), "error@0: Python int -1 is out of bounds for uint8", 0},
		{mineArr(b), Add, mineLit(p, 1), "i64", 0},
		{mineArr(f16), Add, mineLit(p, 1.5), "f16", 0},
		{mineArr(f16), Add, mineLit(p, 65519), "f16", 0},
		{mineArr(bf16), Add, mineLit(p, 1.5), "f32", 0},
		{mineArr(f16), Add, mineLit(p, 1i), "c64", 0},
		{mineArr(f64), Add, mineLit(p, 1i), "c128", 0},
		{mineArr(bf16), Where, mineArr(f16), "error@-1: no common dtype", 0},
		{mineArr(bf16), Add, mineArr(f16), "f32", f32},
		// Comparisons with out-of-bounds Python ints are exact in NumPy 2.
		{mineArr(u8), Eq, mineLit(p, 300), "bool", i16},
		{mineArr(u64), Lt, mineLit(p, -1), "bool", f64},
		{mineArr(u8), Lt, mineLit(p, 7), "bool", u8},
		// The Python scalar is checked against the loop's dtype.
		{mineArr(i8), TrueDiv, mineLit(p, 300), "f64", f64},
		{mineArr(i8), FloorDiv, mineLit(p, 300), "error@1: out of bounds for int8", 0},
		{mineArr(u8), Shl, mineLit(p, 300), "error@1: out of bounds for uint8", 0},
		{mineArr(i8), Pow, mineLit(p, -1), "error@1: negative integer powers", 0},
		{mineArr(f32), Pow, mineLit(p, -1), "f32", 0},
		{mineArr(b), Sub, mineArr(b), "error@-1: boolean subtract", 0},
		{mineArr(b), Pow, mineArr(b), "i8", i8},
		{mineArr(b), Mod, mineArr(b), "i8", 0},
		{mineArr(b), Shr, mineArr(b), "i8", 0},
		{mineArr(b), BitXor, mineArr(b), "bool", 0},
		{mineArr(i8), TrueDiv, mineArr(i8), "f64", 0},
		{mineArr(f16), TrueDiv, mineArr(f16), "f16", 0},
		{mineArr(c64), FloorDiv, mineArr(c64), "error@-1: not supported for complex", 0},
		{mineArr(f32), BitAnd, mineArr(i8), "error@-1: needs int or bool", 0},
		{mineArr(i8), Lt, mineArr(f16), "bool", f16},
		{mineArr(i8), And, mineArr(f32), "bool", b},
		{mineLit(p, 1), Add, mineLit(p, 1.5), "f64?", 0},
		{mineLit(p, 1), Lt, mineLit(p, 2), "bool?", 0},
		{mineArr(i64), Add, mineArr(u64), "f64", 0},
		{mineArr(dtypes.TF32), Add, mineArr(f32), "error@0: no dtype tf32", 0},
	})
	r, err := p.Binary(FloorDiv, mineArr(i8), mineArr(i8))
	if err != nil || r.ZeroDivError || r.CDiv {
		t.Errorf("numpy: i8 // i8 = %+v, %v; want floor division, x//0 not an error", r, err)
	}
}

func TestNumPyUnary(t *testing.T) {
	p := refsMust(t, "numpy")
	const (
		b, i8, i16, i32, i64, u8, u16 = dtypes.Bool, dtypes.I8, dtypes.I16, dtypes.I32, dtypes.I64, dtypes.U8, dtypes.U16
		f16, bf16, f32, f64, c64      = dtypes.F16, dtypes.BF16, dtypes.F32, dtypes.F64, dtypes.C64
	)
	mineUnary(t, p, []mineUn{
		{Log, mineArr(u8), "f16", f16},
		{Log, mineArr(i16), "f32", 0},
		{Exp, mineArr(i32), "f64", 0},
		{Exp, mineArr(b), "f16", 0},
		{Exp, mineArr(bf16), "bf16", 0},
		{Exp, mineLit(p, 1), "f64", 0},
		{Erf, mineArr(c64), "error@0: not defined for complex", 0},
		{Mean, mineArr(i32), "f64", 0},
		{Mean, mineArr(b), "f64", 0},
		{Mean, mineArr(f16), "f16", f32},
		{Sum, mineArr(i8), "i64", i64},
		{Sum, mineArr(u16), "u64", 0},
		{Prod, mineArr(b), "i64", 0},
		{Sum, mineArr(f16), "f16", f16},
		{ArgMax, mineArr(f32), "i64", f32},
		{Floor, mineArr(i8), "i8", 0},
		{Ceil, mineArr(b), "bool", 0},
		{Trunc, mineArr(c64), "error@0: not supported for complex", 0},
		{RoundEven, mineArr(c64), "c64", 0},
		{Neg, mineArr(b), "error@0: boolean negative", 0},
		{Neg, mineLit(p, 3), "i64?", 0},
		{Abs, mineArr(b), "bool", 0},
		{Invert, mineArr(f64), "error@0: needs an int or bool", 0},
		{Not, mineArr(f32), "bool", b},
		{IsInf, mineArr(f16), "bool", f16},
		{All, mineArr(i8), "bool", i8},
		{ReduceMin, mineArr(c64), "c64", 0},
	})
}

func TestNumPyCheckLiteralConvert(t *testing.T) {
	p := refsMust(t, "numpy")
	for _, d := range p.DTypes() {
		if got, warn, err := p.Check(d); got != d || warn != "" || err != nil {
			t.Errorf("numpy.Check(%s) = %s, %q, %v", d, got, warn, err)
		}
	}
	for _, d := range []dtypes.DType{dtypes.TF32, dtypes.Index, dtypes.Address} {
		if _, _, err := p.Check(d); err == nil || !strings.HasPrefix(err.Error(), "numpy: no dtype "+d.String()) {
			t.Errorf("numpy.Check(%s) = %v, want an error naming numpy", d, err)
		}
	}
	for _, c := range []struct {
		v    Scalar
		want string
	}{
		{Int64Value(1), "i64?"},
		{IntValue(minePow2(63)), "u64?"},
		{IntValue(minePow2(64)), "error"},
		{FloatValue(0.5), "f64?"},
		{ComplexValue(1i), "c128?"},
		{BoolValue(false), "bool?"},
	} {
		got, err := p.Literal(c.v)
		if c.want == "error" {
			if err == nil {
				t.Errorf("numpy.Literal(%s) = %s, want an error", c.v, got)
			}
		} else if err != nil || got.String() != c.want {
			t.Errorf("numpy.Literal(%s) = %s, %v; want %s", c.v, got, err, c.want)
		}
	}
	if got, _ := p.ArrayLiteral(FloatScalar); got != dtypes.Strong(dtypes.F64) {
		t.Errorf("numpy.ArrayLiteral(float) = %s, want f64", got)
	}
	mineConvert(t, p, []mineConv{
		{Int64Value(300), dtypes.I8, "out of bounds for int8"},
		{Int64Value(127), dtypes.I8, ""},
		{Int64Value(-1), dtypes.U64, "out of bounds"},
		{FloatValue(1e300), dtypes.F16, "overflow"},
		{Int64Value(70000), dtypes.F16, "overflow"},
		{Int64Value(65504), dtypes.F16, ""},
		{IntValue(minePow2(40)), dtypes.BF16, ""},
		{FloatValue(1.5), dtypes.I8, ""},
		{FloatValue(1e10), dtypes.I8, "invalid value"},
		{ComplexValue(1i), dtypes.F64, "cannot convert complex"},
		{Int64Value(5), dtypes.Bool, ""},
		{Int64Value(5), dtypes.TF32, "no dtype"},
	})
}

// A mineConv is a Convert case: want is "" for success or part of the
// error.
type mineConv struct {
	v    Scalar
	d    dtypes.DType
	want string
}

func mineConvert(t *testing.T, p Policy, cases []mineConv) {
	t.Helper()
	for _, c := range cases {
		err := p.Convert(c.v, c.d)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s.Convert(%s, %s) = %v, want ok", p.Name(), c.v, c.d, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s.Convert(%s, %s) = %v, want an error with %q", p.Name(), c.v, c.d, err, c.want)
		}
	}
}

// TestNumPyWeakOverflow pins NEP 50's conversion of a weak Python scalar to
// the loop's dtype when the value overflows it. NumPy writes the scalar into
// a 0-d array of the loop's dtype (numpy/_core/src/multiarray/abstractdtypes.c,
// npy_update_operand_for_scalar → PyArray_SETITEM; a Python int goes through
// PyLong_AsDouble), and the cast's overflow flag becomes
// "RuntimeWarning: overflow encountered in cast" (PyUFunc_GiveFloatingpointErrors
// with "cast"): the value is ±inf and the operation goes on. NEP 50
// (https://numpy.org/neps/nep-0050-scalar-promotion.html) keeps the error
// only for integers: "np.uint8(1) + 300" raises, "np.float32(3) + 3e100"
// warns and gives inf. refs/numpy.json records the warning cells
// (float32,float_1e300 …) as "error: RuntimeWarning: …".
func TestNumPyWeakOverflow(t *testing.T) {
	p := refsMust(t, "numpy")
	const (
		i8, i64, u64, f16, bf16, f32, f64 = dtypes.I8, dtypes.I64, dtypes.U64, dtypes.F16, dtypes.BF16, dtypes.F32, dtypes.F64
		c64, c128, e4, e5                 = dtypes.C64, dtypes.C128, dtypes.F8E4M3, dtypes.F8E5M2
	)
	const warn = "RuntimeWarning: overflow encountered in cast"
	for _, c := range []struct {
		x    Operand
		op   BinaryOp
		y    Operand
		want string // a type, or "error@N: text"
		warn string // the warning's text, "" for none
	}{
		{mineArr(f32), Add, mineLit(p, 3e100), "f32", warn + " (the Python float 3e+100 becomes inf in float32)"},
		{mineArr(f32), Mul, mineLit(p, -1e200), "f32", "becomes -inf in float32"},
		{mineLit(p, 1e300), Sub, mineArr(f16), "f16", warn},
		{mineArr(f16), Add, mineLit(p, 65520.0), "f16", warn},
		{mineArr(f16), Add, mineLit(p, 65519.0), "f16", ""},
		{mineArr(f32), Lt, mineLit(p, 1e300), "bool", warn},
		{mineArr(bf16), Add, mineLit(p, 1e300), "f32", warn}, // ml_dtypes: bf16 with a Python float uses float32
		{mineArr(e4), Add, mineLit(p, 1e300), "f32", warn},
		{mineArr(c64), Add, mineLit(p, 1e300i), "c64", "overflows to infinity in complex64"},
		{mineArr(c64), Add, mineLit(p, 1e300), "c64", warn},
		{mineArr(c128), Add, mineLit(p, 1e300i), "c128", ""},
		{mineArr(f64), Add, mineLit(p, 1e300), "f64", ""},
		// Python ints meeting float and complex arrays: converted, huge
		// ones too (beyond int64 and uint64); only float64's own range
		// limits them (Python's OverflowError: int too large to convert
		// to float).
		{mineArr(f16), Add, mineLit(p, minePow2(31)), "f16", warn},
		{mineArr(f32), Add, mineLit(p, minePow2(200)), "f32", "becomes inf in float32"},
		{mineArr(f32), Add, mineLit(p, new(big.Int).Neg(minePow2(200))), "f32", "becomes -inf in float32"},
		{mineArr(f64), Add, mineLit(p, minePow2(100)), "f64", ""},
		{mineArr(c64), Add, mineLit(p, minePow2(100)), "c64", ""},
		{mineArr(c64), Add, mineLit(p, minePow2(128)), "c64", warn},
		{mineArr(f64), Add, mineLit(p, minePow2(1024)), "error@1: too large to convert to float", ""},
		// Only integer arrays refuse out-of-range ints; ml_dtypes' types
		// take Python ints through int64 (refs: bfloat16,int_2p63 is a
		// TypeError) and overflow without a warning (float8_e5m2,int_2p31
		// is inf).
		{mineArr(i8), Add, mineLit(p, 300), "error@1: out of bounds for int8", ""},
		{mineArr(i64), Add, mineLit(p, minePow2(100)), "error@1: out of bounds for int64", ""},
		{mineArr(u64), Add, mineLit(p, minePow2(64)), "error@1: out of bounds for uint64", ""},
		{mineArr(bf16), Add, mineLit(p, minePow2(100)), "error@1: through int64", ""},
		{mineArr(e5), Add, mineLit(p, minePow2(31)), "f8e5m2", ""},
		{mineArr(i8), Add, mineLit(p, 1e300), "f64", ""},
		// Two Python scalars: no array to convert to.
		{mineWeak(f64), Add, mineLit(p, minePow2(100)), "error@1: too large for any NumPy integer dtype", ""},
	} {
		r, err := p.Binary(c.op, c.x, c.y)
		what := fmt.Sprintf("numpy: %s %s %s", mineOperandString(c.x), c.op, mineOperandString(c.y))
		mineExpect(t, what, r, err, c.want, 0)
		if err != nil {
			continue
		}
		switch {
		case c.warn == "" && r.Warning != "":
			t.Errorf("%s: warning %q, want none", what, r.Warning)
		case c.warn != "" && !strings.Contains(r.Warning, c.warn):
			t.Errorf("%s: warning %q, want %q", what, r.Warning, c.warn)
		}
	}
}

// TestNumPyLoopSearch pins the dtype NumPy's binary ufuncs pick for arrays
// when an operand has an ml_dtypes type. Such a type is a legacy user dtype,
// so the ufunc's type resolver hands it to PyUFunc_DefaultTypeResolver
// (numpy/_core/src/umath/ufunc_type_resolution.c), whose
// linear_search_type_resolver tries the loops registered for the operands'
// user dtypes (ml_dtypes/_src/custom_float.h, RegisterFloatUFuncs: one
// (T, T) → T loop per ufunc), then the builtin loops in order (??, bb, BB,
// hh, HH, ii, II, ll, LL, qq, QQ, ee, ff, dd, …), taking the first that both
// inputs cast to safely. ml_dtypes' RegisterFloatCasts registers safe casts
// only from its types to float32, float64 and the complex types, and from
// bool, int8 and uint8 to them. So float16 + bfloat16 runs the float32 loop
// although numpy.promote_types(float16, bfloat16) raises; promote() keeps
// promote_types' answer.
func TestNumPyLoopSearch(t *testing.T) {
	p := refsMust(t, "numpy")
	const (
		i8, i16, i32, i64, u16, u32, u64 = dtypes.I8, dtypes.I16, dtypes.I32, dtypes.I64, dtypes.U16, dtypes.U32, dtypes.U64
		f16, bf16, f32, f64, e4, e5      = dtypes.F16, dtypes.BF16, dtypes.F32, dtypes.F64, dtypes.F8E4M3, dtypes.F8E5M2
	)
	mineBinary(t, p, []mineBin{
		{mineArr(f16), Add, mineArr(bf16), "f32", f32},
		{mineArr(bf16), Mul, mineArr(f16), "f32", f32},
		{mineArr(bf16), TrueDiv, mineArr(i16), "f32", f32},
		{mineArr(u16), FloorDiv, mineArr(bf16), "f32", f32},
		{mineArr(bf16), Sub, mineArr(i32), "f64", f64},
		{mineArr(u32), Pow, mineArr(bf16), "f64", f64},
		{mineArr(bf16), Mod, mineArr(i64), "f64", f64},
		{mineArr(u64), Maximum, mineArr(bf16), "f64", f64},
		{mineArr(e4), Add, mineArr(f16), "f32", f32},
		{mineArr(e4), Add, mineArr(bf16), "f32", f32},
		{mineArr(e4), Add, mineArr(e5), "f32", f32},
		{mineArr(e5), Minimum, mineArr(bf16), "f32", f32},
		{mineArr(e4), Add, mineArr(i16), "f32", f32},
		{mineArr(i32), Add, mineArr(e4), "f64", f64},
		{mineArr(f16), Lt, mineArr(bf16), "bool", f32},
		{mineArr(f16), And, mineArr(bf16), "bool", dtypes.Bool},
		{mineArr(bf16), BitAnd, mineArr(f16), "error@-1: needs int or bool", 0},
		// Where promote_types answers, the loop search agrees (checked for
		// every pair below); bf16 with int8 runs bfloat16's own loop.
		{mineArr(bf16), Add, mineArr(i8), "bf16", bf16},
		// promote() (Where), where, clip and @ keep promote_types' error.
		{mineArr(f16), Where, mineArr(bf16), "error@-1: no common dtype", 0},
		{mineArr(f16), Clip, mineArr(bf16), "error@-1: no common dtype", 0},
		{mineArr(e4), Where, mineArr(e5), "error@-1: no common dtype", 0},
	})
	// For every pair with an ml_dtypes type where numpy.promote_types
	// answers (refs/numpy.json "pairs"), the loop search finds the same
	// dtype: the safe-cast table above agrees with the library's
	// promotion.
	for _, c := range refsTable(t, "numpy", "pairs") {
		a, _ := refsDType(c.LHS)
		b, _ := refsDType(c.RHS)
		if c.Err != "" || !(numpyIsML(a) || numpyIsML(b)) {
			continue
		}
		want, _ := refsDType(c.DType)
		if got, ok := numpyLoopSearch(a, b); !ok || got != want {
			t.Errorf("loop search for %s: %s, %v; promote_types gives %s", c.Key, got, ok, want)
		}
	}
}

// TestNumPyIntVia pins how NumPy 2 converts a weak Python int to a float
// loop: FLOAT_setitem, HALF_setitem and the complex setitems
// (numpy/_core/src/multiarray/arraytypes.c.src) take MyPyFloat_AsDouble,
// float(int) rounded to nearest, and then cast: two roundings (so
// float32 + (2**60 + 2**36 + 1) is 2**60, not the 2**60 + 2**37 of one
// rounding). ml_dtypes' setitem (ml_dtypes/_src/floats.cc,
// CastToCustomFloat) takes PyLong_AsLong, static_cast<float>, then the
// type: through float32.
func TestNumPyIntVia(t *testing.T) {
	p := refsMust(t, "numpy")
	for _, c := range []struct {
		x    Operand
		y    Operand
		want dtypes.DType
	}{
		{mineArr(dtypes.F32), mineLit(p, 3), dtypes.F64},
		{mineArr(dtypes.F16), mineLit(p, 3), dtypes.F64},
		{mineArr(dtypes.C64), mineLit(p, 3), dtypes.F64},
		{mineArr(dtypes.BF16), mineLit(p, 3), dtypes.F32},
		{mineArr(dtypes.F8E4M3), mineLit(p, 3), dtypes.F32},
		{mineArr(dtypes.I32), mineLit(p, 3), dtypes.Invalid},
		{mineArr(dtypes.F32), mineLit(p, 1.5), dtypes.Invalid},
		{mineArr(dtypes.F32), mineArr(dtypes.F32), dtypes.Invalid},
	} {
		r, err := p.Binary(Add, c.x, c.y)
		if err != nil || r.IntVia != c.want {
			t.Errorf("numpy: %s + %s: IntVia %s, %v; want %s", mineOperandString(c.x), mineOperandString(c.y), r.IntVia, err, c.want)
		}
	}
}
