package cpu

import (
	"fmt"
	"math"
	"math/rand"
	"os"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"unsafe"

	"github.com/tensorsh/tensorsh/backend"
)

// libmOps are the operations with vector loops (simd_libm.go).
var libmOps = []backend.Op{backend.OpExp, backend.OpLog, backend.OpSin, backend.OpCos, backend.OpSigmoid, backend.OpSilu, backend.OpLog1p, backend.OpTanh, backend.OpExp2, backend.OpAtan, backend.OpTan, backend.OpExpm1,
	backend.OpAsin, backend.OpAcos, backend.OpLog10, backend.OpCosh, backend.OpSinh, backend.OpAtanh,
	backend.OpLog2, backend.OpAsinh, backend.OpAcosh}

// libmNone reports whether o has no vector loop on T here: float32 tanh
// has tanhF32 (tested in simd_test.go), and see libmFused.
func libmNone[T float32 | float64](o backend.Op) bool {
	_, f32 := any(T(0)).(float32)
	return f32 && o == backend.OpTanh || libmFused(o)
}

// eachLibmLoops runs f with the AVX2 loops, and again with the AVX-512
// loops where the CPU has them (libmAVX512).
func eachLibmLoops(t *testing.T, f func(t *testing.T)) {
	old := libmAVX512
	defer func() { libmAVX512 = old }()
	for _, on := range []bool{false, true} {
		if on && !old {
			continue // no AVX-512
		}
		libmAVX512 = on
		name := "avx2"
		if on {
			name = "avx512"
		}
		t.Run(name, f)
	}
}

// libmEdges64 are float64 inputs at the edges of the paths the scalar
// code takes: the ends of exp's normal range (k = ±1022, 1023, 1024:
// $GOROOT/src/math/exp_amd64.s archExp, its ldexp and denormal labels),
// log's special cases and the mantissa √2/2 where it halves f1
// ($GOROOT/src/math/log_amd64.s archLog), the reduction threshold 2^29
// of sin and cos ($GOROOT/src/math/trig_reduce.go) and the octant
// boundaries kπ/4 ($GOROOT/src/math/sin.go), NaN with payloads, ±0,
// ±Inf, subnormals.
func libmEdges64() []float64 {
	e := []float64{0, negz, 1, -1, 0.5, 2, inf, -inf, nan, -nan,
		math.Float64frombits(0x7FF0000000000001), math.Float64frombits(0xFFF8000000001234),
		math.Float64frombits(0x7FF4000000000000), // signalling NaN
		math.MaxFloat64, -math.MaxFloat64, math.SmallestNonzeroFloat64, -math.SmallestNonzeroFloat64,
		0x1p-1022, math.Nextafter(0x1p-1022, 0), -0x1p-1022, 1e-300, 1e-310,
		7.09782712893384e+02, math.Nextafter(7.09782712893384e+02, 0), math.Nextafter(7.09782712893384e+02, 1000),
		1023.5 * math.Ln2, math.Nextafter(1023.5*math.Ln2, 0), math.Nextafter(1023.5*math.Ln2, 1000),
		-1022.5 * math.Ln2, math.Nextafter(-1022.5*math.Ln2, 0), math.Nextafter(-1022.5*math.Ln2, -1000),
		-1021.5 * math.Ln2, -708, -708.4, -708.5, -745, -745.2, -746, 709, 710, 88.72, -103.97, -87.3,
		math.Float64frombits(0x3FE6A09E667F3BCD), math.Float64frombits(0x3FE6A09E667F3BCC),
		math.Float64frombits(0x3FE6A09E667F3BCE), math.Sqrt2, math.Float64frombits(0x3FF6A09E667F3BCD),
		1 << 29, math.Nextafter(1<<29, 0), -(1 << 29), math.Nextafter(-(1 << 29), 0), 1e9, 1e300, 1e-8, -1e-20,
		math.Pi, -math.Pi, math.Pi / 2, math.Pi / 4, 3 * math.Pi / 4, 1e5 * math.Pi, 355, 103993, -33102,
	}
	// log1p ($GOROOT/src/math/log1p.go): its thresholds 2^-54, 2^-29,
	// √2/2-1, √2-1, 2^53, -1, and 1+x a power of 2 or with a mantissa
	// within 4 of 2^52 (its branch iu == 0).
	for _, v := range []float64{0x1p-54, 0x1p-29, 4.142135623730950488017e-01, -2.928932188134524755992e-01, 0x1p53, -1, 1, 3, 7, -0.5, -0.75, 0x1p-20} {
		e = append(e, v, -v, math.Nextafter(v, inf), math.Nextafter(v, -inf))
	}
	// tanh ($GOROOT/src/math/tanh.go): its thresholds 0.625 and MAXLOG/2.
	for _, v := range []float64{0.625, 0.5 * 8.8029691931113054295988e+01} {
		e = append(e, v, -v, math.Nextafter(v, inf), math.Nextafter(v, -inf))
	}
	// exp2 (exp.go): the ends of the range the loops take, ±1000, and
	// halves where k = int(x ± 0.5) rounds; atan (atan.go): its
	// thresholds 0.66 and tan(3π/8); tan (tan.go, libm.go): 2^-12 and
	// where zz = 1e-14; expm1 (expm1.go): 2^-54, ln2/2, 1.5·ln2, 56·ln2,
	// the k of 2, 20 and 57, and x = -0.25 in k = 1's range.
	for _, v := range []float64{1000, 0.5, 1.5, 1023.5, 0.66, 2.41421356237309504880, 0x1p-12, 1e-7,
		0x1p-54, 3.46573590279972654709e-01, 1.03972077083991796413e+00, 3.88162421113569373274e+01,
		2.5 * math.Ln2, 19.5 * math.Ln2, 20.5 * math.Ln2, 56.5 * math.Ln2, 0.25, 700} {
		e = append(e, v, -v, math.Nextafter(v, inf), math.Nextafter(v, -inf))
	}
	for k := range 6 {
		e = append(e, 1-float64(k)*0x1p-52, 3-float64(k)*0x1p-51, -0.5-float64(k)*0x1p-54, float64(k)*0x1p-52)
	}
	for k := 1; k < 16; k++ {
		v := float64(k) * math.Pi / 4
		e = append(e, v, math.Nextafter(v, 0), math.Nextafter(v, 100), -v)
	}
	return e
}

