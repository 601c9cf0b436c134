package cpu

import (
	"context"
	"errors"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestParallel checks the parallel loops on the helpers (pool.go): every
// range exactly once, by workers numbered below the worker count, none
// after the loop returns, and no helper left holding the loop; the first
// error, a panic and a cancelled context end the loop; a body that ends
// a helper's goroutine (runtime.Goexit) ends neither the loop nor the
// helper; a loop inside another's body, and loops of sessions at the same
// time, run on goroutines of their own; with more workers than Ps the
// loops still finish.
func TestParallel(t *testing.T) {
	cover := func(t *testing.T, r *runner, n, grain int) {
		t.Helper()
		seen := make([]atomic.Int32, n)
		var done atomic.Bool
		var late atomic.Int32
		err := r.parallel(n, grain, func(w, lo, hi int) error {
			if w < 0 || w >= r.b.nworkers() {
				t.Errorf("worker %d of %d", w, r.b.nworkers())
			}
			if hi-lo > grain {
				t.Errorf("range [%d, %d) longer than %d", lo, hi, grain)
			}
			for i := lo; i < hi; i++ {
				seen[i].Add(1)
			}
			if done.Load() {
				late.Add(1)
			}
			return nil
		})
		done.Store(true)
		if err != nil {
			t.Fatal(err)
		}
		for i := range seen {
			if c := seen[i].Load(); c != 1 {
				t.Fatalf("n=%d grain=%d: element %d covered %d times", n, grain, i, c)
			}
		}
		helpers.mu.Lock()
		for _, h := range helpers.list {
			if h.next.Load() != nil {
				t.Errorf("helper %d still holds a loop", h.w)
			}
		}
		helpers.mu.Unlock()
		time.Sleep(time.Millisecond) // a helper that came late
		if l := late.Load(); l != 0 {
			t.Errorf("%d ranges ran after parallel returned", l)
		}
	}
	for _, w := range []int{2, 3, 4} {
		r := &runner{b: New(Workers(w)), ctx: context.Background()}
		for _, n := range []int{1, 2, 7, 100, 4096, 100003} {
			for _, grain := range []int{1, 3, 1000, 1 << 16} {
				cover(t, r, n, grain)
			}
		}
		// After the helpers have gone to sleep.
		time.Sleep(2 * spinFor)
		cover(t, r, 1000, 10)
	}

	r := &runner{b: New(Workers(2)), ctx: context.Background()}
	t.Run("error", func(t *testing.T) {
		want := errors.New("range 5")
		err := r.parallel(100, 1, func(_, lo, _ int) error {
			if lo == 5 {
				return want
			}
			return nil
		})
		if err != want {
			t.Errorf("err = %v, want %v", err, want)
		}
	})
	t.Run("panic", func(t *testing.T) {
		for i := range 20 {
			err := r.parallel(100, 1, func(_, lo, _ int) error {
				if lo == i {
					panic("boom")
				}
				return nil
			})
			if err == nil || !strings.Contains(err.Error(), "internal error: boom") {
				t.Fatalf("range %d panicked: err = %v", i, err)
			}
		}
	})
	t.Run("cancel", func(t *testing.T) {
		// The tenth range cancels; a range that starts after cancel has
		// returned was let through, but for one a worker (each may have
		// checked the context just before). Counting all the ranges
		// after the tenth instead failed under load: the worker that
		// cancels can be descheduled between its count and cancel,
		// while the others run hundreds of ranges.
		ctx, cancel := context.WithCancel(context.Background())
		rc := &runner{b: r.b, ctx: ctx}
		var ran, late atomic.Int32
		var canceled atomic.Bool
		err := rc.parallel(1000, 1, func(_, lo, _ int) error {
			if canceled.Load() {
				late.Add(1)
			}
			if ran.Add(1) == 10 {
				cancel()
				canceled.Store(true)
			}
			return nil
		})
		if nw := int32(rc.workers()); !errors.Is(err, context.Canceled) || late.Load() > nw {
			t.Errorf("err = %v; %d ranges ran, %d after the cancel, want context.Canceled and at most %d after", err, ran.Load(), late.Load(), nw)
		}
	})
	t.Run("goexit", func(t *testing.T) {
		// A body that ends its goroutine on a helper: the loop still
		// returns, and the helper's place is taken for the next loops.
		var inHelper atomic.Bool
		for i := 0; !inHelper.Load(); i++ {
			if i == 1000 {
				t.Fatal("no range of 1000 loops ran on a helper")
			}
			r.parallel(100, 1, func(w, lo, hi int) error {
				if w != 0 && inHelper.CompareAndSwap(false, true) {
					runtime.Goexit()
				}
				time.Sleep(time.Microsecond) // the caller leaves ranges to the helpers
				return nil
			})
		}
		var onHelper atomic.Int32
		for range 50 {
			r.parallel(100, 1, func(w, lo, hi int) error {
				if w != 0 {
					onHelper.Add(1)
				}
				time.Sleep(time.Microsecond)
				return nil
			})
		}
		if onHelper.Load() == 0 {
			t.Error("after a Goexit no range ran on a helper")
		}
	})
	t.Run("nested", func(t *testing.T) {
		var total atomic.Int64
		err := r.parallel(8, 1, func(_, lo, hi int) error {
			return r.parallel(1000, 10, func(_, lo, hi int) error {
				total.Add(int64(hi - lo))
				return nil
			})
		})
		if err != nil || total.Load() != 8000 {
			t.Errorf("nested loops: err = %v, %d elements, want 8000", err, total.Load())
		}
	})
	t.Run("sessions", func(t *testing.T) {
		var wg sync.WaitGroup
		for range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for range 50 {
					cover(t, r, 5000, 100)
				}
			}()
		}
		wg.Wait()
	})
	t.Run("oneP", func(t *testing.T) {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
		r4 := &runner{b: New(Workers(4)), ctx: context.Background()}
		for range 50 {
			cover(t, r4, 1000, 10)
		}
	})
}
