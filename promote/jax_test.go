package promote

import (
	"fmt"
	"math/big"
	"strings"
	"testing"

	"github.com/tensorsh/tensorsh/dtypes"
)

// jaxRefs checks policy name ("jax" or "jax64") against every cell of its
// reference file: pairs are jnp.promote_types of two dtypes; array_scalar
// and weak_array are arrays (created through Check, so 64-bit dtypes are
// truncated with x64 off) meeting Python scalars and weak values;
// weak_pairs are two weak values.
func jaxRefs(t testing.TB, report func(string, ...any), name string) refsTally {
	p := refsMust(t, name)
	file := map[string]string{"jax": "jax_x32", "jax64": "jax_x64"}[name]
	literalBlamed := func(c refsCell, r Result, err error) string {
		if err != nil && refsBlame(err) != 1 {
			return fmt.Sprintf("error %q blames operand %d, want the literal (1)", err, refsBlame(err))
		}
		return ""
	}
	var n refsTally
	n.Add(refsCheck(t, report, p, file, "pairs", refsAsArray(p, false), refsAsArray(p, false), nil))
	n.Add(refsCheck(t, report, p, file, "array_scalar", refsAsArray(p, true), refsAsLiteral(p), literalBlamed))
	n.Add(refsCheck(t, report, p, file, "weak_array", refsAsArray(p, true), refsAsWeak(p), nil))
	n.Add(refsCheck(t, report, p, file, "weak_pairs", refsAsWeak(p), refsAsWeak(p), nil))
	return n
}

func TestJAXRefs(t *testing.T) {
	for _, name := range []string{"jax", "jax64"} {
		n := jaxRefs(t, t.Errorf, name)
		t.Logf("%s: %d cells checked, %d mismatches", name, n.Checked, n.Mismatches)
		if n.Checked != 289+170+68+16 {
			t.Errorf("%s: checked %d cells, want %d", name, n.Checked, 289+170+68+16)
		}
	}
}

// mineOperands lists, for policy p, operands of every dtype and variety:
// strong arrays, strong 0-d arrays holding one, weak values, and literals
// of several values (non-negative, so that ** has no value error either
// way round).
func mineOperands(p Policy) []Operand {
	var ops []Operand
	for _, d := range p.DTypes() {
		one := refsOne(numpyKindOf(d))
		ops = append(ops,
			Operand{Type: dtypes.Strong(d), Rank: 1},
			Operand{Type: dtypes.Strong(d), Rank: 0, Value: &one},
			Operand{Type: dtypes.Weak(d), Rank: 0})
	}
	for _, name := range []string{"bool_true", "int_1", "int_300", "int_2p40", "float_1.5", "float_1e300", "complex_1j"} {
		v, _ := refsScalar(name)
		ops = append(ops, refsLiteral(p, v))
	}
	return ops
}

// mineBothAtFault reports whether x and y are each refused on their own by
// op (then either may be blamed).
func mineBothAtFault(p Policy, op BinaryOp, x, y Operand) bool {
	_, ex := p.Binary(op, x, x)
	_, ey := p.Binary(op, y, y)
	return refsBlame(ex) >= 0 && refsBlame(ey) >= 0
}

func mineOperandString(o Operand) string {
	s := o.Type.String()
	if o.Literal {
		s = "literal " + o.Value.String()
	} else if o.Rank == 0 {
		s += " 0-d"
	}
	return s
}

