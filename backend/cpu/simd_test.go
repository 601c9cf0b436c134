package cpu

import (
	"math"
	"math/big"
	"math/rand"
	"os"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
)

// simdInputs returns float32 test inputs: random values of every scale,
// the special values, and the edges of the tanh and exp branches.
func simdInputs(rng *rand.Rand, n int) []float32 {
	special := []float32{0, float32(negz), 1, -1, 0.625, -0.625, math.Nextafter32(0.625, 0), 20, -20, 9.01, -9.01,
		float32(inf), float32(-inf), float32(nan), math.MaxFloat32, -math.MaxFloat32,
		math.SmallestNonzeroFloat32, -math.SmallestNonzeroFloat32, 1e-20, -1e-30, 88.7, -103.9, 1e-4, 708, -708}
	x := make([]float32, 0, n+len(special))
	x = append(x, special...)
	for len(x) < cap(x) {
		switch rng.Intn(4) {
		case 0:
			x = append(x, float32(rng.NormFloat64()))
		case 1:
			x = append(x, float32(rng.NormFloat64()*10))
		case 2:
			x = append(x, math.Float32frombits(rng.Uint32()))
		default:
			x = append(x, float32(rng.Float64()*1.3-0.65))
		}
	}
	return x
}

func sameBits32(a, b float32) bool {
	return math.Float32bits(a) == math.Float32bits(b) || a != a && b != b
}

func sameBits64(a, b float64) bool {
	return math.Float64bits(a) == math.Float64bits(b) || a != a && b != b
}

// TestSIMDMatchesGo checks that the assembly kernels give the bits of
// their Go references (on machines without AVX2 both are the Go loops).
func TestSIMDMatchesGo(t *testing.T) {
	t.Logf("AVX2 and FMA: %v", haveAVX2)
	rng := rand.New(rand.NewSource(3))
	for _, n := range []int{0, 1, 7, 8, 9, 31, 32, 33, 100, 4099} {
		x := simdInputs(rng, n)[:n]
		y := simdInputs(rng, n)[:n]
		d, want := make([]float32, n), make([]float32, n)
		for _, op := range []byte{'+', '-', '*', '/'} {
			binaryF32(op)(d, x, y)
			binaryF32Go(op)(want, x, y)
			for i := range d {
				if !sameBits32(d[i], want[i]) {
					t.Fatalf("%d: %g %c %g = %g, Go %g", n, x[i], op, y[i], d[i], want[i])
				}
			}
			x64, y64 := make([]float64, n), make([]float64, n)
			for i := range x {
				x64[i], y64[i] = float64(x[i])*(1+1e-9), float64(y[i])
			}
			d64, want64 := make([]float64, n), make([]float64, n)
			binaryF64(op)(d64, x64, y64)
			binaryF64Go(op)(want64, x64, y64)
			for i := range d64 {
				if !sameBits64(d64[i], want64[i]) {
					t.Fatalf("%d: %g %c %g = %g, Go %g", n, x64[i], op, y64[i], d64[i], want64[i])
				}
			}
		}
		tanhF32(d, x)
		tanhF32Go(want, x)
		for i := range d {
			if !sameBits32(d[i], want[i]) {
				t.Fatalf("tanh(%g) = %g, Go %g", x[i], d[i], want[i])
			}
		}
		// The prefetching form, with 1 to 3 regions of other memory.
		other := make([]byte, 3*n)
		for k := 1; k <= 3; k++ {
			var pf [][]byte
			for j := range k {
				pf = append(pf, other[j*n:(j+1)*n])
			}
			clear(d)
			tanhF32PF(d, x, pf)
			for i := range d {
				if !sameBits32(d[i], want[i]) {
					t.Fatalf("%d regions: tanh(%g) = %g, Go %g", k, x[i], d[i], want[i])
				}
			}
		}
		for _, m := range []float64{0, 3.5, -2, float64(float32(nan))} {
			e, ew := make([]float64, n), make([]float64, n)
			s, sw := expSumF32(e, x, m), expSumF32Go(ew, x, m)
			for i := range e {
				if !sameBits64(e[i], ew[i]) {
					t.Fatalf("exp(%g - %g) = %g, Go %g", x[i], m, e[i], ew[i])
				}
			}
			if !sameBits64(s, sw) {
				t.Fatalf("%d: exp sum %g, Go %g", n, s, sw)
			}
			// The prefetching form.
			clear(e)
			if s := expSumF32PF(e, x, m, other); !sameBits64(s, sw) {
				t.Fatalf("%d: exp sum with prefetch %g, Go %g", n, s, sw)
			}
			for i := range e {
				if !sameBits64(e[i], ew[i]) {
					t.Fatalf("exp(%g - %g) with prefetch = %g, Go %g", x[i], m, e[i], ew[i])
				}
			}
			divToF32(d, e, 3.7)
			divToF32Go(want, e, 3.7)
			for i := range d {
				if !sameBits32(d[i], want[i]) {
					t.Fatalf("%g / 3.7 = %g, Go %g", e[i], d[i], want[i])
				}
			}
		}
		i8 := make([]int8, n)
		for i := range i8 {
			i8[i] = int8(rng.Intn(256) - 128)
		}
		cvtI8F32(d, i8)
		cvtI8F32Go(want, i8)
		for i := range d {
			if d[i] != want[i] || d[i] != float32(i8[i]) {
				t.Fatalf("float32(%d) = %g, Go %g", i8[i], d[i], want[i])
			}
		}
		if n >= 8 {
			if got, w := sum8F32(x), sum8F32Go(x); !sameBits32(got, w) {
				t.Fatalf("%d: sum8 %g, Go %g", n, got, w)
			}
			// Finite values of mixed sign and scale, where the order matters.
			f := make([]float32, n)
			for i := range f {
				f[i] = float32(rng.NormFloat64() * math.Pow(10, float64(rng.Intn(12)-6)))
			}
			if got, w := sum8F32(f), sum8F32Go(f); !sameBits32(got, w) {
				t.Fatalf("%d: sum8 %g, Go %g", n, got, w)
			}
		}
	}
}

