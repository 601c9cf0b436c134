// Package userpolicy loads promotion policies written in Go by users
// (`:policy load FILE.go`) and runs them with the yaegi interpreter.
//
// A policy file imports "tensorsh" and defines
//
//	func Promote(a, b tensorsh.Type) (tensorsh.Type, error)
//
// the result of a binary operation on operands of types a and b (a weak
// operand, such as a literal, has a.Weak set). It may also define:
//
//	const Name = "c"            // the policy's name; default: the file's base name
//	const Title = "…"           // a few words on what it is
//	const Base = "numpy"        // the built-in policy for everything not defined here; default jax
//	func DTypes() []tensorsh.DType                           // its dtypes (default: Base's)
//	func Literal(k tensorsh.Kind) (tensorsh.Type, error)     // the type of a literal of kind
//	                                                         // KindBool, KindInt, KindFloat, KindComplex
//	func FloatResult(a tensorsh.Type) (tensorsh.Type, error) // the result of /, exp, sqrt, mean …
//	                                                         // on a bool or integer type a
//	const CDiv = true           // integer // and % truncate toward zero (C), not floor (Python)
//	const IntTrueDiv = true     // / on integers is integer division (C), not float
//	const WrapLiterals = true   // a literal that does not fit its dtype wraps; default: an error
//
// Package tensorsh has the types Type (fields DType and Weak), DType (with
// methods Kind, Bits, IsInt, IsSigned, IsUnsigned, IsFloat, IsComplex,
// IsBool, Real, String, …) and Kind; the dtype constants Bool, I8 … I64,
// U8 … U64, F16, BF16, F32, TF32, F64, C64, C128, F8E4M3, F8E5M2, Index,
// Address; the kinds KindBool, KindUint, KindInt, KindFloat, KindComplex;
// and Strong(d), Weak(d), Parse("f32?"), ParseDType("f32"), All(). Besides
// it, a policy may import only errors, fmt, math and strings.
//
// # Safety
//
// The interpreter sees only the symbols above. Other imports, go
// statements, channels, select, goto and recover are refused before
// anything runs. Each call into the policy (and loading it) has a time
// limit, Options.Timeout, 1 s by default. Go cannot stop a goroutine, and
// yaegi stops interpreted code only between statements, so tensorsh
// rewrites the file before interpreting it: every function body and every
// loop body checks the limit (now and then), and every function counts how
// deep calls nest. Past the limit, or past 1000 nested calls (deeper Go
// recursion would overflow the stack, which no recover catches), the
// policy panics; since it may not recover, the panic ends the call, which
// returns an error. A policy that ran past its time limit is then marked
// broken (Err), so that later calls fail at once instead of each waiting
// out the limit; fix the file and load it again. Any other panic is an
// error for that call only. A call stuck inside a Go function (the
// interpreter cannot interrupt strings.Repeat("x", 1<<40)) is abandoned
// after twice the limit: the call returns an error, the policy is broken,
// and the goroutine runs on to its end, or exhausts memory, which no Go
// program survives.
//
// The returned *Policy implements promote.Policy and may be used wherever
// a built-in policy is. Its methods may be called from several goroutines;
// calls into the interpreter are serialised.
package userpolicy

import (
	"errors"
	"fmt"
	"io"
	"math/big"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing/fstest"
	"time"

	"github.com/traefik/yaegi/interp"

	"github.com/tensorsh/tensorsh/dtypes"
	"github.com/tensorsh/tensorsh/promote"
)

// DefaultTimeout is the time limit of one call into a user policy.
const DefaultTimeout = time.Second

// DefaultBase is the built-in policy a user policy falls back to.
const DefaultBase = "jax"

// Options control loading.
type Options struct {
	// Timeout limits each call into the policy (loading included);
	// 0 means DefaultTimeout.
	Timeout time.Duration
	// Output receives what the policy prints with print and println;
	// nil discards it.
	Output io.Writer
}

