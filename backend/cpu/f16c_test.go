package cpu

import (
	"math"
	"math/rand"
	"os"
	"testing"
)

// TestF16C checks the float16 array conversions (F16C's VCVTPS2PH with
// rounding immediate 0 and VCVTPH2PS on amd64, Intel SDM vol. 2
// "VCVTPS2PH—Convert Single-Precision FP Value to 16-bit FP Value") bit for
// bit against the Go references: f32ToF16, which matches
// dtypes.F16FromFloat64 (NumPy's npy_floatbits_to_halfbits,
// numpy/_core/src/common/half_private.hpp: ties to even, overflow to Inf,
// NaN keeps its sign and top payload bits), and f16Table. Every float16
// pattern; float32 patterns at every rounding position of every binade
// (every float32 with TENSORSH_EXHAUSTIVE=1); lengths 0..70 at every head
// offset 0..15.
func TestF16C(t *testing.T) {
	initTables()
	if !haveF16C {
		t.Log("no F16C here (or purego): checking the Go fallbacks against themselves")
	}
	// Every float16 bit pattern, including NaNs with payloads, both signs.
	h := make([]uint16, 1<<16)
	for i := range h {
		h[i] = uint16(i)
	}
	got := make([]float32, len(h))
	f16sToF32(got, h)
	for i, b := range h {
		if g, w := math.Float32bits(got[i]), math.Float32bits(f16Table[b]); g != w {
			t.Fatalf("f16sToF32(%#04x) = %#08x, table %#08x", b, g, w)
		}
	}
	// Back again: every float16 value survives both ways.
	back := make([]uint16, len(h))
	f32sToF16(back, got)
	for i, b := range h {
		if want := f32ToF16(got[i]); back[i] != want {
			t.Fatalf("f32sToF16(%#08x) = %#04x, f32ToF16 %#04x (from %#04x)", math.Float32bits(got[i]), back[i], want, b)
		}
	}

	// float32 inputs, converted a block at a time.
	const block = 1 << 16
	in := make([]float32, 0, block)
	out := make([]uint16, block)
	rounded := make([]float32, block)
	flush := func() {
		out := out[:len(in)]
		rounded := rounded[:len(in)]
		f32sToF16(out, in)
		copy(rounded, in)
		roundF16(rounded)
		for i, x := range in {
			want := f32ToF16(x)
			if out[i] != want {
				t.Fatalf("f32sToF16(%#08x) = %#04x, f32ToF16 %#04x", math.Float32bits(x), out[i], want)
			}
			if g, w := math.Float32bits(rounded[i]), math.Float32bits(f16Table[want]); g != w {
				t.Fatalf("roundF16(%#08x) = %#08x, want %#08x", math.Float32bits(x), g, w)
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
	step, los := uint64(1<<10), []uint32{0, 1, 1 << 9, 1<<10 - 1}
	switch {
	case os.Getenv("TENSORSH_EXHAUSTIVE") == "1":
		step, los = 1, []uint32{0}
	case testing.Short():
		step, los = 1<<14, []uint32{0, 1, 1 << 13, 1<<14 - 1}
	}
	for hi := uint64(0); hi < 1<<32; hi += step {
		for _, lo := range los {
			add(uint32(hi) | lo)
		}
	}
	flush()

	// Lengths and head offsets: the kernels do 16 at a time, the Go loop
	// the rest; nothing outside d may change.
	rng := rand.New(rand.NewSource(3))
	pool := make([]float32, 128)
	for i := range pool {
		switch i % 5 {
		case 0:
			pool[i] = float32(rng.NormFloat64() * 1000)
		case 1:
			pool[i] = math.Float32frombits(rng.Uint32())
		case 2:
			pool[i] = float32(rng.NormFloat64() * 1e-6) // float16 subnormals
		case 3:
			pool[i] = math.Float32frombits(0x7F800000 | rng.Uint32()) // NaN or Inf, random sign
		default:
			pool[i] = float32(rng.NormFloat64() * 70000) // overflows
		}
	}
	for off := range 16 {
		for n := range 71 {
			src := pool[off : off+n]
			d16 := make([]uint16, off+n+1)
			for i := range d16 {
				d16[i] = 0xABCD
			}
			f32sToF16(d16[off:off+n], src)
			d32 := make([]float32, off+n+1)
			f16sToF32(d32[off:off+n], d16[off:off+n])
			r := append([]float32{}, pool[:off+n+1]...)
			roundF16(r[off : off+n])
			for i := range d16 {
				inside := i >= off && i < off+n
				if !inside {
					if d16[i] != 0xABCD || d32[i] != 0 || math.Float32bits(r[i]) != math.Float32bits(pool[i]) {
						t.Fatalf("off %d n %d: element %d outside the slice changed", off, n, i)
					}
					continue
				}
				want := f32ToF16(pool[i])
				if d16[i] != want || math.Float32bits(d32[i]) != math.Float32bits(f16Table[want]) ||
					math.Float32bits(r[i]) != math.Float32bits(f16Table[want]) {
					t.Fatalf("off %d n %d: element %d (%#08x) gives %#04x, %#08x, %#08x; want %#04x",
						off, n, i, math.Float32bits(pool[i]), d16[i], math.Float32bits(d32[i]), math.Float32bits(r[i]), want)
				}
			}
		}
	}
}

// BenchmarkF16C compares the F16C kernels with the Go loops.
func BenchmarkF16C(b *testing.B) {
	initTables()
	const n = 16384
	rng := rand.New(rand.NewSource(1))
	x := make([]float32, n)
	for i := range x {
		x[i] = float32(rng.NormFloat64() * 100)
	}
	h := make([]uint16, n)
	f32sToF16Go(h, x)
	y := make([]float32, n)
	run := func(name string, f func()) {
		b.Run(name, func(b *testing.B) {
			b.SetBytes(n * 4)
			for range b.N {
				f()
			}
		})
	}
	run("f32-f16/go", func() { f32sToF16Go(h, x) })
	run("f32-f16/f16c", func() { f32sToF16(h, x) })
	run("f16-f32/go", func() { f16sToF32Go(y, h) })
	run("f16-f32/f16c", func() { f16sToF32(y, h) })
	run("round/go", func() { copy(y, x); roundF16Go(y) })
	run("round/f16c", func() { copy(y, x); roundF16(y) })
}
