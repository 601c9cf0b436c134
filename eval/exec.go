package eval

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/tensorsh/tensorsh/backend"
	"github.com/tensorsh/tensorsh/dtypes"
	"github.com/tensorsh/tensorsh/internal/format"
	"github.com/tensorsh/tensorsh/internal/textfile"
	"github.com/tensorsh/tensorsh/internal/userpolicy"
	"github.com/tensorsh/tensorsh/lang"
	"github.com/tensorsh/tensorsh/promote"
)

// exec runs one statement.
func (s *Session) exec(ctx context.Context, file, src string, st lang.Stmt) ([]Output, error) {
	switch st := st.(type) {
	case *lang.Directive:
		return s.directive(ctx, file, src, st)
	case *lang.AssignStmt:
		if isReserved(st.LHS.Name) {
			start, end := st.LHS.Span()
			return nil, s.newError(file, src, start, end, "SyntaxError", fmt.Sprintf("cannot assign to %s: it is a built-in name", st.LHS.Name))
		}
		v, err := s.evalExpr(ctx, file, src, st.RHS)
		if err != nil {
			return nil, err
		}
		if v.Kind == TextValue {
			return []Output{{Value: v}}, nil
		}
		s.setVar(st.LHS.Name, v)
		return nil, nil
	case *lang.ExprStmt:
		if call, ok := st.X.(*lang.CallExpr); ok {
			if id, ok := call.Fun.(*lang.Ident); ok && id.Name == "print" {
				if _, shadowed := s.vars["print"]; !shadowed {
					return s.print(ctx, file, src, call)
				}
			}
		}
		v, err := s.evalExpr(ctx, file, src, st.X)
		if err != nil {
			return nil, err
		}
		return []Output{{Value: v}}, nil
	}
	return nil, fmt.Errorf("eval: unknown statement %T", st)
}

// isReserved reports whether name cannot be assigned: constants, dtype
// names and builtin functions.
func isReserved(name string) bool {
	switch name {
	case "true", "false", "inf", "nan", "None":
		return true
	}
	if _, ok := builtins[name]; ok {
		return true
	}
	if _, ok := specialForms[name]; ok {
		return true
	}
	// A name is an identifier, never "f32?", so the names alone decide
	// (ParseType would build an error for every ordinary name).
	return dtypes.IsName(name)
}

// evalExpr compiles and runs one expression.
func (s *Session) evalExpr(ctx context.Context, file, src string, e lang.Expr) (*Value, error) {
	if p := s.plans[e]; p != nil {
		if p.valid(s) {
			// Only finish runs: the session's compiler, not a new one
			// (an allocation of each small statement).
			c := &s.finisher
			*c = compiler{s: s, ctx: ctx, policy: s.policy, file: file, src: src}
			v, err := c.finish(p.o)
			*c = compiler{}
			if err == nil && v.Kind == TensorValue && p.shares(v) {
				delete(s.plans, e)
			}
			return v, err
		}
		delete(s.plans, e)
	}
	c := &compiler{s: s, ctx: ctx, policy: s.policy, file: file, src: src}
	reads, keep := s.planReads(e)
	draws, warns := s.draws, s.warns
	o, err := c.expr(e)
	if err != nil {
		return nil, err
	}
	keep = keep && s.draws == draws && s.warns == warns
	v, err := c.finish(o)
	if err == nil && keep {
		s.keep(e, reads, o, v)
	}
	return v, err
}

// unpermute is backend.Unpermute; tests replace it to compare results
// with and without it.
var unpermute = backend.Unpermute

