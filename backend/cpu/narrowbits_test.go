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

// float64Samples returns float64 bit patterns for every sign, every
// exponent from 2^-60 to 2^20 (all the binades where float16 and float8
// round, and beyond on both sides), every value of the top 12 mantissa
// bits, with the low 40 bits zero, one, all ones or random: this covers
// every tie (the tie bit of float16 is mantissa bit 41, deeper subnormals
// have it higher) and the values just above and below one. The edges of the
// range (0, subnormals, huge values, ±Inf, NaNs with payloads) are added.
func float64Samples() []uint64 {
	rng := rand.New(rand.NewSource(17))
	var out []uint64
	for sign := uint64(0); sign < 2; sign++ {
		for exp := uint64(1023 - 60); exp <= 1023+20; exp++ {
			for top := uint64(0); top < 1<<12; top++ {
				base := sign<<63 | exp<<52 | top<<40
				out = append(out, base, base|1, base|(1<<40-1), base|rng.Uint64()&(1<<40-1))
			}
		}
		for range 1 << 14 {
			out = append(out, sign<<63|rng.Uint64()>>1)
		}
		for _, b := range []uint64{
			0, 1, 1<<52 - 1, 1 << 52, 0x7FEFFFFFFFFFFFFF, 0x7FF0000000000000,
			0x7FF0000000000001, 0x7FF8000000000000, 0x7FF4000000000000,
			0x7FFFFFFFFFFFFFFF, 0x7FF0040000000000, 0x7FF0000000000400,
			0x7FF3FF0000000000,
		} {
			out = append(out, sign<<63|b)
		}
	}
	return out
}

// TestNarrowBits checks the fast narrowing conversions of fastconv.go
// against the exact ones of package dtypes (dtypes/convert.go,
// format.encode; the formats are those of ml_dtypes' float8_e4m3fn and
// float8_e5m2, include/float8.h ConvertImpl, and NumPy's
// npy_double_to_half, numpy/_core/src/common/half.cpp).
func TestNarrowBits(t *testing.T) {
	initTables()
	check32 := func(b uint32) {
		t.Helper()
		x := math.Float32frombits(b)
		if got, want := f32ToE4M3(x), dtypes.F8E4M3FromFloat64(float64(x)); got != want {
			t.Fatalf("f32ToE4M3(%#08x) = %#02x, dtypes %#02x", b, got, want)
		}
		if got, want := f32ToE5M2(x), dtypes.F8E5M2FromFloat64(float64(x)); got != want {
			t.Fatalf("f32ToE5M2(%#08x) = %#02x, dtypes %#02x", b, got, want)
		}
	}
	check64 := func(b uint64) {
		t.Helper()
		x := math.Float64frombits(b)
		if got, want := f64ToF16(x), dtypes.F16FromFloat64(x); got != want {
			t.Fatalf("f64ToF16(%#016x) = %#04x, dtypes %#04x", b, got, want)
		}
		if got, want := f64ToBF16(x), dtypes.BF16FromFloat64(x); got != want {
			t.Fatalf("f64ToBF16(%#016x) = %#04x, dtypes %#04x", b, got, want)
		}
		if got, want := f64ToE4M3(x), dtypes.F8E4M3FromFloat64(x); got != want {
			t.Fatalf("f64ToE4M3(%#016x) = %#02x, dtypes %#02x", b, got, want)
		}
		if got, want := f64ToE5M2(x), dtypes.F8E5M2FromFloat64(x); got != want {
			t.Fatalf("f64ToE5M2(%#016x) = %#02x, dtypes %#02x", b, got, want)
		}
	}
	// Every float16 and bfloat16 value (what f16 → f8 and bf16 → f8 casts
	// see), as float32 and as float64.
	for h := range 1 << 16 {
		for _, x := range []float32{f16Table[h], bf16Value(uint16(h))} {
			check32(math.Float32bits(x))
			check64(math.Float64bits(float64(x)))
		}
	}
	for _, b := range float32Samples() {
		check32(b)
		check64(math.Float64bits(float64(math.Float32frombits(b))))
	}
	// Every float32 whose low 12 bits are 0, 1, 0x800 or 0xFFF: every
	// float8 tie and its neighbours, in every binade (every float32:
	// TestNarrowBitsExhaustive).
	step, los := uint32(1<<12), []uint32{0, 1, 1 << 11, 1<<12 - 1}
	if testing.Short() {
		step, los = 1<<16, []uint32{0, 1, 1 << 15, 1<<16 - 1}
	}
	for hi := uint64(0); hi < 1<<32; hi += uint64(step) {
		for _, lo := range los {
			check32(uint32(hi) | lo)
		}
	}
	for _, b := range float64Samples() {
		check64(b)
	}
	// Named edge values.
	for _, x := range []float64{
		0, 448, 464, 464.00000000000006, 479.99, 480, 57344, 61439.99, 61440,
		65504, 65519.99, 65520, 0x1p-24, 0x1p-25, 0x1.8p-25, 0x1p-25 + 0x1p-80,
		0x1p-9, 0x1p-10, 0x1.8p-10, 0x1p-16, 0x1p-17, 0x1p-6 - 0x1p-12,
		0x1p-14 - 0x1p-30, math.SmallestNonzeroFloat64, math.MaxFloat64,
		math.Inf(1), math.NaN(), 1 + 0x1p-8 + 0x1p-40,
	} {
		for _, s := range []float64{1, -1} {
			check64(math.Float64bits(s * x))
			check32(math.Float32bits(float32(s * x)))
		}
	}
}