// ulp64 returns |got - ref| in float64 ULPs of ref, ref computed exactly
// enough in big.Float.
func ulp64(got float64, ref *big.Float) float64 {
	r, _ := ref.Float64()
	if r == 0 {
		return math.Abs(got) / math.SmallestNonzeroFloat64
	}
	_, e := math.Frexp(r)
	d := new(big.Float).Sub(new(big.Float).SetFloat64(got), ref)
	df, _ := d.Float64()
	return math.Abs(df) / math.Ldexp(1, e-53)
}

// bigExp returns e^x to 120 bits (Taylor series after halving).
func bigExp(x float64) *big.Float {
	const prec = 160
	v := new(big.Float).SetPrec(prec).SetFloat64(x)
	h := 0
	for v.Cmp(big.NewFloat(0.25)) > 0 || v.Cmp(big.NewFloat(-0.25)) < 0 {
		v.Quo(v, big.NewFloat(2))
		h++
	}
	sum := new(big.Float).SetPrec(prec).SetInt64(1)
	term := new(big.Float).SetPrec(prec).SetInt64(1)
	for k := 1; k < 60; k++ {
		term.Mul(term, v)
		term.Quo(term, new(big.Float).SetPrec(prec).SetInt64(int64(k)))
		sum.Add(sum, term)
	}
	for range h {
		sum.Mul(sum, sum)
	}
	return sum
}

// TestExpCoreAccuracy checks expCore against a 160-bit reference: within
// 2 ULP over the whole range it is used on.
func TestExpCoreAccuracy(t *testing.T) {
	rng := rand.New(rand.NewSource(4))
	worst := 0.0
	for i := range 20000 {
		var x float64
		switch i % 3 {
		case 0:
			x = rng.Float64()*1417 - 708
		case 1:
			x = rng.NormFloat64() * 3
		default:
			x = (rng.Float64() - 0.5) * 1e-6
		}
		got := expCore(x)
		d := ulp64(got, bigExp(x))
		worst = max(worst, d)
		if d > 2 {
			t.Fatalf("expCore(%v) = %v: %.2f ULP", x, got, d)
		}
	}
	t.Logf("worst %.3f ULP", worst)
}

