//go:build amd64 && !purego

package cpu

import "unsafe"

//go:noescape
func floorDivConstI32AVX512(d, a unsafe.Pointer, n int, c *[3]float64)

// floorDivConstI32 returns the loop of the int32 floor division by the
// constant c (not 0) with AVX-512, whose multiply by 1/|c| and exact
// correction (intdivconst_amd64.s) take half the time of the float
// division of the general loop (intdiv.go): NumPy divides by a scalar
// the same way (libdivide). ref does the last elements. It returns nil
// without AVX-512 and for c = 0.
func floorDivConstI32(c int32, ref func(d, a, b []int32) error) func(d, a, b []int32) error {
	if !haveAVX512DQVL || c == 0 {
		return nil
	}
	s, m := 1.0, float64(c)
	if c < 0 {
		s, m = -1, -m
	}
	k := &[3]float64{s, m, 1 / m}
	return func(d, a, b []int32) error {
		n := len(d) &^ 7
		if n > 0 {
			floorDivConstI32AVX512(unsafe.Pointer(&d[0]), unsafe.Pointer(&a[:n][0]), n, k)
		}
		return ref(d[n:], a[n:len(d)], b[n:len(d)])
	}
}
