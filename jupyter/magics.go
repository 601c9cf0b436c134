package jupyter

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/tensorsh/tensorsh/internal/textfile"
	"github.com/tensorsh/tensorsh/lang"
)

// kernelMagics are the magics the kernel handles itself rather than the
// language: they act on the notebook (the next cell) or on the kernel's
// history.
var kernelMagics = []string{"history", "load"}

// magicLine returns the directive of a cell that is one %-magic named
// one of names; ok is false for anything else (a ':' directive included:
// :load runs a file, as in the REPL).
func magicLine(code string, names ...string) (d *lang.Directive, ok bool) {
	if !strings.Contains(code, "%") {
		return nil, false
	}
	f, err := lang.Parse("", code)
	if err != nil || len(f.Stmts) != 1 {
		return nil, false
	}
	d, isDir := f.Stmts[0].(*lang.Directive)
	if !isDir || d.Colon.Offset >= len(code) || code[d.Colon.Offset] != '%' {
		return nil, false
	}
	for _, n := range names {
		if d.Name == n {
			return d, true
		}
	}
	return nil, false
}

// hasMagic reports whether code has a %-magic named name among other
// statements, where it cannot do what it does alone.
func hasMagic(code, name string) bool {
	if !strings.Contains(code, "%"+name) {
		return false
	}
	f, err := lang.Parse("", code)
	if err != nil {
		return false
	}
	for _, st := range f.Stmts {
		if d, ok := st.(*lang.Directive); ok && d.Name == name && d.Colon.Offset < len(code) && code[d.Colon.Offset] == '%' {
			return true
		}
	}
	return false
}

// loadMagic runs "%load FILE": the file, after a "# %load FILE" line,
// replaces the cell in the notebook (a set_next_input payload), as
// IPython's %load does (IPython/core/magics/code.py, CodeMagics.load).
// ":load FILE" and "%run FILE" run the file instead.
func loadMagic(ctx context.Context, d *lang.Directive, emit func(Output)) error {
	if d.Arg == "" {
		return &Error{Name: "UsageError", Value: "%load needs a file name: %load FILE puts the file into the cell (%run FILE runs it)"}
	}
	data, err := textfile.Read(ctx, d.Arg, 0)
	if err != nil {
		msg := fmt.Sprintf("%%load %s: %v", d.Arg, err)
		return &Error{Name: "UsageError", Value: msg}
	}
	emit(Output{NextInput: true, Text: "# %load " + d.Arg + "\n" + string(data)})
	return nil
}

// historyMagic runs "%history [-n] [-l [N]] [-g [PATTERN]] [N | N-M]", a
// part of IPython's %history (IPython/core/magics/history.py,
// HistoryMagics.history): this session's cells (or cells N to M), the
// last N cells of every session (-l, 10 by default), or the cells of every
// session matching a glob pattern (-g). -n numbers them; cells of other
// sessions are numbered session/line, as IPython writes them.
func (k *Kernel) historyMagic(d *lang.Directive, emit func(Output)) error {
	fail := func(format string, args ...any) error {
		msg := fmt.Sprintf(format, args...)
		return &Error{Name: "UsageError", Value: msg}
	}
	h := k.history
	numbered := false
	req := historyRequest{HistAccessType: "range", Session: 0, Start: 1}
	args := strings.Fields(d.Arg)
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-n":
			numbered = true
		case a == "-l":
			n := 10
			if i+1 < len(args) {
				if v, err := strconv.Atoi(args[i+1]); err == nil && v >= 0 {
					n, i = v, i+1
				}
			}
			req = historyRequest{HistAccessType: "tail", N: &n}
		case a == "-g":
			req = historyRequest{HistAccessType: "search", Pattern: "*"}
			if i+1 < len(args) {
				req.Pattern = "*" + strings.Join(args[i+1:], " ") + "*"
			}
			i = len(args)
			numbered = true
		case len(a) > 0 && a[0] >= '0' && a[0] <= '9':
			from, to, isRange := strings.Cut(a, "-")
			start, err1 := strconv.Atoi(from)
			stop, err2 := start+1, error(nil)
			if isRange {
				stop, err2 = strconv.Atoi(to)
				stop++
			}
			if err1 != nil || err2 != nil || start < 1 || stop <= start {
				return fail("%%history: %q is not a line or range of lines (N or N-M)", a)
			}
			req = historyRequest{HistAccessType: "range", Session: 0, Start: start, Stop: &stop}
		default:
			return fail("%%history: unknown option %q (%%history [-n] [-l [N]] [-g [PATTERN]] [N | N-M])", a)
		}
	}
	var sb strings.Builder
	for _, item := range h.query(req) {
		it := item.([]any)
		session, line, input := it[0].(int), it[1].(int), it[2].(string)
		if numbered {
			if session == h.session {
				fmt.Fprintf(&sb, "%4d: ", line)
			} else {
				fmt.Fprintf(&sb, "%d/%d: ", session, line)
			}
		}
		sb.WriteString(strings.TrimRight(input, "\n"))
		sb.WriteByte('\n')
	}
	if sb.Len() > 0 {
		emit(Output{Stream: "stdout", Text: sb.String()})
	}
	return nil
}