// bigTanh returns tanh x = (e^2x - 1)/(e^2x + 1) in big.Float (small |x|
// through the series of e^2x - 1 to avoid cancellation).
func bigTanh(x float64) *big.Float {
	e := bigExp(2 * x) // 2x is exact
	num := new(big.Float).SetPrec(160).Sub(e, big.NewFloat(1))
	den := new(big.Float).SetPrec(160).Add(e, big.NewFloat(1))
	return num.Quo(num, den)
}

// TestTanh64Accuracy checks the float64 tanh the float32 kernel rounds:
// within 4 ULP (so within 2^-26 float32 ULP), against a 160-bit
// reference, and within 4 ULP of math.Tanh.
func TestTanh64Accuracy(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	worst := 0.0
	for i := range 20000 {
		var x float64
		switch i % 4 {
		case 0:
			x = rng.NormFloat64()
		case 1:
			x = (rng.Float64() - 0.5) * 1.3
		case 2:
			x = rng.Float64() * 19
		default:
			// Near the points where k (the power of 2 in e^2x) changes.
			x = (float64(rng.Intn(50)) + 0.5) * math.Ln2 / 2 * (1 + (rng.Float64()-0.5)*1e-6)
		}
		if x == 0 || math.Abs(x) > 19 {
			continue
		}
		got := tanh64(x)
		d := ulp64(got, bigTanh(x))
		worst = max(worst, d)
		if d > 4 {
			t.Fatalf("tanh64(%v) = %v: %.2f ULP", x, got, d)
		}
	}
	t.Logf("worst %.3f ULP", worst)
	for _, x := range []float64{0, negz, 20, -20, 100, inf, -inf, 1e-300, -1e-300, 0.625, -0.625, 1e-45, 0x1p-149} {
		if got, want := tanh64(x), math.Tanh(x); !same(got, want) && math.Abs(got-want) > 4*math.Abs(want)*0x1p-53 {
			t.Errorf("tanh64(%v) = %v, math.Tanh %v", x, got, want)
		}
	}
	if got := tanh64(nan); got == got {
		t.Errorf("tanh64(NaN) = %v", got)
	}
}

// TestTanhF32Rounding checks the float32 tanh: within 1 ULP of the exact
// value on every input tried, and equal to float32(math.Tanh(x)) (the
// correctly rounded value but for a 2^-29 ULP band) on all but a tiny
// fraction (logged).
func TestTanhF32Rounding(t *testing.T) {
	rng := rand.New(rand.NewSource(6))
	x := simdInputs(rng, 1<<20)
	got := make([]float32, len(x))
	tanhF32(got, x)
	differ := 0
	for i, v := range x {
		ref := math.Tanh(float64(v))
		if d := ulpDist32(got[i], ref); d > 1 {
			t.Fatalf("tanh(%g) = %g, reference %g: %.2f ULP", v, got[i], ref, d)
		}
		if !sameBits32(got[i], float32(ref)) {
			differ++
		}
	}
	t.Logf("%d of %d differ from float32(math.Tanh)", differ, len(x))
	if differ > len(x)/100000 {
		t.Errorf("%d of %d differ from float32(math.Tanh)", differ, len(x))
	}
}

