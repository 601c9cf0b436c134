package cpu

import (
	"context"
	"sync"
	"unsafe"
)

//go:generate go run gen_gemm.go

// The matrix product of real floats, C = A·B with A m×k and B k×n (row
// major), as a packed, cache-blocked, parallel GEMM in the manner of
// GotoBLAS and BLIS:
//
//   - A is packed into panels of mr rows and B into panels of nr columns,
//     each panel holding, block of kc values of p after block, its mr (nr)
//     elements for each p, zero-padded at the edges of the matrix (where
//     k is a single block and A needs no conversion, the kernel reads A's
//     whole panels in place, and only a last partial one is packed:
//     setDirect);
//   - a micro-kernel multiplies an A panel by a B panel into an mr×nr tile
//     of C held in registers (gemm_amd64.s: AVX-512 or AVX2; gemmTileGo
//     elsewhere);
//   - C is cut into blocks of mc rows and nc columns that the workers take
//     in turn; within a block, for each kc-block of p, the kernel walks the
//     B panels (outer) and the A panels (inner), so that a B panel stays in
//     L1 and the mc×kc block of A in L2.
//
// The kernel carries on from the tile of C for every kc-block after the
// first, so each element of C is the sum over p, in order of p, of fused
// multiply-adds acc = a[i,p]·b[p,j] + acc, each rounded once to T: the
// order of the naive loop, whatever the blocking, the number of workers or
// the kernel. Every kernel computes the same step (VFMADD231PS/PD in
// gemm_amd64.s, fmaT in Go, exact on CPUs without the instruction), so the
// bits do not depend on the CPU either. (Until stop 31 the kernels rounded
// each product and then added it: twice the instructions, and half the
// speed of BLAS's fused kernels on the same cores.)

// A gemmTile computes an mr×nr tile of C from mr rows of A, element i of
// p at a[i*ra+p*pa] (a packed panel: ra = 1, pa = mr; rows of A in place:
// ra = the row stride, pa = 1), and nr columns of B, element j of p at
// b[p*pb+j] (a packed panel: pb = nr; B in place: its row stride): see
// gen_gemm.go. c is the tile's first element, ldc the distance between its
// rows; load tells it to start from the tile's values rather than from
// zero.
type gemmTile[T float32 | float64] func(k int, a []T, ra, pa int, b []T, pb int, c []T, ldc int, load bool)

// A gemmKernel is a tile function with its tile's shape.
type gemmKernel[T float32 | float64] struct {
	mr, nr int
	kc     int // the depth of a block of p
	mc, nc int // the rows and columns of a block of C (0: 240 and 256)
	tile   gemmTile[T]
	// edge holds tiles of fewer rows, edge[q] of 4·(q+1), for the last
	// panel of A where m is not a multiple of mr (nil: that panel takes
	// tile, through a scratch tile). A 64×64 product's last panel has 4
	// rows of 12: with edge, the kernel does not compute 8 rows of zeros,
	// and A's rows are read in place rather than packed (setDirect).
	edge []gemmTile[T]
}

// edgeTile returns the tile for a panel of rows rows (less than mr) and
// its rows: 4·(q+1) rows for the least q with enough, or tile and mr.
func (k *gemmKernel[T]) edgeTile(rows int) (gemmTile[T], int) {
	if q := (rows+3)/4 - 1; rows > 0 && q < len(k.edge) {
		return k.edge[q], 4 * (q + 1)
	}
	return k.tile, k.mr
}

// gemmF32 and gemmF64 are the kernels of this CPU (gemm_amd64.go,
// gemm_noasm.go).
var (
	gemmF32 = gemmKernelF32()
	gemmF64 = gemmKernelF64()
)

// gemmTileGo is the portable kernel: mr×nr accumulators, each step a fused
// multiply-add (fmaT).
func gemmTileGo[T float32 | float64](mr, nr int) gemmTile[T] {
	return func(k int, a []T, ra, pa int, b []T, pb int, c []T, ldc int, load bool) {
		var room [64]T // the accumulators of tiles up to 64 (4×8 here), not on the heap
		var acc []T
		if mr*nr <= len(room) {
			acc = room[:mr*nr]
		} else {
			acc = make([]T, mr*nr)
		}
		if load {
			for i := range mr {
				copy(acc[i*nr:(i+1)*nr], c[i*ldc:i*ldc+nr])
			}
		}
		for p := range k {
			bp := b[p*pb : p*pb+nr]
			for i := range mr {
				fmaRow(acc[i*nr:(i+1)*nr], bp, a[i*ra+p*pa])
			}
		}
		for i := range mr {
			copy(c[i*ldc:i*ldc+nr], acc[i*nr:(i+1)*nr])
		}
	}
}

