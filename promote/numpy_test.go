package promote

import (
	"fmt"
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
	n.Add(refsCheck(t, report, p, "numpy", "pairs", refsAsArray(p, false), refsAsArray(p, false), nil))
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
		{mineArr(f16), Add, mineLit(p, 1e300), "error@1: overflow encountered in cast", 0},
		{mineArr(f16), Add, mineLit(p, 65519), "f16", 0},
		{mineArr(f16), Add, mineLit(p, 65520), "error@1: overflows float16", 0},
		{mineArr(bf16), Add, mineLit(p, 1.5), "f32", 0},
		{mineArr(f16), Add, mineLit(p, 1i), "c64", 0},
		{mineArr(f64), Add, mineLit(p, 1i), "c128", 0},
		{mineArr(bf16), Add, mineArr(f16), "error@-1: no common dtype", 0},
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
