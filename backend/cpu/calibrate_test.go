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
// that loses four times, then wins: asked again within a second of a
// loss it does not measure; after the third loss it waits ten seconds
// (losses are never final); a win is final.
func TestTwoFasterRetries(t *testing.T) {
	saved, savedMeasure := twoState.last, measureTwo
	defer func() {
		twoState.wins.Store(false)
		twoState.final.Store(false)
		twoState.losses, twoState.last = 0, saved
		measureTwo = savedMeasure
	}()
	twoState.wins.Store(false)
	twoState.final.Store(false)
	twoState.losses = 0
	calls := 0
	measureTwo = func() (time.Duration, time.Duration) {
		calls++
		if calls <= 4 {
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
		{0, false, 1},                      // first: measured, lost
		{100 * time.Millisecond, false, 1}, // too soon
		{2 * time.Second, false, 2},
		{2 * time.Second, false, 3},  // third loss
		{2 * time.Second, false, 3},  // now ten seconds apart
		{11 * time.Second, false, 4}, // fourth loss: not final
		{11 * time.Second, true, 5},  // a win
		{0, true, 5},                 // final: not measured again
	} {
		if i > 0 {
			back(c.ago)
		}
		if got := twoFaster(2); got != c.want || calls != c.calls {
			t.Fatalf("step %d: twoFaster = %v after %d measurements, want %v after %d", i, got, calls, c.want, c.calls)
		}
	}
}
