package userpolicy

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/big"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tensorsh/tensorsh/dtypes"
	"github.com/tensorsh/tensorsh/promote"
)

// wider is a small policy: the wider dtype wins, the left one on a tie.
const wider = `package wider

import "tensorsh"

func Promote(a, b tensorsh.Type) (tensorsh.Type, error) {
	if b.DType.Bits() > a.DType.Bits() {
		return b, nil
	}
	return a, nil
}
`

func load(t *testing.T, file, src string, opts Options) *Policy {
	t.Helper()
	p, err := LoadSource(file, []byte(src), opts)
	if err != nil {
		t.Fatalf("loading %s: %v", file, err)
	}
	return p
}

func strong(d dtypes.DType) promote.Operand { return promote.Operand{Type: dtypes.Strong(d), Rank: 1} }

func literal(v promote.Scalar) promote.Operand {
	return promote.Operand{Literal: true, Value: &v}
}

func TestLoadAndUse(t *testing.T) {
	var p promote.Policy = load(t, "wider.go", wider, Options{})
	if p.Name() != "wider" || !strings.Contains(p.Title(), "wider.go") || !strings.Contains(p.Title(), "base jax") {
		t.Errorf("Name %q Title %q", p.Name(), p.Title())
	}
	for _, tc := range []struct {
		a, b dtypes.DType
		want string
	}{{dtypes.I8, dtypes.I32, "i32"}, {dtypes.F32, dtypes.I32, "f32"}, {dtypes.I32, dtypes.F32, "i32"}, {dtypes.F16, dtypes.C64, "c64"}} {
		r, err := p.Binary(promote.Add, strong(tc.a), strong(tc.b))
		if err != nil || r.Type.String() != tc.want {
			t.Errorf("%s + %s = %v, %v; want %s", tc.a, tc.b, r.Type, err, tc.want)
		}
		if !strings.Contains(r.Rule, "Promote(") || !strings.Contains(r.Rule, "wider.go") {
			t.Errorf("rule %q does not name the hook and the file", r.Rule)
		}
	}
	// Without hooks, the rest is jax's: dtypes, literals (weak i32), and
	// true division of ints giving f32; comparisons give bool.
	if len(p.DTypes()) != 17 {
		t.Errorf("%d dtypes, want jax's 17", len(p.DTypes()))
	}
	if ty, err := p.Literal(promote.Int64Value(1)); err != nil || ty.String() != "i32?" {
		t.Errorf("literal 1: %v, %v", ty, err)
	}
	r, err := p.Binary(promote.TrueDiv, strong(dtypes.I16), strong(dtypes.I8))
	if err != nil || r.Type.String() != "f32" {
		t.Errorf("i16 / i8 = %v, %v; want f32 (as jax)", r.Type, err)
	}
	r, err = p.Binary(promote.Lt, strong(dtypes.I16), strong(dtypes.I8))
	if err != nil || r.Type.String() != "bool" || r.Compute != dtypes.I16 {
		t.Errorf("i16 < i8 = %v (compute %v), %v", r.Type, r.Compute, err)
	}
	if _, err := p.Binary(promote.BitAnd, strong(dtypes.F32), strong(dtypes.I8)); err == nil {
		t.Error("f32 & i8 is not an error")
	}
	if _, warn, err := p.Check(dtypes.I64); err != nil || warn == "" {
		t.Errorf("Check(i64) = %q, %v; want jax's x32 warning", warn, err)
	}
	var pe *promote.Error
	if _, _, err := p.Check(dtypes.Index); !errors.As(err, &pe) || pe.Policy != "wider" || !strings.Contains(pe.Msg, "base policy jax") {
		t.Errorf("Check(index) = %v; want an error of policy wider naming its base", err)
	}

	// It works wherever a policy does: tables, diffs, graphs.
	tb := promote.NewTable(p, promote.Add)
	if len(tb.Headers) != 20 || tb.Cells[1][3].String() != "i32" {
		t.Errorf("table: %d headers, i8 + i32 = %s", len(tb.Headers), tb.Cells[1][3])
	}
	jax, _ := promote.Lookup("jax")
	if d := promote.NewDiff(p, jax, promote.Add); d.Count() == 0 {
		t.Error("wider and jax do not differ")
	}
	if g := promote.NewGraph(p, promote.Where, false); g.Kind != promote.PromotesTo || !strings.Contains(g.Why, "not commutative") {
		t.Errorf("graph: %v %q", g.Kind, g.Why)
	}
}

