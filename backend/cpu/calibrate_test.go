package cpu

import "testing"

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
