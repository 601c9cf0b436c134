package cpu

import (
	"math"
	"math/rand"
	"testing"

	"github.com/tensorsh/tensorsh/backend"
	"github.com/tensorsh/tensorsh/dtypes"
)

// TestSumBytes checks sumBytes and sumBytesGo against a plain sum of the
// bytes as uint8 and as int8, at every length up to 300 and a long one, on
// random bytes and on runs of the extremes (0xff and 0x80, where the
// 16-bit lanes and the int8 correction are at their limits).
func TestSumBytes(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	lengths := []int{100000}
	for n := range 301 {
		lengths = append(lengths, n)
	}
	for _, n := range lengths {
		for _, fill := range []int{-1, 0xff, 0x80, 0x7f} {
			for off := range 2 {
				x := make([]byte, n+off)[off:]
				for i := range x {
					x[i] = byte(fill)
					if fill < 0 {
						x[i] = byte(rng.Intn(256))
					}
				}
				var u, s int64
				for _, b := range x {
					u += int64(b)
					s += int64(int8(b))
				}
				for _, f := range []func([]byte, bool) int64{sumBytes, sumBytesGo} {
					if got := f(x, false); got != u {
						t.Fatalf("n=%d fill=%d: uint8 sum %d, want %d", n, fill, got, u)
					}
					if got := f(x, true); got != s {
						t.Fatalf("n=%d fill=%d: int8 sum %d, want %d", n, fill, got, s)
					}
				}
			}
		}
	}
}

// TestColBytes checks colBytes against colBytesGo and colBytesGo against
// a plain loop: column counts around the 32 columns of a step, rows
// around none and one, strides wider than the columns.
func TestColBytes(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	for _, k := range []int{1, 7, 31, 32, 33, 64, 100, 130, 256, 300, 520} {
		for _, rows := range []int{0, 1, 2, 5, 300} {
			for _, stride := range []int{k, k + 3, 2*k + 64} {
				x := make([]byte, max(0, (rows-1)*stride)+k+5)
				for i := range x {
					x[i] = byte(rng.Intn(256))
				}
				if rows == 0 {
					x = x[:0]
				}
				for _, signed := range []bool{false, true} {
					want := make([]int32, k)
					for i := range rows {
						for j := range k {
							if signed {
								want[j] += int32(int8(x[i*stride+j]))
							} else {
								want[j] += int32(x[i*stride+j])
							}
						}
					}
					for name, f := range map[string]func([]int32, []byte, int, int, bool){"colBytes": colBytes, "colBytesGo": colBytesGo} {
						acc := make([]int32, k)
						for j := range acc {
							acc[j] = int32(j) // added to
							want[j] += int32(j)
						}
						f(acc, x, rows, stride, signed)
						for j := range acc {
							if acc[j] != want[j] {
								t.Fatalf("%s k=%d rows=%d stride=%d signed=%v: column %d = %d, want %d", name, k, rows, stride, signed, j, acc[j], want[j])
							}
							want[j] -= int32(j)
						}
					}
				}
			}
		}
	}
}

// TestByteMeansRound checks that a float32 mean of bytes whose sum can
// round (70000 uint8 of 255 and 253: partial sums above 2^24) is left to
// the float32 sum, whose pairwise roundings the integer sum would not
// make; and that float64 means and int64 sums of the same agree with the
// general walk.
func TestByteMeansRound(t *testing.T) {
	defer func(f bool) { fastReduce = f }(fastReduce)
	n := 70000
	vals := make([]float64, 2*n)
	for i := range vals {
		vals[i] = 255 - 2*float64(i%3%2)
	}
	x := in(mk(dtypes.U8, []int{2, n}, vals...))
	for _, node := range []*backend.Node{
		red(backend.OpMean, dtypes.F32, cast(x, dtypes.F32), false),
		red(backend.OpMean, dtypes.F32, cast(x, dtypes.F32), false, 1),
		red(backend.OpMean, dtypes.F64, cast(x, dtypes.F64), false, 1),
		red(backend.OpSum, dtypes.I64, cast(x, dtypes.I64), false, 1),
		red(backend.OpSum, dtypes.F32, cast(x, dtypes.F32), false, 0),
	} {
		fastReduce = true
		got := run(t, node)
		fastReduce = false
		want := run(t, node)
		if !sameBits(got, want) {
			t.Errorf("%v to %v along %v: %v, the general walk %v", node.Op, node.DType, node.Axes, head(got), head(want))
		}
	}
}