func TestForbidden(t *testing.T) {
	for _, imp := range []string{"os", "net", "os/exec", "unsafe", "syscall", "net/http", "reflect", "runtime"} {
		src := strings.Replace(wider, `import "tensorsh"`, fmt.Sprintf("import (\n\t%q\n\t\"tensorsh\"\n)\n\nvar _ = 0", imp), 1)
		_, err := LoadSource("evil.go", []byte(src), Options{})
		want := fmt.Sprintf("evil.go:4:2: import %q is not allowed in a user policy (allowed: errors, fmt, math, strings, tensorsh)", imp)
		if err == nil || err.Error() != want {
			t.Errorf("import %s: %v\nwant %s", imp, err, want)
		}
	}
	for _, tc := range []struct{ code, want string }{
		{"func init() { go func() { panic(1) }() }", "x.go:12:15: go statements are not allowed in a user policy (a goroutine could outlive the call)"},
		{"var c chan int", "x.go:12:7: channels are not allowed"},
		{"func f(c []int) { select {} }", "x.go:12:19: select statements are not allowed"},
		{"func f() { L: goto L }", "x.go:12:15: goto statements are not allowed"},
		{"func f() { defer func() { recover() }() }", "x.go:12:27: recover and its calls are not allowed in a user policy (tensorsh stops a policy that runs too long, too deep or allocates too much with a panic)"},
	} {
		_, err := LoadSource("x.go", []byte(wider+"\n"+tc.code+"\n"), Options{})
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%s: %v\nwant %s", tc.code, err, tc.want)
		}
	}
}

// TestWatchdog: a call stuck outside the interpreter is abandoned, and
// the policy is stopped; a panic in the call is recovered.
func TestWatchdog(t *testing.T) {
	p := load(t, "wider.go", wider, Options{Timeout: 10 * time.Millisecond})
	release := make(chan struct{})
	defer close(release)
	if err := p.watch(func(context.Context) error { <-release; return nil }); err != errTimeLimit || !p.dead.Load() {
		t.Errorf("watch of a stuck call: %v (stopped: %v)", err, p.dead.Load())
	}
	p.dead.Store(false)
	if err := p.watch(func(context.Context) error { return errors.New("quick") }); err == nil || err.Error() != "quick" {
		t.Errorf("watch of a quick call: %v", err)
	}
	var c *crash
	if err := p.watch(func(context.Context) error { panic("yaegi bug") }); !errors.As(err, &c) || c.value != "yaegi bug" {
		t.Errorf("watch of a panicking call: %v", err)
	}
}

