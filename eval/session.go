// Package eval is the tensorsh evaluator. A Session holds the variables, the
// active promotion policy and the backend; front ends (the REPL, the Jupyter
// kernel, the command line) call its Execute, Complete, Inspect and
// IsComplete methods.
//
// A statement is compiled first: lang parses it, and every operation asks the
// policy (promote/) for the result type and broadcast/ for the shape, so that
// promotion and broadcasting errors come before any data is touched. The
// result is one typed plan (a tree of backend.Nodes with explicit casts) that
// the backend evaluates as a whole.
package eval

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sort"
	"strconv"
	"strings"

	"github.com/tensorsh/tensorsh/backend"
	"github.com/tensorsh/tensorsh/backend/cpu"
	"github.com/tensorsh/tensorsh/lang"
	"github.com/tensorsh/tensorsh/promote"
)

// Version is the tensorsh version.
const Version = "0.1"

// An Output is one thing a statement shows.
type Output struct {
	// Value is set for a printed result.
	Value *Value
	// Text is set for directive output (:vars, :help, :time …).
	Text string
	// Timing is set by :time (Text has its plain form).
	Timing *Timing
	// Warning is set for a warning (JAX x32 truncation …) when the
	// session's Warn is nil; Text then holds "warning: " and the message.
	Warning string
}

// A BackendFactory opens a backend by name ("cuda"); it returns a clear
// error when the backend cannot run on this machine.
type BackendFactory func() (backend.Backend, error)

// A Session is one user's tensorsh state.
type Session struct {
	// finisher is the compiler of a statement whose plan was kept (see
	// evalExpr).
	finisher compiler

	policy   promote.Policy
	backend  backend.Backend
	backends map[string]backend.Backend
	// Factories opens backends other than cpu on first use.
	factories map[string]BackendFactory

	// userPolicies are the policies loaded with :policy load, by name.
	userPolicies map[string]promote.Policy

	// Width is the terminal width teaching tools lay their text out for;
	// 0 means 80.
	Width int

	vars map[string]*Value
	// varsGen counts the changes to the variables (setVar, Reset, a move
	// to another backend): what was read from them at an equal count
	// still holds.
	varsGen uint64
	// varSpans holds the storage of the variables' tensors as of
	// varSpansGen: unheld reads it rather than walk the map of variables
	// at each statement (0.19 µs of a 1.1 µs statement with the seven
	// variables of a benchmark's setup).
	varSpans    []heldSpan
	varSpansGen uint64
	rng         *rand.Rand
	pcg         *rand.PCG // rng's source, whose state compare saves
	seed        uint64
	count       int // statements run, for <stdin:N> names

	warnings []string
	// Warn receives warnings (JAX x32 truncation …) as they happen; when nil
	// they are returned as Text outputs.
	Warn func(string)
	// Load reads a file for :load and :policy load; nil means
	// textfile.Read (regular text files up to textfile.MaxSize). The
	// browser playground sets it: a page has no file system.
	Load func(name string) ([]byte, error)
	// Magics are the %-magics a front end handles itself (the Jupyter
	// kernel's %history, %load): Complete offers them after '%' with the
	// directives.
	Magics []string
	// Progress, when set, is called with a note when a directive starts
	// what takes a while (:timeit, about a second), for a front end to
	// show until the outputs come.
	Progress func(note string)

	// results are the earlier cells' results, for _ and Out[n].
	results *results

	// last is the last result a statement printed, for :save.
	last *Output

	// loading holds the scripts :load is running, outermost first: their
	// resolved paths (to find cycles) and their names as written.
	loading, loadNames []string

	// parsed holds the syntax trees of recent short sources, by text, so
	// that a statement run again (a benchmark's, a re-run cell's) is not
	// parsed again; see parse.
	parsed map[string]*lang.File

	// plans are the compiled plans of recent tensor-valued expressions,
	// by syntax tree (see plan.go); draws counts the generator's uses
	// (seeding too) and warns the warnings given, so that compiling
	// that did either is not kept.
	plans        map[lang.Expr]*plan
	draws, warns int
}

// Bounds of the parse cache: sources up to maxParsedLen bytes, at most
// maxParsed of them (the cache starts over when full).
const (
	maxParsedLen = 1 << 10
	maxParsed    = 64
)

