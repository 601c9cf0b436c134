package jupyter

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/tensorsh/tensorsh/dtypes"
	"github.com/tensorsh/tensorsh/eval"
	"github.com/tensorsh/tensorsh/internal/format"
)

// A SessionEngine runs cells on a tensorsh [eval.Session]: the kernel and
// the REPL share one evaluator. Magics (%policy, %backend, %time, %help …)
// are the language's directives, so the session handles them.
type SessionEngine struct {
	s *eval.Session
}

var _ Engine = (*SessionEngine)(nil)

// NewSessionEngine returns an engine over s. It takes over s.Warn: warnings
// are shown on the cell's stderr, in order with the other outputs.
func NewSessionEngine(s *eval.Session) *SessionEngine {
	s.Warn = nil
	s.Magics = kernelMagics
	return &SessionEngine{s: s}
}

// Session returns the evaluator the engine runs on.
func (e *SessionEngine) Session() *eval.Session { return e.s }

// helpLinks are the kernel's Help menu: tensorsh and the promotion rules
// of the systems its policies follow.
var helpLinks = []HelpLink{
	{"tensorsh", "https://github.com/tensorsh/tensorsh"},
	{"JAX type promotion", "https://jax.readthedocs.io/en/latest/type_promotion.html"},
	{"NumPy NEP 50 (weak scalars)", "https://numpy.org/neps/nep-0050-scalar-promotion.html"},
	{"PyTorch type promotion", "https://pytorch.org/docs/stable/tensor_attributes.html#type-promotion-doc"},
	{"Triton semantics", "https://triton-lang.org/main/python-api/triton-semantics.html"},
	{"Array API type promotion", "https://data-apis.org/array-api/latest/API_specification/type_promotion.html"},
}

// Info describes tensorsh; the banner names the active policy.
func (e *SessionEngine) Info() Info {
	p := e.s.Policy()
	return Info{
		Implementation:        "tensorsh",
		ImplementationVersion: eval.Version,
		LanguageVersion:       eval.Version,
		Banner: fmt.Sprintf("tensorsh %s: dtype promotion and broadcasting you can see\n"+
			"policy %s (%s), backend %s; %%policy NAME switches, %%help lists the functions",
			eval.Version, p.Name(), p.Title(), e.s.Backend()),
		HelpLinks: helpLinks,
	}
}

// Execute runs a cell. The last value the cell prints is its result
// (Out[n]); values before it are display_data, directive output goes to
// stdout and warnings to stderr. A cell that is only "?name", "name?" or
// "name??" shows the docs of name in the pager, as IPython does.
func (e *SessionEngine) Execute(ctx context.Context, cell Cell, emit func(Output)) error {
	if cell.StoreHistory && !cell.Silent {
		// In[n], _iN and _i name this cell's source from now on, as in
		// IPython.
		e.s.SetInput(cell.Count, cell.Code)
	}
	if d, ok := magicLine(cell.Code, "load"); ok {
		return loadMagic(ctx, d, emit)
	}
	if hasMagic(cell.Code, "load") {
		return &Error{Name: "UsageError", Value: "%load replaces the cell with a file: put it alone in a cell (%run FILE runs a file)"}
	}
	if _, ok := magicLine(cell.Code, "lsmagic"); ok {
		emit(Output{Stream: "stdout", Text: eval.Lsmagic("%", kernelMagics) + "\n"})
		return nil
	}
	if name, ok := e.helpQuery(cell.Code); ok {
		text, _ := e.s.Inspect(name, len(name))
		emit(Output{Data: PlainBundle(text), Page: true})
		return nil
	}
	// :timeit runs for about a second: say so, and clear the note when
	// the result comes.
	noted := false
	e.s.Progress = func(note string) {
		if !cell.Silent && !noted {
			emit(Output{Stream: "stdout", Text: note + "\n"})
			noted = true
		}
	}
	outs, err := e.s.Execute(ctx, fmt.Sprintf("<cell %d>", cell.Count), cell.Code)
	e.s.Progress = nil
	if noted {
		emit(Output{Clear: true})
	}
	last := -1
	for i, o := range outs {
		if o.Value != nil {
			last = i
		}
	}
	if last >= 0 && cell.StoreHistory && !cell.Silent {
		// Out[n], _n and _ name this result from now on, as in IPython.
		e.s.SetResult(cell.Count, outs[last].Value)
	}
	for i, o := range outs {
		switch {
		case o.Value != nil:
			emit(Output{Data: e.bundle(o), Result: i == last})
		case o.Warning != "":
			emit(Output{Stream: "stderr", Text: o.Text + "\n"})
		default:
			emit(Output{Stream: "stdout", Text: o.Text + "\n"})
		}
	}
	if err != nil {
		return sessionError(err)
	}
	return nil
}

