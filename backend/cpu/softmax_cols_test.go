package cpu

import (
	"math"
	"math/rand"
	"testing"

	"github.com/tensorsh/tensorsh/backend"
	"github.com/tensorsh/tensorsh/dtypes"
)

// TestSoftmaxColsF32 checks the tiled float32 softmax and log-softmax
// along non-last axes bit for bit against the column-at-a-time
// computation it replaces (softmaxRow on the gathered column, rounded
// once to float32), on widths that are not multiples of the tile, with
// large values, infinities, NaNs, ±0 and repeated maxima (NumPy
// reference formula, as in bench/matrix.py and scipy.special.softmax:
// exp(x - max) / sum), by softmaxColsAVX512 where the CPU has AVX-512 and
// by the transposes.
func TestSoftmaxColsF32(t *testing.T) {
	saved := libmAVX512
	defer func() { libmAVX512 = saved }()
	for _, avx512 := range []bool{saved, false} {
		libmAVX512 = avx512
		testSoftmaxColsF32(t)
	}
}

func testSoftmaxColsF32(t *testing.T) {
	rng := rand.New(rand.NewSource(36))
	pool := []float64{math.Copysign(0, -1), 0, -1, -3}
	for si, shape := range [][]int{{37, 23}, {5, 41, 19}, {300, 17}, {2, 1}, {40, 300}, {9, 2, 70}, {7, 16}, {1, 33}, {6, 48}} {
		n := backend.Size(shape)
		vals := make([]float64, n)
		for i := range vals {
			if si == 8 {
				// Maxima that are zeros of either sign: the first
				// one is the maximum (x - max differs in sign).
				vals[i] = pool[rng.Intn(len(pool))]
				continue
			}
			switch r := rng.Intn(200); {
			case r == 0:
				vals[i] = math.NaN()
			case r == 1:
				vals[i] = math.Inf(1 - 2*rng.Intn(2))
			case r < 4:
				vals[i] = math.Copysign(0, float64(1-2*rng.Intn(2)))
			case r < 6:
				vals[i] = 2
			case r < 10:
				vals[i] = rng.NormFloat64() * 100
			default:
				vals[i] = rng.NormFloat64() * 3
			}
		}
		x := mk(dtypes.F32, shape, vals...)
		xs := x.Data.([]float32)
		for ax := 0; ax < len(shape)-1; ax++ {
			for _, op := range []backend.Op{backend.OpSoftmax, backend.OpLogSoftmax} {
				got := run(t, &backend.Node{Op: op, DType: dtypes.F32, Shape: shape, Args: []*backend.Node{in(x)}, Axes: []int{ax}}).Data.([]float32)
				xv := make([]float64, len(xs))
				for i, v := range xs {
					xv[i] = float64(v)
				}
				eachLine(shape, ax, xv, func(b, inner int, y []float64) {
					softmaxRow(y, op == backend.OpLogSoftmax)
					for i, v := range y {
						w := roundTo64(dtypes.F32, v)
						if g := got[b+i*inner]; math.Float32bits(g) != math.Float32bits(w) && !(g != g && w != w) {
							t.Fatalf("%v %v axis %d at %d+%d·%d: %v, want %v", op, shape, ax, b, i, inner, g, w)
						}
					}
				})
			}
		}
	}
}

// TestSoftmaxF64 checks the float64 softmax and log-softmax along every
// axis (softmaxRowF64 in the result, or softmaxColsF64 on rows of tiles
// or on transposed tiles of columns too long for that) bit
// for bit against softmaxRowExact on the gathered row, the scalar loop
// with math.Exp it replaces: rows shorter and longer than a vector, large
// values, subnormals, ±0, infinities and NaNs.
func TestSoftmaxF64(t *testing.T) {
	rng := rand.New(rand.NewSource(64))
	for _, shape := range [][]int{{37, 23}, {5, 41, 19}, {300, 17}, {2, 1}, {3, 1029}, {1, 7}, {40, 100}, {9000, 40}} {
		n := backend.Size(shape)
		vals := make([]float64, n)
		for i := range vals {
			switch r := rng.Intn(300); {
			case r == 0:
				vals[i] = math.NaN()
			case r == 1:
				vals[i] = math.Inf(1 - 2*rng.Intn(2))
			case r == 2:
				vals[i] = math.Copysign(0, float64(1-2*rng.Intn(2)))
			case r == 3:
				vals[i] = 5e-324 * float64(rng.Intn(1000))
			case r < 10:
				vals[i] = rng.NormFloat64() * 400
			default:
				vals[i] = rng.NormFloat64() * 3
			}
		}
		x := mk(dtypes.F64, shape, vals...)
		for ax := range shape {
			for _, op := range []backend.Op{backend.OpSoftmax, backend.OpLogSoftmax} {
				got := run(t, &backend.Node{Op: op, DType: dtypes.F64, Shape: shape, Args: []*backend.Node{in(x)}, Axes: []int{ax}}).Data.([]float64)
				eachLine(shape, ax, vals, func(b, inner int, y []float64) {
					softmaxRowExact(y, op == backend.OpLogSoftmax)
					for i, w := range y {
						if g := got[b+i*inner]; math.Float64bits(g) != math.Float64bits(w) {
							t.Fatalf("%v %v axis %d at %d+%d·%d: %v, want %v", op, shape, ax, b, i, inner, g, w)
						}
					}
				})
			}
		}
	}
}