// parse parses src, named name in errors, reusing the tree of an earlier
// call with the same text. A tree depends on the text alone (the name
// appears only in errors, which are not kept) and nothing changes a tree
// once built, so a kept one is as good as a fresh one.
func (s *Session) parse(name, src string) (*lang.File, error) {
	if f, ok := s.parsed[src]; ok {
		return f, nil
	}
	f, err := lang.Parse(name, src)
	if err != nil || len(src) > maxParsedLen {
		return f, err
	}
	if s.parsed == nil || len(s.parsed) >= maxParsed {
		s.parsed = make(map[string]*lang.File)
	}
	s.parsed[src] = f
	return f, nil
}

// New returns a session with the named policy on the CPU backend.
func New(policy string) (*Session, error) {
	p, err := promote.Lookup(policy)
	if err != nil {
		return nil, err
	}
	cb := cpu.New()
	s := &Session{
		policy:    p,
		backend:   cb,
		backends:  map[string]backend.Backend{"cpu": cb},
		factories: map[string]BackendFactory{},
		vars:      map[string]*Value{},
		varsGen:   1, // the caches start at 0: unread
	}
	s.reseed(0)
	return s, nil
}

// RegisterBackend makes a backend available to :backend name.
func (s *Session) RegisterBackend(name string, f BackendFactory) { s.factories[name] = f }

// Policy returns the active policy.
func (s *Session) Policy() promote.Policy { return s.policy }

// SetPolicy switches the active policy.
func (s *Session) SetPolicy(name string) error {
	p, err := s.lookupPolicy(name)
	if err != nil {
		return err
	}
	s.policy = p
	s.dropPlans("")
	return nil
}

// Backend returns the name of the active backend.
func (s *Session) Backend() string { return s.backend.Name() }

// SetBackend switches the active backend, moving variables to it.
func (s *Session) SetBackend(name string) error {
	b, ok := s.backends[name]
	if !ok {
		f, ok := s.factories[name]
		if !ok {
			names := []string{"cpu"}
			for n := range s.factories {
				names = append(names, n)
			}
			sort.Strings(names[1:])
			return fmt.Errorf("unknown backend %q (backends: %s)", name, strings.Join(names, ", "))
		}
		var err error
		b, err = f()
		if err != nil {
			if errors.Is(err, backend.ErrUnavailable) {
				return err // it says so already
			}
			return fmt.Errorf("%s backend unavailable: %w", name, err)
		}
		s.backends[name] = b
	}
	// Move the variables, each tensor once (variables may share one), and
	// free what the old backend held.
	moved := map[*backend.Tensor]*backend.Tensor{}
	for _, v := range s.vars {
		if v.Kind != TensorValue || v.Device == name {
			continue
		}
		if t, ok := moved[v.Tensor]; ok {
			v.Tensor, v.Device = t, name
			continue
		}
		from := s.backends[v.Device]
		t, err := from.Fetch(v.Tensor)
		if err != nil {
			return err
		}
		if t, err = b.Upload(t); err != nil {
			return err
		}
		moved[v.Tensor] = t
		if f, ok := from.(freer); ok {
			f.Free(v.Tensor)
		}
		v.Tensor, v.Device = t, name
	}
	s.varsGen++
	s.backend = b
	s.dropPlans("")
	return nil
}

func (s *Session) reseed(seed uint64) {
	s.draws++
	s.seed = seed
	s.pcg = rand.NewPCG(seed, 0x7e115f5)
	s.rng = rand.New(s.pcg)
}

// rngState returns the state of the session's generator, for restoreRNG.
func (s *Session) rngState() []byte {
	b, _ := s.pcg.MarshalBinary() // a PCG always marshals
	return b
}

// restoreRNG puts the session's generator back in a state rngState gave.
func (s *Session) restoreRNG(state []byte) {
	_ = s.pcg.UnmarshalBinary(state) // a state from rngState always unmarshals
}

// A freer is a backend that can release a tensor's memory at once (the
// CUDA backend); a recycler keeps a dropped tensor's memory for a later
// result (the CPU backend, see cpu.Backend.Recycle). Others leave it to
// the garbage collector.
type (
	freer    interface{ Free(*backend.Tensor) }
	recycler interface{ Recycle(*backend.Tensor) }
)

// setVar binds name to v, releasing the memory of the value it replaces
// unless something else the session holds shares it.
func (s *Session) setVar(name string, v *Value) {
	old := s.vars[name]
	s.vars[name] = v
	s.varsGen++
	s.dropPlans(name)
	s.release(old)
}

// release gives a dropped value's memory back to its backend unless
// something the session holds shares it.
func (s *Session) release(v *Value) {
	if !s.unheld(v) {
		return
	}
	switch b := s.backends[v.Device].(type) {
	case freer:
		b.Free(v.Tensor)
	case recycler:
		b.Recycle(v.Tensor)
	}
}