// libmInputs64 returns the edges and n random float64 inputs of every
// scale, the float64 values of random float32 ones among them.
func libmInputs64(rng *rand.Rand, n int) []float64 {
	x := libmEdges64()
	for _, v := range simdInputs(rng, n/4) {
		x = append(x, float64(v))
	}
	for len(x) < n {
		switch rng.Intn(5) {
		case 0:
			x = append(x, rng.NormFloat64())
		case 1:
			x = append(x, rng.NormFloat64()*300)
		case 2:
			x = append(x, math.Float64frombits(rng.Uint64()))
		case 3:
			x = append(x, math.Exp(rng.NormFloat64()*100))
		default:
			x = append(x, rng.Float64()+0.5)
		}
	}
	rng.Shuffle(len(x), func(i, j int) { x[i], x[j] = x[j], x[i] })
	return x
}

// TestLibmVector checks the vector kernels against the scalar kernels of
// floatKernel (their definition) bit for bit, NaN payloads included, on
// edge and random inputs, for every length 0..70 and every start offset
// 0..7 of the slices (groups, tails, alignment).
func TestLibmVector(t *testing.T) {
	rng := rand.New(rand.NewSource(17))
	x64 := libmInputs64(rng, 40000)
	x32 := make([]float32, len(x64))
	for i, v := range x64 {
		x32[i] = float32(v)
	}
	// Each edge in a group of its own (sixteen copies), so that the loops
	// compute it themselves wherever they take it: among random inputs
	// most groups hold a lane they leave to the scalar code.
	var e64 []float64
	for _, v := range libmEdges64() {
		for range 16 {
			e64 = append(e64, v)
		}
	}
	for len(e64) < 8*71+2*71 {
		e64 = append(e64, e64...)
	}
	e32 := make([]float32, len(e64))
	for i, v := range e64 {
		e32[i] = float32(v)
	}
	eachLibmLoops(t, func(t *testing.T) {
		for _, o := range libmOps {
			checkLibm(t, o, x32)
			checkLibm(t, o, x64)
			checkLibm(t, o, e32)
			checkLibm(t, o, e64)
		}
	})
}

