//go:build amd64 && !purego

package cpu

import (
	"testing"

	"github.com/tensorsh/tensorsh/backend"
)

// TestFloorDivConstUsed checks that with AVX-512 the int32 floor division
// by a constant has its loop (TestFloorDivConst compares its results).
func TestFloorDivConstUsed(t *testing.T) {
	if !haveAVX512DQVL {
		t.Skip("no AVX-512")
	}
	if floorDivConst[int32](7, intDivL[int32](true, false, backend.IntDivZero)) == nil {
		t.Fatal("no constant-divisor loop with AVX-512")
	}
}
