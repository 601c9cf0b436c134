package cpu

import (
	"math"
	"sync"

	"github.com/tensorsh/tensorsh/dtypes"
)

// softmaxColsF32 computes the float32 softmax (or log-softmax) of the
// rows [lo, hi) of a reduction along a non-last axis (row = o*inner + k:
// the m values x[o*m*inner + k + i*inner]) a tile of adjacent k at a
// time: the tile is transposed into sc's tiles (transposeInto: whole
// cache lines of x, where a column at a time would touch a line per
// value), each of its columns computed by softmaxRowF32 (the vectorised
// operations of the last-axis case, the same as softmaxRow's), and
// transposed back into out; y, e and c hold m values each. Where the
// CPU has AVX-512, whole tiles are computed in place by
// softmaxColsAVX512 instead, up to softmaxWide columns at a time. A
// result of a narrower dtype d (float16, bfloat16, float8: out holds its
// values as float32s) takes softmaxRowNarrow on the transposed tiles.
func softmaxColsF32(out, x []float32, m, inner, lo, hi int, log bool, sc *colScratch, y, e, c []float64, d dtypes.DType) {
	wide := max(softmaxTile, min(softmaxWide, softmaxWideBytes/(4*max(m, 1)))/softmaxTile*softmaxTile)
	for row := lo; row < hi; {
		o, k := row/inner, row%inner
		b := o*m*inner + k
		if w := min(wide, hi-row, inner-k) / softmaxTile * softmaxTile; w > 0 && libmAVX512 && d == dtypes.F32 &&
			softmaxColsAVX512(out, x, m, inner, b, w, log, sc.exps(m), sc.mx[:]) {
			row += w
			continue
		}
		w := min(softmaxTile, hi-row, inner-k)
		t, dt := sc.tiles(m)
		transposeInto(t, 0, m, x, b, inner, w, m)
		for j := range w {
			if d != dtypes.F32 {
				softmaxRowNarrow(dt[j*m:(j+1)*m], t[j*m:(j+1)*m], e, c, log, d)
				continue
			}
			softmaxRowF32(dt[j*m:(j+1)*m], t[j*m:(j+1)*m], y, log, nil)
		}
		transposeInto(out, b, inner, dt, 0, m, m, w)
		row += w
	}
}

// colScratch is a worker's scratch for Softmax's rows and for
// softmaxColsF32 and softmaxColsF64, each part made when first needed
// and kept for later statements (colScratchPool): three float64 rows
// (Softmax's y, e and c), two tiles of softmaxTile float32 columns (for
// the transposes), softmaxTile*m float64s (softmaxColsAVX512's), three
// rows of a float64 tile, or a float64 tile and two columns
// (softmaxTilesF64's). Every part is scratch its user writes before
// reading. Made afresh in each statement, the 0.4 MB of a float32
// softmax along axis 0 of 1000×1000 landed on fresh pages whenever the
// heap had grown (1.35 ms in a matrix run against 0.54 alone on the AMD
// EPYC guest, whose fresh pages cost microseconds each).
type colScratch struct {
	r   []float64
	tb  []float32
	e   []float64
	c64 []float64
	t64 []float64
	// mx holds softmaxColsAVX512's column maxima. A local array of
	// softmaxColsF32 escaped to the heap (softmaxColsAVX512 hands it
	// to a kernel through a function value): a kilobyte made each call.
	mx [softmaxWide]float32
}

// colScratchPool keeps the colScratch of finished statements (a
// variable: tests give Softmax scratch filled with values of their own).
var colScratchPool = new(sync.Pool) // *colScratch

// colScratchKeep is the most bytes a colScratch may hold to be kept in
// colScratchPool: the scratch of a softmax along an axis of 10^7 would
// otherwise stay alive, hundreds of megabytes, until the collector
// empties the pool.
const colScratchKeep = 16 << 20

// bytes returns the memory sc holds.
func (sc *colScratch) bytes() int {
	return 8*(cap(sc.r)+cap(sc.e)+cap(sc.c64)+cap(sc.t64)) + 4*cap(sc.tb)
}

func (sc *colScratch) rows(m int) (y, e, c []float64) {
	sc.r = grow(sc.r, 3*m)
	return sc.r[:m], sc.r[m : 2*m], sc.r[2*m:]
}

func (sc *colScratch) cols64(wide int) (mx, sum, t []float64) {
	sc.c64 = grow(sc.c64, 3*wide)
	return sc.c64[:wide], sc.c64[wide : 2*wide], sc.c64[2*wide:]
}

func (sc *colScratch) tiles64(m int) (t, e, c []float64) {
	sc.t64 = grow(sc.t64, (softmaxTile+2)*m)
	n := softmaxTile * m
	return sc.t64[:n], sc.t64[n : n+m], sc.t64[n+m:]
}

