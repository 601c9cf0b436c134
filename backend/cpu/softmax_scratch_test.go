package cpu

import (
	"math"
	"runtime"
	"sync"
	"testing"

	"github.com/tensorsh/tensorsh/backend"
	"github.com/tensorsh/tensorsh/dtypes"
)

// TestSoftmaxOnPooledScratch checks that Softmax writes every part of the
// scratch it takes from colScratchPool before reading it: each softmax
// and log-softmax (float32, float64, float16; along each axis of a
// 300×200 input, whose columns take the tiled and the row-wise paths)
// runs with every scratch it takes filled with 0, with NaN and with 7,
// on one worker and two, and the results must agree bit for bit.
func TestSoftmaxOnPooledScratch(t *testing.T) {
	defer func(p *sync.Pool) { colScratchPool = p }(colScratchPool)
	const rows, cols = 300, 200
	v := make([]float64, rows*cols)
	for i := range v {
		v[i] = math.Sin(float64(i)) * 8
	}
	filled := func(f float64) *sync.Pool {
		return &sync.Pool{New: func() any {
			const n = 1 << 18
			sc := &colScratch{r: make([]float64, n), tb: make([]float32, n), e: make([]float64, n),
				c64: make([]float64, n), t64: make([]float64, n)}
			for i := range n {
				sc.r[i], sc.e[i], sc.c64[i], sc.t64[i], sc.tb[i] = f, f, f, f, float32(f)
			}
			return sc
		}}
	}
	for _, d := range []dtypes.DType{dtypes.F32, dtypes.F64, dtypes.F16} {
		x := in(mk(d, []int{rows, cols}, v...))
		for _, op := range []backend.Op{backend.OpSoftmax, backend.OpLogSoftmax} {
			for ax := range 2 {
				n := &backend.Node{Op: op, DType: d, Shape: x.Shape, Args: []*backend.Node{x}, Axes: []int{ax}}
				for _, w := range []int{1, 2} {
					colScratchPool = filled(0)
					want := run(t, n, Workers(w))
					for _, f := range []float64{math.NaN(), 7} {
						colScratchPool = filled(f)
						if got := run(t, n, Workers(w)); !sameBits(want, got) {
							t.Fatalf("%v of %v along %d, %d workers: on scratch of %v %v, of 0 %v", op, d, ax, w, f, head(got), head(want))
						}
					}
				}
			}
		}
	}
}

// TestSoftmaxScratchKept checks which scratch Softmax gives back to
// colScratchPool: its own after a statement, not scratch of more than
// colScratchKeep bytes.
func TestSoftmaxScratchKept(t *testing.T) {
	defer func(p *sync.Pool) { colScratchPool = p }(colScratchPool)
	// One P: a pool's Put and Get meet only on the same P.
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	big := &colScratch{t64: make([]float64, colScratchKeep/8+1)}
	x := in(mk(dtypes.F64, []int{50, 40}, make([]float64, 2000)...))
	n := &backend.Node{Op: backend.OpSoftmax, DType: dtypes.F64, Shape: x.Shape, Args: []*backend.Node{x}, Axes: []int{0}}
	for _, c := range []struct {
		sc   *colScratch
		kept bool
	}{{new(colScratch), true}, {big, false}} {
		colScratchPool = new(sync.Pool)
		colScratchPool.Put(c.sc)
		run(t, n, Workers(1))
		got, _ := colScratchPool.Get().(*colScratch)
		if kept := got == c.sc; kept != c.kept {
			t.Errorf("scratch of %d bytes kept: %v, want %v", c.sc.bytes(), kept, c.kept)
		}
	}
}
