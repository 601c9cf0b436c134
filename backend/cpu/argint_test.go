package cpu

import (
	"bytes"
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
// bool rows whose first True lies past their first eight bytes, split
// over workers.
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
						// Zeros, or zeros up to a first True past the
						// first eight bytes, then random bits.
						*v = 0
						if first := 8 + r%40; r%8 == 6 && c >= first {
							*v = float64(rng.Intn(2))
							if c == first {
								*v = 1
							}
						}
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

// TestArgColsBool checks argmax and argmin of bools along a kept last
// axis (argColsBool, which stops once every column has met its extreme)
// against the first extreme found by a plain walk, on masks from all
// false to all true. NumPy's answer for a column without its extreme is
// 0 (every element is then the extreme).
func TestArgColsBool(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	for _, sh := range [][]int{{1000, 300}, {7, 9}, {1, 5}, {6, 1}, {4, 5, 6}, {30, 40, 50}} {
		for _, density := range []float64{0, 0.001, 0.05, 0.5, 0.999, 1} {
			size := backend.Size(sh)
			v := make([]float64, size)
			for i := range v {
				if rng.Float64() < density {
					v[i] = 1
				}
			}
			x := in(mk(dtypes.Bool, sh, v...))
			for axis := 0; axis < len(sh)-1; axis++ {
				for _, op := range []backend.Op{backend.OpArgMax, backend.OpArgMin} {
					got := vals(run(t, red(op, dtypes.I64, x, false, axis)))
					top := 1.0
					if op == backend.OpArgMin {
						top = 0
					}
					// Reference: for each output (the kept indices), the
					// first index along axis holding top.
					strides := backend.RowMajor(sh)
					n := 0
					var walk func(d, base int)
					walk = func(d, base int) {
						if d == len(sh) {
							want := 0
							for j := range sh[axis] {
								if v[base+j*strides[axis]] == top {
									want = j
									break
								}
							}
							if got[n] != float64(want) {
								t.Fatalf("%v of %v (density %v) along %d: output %d = %v, want %d", op, sh, density, axis, n, got[n], want)
							}
							n++
							return
						}
						if d == axis {
							walk(d+1, base)
							return
						}
						for i := range sh[d] {
							walk(d+1, base+i*strides[d])
						}
					}
					walk(0, 0)
					if n != len(got) {
						t.Fatalf("%v of %v along %d: %d outputs, want %d", op, sh, axis, len(got), n)
					}
				}
			}
		}
	}
}

// TestIndexTop checks indexTop against bytes.IndexByte for both tops, on
// bools with the first top at every position and on arbitrary bytes.
func TestIndexTop(t *testing.T) {
	r := rand.New(rand.NewSource(17))
	for n := range 40 {
		for first := range n + 1 {
			for _, top := range []uint8{0, 1} {
				b := make([]byte, n)
				for i := range b {
					b[i] = 1 - top
					if i > first {
						b[i] = uint8(r.Intn(2))
					}
				}
				if first < n {
					b[first] = top
				}
				if got, want := indexTop(b, top), bytes.IndexByte(b, top); got != want {
					t.Fatalf("indexTop(%v, %d) = %d, want %d", b, top, got, want)
				}
			}
		}
	}
	for range 10000 {
		b := make([]byte, r.Intn(20))
		for i := range b {
			b[i] = uint8(r.Intn(4))
		}
		for _, top := range []uint8{0, 1, 2} {
			if got, want := indexTop(b, top), bytes.IndexByte(b, top); got != want {
				t.Fatalf("indexTop(%v, %d) = %d, want %d", b, top, got, want)
			}
		}
	}
}

// TestArgBytes checks argBytes's kernel (argMaxBytesAVX2) against a plain
// walk for the index of the first max and min of int8 and uint8 runs of
// every length from 32 to 300: runs where the extreme sits first, last,
// only in the last 32 bytes (read twice by each pass), tied with itself
// across the overlap, or where every byte ties; the types' own extremes
// and values around the sign bit, where a wrong flip orders int8 as
// uint8.
func TestArgBytes(t *testing.T) {
	if argBytes[int8](true) == nil {
		t.Skip("no byte kernel on this CPU or build")
	}
	rng := rand.New(rand.NewSource(36))
	check := func(name string, run []byte) {
		t.Helper()
		i8 := make([]int8, len(run))
		for i, b := range run {
			i8[i] = int8(b)
		}
		first := func(n int, better func(i, j int) bool) int {
			w := 0
			for i := 1; i < n; i++ {
				if better(i, w) {
					w = i
				}
			}
			return w
		}
		for _, isMax := range []bool{true, false} {
			wu := first(len(run), func(i, j int) bool { return isMax && run[i] > run[j] || !isMax && run[i] < run[j] })
			if got := argBytes[uint8](isMax)(run); got != wu {
				t.Fatalf("%s, uint8, max %v, len %d: %d, want %d (% x)", name, isMax, len(run), got, wu, run)
			}
			wi := first(len(run), func(i, j int) bool { return isMax && i8[i] > i8[j] || !isMax && i8[i] < i8[j] })
			if got := argBytes[int8](isMax)(i8); got != wi {
				t.Fatalf("%s, int8, max %v, len %d: %d, want %d (% x)", name, isMax, len(run), got, wi, run)
			}
		}
	}
	for n := 32; n <= 300; n++ {
		run := make([]byte, n)
		fill := func(lo, hi int) {
			for i := range run {
				run[i] = byte(lo + rng.Intn(hi-lo+1))
			}
		}
		fill(0, 255)
		check("random", run)
		fill(0x7E, 0x81) // around the sign bit
		check("sign bit", run)
		for _, at := range []int{0, n - 1, n - 32, n - 17, max(0, n-33), rng.Intn(n)} {
			fill(10, 100)
			run[at], run[(at+n/2)%n] = 200, 3
			check("one extreme", run)
			run[n-1] = 200 // a tie after it
			check("tied", run)
			run[at], run[(at+n/2)%n] = 0xFF, 0x00
			check("type extremes", run)
			run[at] = 0x7F
			check("int8 max", run)
		}
		for i := range run {
			run[i] = 0x80
		}
		check("constant", run)
	}
}