// TestNarrowBitsExhaustive checks f32ToE4M3 and f32ToE5M2 against dtypes
// on every float32 (many minutes on two cores: dtypes' encode is the slow
// side): TENSORSH_EXHAUSTIVE=1, with -timeout 60m.
func TestNarrowBitsExhaustive(t *testing.T) {
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
				if got, want := f32ToE4M3(x), dtypes.F8E4M3FromFloat64(float64(x)); got != want && bad.Add(1) <= 10 {
					t.Errorf("f32ToE4M3(%#08x) = %#02x, dtypes %#02x", b, got, want)
				}
				if got, want := f32ToE5M2(x), dtypes.F8E5M2FromFloat64(float64(x)); got != want && bad.Add(1) <= 10 {
					t.Errorf("f32ToE5M2(%#08x) = %#02x, dtypes %#02x", b, got, want)
				}
			}
		}()
	}
	wg.Wait()
	if n := bad.Load(); n > 0 {
		t.Errorf("%d mismatches over 2^32 inputs", n)
	}
}

// BenchmarkNarrowBits compares the fast conversions with the dtypes ones
// they replace, on a cache-resident slice of values in the float8 range.
func BenchmarkNarrowBits(b *testing.B) {
	const n = 16384
	rng := rand.New(rand.NewSource(1))
	x32 := make([]float32, n)
	x64 := make([]float64, n)
	for i := range x32 {
		x64[i] = rng.NormFloat64() * 100
		x32[i] = float32(x64[i])
	}
	out8 := make([]uint8, n)
	out16 := make([]uint16, n)
	bench := func(name string, f func()) {
		b.Run(name, func(b *testing.B) {
			b.SetBytes(n)
			for range b.N {
				f()
			}
		})
	}
	bench("f32-e4m3/dtypes", func() {
		for i, x := range x32 {
			out8[i] = dtypes.F8E4M3FromFloat64(float64(x))
		}
	})
	bench("f32-e4m3/fast", func() {
		for i, x := range x32 {
			out8[i] = f32ToE4M3(x)
		}
	})
	bench("f32-e5m2/dtypes", func() {
		for i, x := range x32 {
			out8[i] = dtypes.F8E5M2FromFloat64(float64(x))
		}
	})
	bench("f32-e5m2/fast", func() {
		for i, x := range x32 {
			out8[i] = f32ToE5M2(x)
		}
	})
	bench("f64-f16/dtypes", func() {
		for i, x := range x64 {
			out16[i] = dtypes.F16FromFloat64(x)
		}
	})
	bench("f64-f16/fast", func() {
		for i, x := range x64 {
			out16[i] = f64ToF16(x)
		}
	})
	bench("f64-bf16/dtypes", func() {
		for i, x := range x64 {
			out16[i] = dtypes.BF16FromFloat64(x)
		}
	})
	bench("f64-bf16/fast", func() {
		for i, x := range x64 {
			out16[i] = f64ToBF16(x)
		}
	})
}

// TestCastF64Narrow checks the float64 → narrow cast kernels
// (f64NarrowKernel) element by element against the exact conversions of
// package dtypes, on the float64 samples of TestNarrowBits.
func TestCastF64Narrow(t *testing.T) {
	initTables()
	samples := float64Samples()
	src := make([]float64, len(samples))
	for i, b := range samples {
		src[i] = math.Float64frombits(b)
	}
	for _, to := range []dtypes.DType{dtypes.F16, dtypes.BF16, dtypes.F8E4M3, dtypes.F8E5M2} {
		k, err := castKernel(dtypes.F64, to)
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range []int{0, 1, 15, 16, 17, 70, len(src)} {
			got := make([]float32, n)
			if err := k(got, []any{src[:n]}); err != nil {
				t.Fatal(err)
			}
			for i, x := range src[:n] {
				var want float32
				switch to {
				case dtypes.F16:
					want = f16Table[dtypes.F16FromFloat64(x)]
				case dtypes.BF16:
					want = bf16Value(dtypes.BF16FromFloat64(x))
				case dtypes.F8E4M3:
					want = e4m3Table[dtypes.F8E4M3FromFloat64(x)]
				default:
					want = e5m2Table[dtypes.F8E5M2FromFloat64(x)]
				}
				if g, w := math.Float32bits(got[i]), math.Float32bits(want); g != w {
					t.Fatalf("cast %#016x to %v: %#08x, dtypes %#08x", math.Float64bits(x), to, g, w)
				}
			}
		}
	}
}