func checkLibm[T float32 | float64](t *testing.T, o backend.Op, x []T) {
	t.Helper()
	k := libmKernel[T](o)
	if k == nil {
		if haveAVX2 && !libmNone[T](o) {
			t.Fatalf("no vector kernel of %v", o)
		}
		return
	}
	ref := floatKernel[T](&backend.Node{Op: o})
	want, got := make([]T, len(x)), make([]T, len(x))
	run := func(k kfn, d, a []T) {
		if err := k(d, []any{a}); err != nil {
			t.Fatal(err)
		}
	}
	bad := 0
	check := func(what string, off int, d, w []T, a []T) {
		for i := range d {
			if math.Float64bits(float64(d[i])) != math.Float64bits(float64(w[i])) ||
				math.Float32bits(float32(d[i])) != math.Float32bits(float32(w[i])) {
				if bad++; bad <= 5 {
					t.Errorf("%v %T %s: x = %v (%#x): got %v, scalar %v", o, x[0], what, a[i], math.Float64bits(float64(a[i])), d[i], w[i])
				}
			}
		}
	}
	run(ref, want, x)
	run(k, got, x)
	check("all", 0, got, want, x)
	for off := range 8 {
		for n := range 71 {
			a := x[off*71+n : off*71+2*n]
			d := got[off : off+n]
			run(k, d, a)
			w := make([]T, n)
			run(ref, w, a)
			check("slice", off, d, w, a)
		}
	}
	// In place: d and a the same memory.
	y := append([]T(nil), x[:1000]...)
	run(k, y, y)
	check("in place", 0, y, want[:1000], x[:1000])
}

// TestLibmF32Exhaustive checks the float32 vector kernels on every one
// of the 2^32 float32 inputs against the scalar kernels (minutes on two
// cores, so only when TENSORSH_EXHAUSTIVE is set).
func TestLibmF32Exhaustive(t *testing.T) {
	if os.Getenv("TENSORSH_EXHAUSTIVE") == "" {
		t.Skip("set TENSORSH_EXHAUSTIVE=1 to check all 2^32 inputs")
	}
	if !haveAVX2 {
		t.Skip("no vector kernels on this CPU")
	}
	libmF32Exhaustive(t)
}

// TestLibmF32ExhaustiveAVX2 is TestLibmF32Exhaustive on the AVX2 loops of
// a CPU with AVX-512 (on one without, TestLibmF32Exhaustive runs them):
// the float32 loops most CPUs take, which compute the float64 function's
// own operations where the AVX-512 ones have loops of their own.
func TestLibmF32ExhaustiveAVX2(t *testing.T) {
	if os.Getenv("TENSORSH_EXHAUSTIVE") == "" {
		t.Skip("set TENSORSH_EXHAUSTIVE=1 to check all 2^32 inputs")
	}
	if !libmAVX512 {
		t.Skip("no AVX-512: TestLibmF32Exhaustive runs the AVX2 loops")
	}
	libmAVX512 = false
	defer func() { libmAVX512 = true }()
	libmF32Exhaustive(t)
}

// libmF32Exhaustive compares every float32 input's vector result with
// the scalar one, for each function with a loop.
func libmF32Exhaustive(t *testing.T) {
	for _, o := range libmOps {
		if libmNone[float32](o) {
			continue
		}
		t.Run(o.String(), func(t *testing.T) {
			k, ref := libmKernel[float32](o), floatKernel[float32](&backend.Node{Op: o})
			const chunk = 1 << 16
			var (
				next   atomic.Uint64
				differ atomic.Int64
				wg     sync.WaitGroup
			)
			for range runtime.GOMAXPROCS(0) {
				wg.Go(func() {
					x, d, w := make([]float32, chunk), make([]float32, chunk), make([]float32, chunk)
					for {
						lo := next.Add(chunk) - chunk
						if lo >= 1<<32 {
							return
						}
						for i := range x {
							x[i] = math.Float32frombits(uint32(lo) + uint32(i))
						}
						_ = k(d, []any{x})
						_ = ref(w, []any{x})
						for i := range x {
							if math.Float32bits(d[i]) != math.Float32bits(w[i]) {
								if differ.Add(1) <= 10 {
									t.Errorf("%v(%g) (bits %#08x) = %g, scalar %g", o, x[i], math.Float32bits(x[i]), d[i], w[i])
								}
							}
						}
					}
				})
			}
			wg.Wait()
			t.Logf("%d of 2^32 inputs differ", differ.Load())
		})
	}
}

// TestLibmVectorPath checks that the vector loops take ordinary inputs
// themselves, leaving none to the scalar code (else they would be right
// but slow): exp and sigmoid on [-700, 700], log on positive normal
// numbers, sin, cos and tan below 2^29, exp2, expm1 and atan from 1e-13
// to 700, arcsin and arccos inside (-1, 1); and that they give the scalar
// bits
// there (TestLibmVector's inputs have a lane the loops leave in most
// groups of sixteen).
func TestLibmVectorPath(t *testing.T) {
	if !haveAVX2 {
		t.Skip("no vector kernels on this CPU")
	}
	eachLibmLoops(t, testLibmVectorPath)
}

