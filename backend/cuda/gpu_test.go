package cuda

import (
	"context"
	"errors"
	"fmt"
	"math/rand"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tensorsh/tensorsh/backend"
	"github.com/tensorsh/tensorsh/backend/conformance"
	"github.com/tensorsh/tensorsh/dtypes"
)

// Tests on a real GPU. They skip, saying what is missing, on a machine
// without one.

var (
	gpuOnce sync.Once
	gpu     *Backend
	gpuErr  error
)

// needGPU returns the shared GPU backend or skips the test.
func needGPU(t testing.TB) *Backend {
	gpuOnce.Do(func() { gpu, gpuErr = New() })
	if gpuErr != nil {
		t.Skipf("no GPU: %v", gpuErr)
	}
	return gpu
}

func TestNewUnavailable(t *testing.T) {
	b, err := New()
	if err == nil {
		t.Logf("GPU present: %s", b.Device())
		b.Close()
		return
	}
	if !errors.Is(err, ErrUnavailable) {
		t.Fatalf("New without a usable GPU: %v, want an error wrapping ErrUnavailable", err)
	}
	if !strings.HasPrefix(err.Error(), "cuda backend unavailable: ") {
		t.Errorf("message %q", err)
	}
	t.Logf("New: %v", err)
}

// TestGPUInfo checks what the backend says of the device: its name, its
// compute capability (sm_XY, at least sm_50, which NVRTC still targets),
// its memory and the NVRTC version, and at least one multiprocessor.
func TestGPUInfo(t *testing.T) {
	b := needGPU(t)
	desc := b.Device()
	t.Logf("device: %s", desc)
	m := regexp.MustCompile(`^(.+) \(sm_(\d)(\d), ([0-9.]+ [kMGT]?B), NVRTC (\d+\.\d+)\)$`).FindStringSubmatch(desc)
	if m == nil {
		t.Fatalf("device %q: want \"NAME (sm_XY, MEMORY, NVRTC V.v)\"", desc)
	}
	if strings.TrimSpace(m[1]) == "" || m[2] < "5" {
		t.Errorf("device %q: no name, or compute capability below 5.0", desc)
	}
	if b.sms < 1 {
		t.Errorf("%d multiprocessors", b.sms)
	}
	var free, total int64
	if err := b.call(func() (err error) {
		free, total, err = b.dev.memInfo()
		return err
	}); err != nil || total <= 0 || free < 0 || free > total {
		t.Errorf("memInfo: free %d, total %d, %v", free, total, err)
	}
}

func TestGPUConformance(t *testing.T) {
	conformance.Run(t, needGPU(t))
}

// TestGPUOutOfMemory asks for more than the device has, then checks that
// the backend still works.
func TestGPUOutOfMemory(t *testing.T) {
	b := needGPU(t)
	var total int64
	b.call(func() error {
		_, total, _ = b.dev.memInfo()
		return nil
	})
	n := int(total/4) * 2 // twice the device memory in float32s
	big := &backend.Node{Op: backend.OpBroadcastTo, DType: dtypes.F32, Shape: []int{n},
		Args: []*backend.Node{in(&backend.Tensor{DType: dtypes.F32, Shape: []int{1}, Data: []float32{1}})}}
	_, err := b.Run(context.Background(), nu(backend.OpNeg, big))
	if err == nil || !strings.Contains(err.Error(), "out of memory") {
		t.Fatalf("huge result: %v, want out of memory", err)
	}
	t.Logf("%v", err)
	x := in(&backend.Tensor{DType: dtypes.F32, Shape: []int{3}, Data: []float32{1, 2, 3}})
	res, err := b.Run(context.Background(), nb(backend.OpAdd, x, x))
	if err != nil {
		t.Fatalf("after out of memory: %v", err)
	}
	got, err := b.Fetch(res)
	if err != nil || fmt.Sprint(got.Data) != "[2 4 6]" {
		t.Fatalf("after out of memory: %v %v", got.Data, err)
	}
}

