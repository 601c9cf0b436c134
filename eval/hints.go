package eval

import (
	"fmt"
	"strings"

	"github.com/tensorsh/tensorsh/dtypes"
	"github.com/tensorsh/tensorsh/lang"
)

// Hints for what a Python user types by habit: Python's spellings get the
// tensorsh spelling instead of a misleading "did you mean".

// pythonHints maps a Python name to what to write instead; called is the
// hint for name(…) where it differs.
var pythonHints = map[string]struct{ bare, called string }{
	"True":    {bare: "write true (tensorsh spells the booleans true and false)"},
	"False":   {bare: "write false (tensorsh spells the booleans true and false)"},
	"NONE":    {bare: "write None"},
	"null":    {bare: "write None (an index x[None] or an argument such as axis=None)"},
	"astype":  {called: "astype is a method: write x.astype(f32), or cast(x, f32)"},
	"len":     {bare: "for the length of the first axis write x.shape[0], for the number of elements x.size"},
	"type":    {bare: "for the dtype of x write dtype(x) or x.dtype"},
	"range":   {bare: "write arange(n) for the tensor 0, 1, …, n-1"},
	"array":   {bare: makeHint},
	"asarray": {bare: makeHint},
	"tensor":  {bare: makeHint},
	"quit":    {bare: exitHint},
	"exit":    {bare: exitHint},
	"import":  {bare: importHint},
	"pi":      {bare: "write 3.141592653589793 (the constants are inf and nan)"},
}

const (
	exitHint   = "in the terminal, :quit or Ctrl-D leaves; in a notebook, use Kernel › Shut Down"
	makeHint   = "a dtype call makes a tensor, f32([1, 2]); a bare list [1, 2] takes the policy's default dtype"
	importHint = "there are no imports: tensorsh's functions are built in (:help lists them) and follow the active policy (:policy numpy gives NumPy's rules)"
)

// pythonHint returns the error for a Python spelling, or nil. called says
// whether the name is called (astype(x, f32)).
func (c *compiler) pythonHint(id *lang.Ident, called bool) error {
	if _, isVar := c.s.vars[id.Name]; isVar {
		return nil
	}
	h, ok := pythonHints[id.Name]
	if !ok {
		return nil
	}
	msg := h.bare
	if called && h.called != "" || msg == "" {
		msg = h.called
	}
	if msg == "" {
		return nil
	}
	what := "name"
	if called {
		what = "function"
	}
	return c.errorf(spanOf(id), "NameError", "%s %q is not defined: %s", what, id.Name, msg)
}

func init() {
	specialForms["help"] = &specialForm{
		sig:     "help(name)",
		doc:     "The help of a function, dtype, policy, topic or variable, as :help NAME, name? and ?name show it.",
		example: "help(tanh)",
		fn:      (*compiler).help,
	}
}

// help is help(name): the name is not evaluated, as Python's help(tanh)
// takes the function and not its value.
func (c *compiler) help(e *lang.CallExpr) (*operand, error) {
	if len(e.Keywords) > 0 {
		return nil, c.errorf(spanOf(e.Keywords[0].Name), "TypeError", "help() takes no keyword arguments")
	}
	if len(e.Args) > 1 {
		return nil, c.errorf(spanOf(e.Args[1]), "TypeError", "help() takes one name, as in help(tanh)")
	}
	text := Help("")
	if len(e.Args) == 1 {
		switch x := lang.Unparen(e.Args[0]).(type) {
		case *lang.Ident:
			text = c.s.helpText(x.Name)
		case *lang.BasicLit:
			s, err := x.Str()
			if err != nil {
				return nil, c.errorf(spanOf(x), "TypeError", "help() takes a name, as in help(tanh) or help(\"literals\")")
			}
			text = c.s.helpText(s)
		case *lang.SelectorExpr:
			doc, ok := attrDoc(recvName(x), x.Sel.Name)
			if !ok {
				return nil, c.errorf(spanOf(x.Sel), "AttributeError", "a tensor has no attribute %q", x.Sel.Name)
			}
			text = doc
		default:
			return nil, c.errorf(spanOf(e.Args[0]), "TypeError", "help() takes a name, as in help(tanh), not an expression (explain(…) shows how an expression gets its dtype)")
		}
	}
	return &operand{kind: TextValue, str: text}, nil
}

