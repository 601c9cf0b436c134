package cpu

import (
	"math"
	"math/rand"
	"os"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/tensorsh/tensorsh/dtypes"
)

// float32Samples returns float32 bit patterns covering every exponent and
// sign, with mantissas at and around every rounding position (ties, one
// above, one below) and random ones.
func float32Samples() []uint32 {
	rng := rand.New(rand.NewSource(6))
	var out []uint32
	for exp := uint32(0); exp < 256; exp++ {
		for sign := uint32(0); sign < 2; sign++ {
			base := sign<<31 | exp<<23
			for pos := uint(0); pos < 23; pos++ {
				for _, low := range []uint32{0, 1 << pos, 1<<pos - 1, 1<<pos + 1} {
					for range 8 {
						hi := rng.Uint32() & 0x7FFFFF &^ (1<<(pos+1) - 1)
						out = append(out, base|(hi|low)&0x7FFFFF)
					}
				}
			}
			for range 512 {
				out = append(out, base|rng.Uint32()&0x7FFFFF)
			}
			out = append(out, base, base|0x7FFFFF)
		}
	}
	return out
}

func TestFastConversions(t *testing.T) {
	for _, b := range float32Samples() {
		x := math.Float32frombits(b)
		if got, want := f32ToF16(x), dtypes.F16FromFloat64(float64(x)); got != want {
			t.Fatalf("f32ToF16(%#08x) = %#04x, dtypes %#04x", b, got, want)
		}
		if got, want := f32ToBF16(x), dtypes.BF16FromFloat32(x); got != want {
			t.Fatalf("f32ToBF16(%#08x) = %#04x, dtypes %#04x", b, got, want)
		}
		got, want := tf32Round(x), dtypes.TF32Round(x)
		if math.Float32bits(got) != math.Float32bits(want) && !(got != got && want != want) {
			t.Fatalf("tf32Round(%#08x) = %#08x, dtypes %#08x", b, math.Float32bits(got), math.Float32bits(want))
		}
	}
}

// TestF32ToF16Exhaustive checks f32ToF16 against dtypes.F16FromFloat64 on
// every float32 (about 30 s on two cores): TENSORSH_EXHAUSTIVE=1.
func TestF32ToF16Exhaustive(t *testing.T) {
	if os.Getenv("TENSORSH_EXHAUSTIVE") != "1" {
		t.Skip("set TENSORSH_EXHAUSTIVE=1 to check all 2^32 inputs")
	}
	var wg sync.WaitGroup
	var bad atomic.Int64
	const parts = 64
	for p := range uint64(parts) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for b := p << 26; b < (p+1)<<26; b++ {
				x := math.Float32frombits(uint32(b))
				if got, want := f32ToF16(x), dtypes.F16FromFloat64(float64(x)); got != want && bad.Add(1) <= 10 {
					t.Errorf("f32ToF16(%#08x) = %#04x, dtypes %#04x", b, got, want)
				}
			}
		}()
	}
	wg.Wait()
	if n := bad.Load(); n > 0 {
		t.Errorf("%d of 2^32 inputs differ", n)
	}
}