// tanhPlan returns tanh(a*2+b)*c over n float32 elements already on b.
func tanhPlan(t testing.TB, b *Backend, n int) *backend.Node {
	rng := rand.New(rand.NewSource(1))
	up := func() *backend.Node {
		x := make([]float32, n)
		for i := range x {
			x[i] = rng.Float32()*4 - 2
		}
		d, err := b.Upload(&backend.Tensor{DType: dtypes.F32, Shape: []int{n}, Data: x})
		if err != nil {
			t.Fatal(err)
		}
		return in(d)
	}
	a, bb, c := up(), up(), up()
	t2, err := b.Upload(&backend.Tensor{DType: dtypes.F32, Shape: []int{}, Data: []float32{2}})
	if err != nil {
		t.Fatal(err)
	}
	two := in(t2)
	return nb(backend.OpMul, nu(backend.OpTanh, nb(backend.OpAdd, nb(backend.OpMul, a, two), bb)), c)
}

const tanhN = 100_000_000

// BenchmarkTanh is tanh(a*2+b)*c over 10^8 float32 elements: "warm"
// times an evaluation with the kernel compiled and memory pooled, "cold"
// the first evaluation of a new backend state (NVRTC compilation and
// module load included). Both report milliseconds per evaluation.
func BenchmarkTanh(b *testing.B) {
	g := needGPU(b)
	n := tanhPlan(b, g, tanhN)
	ctx := context.Background()
	run := func() {
		res, err := g.Run(ctx, n)
		if err != nil {
			b.Fatal(err)
		}
		g.Free(res)
	}
	b.Run("warm", func(b *testing.B) {
		run()
		b.SetBytes(4 * 4 * tanhN)
		b.ResetTimer()
		start := time.Now()
		for b.Loop() {
			run()
		}
		b.ReportMetric(float64(time.Since(start).Microseconds())/1000/float64(b.N), "ms/eval")
	})
	b.Run("cold", func(b *testing.B) {
		var total time.Duration
		for b.Loop() {
			b.StopTimer()
			if err := g.dropModules(); err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
			start := time.Now()
			run()
			total += time.Since(start)
		}
		b.ReportMetric(float64(total.Microseconds())/1000/float64(b.N), "ms/eval")
	})
	runtime.KeepAlive(n)
}

// BenchmarkMatMul multiplies two n×n float32 matrices already on the
// device (n = 1000, as issue 17's CPU target, and 4096), reporting
// milliseconds and GFLOP/s (2n³ flops) per warm evaluation.
func BenchmarkMatMul(b *testing.B) {
	g := needGPU(b)
	ctx := context.Background()
	rng := rand.New(rand.NewSource(1))
	for _, n := range []int{1000, 4096} {
		up := func() *backend.Node {
			x := make([]float32, n*n)
			for i := range x {
				x[i] = rng.Float32()*2 - 1
			}
			d, err := g.Upload(&backend.Tensor{DType: dtypes.F32, Shape: []int{n, n}, Data: x})
			if err != nil {
				b.Fatal(err)
			}
			return in(d)
		}
		x, y := up(), up()
		mm := &backend.Node{Op: backend.OpMatMul, DType: dtypes.F32, Shape: []int{n, n}, Args: []*backend.Node{x, y}}
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			run := func() {
				res, err := g.Run(ctx, mm)
				if err != nil {
					b.Fatal(err)
				}
				g.Free(res)
			}
			run()
			start := time.Now()
			for b.Loop() {
				run()
			}
			ms := float64(time.Since(start).Microseconds()) / 1000 / float64(b.N)
			b.ReportMetric(ms, "ms/eval")
			b.ReportMetric(2*float64(n)*float64(n)*float64(n)/ms/1e6, "GFLOP/s")
		})
		g.Free(x.Tensor)
		g.Free(y.Tensor)
	}
}
