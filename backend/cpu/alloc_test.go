package cpu

import (
	"math"
	"math/rand"
	"runtime"
	"testing"

	"github.com/tensorsh/tensorsh/backend"
	"github.com/tensorsh/tensorsh/dtypes"
)

// poisonHeap leaves freed memory full of a bit pattern (0x7F… is a NaN in
// every float format), so that a result that is not written in full
// shows garbage instead of zeros.
func poisonHeap() {
	for range 8 {
		b := make([]byte, 8<<20)
		for i := range b {
			b[i] = 0x7F
		}
		runtime.KeepAlive(b)
	}
	runtime.GC()
}

// TestLargeResultsFullyWritten checks the results allocated without
// clearing (newStorageFull: fused elementwise, softmax, materialised
// views, concat, converted reductions, compute buffers of strided views)
// element by element after poisoning the heap.
func TestLargeResultsFullyWritten(t *testing.T) {
	rng := rand.New(rand.NewSource(10))
	const n = 600_001 // > 1 MB as float32
	av, bv := make([]float64, n), make([]float64, n)
	for i := range av {
		av[i], bv[i] = float64(rng.Intn(100)), float64(rng.Intn(100))
	}
	a, b := in(mk(dtypes.F32, []int{n}, av...)), in(mk(dtypes.F32, []int{n}, bv...))
	check := func(name string, got []float64, want func(i int) float64) {
		t.Helper()
		for i, g := range got {
			if w := want(i); !same(g, w) {
				t.Fatalf("%s[%d] = %v, want %v", name, i, g, w)
			}
		}
	}
	for _, w := range []int{1, 0} {
		opts := []Option{Workers(w)}
		poisonHeap()
		check("a*b+a", vals(run(t, nb(backend.OpAdd, nb(backend.OpMul, a, b), a), opts...)), func(i int) float64 { return av[i]*bv[i] + av[i] })
		// Large enough to be written with non-temporal stores.
		big := 5_000_000
		bigA := in(raw(dtypes.F32, []int{big}, randF32(rng, big)))
		poisonHeap()
		got := run(t, nb(backend.OpMul, nb(backend.OpSub, bigA, bigA), bigA), opts...).Data.([]float32)
		x := bigA.Tensor.Data.([]float32)
		for i, g := range got {
			if want := (x[i] - x[i]) * x[i]; g != want || math.Signbit(float64(g)) != math.Signbit(float64(want)) {
				t.Fatalf("(a-a)*a [%d] = %v, want %v", i, g, want)
			}
		}
		poisonHeap()
		check("f16(a-b)", vals(run(t, cast(nb(backend.OpSub, a, b), dtypes.F16), opts...)), func(i int) float64 { return av[i] - bv[i] })
		poisonHeap()
		cc := &backend.Node{Op: backend.OpConcat, DType: dtypes.F32, Shape: []int{2 * n}, Axes: []int{0}, Args: []*backend.Node{a, b}}
		check("concat", vals(run(t, cc, opts...)), func(i int) float64 {
			if i < n {
				return av[i]
			}
			return bv[i-n]
		})
		// A transposed matrix reshaped: materialised.
		const r, c = 600, 1000
		m := in(mk(dtypes.F32, []int{r, c}, av[:r*c]...))
		tr := &backend.Node{Op: backend.OpTranspose, DType: dtypes.F32, Shape: []int{c, r}, Axes: []int{1, 0}, Args: []*backend.Node{m}}
		rs := &backend.Node{Op: backend.OpReshape, DType: dtypes.F32, Shape: []int{c * r}, Args: []*backend.Node{tr}}
		poisonHeap()
		check("reshape(transpose)", vals(run(t, rs, opts...)), func(i int) float64 { return av[(i%r)*c+i/r] })
		// Sum over axis 0 of the transposed matrix (a compute buffer of a
		// strided view), and an f16 sum of pairs (converted by finish).
		poisonHeap()
		check("sum(transpose, 0)", vals(run(t, red(backend.OpSum, dtypes.F32, tr, false, 0), opts...)), func(j int) float64 {
			s := 0.0
			for i := range c {
				s += av[j*c+i]
			}
			return s
		})
		pairs := in(mk(dtypes.F16, []int{n - 1, 1}, av[:n-1]...))
		poisonHeap()
		check("f16 sum", vals(run(t, red(backend.OpSum, dtypes.F16, pairs, false, 1), opts...)), func(i int) float64 { return av[i] })
		// Softmax along both axes, to float32 and float16.
		for _, d := range []dtypes.DType{dtypes.F32, dtypes.F16} {
			for ax := range 2 {
				sm := &backend.Node{Op: backend.OpSoftmax, DType: d, Shape: []int{r, c}, Args: []*backend.Node{m}, Axes: []int{ax}}
				poisonHeap()
				for i, v := range vals(run(t, sm, opts...)) {
					if !(v >= 0 && v <= 1) {
						t.Fatalf("softmax %v axis %d [%d] = %v", d, ax, i, v)
					}
				}
			}
		}
	}
}
