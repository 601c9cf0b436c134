package cpu

import (
	"math"
	"math/rand"
	"testing"

	"github.com/tensorsh/tensorsh/backend"
)

// complexSpecials are parts that the vector loops of the parts must
// treat as the complex arithmetic of Go does: signed zeros (-0 + -0 is
// -0, 0 - 0 is +0), infinities (inf - inf is NaN), NaN (unequal to
// itself), the largest finite value (overflow to inf) and subnormals.
var complexSpecials = []float64{0, math.Copysign(0, -1), 1, -1.5, math.Inf(1), math.Inf(-1), math.NaN(),
	math.MaxFloat32, -math.MaxFloat32, 1e-40, 3.4e38, 0.1}

func randComplexParts(rng *rand.Rand) (float64, float64) {
	part := func() float64 {
		if rng.Intn(3) == 0 {
			return complexSpecials[rng.Intn(len(complexSpecials))]
		}
		return rng.NormFloat64() * 100
	}
	return part(), part()
}

// TestComplexPartsKernels checks complex64 and complex128 +, -, unary -, ==
// and != (complexparts.go: the float loops on the parts) against Go's
// complex arithmetic and comparison, bit for bit, at every length to 600
// (past pairsBlock, with every tail of the vector loops) and offsets that
// leave the slices unaligned.
func TestComplexPartsKernels(t *testing.T) {
	rng := rand.New(rand.NewSource(52))
	for _, o := range []backend.Op{backend.OpAdd, backend.OpSub, backend.OpNeg, backend.OpEq, backend.OpNe} {
		k64, k128 := complex64Kernel(o), complex128Kernel(o)
		for n := 0; n <= 600; n += 1 + n/40 {
			off := rng.Intn(3)
			a64, b64 := make([]complex64, n+off+2), make([]complex64, n+off+2)
			a128, b128 := make([]complex128, n+off+2), make([]complex128, n+off+2)
			for i := range a64 {
				re, im := randComplexParts(rng)
				a64[i], a128[i] = complex(float32(re), float32(im)), complex(re, im)
				if rng.Intn(4) == 0 { // equal operands, or equal real parts
					b64[i], b128[i] = a64[i], a128[i]
					if rng.Intn(2) == 0 {
						_, im := randComplexParts(rng)
						b64[i], b128[i] = complex(real(a64[i]), float32(im)), complex(real(a128[i]), im)
					}
					continue
				}
				re, im = randComplexParts(rng)
				b64[i], b128[i] = complex(float32(re), float32(im)), complex(re, im)
			}
			a64, b64, a128, b128 = a64[off:], b64[off:], a128[off:], b128[off:]
			switch o {
			case backend.OpNeg:
				want64, got64 := make([]complex64, n), make([]complex64, n)
				want128, got128 := make([]complex128, n), make([]complex128, n)
				negL(want64, a64)
				negL(want128, a128)
				if err := k64(got64, []any{a64}); err != nil {
					t.Fatal(err)
				}
				if err := k128(got128, []any{a128}); err != nil {
					t.Fatal(err)
				}
				for i := range n {
					if !sameBitsC64(want64[i], got64[i]) || !sameBitsC128(want128[i], got128[i]) {
						t.Fatalf("neg n=%d [%d]: %v %v: got %v %v, want %v %v", n, i, a64[i], a128[i],
							got64[i], got128[i], want64[i], want128[i])
					}
				}
			case backend.OpAdd, backend.OpSub:
				want64, got64 := make([]complex64, n), make([]complex64, n)
				want128, got128 := make([]complex128, n), make([]complex128, n)
				if o == backend.OpAdd {
					addL(want64, a64, b64)
					addL(want128, a128, b128)
				} else {
					subL(want64, a64, b64)
					subL(want128, a128, b128)
				}
				if err := k64(got64, []any{a64, b64}); err != nil {
					t.Fatal(err)
				}
				if err := k128(got128, []any{a128, b128}); err != nil {
					t.Fatal(err)
				}
				for i := range n {
					if !sameBitsC64(want64[i], got64[i]) {
						t.Fatalf("%v complex64 n=%d [%d]: %v %v: got %v, want %v", o, n, i, a64[i], b64[i], got64[i], want64[i])
					}
					if !sameBitsC128(want128[i], got128[i]) {
						t.Fatalf("%v complex128 n=%d [%d]: %v %v: got %v, want %v", o, n, i, a128[i], b128[i], got128[i], want128[i])
					}
				}
			default:
				want64, got64 := make([]bool, n), make([]bool, n)
				want128, got128 := make([]bool, n), make([]bool, n)
				if o == backend.OpEq {
					eqL(want64, a64, b64)
					eqL(want128, a128, b128)
				} else {
					neL(want64, a64, b64)
					neL(want128, a128, b128)
				}
				if err := k64(got64, []any{a64, b64}); err != nil {
					t.Fatal(err)
				}
				if err := k128(got128, []any{a128, b128}); err != nil {
					t.Fatal(err)
				}
				for i := range n {
					if want64[i] != got64[i] || want128[i] != got128[i] {
						t.Fatalf("%v n=%d [%d]: %v %v: got %v %v, want %v %v", o, n, i, a128[i], b128[i],
							got64[i], got128[i], want64[i], want128[i])
					}
				}
			}
		}
	}
}

func sameBitsC64(x, y complex64) bool {
	return math.Float32bits(real(x)) == math.Float32bits(real(y)) && math.Float32bits(imag(x)) == math.Float32bits(imag(y))
}

func sameBitsC128(x, y complex128) bool {
	return math.Float64bits(real(x)) == math.Float64bits(real(y)) && math.Float64bits(imag(x)) == math.Float64bits(imag(y))
}

// BenchmarkComplexParts times complex64 + and != on 4096 values with the
// Go loops ("go": addL, neL) and on the parts ("parts"), in the same run.
func BenchmarkComplexParts(b *testing.B) {
	rng := rand.New(rand.NewSource(1))
	const n = 4096
	x, y, d, m := make([]complex64, n), make([]complex64, n), make([]complex64, n), make([]bool, n)
	for i := range x {
		x[i] = complex(rng.Float32(), rng.Float32())
		y[i] = complex(rng.Float32(), rng.Float32())
	}
	add, ne := complex64Kernel(backend.OpAdd), complex64Kernel(backend.OpNe)
	b.Run("add/go", func(b *testing.B) {
		for range b.N {
			addL(d, x, y)
		}
	})
	b.Run("add/parts", func(b *testing.B) {
		for range b.N {
			_ = add(d, []any{x, y})
		}
	})
	b.Run("ne/go", func(b *testing.B) {
		for range b.N {
			neL(m, x, y)
		}
	})
	b.Run("ne/parts", func(b *testing.B) {
		for range b.N {
			_ = ne(m, []any{x, y})
		}
	})
}
