package cpu

// Cumulative sums and products along one axis.

import (
	"fmt"

	"github.com/tensorsh/tensorsh/backend"
	"github.com/tensorsh/tensorsh/dtypes"
)

// scanTile is how many neighbouring scans (along the kept inner axes) one
// unit of work advances together, so that each step reads and writes
// contiguous memory.
const scanTile = 512

// Scan evaluates OpCumSum and OpCumProd along Axes[0] as NumPy's
// add.accumulate and multiply.accumulate do: the first element is copied,
// and each later one is the previous result combined with the next input,
// in the dtype's arithmetic (integers wrap; narrow floats are rounded to
// their format after every step, as NumPy's float16 loops do; complex
// products use NumPy's formula). The scans are independent and run in
// parallel.
func (r *runner) Scan(n *backend.Node, size int) (*view, error) {
	x, out, s, err := r.alongAxis(n, size)
	if err != nil || size == 0 {
		return r.finishAlong(out, n, err)
	}
	sum := n.Op == backend.OpCumSum
	dt := n.DType
	switch x := x.(type) {
	case []bool:
		f := func(a, b bool) bool { return a && b }
		if sum {
			f = func(a, b bool) bool { return a || b }
		}
		err = scanRun(r, s, x, out.([]bool), f, nil)
	case []int8:
		err = scanInt(r, s, x, out.([]int8), sum)
	case []int16:
		err = scanInt(r, s, x, out.([]int16), sum)
	case []int32:
		err = scanInt(r, s, x, out.([]int32), sum)
	case []int64:
		err = scanInt(r, s, x, out.([]int64), sum)
	case []uint8:
		err = scanInt(r, s, x, out.([]uint8), sum)
	case []uint16:
		err = scanInt(r, s, x, out.([]uint16), sum)
	case []uint32:
		err = scanInt(r, s, x, out.([]uint32), sum)
	case []uint64:
		err = scanInt(r, s, x, out.([]uint64), sum)
	case []float32:
		var rnd func([]float32)
		if narrow(dt) {
			rnd = func(v []float32) { roundFloat32(dt, v) }
		}
		err = scanInt(r, s, x, out.([]float32), sum, rnd)
	case []float64:
		err = scanInt(r, s, x, out.([]float64), sum)
	case []complex64:
		var rnd func([]complex64)
		if dt == dtypes.C32 {
			rnd = roundComplex32
		}
		err = scanComplex(r, s, x, out.([]complex64), sum, rnd)
	case []complex128:
		err = scanComplex(r, s, x, out.([]complex128), sum, nil)
	default:
		err = fmt.Errorf("cpu: %v of %v is not supported", n.Op, n.Args[0].DType)
	}
	return r.finishAlong(out, n, err)
}

// A scanShape is the input seen as outer × m × inner, scanned along m.
type scanShape struct{ outer, m, inner int }

// alongAxis evaluates the argument of n, a scan or a sort along
// n.Axes[0], into a compute buffer x, allocates the result's compute
// buffer out (size elements), and gives the shape of its lines.
func (r *runner) alongAxis(n *backend.Node, size int) (x, out any, s scanShape, err error) {
	a, err := r.eval(n.Args[0])
	if err != nil {
		return nil, nil, s, err
	}
	if x, err = r.computeBuf(a); err != nil {
		return nil, nil, s, err
	}
	if out, err = r.allocBufFull(computeOf(n.DType), size); err != nil {
		return nil, nil, s, err
	}
	ax := n.Axes[0]
	s = scanShape{m: a.shape[ax], inner: 1, outer: 1}
	for _, d := range a.shape[:ax] {
		s.outer *= d
	}
	for _, d := range a.shape[ax+1:] {
		s.inner *= d
	}
	return x, out, s, nil
}

// finishAlong returns the view of out, n's result, or err.
func (r *runner) finishAlong(out any, n *backend.Node, err error) (*view, error) {
	if err != nil {
		return nil, err
	}
	return r.finish(out, n.DType, n.DType, n.Shape)
}

// scanInt scans real numbers (integers wrap in Go's arithmetic); rnd, when
// given, rounds each new element to a narrow format.
func scanInt[T integer | float](r *runner, s scanShape, x, out []T, sum bool, rnd ...func([]T)) error {
	f := func(a, b T) T { return a * b }
	if sum {
		f = func(a, b T) T { return a + b }
	}
	var round func([]T)
	if len(rnd) > 0 {
		round = rnd[0]
	}
	if s.inner == 1 && round == nil {
		// Each scan is a run of memory: one loop, the running value in
		// a register (cumsum of 10^6 float32 took 8-9.5 ms as runs of
		// one inner index, against 3 ms for NumPy).
		return r.parallel(s.outer, max(1, grainSize/s.m), func(_, lo, hi int) error {
			for o := lo; o < hi; o++ {
				xs, ys := x[o*s.m:(o+1)*s.m], out[o*s.m:(o+1)*s.m]
				scanSeq(ys, xs, sum)
			}
			return nil
		})
	}
	return scanRun(r, s, x, out, f, round)
}

// scanSeq sets y to the running sums (or products) of x, in T's
// arithmetic, in order.
func scanSeq[T integer | float](y, x []T, sum bool) {
	y = y[:len(x)]
	acc := x[0]
	y[0] = acc
	if sum {
		for i := 1; i < len(x); i++ {
			acc += x[i]
			y[i] = acc
		}
		return
	}
	for i := 1; i < len(x); i++ {
		acc *= x[i]
		y[i] = acc
	}
}

func scanComplex[T complex64 | complex128](r *runner, s scanShape, x, out []T, sum bool, rnd func([]T)) error {
	f := cmul[T]
	if sum {
		f = func(a, b T) T { return a + b }
	}
	return scanRun(r, s, x, out, f, rnd)
}

// scanRun runs the scans in parallel, in units of one outer index and up
// to scanTile inner indices.
func scanRun[T any](r *runner, s scanShape, x, out []T, f func(a, b T) T, round func([]T)) error {
	tiles := (s.inner + scanTile - 1) / scanTile
	grain := max(1, grainSize/max(s.m*min(s.inner, scanTile), 1))
	return r.parallel(s.outer*tiles, grain, func(_, lo, hi int) error {
		for u := lo; u < hi; u++ {
			o, t := u/tiles, u%tiles
			k0 := t * scanTile
			k1 := min(k0+scanTile, s.inner)
			b := o * s.m * s.inner
			copy(out[b+k0:b+k1], x[b+k0:b+k1])
			for q := 1; q < s.m; q++ {
				row := b + q*s.inner
				prev, cur, in := out[row-s.inner+k0:row-s.inner+k1], out[row+k0:row+k1], x[row+k0:row+k1]
				for k := range cur {
					cur[k] = f(prev[k], in[k])
				}
				if round != nil {
					round(cur)
				}
			}
		}
		return nil
	})
}
