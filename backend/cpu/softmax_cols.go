package cpu

// softmaxColsF32 computes the float32 softmax (or log-softmax) of the
// rows [lo, hi) of a reduction along a non-last axis (row = o*inner + k:
// the m values x[o*m*inner + k + i*inner]) a tile of adjacent k at a
// time: the tile is transposed into t (transposeInto: whole cache lines
// of x, where a column at a time would touch a line per value), each of
// its columns computed by softmaxRowF32 (the vectorised
// operations of the last-axis case, the same as softmaxRow's), and
// transposed back into out. t and dt hold softmaxTile*m values; y m.
func softmaxColsF32(out, x []float32, m, inner, lo, hi int, log bool, t, dt []float32, y []float64) {
	for row := lo; row < hi; {
		o, k := row/inner, row%inner
		w := min(softmaxTile, hi-row, inner-k)
		b := o*m*inner + k
		transposeInto(t, 0, m, x, b, inner, w, m)
		for j := range w {
			softmaxRowF32(dt[j*m:(j+1)*m], t[j*m:(j+1)*m], y, log, nil)
		}
		transposeInto(out, b, inner, dt, 0, m, m, w)
		row += w
	}
}

// softmaxTile is how many adjacent columns softmaxColsF32 reads at once:
// 16 float32s, a 64-byte cache line.
const softmaxTile = 16

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
