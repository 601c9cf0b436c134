package cpu

import (
	"math"
	"unsafe"

	"github.com/tensorsh/tensorsh/backend"
)

// fmaT returns a·b + c rounded once to T (IEEE 754 fusedMultiplyAdd): the
// step of a float32 or float64 matrix product's sums (see matmul.go), as
// the VFMADD231PS and VFMADD231PD of gemm_amd64.s compute it.
func fmaT[T float32 | float64](a, b, c T) T {
	if unsafe.Sizeof(a) == 4 {
		return T(fma32(float32(a), float32(b), float32(c)))
	}
	return T(math.FMA(float64(a), float64(b), float64(c)))
}

// fma32 returns a·b + c rounded once to float32. The product of two
// float32 is exact in float64 (48 bits), so s = a·b + c rounded to float64
// is one rounding away from the exact value x, and rounding s to float32
// gives x's float32 rounding unless s fell exactly on a point halfway
// between two float32 values (a halfway point strictly between x and s
// would be nearer x than s: it has 25 bits, so it is a float64). Those
// points, and the results below float32's normal range where the halfway
// points lie elsewhere in the bits, take fma32Halfway.
func fma32(a, b, c float32) float32 {
	s := float64(a)*float64(b) + float64(c)
	if fma32Fast(s) {
		return float32(s)
	}
	return fma32Halfway(a, b, c, s)
}

// fma32Halfway rounds a·b + c (s rounded to float64) to float32 by rounding
// to odd: s is kept where it is exact or its last bit is 1, and replaced
// by its neighbour toward the exact value otherwise; 53 bits are more than
// the 24 + 2 that make rounding that to float32 the exact value's
// rounding (Boldo and Melquiond, "Emulation of FMA and correctly rounded
// sums: proved algorithms using rounding to odd", IEEE Trans. Computers
// 57(4), 2008). The error of s is exact by Knuth's TwoSum.
func fma32Halfway(a, b, c float32, s float64) float32 {
	if math.IsInf(s, 0) || s != s {
		return float32(s)
	}
	p, q := float64(a)*float64(b), float64(c)
	bp := s - p
	e := (p - (s - bp)) + (q - bp)
	if e != 0 && math.Float64bits(s)&1 == 0 {
		s = math.Nextafter(s, math.Copysign(math.Inf(1), e))
	}
	return float32(s)
}

// The loops below are the steps of the Go matrix products (gemmTileGo,
// mmSeq, mvSeq, mvTail), each written for float32 and float64 apart so
// that a step is inline code: fmaT is a call (the compiler does not
// inline it), and as a call per element the Go matrix-vector rows ran
// at a tenth of their former speed. Where the CPU has FMA3 they run in
// assembly (fma_amd64.s): fma32's float64 sum and test take several
// instructions where VFMADD231SS takes one (dot(v, v) of 10^6 float32,
// one chain of steps, 5.2 ms in Go).
//
// Each takes its slices' lengths from d or a; the others must be at
// least as long.

// fmaRow sets d[j] = fma(a, b[j], d[j]) for every j of d.
func fmaRow[T float32 | float64](d, b []T, a T) {
	if fmaRowAsm(d, b, a) {
		return
	}
	if unsafe.Sizeof(a) == 4 {
		fmaRow32(as32(d), as32(b), *(*float32)(unsafe.Pointer(&a)))
		return
	}
	fmaRow64(as64(d), as64(b), *(*float64)(unsafe.Pointer(&a)))
}

// fmaDot returns s carried on with fma(a[p], v[p], ·) for every p of a, in
// order.
func fmaDot[T float32 | float64](s T, a, v []T) T {
	if fmaDotAsm(&s, a, v) {
		return s
	}
	if unsafe.Sizeof(s) == 4 {
		r := fmaDot32(*(*float32)(unsafe.Pointer(&s)), as32(a), as32(v))
		return *(*T)(unsafe.Pointer(&r))
	}
	r := fmaDot64(*(*float64)(unsafe.Pointer(&s)), as64(a), as64(v))
	return *(*T)(unsafe.Pointer(&r))
}

// dotLanes returns the sum of a[p]·v[p] over the p of a in lanes, as
// backend.MatMulPlan.InLanes defines it: lane l carries fma(a[p], v[p], ·)
// for p ≡ l (mod backend.DotLanes) in order of p from zero, and the lanes
// are then added pairwise.
func dotLanes[T float32 | float64](a, v []T) T {
	var s [backend.DotLanes]T
	n := 0
	if fmaLanesAsm(&s, a, v) {
		n = len(a) &^ (backend.DotLanes - 1)
	}
	// The rest starts at lane 0 again: n is a multiple of DotLanes.
	if unsafe.Sizeof(s[0]) == 4 {
		fmaLanes32((*[backend.DotLanes]float32)(unsafe.Pointer(&s)), as32(a[n:]), as32(v[n:]))
	} else {
		fmaLanes64((*[backend.DotLanes]float64)(unsafe.Pointer(&s)), as64(a[n:]), as64(v[n:]))
	}
	for h := backend.DotLanes / 2; h > 0; h /= 2 {
		for l := range h {
			s[l] += s[l+h]
		}
	}
	return s[0]
}

