package eval

import (
	"context"
	"strings"
	"testing"
	"time"

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

// TestFormatDuration checks :timeit's times: three significant digits in
// the unit that keeps the number below 1000, so that a time just under a
// unit's end reads as the next unit, never in exponent form (999.6 µs
// printed "1e+03 µs", which bench/survey.py could not read).
func TestFormatDuration(t *testing.T) {
	for _, c := range []struct {
		d    time.Duration
		want string
	}{
		{0, "0 ns"},
		{999, "999 ns"},
		{time.Microsecond, "1 µs"},
		{1500, "1.5 µs"},
		{123456, "123 µs"},
		{999400, "999 µs"},
		{999600, "1 ms"},
		{time.Millisecond, "1 ms"},
		{2345678, "2.35 ms"},
		{999600000, "1 s"},
		{90 * time.Second, "90 s"},
		{999600 * time.Millisecond, "1000 s"},
		{2 * time.Hour, "7200 s"},
	} {
		if got := formatDuration(c.d); got != c.want {
			t.Errorf("formatDuration(%v) = %q, want %q", c.d, got, c.want)
		}
	}
}
