package main

import (
	"io"

	"github.com/tensorsh/tensorsh/eval"
	"github.com/tensorsh/tensorsh/repl"
)

// interactive runs the REPL on a terminal.
func interactive(s *eval.Session, noColor bool, stdin io.ReadCloser, stdout, stderr io.Writer) error {
	return repl.Run(s, repl.Options{NoColor: noColor, Stdin: stdin, Stdout: stdout, Stderr: stderr})
}