func (sc *colScratch) tiles(m int) (t, dt []float32) {
	n := softmaxTile * m
	sc.tb = grow(sc.tb, 2*n)
	return sc.tb[:n], sc.tb[n:]
}

func (sc *colScratch) exps(m int) []float64 {
	sc.e = grow(sc.e, softmaxTile*m)
	return sc.e
}

// softmaxTile is how many adjacent columns softmaxColsF32 reads at once:
// 16 float32s, a 64-byte cache line.
const softmaxTile = 16

// softmaxWide is the most columns softmaxColsAVX512 takes at once, and
// softmaxWideBytes the most bytes of x they may span (so that x stays in
// the cache between its passes).
const (
	softmaxWide      = 256
	softmaxWideBytes = 512 << 10
)

// softmaxColsF64 computes the float64 softmax (or log-softmax) of the
// rows [lo, hi) of a reduction along a non-last axis (as softmaxColsF32)
// with softmaxRowExact's operations on each column, done on a tile of up
// to softmaxWide64(m) adjacent columns a row at a time, so that every
// step reads and writes rows of the tile in place: the maxima (rowMax's:
// the row step of max along a kept axis from -Inf), then for each row x -
// max into out and math.Exp of it (expF64: the same bits) added to the
// column's sum, in the columns' order, then each row divided by the sums
// (divExactF64), or less their logarithms. Tiles narrower than softmaxMinWide64 (few
// columns, or columns too long for that many) are transposed instead
// (softmaxTilesF64), as a kernel call a row would cost more than the row.
func softmaxColsF64(out, x []float64, m, inner, lo, hi int, log bool, sc *colScratch) {
	wide := softmaxWide64(m)
	for row := lo; row < hi; {
		o, k := row/inner, row%inner
		w := min(wide, hi-row, inner-k)
		b := o*m*inner + k
		if w < softmaxMinWide64 {
			w = min(w, softmaxTile)
			t, e, c := sc.tiles64(m)
			softmaxTilesF64(out, x, m, inner, b, w, log, t, e, c)
			row += w
			continue
		}
		mx, sum, t := sc.cols64(wide)
		mx, sum, t = mx[:w], sum[:w], t[:w]
		for j := range mx {
			mx[j] = math.Inf(-1)
		}
		colMaxF64(mx, x[b:b+(m-1)*inner+w], m, inner)
		clear(sum)
		for i := range m {
			xi, oi := x[b+i*inner:][:w], out[b+i*inner:][:w]
			subF64(oi, xi, mx)
			if log {
				expF64(t, oi)
				addF64(sum, sum, t)
				continue
			}
			expF64(oi, oi)
			addF64(sum, sum, oi)
		}
		for j, v := range sum {
			if log {
				t[j] = math.Log(v)
			} else {
				t[j] = recipOrNaN(v)
			}
		}
		for i := range m {
			oi := out[b+i*inner:][:w]
			if log {
				subF64(oi, oi, t)
			} else {
				divExactF64(oi, oi, sum, t)
			}
		}
		row += w
	}
}

// softmaxTilesF64 computes the w (at most softmaxTile) columns of
// softmaxColsF64 at b: transposed into t (softmaxTile*m values), each
// computed by softmaxRowF64 with e and c (m each) as its scratch, and
// transposed back into out.
func softmaxTilesF64(out, x []float64, m, inner, b, w int, log bool, t, e, c []float64) {
	transposeInto(t, 0, m, x, b, inner, w, m)
	for j := range w {
		softmaxRowF64(t[j*m:(j+1)*m], e, c, log)
	}
	transposeInto(out, b, inner, t, 0, m, m, w)
}

// softmaxMinWide64 is the fewest columns softmaxColsF64 computes a row at
// a time.
const softmaxMinWide64 = 32

// softmaxWide64 returns the number of columns softmaxColsF64 takes at
// once for columns of m values: as many as span 2 MB of x (the tile's x
// and result then mostly stay in the cache between its passes; 512 KB,
// 64 columns of 1000, was 40% slower on the Xeon, the calls a row
// costing more), from 8 to softmaxWide.
func softmaxWide64(m int) int {
	return max(8, min(softmaxWide, (2<<20)/(8*max(m, 1)))/8*8)
}

// colMaxF64 sets acc[j] to the larger of acc[j] and each of rows values
// x[i*stride+j] in turn, as max along a kept axis does (maxFloat: NaN
// sticks, of equal values the first): by redVecsMaxPD where there is one.
func colMaxF64(acc, x []float64, rows, stride int) {
	if f := redVecsAsm["MaxPD"]; f != nil && len(acc) >= 4 {
		f(byteView(acc), byteView(x[:(rows-1)*stride+len(acc)]), rows, 8*stride)
		return
	}
	for i := range rows {
		for j, v := range x[i*stride:][:len(acc)] {
			acc[j] = maxFloat(acc[j], v)
		}
	}
}