// TestJAXNumPyTorchArrayAPISymmetry checks that every binary operation of
// these policies gives the same answer with its operands swapped, and that
// an error blaming one operand blames the same operand after the swap
// (unless both are at fault).
func TestJAXNumPyTorchArrayAPISymmetry(t *testing.T) {
	for _, name := range []string{"jax", "jax64", "numpy", "numpy1", "torch", "array-api"} {
		p := refsMust(t, name)
		ops := mineOperands(p)
		cases, bad := 0, 0
		for op := Add; op <= Clip; op++ {
			for i, x := range ops {
				for _, y := range ops[i:] {
					r1, e1 := p.Binary(op, x, y)
					r2, e2 := p.Binary(op, y, x)
					cases++
					same := (e1 == nil) == (e2 == nil)
					if same && e1 == nil {
						same = r1.Type == r2.Type && r1.Compute == r2.Compute && r1.ZeroDivError == r2.ZeroDivError
					}
					if same && e1 != nil {
						b1, b2 := refsBlame(e1), refsBlame(e2)
						same = b1 == -1 && b2 == -1 || b1 >= 0 && b2 == 1-b1 || b1 >= 0 && b2 >= 0 && mineBothAtFault(p, op, x, y)
					}
					if !same && bad < 10 {
						t.Errorf("%s: %s %s %s = %v, %v; swapped: %v, %v", name, mineOperandString(x), op, mineOperandString(y), r1.Type, e1, r2.Type, e2)
					}
					if !same {
						bad++
					}
				}
			}
		}
		t.Logf("%s: %d swapped pairs checked, %d asymmetric", name, cases, bad)
	}
}

func jaxAllNodes() []jaxNode {
	var ns []jaxNode
	for n := jaxNode(0); n < jaxNumNodes; n++ {
		if jaxUpper[0][n] != 0 {
			ns = append(ns, n)
		}
	}
	return ns
}

// TestJAXLatticeLaws checks that the join is idempotent, commutative and
// associative on both lattices, and that a three-way join agrees with
// joining in two steps.
func TestJAXLatticeLaws(t *testing.T) {
	ns := jaxAllNodes()
	if len(ns) != len(jaxDTypes)+3 {
		t.Fatalf("lattice has %d nodes, want %d", len(ns), len(jaxDTypes)+3)
	}
	for _, x64 := range []bool{false, true} {
		join := func(a, b jaxNode) (jaxNode, bool) { return jaxJoin(x64, a, b) }
		triples := 0
		for _, a := range ns {
			if j, ok := join(a, a); !ok || j != a {
				t.Errorf("x64=%v: %s ∨ %s = %s, %v", x64, jaxNodeName(a), jaxNodeName(a), jaxNodeName(j), ok)
			}
			for _, b := range ns {
				ab, ok1 := join(a, b)
				ba, ok2 := join(b, a)
				if ok1 != ok2 || ab != ba {
					t.Errorf("x64=%v: %s ∨ %s not commutative", x64, jaxNodeName(a), jaxNodeName(b))
				}
				for _, c := range ns {
					triples++
					bc, ok3 := join(b, c)
					var l, r jaxNode
					okL, okR := ok1, ok3
					if okL {
						l, okL = join(ab, c)
					}
					if okR {
						r, okR = join(a, bc)
					}
					all, okA := jaxJoin(x64, a, b, c)
					if okL && okR && l != r {
						t.Errorf("x64=%v: (%s ∨ %s) ∨ %s = %s but %s ∨ (%s ∨ %s) = %s", x64,
							jaxNodeName(a), jaxNodeName(b), jaxNodeName(c), jaxNodeName(l),
							jaxNodeName(a), jaxNodeName(b), jaxNodeName(c), jaxNodeName(r))
					}
					if okL && (!okA || all != l) || okR && (!okA || all != r) {
						t.Errorf("x64=%v: join(%s, %s, %s) = %s, %v; in two steps %s, %v / %s, %v", x64,
							jaxNodeName(a), jaxNodeName(b), jaxNodeName(c), jaxNodeName(all), okA, jaxNodeName(l), okL, jaxNodeName(r), okR)
					}
				}
			}
		}
		t.Logf("x64=%v: %d triples checked", x64, triples)
	}
}

// Operand builders for the table tests.

func mineArr(d dtypes.DType) Operand  { return Operand{Type: dtypes.Strong(d), Rank: 1} }
func mineWeak(d dtypes.DType) Operand { return Operand{Type: dtypes.Weak(d), Rank: 0} }

