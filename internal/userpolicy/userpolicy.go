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
// anything runs, and so are the names tensorsh gives its own helpers in
// the interpreted file (tensorsh…__), so that a policy cannot reach them.
// Each call into the policy (and loading it) has a time limit,
// Options.Timeout, 1 s by default. Past it, the interpreter is stopped
// (yaegi checks for that before each step of the interpreted code, in
// every frame, callbacks from Go included), and the policy is marked
// broken (Err), so that later calls fail at once instead of each waiting
// out the limit; fix the file and load it again. Every function of the
// policy counts how deep calls nest (in tensorsh's own Go code, which the
// policy cannot touch): past 1000 nested calls (deeper Go recursion would
// overflow the stack, which no recover catches), or once the policy was
// stopped, it panics; since it may not recover, the panic ends the call.
//
// Allocation is bounded too, since running out of memory ends a Go
// program with no recover: array and struct types larger than 256 MiB are
// refused before anything runs; make, strings.Repeat, strings.Join, the
// functions of fmt, print and the other functions whose results can be
// much larger than their arguments refuse (panic) to allocate more than
// that at once; and a call that keeps more than that alive is stopped and
// breaks the policy.
//
// Every call into the interpreter recovers its panics, yaegi's own
// included, and the Error method of an error a policy returns, and the
// value of its panics, are written while the call runs, under its limits.
// Go code the policy calls cannot be interrupted, but none of it runs
// long once allocation is bounded: a stopped policy stops.
//
// The returned *Policy implements promote.Policy and may be used wherever
// a built-in policy is. Its methods may be called from several goroutines;
// calls into the interpreter are serialised.
package userpolicy

import (
	"context"
	"errors"
	"fmt"
	"go/parser"
	"io"
	"math/big"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"runtime"
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

	mu     sync.Mutex
	in     *interp.Interpreter // nil once broken
	broken error
	dead   atomic.Bool  // stopped: the checks in the interpreted code panic
	depth  atomic.Int64 // of nested calls of the policy's functions

	promote, literal, floatResult *interp.Program // nil when not defined
	message                       *interp.Program // tensorshMsg__ = tensorshErr__.Error()
	argA, argB, out, errOut, kind reflect.Value   // the helper variables
	msg                           reflect.Value
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
	s, err := checkSource(filepath.Base(file), src)
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
		"tensorsh/tensorsh": tensorshSymbols(),
		"tensorshrt/tensorshrt": {
			"Enter":      reflect.ValueOf(p.enter),
			"Leave":      reflect.ValueOf(p.leave),
			"Size":       reflect.ValueOf(p.size),
			"PanicValue": reflect.ValueOf(panicValue),
			"PrintText":  reflect.ValueOf(printText),
		},
	}
	for k, v := range stdlibSymbols {
		m := map[string]reflect.Value{}
		for name, sym := range v {
			m[name] = sym
		}
		switch k {
		case "strings/strings":
			boundedStrings(m)
		case "fmt/fmt":
			boundedFmt(m)
		}
		exports[k] = m
	}
	if err := p.in.Use(exports); err != nil {
		return nil, fmt.Errorf("%s: setting up the interpreter: %v", p.file, err)
	}
	if err := p.load(s); err != nil {
		p.stop()
		return nil, err
	}
	return p, nil
}

// stop stops what may still run in the interpreter and lets it go.
func (p *Policy) stop() {
	p.dead.Store(true)
	p.in = nil
	p.promote, p.literal, p.floatResult, p.message = nil, nil, nil, nil
}

// interp runs f, a call into the interpreter other than one of the
// policy's hooks, with the time limit, and turns an error into one that
// names the file.
func (p *Policy) interp(what string, f func(ctx context.Context) error) error {
	err := p.watch(f)
	var pe interp.Panic
	var c *crash
	switch {
	case err == nil:
		return nil
	case errors.Is(err, errTimeLimit):
		hint := ""
		if what == "loading" {
			hint = " (an endless loop in a variable's initialiser or init?)"
		}
		return fmt.Errorf("%s: %s did not finish within %v%s", p.file, what, p.timeout, hint)
	case errors.Is(err, errMemLimit):
		return fmt.Errorf("%s: %s allocated more than a user policy may (%s)", p.file, what, bytesString(allocLimit))
	case errors.As(err, &c):
		return fmt.Errorf("%s: %s: %v (this is a bug of yaegi, the Go interpreter; the file may use Go it does not support)", p.file, what, c)
	case errors.As(err, &pe):
		return fmt.Errorf("%s: %s panicked: %s", p.file, what, panicText(pe.Value))
	}
	return err
}

