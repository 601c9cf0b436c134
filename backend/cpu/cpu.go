package cpu

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/tensorsh/tensorsh/backend"
	"github.com/tensorsh/tensorsh/dtypes"
	"github.com/tensorsh/tensorsh/internal/sysmem"
)

// A Backend evaluates plans on the CPU. It is safe for concurrent use.
type Backend struct {
	workers  int   // goroutines per operation; 0 means runtime.GOMAXPROCS(0)
	memLimit int64 // bytes one result may take; 0 means a share of available memory
}

// An Option configures a Backend.
type Option func(*Backend)

// Workers sets how many goroutines one operation uses (n <= 0: one per
// available CPU, runtime.GOMAXPROCS).
func Workers(n int) Option { return func(b *Backend) { b.workers = n } }

// MemLimit sets the largest allocation, in bytes, that one result of a
// plan may take (bytes <= 0: sysmem.Limit, the rule the evaluator uses:
// 90% of the memory available to the process, its cgroup limit included,
// read at each large allocation).
func MemLimit(bytes int64) Option { return func(b *Backend) { b.memLimit = bytes } }

// New returns a CPU backend.
func New(opts ...Option) *Backend {
	b := &Backend{}
	for _, o := range opts {
		o(b)
	}
	setBallast()
	return b
}

var _ backend.Backend = (*Backend)(nil)

// Name returns "cpu".
func (b *Backend) Name() string { return "cpu" }

// Fetch returns t itself: CPU tensors are already in CPU form.
func (b *Backend) Fetch(t *backend.Tensor) (*backend.Tensor, error) { return t, nil }

// Upload returns t itself after checking that its Data has the Go type and
// length its dtype and shape call for.
func (b *Backend) Upload(t *backend.Tensor) (*backend.Tensor, error) {
	n, err := backend.ShapeSize(t.Shape)
	if err != nil {
		return nil, err
	}
	if err := backend.CheckStorage(t.DType, t.Data, n); err != nil {
		return nil, fmt.Errorf("cpu: %v", err)
	}
	return t, nil
}

func (b *Backend) nworkers() int {
	if b.workers > 0 {
		return b.workers
	}
	return runtime.GOMAXPROCS(0)
}

// Run evaluates the plan rooted at n and returns a new contiguous tensor
// (or, for a plan that is only an input, that input's tensor). Tensors are
// treated as immutable: results may share Data with the plan's inputs.
func (b *Backend) Run(ctx context.Context, n *backend.Node) (res *backend.Tensor, err error) {
	if n == nil {
		return nil, fmt.Errorf("cpu: empty plan")
	}
	defer func() {
		// Kernels check their inputs first; a panic here is a bug, but it
		// must not take the session down.
		if p := recover(); p != nil {
			res, err = nil, fmt.Errorf("cpu: internal error in %v: %v", n.Op, p)
		}
	}()
	r := runners.Get().(*runner)
	r.ctx, r.b, r.nw = ctx, b, b.nworkers()
	r.temps = r.tempBuf[:0]
	r.x.Init(ctx, "cpu", r, nil)
	v, err := r.x.Run(n)
	if err != nil {
		return nil, err // r is not reused: its fusion may be half built
	}
	if res, err = r.tensor(v); err != nil {
		return nil, err
	}
	r.recycleTemps(res)
	w := r.warn.Load()
	r.release()
	if w != 0 {
		return res, backend.IntDivWarning(w)
	}
	return res, nil
}

// runners keeps the runners of finished Runs for the next ones. A runner
// is 1.7 kB (its inline views and fusion): allocated for each statement,
// it was a tenth of the backend's fixed cost of p * 2 on 10^4 int32 (the
// allocation, then the first writes to memory no cache held).
var runners = sync.Pool{New: func() any { return new(runner) }}

