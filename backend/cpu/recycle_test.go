package cpu

import (
	"context"
	"math/rand"
	"slices"
	"testing"
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

// TestRecycleEvicts checks the recycler's limit: over it, the blocks
// given back longest ago go, whatever their size, so that a size still in
// use is kept after others filled the limit (products of 2000×2000
// filled it with blocks no later statement asked for, and every 8 MB
// result of a batch of products then landed on fresh pages).
func TestRecycleEvicts(t *testing.T) {
	const kb = 1 << 10
	r := &recycler{free: map[uintptr][]block{}, issued: map[uintptr]issuance{}, limit: 80 * kb}
	get := func(size int) []byte { return unsafe.Slice((*byte)(r.bytes(size)), size) }
	held := func() (sizes []int) {
		for n, bs := range r.free {
			for range bs {
				sizes = append(sizes, int(n/kb))
			}
		}
		slices.Sort(sizes)
		return sizes
	}
	// Every block is handed out before any is given back (bytes would
	// hand a block given back out again).
	big := []([]byte){get(24 * kb), get(24 * kb), get(16 * kb)}
	small, mid, huge := get(8*kb), get(16*kb), get(128*kb)
	for _, b := range big {
		if !r.put(b) {
			t.Fatalf("a block of %d bytes was refused under the limit", len(b))
		}
	}
	if got := held(); !slices.Equal(got, []int{16, 24, 24}) {
		t.Fatalf("kept %v kB, want [16 24 24]", got)
	}
	// 8 kB more fit; 16 kB more push out the first 24.
	if !r.put(small) || !slices.Equal(held(), []int{8, 16, 24, 24}) {
		t.Fatalf("kept %v kB after 8 more, want [8 16 24 24]", held())
	}
	if !r.put(mid) {
		t.Fatal("a block of 16 kB was refused: the older blocks were not given up")
	}
	if got := held(); !slices.Equal(got, []int{8, 16, 16, 24}) || r.held != 64*kb {
		t.Errorf("kept %v kB (%d bytes), want [8 16 16 24] (65536)", got, r.held)
	}
	if p := r.bytes(24 * kb); p != unsafe.Pointer(&big[1][0]) {
		t.Errorf("the 24 kB block reused is not the one given back second")
	}
	// A block over the limit is refused and drops nothing.
	if r.put(huge) || !slices.Equal(held(), []int{8, 16, 16}) {
		t.Errorf("a block over the limit: kept %v kB, want [8 16 16]", held())
	}
}

// TestRecycleTemps checks that a Run gives back the blocks of its
// intermediate results, and only those: a sum over a transposed matrix
// (whose copy is a compute buffer) and a product with a transposed
// operand leave that copy in the recycler, the next Run of the same
// shapes takes it, and neither result changes when later Runs reuse the
// memory. A Run whose result is its one block gives nothing back.
func TestRecycleTemps(t *testing.T) {
	const r, c = 48, 40 // 7680 bytes of float32
	vals := make([]float64, r*c)
	for i := range vals {
		vals[i] = float64(i%97) - 40
	}
	m := in(mk(dtypes.F32, []int{r, c}, vals...))
	m2 := in(mk(dtypes.F32, []int{r, c}, vals...))
	tr := &backend.Node{Op: backend.OpTranspose, DType: dtypes.F32, Shape: []int{c, r}, Axes: []int{1, 0}, Args: []*backend.Node{m}}
	sum := red(backend.OpSum, dtypes.F32, tr, false, 0)
	// transpose(m) @ m2, not @ m: a symmetric product reads m in place
	// (mmGeom.aT) and makes no copy.
	prod := &backend.Node{Op: backend.OpMatMul, DType: dtypes.F32, Shape: []int{c, c}, Args: []*backend.Node{tr, m2}}
	free := func() int {
		recycled.mu.Lock()
		defer recycled.mu.Unlock()
		return len(recycled.free[r*c*4])
	}
	drain := func() { // blocks of this size other Runs gave back
		for free() > 0 {
			newStorageFull(dtypes.F32, r*c)
		}
	}
	for _, n := range []*backend.Node{sum, prod} {
		drain()
		first := run(t, n)
		if got := free(); got != 1 {
			t.Errorf("%v: %d blocks of the transposed copy's size free after a Run, want 1", n.Op, got)
		}
		want := slices.Clone(vals32(first))
		second := run(t, n) // takes that block and gives it back
		if got := free(); got != 1 {
			t.Errorf("%v: %d blocks free after the next Run, want 1", n.Op, got)
		}
		for range 3 {
			run(t, sum)
			run(t, prod)
		}
		if !slices.Equal(vals32(first), want) || !slices.Equal(vals32(second), want) {
			t.Errorf("%v: a result changed when later Runs reused memory", n.Op)
		}
	}
	// An elementwise result is the Run's one block: it stays the result's.
	drain()
	res := run(t, nb(backend.OpAdd, m, m))
	if got := free(); got != 0 {
		t.Errorf("an elementwise Run gave back %d blocks, want none", got)
	}
	for i, v := range vals32(res) {
		if v != float32(2*vals[i]) {
			t.Fatalf("x + x [%d] = %v, want %v", i, v, 2*vals[i])
		}
	}
}

// vals32 returns the float32 storage of a tensor.
func vals32(t *backend.Tensor) []float32 { return t.Data.([]float32) }

// TestRunnerReuse: a Run takes its runner (its inline views, fusion and
// loop) from runners, where the Run before left it. A result keeps its
// shape and values while later Runs reuse the runner, and a Run's integer
// division warning is not carried into the next Run.
func TestRunnerReuse(t *testing.T) {
	b, ctx := New(), context.Background()
	x := in(mk(dtypes.I32, []int{2, 3}, 1, 2, 3, 4, 5, 6))
	first, err := b.Run(ctx, nb(backend.OpMul, x, in(mk(dtypes.I32, []int{}, 2))))
	if err != nil {
		t.Fatal(err)
	}
	for i := range 50 {
		// Other shapes and dtypes, through the same pooled runner.
		y := in(mk(dtypes.F64, []int{5, 1, 4}, seq(20, float64(i), 1)...))
		z := in(mk(dtypes.F64, []int{1, 3, 1}, 1, 2, 3))
		res, err := b.Run(ctx, nb(backend.OpAdd, y, z))
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(res.Shape, []int{5, 3, 4}) || vals(res)[13] != float64(i)+1+3+2 {
			t.Fatalf("run %d: %v %v", i, res.Shape, vals(res))
		}
	}
	if !slices.Equal(first.Shape, []int{2, 3}) || !sameAll(vals(first), []float64{2, 4, 6, 8, 10, 12}) {
		t.Errorf("the first result became %v %v", first.Shape, vals(first))
	}

	div := func(divisor float64) error {
		n := nb(backend.OpFloorDiv, in(mk(dtypes.I32, []int{2}, 7, 8)), in(mk(dtypes.I32, []int{2}, divisor, 2)))
		n.WarnIntDiv = true
		_, err := b.Run(ctx, n)
		return err
	}
	if err := div(0); err == nil {
		t.Fatal("7 // 0 gave no warning")
	}
	for range 3 {
		if err := div(3); err != nil {
			t.Errorf("7 // 3 after 7 // 0: %v", err)
		}
	}
}

// TestIntReduceRecycles checks that the integer sums of intReduce (sum
// and mean of int32 along a leading axis) come from the recycler: the
// int64 sums of a mean are given back after the Run (its float64 result
// kept), and results held stay unchanged while later Runs reuse memory.
func TestIntReduceRecycles(t *testing.T) {
	const a, b, c = 30, 20, 50 // sums of 20·50 int64: 8000 bytes
	vals := make([]float64, a*b*c)
	for i := range vals {
		vals[i] = float64(i%101) - 50
	}
	m := in(mk(dtypes.I32, []int{a, b, c}, vals...))
	sum := red(backend.OpSum, dtypes.I64, m, false, 0)
	mean := red(backend.OpMean, dtypes.F64, m, false, 0)
	free := func() int {
		recycled.mu.Lock()
		defer recycled.mu.Unlock()
		return len(recycled.free[b*c*8])
	}
	for free() > 0 { // blocks of this size other Runs gave back
		newStorageFull(dtypes.I64, b*c)
	}
	s1 := run(t, sum)
	m1 := run(t, mean)
	if got := free(); got != 1 {
		t.Errorf("%d blocks of the sums' size free after a mean, want 1 (the sums)", got)
	}
	want := make([]int64, b*c)
	for i := range a {
		for j := range b * c {
			want[j] += int64(vals[i*b*c+j])
		}
	}
	wantS, wantM := slices.Clone(s1.Data.([]int64)), slices.Clone(m1.Data.([]float64))
	for range 3 {
		run(t, mean)
		run(t, sum)
	}
	for j := range want {
		if s1.Data.([]int64)[j] != want[j] || wantS[j] != want[j] {
			t.Fatalf("sum column %d: %d (first %d), want %d", j, s1.Data.([]int64)[j], wantS[j], want[j])
		}
		if m1.Data.([]float64)[j] != wantM[j] || wantM[j] != float64(want[j])/a {
			t.Fatalf("mean column %d: %v (first %v), want %v", j, m1.Data.([]float64)[j], wantM[j], float64(want[j])/a)
		}
	}
}

// fillFree fills every block the recycler holds with the byte b.
func fillFree(b byte) {
	recycled.mu.Lock()
	defer recycled.mu.Unlock()
	for size, bs := range recycled.free {
		for _, blk := range bs {
			s := unsafe.Slice((*byte)(blk.p), size)
			for i := range s {
				s[i] = b
			}
		}
	}
}

// TestReduceOnRecycledBlocks checks that the reductions write every
// element of the blocks they take from the recycler (tempOf, workerTemps:
// their results, the parts of rows folded by several workers, the
// workers' accumulators): each reduction runs three times, its result and
// every block the recycler holds filled with 0x00, 0x01 and 0x7F in turn
// before each run, and the three results must agree bit for bit. A
// result that came from one of the filled blocks (the first run's
// result, given back) shows the test reaches them.
func TestReduceOnRecycledBlocks(t *testing.T) {
	rng := rand.New(rand.NewSource(23))
	shapes := [][]int{{40, 30, 50}, {6, 3000}, {3000, 6}}
	ops := []backend.Op{backend.OpSum, backend.OpProd, backend.OpMean, backend.OpReduceMax, backend.OpReduceMin,
		backend.OpArgMax, backend.OpArgMin, backend.OpAny, backend.OpAll}
	reused := 0
	for _, d := range []dtypes.DType{dtypes.Bool, dtypes.I8, dtypes.I32, dtypes.I64, dtypes.F32, dtypes.F64} {
		for _, shape := range shapes {
			v := make([]float64, backend.Size(shape))
			for i := range v {
				v[i] = float64(rng.Intn(4)) // zeros for any and all
				if d == dtypes.Bool {
					v[i] = float64(rng.Intn(2))
				}
			}
			x := in(mk(d, shape, v...))
			axesOf := [][]int{nil, {0, len(shape) - 1}}
			for a := range shape {
				axesOf = append(axesOf, []int{a})
			}
			for _, axes := range axesOf {
				for _, o := range ops {
					rd := d
					switch {
					case o == backend.OpArgMax || o == backend.OpArgMin:
						if len(axes) != 1 {
							continue
						}
						rd = dtypes.I64
					case o == backend.OpAny || o == backend.OpAll:
						rd = dtypes.Bool
					case o == backend.OpMean:
						rd = dtypes.F64
					case d == dtypes.Bool:
						if o != backend.OpReduceMax && o != backend.OpReduceMin {
							rd = dtypes.I64
						}
					}
					node := red(o, rd, x, false, axes...)
					for _, w := range []int{1, 2} {
						var got [][]float64
						var last *backend.Tensor
						for _, b := range []byte{0x00, 0x01, 0x7F} {
							// The last result goes back to the recycler,
							// to be filled and taken again.
							var prev unsafe.Pointer
							if last != nil {
								if p, _, _ := backend.StorageSpan(last.Data); recycled.put(last.Data) {
									prev = p
								}
							}
							fillFree(b)
							last = run(t, node, Workers(w))
							if p, _, _ := backend.StorageSpan(last.Data); prev != nil && p == prev {
								reused++
							}
							got = append(got, vals(last))
						}
						if !sameAll(got[0], got[1]) || !sameAll(got[0], got[2]) {
							t.Fatalf("%v of %v%v along %v, %d workers: on blocks of 0x00 %v, 0x01 %v, 0x7F %v",
								o, d, shape, axes, w, head4(got[0]), head4(got[1]), head4(got[2]))
						}
					}
				}
			}
		}
	}
	t.Logf("%d results on a filled block", reused)
	if reused == 0 {
		t.Errorf("no result reused a filled block")
	}
}

// head4 returns the first four elements of v at most.
func head4(v []float64) []float64 { return v[:min(4, len(v))] }
