package cpu

import (
	"fmt"
	"math"
	"slices"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/tensorsh/tensorsh/backend"
	"github.com/tensorsh/tensorsh/dtypes"
)

// Reductions.
//
// The order of operations follows NumPy's reduction loops on a C-contiguous
// array, so that float results match NumPy's bit for bit on typical inputs:
//
//   - The reduced axes are grouped. When the last axis is reduced, each
//     contiguous run along the trailing reduced axes is summed by NumPy's
//     pairwise summation (blocks of 8 accumulators up to 128 elements,
//     halves above), in pieces of backend.SumPiece (8192) elements as
//     NumPy's buffered loops sum it, each added to the running result in
//     turn; runs of the outer reduced axes are visited in memory order.
//     When the last axis is kept, every output element accumulates its
//     inputs one by one in memory order (NumPy's elementwise add of rows).
//   - The running result starts at the operation's identity (0 for sum,
//     as NumPy's +0, 1 for prod) or at the first element (max, min).
//   - Narrow floats (f16, bf16, f8, tf32) are accumulated in float32 within
//     a piece and rounded to their format after each piece, as NumPy's
//     float16 loops do (ml_dtypes' bfloat16 rounds after every element
//     instead).
//   - Products are sequential, never pairwise, as in NumPy.
//   - Integer sums and products wrap.

// computeBuf returns the elements of v, in row-major order, as a compute
// buffer (v's own storage when it is contiguous and needs no conversion).
func (r *runner) computeBuf(v *view) (any, error) {
	n := v.size()
	if identityStorage(v.dtype) && v.contiguous() {
		if v.off == 0 && bufLen(v.data) == n {
			return v.data, nil // no new slice to box
		}
		return sliceBuf(v.data, v.off, v.off+n), nil
	}
	initTables()
	buf, err := r.allocBufFull(computeOf(v.dtype), n)
	if err != nil {
		return nil, err
	}
	if n == 0 {
		return buf, nil
	}
	shape, st := backend.Coalesce(v.shape, [][]int{v.strides})
	s := st[0]
	err = r.parallel(n, grainSize, func(_, lo, hi int) error {
		idx, pos := make([]int, len(shape)), make([]int, 1)
		segments(shape, st, []int{v.off}, idx, pos, lo, hi-lo, func(done int, pos []int, run int) {
			loadSeg(v.dtype, sliceBuf(buf, lo+done, lo+done+run), v.data, pos[0], s[len(s)-1], run)
		})
		return nil
	})
	return buf, err
}

