package repl

import (
	"bytes"
	"testing"
)

// TestLastResult checks that _ is the last result in the REPL, as in
// Python's interactive interpreter (https://docs.python.org/3/library/sys.html#sys.displayhook:
// the value is also saved in builtins._), and that Out[n] and _n name
// statement n's result, as IPython's do.
func TestLastResult(t *testing.T) {
	l := newLoop(t, "jax")
	var out, errw bytes.Buffer
	l.out, l.errw = &out, &errw
	for _, src := range []string{"i8(3) + 1", "x = 2", "_ * 2", "Out[1]", "_3"} {
		l.execute(src)
	}
	if want := "i8 4\ni8 8\ni8 4\ni8 8\n"; out.String() != want || errw.Len() != 0 {
		t.Errorf("output %q, errors %q; want %q", out.String(), errw.String(), want)
	}
}