// release empties r (of the views, fusion and blocks its Run used) and
// puts it in runners. Nothing r holds outlives the Run: results copy
// their shapes (newTensor), and the workers went back to workerPool.
func (r *runner) release() {
	clear(r.views[:r.nviews])
	r.nviews = 0
	if r.fusionUsed {
		r.fusionMem, r.fusionUsed = fusion{}, false
	}
	clear(r.tempBuf[:])
	r.temps = nil
	r.x = backend.Exec[*view]{}
	r.ctx, r.b, r.nw = nil, nil, 0
	r.warn.Store(0)
	runners.Put(r)
}

// A runner holds the state of one Run: the kernels of its Exec.
type runner struct {
	ctx  context.Context
	b    *Backend
	x    backend.Exec[*view]
	warn atomic.Uint32 // backend.Warn… bits (Node.WarnIntDiv)
	nw   int           // workers, read once (see workers)

	// The Run's first views and its first fusion are allocated with it
	// (newView, fuse): a small statement spent a tenth of its time in
	// the allocator for them.
	views      [4]viewMem
	nviews     int
	fusionMem  fusion
	fusionUsed bool

	// temps are the blocks of recycleMin bytes or more that the Run
	// allocated (see recycleTemps), in tempBuf up to its length.
	temps   []any
	tempBuf [4]any

	// jobRun is fusionMem.job.run, kept with the pooled runner (see
	// Elementwise).
	jobRun func(w, lo, hi int) error
}

// recycleTemps gives the recycler back the blocks r allocated that res
// does not hold: the intermediate results of the Run (a transposed
// operand copied for a reduction, a product, a scan or softmax, the
// elementwise result a reduction reads), dead once it ends.
// softmax(transpose(x), axis=1) on 10^6 float64 wrote each time into a
// fresh 8 MB block, which the system faults in page by page: 2.9–3.4 ms,
// 2.2–2.5 with the block recycled.
func (r *runner) recycleTemps(res *backend.Tensor) {
	if _, _, ok := backend.StorageSpan(res.Data); !ok {
		return
	}
	for _, t := range r.temps {
		if !backend.SharesMemory(res.Data, t) {
			recycled.put(t)
		}
	}
}

// workers returns the number of workers of r's loops: the backend's, read
// once per statement, as runtime.GOMAXPROCS takes the scheduler's lock
// (0.2 µs of a statement of a few µs) and may change between two loops
// that must agree on it.
func (r *runner) workers() int {
	if r.nw > 0 {
		return r.nw
	}
	return r.b.nworkers()
}

// eval evaluates n (see backend.Exec.Eval).
func (r *runner) eval(n *backend.Node) (*view, error) { return r.x.Eval(n) }

// Input returns the view of an input node's tensor, after checking that
// its Data has the Go type and length its dtype and shape call for.
func (r *runner) Input(n *backend.Node, size int) (*view, error) {
	t := n.Tensor
	if err := backend.CheckStorage(t.DType, t.Data, size); err != nil {
		return nil, fmt.Errorf("cpu: input: %v", err)
	}
	return r.newView(t.DType, t.Data, t.Shape), nil
}

// A viewMem is a view with room for the shape and strides of up to
// maxInline axes, allocated at once.
type viewMem struct {
	v    view
	dims [2 * maxInline]int
}

// maxInline is the number of axes up to which a view's or tensor's shape
// is allocated with it.
const maxInline = 4

// newContigView is contigView, with one allocation for up to maxInline
// axes.
func newContigView(d dtypes.DType, data any, shape []int) *view {
	n := len(shape)
	if n > maxInline {
		return contigView(d, data, shape)
	}
	m := new(viewMem)
	m.init(d, data, shape)
	return &m.v
}

// init makes m a contiguous view of data with the given shape (at most
// maxInline axes).
func (m *viewMem) init(d dtypes.DType, data any, shape []int) {
	n := len(shape)
	sh, st := m.dims[:n:n], m.dims[maxInline:maxInline+n:maxInline+n]
	copy(sh, shape)
	for i, k := n-1, 1; i >= 0; i-- {
		st[i] = k
		k *= shape[i]
	}
	m.v = view{dtype: d, data: data, shape: sh, strides: st}
}

