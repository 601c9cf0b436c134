// Package repl is the terminal front end of tensorsh: a read-eval-print
// loop over an eval.Session with line editing (Emacs keys), persistent
// history with Ctrl-R search, Tab completion, colour, and Ctrl-C that
// cancels the running statement without losing the session.
//
// Run reads with github.com/chzyer/readline when its input is a terminal.
// When it is not (tests, pipes), Run reads plain lines and echoes each one
// after its prompt, so that its output reads as a transcript of the
// session; it then keeps no history.
package repl

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"sync"

	"github.com/tensorsh/tensorsh/eval"
	"github.com/tensorsh/tensorsh/internal/format"
	"github.com/tensorsh/tensorsh/lang"
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
// returning nil then. Errors in statements are shown and never end the
// session; Ctrl-C cancels the running statement (its variables and the
// session survive) and, at the prompt, clears the line. Run returns an
// error only when it cannot read its input.
func Run(s *eval.Session, o Options) error {
	if o.Stdin == nil {
		o.Stdin = os.Stdin
	}
	if o.Stdout == nil {
		o.Stdout = os.Stdout
	}
	if o.Stderr == nil {
		o.Stderr = os.Stderr
	}
	l := &loop{
		s:     s,
		out:   o.Stdout,
		errw:  o.Stderr,
		color: useColor(o.NoColor, o.Stdout),
		width: func() int { return termWidth(o.Stdout) },
	}
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt)
	defer signal.Stop(sig)
	done := make(chan struct{})
	defer close(done)
	go l.watch(sig, done)

	var r lineReader
	if isTerminal(o.Stdin) {
		path, err := historyPath(o.HistoryFile)
		if err != nil {
			l.warn("history is not saved: " + err.Error())
		}
		r, err = newTermReader(l, o, path)
		if err != nil {
			return err
		}
	} else {
		r = &plainReader{in: bufio.NewReader(o.Stdin), out: o.Stdout}
	}
	defer r.close()
	return l.run(r)
}

// A lineReader reads the lines the user types.
type lineReader interface {
	// readLine shows prompt and returns the line typed, without its
	// newline; a terminal starts the line with indent. It returns io.EOF
	// at the end of input (Ctrl-D) and errInterrupt when the user pressed
	// Ctrl-C at the prompt.
	readLine(prompt, indent string) (string, error)
	close() error
}

// errInterrupt is returned by readLine for Ctrl-C at the prompt.
var errInterrupt = errors.New("interrupt")

// A loop is the read-eval-print loop over one session.
type loop struct {
	s     *eval.Session
	out   io.Writer
	errw  io.Writer
	color bool
	width func() int // terminal columns, 0 when unknown

	// pending holds the lines of an unfinished statement, each with its
	// newline, so that completion sees the whole statement.
	pending string

	// statements counts the statements run, for Out[n] and _n (_ is the
	// last result, as in Python's REPL).
	statements int

	mu          sync.Mutex
	cancel      context.CancelFunc // cancels the running statement; nil at the prompt
	interrupted bool               // the running statement got a Ctrl-C
}

// watch cancels the running statement on each interrupt until done is
// closed. An interrupt that arrives while no statement runs is ignored (on
// a terminal the prompt reads Ctrl-C as a key, not as a signal).
func (l *loop) watch(sig <-chan os.Signal, done <-chan struct{}) {
	for {
		select {
		case <-sig:
			l.mu.Lock()
			if l.cancel != nil {
				l.cancel()
				l.interrupted = true
			}
			l.mu.Unlock()
		case <-done:
			return
		}
	}
}