// A Policy is a user policy. It implements promote.Policy.
type Policy struct {
	name, title, file string
	base              promote.Policy
	timeout           time.Duration

	cdiv, intTrueDiv *bool // nil: as Base
	wrap             bool
	dtypes           []dtypes.DType // nil: Base's

	mu       sync.Mutex
	in       *interp.Interpreter
	broken   error
	deadline atomic.Int64 // of the running call, in Unix nanoseconds

	promote, literal, floatResult *interp.Program // nil when not defined
	argA, argB, out, errOut, kind reflect.Value   // the helper variables
	depth                         reflect.Value
}

var _ promote.Policy = (*Policy)(nil)

var nameRE = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_-]*$`)

// Load reads and interprets the policy file at path.
func Load(path string, opts Options) (*Policy, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("loading a user policy: %w", err)
	}
	return LoadSource(path, src, opts)
}

// LoadSource interprets src as the policy file named file.
func LoadSource(file string, src []byte, opts Options) (*Policy, error) {
	s, err := parseSource(filepath.Base(file), src)
	if err != nil {
		return nil, err
	}
	p := &Policy{file: filepath.Base(file), timeout: opts.Timeout}
	if p.timeout <= 0 {
		p.timeout = DefaultTimeout
	}
	out := opts.Output
	if out == nil {
		out = io.Discard
	}
	p.in = interp.New(interp.Options{
		GoPath:               "/nonexistent",
		BuildTags:            []string{"ignore", "tensorsh"},
		Stdin:                strings.NewReader(""),
		Stdout:               out,
		Stderr:               io.Discard,
		Args:                 []string{p.file},
		Env:                  []string{},
		SourcecodeFilesystem: fstest.MapFS{p.file: &fstest.MapFile{Data: []byte(s.text)}},
	})
	exports := interp.Exports{
		"tensorsh/tensorsh":     tensorshSymbols(),
		"tensorshrt/tensorshrt": {"Check": reflect.ValueOf(p.check)},
	}
	for k, v := range stdlibSymbols {
		exports[k] = v
	}
	if err := p.in.Use(exports); err != nil {
		return nil, fmt.Errorf("%s: setting up the interpreter: %v", p.file, err)
	}
	if err := p.load(s); err != nil {
		return nil, err
	}
	return p, nil
}

// load evaluates the file, then reads its constants and checks and
// compiles its hooks.
func (p *Policy) load(s *source) error {
	err := p.watch(func() error {
		_, err := p.in.EvalPath(p.file)
		return err
	})
	var pe interp.Panic
	switch {
	case errors.Is(err, errWatchdog) || errors.As(err, &pe) && pe.Value == errTimeLimit:
		return fmt.Errorf("%s: loading did not finish within %v (an endless loop in a variable's initialiser or init?)", p.file, p.timeout)
	case errors.As(err, &pe):
		return fmt.Errorf("%s: loading panicked: %v", p.file, pe.Value)
	case err != nil:
		return errors.New(s.fixPositions(err.Error()))
	}

	str := func(name, def string) (string, error) {
		if !s.consts[name] {
			return def, nil
		}
		v, err := p.in.Eval(name)
		if err != nil || v.Kind() != reflect.String {
			return "", fmt.Errorf("%s: %s must be a string constant", p.file, name)
		}
		return v.String(), nil
	}
	boolean := func(name string) (*bool, error) {
		if !s.consts[name] {
			return nil, nil
		}
		v, err := p.in.Eval(name)
		if err != nil || v.Kind() != reflect.Bool {
			return nil, fmt.Errorf("%s: %s must be a bool constant", p.file, name)
		}
		b := v.Bool()
		return &b, nil
	}
	var errs []error
	keep := func(err error) {
		if err != nil {
			errs = append(errs, err)
		}
	}
	var base string
	p.name, err = str("Name", strings.TrimSuffix(p.file, filepath.Ext(p.file)))
	keep(err)
	p.title, err = str("Title", "")
	keep(err)
	base, err = str("Base", DefaultBase)
	keep(err)
	p.cdiv, err = boolean("CDiv")
	keep(err)
	p.intTrueDiv, err = boolean("IntTrueDiv")
	keep(err)
	wrap, err := boolean("WrapLiterals")
	keep(err)
	p.wrap = wrap != nil && *wrap
	if len(errs) > 0 {
		return errs[0]
	}
	if !nameRE.MatchString(p.name) {
		return fmt.Errorf("%s: %q is not a policy name (letters, digits, - and _; set const Name)", p.file, p.name)
	}
	for _, n := range promote.Names() {
		if n == p.name {
			return fmt.Errorf("%s: %q is the name of a built-in policy; set const Name to another", p.file, p.name)
		}
	}
	if p.base, err = promote.Lookup(base); err != nil {
		return fmt.Errorf("%s: Base: %v", p.file, err)
	}
	if p.title == "" {
		p.title = fmt.Sprintf("user policy %s (base %s)", p.file, base)
	}

	// Hooks: check each one's type, then compile the call.
	var (
		typT     = reflect.TypeOf(dtypes.Type{})
		typKind  = reflect.TypeOf(dtypes.Kind(0))
		typErr   = reflect.TypeOf((*error)(nil)).Elem()
		typSlice = reflect.TypeOf([]dtypes.DType(nil))
	)
	want := map[string]reflect.Type{
		"Promote":     reflect.FuncOf([]reflect.Type{typT, typT}, []reflect.Type{typT, typErr}, false),
		"Literal":     reflect.FuncOf([]reflect.Type{typKind}, []reflect.Type{typT, typErr}, false),
		"FloatResult": reflect.FuncOf([]reflect.Type{typT}, []reflect.Type{typT, typErr}, false),
		"DTypes":      reflect.FuncOf(nil, []reflect.Type{typSlice}, false),
	}
	calls := map[string]string{
		"Promote":     "tensorshOut__, tensorshErr__ = Promote(tensorshA__, tensorshB__)",
		"Literal":     "tensorshOut__, tensorshErr__ = Literal(tensorshKind__)",
		"FloatResult": "tensorshOut__, tensorshErr__ = FloatResult(tensorshA__)",
		"DTypes":      "tensorshDTypes__ = DTypes()",
	}
	progs := map[string]*interp.Program{}
	for _, name := range []string{"Promote", "Literal", "FloatResult", "DTypes"} {
		if !s.funcs[name] {
			continue
		}
		v, err := p.in.Eval(name)
		if err != nil {
			return fmt.Errorf("%s: %v", p.file, err)
		}
		if v.Type() != want[name] {
			return fmt.Errorf("%s: %s has type %s; want %s", p.file, name, typeString(v.Type()), hookSigs[name])
		}
		prog, err := p.in.Compile(calls[name])
		if err != nil {
			return fmt.Errorf("%s: compiling the call of %s: %v", p.file, name, err)
		}
		progs[name] = prog
	}
	p.promote, p.literal, p.floatResult = progs["Promote"], progs["Literal"], progs["FloatResult"]
	for _, v := range []struct {
		name string
		dst  *reflect.Value
	}{{"tensorshA__", &p.argA}, {"tensorshB__", &p.argB}, {"tensorshOut__", &p.out}, {"tensorshErr__", &p.errOut}, {"tensorshKind__", &p.kind}, {"tensorshDepth__", &p.depth}} {
		if *v.dst, err = p.in.Eval(v.name); err != nil || !v.dst.CanSet() {
			return fmt.Errorf("%s: the interpreter's helper %s is missing (%v)", p.file, v.name, err)
		}
	}

	if prog := progs["DTypes"]; prog != nil {
		v, err := p.in.Eval("tensorshDTypes__")
		if err != nil {
			return fmt.Errorf("%s: %v", p.file, err)
		}
		var ds []dtypes.DType
		if err := p.run("DTypes()", prog, func() {}, func() { ds = v.Interface().([]dtypes.DType) }); err != nil {
			return err
		}
		if len(ds) == 0 {
			return fmt.Errorf("%s: DTypes() returned no dtypes", p.file)
		}
		seen := map[dtypes.DType]bool{}
		for _, d := range ds {
			if !d.IsValid() {
				return fmt.Errorf("%s: DTypes() returned %v, which is not a dtype", p.file, d)
			}
			if seen[d] {
				return fmt.Errorf("%s: DTypes() returned %v twice", p.file, d)
			}
			seen[d] = true
		}
		p.dtypes = append([]dtypes.DType(nil), ds...)
	}
	return nil
}

// typeString writes a reflect.Type the way a tensorsh policy spells it.
func typeString(t reflect.Type) string {
	return strings.NewReplacer("dtypes.", "tensorsh.").Replace(t.String())
}

// errTimeLimit is the panic that stops a policy past its time limit; the
// interpreted code checks the limit in every call and every loop
// iteration, and cannot recover (the policy may not call recover).
var errTimeLimit = errors.New("time limit exceeded")

// errWatchdog reports that a call did not come back at all: it is stuck
// in a Go function (the interpreter checks the time limit only between
// statements of the policy).
var errWatchdog = errors.New("no answer")

// check panics when the running call is past its deadline. Interpreted
// code calls it as tensorshrt__.Check().
func (p *Policy) check() {
	if time.Now().UnixNano() > p.deadline.Load() {
		panic(errTimeLimit)
	}
}

// watch runs f with the time limit in a goroutine. It waits for f twice
// the limit (at least 100 ms more), then gives up with errWatchdog,
// leaving f running: Go cannot stop a goroutine.
func (p *Policy) watch(f func() error) error {
	p.deadline.Store(time.Now().Add(p.timeout).UnixNano())
	done := make(chan error, 1)
	go func() { done <- f() }()
	t := time.NewTimer(p.timeout + max(p.timeout, 100*time.Millisecond))
	defer t.Stop()
	select {
	case err := <-done:
		return err
	case <-t.C:
		return errWatchdog
	}
}

// run executes a compiled call with the time limit, after set has stored
// its arguments; get reads its results, still holding the lock.
func (p *Policy) run(call string, prog *interp.Program, set, get func()) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.broken != nil {
		return p.broken
	}
	set()
	p.depth.SetInt(0)
	p.errOut.Set(reflect.Zero(p.errOut.Type()))
	err := p.watch(func() error {
		_, err := p.in.Execute(prog)
		return err
	})
	if err == nil {
		get()
		return nil
	}
	var pe interp.Panic
	if errors.Is(err, errWatchdog) || errors.As(err, &pe) && pe.Value == errTimeLimit {
		p.broken = &promote.Error{Policy: p.name, Operand: -1,
			Msg: fmt.Sprintf("%s did not return within %v, so the policy was stopped and is now broken; fix %s and load it again", call, p.timeout, p.file)}
		return p.broken
	}
	if errors.As(err, &pe) {
		return &promote.Error{Policy: p.name, Operand: -1, Msg: fmt.Sprintf("%s panicked: %v", call, pe.Value)}
	}
	return &promote.Error{Policy: p.name, Operand: -1, Msg: fmt.Sprintf("%s: %v", call, err)}
}

// callType runs a hook that returns (tensorsh.Type, error).
func (p *Policy) callType(call string, prog *interp.Program, set func()) (dtypes.Type, error) {
	var t dtypes.Type
	var e error
	get := func() {
		t = p.out.Interface().(dtypes.Type)
		e, _ = p.errOut.Interface().(error)
	}
	if err := p.run(call, prog, set, get); err != nil {
		return dtypes.Type{}, err
	}
	if e != nil {
		return dtypes.Type{}, &promote.Error{Policy: p.name, Operand: -1, Msg: e.Error()}
	}
	if !t.DType.IsValid() {
		return dtypes.Type{}, &promote.Error{Policy: p.name, Operand: -1, Msg: fmt.Sprintf("%s returned %v, which is not a dtype", call, t.DType)}
	}
	if !p.has(t.DType) {
		return dtypes.Type{}, &promote.Error{Policy: p.name, Operand: -1, Msg: fmt.Sprintf("%s returned %v, which is not one of %s's dtypes", call, t, p.name)}
	}
	return t, nil
}

// Err returns the error that broke the policy (a call that ran past the
// time limit), or nil.
func (p *Policy) Err() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.broken
}

// File returns the base name of the policy's file.
func (p *Policy) File() string { return p.file }

// Base returns the built-in policy p falls back to.
func (p *Policy) Base() promote.Policy { return p.base }

// Name returns the policy's name: its const Name, or the file's base name.
func (p *Policy) Name() string { return p.name }

// Title returns its const Title, or a description of its file.
func (p *Policy) Title() string { return p.title }

// DTypes returns the dtypes from DTypes(), or Base's.
func (p *Policy) DTypes() []dtypes.DType {
	if p.dtypes != nil {
		return append([]dtypes.DType(nil), p.dtypes...)
	}
	return p.base.DTypes()
}

// Host returns Base's host language.
func (p *Policy) Host() promote.Host { return p.base.Host() }

func (p *Policy) has(d dtypes.DType) bool {
	if p.dtypes == nil {
		_, _, err := p.base.Check(d)
		return err == nil
	}
	for _, e := range p.dtypes {
		if e == d {
			return true
		}
	}
	return false
}

// relabel turns an error of the base policy into one of p.
func (p *Policy) relabel(err error) error {
	var pe *promote.Error
	if errors.As(err, &pe) {
		if pe.Policy == p.name {
			return pe
		}
		return &promote.Error{Policy: p.name, Operand: pe.Operand, Msg: pe.Msg + " (rule of the base policy " + pe.Policy + ")"}
	}
	return &promote.Error{Policy: p.name, Operand: -1, Msg: err.Error()}
}

// Check accepts the dtypes of DTypes(); without it, it asks Base.
func (p *Policy) Check(d dtypes.DType) (dtypes.DType, string, error) {
	if p.dtypes == nil {
		c, warn, err := p.base.Check(d)
		if err != nil {
			return 0, "", p.relabel(err)
		}
		return c, warn, nil
	}
	if p.has(d) {
		return d, "", nil
	}
	var names []string
	for _, e := range p.dtypes {
		names = append(names, e.String())
	}
	return 0, "", promote.Errorf(p.name, -1, "no dtype %s in %s (its dtypes: %s)", d, p.name, strings.Join(names, " "))
}

var literalKinds = map[promote.ScalarKind]dtypes.Kind{
	promote.BoolScalar: dtypes.KindBool, promote.IntScalar: dtypes.KindInt,
	promote.FloatScalar: dtypes.KindFloat, promote.ComplexScalar: dtypes.KindComplex,
}

// Literal gives a literal the type from Literal(kind), or Base's.
func (p *Policy) Literal(v promote.Scalar) (dtypes.Type, error) {
	return p.literalType(v, 0)
}

func (p *Policy) literalType(v promote.Scalar, operand int) (dtypes.Type, error) {
	if p.literal == nil {
		t, err := p.base.Literal(v)
		if err != nil {
			return t, p.relabel(err)
		}
		return t, nil
	}
	k := literalKinds[v.Kind]
	t, err := p.callType(fmt.Sprintf("Literal(%s)", kindConst(k)), p.literal, func() { p.kind.Set(reflect.ValueOf(k)) })
	if err != nil {
		return t, err
	}
	if err := p.fits(v, t.DType, operand, "the type "+p.name+" gives "+v.Kind.String()+" literals"); err != nil {
		return dtypes.Type{}, err
	}
	return t, nil
}

func kindConst(k dtypes.Kind) string {
	return map[dtypes.Kind]string{dtypes.KindBool: "KindBool", dtypes.KindInt: "KindInt", dtypes.KindFloat: "KindFloat", dtypes.KindComplex: "KindComplex"}[k]
}

// fits checks that an integer literal fits an integer dtype d, unless the
// policy wraps literals.
func (p *Policy) fits(v promote.Scalar, d dtypes.DType, operand int, what string) error {
	if p.wrap || v.Kind != promote.IntScalar || !d.IsInt() {
		return nil
	}
	lo, hi := d.IntRange()
	if v.Int.Cmp(big.NewInt(lo)) < 0 || v.Int.Cmp(new(big.Int).SetUint64(hi)) > 0 {
		return promote.Errorf(p.name, operand, "the literal %s does not fit %s, %s (const WrapLiterals = true would wrap it)", v.Int, d, what)
	}
	return nil
}

// ArrayLiteral gives a bracket literal the strong type of Literal(kind), or
// Base's answer.
func (p *Policy) ArrayLiteral(k promote.ScalarKind) (dtypes.Type, error) {
	if p.literal == nil {
		t, err := p.base.ArrayLiteral(k)
		if err != nil {
			return t, p.relabel(err)
		}
		return t, nil
	}
	var v promote.Scalar
	switch k {
	case promote.BoolScalar:
		v = promote.BoolValue(false)
	case promote.IntScalar:
		v = promote.Int64Value(0)
	case promote.FloatScalar:
		v = promote.FloatValue(0)
	default:
		v = promote.ComplexValue(0)
	}
	t, err := p.literalType(v, 0)
	return dtypes.Strong(t.DType), err
}

// Convert allows an explicit conversion to one of the policy's dtypes; an
// integer must fit unless literals wrap. For a dtype Base has, Base
// decides.
func (p *Policy) Convert(v promote.Scalar, d dtypes.DType) error {
	if _, _, err := p.Check(d); err != nil {
		return err
	}
	if p.wrap {
		return nil
	}
	if _, _, err := p.base.Check(d); err == nil {
		if err := p.base.Convert(v, d); err != nil {
			return p.relabel(err)
		}
		return nil
	}
	return p.fits(v, d, 0, "the dtype it is converted to")
}

// operandType is the type an operand has for Promote.
func (p *Policy) operandType(x promote.Operand, i int) (dtypes.Type, error) {
	if x.Literal && x.Value != nil {
		t, err := p.literalType(*x.Value, i)
		if pe, ok := err.(*promote.Error); ok {
			pe.Operand = i
		}
		return t, err
	}
	if !p.has(x.Type.DType) {
		_, _, err := p.Check(x.Type.DType)
		if pe, ok := err.(*promote.Error); ok {
			pe.Operand = i
		}
		return dtypes.Type{}, err
	}
	return x.Type, nil
}

// Promote runs the policy's Promote on two types.
func (p *Policy) Promote(a, b dtypes.Type) (dtypes.Type, error) {
	return p.callType(fmt.Sprintf("Promote(%s, %s)", a, b), p.promote, func() {
		p.argA.Set(reflect.ValueOf(a))
		p.argB.Set(reflect.ValueOf(b))
	})
}

// floatOf is the float type of float-producing operations on a bool or
// integer type t: FloatResult(t), or Base's answer for op.
func (p *Policy) floatOf(t dtypes.Type, base func(promote.Operand) (promote.Result, error)) (dtypes.Type, string, error) {
	if p.floatResult != nil {
		r, err := p.callType(fmt.Sprintf("FloatResult(%s)", t), p.floatResult, func() { p.argA.Set(reflect.ValueOf(t)) })
		return r, fmt.Sprintf("FloatResult(%s) = %s", t, r), err
	}
	r, err := base(promote.Operand{Type: dtypes.Strong(t.DType), Rank: 1})
	if err != nil {
		return dtypes.Type{}, "", p.relabel(err)
	}
	out := dtypes.Type{DType: r.Type.DType, Weak: t.Weak}
	return out, fmt.Sprintf("as %s: %s", p.base.Name(), r.Type.DType), nil
}

// Binary promotes the operands with Promote, then applies the class of op:
// comparisons give bool, / on integers gives FloatResult (or integer
// division with IntTrueDiv), bitwise operations refuse inexact types,
// and, or give bool.
func (p *Policy) Binary(op promote.BinaryOp, x, y promote.Operand) (promote.Result, error) {
	a, err := p.operandType(x, 0)
	if err != nil {
		return promote.Result{}, err
	}
	b, err := p.operandType(y, 1)
	if err != nil {
		return promote.Result{}, err
	}
	t, err := p.Promote(a, b)
	if err != nil {
		return promote.Result{}, err
	}
	r := promote.Result{Type: t, Compute: t.DType, Rule: fmt.Sprintf("Promote(%s, %s) = %s (%s)", a, b, t, p.file)}
	for i, o := range []promote.Operand{x, y} {
		if o.Literal && o.Value != nil {
			if err := p.fits(*o.Value, t.DType, i, "the dtype it is converted to"); err != nil {
				return promote.Result{}, err
			}
		}
	}
	d := t.DType
	baseSame := func() (promote.Result, error) {
		o := promote.Operand{Type: dtypes.Strong(d), Rank: 1}
		return p.base.Binary(op, o, o)
	}
	switch op.Class() {
	case promote.Div:
		if d.IsInexact() {
			break
		}
		if p.intTrueDiv != nil && *p.intTrueDiv {
			r.CDiv = p.cdivFor(d, baseSame)
			r.Rule += "; / on integers is integer division (IntTrueDiv)"
			break
		}
		f, rule, err := p.floatOf(t, func(o promote.Operand) (promote.Result, error) { return p.base.Binary(promote.TrueDiv, o, o) })
		if err != nil {
			return promote.Result{}, err
		}
		r.Type, r.Compute = f, f.DType
		r.Rule += "; true division: " + rule
	case promote.DivMod:
		if d.IsComplex() {
			return promote.Result{}, promote.Errorf(p.name, -1, "%s is not defined on %s", op, d)
		}
		r.CDiv = p.cdivFor(d, baseSame)
		if br, err := baseSame(); err == nil {
			r.ZeroDivError = br.ZeroDivError
		}
	case promote.Compare:
		r.Type = dtypes.Strong(dtypes.Bool)
		r.Rule += "; the comparison gives bool"
	case promote.Bitwise:
		if d.IsInexact() {
			return promote.Result{}, promote.Errorf(p.name, -1, "%s needs bool or integer operands, got %s", op, d)
		}
	case promote.Logical:
		r.Type, r.Compute = dtypes.Strong(dtypes.Bool), dtypes.Bool
		r.Rule = "logical " + op.String() + " converts both operands to bool"
	}
	return r, nil
}

// cdivFor says whether integer division truncates: CDiv, or Base's rule.
func (p *Policy) cdivFor(d dtypes.DType, base func() (promote.Result, error)) bool {
	if p.cdiv != nil {
		return *p.cdiv
	}
	r, err := base()
	return err == nil && r.CDiv
}

// Unary keeps the operand's type for -, abs, rounding and reductions to
// an extreme; gives bool for predicates, not, any and all; FloatResult (or
// Base's answer) for float-producing functions on bools and integers; and
// Base's answer for sum, prod, argmax and argmin where Base has the dtype.
func (p *Policy) Unary(op promote.UnaryOp, x promote.Operand) (promote.Result, error) {
	t, err := p.operandType(x, 0)
	if err != nil {
		return promote.Result{}, err
	}
	d := t.DType
	same := promote.Result{Type: t, Compute: d, Rule: "the operand's type"}
	switch op.Class() {
	case promote.SameType, promote.Rounding, promote.Extreme:
		return same, nil
	case promote.BitNot:
		if d.IsInexact() {
			return promote.Result{}, promote.Errorf(p.name, 0, "~ needs a bool or integer operand, got %s", d)
		}
		return same, nil
	case promote.LogicalNot, promote.BoolReduce:
		return promote.Result{Type: dtypes.Strong(dtypes.Bool), Compute: dtypes.Bool, Rule: "gives bool"}, nil
	case promote.Predicate:
		return promote.Result{Type: dtypes.Strong(dtypes.Bool), Compute: d, Rule: "gives bool"}, nil
	case promote.FloatFn, promote.MeanOp:
		if d.IsInexact() {
			return same, nil
		}
		f, rule, err := p.floatOf(t, func(o promote.Operand) (promote.Result, error) { return p.base.Unary(op, o) })
		if err != nil {
			return promote.Result{}, err
		}
		return promote.Result{Type: f, Compute: f.DType, Rule: rule}, nil
	}
	// SumProd, ArgOp: as Base, where it has the dtype.
	if r, err := p.base.Unary(op, promote.Operand{Type: t, Rank: x.Rank}); err == nil && p.has(r.Type.DType) {
		r.Rule += " (rule of the base policy " + p.base.Name() + ")"
		return r, nil
	}
	if op.Class() == promote.ArgOp {
		return promote.Result{Type: dtypes.Strong(dtypes.I64), Compute: d, Rule: "an index: i64"}, nil
	}
	return same, nil
}