// checkSource runs parseSource, recovering a panic: a bug of tensorsh,
// but one that must not end the process.
func checkSource(file string, src []byte) (s *source, err error) {
	defer func() {
		if r := recover(); r != nil {
			s, err = nil, fmt.Errorf("%s: checking the file failed (this is a tensorsh bug): %s", file, panicText(r))
		}
	}()
	return parseSource(file, src)
}

// load evaluates the file, then reads its constants and checks and
// compiles its hooks.
func (p *Policy) load(s *source) error {
	in := p.in // stop clears p.in while a call may still run
	var prog *interp.Program
	err := p.interp("compiling", func(context.Context) error {
		f, err := parser.ParseFile(in.FileSet(), p.file, s.text, parser.DeclarationErrors)
		if err != nil {
			return err
		}
		prog, err = in.CompileAST(f)
		return err
	})
	if err == nil {
		err = p.interp("loading", func(ctx context.Context) error {
			_, err := in.ExecuteWithContext(ctx, prog)
			return err
		})
	}
	if err != nil {
		return errors.New(s.fixPositions(err.Error()))
	}
	eval := func(name string) (v reflect.Value, err error) {
		err = p.interp("reading "+name, func(context.Context) error {
			v, err = in.Eval(name)
			return err
		})
		return v, err
	}

	str := func(name, def string) (string, error) {
		if !s.consts[name] {
			return def, nil
		}
		v, err := eval(name)
		if err != nil || v.Kind() != reflect.String {
			return "", fmt.Errorf("%s: %s must be a string constant", p.file, name)
		}
		return v.String(), nil
	}
	boolean := func(name string) (*bool, error) {
		if !s.consts[name] {
			return nil, nil
		}
		v, err := eval(name)
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
	p.title = printable(p.title)
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
	compile := func(what, src string) (prog *interp.Program, err error) {
		err = p.interp(what, func(context.Context) error {
			prog, err = in.Compile(src)
			return err
		})
		return prog, err
	}
	progs := map[string]*interp.Program{}
	for _, name := range []string{"Promote", "Literal", "FloatResult", "DTypes"} {
		if !s.funcs[name] {
			continue
		}
		v, err := eval(name)
		if err != nil {
			return err
		}
		if v.Type() != want[name] {
			return fmt.Errorf("%s: %s has type %s; want %s", p.file, name, typeString(v.Type()), hookSigs[name])
		}
		prog, err := compile("compiling the call of "+name, calls[name])
		if err != nil {
			return err
		}
		progs[name] = prog
	}
	if p.message, err = compile("compiling the call of Error", "tensorshMsg__ = tensorshErr__.Error()"); err != nil {
		return err
	}
	p.promote, p.literal, p.floatResult = progs["Promote"], progs["Literal"], progs["FloatResult"]
	for _, v := range []struct {
		name string
		dst  *reflect.Value
	}{{"tensorshA__", &p.argA}, {"tensorshB__", &p.argB}, {"tensorshOut__", &p.out}, {"tensorshErr__", &p.errOut}, {"tensorshKind__", &p.kind}, {"tensorshMsg__", &p.msg}} {
		if *v.dst, err = eval(v.name); err != nil || !v.dst.CanSet() {
			return fmt.Errorf("%s: the interpreter's helper %s is missing (%v)", p.file, v.name, err)
		}
	}

	if prog := progs["DTypes"]; prog != nil {
		v, err := eval("tensorshDTypes__")
		if err != nil {
			return err
		}
		var ds []dtypes.DType
		get := func() { ds, _ = v.Interface().([]dtypes.DType) }
		if _, err := p.run("DTypes()", prog, func() {}, get); err != nil {
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
		p.dtypes = append([]dtypes.DType(nil), ds...) // not the policy's, which it could change
	}
	return nil
}

// typeString writes a reflect.Type the way a tensorsh policy spells it.
func typeString(t reflect.Type) string {
	return strings.NewReplacer("dtypes.", "tensorsh.").Replace(t.String())
}

// memPoll is how often a running call's allocations are looked at.
const memPoll = 2 * time.Millisecond

// watch runs f in a goroutine, recovering its panics, with the time limit
// and the memory limit. Past either, it stops the policy (its checks
// panic from then on) and cancels the context given to f, which stops
// the interpreter in ExecuteWithContext, and returns errTimeLimit or
// errMemLimit without waiting for f.
func (p *Policy) watch(f func(ctx context.Context) error) error {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	p.depth.Store(0)
	done := make(chan error, 1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				done <- &crash{r}
			}
		}()
		done <- f(ctx)
	}()
	allocs, live0 := heapStats()
	next := allocs + uint64(allocLimit)
	timer := time.NewTimer(p.timeout)
	defer timer.Stop()
	tick := time.NewTicker(memPoll)
	defer tick.Stop()
	for {
		select {
		case err := <-done:
			return err
		case <-timer.C:
			select {
			case err := <-done:
				return err
			default:
			}
			p.dead.Store(true)
			cancel()
			return errTimeLimit
		case <-tick.C:
			if allocs, _ := heapStats(); allocs < next {
				continue
			}
			// It allocated much: is it still alive?
			runtime.GC()
			allocs, live := heapStats()
			if live > live0 && live-live0 > uint64(allocLimit) {
				p.dead.Store(true)
				cancel()
				return errMemLimit
			}
			next = allocs + uint64(allocLimit)
		}
	}
}

