package jupyter

import (
	"context"
	"fmt"

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
		return &Error{Name: "UsageError", Value: "%load needs a file name: %load FILE puts the file into the cell (%run FILE runs it)",
			Traceback: []string{"UsageError: %load needs a file name: %load FILE puts the file into the cell (%run FILE runs it)"}}
	}
	data, err := textfile.Read(ctx, d.Arg, 0)
	if err != nil {
		msg := fmt.Sprintf("%%load %s: %v", d.Arg, err)
		return &Error{Name: "UsageError", Value: msg, Traceback: []string{"UsageError: " + msg}}
	}
	emit(Output{NextInput: true, Text: "# %load " + d.Arg + "\n" + string(data)})
	return nil
}
