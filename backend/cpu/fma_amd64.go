//go:build amd64 && !purego

package cpu

import (
	"unsafe"

	"github.com/tensorsh/tensorsh/backend"
)

//go:generate go run gen_fma.go

// The loops of fma.go in assembly (fma_amd64.s, written by gen_fma.go)
// where the CPU has FMA3 (haveAVX2 asks for it): VFMADD231SS/SD/PS/PD are
// the fused step fmaT defines. Each wrapper reports whether it ran.

//go:noescape
func fmaDot4F32(s *[4]float32, a *float32, lda int, k int, v *float32)

//go:noescape
func fmaDot4F64(s *[4]float64, a *float64, lda int, k int, v *float64)

//go:noescape
func fmaDotF32(s float32, a, v *float32, n int) float32

//go:noescape
func fmaDotF64(s float64, a, v *float64, n int) float64

//go:noescape
func fmaLanesF32(s *[backend.DotLanes]float32, a, v *float32, n int)

//go:noescape
func fmaLanesF64(s *[backend.DotLanes]float64, a, v *float64, n int)

//go:noescape
func fmaRowF32(d, b *float32, n int, a float32)

//go:noescape
func fmaRowF64(d, b *float64, n int, a float64)

func fmaDot4Asm[T float32 | float64](s *[4]T, a []T, lda, k int, v []T) bool {
	if !haveAVX2 || k == 0 {
		return false
	}
	_ = a[3*lda+k-1]
	_ = v[k-1]
	if unsafe.Sizeof(s[0]) == 4 {
		fmaDot4F32((*[4]float32)(unsafe.Pointer(s)), &as32(a)[0], lda, k, &as32(v)[0])
	} else {
		fmaDot4F64((*[4]float64)(unsafe.Pointer(s)), &as64(a)[0], lda, k, &as64(v)[0])
	}
	return true
}

func fmaDotAsm[T float32 | float64](s *T, a, v []T) bool {
	if !haveAVX2 || len(a) == 0 {
		return false
	}
	_ = v[len(a)-1]
	if unsafe.Sizeof(*s) == 4 {
		p := (*float32)(unsafe.Pointer(s))
		*p = fmaDotF32(*p, &as32(a)[0], &as32(v)[0], len(a))
	} else {
		p := (*float64)(unsafe.Pointer(s))
		*p = fmaDotF64(*p, &as64(a)[0], &as64(v)[0], len(a))
	}
	return true
}

func fmaRowAsm[T float32 | float64](d, b []T, a T) bool {
	if !haveAVX2 || len(d) == 0 {
		return false
	}
	_ = b[len(d)-1]
	if unsafe.Sizeof(a) == 4 {
		fmaRowF32(&as32(d)[0], &as32(b)[0], len(d), *(*float32)(unsafe.Pointer(&a)))
	} else {
		fmaRowF64(&as64(d)[0], &as64(b)[0], len(d), *(*float64)(unsafe.Pointer(&a)))
	}
	return true
}

// fmaLanesAsm runs fmaLanes on the whole groups of 32 of a.
func fmaLanesAsm[T float32 | float64](s *[backend.DotLanes]T, a, v []T) bool {
	n := len(a) &^ (backend.DotLanes - 1)
	if !haveAVX2 || n == 0 {
		return false
	}
	_ = v[n-1]
	if unsafe.Sizeof(s[0]) == 4 {
		fmaLanesF32((*[backend.DotLanes]float32)(unsafe.Pointer(s)), &as32(a)[0], &as32(v)[0], n)
	} else {
		fmaLanesF64((*[backend.DotLanes]float64)(unsafe.Pointer(s)), &as64(a)[0], &as64(v)[0], n)
	}
	return true
}
