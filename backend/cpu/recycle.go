package cpu

import (
	"runtime"
	"sync"
	"unsafe"

	"github.com/tensorsh/tensorsh/backend"
	"github.com/tensorsh/tensorsh/dtypes"
)

// Recycling of result storage.
//
// NumPy frees an array as soon as its last reference goes, and the C
// allocator hands the same memory, still in the cache and already mapped,
// to the next array of that size: a statement repeated in a loop (or by
// timeit) writes into hot memory. Go's collector frees memory only at its
// next cycle, which at 10^6 elements comes every few statements and costs
// about as much as the statement itself; until then each result lands on
// memory the caches have not seen, and after the scavenger has returned
// it to the system, on pages the kernel must fault in again.
//
// So the evaluator tells the backend when a result can no longer be
// reached (Backend.Recycle: a variable rebound, the last result replaced,
// a :timeit run done, each checked against everything the session holds),
// and the backend keeps that memory for the next result of the same size.
// Only memory this backend allocated for a result is taken back, and only
// whole: the issued table records each such block, so storage made
// elsewhere (the evaluator's literals, a slice of a larger block) is never
// reused.

const (
	// recycleMin is the smallest block kept, in bytes: from 1 KiB, a
	// fresh block costs more than the bookkeeping (p << 3 on 10^4 int8,
	// 10 kB, took 3.8 µs with a fresh block and 3.0 µs with a recycled
	// one; x[0] * 2 on a row of 1000 float64, 8000 bytes, 3.5 µs and 1.9,
	// v * 2 on 500, 2.5 and 1.7, the collector's cycles coming every few
	// hundred statements; on 64 float64 either took 1.6).
	recycleMin   = 1 << 10
	recycleSlots = 4 // blocks kept per size
)

type recycler struct {
	mu     sync.Mutex
	free   map[uintptr][]block  // by size in bytes, most recently freed last
	held   uintptr              // bytes in free
	issued map[uintptr]issuance // by address: the live blocks handed out
	gen    uint64
	freed  uint64  // put's count: the order of the blocks of all sizes
	limit  uintptr // the most bytes kept; 0: recycleCap()

	// capRead is recycleCap as put last read it, capPuts the puts
	// that may still use that reading: reading it takes the time
	// (sysmem.Recent), 50 ns in a guest, a third of a put.
	capRead uintptr
	capPuts int
}

// A block is a recycled allocation.
type block struct {
	p     unsafe.Pointer
	gen   uint64
	freed uint64 // when put took it back (recycler.freed)
}

// An issuance is an allocation handed out as a result's storage.
type issuance struct {
	size uintptr
	gen  uint64 // tells this allocation from an earlier one at the address
}

var recycled = recycler{free: map[uintptr][]block{}, issued: map[uintptr]issuance{}}

// recycleCap is the most memory the recycler keeps: 256 MiB, or a 16th
// of the memory limit when that is less.
func recycleCap() uintptr {
	return uintptr(min(256<<20, recentLimit()/16))
}

// resultBytes returns size bytes for a result's storage, which the caller
// writes in full: a recycled block of that size when there is one.
func resultBytes(size int) unsafe.Pointer {
	if size < recycleMin {
		return rawBytes(size)
	}
	return recycled.bytes(size)
}

// bytes is resultBytes from r, for size at least recycleMin.
func (r *recycler) bytes(size int) unsafe.Pointer {
	n := uintptr(size)
	r.mu.Lock()
	if bs := r.free[n]; len(bs) > 0 {
		b := bs[len(bs)-1]
		bs[len(bs)-1] = block{}
		r.free[n] = bs[:len(bs)-1]
		r.held -= n
		r.issued[uintptr(b.p)] = issuance{n, b.gen}
		r.mu.Unlock()
		return b.p
	}
	r.gen++
	gen := r.gen
	r.mu.Unlock()
	p := rawBytes(size)
	r.mu.Lock()
	r.issued[uintptr(p)] = issuance{n, gen}
	r.mu.Unlock()
	// When the block is collected, its address may be reused by memory
	// that is not a result's: forget it.
	runtime.AddCleanup((*byte)(p), r.forget, blockKey{uintptr(p), gen})
	return p
}

