//go:build amd64 && !purego

package cpu

import "testing"

// testGemmKernels tests the AVX2 kernels also where AVX-512 is chosen.
func testGemmKernels(t *testing.T) {
	if !haveAVX2 {
		return
	}
	testGemmKernel(t, "gemmF32AVX2", gemmKernel[float32]{mr: 6, nr: 16, kc: 256, tile: gemmAsm(6, 16, gemmF32AVX2)})
	testGemmKernel(t, "gemmF64AVX2", gemmKernel[float64]{mr: 6, nr: 8, kc: 256, tile: gemmAsm(6, 8, gemmF64AVX2)})
	testVMKernel(t, "vmF32AVX2", vmKernel[float32]{w: 64, f: vmAsm(64, vmF32AVX2)})
	testVMKernel(t, "vmF64AVX2", vmKernel[float64]{w: 32, f: vmAsm(32, vmF64AVX2)})
	t.Logf("AVX-512: %v", haveAVX512)
}
