package cpu

// Sorting along one axis.

import (
	"fmt"
	"math"
	"math/bits"
	"slices"
	"sync"
	"unsafe"

	"github.com/tensorsh/tensorsh/backend"
)

// Sort evaluates OpSort along Axes[0]: each line of the argument along
// the axis in ascending order, stably, in NumPy's order
// (numpy/_core/src/npysort/npysort_common.h: a float NaN after every
// number; complex numbers by real part, then imaginary part, those with a
// NaN part after the others as npysort's CLT orders them; false before
// true). Equal elements keep their order, so that the bits of -0.0 and
// 0.0, and of NaNs, come out where a stable sort puts them. The lines are
// independent and are sorted in parallel.
//
// Real numbers are sorted by LSD radix sort on keys that order as the
// numbers do (the sign bit flipped for signed integers; a float's bits
// with its sign bit set, or all of them inverted where it is negative;
// ±0 one key, every NaN the largest), a byte at a time, which is stable
// (see radixSort): 10^6 float32 in one line take 8–13 ms on this
// package's two workers (17–21 while each sort faulted in fresh pages for
// its scratch keys and made its keys on one: see sortScratches, halves),
// where slices.Sort took 145
// (NumPy 1.24's AVX-512 quicksort 9–12); rows of 1000 float32 5–8 µs
// each. A few places of a sort (a median) are selected instead
// (SortedRange).
// The keys of ±0 and of NaNs stand for elements of several bit patterns:
// their runs are refilled with those elements in their input order.
// Complex numbers are sorted by a stable comparison sort.
func (r *runner) Sort(n *backend.Node, size int) (*view, error) {
	x, out, s, err := r.alongAxis(n, size)
	if err != nil || size == 0 {
		return r.finishAlong(out, n, err)
	}
	if n.Op == backend.OpArgSort {
		return r.finishAlong(out, n, argSort(r, s, x, out))
	}
	switch x := x.(type) {
	case []bool:
		err = sortLines(r, s, x, out.([]bool), inPlace(sortBools))
	case []int8:
		err = sortLines(r, s, x, out.([]int8), inPlace(sortBytes[int8]))
	case []uint8:
		err = sortLines(r, s, x, out.([]uint8), inPlace(sortBytes[uint8]))
	case []int16:
		err = sortLines(r, s, x, out.([]int16), sortInts[int16, uint16])
	case []uint16:
		err = sortLines(r, s, x, out.([]uint16), sortInts[uint16, uint16])
	case []int32:
		err = sortLines(r, s, x, out.([]int32), sortInts[int32, uint32])
	case []uint32:
		err = sortLines(r, s, x, out.([]uint32), sortInts[uint32, uint32])
	case []int64:
		err = sortLines(r, s, x, out.([]int64), sortInts[int64, uint64])
	case []uint64:
		err = sortLines(r, s, x, out.([]uint64), sortInts[uint64, uint64])
	case []float32:
		err = sortLines(r, s, x, out.([]float32), sortFloat32s)
	case []float64:
		err = sortLines(r, s, x, out.([]float64), sortFloat64s)
	case []complex64:
		err = sortLines(r, s, x, out.([]complex64), inPlace(sortComplex[complex64]))
	case []complex128:
		err = sortLines(r, s, x, out.([]complex128), inPlace(sortComplex[complex128]))
	default:
		err = fmt.Errorf("cpu: sort of %v is not supported", n.Args[0].DType)
	}
	return r.finishAlong(out, n, err)
}

// sortLines writes each line of x sorted into out with sort(dst, src,
// sc), which gets scratch space of its own for each run of lines: a line
// is read from x and written to out when s.inner is 1 (no copy of x into
// out first: 4 MB for 10^6 float32), else gathered with its neighbours
// into a tile (see forLines), sorted there, and the tile transposed into
// out.
func sortLines[T any](r *runner, s scanShape, x, out []T, sort func(dst, src []T, sc *sortScratch)) error {
	return forLines(r, s, x, radixMSD, func(o, in int, line []T, sc *sortScratch) {
		if s.inner == 1 {
			sort(out[o*s.m:(o+1)*s.m], line, sc)
			return
		}
		sort(line, line, sc)
	}, func(base, nb int, tile []T) {
		scatterTile(out, tile, s.m, s.inner, base, nb)
	})
}

