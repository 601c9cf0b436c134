package cuda

import (
	"errors"
	"fmt"
	"runtime"
	"sync/atomic"

	"github.com/tensorsh/tensorsh/backend"
)

// Device memory.
//
// A buffer is a block of device memory with a reference count: every
// Array (the Data of a tensor the backend returns) holds one reference,
// and so does a Run for the temporaries it allocates. When the count
// reaches zero the block goes back to the backend's pool, which keeps
// freed blocks for reuse (repeated statements of one shape then allocate
// nothing) up to a limit, and gives them all back to the driver when an
// allocation fails for lack of memory.
//
// An Array is released by Backend.Free, or by the garbage collector
// (runtime.AddCleanup) when its tensor is no longer reachable. Releases
// may happen on any goroutine: they queue the buffer, and the worker
// returns queued buffers to the pool at its next call.

// A buffer is a block of device memory shared by the arrays and views
// that use it.
type buffer struct {
	ptr   uintptr
	bytes int // the size asked for
	class int // the size allocated (the pool's size class)
	refs  atomic.Int32
}

// An Array is the device storage of a tensor returned by the CUDA
// backend: the Data of its backend.Tensor. Backend.Fetch copies it to the
// CPU form; Backend.Free releases it at once, and the garbage collector
// releases it when the tensor is no longer reachable.
type Array struct {
	h       *handle
	cleanup runtime.Cleanup
}

// A handle is the reference an Array holds (kept apart from the Array so
// that the cleanup can release it without keeping the Array alive).
type handle struct {
	b     *Backend
	buf   *buffer
	freed atomic.Bool
}

func (h *handle) release() {
	if h.freed.CompareAndSwap(false, true) {
		h.b.unref(h.buf)
	}
}

// DevicePtr returns the device address (a CUdeviceptr) of the array's
// data, valid until the array is freed; 0 for an empty array.
func (a *Array) DevicePtr() uintptr { return a.h.buf.ptr }

// Bytes returns the size of the array's data in bytes.
func (a *Array) Bytes() int { return a.h.buf.bytes }

// String describes the array.
func (a *Array) String() string {
	if a.h.freed.Load() {
		return "cuda array (freed)"
	}
	return fmt.Sprintf("cuda array (%s)", backend.FormatBytes(int64(a.h.buf.bytes)))
}

// newArray returns a new Array holding a reference to buf.
func (b *Backend) newArray(buf *buffer) *Array {
	buf.refs.Add(1)
	h := &handle{b: b, buf: buf}
	a := &Array{h: h}
	a.cleanup = runtime.AddCleanup(a, func(h *handle) { h.release() }, h)
	return a
}

// arrayOf returns the Array of t when it is one of this backend's, nil
// when t holds CPU data, or an error for another backend's or a freed
// array.
func (b *Backend) arrayOf(t *backend.Tensor) (*Array, error) {
	a, ok := t.Data.(*Array)
	if !ok {
		return nil, nil
	}
	if a == nil || a.h == nil {
		return nil, fmt.Errorf("cuda: tensor has a nil array")
	}
	if a.h.b != b {
		return nil, fmt.Errorf("cuda: tensor belongs to another CUDA backend")
	}
	if a.h.freed.Load() {
		return nil, fmt.Errorf("cuda: tensor was freed")
	}
	return a, nil
}

// unref drops one reference to buf; the last one queues it for the pool.
func (b *Backend) unref(buf *buffer) {
	if buf.refs.Add(-1) != 0 || buf.class == 0 {
		return
	}
	b.mu.Lock()
	b.pending = append(b.pending, buf)
	b.mu.Unlock()
}

// drain returns the queued buffers to the pool (worker only).
func (b *Backend) drain() {
	b.mu.Lock()
	q := b.pending
	b.pending = nil
	b.mu.Unlock()
	for _, buf := range q {
		b.pool.put(buf.ptr, buf.class)
	}
}

// alloc returns a new buffer of the given size with one reference (worker
// only). A failed allocation gives the pooled blocks back to the driver,
// collects garbage (releasing unreachable tensors) and tries once more.
func (b *Backend) alloc(bytes int) (*buffer, error) {
	buf := &buffer{bytes: bytes}
	buf.refs.Store(1)
	if bytes == 0 {
		return buf, nil
	}
	class := sizeClass(bytes)
	p, err := b.pool.get(class)
	if errors.Is(err, errDeviceOOM) {
		b.pool.flush()
		runtime.GC()
		runtime.Gosched()
		b.drain()
		b.pool.flush()
		p, err = b.pool.get(class)
	}
	if errors.Is(err, errDeviceOOM) {
		msg := fmt.Sprintf("cuda: out of memory: %s needed", backend.FormatBytes(int64(bytes)))
		if free, total, ierr := b.dev.memInfo(); ierr == nil {
			msg += fmt.Sprintf(", %s free of %s on the device", backend.FormatBytes(free), backend.FormatBytes(total))
		}
		return nil, errors.New(msg)
	}
	if err != nil {
		return nil, err
	}
	buf.ptr, buf.class = p, class
	return buf, nil
}

// sizeClass rounds an allocation up to 512 bytes below 1 MiB and to 1 MiB
// above, so that similar sizes share pooled blocks.
func sizeClass(n int) int {
	const small, big = 512, 1 << 20
	if n < big {
		return (n + small - 1) / small * small
	}
	return (n + big - 1) / big * big
}

// A pool keeps freed device blocks by size class.
type pool struct {
	dev    device
	free   map[int][]uintptr
	cached int64 // bytes held
	limit  int64 // most bytes to hold
}

func (p *pool) get(class int) (uintptr, error) {
	if l := p.free[class]; len(l) > 0 {
		ptr := l[len(l)-1]
		p.free[class] = l[:len(l)-1]
		p.cached -= int64(class)
		return ptr, nil
	}
	return p.dev.alloc(class)
}

// put keeps a freed block, or gives it back to the driver when the pool
// is full. (A failing cuMemFree has no one to report to here: it can only
// fail when the context is already broken, which the next call reports.)
func (p *pool) put(ptr uintptr, class int) {
	if p.cached+int64(class) > p.limit {
		p.dev.free(ptr)
		return
	}
	if p.free == nil {
		p.free = map[int][]uintptr{}
	}
	p.free[class] = append(p.free[class], ptr)
	p.cached += int64(class)
}

// flush gives every pooled block back to the driver and returns the
// first error.
func (p *pool) flush() error {
	var first error
	for class, l := range p.free {
		for _, ptr := range l {
			if err := p.dev.free(ptr); err != nil && first == nil {
				first = err
			}
		}
		delete(p.free, class)
	}
	p.cached = 0
	return first
}