// run executes a compiled call with the limits, after set has stored its
// arguments; get reads its results, still holding the lock. When the call
// returns an error, run returns its message, written by its Error method
// under the same limits.
func (p *Policy) run(call string, prog *interp.Program, set, get func()) (msg string, err error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.broken != nil {
		return "", p.broken
	}
	set()
	p.errOut.Set(reflect.Zero(p.errOut.Type()))
	if err := p.exec(call, prog); err != nil {
		return "", err
	}
	get()
	if p.errOut.IsNil() {
		return "", nil
	}
	if err := p.exec("the Error method of the error of "+call, p.message); err != nil {
		return "", err
	}
	return p.msg.String(), nil
}

// exec executes a compiled call with the limits.
func (p *Policy) exec(call string, prog *interp.Program) error {
	in := p.in // stop clears p.in while the call may still run
	err := p.watch(func(ctx context.Context) error {
		_, err := in.ExecuteWithContext(ctx, prog)
		return err
	})
	if err == nil {
		return nil
	}
	var pe interp.Panic
	var c *crash
	stopped := func(why string) error {
		p.broken = &promote.Error{Policy: p.name, Operand: -1,
			Msg: fmt.Sprintf("%s %s, so the policy was stopped and is now broken; fix %s and load it again", call, why, p.file)}
		p.stop()
		return p.broken
	}
	switch {
	case errors.Is(err, errTimeLimit):
		return stopped(fmt.Sprintf("did not return within %v", p.timeout))
	case errors.Is(err, errMemLimit):
		return stopped("allocated more than a user policy may (" + bytesString(allocLimit) + ")")
	case errors.As(err, &c):
		return stopped(fmt.Sprintf("crashed the interpreter: %s", panicText(c.value)))
	case errors.As(err, &pe):
		return &promote.Error{Policy: p.name, Operand: -1, Msg: fmt.Sprintf("%s panicked: %s", call, panicText(pe.Value))}
	}
	return &promote.Error{Policy: p.name, Operand: -1, Msg: fmt.Sprintf("%s: %v", call, err)}
}

// callType runs a hook that returns (tensorsh.Type, error).
func (p *Policy) callType(call string, prog *interp.Program, set func()) (dtypes.Type, error) {
	var t dtypes.Type
	var failed bool
	get := func() {
		t, _ = p.out.Interface().(dtypes.Type)
		failed = !p.errOut.IsNil()
	}
	msg, err := p.run(call, prog, set, get)
	if err != nil {
		return dtypes.Type{}, err
	}
	if failed {
		return dtypes.Type{}, &promote.Error{Policy: p.name, Operand: -1, Msg: msg}
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

// maxTitle bounds a policy's title: it is printed in prompts and lists.
const maxTitle = 200

// printable returns s safe to print on a terminal: control characters
// (escape sequences included) and Unicode's bidirectional controls become
// U+FFFD, and a title longer than maxTitle characters is cut with "…".
func printable(s string) string {
	var b strings.Builder
	n := 0
	for _, r := range s {
		if n == maxTitle {
			b.WriteString("…")
			break
		}
		switch {
		case r < 0x20, r == 0x7f, r >= 0x80 && r < 0xa0, // C0, DEL, C1 (ESC, CSI …)
			r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069: // bidi overrides
			r = '\uFFFD'
		}
		b.WriteRune(r)
		n++
	}
	return b.String()
}
