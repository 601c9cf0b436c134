package jupyter

import (
	"context"
	"strings"
)

// An Engine runs the cells of a notebook for a [Kernel]. The kernel calls
// its methods from one goroutine at a time (Execute, Complete, Inspect and
// IsComplete never overlap), so an Engine needs no locking of its own.
//
// Offsets into code are byte offsets; the kernel converts them from and to
// the code points the protocol counts.
type Engine interface {
	// Info describes the engine for kernel_info_reply.
	Info() Info

	// Execute runs one cell. It reports what the cell shows through emit,
	// in order, and must not call emit after it returns. When ctx is
	// cancelled (an interrupt) it should stop soon and return an error.
	// A failure is returned as an *[Error] (or any error, shown by its
	// message); outputs emitted before it are kept.
	Execute(ctx context.Context, cell Cell, emit func(Output)) error

	// Complete returns the completions of the word that ends at byte
	// offset cursor.
	Complete(code string, cursor int) Completion

	// Inspect returns what to show for the name at byte offset cursor:
	// detail 0 is the short form, 1 the long one. found is false when
	// there is nothing to show.
	Inspect(code string, cursor, detail int) (data Bundle, found bool)

	// IsComplete classifies code as "complete", "incomplete" (with the
	// indentation of the next line), "invalid" or "unknown".
	IsComplete(code string) (status, indent string)
}

// Info describes an engine: the implementation and its language.
type Info struct {
	Implementation        string // "tensorsh"
	ImplementationVersion string
	LanguageVersion       string
	Banner                string
	HelpLinks             []HelpLink
}

// A HelpLink is an entry of the notebook's Help menu.
type HelpLink struct {
	Text string `json:"text"`
	URL  string `json:"url"`
}

// A Cell is one execute_request.
type Cell struct {
	Code string
	// Count is the cell's execution count (In [Count]); cells that do not
	// store history share the count of the cell before them.
	Count int
	// Silent cells show nothing; their outputs are discarded.
	Silent bool
	// StoreHistory reports whether the cell is recorded and counted.
	StoreHistory bool
}

// A Bundle maps MIME types ("text/plain", "text/html", "image/svg+xml")
// to the same content in each form. Every bundle should have text/plain,
// the form consoles and text exports show.
type Bundle map[string]string

// An Output is one thing a cell shows: text on a stream, rich data, a
// page of help, or the clearing of what came before.
type Output struct {
	// Stream is "stdout" or "stderr" for stream text (in Text).
	Stream string
	Text   string

	// Data is a rich output: the cell's value when Result is set
	// (execute_result, shown as Out[n]), a display_data otherwise. A
	// cell has at most one result; the kernel shows any later one as
	// display_data.
	Data   Bundle
	Result bool

	// Page sends Data to the pager (IPython's "x?") instead: the
	// execute_reply's payload, which notebooks show in a side panel.
	Page bool

	// NextInput puts Text into the notebook in place of the cell (a
	// set_next_input payload with replace, as IPython's %load sends).
	NextInput bool

	// Clear asks the front end to clear what the cell has shown so far,
	// when its next output arrives (clear_output with wait).
	Clear bool
}

// An Error is a failed cell, as Jupyter shows it.
type Error struct {
	Name      string   // ename: "PromotionError", "SyntaxError" …
	Value     string   // evalue: the message
	Traceback []string // lines shown to the user (may hold ANSI colours)
}

func (e *Error) Error() string {
	if e.Value == "" {
		return e.Name
	}
	return e.Name + ": " + e.Value
}

// A Completion is the answer to a complete_request.
type Completion struct {
	// Start and End are the byte offsets of the text the matches replace.
	Start, End int
	Matches    []Match
}

// A Match is one completion.
type Match struct {
	Text string
	// Kind is what the match names: "function", "variable", "dtype",
	// "policy", "directive", "keyword" … (shown by JupyterLab).
	Kind string
	// Signature is the call signature of a function, or "".
	Signature string
}

// WordAt returns the start and end byte offsets of the identifier-like
// word around cursor in code (letters, digits, '_' and '?'), a helper
// for Complete and Inspect. A cursor out of range is clamped.
func WordAt(code string, cursor int) (start, end int) {
	if cursor < 0 {
		cursor = 0
	}
	if cursor > len(code) {
		cursor = len(code)
	}
	start, end = cursor, cursor
	for start > 0 && isWordByte(code[start-1]) {
		start--
	}
	for end < len(code) && isWordByte(code[end]) {
		end++
	}
	return start, end
}

func isWordByte(c byte) bool {
	return c == '_' || c == '?' || c >= 0x80 ||
		'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

// PlainBundle returns a bundle with only text/plain.
func PlainBundle(text string) Bundle {
	return Bundle{"text/plain": strings.TrimRight(text, "\n")}
}