func testLibmVectorPath(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	const n = 4096
	for _, o := range libmOps {
		if libmFused(o) {
			continue
		}
		x := make([]float64, n)
		for i := range x {
			switch o {
			case backend.OpLog:
				x[i] = math.Exp((rng.Float64()*2 - 1) * 80)
			case backend.OpTanh:
				x[i] = (rng.Float64()*2 - 1) * 40
			case backend.OpLog1p:
				x[i] = math.Expm1(rng.Float64()*15.6 - 0.6) // 1+x far from 0: the float32 ones are powers of 2 there too often
			case backend.OpSin, backend.OpCos, backend.OpTan:
				x[i] = (rng.Float64()*2 - 1) * math.Exp(rng.Float64()*20)
			case backend.OpAcosh:
				// near 1 to 2^28, and runs of 32 in (1, 2] and above 2,
				// where the loops skip a body no lane takes
				x[i] = 1 + math.Exp(rng.Float64()*30-20)
				if i%128 < 32 {
					x[i] = 1 + rng.Float64()
				} else if i%128 < 64 {
					x[i] = 2.5 + rng.Float64()*100
				}
			case backend.OpAsinh:
				x[i] = (rng.Float64()*2 - 1) * 700
				if i%128 < 32 {
					x[i] = (rng.Float64()*2 - 1) * 2
				}
			case backend.OpLog2:
				x[i] = math.Exp((rng.Float64()*2 - 1) * 80)
				if i%128 < 32 {
					x[i] = 0.6 + rng.Float64()*1.3
				}
			case backend.OpLog10:
				x[i] = math.Exp((rng.Float64()*2 - 1) * 80)
			case backend.OpAtanh:
				x[i] = (rng.Float64()*2 - 1) * 0.9999
			case backend.OpAsin, backend.OpAcos:
				x[i] = (rng.Float64()*2 - 1) * 0.9999
			case backend.OpExp2, backend.OpExpm1, backend.OpAtan:
				// every scale from 1e-13 to 700: each of their branches
				x[i] = (rng.Float64()*2 - 1) * math.Exp(rng.Float64()*36.5-30)
				if o == backend.OpExpm1 && x[i] < expm1Lo {
					x[i] /= 20 // expm1F64's loops end at -36 (-1 from -38)
				}
			default:
				x[i] = (rng.Float64()*2 - 1) * 700
			}
		}
		x32 := make([]float32, n)
		for i, v := range x {
			x32[i] = float32(v)
			if o != backend.OpLog && o != backend.OpSin && o != backend.OpCos && o != backend.OpLog1p {
				x32[i] = float32(v / 8) // within float32's exp range
			}
		}
		d := make([]float64, n)
		if got := libmAsm[float64](o)(d, x); got != n {
			t.Errorf("%v float64: the vector loop stopped at %d of %d (x = %v)", o, got, n, x[got])
		}
		f, bad := libmRef(o), 0
		for i := range d {
			if w := f(x[i]); math.Float64bits(d[i]) != math.Float64bits(w) {
				if bad++; bad <= 5 {
					t.Errorf("%v(%v) = %v, scalar %v", o, x[i], d[i], w)
				}
			}
		}
		if libmNone[float32](o) {
			continue
		}
		d32 := make([]float32, n)
		if got := libmAsm[float32](o)(d32, x32); got != n {
			t.Errorf("%v float32: the vector loop stopped at %d of %d (x = %v)", o, got, n, x32[got:got+4])
		}
		for i := range d32 {
			if w := float32(f(float64(x32[i]))); math.Float32bits(d32[i]) != math.Float32bits(w) {
				if bad++; bad <= 5 {
					t.Errorf("%v(%v) = %v, scalar %v", o, x32[i], d32[i], w)
				}
			}
		}
	}
}

// BenchmarkLibm compares the scalar and the vector kernels on 16384
// elements in [0.5, 1.5) (the benchmark matrix's inputs).
func BenchmarkLibm(b *testing.B) {
	for _, o := range libmOps {
		benchLibm[float32](b, o)
		benchLibm[float64](b, o)
	}
}