// newView is newContigView in r's own room while it lasts.
func (r *runner) newView(d dtypes.DType, data any, shape []int) *view {
	n := len(shape)
	if n > maxInline || r.nviews == len(r.views) {
		return newContigView(d, data, shape)
	}
	m := &r.views[r.nviews]
	r.nviews++
	m.init(d, data, shape)
	return &m.v
}

// newTensor returns a tensor of storage data and a copy of shape, with one
// allocation for up to maxInline axes.
func newTensor(d dtypes.DType, shape []int, data any) *backend.Tensor {
	if len(shape) > maxInline {
		return &backend.Tensor{DType: d, Shape: append([]int{}, shape...), Data: data}
	}
	m := new(struct {
		t    backend.Tensor
		dims [maxInline]int
	})
	m.t = backend.Tensor{DType: d, Shape: m.dims[:len(shape):len(shape)], Data: data}
	copy(m.t.Shape, shape)
	return &m.t
}

// tensor returns v as a contiguous tensor, copying only when v is not one.
func (r *runner) tensor(v *view) (*backend.Tensor, error) {
	if v.contiguous() && v.off == 0 && bufLen(v.data) == v.size() {
		return newTensor(v.dtype, v.shape, v.data), nil
	}
	c, err := r.x.Materialize(v)
	if err != nil {
		return nil, err
	}
	return newTensor(c.dtype, c.shape, c.data), nil
}

// Memory.

// allocFull is alloc for storage the caller writes in full before it is
// read: large storage is not cleared first (see newStorageFull).
func (r *runner) allocFull(d dtypes.DType, n int) (any, error) {
	if err := r.reserve(n, backend.ElemSize(d)); err != nil {
		return nil, err
	}
	data := newStorageFull(d, n)
	if n*backend.ElemSize(d) >= recycleMin {
		r.temps = append(r.temps, data)
	}
	return data, nil
}

// Alloc returns a contiguous view of new storage for size elements of d,
// which the caller writes in full.
func (r *runner) Alloc(d dtypes.DType, shape []int, size int) (*view, error) {
	data, err := r.allocFull(d, size)
	if err != nil {
		return nil, err
	}
	return r.newView(d, data, shape), nil
}

// allocBufFull is alloc for a compute buffer the caller writes in full.
func (r *runner) allocBufFull(ct ctype, n int) (any, error) {
	if err := r.reserve(n, ct.Size()); err != nil {
		return nil, err
	}
	buf := newBufFull(ct, n)
	if n*ct.Size() >= recycleMin {
		r.temps = append(r.temps, buf)
	}
	return buf, nil
}

// tempOf is allocBufFull for the typed loops: n elements of T, which the
// caller writes in full before reading them (a reduction's result, its
// workers' partial results), a recycled block when there is one and
// given back when the Run ends (recycleTemps) unless its result holds
// it. A make takes fresh memory whenever the heap has grown, and on the
// AMD EPYC guest each fresh page costs several microseconds:
// min(m3, axis=0) of 10^6 int64, an 80 kB result and two 80 kB partial
// rows, took 0.6–0.9 ms in its first few hundred runs after a setup (and
// in every run with GOGC=off) against 0.1 ms on reused memory. Only the
// Run's own goroutine may call it (r.temps is not locked).
func tempOf[T number | bool](r *runner, n int) []T {
	size := n * sizeOf[T]()
	if size < rawMin {
		return make([]T, n)
	}
	s := unsafe.Slice((*T)(resultBytes(size)), n)
	r.temps = append(r.temps, s)
	return s
}

// workerTemps is tempOf for a buffer of n elements of T for each of r's
// workers: worker w's is at buf[w*stride:][:n], stride a whole number of
// 128-byte lines, so that no two workers' buffers share a cache line (a
// worker folding 100-element rows into its 800 bytes, with the next
// worker's buffer in its last line, ran argmax(m3, axis=1) of 10^6 int64
// eight times slower).
func workerTemps[T number | bool](r *runner, n int) (buf []T, stride int) {
	line := 128 / sizeOf[T]()
	stride = (n + line - 1) / line * line
	return tempOf[T](r, r.workers()*stride), stride
}

