package cpu

import (
	"math"
	"math/rand"
	"os"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/tensorsh/tensorsh/backend"
	"github.com/tensorsh/tensorsh/dtypes"
)

// TestConstPowKernel checks the short forms of x**4, x**-2, x**1.5
// (float32; x**1.5's loops at both widths) and x**-1 (float32 and
// float64) against powF64, bit for bit, on random
// values over the whole exponent range and on zeros, infinities, NaN,
// subnormals and the ends of the range powF64 takes math.Pow outside.
func TestConstPowKernel(t *testing.T) {
	rng := rand.New(rand.NewSource(9))
	x32 := []float32{0, float32(math.Copysign(0, -1)), 1, -1, 2, 0.5, 3,
		float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN()),
		math.SmallestNonzeroFloat32, -math.SmallestNonzeroFloat32, math.MaxFloat32, -math.MaxFloat32,
		0x1p-126, 0x1.fffffep-127, 1.0000001, 0.99999994}
	for range 200000 {
		x32 = append(x32, math.Float32frombits(rng.Uint32()))
		x32 = append(x32, float32(rng.Float64()+0.5))
	}
	// x ** 1.5: exact powers (squares of integers and of halves), the
	// ends of the loop's range (2^-84, whose power is float32's least
	// normal; the overflow near 4.9e25) and their neighbours, in groups
	// of sixteen so that the loop computes them itself.
	var edges []float32
	for k := 1; k < 3000; k += 7 {
		edges = append(edges, float32(k*k), float32(k*k)/4)
	}
	for _, e := range []float32{0x1p-84, 4.86e25, 4.8740157e25, 1, 4} {
		b := math.Float32bits(e)
		for d := uint32(0); d < 8; d++ {
			edges = append(edges, math.Float32frombits(b+d), math.Float32frombits(b-d))
		}
	}
	for len(edges)%16 != 0 {
		edges = append(edges, 2)
	}
	// The values the loops of x ** 4 and x ** -2 take that are not
	// ordinary: zeros, infinities, the ends of the range, subnormals.
	edges = append(edges, 0, float32(math.Copysign(0, -1)), float32(math.Inf(1)), float32(math.Inf(-1)),
		math.MaxFloat32, -math.MaxFloat32, math.SmallestNonzeroFloat32, -math.SmallestNonzeroFloat32,
		1e-20, -1e20, 3, -3, 0.5, -0.5, 0x1p-126, -0x1p-126)
	x32 = append(edges, x32...)
	x64 := []float64{0, math.Copysign(0, -1), 1, -1, math.Inf(1), math.Inf(-1), math.NaN(),
		0x1p1000, 0x1.0000000000001p1000, 0x1p-1000, 0x1.fffffffffffffp-1001, -0x1p-1000,
		math.SmallestNonzeroFloat64, math.MaxFloat64, 3, 0.1}
	for range 200000 {
		x64 = append(x64, math.Float64frombits(rng.Uint64()))
		x64 = append(x64, rng.Float64()+0.5)
		x64 = append(x64, math.Ldexp(rng.Float64()+0.5, rng.Intn(130)-65))
	}
	pow := func(dt dtypes.DType, y float64) *backend.Node {
		e := in(mk(dt, []int{}, y))
		return &backend.Node{Op: backend.OpPow, DType: dt, Args: []*backend.Node{in(mk(dt, []int{1}, 1)), e}}
	}
	for _, c := range []struct {
		y     float64
		avx2  bool
		loops bool // the kernel has assembly loops (AVX2 and AVX-512)
	}{{4, false, true}, {4, true, true}, {-2, false, true}, {-2, true, true}, {-1, false, false},
		{1.5, false, true}, {1.5, true, true}, {2.5, true, false}, {-3.5, true, false}, {-0.5, true, false}} {
		y := c.y
		if c.loops && constPowAsm[float32](y) == nil || c.avx2 && !libmAVX512 {
			continue
		}
		k := constPowKernel[float32](pow(dtypes.F32, y))
		if c.avx2 {
			k = avx2Kernel(func() kfn { return constPowKernel[float32](pow(dtypes.F32, y)) })
		}
		if k == nil {
			t.Fatalf("no float32 kernel for x**%v", y)
		}
		d := make([]float32, len(x32))
		ys := make([]float32, len(x32))
		for i := range ys {
			ys[i] = float32(y)
		}
		if err := k(d, []any{x32, ys}); err != nil {
			t.Fatal(err)
		}
		for i, x := range x32 {
			if want := float32(powF64(float64(x), y)); math.Float32bits(d[i]) != math.Float32bits(want) {
				t.Fatalf("float32 %v**%v = %v (%#x), powF64 %v (%#x)", x, y, d[i], math.Float32bits(d[i]), want, math.Float32bits(want))
			}
		}
	}
	// The ends of the float64 loop's range and their neighbours, in a
	// group of sixteen without a lane it leaves.
	x64 = append([]float64{0x1p1000, -0x1p1000, 0x1p-1000, -0x1p-1000, math.Nextafter(0x1p1000, 0),
		math.Nextafter(0x1p-1000, 1), 3, -3, 0.1, 1e300, -1e-300, 1.0000000000000002, 0.9999999999999999,
		7, 1e-5, 49}, x64...)
	// x ** -0.5 and x ** 1.5 are double-double forms rounded once, x **
	// -1 a quotient and its correction.
	for _, y := range []float64{-1, -0.5, 1.5, 0.5, 2.5, -1.5, 7.5, -14.5, 14.5} {
		ys := make([]float64, len(x64))
		for i := range ys {
			ys[i] = y
		}
		for _, avx2 := range []bool{false, true} {
			if avx2 && !libmAVX512 {
				continue
			}
			k := constPowKernel[float64](pow(dtypes.F64, y))
			if avx2 {
				k = avx2Kernel(func() kfn { return constPowKernel[float64](pow(dtypes.F64, y)) })
			}
			if k == nil {
				if haveAVX2 {
					t.Fatalf("no float64 kernel for x**%v", y)
				}
				continue // purego: no loop of half-integer powers
			}
			d := make([]float64, len(x64))
			if err := k(d, []any{x64, ys}); err != nil {
				t.Fatal(err)
			}
			for i, x := range x64 {
				if want := powF64(x, y); math.Float64bits(d[i]) != math.Float64bits(want) {
					t.Fatalf("float64 %v**%v = %v, powF64 %v (avx2 %v)", x, y, d[i], want, avx2)
				}
			}
		}
	}
	for _, y := range []float64{4, -2, 5, 15.5} {
		if constPowKernel[float64](pow(dtypes.F64, y)) != nil {
			t.Errorf("float64 x**%v has a short form: its squares are not exact", y)
		}
	}
}