// forLines calls body for each line of x along the axis s describes (o
// and in its indices before and after the axis), on the runner's workers,
// each run of lines with a sortScratch of its own, whose par splits a line
// among the workers where the lines are fewer than they and longer than
// long. A line is x's own elements where it is contiguous (s.inner is 1:
// body must not write them). Otherwise up to tileLines(s) lines of
// neighbouring in are gathered into a tile together, each line's elements
// in a row of the tile, where body may change them: tile (when not nil)
// gets the tile afterwards, with the index in x of its first line's first
// element and its number of lines. Lines s.inner apart read one element
// a cache line: sort(x, axis=0) of 1000×1000 float32 spent 3.5 of its 9
// ms gathering and scattering one line at a time.
func forLines[T any](r *runner, s scanShape, x []T, long int, body func(o, in int, line []T, sc *sortScratch), tile func(base, nb int, tile []T)) error {
	lines := s.outer * s.inner
	nt := tileLines(s)
	grain := max(1, grainSize/max(s.m, 1))
	grain = (grain + nt - 1) / nt * nt
	err := r.parallel(lines, grain, func(_, lo, hi int) error {
		sc := newScratch()
		defer sc.release()
		if hi-lo < r.workers() && s.m > long {
			sc.par = r.parts // a few long lines: parts of each on the workers
		}
		var buf []T
		if s.inner > 1 {
			buf = make([]T, nt*s.m)
		}
		for l := lo; l < hi; {
			if err := r.ctx.Err(); err != nil {
				return err
			}
			o, in := l/s.inner, l%s.inner
			if s.inner == 1 {
				for end := min(hi, l+64); l < end; l++ {
					body(l, 0, x[l*s.m:(l+1)*s.m], sc)
				}
				continue
			}
			nb := min(nt, s.inner-in, hi-l)
			base := o*s.m*s.inner + in
			t := buf[:nb*s.m]
			gatherTile(t, x, s.m, s.inner, base, nb)
			for b := range nb {
				body(o, in+b, t[b*s.m:(b+1)*s.m], sc)
			}
			if tile != nil {
				tile(base, nb, t)
			}
			l += nb
		}
		return nil
	})
	if err != nil {
		return err
	}
	// A line's parts on the workers stop early, unsaid, when the run is
	// canceled: the line is then unfinished.
	return r.ctx.Err()
}

// tileLines is how many lines along a non-last axis forLines and
// argLines gather at a time: a cache line of float32 elements, fewer
// where the lines are long (a tile holds at most max(m, 2^18) elements).
func tileLines(s scanShape) int {
	if s.inner == 1 {
		return 1
	}
	return max(1, min(16, s.inner, (1<<18)/max(s.m, 1)))
}

// gatherTile copies the nb lines of m elements, inner apart, whose first
// starts at x[base] (and the others follow it) into tile, line b at
// tile[b*m:]: a transpose (transposeInto's kernels: element by element in
// Go, a tile took four times as long as copying its bytes).
func gatherTile[T any](tile, x []T, m, inner, base, nb int) {
	transposeT(tile, 0, m, x, base, inner, nb, m)
}

// scatterTile is gatherTile's inverse: it writes the lines of tile to
// out.
func scatterTile[T any](out, tile []T, m, inner, base, nb int) {
	transposeT(out, base, inner, tile, 0, m, m, nb)
}

// sortScratch holds a worker's scratch keys, reused from line to line,
// and par, which runs parts of one line's sort on several workers where
// the lines are fewer than the workers (nil: one after another).
type sortScratch struct {
	par      func(parts int, body func(part int) error) error
	k16, t16 []uint16
	k32, t32 []uint32
	k64, t64 []uint64
	r32      []uint32 // sortFloats' elements of ±0 and NaN, as bits
	r64      []uint64
	ix       []uint32 // radixPairs' other buffer of indices
}

