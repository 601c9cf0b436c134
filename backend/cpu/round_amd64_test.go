//go:build amd64 && !purego

package cpu

import (
	"math"
	"math/rand"
	"os"
	"testing"
)

// TestRoundVector checks the loops of round (halves away from zero,
// math.Round) against the Go loop's T(math.Round(float64(x))) bit for
// bit, NaN payloads included: every half k + 1/2 and its neighbours for
// |k| < 2^12, ±0, the ends of the integers of each type (2^23, 2^52), the
// infinities, a signalling float64 NaN (math.Round returns it as it is)
// and random values; with TENSORSH_EXHAUSTIVE set, every float32 too.
func TestRoundVector(t *testing.T) {
	if !haveAVX2 {
		t.Skip("no AVX2 loops on this CPU")
	}
	var x64 []float64
	for k := -4096; k < 4096; k++ {
		h := float64(k) + 0.5
		x64 = append(x64, h, math.Nextafter(h, 0), math.Nextafter(h, 1e9), math.Nextafter(h, -1e9), float64(k))
	}
	x64 = append(x64, 0, negz, inf, -inf, nan, math.Float64frombits(0x7FF0000000000001), math.Float64frombits(0xFFF4000000000123),
		0x1p52, 0x1p52+1, -0x1p52-1, 0x1p23+0.5, -0x1p23-0.5, 0x1p53, 0.49999999999999994, -0.49999999999999994,
		math.MaxFloat64, math.SmallestNonzeroFloat64)
	rng := rand.New(rand.NewSource(3))
	for range 20000 {
		x64 = append(x64, rng.NormFloat64()*1e3, math.Float64frombits(rng.Uint64()))
	}
	x32 := make([]float32, len(x64))
	for i, v := range x64 {
		x32[i] = float32(v)
	}
	x32 = append(x32, math.Float32frombits(0x7F800001), math.Float32frombits(0xFFA00123))
	check := func(name string, got, want []uint64, x []float64) {
		t.Helper()
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("%s round(%v) (bits %#x) = %#x, math.Round gives %#x", name, x[i], math.Float64bits(x[i]), got[i], want[i])
			}
		}
	}
	n := len(x64) &^ 7
	d64 := make([]float64, n)
	roundF64AVX2(d64, x64[:n])
	var got, want []uint64
	for i := range n {
		got, want = append(got, math.Float64bits(d64[i])), append(want, math.Float64bits(math.Round(x64[i])))
	}
	check("float64", got, want, x64)
	m := len(x32) &^ 7
	checkRound32(t, x32[:m])
	if os.Getenv("TENSORSH_EXHAUSTIVE") == "" {
		return
	}
	x := make([]float32, 1<<16)
	for hi := range 1 << 16 {
		for i := range x {
			x[i] = math.Float32frombits(uint32(hi)<<16 | uint32(i))
		}
		checkRound32(t, x)
	}
}

// checkRound32 checks roundF32AVX2 on x (a multiple of 8 long) against
// float32(math.Round(float64(x))), bit for bit.
func checkRound32(t *testing.T, x []float32) {
	t.Helper()
	d := make([]float32, len(x))
	roundF32AVX2(d, x)
	for i, v := range x {
		if w := float32(math.Round(float64(v))); math.Float32bits(d[i]) != math.Float32bits(w) {
			t.Fatalf("float32 round(%v) (bits %#x) = %#x, math.Round gives %#x", v, math.Float32bits(v), math.Float32bits(d[i]), math.Float32bits(w))
		}
	}
}
