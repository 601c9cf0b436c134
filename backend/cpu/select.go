package cpu

// A few places of a sort without sorting: selection.

import (
	"fmt"
	"math"
	"math/bits"
	"slices"
	"unsafe"

	"github.com/tensorsh/tensorsh/backend"
)

// SortedRange gives the places [from, to) along n.Axes[0] of the sort n
// (backend.Selector): each line's keys (Sort's) are partitioned around
// pivots until the places asked for lie in a window of a few keys, which
// is then sorted, as NumPy's np.partition selects (introselect), so a
// median or sort(v)[:10] of 10^6 float32 reads the line a few times
// rather than sorting it. The keys of ±0 and of NaN stand for several
// elements: a place holding one gets the element a stable sort puts
// there, the j-th ±0 (NaN) of the line in input order, so the bits are
// Sort's. Lines shorter than selectMin, ranges of more than a quarter of
// a line, and bools, bytes and complex numbers are left to Sort.
func (r *runner) SortedRange(n *backend.Node, from, to int, shape []int) (*view, bool, error) {
	ax := n.Axes[0]
	m := n.Shape[ax]
	if m < selectMin || 4*(to-from) > m {
		return nil, false, nil
	}
	switch computeOf(n.DType) {
	case ctI16, ctU16, ctI32, ctU32, ctI64, ctU64, ctF32, ctF64:
	default:
		return nil, false, nil // decided before the argument is evaluated, not twice
	}
	a, err := r.eval(n.Args[0])
	if err != nil {
		return nil, true, err
	}
	x, err := r.computeBuf(a)
	if err != nil {
		return nil, true, err
	}
	s := scanShape{m: m, inner: 1, outer: 1}
	for _, d := range n.Shape[:ax] {
		s.outer *= d
	}
	for _, d := range n.Shape[ax+1:] {
		s.inner *= d
	}
	size := s.outer * s.inner * (to - from)
	out, err := r.allocBufFull(computeOf(n.DType), size)
	if err != nil {
		return nil, true, err
	}
	switch x := x.(type) {
	case []int16:
		err = selectLines(r, s, from, to, x, out.([]int16), selectInts[int16, uint16])
	case []uint16:
		err = selectLines(r, s, from, to, x, out.([]uint16), selectInts[uint16, uint16])
	case []int32:
		err = selectLines(r, s, from, to, x, out.([]int32), selectInts[int32, uint32])
	case []uint32:
		err = selectLines(r, s, from, to, x, out.([]uint32), selectInts[uint32, uint32])
	case []int64:
		err = selectLines(r, s, from, to, x, out.([]int64), selectInts[int64, uint64])
	case []uint64:
		err = selectLines(r, s, from, to, x, out.([]uint64), selectInts[uint64, uint64])
	case []float32:
		err = selectLines(r, s, from, to, x, out.([]float32), selectFloats[float32, uint32])
	case []float64:
		err = selectLines(r, s, from, to, x, out.([]float64), selectFloats[float64, uint64])
	default:
		err = fmt.Errorf("cpu: selection in %T", x) // computeOf's types above cannot lead here
	}
	if err != nil {
		return nil, true, err
	}
	v, err := r.finish(out, n.DType, n.DType, shape)
	return v, true, err
}

// selectMin is the shortest line SortedRange selects in.
const selectMin = 64

// selectLines writes to out the places [from, to) of the sort of each
// line of x along the axis s describes, by sel, on the runner's workers.
func selectLines[T any](r *runner, s scanShape, from, to int, x, out []T, sel func(line, dst []T, from, to int, sc *sortScratch)) error {
	k := to - from
	return forLines(r, s, x, sampleMin, func(o, in int, line []T, sc *sortScratch) {
		dst := make([]T, k)
		sel(line, dst, from, to, sc)
		ob := o*k*s.inner + in
		for j, v := range dst {
			out[ob+j*s.inner] = v
		}
	}, nil)
}

// selectInts writes to dst the integers at places [from, to) of line
// sorted, by their keys (sortInts').
func selectInts[T int16 | uint16 | int32 | uint32 | int64 | uint64, K uint16 | uint32 | uint64](line, dst []T, from, to int, sc *sortScratch) {
	var flip K
	if T(0)-1 < 0 { // signed
		flip = K(1) << (8*sizeOf[K]() - 1)
	}
	keys, tmp := scratchKeys[K](sc, len(line))
	for i, v := range line {
		keys[i] = K(v) ^ flip
	}
	got := make([]K, to-from)
	selectKeys(keys, tmp, 0, len(keys), from, to, got, from, 0)
	for i, k := range got {
		dst[i] = T(k ^ flip)
	}
}

