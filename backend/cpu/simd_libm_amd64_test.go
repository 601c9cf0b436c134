//go:build amd64 && !purego

package cpu

import (
	"math"
	"math/rand/v2"
	"testing"
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