// reserve checks that n elements of size bytes each fit the memory limit.
func (r *runner) reserve(n, size int) error {
	if int64(n) > math.MaxInt64/16 {
		return fmt.Errorf("%w: result of %d elements is too large", backend.ErrOutOfMemory, n)
	}
	need := int64(n) * int64(size)
	if need < 1<<20 {
		return nil
	}
	limit := r.b.memLimit
	if limit <= 0 {
		limit = systemLimit(need)
	}
	if need > limit {
		return fmt.Errorf("%w: result needs %s (available %s)", backend.ErrOutOfMemory, backend.FormatBytes(need), backend.FormatBytes(limit))
	}
	return nil
}

// systemLimit is sysmem.LimitFor: the limit read in the last second for
// a need of at most a 16th of it.
func systemLimit(need int64) int64 { return int64(sysmem.LimitFor(float64(need))) }

// recentLimit is sysmem.Recent, for every statement's recycling (see
// recycleCap).
func recentLimit() int64 { return int64(sysmem.Recent()) }

// Parallel loops.

const (
	blockSize = 4096 // elements per fused block (fits scratch buffers in L1/L2)
	grainSize = 1 << 16
)

// parallel calls body(w, lo, hi) for consecutive ranges covering [0, n), of
// at most grain elements each, spread over the backend's workers (w is the
// worker's number, below the returned worker count of plan). It checks
// ctx between ranges and returns the first error.
func (r *runner) parallel(n, grain int, body func(w, lo, hi int) error) error {
	if n <= 0 {
		return nil
	}
	if grain < 1 {
		grain = 1
	}
	chunks := (n + grain - 1) / grain
	nw := min(r.workersFor(n, grain), chunks)
	if nw <= 1 {
		return r.serial(n, grain, body)
	}
	var (
		next    atomic.Int64
		failed  atomic.Bool
		errOnce sync.Once
		first   error
	)
	fail := func(err error) {
		errOnce.Do(func() { first = err })
		failed.Store(true)
	}
	work := func(w int) {
		defer func() {
			if p := recover(); p != nil {
				fail(fmt.Errorf("cpu: internal error: %v", p))
			}
		}()
		for !failed.Load() {
			c := int(next.Add(1) - 1)
			if c >= chunks {
				return
			}
			if err := r.ctx.Err(); err != nil {
				fail(err)
				return
			}
			lo := c * grain
			if err := body(w, lo, min(lo+grain, n)); err != nil {
				fail(err)
				return
			}
		}
	}
	runWorkers(nw, work)
	return first
}

// runWorkers calls work(w) for workers w = 0…nw-1 and returns when they
// have returned: the helpers (pool.go) as workers 1…nw-1 and the calling
// goroutine as 0, or goroutines where another loop holds the helpers. A
// helper that comes late may not run its work at all, so work must take
// its share from what is left (ranges from a shared counter).
func runWorkers(nw int, work func(w int)) {
	if helpers.mu.TryLock() {
		l := &loop{run: work}
		give(l, nw)
		work(0)
		l.close()
		takeBack(l, nw)
		helpers.mu.Unlock()
		return
	}
	var wg sync.WaitGroup
	for w := range nw {
		wg.Add(1)
		go func() {
			defer wg.Done()
			work(w)
		}()
	}
	wg.Wait()
}

// serial calls body(0, lo, hi) for the ranges of at most grain elements
// covering [0, n), in order on the calling goroutine, checking ctx
// between them.
func (r *runner) serial(n, grain int, body func(w, lo, hi int) error) error {
	grain = max(grain, 1)
	for lo := 0; lo < n; lo += grain {
		if err := r.ctx.Err(); err != nil {
			return err
		}
		if err := body(0, lo, min(lo+grain, n)); err != nil {
			return err
		}
	}
	return nil
}

// workersFor returns how many workers a loop of n elements in ranges of
// grain should use.
func (r *runner) workersFor(n, grain int) int {
	chunks := (n + grain - 1) / grain
	return max(1, min(r.workers(), chunks))
}