// mineZero is a strong 0-d array holding v (its value unknown when v is
// nil).
func mineZero(d dtypes.DType, v *Scalar) Operand {
	return Operand{Type: dtypes.Strong(d), Rank: 0, Value: v}
}

// mineLit is a literal of policy p; v is an int64, float64, complex128 or
// bool, or a *big.Int.
func mineLit(p Policy, v any) Operand {
	var s Scalar
	switch v := v.(type) {
	case int:
		s = Int64Value(int64(v))
	case float64:
		s = FloatValue(v)
	case complex128:
		s = ComplexValue(v)
	case bool:
		s = BoolValue(v)
	case *big.Int:
		s = IntValue(v)
	default:
		panic(fmt.Sprintf("mineLit: %T", v))
	}
	return refsLiteral(p, s)
}

func minePow2(n uint) *big.Int { return new(big.Int).Lsh(big.NewInt(1), n) }

// A mineBin is a binary table case. want is a type ("f32?") or
// "error@N: text" (N the blamed operand, text a part of the message).
// compute, when set, is the expected Compute dtype.
type mineBin struct {
	x       Operand
	op      BinaryOp
	y       Operand
	want    string
	compute dtypes.DType
}

// A mineUn is a unary table case, like mineBin.
type mineUn struct {
	op      UnaryOp
	x       Operand
	want    string
	compute dtypes.DType
}

// mineExpect checks a result against want (see mineBin).
func mineExpect(t *testing.T, what string, r Result, err error, want string, compute dtypes.DType) {
	t.Helper()
	if rest, ok := strings.CutPrefix(want, "error@"); ok {
		blame, text, _ := strings.Cut(rest, ": ")
		if err == nil {
			t.Errorf("%s = %s, want error %q", what, r.Type, text)
			return
		}
		if b := fmt.Sprint(refsBlame(err)); b != blame {
			t.Errorf("%s: error %q blames %s, want %s", what, err, b, blame)
		}
		if !strings.Contains(err.Error(), text) {
			t.Errorf("%s: error %q does not say %q", what, err, text)
		}
		return
	}
	wt, perr := dtypes.ParseType(want)
	if perr != nil {
		t.Fatalf("%s: bad want %q: %v", what, want, perr)
	}
	switch {
	case err != nil:
		t.Errorf("%s: error %v, want %s", what, err, want)
	case r.Type != wt:
		t.Errorf("%s = %s, want %s (rule: %s)", what, r.Type, want, r.Rule)
	case compute != dtypes.Invalid && r.Compute != compute:
		t.Errorf("%s computes in %s, want %s", what, r.Compute, compute)
	case r.Rule == "":
		t.Errorf("%s: no rule", what)
	}
}

func mineBinary(t *testing.T, p Policy, cases []mineBin) {
	t.Helper()
	for _, c := range cases {
		r, err := p.Binary(c.op, c.x, c.y)
		what := fmt.Sprintf("%s: %s %s %s", p.Name(), mineOperandString(c.x), c.op, mineOperandString(c.y))
		mineExpect(t, what, r, err, c.want, c.compute)
	}
}

func mineUnary(t *testing.T, p Policy, cases []mineUn) {
	t.Helper()
	for _, c := range cases {
		r, err := p.Unary(c.op, c.x)
		what := fmt.Sprintf("%s: %s(%s)", p.Name(), c.op, mineOperandString(c.x))
		mineExpect(t, what, r, err, c.want, c.compute)
	}
}

