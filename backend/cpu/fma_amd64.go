//go:build amd64 && !purego

package cpu

import "unsafe"

//go:noescape
func fmaDot4F32(s *[4]float32, a *float32, lda int, k int, v *float32)

//go:noescape
func fmaDot4F64(s *[4]float64, a *float64, lda int, k int, v *float64)

// fmaDot4Asm is fmaDot4x32 or fmaDot4x64 in assembly where the CPU has
// FMA3 (haveAVX2 asks for it), and reports whether it ran.
func fmaDot4Asm[T float32 | float64](s *[4]T, a []T, lda, k int, v []T) bool {
	if !haveAVX2 || k == 0 {
		return false
	}
	_ = a[3*lda+k-1]
	_ = v[k-1]
	if unsafe.Sizeof(s[0]) == 4 {
		fmaDot4F32((*[4]float32)(unsafe.Pointer(s)), (*float32)(unsafe.Pointer(unsafe.SliceData(a))), lda, k, (*float32)(unsafe.Pointer(unsafe.SliceData(v))))
	} else {
		fmaDot4F64((*[4]float64)(unsafe.Pointer(s)), (*float64)(unsafe.Pointer(unsafe.SliceData(a))), lda, k, (*float64)(unsafe.Pointer(unsafe.SliceData(v))))
	}
	return true
}
