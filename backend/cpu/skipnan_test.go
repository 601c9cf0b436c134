package cpu_test

import (
	"testing"

	"github.com/tensorsh/tensorsh/backend/conformance"
	"github.com/tensorsh/tensorsh/backend/cpu"
)

// TestSkipNaN checks the CPU's own maxima and minima that skip NaNs (the
// rows, fold and column kernels of reduceSkipNaN) against the plain
// operations of backend.LowerSkipNaN, bit for bit.
func TestSkipNaN(t *testing.T) {
	conformance.SkipNaN(t, cpu.New())
}