func benchLibm[T float32 | float64](b *testing.B, o backend.Op) {
	rng := rand.New(rand.NewSource(1))
	x, d := make([]T, 16384), make([]T, 16384)
	for i := range x {
		x[i] = T(rng.Float64() + 0.5)
	}
	for _, k := range []struct {
		name string
		k    kfn
	}{{"scalar", floatKernel[T](&backend.Node{Op: o})}, {"avx2", avx2Kernel(func() kfn { return libmKernel[T](o) })},
		{"vector", libmKernel[T](o)}} {
		if k.k == nil {
			continue
		}
		b.Run(fmt.Sprintf("%v/%T/%s", o, T(0), k.name), func(b *testing.B) {
			b.SetBytes(int64(len(x)) * int64(unsafe.Sizeof(T(0))))
			for b.Loop() {
				_ = k.k(d, []any{x})
			}
		})
	}
}

// avx2Kernel returns the kernel f makes with the AVX2 loops, or nil where
// the vector kernel is AVX2's anyway.
func avx2Kernel(f func() kfn) kfn {
	if !libmAVX512 {
		return nil
	}
	libmAVX512 = false
	defer func() { libmAVX512 = true }()
	return f()
}

// powPairs returns n pairs (x, y) for x**y: edge exponents (integers,
// ±0.5, the ends of the vector loop's range |y| < 15.5, ±Inf, NaN) and
// bases (0, ±1, negative, ±Inf, NaN, 2^±256 and their neighbours,
// subnormal), random ones of every scale, and pairs whose result is near
// the ends of the normal range (math.Pow: $GOROOT/src/math/pow.go).
func powPairs(rng *rand.Rand, n int) (xs, ys []float64) {
	yEdge := []float64{0, negz, 1, -1, 2, 3, -3, 0.5, -0.5, 1.5, -1.5, 15.5, math.Nextafter(15.5, 0), -math.Nextafter(15.5, 0),
		math.Nextafter(15.5, 16), 15.25, 14.75, -14.75, 0.75, 0.25, 0.5000000000000001, 0.49999999999999994, 1e-300,
		1 / 3.0, -2.0 / 3, 7.3, inf, -inf, nan, 1e20, 1e300, 2.5, -2.5, 3.5, 4.5, 8.5, 12.5}
	xEdge := []float64{0, negz, 1, -1, 2, 0.5, -2, inf, -inf, nan, 0x1p-256, 0x1p256, math.Nextafter(0x1p-256, 0),
		math.Nextafter(0x1p256, inf), 0x1p-255, 0x1p255, 5e-324, 1e-310, 0x1p-1022, math.MaxFloat64, 1e-40, 1e40,
		math.Nextafter(1, 0), math.Nextafter(1, 2), 10, 0.1, 3, 1e15, 1e-15, 1e70, 1e-70}
	for _, x := range xEdge {
		for _, y := range yEdge {
			xs, ys = append(xs, x), append(ys, y)
		}
	}
	for len(xs) < n {
		var x, y float64
		switch rng.Intn(4) {
		case 0: // the benchmark's
			x, y = rng.Float64()+0.5, rng.Float64()+0.5
		case 1:
			x, y = math.Exp(rng.NormFloat64()*30), rng.NormFloat64()*6
		case 2: // results near the ends of the normal range
			x = math.Exp(rng.Float64()*170 + 1)
			y = (708 + rng.Float64()*2) / math.Log(x)
			if rng.Intn(2) == 0 {
				y = -y
			}
		default:
			x, y = math.Float64frombits(rng.Uint64()), math.Float64frombits(rng.Uint64())
			if rng.Intn(2) == 0 {
				y = float64(float32(rng.NormFloat64() * 8))
			}
		}
		xs, ys = append(xs, x), append(ys, y)
	}
	return xs, ys
}

// TestPowVector checks the vector kernel of x**y against the scalar
// kernel (powF64 in every lane) bit for bit, on float32 and float64, for
// every length 0..70 and start offset 0..7.
func TestPowVector(t *testing.T) {
	xs, ys := powPairs(rand.New(rand.NewSource(5)), 200000)
	x32, y32 := make([]float32, len(xs)), make([]float32, len(ys))
	for i := range xs {
		x32[i], y32[i] = float32(xs[i]), float32(ys[i])
	}
	eachLibmLoops(t, func(t *testing.T) {
		checkBin(t, backend.OpPow, xs, ys)
		checkBin(t, backend.OpPow, x32, y32)
	})
}

