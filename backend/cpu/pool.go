package cpu

import (
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// Helpers of parallel loops.
//
// A parallel loop used to start a goroutine per worker and wait for them.
// On these virtual machines a goroutine started while the other cores are
// idle waits about 80 µs for one of them to wake (a halted virtual CPU is
// woken by the host), which is all of an elementwise statement on 10^6
// bytes: the second core never helped such statements. So the calling
// goroutine now works as worker 0, and workers 1, 2, … are helpers that
// stay: after a loop a helper watches for the next one for spinFor before
// it sleeps, which is how OpenMP's and OpenBLAS's threads wait too
// (GOMP_SPINCOUNT). A loop never waits for a helper to wake: the caller
// takes the ranges itself, and when none is left it closes the loop, so
// that a helper that comes later does nothing, and waits only for the
// helpers inside.

// spinFor is how long a helper watches for the next loop before it
// sleeps: longer than the parsing, planning and fusion of a statement
// (5–10 µs), so that statements run one after another (a loop, :timeit)
// find the helpers awake; short enough that a session at rest keeps no
// core busy.
const spinFor = 200 * time.Microsecond

// A loop is one parallel call's work, shared with the helpers.
type loop struct {
	run func(w int) // worker w's part: takes ranges until none is left
	// state holds closed (no helper may enter) and the number of helpers
	// inside run.
	state atomic.Int64
}

const closed = 1 << 40

// enter reports whether a helper may run l, counting it in.
func (l *loop) enter() bool {
	for {
		s := l.state.Load()
		if s&closed != 0 {
			return false
		}
		if l.state.CompareAndSwap(s, s+1) {
			return true
		}
	}
}

// close keeps helpers from entering l and waits for those inside (each
// finishing its last range).
func (l *loop) close() {
	for s := l.state.Add(closed); s != closed; s = l.state.Load() {
		runtime.Gosched()
	}
}

// A helper is worker w of the loops it is given.
type helper struct {
	w        int
	next     atomic.Pointer[loop]
	sleeping atomic.Bool
	wake     chan struct{}
}

// helpers holds the helpers, made as loops need them; mu is held by the
// loop that uses them (a loop inside another's body, or one of another
// session, starts goroutines as before).
var helpers struct {
	mu   sync.Mutex
	list []*helper
}

// takeBack clears l from the helpers that have not taken it (a helper
// asleep or late would otherwise hold l's closure, and the operands it
// refers to, until the next loop). The caller holds helpers.mu.
func takeBack(l *loop, n int) {
	for w := 1; w < n; w++ {
		helpers.list[w-1].next.CompareAndSwap(l, nil)
	}
}

// give hands l to helpers 1…n-1 (starting those not yet made). The
// caller holds helpers.mu.
func give(l *loop, n int) {
	for w := 1; w < n; w++ {
		if w > len(helpers.list) {
			h := &helper{w: w, wake: make(chan struct{}, 1)}
			helpers.list = append(helpers.list, h)
			go h.serve()
		}
		h := helpers.list[w-1]
		h.next.Store(l)
		if h.sleeping.Load() {
			select {
			case h.wake <- struct{}{}:
			default:
			}
		}
	}
}

// run runs l as h's worker, and counts h out of it however run ends: a
// loop's run recovers its body's panics, but not runtime.Goexit (a test's
// t.FailNow in a body), after which close would wait for h forever and h
// would be gone; another goroutine then serves as h.
func (h *helper) run(l *loop) {
	done := false
	defer func() {
		l.state.Add(-1)
		if !done {
			go h.serve()
		}
	}()
	l.run(h.w)
	done = true
}

// serve runs the loops given to h, watching for the next for spinFor
// before it sleeps.
func (h *helper) serve() {
	last := time.Now()
	for spins := 0; ; spins++ {
		if l := h.next.Swap(nil); l != nil {
			if l.enter() {
				h.run(l)
			}
			last, spins = time.Now(), 0
			continue
		}
		spinPause()
		if spins%16 != 0 {
			continue
		}
		// Gosched lets a goroutine waiting for this P run (where there
		// are more workers than Ps).
		runtime.Gosched()
		if time.Since(last) < spinFor {
			continue
		}
		// Sleep; the giver stores next before it reads sleeping, and
		// this reads next after it sets sleeping, so one of the two
		// sees the other's write.
		h.sleeping.Store(true)
		if h.next.Load() == nil {
			<-h.wake
		}
		h.sleeping.Store(false)
		last = time.Now()
	}
}