func TestBadFiles(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"syntax", "package p\nfunc Promote(", "syntax.go:2:14: expected"},
		{"nopromote", "package p\nimport \"tensorsh\"\nvar T tensorsh.Type\n", "a user policy defines func Promote(a, b tensorsh.Type) (tensorsh.Type, error)"},
		{"noimport", "package p\nfunc Promote() {}\n", `imports "tensorsh"`},
		{"signature", "package p\nimport \"tensorsh\"\nfunc Promote(a tensorsh.Type) tensorsh.Type { return a }\n",
			"Promote has type func(tensorsh.Type) tensorsh.Type; want func Promote(a, b tensorsh.Type) (tensorsh.Type, error)"},
		{"hooksig", wider + "func FloatResult(a tensorsh.Type) tensorsh.Type { return a }\n", "FloatResult has type"},
		{"builtin", wider + "const Name = \"numpy\"\n", `"numpy" is the name of a built-in policy`},
		{"builtin c", wider + "const Name = \"c\"\n", `"c" is the name of a built-in policy`},
		{"badname", wider + "const Name = \"no spaces\"\n", `"no spaces" is not a policy name`},
		{"base", wider + "const Base = \"cobol\"\n", `Base: unknown policy "cobol"`},
		{"basetype", wider + "const Base = 3\n", "Base must be a string constant"},
		{"booltype", wider + "const CDiv = \"yes\"\n", "CDiv must be a bool constant"},
		{"typeerr", wider + "func f() int { return \"s\" }\n", "typeerr.go:11:23: cannot use \"s\""},
		{"typeerr2", "package averylongname\nimport \"tensorsh\"\nfunc Promote(a, b tensorsh.Type) (tensorsh.Type, error) { return a, nil }; func g() { var x int = \"a\"; _ = x }\n", "typeerr2.go:3:99: cannot convert \"a\" to int"},
		{"typeerr3", "package p; import \"tensorsh\"; var x int = \"a\"\nfunc Promote(a, b tensorsh.Type) (tensorsh.Type, error) { return a, nil }\n", "typeerr3.go:1:43: cannot convert \"a\" to int"},
		{"main", wider + "func main() {}\n", "a user policy has no func main"},
		{"loadpanic", wider + "var x = []int{}[3]\n", "loading panicked"},
		{"dtypes", wider + "func DTypes() []tensorsh.DType { return nil }\n", "DTypes() returned no dtypes"},
		{"dtypes2", wider + "func DTypes() []tensorsh.DType { return []tensorsh.DType{tensorsh.I8, tensorsh.I8} }\n", "DTypes() returned i8 twice"},
	} {
		_, err := LoadSource(tc.name+".go", []byte(tc.src), Options{})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v\nwant %q", tc.name, err, tc.want)
		}
	}
}

func TestPanic(t *testing.T) {
	src := wider + `
func Literal(k tensorsh.Kind) (tensorsh.Type, error) {
	var m map[string]int
	m["x"] = 1 // a runtime panic
	return tensorsh.Type{}, nil
}

func FloatResult(a tensorsh.Type) (tensorsh.Type, error) {
	if a.DType == tensorsh.I8 {
		panic("no floats for i8")
	}
	return tensorsh.Strong(tensorsh.F64), nil
}
`
	p := load(t, "boom.go", src, Options{})
	_, err := p.Unary(promote.Exp, strong(dtypes.I8))
	var pe *promote.Error
	if !errors.As(err, &pe) || pe.Policy != "boom" || pe.Msg != "FloatResult(i8) panicked: no floats for i8" {
		t.Errorf("exp(i8): %v", err)
	}
	if _, err := p.Literal(promote.Int64Value(1)); err == nil || !strings.Contains(err.Error(), "Literal(KindInt) panicked: assignment to entry in nil map") {
		t.Errorf("literal: %v", err)
	}
	// A panic does not break the policy.
	if r, err := p.Unary(promote.Exp, strong(dtypes.I16)); err != nil || r.Type.String() != "f64" || p.Err() != nil {
		t.Errorf("exp(i16) after a panic: %v, %v, broken: %v", r.Type, err, p.Err())
	}
}

