package repl

import (
	"errors"
	"io"
	"os"
	"path/filepath"

	"github.com/chzyer/readline"
)

// historyLimit is how many lines the history file keeps.
const historyLimit = 5000

// isTerminal reports whether f is an *os.File on a terminal.
func isTerminal(f any) bool {
	file, ok := f.(*os.File)
	return ok && readline.IsTerminal(int(file.Fd()))
}

// termWidth returns the number of columns of the terminal w writes to, or
// 0 when w is not a terminal.
func termWidth(w io.Writer) int {
	file, ok := w.(*os.File)
	if !ok {
		return 0
	}
	cols, _, err := readline.GetSize(int(file.Fd()))
	if err != nil || cols <= 0 {
		return 0
	}
	return cols
}

// useColor reports whether output to w is coloured: not when noColor
// (--no-color) is set, not when the NO_COLOR environment variable is set
// to anything but "" (https://no-color.org), and only on a terminal.
func useColor(noColor bool, w io.Writer) bool {
	return !noColor && os.Getenv("NO_COLOR") == "" && isTerminal(w)
}

// historyPath returns the history file to use and creates its directory:
// file if not "", else $XDG_DATA_HOME/tensorsh/history, where an unset or
// relative XDG_DATA_HOME means ~/.local/share (the XDG base directory
// specification). It returns "" and an error when there is no place for
// the history.
func historyPath(file string) (string, error) {
	if file == "" {
		dir := os.Getenv("XDG_DATA_HOME")
		if dir == "" || !filepath.IsAbs(dir) {
			home, err := os.UserHomeDir()
			if err != nil {
				return "", err
			}
			if home == "" {
				return "", errors.New("no home directory")
			}
			dir = filepath.Join(home, ".local", "share")
		}
		file = filepath.Join(dir, "tensorsh", "history")
	}
	if err := os.MkdirAll(filepath.Dir(file), 0o700); err != nil {
		return "", err
	}
	return file, nil
}

// termReader reads lines with readline: Emacs keys, history, Ctrl-R
// search, Tab completion through the session.
type termReader struct {
	rl *readline.Instance
}

func newTermReader(l *loop, o Options, history string) (*termReader, error) {
	fd := -1
	if f, ok := o.Stdin.(*os.File); ok {
		fd = int(f.Fd())
	}
	var raw *readline.State
	cfg := &readline.Config{
		HistoryFile:       history,
		HistoryLimit:      historyLimit,
		HistorySearchFold: true,
		AutoComplete:      &completer{l: l},
		InterruptPrompt:   "^C",
		EOFPrompt:         "\n", // readline's way to say: only a newline
		Stdin:             readline.NewCancelableStdin(o.Stdin),
		Stdout:            o.Stdout,
		Stderr:            o.Stderr,
		FuncIsTerminal:    func() bool { return true },
		FuncGetWidth: func() int {
			if w := termWidth(o.Stdout); w > 0 {
				return w
			}
			return 80
		},
		FuncMakeRaw: func() error {
			var err error
			raw, err = readline.MakeRaw(fd)
			return err
		},
		FuncExitRaw: func() error {
			if raw == nil {
				return nil
			}
			err := readline.Restore(fd, raw)
			raw = nil
			return err
		},
	}
	rl, err := readline.NewEx(cfg)
	if err != nil {
		return nil, err
	}
	return &termReader{rl: rl}, nil
}

func (t *termReader) readLine(prompt, indent string) (string, error) {
	t.rl.SetPrompt(prompt)
	line, err := t.rl.ReadlineWithDefault(indent)
	if errors.Is(err, readline.ErrInterrupt) {
		return "", errInterrupt
	}
	return line, err
}

func (t *termReader) close() error { return t.rl.Close() }