// finish turns a compute buffer of dtype from (values already rounded to
// from) into a tensor of dtype to with the given shape.
func (r *runner) finish(buf any, from, to dtypes.DType, shape []int) (*view, error) {
	n := bufLen(buf)
	if from == to && identityStorage(to) {
		return r.newView(to, buf, shape), nil
	}
	data, err := r.allocFull(to, n)
	if err != nil {
		return nil, err
	}
	var k kfn
	// tmp holds each worker's converted block, chunk elements (at most
	// the result: one of 1000 elements took 32 kB a Run), from the
	// recycler: made with each Run, the 16 kB of mean(h, axis=0) of
	// 100³ float16 landed on a fresh page about once a run.
	var tmp any
	chunk := min(blockSize, n)
	if from != to {
		if k, err = castKernel(from, to); err != nil {
			return nil, err
		}
		if tmp, err = r.allocBufFull(computeOf(to), r.workers()*chunk); err != nil {
			return nil, err
		}
	}
	err = r.parallel(n, grainSize, func(w, lo, hi int) error {
		for off := lo; off < hi; off += blockSize {
			end := min(off+blockSize, hi)
			src := sliceBuf(buf, off, end)
			if k != nil {
				dst := sliceBuf(tmp, w*chunk, w*chunk+end-off)
				if err := k(dst, []any{src}); err != nil {
					return err
				}
				src = dst
			}
			storeSeg(to, data, off, src)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return contigView(to, data, shape), nil
}

// A redPlan describes the walk of a reduction over a contiguous input.
type redPlan struct {
	outShape []int // kept axes (with 1s where keepdims), for the result
	keptSize []int // coalesced kept groups
	keptStr  []int
	offs     []int // chunk start offsets relative to an output's base, in memory order
	chunk    int   // chunk length (contiguous); 1 when the last axis is kept
	inner    int   // when the last axis is kept: its group size (stride 1); else 0
	m, l     int   // outputs, reduced elements per output
}

// newRedPlan returns the walk bp plans, with the chunk offsets listed.
func newRedPlan(bp *backend.ReducePlan) *redPlan {
	p := &redPlan{outShape: bp.OutShape, keptSize: bp.KeptSize, keptStr: bp.KeptStr,
		chunk: bp.Chunk, inner: bp.Inner, m: bp.M, l: bp.L}
	if p.m == 0 || p.l == 0 {
		return p
	}
	p.offs = chunkOffsets(bp.RedSize, bp.RedStr)
	return p
}

// chunkOffsets returns the offsets of the chunks of a walk over the
// reduced groups of sizes size and strides str, in memory order. The
// lists of the last few walks are kept (redOffs) and shared: they are
// never written once made. A statement run again (a loop, :timeit) took
// its list from fresh memory each time: for prod(x, axis=0) of 1000×1000
// float32, 8 kB a run, one page fault a run on the benchmarks' guest, and
// half the page faults of the whole process.
func chunkOffsets(size, str []int) []int {
	n := 1
	for _, s := range size {
		n *= s
	}
	if n == 1 {
		return zeroOffset
	}
	if n > redOffsMax {
		return makeOffsets(size, str, n)
	}
	redOffs.mu.Lock()
	defer redOffs.mu.Unlock()
	for i, e := range redOffs.list {
		if slices.Equal(e.size, size) && slices.Equal(e.str, str) {
			// Most recent first.
			copy(redOffs.list[1:i+1], redOffs.list[:i])
			redOffs.list[0] = e
			return e.offs
		}
	}
	e := redOffsEntry{slices.Clone(size), slices.Clone(str), makeOffsets(size, str, n)}
	if len(redOffs.list) < redOffsKeep {
		redOffs.list = append(redOffs.list, redOffsEntry{})
	}
	copy(redOffs.list[1:], redOffs.list)
	redOffs.list[0] = e
	return e.offs
}

// makeOffsets lists the n chunk offsets of chunkOffsets: the first
// group's index varies slowest, the last group's fastest.
func makeOffsets(size, str []int, n int) []int {
	offs := make([]int, n)
	idx := make([]int, len(size))
	o := 0
	for k := range offs {
		offs[k] = o
		for i := len(size) - 1; i >= 0; i-- {
			idx[i]++
			o += str[i]
			if idx[i] < size[i] {
				break
			}
			o -= idx[i] * str[i]
			idx[i] = 0
		}
	}
	return offs
}

// zeroOffset is the offsets of a walk with one chunk.
var zeroOffset = []int{0}

// redOffs keeps the offset lists of the last redOffsKeep walks, the most
// recent first (8 MB at most); a list of more than redOffsMax offsets is
// made each time.
var redOffs struct {
	mu   sync.Mutex
	list []redOffsEntry
}

type redOffsEntry struct{ size, str, offs []int }

const (
	redOffsKeep = 8
	redOffsMax  = 1 << 17
)

// base returns the input offset of output element o (kept multi-index in
// row-major order).
//
// o is below p.m, the product of keptSize, so the outermost group's index
// is o divided by the inner groups' sizes without a remainder to take: one
// group (the rows of a contiguous input) costs no division, which per
// output was a fifth of any(m3, axis=2) on 10^4 rows of 100 int8.
func (p *redPlan) base(o int) int {
	n := len(p.keptSize)
	if n == 0 {
		return 0
	}
	b := 0
	for i := n - 1; i > 0; i-- {
		b += (o % p.keptSize[i]) * p.keptStr[i]
		o /= p.keptSize[i]
	}
	return b + o*p.keptStr[0]
}

// A source gives the input of a reduction in row-major order: a
// contiguous compute buffer, or a fused elementwise tree evaluated a block
// at a time (so that sum(a*b) makes no full-size temporary).
type source[T number | bool] struct {
	r    *runner
	x    []T   // the materialised input, or nil
	root fnode // else the fused tree
	f    *fusion
	n    int // elements

	mu      sync.Mutex
	err     error
	stop    atomic.Bool // an error was recorded: the rest of the work is moot
	workers []*worker   // the windows' workers (under mu), for done
}

// bytes returns how many bytes taking elems elements of s reads, for the
// choice between one worker and several (redParallel): the materialised
// input's, or the fused tree's leaves' (a constant's none), four times
// over for a tree with a costly operation (see cheapOp). A tree's own
// element size would undercount it: any(x > 1.4, axis=1) of 10^6 float32
// reads 4 MB to make 1 MB of bools, and ran on one worker at 0.22 ms,
// memory-bound, where two take 0.12.
func (s *source[T]) bytes(elems int) int {
	if s.x != nil || s.f == nil {
		return elems * sizeOf[T]()
	}
	per := 0
	for _, l := range s.f.leaves {
		if !l.constant {
			per += backend.ElemSize(l.v.dtype)
		}
	}
	if s.f.costly {
		per *= 4
	}
	return elems * max(per, sizeOf[T]())
}

// splits reports whether a sum of n elements of s is split into its
// pieces over the workers whatever its size (see splitMin): a fused tree
// with a splitOp (a function of libm), two pieces at least. Of 10^5
// float64, mean(tanh(x)) took 152-162 µs on one worker and 138-144 on
// two, sum(exp(x)) 76-79 and 67-74 (the two vCPUs share a core's vector
// units).
func (s *source[T]) splits(n int) bool {
	return s.f != nil && s.f.split && n >= 2*backend.SumPiece && s.r.workers() > 1
}

// A window is one goroutine's view of a fused source: the last block it
// evaluated.
type window[T number | bool] struct {
	w      *worker
	lo, hi int
	buf    []T
	zeros  []T
}

func (s *source[T]) window() *window[T] {
	if s.x != nil {
		return nil
	}
	w := s.f.newWorker()
	s.mu.Lock()
	s.workers = append(s.workers, w)
	s.mu.Unlock()
	return &window[T]{w: w}
}

// done gives the windows' block buffers and workers back for later
// statements (as Elementwise's workers give theirs), once the reduction
// has read its last block: without it std(x) of 1000 float64 allocated
// (and cleared) a 32 kB block for each window in every run, twice the
// time of the rest.
func (s *source[T]) done() {
	for _, w := range s.workers {
		w.done()
	}
	s.workers = nil
}

// reduceSource runs reduce on a new source of x or root and gives its
// windows back.
func reduceSource[T number | bool](r *runner, x any, root fnode, f *fusion, n int, reduce func(*source[T]) (any, error)) (any, error) {
	s := newSource[T](r, x, root, f, n)
	defer s.done()
	return reduce(s)
}

func (s *source[T]) fail(err error) {
	s.mu.Lock()
	if s.err == nil {
		s.err = err
	}
	s.mu.Unlock()
	s.stop.Store(true)
}

func (s *source[T]) failed() error {
	if !s.stop.Load() {
		return nil // no error recorded (fail sets stop after err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
}

// get returns the elements [lo, hi), hi-lo <= blockSize for a fused
// source. After an error (recorded in s) it returns zeros.
func (s *source[T]) get(win *window[T], lo, hi int) []T {
	if s.x != nil {
		return s.x[lo:hi]
	}
	if lo >= win.lo && hi <= win.hi {
		return win.buf[lo-win.lo : hi-win.lo]
	}
	return s.eval(win, lo, min(lo+blockSize, s.n), hi)
}

// getSpan is get for a range that no later get reads again: a fused
// source evaluates [lo, hi) alone.
func (s *source[T]) getSpan(win *window[T], lo, hi int) []T {
	if s.x != nil {
		return s.x[lo:hi]
	}
	return s.eval(win, lo, hi, hi)
}

// eval evaluates the fused source's elements [lo, end) into win and
// returns [lo, hi) of them (hi <= end).
func (s *source[T]) eval(win *window[T], lo, end, hi int) []T {
	err := s.r.ctx.Err()
	var b any
	if err == nil {
		b, err = s.root.eval(win.w, lo, end-lo)
	}
	if err != nil {
		s.fail(err)
		if win.zeros == nil {
			win.zeros = make([]T, blockSize)
		}
		win.lo, win.hi = 0, 0
		return win.zeros[:hi-lo]
	}
	win.buf, win.lo, win.hi = b.([]T), lo, end
	return win.buf[lo-win.lo : hi-win.lo]
}

// redOps are the typed steps of one reduction.
//
// The fold and vec of a reduction are derived from one combine function
// c(acc, x), the step of the reduction: fold is foldWith(acc, x, c), vec
// vecWith(acc, x, c). c must be a named function (not a variable), so
// that the compiler inlines foldWith and then c into the loop.
type redOps[T number | bool] struct {
	first bool             // start from the first element rather than init
	init  T                // the identity
	fold  func(T, []T) T   // fold elements one by one into the accumulator
	vec   func(acc, x []T) // acc[i] = fold(acc[i], x[i])
	// For pairwise sums: the sum of a run, and its splitting rules.
	pairwise func([]T) T
	leafMax  int             // runs of at most leafMax are leaves
	split    func(n int) int // where a longer run splits
	round1   func(T) T       // round an accumulator to the dtype (nil: exact)
	round    func([]T)
	// rows reduces each row of l elements of x to one element of out, as
	// rowsGo does (nil: rowsGo).
	rows func(out, x []T, l int)
	// vecs is vec for each of rows rows of x, stride elements apart (nil:
	// a vec call per row).
	vecs func(acc, x []T, rows, stride int)
	// assoc: folding consecutive ranges of rows apart and then the
	// ranges' results into the first in order (vec) gives the bits of
	// one fold over all the rows (integer sums and products wrap,
	// maxima and minima keep the first extreme and the first NaN; not
	// float sums and products, whose roundings depend on the order).
	assoc bool
}

// rowsGo reduces each row of l elements of x to one element of out as
// runReduce reduces a run: from the identity (or the first element), a
// pairwise sum added to it or a fold, rounded.
func (ops *redOps[T]) rowsGo(out, x []T, l int) {
	for i := range out {
		row := x[i*l : i*l+l]
		acc := ops.init
		if ops.first {
			acc = row[0]
		}
		if ops.pairwise != nil {
			acc = addAny(acc, ops.pairwise(row))
		} else {
			acc = ops.fold(acc, row)
		}
		if ops.round1 != nil {
			acc = ops.round1(acc)
		}
		out[i] = acc
	}
}

// runRows is runReduce along a last axis whose outputs are the
// consecutive rows of l = p.l elements (p.rowMajor): each worker hands a
// range of rows to ops.rows in one call, or for a fused source the rows
// of a block at a time.
func runRows[T number | bool](r *runner, s *source[T], p *redPlan, ops *redOps[T], out []T, wins []*window[T]) error {
	l := p.l
	rows := ops.rows
	if rows == nil {
		rows = ops.rowsGo
	}
	per := max(1, blockSize/l)
	return r.redParallel(s.bytes(p.m*l), p.m, max(1, grainSize/l), func(wi, lo, hi int) error {
		if s.x != nil {
			rows(out[lo:hi], s.x[lo*l:hi*l], l)
			return nil
		}
		win := wins[wi]
		for a := lo; a < hi && !s.stop.Load(); a += per {
			b := min(a+per, hi)
			rows(out[a:b], s.get(win, a*l, b*l), l)
		}
		return s.failed()
	})
}

// rowsApart reports whether p's outputs are rows of p.l contiguous
// elements, equally spaced further apart than that (a strided view's,
// x[:, :500] reduced along its last axis: viewreduce.go).
func (p *redPlan) rowsApart() bool {
	return len(p.offs) == 1 && p.chunk == p.l && len(p.keptSize) == 1 && p.keptStr[0] > p.l
}

// rowsApartMax is the longest row runRowsApart takes: longer rows are
// summed in place by the walk by output as fast or faster (rows of 200
// of a float32 array: 0.19 ms in place, 0.24 gathered), shorter ones lose
// more to its steps (m[:, :, :50] of a 100³ float32 array: 0.47-0.51 ms,
// gathered 0.30; rows of 100: 0.29, gathered 0.20).
const rowsApartMax = 128

// runRowsApart is runRows for rows apart (p.rowsApart): each worker
// gathers the rows of a block into a buffer of its own and hands them to
// ops.rows, the same reduction of each row as runRows gives.
func runRowsApart[T number | bool](r *runner, s *source[T], p *redPlan, ops *redOps[T], out []T) error {
	l, st := p.l, p.keptStr[0]
	rows := ops.rows
	if rows == nil {
		rows = ops.rowsGo
	}
	per := max(1, blockSize/l)
	bufs, bs := workerTemps[T](r, per*l)
	return r.redParallel(p.m*l*sizeOf[T](), p.m, max(1, grainSize/l), func(w, lo, hi int) error {
		buf := bufs[w*bs:][:min(per, hi-lo)*l]
		for a := lo; a < hi; a += per {
			b := min(a+per, hi)
			for o := a; o < b; o++ {
				copy(buf[(o-a)*l:(o-a+1)*l], s.x[o*st:o*st+l])
			}
			rows(out[a:b], buf[:(b-a)*l], l)
		}
		return r.ctx.Err()
	})
}

// sideBySide reports whether the runs of p's outputs lie side by side,
// several a output: the run t of output o+1 starts where that of o ends
// (one group of kept axes, whose stride is the run's length: the middle
// axis of a 3-d input kept, the other two reduced).
func (p *redPlan) sideBySide() bool {
	return len(p.offs) > 1 && p.chunk > 1 && p.chunk <= blockSize && len(p.keptSize) == 1 && p.keptStr[0] == p.chunk
}

// runChunks is runReduce for a fold that may be regrouped (ops.assoc), or
// a pairwise sum, whose outputs' runs lie side by side (p.sideBySide): a
// worker takes a range of outputs, and for each run index t reads their
// runs as one span (a fused source's block holds it whole), reduces each
// run to one value (ops.rows) and folds those into the outputs' values in
// order (ops.vec). That gives the bits of one fold over each output's
// runs in order, and for a sum those of runReduce's walk by output, which
// adds each run's pairwise sum to the output's in order (ops.rows adds it
// to the identity, +0: that turns a -0 into +0, which the walk's sum,
// never -0 itself, adds the same).
// Output by output, each run was read alone, and a fused source evaluated
// a block for each (the int64 sum of a 100×100×100 int32 input over axes
// 0 and 2: 5.2 ms, NumPy 0.46 ms).
func runChunks[T number | bool](r *runner, s *source[T], p *redPlan, ops *redOps[T], out []T, wins []*window[T]) error {
	c := p.chunk
	rows := ops.rows
	if rows == nil {
		rows = ops.rowsGo
	}
	per := max(1, blockSize/c) // outputs a span
	parts, ps := workerTemps[T](r, per)
	return r.redParallel(s.bytes(p.m*p.l), p.m, max(1, grainSize/p.l), func(wi, lo, hi int) error {
		win := wins[wi]
		part := parts[wi*ps:][:min(per, hi-lo)]
		for a := lo; a < hi; a += per {
			b := min(a+per, hi)
			acc, tmp, base := out[a:b], part[:b-a], p.base(a)
			for t, off := range p.offs {
				if t&255 == 255 {
					if err := r.ctx.Err(); err != nil {
						return err
					}
				}
				span := s.getSpan(win, base+off, base+off+(b-a)*c)
				if t == 0 {
					rows(acc, span, c)
					continue
				}
				rows(tmp, span, c)
				ops.vec(acc, tmp)
			}
			if err := s.failed(); err != nil {
				return err
			}
		}
		return nil
	})
}

// rowMajor reports whether the runs of p are the rows of its outputs,
// one contiguous run of l elements each, output o's at o*l.
func (p *redPlan) rowMajor() bool {
	return len(p.offs) == 1 && p.chunk == p.l && len(p.keptSize) == 1 && p.keptStr[0] == p.l
}

// foldWith folds the elements of x into acc one by one with c.
func foldWith[T any](acc T, x []T, c func(acc, x T) T) T {
	for _, v := range x {
		acc = c(acc, v)
	}
	return acc
}

// vecWith combines the elements of x into acc element by element with c:
// acc[i] = c(acc[i], x[i]).
func vecWith[T any](acc, x []T, c func(acc, x T) T) {
	x = x[:len(acc)]
	for i, v := range x {
		acc[i] = c(acc[i], v)
	}
}

// The combine functions of the reductions.

func or(acc, x bool) bool  { return acc || x }
func and(acc, x bool) bool { return acc && x }

func add[T number](acc, x T) T          { return acc + x }
func mul[T integer | float](acc, x T) T { return acc * x }

func maxInt[T integer](acc, x T) T { return max(acc, x) }
func minInt[T integer](acc, x T) T { return min(acc, x) }

// maxFloat and minFloat are NumPy's maximum and minimum folds: a NaN
// accumulator stays, a NaN element replaces the accumulator.
func maxFloat[T float](acc, x T) T {
	if !(acc >= x || acc != acc) {
		return x
	}
	return acc
}

func minFloat[T float](acc, x T) T {
	if !(acc <= x || acc != acc) {
		return x
	}
	return acc
}

// nanMaxFloat and nanMinFloat are the folds of a max and min that skip
// NaNs (Node.SkipNaN): a NaN element leaves the accumulator, a NaN
// accumulator (the line's NaNs so far) takes the element, and otherwise
// they are maxFloat and minFloat (ties keep the accumulator). A line
// holding a number gives the extreme of its numbers, the first of equal
// ones, as the plain fold of the line with its NaNs replaced by -inf
// (+inf) does; a line of NaNs alone gives a NaN.
func nanMaxFloat[T float](acc, x T) T {
	if acc >= x || x != x {
		return acc
	}
	return x
}

func nanMinFloat[T float](acc, x T) T {
	if acc <= x || x != x {
		return acc
	}
	return x
}

// maxComplex and minComplex are NumPy's complex maximum and minimum folds
// (cKeep): lexicographic order, the first NaN wins.
func maxComplex[T complex64 | complex128](acc, x T) T {
	a, b := complex128(acc), complex128(x)
	if cKeep(real(a), imag(a), real(b), imag(b), true, false) {
		return acc
	}
	return x
}

func minComplex[T complex64 | complex128](acc, x T) T {
	a, b := complex128(acc), complex128(x)
	if cKeep(real(a), imag(a), real(b), imag(b), false, false) {
		return acc
	}
	return x
}

// pairwiseGet is ops.pairwise over [lo, lo+n) of a source.
// Once stop reports true (a cancelled or failed evaluation), it returns
// at once: the result is discarded.
func (ops *redOps[T]) pairwiseGet(get func(lo, hi int) []T, stop *atomic.Bool, lo, n int) T {
	if n <= blockSize {
		// One block: ops.pairwise splits it the same way.
		return ops.pairwise(get(lo, lo+n))
	}
	if stop.Load() {
		return ops.init
	}
	n2 := ops.split(n)
	return addAny(ops.pairwiseGet(get, stop, lo, n2), ops.pairwiseGet(get, stop, lo+n2, n-n2))
}

// run returns fold(acc, run [lo, lo+n)) for a chunk of the reduction:
// the pairwise sums of its pieces of backend.SumPiece elements added to
// acc in order (NumPy's buffered inner loops), rounded after each, or a
// sequential fold.
func (s *source[T]) run(ops *redOps[T], win *window[T], acc T, lo, n int, add func(T, T) T) T {
	if ops.pairwise != nil {
		if n > 1<<16 && s.r.workers() > 1 && s.r.reduceParallel(s.bytes(n)) || s.splits(n) {
			return s.parallelPieces(ops, acc, lo, n, add)
		}
		for q := lo; q < lo+n && !s.stop.Load(); q += backend.SumPiece {
			e := min(q+backend.SumPiece, lo+n)
			if s.x != nil {
				acc = add(acc, ops.pairwise(s.x[q:e]))
			} else {
				acc = add(acc, ops.pairwiseGet(func(a, b int) []T { return s.get(win, a, b) }, &s.stop, q, e-q))
			}
			if ops.round1 != nil {
				acc = ops.round1(acc)
			}
		}
		return acc
	}
	if s.x != nil {
		return ops.fold(acc, s.x[lo:lo+n])
	}
	for a := lo; a < lo+n && !s.stop.Load(); a += blockSize {
		acc = ops.fold(acc, s.get(win, a, min(a+blockSize, lo+n)))
	}
	return acc
}

// parallelPieces is run's pairwise sum of [lo, lo+n) with the pieces'
// sums computed by the workers, four pieces a task and a window each, and
// then added to acc in order (the same additions in the same order, so
// the same result).
func (s *source[T]) parallelPieces(ops *redOps[T], acc T, lo, n int, add func(T, T) T) T {
	sums := make([]T, (n+backend.SumPiece-1)/backend.SumPiece)
	nw := s.r.workersFor(len(sums), 1)
	wins := make([]*window[T], nw)
	run := s.r.redParallel
	grain := 4
	if s.splits(n) {
		// A piece a task, on every worker (see splitMin).
		run = func(_, n, grain int, body func(w, lo, hi int) error) error { return s.r.parallel(n, grain, body) }
		grain = 1
	}
	err := run(s.bytes(n), len(sums), grain, func(wi, a, b int) error {
		if s.x == nil && wins[wi] == nil {
			wins[wi] = s.window()
		}
		win := wins[wi]
		for i := a; i < b && !s.stop.Load(); i++ {
			lo := lo + i*backend.SumPiece
			n := min(backend.SumPiece, n-i*backend.SumPiece)
			if s.x != nil {
				sums[i] = ops.pairwise(s.x[lo : lo+n])
			} else {
				sums[i] = ops.pairwiseGet(func(a, b int) []T { return s.get(win, a, b) }, &s.stop, lo, n)
			}
		}
		return nil
	})
	if err != nil {
		s.fail(err)
		return ops.init
	}
	for _, v := range sums {
		acc = add(acc, v)
		if ops.round1 != nil {
			acc = ops.round1(acc)
		}
	}
	return acc
}

// reduceSerialMax is the size of the largest reduction input read by one
// worker. On the project's machine (two vCPUs) a second worker adds little
// memory bandwidth for inputs in the cache, only the cost of starting and
// waking it (the best of 400 sums of a float64 array on one goroutine and
// split over two, on a busy machine: 1 MB 18 and 19 µs, 8 MB 148 and 150
// µs, 32 MB 943 and 782 µs; with the other vCPU free, 8 MB took 147 and 99
// µs). Compute-bound folds (argmax of bool along axis 0: 0.44 ms on two
// workers, 0.67 ms on one) gain from two workers at any size, so the
// limit is 4 MB, not the tens of megabytes where memory-bound sums start
// to gain.
var reduceSerialMax = 4 << 20

// redParallel is r.parallel for a reduction reading bytes of input: on
// one worker (the ranges in order, checking the context between them)
// unless r.reduceParallel(bytes).
func (r *runner) redParallel(bytes, n, grain int, body func(w, lo, hi int) error) error {
	if r.reduceParallel(bytes) {
		return r.parallel(n, grain, body)
	}
	return r.serial(n, grain, body)
}

// sizeOf is the size of a T.
func sizeOf[T any]() int { return int(unsafe.Sizeof(*new(T))) }

// runReduce computes the reduction for every output element.
func runReduce[T number | bool](r *runner, s *source[T], p *redPlan, ops redOps[T]) ([]T, error) {
	out := tempOf[T](r, p.m) // every path writes every element
	if p.m == 0 {
		return out, nil
	}
	if p.l == 0 {
		for i := range out {
			out[i] = ops.init
		}
		return out, nil
	}
	add := func(a, b T) T { return addAny(a, b) }
	nw := r.workersFor(p.m, 1)
	wins := make([]*window[T], nw)
	for i := range wins {
		wins[i] = s.window()
	}
	if p.inner > 0 {
		// The last axis is kept: accumulate rows, a stripe of the inner
		// axis at a time.
		k := p.inner
		sw := blockSize // stripe width
		stripes := (k + sw - 1) / sw
		// Few units for the workers, read in place: a fold that may
		// be regrouped (ops.assoc) splits each unit's rows among them
		// (runRowParts, every worker reading whole rows in order);
		// others are cut into narrower stripes (stripeWidth). A fused
		// source's blocks must hold whole rows for ops.vecs.
		parallel := r.reduceParallel(s.bytes(p.m * p.l))
		rowParts := ops.assoc && ops.vecs != nil && ops.round == nil && fastReduce && parallel
		parts, partStride := 1, 0
		if rowParts {
			parts, partStride = rowPartsOf(p.m/k*stripes, len(p.offs), nw), equalStride(p.offs)
			// A fused source's rows are read from its blocks, each
			// holding whole rows: contiguous ones, one stripe wide.
			rowParts = parts > 1 && partStride > 0 &&
				(s.x != nil || stripes == 1 && partStride == k && k <= blockSize)
		}
		if w := stripeWidth[T](k, p.m/k, nw, parallel); w > 0 && s.x != nil && !rowParts {
			sw, stripes = w, (k+w-1)/w
		}
		units := p.m / k * stripes
		// stride > 0: the rows are equally spaced, stride elements apart
		// (one reduced axis group), and ops.vecs takes many a call; from
		// a fused source only when they are contiguous (a block holds
		// whole rows).
		stride := 0
		if ops.vecs != nil && ops.round == nil && len(p.offs) > 1 && fastReduce {
			stride = p.offs[1]
			for j, off := range p.offs {
				if off != j*stride {
					stride = 0
					break
				}
			}
			if s.x == nil && (stripes > 1 || stride != k || k > blockSize) {
				stride = 0
			}
		}
		if rowParts {
			return out, runRowParts(r, s, p, &ops, out, k, sw, stripes, partStride, parts)
		}
		// With several workers each folds into an accumulator of its
		// own and copies it out when its unit is done: units are
		// adjacent in out, and rows of a few hundred bytes (sum along
		// axis 1 of a 100×100×100 input) would share cache lines
		// between workers that store to them on every row (0.58 ms with
		// out as the accumulator, against 0.2 ms on one worker alone).
		// Units of more than 4 KB share a line only at their ends.
		// They come from the recycler (workerTemps): made each time, they
		// landed on fresh pages, a page fault a run on the benchmarks'
		// guest (prod(x, axis=0) of 1000×1000 float32).
		var priv []T
		ps := 0
		if nw > 1 && min(k, 2*sw)*sizeOf[T]() <= 4<<10 {
			priv, ps = workerTemps[T](r, min(k, 2*sw))
		}
		err := r.redParallel(s.bytes(p.m*p.l), units, 1, func(wi, lo, hi int) error {
			win := wins[wi]
			for u := lo; u < hi; u++ {
				oo, st := u/stripes, u%stripes
				k0, k1 := st*sw, min(st*sw+sw, k)
				if st == stripes-1 {
					k1 = k // the last stripe takes the rest
				}
				dst := out[oo*k+k0 : oo*k+k1]
				acc := dst
				if priv != nil {
					acc = priv[wi*ps:][:len(dst)]
				}
				b := p.base(oo*k) + k0
				if ops.first {
					copy(acc, s.get(win, b+p.offs[0], b+p.offs[0]+len(acc)))
				} else {
					for i := range acc {
						acc[i] = ops.init
					}
				}
				if stride > 0 {
					// Many rows a call: all of them, or those of a block.
					if s.x != nil {
						ops.vecs(acc, s.x[b:], len(p.offs), stride)
					} else {
						per := max(1, blockSize/stride)
						for j := 0; j < len(p.offs) && !s.stop.Load(); j += per {
							n := min(per, len(p.offs)-j)
							ops.vecs(acc, s.get(win, b+j*stride, b+(j+n)*stride), n, stride)
						}
					}
					if err := s.failed(); err != nil {
						return err
					}
					if priv != nil {
						copy(dst, acc)
					}
					continue
				}
				for j, off := range p.offs {
					if j&255 == 255 {
						if err := r.ctx.Err(); err != nil {
							return err
						}
					}
					ops.vec(acc, s.get(win, b+off, b+off+len(acc)))
					if ops.round != nil {
						ops.round(acc)
					}
				}
				if err := s.failed(); err != nil {
					return err
				}
				if priv != nil {
					copy(dst, acc)
				}
			}
			return nil
		})
		return out, err
	}
	if fastReduce && p.m > 1 && p.rowMajor() && (s.x != nil || p.l <= blockSize) &&
		(ops.pairwise == nil || p.l <= backend.SumPiece) {
		return out, runRows(r, s, p, &ops, out, wins)
	}
	if fastReduce && p.m > 1 && p.rowsApart() && s.x != nil && p.l <= rowsApartMax &&
		(ops.pairwise == nil || p.l <= backend.SumPiece) {
		return out, runRowsApart(r, s, p, &ops, out)
	}
	if fastReduce && (ops.assoc || ops.pairwise != nil && !ops.first) && ops.round1 == nil && ops.round == nil &&
		p.m > 1 && p.sideBySide() {
		return out, runChunks(r, s, p, &ops, out, wins)
	}
	if n := p.chunk; p.m == 1 && len(p.offs) == 1 && ops.assoc && ops.pairwise == nil && ops.round1 == nil &&
		fastReduce && r.workers() > 1 && n >= 64*r.workers() && r.reduceParallel(s.bytes(n)) {
		return out, runFoldParts(r, s, p, &ops, out)
	}
	grain := max(1, grainSize/p.l)
	err := r.redParallel(s.bytes(p.m*p.l), p.m, grain, func(wi, lo, hi int) error {
		win := wins[wi]
		for o := lo; o < hi; o++ {
			b := p.base(o)
			acc := ops.init
			if ops.first {
				acc = s.get(win, b+p.offs[0], b+p.offs[0]+1)[0]
			}
			done := 0
			for _, off := range p.offs {
				acc = s.run(&ops, win, acc, b+off, p.chunk, add)
				if ops.round1 != nil {
					acc = ops.round1(acc)
				}
				if done += p.chunk; done >= grainSize {
					done = 0
					if err := r.ctx.Err(); err != nil {
						return err
					}
				}
			}
			if err := s.failed(); err != nil {
				return err
			}
			out[o] = acc
		}
		return nil
	})
	return out, err
}

// runFoldParts is runReduce for one output folded from one run by a fold
// that may be regrouped (ops.assoc: the maximum of a whole matrix, the
// int64 sum of int32 elements): the run is cut into two parts a worker,
// folded apart (a fused source's blocks evaluated by each worker in a
// window of its own), and the parts' results folded in order into the
// first. The one fold of the whole run on one worker left the other idle.
func runFoldParts[T number | bool](r *runner, s *source[T], p *redPlan, ops *redOps[T], out []T) error {
	n, b := p.chunk, p.base(0)+p.offs[0]
	parts := 2 * r.workers()
	accs := make([]T, parts)
	wins := make([]*window[T], r.workers())
	err := r.parallel(parts, 1, func(wi, lo, hi int) error {
		for j := lo; j < hi; j++ {
			a, e := b+j*n/parts, b+(j+1)*n/parts
			if s.x != nil {
				x := s.x[a:e]
				acc := ops.init
				if ops.first {
					acc = x[0]
				}
				accs[j] = ops.fold(acc, x)
				continue
			}
			if wins[wi] == nil {
				wins[wi] = s.window()
			}
			acc := ops.init
			if ops.first {
				acc = s.get(wins[wi], a, a+1)[0]
			}
			accs[j] = s.run(ops, wins[wi], acc, a, e-a, nil)
			if err := s.failed(); err != nil {
				return err
			}
		}
		return r.ctx.Err()
	})
	if err != nil {
		return err
	}
	acc := accs[0]
	for _, v := range accs[1:] {
		acc = ops.fold(acc, []T{v})
	}
	out[0] = acc
	return nil
}

// rowPartsOf returns into how many ranges of rows runRowParts cuts each
// of units units of rows rows for nw workers: enough for two tasks a
// worker, each of 8 rows at least; 1 when the units are enough.
func rowPartsOf(units, rows, nw int) int {
	if nw <= 1 || units >= 2*nw {
		return 1
	}
	return max(1, min((2*nw+units-1)/units, rows/8))
}

// equalStride returns the step between equally spaced row offsets (at
// least two), or 0.
func equalStride(offs []int) int {
	if len(offs) < 2 || offs[1] <= 0 {
		return 0
	}
	st := offs[1]
	for j, off := range offs {
		if off != j*st {
			return 0
		}
	}
	return st
}

// runRowParts is runReduce's fold along kept axes for a fold that may be
// regrouped (ops.assoc) with few units: each unit's rows (stride elements
// apart in s.x, or contiguous rows of a fused source's blocks) are cut
// into parts consecutive ranges, folded on the workers (the first range
// into the unit's output, the others into rows of their own), and the
// other ranges' results are then folded into the output in order by
// ops.vec. A 1000×1000
// maximum along axis 0 is one unit; its two workers each read half the
// rows whole, in order, where column stripes had each read half of every
// row.
func runRowParts[T number | bool](r *runner, s *source[T], p *redPlan, ops *redOps[T], out []T, k, sw, stripes, stride, parts int) error {
	units := p.m / k * stripes
	rows := len(p.offs)
	// The first part of each unit folds into its output, the others into
	// rows of their own, the units' spans of more, a p.m at a time.
	more := tempOf[T](r, (parts-1)*p.m)
	span := func(u int) (oo, k0, k1 int) {
		oo, st := u/stripes, u%stripes
		k0, k1 = st*sw, min(st*sw+sw, k)
		if st == stripes-1 {
			k1 = k
		}
		return oo, k0, k1
	}
	var wins []*window[T]
	if s.x == nil {
		wins = make([]*window[T], r.workers())
	}
	err := r.parallel(units*parts, 1, func(wi, lo, hi int) error {
		for t := lo; t < hi; t++ {
			u, part := t/parts, t%parts
			oo, k0, k1 := span(u)
			j0, j1 := part*rows/parts, (part+1)*rows/parts
			acc := out[oo*k+k0 : oo*k+k1]
			if part > 0 {
				acc = more[(part-1)*p.m+oo*k+k0 : (part-1)*p.m+oo*k+k1]
			}
			b := p.base(oo*k) + k0
			if s.x == nil {
				// Whole contiguous rows (stride == k), a block's worth
				// a call.
				if wins[wi] == nil {
					wins[wi] = s.window()
				}
				win := wins[wi]
				if ops.first {
					copy(acc, s.get(win, b+j0*stride, b+j0*stride+len(acc)))
					j0++
				} else {
					for i := range acc {
						acc[i] = ops.init
					}
				}
				per := max(1, blockSize/stride)
				for j := j0; j < j1 && !s.stop.Load(); j += per {
					n := min(per, j1-j)
					ops.vecs(acc, s.get(win, b+j*stride, b+(j+n)*stride), n, stride)
				}
				if err := s.failed(); err != nil {
					return err
				}
				continue
			}
			if ops.first {
				copy(acc, s.x[b+j0*stride:])
				j0++
			} else {
				for i := range acc {
					acc[i] = ops.init
				}
			}
			if j1 > j0 {
				ops.vecs(acc, s.x[b+j0*stride:], j1-j0, stride)
			}
			if err := r.ctx.Err(); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	for u := range units {
		oo, k0, k1 := span(u)
		dst := out[oo*k+k0 : oo*k+k1]
		for part := 1; part < parts; part++ {
			ops.vec(dst, more[(part-1)*p.m+oo*k+k0:(part-1)*p.m+oo*k+k1])
		}
	}
	return nil
}

// stripeWidth returns the width of the stripes of the kept last axis (k
// elements, in outer groups) that a reduction along other axes (read by
// several workers: parallel) hands to its nw workers when fewer than two
// stripes a worker would leave one idle (a float sum along axis 0 of a
// 1000×1000 matrix is one stripe of 4096): a multiple of a cache line,
// at most half a block, ⌈k/w⌉ stripes (the last is shorter), about as
// many a worker: 1000 float32 columns make stripes of 256, 256, 256 and
// 232 (where k/w stripes, the last taking the rest, gave one worker 744
// of 1000 columns: 0.19-0.25 ms against 0.17 for NumPy on one core).
// Each column is still folded row after row, so the results keep their
// bits.
// It returns 0 to keep stripes of blockSize.
func stripeWidth[T any](k, outer, nw int, parallel bool) int {
	if nw <= 1 || !parallel || outer*((k+blockSize-1)/blockSize) >= 2*nw {
		return 0
	}
	line := max(1, 64/sizeOf[T]())
	want := (2*nw + outer - 1) / outer // stripes per group
	w := (k/want + line - 1) / line * line
	if w < line || w > blockSize/2 || k/w < 2 {
		return 0
	}
	return w
}

// addAny adds numbers (or ors bools) of any element type.
func addAny[T number | bool](a, b T) T {
	switch x := any(a).(type) {
	case bool:
		return any(x || any(b).(bool)).(T)
	case int8:
		return any(x + any(b).(int8)).(T)
	case int16:
		return any(x + any(b).(int16)).(T)
	case int32:
		return any(x + any(b).(int32)).(T)
	case int64:
		return any(x + any(b).(int64)).(T)
	case uint8:
		return any(x + any(b).(uint8)).(T)
	case uint16:
		return any(x + any(b).(uint16)).(T)
	case uint32:
		return any(x + any(b).(uint32)).(T)
	case uint64:
		return any(x + any(b).(uint64)).(T)
	case float32:
		return any(x + any(b).(float32)).(T)
	case float64:
		return any(x + any(b).(float64)).(T)
	case complex64:
		return any(x + any(b).(complex64)).(T)
	default:
		return any(any(a).(complex128) + any(b).(complex128)).(T)
	}
}

// Reduce evaluates sum, prod, mean, max, min, argmax, argmin, any, all
// of argNode (see backend.Exec).
func (r *runner) Reduce(n, argNode *backend.Node, bp *backend.ReducePlan, size int) (*view, error) {
	at := argNode.DType
	argSize := bp.M * bp.L
	p := newRedPlan(bp)
	isArg := n.Op == backend.OpArgMax || n.Op == backend.OpArgMin
	err := r.reserve(p.m, 16)
	if err != nil {
		return nil, err
	}
	if (n.Op == backend.OpAny || n.Op == backend.OpAll) && fastReduce && argSize > 0 &&
		argNode.Op == backend.OpCast && at == dtypes.Bool && argNode.Args[0].Op == backend.OpInput {
		// any(x) and all(x) of numbers: x != 0 tested in place.
		res, ok, err := r.nonzeroReduce(argNode.Args[0], p, n.Op == backend.OpAny)
		if err != nil {
			return nil, err
		}
		if ok {
			return r.finish(res, dtypes.Bool, n.DType, n.Shape)
		}
	}
	if n.Op == backend.OpSum && p.m == 1 && argSize > 0 && argNode.Op == backend.OpCast &&
		argNode.Args[0].Op == backend.OpInput && argNode.Args[0].DType == dtypes.Bool {
		// The count of a bool array (sum(b), count_nonzero(b)) as
		// an integer: its bytes are 0 and 1, eight a word.
		if res, ok := countTrue(argNode.Args[0].Tensor, at); ok {
			return r.finish(res, at, n.DType, n.Shape)
		}
	}
	if n.Op == backend.OpProd && argNode.Op == backend.OpCast && argNode.Args[0].DType == dtypes.Bool && fastReduce {
		// The product of bools (cast to a number) is 1 where all are
		// true, else 0, exactly, and 1 over no elements: all(b) cast.
		// prod(b, axis=0) of 1000×1000 bools took 0.62 ms as products
		// of int64, all(b, axis=0) takes 0.04.
		all := &backend.Node{Op: backend.OpAll, DType: dtypes.Bool, Shape: n.Shape,
			Args: argNode.Args[:1], Axes: n.Axes, KeepDims: n.KeepDims}
		v, err := r.Reduce(all, argNode.Args[0], bp, size)
		if err != nil {
			return nil, err
		}
		return r.finish(v.data.([]bool)[v.off:v.off+size], dtypes.Bool, n.DType, n.Shape)
	}
	if n.Op == backend.OpMean && p.m == 1 && argSize > 0 && argNode.Op == backend.OpCast && fastReduce &&
		argNode.Args[0].DType == dtypes.Bool && (at == dtypes.F64 || at == dtypes.F32 && argSize <= 1<<24) &&
		(argNode.Args[0].Op == backend.OpInput || r.x.Fusible(argNode.Args[0], argNode.Args[0])) {
		// The mean of bools (mean(x > 1)): their sum of ones and zeros
		// is exact in float64 (and in float32 up to 2^24 elements), in
		// any order, so the count divided by the size gives its bits.
		var c uint64
		if b := argNode.Args[0]; b.Op == backend.OpInput {
			res, ok := countTrue(b.Tensor, dtypes.U64)
			if !ok {
				return nil, fmt.Errorf("cpu: internal error: bool input %T", b.Tensor.Data)
			}
			c = res.([]uint64)[0]
		} else if c, err = r.countFused(b, argSize); err != nil {
			return nil, err
		}
		if at == dtypes.F32 {
			return r.finish([]float32{float32(c) / float32(argSize)}, at, n.DType, n.Shape)
		}
		return r.finish([]float64{float64(c) / float64(argSize)}, at, n.DType, n.Shape)
	}
	if (n.Op == backend.OpAny || n.Op == backend.OpAll) && p.m == 1 && argSize > 0 && fastReduce &&
		at == dtypes.Bool && argNode.Op != backend.OpInput && r.x.Fusible(argNode, argNode) {
		// any(x > t), all(x > t): whether the count of the fused
		// comparison is above 0, or all of it. Every block is computed,
		// as NumPy computes the whole comparison first (and warns of
		// what any of it meets).
		c, err := r.countFused(argNode, argSize)
		if err != nil {
			return nil, err
		}
		v := c > 0
		if n.Op == backend.OpAll {
			v = c == uint64(argSize)
		}
		return r.finish([]bool{v}, dtypes.Bool, n.DType, n.Shape)
	}
	if n.Op == backend.OpSum && p.m == 1 && argSize > 0 && argNode.Op == backend.OpCast && fastReduce &&
		argNode.Args[0].DType == dtypes.Bool && argNode.Args[0].Op != backend.OpInput && countType(at) &&
		r.x.Fusible(argNode.Args[0], argNode.Args[0]) {
		// A count of a fused comparison (sum(x > y)): the bools of each
		// block counted as bytes, never converted to the sum's dtype.
		c, err := r.countFused(argNode.Args[0], argSize)
		if err != nil {
			return nil, err
		}
		res, _ := countResult(c, at)
		return r.finish(res, at, n.DType, n.Shape)
	}
	if (n.Op == backend.OpSum || n.Op == backend.OpMean) && p.m > 1 && p.rowMajor() && p.l >= countRowsMin &&
		fastReduce && argNode.Op == backend.OpCast && argNode.Args[0].DType == dtypes.Bool &&
		argNode.Args[0].Op != backend.OpInput && r.x.Fusible(argNode.Args[0], argNode.Args[0]) {
		// Counts of a fused comparison along the last axis (sum(x > t,
		// axis=1), mean(x > t, axis=-1)): the bools of each row counted
		// as bytes, as the whole count is.
		if _, ok := rowCountResult(nil, p.l, at, n.Op == backend.OpMean); ok {
			c, err := r.countRowsFused(argNode.Args[0], p.m, p.l)
			if err != nil {
				return nil, err
			}
			res, _ := rowCountResult(c, p.l, at, n.Op == backend.OpMean)
			return r.finish(res, at, n.DType, n.Shape)
		}
	}
	if (n.Op == backend.OpSum || n.Op == backend.OpMean) && fastReduce && argSize > 0 &&
		argNode.Op == backend.OpCast && argNode.Args[0].Op == backend.OpInput {
		// Sums and means of bools, bytes and 32-bit integers: integer
		// sums of the elements in place (intsum.go).
		res, ok, err := r.intReduce(argNode.Args[0], p, at, n.Op == backend.OpMean)
		if err != nil {
			return nil, err
		}
		if ok {
			return r.finish(res, at, n.DType, n.Shape)
		}
	}
	// The input: a fused elementwise tree read a block at a time, or a
	// materialised buffer.
	var (
		x    any
		root fnode
		f    *fusion
	)
	if !isArg && r.x.Fusible(argNode, argNode) && argSize > 0 {
		if f, root, err = r.fuse(argNode, argSize); err != nil {
			return nil, err
		}
	} else if !isArg && fastReduce && argSize > 0 && argNode.Op == backend.OpInput && !identityStorage(at) {
		// An input stored apart from its compute type (float16 as
		// float32): read a block at a time through a fused leaf rather
		// than converted whole into a fresh buffer. (The conversion
		// tables, as r.fuse and computeBuf make sure.)
		initTables()
		f = &fusion{r: r, root: argNode, shape: argNode.Shape, size: argSize}
		if root, err = f.leafOf(argNode); err != nil {
			return nil, err
		}
		f.coalesce()
	} else {
		a, err := r.eval(argNode)
		if err != nil {
			return nil, err
		}
		if a.dtype != at {
			return nil, fmt.Errorf("cpu: internal error: reduction input is %v, want %v", a.dtype, at)
		}
		if !isArg && fastReduce && !a.contiguous() {
			// A strided view walked in place (viewreduce.go).
			if q, span, ok := viewPlan(a, bp, n.Axes); ok {
				p, x = q, sliceBuf(a.data, a.off, a.off+span)
			}
		}
		if x == nil {
			if x, err = r.computeBuf(a); err != nil {
				return nil, err
			}
		}
	}
	var res any
	resDT := at
	if isArg {
		res, err = argReduce(r, x, p, n.Op == backend.OpArgMax)
		resDT = dtypes.I64
	} else {
		res, err = reduceAny(r, x, root, f, argSize, p, n, at)
	}
	if err != nil {
		return nil, err
	}
	return r.finish(res, resDT, n.DType, n.Shape)
}

// SkipsNaN reports that Reduce computes every float max and min that
// skips NaNs (backend.NaNSkipper).
func (r *runner) SkipsNaN(*backend.Node) bool { return true }

// newSource returns the source of a reduction over x (a compute buffer) or
// the fused tree root.
func newSource[T number | bool](r *runner, x any, root fnode, f *fusion, n int) *source[T] {
	s := &source[T]{r: r, root: root, f: f, n: n}
	if root == nil {
		s.x = x.([]T)
	}
	return s
}

// reduceAny dispatches a value reduction on the compute type of dt.
func reduceAny(r *runner, x any, root fnode, f *fusion, n int, p *redPlan, rn *backend.Node, dt dtypes.DType) (any, error) {
	o := rn.Op
	switch computeOf(dt) {
	case ctBool:
		return reduceSource(r, x, root, f, n, func(s *source[bool]) (any, error) { return reduceBool(r, s, p, o) })
	case ctI8:
		return reduceSource(r, x, root, f, n, func(s *source[int8]) (any, error) { return reduceInt(r, s, p, o) })
	case ctI16:
		return reduceSource(r, x, root, f, n, func(s *source[int16]) (any, error) { return reduceInt(r, s, p, o) })
	case ctI32:
		return reduceSource(r, x, root, f, n, func(s *source[int32]) (any, error) { return reduceInt(r, s, p, o) })
	case ctI64:
		return reduceSource(r, x, root, f, n, func(s *source[int64]) (any, error) { return reduceInt(r, s, p, o) })
	case ctU8:
		return reduceSource(r, x, root, f, n, func(s *source[uint8]) (any, error) { return reduceInt(r, s, p, o) })
	case ctU16:
		return reduceSource(r, x, root, f, n, func(s *source[uint16]) (any, error) { return reduceInt(r, s, p, o) })
	case ctU32:
		return reduceSource(r, x, root, f, n, func(s *source[uint32]) (any, error) { return reduceInt(r, s, p, o) })
	case ctU64:
		return reduceSource(r, x, root, f, n, func(s *source[uint64]) (any, error) { return reduceInt(r, s, p, o) })
	case ctF32:
		return reduceSource(r, x, root, f, n, func(s *source[float32]) (any, error) { return reduceFloat(r, s, p, o, rn.SkipNaN, dt) })
	case ctF64:
		return reduceSource(r, x, root, f, n, func(s *source[float64]) (any, error) { return reduceFloat(r, s, p, o, rn.SkipNaN, dt) })
	case ctC64:
		return reduceSource(r, x, root, f, n, func(s *source[complex64]) (any, error) { return reduceComplex(r, s, p, o) })
	default:
		return reduceSource(r, x, root, f, n, func(s *source[complex128]) (any, error) { return reduceComplex(r, s, p, o) })
	}
}

func reduceBool(r *runner, s *source[bool], p *redPlan, o backend.Op) (any, error) {
	var ops redOps[bool]
	switch o {
	case backend.OpAny, backend.OpReduceMax, backend.OpSum:
		ops = redOps[bool]{init: false, assoc: true,
			fold: func(acc bool, x []bool) bool { return foldWith(acc, x, or) },
			vec:  func(acc, x []bool) { vecWith(acc, x, or) }}
	case backend.OpAll, backend.OpReduceMin, backend.OpProd:
		ops = redOps[bool]{init: true, assoc: true,
			fold: func(acc bool, x []bool) bool { return foldWith(acc, x, and) },
			vec:  func(acc, x []bool) { vecWith(acc, x, and) }}
	default:
		return nil, fmt.Errorf("cpu: %v of bool is not supported", o)
	}
	if fastReduce {
		k, fold := kOr, foldOr
		if ops.init {
			k, fold = kAnd, foldAnd
		}
		ops.fold = fold
		if vec := vecKernel(k, ops.vec); vec != nil {
			ops.vec = vec
		}
		ops.rows = intRowsKernel(k, ops.rowsGo)
		ops.vecs = vecsKernel(k, ops.vec)
	}
	return runReduce(r, s, p, ops)
}

func reduceInt[T integer](r *runner, s *source[T], p *redPlan, o backend.Op) (any, error) {
	ops, err := memoOps(o, dtypes.Invalid, newIntOps[T])
	if err != nil {
		return nil, err
	}
	res, err := runReduce(r, s, p, ops)
	if err != nil || o != backend.OpMean {
		return res, err
	}
	for i := range res {
		if p.l == 0 {
			res[i] = 0
		} else {
			res[i] /= T(p.l)
		}
	}
	return res, nil
}

// newIntOps builds the steps of the integer reduction o of T.
func newIntOps[T integer](o backend.Op, _ dtypes.DType) (redOps[T], error) {
	var ops redOps[T]
	switch o {
	case backend.OpSum, backend.OpMean:
		ops = redOps[T]{init: 0, assoc: true,
			fold: func(acc T, x []T) T { return foldWith(acc, x, add[T]) },
			vec:  func(acc, x []T) { vecWith(acc, x, add[T]) }}
	case backend.OpProd:
		ops = redOps[T]{init: 1, assoc: true,
			fold: func(acc T, x []T) T { return foldWith(acc, x, mul[T]) },
			vec:  func(acc, x []T) { vecWith(acc, x, mul[T]) }}
	case backend.OpReduceMax:
		ops = redOps[T]{first: true, assoc: true,
			fold: func(acc T, x []T) T { return foldWith(acc, x, maxInt[T]) },
			vec:  func(acc, x []T) { vecWith(acc, x, maxInt[T]) }}
	case backend.OpReduceMin:
		ops = redOps[T]{first: true, assoc: true,
			fold: func(acc T, x []T) T { return foldWith(acc, x, minInt[T]) },
			vec:  func(acc, x []T) { vecWith(acc, x, minInt[T]) }}
	default:
		return ops, fmt.Errorf("cpu: %v of integers is not supported", o)
	}
	k := intKind(o)
	if vec := vecKernel(k, ops.vec); vec != nil {
		ops.vec = vec
	}
	if fold := intFoldKernel(k, ops.fold, ops.init); fold != nil {
		ops.fold = fold
	}
	ops.rows = intRowsKernel(k, ops.rowsGo)
	ops.vecs = vecsKernel(k, ops.vec)
	return ops, nil
}

func splitReal(n int) int {
	n2 := n / 2
	return n2 - n2%8
}

func reduceFloat[T float](r *runner, s *source[T], p *redPlan, o backend.Op, skipNaN bool, dt dtypes.DType) (any, error) {
	if skipNaN {
		return reduceSkipNaN(r, s, p, o)
	}
	ops, err := memoOps(o, dt, newFloatOps[T])
	if err != nil {
		return nil, err
	}
	res, err := runReduce(r, s, p, ops)
	if err != nil || o != backend.OpMean {
		return res, err
	}
	n := T(p.l)
	for i := range res {
		v := res[i] / n
		if ops.round1 != nil {
			v = ops.round1(v)
		}
		res[i] = v
	}
	return res, nil
}

// redOpsMemo holds the steps of reduceFloat and reduceInt by element type,
// operation, dtype and fastReduce (redOpsKey): building them made about
// ten closures and method values a statement, a tenth of a small
// reduction's time (stop 52: sum(x[:, 0]) of 1000 float32 made 31
// allocations a statement, 23 after; trace(d) of 1000×1000 float64 took
// 2.27 µs at best, 2.08 after). The steps hold no state of a statement, so
// every statement may share them.
var redOpsMemo sync.Map // redOpsKey → redOps[T]

type redOpsKey struct {
	t    any // the element type's zero value
	o    backend.Op
	dt   dtypes.DType
	fast bool
}

// memoOps returns the steps build makes for o and dt on T, from
// redOpsMemo where they were made before.
func memoOps[T number | bool](o backend.Op, dt dtypes.DType, build func(backend.Op, dtypes.DType) (redOps[T], error)) (redOps[T], error) {
	key := redOpsKey{*new(T), o, dt, fastReduce}
	if v, ok := redOpsMemo.Load(key); ok {
		return v.(redOps[T]), nil
	}
	ops, err := build(o, dt)
	if err == nil {
		redOpsMemo.Store(key, ops)
	}
	return ops, err
}

// newFloatOps builds the steps of the float reduction o of T (not
// skipping NaNs) for a result of dtype dt.
func newFloatOps[T float](o backend.Op, dt dtypes.DType) (redOps[T], error) {
	var ops redOps[T]
	switch o {
	case backend.OpSum, backend.OpMean:
		ops = redOps[T]{init: 0, pairwise: pairwise[T], leafMax: 128, split: splitReal,
			vec: func(acc, x []T) { vecWith(acc, x, add[T]) }}
	case backend.OpProd:
		ops = redOps[T]{init: 1, fold: foldMul[T],
			vec: func(acc, x []T) { vecWith(acc, x, mul[T]) }}
	case backend.OpReduceMax:
		ops = redOps[T]{first: true, assoc: true,
			fold: func(acc T, x []T) T { return foldWith(acc, x, maxFloat[T]) },
			vec:  func(acc, x []T) { vecWith(acc, x, maxFloat[T]) }}
	case backend.OpReduceMin:
		ops = redOps[T]{first: true, assoc: true,
			fold: func(acc T, x []T) T { return foldWith(acc, x, minFloat[T]) },
			vec:  func(acc, x []T) { vecWith(acc, x, minFloat[T]) }}
	default:
		return ops, fmt.Errorf("cpu: %v of floats is not supported", o)
	}
	k, c := floatKind[T](o, false)
	if vec := vecKernel(k, ops.vec); vec != nil {
		ops.vec = vec
	}
	if k == kMax || k == kMin {
		if fold := floatFoldKernel(k, ops.fold, c); fold != nil {
			ops.fold = fold
		}
	}
	if narrow(dt) && (o == backend.OpSum || o == backend.OpMean || o == backend.OpProd) {
		ops.round1 = func(v T) T { return T(roundTo64(dt, float64(v))) }
		ops.round = func(v []T) {
			for i, x := range v {
				v[i] = T(roundTo64(dt, float64(x)))
			}
		}
		if f, ok := any(roundF16).(func([]T)); ok && dt == dtypes.F16 && fastReduce {
			ops.round = f
		}
	}
	ops.vecs = vecsKernel(k, ops.vec)
	if k != kMul {
		if rows := floatRowsKernel(k, ops.rowsGo); rows != nil {
			ops.rows = rows
			if ops.round1 != nil {
				ops.rows = func(out, x []T, l int) {
					rows(out, x, l)
					for i, v := range out {
						out[i] = ops.round1(v)
					}
				}
			}
		}
	}
	return ops, nil
}

// reduceSkipNaN is the max or min o of floats skipping NaNs
// (Node.SkipNaN), by nanMaxFloat or nanMinFloat; a line of NaNs alone
// gives NaN, a float64 NaN converted to T (as LowerSkipNaN's cast).
func reduceSkipNaN[T float](r *runner, s *source[T], p *redPlan, o backend.Op) (any, error) {
	k, c := floatKind[T](o, true)
	var ops redOps[T]
	switch k {
	case kNanMax:
		ops = redOps[T]{first: true, assoc: true,
			fold: func(acc T, x []T) T { return foldWith(acc, x, nanMaxFloat[T]) },
			vec:  func(acc, x []T) { vecWith(acc, x, nanMaxFloat[T]) }}
	case kNanMin:
		ops = redOps[T]{first: true, assoc: true,
			fold: func(acc T, x []T) T { return foldWith(acc, x, nanMinFloat[T]) },
			vec:  func(acc, x []T) { vecWith(acc, x, nanMinFloat[T]) }}
	default:
		return nil, fmt.Errorf("cpu: %v of floats cannot skip NaNs", o)
	}
	if fold := nanFoldKernel(k, ops.fold, c); fold != nil {
		ops.fold = fold
	}
	if vec := vecKernel(k, ops.vec); vec != nil {
		ops.vec = vec
	}
	ops.vecs = vecsKernel(k, ops.vec)
	if rows := floatRowsKernel(k, ops.rowsGo); rows != nil {
		ops.rows = rows
	}
	res, err := runReduce(r, s, p, ops)
	nan := T(math.NaN())
	for i, v := range res {
		if v != v {
			res[i] = nan
		}
	}
	return res, err
}

func reduceComplex[T complex64 | complex128](r *runner, s *source[T], p *redPlan, o backend.Op) (any, error) {
	var ops redOps[T]
	switch o {
	case backend.OpSum, backend.OpMean:
		// NumPy splits 2n floats at n2 = n - n%8 floats, n2/2 numbers.
		ops = redOps[T]{init: 0, pairwise: cpairwise[T], leafMax: 64,
			split: func(n int) int { return (n - n%8) / 2 },
			vec:   func(acc, x []T) { vecWith(acc, x, add[T]) }}
		ops.vec, ops.vecs = complexAddKernels(ops.vec)
	case backend.OpProd:
		ops = redOps[T]{init: 1,
			fold: func(acc T, x []T) T { return foldWith(acc, x, cmul[T]) },
			vec:  func(acc, x []T) { vecWith(acc, x, cmul[T]) }}
	case backend.OpReduceMax:
		// NumPy's maximum.reduce and minimum.reduce: the complex loop
		// folded in order (cKeep), so the first NaN wins.
		ops = redOps[T]{first: true,
			fold: func(acc T, x []T) T { return foldWith(acc, x, maxComplex[T]) },
			vec:  func(acc, x []T) { vecWith(acc, x, maxComplex[T]) }}
	case backend.OpReduceMin:
		ops = redOps[T]{first: true,
			fold: func(acc T, x []T) T { return foldWith(acc, x, minComplex[T]) },
			vec:  func(acc, x []T) { vecWith(acc, x, minComplex[T]) }}
	default:
		return nil, fmt.Errorf("cpu: %v of complex numbers is not supported", o)
	}
	res, err := runReduce(r, s, p, ops)
	if err != nil || o != backend.OpMean {
		return res, err
	}
	for i := range res {
		res[i] = cdiv(res[i], T(complex(float64(p.l), 0)))
	}
	return res, nil
}

// complexAddKernels returns the steps acc[i] += x[i] of complex T (vec,
// and vecs for many rows a call) by the float kernels over the parts (a
// complex sum adds the real parts and the imaginary parts apart, in the
// same order): vec where there are none. sum(z, axis=0) of 1000×1000
// complex128 took 0.64–0.70 ms a number at a time.
func complexAddKernels[T complex64 | complex128](vec func(acc, x []T)) (func(acc, x []T), func(acc, x []T, rows, stride int)) {
	if _, c64 := any(T(0)).(complex64); c64 {
		v, vs := partsAdd[T, float32]()
		if v == nil {
			return vec, nil
		}
		return v, vs
	}
	v, vs := partsAdd[T, float64]()
	if v == nil {
		return vec, nil
	}
	return v, vs
}

// partsAdd is complexAddKernels on the parts, of type F, of T.
func partsAdd[T complex64 | complex128, F float32 | float64]() (func(acc, x []T), func(acc, x []T, rows, stride int)) {
	ref := func(acc, x []F) { vecWith(acc, x, add[F]) }
	fv, fvs := vecKernel(kAdd, ref), vecsKernel(kAdd, ref)
	if fv == nil {
		return nil, nil
	}
	parts := func(c []T) []F { return unsafe.Slice((*F)(unsafe.Pointer(unsafe.SliceData(c))), 2*len(c)) }
	vec := func(acc, x []T) { fv(parts(acc), parts(x[:len(acc)])) }
	var vecs func(acc, x []T, rows, stride int)
	if fvs != nil {
		vecs = func(acc, x []T, rows, stride int) {
			if rows > 0 {
				fvs(parts(acc), parts(x), rows, 2*stride)
			}
		}
	}
	return vec, vecs
}

// cmul and cdiv are NumPy's complex product and quotient on complex64 or
// complex128.
func cmul[T complex64 | complex128](a, b T) T {
	switch x := any(a).(type) {
	case complex64:
		y := any(b).(complex64)
		return T(complex(cmulParts(real(x), imag(x), real(y), imag(y))))
	default:
		x128, y := any(a).(complex128), any(b).(complex128)
		return T(complex(cmulParts(real(x128), imag(x128), real(y), imag(y))))
	}
}

func cdiv[T complex64 | complex128](a, b T) T {
	switch x := any(a).(type) {
	case complex64:
		y := any(b).(complex64)
		return T(complex(cdivParts(real(x), imag(x), real(y), imag(y))))
	default:
		x128, y := any(a).(complex128), any(b).(complex128)
		return T(complex(cdivParts(real(x128), imag(x128), real(y), imag(y))))
	}
}

// countTrue returns the number of true elements of the bool tensor t as a
// one-element buffer of integer dtype d's compute type (the count
// wrapped to d, as d's running sum would be), and false for other
// dtypes. The bytes of a []bool are 0 or 1, so words added lane by lane
// count eight elements an addition: 10^6 elements in about 0.03 ms
// where converting each to int64 and adding took 0.18 ms (NumPy's
// count_nonzero takes 0.05).
func countTrue(t *backend.Tensor, d dtypes.DType) (any, bool) {
	b, ok := t.Data.([]bool)
	if !ok || backend.CheckStorage(dtypes.Bool, t.Data, backend.Size(t.Shape)) != nil {
		return nil, false
	}
	return countResult(countOnes(boolBytes(b)), d)
}

// countOnesGo returns the sum of the bytes of x, each 0 or 1: the
// reference of countOnes.
func countOnesGo(x []byte) uint64 {
	var c uint64
	words := byteWords(x)
	for len(words) > 0 {
		// Up to 255 words added lane by lane (a byte lane holds 255
		// ones), then the lanes summed.
		m := min(len(words), 255)
		var acc uint64
		for _, w := range words[:m] {
			acc += w
		}
		const lo = 0x00ff00ff00ff00ff
		acc = acc&lo + acc>>8&lo // four 16-bit sums
		c += acc * 0x0001000100010001 >> 48
		words = words[m:]
	}
	for _, v := range x[len(x)&^7:] {
		c += uint64(v)
	}
	return c
}

// countFused returns how many of the values of the fused bool tree n
// (size elements) are true, a block at a time on the workers.
func (r *runner) countFused(n *backend.Node, size int) (uint64, error) {
	f, root, err := r.fuse(n, size)
	if err != nil {
		return 0, err
	}
	grain := grainSize
	if b := f.serialBytes(n.DType); !f.costly && b >= 0 && b < serialMin {
		grain = size
	}
	nw := r.workersFor(size, grain)
	workers := make([]*worker, nw)
	counts := make([]uint64, nw)
	for i := range workers {
		workers[i] = f.newWorker()
	}
	err = r.parallel(size, grain, func(wi, lo, hi int) error {
		w := workers[wi]
		for off, cnt := lo, 0; off < hi; off += cnt {
			cnt = min(w.block, hi-off)
			b, err := root.eval(w, off, cnt)
			if err != nil {
				return err
			}
			counts[wi] += countOnes(boolBytes(b.([]bool)))
		}
		return r.ctx.Err()
	})
	for _, w := range workers {
		w.done()
	}
	var c uint64
	for _, k := range counts {
		c += k
	}
	return c, err
}

// countRowsMin is the shortest row whose count countRowsFused takes: a
// call of countOnes a row (at least one a row) costs more than the
// general walk's conversion of a few elements.
const countRowsMin = 32

// countRowsFused returns how many values of each of the rows rows of l
// elements of the fused bool tree n are true: blocks of the tree, each
// cut at the rows' ends, counted by countOnes on the workers (each takes
// whole rows).
func (r *runner) countRowsFused(n *backend.Node, rows, l int) ([]uint64, error) {
	size := rows * l
	f, root, err := r.fuse(n, size)
	if err != nil {
		return nil, err
	}
	grain := max(1, grainSize/l)
	if b := f.serialBytes(n.DType); !f.costly && b >= 0 && b < serialMin {
		grain = rows
	}
	nw := r.workersFor(rows, grain)
	workers := make([]*worker, nw)
	for i := range workers {
		workers[i] = f.newWorker()
	}
	counts := make([]uint64, rows)
	err = r.parallel(rows, grain, func(wi, lo, hi int) error {
		w := workers[wi]
		row, at := lo, 0 // the row of the next element, and its index in the row
		for off, end, cnt := lo*l, hi*l, 0; off < end; off += cnt {
			cnt = min(w.block, end-off)
			b, err := root.eval(w, off, cnt)
			if err != nil {
				return err
			}
			x := boolBytes(b.([]bool))[:cnt]
			for len(x) > 0 {
				k := min(len(x), l-at)
				counts[row] += countOnes(x[:k])
				x, at = x[k:], at+k
				if at == l {
					row, at = row+1, 0
				}
			}
		}
		return r.ctx.Err()
	})
	for _, w := range workers {
		w.done()
	}
	return counts, err
}

// rowCountResult returns the counts c of rows of l elements as the buffer
// of sums (or, where mean, means) of dtype d's compute type, and false
// where d takes no such result: integer sums as countResult wraps them,
// float means as the count divided by l (a sum of ones is exact in
// float64, and in float32 up to 2^24 elements a row, in any order).
// With c nil it only reports whether d takes one.
func rowCountResult(c []uint64, l int, d dtypes.DType, mean bool) (any, bool) {
	switch {
	case mean && d == dtypes.F64:
		return convertCounts(c, func(v uint64) float64 { return float64(v) / float64(l) }), true
	case mean && d == dtypes.F32 && l <= 1<<24:
		return convertCounts(c, func(v uint64) float32 { return float32(v) / float32(l) }), true
	case mean:
		return nil, false // float16 and bfloat16 sum as NumPy's do
	case d == dtypes.I64:
		return convertCounts(c, func(v uint64) int64 { return int64(v) }), true
	case d == dtypes.I32:
		return convertCounts(c, func(v uint64) int32 { return int32(v) }), true
	case d == dtypes.U64:
		return convertCounts(c, func(v uint64) uint64 { return v }), true
	case d == dtypes.U32:
		return convertCounts(c, func(v uint64) uint32 { return uint32(v) }), true
	}
	return nil, false
}

// convertCounts returns f of each count of c.
func convertCounts[T any](c []uint64, f func(uint64) T) []T {
	res := make([]T, len(c))
	for i, v := range c {
		res[i] = f(v)
	}
	return res
}

// countResult returns the count c as a one-element buffer of the compute
// type of d, an integer dtype of 32 or 64 bits, or false.
func countResult(c uint64, d dtypes.DType) (any, bool) {
	switch computeOf(d) {
	case ctI64:
		return []int64{int64(c)}, true
	case ctI32:
		return []int32{int32(c)}, true
	case ctU64:
		return []uint64{c}, true
	case ctU32:
		return []uint32{uint32(c)}, true
	}
	return nil, false
}

// countType reports whether a count can be the sum of dtype d
// (countResult).
func countType(d dtypes.DType) bool {
	_, ok := countResult(0, d)
	return ok
}
