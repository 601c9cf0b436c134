package cpu

import (
	"encoding/binary"
	"fmt"
	"math"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/tensorsh/tensorsh/backend"
	"github.com/tensorsh/tensorsh/dtypes"
)

// Fused elementwise evaluation.
//
// An elementwise node and the elementwise nodes below it that have its
// shape and no other user form one fused tree. Its leaves are views (plan
// inputs, strided views of them, or materialised results of other nodes),
// read with broadcast strides. The tree is evaluated over blocks of
// blockSize output elements: each node computes its block into a small
// per-worker scratch buffer of its compute type, so a statement makes one
// pass over memory and no full-size temporaries. Blocks are spread over
// the backend's workers.

// streamMin is the size in bytes from which fused results are written
// with non-temporal stores: half the last-level cache of common CPUs, so
// that such a result would mostly not stay in the cache anyway, and
// skipping the read of its lines before they are written pays.
const streamMin = 16 << 20

// prefetchMin is the size in bytes of a fused result from which a
// compute-bound kernel prefetches the next block's operands (the operands
// of smaller results are likelier to be in the cache).
const prefetchMin = 4 << 20

// minRow is the shortest last axis along which fused blocks stop at row
// ends (shorter rows would make blocks too small).
const minRow = 1024

// A kfn is the kernel of one elementwise node: it computes d[i] from
// a[0][i], a[1][i], … for every i of d. The buffers have the compute types
// of the node's result and operands and the same length.
type kfn func(d any, a []any) error

// A pfkfn is a kfn that cannot fail and, while it computes, prefetches
// the memory of pf.
type pfkfn func(d any, a []any, pf [][]byte)

// An fnode is a node of a fused tree.
type fnode interface {
	// eval returns the node's values at the flat output positions
	// [off, off+cnt) as a compute buffer of length cnt. The buffer belongs
	// to the worker (or to a leaf's storage) and must not be written.
	eval(w *worker, off, cnt int) (any, error)
}

// A worker holds the scratch space of one goroutine.
type worker struct {
	memo   []leafMemo // per node id: a shared leaf's last block (when f.shared)
	bufs   [][]any    // per node id: the node's buffer, then its argument list
	cts    []ctype    // per node id: the compute type of its buffer
	filled []int      // per leaf id: the position its buffer is filled from, or -1
	block  int        // buffer length: blockSize, or less for a small tree
	// pf holds the memory of the next block's operands while the block
	// is computed, for the first compute-bound kernel of the tree to
	// prefetch (see op.kpf); empty when nothing is to be prefetched.
	pf [][]byte
	// boxes hold the blocks read or written in place: box i+1 for the
	// leaf of node id i, box 0 for the result (see sliceBox).
	boxes []*sliceBox
	// anyMem holds the lists of bufs (see anys), kept with the pooled
	// worker.
	anyMem []any
}

// anys returns a list of n nil buffers from w.anyMem, or a new one when
// it is used up: a node's buffer and argument lists, which were two or
// three allocations of each small statement.
func (w *worker) anys(n int) []any {
	if len(w.anyMem)+n > cap(w.anyMem) {
		if cap(w.anyMem) > 0 {
			return make([]any, n)
		}
		w.anyMem = make([]any, 0, 16)
	}
	m := len(w.anyMem)
	w.anyMem = w.anyMem[:m+n]
	return w.anyMem[m : m+n : m+n]
}

func (w *worker) buf(id int, ct ctype, cnt int) any {
	if w.bufs[id] == nil {
		w.bufs[id] = w.anys(1)
		w.bufs[id][0] = w.scratch(id, ct)
	}
	if cnt == w.block {
		return w.bufs[id][0] // no new interface value
	}
	return sliceBuf(w.bufs[id][0], 0, cnt)
}

// scratchPools keeps the block buffers of finished statements for the
// next ones, by compute type and length (a statement's workers would
// otherwise leave 100 kB or more of garbage, and bring the next
// collection nearer).
var scratchPools sync.Map // scratchKey → *sync.Pool

type scratchKey struct {
	ct ctype
	n  int
}

// scratch returns a buffer of w.block elements of ct, with any contents,
// for node id.
//
// A tree of fewer elements than blockSize takes a pooled buffer of
// blockSize too, sliced to its length: a fresh buffer was an allocation
// and a clearing for every node of every small statement (`x[:, 0] * 2`
// on a 1000-element column spent a third of its time there).
func (w *worker) scratch(id int, ct ctype) any {
	w.cts[id] = ct
	n := max(w.block, blockSize)
	if p, ok := scratchPools.Load(scratchKey{ct, n}); ok {
		if b := p.(*sync.Pool).Get(); b != nil {
			return sliceBuf(b, 0, w.block)
		}
	}
	return sliceBuf(newBuf(ct, n), 0, w.block)
}

// done gives the worker's block buffers back for later statements, and
// the worker itself (see workerPool).
func (w *worker) done() {
	for id, bs := range w.bufs {
		if len(bs) == 0 || bs[0] == nil || w.cts[id] == ctShared {
			continue
		}
		n := max(w.block, blockSize)
		key := scratchKey{w.cts[id], n}
		p, ok := scratchPools.Load(key)
		if !ok {
			p, _ = scratchPools.LoadOrStore(key, new(sync.Pool))
		}
		p.(*sync.Pool).Put(sliceBuf(bs[0], 0, n)) // its whole length again
	}
	w.release()
}

// ctShared marks, in worker.cts, a buffer the worker shares and does not
// give back: a constant's block (see constBuf).
const ctShared ctype = 255

// A leaf reads a view broadcast to the fused shape.
type leaf struct {
	id       int
	node     *backend.Node // the operand it reads
	v        *view
	ct       ctype
	f        *fusion
	strides  []int // over the fused (coalesced) shape
	direct   bool  // contiguous and stored in its compute type: no copy
	constant bool  // all strides 0: one value broadcast everywhere
	// tiled: contiguous along the second-to-last axis and not along the
	// last (a transposed operand): whole rows are read in tiles (see
	// readTiled).
	tiled bool
	// row: one row broadcast along every other axis (strides 0 but the
	// last, 1).
	row bool
	// rowsContig: stored in its compute type, and the rows of a group
	// along the second-to-last axis follow each other in storage.
	rowsContig bool
	uses       int // how many operands of the tree read it
}

// fillRows fills buf with the values of cnt elements of a row leaf from
// column col on.
func (l *leaf) fillRows(buf any, col, cnt int) {
	rowLen := l.f.shape[len(l.f.shape)-1]
	first := min(rowLen-col, cnt)
	loadSeg(l.v.dtype, sliceBuf(buf, 0, first), l.v.data, l.v.off+col, 1, first)
	if first == cnt {
		return
	}
	// One whole row (or the rest) after it, then copies of that row's
	// bytes: a loadSeg per row boxed a slice of buf each (16 rows a
	// block, a tenth of x ^ r's time on 10^6 uint8).
	n := min(rowLen, cnt-first)
	loadSeg(l.v.dtype, sliceBuf(buf, first, first+n), l.v.data, l.v.off, 1, n)
	b := bufBytes(buf)
	es := len(b) / bufLen(buf)
	row := b[first*es : (first+n)*es]
	for done := first + n; done < cnt; done += rowLen {
		copy(b[done*es:min(cnt, done+rowLen)*es], row)
	}
}

