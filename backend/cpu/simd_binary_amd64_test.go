//go:build amd64 && !purego

package cpu

import (
	"math"
	"math/rand"
	"strconv"
	"testing"
)

// binaryEdges64 are float64 operands worth pairing: signed zeros,
// infinities, subnormals, the extremes, quiet and signalling NaNs with
// distinct payloads and signs (so that which operand's NaN comes out shows),
// and values whose quotients and products round to even.
var binaryEdges64 = []uint64{
	0, 1 << 63, 0x7ff0000000000000, 0xfff0000000000000, // ±0, ±Inf
	1, 0x8000000000000001, 0x000fffffffffffff, 0x0010000000000000, // subnormals, smallest normal
	0x7fefffffffffffff, 0xffefffffffffffff, 0x3ff0000000000000, 0xbff0000000000000, // ±max, ±1
	0x7ff8000000000000, 0xfff8000000000001, 0x7ff80000deadbeef, 0xfffc000000000123, // quiet NaNs
	0x7ff0000000000001, 0xfff00000cafe0000, // signalling NaNs (quieted by any operation)
	0x4008000000000000, 0x3ff0000000000001, 0x3fefffffffffffff, 0x4330000000000001, // 3, 1±ulp, 2^52+1
}

// binaryEdges32 are the float32 counterparts of binaryEdges64.
var binaryEdges32 = []uint32{
	0, 1 << 31, 0x7f800000, 0xff800000,
	1, 0x80000001, 0x007fffff, 0x00800000,
	0x7f7fffff, 0xff7fffff, 0x3f800000, 0xbf800000,
	0x7fc00000, 0xffc00001, 0x7fc0beef, 0xffe00123,
	0x7f800001, 0xffa0cafe,
	0x40400000, 0x3f800001, 0x3f7fffff, 0x4b000001,
}

// binaryOperands returns n operands: each an edge value (bits from edges)
// or random bits of any exponent, half and half.
func binaryOperands[T float32 | float64](rng *rand.Rand, n int, edge func(*rand.Rand) T, random func(*rand.Rand) T) []T {
	x := make([]T, n)
	for i := range x {
		if rng.Intn(2) == 0 {
			x[i] = edge(rng)
		} else {
			x[i] = random(rng)
		}
	}
	return x
}

// checkBinaryLoops checks every loop of tables (plain and non-temporal,
// + - * /) against the Go loop bit for bit, NaN payloads included, on all
// lengths 0..70 and a few large ones, with d, a and b each starting at
// every element offset within a vector, and that nothing past len(d) is
// written.
func checkBinaryLoops[T float32 | float64](t *testing.T, name string, tables map[string]*binaryTable[T], bits func(T) uint64,
	edge func(*rand.Rand) T, random func(*rand.Rand) T) {
	t.Helper()
	rng := rand.New(rand.NewSource(17))
	lengths := []int{}
	for n := 0; n <= 70; n++ {
		lengths = append(lengths, n)
	}
	lengths = append(lengths, 255, 256, 257, 1000, 4099)
	const guard = 3
	for isa, tab := range tables {
		for j, kind := range []string{"", "NT"} {
			for i, op := range []byte(binaryOps) {
				f := tab[j][i]
				for _, n := range lengths {
					offs := 16
					if n > 100 {
						offs = 3
					}
					for off := range offs {
						offA, offB := (off*5)%16, (off*11)%16
						a := binaryOperands(rng, offA+n, edge, random)[offA:]
						b := binaryOperands(rng, offB+n, edge, random)[offB:]
						want := make([]T, n)
						binaryGo[T](op)(want, a, b)
						buf := make([]T, off+n+guard)
						for k := range buf {
							buf[k] = 12345
						}
						d := buf[off : off+n]
						f(d, a, b)
						for k := range d {
							if bits(d[k]) != bits(want[k]) {
								t.Fatalf("%s%s%s n=%d off=%d: [%d] %v %c %v = %#x, Go %#x", name, isa, kind, n, off, k,
									a[k], op, b[k], bits(d[k]), bits(want[k]))
							}
						}
						for k, v := range buf[off+n:] {
							if v != 12345 {
								t.Fatalf("%s%s%s n=%d off=%d: wrote d[%d] past the end", name, isa, kind, n, off, n+k)
							}
						}
					}
				}
			}
		}
	}
}