func TestJAXBinary(t *testing.T) {
	jax, jax64 := refsMust(t, "jax"), refsMust(t, "jax64")
	const (
		b, i8, i16, i32, i64 = dtypes.Bool, dtypes.I8, dtypes.I16, dtypes.I32, dtypes.I64
		u8, u32, u64         = dtypes.U8, dtypes.U32, dtypes.U64
		f16, f32, c64, e4    = dtypes.F16, dtypes.F32, dtypes.C64, dtypes.F8E4M3
	)
	mineBinary(t, jax, []mineBin{
		{mineArr(i16), Add, mineLit(jax, 1.5), "f32?", f32},
		{mineArr(i8), Add, mineLit(jax, minePow2(31)), "error@1: does not fit int32", 0},
		{mineArr(u8), Add, mineLit(jax, 300), "u8", u8},
		{mineArr(u8), Add, mineLit(jax, true), "u8", u8},
		{mineArr(u32), Add, mineArr(i32), "i32", 0},
		{mineArr(u64), Add, mineArr(i8), "f64?", 0},
		{mineArr(b), Sub, mineArr(b), "error@-1: subtract does not accept dtype bool", 0},
		{mineArr(b), Pow, mineArr(b), "i32", 0},
		{mineArr(b), FloorDiv, mineArr(b), "i32", 0},
		{mineArr(i8), TrueDiv, mineArr(i8), "f32", f32},
		{mineWeak(i32), TrueDiv, mineWeak(i32), "f32?", 0},
		{mineArr(i8), Lt, mineArr(f16), "bool", f16},
		{mineArr(i8), Eq, mineLit(jax, 1.5), "bool", f32},
		{mineArr(e4), Add, mineArr(f16), "error@-1: 8-bit floats", 0},
		{mineArr(e4), Add, mineLit(jax, 1i), "error@1: 8-bit floats", 0},
		{mineArr(e4), Add, mineLit(jax, 2.5), "f8e4m3", 0},
		{mineArr(f32), BitAnd, mineArr(i8), "error@-1: needs int or bool", 0},
		{mineArr(b), Shl, mineArr(b), "i32", 0},
		{mineArr(c64), Mod, mineArr(c64), "error@-1: remainder does not support complex", 0},
		{mineArr(c64), FloorDiv, mineArr(c64), "c64", 0},
		// Two weak values of the same dtype keep it and stay weak: jax's
		// tests/dtypes_test.py testBinaryNonPromotion, the
		// regression test of https://github.com/jax-ml/jax/issues/6051
		// (x = lax_internal._convert_element_type(0, dtype, weak_type=True);
		// (x + x).dtype == dtype, still weakly typed). Mixed weak dtypes
		// join as if strong and stay weak (jax/_src/dtypes.py,
		// lattice_result_type, the all-weak branch).
		{mineWeak(f16), Add, mineWeak(f16), "f16?", 0},
		{mineWeak(u8), Add, mineWeak(u8), "u8?", 0},
		{mineWeak(i8), Add, mineWeak(i8), "i8?", 0},
		{mineWeak(i8), Add, mineWeak(i16), "i16?", 0},
		{mineWeak(i8), Add, mineWeak(f16), "f16?", 0},
		{mineWeak(u8), Add, mineWeak(i8), "i16?", 0},
		{mineWeak(b), Add, mineWeak(b), "bool", 0},
		{mineWeak(dtypes.BF16), Add, mineWeak(f16), "f32?", 0},
		{mineWeak(i8), Add, mineArr(u8), "u8", 0},
		{mineWeak(i32), Add, mineArr(i32), "i32", 0},
		{mineLit(jax, true), Add, mineLit(jax, 1), "i32?", 0},
		{mineArr(i8), And, mineArr(f32), "bool", dtypes.Bool},
		{mineArr(dtypes.TF32), Add, mineArr(f32), "error@0: no dtype tf32", 0},
	})
	mineBinary(t, jax64, []mineBin{
		{mineArr(i16), Add, mineLit(jax64, 1.5), "f64?", 0},
		{mineArr(i8), Add, mineLit(jax64, minePow2(31)), "i8", 0},
		{mineArr(u8), Add, mineLit(jax64, minePow2(63)), "error@1: does not fit int64", 0},
		{mineArr(u32), Add, mineArr(i32), "i64", 0},
		{mineArr(i8), TrueDiv, mineArr(i8), "f32", 0},
		{mineArr(i64), TrueDiv, mineArr(i64), "f64", 0},
		{mineWeak(i64), TrueDiv, mineWeak(i64), "f64?", 0},
		{mineWeak(u8), Add, mineWeak(u8), "u8?", 0},
		{mineWeak(u64), Add, mineWeak(i64), "f64?", 0},
		{mineArr(u64), Add, mineArr(i64), "f64?", 0},
	})
	// With x64 off, 64-bit operands come only from jnp.promote_types-style
	// questions: Binary does not truncate them.
	mineBinary(t, jax, []mineBin{{mineArr(i64), Add, mineArr(i8), "i64", 0}})
}

