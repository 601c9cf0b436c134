package lang

import (
	"errors"
	"fmt"
	"strings"
)

// An Error is a syntax error at a position in a source text.
// It prints as "filename:line:col: msg", or "line:col: msg" when the
// filename is empty.
type Error struct {
	Filename string   // the name given to Parse; may be empty
	Pos      Position // where the error is
	Msg      string   // what is wrong, e.g. "unexpected ')'"
}

// Error returns the message with its position.
func (e *Error) Error() string { return errorString(e.Filename, e.Pos, e.Msg) }

func errorString(filename string, pos Position, msg string) string {
	if filename != "" {
		return fmt.Sprintf("%s:%s: %s", filename, pos, msg)
	}
	return fmt.Sprintf("%s: %s", pos, msg)
}

// ErrIncomplete matches every [*IncompleteError] under [errors.Is].
var ErrIncomplete = errors.New("incomplete input")

// An IncompleteError reports that the input ended before a construct was
// finished: inside an open bracket, after a binary operator or '=', inside
// a triple-quoted string, or after a '\' line continuation. More input
// could make it valid, so a REPL asks for another line instead of printing
// an error. Use [IsIncomplete] (or errors.Is(err, [ErrIncomplete])) to
// recognise it; never match its message.
type IncompleteError struct {
	Filename string   // the name given to Parse; may be empty
	Pos      Position // start of the unfinished construct
	// Open is the unfinished construct as written: "(", "[", an operator
	// such as "+" or "and", "=", the opening quotes of a string (`"""` or
	// `'''`, or `"` or `'` for a one-line string ended by a '\'), or `\`.
	Open string
	// Want says what would finish it: "')'", "']'", "an expression",
	// `closing """`, or "another line".
	Want string

	depth int // brackets open at the end of the input
}

// Error returns a message such as "1:2: unexpected end of input: '(' was
// never closed".
func (e *IncompleteError) Error() string {
	return errorString(e.Filename, e.Pos, e.Msg())
}

// Msg returns the message of e without its position.
func (e *IncompleteError) Msg() string {
	var msg string
	switch e.Open {
	case "(", "[":
		msg = fmt.Sprintf("unexpected end of input: '%s' was never closed", e.Open)
	case `"""`, `'''`:
		msg = "unexpected end of input: unterminated triple-quoted string"
	case `"`, `'`:
		msg = "unexpected end of input: unterminated string"
	case `\`:
		msg = "unexpected end of input after line continuation"
	case "":
		msg = "unexpected end of input"
	default:
		msg = fmt.Sprintf("unexpected end of input: expected expression after '%s'", e.Open)
	}
	return msg
}

// Is reports whether target is [ErrIncomplete].
func (e *IncompleteError) Is(target error) bool { return target == ErrIncomplete }

// IsIncomplete reports whether err is (or wraps) an [*IncompleteError].
func IsIncomplete(err error) bool {
	var ie *IncompleteError
	return errors.As(err, &ie)
}

// A Status classifies a source text for a REPL or for Jupyter's
// is_complete_request.
type Status int

// The statuses. Their String values are Jupyter's.
const (
	Complete   Status = iota // the text parses: run it
	Incomplete               // the text ends inside a construct: ask for more
	Invalid                  // the text has a syntax error: report it
)

// String returns "complete", "incomplete" or "invalid".
func (s Status) String() string {
	switch s {
	case Complete:
		return "complete"
	case Incomplete:
		return "incomplete"
	case Invalid:
		return "invalid"
	}
	return fmt.Sprintf("Status(%d)", int(s))
}

// Check classifies src as complete, incomplete or invalid. For incomplete
// input it also suggests the indentation of the next line: four spaces per
// open bracket (four after a trailing operator), and none inside a
// triple-quoted string or after a '\' continuation, where spaces would
// change the meaning.
func Check(src string) (status Status, indent string) {
	_, err := Parse("", src)
	if err == nil {
		return Complete, ""
	}
	var ie *IncompleteError
	if !errors.As(err, &ie) {
		return Invalid, ""
	}
	switch ie.Open {
	case `"""`, `'''`, `"`, `'`, `\`:
		return Incomplete, ""
	}
	depth := ie.depth
	if depth < 1 {
		depth = 1
	}
	return Incomplete, strings.Repeat("    ", depth)
}
