package cpu

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/tensorsh/tensorsh/backend"
	"github.com/tensorsh/tensorsh/dtypes"
)

func TestBackendAPI(t *testing.T) {
	b := New()
	if b.Name() != "cpu" {
		t.Errorf("Name = %q", b.Name())
	}
	x := mk(dtypes.F16, []int{2}, 1, 2)
	if got, err := b.Fetch(x); err != nil || got != x {
		t.Errorf("Fetch = %v, %v", got, err)
	}
	if got, err := b.Upload(x); err != nil || got != x {
		t.Errorf("Upload = %v, %v", got, err)
	}
	bad := []*backend.Tensor{
		{DType: dtypes.F16, Shape: []int{2}, Data: []float32{1, 2}},
		{DType: dtypes.I32, Shape: []int{3}, Data: []int32{1, 2}},
		{DType: dtypes.I32, Shape: []int{-1}, Data: []int32{}},
		{DType: dtypes.Invalid, Shape: []int{}, Data: []int32{1}},
	}
	for _, tt := range bad {
		if _, err := b.Upload(tt); err == nil {
			t.Errorf("Upload(%v %v %T) should fail", tt.DType, tt.Shape, tt.Data)
		}
		if _, err := b.Run(context.Background(), &backend.Node{Op: backend.OpInput, DType: tt.DType, Shape: tt.Shape, Tensor: tt}); err == nil {
			t.Errorf("Run(input %v %v %T) should fail", tt.DType, tt.Shape, tt.Data)
		}
	}
	if _, err := b.Run(context.Background(), nil); err == nil {
		t.Errorf("Run(nil) should fail")
	}
	// A plan that is only an input returns that tensor.
	if got, err := b.Run(context.Background(), in(x)); err != nil || got.Data.([]uint16)[1] != x.Data.([]uint16)[1] {
		t.Errorf("Run(input) = %v, %v", got, err)
	}
	// Wrong argument counts and unknown ops are errors, not panics.
	for _, n := range []*backend.Node{
		{Op: backend.OpAdd, DType: dtypes.F16, Shape: []int{2}, Args: []*backend.Node{in(x)}},
		{Op: backend.NumOps, DType: dtypes.F16, Shape: []int{2}, Args: []*backend.Node{in(x)}},
		{Op: backend.OpNeg, DType: dtypes.F16, Shape: []int{3}, Args: []*backend.Node{in(x)}},
		{Op: backend.OpTranspose, DType: dtypes.F16, Shape: []int{2}, Args: []*backend.Node{in(x)}, Axes: []int{1}},
	} {
		if _, err := b.Run(context.Background(), n); err == nil {
			t.Errorf("Run(%v with %d args, shape %v) should fail", n.Op, len(n.Args), n.Shape)
		}
	}
}

// slowPlan returns a plan of n float32 elements that costs about 100 ns
// per element: ten nested sines of a broadcast scalar.
func slowPlan(n int) *backend.Node {
	s := in(mk(dtypes.F64, []int{}, 0.5))
	var x *backend.Node = &backend.Node{Op: backend.OpBroadcastTo, DType: dtypes.F64, Shape: []int{n}, Args: []*backend.Node{s}}
	for range 10 {
		x = nu(backend.OpSin, x)
	}
	return cast(x, dtypes.F32)
}

func TestCancellation(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := New().Run(ctx, slowPlan(1000)); !errors.Is(err, context.Canceled) {
		t.Errorf("Run with a cancelled context: %v", err)
	}
	// A statement of 2·10^7 elements (seconds of work on any machine) is
	// stopped by its context: it returns the context's error instead of
	// a result. The test asserts no time: a run that ignored the context
	// would finish and return a result, and fail here. How soon it stops
	// is logged.
	for _, w := range []int{1, 2} {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Millisecond)
		start := time.Now()
		_, err := New(Workers(w)).Run(ctx, slowPlan(2e7))
		cancel()
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("workers %d: err = %v, want the deadline's", w, err)
		}
		t.Logf("workers %d: stopped %v after the start (deadline 30 ms)", w, time.Since(start))
	}
	// Matmul stops too: 6000×6000 float32 is 432 GFLOP, seconds anywhere.
	ctx, cancel = context.WithTimeout(context.Background(), 30*time.Millisecond)
	defer cancel()
	big := &backend.Node{Op: backend.OpBroadcastTo, DType: dtypes.F32, Shape: []int{6000, 6000}, Args: []*backend.Node{in(mk(dtypes.F32, []int{}, 1))}}
	start := time.Now()
	_, err := New(Workers(1)).Run(ctx, mm(big, big, []int{6000, 6000}))
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("matmul: err = %v, want the deadline's", err)
	}
	t.Logf("matmul: stopped %v after the start (deadline 30 ms)", time.Since(start))
}

func TestMemoryLimit(t *testing.T) {
	x := in(mk(dtypes.F64, []int{}, 1))
	bt := &backend.Node{Op: backend.OpBroadcastTo, DType: dtypes.F64, Shape: []int{1000, 1000}, Args: []*backend.Node{x}}
	err := runErr(nu(backend.OpNeg, bt), MemLimit(1<<20))
	if err == nil || err.Error() != "out of memory: result needs 8.0 MB (available 1.0 MB)" {
		t.Errorf("limited run: %v", err)
	}
	// Far beyond physical memory with the default limit.
	huge := &backend.Node{Op: backend.OpBroadcastTo, DType: dtypes.F64, Shape: []int{1000000, 1000000}, Args: []*backend.Node{x}}
	err = runErr(nu(backend.OpNeg, huge))
	want := "out of memory: result needs 8.0 TB (available "
	if math.MaxInt == math.MaxInt32 {
		want = "out of memory: shape [1000000 1000000] has too many elements" // 10^12 overflows int
	}
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("huge run: %v", err)
	}
	err = runErr(mm(huge, huge, []int{1000000, 1000000}))
	if err == nil || !strings.HasPrefix(err.Error(), "out of memory") {
		t.Errorf("huge matmul: %v", err)
	}
	// Shapes whose element count overflows.
	over := &backend.Node{Op: backend.OpBroadcastTo, DType: dtypes.F64, Shape: []int{math.MaxInt / 2, math.MaxInt / 2}, Args: []*backend.Node{x}}
	if err := runErr(nu(backend.OpNeg, over)); err == nil {
		t.Errorf("overflowing shape should fail")
	}
}

func TestFormatBytes(t *testing.T) {
	for _, c := range []struct {
		n    int64
		want string
	}{{40e9, "40.0 GB"}, {20.1e9, "20.1 GB"}, {512, "512 B"}, {8e6, "8.0 MB"}, {3e12, "3.0 TB"}} {
		if got := backend.FormatBytes(c.n); got != c.want {
			t.Errorf("backend.FormatBytes(%d) = %q, want %q", c.n, got, c.want)
		}
	}
}
