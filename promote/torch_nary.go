package promote

import (
	"fmt"

	"github.com/tensorsh/tensorsh/dtypes"
)

// torch's result type of n operands, after aten/src/ATen/native/TypeProperties.cpp:
// result_type(ITensorListRef) (what torch.cat and torch.stack use) runs
// update_result_type_state over every operand, so that each group (tensors
// with dimensions, zero-dim tensors, wrapped numbers) promotes within
// itself by promoteTypes in turn, then combines the groups by category
// (combine_categories). The groups do not depend on the operands' order,
// and promoteTypes is commutative and associative on the dtypes it
// promotes; only an error can depend on the order (uint16 with a float
// then an int8 succeeds, uint16 with the int8 first fails), as it does in
// torch.

// Nary is torch's result type of all of xs at once.
func (p torchPolicy) Nary(op BinaryOp, xs []Operand) (Result, error) {
	if r, done, err := numpyNaryFew(p, torchDTypes, torchWrapped, op, xs); done {
		return r, err
	}
	d, weak, rule, err := p.resultTypeN(xs)
	if err != nil {
		return Result{}, err
	}
	// The operation's own rules, on operands already of the common type.
	o := Operand{Type: dtypes.Strong(d), Rank: 1}
	r, err := p.Binary(op, o, o)
	if err != nil {
		return Result{}, err
	}
	r.Type.Weak = weak
	r.Rule = rule + "; " + r.Rule
	return r, nil
}

// resultTypeN is at::native::result_type over xs: each group promoted
// within itself, then the groups combined.
func (p torchPolicy) resultTypeN(xs []Operand) (dtypes.DType, bool, string, error) {
	var groups [3]dtypes.DType
	weak := true
	for i, x := range xs {
		a, err := numpyArgOf("torch", torchDTypes, i, x, torchWrapped)
		if err != nil {
			return dtypes.Invalid, false, "", err
		}
		weak = weak && a.weak
		g, d := torchGroup(a), a.d
		if g == 2 && !a.lit {
			d, _ = torchWrapped(Scalar{Kind: a.kind})
		}
		if groups[g] == dtypes.Invalid {
			groups[g] = d
			continue
		}
		r, err := torchPromoteTypes(groups[g], d)
		if err != nil {
			return dtypes.Invalid, false, "", err
		}
		groups[g] = r
	}
	low, err := torchCombine(groups[1], groups[2])
	if err != nil {
		return dtypes.Invalid, false, "", err
	}
	d, err := torchCombine(groups[0], low)
	if err != nil {
		return dtypes.Invalid, false, "", err
	}
	rule := fmt.Sprintf("torch's result_type of %s is %s:", describeTypes(xs), torchName(d))
	for g, gd := range groups {
		if gd != dtypes.Invalid {
			rule += fmt.Sprintf(" the %ss promote to %s,", torchGroupNames[g], torchName(gd))
		}
	}
	rule += " and a lower group takes part only when of a higher category"
	return d, weak, rule, nil
}
