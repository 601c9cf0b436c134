package eval

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/tensorsh/tensorsh/lang"
)

// An Error is a statement's failure, with the source position it points at.
type Error struct {
	// Name classifies the error for Jupyter's ename: SyntaxError,
	// PromotionError, BroadcastError, TypeError, NameError, ValueError,
	// IndexError, RuntimeError.
	Name string
	Msg  string
	File string // "<stdin:3>" or a script name
	// Line and Col are 1-based; Col counts characters. Line is 0 when the
	// error has no position (a directive's failure).
	Line, Col int
	// Width is how many characters the caret underlines (at least 1).
	Width int
	// Source is the text of the line the error points at.
	Source string
	// Err is the error that caused this one (a backend's, a policy's), or
	// nil: errors.Is(err, backend.ErrDivideByZero) sees through an Error.
	Err error
}

// Unwrap returns the cause of e.
func (e *Error) Unwrap() error { return e.Err }

func (e *Error) Error() string {
	if e.Line == 0 {
		return "error: " + e.Msg
	}
	return fmt.Sprintf("%s:%d:%d: error: %s", e.File, e.Line, e.Col, e.Msg)
}

// Pos returns "line:col", as in --json output.
func (e *Error) Pos() string {
	if e.Line == 0 {
		return ""
	}
	return fmt.Sprintf("%d:%d", e.Line, e.Col)
}

// maxCaretLine is how many characters of a source line an error shows:
// a longer line is cut to a window around the error, with "…" where it
// was cut, so that a 2 MB line does not become a 2 MB message.
const maxCaretLine = 120

// Caret returns the source line and a caret line under the offending part,
// each indented by two spaces, or "" when there is no position. A line
// longer than maxCaretLine characters shows only a window around the
// caret.
func (e *Error) Caret() string {
	if e.Line == 0 || e.Source == "" {
		return ""
	}
	w := max(e.Width, 1)
	src := []rune(e.Source)
	col := e.Col - 1 // 0-based, in runes
	lo, hi := 0, len(src)
	if len(src) > maxCaretLine {
		// Keep some context before the caret, then fill the window.
		lo = max(0, min(col-maxCaretLine/3, len(src)-maxCaretLine))
		hi = lo + maxCaretLine
	}
	col = max(0, min(col, hi))
	w = max(1, min(w, hi-col))
	line := string(src[lo:hi])
	pad := col - lo
	if lo > 0 {
		line = "…" + line
		pad++
	}
	if hi < len(src) {
		line += "…"
	}
	return "  " + line + "\n  " + strings.Repeat(" ", pad) + strings.Repeat("^", w)
}

// Report returns the error line followed by the caret lines.
func (e *Error) Report() string {
	if c := e.Caret(); c != "" {
		return e.Error() + "\n" + c
	}
	return e.Error()
}

// newError builds an Error spanning start..end of src.
func (s *Session) newError(file, src string, start, end lang.Position, name, msg string) *Error {
	e := &Error{Name: name, Msg: msg, File: file}
	if start.Line == 0 {
		return e
	}
	lines := strings.Split(src, "\n")
	e.Line = start.Line
	if start.Line-1 < len(lines) {
		e.Source = strings.TrimRight(lines[start.Line-1], "\r")
	}
	e.Col = start.Col
	width := 1
	if end.Line == start.Line && end.Col > start.Col {
		width = end.Col - start.Col
	} else if end.Line > start.Line {
		width = utf8.RuneCountInString(e.Source) - e.Col + 1
	}
	if width < 1 {
		width = 1
	}
	e.Width = width
	return e
}

func (s *Session) syntaxError(file, src string, err error) error {
	var le *lang.Error
	if errors.As(err, &le) {
		if ie := s.importError(file, src, le.Pos); ie != nil {
			return ie
		}
		return s.newError(file, src, le.Pos, le.Pos, "SyntaxError", le.Msg)
	}
	var ie *lang.IncompleteError
	if errors.As(err, &ie) {
		// The message without the position, which the error shows already.
		return s.newError(file, src, ie.Pos, ie.Pos, "SyntaxError", ie.Msg())
	}
	return &Error{Name: "SyntaxError", Msg: err.Error(), File: file}
}
