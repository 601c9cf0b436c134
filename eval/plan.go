package eval

import (
	"slices"
	"strings"

	"github.com/tensorsh/tensorsh/backend"
	"github.com/tensorsh/tensorsh/lang"
)

// Plans: a statement run again skips compiling.
//
// A NumPy user times a statement on a small array (%timeit a * 2 of a
// 100×100 float32 array: 3.4 µs), re-runs a cell, or runs one line in a
// loop of :timeit. Compiling a statement (promotion, broadcasting, the plan's
// nodes) took about as long as computing 10^4 elements; NumPy's
// dispatch of a ufunc takes a fraction of a microsecond. So the session
// keeps the compiled plan of a tensor-valued expression, by its syntax
// tree (the parse cache hands the same tree back for the same text), and
// runs it again while everything compiling read is as it was: the same
// policy and backend (changing either drops every plan), and the same
// value bound to each name the expression mentions (or still none).
// Values do not change once bound (assignment binds a new one, and drops
// the plans that read the name); only SetBackend moves them, and it drops
// every plan.
//
// Compiling must have had no effect but its plan: an expression that
// draws random numbers (rand, randn), warns while compiling (the overflow
// of a Python scalar), reads the earlier results (_, _N, Out[n]) or calls
// a special form (print, explain, compare, help) is compiled each time.
// Warnings of the run itself (NumPy's divide by zero) come from running
// the plan, so a kept plan gives them again. A result that shares memory
// with a tensor the plan holds (a constant, a reshaped or transposed
// variable: a view) is not kept either, since the session may hand a
// result's memory back to the backend once it is dropped.

// maxPlans bounds the plans a session keeps (it starts over when full).
const maxPlans = 64

// A plan is a compiled tensor-valued expression.
type plan struct {
	o      *operand          // its compiled form: o.node is the plan to run
	reads  []read            // the names the expression mentions, with their values
	leaves []*backend.Tensor // the tensors o.node holds
	// gen is the count of changes to the variables (Session.varsGen)
	// at which reads were last found unchanged (0: never).
	gen uint64
}

// A read is a name and the value it had when the plan was compiled (nil:
// not a variable).
type read struct {
	name string
	v    *Value
}

// planReads returns the names e mentions with their values now, and
// whether e may be kept as a plan: no special form, no earlier result.
func (s *Session) planReads(e lang.Expr) ([]read, bool) {
	var reads []read
	ok := true
	lang.Walk(e, func(n lang.Node) bool {
		id, isIdent := n.(*lang.Ident)
		if !isIdent {
			return ok
		}
		if _, special := specialForms[id.Name]; special || strings.HasPrefix(id.Name, "_") || id.Name == "Out" || id.Name == "In" {
			ok = false
			return false
		}
		reads = append(reads, read{id.Name, s.vars[id.Name]})
		return true
	})
	return reads, ok
}

// valid reports whether every name p read has the value it had: at
// once where no variable changed since it last found so.
func (p *plan) valid(s *Session) bool {
	if p.gen == s.varsGen {
		return true
	}
	for _, r := range p.reads {
		if s.vars[r.name] != r.v {
			return false
		}
	}
	p.gen = s.varsGen
	return true
}

// keep records the compiled o of e as a plan, when compiling it had no
// effect but o (see above) and its result v shares no memory with the
// tensors o holds.
func (s *Session) keep(e lang.Expr, reads []read, o *operand, v *Value) {
	if o.kind != TensorValue || v == nil || v.Kind != TensorValue || s.backend.Name() != "cpu" {
		return
	}
	p := &plan{o: o, reads: reads, leaves: leaves(o.node)}
	if p.shares(v) {
		return
	}
	if s.plans == nil || len(s.plans) >= maxPlans {
		s.plans = make(map[lang.Expr]*plan)
	}
	s.plans[e] = p
}

// leaves returns the tensors of the plan at n, each once.
func leaves(n *backend.Node) []*backend.Tensor {
	var ts []*backend.Tensor
	seen := map[*backend.Node]bool{}
	var walk func(n *backend.Node)
	walk = func(n *backend.Node) {
		if seen[n] {
			return
		}
		seen[n] = true
		if n.Tensor != nil && !slices.Contains(ts, n.Tensor) {
			ts = append(ts, n.Tensor)
		}
		for _, a := range n.Args {
			walk(a)
		}
	}
	walk(n)
	return ts
}

// shares reports whether v shares memory with a tensor p holds.
func (p *plan) shares(v *Value) bool {
	for _, t := range p.leaves {
		if t == v.Tensor || backend.SharesMemory(t.Data, v.Tensor.Data) {
			return true
		}
	}
	return false
}

// dropPlans forgets the plans that read name (all of them for "").
func (s *Session) dropPlans(name string) {
	if name == "" {
		s.plans = nil
		return
	}
	for e, p := range s.plans {
		for _, r := range p.reads {
			if r.name == name {
				delete(s.plans, e)
				break
			}
		}
	}
}