func (l *leaf) eval(w *worker, off, cnt int) (any, error) {
	if l.uses > 1 && !l.direct {
		// Several operands read this leaf: the block's values are read
		// once (the buffer is the worker's, and no node writes it).
		m := &w.memo[l.id]
		if m.v == nil || m.off != off || m.cnt != cnt {
			v, err := l.read(w, off, cnt)
			if err != nil {
				return nil, err
			}
			*m = leafMemo{off, cnt, v}
		}
		return m.v, nil
	}
	return l.read(w, off, cnt)
}

// A leafMemo is the last block a worker read of a shared leaf.
type leafMemo struct {
	off, cnt int
	v        any
}

// read returns the leaf's values at [off, off+cnt) (see fnode.eval).
func (l *leaf) read(w *worker, off, cnt int) (any, error) {
	if l.direct {
		p := l.v.off + off
		return w.boxed(l.id+1, l.v.data, p, p+cnt), nil
	}
	if l.constant {
		// The same value everywhere: fill the buffer once.
		if w.bufs[l.id] == nil {
			b := w.scratch(l.id, l.ct)
			loadSeg(l.v.dtype, b, l.v.data, l.v.off, 0, w.block)
			w.bufs[l.id] = w.anys(1)
			w.bufs[l.id][0] = b
		}
		if b := w.bufs[l.id][0]; bufLen(b) == cnt {
			return b, nil // no new interface value
		}
		return sliceBuf(w.bufs[l.id][0], 0, cnt), nil
	}
	shape := l.f.shape
	last := len(shape) - 1
	rowLen, st := shape[last], l.strides[last]
	row, col := off/rowLen, off%rowLen
	pos := l.rowStart(row) + col*st
	if col+cnt <= rowLen {
		// One run along the last axis: read in place, or fill one value
		// (kept from the last block when it was the same), or gather.
		switch {
		case st == 1 && identityStorage(l.v.dtype):
			return w.boxed(l.id+1, l.v.data, pos, pos+cnt), nil
		case st == 0:
			buf := w.buf(l.id, l.ct, w.block)
			if w.filled[l.id] != pos {
				loadSeg(l.v.dtype, buf, l.v.data, pos, 0, w.block)
				w.filled[l.id] = pos
			}
			return sliceBuf(buf, 0, cnt), nil
		}
		buf := w.buf(l.id, l.ct, cnt)
		w.filled[l.id] = -1
		loadSeg(l.v.dtype, buf, l.v.data, pos, st, cnt)
		return buf, nil
	}
	// Several rows.
	if l.row {
		// The same row everywhere: the block's values depend only on
		// where in a row it starts and on its length, alike for most
		// blocks of a worker (see rowBlock).
		buf := w.buf(l.id, l.ct, cnt)
		if key := -2 - (col<<32 | cnt); w.filled[l.id] != key {
			l.fillRows(buf, col, cnt)
			w.filled[l.id] = key
		}
		return buf, nil
	}
	if l.rowsContig {
		// Rows of one group along the second-to-last axis are one run
		// in storage (a (1, m, n) operand of an (l, m, n) result): read a
		// block within a group in place.
		group := shape[last-1]
		if end := row + (col+cnt-1)/rowLen; end/group == row/group {
			return w.boxed(l.id+1, l.v.data, pos, pos+cnt), nil
		}
	}
	buf := w.buf(l.id, l.ct, cnt)
	w.filled[l.id] = -1
	if l.tiled {
		// A transposed operand: read tile by tile.
		l.readTiled(buf, off, cnt)
		return buf, nil
	}
	if identityStorage(l.v.dtype) {
		l.gatherRows(buf, row, col, pos, cnt)
		return buf, nil
	}
	// Stored otherwise (narrow floats, complex32): row by row, the
	// narrow floats into the typed buffer (an interface value of each
	// run cost an allocation: a thousand a statement for transpose(x) +
	// y of 10^6 float16).
	out, narrow := buf.([]float32)
	for done := 0; done < cnt; {
		run := min(rowLen-col, cnt-done)
		if narrow {
			loadNarrow(l.v.dtype, out[done:done+run], l.v.data, pos, st)
		} else {
			loadSeg(l.v.dtype, sliceBuf(buf, done, done+run), l.v.data, pos, st, run)
		}
		done += run
		row, col = row+1, 0
		if done < cnt {
			pos = l.rowStart(row)
		}
	}
	return buf, nil
}

// gatherRows fills buf with the cnt elements from row, col (at storage
// position pos) on, row by row, for storage in its compute type: typed,
// without an interface value per row.
func (l *leaf) gatherRows(buf any, row, col, pos, cnt int) {
	switch b := buf.(type) {
	case []bool:
		gatherRows(l, b, l.v.data.([]bool), row, col, pos, cnt)
	case []int8:
		gatherRows(l, b, l.v.data.([]int8), row, col, pos, cnt)
	case []int16:
		gatherRows(l, b, l.v.data.([]int16), row, col, pos, cnt)
	case []int32:
		gatherRows(l, b, l.v.data.([]int32), row, col, pos, cnt)
	case []int64:
		gatherRows(l, b, l.v.data.([]int64), row, col, pos, cnt)
	case []uint8:
		gatherRows(l, b, l.v.data.([]uint8), row, col, pos, cnt)
	case []uint16:
		gatherRows(l, b, l.v.data.([]uint16), row, col, pos, cnt)
	case []uint32:
		gatherRows(l, b, l.v.data.([]uint32), row, col, pos, cnt)
	case []uint64:
		gatherRows(l, b, l.v.data.([]uint64), row, col, pos, cnt)
	case []float32:
		gatherRows(l, b, l.v.data.([]float32), row, col, pos, cnt)
	case []float64:
		gatherRows(l, b, l.v.data.([]float64), row, col, pos, cnt)
	case []complex64:
		gatherRows(l, b, l.v.data.([]complex64), row, col, pos, cnt)
	case []complex128:
		gatherRows(l, b, l.v.data.([]complex128), row, col, pos, cnt)
	default:
		panic(fmt.Sprintf("cpu: bad buffer %T", buf))
	}
}

func gatherRows[T any](l *leaf, dst, src []T, row, col, pos, cnt int) {
	n := len(l.f.shape)
	rowLen, group := l.f.shape[n-1], l.f.shape[n-2]
	st, rowSt := l.strides[n-1], l.strides[n-2]
	start := pos - col*st // the storage position of the row's first element
	j := row % group      // the row's index along the second-to-last axis
	for done := 0; done < cnt; {
		if st == 0 && col == 0 && cnt-done >= rowLen {
			// Whole rows of one group, each broadcast from one value.
			k := min((cnt-done)/rowLen, group-j)
			fillRows(dst[done:done+k*rowLen], src, start, rowSt, k, rowLen)
			done += k * rowLen
			row += k
			if j += k; j < group {
				start += k * rowSt
			} else if done < cnt {
				j, start = 0, l.rowStart(row)
			}
			continue
		}
		run := min(rowLen-col, cnt-done)
		d := dst[done : done+run]
		if st == 0 {
			// A broadcast column: one value per row.
			fillSame(d, src[start])
		} else {
			copySeg(d, src, start+col*st, st)
		}
		done += run
		row, col = row+1, 0
		if j++; j < group {
			start += rowSt
		} else if done < cnt {
			j, start = 0, l.rowStart(row)
		}
	}
}

// fillRowsGo is fillRows without vector stores.
func fillRowsGo[T any](d, src []T, start, step, rows, rowLen int) {
	for r := range rows {
		fillSame(d[r*rowLen:(r+1)*rowLen], src[start+r*step])
	}
}

