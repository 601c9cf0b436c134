package cpu

import (
	"testing"
	"time"
)

// TestSerialLimits checks that the measured limits are one of the two
// settings serialLimits chooses between, and logs the measurement.
func TestSerialLimits(t *testing.T) {
	one, two := measureCopy()
	if one <= 0 || two <= 0 {
		t.Fatalf("measureCopy() = %v, %v", one, two)
	}
	s, c := serialLimits(2)
	if !(s == serialMax && c == copySerialMax || s == serialMin && c == serialMin) {
		t.Errorf("serialLimits(2) = %d, %d", s, c)
	}
	if s, c := serialLimits(1); s != serialMax || c != copySerialMax {
		t.Errorf("serialLimits(1) = %d, %d, want %d, %d", s, c, serialMax, copySerialMax)
	}
	t.Logf("a copy of 2 MB: %v on one goroutine, %v on two; limits %d and %d bytes", one, two, s, c)
}

// TestTwoFasterRetries checks twoFaster's schedule with a measurement
// that loses four times (each of twoTries copies), then wins: asked
// again within retrySoon of a loss it does not measure; after the third
// loss it waits ten seconds (losses are never final); a win is final.
func TestTwoFasterRetries(t *testing.T) {
	resetTwoState(t)
	calls := 0
	measureTwo = func() (time.Duration, time.Duration) {
		calls++
		if calls <= 4*twoTries {
			return 100, 100 // two goroutines no faster: a loss
		}
		return 300, 100
	}
	back := func(d time.Duration) { twoState.last = time.Since(calEpoch) - d }
	for i, c := range []struct {
		ago   time.Duration // when the last measurement was
		want  bool
		calls int
	}{
		{0, false, 1},             // first: measured, lost
		{retrySoon / 2, false, 1}, // too soon
		{2 * retrySoon, false, 2},
		{2 * retrySoon, false, 3},    // third loss
		{2 * time.Second, false, 3},  // now ten seconds apart
		{11 * time.Second, false, 4}, // fourth loss: not final
		{11 * time.Second, true, 5},  // a win
		{0, true, 5},                 // final: not measured again
	} {
		// Copies: each loss takes twoTries, the win one.
		c.calls = min(c.calls, 4)*twoTries + max(c.calls-4, 0)
		if i > 0 {
			back(c.ago)
		}
		if got := twoFaster(2); got != c.want || calls != c.calls {
			t.Fatalf("step %d: twoFaster = %v after %d measurements, want %v after %d", i, got, calls, c.want, c.calls)
		}
	}
}

// TestTwoFasterTries checks that one measurement takes up to twoTries
// copies and keeps the best time of each side: a first copy that loses
// (the helper's core busy) and a second that wins give a win, after two
// copies; best times that never reach the bar across the tries, a loss.
func TestTwoFasterTries(t *testing.T) {
	for _, c := range []struct {
		name  string
		times [][2]time.Duration // one, two of each copy
		want  bool
		calls int
	}{
		{"lost then won", [][2]time.Duration{{300, 300}, {300, 100}, {300, 100}}, true, 2},
		{"best of each side", [][2]time.Duration{{300, 250}, {350, 150}, {300, 150}}, true, 2},
		{"won on the third", [][2]time.Duration{{300, 250}, {400, 200}, {500, 180}}, true, 3},
		{"never", [][2]time.Duration{{100, 100}, {140, 100}, {150, 95}}, false, 3},
		{"first", [][2]time.Duration{{200, 100}}, true, 1},
	} {
		resetTwoState(t)
		calls := 0
		measureTwo = func() (time.Duration, time.Duration) {
			tm := c.times[calls]
			calls++
			return tm[0], tm[1]
		}
		if got := twoFaster(2); got != c.want || calls != c.calls {
			t.Errorf("%s: twoFaster = %v after %d copies, want %v after %d", c.name, got, calls, c.want, c.calls)
		}
	}
}

// resetTwoState clears what twoFaster has measured, for a test that
// replaces measureTwo; the process's own state and measureTwo come back
// when the test ends.
func resetTwoState(t *testing.T) {
	st := &twoState
	wins, final, losses, last, measure := st.wins.Load(), st.final.Load(), st.losses, st.last, measureTwo
	t.Cleanup(func() {
		st.wins.Store(wins)
		st.final.Store(final)
		st.losses, st.last, measureTwo = losses, last, measure
	})
	st.wins.Store(false)
	st.final.Store(false)
	st.losses = 0
}