// inPlace makes a sort of a line in place a sort of src into dst.
func inPlace[T any](sort func(line []T, sc *sortScratch)) func(dst, src []T, sc *sortScratch) {
	return func(dst, src []T, sc *sortScratch) {
		copy(dst, src) // nothing to do where they are one line
		sort(dst, sc)
	}
}

// sortScratches keeps the scratch of finished sorts for the next ones:
// the keys of 10^6 float32 and their other buffer are 8 MB, whose pages
// the kernel faulted in anew for every sort (2–3 ms of 20 on this
// package's machine), as NumPy's allocator hands a freed array's memory
// to the next.
var sortScratches = sync.Pool{New: func() any { return new(sortScratch) }}

// scratchKeep is the most scratch memory a sortScratch keeps in
// sortScratches, in bytes.
const scratchKeep = 64 << 20

func newScratch() *sortScratch { return sortScratches.Get().(*sortScratch) }

// release gives sc back to sortScratches, unless it holds more than
// scratchKeep bytes.
func (sc *sortScratch) release() {
	sc.par = nil
	n := 2*(cap(sc.k16)+cap(sc.t16)) + 4*(cap(sc.k32)+cap(sc.t32)+cap(sc.r32)+cap(sc.ix)) + 8*(cap(sc.k64)+cap(sc.t64)+cap(sc.r64))
	if n <= scratchKeep {
		sortScratches.Put(sc)
	}
}

// grow returns s with length n, reallocated when too short (not cleared:
// the sorts and softmax write their scratch before they read it, and
// clearing 8 MB of keys took as long as a pass of the sort).
func grow[T uint16 | uint32 | uint64 | float32 | float64](s []T, n int) []T {
	if cap(s) < n {
		return unsafe.Slice((*T)(rawBytes(n*sizeOf[T]())), n)
	}
	return s[:n]
}

// radixSort sorts keys by radix sort, with tmp (of the same length) as
// scratch space, and returns the one of the two that holds them sorted.
// Keys of a line longer than radixMSD are first split into buckets by the
// 6 to 13 bits down from the highest bit in which they differ (an MSD
// pass), each bucket then sorted by the bytes below (radixBytes) while it
// stays in the caches, the buckets in two parts of about half the keys on
// two workers where par is given: LSD passes over 10^6 float32 (4 MB, 256
// places written at once) took 28 ms, and an MSD pass by the top byte,
// which floats of one sign and range share in all but a few values, spent
// most of its time on the chain of increments of one counter.
func radixSort[K uint16 | uint32 | uint64](keys, tmp []K, par func(int, func(int) error) error) []K {
	return radixSortDiff(keys, tmp, par, keyDiff(keys))
}

// keyDiff returns the bits in which some key differs from the first.
func keyDiff[K uint16 | uint32 | uint64](keys []K) K {
	var diff K
	for _, v := range keys {
		diff |= v ^ keys[0]
	}
	return diff
}

