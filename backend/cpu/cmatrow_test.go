package cpu

import (
	"math"
	"math/rand"
	"testing"
)

// mmComplexRef is mmComplex's Go loop alone: NumPy's complex matmul
// without BLAS (numpy/_core/src/umath/matmul.c.src, the noblas inner
// loop: products summed in order of p), each product as cmulParts.
func mmComplexRef(d, a, b []complex128, k, cols int) {
	acc := make([]complex128, cols)
	for p := range k {
		av := a[p]
		for j, bv := range b[p*cols : (p+1)*cols] {
			acc[j] += complex(cmulParts(real(av), imag(av), real(bv), imag(bv)))
		}
	}
	copy(d, acc)
}

// TestComplexMatMulRow checks mmComplex on complex128 (cmatRow's kernel
// where the CPU has one) against mmComplexRef bit for bit: every k to 9
// and cols to 9 (pairs and the odd last number), longer rows, values of
// mixed magnitudes where the rounding of each product shows, and rows
// with infinities and NaNs (where a NaN part need only be NaN: the Go loop
// itself leaves its payload to the compiler's order of operands).
func TestComplexMatMulRow(t *testing.T) {
	rng := rand.New(rand.NewSource(41))
	v := func(special bool) float64 {
		if special {
			switch rng.Intn(12) {
			case 0:
				return math.Inf(1 - 2*rng.Intn(2))
			case 1:
				return math.Float64frombits(0x7FF8000000000000 | rng.Uint64()&0xFFFF)
			}
		}
		return math.Ldexp(rng.NormFloat64(), rng.Intn(50)-25)
	}
	type shape struct{ k, cols int }
	var shapes []shape
	for k := 1; k <= 9; k++ {
		for cols := 1; cols <= 9; cols++ {
			shapes = append(shapes, shape{k, cols})
		}
	}
	shapes = append(shapes, shape{1000, 10}, shape{37, 301}, shape{300, 64})
	for _, special := range []bool{false, true} {
		for _, s := range shapes {
			a, b := make([]complex128, s.k), make([]complex128, s.k*s.cols)
			for i := range a {
				a[i] = complex(v(special), v(special))
			}
			for i := range b {
				b[i] = complex(v(special), v(special))
			}
			got, want := make([]complex128, s.cols), make([]complex128, s.cols)
			mmComplex(got, a, b, s.k, s.cols)
			mmComplexRef(want, a, b, s.k, s.cols)
			same := func(x, y float64) bool { return math.Float64bits(x) == math.Float64bits(y) || x != x && y != y }
			for j := range got {
				if !same(real(got[j]), real(want[j])) || !same(imag(got[j]), imag(want[j])) {
					t.Fatalf("k %d cols %d special %v: [%d] = %v, want %v", s.k, s.cols, special, j, got[j], want[j])
				}
			}
		}
	}
}
