package eval

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/tensorsh/tensorsh/lang"
)

// directiveMark returns how d was written: ":" or "%" (a Jupyter magic),
// for messages that repeat what the user typed.
func directiveMark(src string, d *lang.Directive) string {
	if o := d.Colon.Offset; o >= 0 && o < len(src) && src[o] == '%' {
		return "%"
	}
	return ":"
}

// Lsmagic is the text of :lsmagic (IPython's %lsmagic): the directives,
// written with mark, and extra ones a front end handles itself.
func Lsmagic(mark string, extra []string) string {
	names := append(Directives(), extra...)
	var sb strings.Builder
	sb.WriteString("Available line magics:\n")
	for i, n := range sortedUnique(names) {
		if i > 0 {
			sb.WriteString("  ")
		}
		sb.WriteString(mark + n)
	}
	sb.WriteString("\n\n" + mark + "help directives explains them; a magic is a line of its own, written with : or %.")
	return sb.String()
}

func sortedUnique(names []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, n := range names {
		if !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j] < out[j-1]; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

// whoNames are the variables :who and :whos list, as IPython's %who_ls
// chooses them (IPython/core/magics/namespace.py, NamespaceMagics.who_ls):
// names starting with '_' are left out, and arguments keep only the
// variables of those kinds (tensor, literal, dtype, string, shape). msg
// says why the list is empty.
func (s *Session) whoNames(arg string) (names []string, msg string, err error) {
	kinds := strings.Fields(arg)
	for _, k := range kinds {
		if !slices.Contains(whoKinds, k) {
			return nil, "", fmt.Errorf("%q is not a kind of variable (%s)", k, strings.Join(whoKinds, ", "))
		}
	}
	for _, n := range s.Vars() {
		if strings.HasPrefix(n, "_") {
			continue
		}
		if len(kinds) > 0 && !slices.Contains(kinds, kindWord(s.vars[n].Kind)) {
			continue
		}
		names = append(names, n)
	}
	switch {
	case len(names) > 0:
	case len(kinds) > 0:
		msg = "No variables match your requested type."
	default:
		msg = "Interactive namespace is empty."
	}
	return names, msg, nil
}

var whoKinds = []string{"tensor", "literal", "dtype", "string", "shape", "text"}

// who is :who (IPython's %who): the variable names, tab-separated.
func (s *Session) who(arg string) (string, error) {
	names, msg, err := s.whoNames(arg)
	if err != nil || len(names) == 0 {
		return msg, err
	}
	return strings.Join(names, "\t"), nil
}

// whos is :whos (IPython's %whos): a table of the variables with their
// kind and what they hold.
func (s *Session) whos(arg string) (string, error) {
	names, msg, err := s.whoNames(arg)
	if err != nil || len(names) == 0 {
		return msg, err
	}
	var sb strings.Builder
	tw := tabwriter.NewWriter(&sb, 0, 0, 3, ' ', 0)
	fmt.Fprintln(tw, "Variable\tType\tData/Info")
	for _, n := range names {
		v := s.vars[n]
		info := v.Describe()
		if v.Kind == TensorValue && v.Device != "" {
			info += " " + v.Device
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\n", n, kindWord(v.Kind), info)
	}
	tw.Flush()
	lines := strings.Split(strings.TrimRight(sb.String(), "\n"), "\n")
	width := 0
	for _, l := range lines {
		width = max(width, len([]rune(strings.TrimRight(l, " "))))
	}
	rule := strings.Repeat("-", width)
	return strings.Join(append([]string{strings.TrimRight(lines[0], " "), rule}, trimAll(lines[1:])...), "\n"), nil
}

func trimAll(ls []string) []string {
	for i := range ls {
		ls[i] = strings.TrimRight(ls[i], " ")
	}
	return ls
}

func kindWord(k Kind) string {
	switch k {
	case TensorValue:
		return "tensor"
	case LiteralValue:
		return "literal"
	case DTypeValue:
		return "dtype"
	case StringValue:
		return "string"
	case ShapeValue:
		return "shape"
	}
	return "text"
}

// timedExpr parses the expression of :time or :timeit where it stands in
// the line, so that positions in errors point into the whole statement
// (:time x + zeros((4,)) is 1:9).
func (s *Session) timedExpr(file, src string, d *lang.Directive, mark string) (lang.Expr, error) {
	if strings.TrimSpace(d.Arg) == "" {
		start, end := d.Span()
		return nil, s.newError(file, src, start, end, "UsageError",
			fmt.Sprintf("%s%s needs an expression, e.g. %s%s sum(rand(10**6))", mark, d.Name, mark, d.Name))
	}
	e, err := lang.ParseExprAt(file, d.Arg, d.ArgPos)
	if err != nil {
		return nil, s.syntaxError(file, src, err)
	}
	return e, nil
}

// timeOnce is :time (IPython's %time): it evaluates the expression once,
// reports the wall time, and shows the value.
func (s *Session) timeOnce(ctx context.Context, file, src string, d *lang.Directive, mark string) ([]Output, error) {
	e, err := s.timedExpr(file, src, d, mark)
	if err != nil {
		return nil, err
	}
	t0 := time.Now()
	v, err := s.evalExpr(ctx, file, src, e)
	if err != nil {
		return nil, err
	}
	t := &Timing{Median: time.Since(t0), Runs: 1}
	return []Output{{Text: "Wall time: " + formatDuration(t.Median), Timing: t}, {Value: v}}, nil
}
