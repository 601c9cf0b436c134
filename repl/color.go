package repl

import (
	"errors"
	"strings"

	"github.com/tensorsh/tensorsh/eval"
)

// ANSI styles of the REPL's own text; the type line's colours come from
// internal/format.
const (
	bold   = "\x1b[1m"
	dim    = "\x1b[2m"
	red    = "\x1b[1;31m"
	green  = "\x1b[1;32m"
	yellow = "\x1b[1;33m"
	reset  = "\x1b[0m"
)

// paint returns s in style when colour is on.
func (l *loop) paint(style, s string) string {
	if !l.color || s == "" {
		return s
	}
	return style + s + reset
}

// report formats a statement's error: for an *eval.Error its Report (the
// error line, the source line and a caret under the offending part), with
// "error:" and the caret in red and the message in bold when colour is on.
func (l *loop) report(err error) string {
	var e *eval.Error
	if !errors.As(err, &e) {
		return l.paint(red, "error:") + " " + err.Error()
	}
	if !l.color {
		return e.Report()
	}
	head := e.Error()
	tail := "error: " + e.Msg
	var b strings.Builder
	if prefix, ok := strings.CutSuffix(head, tail); ok {
		b.WriteString(prefix + l.paint(red, "error:") + " " + l.paint(bold, e.Msg))
	} else {
		b.WriteString(head)
	}
	if c := e.Caret(); c != "" {
		src, caret, _ := strings.Cut(c, "\n")
		indent := len(caret) - len(strings.TrimLeft(caret, " "))
		b.WriteString("\n" + src + "\n" + caret[:indent] + l.paint(red, caret[indent:]))
	}
	return b.String()
}