// run prints the banner and then reads and runs statements until the end
// of input or :quit.
func (l *loop) run(r lineReader) error {
	warn := l.s.Warn
	l.s.Warn = l.warn
	defer func() { l.s.Warn = warn }()

	fmt.Fprintln(l.out, l.banner())
	for {
		src, err := l.read(r)
		if errors.Is(err, errInterrupt) {
			continue
		}
		quit := l.quits(src)
		if src != "" && !quit {
			l.execute(src)
		}
		if quit || errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// read reads one statement: a line, and more lines while eval.IsComplete
// says the input is incomplete. Blank lines at the prompt are skipped. At
// the end of input it returns what was read so far (possibly "") with
// io.EOF, so that an unfinished statement still shows its error.
func (l *loop) read(r lineReader) (string, error) {
	l.pending = ""
	defer func() { l.pending = "" }()
	prompt, indent := l.prompt(), ""
	for {
		line, err := r.readLine(prompt, indent)
		if err != nil {
			if errors.Is(err, errInterrupt) {
				return "", err
			}
			return strings.TrimSuffix(l.pending, "\n"), err
		}
		if l.pending == "" && strings.TrimSpace(line) == "" {
			continue
		}
		src := l.pending + line
		if status, ind := eval.IsComplete(src); status == lang.Incomplete {
			l.pending = src + "\n"
			prompt, indent = l.continuation(), ind
			continue
		}
		return src, nil
	}
}

// quits reports whether src asks to leave: :quit, :exit, or quit, exit,
// quit() or exit() where the name is not a variable (Python's REPL leaves
// on quit() and exit(), the site module's Quitter).
func (l *loop) quits(src string) bool {
	switch src = strings.TrimSpace(src); src {
	case ":quit", ":exit", ":q":
		return true
	case "quit", "exit", "quit()", "exit()":
		_, isVar := l.s.Var(strings.TrimSuffix(src, "()"))
		return !isVar
	}
	return false
}

// execute runs one statement, cancelling it on an interrupt, and prints
// its outputs and its error.
func (l *loop) execute(src string) {
	ctx, cancel := context.WithCancel(context.Background())
	l.mu.Lock()
	l.cancel, l.interrupted = cancel, false
	l.mu.Unlock()

	l.s.Width = l.width() // table(), diff() and explain() lay out for the terminal
	outs, err := l.s.Execute(ctx, "", src)

	l.mu.Lock()
	interrupted := l.interrupted
	l.cancel, l.interrupted = nil, false
	l.mu.Unlock()
	cancel()

	l.statements++
	for i := len(outs) - 1; i >= 0; i-- {
		if outs[i].Value != nil {
			l.s.SetResult(l.statements, outs[i].Value)
			break
		}
	}
	opts := format.Options{Width: l.width(), Color: l.color}
	for _, o := range outs {
		if text := l.s.Text(o, opts); text != "" {
			fmt.Fprintln(l.out, text)
		}
	}
	if err == nil && strings.TrimSpace(src) == ":help" {
		fmt.Fprintln(l.out, "\n"+keysHelp)
	}
	if err != nil {
		if interrupted || errors.Is(err, context.Canceled) || isInterrupt(err) {
			fmt.Fprintln(l.errw, l.paint(red, "KeyboardInterrupt"))
			return
		}
		fmt.Fprintln(l.errw, l.report(err))
	}
}

// keysHelp follows :help in the REPL.
const keysHelp = "keys: Tab completes · ↑/↓ and Ctrl-R search the history · Ctrl-C cancels a statement\n" +
	"      or clears the line · Ctrl-D or :quit leaves"

// isInterrupt reports whether err is the session's report of a cancelled
// statement.
func isInterrupt(err error) bool {
	var e *eval.Error
	return errors.As(err, &e) && e.Name == "KeyboardInterrupt"
}

// warn prints a warning from the session.
func (l *loop) warn(w string) {
	fmt.Fprintln(l.errw, l.paint(yellow, "warning:")+" "+w)
}

// banner is the first line of a session.
func (l *loop) banner() string {
	p := l.s.Policy()
	return fmt.Sprintf("%s · policy %s (%s) · backend %s · :help for help, Tab completes",
		l.paint(bold, "tensorsh "+eval.Version), p.Name(), p.Title(), l.s.Backend())
}

// prompt shows the active policy: "jax> ".
func (l *loop) prompt() string {
	return l.paint(green, l.s.Policy().Name()) + "> "
}

// continuation is the prompt of an unfinished statement's next lines,
// "...> " right-aligned under the policy prompt.
func (l *loop) continuation() string {
	n := len(l.s.Policy().Name())
	dots := "..."
	if n > len(dots) {
		dots = strings.Repeat(" ", n-len(dots)) + dots
	}
	return l.paint(dim, dots) + "> "
}

// plainReader reads lines from a stream that is not a terminal, echoing
// the prompt and the line so that the output is a transcript.
type plainReader struct {
	in  *bufio.Reader
	out io.Writer
}

func (p *plainReader) readLine(prompt, _ string) (string, error) {
	fmt.Fprint(p.out, prompt)
	line, err := p.in.ReadString('\n')
	if err != nil && (!errors.Is(err, io.EOF) || line == "") {
		fmt.Fprintln(p.out)
		return "", err
	}
	line = strings.TrimSuffix(strings.TrimSuffix(line, "\n"), "\r")
	fmt.Fprintln(p.out, line)
	return line, nil
}

func (p *plainReader) close() error { return nil }