// radixSortDiff is radixSort of keys whose keyDiff is diff (which the
// sorts compute as they make their keys, saving a pass over them).
func radixSortDiff[K uint16 | uint32 | uint64](keys, tmp []K, par func(int, func(int) error) error, diff K) []K {
	n := len(keys)
	if n > math.MaxUint32 {
		slices.Sort(keys) // equal keys are equal elements: any order will do
		return keys
	}
	tmp = tmp[:n]
	if n <= radixMSD {
		// Only the bytes up to the highest bit in which keys differ
		// are counted: counting a byte all keys share was a chain of
		// increments of one counter (floats of [0.5, 1.5) share their
		// top byte), a third of a row's sort.
		radixBytes(keys, tmp, (bits.Len64(uint64(diff))+7)/8)
		return keys
	}
	// The MSD pass, in parts of the keys on two workers where par is
	// given (each part counts its keys, then places them after those of
	// the parts before it in every bucket, so the pass stays stable):
	// on one worker it was half the time of a sort of 10^6 float32.
	parts := 1
	if par != nil {
		parts = 2
	}
	// run reports false where the run was canceled and a part skipped:
	// the sort then stops, its keys unfinished (the caller returns the
	// cancellation, not them).
	run := func(f func(part int, keys []K)) bool {
		if parts == 1 {
			f(0, keys)
			return true
		}
		return par(parts, func(p int) error {
			f(p, keys[p*n/parts:(p+1)*n/parts])
			return nil
		}) == nil
	}
	h := bits.Len64(uint64(diff))
	if h == 0 {
		return keys // all equal
	}
	// The digit: bits [lo, h), 6 to 13 of them, lo a whole number of
	// bytes, so that the bytes below are what each bucket sorts.
	lo := max(h-6, 0) / 8 * 8
	mask := 1<<(h-lo) - 1
	counts := make([][]uint32, parts)
	if !run(func(p int, part []K) {
		count := make([]uint32, mask+1)
		for _, v := range part {
			count[int(uint64(v)>>lo)&mask]++
		}
		counts[p] = count
	}) {
		return keys
	}
	// starts[d]: bucket d's first place; counts[p][d] becomes part p's
	// first place in it.
	starts := make([]uint32, mask+2)
	for d := range mask + 1 {
		at := starts[d]
		for _, count := range counts {
			c := count[d]
			count[d] = at
			at += c
		}
		starts[d+1] = at
	}
	if !run(func(p int, part []K) {
		count := counts[p]
		for _, v := range part {
			d := int(uint64(v)>>lo) & mask
			i := count[d]
			tmp[i] = v
			count[d] = i + 1
		}
	}) {
		return keys
	}
	nb := lo / 8
	buckets := func(d0, d1 int) {
		for d := d0; d < d1; d++ {
			if a, b := starts[d], starts[d+1]; b-a > 1 && nb > 0 {
				radixBytes(tmp[a:b], keys[a:b], nb)
			}
		}
	}
	if par == nil {
		buckets(0, mask+1)
	} else {
		// Two parts of about half the keys each: buckets hold very
		// different numbers of them (floats of [0.5, 1) half of [0, 1)).
		mid, _ := slices.BinarySearch(starts, uint32(n/2))
		mid = min(mid, mask+1)
		_ = par(2, func(part int) error {
			if part == 0 {
				buckets(0, mid)
			} else {
				buckets(mid, mask+1)
			}
			return nil
		})
	}
	return tmp // every bucket sorted in place there (not copied back: 4 MB for 10^6 float32)
}

// radixMSD is the length above which radixSort splits a line into
// buckets first.
const radixMSD = 1 << 14

// radixBytes sorts keys by their low nb bytes, stably: by LSD radix sort,
// a byte at a time, tmp the other buffer. The counts of every byte are taken
// in one pass (a pass a byte spent most of its time on the chain of
// increments of one counter where a byte repeats); a byte that all keys
// share takes no pass.
func radixBytes[K uint16 | uint32 | uint64](keys, tmp []K, nb int) {
	n := len(keys)
	if n < 2 {
		return
	}
	var count [8][256]uint32
	countBytes(keys, nb, &count)
	for nb > 0 && count[nb-1][byte(uint64(keys[0])>>(8*(nb-1)))] == uint32(n) {
		nb-- // the top byte is the same in every key
	}
	if nb == 0 {
		return
	}
	src, dst := keys, tmp
	for b := range nb {
		shift := 8 * b
		c := &count[b]
		if c[byte(uint64(src[0])>>shift)] == uint32(n) {
			continue
		}
		sum := uint32(0)
		for i, k := range c {
			c[i] = sum
			sum += k
		}
		scatter(src, dst, c, shift)
		src, dst = dst, src
	}
	if &src[0] != &keys[0] {
		copy(keys, src)
	}
}

// scatter moves each key of src to dst at the place c gives its byte at
// shift, and advances that place: one pass of a radix sort. (A function
// of its own: inlined in radixBytes, its loop kept the key on the stack.)
func scatter[K uint16 | uint32 | uint64](src, dst []K, c *[256]uint32, shift int) {
	for _, v := range src {
		d := byte(uint64(v) >> shift)
		i := c[d]
		dst[i] = v
		c[d] = i + 1
	}
}

