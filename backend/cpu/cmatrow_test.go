package cpu

import (
	"math"
	"math/rand"
	"testing"

	"github.com/tensorsh/tensorsh/dtypes"
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

// TestComplexMatVec checks complex128 matrix-vector products (cmvRun's
// rows in pairs, cmvPair) through the backend against mmComplexRef row
// by row: odd and even row counts, a batch of matrices with one vector
// (rows of the batch's matrices pair only within a matrix), k from 1,
// and infinities and NaNs (a NaN part need only be NaN).
func TestComplexMatVec(t *testing.T) {
	rng := rand.New(rand.NewSource(42))
	same := func(x, y float64) bool { return math.Float64bits(x) == math.Float64bits(y) || x != x && y != y }
	for _, c := range []struct{ batch, rows, k int }{{1, 1, 1}, {1, 2, 3}, {1, 3, 7}, {1, 7, 64}, {1, 300, 301}, {3, 5, 9}, {2, 1000, 10}} {
		for _, special := range []bool{false, true} {
			a, v := make([]complex128, c.batch*c.rows*c.k), make([]complex128, c.k)
			f := func() float64 {
				if special && rng.Intn(30) == 0 {
					return []float64{math.Inf(1), math.Inf(-1), math.NaN()}[rng.Intn(3)]
				}
				return math.Ldexp(rng.NormFloat64(), rng.Intn(40)-20)
			}
			for i := range a {
				a[i] = complex(f(), f())
			}
			for i := range v {
				v[i] = complex(f(), f())
			}
			shape, out := []int{c.rows, c.k}, []int{c.rows}
			if c.batch > 1 {
				shape, out = []int{c.batch, c.rows, c.k}, []int{c.batch, c.rows}
			}
			got := run(t, mm(in(raw(dtypes.C128, shape, a)), in(raw(dtypes.C128, []int{c.k}, v)), out)).Data.([]complex128)
			for r := range c.batch * c.rows {
				var want [1]complex128
				mmComplexRef(want[:], a[r*c.k:(r+1)*c.k], v, c.k, 1)
				if !same(real(got[r]), real(want[0])) || !same(imag(got[r]), imag(want[0])) {
					t.Fatalf("%+v special %v: row %d = %v, want %v", c, special, r, got[r], want[0])
				}
			}
		}
	}
}

// TestComplex64MatMul checks complex64 products (widened to complex128
// once, complex128's kernels, each sum rounded to complex64) against
// mmComplex's Go loop on complex64, which widens each operand as it goes:
// matrix-vector and matrix-matrix, with a batch.
func TestComplex64MatMul(t *testing.T) {
	rng := rand.New(rand.NewSource(43))
	for _, c := range []struct{ batch, rows, k, cols int }{{1, 3, 7, 1}, {1, 30, 41, 1}, {3, 5, 9, 1}, {1, 9, 13, 5}, {2, 17, 33, 8}} {
		a, b := make([]complex64, c.batch*c.rows*c.k), make([]complex64, c.batch*c.k*c.cols)
		for i := range a {
			a[i] = complex(float32(rng.NormFloat64()), float32(rng.NormFloat64()))
		}
		for i := range b {
			b[i] = complex(float32(rng.NormFloat64()), float32(rng.NormFloat64()))
		}
		as, bs, out := []int{c.batch, c.rows, c.k}, []int{c.batch, c.k, c.cols}, []int{c.batch, c.rows, c.cols}
		if c.cols == 1 {
			bs, out = []int{c.k}, []int{c.batch, c.rows}
			b = b[:c.k]
		}
		got := run(t, mm(in(raw(dtypes.C64, as, a)), in(raw(dtypes.C64, bs, b)), out)).Data.([]complex64)
		for bi := range c.batch {
			bb := b
			if c.cols > 1 {
				bb = b[bi*c.k*c.cols : (bi+1)*c.k*c.cols]
			}
			for i := range c.rows {
				want := make([]complex64, c.cols)
				mmComplex(want, a[(bi*c.rows+i)*c.k:(bi*c.rows+i+1)*c.k], bb, c.k, c.cols)
				for j, w := range want {
					if g := got[(bi*c.rows+i)*c.cols+j]; g != w {
						t.Fatalf("%+v: [%d, %d, %d] = %v, want %v", c, bi, i, j, g, w)
					}
				}
			}
		}
	}
}