// fillSame sets every element of d to v. Elements of 1, 2 or 4 bytes are
// stored 8 bytes at a time: a row of 100 int8 broadcast from one value (a
// (100, 100, 1) operand of a (100, 100, 100) result) took 30 ns with a
// store per element.
func fillSame[T any](d []T, v T) {
	size := int(unsafe.Sizeof(v))
	if len(d)*size < 32 || 8%size != 0 || size == 8 {
		for i := range d {
			d[i] = v
		}
		return
	}
	per := 8 / size
	for i := range per {
		d[i] = v
	}
	// The first 8 bytes hold the pattern in memory order; reading and
	// writing them little-endian keeps that order on any machine.
	b := unsafe.Slice((*byte)(unsafe.Pointer(&d[0])), len(d)*size)
	pat := binary.LittleEndian.Uint64(b)
	i := 8
	for ; i+32 <= len(b); i += 32 {
		w := b[i : i+32 : i+32]
		binary.LittleEndian.PutUint64(w[0:], pat)
		binary.LittleEndian.PutUint64(w[8:], pat)
		binary.LittleEndian.PutUint64(w[16:], pat)
		binary.LittleEndian.PutUint64(w[24:], pat)
	}
	for ; i+8 <= len(b); i += 8 {
		binary.LittleEndian.PutUint64(b[i:], pat)
	}
	for j := i / size; j < len(d); j++ {
		d[j] = v
	}
}

// rowStart returns the storage position of the first element of row (a
// flat index over all axes of the fused shape but the last).
func (l *leaf) rowStart(row int) int {
	p := l.v.off
	shape := l.f.shape
	for d := len(shape) - 2; d >= 0 && row > 0; d-- {
		p += (row % shape[d]) * l.strides[d]
		row /= shape[d]
	}
	return p
}

// An op is an elementwise operation node.
type op struct {
	id    int
	name  backend.Op
	ct    ctype
	args  []fnode
	k     kfn
	kNT   kfn          // k with non-temporal stores, or nil
	kpf   pfkfn        // k that also prefetches, for a compute-bound k, or nil
	round dtypes.DType // narrow dtype the results are rounded to, or Invalid
}

func (o *op) eval(w *worker, off, cnt int) (any, error) {
	return o.evalInto(w, off, cnt, o.f(w, cnt), o.k, o.round)
}

// evalInto computes the node's values at [off, off+cnt) into d, a buffer
// of its compute type and length cnt (the output storage itself for a
// root stored in its compute type), with the kernel k (o.k, or its
// streaming form o.kNT).
func (o *op) evalInto(w *worker, off, cnt int, d any, k kfn, round dtypes.DType) (any, error) {
	argv := o.bufs(w)[1:]
	for i, a := range o.args {
		v, err := a.eval(w, off, cnt)
		if err != nil {
			return nil, err
		}
		argv[i] = v
	}
	if o.kpf != nil && len(w.pf) > 0 {
		o.kpf(d, argv, w.pf)
		w.pf = w.pf[:0]
	} else if err := k(d, argv); err != nil {
		return nil, err
	}
	if round != dtypes.Invalid {
		roundBuf(round, d)
	}
	return d, nil
}

// bufs returns the worker's buffers of the node: its result buffer
// (made by f, when the node does not compute into the output), then its
// arguments' list.
func (o *op) bufs(w *worker) []any {
	if w.bufs[o.id] == nil {
		w.bufs[o.id] = w.anys(1 + len(o.args))
	}
	return w.bufs[o.id]
}

func (o *op) f(w *worker, cnt int) any {
	bs := o.bufs(w)
	if bs[0] == nil {
		bs[0] = w.scratch(o.id, o.ct)
	}
	if cnt == w.block {
		return bs[0]
	}
	return sliceBuf(bs[0], 0, cnt)
}

// A fusion is one fused tree being built and run.
type fusion struct {
	r      *runner
	root   *backend.Node
	shape  []int // the root's shape, then the coalesced shape
	size   int   // elements of the root's shape
	leaves []*leaf
	nodes  int
	heavy  bool // some node has a prefetching kernel (op.kpf)
	costly bool // some node is not cheapOp (see serialMax)
	split  bool // some node is a splitOp (see splitMin)
	wide   int  // the largest compute type of its nodes and leaves, in bytes
	// leafFor is the leaf of each operand node, once there are more than
	// leafScan (before, leaves are searched); shared is set when a leaf
	// serves several operands.
	leafFor map[*backend.Node]*leaf
	shared  bool
	block   int // elements per block: blockSize unless set (see flatBlock)
	// The first leaves, their list, and their strides are allocated with
	// the fusion (a small statement would otherwise spend a fifth of its
	// time in the allocator).
	leafMem  [4]leaf
	leafPtrs [4]*leaf
	// workerPtrs holds the workers of Elementwise, when they are few.
	workerPtrs [2]*worker
	// The first ops and their operand lists (see newOp, argSpace).
	opMem  [2]op
	nops   int
	argMem [4]fnode
	nargs  int
	// job is Elementwise's loop over the tree.
	job  ewJob
	ints [32]int
	used int // of ints
}

// newOp returns a zero op of f's first ones, or a new one.
func (f *fusion) newOp() *op {
	if f.nops == len(f.opMem) {
		return new(op)
	}
	f.nops++
	return &f.opMem[f.nops-1]
}

// argSpace returns room for n operands from f.argMem (length 0), or nil
// when it is used up (FuseArgsBuf then allocates).
func (f *fusion) argSpace(n int) []fnode {
	if f.nargs+n > len(f.argMem) {
		return nil
	}
	f.nargs += n
	return f.argMem[f.nargs-n : f.nargs-n : f.nargs]
}

// leafScan is the number of leaves up to which leafOf finds an operand's
// leaf by a search rather than in leafFor.
const leafScan = 8

// alloc returns n ints of f.ints, or new ones when they are used up.
func (f *fusion) alloc(n int) []int {
	if f.used+n > len(f.ints) {
		return make([]int, n)
	}
	s := f.ints[f.used : f.used+n : f.used+n]
	f.used += n
	return s
}

// fuse compiles the elementwise tree rooted at n (of size elements) and
// coalesces its axes.
func (r *runner) fuse(n *backend.Node, size int) (*fusion, fnode, error) {
	initTables()
	f := &r.fusionMem
	if r.fusionUsed {
		f = new(fusion)
	}
	r.fusionUsed = true
	// f is zero: new, or the runner's, which release cleared (a second
	// clearing of its kilobyte was a tenth of fuse).
	f.r, f.root, f.shape, f.size = r, n, n.Shape, size
	f.leaves = f.leafPtrs[:0]
	root, err := f.build(n)
	if err != nil {
		return nil, nil, err
	}
	f.coalesce()
	return f, root, nil
}