// A gemmJob is one product C = A·B: a and b are read through the given
// row and column strides (so that a transposed operand is packed in
// place), c is row major with row stride ldc.
type gemmJob[S, T float32 | float64] struct {
	m, n, k        int
	a              []S
	aRow, aCol     int
	b              []S
	bRow, bCol     int
	c              []T
	ldc            int
	kern           gemmKernel[T]
	mc, nc, kc     int
	mp, np         int // m and n rounded up to mr and nr
	packA, packB   []T
	ablocks, tasks int
	// direct is A as []T where the kernel reads its whole panels of mr
	// rows in place (setDirect); nil where every panel is packed.
	direct []T
	// directB is B as []T where the kernel reads its whole panels of nr
	// columns in place (setDirect); nil where every panel is packed.
	directB []T
	// sym: C is symmetric (mmGeom.sym); the tiles wholly below the
	// diagonal are skipped, then mirrored (mirrorLower).
	sym bool
}

// setDirect lets the kernel read A's whole panels of mr rows in place,
// where A needs no conversion and k is one block of p: packing A (a
// transpose of each panel) costs as much as a tenth of a product of 64
// or 256. B's whole panels are read in place too where its rows are at
// most 512 bytes (a 64×64 product, or a batch of them): packing B is a
// copy of rows, which keeps a panel in few lines of L1 whatever the row
// stride of B, but for such short rows a panel read in place spreads
// over enough sets of L1 (32 of its 64 at 256 bytes) to stay there.
func (g *gemmJob[S, T]) setDirect() {
	g.direct, g.directB = nil, nil
	if g.k > g.kc {
		return
	}
	if a, ok := any(g.a).([]T); ok && g.aCol == 1 {
		g.direct = a
	}
	var z T
	if b, ok := any(g.b).([]T); ok && g.bCol == 1 && g.bRow*int(unsafe.Sizeof(z)) <= 512 {
		g.directB = b
	}
}

// firstPackedB returns the first panel of B to pack: the last, partial
// one only where B is read in place.
func (g *gemmJob[S, T]) firstPackedB() int {
	if g.directB != nil {
		return g.n / g.kern.nr
	}
	return 0
}

// firstPackedA returns the first panel of A to pack: where A is read in
// place, the last, partial one only, and none where an edge tile takes
// exactly its rows (block reads them in place too).
func (g *gemmJob[S, T]) firstPackedA() int {
	if g.direct != nil {
		if _, er := g.kern.edgeTile(g.m % g.kern.mr); er == g.m%g.kern.mr {
			return g.mp / g.kern.mr
		}
		return g.m / g.kern.mr
	}
	return 0
}

func newGemmJob[S, T float32 | float64](kern gemmKernel[T], m, n, k int) *gemmJob[S, T] {
	g := new(gemmJob[S, T])
	g.init(kern, m, n, k)
	return g
}

// init makes g the job of an m×k by k×n product with kern (newGemmJob):
// a serial product keeps its job on the stack.
func (g *gemmJob[S, T]) init(kern gemmKernel[T], m, n, k int) {
	*g = gemmJob[S, T]{m: m, n: n, k: k, kern: kern}
	g.mp = (m + kern.mr - 1) / kern.mr * kern.mr
	g.np = (n + kern.nr - 1) / kern.nr * kern.nr
	g.kc = kern.kc
	mc, nc := kern.mc, kern.nc
	if mc == 0 {
		mc, nc = 240, 256
	}
	g.mc = kern.mr * max(1, mc/kern.mr)
	g.nc = kern.nr * max(1, nc/kern.nr)
}

