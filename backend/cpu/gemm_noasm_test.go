//go:build !amd64 || purego

package cpu

import "testing"

func testGemmKernels(t *testing.T) {}