// Elementwise evaluates the fused tree rooted at n into a new tensor.
func (r *runner) Elementwise(n *backend.Node, size int) (*view, error) {
	if v, ok, err := r.signBits(n, size); ok {
		return v, err
	}
	f, root, err := r.fuse(n, size)
	if err != nil {
		return nil, err
	}
	out, err := r.Alloc(n.DType, n.Shape, size)
	if err != nil || size == 0 {
		return out, err
	}
	grain := f.grain(n.DType)
	if size >= f16TableMin {
		if l := f.f16Leaf(root); l != nil {
			if t := f16ChainTable(root, l); t != nil {
				// One float16 operation on float16 values: a table
				// of its results, looked up.
				err := r.parallel(size, grain, func(_, lo, hi int) error {
					if l.tiled {
						lookupTiled(out.data.([]uint16)[lo:hi], l, lo, t)
						return nil
					}
					lookupF16(out.data.([]uint16)[lo:hi], l.v.data.([]uint16)[l.v.off+lo:l.v.off+hi], t)
					return nil
				})
				if err != nil {
					return nil, err
				}
				return out, nil
			}
		}
	}
	nw := r.workersFor(size, grain)
	workers := f.workerPtrs[:0]
	if nw > len(f.workerPtrs) {
		workers = make([]*worker, 0, nw)
	}
	workers = workers[:nw]
	for i := range workers {
		workers[i] = f.newWorker()
	}
	rootOp, direct := root.(*op)
	direct = direct && identityStorage(n.DType)
	j := &f.job
	*j = ewJob{f: f, workers: workers, rowLen: f.shape[len(f.shape)-1], root: root, dt: n.DType, out: out.data}
	if rootOp != nil && !direct && rootOp.round == n.DType && (n.DType == dtypes.F16 || n.DType == dtypes.BF16) {
		// A float16 or bfloat16 root rounded and then converted to its
		// dtype by storeSeg: the conversion rounds to nearest even
		// alone (bfloat16 x * 2 spent a fifth of its time in the
		// rounding).
		j.storeRounds = rootOp
	}
	if direct {
		j.rootOp, j.rootK = rootOp, rootOp.k
		// A large result is written around the cache when the root's
		// kernel has a streaming form (see streamMin).
		if rootOp.kNT != nil && rootOp.round == dtypes.Invalid && size*backend.ElemSize(n.DType) >= streamMin {
			j.rootK = rootOp.kNT
		}
	}
	// A tree with a compute-bound kernel reads the next block of its
	// contiguous operands from memory while that kernel computes.
	j.pfOn = f.heavy && size*backend.ElemSize(n.DType) >= prefetchMin
	var run func(w, lo, hi int) error
	if f == &r.fusionMem {
		// The runner's own fusion: its method value, made once for the
		// pooled runner (a closure here was an allocation a statement).
		if r.jobRun == nil {
			r.jobRun = j.run
		}
		run = r.jobRun
	} else {
		run = j.run
	}
	err = r.parallel(size, grain, run)
	for _, w := range workers {
		w.done()
	}
	if err != nil {
		return nil, err
	}
	return out, nil
}

// An ewJob is Elementwise's loop over the blocks of a fused tree.
type ewJob struct {
	f       *fusion
	workers []*worker
	rowLen  int  // the last axis's length
	pfOn    bool // prefetch the next block's operands (see op.kpf)
	root    fnode
	rootOp  *op // the root, when it computes straight into out
	rootK   kfn // rootOp's kernel (or its streaming form)
	// storeRounds is the root where storeSeg's conversion to dt does
	// the root's rounding (which is then left out).
	storeRounds *op
	dt          dtypes.DType
	out         any // the result's storage
}

// run evaluates the tree at [lo, hi) on worker wi (see runner.parallel).
func (j *ewJob) run(wi, lo, hi int) error {
	f, w := j.f, j.workers[wi]
	for off, cnt := lo, 0; off < hi; off += cnt {
		cnt = min(w.block, hi-off)
		if j.rowLen >= minRow {
			// Blocks within rows: row operands are read in place,
			// broadcast columns filled once per row.
			cnt = min(cnt, j.rowLen-off%j.rowLen)
		}
		if j.pfOn {
			w.pf = w.pf[:0]
			if next := off + cnt; next < hi {
				e := min(next+cnt, hi)
				for _, l := range f.leaves {
					if l.direct {
						w.pf = append(w.pf, bufBytes(sliceBuf(l.v.data, l.v.off+next, l.v.off+e)))
					}
				}
			}
		}
		if j.rootOp != nil {
			// Compute straight into the result.
			if _, err := j.rootOp.evalInto(w, off, cnt, w.boxed(0, j.out, off, off+cnt), j.rootK, j.rootOp.round); err != nil {
				return err
			}
			continue
		}
		var b any
		var err error
		if o := j.storeRounds; o != nil {
			// The store rounds as the root would: once is enough.
			b, err = o.evalInto(w, off, cnt, o.f(w, cnt), o.k, dtypes.Invalid)
		} else {
			b, err = j.root.eval(w, off, cnt)
		}
		if err != nil {
			return err
		}
		storeSeg(j.dt, j.out, off, b)
	}
	return nil
}

// fusable reports whether the elementwise node n can be computed inside
// the tree of root (see backend.Exec.Fusible).
func (f *fusion) fusable(n *backend.Node) bool { return f.r.x.Fusible(n, f.root) }

// build compiles n (the root, or a fusable node) and the fusable nodes
// below it.
func (f *fusion) build(n *backend.Node) (fnode, error) {
	if err := backend.CheckArgs(n); err != nil {
		return nil, fmt.Errorf("cpu: %v", err)
	}
	args, err := backend.FuseArgsBuf(f.argSpace(len(n.Args)), n, f.fusable, f.build, f.leafOf)
	if err != nil {
		return nil, err
	}
	argDT := func(i int) dtypes.DType { return n.Args[i].DType }
	var (
		k       kfn
		natural dtypes.DType
	)
	switch n.Op {
	case backend.OpCast:
		k, err = castKernel(argDT(0), n.DType)
		natural = n.DType
	case backend.OpWhere:
		if argDT(0) != dtypes.Bool {
			c := &op{id: f.id(), name: backend.OpCast, ct: ctBool, args: []fnode{args[0]}}
			if c.k, err = castKernel(argDT(0), dtypes.Bool); err != nil {
				return nil, err
			}
			args[0] = c
		}
		if argDT(1) != argDT(2) {
			return nil, fmt.Errorf("cpu: where: operands have dtypes %v and %v; the plan must cast them to one", argDT(1), argDT(2))
		}
		k, natural = whereKernel(argDT(1)), argDT(1)
	default:
		for i := 1; i < len(n.Args); i++ {
			if argDT(i) != argDT(0) {
				return nil, fmt.Errorf("cpu: %v: operands have dtypes %v and %v; the plan must cast them to one", n.Op, argDT(0), argDT(i))
			}
		}
		k, natural, err = kernel(n, argDT(0))
		if err == nil && n.WarnIntDiv && (n.Op == backend.OpFloorDiv || n.Op == backend.OpMod) && argDT(0).IsInt() &&
			!quietDivisor(n.Args[1]) {
			k = f.r.warnIntDiv(k, n.Op)
		}
	}
	if err != nil {
		return nil, err
	}
	o := f.newOp()
	*o = op{id: f.id(), name: n.Op, ct: computeOf(natural), args: args, k: k,
		kNT: streamKernel(n.Op, computeOf(natural)), kpf: prefetchKernel(n.Op, computeOf(natural)),
		round: backend.RoundingFor(n.Op, natural)}
	if n.Op == backend.OpAbs && argDT(0) == dtypes.C32 {
		// |z| of a complex32 is computed in float32 (abs_kernel:
		// abs_impl(complex<float>)) and stored as float16.
		o.round = dtypes.F16
	}
	f.heavy = f.heavy || o.kpf != nil
	f.costly = f.costly || !cheapOp(n.Op, o.ct)
	f.split = f.split || splitOp(n, o.ct)
	f.wide = max(f.wide, o.ct.Size())
	var node fnode = o
	if natural != n.DType {
		// The plan asks for another result dtype than the operation
		// gives (say, a float16 result of a float32 computation):
		// convert, rounding once.
		c := &op{id: f.id(), name: backend.OpCast, ct: computeOf(n.DType), args: []fnode{node}}
		if c.k, err = castKernel(natural, n.DType); err != nil {
			return nil, err
		}
		node = c
	}
	return node, nil
}

