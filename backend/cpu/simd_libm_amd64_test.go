//go:build amd64 && !purego

package cpu

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"unsafe"
)

// TestLibmF16Path checks that the table loop takes float16 values and
// stops at the first group with another value.
func TestLibmF16Path(t *testing.T) {
	if !libmAVX512 {
		t.Skip("no AVX-512")
	}
	x := make([]float32, 4096)
	for i := range x {
		x[i] = float32(i%1024)/1024 + 0.5
	}
	tab := new([1 << 16]float32)
	if got := f16LookupAVX512(make([]float32, len(x)), x, &tab[0]); got != len(x) {
		t.Errorf("the table loop stopped at %d of %d (x = %v)", got, len(x), x[got:got+16])
	}
	x[1000] = math.Nextafter32(x[1000], 2)
	if got := f16LookupAVX512(make([]float32, len(x)), x, &tab[0]); got != 992 {
		t.Errorf("the table loop stopped at %d, want 992", got)
	}
}

// TestChained checks chained's hand-over with stand-in loops over groups
// of libmGroup elements: fast sets 1 and stops before each group whose
// first input is negative; exact sets 2 and stops before a group whose
// first input is below -10. The loop must run fast up to a group it
// leaves, exact on that group alone, fast again after it, and stop
// where exact stops.
func TestChained(t *testing.T) {
	g := libmGroup()
	loop := func(stop float32, v float32) func(d, a []float32) int {
		return func(d, a []float32) int {
			i := 0
			for ; i+g <= len(d) && a[i] >= stop; i += g {
				for j := i; j < i+g; j++ {
					d[j] = v
				}
			}
			return i
		}
	}
	fast, exact := loop(0, 1), loop(-10, 2)
	for _, c := range []struct {
		firsts []float32 // the first input of each group
		want   []float32 // each group's result (0: unset)
		n      int       // groups set
	}{
		{[]float32{1, 1, 1}, []float32{1, 1, 1}, 3},
		{[]float32{1, -1, 1}, []float32{1, 2, 1}, 3},
		{[]float32{-1, -1}, []float32{2, 2}, 2},
		{[]float32{1, -20, 1}, []float32{1, 0, 0}, 1},
		{[]float32{1, -1, -20}, []float32{1, 2, 0}, 2},
		{nil, nil, 0},
	} {
		a := make([]float32, len(c.firsts)*g)
		for k, v := range c.firsts {
			a[k*g] = v
		}
		d := make([]float32, len(a))
		if n := chained(fast, exact)(d, a); n != c.n*g {
			t.Errorf("%v: chained set %d, want %d", c.firsts, n, c.n*g)
		}
		for k, w := range c.want {
			for j := k * g; j < (k+1)*g; j++ {
				if d[j] != w {
					t.Fatalf("%v: group %d = %v, want %v", c.firsts, k, d[j], w)
				}
			}
		}
	}
}

// TestRoundCheckedPath checks that the float32 loops with the rounding
// test (log2r, log1pr, expm1r, asinhr, acoshr, atanhr) compute ordinary
// inputs of their ranges themselves, at both widths: the test leaves
// about one lane in 2^18 near a rounding midpoint, so nearly every group
// of random inputs is theirs (else chained would hand each to the
// function's own loop: right, but slow).
func TestRoundCheckedPath(t *testing.T) {
	if !haveAVX2 {
		t.Skip("no vector loops on this CPU")
	}
	rng := rand.New(rand.NewPCG(5, 7))
	in := func(lo, hi float64) []float32 {
		x := make([]float32, 1<<14)
		for i := range x {
			x[i] = float32(lo + (hi-lo)*rng.Float64())
		}
		return x
	}
	away := func(x []float32, m float32) []float32 {
		for i, v := range x {
			if v > -m && v < m {
				x[i] = m
			}
		}
		return x
	}
	for _, c := range []struct {
		name         string
		x            []float32
		avx2, avx512 func(d, a []float32) int
	}{
		{"log2", in(1e-3, 1e3), log2rF32AVX2, log2rF32AVX512},
		{"log1p", in(-0.9, 100), log1prF32AVX2, log1prF32AVX512},
		{"expm1", away(in(-10, 10), 1.0/64), expm1rF32AVX2, expm1rF32AVX512}, // |x| >= 2^-7: expm1's own loop below
		{"asinh", in(-100, 100), asinhrF32AVX2, asinhrF32AVX512},
		{"acosh", in(1.01, 100), acoshrF32AVX2, acoshrF32AVX512},
		{"atanh", in(-0.99, 0.99), atanhrF32AVX2, atanhrF32AVX512},
	} {
		for _, w := range []struct {
			name string
			v    func(d, a []float32) int
			g    int
		}{{"avx2", c.avx2, 4}, {"avx512", c.avx512, 16}} {
			if w.g == 16 && !libmAVX512 {
				continue
			}
			d := make([]float32, len(c.x))
			computed := 0
			for i := 0; i < len(c.x); i += w.g { // past each group it leaves
				n := w.v(d[i:], c.x[i:])
				computed += n
				i += n
			}
			if computed < len(c.x)-4*w.g {
				t.Errorf("%s/%s: the loop computed %d of %d ordinary inputs", c.name, w.name, computed, len(c.x))
			}
		}
	}
}

