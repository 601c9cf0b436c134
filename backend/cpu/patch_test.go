package cpu

import (
	"math"
	"math/rand"
	"slices"
	"testing"

	"github.com/tensorsh/tensorsh/backend"
)

// patchInputs returns n arguments of o: a share frac of them outside its
// domain (below flatLo and above flatHi, between those and the domain,
// NaN, ±Inf, the bounds and their neighbours), the others inside it,
// in random places.
func patchInputs(rng *rand.Rand, m *domain, n int, frac float64) []float64 {
	lo, hi := max(m.lo, -1e6), min(m.hi, 1e6)
	var out []float64
	for _, v := range []float64{m.lo, m.hi, m.flatLo, m.flatHi} {
		if !math.IsInf(v, 0) {
			out = append(out, v, math.Nextafter(v, inf), math.Nextafter(v, -inf), v-1, v+1)
		}
	}
	out = append(out, nan, -nan, inf, -inf, 0, negz, math.MaxFloat64, -math.MaxFloat64, 1e-310, -1e-310,
		float64(math.MaxFloat32), -float64(math.MaxFloat32), math.Float64frombits(0x7FF0000000000123))
	x := make([]float64, n)
	for i := range x {
		switch {
		case rng.Float64() >= frac:
			x[i] = lo + (hi-lo)*rng.Float64()
		case rng.Intn(4) == 0:
			x[i] = out[rng.Intn(len(out))]
		case rng.Intn(2) == 0:
			x[i] = math.Nextafter(m.lo, -inf) - rng.ExpFloat64()*max(1, math.Abs(m.lo))
		default:
			x[i] = math.Nextafter(m.hi, inf) + rng.ExpFloat64()*max(1, math.Abs(m.hi))
		}
	}
	return x
}

// TestLibmPatch checks the vector kernels against the scalar ones, bit
// for bit, where many arguments lie outside the domain of the vector
// loops (libmPatch): log of negative numbers, arcsin beyond 1, exp of
// -800, mixed at random with arguments inside it, 1% to 99% of them,
// over runs longer than patchRun, at every offset, and in place.
func TestLibmPatch(t *testing.T) {
	rng := rand.New(rand.NewSource(29))
	eachLibmLoops(t, func(t *testing.T) {
		for _, o := range libmOps {
			for _, frac := range []float64{0.01, 0.5, 0.99} {
				if m := libmDomain[float64](o); m != nil {
					checkPatch(t, o, patchInputs(rng, m, 2*patchRun+77, frac))
				}
				if m := libmDomain[float32](o); m != nil {
					x := patchInputs(rng, m, 2*patchRun+77, frac)
					x32 := make([]float32, len(x))
					for i, v := range x {
						x32[i] = float32(v)
					}
					checkPatch(t, o, x32)
				}
			}
		}
	})
}

func checkPatch[T float32 | float64](t *testing.T, o backend.Op, x []T) {
	t.Helper()
	k := libmKernel[T](o)
	if k == nil {
		return
	}
	ref := floatKernel[T](&backend.Node{Op: o})
	run := func(k kfn, d, a []T) {
		if err := k(d, []any{a}); err != nil {
			t.Fatal(err)
		}
	}
	want := make([]T, len(x))
	run(ref, want, x)
	bad := 0
	check := func(what string, got, want, a []T) {
		for i := range got {
			if math.Float64bits(float64(got[i])) != math.Float64bits(float64(want[i])) {
				if bad++; bad <= 5 {
					t.Errorf("%v %T %s: x = %v (%#x): got %v, scalar %v", o, x[0], what, a[i], math.Float64bits(float64(a[i])), got[i], want[i])
				}
			}
		}
	}
	for off := range 17 {
		got := make([]T, len(x)-off)
		run(k, got, x[off:])
		check("slice", got, want[off:], x[off:])
	}
	y := slices.Clone(x)
	run(k, y, y)
	check("in place", y, want, x)
}

// TestPatchArgs checks patchArgs (AVX-512 where the CPU has it) against
// patchArgsGo on random arguments of every length up to 200.
func TestPatchArgs(t *testing.T) {
	rng := rand.New(rand.NewSource(31))
	m := domain{-2, 3, 0.5, -10, 20}
	for n := range 200 {
		x := patchInputs(rng, &m, n, 0.5)
		testPatchArgs(t, m, x)
		x32 := make([]float32, n)
		for i, v := range x {
			x32[i] = float32(v)
		}
		testPatchArgs(t, m, x32)
	}
}