func TestJAXUnary(t *testing.T) {
	jax, jax64 := refsMust(t, "jax"), refsMust(t, "jax64")
	const (
		b, i8, i32, i64, u8 = dtypes.Bool, dtypes.I8, dtypes.I32, dtypes.I64, dtypes.U8
		f16, bf16, f32, c64 = dtypes.F16, dtypes.BF16, dtypes.F32, dtypes.C64
	)
	both := []mineUn{
		{Exp, mineArr(i32), "f32", f32},
		{Exp, mineArr(u8), "f32", 0},
		{Sqrt, mineArr(b), "f32", 0},
		{Sin, mineArr(f16), "f16", 0},
		{Log, mineArr(c64), "c64", 0},
		{Erf, mineArr(c64), "error@0: not defined for complex", 0},
		{Mean, mineArr(i8), "f32", 0},
		{Mean, mineArr(f16), "f16", f32},
		{Mean, mineArr(bf16), "bf16", f32},
		{Sum, mineArr(f16), "f16", f32},
		{Neg, mineArr(b), "error@0: negative does not accept dtype bool", 0},
		{Neg, mineWeak(i32), "i32?", 0},
		{Invert, mineArr(f32), "error@0: needs an int or bool", 0},
		{Invert, mineArr(b), "bool", 0},
		{Floor, mineArr(i8), "i8", 0},
		{Floor, mineWeak(f32), "f32?", 0},
		{Floor, mineArr(c64), "error@0: not defined for complex", 0},
		{Round, mineArr(c64), "c64", 0},
		{IsNaN, mineArr(f16), "bool", f16},
		{Not, mineArr(i32), "bool", b},
		{Any, mineArr(f32), "bool", f32},
		{ReduceMax, mineWeak(f32), "f32?", 0},
	}
	mineUnary(t, jax, both)
	mineUnary(t, jax64, both)
	mineUnary(t, jax, []mineUn{
		{Log, mineWeak(i32), "f32?", 0},
		{Log, mineLit(jax, 2), "f32?", 0},
		{Sum, mineArr(i8), "i32", i32},
		{Sum, mineArr(u8), "u32", 0},
		{Prod, mineArr(b), "i32", 0},
		{ArgMax, mineArr(f32), "i32", f32},
		{Exp, mineLit(jax, minePow2(40)), "error@0: does not fit int32", 0},
	})
	mineUnary(t, jax64, []mineUn{
		{Log, mineWeak(i64), "f64?", 0},
		{Exp, mineArr(i64), "f64", 0},
		{Mean, mineArr(i64), "f64", 0},
		{Sum, mineArr(i8), "i64", 0},
		{Sum, mineArr(u8), "u64", 0},
		{Sum, mineArr(i64), "i64", 0},
		{ArgMin, mineArr(f32), "i64", 0},
	})
}