// TestTableLoops checks the float32 loops of funcs512 and binFuncs512
// (gen_libm.go) on their own: on ordinary inputs (those of the benchmark
// matrix, and wider ranges whose results stay normal float32 values) each
// loop takes every group itself but about one in 2^14 (the rounding
// check's share), and every element it sets has the scalar function's
// bits. TestLibmF32Exhaustive checks the unary ones (through their
// kernels) on every float32 input.
func TestTableLoops(t *testing.T) {
	if !libmAVX512 {
		t.Skip("no AVX-512")
	}
	rng := rand.New(rand.NewPCG(3, 4))
	const n = 1 << 18
	unif := func(lo, hi float64) func() float64 { return func() float64 { return lo + (hi-lo)*rng.Float64() } }
	expu := func(lo, hi float64) func() float64 {
		return func() float64 { return math.Exp(lo + (hi-lo)*rng.Float64()) }
	}
	for _, c := range []struct {
		name string
		loop func(d, a []float32) int
		ref  func(float64) float64
		x    func() float64
	}{
		{"log2", log2tF32AVX512, log2F64, expu(-100, 80)},
		{"log", logtF32AVX512, logF64, unif(0.5, 1.5)},
		{"log10", log10tF32AVX512, log10F64, expu(-100, 80)},
		{"log1p", log1ptF32AVX512, math.Log1p, unif(-0.99, 10)},
		{"exp2", exp2tF32AVX512, exp2F64, unif(-120, 120)},
		{"exp", exptF32AVX512, math.Exp, unif(-80, 80)},
		{"expm1", expm1tF32AVX512, math.Expm1, unif(-5, 5)},
		{"cosh", coshtF32AVX512, coshF64, unif(-80, 80)},
		{"sinh", sinhtF32AVX512, sinhF64, unif(-2, 2)},
		{"tanh", tanhtF32AVX512, tanh64, unif(-10, 10)},
		{"asinh", asinhtF32AVX512, math.Asinh, unif(-100, 100)},
		{"acosh", acoshtF32AVX512, math.Acosh, unif(1.01, 100)},
		{"atanh", atanhtF32AVX512, math.Atanh, unif(-0.99, 0.99)},
		{"sin", sintF32AVX512, math.Sin, unif(-1e4, 1e4)},
		{"cos", costF32AVX512, math.Cos, unif(0.5, 1.5)},
		{"tan", tantF32AVX512, tanF64, unif(-100, 100)},
		{"atan", atantF32AVX512, atanF64, unif(-50, 50)},
		{"asin", asinpF32AVX512, asinF64, unif(-1, 1)},
		{"acos", acospF32AVX512, acosF64, unif(-1, 1)},
		{"asin near", asinpF32AVX512, asinF64, unif(-0.5, 0.5)},
		{"acos near", acospF32AVX512, acosF64, unif(-0.5, 0.5)},
		{"rsqrt", rsqrttF32AVX512, func(x float64) float64 { return 1 / math.Sqrt(x) }, expu(-100, 80)},
	} {
		x, d := make([]float32, n), make([]float32, n)
		for i := range x {
			x[i] = float32(c.x())
		}
		checkTableLoop(t, c.name, n, func(i int) int { return c.loop(d[i:], x[i:]) }, func(i int) (float32, float32, string) {
			return d[i], float32(c.ref(float64(x[i]))), fmt.Sprint(x[i])
		})
	}
	for _, r := range []struct{ x, y func() float64 }{
		{unif(0.5, 1.5), unif(0.5, 1.5)},
		{expu(-5, 5), unif(-15.4, 15.4)},
		{unif(0.999, 1.001), unif(-15.4, 15.4)},
	} {
		x, y, d := make([]float32, n), make([]float32, n), make([]float32, n)
		for i := range x {
			x[i], y[i] = float32(r.x()), float32(r.y())
		}
		checkTableLoop(t, "pow", n, func(i int) int { return powtF32AVX512(d[i:], x[i:], y[i:]) }, func(i int) (float32, float32, string) {
			return d[i], float32(powF64(float64(x[i]), float64(y[i]))), fmt.Sprint(x[i], " ** ", y[i])
		})
	}

	x, y, d := make([]float32, n), make([]float32, n), make([]float32, n)
	for i := range x { // either sign, ratios up to 2^±40
		x[i], y[i] = float32(unif(-3, 3)()), float32(math.Ldexp(unif(-3, 3)(), rng.IntN(80)-40))
	}
	checkTableLoop(t, "atan2", n, func(i int) int { return atan2tF32AVX512(d[i:], x[i:], y[i:]) }, func(i int) (float32, float32, string) {
		return d[i], float32(atan2F64(float64(x[i]), float64(y[i]))), fmt.Sprint("atan2(", x[i], ", ", y[i], ")")
	})
}

