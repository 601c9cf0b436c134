package eval

import (
	"errors"
	"fmt"
	"strings"

	"github.com/tensorsh/tensorsh/internal/format"
	"github.com/tensorsh/tensorsh/internal/teach"
	"github.com/tensorsh/tensorsh/lang"
)

// A specialForm is a function that receives its argument unevaluated:
// explain(expr) and compare(expr) look at the expression, not its value.
type specialForm struct {
	sig, doc, example string
	fn                func(c *compiler, e *lang.CallExpr) (*operand, error)
}

var specialForms = map[string]*specialForm{}

func init() {
	specialForms["explain"] = &specialForm{
		sig:     "explain(expr)",
		doc:     "The steps that give expr its dtype and shape: for each operation, the operand types, the rule of the active policy that fired, and the result.",
		example: "explain(i16([1, 2, 3]) + 1.5)",
		fn:      (*compiler).explain,
	}
	specialForms["print"] = &specialForm{
		sig:     "print(a, b, …)",
		doc:     "Shows the values (strings as they are) separated by spaces, as a statement of its own: text, not a result.",
		example: `print("x is", i8([1, 2]))`,
		fn: func(c *compiler, e *lang.CallExpr) (*operand, error) {
			return nil, c.errorf(spanOf(e.Fun), "TypeError", "print(…) shows text and has no value: use it as a statement on its own")
		},
	}
	specialForms["compare"] = &specialForm{
		sig:     "compare(expr)",
		doc:     "The dtype and value (or error) of expr under every policy, side by side; policies that agree share a row.",
		example: "compare(u8([200]) + 300)",
		fn:      (*compiler).compare,
	}
}

// oneArg returns the single positional argument of a special form.
func (c *compiler) oneArg(e *lang.CallExpr, name string) (lang.Expr, error) {
	if len(e.Keywords) > 0 {
		return nil, c.errorf(spanOf(e.Keywords[0].Name), "TypeError", "%s() takes no keyword arguments", name)
	}
	if len(e.Args) != 1 {
		return nil, c.errorf(spanOf(e), "TypeError", "%s() takes exactly one expression, as in %s", name, specialForms[name].example)
	}
	return e.Args[0], nil
}

// explain compiles its argument with step recording on and returns the
// steps, rendered as text and HTML by internal/teach. Nothing is computed
// but 0-d values a policy must see.
func (c *compiler) explain(e *lang.CallExpr) (*operand, error) {
	arg, err := c.oneArg(e, "explain")
	if err != nil {
		return nil, err
	}
	var steps []teach.Step
	sub := *c
	sub.steps = &steps
	o, err := sub.expr(arg)
	if err != nil {
		return nil, err
	}
	if o.kind == listKind {
		if o, err = sub.listTensor(o, nil, o.span()); err != nil {
			return nil, err
		}
	}
	x := &teach.Explanation{
		Expr: lang.Format(arg), Policy: c.policy.Name(), Title: c.policy.Title(),
		Steps: steps, Result: describeResult(o),
	}
	return &operand{kind: TextValue, str: teach.ExplainText(x), html: teach.ExplainHTML(x)}, nil
}

func describeResult(o *operand) string {
	switch o.kind {
	case TensorValue:
		return o.typ.String() + formatDims(o.shape)
	case LiteralValue:
		return o.typ.String() + " (literal " + o.lit.String() + ")"
	case DTypeValue:
		return "dtype " + o.typ.String()
	}
	return kindName(o)
}

// compare evaluates its argument under every policy and returns a row a
// policy, grouped and rendered as text and HTML by internal/teach.
func (c *compiler) compare(e *lang.CallExpr) (*operand, error) {
	arg, err := c.oneArg(e, "compare")
	if err != nil {
		return nil, err
	}
	cmp := &teach.Comparison{Expr: lang.Format(arg)}
	saved := c.s.warnings
	// Every policy draws the same random numbers: rand(3) + 1 compares one
	// set of values, rounded to each policy's dtype, not one set a policy.
	// Afterwards the generator stands where one evaluation leaves it.
	rng := c.s.rngState()
	var after []byte
	defer func() {
		if after != nil {
			c.s.restoreRNG(after)
		}
	}()
	for _, name := range c.s.PolicyNames() {
		c.s.restoreRNG(rng)
		p, _ := c.s.lookupPolicy(name)
		sub := &compiler{s: c.s, ctx: c.ctx, policy: p, file: c.file, src: c.src}
		r := teach.CompareRow{Policy: name}
		v, err := sub.compareOne(arg)
		if err != nil {
			var ce *Error
			if errors.As(err, &ce) && ce.Name == "KeyboardInterrupt" {
				return nil, err
			}
			r.Err, r.Value = true, err.Error()
			if errors.As(err, &ce) {
				r.Value = ce.Msg
			}
			r.Value = strings.TrimPrefix(r.Value, name+": ")
		} else {
			r.Type, r.Value = c.s.shortValue(v)
		}
		if after == nil {
			after = c.s.rngState()
		}
		cmp.Rows = append(cmp.Rows, r)
	}
	c.s.warnings = saved
	return &operand{kind: TextValue, str: teach.CompareText(cmp), html: teach.CompareHTML(cmp)}, nil
}

func (c *compiler) compareOne(e lang.Expr) (*Value, error) {
	o, err := c.expr(e)
	if err != nil {
		return nil, err
	}
	return c.finish(o)
}

// shortValue returns a value's type and its values on one line.
func (s *Session) shortValue(v *Value) (typ, val string) {
	switch v.Kind {
	case TensorValue:
		typ = v.Type.String() + formatDims(v.Dims())
		v, err := s.fetch(v) // from the device it was computed on
		if err != nil {
			return typ, "<" + err.Error() + ">"
		}
		f := format.Values(v.Tensor, format.Options{Width: 1 << 20, Threshold: 12, EdgeItems: 3})
		return typ, strings.Join(strings.Fields(f), " ")
	case LiteralValue:
		return v.litTypeName(), v.Lit.String()
	case DTypeValue:
		return "dtype", v.Type.String()
	case ShapeValue:
		return "shape", formatShape(v.Shape)
	case StringValue:
		return "string", fmt.Sprintf("%q", v.Str)
	}
	return "text", strings.SplitN(v.Str, "\n", 2)[0]
}
