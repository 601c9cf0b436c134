package cpu

import (
	"math"
	"sync"
	"sync/atomic"
	"time"
)

// Whether a second worker pays for a memory-bound loop over a few
// megabytes depends on the machine. On the AMD EPYC guests this backend
// was first tuned on, one core reads and writes data in the cache as fast
// as two, and waking the second costs more than it brings (see
// serialMax). On an Intel Xeon guest (Emerald Rapids, 2 vCPUs) one core
// moves about 20-25 GB/s to and from its last-level cache and two nearly
// twice that: x + y on 10^6 int8 (3 MB) took 0.23 ms on one worker and
// 0.16 ms on two, -x on 10^6 float32 (8 MB) 0.69 and 0.42 ms; below 1 MB
// one worker was faster (0.06 against 0.066 ms for x + y on 2^18 int8).
// So the limits are measured in each process, the first time a loop is
// large enough for them to matter (see twoFaster).

// serialMin is the serial limit on a machine where a second core brings
// bandwidth: the bytes below which one worker still wins or nearly. It
// was 2 MB while each loop started its goroutines (x + y on 2^19 int8,
// 1.5 MB, took 0.10 ms on one and 0.087 ms on two); with the helpers of
// pool.go awake, two workers halve loops of 1-2 MB on the Xeon (x * 2 on
// 10^6 uint8, 2 MB: 0.080-0.092 → 0.038-0.045 ms; -x 0.069-0.080 →
// 0.030-0.037; x * 2 on 5·10^5 int8, 1 MB: 0.031 → 0.024), and at 160 kB
// (p * 2 on 10^4 float64, with a 64 kB limit) gain nothing.
const serialMin = 512 << 10

// calEpoch is the time twoState's times count from.
var calEpoch = time.Now()

// twoState holds what twoFaster has measured: whether two workers won,
// whether that is final, how many measurements lost, and when the last
// was taken (nanoseconds since calEpoch).
var twoState struct {
	mu          sync.Mutex
	wins, final atomic.Bool
	losses      int
	last        time.Duration
}

// twoFaster reports, for a backend of nworkers workers, whether a copy of
// 2 MB split over two workers measured at least 1.6 times as fast as on
// one (the best of 7 each, after a warm-up). On the Xeon
// the ratio was 3 (170 against 56 µs); on the first EPYC guests, where one core
// copied 3 MB in the cache in about 38 µs, it would be near 1.2 (two
// workers' wake-up against half the copy), under the bar. The two
// workers were two goroutines started for the copy until stop 46, which
// made them the calling goroutine and the pool's helper, awake, as a
// statement run after another finds them: on the AMD EPYC guest of that
// stop (Zen 5) fresh goroutines gave 1.0-1.2 (49-57 against 41-60 µs) and
// so one worker for statements up to 10 MB, where two were twice as fast
// (x < y on 10^6 float32 95 → 51 µs); the pool's helper gives 1.8-2.3. A win is final;
// a loss may come from other work on the second core at that moment (a
// collection's mark worker, another process), so it is measured again
// when asked retrySoon or more later (ten seconds after the third loss),
// and the answer is no until then. Losses were final after three: a
// process that lost them while its inputs were made (the benchmark
// matrix's) kept one worker for every later statement of 2-10 MB, and
// sum(x, axis=1) of 10^6 float32 took 0.33 ms rather than 0.15. A
// measurement takes about 2 ms.
func twoFaster(nworkers int) bool {
	if nworkers < 2 {
		return false
	}
	if twoState.final.Load() {
		return twoState.wins.Load()
	}
	st := &twoState
	if !st.mu.TryLock() {
		return false // being measured by another statement
	}
	defer st.mu.Unlock()
	now := time.Since(calEpoch)
	wait := retrySoon
	if st.losses >= 3 {
		wait = retryAfter
	}
	if st.final.Load() || st.losses > 0 && now-st.last < wait {
		return st.wins.Load()
	}
	one, two := measureTwo()
	for i := 1; i < twoTries && float64(one) < 1.6*float64(two); i++ {
		o, t := measureTwo()
		one, two = min(one, o), min(two, t)
	}
	st.last = time.Since(calEpoch)
	if float64(one) >= 1.6*float64(two) {
		st.wins.Store(true)
		st.final.Store(true)
		return true
	}
	st.losses++
	return false
}