// countBytes adds to count[b] the number of keys of each value of byte b,
// for the low nb bytes.
func countBytes[K uint16 | uint32 | uint64](keys []K, nb int, count *[8][256]uint32) {
	// The counts of one to four and of eight bytes unrolled (a loop
	// over the bytes took twice as long); five to seven, which only
	// buckets of 64-bit keys take, by a loop.
	switch nb {
	case 1:
		for _, v := range keys {
			count[0][byte(v)]++
		}
	case 2:
		for _, v := range keys {
			count[0][byte(v)]++
			count[1][byte(v>>8)]++
		}
	case 3:
		for _, v := range keys {
			w := uint64(v) // shifts past 16 bits are not ones vet accepts on a generic K
			count[0][byte(w)]++
			count[1][byte(w>>8)]++
			count[2][byte(w>>16)]++
		}
	case 4:
		for _, v := range keys {
			w := uint64(v)
			count[0][byte(w)]++
			count[1][byte(w>>8)]++
			count[2][byte(w>>16)]++
			count[3][byte(w>>24)]++
		}
	case 8:
		for _, v := range keys {
			w := uint64(v)
			count[0][byte(w)]++
			count[1][byte(w>>8)]++
			count[2][byte(w>>16)]++
			count[3][byte(w>>24)]++
			count[4][byte(w>>32)]++
			count[5][byte(w>>40)]++
			count[6][byte(w>>48)]++
			count[7][byte(w>>56)]++
		}
	default:
		for _, v := range keys {
			w := uint64(v)
			for b := range nb {
				count[b][byte(w>>(8*b))]++
			}
		}
	}
}

// sortBools puts the falses first.
func sortBools(line []bool, _ *sortScratch) {
	f := 0
	for _, v := range line {
		if !v {
			f++
		}
	}
	for i := range line {
		line[i] = i >= f
	}
}

// sortBytes is a counting sort of 8-bit integers.
func sortBytes[T int8 | uint8](line []T, _ *sortScratch) {
	var count [256]int
	for _, v := range line {
		count[uint8(v)]++
	}
	i := 0
	for b := range 256 {
		v := T(b)
		if _, signed := any(v).(int8); signed {
			v = T(b ^ 0x80) // -128 first
		}
		for range count[uint8(v)] {
			line[i] = v
			i++
		}
	}
}

// sortInts sorts integers of 16 to 64 bits by their keys K: the bits with
// the sign bit flipped for signed types, so that the keys order as the
// values do.
func sortInts[T int16 | uint16 | int32 | uint32 | int64 | uint64, K uint16 | uint32 | uint64](dst, src []T, sc *sortScratch) {
	var flip K
	if T(0)-1 < 0 { // signed
		flip = K(1) << (8*sizeOf[K]() - 1)
	}
	keys, tmp := scratchKeys[K](sc, len(src))
	var first, diff K
	if len(src) > 0 {
		first = K(src[0]) ^ flip
	}
	for i, v := range src {
		k := K(v) ^ flip
		keys[i] = k
		diff |= k ^ first
	}
	for i, k := range radixSortDiff(keys, tmp, sc.par, diff) {
		dst[i] = T(k ^ flip)
	}
}

// scratchKeys returns sc's key and temporary buffers of type K, n long.
func scratchKeys[K uint16 | uint32 | uint64](sc *sortScratch, n int) ([]K, []K) {
	var k, t any
	switch any(K(0)).(type) {
	case uint16:
		sc.k16, sc.t16 = grow(sc.k16, n), grow(sc.t16, n)
		k, t = sc.k16, sc.t16
	case uint32:
		sc.k32, sc.t32 = grow(sc.k32, n), grow(sc.t32, n)
		k, t = sc.k32, sc.t32
	default:
		sc.k64, sc.t64 = grow(sc.k64, n), grow(sc.t64, n)
		k, t = sc.k64, sc.t64
	}
	return k.([]K), t.([]K)
}

func sortFloat32s(dst, src []float32, sc *sortScratch) {
	keys, tmp := scratchKeys[uint32](sc, len(src))
	sc.r32 = sortFloats(dst, src, keys, tmp, sc.r32, sc.par)
}

func sortFloat64s(dst, src []float64, sc *sortScratch) {
	keys, tmp := scratchKeys[uint64](sc, len(src))
	sc.r64 = sortFloats(dst, src, keys, tmp, sc.r64, sc.par)
}