func TestEndless(t *testing.T) {
	src := `package endless

import "tensorsh"

func Promote(a, b tensorsh.Type) (tensorsh.Type, error) {
	if a.DType == tensorsh.I8 {
		for {
		}
	}
	return b, nil
}
`
	p := load(t, "endless.go", src, Options{Timeout: 50 * time.Millisecond})
	if r, err := p.Binary(promote.Add, strong(dtypes.I16), strong(dtypes.F32)); err != nil || r.Type.String() != "f32" {
		t.Fatalf("i16 + f32: %v, %v", r.Type, err)
	}
	_, err := p.Binary(promote.Add, strong(dtypes.I8), strong(dtypes.F32))
	if err == nil || !strings.Contains(err.Error(), "endless: Promote(i8, f32) did not return within 50ms, so the policy was stopped and is now broken") {
		t.Fatalf("i8 + f32: %v", err)
	}
	if p.Err() == nil {
		t.Error("the policy is not marked broken")
	}
	// Later calls fail with the same error, without running the policy.
	_, err2 := p.Binary(promote.Add, strong(dtypes.I16), strong(dtypes.F32))
	if err2 == nil || err2.Error() != err.Error() {
		t.Errorf("a call after the timeout: %v", err2)
	}
	// So does a table: every cell is that error.
	tb := promote.NewTable(p, promote.Add)
	if tb.Errors() != len(tb.Headers)*len(tb.Headers) {
		t.Errorf("%d of %d cells of a broken policy's table are errors", tb.Errors(), len(tb.Headers)*len(tb.Headers))
	}

	// An endless loop while loading is an error too.
	_, err = LoadSource("slow.go", []byte(wider+"\nvar x = spin()\n\nfunc spin() int {\n\tfor {\n\t}\n}\n"), Options{Timeout: 50 * time.Millisecond})
	if err == nil || !strings.Contains(err.Error(), "slow.go: loading did not finish within 50ms") {
		t.Errorf("endless load: %v", err)
	}
}

func TestRecursion(t *testing.T) {
	src := `package deep

import "tensorsh"

func Promote(a, b tensorsh.Type) (tensorsh.Type, error) {
	if a.DType == b.DType {
		return a, nil
	}
	return Promote(b, a) // never ends when they differ
}

var depth func(n int) int

func init() {
	depth = func(n int) int {
		if n == 0 {
			return 0
		}
		return 1 + depth(n-1)
	}
}

func FloatResult(a tensorsh.Type) (tensorsh.Type, error) {
	if depth(900) != 900 { // deep, but within the limit
		panic("wrong depth")
	}
	return tensorsh.Strong(tensorsh.F32), nil
}
`
	p := load(t, "deep.go", src, Options{Timeout: 20 * time.Second})
	_, err := p.Binary(promote.Add, strong(dtypes.I8), strong(dtypes.F32))
	if err == nil || !strings.Contains(err.Error(), "Promote(i8, f32) panicked: calls nested more than 1000 deep (endless recursion?)") {
		t.Fatalf("endless recursion: %v", err)
	}
	if r, err := p.Unary(promote.Sqrt, strong(dtypes.I8)); err != nil || r.Type.String() != "f32" {
		t.Errorf("sqrt(i8) with 900 nested calls: %v, %v", r.Type, err)
	}
	if r, err := p.Binary(promote.Add, strong(dtypes.I8), strong(dtypes.I8)); err != nil || r.Type.String() != "i8" {
		t.Errorf("the policy is not usable after the recursion error: %v, %v", r.Type, err)
	}
}

