package cpu

import (
	"math"
	"math/rand"
	"testing"
)

// TestF8Vec checks the float8 array conversions (f8_amd64.s) and roundF8
// bit for bit against f32ToE4M3 and f32ToE5M2, which TestNarrowBits checks
// against dtypes (ml_dtypes' float8_e4m3fn and float8_e5m2): every float16
// and bfloat16 value, float32 patterns at every rounding position of every
// binade, every float32 whose low 12 bits are 0, 1, 0x800 or 0xFFF; lengths
// 0..70 at head offsets 0..15, leaving the elements around alone.
func TestF8Vec(t *testing.T) {
	initTables()
	const block = 1 << 16
	in := make([]float32, 0, block)
	o4, o5 := make([]uint8, block), make([]uint8, block)
	r4, r5 := make([]float32, block), make([]float32, block)
	flush := func() {
		n := len(in)
		f32sToE4M3(o4[:n], in)
		f32sToE5M2(o5[:n], in)
		copy(r4, in)
		copy(r5, in)
		roundF8(r4[:n], false)
		roundF8(r5[:n], true)
		for i, x := range in {
			w4, w5 := f32ToE4M3(x), f32ToE5M2(x)
			if o4[i] != w4 || o5[i] != w5 {
				t.Fatalf("%#08x: e4m3 %#02x, e5m2 %#02x; want %#02x, %#02x", math.Float32bits(x), o4[i], o5[i], w4, w5)
			}
			if math.Float32bits(r4[i]) != math.Float32bits(e4m3Table[w4]) || math.Float32bits(r5[i]) != math.Float32bits(e5m2Table[w5]) {
				t.Fatalf("roundF8(%#08x) = %#08x, %#08x", math.Float32bits(x), math.Float32bits(r4[i]), math.Float32bits(r5[i]))
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
	for h := range 1 << 16 {
		add(math.Float32bits(f16Table[h]))
		add(uint32(h) << 16)
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

	rng := rand.New(rand.NewSource(8))
	pool := make([]float32, 128)
	for i := range pool {
		switch i % 4 {
		case 0:
			pool[i] = math.Float32frombits(0x7F800000 | rng.Uint32()&0x807FFFFF) // Inf or NaN
		case 1:
			pool[i] = float32(rng.NormFloat64() * 0x1p-8) // float8 subnormals
		default:
			pool[i] = float32(rng.NormFloat64() * 300)
		}
	}
	for off := range 16 {
		for n := range 71 {
			d4, d5 := make([]uint8, off+n+1), make([]uint8, off+n+1)
			for i := range d4 {
				d4[i], d5[i] = 0xAB, 0xAB
			}
			f32sToE4M3(d4[off:off+n], pool[off:off+n])
			f32sToE5M2(d5[off:off+n], pool[off:off+n])
			for i := range d4 {
				if i < off || i >= off+n {
					if d4[i] != 0xAB || d5[i] != 0xAB {
						t.Fatalf("off %d n %d: element %d outside the slice changed", off, n, i)
					}
					continue
				}
				if d4[i] != f32ToE4M3(pool[i]) || d5[i] != f32ToE5M2(pool[i]) {
					t.Fatalf("off %d n %d: element %d (%#08x) gives %#02x, %#02x", off, n, i, math.Float32bits(pool[i]), d4[i], d5[i])
				}
			}
		}
	}
}

// BenchmarkF8Vec compares the AVX2 kernels with the Go loops.
func BenchmarkF8Vec(b *testing.B) {
	const n = 16384
	rng := rand.New(rand.NewSource(1))
	x := make([]float32, n)
	for i := range x {
		x[i] = float32(rng.NormFloat64() * 100)
	}
	d := make([]uint8, n)
	run := func(name string, f func()) {
		b.Run(name, func(b *testing.B) {
			b.SetBytes(n * 4)
			for range b.N {
				f()
			}
		})
	}
	run("e4m3/go", func() { f32sToE4M3Go(d, x) })
	run("e4m3/avx2", func() { f32sToE4M3(d, x) })
	run("e5m2/go", func() { f32sToE5M2Go(d, x) })
	run("e5m2/avx2", func() { f32sToE5M2(d, x) })
}
