package cpu

import (
	"math"
	"math/big"
	"math/rand"
	"testing"
	"unsafe"
)

// fma32Exact is a·b + c rounded once to float32, through math/big: the
// product and sum exactly (float32 values need at most 24 bits and
// exponents within ±300), then one rounding to nearest even at 24 bits,
// below 2^-126 on float32's subnormal grid, and to ±Inf from halfway
// between MaxFloat32 and 2^128 up (IEEE 754-2019 §4.3.1, §7.4).
func fma32Exact(a, b, c float32) float32 {
	if math.IsNaN(float64(a)) || math.IsNaN(float64(b)) || math.IsNaN(float64(c)) ||
		math.IsInf(float64(a), 0) || math.IsInf(float64(b), 0) || math.IsInf(float64(c), 0) {
		return float32(float64(a)*float64(b) + float64(c)) // infinities and NaNs: no rounding to get wrong
	}
	x := new(big.Float).SetPrec(1000).SetFloat64(float64(a))
	x.Mul(x, new(big.Float).SetFloat64(float64(b)))
	x.Add(x, new(big.Float).SetFloat64(float64(c)))
	if x.Sign() == 0 {
		// An exact zero: -0 only where both a·b and c are -0 (§6.3).
		p := float64(a) * float64(b)
		if math.Signbit(p) && math.Signbit(float64(c)) {
			return float32(math.Copysign(0, -1))
		}
		return 0
	}
	if x.MantExp(nil) <= -126 { // below 2^-126: round on the grid of 2^-149
		q := new(big.Float).SetPrec(1000).SetMantExp(x, 149)
		n, _ := new(big.Float).SetPrec(1000).Add(q, big.NewFloat(0)).Int(nil)
		frac := new(big.Float).SetPrec(1000).Sub(q, new(big.Float).SetInt(n))
		half := big.NewFloat(0.5)
		if x.Sign() < 0 {
			half.Neg(half)
		}
		switch cmp := frac.Cmp(half); {
		case x.Sign() > 0 && (cmp > 0 || cmp == 0 && n.Bit(0) == 1):
			n.Add(n, big.NewInt(1))
		case x.Sign() < 0 && (cmp < 0 || cmp == 0 && n.Bit(0) == 1):
			n.Sub(n, big.NewInt(1))
		}
		f, _ := new(big.Float).SetMantExp(new(big.Float).SetInt(n), -149).Float64()
		if f == 0 && x.Sign() < 0 {
			return float32(math.Copysign(0, -1))
		}
		return float32(f)
	}
	r := new(big.Float).SetPrec(24).SetMode(big.ToNearestEven).Set(x)
	f, _ := r.Float64()
	if math.Abs(f) > math.MaxFloat32 {
		return float32(math.Copysign(math.Inf(1), f))
	}
	return float32(f)
}