// checkBin checks the vector kernel of o (pow, atan2) against the
// scalar kernel of floatKernel, bit for bit, on the pairs x[i], y[i], in
// place, and for every length 0..70 and start offset 0..7.
func checkBin[T float32 | float64](t *testing.T, o backend.Op, x, y []T) {
	t.Helper()
	k := libmKernel[T](o)
	if k == nil {
		if haveAVX2 && !libmFused(o) {
			t.Fatalf("no vector kernel of %v", o)
		}
		return
	}
	ref := floatKernel[T](&backend.Node{Op: o})
	bad := 0
	check := func(a, b []T, in bool) {
		w, d := make([]T, len(a)), make([]T, len(a))
		_ = ref(w, []any{a, b})
		x := a
		if in { // in place, d the memory of a
			d = append([]T(nil), a...)
			a = d
		}
		_ = k(d, []any{a, b})
		for i := range d {
			if math.Float64bits(float64(d[i])) != math.Float64bits(float64(w[i])) {
				if bad++; bad <= 5 {
					t.Errorf("%T: %v(%v, %v) = %v, scalar %v", d[i], o, x[i], b[i], d[i], w[i])
				}
			}
		}
	}
	check(x, y, false)
	check(x[:1000], y[:1000], true)
	for off := range 8 {
		for n := range 71 {
			check(x[off*71+n:off*71+2*n], y[off*71+n:off*71+2*n], false)
		}
	}
}

// TestPowVectorPath checks that the vector loop of pow takes ordinary
// inputs itself: the benchmark's x, y in [0.5, 1.5) but 0.5, x in
// [1e-30, 1e30] with non-integer |y| < 8, and x in [1e-19, 1e19] with
// |y| < 15.4, and gives the scalar bits there (TestPowVector's inputs
// have a lane the loop leaves in most groups of sixteen).
func TestPowVectorPath(t *testing.T) {
	if !haveAVX2 {
		t.Skip("no vector kernels on this CPU")
	}
	eachLibmLoops(t, testPowVectorPath)
}

func testPowVectorPath(t *testing.T) {
	rng := rand.New(rand.NewSource(9))
	const n = 4096
	x, y := make([]float64, n), make([]float64, n)
	for i := range x {
		switch {
		case i < n/2:
			x[i], y[i] = rng.Float64()+0.5, rng.Float64()+0.5000001
		case i < 3*n/4:
			x[i], y[i] = math.Exp((rng.Float64()*2-1)*69), (rng.Float64()*2-1)*8+1e-6
		default: // every bit of yi, y < 0
			x[i], y[i] = math.Exp((rng.Float64()*2-1)*44), (rng.Float64()*2-1)*15.4+1e-6
		}
	}
	d := make([]float64, n)
	if got := binAsm[float64](backend.OpPow)(d, x, y); got != n {
		t.Errorf("float64: the vector loop stopped at %d of %d (%v ** %v)", got, n, x[got], y[got])
	}
	bad := 0
	for i := range d {
		if w := powF64(x[i], y[i]); math.Float64bits(d[i]) != math.Float64bits(w) {
			if bad++; bad <= 5 {
				t.Errorf("float64: %v ** %v = %v, scalar %v", x[i], y[i], d[i], w)
			}
		}
	}
	x32, y32, d32 := make([]float32, n), make([]float32, n), make([]float32, n)
	for i := range x {
		x32[i], y32[i] = float32(x[i]), float32(y[i])
	}
	if got := binAsm[float32](backend.OpPow)(d32, x32, y32); got != n {
		t.Errorf("float32: the vector loop stopped at %d of %d (%v ** %v)", got, n, x32[got], y32[got])
	}
	for i := range d32 {
		if w := float32(powF64(float64(x32[i]), float64(y32[i]))); math.Float32bits(d32[i]) != math.Float32bits(w) {
			if bad++; bad <= 5 {
				t.Errorf("float32: %v ** %v = %v, scalar %v", x32[i], y32[i], d32[i], w)
			}
		}
	}
}

// BenchmarkPow compares the scalar and the vector kernels of x**y on
// 16384 elements, x and y in [0.5, 1.5) (the benchmark matrix's inputs),
// and x**1.5.
func BenchmarkPow(b *testing.B) {
	benchPow[float32](b)
	benchPow[float64](b)
}

