package conformance

import (
	"testing"

	"github.com/tensorsh/tensorsh/backend/cpu"
)

// TestCPU runs the suite on the CPU backend itself (with a different
// worker count, so that it checks that results do not depend on the
// parallel split).
func TestCPU(t *testing.T) {
	Run(t, cpu.New(cpu.Workers(3)))
}