// finish runs an operand's plan and makes it a Value.
func (c *compiler) finish(o *operand) (*Value, error) {
	switch o.kind {
	case LiteralValue:
		if c.isPythonInt(o) {
			return pythonInt(o.lit), nil
		}
		if o.litErr != nil {
			return nil, o.litErr
		}
		return &Value{Kind: LiteralValue, Type: o.typ, Lit: o.lit}, nil
	case DTypeValue:
		return &Value{Kind: DTypeValue, Type: o.typ}, nil
	case StringValue:
		return &Value{Kind: StringValue, Str: o.str}, nil
	case ShapeValue:
		return &Value{Kind: ShapeValue, Shape: o.dims}, nil
	case TextValue:
		return &Value{Kind: TextValue, Str: o.str, HTML: o.html, SVG: o.svg}, nil
	case TensorValue:
		// An elementwise result keeps its operands' order (NumPy's
		// order='K'): exp(transpose(x)) is exp(x), transposed; so does
		// a reduction, which adds in that order.
		n, perm, _ := unpermute(backend.InOrder(o.node))
		t, err := c.s.run(c.ctx, n)
		if err != nil {
			if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
				return nil, &Error{Name: "KeyboardInterrupt", Msg: "interrupted", File: c.file}
			}
			return nil, c.errorf(o.span(), "RuntimeError", "%w", err)
		}
		return &Value{Kind: TensorValue, Type: o.typ, Tensor: t, Device: c.s.backend.Name(), Perm: perm}, nil
	case tupleKind:
		dims, err := c.shapeOf(o, "tuple element")
		if err != nil {
			return nil, err
		}
		return &Value{Kind: ShapeValue, Shape: dims}, nil
	case listKind:
		t, err := c.listTensor(o, nil, o.span())
		if err != nil {
			return nil, err
		}
		return c.finish(t)
	case noneKind:
		return nil, c.errorf(o.span(), "TypeError", "%s", noneHint)
	}
	return nil, fmt.Errorf("eval: cannot finish %d", o.kind)
}

// directive runs a ':' directive.
func (s *Session) directive(ctx context.Context, file, src string, d *lang.Directive) ([]Output, error) {
	text := func(format string, args ...any) []Output {
		return []Output{{Text: fmt.Sprintf(format, args...)}}
	}
	fail := func(format string, args ...any) error {
		start, end := d.Span()
		return s.newError(file, src, start, end, "UsageError", fmt.Sprintf(format, args...))
	}
	arg := strings.TrimSpace(d.Arg)
	mark := directiveMark(src, d)
	switch d.Name {
	case "policy":
		if arg == "" {
			var sb strings.Builder
			fmt.Fprintf(&sb, "policy %s (%s)\n", s.policy.Name(), s.policy.Title())
			sb.WriteString("policies:")
			for _, n := range s.PolicyNames() {
				p, _ := s.lookupPolicy(n)
				fmt.Fprintf(&sb, "\n  %-11s %s", n, p.Title())
			}
			sb.WriteString("\n:policy NAME switches; :policy load FILE.go loads a user policy")
			return text("%s", sb.String()), nil
		}
		if rest, ok := strings.CutPrefix(arg, "load"); ok && (rest == "" || rest[0] == ' ' || rest[0] == '\t') {
			file := strings.TrimSpace(rest)
			if file == "" {
				return nil, fail(":policy load needs a Go file, as in :policy load examples/cpolicy.go")
			}
			read := s.Load
			if read == nil {
				read = func(name string) ([]byte, error) { return textfile.Read(ctx, name, 0) }
			}
			data, err := read(file)
			if err != nil {
				return nil, fail("loading a user policy: %v", err)
			}
			p, err := userpolicy.LoadSource(file, data, userpolicy.Options{})
			if err != nil {
				return nil, fail("%v", err)
			}
			if _, err := promote.Lookup(p.Name()); err == nil {
				return nil, fail("%s: a user policy cannot take the name of the built-in policy %s (set const Name)", file, p.Name())
			}
			if s.userPolicies == nil {
				s.userPolicies = map[string]promote.Policy{}
			}
			s.userPolicies[p.Name()] = p
			s.policy = p
			s.dropPlans("")
			return text("policy %s (%s) loaded from %s", p.Name(), p.Title(), file), nil
		}
		if err := s.SetPolicy(arg); err != nil {
			return nil, fail("%v", err)
		}
		return text("policy %s (%s)", s.policy.Name(), s.policy.Title()), nil
	case "backend":
		if arg == "" {
			return text("backend %s", s.backend.Name()), nil
		}
		if err := s.SetBackend(arg); err != nil {
			return nil, fail("%v", err)
		}
		return text("backend %s", s.backend.Name()), nil
	case "who", "whos":
		list := s.who
		if d.Name == "whos" {
			list = s.whos
		}
		out, err := list(arg)
		if err != nil {
			return nil, fail("%s%s: %v", mark, d.Name, err)
		}
		return text("%s", out), nil
	case "lsmagic":
		return text("%s", Lsmagic(mark, nil)), nil
	case "vars":
		names := s.Vars()
		if len(names) == 0 {
			return text("no variables"), nil
		}
		var sb strings.Builder
		for i, n := range names {
			if i > 0 {
				sb.WriteByte('\n')
			}
			fmt.Fprintf(&sb, "%-12s %s", n, s.vars[n].Describe())
		}
		return text("%s", sb.String()), nil
	case "reset":
		s.Reset()
		return text("variables cleared"), nil
	case "help":
		return text("%s", Help(arg)), nil
	case "load", "run":
		if arg == "" {
			return nil, fail("%s%s needs a file name", mark, d.Name)
		}
		return s.load(ctx, arg, fail)
	case "time":
		return s.timeOnce(ctx, file, src, d, mark)
	case "timeit":
		if s.Progress != nil {
			s.Progress("timing…")
		}
		return s.timeIt(ctx, file, src, d, mark)
	case "save":
		if arg == "" {
			return nil, fail(":save needs a file name: FILE.svg, .html, .json or .txt (the last result in that form)")
		}
		msg, err := s.save(arg)
		if err != nil {
			return nil, fail("%v", err)
		}
		return text("%s", msg), nil
	}
	return nil, fail("unknown directive %s%s%s (directives: %s%s)", mark, d.Name, directiveHint(d.Name, mark), mark, strings.Join(Directives(), ", "+mark))
}