// twoTries is how many times twoFaster measures before it counts a loss,
// keeping the best time of each side: on the AMD EPYC guest one
// measurement gave 1.47, 1.95 and 1.08 in three fresh processes (in the
// last, the helper copied none of the chunks of five of the seven timed
// copies, its core taken by other work), and a loss kept every statement
// of 0.5-10 MB on one worker for a second: (x > 0.7) & (x < 1.2) of 10^6
// float32 took 159 µs there, against 100-140 on two workers (NumPy 164).
const twoTries = 3

// measureTwo is measureCopy; tests replace it.
var measureTwo = measureCopy

// retrySoon is how long twoFaster waits after each of its first three
// losses before it measures again, and retryAfter after the third and
// each later one. A first loss comes most often while the process makes
// its inputs, the collector's mark worker taking the second core: with
// a second between measurements, bench/survey.sh's :timeit of 1000 runs
// of 150 µs ran on one worker to its end.
const (
	retrySoon  = 100 * time.Millisecond
	retryAfter = 10 * time.Second
)

// serialLimits returns the number of bytes below which a tree of cheap
// operations runs on one worker, and the number of bytes up to which
// CopyInto copies on one: serialMax and copySerialMax, or serialMin for
// both where two workers are faster (twoFaster).
func serialLimits(nworkers int) (serial, copyMax int) {
	if twoFaster(nworkers) {
		return serialMin, serialMin
	}
	return serialMax, copySerialMax
}

// copyLimit is the second of serialLimits, answered without measuring for
// a copy of bytes no larger than serialMin (one worker in any case).
func copyLimit(nworkers, bytes int) int {
	if bytes <= serialMin {
		return serialMin
	}
	_, c := serialLimits(nworkers)
	return c
}

// serialLimit is the first of serialLimits.
func serialLimit(nworkers int) int {
	s, _ := serialLimits(nworkers)
	return s
}

// reduceParallel reports whether a reduction reading bytes of input is
// spread over the workers: above reduceLimit. Inputs no larger than the
// least the limit can be are answered without measuring (twoFaster).
func (r *runner) reduceParallel(bytes int) bool {
	return bytes > reduceSerialMax/2 && bytes > r.reduceLimit()
}

// reduceLimit is the size of the largest reduction input read by one
// worker: reduceSerialMax, halved where two workers are faster
// (twoFaster).
func (r *runner) reduceLimit() int {
	if twoFaster(r.workers()) {
		return reduceSerialMax / 2
	}
	return reduceSerialMax
}

// measureCopy returns the best times of a copy of 2 MB on one goroutine
// and split over two (of 7 each, after one to warm up).
func measureCopy() (one, two time.Duration) {
	const n = 2 << 20
	src, dst := make([]byte, n), make([]byte, n)
	for i := range src {
		src[i] = byte(i)
	}
	best := func(f func()) time.Duration {
		f() // warms up
		return bestTime(7, f)
	}
	one = best(func() { copy(dst, src) })
	// Two workers as a parallel loop runs them: ranges from a counter,
	// the helper of pool.go as the second worker. A statement run soon
	// after another finds the helper awake; so the copies are timed once
	// it has taken part in one (a helper just started or woken waits
	// about 80 µs for a core on these guests; up to 20 copies).
	const chunk = 128 << 10
	split := func() bool {
		var next atomic.Int64
		var helped atomic.Bool
		runWorkers(2, func(w int) {
			for c := int(next.Add(1) - 1); c < n/chunk; c = int(next.Add(1) - 1) {
				copy(dst[c*chunk:(c+1)*chunk], src[c*chunk:(c+1)*chunk])
				if w == 1 {
					helped.Store(true)
				}
			}
		})
		return helped.Load()
	}
	for i := 0; i < 20 && !split(); i++ {
	}
	two = best(func() { split() })
	return one, two
}

// bestTime returns the least time of n calls of f: the measure of this
// file's choices, which want a CPU's speed without the host's noise.
func bestTime(n int, f func()) time.Duration {
	b := time.Duration(math.MaxInt64)
	for range n {
		t0 := time.Now()
		f()
		b = min(b, time.Since(t0))
	}
	return b
}