// staticMax is the number of bytes a worker reads and writes up to which
// a tree of cheap operations gives each worker one range (the same part
// of the operands and result each time) rather than ranges of grainSize
// taken in turn: data a statement used before is then mostly in the
// cache of the core that reads it again. On the Xeon guest (2 MB of L2 a
// core), x & y of 10^6 int8 (3 MB) 0.095 → 0.074 ms, x < y 0.10 → 0.07,
// int16 h + h (6 MB) 0.13 → 0.11; from 8 MB (float32 g * 2, g + g 12 MB)
// the same or slower.
const staticMax = 3 << 20

// serialMax is, on machines where a second core brings no bandwidth for
// data in the cache (see serialLimits), the number of bytes a tree of
// cheap operations (cheapOp)
// reads and writes below which one goroutine evaluates it: such a tree is
// bound by memory, and on the project's 2-vCPU machine a second core
// brings no bandwidth for data in the cache (x + y on 10^6 int8, 3 MB:
// 38 µs on one core, 43 µs split over two) while waking it costs more
// (bench/matrix: 0.058 ms with one worker against 0.075–0.1 ms with two).
// Up to 10 MB one worker is still faster (-x and casts to float32 of 10^6
// elements, 5–8 MB: 0.07–0.10 ms against 0.10–0.13 ms on two); from 12
// MB (x + y on 10^6 int32) two workers are as fast or faster (0.15 ms
// either way, 0.16 against 0.20 ms in another run), as they are for every
// compute-bound tree.
const serialMax = 10 << 20

// cheapOp reports whether op on compute type ct costs a few vector
// instructions per element (see serialMax).
func cheapOp(op backend.Op, ct ctype) bool {
	if ct == ctC64 || ct == ctC128 {
		return false
	}
	switch op {
	case backend.OpCast, backend.OpNeg, backend.OpAbs, backend.OpInvert, backend.OpNot, backend.OpRelu,
		backend.OpFloor, backend.OpCeil, backend.OpRoundEven, backend.OpTrunc,
		backend.OpIsNaN, backend.OpIsInf, backend.OpIsFinite, backend.OpSign, backend.OpSquare,
		backend.OpAdd, backend.OpSub, backend.OpMul, backend.OpMax, backend.OpMin,
		backend.OpEq, backend.OpNe, backend.OpLt, backend.OpLe, backend.OpGt, backend.OpGe,
		backend.OpBitAnd, backend.OpBitOr, backend.OpBitXor, backend.OpShl, backend.OpShr,
		backend.OpAnd, backend.OpOr, backend.OpWhere:
		return true
	}
	return false
}

// grain sets the tree's block length and returns the length of the
// ranges in which Elementwise evaluates it into a result of dtype dt.
func (f *fusion) grain(dt dtypes.DType) int {
	flat := f.flat()
	if flat {
		f.block = flatBlock
		for _, l := range f.leaves {
			if l.constant {
				f.block = min(f.block, max(blockSize/4, flatConstBytes/l.ct.Size()))
			}
		}
	} else if b := f.tiledBlock(); b > 0 {
		f.block = b
	} else if !f.split && f.wide > 0 && f.hasConstant() {
		f.block = min(blockSize, max(blockSize/4, chainBlockBytes/f.wide))
	}
	size, r := f.size, f.r
	grain := grainSize
	if f.block > 0 {
		// Ranges of whole blocks: every block of a tiled or row tree
		// then starts a row, and a row leaf is filled once per worker.
		grain = max(1, grainSize/f.block) * f.block
	}
	if b := f.serialBytes(dt); !f.costly && b >= 0 && (b < serialMin || b < serialLimit(r.workers())) {
		grain = size // one range, on the calling goroutine
	} else if nw := r.workers(); !f.costly && b >= 0 && b <= nw*staticMax {
		// One range a worker (see staticMax), of whole blocks where the
		// tree has a block length (see above).
		unit := 4096
		if f.block > 0 {
			unit = f.block
		}
		grain = ((size+nw-1)/nw + unit - 1) / unit * unit
	}
	if nw := r.workers(); f.split && nw > 1 && size >= splitMin && size < grainSize*nw {
		// Equal ranges, one a worker but of splitMin/2 elements at
		// least (of whole blocks where the tree is tiled), rather than
		// one range of grainSize and a rest.
		unit := 64
		if f.block > 0 && !flat {
			unit = f.block
		}
		grain = (max(splitMin/2, (size+nw-1)/nw) + unit - 1) / unit * unit
	}
	return grain
}

// splitMin is the number of elements from which a tree with a splitOp
// is split into equal ranges over the workers, rather than evaluated in
// ranges of grainSize (one range, on one worker, up to 65536 elements).
// Such an operation takes 1-5 ns an element on one core of the Xeon
// guest, so 8192 elements are 8-40 µs of work, against the microseconds
// that handing a range to the second worker costs. Ten-thousand-element
// statements (1-2 ns for the cheapest functions, float32 and float64
// exp, neutral): float64 p ** 1.5 42.6 → 33.4 µs, tanh 25.6 → 14.2,
// log 14.4 → 9.9; float32 arctan 17.4 → 11.2, x ** y 16.3 → 12.0; and
// float64 exp of 10^5 elements (ranges of 65536 and 34464 before) 61 →
// 51 µs. Division, float32 square roots and complex products, which are
// not splitOps, lost (float32 x / y on 10^4 elements 3.9 → 5.7 µs);
// float64 square roots, about 1.3 ns an element (the one square-root unit
// each core has), gain: sqrt of 10^4 elements 13.0 → 10.0 µs, x ** -0.5
// 29 → 19.6, rsqrt 20 → 14.
const splitMin = 8192

// splitOp reports whether the operation of n on compute type ct costs
// tens of vector instructions an element or more (see splitMin): the
// functions of libm and their compositions on floats and complex
// numbers wider than 16 bits, powers but for the constant exponents
// that have short loops (small integers, float32 ±1/2 and 1.5), and
// float64 square roots.
func splitOp(n *backend.Node, ct ctype) bool {
	if ct != ctF32 && ct != ctF64 && ct != ctC64 && ct != ctC128 || backend.ElemSize(n.Args[0].DType) < 4 {
		return false // and 16- and 8-bit floats (tables and conversions: float16 exp of 10^4 7.3 → 10.1 µs)
	}
	switch n.Op {
	case backend.OpExp, backend.OpLog, backend.OpLog1p, backend.OpSin, backend.OpCos, backend.OpTanh,
		backend.OpErf, backend.OpSigmoid, backend.OpSilu, backend.OpGelu, backend.OpTan,
		backend.OpAsin, backend.OpAcos, backend.OpAtan, backend.OpSinh, backend.OpCosh,
		backend.OpAsinh, backend.OpAcosh, backend.OpAtanh, backend.OpLog2, backend.OpLog10,
		backend.OpExp2, backend.OpExpm1, backend.OpAtan2:
		return true
	case backend.OpPow:
		y, ok := constExponent(n)
		short := ok && (y == math.Trunc(y) && math.Abs(y) <= 4 || math.Abs(y) == 0.5 && ct != ctF64 || y == 1.5 && ct == ctF32)
		return !short
	case backend.OpSqrt, backend.OpRsqrt:
		return ct == ctF64
	}
	return false
}