// TestSumInt32s checks sumInt32s, sumUint32s and the column sums of
// 32-bit integers against plain loops, at lengths around the 16 elements
// of a step, on random values and runs of the extremes.
func TestSumInt32s(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	lengths := []int{1000}
	for n := range 40 {
		lengths = append(lengths, n)
	}
	for _, n := range lengths {
		for _, fill := range []int64{-1, math.MinInt32, math.MaxInt32, -1 << 31 >> 1} {
			x := make([]int32, n)
			for i := range x {
				x[i] = int32(fill)
				if fill == -1 {
					x[i] = int32(rng.Uint32())
				}
			}
			var s, u int64
			for _, v := range x {
				s += int64(v)
				u += int64(uint32(v))
			}
			if got := sumInt32s(x); got != s {
				t.Fatalf("n=%d fill=%d: sum %d, want %d", n, fill, got, s)
			}
			if got := sumUint32s(x); got != u {
				t.Fatalf("n=%d fill=%d: uint32 sum %d, want %d", n, fill, got, u)
			}
		}
	}
	for _, k := range []int{1, 15, 16, 17, 40, 256, 300} {
		for _, rows := range []int{0, 1, 3, 50} {
			stride := k + 5
			x := make([]int32, max(0, (rows-1)*stride)+k)
			for i := range x {
				x[i] = int32(rng.Uint32())
			}
			if rows == 0 {
				x = x[:0]
			}
			for _, unsigned := range []bool{false, true} {
				got, want := make([]int64, k), make([]int64, k)
				for j := range got {
					got[j], want[j] = int64(j), int64(j)
				}
				for i := range rows {
					for j := range k {
						if unsigned {
							want[j] += int64(uint32(x[i*stride+j]))
						} else {
							want[j] += int64(x[i*stride+j])
						}
					}
				}
				if unsigned {
					colUint32s(got, x, rows, stride)
				} else {
					colInt32s(got, x, rows, stride)
				}
				for j := range got {
					if got[j] != want[j] {
						t.Fatalf("k=%d rows=%d unsigned=%v: column %d = %d, want %d", k, rows, unsigned, j, got[j], want[j])
					}
				}
			}
		}
	}
}

// TestViewReduce compares reductions of strided views walked in place
// (viewPlan, runRowsApart) with the same reductions of their row-major
// copies (the general walk, fastReduce off), bit for bit: slices of every
// axis, with steps, reduced along every axis and pair of axes, float and
// integer sums, means, products and extremes, with NaNs and signed zeros.
func TestViewReduce(t *testing.T) {
	defer func(f bool) { fastReduce = f }(fastReduce)
	rng := rand.New(rand.NewSource(5))
	slice := func(a *backend.Node, s ...backend.Slice) *backend.Node {
		shape := make([]int, len(s))
		for i, x := range s {
			shape[i] = (x.Stop - x.Start + x.Step - 1) / x.Step
		}
		return &backend.Node{Op: backend.OpSlice, DType: a.DType, Shape: shape, Args: []*backend.Node{a}, Slices: s}
	}
	for _, d := range []dtypes.DType{dtypes.F32, dtypes.F64, dtypes.I32, dtypes.I64, dtypes.U8} {
		shape := []int{9, 40, 300}
		vals := make([]float64, backend.Size(shape))
		for i := range vals {
			switch {
			case d.IsFloat() && rng.Intn(50) == 0:
				vals[i] = []float64{math.NaN(), math.Copysign(0, -1), 0, math.Inf(1)}[rng.Intn(4)]
			case d.IsFloat():
				vals[i] = rng.NormFloat64() * 100
			default:
				vals[i] = float64(rng.Intn(200))
			}
		}
		x := in(mk(d, shape, vals...))
		views := []*backend.Node{
			slice(x, sl(0, 9, 2), sl(0, 40, 1), sl(0, 300, 1)),
			slice(x, sl(0, 9, 1), sl(3, 40, 3), sl(0, 300, 1)),
			slice(x, sl(1, 9, 1), sl(0, 40, 1), sl(10, 60, 1)),
			slice(x, sl(0, 9, 1), sl(0, 40, 1), sl(0, 200, 1)),
			slice(x, sl(2, 7, 1), sl(5, 35, 2), sl(7, 207, 1)),
			slice(x, sl(0, 9, 1), sl(0, 40, 1), sl(0, 300, 2)),
		}
		for _, v := range views {
			for _, axes := range [][]int{nil, {0}, {1}, {2}, {0, 1}, {1, 2}, {0, 2}} {
				for _, op := range []backend.Op{backend.OpSum, backend.OpMean, backend.OpProd, backend.OpReduceMax, backend.OpReduceMin} {
					rd := d
					if op == backend.OpMean && !d.IsFloat() {
						rd = dtypes.F64
					}
					arg := v
					if rd != d {
						arg = cast(v, rd)
					}
					node := red(op, rd, arg, false, axes...)
					fastReduce = true
					got := run(t, node)
					fastReduce = false
					want := run(t, node)
					if !sameBits(got, want) {
						t.Fatalf("%v of %v%v (view of %v) along %v: in place %v, the copy %v", op, d, v.Shape, shape, axes, head(got), head(want))
					}
				}
			}
		}
	}
}
