package cpu

import (
	"math"
	"math/rand"
	"testing"

	"github.com/tensorsh/tensorsh/backend"
)

// TestBoolWords checks the word-at-a-time bool kernels against the
// operations on single bools, on every pair of inputs and on lengths
// around the word size (tails). The truth tables are NumPy's bool loops
// (numpy/_core/src/umath/loops.c.src, BOOL_@kind@: logical_and/or/xor,
// the comparisons of 0/1 values, maximum as or and minimum as and; add
// and multiply of bools are or and and, numpy/_core/src/umath/
// loops_logical.dispatch.c.src).
func TestBoolWords(t *testing.T) {
	ops := []struct {
		o backend.Op
		f func(x, y bool) bool
	}{
		{backend.OpAdd, func(x, y bool) bool { return x || y }},
		{backend.OpBitOr, func(x, y bool) bool { return x || y }},
		{backend.OpOr, func(x, y bool) bool { return x || y }},
		{backend.OpMax, func(x, y bool) bool { return x || y }},
		{backend.OpMul, func(x, y bool) bool { return x && y }},
		{backend.OpBitAnd, func(x, y bool) bool { return x && y }},
		{backend.OpAnd, func(x, y bool) bool { return x && y }},
		{backend.OpMin, func(x, y bool) bool { return x && y }},
		{backend.OpBitXor, func(x, y bool) bool { return x != y }},
		{backend.OpNe, func(x, y bool) bool { return x != y }},
		{backend.OpEq, func(x, y bool) bool { return x == y }},
		{backend.OpLt, func(x, y bool) bool { return !x && y }},
		{backend.OpLe, func(x, y bool) bool { return !x || y }},
		{backend.OpGt, func(x, y bool) bool { return x && !y }},
		{backend.OpGe, func(x, y bool) bool { return x || !y }},
	}
	rng := rand.New(rand.NewSource(1))
	for _, n := range []int{0, 1, 7, 8, 9, 16, 31, 1000} {
		a, b := make([]bool, n), make([]bool, n)
		for i := range a {
			a[i], b[i] = rng.Intn(2) == 1, rng.Intn(2) == 1
		}
		for _, op := range ops {
			k := boolKernel(op.o)
			d := make([]bool, n)
			if err := k(d, []any{a, b}); err != nil {
				t.Fatal(err)
			}
			for i := range d {
				// Compare the bytes: a result must be 0 or 1, never
				// another nonzero byte.
				if got, want := boolBytes(d)[i], boolBytes([]bool{op.f(a[i], b[i])})[0]; got != want {
					t.Errorf("%v(%v, %v) at %d of %d: byte %d, want %d", op.o, a[i], b[i], i, n, got, want)
				}
			}
		}
		d := make([]bool, n)
		if err := boolKernel(backend.OpNot)(d, []any{a}); err != nil {
			t.Fatal(err)
		}
		for i := range d {
			if boolBytes(d)[i] != boolBytes(a)[i]^1 {
				t.Errorf("not(%v) at %d: byte %d", a[i], i, boolBytes(d)[i])
			}
		}
	}
}

// TestMinMaxIntL checks the branch-free integer minimum and maximum
// against Go's min and max at the extremes of each width (np.minimum and
// np.maximum of integers: numpy/_core/src/umath/loops_minmax.dispatch.c.src,
// scalar_min_i / scalar_max_i).
func TestMinMaxIntL(t *testing.T) {
	check := func(name string, a, b []int64, conv func(int64) int64, mn, mx func(a, b []int64) []int64) {
		gotMin, gotMax := mn(a, b), mx(a, b)
		for i := range a {
			x, y := conv(a[i]), conv(b[i])
			if gotMin[i] != min(x, y) || gotMax[i] != max(x, y) {
				t.Errorf("%s: min/max(%d, %d) = %d, %d", name, x, y, gotMin[i], gotMax[i])
			}
		}
	}
	vals := []int64{math.MinInt64, math.MinInt32, -129, -128, -1, 0, 1, 127, 128, 255, 256, math.MaxInt32, math.MaxUint32, math.MaxInt64}
	var a, b []int64
	for _, x := range vals {
		for _, y := range vals {
			a, b = append(a, x), append(b, y)
		}
	}
	check("int8", a, b, func(v int64) int64 { return int64(int8(v)) }, viaT(minIntL[int8]), viaT(maxIntL[int8]))
	check("uint8", a, b, func(v int64) int64 { return int64(uint8(v)) }, viaT(minIntL[uint8]), viaT(maxIntL[uint8]))
	check("int32", a, b, func(v int64) int64 { return int64(int32(v)) }, viaT(minIntL[int32]), viaT(maxIntL[int32]))
	check("uint32", a, b, func(v int64) int64 { return int64(uint32(v)) }, viaT(minIntL[uint32]), viaT(maxIntL[uint32]))
	check("int64", a, b, func(v int64) int64 { return v }, viaT(minIntL[int64]), viaT(maxIntL[int64]))
}

// viaT runs an integer kernel of T on int64 inputs converted to T.
func viaT[T integer](k func(d, a, b []T)) func(a, b []int64) []int64 {
	return func(a, b []int64) []int64 {
		x, y, d := make([]T, len(a)), make([]T, len(b)), make([]T, len(a))
		for i := range a {
			x[i], y[i] = T(a[i]), T(b[i])
		}
		k(d, x, y)
		out := make([]int64, len(d))
		for i, v := range d {
			out[i] = int64(v)
		}
		return out
	}
}

// TestCountOnes checks countOnes (VPSADBW sums of 128-byte steps with
// AVX2) against a plain count on every length up to 300 and long runs,
// at unaligned starts, all ones and all zeros among them.
func TestCountOnes(t *testing.T) {
	rng := rand.New(rand.NewSource(8))
	buf := make([]byte, 1<<20+300)
	for i := range buf {
		buf[i] = byte(rng.Intn(2))
	}
	check := func(x []byte) {
		t.Helper()
		var want uint64
		for _, v := range x {
			want += uint64(v)
		}
		if got := countOnes(x); got != want {
			t.Fatalf("countOnes of %d bytes = %d, want %d", len(x), got, want)
		}
	}
	for n := range 301 {
		check(buf[n%7 : n%7+n])
	}
	check(buf[3 : 3+1<<20])
	ones := make([]byte, 1<<20)
	for i := range ones {
		ones[i] = 1
	}
	check(ones)
	check(make([]byte, 1000))
}