// TestConstPowFloat32Exhaustive checks x**-1, x**-2, x**1.5, x**4 and,
// where the half-integer loop takes them (AVX2), x**2.5 and x**-0.5 on
// every float32 against powF64 (the short forms skip its correction
// step for float32: see constPowKernel), only when TENSORSH_EXHAUSTIVE
// is set.
func TestConstPowFloat32Exhaustive(t *testing.T) {
	if os.Getenv("TENSORSH_EXHAUSTIVE") == "" {
		t.Skip("set TENSORSH_EXHAUSTIVE=1 to check all 2^32 inputs")
	}
	for _, y := range []float64{-1, -2, 1.5, 4, 2.5, -0.5} {
		e := in(mk(dtypes.F32, []int{}, y))
		k := constPowKernel[float32](&backend.Node{Op: backend.OpPow, DType: dtypes.F32, Args: []*backend.Node{in(mk(dtypes.F32, []int{1}, 1)), e}})
		if k == nil {
			continue // the general loop's (AVX-512: half-integers)
		}
		var wg sync.WaitGroup
		var bad atomic.Int64
		const chunk = 1 << 16
		workers := runtime.GOMAXPROCS(0)
		for w := range workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				x, d, ys := make([]float32, chunk), make([]float32, chunk), make([]float32, chunk)
				for i := range ys {
					ys[i] = float32(y)
				}
				for c := w; c < 1<<32/chunk; c += workers {
					for i := range x {
						x[i] = math.Float32frombits(uint32(c*chunk + i))
					}
					if err := k(d, []any{x, ys}); err != nil {
						t.Error(err)
						return
					}
					for i, v := range x {
						if want := float32(powF64(float64(v), y)); math.Float32bits(d[i]) != math.Float32bits(want) {
							if bad.Add(1) <= 3 {
								t.Errorf("%v ** %v = %v, powF64 %v", v, y, d[i], want)
							}
						}
					}
				}
			}()
		}
		wg.Wait()
		if n := bad.Load(); n > 0 {
			t.Fatalf("x ** %v: %d float32 inputs differ", y, n)
		}
	}
}