// split chooses the blocks of C so that workers have at least four blocks
// each where C is large enough.
func (g *gemmJob[S, T]) split(workers int) {
	for g.mc > g.kern.mr && ((g.mp+g.mc-1)/g.mc)*((g.np+g.nc-1)/g.nc) < 4*workers {
		if g.nc > 4*g.kern.nr && g.nc >= g.mc {
			g.nc = (g.nc/2 + g.kern.nr - 1) / g.kern.nr * g.kern.nr
		} else {
			g.mc = (g.mc/2 + g.kern.mr - 1) / g.kern.mr * g.kern.mr
		}
	}
	g.ablocks = (g.mp + g.mc - 1) / g.mc
	g.tasks = g.ablocks * ((g.np + g.nc - 1) / g.nc)
}

// packAPanels packs the A panels [lo, hi) (of mr rows each) for every
// kc-block of p: the panel of rows i0.. in the block at p0 lies at
// p0·mp + i0·kcb, mr elements for each p.
func (g *gemmJob[S, T]) packAPanels(lo, hi int) {
	mr := g.kern.mr
	var rows [16][]S
	for p0 := 0; p0 < g.k; p0 += g.kc {
		kcb := min(g.kc, g.k-p0)
		for ip := lo; ip < hi; ip++ {
			i0 := ip * mr
			dst := g.packA[p0*g.mp+i0*kcb : p0*g.mp+(i0+mr)*kcb]
			nr := min(mr, g.m-i0)
			if g.aRow == 1 && g.aCol != 1 {
				// A stored transposed (mmGeom.aT): the panel's mr
				// elements of each p lie side by side.
				same, _ := any(g.a).([]T)
				for p := range kcb {
					src := (p0+p)*g.aCol + i0
					if same != nil {
						copy(dst[p*mr:p*mr+nr], same[src:src+nr])
						continue
					}
					for i, v := range g.a[src : src+nr] {
						dst[p*mr+i] = T(v)
					}
				}
			} else if g.aCol != 1 {
				for i := range nr {
					src := (i0+i)*g.aRow + p0*g.aCol
					for p := range kcb {
						dst[p*mr+i] = T(g.a[src+p*g.aCol])
					}
				}
			} else if same, ok := any(g.a).([]T); ok {
				// Rows in place, no conversion: the panel is the
				// transpose of an nr×kcb block (transposeT's register
				// tiles; the loop below moved one element at a time).
				transposeT(dst, 0, mr, same, i0*g.aRow+p0, g.aRow, kcb, nr)
			} else {
				rs := rows[:nr]
				for i := range rs {
					src := (i0+i)*g.aRow + p0
					rs[i] = g.a[src : src+kcb]
				}
				// Four rows at a time: four streams read, four
				// neighbouring elements written for each p.
				i := 0
				for ; i+4 <= nr; i += 4 {
					r0, r1, r2, r3 := rs[i][:kcb], rs[i+1][:kcb], rs[i+2][:kcb], rs[i+3][:kcb]
					for p := range kcb {
						d := dst[p*mr+i : p*mr+i+4]
						d[0], d[1], d[2], d[3] = T(r0[p]), T(r1[p]), T(r2[p]), T(r3[p])
					}
				}
				for ; i < nr; i++ {
					for p, v := range rs[i][:kcb] {
						dst[p*mr+i] = T(v)
					}
				}
			}
			for i := nr; i < mr; i++ {
				for p := range kcb {
					dst[p*mr+i] = 0
				}
			}
		}
	}
}

// packBPanels packs the B panels [lo, hi) (of nr columns each) likewise:
// the panel of columns j0.. in the block at p0 lies at p0·np + j0·kcb.
func (g *gemmJob[S, T]) packBPanels(lo, hi int) {
	nr := g.kern.nr
	same, _ := any(g.b).([]T) // no conversion: copy rows
	for p0 := 0; p0 < g.k; p0 += g.kc {
		kcb := min(g.kc, g.k-p0)
		for jp := lo; jp < hi; jp++ {
			j0 := jp * nr
			dst := g.packB[p0*g.np+j0*kcb : p0*g.np+(j0+nr)*kcb]
			cols := min(nr, g.n-j0)
			if same != nil && g.bRow == 1 && g.bCol != 1 {
				// B stored transposed (mmGeom.bT): the panel is the
				// transpose of a cols×kcb block.
				transposeT(dst, 0, nr, same, j0*g.bCol+p0, g.bCol, kcb, cols)
				if cols < nr {
					for p := range kcb {
						clear(dst[p*nr+cols : (p+1)*nr])
					}
				}
				continue
			}
			for p := range kcb {
				d := dst[p*nr : (p+1)*nr]
				src := (p0+p)*g.bRow + j0*g.bCol
				switch {
				case same != nil && g.bCol == 1:
					copy(d, same[src:src+cols])
				case g.bCol == 1:
					for j, v := range g.b[src : src+cols] {
						d[j] = T(v)
					}
				default:
					for j := range cols {
						d[j] = T(g.b[src+j*g.bCol])
					}
				}
				if cols < nr {
					clear(d[cols:])
				}
			}
		}
	}
}

