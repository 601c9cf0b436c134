package eval

import (
	"fmt"
	"sort"
	"strings"

	"github.com/tensorsh/tensorsh/internal/teach"
	"github.com/tensorsh/tensorsh/promote"
)

// lookupPolicy finds a policy by name: a user policy loaded in this
// session, or a built-in one.
func (s *Session) lookupPolicy(name string) (promote.Policy, error) {
	if p, ok := s.userPolicies[name]; ok {
		return p, nil
	}
	p, err := promote.Lookup(name)
	if err != nil {
		return nil, fmt.Errorf("unknown policy %q (policies: %s)", name, strings.Join(s.PolicyNames(), ", "))
	}
	return p, nil
}

// PolicyNames lists the built-in policies, then the user policies loaded
// in this session.
func (s *Session) PolicyNames() []string {
	names := promote.Names()
	var user []string
	for n := range s.userPolicies {
		user = append(user, n)
	}
	sort.Strings(user)
	return append(names, user...)
}

// policyArg reads an optional policy-name argument: the active policy when
// absent.
func (c *compiler) policyArg(k *call, i int) (promote.Policy, error) {
	if i >= len(k.args) {
		return c.policy, nil
	}
	a := k.args[i]
	if a.kind != StringValue {
		return nil, c.errorf(a.span(), "TypeError", "%s() takes a policy name as a string, as in %s(\"numpy\")", k.name, k.name)
	}
	p, err := c.s.lookupPolicy(a.str)
	if err != nil {
		return nil, c.errorf(a.span(), "ValueError", "%v", err)
	}
	return p, nil
}

// opArg reads the op= keyword: the operator whose table to show ("+" by
// default; "/", "//", "<", "&" … give the other classes).
func (c *compiler) opArg(k *call, def promote.BinaryOp) (promote.BinaryOp, error) {
	o, ok := k.kw["op"]
	if !ok {
		return def, nil
	}
	if o.kind == StringValue {
		for op := promote.Add; op <= promote.Clip; op++ {
			if op.String() == o.str && op != promote.MatMul {
				return op, nil
			}
		}
	}
	return 0, c.errorf(o.span(), "ValueError", "op= takes an operator as a string: \"+\", \"/\", \"//\", \"%%\", \"**\", \"<\", \"&\", \"<<\" …")
}

func (s *Session) textWidth() int {
	if s.Width > 0 {
		return s.Width
	}
	return 80
}

// table shows the promotion table of a policy.
func table(c *compiler, k *call) (*operand, error) {
	if err := k.nargs(c, 0, 1); err != nil {
		return nil, err
	}
	p, err := c.policyArg(k, 0)
	if err != nil {
		return nil, err
	}
	op, err := c.opArg(k, promote.Add)
	if err != nil {
		return nil, err
	}
	t := promote.NewTable(p, op)
	return &operand{kind: TextValue, str: teach.TableText(t, teach.Options{Width: c.s.textWidth()}), html: teach.TableHTML(t)}, nil
}

// diff shows the cells where two policies' tables differ.
func diff(c *compiler, k *call) (*operand, error) {
	array := len(k.args) > 0 && k.args[0].kind != StringValue
	for name, o := range k.kw {
		if (name == "op") == array {
			return nil, c.errorf(o.span(), "TypeError", "diff() of %s takes no %s= (usage: %s)", map[bool]string{true: "a tensor", false: "policies"}[array], name, builtins["diff"].sig)
		}
	}
	if array {
		return c.arrayDiff(k) // np.diff(x, n=1, axis=-1)
	}
	if err := k.nargs(c, 1, 2); err != nil {
		return nil, err
	}
	p, err := c.policyArg(k, 0)
	if err != nil {
		return nil, err
	}
	// diff("numpy") compares the active policy with numpy.
	q := p
	if len(k.args) == 2 {
		if q, err = c.policyArg(k, 1); err != nil {
			return nil, err
		}
	} else {
		p = c.policy
	}
	op, err := c.opArg(k, promote.Add)
	if err != nil {
		return nil, err
	}
	d := promote.NewDiff(p, q, op)
	return &operand{kind: TextValue, str: teach.DiffText(d, teach.Options{Width: c.s.textWidth()}), html: teach.DiffHTML(d)}, nil
}

// lattice shows the promotion graph of a policy.
func lattice(c *compiler, k *call) (*operand, error) {
	if err := k.nargs(c, 0, 1); err != nil {
		return nil, err
	}
	p, err := c.policyArg(k, 0)
	if err != nil {
		return nil, err
	}
	lits := false
	if o, ok := k.kw["literals"]; ok {
		if lits, err = c.boolOf(o, "literals="); err != nil {
			return nil, err
		}
	}
	g := promote.NewGraph(p, promote.Where, lits)
	return &operand{kind: TextValue, str: teach.LatticeText(g, teach.Options{Width: c.s.textWidth()}), svg: teach.LatticeSVG(g)}, nil
}