// serialBytes returns how many bytes evaluating the tree reads from its
// leaves and writes to a result of dtype dt, or -1 when some leaf is
// gathered or transposed (work the second core shares even in the cache).
func (f *fusion) serialBytes(dt dtypes.DType) int {
	n := f.size * backend.ElemSize(dt)
	for _, l := range f.leaves {
		switch {
		case l.constant:
		case l.direct || l.row || l.rowsContig:
			n += f.size * backend.ElemSize(l.v.dtype)
		default:
			return -1
		}
	}
	return n
}

// flatBlock is the block length of a flat tree (see flat): 4× blockSize,
// so that a statement such as x + y on 10^6 elements makes 61 kernel calls
// per worker rather than 245, each with its buffers' interface values.
const flatBlock = 4 * blockSize

// flatConstBytes bounds the block of a flat tree with a constant leaf:
// the constant's block is read by every kernel call, and at flatBlock
// elements it is 64 kB of float32, more than the L1 cache, so its reads
// compete with the operand's. On the AMD EPYC guest (Zen 5) x * 2 on
// 10^6 float32 took 102-105 µs with blocks of 16384, 82-86 with 2048
// (8 kB) or 4096; x << 3 on int32 107-108 → 83-88; float64 x * 2 108-112
// → 91-102 (three alternating runs each).
const flatConstBytes = 8 << 10

// chainBlockBytes bounds the blocks of a tree of several operations
// with a constant leaf and without a function of libm (a splitOp), by
// its widest compute type: at blockSize elements a constant's block of
// float32 is 16 kB, and with the intermediate results held in L1 while
// the operands' blocks stream through it, it overflowed the L1 cache of
// the AMD EPYC guest (48 kB), as for flat trees (flatConstBytes). On 2^20
// elements, medians of five alternating runs, one worker and two: x * 2
// + 1 of float32 221 → 178 µs and 183 → 200 (two workers spread 110–237),
// (x - 1) / (x + 1) 300 → 235 and 229 → 202, float64 x * 2 + 1 (1024
// elements) 674 → 541 and 335 → 306. Trees without a constant (a*b + c:
// 182 → 221 µs on two workers at 2048) and with a splitOp (tanh(a*2 +
// b)*c, bound by its instructions) keep blockSize.
const chainBlockBytes = 8 << 10

// hasConstant reports whether some leaf of the tree is a constant.
func (f *fusion) hasConstant() bool {
	for _, l := range f.leaves {
		if l.constant {
			return true
		}
	}
	return false
}

// flat reports whether the tree is one operation on operands read in
// place or broadcast from one value: it needs no scratch buffer but a
// constant's, and longer blocks only save calls.
func (f *fusion) flat() bool {
	if f.nodes != len(f.leaves)+1 || f.heavy {
		return false
	}
	for _, l := range f.leaves {
		if !l.direct && !l.constant {
			return false
		}
	}
	return true
}

// workerPool keeps the workers of finished statements, with their
// slices, for the next ones.
var workerPool sync.Pool // *worker

// newWorker returns scratch space for one goroutine evaluating f (after
// coalesce).
func (f *fusion) newWorker() *worker {
	block := blockSize
	if f.block > 0 {
		block = f.block
	}
	w, _ := workerPool.Get().(*worker)
	if w == nil {
		w = new(worker)
	}
	w.block = min(block, max(1, f.size))
	w.bufs = cleared(w.bufs, f.nodes)
	w.cts = cleared(w.cts, f.nodes)
	w.filled = cleared(w.filled, f.nodes)
	for i := range w.filled {
		w.filled[i] = -1
	}
	if f.shared {
		w.memo = cleared(w.memo, f.nodes)
	}
	for _, l := range f.leaves {
		if l.constant {
			if b := constBuf(l, w.block); b != nil {
				w.bufs[l.id], w.cts[l.id] = w.anys(1), ctShared
				w.bufs[l.id][0] = b
			}
		}
	}
	return w
}

// keptBoxMax is the size in bytes of the largest storage a pooled
// worker's box may keep reachable.
const keptBoxMax = 64 << 10

// release puts w, emptied, in workerPool.
func (w *worker) release() {
	clear(w.bufs)
	clear(w.anyMem)
	w.anyMem = w.anyMem[:0]
	clear(w.memo)
	clear(w.pf[:cap(w.pf)])
	for _, b := range w.boxes {
		// A box of small storage (the operands and result of a small
		// statement, likely the next one's) is kept; larger storage
		// must not stay reachable from the pool: the box is kept
		// empty.
		if b != nil && b.n*int(b.size) > keptBoxMax {
			b.drop()
		}
	}
	w.memo, w.pf = w.memo[:0], w.pf[:0]
	workerPool.Put(w)
}

// cleared returns s with length n and zero elements, reusing its array
// when it is large enough.
func cleared[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	s = s[:n]
	clear(s)
	return s
}

func (f *fusion) id() int {
	f.nodes++
	return f.nodes - 1
}

// leafOf evaluates n outside the tree and returns a leaf reading it.
func (f *fusion) leafOf(n *backend.Node) (fnode, error) {
	if l := f.leafFrom(n); l != nil {
		// The same operand again (x * x, where(x > y, x, y)): one leaf,
		// whose block is read once (see leaf.eval).
		l.uses++
		f.shared = true
		return l, nil
	}
	v, err := f.r.eval(n)
	if err != nil {
		return nil, err
	}
	if v, err = f.r.widenBroadcast(v, f.root.Shape); err != nil {
		return nil, err
	}
	s, err := v.Layout().AppendBroadcastStrides(f.alloc(len(f.root.Shape))[:0], f.root.Shape)
	if err != nil {
		return nil, fmt.Errorf("cpu: %v: operand: %v", f.root.Op, err)
	}
	var l *leaf
	if i := len(f.leaves); i < len(f.leafMem) {
		l = &f.leafMem[i]
	} else {
		l = new(leaf)
	}
	*l = leaf{id: f.id(), node: n, v: v, ct: computeOf(v.dtype), f: f, strides: s, uses: 1}
	f.wide = max(f.wide, l.ct.Size())
	f.leaves = append(f.leaves, l)
	switch {
	case f.leafFor != nil:
		f.leafFor[n] = l
	case len(f.leaves) > leafScan:
		f.leafFor = make(map[*backend.Node]*leaf, 2*len(f.leaves))
		for _, l := range f.leaves {
			f.leafFor[l.node] = l
		}
	}
	return l, nil
}

// widenMin is the fewest elements of a narrow float operand that
// widenBroadcast converts ahead (a scalar stays a constant leaf).
const widenMin = 64

// widenBroadcast returns v, a contiguous operand stored narrower than its
// float32 compute type (float16, bfloat16, the 8-bit floats) and
// broadcast to a shape at least four times its size, converted to a
// float32 view of the same shape, once: the fused blocks read it as
// float32, where they converted each block's elements, a short run at a
// time (float16 p < q with p 100×100×1 and q 1×100×100: 1.0 ms, the
// same in float32 0.15). The values are the ones a block's conversion
// gives (loadSeg's); other operands are returned as they are.
func (r *runner) widenBroadcast(v *view, shape []int) (*view, error) {
	if identityStorage(v.dtype) || computeOf(v.dtype) != ctF32 {
		return v, nil
	}
	n := v.size()
	if n < widenMin || backend.Size(shape) < 4*n || !v.contiguous() {
		return v, nil
	}
	buf, err := r.allocBufFull(ctF32, n)
	if err != nil {
		return nil, err
	}
	loadSeg(v.dtype, buf, v.data, v.off, 1, n)
	return r.newView(dtypes.F32, buf, v.shape), nil
}