// TestHasNaN32 checks the NaN scan of float32 x ** -1 on every NaN class
// (quiet, signalling, either sign, the extremes of the payload) and the
// values next to them (±Inf, the largest finite), at every position of
// slices of 1 to 100 elements and of 1000 (the vector steps of 32, the Go
// loop's four chains and its tail).
func TestHasNaN32(t *testing.T) {
	for n := 1; n <= 1000; n++ {
		if n > 100 && n != 1000 {
			continue
		}
		for p := range n {
			for _, b := range []uint32{0x7f800001, 0xffc00000, 0x7fffffff, 0xffffffff, 0x7fc00000, 0xff800001} {
				x := make([]float32, n)
				x[p] = math.Float32frombits(b)
				if !hasNaN32(x) {
					t.Errorf("hasNaN32 misses %#x at %d of %d", b, p, n)
				}
			}
			for _, b := range []uint32{0x7f800000, 0xff800000, 0, 0x80000000, 0x7f7fffff, 0xff7fffff, 1} {
				x := make([]float32, n)
				x[p] = math.Float32frombits(b)
				if hasNaN32(x) {
					t.Errorf("hasNaN32 finds a NaN in %#x at %d of %d", b, p, n)
				}
			}
		}
	}
}

// TestConstPowPath checks that the loops of constPowAsm compute ordinary
// inputs themselves (values of every scale): x ** 1.5 leaves only lanes
// near a float32 rounding midpoint to powF64, about one in 2^18; x ** 4,
// x ** -2 (float32) and x ** -1, x ** 1.5, x ** -0.5 (float64) leave
// none.
func TestConstPowPath(t *testing.T) {
	if constPowAsm[float32](1.5) == nil {
		t.Skip("no x ** y loops on this CPU")
	}
	rng := rand.New(rand.NewSource(3))
	x := make([]float32, 1<<14)
	x64 := make([]float64, len(x))
	for i := range x {
		x[i] = float32(math.Ldexp(rng.Float64()+0.5, rng.Intn(160)-80))
		x64[i] = math.Ldexp(rng.Float64()+0.5, rng.Intn(1600)-800)
		if i%2 == 1 {
			x64[i] = -x64[i]
		}
	}
	// float64 x ** 1.5 and x ** -0.5: positive x inside their loops'
	// ranges (a double-double within 2^-100 of a midpoint, one in 2^46,
	// is left).
	pos := make([]float64, len(x64))
	for i := range pos {
		pos[i] = math.Ldexp(rng.Float64()+0.5, rng.Intn(1180)-590)
	}
	for _, c := range []struct {
		y     float64
		f64   bool
		left  int
		input []float64
	}{{1.5, false, 4 * libmGroup(), nil}, {4, false, 0, nil}, {-2, false, 0, nil}, {-1, true, 0, x64},
		{1.5, true, 0, pos}, {-0.5, true, 0, pos}} {
		y := c.y
		var computed int
		if c.f64 {
			v, d := constPowAsm[float64](y), make([]float64, len(c.input))
			for i := 0; i < len(c.input); i += libmGroup() { // past each group it leaves
				n := v(d[i:], c.input[i:])
				computed += n
				i += n
			}
		} else {
			v, d := constPowAsm[float32](y), make([]float32, len(x))
			for i := 0; i < len(x); i += libmGroup() {
				n := v(d[i:], x[i:])
				computed += n
				i += n
			}
		}
		if computed < len(x)-c.left {
			t.Errorf("x ** %v (float64 %v): the loop computed %d of %d ordinary inputs", y, c.f64, computed, len(x))
		}
	}
	// The loop of half-integer powers, on x in [2^-60, 2^60].
	for i := range pos {
		pos[i] = math.Ldexp(rng.Float64()+0.5, rng.Intn(118)-59)
	}
	for _, y := range []float64{2.5, -1.5, 14.5, -14.5, 0.5} {
		v, d, ys := powhAsm[float64](), make([]float64, len(pos)), make([]float64, len(pos))
		for i := range ys {
			ys[i] = y
		}
		if n := v(d, pos, ys); n != len(pos) {
			t.Errorf("x ** %v: the half-integer loop computed %d of %d ordinary inputs", y, n, len(pos))
		}
		for i, x := range pos {
			if want := powF64(x, y); d[i] != want {
				t.Fatalf("x ** %v: the half-integer loop gives %v for %v, powF64 %v", y, d[i], x, want)
			}
		}
	}
}
