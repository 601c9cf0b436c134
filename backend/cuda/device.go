package cuda

import (
	"errors"
	"fmt"
	"runtime"
	"unsafe"
)

// A device is the part of the CUDA driver the backend uses: memory,
// copies, compiled modules and kernel launches, all on one stream. The
// real one (driver.go) calls libcuda and NVRTC through purego; the tests
// use one that compiles the generated sources with the host C++ compiler
// and runs the kernels on the CPU. All calls come from the backend's
// worker goroutine.
type device interface {
	// describe names the device ("NVIDIA H100 80GB HBM3, sm_90").
	describe() string
	// multiprocessors returns the number of streaming multiprocessors.
	multiprocessors() int
	// alloc returns bytes (> 0) of device memory, or an error wrapping
	// errDeviceOOM when there is not enough.
	alloc(bytes int) (uintptr, error)
	free(p uintptr) error
	// memInfo returns the free and total device memory in bytes.
	memInfo() (free, total int64, err error)
	htod(dst uintptr, src unsafe.Pointer, bytes int) error
	dtoh(dst unsafe.Pointer, src uintptr, bytes int) error
	dtod(dst, src uintptr, bytes int) error
	memsetZero(p uintptr, bytes int) error
	// compile compiles a generated source and returns the handles of the
	// named kernels.
	compile(src string, names []string) (*module, error)
	// launch runs kernel f over grid blocks of block threads with the
	// parameter struct words (the kernel's single argument).
	launch(f uintptr, grid, block int, words []uint64) error
	// sync waits for every launched kernel and copy.
	sync() error
	close() error
}

// A module is a compiled source.
type module struct {
	handle uintptr
	fns    map[string]uintptr
}

// errDeviceOOM marks an allocation the device refused for lack of memory.
var errDeviceOOM = errors.New("out of device memory")

// A worker runs functions on one goroutine locked to its OS thread: CUDA
// contexts are current per thread, so every driver call must come from
// the same one.
type worker struct {
	calls chan func()
	done  chan struct{}
}

// startWorker starts the worker and runs init on it.
func startWorker(init func() error) (*worker, error) {
	w := &worker{calls: make(chan func()), done: make(chan struct{})}
	errc := make(chan error, 1)
	go func() {
		runtime.LockOSThread()
		defer close(w.done)
		if err := protect(init); err != nil {
			errc <- err
			return
		}
		errc <- nil
		for f := range w.calls {
			f()
		}
	}()
	if err := <-errc; err != nil {
		return nil, err
	}
	return w, nil
}

// do runs f on the worker and returns its error (a panic in f becomes an
// internal error; the worker keeps running).
func (w *worker) do(f func() error) error {
	errc := make(chan error, 1)
	w.calls <- func() { errc <- protect(f) }
	return <-errc
}

// stop ends the worker after the calls already sent.
func (w *worker) stop() {
	close(w.calls)
	<-w.done
}

func protect(f func() error) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("cuda: internal error: %v", p)
		}
	}()
	return f()
}
