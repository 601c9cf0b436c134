package jupyter

import (
	"fmt"
	"strings"

	"github.com/tensorsh/tensorsh/eval"
)

// The ANSI colours of IPython's tracebacks, which ipykernel sends and
// front ends paint (IPython/core/excolors.py, exception_colors; laid out
// by IPython/core/ultratb.py, SyntaxTB and ListTB).
const (
	ansiRed    = "\x1b[0;31m" // the error's name, the culprit line
	ansiGreen  = "\x1b[0;32m" // where: "In[2], line 1"
	ansiCyan   = "\x1b[0;36m" // "Cell"
	ansiNormal = "\x1b[0m"
)

// errorLine is a traceback's last line, as IPython writes it: the error's
// name in red, then its message.
func errorLine(name, msg string) string {
	if msg == "" {
		return ansiRed + name + ansiNormal
	}
	return ansiRed + name + ansiNormal + ": " + msg
}

// plainTraceback is the traceback of an error that has no position: its
// name and message, one element a line.
func plainTraceback(name, msg string) []string {
	return strings.Split(errorLine(name, msg), "\n")
}

// evalTraceback is the traceback of an evaluator error, laid out as
// IPython shows a SyntaxError: where the error is ("Cell In[2], line 2,
// column 9" for a cell, "File NAME, …" for a file), the source line in red
// with the caret line under the culprit (as the terminal shows it), and the
// error's name and message.
func evalTraceback(e *eval.Error) []string {
	caret := e.Caret()
	if e.Line == 0 || caret == "" {
		return plainTraceback(e.Name, e.Msg)
	}
	where := ansiCyan + "File " + ansiGreen + e.File
	if n, ok := cellNumber(e.File); ok {
		where = ansiCyan + "Cell " + ansiGreen + fmt.Sprintf("In[%d]", n)
	}
	where += fmt.Sprintf(", line %d, column %d", e.Line, e.Col) + ansiNormal
	src, marks, _ := strings.Cut(caret, "\n")
	tb := []string{where, ansiRed + src + ansiNormal, marks}
	return append(tb, plainTraceback(e.Name, e.Msg)...)
}

// cellNumber returns n for the file name "<cell n>" that Execute gives a
// cell's source.
func cellNumber(file string) (int, bool) {
	s, ok := strings.CutPrefix(file, "<cell ")
	if !ok {
		return 0, false
	}
	s, ok = strings.CutSuffix(s, ">")
	var n int
	if _, err := fmt.Sscan(s, &n); !ok || err != nil || fmt.Sprint(n) != s {
		return 0, false
	}
	return n, true
}
