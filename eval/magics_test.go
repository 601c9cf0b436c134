package eval

import (
	"context"
	"strings"
	"testing"

	"github.com/tensorsh/tensorsh/internal/format"
)

// TestTimeAndTimeit checks IPython's two timers
// (https://ipython.readthedocs.io/en/stable/interactive/magics.html):
// %time runs its statement once, prints "Wall time: …" and gives the
// value (IPython/core/magics/execution.py, ExecutionMagics.time);
// %timeit repeats it and reports a statistic of the runs (ExecutionMagics.timeit;
// tensorsh reports the median, at least 5 runs after a warm-up).
func TestTimeAndTimeit(t *testing.T) {
	s, err := New("jax")
	if err != nil {
		t.Fatal(err)
	}
	for _, mark := range []string{":", "%"} {
		outs, err := s.Execute(context.Background(), "", mark+"time i8(3) + 1")
		if err != nil {
			t.Fatal(err)
		}
		if len(outs) != 2 || outs[0].Timing == nil || outs[0].Timing.Runs != 1 ||
			!strings.HasPrefix(outs[0].Text, "Wall time: ") || outs[1].Value == nil {
			t.Fatalf("%stime: %+v", mark, outs)
		}
		if got := s.Text(outs[1], format.Options{}); got != "i8 4" {
			t.Errorf("%stime value %q", mark, got)
		}
		outs, err = s.Execute(context.Background(), "", mark+"timeit i8(3) + 1")
		if err != nil {
			t.Fatal(err)
		}
		if len(outs) != 1 || outs[0].Timing == nil || outs[0].Timing.Runs < 5 ||
			!strings.Contains(outs[0].Text, "(median of ") {
			t.Fatalf("%stimeit: %+v", mark, outs)
		}
	}
	// :time's value is the last result, for :save and the kernel's Out[n].
	if got := run(t, s, ":time u8(2) * 2"); got != "u8 4" {
		t.Errorf("last output of :time: %q", got)
	}
}