// leafFrom returns the leaf of the operand n, or nil when there is none.
func (f *fusion) leafFrom(n *backend.Node) *leaf {
	if f.leafFor != nil {
		return f.leafFor[n]
	}
	for _, l := range f.leaves {
		if l.node == n {
			return l
		}
	}
	return nil
}

// coalesce merges the axes of the fused shape that every leaf walks as
// one, so that contiguous operands are read in long runs (or not copied at
// all).
func (f *fusion) coalesce() {
	var stMem [4][]int
	st := stMem[:0]
	for _, l := range f.leaves {
		st = append(st, l.strides)
	}
	shape := f.alloc(len(f.root.Shape))
	copy(shape, f.root.Shape)
	n := backend.CoalesceInPlace(shape, st)
	if n == 0 {
		shape = []int{1}
		for i := range st {
			st[i] = append(st[i][:0], 0)
		}
	} else {
		shape = shape[:n]
		for i := range st {
			st[i] = st[i][:n]
		}
	}
	f.shape = shape
	for i, l := range f.leaves {
		l.strides = st[i]
		l.direct = len(shape) == 1 && st[i][0] == 1 && identityStorage(l.v.dtype)
		l.constant = true
		for _, s := range st[i] {
			l.constant = l.constant && s == 0
		}
		n := len(shape)
		l.tiled = n >= 2 && st[i][n-2] == 1 && st[i][n-1] > 1
		l.rowsContig = n >= 2 && st[i][n-1] == 1 && st[i][n-2] == shape[n-1] && identityStorage(l.v.dtype)
		l.row = n >= 2 && st[i][n-1] == 1
		for _, s := range st[i][:n-1] {
			l.row = l.row && s == 0
		}
	}
}

// tiledBlock returns the block length for a tree with a tiled or a row
// leaf: whole rows, about flatBlock elements, so that each tile's source
// lines are read once and a row leaf's block is the same for most blocks;
// 0 where there is none or rows are long.
func (f *fusion) tiledBlock() int {
	rowLen := f.shape[len(f.shape)-1]
	if rowLen >= minRow {
		return 0
	}
	for _, l := range f.leaves {
		if l.tiled || l.row {
			return max(1, flatBlock/rowLen) * rowLen
		}
	}
	for _, l := range f.leaves {
		if l.rowsContig {
			return groupBlock(f.shape[len(f.shape)-2], rowLen)
		}
	}
	return 0
}

// groupBlock returns the block length for a tree with a rowsContig leaf
// (q of p + q, p of shape (l, m, 1) and q of (1, m, n), n short): whole
// rows, as many as the largest divisor of the group's m rows that keeps a
// block within flatBlock elements, so that no block straddles two groups
// and the leaf is read in place rather than copied; the rows of a column
// operand (p) are then filled whole. It returns 0, the default block,
// where that divisor would give blocks shorter than blockSize/2.
func groupBlock(group, rowLen int) int {
	most := max(1, flatBlock/rowLen)
	for k := min(group, most); k >= 1; k-- {
		if group%k == 0 {
			if k*rowLen < blockSize/2 {
				return 0
			}
			return k * rowLen
		}
	}
	return 0
}

// f16TableMin is the number of elements from which a chain of float32
// operations on one contiguous float16 operand with a float16 result (or
// bfloat16 with bfloat16) is computed through a table of its 65536
// results (f16ChainTable): making the table costs about as much as
// computing 50k–100k elements.
const f16TableMin = 100_000

// f16Leaf returns the leaf of a tree (after coalesce) that is a chain of
// one-operand float32 operations on one contiguous float16 leaf, with a
// float16 result (exp(x), tanh(x) of a float16 x), or the same in
// bfloat16, or nil; nil too when every operation of the chain is cheap.
// (A bfloat16 chain computed took 4–7 times the float16 one looked up.)
func (f *fusion) f16Leaf(root fnode) *leaf {
	if d := f.root.DType; d != dtypes.F16 && d != dtypes.BF16 {
		return nil
	}
	// One leaf that is not a constant (x of exp(x - 1)).
	var l *leaf
	for _, c := range f.leaves {
		if !c.constant {
			if l != nil {
				return nil
			}
			l = c
		}
	}
	if l == nil || l.v.dtype != f.root.DType || l.uses != 1 {
		return nil
	}
	// Contiguous, or transposed (read tile by tile: see lookupTiled).
	if !(len(f.shape) == 1 && l.strides[0] == 1 || len(f.shape) == 2 && l.tiled) {
		return nil
	}
	costly := false
	for n := root; n != fnode(l); {
		o, ok := n.(*op)
		if !ok || o.ct != ctF32 {
			return nil
		}
		next := chainArg(o)
		if next == nil {
			return nil
		}
		costly = costly || !cheapOp(o.name, o.ct) && o.name != backend.OpSqrt
		n = next
	}
	if !costly && !gatherLookups() {
		// A few vector instructions per element (abs, floor, sqrt)
		// beat the table's scalar lookups (abs on 10^6 elements:
		// 0.24 ms CPU against 0.37 ms looked up in a kept table);
		// gathered sixteen at a time, the table wins (abs, neg,
		// sqrt, square: 0.17-0.30 ms against 0.33-0.56 ms).
		return nil
	}
	return l
}

// chainArg returns the operand of o that a float16 chain goes on through:
// its only one, or the one that is not a constant leaf of a binary
// operation (x - 1); nil otherwise.
func chainArg(o *op) fnode {
	switch len(o.args) {
	case 1:
		return o.args[0]
	case 2:
		c0, ok0 := o.args[0].(*leaf)
		c1, ok1 := o.args[1].(*leaf)
		switch {
		case ok1 && c1.constant && !(ok0 && c0.constant):
			return o.args[0]
		case ok0 && c0.constant && !(ok1 && c1.constant):
			return o.args[1]
		}
	}
	return nil
}

// f16TreeTable returns the bits of the chain root (see f16Leaf) for each
// bits of its leaf l, both of dtype d (float16 or bfloat16), or nil when
// a kernel fails:
// each entry is computed as a block of the tree is (the leaf's bits
// converted with loadSeg, each node's kernel, its rounding, and the
// result converted with storeSeg), so the bits are the tree's. A
// constant operand (see chainArg) fills its lanes with its value.
func f16TreeTable(d dtypes.DType, root fnode, l *leaf) *[1 << 16]uint16 {
	h := make([]uint16, 1<<16)
	for i := range h {
		h[i] = uint16(i)
	}
	x := make([]float32, 1<<16)
	loadSeg(d, x, h, 0, 1, len(x))
	var eval func(n fnode) []float32
	eval = func(n fnode) []float32 {
		if n == fnode(l) {
			return x
		}
		o := n.(*op)
		args := make([]any, len(o.args))
		for i, arg := range o.args {
			if c, ok := arg.(*leaf); ok && c.constant && c != l {
				// A constant operand: its value in every lane.
				v := make([]float32, len(x))
				loadSeg(c.v.dtype, v, c.v.data, c.v.off, 0, len(v))
				args[i] = v
				continue
			}
			a := eval(arg)
			if a == nil {
				return nil
			}
			args[i] = a
		}
		d := make([]float32, len(x))
		if err := o.k(d, args); err != nil {
			return nil
		}
		if o.round != dtypes.Invalid {
			roundBuf(o.round, d)
		}
		return d
	}
	r := eval(root)
	if r == nil {
		return nil
	}
	t := new([1 << 16]uint16)
	storeSeg(d, t[:], 0, r)
	return t
}

