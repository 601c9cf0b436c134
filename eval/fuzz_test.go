package eval

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/tensorsh/tensorsh/promote"
)

// FuzzExecute runs statements from the fuzzer's bytes (seeded with every
// builtin's example) under every policy and requires that none meets an
// internal error (a Go panic the session recovers, or a backend's
// "internal error") and each keeps a deadline of 5 s (a statement
// canceled stops soon): bad input gets its own error, with its position.
// Statements with a number of five digits or more are skipped, so that
// the fuzzer does not spend its time allocating gigabytes.
func FuzzExecute(f *testing.F) {
	for _, name := range Functions() {
		_, _, example, _ := Doc(name)
		for _, src := range strings.Split(example, "; ") {
			f.Add(src)
		}
	}
	for _, src := range []string{"x + 1.5", "x[::-1, 1] * y", "sum(x, axis=(0, 1))", "quantile(x, [0.5, 0.9], axis=0)",
		"nanmax(where(x > 0.5, nan, x), axis=1)", "x @ y.T", "compare(x // 0)", "explain(i8([1]) + 300)",
		"sort(c, axis=0)", "h ** u", "mean(e, axis=0)", "b[::-1] & b", "cumsum(e, axis=1)"} {
		f.Add(src)
	}
	const setup = "x = rand((3, 4), seed=1)\ny = cast(rand((3, 4), seed=2) * 10, i16)\nv = arange(5)\n" +
		"b = x > 0.5\nc = cast(x, c64)\nh = cast(x, f16)\nu = cast(y, u8)\ne = zeros((0, 3))"
	f.Fuzz(func(t *testing.T, src string) {
		digits := 0
		for _, r := range src {
			if unicode.IsDigit(r) {
				if digits++; digits >= 5 {
					return
				}
			} else {
				digits = 0
			}
		}
		for _, policy := range promote.Names() {
			s, err := New(policy)
			if err != nil {
				t.Fatal(err)
			}
			for _, line := range strings.Split(setup, "\n") {
				s.Execute(context.Background(), "", line) // a dtype a policy lacks stays undefined
			}
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			start := time.Now()
			_, err = s.Execute(ctx, "", src)
			cancel()
			if d := time.Since(start); d > 10*time.Second {
				t.Errorf("%s: %q took %v: the 5 s deadline was not kept", policy, src, d.Round(time.Second))
			}
			var e *Error
			if errors.As(err, &e) && (e.Name == "InternalError" || strings.Contains(e.Msg, "internal error")) {
				t.Errorf("%s: %q: %s: %s", policy, src, e.Name, e.Msg)
			}
		}
	})
}

// TestZeroDimAxis checks functions given an axis of a 0-d value, which
// FuzzExecute found ending in internal errors: NumPy 1.24's answers, run
// (np.swapaxes, np.moveaxis, np.flip, np.roll, np.std, np.median and
// np.quantile raise AxisError; np.squeeze gives the value, np.repeat a
// vector of its copies; np.random.rand(0) is empty).
func TestZeroDimAxis(t *testing.T) {
	s, _ := New("numpy")
	for _, c := range []struct{ src, want string }{
		{"swapaxes(zeros(()), 0, 0)", "AxisError: axis1: axis 0 is out of bounds for array of dimension 0"},
		{"moveaxis(zeros(()), 0, 0)", "AxisError: source: axis 0 is out of bounds for array of dimension 0"},
		{"flip(zeros(()), 0)", "AxisError: axis 0 is out of bounds for array of dimension 0"},
		{"roll(zeros(()), 1, 0)", "AxisError: axis 0 is out of bounds for array of dimension 0"},
		{"std(zeros(()), axis=0)", "AxisError: axis 0 is out of bounds for array of dimension 0"},
		{"median(zeros(()), axis=0)", "AxisError: axis 0 is out of bounds for array of dimension 0"},
		{"quantile(0, [0], 0)", "AxisError: axis 0 is out of bounds for array of dimension 0"},
		{"squeeze(zeros(()), 0)", "f64 0.0"},
		{"repeat(zeros(()), 2, axis=0)", "[0. 0.]\nf64[2] cpu"},
		{"rand(0)", "[]\nf64[0] cpu"},
	} {
		if got := run(t, s, c.src); got != c.want {
			t.Errorf("%s = %q, want %q", c.src, got, c.want)
		}
	}
}
