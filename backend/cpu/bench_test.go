package cpu

import (
	"context"
	"math/rand"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/tensorsh/tensorsh/backend"
	"github.com/tensorsh/tensorsh/dtypes"
)

func benchInputs(d dtypes.DType, n int) (a, b, c *backend.Node) {
	v := seq(n, 0, 0.001)
	return in(mk(d, []int{n}, v...)), in(mk(d, []int{n}, v...)), in(mk(d, []int{n}, v...))
}

func benchRun(b *testing.B, n *backend.Node, elems int) {
	be := New()
	ctx := context.Background()
	b.SetBytes(int64(elems) * 4)
	b.ResetTimer()
	for b.Loop() {
		if _, err := be.Run(ctx, n); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAddMul evaluates a*b+c over 10^6 float32 elements (one fused
// pass).
func BenchmarkAddMul(b *testing.B) {
	const n = 1000000
	x, y, z := benchInputs(dtypes.F32, n)
	benchRun(b, nb(backend.OpAdd, nb(backend.OpMul, x, y), z), n)
}

// BenchmarkAddMulF16 is a*b+c in float16 (decode, compute in float32,
// round after each operation, encode).
func BenchmarkAddMulF16(b *testing.B) {
	const n = 1000000
	x, y, z := benchInputs(dtypes.F16, n)
	benchRun(b, nb(backend.OpAdd, nb(backend.OpMul, x, y), z), n)
}

// BenchmarkBroadcastAdd adds a row to every row of a 1000×1000 float32
// matrix.
func BenchmarkBroadcastAdd(b *testing.B) {
	x := in(mk(dtypes.F32, []int{1000, 1000}, seq(1000000, 0, 1)...))
	r := in(mk(dtypes.F32, []int{1000}, seq(1000, 0, 1)...))
	benchRun(b, nb(backend.OpAdd, x, r), 1000000)
}

// BenchmarkExp is exp over 10^6 float32 elements.
func BenchmarkExp(b *testing.B) {
	x, _, _ := benchInputs(dtypes.F32, 1000000)
	benchRun(b, nu(backend.OpExp, x), 1000000)
}

// BenchmarkSum is a full float32 sum of 10^6 elements.
func BenchmarkSum(b *testing.B) {
	x, _, _ := benchInputs(dtypes.F32, 1000000)
	benchRun(b, red(backend.OpSum, dtypes.F32, x, false), 1000000)
}

// BenchmarkMatMul is a 256×256 float32 product.
func BenchmarkMatMul(b *testing.B) {
	x := in(mk(dtypes.F32, []int{256, 256}, seq(65536, 0, 0.001)...))
	benchRun(b, mm(x, x, []int{256, 256}), 65536)
}

// BenchmarkSumMul is sum(a*b) over 10^6 float32 elements, fused.
func BenchmarkSumMul(b *testing.B) {
	x, y, _ := benchInputs(dtypes.F32, 1000000)
	benchRun(b, red(backend.OpSum, dtypes.F32, nb(backend.OpMul, x, y), false), 1000000)
}

// The issue-8 benchmarks: the expressions bench/compare.py times in NumPy,
// at 10^7 float32 elements. bench/run.sh runs both and prints the ratios.
// Each reports the median time of one evaluation as "med-ms".

const bigN = 10_000_000

// warmups is how many untimed runs come before the timed ones (as in
// bench/compare.py).
const warmups = 6

// randF32 returns n uniform float32s in [0, 1) (the same distribution as
// NumPy's rng.random).
func randF32(rng *rand.Rand, n int) []float32 {
	x := make([]float32, n)
	for i := range x {
		x[i] = rng.Float32()
	}
	return x
}

func bigInput(rng *rand.Rand, shape ...int) *backend.Node {
	return in(raw(dtypes.F32, shape, randF32(rng, backend.Size(shape))))
}

// benchMedian runs fn b.N times and reports the median time of one call
// ("med-ms") and the mean CPU time of one call over all threads ("cpu-ms":
// what a busy machine cannot inflate by time-sharing).
func benchMedian(b *testing.B, bytes int64, fn func() error) {
	b.Helper()
	// Warm up until the heap has grown to its steady size: the first
	// results land on memory the process never touched, and first-touch
	// page faults are slow (several µs a page on some virtual machines).
	for range warmups {
		if err := fn(); err != nil {
			b.Fatal(err)
		}
	}
	b.SetBytes(bytes)
	var ts []time.Duration
	cpu0 := cpuTime()
	b.ResetTimer()
	for b.Loop() {
		t0 := time.Now()
		if err := fn(); err != nil {
			b.Fatal(err)
		}
		ts = append(ts, time.Since(t0))
	}
	b.StopTimer()
	cpu := cpuTime() - cpu0
	slices.Sort(ts)
	b.ReportMetric(float64(ts[len(ts)/2])/1e6, "med-ms")
	b.ReportMetric(float64(cpu)/1e6/float64(len(ts)), "cpu-ms")
}

func benchNode(b *testing.B, n *backend.Node, bytes int64) {
	be := New()
	ctx := context.Background()
	benchMedian(b, bytes, func() error {
		_, err := be.Run(ctx, n)
		return err
	})
}

// BenchmarkIssue8 times the issue-8 expressions; the copy of 10^7
// float32s into fresh memory ("copy", as a statement's result must be)
// and into warm memory ("copywarm", which sets the memory floor: the bytes
// an expression must move, at copy speed); the reading of three such
// operands ("read3", the read floor: the bytes an expression must read,
// at read speed); and a scalar statement, 1 + 2.
func BenchmarkIssue8(b *testing.B) {
	rng := rand.New(rand.NewSource(1))
	a, x, c := bigInput(rng, bigN), bigInput(rng, bigN), bigInput(rng, bigN)
	i8 := make([]int8, bigN)
	for i := range i8 {
		i8[i] = int8(rng.Intn(256) - 128)
	}
	const mb = 4 * bigN
	b.Run("copy", func(b *testing.B) {
		src := a.Tensor.Data.([]float32)
		nw := runtime.GOMAXPROCS(0)
		benchMedian(b, 2*mb, func() error {
			dst := make([]float32, bigN)
			var wg sync.WaitGroup
			for w := range nw {
				lo, hi := w*bigN/nw, (w+1)*bigN/nw
				wg.Go(func() { copy(dst[lo:hi], src[lo:hi]) })
			}
			wg.Wait()
			return nil
		})
	})
	b.Run("copywarm", func(b *testing.B) {
		src := a.Tensor.Data.([]float32)
		dst := make([]float32, bigN)
		nw := runtime.GOMAXPROCS(0)
		benchMedian(b, 2*mb, func() error {
			var wg sync.WaitGroup
			for w := range nw {
				lo, hi := w*bigN/nw, (w+1)*bigN/nw
				wg.Go(func() { copy(dst[lo:hi], src[lo:hi]) })
			}
			wg.Wait()
			return nil
		})
	})
	b.Run("read3", func(b *testing.B) {
		// Reading alone: the three operands of a*b+c (120 MB), summed by
		// 2 goroutines. Most machines read slower than they copy (a copy
		// reads and writes at once), so this is the floor of expressions
		// that mostly read.
		srcs := [][]float32{a.Tensor.Data.([]float32), x.Tensor.Data.([]float32), c.Tensor.Data.([]float32)}
		nw := runtime.GOMAXPROCS(0)
		var sink [8]float32
		benchMedian(b, 3*mb, func() error {
			var wg sync.WaitGroup
			for w := range nw {
				lo, hi := w*bigN/nw, (w+1)*bigN/nw
				wg.Go(func() {
					var s float32
					for _, src := range srcs {
						s += sum8F32(src[lo:hi])
					}
					sink[w%len(sink)] = s
				})
			}
			wg.Wait()
			return nil
		})
	})
	b.Run("scalar", func(b *testing.B) {
		one := in(raw(dtypes.F32, []int{}, []float32{1}))
		two := in(raw(dtypes.F32, []int{}, []float32{2}))
		benchNode(b, nb(backend.OpAdd, one, two), 12)
	})
	b.Run("addmul", func(b *testing.B) {
		benchNode(b, nb(backend.OpAdd, nb(backend.OpMul, a, x), c), 4*mb)
	})
	b.Run("tanh", func(b *testing.B) {
		two := in(raw(dtypes.F32, []int{}, []float32{2}))
		benchNode(b, nb(backend.OpMul, nu(backend.OpTanh, nb(backend.OpAdd, nb(backend.OpMul, a, two), x)), c), 4*mb)
	})
	b.Run("i8f32", func(b *testing.B) {
		benchNode(b, nb(backend.OpAdd, cast(in(raw(dtypes.I8, []int{bigN}, i8)), dtypes.F32), a), mb/4+2*mb)
	})
	b.Run("summul", func(b *testing.B) {
		benchNode(b, red(backend.OpSum, dtypes.F32, nb(backend.OpMul, a, x), false), 2*mb)
	})
	b.Run("softmax", func(b *testing.B) {
		m := bigInput(rand.New(rand.NewSource(2)), 1000, 10000)
		sm := &backend.Node{Op: backend.OpSoftmax, DType: dtypes.F32, Shape: m.Shape, Args: []*backend.Node{m}, Axes: []int{1}}
		benchNode(b, sm, 2*mb)
	})
	b.Run("broadcast", func(b *testing.B) {
		col, row := bigInput(rng, 1000, 1), bigInput(rng, 1, 10000)
		benchNode(b, nb(backend.OpAdd, col, row), mb)
	})
}

// BenchmarkSmallStatement is p * 2 on a (100, 100, 1) int32 p: a
// statement whose fixed cost (building the tree, its workers, the
// constant's block) is most of its time.
func BenchmarkSmallStatement(b *testing.B) {
	p := in(mk(dtypes.I32, []int{100, 100, 1}, seq(10000, 0, 1)...))
	two := in(mk(dtypes.I32, []int{}, 2))
	b.ReportAllocs()
	benchRun(b, nb(backend.OpMul, p, two), 10000)
}
