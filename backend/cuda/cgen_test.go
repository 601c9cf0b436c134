package cuda

import (
	"context"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
	"unsafe"

	"github.com/tensorsh/tensorsh/backend"
	"github.com/tensorsh/tensorsh/dtypes"
)

var update = flag.Bool("update", false, "rewrite the golden kernel sources in testdata")

// A recordDevice records the sources the backend generates and the memory
// it allocates, without running anything: kernels do nothing and device
// memory reads as zeros. It tests what does not depend on results.
type recordDevice struct {
	next    uintptr
	live    map[uintptr]int
	limit   int
	used    int
	allocs  int
	sources []string
}

func newRecordDevice(limit int) *recordDevice {
	return &recordDevice{next: 1 << 20, live: map[uintptr]int{}, limit: limit}
}

func (d *recordDevice) describe() string     { return "recorder" }
func (d *recordDevice) multiprocessors() int { return 4 }
func (d *recordDevice) alloc(n int) (uintptr, error) {
	if d.used+n > d.limit {
		return 0, fmt.Errorf("recorder: %w", errDeviceOOM)
	}
	p := d.next
	d.next += uintptr(n+255) &^ 255
	d.live[p] = n
	d.used += n
	d.allocs++
	return p, nil
}
func (d *recordDevice) free(p uintptr) error {
	n, ok := d.live[p]
	if !ok {
		return fmt.Errorf("recorder: double free of %#x", p)
	}
	delete(d.live, p)
	d.used -= n
	return nil
}
func (d *recordDevice) memInfo() (int64, int64, error) {
	return int64(d.limit - d.used), int64(d.limit), nil
}
func (d *recordDevice) htod(uintptr, unsafe.Pointer, int) error { return nil }
func (d *recordDevice) dtoh(dst unsafe.Pointer, _ uintptr, n int) error {
	clear(unsafe.Slice((*byte)(dst), n))
	return nil
}
func (d *recordDevice) dtod(uintptr, uintptr, int) error { return nil }
func (d *recordDevice) memsetZero(uintptr, int) error    { return nil }
func (d *recordDevice) compile(src string, names []string) (*module, error) {
	d.sources = append(d.sources, src)
	m := &module{fns: map[string]uintptr{}}
	for i, n := range names {
		m.fns[n] = uintptr(i)
	}
	return m, nil
}
func (d *recordDevice) launch(uintptr, int, int, []uint64) error { return nil }
func (d *recordDevice) sync() error                              { return nil }
func (d *recordDevice) close() error                             { return nil }

func newRecordBackend(t *testing.T, limit int) (*Backend, *recordDevice) {
	t.Helper()
	d := newRecordDevice(limit)
	b, err := start(func() (device, error) { return d, nil })
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return b, d
}

func zeros(d dtypes.DType, shape ...int) *backend.Node {
	return in(&backend.Tensor{DType: d, Shape: shape, Data: backend.NewStorage(d, backend.Size(shape))})
}

