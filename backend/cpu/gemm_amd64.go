//go:build amd64 && !purego

package cpu

import "unsafe"

// haveAVX512 reports whether the CPU (and the OS) support AVX-512F.
var haveAVX512 = cpuHasAVX512()

func cpuHasAVX512() bool

// The micro-kernels of gemm_amd64.s (gen_gemm.go).

//go:noescape
func gemmF32AVX2(k int, a *float32, ra, pa int, b *float32, pb int, c *float32, ldc int, load int)

//go:noescape
func gemmF64AVX2(k int, a *float64, ra, pa int, b *float64, pb int, c *float64, ldc int, load int)

//go:noescape
func gemmF32AVX512(k int, a *float32, ra, pa int, b *float32, pb int, c *float32, ldc int, load int)

//go:noescape
func gemmF64AVX512(k int, a *float64, ra, pa int, b *float64, pb int, c *float64, ldc int, load int)

// The AVX-512 kernels' tiles of 4 and 8 rows (gemmKernel.edge).

//go:noescape
func gemmF32AVX512R4(k int, a *float32, ra, pa int, b *float32, pb int, c *float32, ldc int, load int)

//go:noescape
func gemmF32AVX512R8(k int, a *float32, ra, pa int, b *float32, pb int, c *float32, ldc int, load int)

//go:noescape
func gemmF64AVX512R4(k int, a *float64, ra, pa int, b *float64, pb int, c *float64, ldc int, load int)

//go:noescape
func gemmF64AVX512R8(k int, a *float64, ra, pa int, b *float64, pb int, c *float64, ldc int, load int)

// gemmAsm wraps an assembly kernel of mr×nr: it checks the extent of the
// slices, which the assembly does not.
func gemmAsm[T float32 | float64](mr, nr int, f func(k int, a *T, ra, pa int, b *T, pb int, c *T, ldc int, load int)) gemmTile[T] {
	return func(k int, a []T, ra, pa int, b []T, pb int, c []T, ldc int, load bool) {
		if k > 0 {
			_ = a[(mr-1)*ra+(k-1)*pa]
			_ = b[(k-1)*pb+nr-1]
		}
		_ = c[(mr-1)*ldc+nr-1]
		l := 0
		if load {
			l = 1
		}
		f(k, unsafe.SliceData(a), ra, pa, unsafe.SliceData(b), pb, unsafe.SliceData(c), ldc, l)
	}
}

func gemmKernelF32() gemmKernel[float32] {
	switch {
	case haveAVX512:
		// kc = 512 rather than 256 (half as many passes over C): 6–10%
		// more multiply-adds per CPU second at 1000×1000 and 2000×2000
		// (BenchmarkGemmBlocking), float32 and float64 alike.
		return gemmKernel[float32]{mr: 12, nr: 32, kc: 512, tile: gemmAsm(12, 32, gemmF32AVX512),
			edge: []gemmTile[float32]{gemmAsm(4, 32, gemmF32AVX512R4), gemmAsm(8, 32, gemmF32AVX512R8)}}
	case haveAVX2:
		return gemmKernel[float32]{mr: 6, nr: 16, kc: 256, tile: gemmAsm(6, 16, gemmF32AVX2)}
	}
	return gemmKernel[float32]{mr: 4, nr: 8, kc: 256, tile: gemmTileGo[float32](4, 8)}
}

func gemmKernelF64() gemmKernel[float64] {
	switch {
	case haveAVX512:
		return gemmKernel[float64]{mr: 12, nr: 16, kc: 512, tile: gemmAsm(12, 16, gemmF64AVX512),
			edge: []gemmTile[float64]{gemmAsm(4, 16, gemmF64AVX512R4), gemmAsm(8, 16, gemmF64AVX512R8)}}
	case haveAVX2:
		return gemmKernel[float64]{mr: 6, nr: 8, kc: 256, tile: gemmAsm(6, 8, gemmF64AVX2)}
	}
	return gemmKernel[float64]{mr: 4, nr: 8, kc: 256, tile: gemmTileGo[float64](4, 8)}
}

//go:noescape
func vmF32AVX2(k int, x, b *float32, ldb int, y *float32)

//go:noescape
func vmF64AVX2(k int, x, b *float64, ldb int, y *float64)

//go:noescape
func vmF32AVX512(k int, x, b *float32, ldb int, y *float32)

//go:noescape
func vmF64AVX512(k int, x, b *float64, ldb int, y *float64)

// vmAsm wraps an assembly vector-matrix kernel of w columns.
func vmAsm[T float32 | float64](w int, f func(k int, x, b *T, ldb int, y *T)) func(k int, x, b []T, ldb int, y []T) {
	return func(k int, x, b []T, ldb int, y []T) {
		_ = x[k-1]
		_ = b[(k-1)*ldb+w-1]
		_ = y[w-1]
		f(k, unsafe.SliceData(x), unsafe.SliceData(b), ldb, unsafe.SliceData(y))
	}
}

func vmKernelF32() vmKernel[float32] {
	switch {
	case haveAVX512:
		return vmKernel[float32]{w: 128, f: vmAsm(128, vmF32AVX512)}
	case haveAVX2:
		return vmKernel[float32]{w: 64, f: vmAsm(64, vmF32AVX2)}
	}
	return vmKernel[float32]{}
}

func vmKernelF64() vmKernel[float64] {
	switch {
	case haveAVX512:
		return vmKernel[float64]{w: 64, f: vmAsm(64, vmF64AVX512)}
	case haveAVX2:
		return vmKernel[float64]{w: 32, f: vmAsm(32, vmF64AVX2)}
	}
	return vmKernel[float64]{}
}

//go:noescape
func mvF32AVX512(k int, a *float32, lda int, x, y *float32)

//go:noescape
func mvF64AVX512(k int, a *float64, lda int, x, y *float64)

// mvAsm wraps an assembly matrix-vector kernel of the given rows (k a
// multiple of its block).
func mvAsm[T float32 | float64](rows int, f func(k int, a *T, lda int, x, y *T)) func(k int, a []T, lda int, x, y []T) {
	return func(k int, a []T, lda int, x, y []T) {
		_ = a[(rows-1)*lda+k-1]
		_ = x[k-1]
		_ = y[rows-1]
		f(k, unsafe.SliceData(a), lda, unsafe.SliceData(x), unsafe.SliceData(y))
	}
}

func mvKernelF32() mvKernel[float32] {
	if haveAVX512 {
		return mvKernel[float32]{rows: 32, block: 16, f: mvAsm(32, mvF32AVX512)}
	}
	return mvKernel[float32]{}
}

func mvKernelF64() mvKernel[float64] {
	if haveAVX512 {
		return mvKernel[float64]{rows: 32, block: 8, f: mvAsm(32, mvF64AVX512)}
	}
	return mvKernel[float64]{}
}