// sortFloats sorts floats by keys of their bits (see Sort), then puts the
// elements of ±0 and NaN back in their runs in input order; rest is
// scratch space for those, returned grown.
func sortFloats[F float32 | float64, K uint32 | uint64](dst, src []F, keys, tmp, rest []K, par func(int, func(int) error) error) []K {
	bits := unsafeBits[F, K](src)
	out := unsafeBits[F, K](dst)
	shift := 8*sizeOf[K]() - 1
	top := K(1) << shift
	inf := K(0x7f800000) // the bits of +Inf
	if sizeOf[K]() == 8 {
		inf = K(math.Float64bits(math.Inf(1)))
	}
	var first K // the first key
	if len(bits) > 0 {
		first = newFloatKeys[K]().key(bits[0])
	}
	// The keys, in two parts on two workers for a long line (par): the
	// counts of ±0 and NaN, and the bits in which keys differ from the
	// first, of each part.
	type counts struct {
		zeros, nans int
		diff        K
	}
	var parts [2]counts
	makeKeys := func(p, lo, hi int) {
		var c counts
		for i, b := range bits[lo:hi] {
			var k K
			switch a := b &^ top; {
			case a == 0: // ±0: the key of +0
				k = top
				c.zeros++
			case a > inf: // NaN: the largest key
				k = ^K(0)
				c.nans++
			default:
				// A negative number's bits inverted, a positive one's
				// with the sign bit set.
				neg := K(0) - b>>shift
				k = b ^ (neg | top)
			}
			keys[lo+i] = k
			c.diff |= k ^ first
		}
		parts[p] = c
	}
	n := len(bits)
	if !halves(par, n, makeKeys) {
		return rest // canceled: the keys unfinished, and so the line
	}
	zeros, nans := parts[0].zeros+parts[1].zeros, parts[0].nans+parts[1].nans
	diff := parts[0].diff | parts[1].diff
	if zeros+nans > 0 {
		rest = grow(rest, zeros+nans)
		z, nn := 0, zeros
		for _, b := range bits {
			switch a := b &^ top; {
			case a == 0:
				rest[z] = b
				z++
			case a > inf:
				rest[nn] = b
				nn++
			}
		}
	}
	sorted := radixSortDiff(keys, tmp, par, diff)
	halves(par, n, func(_, lo, hi int) {
		for i, k := range sorted[lo:hi] {
			neg := K(0) - (k>>shift ^ 1)
			out[lo+i] = k ^ (neg | top)
		}
	})
	if zeros+nans > 0 {
		// The zeros' run starts after the negative numbers; the NaNs'
		// run ends the line.
		neg, _ := slices.BinarySearch(sorted, top)
		copy(out[neg:neg+zeros], rest[:zeros])
		copy(out[len(out)-nans:], rest[zeros:zeros+nans])
	}
	return rest
}

// parts runs body(p) for p < n on the runner's workers: a sortScratch's
// par for a few long lines.
func (r *runner) parts(n int, body func(part int) error) error {
	return r.parallel(n, 1, func(_, lo, hi int) error {
		for p := lo; p < hi; p++ {
			if err := body(p); err != nil {
				return err
			}
		}
		return nil
	})
}

// halves calls f(0, 0, n) alone, or, where par is given (a long line on
// two workers), f(0, 0, n/2) and f(1, n/2, n) on the two. It reports
// false where the run was canceled and a half skipped.
func halves(par func(int, func(int) error) error, n int, f func(part, lo, hi int)) bool {
	if par == nil {
		f(0, 0, n)
		return true
	}
	return par(2, func(p int) error {
		f(p, p*n/2, (p+1)*n/2)
		return nil
	}) == nil
}

// sortComplex sorts complex numbers stably in NumPy's order.
func sortComplex[C complex64 | complex128](line []C, _ *sortScratch) {
	slices.SortStableFunc(line, func(a, b C) int {
		switch {
		case complexLess(complex128(a), complex128(b)):
			return -1
		case complexLess(complex128(b), complex128(a)):
			return 1
		}
		return 0
	})
}