// binaryTables returns the tables this CPU runs: ymm (AVX2) and, with
// AVX-512, zmm.
func binaryTables[T float32 | float64](t *testing.T, ymm, zmm *binaryTable[T]) map[string]*binaryTable[T] {
	if !haveAVX2 {
		t.Skip("no AVX2: the Go loop is the kernel")
	}
	m := map[string]*binaryTable[T]{"AVX2": ymm}
	if haveAVX512 {
		m["AVX512"] = zmm
	} else {
		t.Log("no AVX-512: checking the AVX2 loops only")
	}
	return m
}

// TestBinaryLoopsF64 checks the float64 + - * / loops (AVX2 and AVX-512,
// plain and streaming) against the Go loop, bit for bit.
func TestBinaryLoopsF64(t *testing.T) {
	checkBinaryLoops(t, "F64", binaryTables(t, &binaryF64AVX2, &binaryF64AVX512),
		func(x float64) uint64 { return math.Float64bits(x) },
		func(rng *rand.Rand) float64 { return math.Float64frombits(binaryEdges64[rng.Intn(len(binaryEdges64))]) },
		func(rng *rand.Rand) float64 { return math.Float64frombits(rng.Uint64()) })
}

// TestBinaryLoopsF32 is TestBinaryLoopsF64 on float32.
func TestBinaryLoopsF32(t *testing.T) {
	checkBinaryLoops(t, "F32", binaryTables(t, &binaryF32AVX2, &binaryF32AVX512),
		func(x float32) uint64 { return uint64(math.Float32bits(x)) },
		func(rng *rand.Rand) float32 { return math.Float32frombits(binaryEdges32[rng.Intn(len(binaryEdges32))]) },
		func(rng *rand.Rand) float32 { return math.Float32frombits(rng.Uint32()) })
}

// TestBinaryNaNOperand pins which NaN + - * / return when both operands
// are NaN: the first (a), quieted, in the Go loop and the vector loops
// alike (x86 returns the first source operand's NaN).
func TestBinaryNaNOperand(t *testing.T) {
	a := []float64{math.Float64frombits(0x7ff80000000000aa), math.Float64frombits(0x7ff00000000000aa)}
	b := []float64{math.Float64frombits(0xfff80000000000bb), math.Float64frombits(0xfff80000000000bb)}
	want := []uint64{0x7ff80000000000aa, 0x7ff80000000000aa}
	for _, op := range []byte(binaryOps) {
		for _, f := range []func(d, a, b []float64){binaryGo[float64](op), binaryF64(op)} {
			d := make([]float64, len(a))
			f(d, a, b)
			for i := range d {
				if math.Float64bits(d[i]) != want[i] {
					t.Errorf("%#x %c %#x = %#x, want %#x", math.Float64bits(a[i]), op, math.Float64bits(b[i]),
						math.Float64bits(d[i]), want[i])
				}
			}
		}
	}
}

// BenchmarkBinaryDiv compares the division loops on a cache-resident
// and a memory-sized vector.
func BenchmarkBinaryDiv(b *testing.B) {
	for _, n := range []int{4096, 1 << 20} {
		x, y, d := make([]float64, n), make([]float64, n), make([]float64, n)
		x32, y32, d32 := make([]float32, n), make([]float32, n), make([]float32, n)
		for i := range x {
			x[i], y[i] = float64(i)+0.5, float64(i%7)+1.25
			x32[i], y32[i] = float32(x[i]), float32(y[i])
		}
		for _, c := range []struct {
			name string
			f    func()
		}{
			{"F64AVX2", func() { divF64AVX2(d, x, y) }},
			{"F64AVX512", func() { divF64AVX512(d, x, y) }},
			{"F32AVX2", func() { divF32AVX2(d32, x32, y32) }},
			{"F32AVX512", func() { divF32AVX512(d32, x32, y32) }},
		} {
			if !haveAVX512 && c.name[len(c.name)-3:] == "512" {
				continue
			}
			b.Run(c.name+"/"+strconv.Itoa(n), func(b *testing.B) {
				for range b.N {
					c.f()
				}
			})
		}
	}
}