// fmaDot4 is fmaDot of four rows a[0:k], a[lda:lda+k], … against v[:k]
// from zero into s, the four sums interleaved.
func fmaDot4[T float32 | float64](s *[4]T, a []T, lda, k int, v []T) {
	if fmaDot4Asm(s, a, lda, k, v) {
		return
	}
	if unsafe.Sizeof(s[0]) == 4 {
		fmaDot4x32((*[4]float32)(unsafe.Pointer(s)), as32(a), lda, k, as32(v))
		return
	}
	fmaDot4x64((*[4]float64)(unsafe.Pointer(s)), as64(a), lda, k, as64(v))
}

func as32[T float32 | float64](s []T) []float32 {
	return unsafe.Slice((*float32)(unsafe.Pointer(unsafe.SliceData(s))), len(s))
}

func as64[T float32 | float64](s []T) []float64 {
	return unsafe.Slice((*float64)(unsafe.Pointer(unsafe.SliceData(s))), len(s))
}

// fma32Fast reports whether s, a·b + c rounded to float64 for float32 a,
// b and c, rounds to float32 as a·b + c does (see fma32).
func fma32Fast(s float64) bool {
	bits := math.Float64bits(s)
	return bits&(1<<29-1) != 1<<28 && bits&(1<<63-1) >= 0x3810000000000000
}

func fmaRow32(d, b []float32, a float32) {
	b = b[:len(d)]
	for j, bv := range b {
		c := d[j]
		if s := float64(a)*float64(bv) + float64(c); fma32Fast(s) {
			d[j] = float32(s)
		} else {
			d[j] = fma32Halfway(a, bv, c, s)
		}
	}
}

func fmaRow64(d, b []float64, a float64) {
	b = b[:len(d)]
	for j, bv := range b {
		d[j] = math.FMA(a, bv, d[j])
	}
}

func fmaDot32(s float32, a, v []float32) float32 {
	v = v[:len(a)]
	for p, x := range a {
		if t := float64(x)*float64(v[p]) + float64(s); fma32Fast(t) {
			s = float32(t)
		} else {
			s = fma32Halfway(x, v[p], s, t)
		}
	}
	return s
}

func fmaDot64(s float64, a, v []float64) float64 {
	v = v[:len(a)]
	for p, x := range a {
		s = math.FMA(x, v[p], s)
	}
	return s
}

func fmaDot4x32(s *[4]float32, a []float32, lda, k int, v []float32) {
	a0, a1, a2, a3 := a[:k], a[lda:lda+k], a[2*lda:2*lda+k], a[3*lda:3*lda+k]
	var s0, s1, s2, s3 float32
	for p, x := range v[:k] {
		t0 := float64(a0[p])*float64(x) + float64(s0)
		t1 := float64(a1[p])*float64(x) + float64(s1)
		t2 := float64(a2[p])*float64(x) + float64(s2)
		t3 := float64(a3[p])*float64(x) + float64(s3)
		if fma32Fast(t0) && fma32Fast(t1) && fma32Fast(t2) && fma32Fast(t3) {
			s0, s1, s2, s3 = float32(t0), float32(t1), float32(t2), float32(t3)
			continue
		}
		// fma32Halfway rounds any sum right, halfway or not.
		s0 = fma32Halfway(a0[p], x, s0, t0)
		s1 = fma32Halfway(a1[p], x, s1, t1)
		s2 = fma32Halfway(a2[p], x, s2, t2)
		s3 = fma32Halfway(a3[p], x, s3, t3)
	}
	*s = [4]float32{s0, s1, s2, s3}
}

func fmaDot4x64(s *[4]float64, a []float64, lda, k int, v []float64) {
	a0, a1, a2, a3 := a[:k], a[lda:lda+k], a[2*lda:2*lda+k], a[3*lda:3*lda+k]
	var s0, s1, s2, s3 float64
	for p, x := range v[:k] {
		s0 = math.FMA(a0[p], x, s0)
		s1 = math.FMA(a1[p], x, s1)
		s2 = math.FMA(a2[p], x, s2)
		s3 = math.FMA(a3[p], x, s3)
	}
	*s = [4]float64{s0, s1, s2, s3}
}

func fmaLanes32(s *[backend.DotLanes]float32, a, v []float32) {
	v = v[:len(a)]
	for p, x := range a {
		l := p % backend.DotLanes
		if t := float64(x)*float64(v[p]) + float64(s[l]); fma32Fast(t) {
			s[l] = float32(t)
		} else {
			s[l] = fma32Halfway(x, v[p], s[l], t)
		}
	}
}

func fmaLanes64(s *[backend.DotLanes]float64, a, v []float64) {
	v = v[:len(a)]
	for p, x := range a {
		l := p % backend.DotLanes
		s[l] = math.FMA(x, v[p], s[l])
	}
}