// A blockKey names an allocation: its address and generation.
type blockKey struct {
	addr uintptr
	gen  uint64
}

// forget drops the issued entry of a collected block.
func (r *recycler) forget(key blockKey) {
	r.mu.Lock()
	if is, ok := r.issued[key.addr]; ok && is.gen == key.gen {
		delete(r.issued, key.addr)
	}
	r.mu.Unlock()
}

// put takes back the memory of data when it is a whole block that
// resultBytes handed out; it reports whether it did.
func (r *recycler) put(data any) bool {
	p, n, ok := backend.StorageSpan(data)
	if !ok || n < recycleMin {
		return false
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	is, ok := r.issued[uintptr(p)]
	if !ok || is.size != n {
		return false
	}
	delete(r.issued, uintptr(p))
	bs := r.free[n]
	if len(bs) >= recycleSlots {
		// The oldest block of the size, the least likely to be in the
		// cache, goes back to the collector.
		copy(bs, bs[1:])
		bs[len(bs)-1] = block{}
		bs = bs[:len(bs)-1]
		r.held -= n
		r.free[n] = bs
	}
	limit := r.limit
	if limit == 0 {
		limit = r.capFor(n)
	}
	if n > limit {
		return false
	}
	// Over the limit, the blocks freed longest ago, of any size, go back
	// to the collector: the sizes a session no longer makes must not
	// keep out those it does. After products of 2000×2000 had filled
	// the 256 MiB with blocks of 16 and 32 MB, every 8 MB result of a
	// batch of 64×64 float64 products was refused, and the next one
	// landed on fresh pages: 900 page faults and 5–9 ms a statement
	// rather than 1.4.
	for r.held+n > limit {
		r.evictOldest()
	}
	r.freed++
	r.free[n] = append(r.free[n], block{p, is.gen, r.freed})
	r.held += n
	return true
}

// capFor returns recycleCap for put's block of n bytes, read again every
// 64 puts, and whenever the block would take the recycler over the last
// reading: put never drops a block, nor refuses one, on a reading that
// may be stale; a fall in the memory available shows within 64 puts.
func (r *recycler) capFor(n uintptr) uintptr {
	if r.capPuts <= 0 || r.held+n > r.capRead {
		r.capRead, r.capPuts = recycleCap(), 64
	}
	r.capPuts--
	return r.capRead
}

// evictOldest drops the block put took back first (r.held > 0).
func (r *recycler) evictOldest() {
	var oldest uintptr
	first := true
	for n, bs := range r.free {
		if len(bs) > 0 && (first || bs[0].freed < r.free[oldest][0].freed) {
			oldest, first = n, false
		}
	}
	bs := r.free[oldest]
	copy(bs, bs[1:])
	bs[len(bs)-1] = block{}
	r.free[oldest] = bs[:len(bs)-1]
	r.held -= oldest
}

// Recycle tells the backend that nothing refers to t any longer: its
// storage may become the storage of a later result. The caller must be
// sure of it (the evaluator checks every value its session holds);
// storage the backend did not allocate as a whole result is left alone.
func (b *Backend) Recycle(t *backend.Tensor) {
	if t != nil {
		recycled.put(t.Data)
	}
}

// StorageFull returns storage for n elements of d, in the form
// backend.Tensor describes, that the caller writes in full: a recycled
// block of that size when one is free, issued as a result's storage is
// (so that Recycle takes it back). The evaluator's constructors fill it:
// arange(10^6) repeated wrote a fresh 8 MB block each time, which Go
// clears first, where NumPy's allocator hands back the last array's
// memory.
func (b *Backend) StorageFull(d dtypes.DType, n int) any {
	return newStorageFull(d, n)
}
