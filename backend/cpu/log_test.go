package cpu

import (
	"math"
	"testing"
)

// TestLogSubnormal checks float64 log on subnormal inputs against values
// computed with Python's math.log (glibc), which Go's amd64 math.Log gets
// wrong (about -709.09 for all of them).
func TestLogSubnormal(t *testing.T) {
	for _, tc := range []struct{ x, want float64 }{
		{5e-324, -744.4400719213812},
		{1e-310, -713.8013788281542},
		{0x1p-1050, -1050 * math.Ln2},
		{0x1p-1022, -708.3964185322641},
	} {
		got := logF64(tc.x)
		if d := math.Abs(got-tc.want) / math.Abs(tc.want); d > 2e-16 {
			t.Errorf("log(%g) = %.17g, want %.17g", tc.x, got, tc.want)
		}
	}
}