// selectFloats writes to dst the floats at places [from, to) of line
// sorted stably, by the keys of sortFloats: a place of the key of ±0 or
// of NaN gets the element of that kind that the stable sort puts there.
// The first or the last place alone is the least or the greatest key, in
// one pass; a long line's keys are made in the pass that keeps those
// between two pivots from a sample (selectKeys), rather than all written
// first.
func selectFloats[F float32 | float64, K uint32 | uint64](line, dst []F, from, to int, sc *sortScratch) {
	in := unsafeBits[F, K](line)
	fk := newFloatKeys[K]()
	n := len(in)
	keys, tmp := scratchKeys[K](sc, n)
	got := make([]K, to-from)
	switch {
	case to-from == 1 && (from == 0 || from == n-1):
		// The least or the greatest key, of each half.
		var ext [2]K
		if !halves(sc.par, n, func(p, lo, hi int) {
			k := fk.key(in[lo])
			if from == 0 {
				for _, b := range in[lo+1 : hi] {
					k = min(k, fk.key(b))
				}
			} else {
				for _, b := range in[lo+1 : hi] {
					k = max(k, fk.key(b))
				}
			}
			ext[p] = k
		}) {
			return // canceled: dst unwritten (the caller returns the cancellation)
		}
		got[0] = ext[0]
		if sc.par != nil {
			got[0] = min(ext[0], ext[1])
			if from != 0 {
				got[0] = max(ext[0], ext[1])
			}
		}
	case n >= sampleMin:
		var sample [sampleSize]K
		for i := range sample {
			sample[i] = fk.key(in[i*n/sampleSize])
		}
		pl, ph := samplePivots(&sample, n, from, to)
		// The keys between the pivots, of each half, at the half's
		// start in keys, and how many below pl; then the second
		// half's after the first's.
		var cs, belows [2]int
		if !halves(sc.par, n, func(p, lo, hi int) {
			mid := keys[lo:hi]
			c, below := 0, 0
			for _, b := range in[lo:hi] {
				k := fk.key(b)
				mid[c] = k
				_, out := bits.Sub64(uint64(ph-pl), uint64(k-pl), 0)
				_, lt := bits.Sub64(uint64(k), uint64(pl), 0)
				c += int(1 - out)
				below += int(lt)
			}
			cs[p], belows[p] = c, below
		}) {
			return
		}
		c, below := cs[0]+cs[1], belows[0]+belows[1]
		if sc.par != nil {
			copy(keys[cs[0]:c], keys[n/2:n/2+cs[1]])
		}
		if from >= below && to <= below+c && 2*c <= n {
			selectKeys(keys[:c], tmp[:c], 0, c, from-below, to-below, got, from-below, 1)
			break
		}
		fallthrough // the sample misled, or the keys repeat
	default:
		for i, b := range in {
			keys[i] = fk.key(b)
		}
		selectKeys(keys, tmp, 0, n, from, to, got, from, 0)
	}
	out := unsafeBits[F, K](dst)
	for i, k := range got {
		p := from + i
		switch k {
		case fk.top: // the j-th ±0 in input order, j its place in their run
			below := 0
			for _, b := range in {
				if fk.key(b) < fk.top {
					below++ // a negative number
				}
			}
			out[i] = nthOf(in, p-below, func(b K) bool { return b&^fk.top == 0 })
		case ^K(0): // the j-th NaN, their run ending the line
			nans := 0
			for _, b := range in {
				if b&^fk.top > fk.inf {
					nans++
				}
			}
			out[i] = nthOf(in, p-(n-nans), func(b K) bool { return b&^fk.top > fk.inf })
		default:
			neg := K(0) - (k>>fk.shift ^ 1)
			out[i] = k ^ (neg | fk.top)
		}
	}
}

// floatKeys makes sortFloats' keys of the bits of floats: a negative
// number's bits inverted, a positive one's with the sign bit set; ±0 the
// key of +0 and every NaN the largest key.
type floatKeys[K uint32 | uint64] struct {
	top, inf K
	shift    int
}

func newFloatKeys[K uint32 | uint64]() floatKeys[K] {
	fk := floatKeys[K]{shift: 8*sizeOf[K]() - 1, inf: K(0x7f800000)}
	fk.top = K(1) << fk.shift
	if sizeOf[K]() == 8 {
		fk.inf = K(math.Float64bits(math.Inf(1)))
	}
	return fk
}

func (fk floatKeys[K]) key(b K) K {
	switch a := b &^ fk.top; {
	case a == 0:
		return fk.top
	case a > fk.inf:
		return ^K(0)
	}
	neg := K(0) - b>>fk.shift
	return b ^ (neg | fk.top)
}

// nthOf returns the j-th element of s (from 0) that is true of.
func nthOf[K uint32 | uint64](s []K, j int, is func(K) bool) K {
	for _, b := range s {
		if is(b) {
			if j == 0 {
				return b
			}
			j--
		}
	}
	panic("cpu: nthOf: too few") // the counts above say there are enough
}

