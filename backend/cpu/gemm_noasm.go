//go:build !amd64 || purego

package cpu

func gemmKernelF32() gemmKernel[float32] {
	return gemmKernel[float32]{mr: 4, nr: 8, kc: 256, tile: gemmTileGo[float32](4, 8)}
}

func gemmKernelF64() gemmKernel[float64] {
	return gemmKernel[float64]{mr: 4, nr: 8, kc: 256, tile: gemmTileGo[float64](4, 8)}
}

func vmKernelF32() vmKernel[float32] { return vmKernel[float32]{} }

func vmKernelF64() vmKernel[float64] { return vmKernel[float64]{} }

func mvKernelF32() mvKernel[float32] { return mvKernel[float32]{} }

func mvKernelF64() mvKernel[float64] { return mvKernel[float64]{} }