// checkTableLoop runs loop (from element i on) over n elements, skipping
// each group of sixteen it leaves, and checks that it leaves few and
// that got(i) gives the bits of the scalar result where it set element i.
func checkTableLoop(t *testing.T, name string, n int, loop func(i int) int, got func(i int) (d, want float32, x string)) {
	t.Helper()
	left, bad := 0, 0
	for i := 0; i < n; {
		j := i + loop(i)
		for ; i < j; i++ {
			if d, w, x := got(i); math.Float32bits(d) != math.Float32bits(w) {
				if bad++; bad <= 3 {
					t.Errorf("%s(%s) = %v, scalar %v", name, x, d, w)
				}
			}
		}
		if i < n {
			left++
			i += 16
		}
	}
	if left > n/16/(1<<14)+4 {
		t.Errorf("%s: the loop left %d groups of %d", name, left, n/16)
	}
}

// TestRoundCheckMidpoint checks that the rounding check stops a loop on a
// result at a float32 rounding midpoint: x**1.5 of x = (1 + 2^-8)² is
// (1 + 2^-8)³ = 1 + 3·2^-8 + 3·2^-16 + 2^-24, half a float32 ULP above
// a float32 value (its low 29 bits are 2^28), and 1 + 2^-7, whose x**1.5
// is not near one, goes through.
func TestRoundCheckMidpoint(t *testing.T) {
	if !haveAVX2 {
		t.Skip("no vector loops on this CPU")
	}
	loops := map[string]func(d, a []float32) int{"avx2": pow15F32AVX2}
	if libmAVX512 {
		loops["avx512"] = pow15F32AVX512
	}
	for name, loop := range loops {
		for _, c := range []struct {
			x    float32
			want int
		}{{1 + 0x1p-7 + 0x1p-16, 0}, {1 + 0x1p-7, 16}} {
			x := make([]float32, 16)
			for i := range x {
				x[i] = c.x
			}
			if got := loop(make([]float32, 16), x); got != c.want {
				t.Errorf("%s: x**1.5 of %v: the loop set %d, want %d", name, c.x, got, c.want)
			}
		}
	}
}

// TestRsqrtF32Exhaustive checks the float32 kernel of rsqrt (rsqrtF32,
// whose AVX-512 loop does not divide) on every one of the 2^32 float32
// inputs against float32(1/math.Sqrt(x)).
func TestRsqrtF32Exhaustive(t *testing.T) {
	exhaustiveF32(t, "rsqrt", rsqrtF32, func(x float32) float32 { return float32(1 / math.Sqrt(float64(x))) })
}

// TestLibmTabs checks the copy of the lookup tables the AVX-512 loops
// read (libmTabs, R12): it starts on a cache line and holds libmTabSrc.
func TestLibmTabs(t *testing.T) {
	if uintptr(libmTabs)%64 != 0 {
		t.Fatalf("libmTabs at %p, not on a cache line", libmTabs)
	}
	got := unsafe.Slice((*uint64)(libmTabs), len(libmTabSrc))
	for i, v := range libmTabSrc {
		if got[i] != v {
			t.Fatalf("libmTabs[%d] = %#x, want %#x", i, got[i], v)
		}
	}
}
