package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"

	"github.com/tensorsh/tensorsh/eval"
)

// interactive runs a plain line-by-line session on a terminal: a prompt
// with the policy, continuation lines while input is incomplete, Ctrl-C
// cancelling the running statement.
func interactive(s *eval.Session, noColor bool, stdin io.ReadCloser, stdout, stderr io.Writer) error {
	p := &printer{s: s, w: stdout, errw: stderr}
	p.opts.Color = !noColor && os.Getenv("NO_COLOR") == ""
	fmt.Fprintf(stdout, "tensorsh %s · policy %s (%s) · backend %s · :help for help\n", eval.Version, s.Policy().Name(), s.Policy().Title(), s.Backend())
	in := bufio.NewScanner(stdin)
	for {
		fmt.Fprintf(stdout, "%s> ", s.Policy().Name())
		var src string
		for {
			if !in.Scan() {
				fmt.Fprintln(stdout)
				return in.Err()
			}
			if src != "" {
				src += "\n"
			}
			src += in.Text()
			if st, _ := eval.IsComplete(src); st != "incomplete" {
				break
			}
			fmt.Fprint(stdout, "...> ")
		}
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
		outs, err := s.Execute(ctx, "", src)
		stop()
		for _, o := range outs {
			p.output(o)
		}
		if err != nil {
			p.error(err)
		}
	}
}