// recycle is release for a value the session dropped without the user
// naming it (the last result once another replaces it, a :timeit run),
// which only a recycler takes back.
func (s *Session) recycle(v *Value) {
	if v == nil {
		return
	}
	if b, ok := s.backends[v.Device].(recycler); ok && s.unheld(v) {
		b.Recycle(v.Tensor)
	}
}

// unheld reports whether v is a tensor whose memory no variable, kept
// result or last result shares (a reshaped or sliced value may share its
// operand's memory; the CPU backend's storage is compared by address).
func (s *Session) unheld(v *Value) bool {
	if v == nil || v.Kind != TensorValue || v.Tensor == nil {
		return false
	}
	shares := func(w *Value) bool {
		return w != nil && w.Kind == TensorValue && w.Tensor != nil &&
			(w.Tensor == v.Tensor || backend.SharesMemory(w.Tensor.Data, v.Tensor.Data))
	}
	vs := newHeldSpan(v.Tensor)
	for _, h := range s.heldByVars() {
		if h.shares(vs) {
			return false
		}
	}
	if s.last != nil && shares(s.last.Value) {
		return false
	}
	if r := s.results; r != nil {
		for _, w := range r.last {
			if shares(w) {
				return false
			}
		}
		for _, w := range r.out {
			if shares(w) {
				return false
			}
		}
	}
	return true
}

// A heldSpan is a tensor and the span of its storage (backend.StorageSpan).
type heldSpan struct {
	t    *backend.Tensor
	p, n uintptr
	ok   bool // the span is known; otherwise backend.SharesMemory decides
}

func newHeldSpan(t *backend.Tensor) heldSpan {
	p, n, ok := backend.StorageSpan(t.Data)
	return heldSpan{t, uintptr(p), n, ok}
}

// shares reports what backend.SharesMemory(h.t.Data, o.t.Data) reports,
// or that h and o are the same tensor.
func (h *heldSpan) shares(o heldSpan) bool {
	switch {
	case h.t == o.t:
		return true
	case h.ok && o.ok:
		return h.n > 0 && o.n > 0 && h.p < o.p+o.n && o.p < h.p+h.n
	}
	return backend.SharesMemory(h.t.Data, o.t.Data)
}

// heldByVars returns the spans of the variables' tensors (varSpans).
func (s *Session) heldByVars() []heldSpan {
	if s.varSpansGen == s.varsGen {
		return s.varSpans
	}
	s.varSpans = s.varSpans[:0]
	for _, w := range s.vars {
		if w != nil && w.Kind == TensorValue && w.Tensor != nil {
			s.varSpans = append(s.varSpans, newHeldSpan(w.Tensor))
		}
	}
	s.varSpansGen = s.varsGen
	return s.varSpans
}

// Reset forgets every variable and reseeds the random generator.
func (s *Session) Reset() {
	s.dropResults()
	s.dropPlans("")
	old := s.vars
	s.vars = map[string]*Value{}
	s.varsGen++
	freed := map[*backend.Tensor]bool{}
	for _, v := range old {
		if v.Kind == TensorValue && !freed[v.Tensor] {
			freed[v.Tensor] = true
			s.release(v)
		}
	}
	s.reseed(0)
}

// Var returns the variable named name.
func (s *Session) Var(name string) (*Value, bool) {
	v, ok := s.vars[name]
	return v, ok
}