// Directives lists the directive names, for completion.
func Directives() []string {
	return []string{"backend", "help", "load", "lsmagic", "policy", "reset", "run", "save", "time", "timeit", "vars", "who", "whos"}
}

// save writes the last result to name in the form its extension names:
// .svg (a picture: lattice()), .html (tables, tensors, pictures), .json
// (what --json prints) or .txt (the terminal's text).
func (s *Session) save(name string) (string, error) {
	if s.last == nil {
		return "", errors.New(":save writes the last result, and there is none yet")
	}
	o := *s.last
	var data []byte
	switch ext := strings.ToLower(filepath.Ext(name)); ext {
	case ".svg":
		svg := s.SVG(o)
		if svg == "" {
			return "", errors.New("the last result is not a picture (lattice() draws one); save it as .html, .json or .txt")
		}
		data = []byte(svg + "\n")
	case ".html", ".htm":
		body := s.HTML(o)
		if svg := s.SVG(o); svg != "" {
			body = svg
		}
		if body == "" {
			body = format.PreHTML(s.Text(o, format.Options{}))
		}
		data = []byte(format.HTMLPage(body))
	case ".json":
		var b bytes.Buffer
		if err := s.WriteJSON(&b, o); err != nil {
			return "", err
		}
		data = append(b.Bytes(), '\n')
	case ".txt", ".text":
		data = []byte(s.Text(o, format.Options{}) + "\n")
	default:
		return "", fmt.Errorf("%s: :save writes .svg, .html, .json or .txt files, not %q", name, ext)
	}
	if err := os.WriteFile(name, data, 0o644); err != nil {
		return "", err
	}
	return fmt.Sprintf("saved the last result to %s (%d bytes)", name, len(data)), nil
}

// A Timing is the result of :time (one run) or :timeit (the median of
// several).
type Timing struct {
	Median time.Duration
	Runs   int
}

