//go:build amd64 && !purego

package cpu

import (
	"math/bits"
	"unsafe"
)

//go:generate go run gen_intdivconst.go

//go:noescape
func floorDivConstI8AVX512(d, a unsafe.Pointer, n int, c *[6]uint16)

//go:noescape
func floorDivConstU8AVX512(d, a unsafe.Pointer, n int, c *[6]uint16)

//go:noescape
func floorDivConstI16AVX512(d, a unsafe.Pointer, n int, c *[6]uint16)

//go:noescape
func floorDivConstU16AVX512(d, a unsafe.Pointer, n int, c *[6]uint16)

//go:noescape
func floorDivConstI32AVX512(d, a unsafe.Pointer, n int, c *[3]float64)

//go:noescape
func floorDivConstU32AVX512(d, a unsafe.Pointer, n int, c *[3]float64)

// floorDivConst returns the loop of the floor division of T (8, 16 or 32
// bits) by the constant c (not 0) with AVX-512 (gen_intdivconst.go): a
// multiply-high and a shift for int8, uint8 and int16 (with AVX-512BW),
// a multiply by 1/|c| and an exact correction for uint16 and 32 bits;
// NumPy divides by a scalar the same way (libdivide). Either takes the
// place of the general loop's division (intdiv.go): int32 // 7 took half
// its time. ref does the last elements. It returns nil without the
// instructions, for c = 0, for the integer loops' c = ±1 (the general loop
// divides) and for 64 bits (whose general loop is ahead of NumPy's).
func floorDivConst[T integer](c T, ref func(d, a, b []T) error) func(d, a, b []T) error {
	if !haveAVX512DQVL || c == 0 {
		return nil
	}
	var (
		kw  func(d, a unsafe.Pointer, n int, c *[6]uint16)
		k64 func(d, a unsafe.Pointer, n int, c *[3]float64)
	)
	switch any(c).(type) {
	case int8:
		kw = floorDivConstI8AVX512
	case uint8:
		kw = floorDivConstU8AVX512
	case int16:
		kw = floorDivConstI16AVX512
	case uint16:
		kw = floorDivConstU16AVX512
	case int32:
		k64 = floorDivConstI32AVX512
	case uint32:
		k64 = floorDivConstU32AVX512
	default:
		return nil
	}
	step := 8
	var cw *[6]uint16
	if kw != nil {
		if !haveAVX512BW || c == 1 || c+1 == 0 {
			return nil
		}
		cw, step = wordDivisor(int(c), ^T(0) > 0 && unsafe.Sizeof(c) == 2), 32
	}
	s, m := 1.0, float64(c)
	if c < 0 {
		s, m = -1, -m
	}
	c64 := &[3]float64{s, m, 1 / m}
	return func(d, a, b []T) error {
		n := len(d) &^ (step - 1)
		if n > 0 {
			dp, ap := unsafe.Pointer(&d[0]), unsafe.Pointer(&a[:n][0])
			switch {
			case kw != nil:
				kw(dp, ap, n, cw)
			default:
				k64(dp, ap, n, c64)
			}
		}
		return ref(d[n:], a[n:len(d)], b[n:len(d)])
	}
}

// wordDivisor returns the constants of the integer loops for the divisor
// b (|b| >= 2, of 16 bits or fewer; see gen_intdivconst.go): 1 and 0xFFFF
// for b < 0, M = ceil(2^(15+l)/e) (wide, for uint16: ceil(2^(16+l)/e) -
// 2^16) and l - 1 for e = |b| and l = ceil(log2 e), and int16's minimum
// with its quotient int16(floor(-32768/b)), which the loops put in place
// of their own for a lane holding 0x8000: for uint16, 32768's quotient
// (the loop's own); an 8-bit lane never holds it.
func wordDivisor(b int, wide bool) *[6]uint16 {
	e := b
	var sub, flip uint16
	if b < 0 {
		e, sub, flip = -b, 1, 0xFFFF
	}
	l := bits.Len(uint(e - 1)) // ceil(log2 e), e >= 2
	k := 15 + l
	if wide {
		k++
	}
	mag := (1<<k + e - 1) / e // below 2^17
	q := -32768 / b
	if -32768%b != 0 && b > 0 { // Go truncates; floor for -32768 / b > 0
		q--
	}
	if wide {
		q = 32768 / b
	}
	return &[6]uint16{sub, flip, uint16(mag), uint16(l - 1), 0x8000, uint16(int16(q))}
}