func benchPow[T float32 | float64](b *testing.B) {
	rng := rand.New(rand.NewSource(1))
	x, y, y15, d := make([]T, 16384), make([]T, 16384), make([]T, 16384), make([]T, 16384)
	for i := range x {
		x[i], y[i], y15[i] = T(rng.Float64()+0.5), T(rng.Float64()+0.5), 1.5
	}
	for _, k := range []struct {
		name string
		k    kfn
	}{{"scalar", floatKernel[T](&backend.Node{Op: backend.OpPow})},
		{"avx2", avx2Kernel(func() kfn { return libmKernel[T](backend.OpPow) })},
		{"vector", libmKernel[T](backend.OpPow)}} {
		if k.k == nil {
			continue
		}
		for _, e := range []struct {
			name string
			y    []T
		}{{"y", y}, {"1.5", y15}} {
			b.Run(fmt.Sprintf("%T/%s/%s", T(0), e.name, k.name), func(b *testing.B) {
				for b.Loop() {
					_ = k.k(d, []any{x, e.y})
				}
			})
		}
	}
}

// TestPowVectorMany checks the float32 vector kernel of x**y on 2^28
// random pairs (x any positive float32, one in [0.5, 1.5) or one of
// 2^-24..2^24, whose powers reach both ends of float32's range, each
// kind in groups of sixteen so that the loops that leave a group with an
// extreme lane take the others; y a float32 in (-16, 16)) against the
// scalar kernel, only when TENSORSH_EXHAUSTIVE is set (x**y has too many
// inputs for an exhaustive check).
func TestPowVectorMany(t *testing.T) {
	manyPairs(t, backend.OpPow, func(rng *rand.Rand, i int) (x, y float32) {
		switch i / 16 % 3 {
		case 0:
			x = float32(rng.Float64() + 0.5)
		case 1:
			// every scale whose powers reach the ends of float32's
			// range
			x = float32(math.Ldexp(rng.Float64()+1, rng.Intn(48)-24))
		default:
			x = math.Float32frombits(rng.Uint32() &^ (1 << 31))
		}
		return x, float32(rng.Float64()*32 - 16)
	})
}

// TestAtan2VectorMany checks the float32 vector kernel of arctan2 on
// 2^28 random pairs of either sign, of one scale in [0.5, 1.5), of
// scales 2^-60..2^60 apart (ratios that reach the loops' limits), and of
// any float32 bits, as TestPowVectorMany.
func TestAtan2VectorMany(t *testing.T) {
	sign := func(rng *rand.Rand, v float64) float32 {
		if rng.Intn(2) == 0 {
			v = -v
		}
		return float32(v)
	}
	manyPairs(t, backend.OpAtan2, func(rng *rand.Rand, i int) (x, y float32) {
		switch i / 16 % 3 {
		case 0:
			return sign(rng, rng.Float64()+0.5), sign(rng, rng.Float64()+0.5)
		case 1:
			return sign(rng, math.Ldexp(rng.Float64()+1, rng.Intn(120)-60)), sign(rng, rng.Float64()+0.5)
		}
		return math.Float32frombits(rng.Uint32()), math.Float32frombits(rng.Uint32())
	})
}

// manyPairs checks the float32 vector kernel of o against the scalar
// kernel on 2^28 pairs pair(rng, i) makes (i the index in a chunk of
// 2^16), only when TENSORSH_EXHAUSTIVE is set.
func manyPairs(t *testing.T, o backend.Op, pair func(rng *rand.Rand, i int) (x, y float32)) {
	if os.Getenv("TENSORSH_EXHAUSTIVE") == "" {
		t.Skip("set TENSORSH_EXHAUSTIVE=1 to check 2^28 random pairs")
	}
	k, ref := libmKernel[float32](o), floatKernel[float32](&backend.Node{Op: o})
	if k == nil {
		t.Skip("no vector kernels on this CPU")
	}
	const chunk = 1 << 16
	var (
		next   atomic.Int64
		differ atomic.Int64
		wg     sync.WaitGroup
	)
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			x, y, d, w := make([]float32, chunk), make([]float32, chunk), make([]float32, chunk), make([]float32, chunk)
			for {
				c := next.Add(1)
				if c > 1<<28/chunk {
					return
				}
				rng := rand.New(rand.NewSource(c))
				for i := range x {
					x[i], y[i] = pair(rng, i)
				}
				_ = k(d, []any{x, y})
				_ = ref(w, []any{x, y})
				for i := range x {
					if math.Float32bits(d[i]) != math.Float32bits(w[i]) {
						if differ.Add(1) <= 10 {
							t.Errorf("%v(%g, %g) = %g, scalar %g", o, x[i], y[i], d[i], w[i])
						}
					}
				}
			}
		})
	}
	wg.Wait()
	t.Logf("%d of 2^28 pairs differ", differ.Load())
}