// Vars returns the variable names, sorted.
func (s *Session) Vars() []string {
	names := make([]string, 0, len(s.vars))
	for n := range s.vars {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

func (s *Session) warn(w string) {
	s.warns++
	for _, seen := range s.warnings {
		if seen == w {
			return
		}
	}
	s.warnings = append(s.warnings, w)
}

// run evaluates a plan on the active backend.
func (s *Session) run(ctx context.Context, n *backend.Node) (*backend.Tensor, error) {
	if n.Op == backend.OpInput {
		return n.Tensor, nil
	}
	t, err := s.backend.Run(ctx, n)
	if err == nil {
		return t, nil
	}
	var w *backend.Warning
	if errors.As(err, &w) && t != nil {
		// The operations completed and warned (NumPy's RuntimeWarnings).
		for _, m := range w.Msgs {
			s.warn(m)
		}
		err = nil
	}
	return t, err
}

// runOnHost evaluates plan n on the session's backend, as run does, and
// returns the result in the CPU form: a result left on a device (the CUDA
// backend's) is fetched, and its device memory freed. Compiling uses it
// where it reads a computed value (a 0-d operand a policy needs).
func (s *Session) runOnHost(ctx context.Context, n *backend.Node) (*backend.Tensor, error) {
	t, err := s.run(ctx, n)
	if err != nil || hostStorage(t.Data) {
		return t, err
	}
	h, err := s.backend.Fetch(t)
	if err != nil {
		return nil, err
	}
	if f, ok := s.backend.(freer); ok && n.Op != backend.OpInput {
		f.Free(t) // the run's result (an input's tensor is a value's)
	}
	return h, nil
}

// fetch returns the CPU form of a value's tensor, in row-major order.
func (s *Session) fetch(v *Value) (*Value, error) {
	onCPU := v.Device == "cpu" || v.Device == ""
	if v.Kind != TensorValue || onCPU && v.Perm == nil {
		return v, nil
	}
	b := s.backends[v.Device]
	t := v.Tensor
	if v.Perm != nil {
		in := &backend.Node{Op: backend.OpInput, DType: t.DType, Shape: t.Shape, Tensor: t}
		n := &backend.Node{Op: backend.OpTranspose, DType: t.DType, Shape: v.Dims(), Axes: v.Perm, Args: []*backend.Node{in}}
		var err error
		if t, err = b.Run(context.Background(), n); err != nil {
			return nil, err
		}
		if !onCPU {
			defer func(t *backend.Tensor) {
				if f, ok := b.(freer); ok {
					f.Free(t)
				}
			}(t)
		}
	}
	if !onCPU {
		var err error
		if t, err = b.Fetch(t); err != nil {
			return nil, err
		}
	}
	w := *v
	w.Tensor, w.Perm = t, nil
	return &w, nil
}

// Fetch returns v with its tensor in CPU form and row-major order, ready
// to format.
func (s *Session) Fetch(v *Value) (*Value, error) { return s.fetch(v) }

// NextName returns the file name the next Execute call will report in
// errors when called with name "": "<stdin:N>".
func (s *Session) NextName() string { return stdinName(s.count + 1) }

// stdinName returns "<stdin:N>", the name of the Nth Execute call's source.
func stdinName(n int) string {
	b := make([]byte, 0, 32)
	b = append(b, "<stdin:"...)
	b = strconv.AppendInt(b, int64(n), 10)
	return string(append(b, '>'))
}

// Execute runs src (one or more statements and directives). name is used in
// error positions; "" means "<stdin:N>" with N counting calls. It returns
// the outputs of the statements that ran; on error, the outputs before the
// failing statement and an *Error. Variables assigned before the error stay.
func (s *Session) Execute(ctx context.Context, name, src string) (outs []Output, err error) {
	// A bug in tensorsh must not end the user's session: it becomes an
	// error naming what went wrong, and the variables stay.
	defer func() {
		if p := recover(); p != nil {
			err = &Error{Name: "InternalError", Msg: fmt.Sprintf("internal error: %v (this is a tensorsh bug; the session goes on)", p), File: name}
		}
	}()
	s.count++
	if name == "" {
		name = stdinName(s.count)
	}
	if outs, ok := s.helpOutput(src); ok { // tanh? and ?tanh, as in IPython
		return outs, nil
	}
	f, err := s.parse(name, src)
	if err != nil {
		return nil, s.syntaxError(name, src, err)
	}
	// The last result of the cell before, once another replaces it, is
	// given back when this cell ends: its front end is done with it.
	prev := s.last
	defer func() {
		if prev != nil && s.last != prev {
			s.recycle(prev.Value)
		}
	}()
	for _, st := range f.Stmts {
		o, err := s.exec(ctx, name, src, st)
		outs = append(outs, s.flushWarnings()...)
		if err != nil {
			return outs, err
		}
		for i := range o {
			if o[i].Value != nil {
				s.last = &o[i] // read only: the Output returned
			}
		}
		if outs == nil {
			outs = o // exec's own slice: one statement, nothing to copy
		} else {
			outs = append(outs, o...)
		}
	}
	return outs, nil
}

func (s *Session) flushWarnings() []Output {
	if len(s.warnings) == 0 {
		return nil
	}
	var outs []Output
	for _, w := range s.warnings {
		if s.Warn != nil {
			s.Warn(w)
		} else {
			outs = append(outs, Output{Text: "warning: " + w, Warning: w})
		}
	}
	s.warnings = nil
	return outs
}