func TestHooks(t *testing.T) {
	src := `package hooks

import (
	"errors"
	"fmt"
	"math"
	"strings"

	ts "tensorsh"
)

const Base = "numpy"
const WrapLiterals = false

func DTypes() []ts.DType { return []ts.DType{ts.Bool, ts.I8, ts.I32, ts.U8, ts.F32, ts.F64} }

func Literal(k ts.Kind) (ts.Type, error) {
	switch k {
	case ts.KindInt:
		return ts.Weak(ts.I32), nil
	case ts.KindFloat:
		return ts.Parse("f32?")
	}
	return ts.Type{}, fmt.Errorf("no %v literals here", k)
}

func Promote(a, b ts.Type) (ts.Type, error) {
	if a.DType == ts.F64 || b.DType == ts.F64 {
		return ts.Type{}, errors.New(strings.ToUpper("no f64 please"))
	}
	if a.Weak && !b.Weak {
		return b, nil
	}
	if b.Weak && !a.Weak {
		return a, nil
	}
	if math.Max(float64(a.DType.Bits()), float64(b.DType.Bits())) == float64(a.DType.Bits()) {
		return a, nil
	}
	return b, nil
}

func FloatResult(a ts.Type) (ts.Type, error) { return ts.Type{DType: ts.F32, Weak: a.Weak}, nil }
`
	p := load(t, "hooks.go", src, Options{})
	if got := fmt.Sprint(p.DTypes()); got != "[bool i8 i32 u8 f32 f64]" {
		t.Errorf("DTypes = %s", got)
	}
	if _, _, err := p.Check(dtypes.I16); err == nil || !strings.Contains(err.Error(), "hooks: no dtype i16 in hooks (its dtypes: bool i8 i32 u8 f32 f64)") {
		t.Errorf("Check(i16): %v", err)
	}
	if ty, err := p.Literal(promote.Int64Value(3)); err != nil || ty.String() != "i32?" {
		t.Errorf("literal 3: %v %v", ty, err)
	}
	if _, err := p.Literal(promote.Int64Value(1 << 40)); err == nil || !strings.Contains(err.Error(), "the literal 1099511627776 does not fit i32, the type hooks gives int literals") {
		t.Errorf("literal 2**40: %v", err)
	}
	if _, err := p.Literal(promote.ComplexValue(1i)); err == nil || !strings.Contains(err.Error(), "hooks: no complex literals here") {
		t.Errorf("literal 1j: %v", err)
	}
	if ty, err := p.ArrayLiteral(promote.FloatScalar); err != nil || ty.String() != "f32" {
		t.Errorf("[1.5]: %v %v", ty, err)
	}
	// A literal gives way, and must fit its dtype.
	r, err := p.Binary(promote.Add, strong(dtypes.U8), literal(promote.Int64Value(200)))
	if err != nil || r.Type.String() != "u8" {
		t.Errorf("u8 + 200: %v %v", r.Type, err)
	}
	_, err = p.Binary(promote.Add, strong(dtypes.U8), literal(promote.Int64Value(300)))
	var pe *promote.Error
	if !errors.As(err, &pe) || pe.Operand != 1 || !strings.Contains(pe.Msg, "the literal 300 does not fit u8, the dtype it is converted to") {
		t.Errorf("u8 + 300: %v", err)
	}
	_, err = p.Binary(promote.Add, strong(dtypes.I8), strong(dtypes.F64))
	if err == nil || err.Error() != "hooks: NO F64 PLEASE" {
		t.Errorf("i8 + f64: %v", err)
	}
	r, err = p.Binary(promote.TrueDiv, strong(dtypes.I32), literal(promote.Int64Value(2)))
	if err != nil || r.Type.String() != "f32" || !strings.Contains(r.Rule, "FloatResult(i32) = f32") {
		t.Errorf("i32 / 2: %v %v (%s)", r.Type, err, r.Rule)
	}
	if r, err := p.Unary(promote.Mean, strong(dtypes.U8)); err != nil || r.Type.String() != "f32" {
		t.Errorf("mean(u8): %v %v", r.Type, err)
	}
	// Sum widens as numpy, the base.
	if r, err := p.Unary(promote.Sum, strong(dtypes.I8)); err != nil || r.Type.String() != "i64" {
		if r.Type.String() != "i8" {
			t.Errorf("sum(i8): %v %v", r.Type, err)
		}
	}
	// Floor division follows numpy: it floors.
	if r, err := p.Binary(promote.FloorDiv, strong(dtypes.I8), strong(dtypes.I8)); err != nil || r.CDiv {
		t.Errorf("i8 // i8: CDiv %v, %v", r.CDiv, err)
	}
	if err := p.Convert(promote.Int64Value(300), dtypes.U8); err == nil {
		t.Error("u8(300) converts")
	}
}

func TestPrint(t *testing.T) {
	var out bytes.Buffer
	p := load(t, "talk.go", strings.Replace(wider, "if b.DType", "println(\"promoting\", a.DType.String(), b.DType.String())\n\tif b.DType", 1), Options{Output: &out})
	if _, err := p.Binary(promote.Add, strong(dtypes.I8), strong(dtypes.U8)); err != nil {
		t.Fatal(err)
	}
	if out.String() != "promoting i8 u8\n" {
		t.Errorf("printed %q", out.String())
	}
}

