//go:build !amd64 || purego

package cpu

func patchArgs[T float](t, x []T, at []int32, below, above []byte, a []T, b *patchBounds[T]) int {
	return patchArgsGo(t, x, at, below, above, a, b, 0, 0)
}

func patchConst[T float](d []T, m []byte, v T) { patchConstGo(d, m, v, 0) }