func testPatchArgs[T float](t *testing.T, m domain, a []T) {
	t.Helper()
	b := newPatchBounds[T](&m)
	type out struct {
		t, x         []T
		at           []int32
		below, above []byte
		n            int
	}
	part := func(f func(t, x []T, at []int32, below, above []byte, a []T, b *patchBounds[T]) int) out {
		n := len(a)
		o := out{t: make([]T, n), x: make([]T, n), at: make([]int32, n), below: make([]byte, (n+7)/8), above: make([]byte, (n+7)/8)}
		for i := range o.below {
			o.below[i], o.above[i] = 0xA5, 0x5A // written, not ORed into
		}
		o.n = f(o.t, o.x, o.at, o.below, o.above, a, &b)
		o.x, o.at = o.x[:o.n], o.at[:o.n]
		return o
	}
	got := part(patchArgs[T])
	want := part(func(t, x []T, at []int32, below, above []byte, a []T, b *patchBounds[T]) int {
		return patchArgsGo(t, x, at, below, above, a, b, 0, 0)
	})
	same := func(p, q []T) bool {
		return slices.EqualFunc(p, q, func(u, v T) bool { return math.Float64bits(float64(u)) == math.Float64bits(float64(v)) })
	}
	if !same(got.t, want.t) || !same(got.x, want.x) || !slices.Equal(got.at, want.at) ||
		!slices.Equal(got.below, want.below) || !slices.Equal(got.above, want.above) {
		t.Fatalf("%T, %d arguments: patchArgs %+v, patchArgsGo %+v", a[0], len(a), got, want)
	}
	// And patchArgsGo itself, on each argument: the copy holds it or
	// safe, and it is in exactly one of inside, below, above and x.
	j := 0
	for i, y := range a {
		in := b.lo <= y && y <= b.hi
		finite := !math.IsInf(float64(y), 0)
		lo, hi := !in && finite && y < b.flatLo, !in && finite && y > b.flatHi
		if want.below[i/8]>>(i%8)&1 != 0 != lo || want.above[i/8]>>(i%8)&1 != 0 != hi {
			t.Fatalf("%T: %v: below %v above %v, want %v %v", y, y, !lo, !hi, lo, hi)
		}
		if in && want.t[i] != y || !in && want.t[i] != b.safe {
			t.Fatalf("%T: %v copied as %v", y, y, want.t[i])
		}
		if !in && !lo && !hi {
			if j >= want.n || want.at[j] != int32(i) {
				t.Fatalf("%T: %v (place %d) not left to f", y, y, i)
			}
			j++
		}
	}
	if j != want.n {
		t.Fatalf("%T: %d left to f, want %d", a[0], want.n, j)
	}
}

// TestRounded checks that rounded gives the float32 nearest v on the
// side dir says.
func TestRounded(t *testing.T) {
	for _, v := range []float64{0.1, -0.1, -708.4, 709.78, 1e-40, -750, 0, math.MaxFloat64, -math.MaxFloat64, inf, -inf} {
		for _, dir := range []int{1, -1} {
			r := rounded[float32](v, dir)
			step := math.Nextafter32(r, -float32(dir)*float32(inf)) // one step back toward v
			ok := float64(r) == v ||
				dir > 0 && float64(r) > v && float64(step) < v ||
				dir < 0 && float64(r) < v && float64(step) > v
			if !ok {
				t.Errorf("rounded(%v, %d) = %v", v, dir, r)
			}
		}
	}
	if got := rounded[float64](0.1, 1); got != 0.1 {
		t.Errorf("float64: %v", got)
	}
}

// TestBinPatch checks x ** y and arctan2 against their scalar kernels,
// bit for bit, where many pairs lie outside the domain of the vector
// loops (binPatch): negative x, zeros, integer and large y, NaN, ±Inf,
// 1% to 99% of them at random among pairs inside it, over runs longer
// than patchRun, and in place.
func TestBinPatch(t *testing.T) {
	rng := rand.New(rand.NewSource(37))
	odd := []float64{0, negz, 1, -1, 2, -3, 0.5, -0.5, 16, -16, 100, nan, inf, -inf, 1e-300, 0x1p-256, 0x1p256, 1e300, math.MaxFloat64}
	eachLibmLoops(t, func(t *testing.T) {
		for _, o := range []backend.Op{backend.OpPow, backend.OpAtan2} {
			for _, frac := range []float64{0.01, 0.5, 0.99} {
				n := 2*patchRun + 77
				x, y := make([]float64, n), make([]float64, n)
				for i := range x {
					x[i], y[i] = 0.01+rng.Float64()*100, (rng.Float64()-0.5)*20
					if y[i] == math.Trunc(y[i]) {
						y[i] += 0.25
					}
					if rng.Float64() < frac {
						switch rng.Intn(6) {
						case 0:
							x[i] = -x[i]
						case 4: // math.Pow's Sqrt(x), not its NaN()
							x[i], y[i] = -x[i], float64(rng.Intn(2))-0.5
						case 5: // both odd: arctan2 of two zeros
							x[i], y[i] = odd[rng.Intn(len(odd))], odd[rng.Intn(len(odd))]
						case 1:
							x[i] = odd[rng.Intn(len(odd))]
						case 2:
							y[i] = odd[rng.Intn(len(odd))]
						default:
							y[i] = math.Trunc(y[i])
						}
					}
				}
				x32, y32 := make([]float32, n), make([]float32, n)
				for i := range x {
					x32[i], y32[i] = float32(x[i]), float32(y[i])
				}
				checkBinPatch(t, o, x, y)
				checkBinPatch(t, o, x32, y32)
			}
		}
	})
}

func checkBinPatch[T float32 | float64](t *testing.T, o backend.Op, x, y []T) {
	t.Helper()
	k := libmKernel[T](o)
	if k == nil {
		return
	}
	ref := floatKernel[T](&backend.Node{Op: o})
	want := make([]T, len(x))
	_ = ref(want, []any{x, y})
	bad := 0
	check := func(what string, got, want, a, b []T) {
		for i := range got {
			if math.Float64bits(float64(got[i])) != math.Float64bits(float64(want[i])) {
				if bad++; bad <= 5 {
					t.Errorf("%v %T %s: (%v, %v): got %v, scalar %v", o, x[0], what, a[i], b[i], got[i], want[i])
				}
			}
		}
	}
	for off := range 17 {
		got := make([]T, len(x)-off)
		_ = k(got, []any{x[off:], y[off:]})
		check("slice", got, want[off:], x[off:], y[off:])
	}
	a := slices.Clone(x)
	_ = k(a, []any{a, y})
	check("in place of x", a, want, x, y)
	b := slices.Clone(y)
	_ = k(b, []any{x, b})
	check("in place of y", b, want, x, y)
}