// selectKeys writes to got[p-base] the key at place p of keys sorted, for
// the places p of [from, to) in [lo, hi), where src[lo:hi] holds those
// places' keys in some order and tmp[lo:hi] is scratch: each round moves
// the keys below a pivot (the median of three) before the others, from
// one buffer into the other, and keeps the side that holds the places
// (both, by a call, when they straddle the pivot). A window of at most 32
// keys, or one whose places are all asked for, is sorted; past 64 rounds
// (pivots that split badly, as on crafted input) the window is radix
// sorted, so a line never takes more than a radix sort's time.
func selectKeys[K uint16 | uint32 | uint64](src, tmp []K, lo, hi, from, to int, got []K, base, rounds int) {
	for {
		from, to = max(from, lo), min(to, hi)
		if from >= to {
			return
		}
		if hi-lo <= 32 || from == lo && to == hi || rounds > 64 {
			w := src[lo:hi]
			if hi-lo <= 32 {
				slices.Sort(w)
			} else {
				w = radixSort(w, tmp[lo:hi], nil)
			}
			copy(got[from-base:to-base], w[from-lo:to-lo])
			return
		}
		if hi-lo >= sampleMin {
			// Two pivots from a sample, bracketing the places: one
			// pass keeps the keys between them, a small part of the
			// window (unless the sample misled or the keys repeat).
			var sample [sampleSize]K
			for i := range sample {
				sample[i] = src[lo+i*(hi-lo)/sampleSize]
			}
			pl, ph := samplePivots(&sample, hi-lo, from-lo, to-lo)
			mid, below := tmp[lo:hi], 0
			c := 0
			for _, k := range src[lo:hi] {
				// Without branches, which half the keys would
				// mispredict: a borrow is 1 where k < pl, or where
				// k lies past ph (k - pl wraps below pl).
				mid[c] = k
				_, out := bits.Sub64(uint64(ph-pl), uint64(k-pl), 0)
				_, lt := bits.Sub64(uint64(k), uint64(pl), 0)
				c += int(1 - out)
				below += int(lt)
			}
			if off := lo + below; from >= off && to <= off+c && 2*c <= hi-lo {
				selectKeys(mid[:c], src[lo:lo+c], 0, c, from-off, to-off, got, base-off, rounds+1)
				return
			}
		}
		a, b, c := src[lo], src[lo+(hi-lo)/2], src[hi-1]
		pivot := max(min(a, b), min(max(a, b), c))
		p := lo + partitionKeys(src[lo:hi], tmp[lo:hi], pivot)
		if p == lo {
			// No key below the pivot: it is the least. Those equal to
			// it go first instead; if that is all of them, every key
			// of the window is the pivot.
			if pivot != ^K(0) {
				p = lo + partitionKeys(src[lo:hi], tmp[lo:hi], pivot+1)
			}
			if p == lo || p == hi {
				for i := from; i < to; i++ {
					got[i-base] = pivot
				}
				return
			}
		}
		src, tmp = tmp, src
		rounds++
		if from < p && to > p {
			selectKeys(src, tmp, lo, p, from, p, got, base, rounds)
			from = p
		}
		if to <= p {
			hi = p
		} else {
			lo = p
		}
	}
}

// sampleMin is the least window selectKeys narrows by a sample, and
// sampleSize that sample's size.
const (
	sampleMin  = 1 << 14
	sampleSize = 1024
)

// samplePivots returns two keys between which the keys at places [from,
// to) of n keys sorted lie, most likely, from a sample of them sorted
// here: the keys 64 sample places (four standard deviations of a place's
// rank in the sample) below and above the places' share of the sample
// (Floyd and Rivest, "Algorithm 489: the algorithm SELECT", CACM 18(3),
// 1975); the least and the greatest key past the sample's ends.
func samplePivots[K uint16 | uint32 | uint64](sample *[sampleSize]K, n, from, to int) (K, K) {
	slices.Sort(sample[:])
	const delta = 64
	ia := from*sampleSize/n - delta
	ib := (to*sampleSize+n-1)/n + delta
	pl, ph := K(0), ^K(0)
	if ia >= 0 {
		pl = sample[ia]
	}
	if ib < sampleSize {
		ph = sample[ib]
	}
	return pl, ph
}

// partitionKeys writes the keys of src below pivot to the front of dst
// and the others to its back, and returns how many are below: each key
// is stored at both ends and one end advances, so that the loop has no
// branch to mispredict.
func partitionKeys[K uint16 | uint32 | uint64](src, dst []K, pivot K) int {
	dst = dst[:len(src)]
	l, r := 0, len(src)
	for _, k := range src {
		dst[l] = k
		dst[r-1] = k
		_, b := bits.Sub64(uint64(k), uint64(pivot), 0) // 1 where k < pivot
		l += int(b)
		r -= int(1 - b)
	}
	return l
}

// unsafeBits returns the bits of the floats of s, in place.
func unsafeBits[F float32 | float64, K uint32 | uint64](s []F) []K {
	return unsafe.Slice((*K)(unsafe.Pointer(unsafe.SliceData(s))), len(s))
}