// block computes the block t of C (of mc rows and nc columns), checking
// ctx between blocks of p.
func (g *gemmJob[S, T]) block(ctx context.Context, t int, tmp []T) error {
	mr, nr := g.kern.mr, g.kern.nr
	ib, jb := t%g.ablocks, t/g.ablocks
	i0, i1 := ib*g.mc, min((ib+1)*g.mc, g.mp)
	j0, j1 := jb*g.nc, min((jb+1)*g.nc, g.np)
	for p0 := 0; p0 < g.k; p0 += g.kc {
		if err := ctx.Err(); err != nil {
			return err
		}
		kcb := min(g.kc, g.k-p0)
		load := p0 > 0
		for j := j0; j < j1; j += nr {
			bp, pb := g.packB[p0*g.np+j*kcb:p0*g.np+(j+nr)*kcb], nr
			cols := min(nr, g.n-j)
			if g.directB != nil && cols == nr {
				bp, pb = g.directB[j:], g.bRow
			}
			for i := i0; i < i1; i += mr {
				if g.sym && i >= j+nr {
					continue // below the diagonal: mirrored
				}
				ap, ra, pa := g.packA[p0*g.mp+i*kcb:p0*g.mp+(i+mr)*kcb], 1, mr
				rows := min(mr, g.m-i)
				if g.direct != nil && rows == mr {
					ap, ra, pa = g.direct[i*g.aRow:], g.aRow, 1
				}
				if rows == mr && cols == nr {
					g.kern.tile(kcb, ap, ra, pa, bp, pb, g.c[i*g.ldc+j:], g.ldc, load)
					continue
				}
				tile := g.kern.tile
				if rows < mr {
					var er int
					tile, er = g.kern.edgeTile(rows)
					if er == rows && g.direct != nil {
						ap, ra, pa = g.direct[i*g.aRow:], g.aRow, 1
					}
					if er == rows && cols == nr {
						tile(kcb, ap, ra, pa, bp, pb, g.c[i*g.ldc+j:], g.ldc, load)
						continue
					}
				}
				// An edge tile: through tmp, of mr×nr.
				if load {
					for r := range rows {
						copy(tmp[r*nr:r*nr+cols], g.c[(i+r)*g.ldc+j:(i+r)*g.ldc+j+cols])
					}
				}
				tile(kcb, ap, ra, pa, bp, pb, tmp, nr, load)
				for r := range rows {
					copy(g.c[(i+r)*g.ldc+j:(i+r)*g.ldc+j+cols], tmp[r*nr:r*nr+cols])
				}
			}
		}
	}
	return nil
}

// gemmPool keeps packing buffers between products.
var (
	gemmPoolF32 sync.Pool
	gemmPoolF64 sync.Pool
)

func gemmBuf[T float32 | float64](n int) *[]T {
	var pool *sync.Pool
	switch any(T(0)).(type) {
	case float32:
		pool = &gemmPoolF32
	default:
		pool = &gemmPoolF64
	}
	if v, ok := pool.Get().(*[]T); ok && cap(*v) >= n {
		*v = (*v)[:n]
		return v
	}
	s := make([]T, n)
	return &s
}

func gemmPut[T float32 | float64](v *[]T) {
	switch any(T(0)).(type) {
	case float32:
		gemmPoolF32.Put(v)
	default:
		gemmPoolF64.Put(v)
	}
}

