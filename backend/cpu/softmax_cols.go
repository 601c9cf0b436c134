package cpu

// softmaxColsF32 computes the float32 softmax (or log-softmax) of the
// rows [lo, hi) of a reduction along a non-last axis (row = o*inner + k:
// the m values x[o*m*inner + k + i*inner]) a tile of adjacent k at a
// time: the tile is read row by row of x (contiguous runs, where a
// column at a time would touch a cache line per value), transposed into
// t, each of its columns computed by softmaxRowF32 (the vectorised
// operations of the last-axis case, the same as softmaxRow's), and
// written back the same way. t and dt hold softmaxTile*m values; y m.
func softmaxColsF32(out, x []float32, m, inner, lo, hi int, log bool, t, dt []float32, y []float64) {
	for row := lo; row < hi; {
		o, k := row/inner, row%inner
		w := min(softmaxTile, hi-row, inner-k)
		b := o*m*inner + k
		for i := range m {
			src := x[b+i*inner : b+i*inner+w]
			for j, v := range src {
				t[j*m+i] = v
			}
		}
		for j := range w {
			softmaxRowF32(dt[j*m:(j+1)*m], t[j*m:(j+1)*m], y, log, nil)
		}
		for i := range m {
			dst := out[b+i*inner : b+i*inner+w]
			for j := range dst {
				dst[j] = dt[j*m+i]
			}
		}
		row += w
	}
}

// softmaxTile is how many adjacent columns softmaxColsF32 reads at once:
// 16 float32s, a 64-byte cache line.
const softmaxTile = 16