// TestRowMaxF32 checks the vector row maximum against rowMax, bit for
// bit: NaNs (the first one wins), signed zeros (the first one wins), ±inf.
func TestRowMaxF32(t *testing.T) {
	rng := rand.New(rand.NewSource(9))
	specials := []float32{0, float32(negz), float32(nan), float32(inf), float32(-inf), -1, 1}
	for it := range 5000 {
		n := 1 + rng.Intn(70)
		x := make([]float32, n)
		for i := range x {
			switch rng.Intn(6) {
			case 0:
				x[i] = specials[rng.Intn(len(specials))]
			case 1:
				x[i] = -rng.Float32()
			default:
				x[i] = float32(rng.NormFloat64())
			}
			if it%3 == 0 && x[i] > 0 {
				x[i] = -x[i] // rows whose maximum is often a zero
			}
		}
		if got, want := rowMaxF32(x), rowMax(x); !sameBits32(got, want) || got != got && math.Float32bits(got) != math.Float32bits(want) {
			t.Fatalf("rowMaxF32(%v) = %v (%#x), rowMax %v (%#x)", x, got, math.Float32bits(got), want, math.Float32bits(want))
		}
	}
}

// TestStreamKernels checks the non-temporal forms of + - * / against the
// Go loops, with destinations at every alignment.
func TestStreamKernels(t *testing.T) {
	if binaryF32NT('+') == nil {
		t.Skip("no streaming kernels on this CPU")
	}
	rng := rand.New(rand.NewSource(11))
	for _, n := range []int{0, 1, 5, 8, 31, 64, 100, 1000} {
		for off := range 9 {
			x, y := simdInputs(rng, n+off)[:n+off], simdInputs(rng, n+off)[:n+off]
			d, want := make([]float32, n+off), make([]float32, n+off)
			x64, y64 := make([]float64, n+off), make([]float64, n+off)
			for i := range x {
				x64[i], y64[i] = float64(x[i])*(1+1e-9), float64(y[i])
			}
			d64, want64 := make([]float64, n+off), make([]float64, n+off)
			for _, op := range []byte{'+', '-', '*', '/'} {
				binaryF32NT(op)(d[off:], x[off:], y[off:])
				binaryF32Go(op)(want[off:], x[off:], y[off:])
				binaryF64NT(op)(d64[off:], x64[off:], y64[off:])
				binaryF64Go(op)(want64[off:], x64[off:], y64[off:])
				for i := range d {
					if !sameBits32(d[i], want[i]) || !sameBits64(d64[i], want64[i]) {
						t.Fatalf("n=%d off=%d %c [%d]: %g %g, Go %g %g", n, off, op, i, d[i], d64[i], want[i], want64[i])
					}
				}
			}
		}
	}
}

// TestTanhF32Exhaustive checks the float32 tanh kernel on every one of
// the 2^32 float32 inputs against float32(math.Tanh(x)) (about a minute
// on two cores, so only when TENSORSH_EXHAUSTIVE is set).
func TestTanhF32Exhaustive(t *testing.T) {
	exhaustiveF32(t, "tanh", tanhF32, func(x float32) float32 { return float32(math.Tanh(float64(x))) })
}

// exhaustiveF32 checks the float32 loop f against want on every one of
// the 2^32 float32 inputs, chunks of 2^16 spread over the cores, only when
// TENSORSH_EXHAUSTIVE is set; NaNs match any NaN.
func exhaustiveF32(t *testing.T, name string, f func(d, x []float32), want func(x float32) float32) {
	if os.Getenv("TENSORSH_EXHAUSTIVE") == "" {
		t.Skip("set TENSORSH_EXHAUSTIVE=1 to check all 2^32 inputs")
	}
	const chunk = 1 << 16
	var (
		next   atomic.Uint64
		differ atomic.Int64
		wg     sync.WaitGroup
	)
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			x, d := make([]float32, chunk), make([]float32, chunk)
			for {
				lo := next.Add(chunk) - chunk
				if lo >= 1<<32 {
					return
				}
				for i := range x {
					x[i] = math.Float32frombits(uint32(lo) + uint32(i))
				}
				f(d, x)
				for i, v := range x {
					if w := want(v); !sameBits32(d[i], w) {
						if differ.Add(1) <= 10 {
							t.Errorf("%s(%g) (bits %#08x) = %g, scalar %g", name, v, math.Float32bits(v), d[i], w)
						}
					}
				}
			}
		})
	}
	wg.Wait()
	t.Logf("%d of 2^32 inputs differ", differ.Load())
}
