package cpu

import "math"

// fmaT returns a·b + c rounded once to T (IEEE 754 fusedMultiplyAdd): the
// step of a float32 or float64 matrix product's sums (see matmul.go), as
// the VFMADD231PS and VFMADD231PD of gemm_amd64.s compute it.
func fmaT[T float32 | float64](a, b, c T) T {
	if x, ok := any(a).(float32); ok {
		return T(fma32(x, float32(b), float32(c)))
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
	if bits := math.Float64bits(s); bits&(1<<29-1) != 1<<28 && bits&(1<<63-1) >= 0x3810000000000000 {
		return float32(s)
	}
	return fma32Halfway(float64(a)*float64(b), float64(c), s)
}

// fma32Halfway rounds p + c (s rounded to float64) to float32 by rounding
// to odd: s is kept where it is exact or its last bit is 1, and replaced
// by its neighbour toward the exact value otherwise; 53 bits are more than
// the 24 + 2 that make rounding that to float32 the exact value's
// rounding (Boldo and Melquiond, "Emulation of FMA and correctly rounded
// sums: proved algorithms using rounding to odd", IEEE Trans. Computers
// 57(4), 2008). The error of s is exact by Knuth's TwoSum.
func fma32Halfway(p, c, s float64) float32 {
	if math.IsInf(s, 0) || s != s {
		return float32(s)
	}
	bp := s - p
	e := (p - (s - bp)) + (c - bp)
	if e != 0 && math.Float64bits(s)&1 == 0 {
		s = math.Nextafter(s, math.Copysign(math.Inf(1), e))
	}
	return float32(s)
}