// timeIt (:timeit) evaluates the directive's expression several times after a
// warm-up and reports the median.
func (s *Session) timeIt(ctx context.Context, file, src string, d *lang.Directive, mark string) ([]Output, error) {
	e, err := s.timedExpr(file, src, d, mark)
	if err != nil {
		return nil, err
	}
	v, err := s.evalExpr(ctx, file, src, e) // warm-up
	if err != nil {
		return nil, err
	}
	s.recycle(v)
	var times []time.Duration
	var total time.Duration
	for len(times) < 5 || (total < time.Second && len(times) < 1000) {
		t0 := time.Now()
		v, err := s.evalExpr(ctx, file, src, e)
		if err != nil {
			return nil, err
		}
		dt := time.Since(t0)
		s.recycle(v) // as NumPy frees each run's result before the next
		times = append(times, dt)
		total += dt
	}
	sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
	t := &Timing{Median: times[len(times)/2], Runs: len(times)}
	return []Output{{Text: fmt.Sprintf("%s (median of %d runs)", formatDuration(t.Median), t.Runs), Timing: t}}, nil
}

// formatDuration writes d with three significant digits in the unit
// that keeps it below 1000: a time that rounds up to 1000 takes the next
// unit ("1 ms", never "1e+03 µs").
func formatDuration(d time.Duration) string {
	if d < time.Microsecond {
		return fmt.Sprintf("%d ns", d.Nanoseconds())
	}
	v := float64(d.Nanoseconds()) / 1e3
	for _, unit := range []string{"µs", "ms"} {
		if v < 999.5 {
			return fmt.Sprintf("%.3g %s", v, unit)
		}
		v /= 1e3
	}
	if v < 999.5 {
		return fmt.Sprintf("%.3g s", v)
	}
	return fmt.Sprintf("%.0f s", v)
}

// print runs print(a, b, …): the values' terminal text joined by spaces,
// as a stream of text rather than a result (Jupyter shows it as stdout).
func (s *Session) print(ctx context.Context, file, src string, call *lang.CallExpr) ([]Output, error) {
	if len(call.Keywords) > 0 {
		start, end := call.Keywords[0].Name.Span()
		return nil, s.newError(file, src, start, end, "TypeError", "print() takes no keyword arguments")
	}
	var parts []string
	for _, a := range call.Args {
		v, err := s.evalExpr(ctx, file, src, a)
		if err != nil {
			return nil, err
		}
		switch v.Kind {
		case StringValue:
			parts = append(parts, v.Str)
		case LiteralValue:
			parts = append(parts, literalText(v.Lit))
		case TensorValue:
			cpuV, err := s.fetch(v)
			if err != nil {
				return nil, err
			}
			parts = append(parts, format.Values(cpuV.Tensor, format.Options{}))
		default:
			parts = append(parts, s.Text(Output{Value: v}, format.Options{}))
		}
	}
	return []Output{{Text: strings.Join(parts, " ")}}, nil
}

// maxLoadDepth bounds how deeply :load may nest (a script loading a script
// loading …): far more than a lesson needs, far less than the stack holds.
const maxLoadDepth = 32

// load runs the script name for :load. A script that loads itself, directly
// or through others, is an error naming the cycle, as is nesting deeper
// than maxLoadDepth; the file is read by textfile.Read (regular text files
// only, cancellable) unless s.Load is set.
func (s *Session) load(ctx context.Context, name string, fail func(string, ...any) error) ([]Output, error) {
	key := name
	if p, err := filepath.Abs(name); err == nil {
		key = p
		if p, err := filepath.EvalSymlinks(key); err == nil {
			key = p
		}
	}
	for i, k := range s.loading {
		if k == key {
			chain := append(slices.Clone(s.loadNames[i:]), name)
			return nil, fail(":load cycle: %s (a script that loads itself never ends)", strings.Join(chain, " → "))
		}
	}
	if len(s.loading) >= maxLoadDepth {
		return nil, fail(":load nested more than %d deep (%s → …)", maxLoadDepth, s.loadNames[0])
	}
	read := s.Load
	if read == nil {
		read = func(name string) ([]byte, error) { return textfile.Read(ctx, name, 0) }
	}
	data, err := read(name)
	if err != nil {
		return nil, fail("%v", err)
	}
	s.loading = append(s.loading, key)
	s.loadNames = append(s.loadNames, name)
	defer func() {
		s.loading = s.loading[:len(s.loading)-1]
		s.loadNames = s.loadNames[:len(s.loadNames)-1]
	}()
	return s.Execute(ctx, name, string(data))
}
