package cpu

import (
	"math/rand/v2"
	"testing"
)

// TestCopyEven checks copySeg with a step of 2 (the vector loops of
// copyEven, then the scalar rest) against element-by-element copies, for
// elements of 1, 2, 4, 8 and 16 bytes, every length up to 300 and
// starting positions that end the source right at the last element read.
func TestCopyEven(t *testing.T) {
	checkCopyEven(t, func(i int) int8 { return int8(i*7 + 3) })
	checkCopyEven(t, func(i int) uint16 { return uint16(i*7919 + 1) })
	checkCopyEven(t, func(i int) float32 { return float32(i) + 0.5 })
	checkCopyEven(t, func(i int) int64 { return int64(i)*1e12 - 7 })
	checkCopyEven(t, func(i int) complex128 { return complex(float64(i), -float64(i)) })
}

func checkCopyEven[T comparable](t *testing.T, val func(int) T) {
	t.Helper()
	r := rand.New(rand.NewPCG(11, 12))
	for n := range 300 {
		pos := r.IntN(5)
		src := make([]T, pos+2*n-1+1) // ends at the last element read (n > 0)
		if n == 0 {
			src = make([]T, pos)
		}
		for i := range src {
			src[i] = val(i)
		}
		dst := make([]T, n+1)
		var zero T
		copySeg(dst[:n], src, pos, 2)
		for i := range n {
			if dst[i] != src[pos+2*i] {
				t.Fatalf("%T n=%d pos=%d: dst[%d] = %v, want %v", src, n, pos, i, dst[i], src[pos+2*i])
			}
		}
		if dst[n] != zero {
			t.Fatalf("%T n=%d: wrote past the end", src, n)
		}
	}
}
