package cuda

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"unsafe"

	"github.com/tensorsh/tensorsh/backend"
	"github.com/tensorsh/tensorsh/backend/cpu"
	"github.com/tensorsh/tensorsh/dtypes"
)

// ErrUnavailable is wrapped by the error New returns when this machine
// cannot run the backend (no driver, no NVRTC, no device).
var ErrUnavailable = fmt.Errorf("cuda %w", backend.ErrUnavailable)

// A Backend evaluates plans on an NVIDIA GPU. It is safe for concurrent
// use; calls are carried out one at a time on the backend's worker
// goroutine.
type Backend struct {
	w    *worker
	dev  device
	desc string

	mu      sync.Mutex // guards pending
	pending []*buffer  // released buffers, for the pool
	life    sync.RWMutex
	closed  bool // guarded by life

	// Owned by the worker.
	pool    pool
	modules map[string]*module
	cpu     *cpu.Backend // for the operations computed on the CPU
	sms     int
}

var _ backend.Backend = (*Backend)(nil)

// An Option configures a Backend.
type Option func(*config)

type config struct {
	ordinal int
}

// Device selects the GPU by its CUDA ordinal (default 0).
func Device(ordinal int) Option { return func(c *config) { c.ordinal = ordinal } }

// New loads the CUDA driver (libcuda.so.1) and NVRTC, and returns a
// backend on the selected GPU. On a machine without them it returns an
// error wrapping ErrUnavailable that says what is missing.
func New(opts ...Option) (*Backend, error) {
	var c config
	for _, o := range opts {
		o(&c)
	}
	return start(func() (device, error) { return openCUDA(c.ordinal) })
}

