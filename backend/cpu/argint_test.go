package cpu

import (
	"math"
	"math/rand"
	"testing"

	"github.com/tensorsh/tensorsh/backend"
	"github.com/tensorsh/tensorsh/dtypes"
)

// TestArgRowsInt checks argmax and argmin of integers and bools along the
// last axis and over a whole array against a plain reading of NumPy's
// rule (numpy/_core/src/multiarray/argfunc.dispatch.c.src: the index of
// the first maximum, or minimum; for bools, of the first True, or False),
// on rows with ties and the type's extremes (where the walk stops early),
// split over workers.
func TestArgRowsInt(t *testing.T) {
	rng := rand.New(rand.NewSource(35))
	const rows, cols = 131, 517
	for _, tc := range []struct {
		d      dtypes.DType
		lo, hi float64
	}{
		{dtypes.Bool, 0, 1},
		{dtypes.I8, -128, 127},
		{dtypes.U8, 0, 255},
		{dtypes.I16, -32768, 32767},
		{dtypes.I32, math.MinInt32, math.MaxInt32},
		{dtypes.U32, 0, math.MaxUint32},
		{dtypes.I64, -1 << 53, 1 << 53},
		{dtypes.U64, 0, 1 << 53},
	} {
		vals := make([]float64, rows*cols)
		for r := range rows {
			// Some rows hold the extremes, some not (no early stop), some
			// are constant.
			kind := r % 4
			for c := range cols {
				v := &vals[r*cols+c]
				switch x := rng.Intn(1000); {
				case kind == 3:
					*v = tc.lo + 1
				case kind == 0 && x < 3:
					*v = tc.hi
				case kind == 1 && x < 3:
					*v = tc.lo
				case tc.d == dtypes.Bool:
					*v = float64(rng.Intn(2))
					if kind == 2 {
						*v = 0
					}
				default:
					*v = math.Round(tc.lo/2 + rng.Float64()*(tc.hi-tc.lo)/2)
				}
			}
		}
		want := func(vs []float64, isMax bool) int64 {
			w := 0
			for i, v := range vs {
				if (isMax && v > vs[w]) || (!isMax && v < vs[w]) {
					w = i
				}
			}
			return int64(w)
		}
		x := in(mk(tc.d, []int{rows, cols}, vals...))
		for _, op := range []backend.Op{backend.OpArgMax, backend.OpArgMin} {
			isMax := op == backend.OpArgMax
			got := run(t, red(op, dtypes.I64, x, false, 1)).Data.([]int64)
			for r := range rows {
				if w := want(vals[r*cols:(r+1)*cols], isMax); got[r] != w {
					t.Fatalf("%v %v row %d: %d, want %d", tc.d, op, r, got[r], w)
				}
			}
			all := run(t, red(op, dtypes.I64, x, false)).Data.([]int64)
			if w := want(vals, isMax); all[0] != w {
				t.Errorf("%v %v of all: %d, want %d", tc.d, op, all[0], w)
			}
		}
	}
}
