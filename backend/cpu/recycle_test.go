package cpu

import (
	"testing"
	"time"
	"unsafe"

	"github.com/tensorsh/tensorsh/backend"
	"github.com/tensorsh/tensorsh/dtypes"
)

// TestRecycle checks what Backend.Recycle takes back: whole result
// storage that newStorageFull handed out, once; not storage made
// elsewhere, a part of a block, or a block given back twice.
func TestRecycle(t *testing.T) {
	b := New()
	const n = 1 << 15 // 128 kB of float32
	addr := func(data any) unsafe.Pointer {
		p, _, _ := backend.StorageSpan(data)
		return p
	}
	take := func(data any) *backend.Tensor {
		return &backend.Tensor{DType: dtypes.F32, Shape: []int{len(data.([]float32))}, Data: data}
	}

	// Blocks of this size other tests gave back are taken first.
	for {
		recycled.mu.Lock()
		left := len(recycled.free[n*4])
		recycled.mu.Unlock()
		if left == 0 {
			break
		}
		newStorageFull(dtypes.F32, n)
	}

	a := newStorageFull(dtypes.F32, n)
	b.Recycle(take(a))
	if got := newStorageFull(dtypes.F32, n); addr(got) != addr(a) {
		t.Errorf("a recycled block was not reused")
	}

	// Given back twice: reused once only.
	c := newStorageFull(dtypes.F32, n)
	b.Recycle(take(c))
	b.Recycle(take(c))
	if d, e := newStorageFull(dtypes.F32, n), newStorageFull(dtypes.F32, n); addr(d) != addr(c) || addr(e) == addr(c) {
		t.Errorf("a block given back twice: reused at %p and %p (block %p)", addr(d), addr(e), addr(c))
	}

	// Storage the backend did not hand out as a result, and part of a block.
	other := backend.NewStorage(dtypes.F32, n).([]float32)
	b.Recycle(take(other))
	f := newStorageFull(dtypes.F32, n).([]float32)
	b.Recycle(take(f[:n/2]))
	b.Recycle(take(f[1:]))
	for range 3 {
		if g := newStorageFull(dtypes.F32, n); addr(g) == addr(other) || addr(g) == addr(f) {
			t.Errorf("reused memory that was not a whole result (%p)", addr(g))
		}
	}

	// At most recycleSlots blocks of one size are kept: the last given
	// back.
	var blocks []any
	for range recycleSlots + 2 {
		blocks = append(blocks, newStorageFull(dtypes.F32, n))
	}
	for _, x := range blocks {
		b.Recycle(take(x))
	}
	recycled.mu.Lock()
	kept := len(recycled.free[n*4])
	recycled.mu.Unlock()
	if kept != recycleSlots {
		t.Errorf("%d blocks kept, want %d", kept, recycleSlots)
	}
	if got := newStorageFull(dtypes.F32, n); addr(got) != addr(blocks[len(blocks)-1]) {
		t.Errorf("the block given back last was not the first reused")
	}
}

// TestRecycleCapFresh checks that the recycler keeps blocks before the
// memory limit was ever read: a limit cached as 0 (a process younger than
// the cache's second, none of whose results needed 1 MB) used to make
// the cap 0, so that nothing was recycled in a script's first second.
func TestRecycleCapFresh(t *testing.T) {
	c := &limitCache
	l, at := c.limit.Load(), c.at.Load()
	defer func() { c.limit.Store(l); c.at.Store(at) }()
	c.limit.Store(0)
	c.at.Store(int64(time.Since(limitEpoch)))
	if got := recycleCap(); got == 0 {
		t.Fatalf("recycleCap() = 0 with no limit read yet")
	}
}