func TestJAXCheckLiteralConvert(t *testing.T) {
	jax, jax64 := refsMust(t, "jax"), refsMust(t, "jax64")
	for _, c := range []struct {
		p    Policy
		in   dtypes.DType
		want dtypes.DType
		warn string
	}{
		{jax, dtypes.I64, dtypes.I32, "Explicitly requested dtype int64 is not available, and will be truncated to dtype int32"},
		{jax, dtypes.U64, dtypes.U32, "truncated to dtype uint32"},
		{jax, dtypes.F64, dtypes.F32, "truncated to dtype float32"},
		{jax, dtypes.C128, dtypes.C64, "truncated to dtype complex64"},
		{jax, dtypes.BF16, dtypes.BF16, ""},
		{jax64, dtypes.I64, dtypes.I64, ""},
		{jax, dtypes.TF32, dtypes.Invalid, "error"},
		{jax64, dtypes.Index, dtypes.Invalid, "error"},
	} {
		d, warn, err := c.p.Check(c.in)
		switch {
		case c.warn == "error":
			if err == nil || !strings.HasPrefix(err.Error(), c.p.Name()+": no dtype "+c.in.String()) {
				t.Errorf("%s.Check(%s) = %s, %v; want an error naming the policy and dtype", c.p.Name(), c.in, d, err)
			}
		case err != nil || d != c.want || !strings.Contains(warn, c.warn) || (c.warn == "") != (warn == ""):
			t.Errorf("%s.Check(%s) = %s, %q, %v; want %s, %q", c.p.Name(), c.in, d, warn, err, c.want, c.warn)
		}
	}
	for _, c := range []struct {
		p    Policy
		v    Scalar
		want string
	}{
		{jax, Int64Value(1), "i32?"},
		{jax, Int64Value(-1 << 31), "i32?"},
		{jax, IntValue(minePow2(31)), "error"},
		{jax64, IntValue(minePow2(31)), "i64?"},
		{jax64, IntValue(minePow2(63)), "error"},
		{jax, BoolValue(true), "bool"},
		{jax, FloatValue(1.5), "f32?"},
		{jax64, FloatValue(1.5), "f64?"},
		{jax, ComplexValue(1i), "c64?"},
		{jax64, ComplexValue(1i), "c128?"},
	} {
		got, err := c.p.Literal(c.v)
		if c.want == "error" {
			if err == nil {
				t.Errorf("%s.Literal(%s) = %s, want an error", c.p.Name(), c.v, got)
			}
		} else if err != nil || got.String() != c.want {
			t.Errorf("%s.Literal(%s) = %s, %v; want %s", c.p.Name(), c.v, got, err, c.want)
		}
	}
	for k, want := range map[ScalarKind][2]string{IntScalar: {"i32", "i64"}, FloatScalar: {"f32", "f64"}, ComplexScalar: {"c64", "c128"}, BoolScalar: {"bool", "bool"}} {
		for i, p := range []Policy{jax, jax64} {
			if got, err := p.ArrayLiteral(k); err != nil || got.String() != want[i] {
				t.Errorf("%s.ArrayLiteral(%s) = %s, %v; want %s", p.Name(), k, got, err, want[i])
			}
		}
	}
	for _, c := range []struct {
		p  Policy
		v  Scalar
		d  dtypes.DType
		ok bool
	}{
		{jax, Int64Value(300), dtypes.I8, false},
		{jax, Int64Value(-1), dtypes.U8, false},
		{jax, Int64Value(300), dtypes.F16, true},
		{jax, FloatValue(1e300), dtypes.F16, true},
		{jax, ComplexValue(1i), dtypes.F32, false},
		{jax, IntValue(minePow2(40)), dtypes.I64, false},
		{jax64, IntValue(minePow2(40)), dtypes.I64, true},
		{jax, Int64Value(7), dtypes.TF32, false},
	} {
		if err := c.p.Convert(c.v, c.d); (err == nil) != c.ok {
			t.Errorf("%s.Convert(%s, %s) = %v, want ok=%v", c.p.Name(), c.v, c.d, err, c.ok)
		}
	}
	if jax.Name() != "jax" || jax.Title() != "JAX, x64 off" || jax64.Title() != "JAX, x64 on" || jax.Host() != Python || len(jax.DTypes()) != 17 {
		t.Errorf("jax metadata: %s %q %q %v %d", jax.Name(), jax.Title(), jax64.Title(), jax.Host(), len(jax.DTypes()))
	}
}