// gemmSmall is the work (m·n·k) below which a batch of products is spread
// over the workers one product each, rather than each product over all;
// gemmSerial the total work below which one goroutine does it all (for
// 64×64 products, starting goroutines and waiting for them would cost
// more than the arithmetic).
const (
	gemmSmall  = 1 << 21
	gemmSerial = 1 << 19
)

// gemmRun computes the g.nbatch products of x and y (contiguous, as in
// mmRun) into out (row major, m×n each) with kern; gemmRunPacked with
// packed makes it pack every panel of A (see setDirect), for tests.
func gemmRun[S, T float32 | float64](r *runner, kern gemmKernel[T], g mmGeom, x, y []S, out []T) error {
	return gemmRunPacked(r, kern, g, x, y, out, false)
}

func gemmRunPacked[S, T float32 | float64](r *runner, kern gemmKernel[T], g mmGeom, x, y []S, out []T, packed bool) error {
	m, n, k := g.rows, g.cols, g.k
	if k == 0 {
		clear(out)
		return nil
	}
	work := m * n * k
	switch {
	case work*g.nbatch < gemmSerial || r.workers() == 1:
		return gemmSerialRun(r.ctx, kern, g, x, y, out, packed, 0, g.nbatch)
	case work < gemmSmall && g.nbatch > 1:
		return r.parallel(g.nbatch, max(1, gemmSmall/work), func(_, lo, hi int) error {
			return gemmSerialRun(r.ctx, kern, g, x, y, out, packed, lo, hi)
		})
	}
	workers := r.workersFor(work, gemmSerial/2)
	j := newGemmJob[S, T](kern, m, n, k)
	j.split(workers)
	nt := kern.mr * kern.nr
	buf := gemmBuf[T](j.mp*k + k*j.np + r.workers()*nt)
	defer gemmPut(buf)
	tmps := (*buf)[j.mp*k+k*j.np:]
	na, nb := j.mp/kern.mr, j.np/kern.nr
	for bi := range g.nbatch {
		j.set(g, x, y, out, bi, *buf, packed)
		// Packing: the A panels then the B panels, spread over the workers.
		err := r.parallel(na+nb, max(1, (na+nb)/(4*workers)), func(_, lo, hi int) error {
			if lo < na {
				j.packAPanels(max(lo, j.firstPackedA()), min(hi, na))
			}
			if hi > na {
				j.packBPanels(max(max(lo, na)-na, j.firstPackedB()), hi-na)
			}
			return nil
		})
		if err != nil {
			return err
		}
		err = r.parallel(j.tasks, 1, func(w, lo, hi int) error {
			for t := lo; t < hi; t++ {
				if err := j.block(r.ctx, t, tmps[w*nt:(w+1)*nt]); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
		if j.sym {
			err = r.parallel(m, mirrorRows, func(_, lo, hi int) error {
				mirrorLower(j.c, m, kern.mr, kern.nr, lo, hi)
				return nil
			})
			if err != nil {
				return err
			}
		}
	}
	return nil
}

// set points j at product bi of g, with its packing buffers in buf.
func (j *gemmJob[S, T]) set(g mmGeom, x, y []S, out []T, bi int, buf []T, packed bool) {
	m, n, k := g.rows, g.cols, g.k
	j.a, j.aRow, j.aCol = x[g.offA[bi]:g.offA[bi]+m*k], k, 1
	j.b, j.bRow, j.bCol = y[g.offB[bi]:g.offB[bi]+k*n], n, 1
	if g.aT {
		j.aRow, j.aCol = 1, m
	}
	if g.bT {
		j.bRow, j.bCol = 1, k
	}
	j.c, j.ldc = out[bi*m*n:(bi+1)*m*n], n
	j.packA, j.packB = buf[:j.mp*k], buf[j.mp*k:j.mp*k+k*j.np]
	j.sym = g.sym
	if !packed {
		j.setDirect()
	}
}

// gemmSerialRun computes the products [lo, hi) of g on the calling
// goroutine, one after the other.
func gemmSerialRun[S, T float32 | float64](ctx context.Context, kern gemmKernel[T], g mmGeom, x, y []S, out []T, packed bool, lo, hi int) error {
	var j gemmJob[S, T]
	j.init(kern, g.rows, g.cols, g.k)
	j.split(1)
	k := g.k
	buf := gemmBuf[T](j.mp*k + k*j.np + kern.mr*kern.nr)
	defer gemmPut(buf)
	tmp := (*buf)[j.mp*k+k*j.np:]
	for bi := lo; bi < hi; bi++ {
		j.set(g, x, y, out, bi, *buf, packed)
		j.packAPanels(j.firstPackedA(), j.mp/kern.mr)
		j.packBPanels(j.firstPackedB(), j.np/kern.nr)
		for t := range j.tasks {
			if err := j.block(ctx, t, tmp); err != nil {
				return err
			}
		}
		if j.sym {
			mirrorLower(j.c, g.rows, kern.mr, kern.nr, 0, g.rows)
		}
	}
	return nil
}

// mirrorRows is the number of rows of C a range of mirrorLower takes.
const mirrorRows = 64

// mirrorLower sets the elements of the m×m symmetric C (row major) that
// gemmJob.block skipped, in rows lo to hi: element (i, c) of a tile
// (tiles of mr rows and nr columns from the corner) whose first row is
// at or below its last column plus one, from (c, i), which lies in a tile
// block computed. For each band of mr rows those are the columns before
// the band's first row rounded down to nr, a rectangle that transposeT
// copies in register tiles: a 1000×1000 float32 xᵀ·x spent 14% of its
// CPU time here in a loop of single elements.
func mirrorLower[T float32 | float64](c []T, m, mr, nr, lo, hi int) {
	for i0 := lo / mr * mr; i0 < hi; i0 += mr {
		lim := i0 / nr * nr
		r0, r1 := max(i0, lo), min(i0+mr, hi)
		if lim > 0 && r1 > r0 {
			// c[(r0+r)·m + col] = c[r0 + r + col·m]: element (col, r0+r).
			transposeT(c, r0*m, m, c, r0, m, r1-r0, lim)
		}
	}
}

// A vmKernel computes w columns of a vector-matrix product x·B (B with
// rows ldb apart) into y, each the sum in order of p of fused
// multiply-adds, as gemmTileGo: the rows of B stream through, x[p]
// broadcast.
// w is 0 where there is no such kernel.
type vmKernel[T float32 | float64] struct {
	w int
	f func(k int, x, b []T, ldb int, y []T)
}

var (
	vmF32 = vmKernelF32()
	vmF64 = vmKernelF64()
)

// vmRun computes the products of one row (vector-matrix): blocks of w
// columns spread over the workers; the columns past the last whole block
// are the end of a block of the last w columns, computed aside (the same
// sums, so the overlap would agree), or, with fewer than w columns in
// all, summed in Go in the same order.
func vmRun[T float32 | float64](r *runner, kern vmKernel[T], g mmGeom, x, y, out []T) error {
	k, n := g.k, g.cols
	if k == 0 {
		clear(out)
		return nil
	}
	blocks := (n + kern.w - 1) / kern.w
	return r.parallel(g.nbatch*blocks, max(1, grainSize/(k*kern.w)), func(_, lo, hi int) error {
		for t := lo; t < hi; t++ {
			bi, j0 := t/blocks, t%blocks*kern.w
			xv, b := x[g.offA[bi]:g.offA[bi]+k], y[g.offB[bi]:g.offB[bi]+k*n]
			d := out[bi*n : (bi+1)*n]
			if j0+kern.w <= n {
				kern.f(k, xv, b[j0:], n, d[j0:j0+kern.w])
				continue
			}
			if n >= kern.w {
				tmp := make([]T, kern.w)
				kern.f(k, xv, b[n-kern.w:], n, tmp)
				copy(d[j0:], tmp[j0-(n-kern.w):])
				continue
			}
			mmSeq(d, xv, b, k, n)
		}
		return nil
	})
}

// An mvKernel computes rows sums of a matrix-vector product A·x (A with
// rows lda apart) into y, each the sum in order of p of fused
// multiply-adds, as mvSeq, for k a multiple of block (the kernel
// transposes blocks of 16×16 float32 or 8×8 float64 elements of A in
// registers). rows is 0 where there is no such kernel.
type mvKernel[T float32 | float64] struct {
	rows, block int
	f           func(k int, a []T, lda int, x, y []T)
}

var (
	mvF32 = mvKernelF32()
	mvF64 = mvKernelF64()
)