// start runs open on a new worker and returns the backend on the device
// it opens.
func start(open func() (device, error)) (*Backend, error) {
	b := &Backend{modules: map[string]*module{}, cpu: cpu.New()}
	w, err := startWorker(func() error {
		d, err := open()
		if err != nil {
			return err
		}
		b.dev = d
		b.desc = d.describe()
		b.sms = max(1, d.multiprocessors())
		b.pool = pool{dev: d}
		if _, total, err := d.memInfo(); err == nil {
			b.pool.limit = total / 8
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	b.w = w
	return b, nil
}

// Name returns "cuda".
func (b *Backend) Name() string { return "cuda" }

// Device describes the GPU: its name, compute capability and memory.
func (b *Backend) Device() string { return b.desc }

var errClosed = errors.New("cuda: backend is closed")

// call runs f on the worker, after returning released buffers to the pool.
func (b *Backend) call(f func() error) error {
	b.life.RLock()
	defer b.life.RUnlock()
	if b.closed {
		return errClosed
	}
	return b.w.do(func() error {
		b.drain()
		return f()
	})
}

// Run evaluates the plan rooted at n on the GPU and returns a tensor whose
// Data is an *Array. Input tensors may be this backend's tensors or CPU
// tensors (which are uploaded for the run). Run waits for the GPU to
// finish, so errors (such as integer division by zero) belong to the
// statement that caused them. It checks ctx between kernel launches.
func (b *Backend) Run(ctx context.Context, n *backend.Node) (*backend.Tensor, error) {
	if n == nil {
		return nil, fmt.Errorf("cuda: empty plan")
	}
	var res *backend.Tensor
	err := b.call(func() error {
		r := &runner{b: b, ctx: ctx}
		var err error
		res, err = r.run(n)
		return err
	})
	return res, err
}

// Fetch returns t in the CPU form (a new tensor, copied from the device);
// a CPU tensor is returned as it is, after checking its storage.
func (b *Backend) Fetch(t *backend.Tensor) (*backend.Tensor, error) {
	if t == nil {
		return nil, fmt.Errorf("cuda: fetch of a nil tensor")
	}
	n, err := backend.ShapeSize(t.Shape)
	if err != nil {
		return nil, fmt.Errorf("cuda: %v", err)
	}
	if _, ok := t.Data.(*Array); !ok {
		if err := backend.CheckStorage(t.DType, t.Data, n); err != nil {
			return nil, fmt.Errorf("cuda: %v", err)
		}
		return t, nil
	}
	var res *backend.Tensor
	err = b.call(func() error {
		a, err := b.arrayOf(t)
		if err != nil {
			return err
		}
		if a.h.buf.bytes != n*backend.ElemSize(t.DType) {
			return fmt.Errorf("cuda: tensor of %d %v elements holds %d bytes", n, t.DType, a.h.buf.bytes)
		}
		data := backend.NewStorage(t.DType, n)
		host, _ := hostBytes(t.DType, data, n)
		if len(host) > 0 {
			if err := b.dev.dtoh(unsafe.Pointer(&host[0]), a.h.buf.ptr, len(host)); err != nil {
				return err
			}
		}
		res = &backend.Tensor{DType: t.DType, Shape: append([]int{}, t.Shape...), Data: data}
		return nil
	})
	return res, err
}

// Upload copies t (in CPU form) to the device and returns it as this
// backend's tensor; a tensor of this backend is returned as it is.
func (b *Backend) Upload(t *backend.Tensor) (*backend.Tensor, error) {
	if t == nil {
		return nil, fmt.Errorf("cuda: upload of a nil tensor")
	}
	if t.DType == dtypes.C32 {
		return nil, errComplex32
	}
	if _, ok := t.Data.(*Array); ok {
		err := b.call(func() error {
			_, err := b.arrayOf(t)
			return err
		})
		if err != nil {
			return nil, err
		}
		return t, nil
	}
	n, err := backend.ShapeSize(t.Shape)
	if err != nil {
		return nil, fmt.Errorf("cuda: %v", err)
	}
	host, err := hostBytes(t.DType, t.Data, n)
	if err != nil {
		return nil, fmt.Errorf("cuda: %v", err)
	}
	var res *backend.Tensor
	err = b.call(func() error {
		buf, err := b.upload(host)
		if err != nil {
			return err
		}
		res = &backend.Tensor{DType: t.DType, Shape: append([]int{}, t.Shape...), Data: b.newArray(buf)}
		b.unref(buf)
		return nil
	})
	return res, err
}

// upload copies host bytes into a new buffer (worker only).
func (b *Backend) upload(host []byte) (*buffer, error) {
	buf, err := b.alloc(len(host))
	if err != nil {
		return nil, err
	}
	if len(host) > 0 {
		if err := b.dev.htod(buf.ptr, unsafe.Pointer(&host[0]), len(host)); err != nil {
			b.unref(buf)
			return nil, err
		}
	}
	return buf, nil
}

// Free releases the device memory of t, a tensor returned by this backend,
// at once (otherwise the garbage collector releases it when t is no
// longer reachable). Using t afterwards is an error; freeing it twice, or
// freeing a CPU tensor, does nothing.
func (b *Backend) Free(t *backend.Tensor) {
	if t == nil {
		return
	}
	a, ok := t.Data.(*Array)
	if !ok || a == nil || a.h == nil || a.h.b != b {
		return
	}
	a.cleanup.Stop()
	a.h.release()
}

// Close releases the device memory, the compiled kernels and the CUDA
// context. The backend and its tensors cannot be used afterwards.
func (b *Backend) Close() error {
	b.life.Lock()
	defer b.life.Unlock()
	if b.closed {
		return nil
	}
	err := b.w.do(func() error {
		b.drain()
		ferr := b.pool.flush()
		b.modules = nil
		return errors.Join(ferr, b.dev.close())
	})
	b.closed = true
	b.w.stop()
	return err
}

// module returns the compiled module of s, compiling it on first use.
func (b *Backend) module(s *source) (*module, error) {
	text := s.text()
	if m, ok := b.modules[text]; ok {
		return m, nil
	}
	m, err := b.dev.compile(text, s.names)
	if err != nil {
		return nil, err
	}
	b.modules[text] = m
	return m, nil
}

// dropModules forgets the compiled kernels, so that the next evaluations
// compile again (for the cold benchmark).
func (b *Backend) dropModules() error {
	return b.call(func() error {
		b.modules = map[string]*module{}
		return nil
	})
}
