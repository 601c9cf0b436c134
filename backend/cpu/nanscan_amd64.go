//go:build amd64 && !purego

package cpu

// anyNaNF32AVX2 reports whether one of the first len(a) - len(a)%32
// elements of a is NaN (nanscan_amd64.s).
//
//go:noescape
func anyNaNF32AVX2(a []float32) bool

// hasNaN32 reports whether some element of a is NaN: thirty-two at a
// step with AVX2 (VCMPPS unordered, ORed), the rest by hasNaN32Go.
func hasNaN32(a []float32) bool {
	n := 0
	if haveAVX2 {
		n = len(a) &^ 31
		if n > 0 && anyNaNF32AVX2(a[:n]) {
			return true
		}
	}
	return hasNaN32Go(a[n:])
}
