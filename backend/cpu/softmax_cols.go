package cpu

// softmaxColsF32 computes the float32 softmax (or log-softmax) of the
// rows [lo, hi) of a reduction along a non-last axis (row = o*inner + k:
// the m values x[o*m*inner + k + i*inner]) a tile of adjacent k at a
// time: the tile is transposed into sc's tiles (transposeInto: whole
// cache lines of x, where a column at a time would touch a line per
// value), each of its columns computed by softmaxRowF32 (the vectorised
// operations of the last-axis case, the same as softmaxRow's), and
// transposed back into out; y holds m values. Where the CPU has
// AVX-512, whole tiles are computed in place by softmaxColsAVX512
// instead, up to softmaxWide columns at a time.
func softmaxColsF32(out, x []float32, m, inner, lo, hi int, log bool, sc *colScratch, y []float64) {
	var mx [softmaxWide]float32
	wide := max(softmaxTile, min(softmaxWide, softmaxWideBytes/(4*max(m, 1)))/softmaxTile*softmaxTile)
	for row := lo; row < hi; {
		o, k := row/inner, row%inner
		b := o*m*inner + k
		if w := min(wide, hi-row, inner-k) / softmaxTile * softmaxTile; w > 0 && libmAVX512 &&
			softmaxColsAVX512(out, x, m, inner, b, w, log, sc.exps(m), mx[:]) {
			row += w
			continue
		}
		w := min(softmaxTile, hi-row, inner-k)
		t, dt := sc.tiles(m)
		transposeInto(t, 0, m, x, b, inner, w, m)
		for j := range w {
			softmaxRowF32(dt[j*m:(j+1)*m], t[j*m:(j+1)*m], y, log, nil)
		}
		transposeInto(out, b, inner, dt, 0, m, m, w)
		row += w
	}
}

// colScratch is a worker's scratch for softmaxColsF32, each part made
// when first needed: two tiles of softmaxTile columns (for the
// transposes), or softmaxTile*m float64s (softmaxColsAVX512's).
type colScratch struct {
	t, dt []float32
	e     []float64
}

func (sc *colScratch) tiles(m int) (t, dt []float32) {
	if sc.t == nil {
		b := make([]float32, 2*softmaxTile*m)
		sc.t, sc.dt = b[:softmaxTile*m], b[softmaxTile*m:]
	}
	return sc.t, sc.dt
}

func (sc *colScratch) exps(m int) []float64 {
	if sc.e == nil {
		sc.e = make([]float64, softmaxTile*m)
	}
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

// softmaxColsF64 is softmaxColsF32 for a float64 x and result: each
// column of a tile computed by softmaxRowF64 in place in t (softmaxTile*m
// values), with e and c (m each) as its scratch.
func softmaxColsF64(out, x []float64, m, inner, lo, hi int, log bool, t, e, c []float64) {
	for row := lo; row < hi; {
		o, k := row/inner, row%inner
		w := min(softmaxTile, hi-row, inner-k)
		b := o*m*inner + k
		transposeInto(t, 0, m, x, b, inner, w, m)
		for j := range w {
			softmaxRowF64(t[j*m:(j+1)*m], e, c, log)
		}
		transposeInto(out, b, inner, t, 0, m, m, w)
		row += w
	}
}