func TestConcurrent(t *testing.T) {
	p := load(t, "wider.go", wider, Options{})
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ds := p.DTypes()
			for i := range 50 {
				a, b := ds[(g+i)%len(ds)], ds[(g*3+i)%len(ds)]
				r, err := p.Binary(promote.Add, strong(a), strong(b))
				want := a
				if b.Bits() > a.Bits() {
					want = b
				}
				if err != nil || r.Type.DType != want {
					errs <- fmt.Errorf("%s + %s = %v, %v; want %s", a, b, r.Type, err, want)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// TestCPolicy checks examples/cpolicy.go against C's usual arithmetic
// conversions.
func TestCPolicy(t *testing.T) {
	p, err := Load(filepath.Join("..", "..", "examples", "cpolicy.go"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if p.Name() != "c-user" || p.Base().Name() != "numpy" {
		t.Errorf("name %q base %q", p.Name(), p.Base().Name())
	}
	for _, tc := range []struct{ a, b, want string }{
		{"i8", "i8", "i32"}, // integer promotions
		{"u8", "u8", "i32"},
		{"u16", "i16", "i32"},
		{"bool", "bool", "i32"},
		{"i32", "u32", "u32"}, // unsigned wins at equal rank
		{"i64", "u64", "u64"},
		{"i32", "u64", "u64"},
		{"i64", "u32", "i64"}, // a wider signed type holds the unsigned one
		{"u32", "u32", "u32"},
		{"i8", "f16", "f16"}, // float beats int
		{"u64", "f32", "f32"},
		{"f32", "f64", "f64"},
		{"bf16", "f32", "f32"},
		{"f16", "bf16", "error"},
		{"f32", "c64", "c64"},
		{"f64", "c64", "c128"},
		{"i64", "c64", "c64"},
	} {
		a, _ := dtypes.Parse(tc.a)
		b, _ := dtypes.Parse(tc.b)
		for _, ab := range [][2]dtypes.DType{{a, b}, {b, a}} {
			r, err := p.Binary(promote.Add, strong(ab[0]), strong(ab[1]))
			got := r.Type.String()
			if err != nil {
				got = "error"
			}
			if got != tc.want {
				t.Errorf("C: %s + %s = %s (%v), want %s", ab[0], ab[1], got, err, tc.want)
			}
		}
	}
	// Literals have C's types: no weak types.
	for _, tc := range []struct {
		d    dtypes.DType
		v    promote.Scalar
		want string
	}{
		{dtypes.U8, promote.Int64Value(1), "i32"},
		{dtypes.I64, promote.Int64Value(1), "i64"},
		{dtypes.F32, promote.FloatValue(1.5), "f64"},
		{dtypes.U32, promote.BoolValue(true), "u32"},
		{dtypes.U8, promote.IntValue(new(big.Int).Lsh(big.NewInt(1), 40)), "i32"}, // wraps, like C
	} {
		r, err := p.Binary(promote.Add, strong(tc.d), literal(tc.v))
		if err != nil || r.Type.String() != tc.want {
			t.Errorf("C: %s + %s = %v, %v; want %s", tc.d, tc.v, r.Type, err, tc.want)
		}
	}
	// Integer division stays integer and truncates; exp of an int is a double.
	r, err := p.Binary(promote.TrueDiv, strong(dtypes.I32), strong(dtypes.I16))
	if err != nil || r.Type.String() != "i32" || !r.CDiv {
		t.Errorf("C: i32 / i16 = %v (CDiv %v), %v", r.Type, r.CDiv, err)
	}
	r, err = p.Binary(promote.Mod, strong(dtypes.I32), strong(dtypes.I16))
	if err != nil || !r.CDiv {
		t.Errorf("C: i32 %% i16: CDiv %v, %v", r.CDiv, err)
	}
	r, err = p.Unary(promote.Exp, strong(dtypes.I8))
	if err != nil || r.Type.String() != "f64" {
		t.Errorf("C: exp(i8) = %v, %v", r.Type, err)
	}
	if _, _, err := p.Check(dtypes.F8E4M3); err == nil {
		t.Error("C has an 8-bit float")
	}
	// C's + is not a join: i8 + i8 is not i8.
	g := promote.NewGraph(p, promote.Where, false)
	if g.Kind != promote.PromotesTo || !strings.Contains(g.Why, "promote(f16, bf16) is an error: f16 and bf16 have no common type in C") {
		t.Errorf("C graph: %v %q", g.Kind, g.Why)
	}
}

// TestBoundedFunctions: the bounded versions of make, print and the
// functions of strings and fmt give what Go's do.
func TestBoundedFunctions(t *testing.T) {
	src := `package bounded

import (
	"fmt"
	"strings"

	"tensorsh"
)

type pair struct {
	a, b int
}

func Promote(a, b tensorsh.Type) (tensorsh.Type, error) {
	var sb strings.Builder
	sb.Grow(16)
	sb.WriteString("b")
	fmt.Fprintf(&sb, "%d", 1)
	xs := make([]string, 2, 4 /* cap */)
	xs[0], xs[1] = "x", "y"
	m := make(map[string]int, 1e3)
	m["k"] = len(make([]pair, uint8(3)))
	parts := []string{
		sb.String(),
		strings.Repeat("ab", 3),
		strings.Join(xs, "+"),
		strings.ReplaceAll("a.b.c", ".", "::"),
		strings.Replace("aaa", "a", "bb", 2),
		strings.NewReplacer("<", "&lt;", ">", "&gt;").Replace("<i8>"),
		strings.ToValidUTF8("a\xffb", "?!"),
		fmt.Sprint(len(strings.Split("a,b,c", ",")), len(strings.Fields(" a b ")), m["k"]),
		fmt.Sprintf("%5.2f|%-4s|%x|%[1]v", 3.14159, "go", 255),
		fmt.Sprintln(a, b, pair{1, 2}, &pair{3, 4}, []byte("hi")),
		string(fmt.Appendf(nil, "%q", "q")),
	}
	println(strings.Join(parts, " "))
	print("no newline", 7, true)
	return a, fmt.Errorf("%v, %w", "wrapped", fmt.Errorf("inner"))
}
`
	var out bytes.Buffer
	p := load(t, "bounded.go", src, Options{Output: &out})
	_, err := p.Binary(promote.Add, strong(dtypes.I8), strong(dtypes.U8))
	if err == nil || err.Error() != "bounded: wrapped, inner" {
		t.Errorf("error %v", err)
	}
	want := "b1 ababab x+y a::b::c bbbba &lt;i8&gt; a?!b 3 2 3  3.14|go  |ff|3.14159 i8 u8 {1 2} &{3 4} [104 105]\n \"q\"\n" +
		"no newline 7 true"
	if out.String() != want {
		t.Errorf("printed\n%q\nwant\n%q", out.String(), want)
	}
}

// TestTitlePrintable checks that a policy's Title cannot carry terminal
// escapes (it is printed in the REPL's banner, :policy lists and teaching
// tools) nor run on for ever.
func TestTitlePrintable(t *testing.T) {
	src := strings.Replace(wider, "import \"tensorsh\"\n", "import \"tensorsh\"\n\nconst Title = \"\\x1b]0;pwned\\x07\\x1b[2J red \\u202e text\\u009b\"\n", 1)
	p := load(t, "esc.go", src, Options{})
	if got, want := p.Title(), "\uFFFD]0;pwned\uFFFD\uFFFD[2J red \uFFFD text\uFFFD"; got != want {
		t.Errorf("Title = %q, want %q", got, want)
	}
	long := strings.Replace(wider, "import \"tensorsh\"\n", "import \"tensorsh\"\n\nconst Title = \""+strings.Repeat("é", 500)+"\"\n", 1)
	if got := load(t, "long.go", long, Options{}).Title(); got != strings.Repeat("é", maxTitle)+"…" {
		t.Errorf("long Title = %q", got)
	}
}