func mustRun(t *testing.T, b *Backend, n *backend.Node) *backend.Tensor {
	t.Helper()
	res, err := b.Run(context.Background(), n)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func reduction(op backend.Op, d dtypes.DType, a *backend.Node, axes ...int) *backend.Node {
	red := map[int]bool{}
	for _, x := range axes {
		red[x] = true
	}
	shape := []int{}
	for i, s := range a.Shape {
		if len(axes) > 0 && !red[i] {
			shape = append(shape, s)
		}
	}
	return &backend.Node{Op: op, DType: d, Shape: shape, Args: []*backend.Node{a}, Axes: axes}
}

// TestGoldenSources pins the generated source of representative plans
// (go test -update rewrites testdata/*.cu).
func TestGoldenSources(t *testing.T) {
	f32 := func(shape ...int) *backend.Node { return zeros(dtypes.F32, shape...) }
	two := zeros(dtypes.F32)
	div := nb(backend.OpFloorDiv, zeros(dtypes.I32, 8), zeros(dtypes.I32, 8))
	div.ZeroDivError = true
	jnpDiv := nb(backend.OpFloorDiv, zeros(dtypes.I8, 8), zeros(dtypes.I8, 8))
	jnpDiv.IntDiv = backend.IntDivJNP
	nvMod := nb(backend.OpMod, zeros(dtypes.U8, 8), zeros(dtypes.U8, 8))
	nvMod.IntDiv = backend.IntDivNvMod
	warnDiv := nb(backend.OpFloorDiv, zeros(dtypes.I16, 8), zeros(dtypes.I16, 8))
	warnDiv.WarnIntDiv = true
	cmax := nb(backend.OpMax, zeros(dtypes.C64, 8), zeros(dtypes.C64, 8))
	cmax.XLAMinMax = true
	cases := []struct {
		name string
		n    *backend.Node
	}{
		{"tanh_f32", nb(backend.OpMul, nu(backend.OpTanh, nb(backend.OpAdd, nb(backend.OpMul, f32(100), two), f32(100))), f32(100))},
		{"add_f16_broadcast", nb(backend.OpAdd, zeros(dtypes.F16, 4, 5), zeros(dtypes.F16, 5))},
		{"floordiv_i32_zerodiv", div},
		{"floordiv_i8_jnp", jnpDiv},
		{"mod_u8_nvmod", nvMod},
		{"floordiv_i16_warn", warnDiv},
		{"max_c64_xla", cmax},
		{"min_c128_numpy", nb(backend.OpMin, zeros(dtypes.C128, 8), zeros(dtypes.C128, 8))},
		{"argmax_c128", reduction(backend.OpArgMax, dtypes.I64, zeros(dtypes.C128, 1<<17))},
		{"max_c64_reduce", reduction(backend.OpReduceMax, dtypes.C64, zeros(dtypes.C64, 6, 7), 0)},
		{"cast_i64_bf16", &backend.Node{Op: backend.OpCast, DType: dtypes.BF16, Shape: []int{8}, Args: []*backend.Node{zeros(dtypes.I64, 8)}}},
		{"sum_pairwise_split", reduction(backend.OpSum, dtypes.F32, f32(3, 20000), 1)},
		{"argmax_segments", reduction(backend.OpArgMax, dtypes.I64, f32(1<<17))},
		{"mean_f16_axis0", reduction(backend.OpMean, dtypes.F16, zeros(dtypes.F16, 6, 7), 0)},
		{"matmul_f16", &backend.Node{Op: backend.OpMatMul, DType: dtypes.F16, Shape: []int{3, 5}, Args: []*backend.Node{zeros(dtypes.F16, 3, 4), zeros(dtypes.F16, 4, 5)}}},
		{"dot_lanes_f32", &backend.Node{Op: backend.OpMatMul, DType: dtypes.F32, Shape: []int{}, Args: []*backend.Node{zeros(dtypes.F32, 1100), zeros(dtypes.F32, 1100)}}},
		{"softmax_f32", &backend.Node{Op: backend.OpSoftmax, DType: dtypes.F32, Shape: []int{3, 4}, Axes: []int{1}, Args: []*backend.Node{f32(3, 4)}}},
		{"transpose_copy", &backend.Node{Op: backend.OpTranspose, DType: dtypes.C128, Shape: []int{5, 3}, Axes: []int{1, 0}, Args: []*backend.Node{zeros(dtypes.C128, 3, 5)}}},
		{"cumsum_f16_axis0", &backend.Node{Op: backend.OpCumSum, DType: dtypes.F16, Shape: []int{6, 7}, Axes: []int{0}, Args: []*backend.Node{zeros(dtypes.F16, 6, 7)}}},
		{"cumprod_c64", &backend.Node{Op: backend.OpCumProd, DType: dtypes.C64, Shape: []int{9}, Axes: []int{0}, Args: []*backend.Node{zeros(dtypes.C64, 9)}}},
		{"cumsum_i64", &backend.Node{Op: backend.OpCumSum, DType: dtypes.I64, Shape: []int{4, 5}, Axes: []int{1}, Args: []*backend.Node{zeros(dtypes.I64, 4, 5)}}},
		{"sort_f16_axis0", &backend.Node{Op: backend.OpSort, DType: dtypes.F16, Shape: []int{6, 7}, Axes: []int{0}, Args: []*backend.Node{zeros(dtypes.F16, 6, 7)}}},
		{"sort_c64", &backend.Node{Op: backend.OpSort, DType: dtypes.C64, Shape: []int{9}, Axes: []int{0}, Args: []*backend.Node{zeros(dtypes.C64, 9)}}},
		{"sort_bool", &backend.Node{Op: backend.OpSort, DType: dtypes.Bool, Shape: []int{4, 5}, Axes: []int{1}, Args: []*backend.Node{zeros(dtypes.Bool, 4, 5)}}},
		{"sort_f32", &backend.Node{Op: backend.OpSort, DType: dtypes.F32, Shape: []int{3, 4}, Axes: []int{1}, Args: []*backend.Node{f32(3, 4)}}},
		{"argsort_bf16_i32", &backend.Node{Op: backend.OpArgSort, DType: dtypes.I32, Shape: []int{5, 6}, Axes: []int{0}, Args: []*backend.Node{zeros(dtypes.BF16, 5, 6)}}},
	}
	b, d := newRecordBackend(t, 1<<30)
	for _, c := range cases {
		before := len(d.sources)
		mustRun(t, b, c.n)
		got := strings.Join(d.sources[before:], "// ----\n")
		file := filepath.Join("testdata", c.name+".cu")
		if *update {
			if err := os.MkdirAll("testdata", 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(file, []byte(got), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(file)
		if err != nil {
			t.Fatalf("%v (run go test -update to create it)", err)
		}
		if got != string(want) {
			t.Errorf("%s: generated source differs from %s (go test -update rewrites it):\n%s", c.name, file, got)
		}
	}
}

// TestModuleCache checks that the source (the cache key) depends on the
// structure of a computation but not on its sizes.
func TestModuleCache(t *testing.T) {
	if math.MaxInt == math.MaxInt32 {
		t.Skip("64-bit indices need a 64-bit int")
	}
	b, d := newRecordBackend(t, math.MaxInt)
	hugeLen := 1 << 30
	hugeLen *= 2 // 2^31 elements (a constant would not compile where int is 32 bits)
	huge := &backend.Node{Op: backend.OpBroadcastTo, DType: dtypes.I8, Shape: []int{hugeLen}, Args: []*backend.Node{zeros(dtypes.I8)}}
	steps := []struct {
		n        *backend.Node
		compiles int
	}{
		{nb(backend.OpAdd, zeros(dtypes.F32, 10), zeros(dtypes.F32, 10)), 1},
		{nb(backend.OpAdd, zeros(dtypes.F32, 20), zeros(dtypes.F32, 20)), 1},       // another size
		{nb(backend.OpAdd, zeros(dtypes.F32, 4, 5), zeros(dtypes.F32, 4, 5)), 1},   // coalesces to 1-d
		{nb(backend.OpAdd, zeros(dtypes.F32, 4, 5), zeros(dtypes.F32, 5)), 2},      // a broadcast row
		{nb(backend.OpAdd, zeros(dtypes.F32, 7, 3), zeros(dtypes.F32, 3)), 2},      // same pattern
		{nb(backend.OpAdd, zeros(dtypes.F32, 7, 3), zeros(dtypes.F32, 7, 1)), 3},   // a broadcast column
		{nb(backend.OpAdd, zeros(dtypes.F32, 7), zeros(dtypes.F32)), 4},            // a scalar
		{nb(backend.OpAdd, zeros(dtypes.F64, 10), zeros(dtypes.F64, 10)), 5},       // another dtype
		{nb(backend.OpSub, zeros(dtypes.F32, 10), zeros(dtypes.F32, 10)), 6},       // another operation
		{nb(backend.OpSub, zeros(dtypes.F32, 1000), zeros(dtypes.F32, 1000)), 6},   // again
		{reduction(backend.OpSum, dtypes.F32, zeros(dtypes.F32, 5, 6), 1), 7},      // a reduction
		{reduction(backend.OpSum, dtypes.F32, zeros(dtypes.F32, 50, 60), 1), 7},    // of another size
		{reduction(backend.OpSum, dtypes.F32, zeros(dtypes.F32, 50, 60, 2), 1), 8}, // another walk
		{reduction(backend.OpSum, dtypes.F32, zeros(dtypes.F32, 50, 60, 2), 0), 9}, // kept axes only after
		{reduction(backend.OpSum, dtypes.F32, zeros(dtypes.F32, 70, 80, 3), 0), 9}, // same walk
		{nb(backend.OpAdd, zeros(dtypes.F32, 10), zeros(dtypes.F32, 10)), 9},       // the first again
		{nb(backend.OpAdd, huge, huge), 10},                                        // 64-bit indices
	}
	for i, s := range steps {
		if _, err := b.Run(context.Background(), s.n); err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
		if len(d.sources) != s.compiles {
			t.Fatalf("step %d (%v %v): %d compilations, want %d", i, s.n.Op, s.n.Shape, len(d.sources), s.compiles)
		}
	}
	if !strings.Contains(d.sources[len(d.sources)-1], "typedef long long IDX;") {
		t.Errorf("2^31 elements without 64-bit indices")
	}
}

func TestCoalesce(t *testing.T) {
	cases := []struct {
		shape   []int
		strides [][]int
		want    string
	}{
		{[]int{4, 5}, [][]int{{5, 1}, {5, 1}}, "[20] [[1] [1]]"},
		{[]int{4, 5}, [][]int{{5, 1}, {0, 1}}, "[4 5] [[5 1] [0 1]]"},
		{[]int{4, 1, 5}, [][]int{{5, 5, 1}, {0, 0, 0}}, "[20] [[1] [0]]"},
		{[]int{2, 3, 4}, [][]int{{12, 4, 1}, {1, 2, 6}}, "[2 3 4] [[12 4 1] [1 2 6]]"},
		{[]int{2, 3, 4}, [][]int{{12, 4, 1}, {0, 4, 1}}, "[2 12] [[12 1] [0 1]]"},
		{[]int{}, [][]int{{}}, "[1] [[0]]"},
		{[]int{1, 1}, [][]int{{1, 1}}, "[1] [[0]]"},
		{[]int{3, 4}, [][]int{{-4, -1}}, "[12] [[-1]]"},
	}
	for _, c := range cases {
		shape, st := backend.Coalesce(c.shape, c.strides)
		if got := fmt.Sprint(shape, st); got != c.want {
			t.Errorf("backend.Coalesce(%v, %v) = %s, want %s", c.shape, c.strides, got, c.want)
		}
	}
}

// TestLeafKinds checks how broadcast operands are read.
func TestLeafKinds(t *testing.T) {
	buf := &buffer{ptr: 1 << 20, bytes: 1 << 20}
	view := func(shape []int, strides []int) *dview {
		return &dview{dtype: dtypes.F32, buf: buf, shape: shape, strides: strides}
	}
	cases := []struct {
		root  []int
		v     *dview
		shape string
		kind  leafKind
	}{
		{[]int{4, 5}, view([]int{4, 5}, []int{5, 1}), "[20]", leafContig},
		{[]int{4, 5}, view([]int{}, []int{}), "[20]", leafScalar},
		{[]int{4, 5}, view([]int{1, 1}, []int{1, 1}), "[20]", leafScalar},
		{[]int{4, 5}, view([]int{5}, []int{1}), "[4 5]", leafStrided},
		{[]int{4, 5}, view([]int{4, 1}, []int{1, 1}), "[4 5]", leafStrided},
		{[]int{4, 5}, view([]int{4, 5}, []int{1, 4}), "[4 5]", leafStrided}, // a transpose
		{[]int{2, 4, 5}, view([]int{4, 5}, []int{5, 1}), "[2 20]", leafStrided},
	}
	for _, c := range cases {
		// A contiguous operand of the root's shape next to the one tested.
		other := &leaf{v: view(c.root, backend.RowMajor(c.root))}
		other.strides, _ = other.v.Layout().BroadcastStrides(c.root)
		l := &leaf{v: c.v}
		var err error
		if l.strides, err = c.v.Layout().BroadcastStrides(c.root); err != nil {
			t.Fatal(err)
		}
		f := &fusion{root: &backend.Node{Shape: c.root}, leaves: []*leaf{other, l}}
		shape, wide := f.layout(backend.Size(c.root))
		if fmt.Sprint(shape) != c.shape || l.kind != c.kind || other.kind != leafContig || wide {
			t.Errorf("%v read as %v: shape %v kind %v (other %v, wide %v), want %s kind %v", c.v.shape, c.root, shape, l.kind, other.kind, wide, c.shape, c.kind)
		}
	}
}

func TestPlanReduce(t *testing.T) {
	cases := []struct {
		shape []int
		axes  []int
		want  string
	}{
		{[]int{2, 3, 4}, nil, "m=1 l=24 chunk=24 kept=[]/[] red=[]/[]"},
		{[]int{2, 3, 4}, []int{2}, "m=6 l=4 chunk=4 kept=[6]/[4] red=[]/[]"},
		{[]int{2, 3, 4}, []int{0}, "m=12 l=2 chunk=1 kept=[12]/[1] red=[2]/[12]"},
		{[]int{2, 3, 4}, []int{0, 2}, "m=3 l=8 chunk=4 kept=[3]/[4] red=[2]/[12]"},
		{[]int{5, 1, 3, 7}, []int{1, 3}, "m=15 l=7 chunk=7 kept=[15]/[7] red=[]/[]"},
		{[]int{0, 3}, []int{0}, "m=3 l=0 chunk=0 kept=[]/[] red=[]/[]"},
	}
	for _, c := range cases {
		p, err := planReduce(c.shape, c.axes, false)
		if err != nil {
			t.Fatal(err)
		}
		got := fmt.Sprintf("m=%d l=%d chunk=%d kept=%v/%v red=%v/%v", p.m, p.l, p.chunk, ints(p.keptSize), ints(p.keptStr), ints(p.redSize), ints(p.redStr))
		if got != c.want {
			t.Errorf("planReduce(%v, %v) = %s, want %s", c.shape, c.axes, got, c.want)
		}
	}
	if _, err := planReduce([]int{2}, []int{0, 0}, false); err == nil {
		t.Errorf("duplicate axes accepted")
	}
	if _, err := planReduce([]int{2}, []int{1}, false); err == nil {
		t.Errorf("axis out of range accepted")
	}
}

func ints(s []int) []int {
	if s == nil {
		return []int{}
	}
	return s
}

// TestMemory checks the pool, Free, the garbage collector's release, and
// out-of-memory errors after which the backend still works.
func TestMemory(t *testing.T) {
	b, d := newRecordBackend(t, 8<<20)
	ctx := context.Background()
	x := zeros(dtypes.F32, 1<<18) // 1 MiB
	add := nb(backend.OpAdd, x, x)
	res := mustRun(t, b, add)
	allocs := d.allocs
	b.Free(res)
	b.Free(res) // twice is harmless
	if _, err := b.Fetch(res); err == nil || !strings.Contains(err.Error(), "freed") {
		t.Errorf("fetch of a freed tensor: %v", err)
	}
	if _, err := b.Run(ctx, nu(backend.OpNeg, in(res))); err == nil || !strings.Contains(err.Error(), "freed") {
		t.Errorf("run on a freed tensor: %v", err)
	}
	for range 5 {
		b.Free(mustRun(t, b, add))
	}
	// The input is uploaded for every run and the result reuses the
	// pooled block: one allocation per run at most.
	if d.allocs > allocs+5 {
		t.Errorf("%d allocations for 5 runs after a Free", d.allocs-allocs)
	}
	// Dropped tensors come back through the garbage collector.
	b.call(func() error { b.pool.flush(); return nil })
	for range 3 {
		mustRun(t, b, add)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		runtime.GC()
		b.mu.Lock()
		n := len(b.pending)
		b.mu.Unlock()
		if n >= 3 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d of 3 dropped results released by the garbage collector", n)
		}
		time.Sleep(time.Millisecond)
	}
	b.call(func() error { return nil })
	if d.used > 1<<20 {
		t.Errorf("%d bytes allocated after the garbage collector released the results", d.used)
	}
	// Out of memory: a clear error, then business as usual.
	big := nb(backend.OpAdd, zeros(dtypes.F32, 4<<20), zeros(dtypes.F32, 4<<20))
	_, err := b.Run(ctx, big)
	if err == nil || !strings.Contains(err.Error(), "cuda: out of memory: 16.8 MB needed") || !strings.Contains(err.Error(), "of 8.4 MB on the device") {
		t.Fatalf("out of memory: %v", err)
	}
	b.Free(mustRun(t, b, add))
	// A run that fails frees what it allocated.
	bad := &backend.Node{Op: backend.OpAdd, DType: dtypes.F32, Shape: []int{1 << 20}, Args: []*backend.Node{zeros(dtypes.F32, 1<<20), zeros(dtypes.F32, 1<<19+1)}}
	if _, err := b.Run(ctx, bad); err == nil {
		t.Fatal("shape mismatch accepted")
	}
	b.call(func() error { return nil })
	if d.used > 2*(1<<20) {
		t.Errorf("%d bytes still allocated after failed runs", d.used)
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Run(ctx, add); err == nil {
		t.Errorf("run after Close succeeds")
	}
	if err := b.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
}

func TestForeignTensor(t *testing.T) {
	b1, _ := newRecordBackend(t, 1<<20)
	b2, _ := newRecordBackend(t, 1<<20)
	res := mustRun(t, b1, nb(backend.OpAdd, zeros(dtypes.I8, 3), zeros(dtypes.I8, 3)))
	if _, err := b2.Fetch(res); err == nil || !strings.Contains(err.Error(), "another CUDA backend") {
		t.Errorf("fetch from another backend: %v", err)
	}
	if _, err := b2.Upload(&backend.Tensor{DType: dtypes.I8, Shape: []int{3}, Data: []int16{1, 2, 3}}); err == nil {
		t.Errorf("upload of i8 holding []int16 succeeds")
	}
}

func TestCancel(t *testing.T) {
	b, _ := newRecordBackend(t, 1<<20)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := b.Run(ctx, nb(backend.OpAdd, zeros(dtypes.I8, 3), zeros(dtypes.I8, 3))); err != context.Canceled {
		t.Errorf("cancelled run: %v", err)
	}
}

// TestConcurrent runs, fetches and frees from several goroutines at once
// (run it with -race).
func TestConcurrent(t *testing.T) {
	b, d := newRecordBackend(t, 1<<30)
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for g := range 8 {
		wg.Go(func() {
			for i := range 20 {
				n := nb(backend.OpAdd, zeros(dtypes.F32, 100+g), zeros(dtypes.F32, 100+g))
				res, err := b.Run(context.Background(), n)
				if err != nil {
					errs <- err
					return
				}
				if _, err := b.Fetch(res); err != nil {
					errs <- err
					return
				}
				if i%2 == 0 {
					b.Free(res)
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if len(d.sources) != 1 {
		t.Errorf("%d compilations of one kernel", len(d.sources))
	}
}

func TestIntegerMeanWrap(t *testing.T) {
	b, _ := newRecordBackend(t, 1<<20)
	_, err := b.Run(context.Background(), reduction(backend.OpMean, dtypes.U8, zeros(dtypes.U8, 2, 256), 1))
	if err == nil || !strings.Contains(err.Error(), "256 elements wrap to 0 in u8") {
		t.Errorf("u8 mean of 256 elements: %v", err)
	}
}