// TestLibmF16 checks the table loop of the float32 kernels (libmF16) on
// float16 values, as a float16 tensor gives them: every one of the 65536
// in order and shuffled, each slice length 0..70 at offsets 0..7, and
// float16 values followed by others (the table loop stops there), bit for
// bit against the scalar kernels.
func TestLibmF16(t *testing.T) {
	initTables()
	h := make([]uint16, 1<<16)
	for i := range h {
		h[i] = uint16(i)
	}
	x := make([]float32, 1<<16)
	f16sToF32(x, h)
	rng := rand.New(rand.NewSource(16))
	shuffled := append([]float32(nil), x...)
	rng.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	mixed := append([]float32(nil), shuffled[:1000]...)
	for i := 517; i < len(mixed); i += 97 {
		mixed[i] = math.Nextafter32(mixed[i], 2) // not a float16 value (but ±0: subnormal)
	}
	eachLibmLoops(t, func(t *testing.T) {
		for _, o := range libmOps {
			if libmNone[float32](o) {
				continue
			}
			k, ref := libmKernel[float32](o), floatKernel[float32](&backend.Node{Op: o})
			if k == nil {
				continue // no vector kernels
			}
			for _, in := range [][]float32{x, shuffled, mixed} {
				bad := 0
				check := func(a []float32) {
					d, w := make([]float32, len(a)), make([]float32, len(a))
					_ = k(d, []any{a})
					_ = ref(w, []any{a})
					for i := range d {
						if math.Float32bits(d[i]) != math.Float32bits(w[i]) {
							if bad++; bad <= 5 {
								t.Errorf("%v(%g) (bits %#08x) = %g, scalar %g", o, a[i], math.Float32bits(a[i]), d[i], w[i])
							}
						}
					}
				}
				check(in)
				for off := range 8 {
					for n := range 71 {
						check(in[off*71+n : off*71+2*n])
					}
				}
			}
		}
	})
}

// TestAtan2Vector checks the vector loops of atan2 against atan2F64 (math.Atan2's
// special cases and algorithm on atanF64), bit for bit, NaN payloads included: every pair of special values (zeros,
// infinities, NaN, signs, the extremes), which stop the loop in their
// group, and random pairs in every quadrant and of every scale; and that
// the loops take finite nonzero pairs themselves.
func TestAtan2Vector(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	sp := []float64{0, negz, 1, -1, inf, -inf, nan, -nan, 1e-300, -1e300, math.SmallestNonzeroFloat64,
		math.MaxFloat64, -math.MaxFloat64, 0.5, -2, 2.41421356237309504880, 0.66}
	var y, x []float64
	for _, a := range sp {
		for _, b := range sp {
			y, x = append(y, a), append(x, b)
		}
	}
	for range 100000 {
		switch rng.Intn(3) {
		case 0:
			y, x = append(y, rng.NormFloat64()), append(x, rng.NormFloat64())
		case 1:
			y, x = append(y, math.Ldexp(rng.Float64()-0.5, rng.Intn(200)-100)), append(x, math.Ldexp(rng.Float64()-0.5, rng.Intn(200)-100))
		default:
			y, x = append(y, math.Float64frombits(rng.Uint64())), append(x, math.Float64frombits(rng.Uint64()))
		}
	}
	y32, x32 := make([]float32, len(y)), make([]float32, len(y))
	for i := range y {
		y32[i], x32[i] = float32(y[i]), float32(x[i])
	}
	eachLibmLoops(t, func(t *testing.T) {
		checkBin(t, backend.OpAtan2, y, x)
		checkBin(t, backend.OpAtan2, y32, x32)
		if !haveAVX2 || libmFused(backend.OpAtan2) {
			return
		}
		const n = 4096
		a, b, d := make([]float64, n), make([]float64, n), make([]float64, n)
		for i := range a {
			a[i], b[i] = rng.NormFloat64()*math.Exp(rng.Float64()*40-20), rng.NormFloat64()*math.Exp(rng.Float64()*40-20)
		}
		if got := binAsm[float64](backend.OpAtan2)(d, a, b); got != n {
			t.Errorf("float64: the vector loop stopped at %d of %d (atan2(%v, %v))", got, n, a[got], b[got])
		}
		for i := range d {
			if w := atan2F64(a[i], b[i]); math.Float64bits(d[i]) != math.Float64bits(w) {
				t.Fatalf("atan2(%v, %v) = %v, atan2F64 %v", a[i], b[i], d[i], w)
			}
		}
	})
}
