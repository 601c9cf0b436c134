package promote

import "errors"

// N-ary promotion: the type several operands are promoted to together, as
// promote(a, b, c, …), where(c, a, b), concat and stack need it.
//
// Libraries differ in how they do this. Some fold their binary rule from
// the left (Triton, MAX's elementwise ops, anvil). Others look at all
// operands at once, and their answer does not depend on the order:
// np.result_type (PyArray_PromoteDTypeSequence in NumPy's common_dtype.c),
// jnp.result_type (the least upper bound of all inputs on JAX's lattice),
// torch's result_type over a list of tensors (one ResultTypeState for all).
// A policy whose library does the latter implements NaryPolicy; Nary uses
// the fold for every other policy, user policies included.

// A NaryPolicy is a Policy whose library promotes n operands at once
// instead of folding its binary rule.
type NaryPolicy interface {
	Policy
	// Nary returns the result of op applied to all of xs together
	// (len(xs) ≥ 1). Op is Where for the plain promotion. An *Error's
	// Operand indexes xs.
	Nary(op BinaryOp, xs []Operand) (Result, error)
}

// Nary returns the result of promoting xs together for op under p: p's own
// n-ary rule when it has one, else the left fold of p.Binary (Fold). One
// operand gives its own type.
func Nary(p Policy, op BinaryOp, xs ...Operand) (Result, error) {
	if len(xs) == 0 {
		return Result{}, Errorf(p.Name(), -1, "nothing to promote: at least one dtype or value is required")
	}
	if n, ok := p.(NaryPolicy); ok {
		return n.Nary(op, xs)
	}
	return Fold(p, op, xs...)
}

// Fold is the left fold of p.Binary over xs: ((x0 op x1) op x2) …. A
// partial result takes part as a value of its type whose rank is the
// largest so far (not a literal, and of unknown value). An *Error's Operand
// indexes xs: the operand that made the step fail, or −1.
func Fold(p Policy, op BinaryOp, xs ...Operand) (Result, error) {
	if len(xs) == 0 {
		return Result{}, Errorf(p.Name(), -1, "nothing to promote: at least one dtype or value is required")
	}
	acc := xs[0]
	r := single(acc)
	var warning string
	for i, x := range xs[1:] {
		res, err := p.Binary(op, acc, x)
		if err != nil {
			first := -1
			if i == 0 {
				first = 0
			}
			return Result{}, reblame(err, first, i+1)
		}
		if res.Warning != "" {
			warning = res.Warning
		}
		rank := acc.Rank
		if x.Rank > rank {
			rank = x.Rank
		}
		acc = Operand{Type: res.Type, Rank: rank}
		r = res
	}
	if r.Warning == "" {
		r.Warning = warning
	}
	return r, nil
}

// single is the result of promoting one operand: its own type.
func single(x Operand) Result {
	return Result{Type: x.Type, Compute: x.Type.DType, Rule: "a single operand keeps its type " + x.Type.String()}
}

// reblame maps the operand of a binary *Error (0 or 1) to an index of the
// n operands: 0 becomes first, 1 becomes second.
func reblame(err error, first, second int) error {
	var pe *Error
	if !errors.As(err, &pe) {
		return err
	}
	e := *pe
	switch e.Operand {
	case 0:
		e.Operand = first
	case 1:
		e.Operand = second
	}
	return &e
}

// IsOrderFree reports whether p's n-ary promotion is its library's
// order-independent one (np.result_type, jnp.result_type, torch's
// result_type over tensors) rather than a left fold.
func IsOrderFree(p Policy) bool {
	_, ok := p.(NaryPolicy)
	return ok
}

// A TypesPolicy is a Policy whose library's promote_types answers
// differently from the type its arrays get (JAX: jnp.promote_types joins on
// the lattice without canonicalising to 32 bits, and a join at a Python
// type is the 64-bit default dtype). Other policies' promote_types is their
// result type.
type TypesPolicy interface {
	Policy
	// PromoteTypes answers like the library's promote_types over xs (only
	// their types are used; weak types stand for Python's int, float and
	// complex).
	PromoteTypes(xs []Operand) (Result, error)
	// TypesNote says, for tables, how the promote_types table relates to
	// the library's documented one ("" when it is the same).
	TypesNote() string
}

// PromoteTypes answers promote(a, b, …) under p: the library's
// promote_types where it differs from its result type (TypesPolicy), else
// Nary for the plain promotion (Where).
func PromoteTypes(p Policy, xs ...Operand) (Result, error) {
	if len(xs) == 0 {
		return Result{}, Errorf(p.Name(), -1, "nothing to promote: at least one dtype or value is required")
	}
	if t, ok := p.(TypesPolicy); ok {
		return t.PromoteTypes(xs)
	}
	return Nary(p, Where, xs...)
}

// ResultType answers result_type(a, b, …) under p: the library's
// result_type, the dtype (and weakness) that arrays of these types give
// when they meet (canonicalised under JAX with x64 off).
func ResultType(p Policy, xs ...Operand) (Result, error) {
	if len(xs) == 0 {
		return Result{}, Errorf(p.Name(), -1, "result_type needs at least one dtype or value")
	}
	if r, ok := p.(interface {
		ResultType(xs []Operand) (Result, error)
	}); ok {
		return r.ResultType(xs)
	}
	return Nary(p, Where, xs...)
}

// describeTypes writes the types of xs for rules: "i16, u16, f16".
func describeTypes(xs []Operand) string {
	s := ""
	for i, x := range xs {
		if i > 0 {
			s += ", "
		}
		if x.Literal && x.Value != nil {
			s += x.Value.String()
			continue
		}
		s += x.Type.String()
	}
	return s
}