// complexLess is npysort's CLT: a before b in NumPy's order of complex
// numbers ([R + Rj, R + nanj, nan + Rj, nan + nanj], each kind by its
// parts that are not NaN).
func complexLess(a, b complex128) bool {
	ar, ai, br, bi := real(a), imag(a), real(b), imag(b)
	switch {
	case ar < br:
		return ai == ai || bi != bi
	case ar > br:
		return bi != bi && ai == ai
	case ar == br || ar != ar && br != br:
		return ai < bi || bi != bi && ai == ai
	}
	return br != br
}

// argSort evaluates OpArgSort: for each line of x (a compute buffer) the
// indices 0…m-1 ordered as Sort orders the elements, equal elements by
// index (a stable sort), into out ([]int32 or []int64). Real numbers are
// sorted by an LSD radix sort of their keys (Sort's, ±0 one key and every
// NaN the largest: ties of those keep index order too) carrying the
// indices; bools by a stable partition; complex numbers by a stable
// comparison sort.
func argSort(r *runner, s scanShape, x, out any) error {
	switch x := x.(type) {
	case []bool:
		return argLines(r, s, x, out, func(line []bool, idx []uint32, _ *sortScratch) {
			j := 0
			for _, want := range []bool{false, true} {
				for i, v := range line {
					if v == want {
						idx[j] = uint32(i)
						j++
					}
				}
			}
		})
	case []int8:
		return argLines(r, s, x, out, argInts[int8, uint16])
	case []uint8:
		return argLines(r, s, x, out, argInts[uint8, uint16])
	case []int16:
		return argLines(r, s, x, out, argInts[int16, uint16])
	case []uint16:
		return argLines(r, s, x, out, argInts[uint16, uint16])
	case []int32:
		return argLines(r, s, x, out, argInts[int32, uint32])
	case []uint32:
		return argLines(r, s, x, out, argInts[uint32, uint32])
	case []int64:
		return argLines(r, s, x, out, argInts[int64, uint64])
	case []uint64:
		return argLines(r, s, x, out, argInts[uint64, uint64])
	case []float32:
		return argLines(r, s, x, out, argFloats[float32, uint32])
	case []float64:
		return argLines(r, s, x, out, argFloats[float64, uint64])
	case []complex64:
		return argLines(r, s, x, out, argSortComplex[complex64])
	case []complex128:
		return argLines(r, s, x, out, argSortComplex[complex128])
	}
	return fmt.Errorf("cpu: argsort of %T is not supported", x)
}

// argLines calls sortIdx for each line of s (gathered into a contiguous
// line when strided) with idx to fill with the line's order, and writes
// the indices into out, an []int32 or []int64 of x's shape.
func argLines[T any](r *runner, s scanShape, x []T, out any, sortIdx func(line []T, idx []uint32, sc *sortScratch)) error {
	if s.m > math.MaxUint32 {
		return fmt.Errorf("cpu: argsort: lines of %d elements are too long", s.m)
	}
	lines := s.outer * s.inner
	nt := tileLines(s)
	grain := max(1, grainSize/max(s.m, 1))
	grain = (grain + nt - 1) / nt * nt
	return r.parallel(lines, grain, func(_, lo, hi int) error {
		sc := newScratch()
		defer sc.release()
		var buf []T
		if s.inner > 1 {
			buf = make([]T, nt*s.m)
		}
		idx := make([]uint32, nt*s.m)
		var w32 []int32 // scatterIdx's converted tiles
		var w64 []int64
		for l := lo; l < hi; {
			if err := r.ctx.Err(); err != nil {
				return err
			}
			// A tile of nb lines, as forLines gathers them (one line
			// where they are contiguous).
			o, in := l/s.inner, l%s.inner
			nb := min(nt, s.inner-in, hi-l)
			base := o*s.m*s.inner + in
			t, ti := x[base:base+s.m], idx[:nb*s.m]
			if s.inner > 1 {
				t = buf[:nb*s.m]
				gatherTile(t, x, s.m, s.inner, base, nb)
			}
			for b := range nb {
				sortIdx(t[b*s.m:(b+1)*s.m], ti[b*s.m:(b+1)*s.m], sc)
			}
			switch o := out.(type) {
			case []int64:
				w64 = slices.Grow(w64[:0], len(ti))[:len(ti)]
				scatterIdx(o, ti, w64, s.m, s.inner, base, nb)
			case []int32:
				w32 = slices.Grow(w32[:0], len(ti))[:len(ti)]
				scatterIdx(o, ti, w32, s.m, s.inner, base, nb)
			}
			l += nb
		}
		return nil
	})
}