// bundle renders a value: text/plain exactly as the terminal prints it,
// text/html for tensors, dtypes and tables (with the active policy, which
// the result depends on), image/svg+xml for pictures.
//
// A picture has no text/html: Notebook 6 and nbconvert prefer text/html to
// image/svg+xml, so an HTML form (the text art in <pre>) would hide the
// picture there.
func (e *SessionEngine) bundle(o eval.Output) Bundle {
	b := Bundle{"text/plain": e.s.Text(o, format.Options{})}
	if svg := e.s.SVG(o); svg != "" {
		b["image/svg+xml"] = svg
		return b
	}
	if h := e.s.HTML(o); h != "" {
		if k := o.Value.Kind; k == eval.TensorValue || k == eval.LiteralValue || k == eval.DTypeValue {
			p := e.s.Policy()
			h = format.WithPolicyHTML(h, p.Name(), p.Title())
		}
		b["text/html"] = h
	}
	return b
}

// sessionError turns an evaluator error into a Jupyter error whose
// traceback is coloured as IPython's: the position in the cell, the
// source line with a caret under the culprit, and the error's name and
// message.
func sessionError(err error) error {
	var ee *eval.Error
	if errors.As(err, &ee) {
		return &Error{Name: ee.Name, Value: ee.Msg, Traceback: evalTraceback(ee)}
	}
	return err
}

// helpQuery reports whether code asks for the docs of a name, IPython
// style: "?name", "??name", "name?" or "name??". A trailing '?' belongs
// to weak dtype names (f32?), so "name?" is a query only when name is not
// a dtype or a variable and has docs.
func (e *SessionEngine) helpQuery(code string) (name string, ok bool) {
	c := strings.TrimSpace(code)
	if c == "" || strings.ContainsAny(c, " \t\n;()[]") {
		return "", false
	}
	prefixed := strings.HasPrefix(c, "?")
	name = strings.Trim(c, "?")
	if name == "" || !isName(name) {
		return "", false
	}
	if !prefixed {
		if !strings.HasSuffix(c, "?") {
			return "", false
		}
		if _, err := dtypes.ParseType(name); err == nil {
			return "", false
		}
		if _, isVar := e.s.Var(c); isVar {
			return "", false
		}
	}
	if _, found := e.s.Inspect(name, len(name)); !found {
		return "", false
	}
	return name, true
}

func isName(s string) bool {
	for i, r := range s {
		if !(r == '_' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || i > 0 && '0' <= r && r <= '9') {
			return false
		}
	}
	return true
}

// Complete completes names, functions, dtypes, constants, keyword
// arguments, directives and the kernel's magics, and directives'
// arguments (policies, backends, help topics), each with its kind.
func (e *SessionEngine) Complete(code string, cursor int) Completion {
	start, end, matches := e.s.Complete(code, cursor)
	c := Completion{Start: start, End: end}
	for _, m := range matches {
		mt := Match{Text: m.Text, Kind: jupyterKinds[m.Kind]}
		if mt.Kind == "" {
			mt.Kind = m.Kind
		}
		if sig, _, _, ok := eval.Doc(m.Text); ok {
			mt.Signature = sig
		}
		c.Matches = append(c.Matches, mt)
	}
	return c
}

// jupyterKinds maps the kinds of [eval.Match] to the completion types
// Jupyter's front ends show, where they differ: a directive is a magic, a
// method a function; attributes, backends and help topics are text.
var jupyterKinds = map[string]string{
	"directive": "magic", "method": "function",
	"attribute": "text", "backend": "text", "topic": "text",
}

// Inspect describes the name at cursor: a variable's dtype, shape and
// device under the active policy, a function's signature and doc, a dtype
// or a policy.
func (e *SessionEngine) Inspect(code string, cursor, detail int) (Bundle, bool) {
	text, ok := e.s.Inspect(code, cursor)
	if !ok {
		return nil, false
	}
	return PlainBundle(text), true
}

// IsComplete classifies code with the language's parser.
func (e *SessionEngine) IsComplete(code string) (status, indent string) {
	st, indent := eval.IsComplete(code)
	return st.String(), indent
}
