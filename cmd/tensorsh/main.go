// Command tensorsh evaluates the tensorsh language: dtype promotion and
// broadcasting under the exact rules of JAX, NumPy, PyTorch, Triton, MAX,
// anvil or the Array API standard.
//
// Usage:
//
//	tensorsh [flags]               the REPL (a script when stdin is not a terminal)
//	tensorsh [flags] FILE.tsh      run a script
//	tensorsh [flags] -e 'EXPR'     evaluate statements given on the command line
//	tensorsh kernel …              the Jupyter kernel (see tensorsh kernel -h)
//	tensorsh serve [--addr A]      the browser playground (see tensorsh serve -h)
//	tensorsh version               print the version
//
// Flags: --policy NAME, --backend NAME, --json, --no-color.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"

	"github.com/chzyer/readline"

	"github.com/tensorsh/tensorsh/eval"
	"github.com/tensorsh/tensorsh/internal/format"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

type exprList []string

func (e *exprList) String() string     { return fmt.Sprint(*e) }
func (e *exprList) Set(s string) error { *e = append(*e, s); return nil }

func run(args []string, stdin io.ReadCloser, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		switch args[0] {
		case "version":
			fmt.Fprintf(stdout, "tensorsh %s (%s %s/%s)\n", eval.Version, runtime.Version(), runtime.GOOS, runtime.GOARCH)
			return 0
		case "kernel":
			return kernelMain(args[1:])
		case "serve":
			return serveMain(args[1:], stdout, stderr)
		}
	}
	fs := flag.NewFlagSet("tensorsh", flag.ContinueOnError)
	fs.SetOutput(stderr)
	policy := fs.String("policy", "jax", "promotion `policy` (jax jax64 numpy numpy1 torch triton triton-doc max max-graph anvil array-api mlx julia c)")
	backendName := fs.String("backend", "cpu", "`backend` to compute on (cpu, cuda)")
	jsonOut := fs.Bool("json", false, "print one JSON object per result; errors as {\"error\":…,\"pos\":…}")
	noColor := fs.Bool("no-color", false, "never colour the output")
	var exprs exprList
	fs.Var(&exprs, "e", "evaluate `statements` (repeatable)")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: tensorsh [flags] [FILE.tsh]\n       tensorsh [flags] -e 'EXPR'\n       tensorsh kernel install|uninstall|--connection-file F\n       tensorsh serve [--addr 127.0.0.1:8080]\n       tensorsh version\n\nflags:\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	s, err := eval.New(*policy)
	if err != nil {
		fmt.Fprintf(stderr, "tensorsh: %v\n", err)
		return 2
	}
	registerBackends(s)
	if *backendName != "cpu" {
		if err := s.SetBackend(*backendName); err != nil {
			fmt.Fprintf(stderr, "tensorsh: %v\n", err)
			return 2
		}
	}
	out := &printer{s: s, w: stdout, errw: stderr, json: *jsonOut}
	if !*jsonOut && !*noColor && os.Getenv("NO_COLOR") == "" && isTerminal(stdout) {
		out.opts.Color = true
	}
	if isTerminal(stdout) {
		out.opts.Width = readline.GetScreenWidth()
	}
	s.Warn = func(w string) { fmt.Fprintf(stderr, "warning: %s\n", w) }

	switch {
	case len(exprs) > 0:
		if fs.NArg() > 0 {
			fmt.Fprintf(stderr, "tensorsh: -e and a script file %s cannot be combined\n", fs.Arg(0))
			return 2
		}
		for _, e := range exprs {
			if !out.script("<cmdline>", e) {
				return 1
			}
		}
		return 0
	case fs.NArg() > 1:
		fmt.Fprintf(stderr, "tensorsh: one script at a time (got %d)\n", fs.NArg())
		return 2
	case fs.NArg() == 1:
		name := fs.Arg(0)
		src, err := os.ReadFile(name)
		if err != nil {
			fmt.Fprintf(stderr, "tensorsh: %v\n", err)
			return 1
		}
		if !out.script(name, string(src)) {
			return 1
		}
		return 0
	}
	if isTerminal(stdin) && isTerminal(stdout) && !*jsonOut {
		if err := interactive(s, *noColor, stdin, stdout, stderr); err != nil {
			fmt.Fprintf(stderr, "tensorsh: %v\n", err)
			return 1
		}
		return 0
	}
	src, err := io.ReadAll(stdin)
	if err != nil {
		fmt.Fprintf(stderr, "tensorsh: reading stdin: %v\n", err)
		return 1
	}
	if !out.script("<stdin>", string(src)) {
		return 1
	}
	return 0
}

// isTerminal reports whether f is an *os.File on a terminal.
func isTerminal(f any) bool {
	file, ok := f.(*os.File)
	return ok && readline.IsTerminal(int(file.Fd()))
}

// A printer shows a session's outputs and errors as text or JSON.
type printer struct {
	s    *eval.Session
	w    io.Writer
	errw io.Writer
	json bool
	opts format.Options
}

// script runs src, printing each output; it reports whether it succeeded.
// Ctrl-C cancels the running statement and ends the script.
func (p *printer) script(name, src string) bool {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	outs, err := p.s.Execute(ctx, name, src)
	for _, o := range outs {
		p.output(o)
	}
	if err != nil {
		p.error(err)
		return false
	}
	return true
}

func (p *printer) output(o eval.Output) {
	if p.json {
		// Streamed: the JSON of a large tensor is never built in memory.
		if err := p.s.WriteJSON(p.w, o); err != nil {
			p.error(err)
			return
		}
		fmt.Fprintln(p.w)
		return
	}
	fmt.Fprintln(p.w, p.s.Text(o, p.opts))
}

func (p *printer) error(err error) {
	if p.json {
		fmt.Fprintf(p.w, "%s\n", eval.ErrorJSON(err))
		return
	}
	var e *eval.Error
	if errors.As(err, &e) {
		fmt.Fprintln(p.errw, e.Report())
		return
	}
	fmt.Fprintf(p.errw, "error: %v\n", err)
}