// eachLine calls f for each line along axis ax of an array of shape
// holding vals: its first index b, the stride inner of its elements, and
// its values, gathered into y.
func eachLine(shape []int, ax int, vals []float64, f func(b, inner int, y []float64)) {
	outer, inner, m := backend.Size(shape[:ax]), backend.Size(shape[ax+1:]), shape[ax]
	y := make([]float64, m)
	for o := range outer {
		for k := range inner {
			b := o*m*inner + k
			for i := range y {
				y[i] = vals[b+i*inner]
			}
			f(b, inner, y)
		}
	}
}

// TestRowMaxF64 checks rowMaxF64 (the vector loop where there is one) and
// rowMaxF64Go bit for bit against rowMax on rows of
// every length up to 70 drawn from few values: ±0 (the first zero of the
// largest wins), NaNs with payloads (the first wins), ±Inf.
func TestRowMaxF64(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	pool := []float64{math.Copysign(0, -1), 0, -1, -2.5, math.Inf(-1), math.Inf(1), 3,
		math.Float64frombits(0x7ff8000000000001), math.Float64frombits(0xfff0000000000002)}
	for n := range 71 {
		for range 300 {
			x := make([]float64, n)
			for i := range x {
				x[i] = pool[rng.Intn(len(pool)-rng.Intn(5))]
			}
			if g, w := rowMaxF64(x), rowMax(x); math.Float64bits(g) != math.Float64bits(w) {
				t.Fatalf("rowMaxF64(%v) = %v (%#x), want %v (%#x)", x, g, math.Float64bits(g), w, math.Float64bits(w))
			}
			if g, w := rowMaxF64Go(x), rowMax(x); math.Float64bits(g) != math.Float64bits(w) {
				t.Fatalf("rowMaxF64Go(%v) = %v (%#x), want %v (%#x)", x, g, math.Float64bits(g), w, math.Float64bits(w))
			}
		}
	}
}

// TestSoftmaxNarrow checks softmax and log-softmax of float16, bfloat16
// and float8 inputs (and a float16 result of float32 values) along every
// axis bit for bit against softmaxRow on the gathered row in float64,
// rounded once to the result dtype (softmaxRowNarrow's vector steps and
// reciprocal division must give those bits): ±0, infinities, NaNs and
// values far apart (subnormal and underflowing quotients).
func TestSoftmaxNarrow(t *testing.T) {
	rng := rand.New(rand.NewSource(16))
	type pair struct{ in, out dtypes.DType }
	for _, p := range []pair{{dtypes.F16, dtypes.F16}, {dtypes.BF16, dtypes.BF16}, {dtypes.F8E4M3, dtypes.F8E4M3},
		{dtypes.F8E5M2, dtypes.F8E5M2}, {dtypes.F32, dtypes.F16}} {
		for _, shape := range [][]int{{37, 29}, {3, 50, 7}, {1, 70}} {
			n := backend.Size(shape)
			vals := make([]float64, n)
			for i := range vals {
				switch r := rng.Intn(100); {
				case r == 0:
					vals[i] = math.NaN()
				case r == 1:
					vals[i] = math.Inf(1 - 2*rng.Intn(2))
				case r < 4:
					vals[i] = math.Copysign(0, float64(1-2*rng.Intn(2)))
				case r < 10:
					vals[i] = rng.NormFloat64() * 30
				default:
					vals[i] = rng.NormFloat64() * 3
				}
			}
			x := mk(p.in, shape, vals...)
			xv := make([]float64, n) // the stored values
			for i := range xv {
				xv[i] = at(x, i)
			}
			for ax := range shape {
				for _, op := range []backend.Op{backend.OpSoftmax, backend.OpLogSoftmax} {
					got := run(t, &backend.Node{Op: op, DType: p.out, Shape: shape, Args: []*backend.Node{in(x)}, Axes: []int{ax}})
					eachLine(shape, ax, xv, func(b, inner int, y []float64) {
						softmaxRow(y, op == backend.OpLogSoftmax)
						for i, v := range y {
							w := float64(roundTo64(p.out, v))
							if g := at(got, b+i*inner); !same(g, w) {
								t.Fatalf("%v %v→%v %v axis %d at %d+%d·%d: %v, want %v", op, p.in, p.out, shape, ax, b, i, inner, g, w)
							}
						}
					})
				}
			}
		}
	}
}

// TestLogDiffF32 checks logDiffF32 (log-softmax's last step on a row:
// sixteen at a time by logColsF32AVX512 where the CPU has AVX-512) bit
// for bit against logDiffF32Go, on every length up to 70 and a long row,
// with infinities, NaNs and ±0 among x, mx and ls.
func TestLogDiffF32(t *testing.T) {
	rng := rand.New(rand.NewSource(41))
	pick := func() float64 {
		switch r := rng.Intn(40); {
		case r == 0:
			return math.NaN()
		case r == 1:
			return math.Inf(1 - 2*rng.Intn(2))
		case r == 2:
			return math.Copysign(0, float64(1-2*rng.Intn(2)))
		}
		return rng.NormFloat64() * 10
	}
	for n := range 1100 {
		if n > 70 && n != 1029 {
			continue
		}
		x := make([]float32, n)
		for i := range x {
			x[i] = float32(pick())
		}
		mx, ls := pick(), pick()
		got, want := make([]float32, n), make([]float32, n)
		logDiffF32(got, x, mx, ls)
		logDiffF32Go(want, x, mx, ls)
		for i := range got {
			if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
				t.Fatalf("n %d: float32(%v - %v - %v) = %v, want %v", n, x[i], mx, ls, got[i], want[i])
			}
		}
	}
}
