package cpu

import (
	"math"
	"math/rand"
	"testing"
)

// TestBF16Vec checks the bfloat16 array conversions (bf16_amd64.s) bit for
// bit against f32ToBF16, which matches dtypes.BF16FromFloat32 (Eigen's
// float_to_bfloat16_rtne, Eigen/src/Core/arch/Default/BFloat16.h, which
// ml_dtypes' bfloat16 uses: ties to even, every NaN the quiet 0x7FC0 with
// its sign):
// float32 patterns at every rounding position of every binade and every
// float32 whose low 12 bits are 0, 1, 0x800 or 0xFFF (every NaN class,
// ±Inf, ±0, subnormals among them); lengths 0..70 at head offsets 0..15,
// leaving the elements around alone.
func TestBF16Vec(t *testing.T) {
	const block = 1 << 16
	in := make([]float32, 0, block)
	out := make([]uint16, block)
	rounded := make([]float32, block)
	flush := func() {
		out, rounded := out[:len(in)], rounded[:len(in)]
		f32sToBF16(out, in)
		copy(rounded, in)
		roundBF16(rounded)
		for i, x := range in {
			want := f32ToBF16(x)
			if out[i] != want {
				t.Fatalf("f32sToBF16(%#08x) = %#04x, f32ToBF16 %#04x", math.Float32bits(x), out[i], want)
			}
			if g := math.Float32bits(rounded[i]); g != uint32(want)<<16 {
				t.Fatalf("roundBF16(%#08x) = %#08x, want %#08x", math.Float32bits(x), g, uint32(want)<<16)
			}
		}
		in = in[:0]
	}
	add := func(b uint32) {
		in = append(in, math.Float32frombits(b))
		if len(in) == block {
			flush()
		}
	}
	for _, b := range float32Samples() {
		add(b)
	}
	step := uint64(1 << 12)
	if testing.Short() {
		step = 1 << 16
	}
	for hi := uint64(0); hi < 1<<32; hi += step {
		for _, lo := range []uint32{0, 1, uint32(step / 2), uint32(step - 1)} {
			add(uint32(hi) | lo)
		}
	}
	flush()

	rng := rand.New(rand.NewSource(5))
	pool := make([]float32, 128)
	for i := range pool {
		pool[i] = math.Float32frombits(rng.Uint32())
		if i%4 == 0 {
			pool[i] = math.Float32frombits(0x7F800000 | rng.Uint32()&0x807FFFFF) // Inf or NaN
		}
	}
	for off := range 16 {
		for n := range 71 {
			d := make([]uint16, off+n+1)
			for i := range d {
				d[i] = 0xABCD
			}
			f32sToBF16(d[off:off+n], pool[off:off+n])
			r := append([]float32{}, pool[:off+n+1]...)
			roundBF16(r[off : off+n])
			for i := range d {
				if i < off || i >= off+n {
					if d[i] != 0xABCD || math.Float32bits(r[i]) != math.Float32bits(pool[i]) {
						t.Fatalf("off %d n %d: element %d outside the slice changed", off, n, i)
					}
					continue
				}
				want := f32ToBF16(pool[i])
				if d[i] != want || math.Float32bits(r[i]) != uint32(want)<<16 {
					t.Fatalf("off %d n %d: element %d (%#08x) gives %#04x and %#08x; want %#04x",
						off, n, i, math.Float32bits(pool[i]), d[i], math.Float32bits(r[i]), want)
				}
			}
		}
	}
}

// BenchmarkBF16Vec compares the AVX2 kernels with the Go loops.
func BenchmarkBF16Vec(b *testing.B) {
	const n = 16384
	rng := rand.New(rand.NewSource(1))
	x := make([]float32, n)
	for i := range x {
		x[i] = float32(rng.NormFloat64() * 100)
	}
	h := make([]uint16, n)
	y := make([]float32, n)
	run := func(name string, f func()) {
		b.Run(name, func(b *testing.B) {
			b.SetBytes(n * 4)
			for range b.N {
				f()
			}
		})
	}
	run("f32-bf16/go", func() { f32sToBF16Go(h, x) })
	run("f32-bf16/avx2", func() { f32sToBF16(h, x) })
	run("round/go", func() { copy(y, x); roundBF16Go(y) })
	run("round/avx2", func() { copy(y, x); roundBF16(y) })
}

// TestBF16ToF32Vec checks bf16sToF32 (bf16_amd64.s's widening loop) on
// all 65536 bfloat16 patterns (NaNs keep their payloads and signs), and on
// lengths 0..40 at offsets 0..15 leaving the elements after alone.
func TestBF16ToF32Vec(t *testing.T) {
	all := make([]uint16, 1<<16)
	for i := range all {
		all[i] = uint16(i)
	}
	got := make([]float32, len(all))
	bf16sToF32(got, all)
	for i, b := range all {
		if g := math.Float32bits(got[i]); g != uint32(b)<<16 {
			t.Fatalf("bf16sToF32(%#04x) = %#08x, want %#08x", b, g, uint32(b)<<16)
		}
	}
	for off := range 16 {
		for n := 0; n <= 40; n++ {
			d := make([]float32, off+n+1)
			d[off+n] = 7
			bf16sToF32(d[off:off+n], all[0x3f80+off:])
			for i := range n {
				if g := math.Float32bits(d[off+i]); g != uint32(0x3f80+off+i)<<16 {
					t.Fatalf("off %d n %d [%d] = %#08x", off, n, i, g)
				}
			}
			if d[off+n] != 7 {
				t.Fatalf("off %d n %d: wrote past the end", off, n)
			}
		}
	}
}