// scatterIdx is scatterTile for a tile of indices into out's integers:
// converted into wide (as long as tile), then transposed.
func scatterIdx[I int32 | int64](out []I, tile []uint32, wide []I, m, inner, base, nb int) {
	if inner == 1 {
		for j, i := range tile[:m] {
			out[base+j] = I(i)
		}
		return
	}
	for j, i := range tile {
		wide[j] = I(i)
	}
	scatterTile(out, wide, m, inner, base, nb)
}

// argInts orders integers by their keys (sortInts's).
func argInts[T int8 | uint8 | int16 | uint16 | int32 | uint32 | int64 | uint64, K uint16 | uint32 | uint64](line []T, idx []uint32, sc *sortScratch) {
	var flip K
	if T(0)-1 < 0 { // signed: the sign bit of T, flipped in K
		flip = K(1) << (8*sizeOf[T]() - 1)
	}
	keys, tmp := scratchKeys[K](sc, len(line))
	for i, v := range line {
		keys[i] = K(v) ^ flip // sorted by T's bytes only: an int8's sign extension does not count
	}
	radixPairs(keys, idx, tmp, sc, sizeOf[T]())
}

// argFloats orders floats by Sort's keys.
func argFloats[F float32 | float64, K uint32 | uint64](line []F, idx []uint32, sc *sortScratch) {
	keys, tmp := scratchKeys[K](sc, len(line))
	bits := unsafe.Slice((*K)(unsafe.Pointer(unsafe.SliceData(line))), len(line))
	shift := 8*sizeOf[K]() - 1
	top := K(1) << shift
	inf := K(0x7f800000)
	if sizeOf[K]() == 8 {
		inf = K(math.Float64bits(math.Inf(1)))
	}
	for i, b := range bits {
		switch a := b &^ top; {
		case a == 0:
			keys[i] = top
		case a > inf:
			keys[i] = ^K(0)
		default:
			keys[i] = b ^ (K(0) - b>>shift | top)
		}
	}
	radixPairs(keys, idx, tmp, sc, sizeOf[K]())
}

// argSortComplex orders complex numbers by npysort's CLT, stably.
func argSortComplex[C complex64 | complex128](line []C, idx []uint32, _ *sortScratch) {
	for i := range idx {
		idx[i] = uint32(i)
	}
	slices.SortStableFunc(idx, func(a, b uint32) int {
		switch x, y := complex128(line[a]), complex128(line[b]); {
		case complexLess(x, y):
			return -1
		case complexLess(y, x):
			return 1
		}
		return 0
	})
}

// radixPairs sets idx to the order of keys by their low nb bytes, stably
// (an LSD radix sort of the keys carrying their indices), with tmp as the
// keys' other buffer.
func radixPairs[K uint16 | uint32 | uint64](keys []K, idx []uint32, tmp []K, sc *sortScratch, nb int) {
	n := len(keys)
	for i := range idx {
		idx[i] = uint32(i)
	}
	if n < 2 {
		return
	}
	var count [8][256]uint32
	countBytes(keys, nb, &count)
	sc.ix = grow(sc.ix, n)
	src, dst, isrc, idst := keys, tmp[:n], idx, sc.ix
	for b := range nb {
		shift := 8 * b
		c := &count[b]
		if c[byte(uint64(src[0])>>shift)] == uint32(n) {
			continue
		}
		sum := uint32(0)
		for i, k := range c {
			c[i] = sum
			sum += k
		}
		for j, v := range src {
			d := byte(uint64(v) >> shift)
			p := c[d]
			dst[p], idst[p] = v, isrc[j]
			c[d] = p + 1
		}
		src, dst, isrc, idst = dst, src, idst, isrc
	}
	if &isrc[0] != &idx[0] {
		copy(idx, isrc)
	}
}