// TestFMA32 checks fma32 against fma32Exact: on the cases whose float64
// sum falls halfway between two float32 values (where rounding twice goes
// the wrong way without fma32Halfway), results near and below float32's
// normal range and at its top, signed zeros, infinities and NaNs, and on
// random values of every magnitude.
func TestFMA32(t *testing.T) {
	tiny := float32(math.Float32frombits(1)) // 2^-149
	q := float32(1 + 0x1p-12)                // q·q = 1 + 2^-11 + 2^-24, halfway between two float32
	cases := [][3]float32{
		{q, q, 0x1p-60}, {q, q, -0x1p-60}, {-q, q, 0x1p-60}, {q, q, tiny}, {q, q, -tiny}, {q, q, 0},
		{1 + 0x1p-23, 1 + 0x1p-23, -1}, {3, 1 + 0x1p-23, 0x1p-30},
		{math.MaxFloat32, 1, math.MaxFloat32}, {math.MaxFloat32, 1 + 0x1p-23, 0},
		{float32(math.Float32frombits(0x7f7fffff)), 1, float32(math.Float32frombits(0x737fffff))}, // MaxFloat32 + half its ulp
		{0x1p-75, 0x1p-75, 0}, {0x1p-75, 0x1p-74, tiny}, {0x1p-100, 0x1p-49, -tiny}, {0x1p-127, 1.5, tiny},
		{3 * tiny, 0.5, 0}, {tiny, 0.5, 0}, {-tiny, 0.5, 0}, {5 * tiny, 0.5, tiny},
		// a·b = 0x809540000001·2^-180 and c = 2^-127: the sum, below
		// 2^-126, is 2^-180 above a point halfway between two subnormal
		// float32 (2^-150 its last bit but one), and 2^-180 is half a
		// float64 ulp there, so s is that halfway point.
		{8427573 * 0x1p-90, 16775709 * 0x1p-90, 0x1p-127}, {-8427573 * 0x1p-90, 16775709 * 0x1p-90, -0x1p-127},
		{0, 1, 0}, {float32(math.Copysign(0, -1)), 1, float32(math.Copysign(0, -1))}, {1, -1, 1}, {-1, 1, 1},
		{float32(math.Inf(1)), 0, 1}, {float32(math.Inf(1)), 1, float32(math.Inf(-1))}, {float32(math.NaN()), 1, 1},
		{float32(math.Inf(-1)), 2, 3},
	}
	rng := rand.New(rand.NewSource(31))
	for range 200_000 {
		var v [3]float32
		for i := range v {
			switch rng.Intn(4) {
			case 0: // any bits (NaNs and infinities included)
				v[i] = math.Float32frombits(rng.Uint32())
			case 1: // near 1, where a·b and c overlap
				v[i] = float32(1+rng.Float64()) * float32(1-2*rng.Intn(2))
			default:
				v[i] = float32(math.Ldexp(rng.NormFloat64(), rng.Intn(80)-40))
			}
		}
		if rng.Intn(8) == 0 {
			// c cancelling a·b to a few bits
			v[2] = -float32(float64(v[0]) * float64(v[1]))
		}
		cases = append(cases, v)
	}
	bad := 0
	for _, c := range cases {
		got, want := fma32(c[0], c[1], c[2]), fma32Exact(c[0], c[1], c[2])
		if math.Float32bits(got) != math.Float32bits(want) && !(got != got && want != want) {
			if bad++; bad <= 10 {
				t.Errorf("fma32(%g, %g, %g) = %g (%#08x), want %g (%#08x)", c[0], c[1], c[2], got, math.Float32bits(got), want, math.Float32bits(want))
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d of %d differ", bad, len(cases))
	}
}

// TestFMALoops checks the loops of the Go products (fmaRow, fmaDot,
// fmaDot4, in Go and in assembly) against fmaT a step at a time, on random
// values mixed with NaNs, infinities, zeros and subnormals, and a step
// whose float64 sum falls halfway between two float32.
func TestFMALoops(t *testing.T) {
	testFMALoops[float32](t)
	testFMALoops[float64](t)
}

func testFMALoops[T float32 | float64](t *testing.T) {
	rng := rand.New(rand.NewSource(32))
	for _, k := range []int{0, 1, 2, 7, 64, 301} {
		const lda = 311
		a, v, d := gemmEdgeFloats[T](rng, 4*lda), gemmEdgeFloats[T](rng, k), gemmEdgeFloats[T](rng, k)
		x := gemmEdgeFloats[T](rng, 1)[0]
		if k >= 2 {
			// A step whose float64 sum falls halfway between two
			// float32 (q·q + 2^-60, as in TestFMA32): rows 0 and 2
			// reach it at p = 1, fmaRow at j = 0.
			q := T(1 + 0x1p-12)
			x, v[0], d[0], v[1] = q, q, 0x1p-60, q
			a[0], a[1], a[2*lda], a[2*lda+1] = 0x1p-60/q, q, 0x1p-60/q, q
		}
		want := make([]T, k)
		for j := range want {
			want[j] = fmaT(x, v[j], d[j])
		}
		got, goRow := append([]T(nil), d...), append([]T(nil), d...)
		fmaRow(got, v, x) // in assembly where the CPU has FMA3
		if unsafe.Sizeof(x) == 4 {
			fmaRow32(as32(goRow), as32(v), *(*float32)(unsafe.Pointer(&x)))
		} else {
			fmaRow64(as64(goRow), as64(v), *(*float64)(unsafe.Pointer(&x)))
		}
		for j := range got {
			if !gemmSameBits(got[j], want[j]) || !gemmSameBits(goRow[j], want[j]) {
				t.Fatalf("%T fmaRow k=%d: element %d = %v (in Go %v), want %v", x, k, j, got[j], goRow[j], want[j])
			}
		}
		var sums [4]T
		for r := range sums {
			for p := range k {
				sums[r] = fmaT(a[r*lda+p], v[p], sums[r])
			}
		}
		for _, r := range []int{0, 1} {
			row := a[r*lda : r*lda+k]
			var inGo T
			if unsafe.Sizeof(x) == 4 {
				g := fmaDot32(0, as32(row), as32(v))
				inGo = *(*T)(unsafe.Pointer(&g))
			} else {
				g := fmaDot64(0, as64(row), as64(v))
				inGo = *(*T)(unsafe.Pointer(&g))
			}
			if got := fmaDot(0, row, v); !gemmSameBits(got, sums[r]) || !gemmSameBits(inGo, sums[r]) {
				t.Fatalf("%T fmaDot k=%d: row %d = %v (in Go %v), want %v", x, k, r, got, inGo, sums[r])
			}
		}
		var g4, asm [4]T
		if unsafe.Sizeof(x) == 4 {
			fmaDot4x32((*[4]float32)(unsafe.Pointer(&g4)), as32(a), lda, k, as32(v))
		} else {
			fmaDot4x64((*[4]float64)(unsafe.Pointer(&g4)), as64(a), lda, k, as64(v))
		}
		ran := fmaDot4Asm(&asm, a, lda, k, v)
		for r := range sums {
			if !gemmSameBits(g4[r], sums[r]) {
				t.Fatalf("%T fmaDot4 in Go k=%d: row %d = %v, want %v", x, k, r, g4[r], sums[r])
			}
			if ran && !gemmSameBits(asm[r], sums[r]) {
				t.Fatalf("%T fmaDot4 in assembly k=%d: row %d = %v, want %v", x, k, r, asm[r], sums[r])
			}
		}
	}
}