// f16ChainMax is the longest chain whose table f16Tables keeps.
const f16ChainMax = 4

// An f16Chain names a chain of operations (see f16Leaf) from the root
// down: its dtype, operations, their roundings and constant operands.
type f16Chain struct {
	dt     dtypes.DType
	n      int
	ops    [f16ChainMax]backend.Op
	round  [f16ChainMax]dtypes.DType
	consts [f16ChainMax]f16Const
}

// An f16Const is the constant operand of a binary operation of an
// f16Chain: its dtype, its value's float32 bits (as the kernels read it),
// and its side (1 the first operand, 2 the second).
type f16Const struct {
	dt   dtypes.DType
	bits uint32
	side int8
}

// f16ConstMax is how many tables of chains with a constant operand
// f16Tables keeps (128 kB each; a statement with a new constant makes
// its table again past them), f16ConstTables how many were made.
const f16ConstMax = 64

var f16ConstTables atomic.Int32

// f16Tables holds the table (*[1 << 16]uint16) of each f16Chain, made
// the first time such a tree is looked up: the kernels of a chain of
// float32 operations without parameters (libmRef's, sqrt and rsqrt) are
// the same for every tree, and making the table costs about as much as
// looking up 10^6 elements.
var f16Tables sync.Map

// f16ChainTable returns the table of the chain root (see f16TreeTable),
// from f16Tables where the chain is short enough to be kept there.
func f16ChainTable(root fnode, l *leaf) *[1 << 16]uint16 {
	c := f16Chain{dt: l.v.dtype}
	for n := root; n != fnode(l); n = chainArg(n.(*op)) {
		if c.n == f16ChainMax {
			return f16TreeTable(c.dt, root, l)
		}
		o := n.(*op)
		if o.name == backend.OpCast {
			// A cast, whose kernel depends on more than its name
			// and dtypes: not kept. (Every other operation's
			// kernel is chosen by its name, dtypes and constant
			// operand; tan, arcsin, expm1 … are kept, where each
			// statement made its table before: tan of 10^6
			// float16 1.9 ms, most of it the table.)
			return f16TreeTable(c.dt, root, l)
		}
		if len(o.args) == 2 {
			// x - 1, 2 ** x: the constant, its dtype and its side.
			side := 1
			if o.args[1] == chainArg(o) {
				side = 0
			}
			k := o.args[side].(*leaf).v
			v := make([]float32, 1)
			loadSeg(k.dtype, v, k.data, k.off, 0, 1)
			c.consts[c.n] = f16Const{dt: k.dtype, bits: math.Float32bits(v[0]), side: int8(side + 1)}
		}
		c.ops[c.n], c.round[c.n] = o.name, o.round
		c.n++
	}
	if t, ok := f16Tables.Load(c); ok {
		return t.(*[1 << 16]uint16)
	}
	t := f16TreeTable(c.dt, root, l)
	if t == nil {
		return nil
	}
	if c.consts == ([f16ChainMax]f16Const{}) || f16ConstTables.Add(1) <= f16ConstMax {
		f16Tables.Store(c, t)
	}
	return t
}

// lookupTiled is lookupF16 for a transposed float16 leaf l: its bits for
// the result's positions [off, off+len(d)) are transposed a chunk at a
// time (transposeBlock, as readTiled does) and looked up. exp or tanh of
// transpose(x) took 2-4 times the contiguous time, converted to float32
// and computed.
func lookupTiled(d []uint16, l *leaf, off int, t *[1 << 16]uint16) {
	// Chunks of the tiled block (whole rows, about flatBlock elements):
	// fewer rows would leave the tiles to the scalar loop.
	b, release := pooled[uint16](&rawPool16, max(1, min(l.f.block, len(d))))
	defer release()
	buf := b.([]uint16)
	for done := 0; done < len(d); {
		n := min(len(buf), len(d)-done)
		l.transposeBlock(buf[:n], off+done, n)
		lookupF16(d[done:done+n], buf[:n], t)
		done += n
	}
}

// lookupF16 sets d[i] = t[a[i]], sixteen at a time with AVX-512's
// gather where that measured faster than lookupScalar (gatherFaster: on
// the Xeon guest the gather took 0.25 against 0.5-0.9 ns an element for a
// scalar loop, one core; on the AMD EPYC guest, Zen 5, 0.29 against 0.21
// for lookupScalar).
func lookupF16(d, a []uint16, t *[1 << 16]uint16) {
	a = a[:len(d)]
	i := 0
	if gatherFaster() {
		i = lookup16(d, a, t)
	}
	lookupScalar(d[i:], a[i:], t)
}

// lookupScalar sets d[i] = t[a[i]], four a step.
func lookupScalar(d, a []uint16, t *[1 << 16]uint16) {
	a = a[:len(d)]
	i := 0
	for ; i+4 <= len(a); i += 4 {
		v0, v1, v2, v3 := a[i], a[i+1], a[i+2], a[i+3]
		d[i], d[i+1], d[i+2], d[i+3] = t[v0], t[v1], t[v2], t[v3]
	}
	for ; i < len(a); i++ {
		d[i] = t[a[i]]
	}
}

// gatherFaster reports whether lookup16 (AVX-512's gather) looked up
// 16384 indices into a few kB of a table faster than lookupScalar, the
// best of five runs each (about 0.1 ms, measured once); false without
// AVX-512.
var gatherFaster = sync.OnceValue(func() bool {
	if !gatherLookups() {
		return false
	}
	t := new([1 << 16]uint16)
	a, d := make([]uint16, 1<<14), make([]uint16, 1<<14)
	for i := range a {
		a[i] = uint16(0x3800 + i*7919%1536) // float16 from 0.5 to 1.75
	}
	return bestTime(5, func() { lookup16(d, a, t) }) < bestTime(5, func() { lookupScalar(d, a, t) })
})

// quietDivisor reports whether the divisor d of an integer floor division
// or modulo is one constant that no dividend can make NumPy warn about:
// neither 0 nor -1 (MIN // -1 overflows). x // 7 then skips the scan for
// warnings, which read both operands again (a third of its time).
func quietDivisor(d *backend.Node) bool {
	if d.Op != backend.OpInput || d.Tensor == nil || backend.Size(d.Tensor.Shape) != 1 ||
		backend.CheckStorage(d.Tensor.DType, d.Tensor.Data, 1) != nil {
		return false
	}
	var v int64
	switch x := d.Tensor.Data.(type) {
	case []int8:
		v = int64(x[0])
	case []int16:
		v = int64(x[0])
	case []int32:
		v = int64(x[0])
	case []int64:
		v = x[0]
	case []uint8:
		v = int64(x[0])
	case []uint16:
		v = int64(x[0])
	case []uint32:
		v = int64(x[0])
	case []uint64:
		if x[0] == 0 {
			return false
		}
		return true // unsigned: only 0 warns
	default:
		return false
	}
	return v != 0 && v != -1
}
