package cpu

// Softmax and log-softmax along one axis.

import (
	"fmt"
	"math"

	"github.com/tensorsh/tensorsh/backend"
	"github.com/tensorsh/tensorsh/dtypes"
)

// Softmax evaluates softmax and log-softmax along Axes[0] in float64
// (max subtracted first), rounding once to the result dtype. Each row is
// read into a per-worker float64 buffer (float32 rows along the last axis
// are read in place), so no full-size temporary is made.
//
// For a float64 result the exponentials are math.Exp, summed in order.
// For float32 and narrower results they are expCore (within 2 ULP of
// e^x, see simd.go), summed with eight interleaved accumulators
// (sum8F64), and softmax divides each by the sum: the float64 values are
// within a few ULP of the float64 computation with math.Exp, far inside
// the half float32 ULP the final rounding takes. The divisions give the
// rounded quotients: with AVX-512 they are products with the reciprocal
// where a test shows the same result (divToF32, divExactF64, divByF64),
// else divisions.
func (r *runner) Softmax(n *backend.Node, size int) (*view, error) {
	initTables() // roundTo64's float16 table
	a, err := r.eval(n.Args[0])
	if err != nil {
		return nil, err
	}
	ax := n.Axes[0]
	x, err := r.computeBuf(a)
	if err != nil {
		return nil, err
	}
	outer, m, inner := backend.Size(a.shape[:ax]), a.shape[ax], backend.Size(a.shape[ax+1:])
	log := n.Op == backend.OpLogSoftmax
	exact := n.DType == dtypes.F64
	var (
		out64 []float64
		out32 []float32 // float32, or narrow values as float32
	)
	if exact {
		buf, err := r.allocBufFull(ctF64, size)
		if err != nil {
			return nil, err
		}
		out64 = buf.([]float64)
	} else {
		buf, err := r.allocBufFull(ctF32, size)
		if err != nil {
			return nil, err
		}
		out32 = buf.([]float32)
	}
	x32, _ := x.([]float32)
	x64, _ := x.([]float64)
	inPlace := x32 != nil && inner == 1 && n.DType == dtypes.F32
	cols := x32 != nil && inner > 1 && !exact
	cols64 := x64 != nil && inner > 1 && exact
	narrow := x32 != nil && !exact && n.DType != dtypes.F32
	grain := max(1, grainSize/max(m, 1))
	if cols {
		// Whole tiles of columns: a range ending one column into a
		// tile read a cache line of every row for that column alone
		// (65 columns a range: four tiles and one column).
		grain = max(softmaxTile, grain/softmaxTile*softmaxTile)
	}
	if cols64 {
		// A tile of softmaxColsF64 a range.
		grain = softmaxWide64(m)
		if grain < softmaxMinWide64 {
			grain = max(softmaxTile, grainSize/max(m, 1)/softmaxTile*softmaxTile)
		}
	}
	scratch := make([]*colScratch, r.workersFor(outer*inner, grain))
	defer func() {
		for _, sc := range scratch {
			if sc != nil && sc.bytes() <= colScratchKeep {
				colScratchPool.Put(sc)
			}
		}
	}()
	err = r.parallel(outer*inner, grain, func(w, lo, hi int) error {
		sc := scratch[w]
		if sc == nil {
			sc, _ = colScratchPool.Get().(*colScratch)
			if sc == nil {
				sc = new(colScratch)
			}
			scratch[w] = sc
		}
		if cols64 {
			softmaxColsF64(out64, x64, m, inner, lo, hi, log, sc)
			return nil
		}
		y, e, c := sc.rows(m)
		if cols {
			softmaxColsF32(out32, x32, m, inner, lo, hi, log, sc, y, e, c, n.DType)
			return nil
		}
		for row := lo; row < hi; row++ {
			o, k := row/inner, row%inner
			b := o*m*inner + k
			if inPlace {
				// While this row's exponentials are computed, the next
				// row of this worker is read into the cache.
				var next []float32
				if row+1 < hi {
					next = x32[b+m : b+2*m]
				}
				softmaxRowF32(out32[b:b+m], x32[b:b+m], y, log, asBytes(next))
				continue
			}
			if exact && inner == 1 && x64 != nil {
				// In place in the result.
				copy(out64[b:b+m], x64[b:b+m])
				softmaxRowF64(out64[b:b+m], e, c, log)
				continue
			}
			if narrow {
				// float16, bfloat16, float8: softmaxRowF32's
				// vector steps, each quotient rounded once.
				// (Along other axes: softmaxColsF32.)
				softmaxRowNarrow(out32[b:b+m], x32[b:b+m], e, c, log, n.DType)
				continue
			}
			if err := gatherFloat64(y, x, b, inner); err != nil {
				return err
			}
			if exact {
				softmaxRowF64(y, e, c, log)
				for i, v := range y {
					out64[b+i*inner] = v
				}
				continue
			}
			softmaxRow(y, log)
			for i, v := range y {
				out32[b+i*inner] = roundTo64(n.DType, v)
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if exact {
		return contigView(n.DType, out64, n.Shape), nil
	}
	return r.finish(out32, n.DType, n.DType, n.Shape)
}

// rowMax returns the largest of x, or the first NaN.
func rowMax[T float](x []T) T {
	mx := T(math.Inf(-1))
	for _, v := range x {
		if v > mx || v != v {
			mx = v
			if v != v {
				break
			}
		}
	}
	return mx
}

// softmaxRowExact computes the float64 softmax (or log-softmax) of y in
// place with math.Exp, summing in order: the reference of softmaxRowF64.
func softmaxRowExact(y []float64, log bool) {
	mx := rowMax(y)
	s := 0.0
	if log {
		for _, v := range y {
			s += math.Exp(v - mx)
		}
		ls := math.Log(s)
		for i, v := range y {
			y[i] = v - mx - ls
		}
		return
	}
	for i, v := range y {
		y[i] = math.Exp(v - mx)
		s += y[i]
	}
	for i := range y {
		y[i] /= s
	}
}

// softmaxRowF64 is softmaxRowExact with the exponentials of expF64 (the
// bits of math.Exp, four at a time) and vector subtractions and divisions
// by a broadcast value, with e and c (len(y) each) as scratch: the same
// operations in the same order (the sum in order), so the same bits.
func softmaxRowF64(y, e, c []float64, log bool) {
	mx := rowMaxF64(y)
	e, c = e[:len(y)], c[:len(y)]
	fillF64(c, mx)
	subF64(y, y, c)
	expF64(e, y)
	s := 0.0
	for _, v := range e {
		s += v
	}
	if log {
		fillF64(c, math.Log(s))
		subF64(y, y, c)
		return
	}
	divByF64(y, e, s, c)
}

var (
	addF64 = binaryF64('+')
	subF64 = binaryF64('-')
	divF64 = binaryF64('/')
)

// recipOrNaN returns 1/b where b is in [2^-1000, 2^1000] (then 1/b
// rounded is a normal float64 within half an ULP of the reciprocal), else
// NaN: the reciprocal divExactF64 takes.
func recipOrNaN(b float64) float64 {
	if b >= 0x1p-1000 && b <= 0x1p1000 {
		return 1 / b
	}
	return math.NaN()
}

// fillF64 sets every element of c to v.
func fillF64(c []float64, v float64) {
	if len(c) == 0 {
		return
	}
	c[0] = v
	for f := 1; f < len(c); f *= 2 {
		copy(c[f:], c[:f])
	}
}

// rowMaxF64Go is rowMax of a float64 row with four running maxima: the
// same value where the row has no NaN and its maximum is not a zero (the
// maxima of the four can differ from the first one's only in the sign of
// a zero); rowMax otherwise. rowMaxF64 uses it without AVX2.
func rowMaxF64Go(x []float64) float64 {
	n := len(x) &^ 3
	if n == 0 {
		return rowMax(x)
	}
	m0, m1, m2, m3 := math.Inf(-1), math.Inf(-1), math.Inf(-1), math.Inf(-1)
	nan := false
	for i := 0; i < n; i += 4 {
		v0, v1, v2, v3 := x[i], x[i+1], x[i+2], x[i+3]
		if v0 > m0 {
			m0 = v0
		}
		if v1 > m1 {
			m1 = v1
		}
		if v2 > m2 {
			m2 = v2
		}
		if v3 > m3 {
			m3 = v3
		}
		nan = nan || v0 != v0 || v1 != v1 || v2 != v2 || v3 != v3
	}
	for _, v := range x[n:] {
		if v > m0 {
			m0 = v
		}
		nan = nan || v != v
	}
	m := max(m0, m1, m2, m3)
	if nan || m == 0 {
		return rowMax(x)
	}
	return m
}

// expF64 sets d[i] = math.Exp(a[i]): the vector loop of simd_libm.go
// where there is one.
var expF64 = func() func(d, a []float64) {
	if v := libmAsm[float64](backend.OpExp); v != nil {
		return libmLoop(v, math.Exp, libmDomain[float64](backend.OpExp))
	}
	return func(d, a []float64) {
		for i, x := range a[:len(d)] {
			d[i] = math.Exp(x)
		}
	}
}()

// softmaxRow computes the float64 softmax (or log-softmax) of y in place
// for a result rounded to float32 or narrower: expCore, sum8F64.
func softmaxRow(y []float64, log bool) {
	mx := rowMax(y)
	if log {
		var e [64]float64
		var acc [8]float64
		// sum8F64 over exp(y-mx), a slice of e at a time (the same
		// accumulators in the same order).
		n8 := len(y) - len(y)%8
		for lo := 0; lo < n8; lo += len(e) {
			hi := min(lo+len(e), n8)
			for i := lo; i < hi; i++ {
				e[i-lo] = expCore(clampExp(y[i] - mx))
			}
			for i := 0; i < hi-lo; i += 8 {
				for j := range 8 {
					acc[j] += e[i+j]
				}
			}
		}
		s := ((acc[0] + acc[1]) + (acc[2] + acc[3])) + ((acc[4] + acc[5]) + (acc[6] + acc[7]))
		for _, v := range y[n8:] {
			s += expCore(clampExp(v - mx))
		}
		ls := math.Log(s)
		for i, v := range y {
			y[i] = v - mx - ls
		}
		return
	}
	for i, v := range y {
		y[i] = expCore(clampExp(v - mx))
	}
	s := sum8F64(y)
	for i := range y {
		y[i] /= s
	}
}

// softmaxRowF32 is softmaxRow for a float32 row x (read in place) and a
// float32 result d, with y as scratch: the same operations, vectorised.
// The memory of pf is prefetched while the exponentials are computed.
func softmaxRowF32(d, x []float32, y []float64, log bool, pf []byte) {
	mx := float64(rowMaxF32(x))
	if log {
		s := expSumF32PF(y, x, mx, pf)
		logDiffF32(d, x, mx, math.Log(s))
		return
	}
	s := expSumF32PF(y, x, mx, pf)
	divToF32(d, y, s)
}

// logDiffF32Go is the reference of logDiffF32: d[i] = float32(float64(x[i])
// - mx - ls).
func logDiffF32Go(d, x []float32, mx, ls float64) {
	for i, v := range x[:len(d)] {
		d[i] = float32(float64(v) - mx - ls)
	}
}

// softmaxRowNarrow is softmaxRow for a row x of float32 values (exact in
// float32: float16, bfloat16 and float8 inputs) and a result d of dtype dt
// (its values as float32s), with e and c (len(x) each) as scratch:
// softmaxRowF32's vector steps (the same operations as softmaxRow's),
// then each quotient (divByF64) or difference rounded once to dt.
func softmaxRowNarrow(d, x []float32, e, c []float64, log bool, dt dtypes.DType) {
	e = e[:len(x)]
	mx := float64(rowMaxF32(x))
	s := expSumF32PF(e, x, mx, nil)
	if log {
		ls := math.Log(s)
		for i, v := range x {
			e[i] = float64(v) - mx - ls
		}
	} else {
		divByF64(e, e, s, c)
	}
	switch dt {
	case dtypes.F16:
		f64sToF16Vals(d[:len(e)], e)
		return
	case dtypes.BF16:
		// Through float32, as f64ToBF16.
		for i, v := range e {
			d[i] = float32(v)
		}
		roundBF16(d[:len(e)])
		return
	}
	for i, v := range e {
		d[i] = roundTo64(dt, v)
	}
}

// clampExp clamps the argument of expCore to [-708, 709] (NaN stays).
func clampExp(y float64) float64 {
	if y < -708 {
		return -708
	}
	if y > 709 {
		return 709
	}
	return y
}

// gatherFloat64 sets y[i] = x[b + i*step] converted to float64, for a
// real compute buffer x.
func gatherFloat64(y []float64, x any, b, step int) error {
	switch xs := x.(type) {
	case []int8:
		gatherL(y, xs, b, step)
	case []int16:
		gatherL(y, xs, b, step)
	case []int32:
		gatherL(y, xs, b, step)
	case []int64:
		gatherL(y, xs, b, step)
	case []uint8:
		gatherL(y, xs, b, step)
	case []uint16:
		gatherL(y, xs, b, step)
	case []uint32:
		gatherL(y, xs, b, step)
	case []uint64:
		gatherL(y, xs, b, step)
	case []float32:
		gatherL(y, xs, b, step)
	case []float64:
		gatherL(y, xs, b, step)
	default:
		return fmt.Errorf("cpu: cannot convert %T to float64", x)
	}
	return nil
}

func gatherL[S realNum](y []float64, x []S, b, step int) {
	for i := range y {
		y[i] = float64(x[b+i*step])
	}
}
