//go:build amd64 && !purego

package cpu

import "unsafe"

//go:noescape
func even1AVX2(d, s unsafe.Pointer, n int)

//go:noescape
func even2AVX2(d, s unsafe.Pointer, n int)

//go:noescape
func even4AVX2(d, s unsafe.Pointer, n int)

//go:noescape
func even8AVX2(d, s unsafe.Pointer, n int)

// copyEven sets dst[i] = src[pos+2i] for the first elements of dst, as
// many as the vector loops store whole (the rest is left to the caller),
// and returns how many it set. It reads no element of src past
// src[pos+2(len(dst)-1)].
func copyEven[T any](dst, src []T, pos int) int {
	if !haveAVX2 || len(dst) == 0 {
		return 0
	}
	size := int(unsafe.Sizeof(dst[0]))
	if size != 1 && size != 2 && size != 4 && size != 8 {
		return 0
	}
	// A whole iteration reads 64 bytes of src: 32/size elements of dst
	// from 64/size of src. The loops must not read past the last
	// element needed, src[pos+2(len(dst)-1)], so they stop one
	// iteration short of the end when the last would.
	per := 32 / size
	n := (len(dst) - 1) / per * per
	if n == 0 {
		return 0
	}
	_ = src[pos+2*n-1] // the last element the loops read
	d, s := unsafe.Pointer(&dst[0]), unsafe.Pointer(&src[pos])
	switch size {
	case 1:
		even1AVX2(d, s, n)
	case 2:
		even2AVX2(d, s, n)
	case 4:
		even4AVX2(d, s, n)
	case 8:
		even8AVX2(d, s, n)
	}
	return n
}