// helpText is the help of name: what Inspect says of a variable or a
// function (as the notebook's name? shows it), else :help's text.
func (s *Session) helpText(name string) string {
	if t, ok := s.Inspect(name, len(name)); ok {
		return t
	}
	return Help(name)
}

// helpOutput answers an IPython-style help query, "?name", "??name",
// "name?" or "name??", on a line of its own, as the notebook kernel does.
// A name with one trailing '?' is a weak dtype (f32?) or may be a variable:
// then src is not a query.
func (s *Session) helpOutput(src string) ([]Output, bool) {
	if strings.IndexByte(src, '?') < 0 { // most statements: at once
		return nil, false
	}
	c := strings.TrimSpace(src)
	if c == "" || strings.ContainsAny(c, " \t\n;()[]=") || !strings.Contains(c, "?") {
		return nil, false
	}
	prefixed := strings.HasPrefix(c, "?")
	name := strings.Trim(c, "?")
	if recv, attr, ok := strings.Cut(name, "."); ok && isPlainName(recv) && isPlainName(attr) {
		// x.sum? and ?x.sum, as IPython's x.sum? shows the method.
		if text, ok := attrDoc(recv, attr); ok {
			return []Output{{Text: text}}, true
		}
		return nil, false
	}
	if name == "" || strings.Contains(name, "?") || !isPlainName(name) {
		return nil, false
	}
	if !prefixed {
		if _, err := dtypes.ParseType(name); err == nil {
			return nil, false
		}
		if _, isVar := s.vars[c]; isVar {
			return nil, false
		}
	}
	text, ok := s.Inspect(name, len(name))
	if !ok {
		return nil, false
	}
	return []Output{{Text: text}}, true
}

// importHint is the error of a line that starts with Python's import or
// from … import, which does not parse: there are no imports.
func (s *Session) importError(file, src string, pos lang.Position) error {
	if !pos.IsValid() {
		return nil
	}
	lineStart := strings.LastIndexByte(src[:min(pos.Offset, len(src))], '\n') + 1
	line := src[lineStart:]
	if i := strings.IndexByte(line, '\n'); i >= 0 {
		line = line[:i]
	}
	trimmed := strings.TrimLeft(line, " \t")
	fields := strings.Fields(trimmed)
	if len(fields) < 2 || !(fields[0] == "import" || fields[0] == "from" && len(fields) >= 4 && fields[2] == "import") {
		return nil
	}
	start := lang.Position{Offset: lineStart + len(line) - len(trimmed), Line: pos.Line, Col: 1 + len(line) - len(trimmed)}
	end := start
	end.Offset += len(fields[0])
	end.Col += len(fields[0])
	return s.newError(file, src, start, end, "SyntaxError", importHint)
}

// directiveHint is "; did you mean :policy?" for a directive name near a
// known one, how to leave for :quit, or "".
func directiveHint(name, mark string) string {
	switch name {
	case "quit", "exit", "q":
		// The REPL leaves on :quit before the session sees it.
		return ": " + exitHint
	}
	if s := nearest(name, Directives()); s != "" {
		return fmt.Sprintf("; did you mean %s%s?", mark, s)
	}
	return ""
}

// isPlainName reports whether s is a name without '?': a letter or '_',
// then letters, digits and '_'.
func isPlainName(s string) bool {
	for i, r := range s {
		if !(r == '_' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || i > 0 && '0' <= r && r <= '9') {
			return false
		}
	}
	return s != ""
}

// maskHint is the error of x[x > 1]: NumPy's boolean-mask indexing, whose
// result has a shape that depends on the values, which tensorsh (like
// jax.jit) does not do; where keeps the shape.
const maskHint = "indexing with a boolean mask (x[x > 1]) is not supported: its shape would depend on the values; " +
	"write where(x > 1, x, 0) to keep the shape, or sum(where(x > 1, 1, 0)) to count"

// noneHint is the error of None where a value is wanted (Python's None is
// no number either; NumPy's missing value is nan).
const noneHint = "None is not a value: it is an index (x[None] adds an axis) or an argument (axis=None); a missing number is nan"
