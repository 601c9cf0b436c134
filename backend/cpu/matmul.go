package cpu

import (
	"github.com/tensorsh/tensorsh/backend"
	"github.com/tensorsh/tensorsh/dtypes"
)

// Matrix products follow NumPy's matmul: a 1-d first operand is a row
// vector and a 1-d second operand a column vector (the added axis is
// removed from the result); the leading (batch) axes broadcast.
//
// Each output element is the sum over p of a[i,p]·b[p,j] in order of p.
// float32 and float64 accumulate like BLAS, in their own precision, with
// fused multiply-adds: each step acc = a[i,p]·b[p,j] + acc is rounded once
// to the dtype, in order of p (gemm.go; the same bits for every blocking,
// worker count, kernel and CPU), except a long dot of two vectors, which
// sums in 32 lanes (backend.MatMulPlan.InLanes). The error of an element
// is then at most γ_k·Σ_p |a[i,p]|·|b[p,j]|, where γ_k = k·u/(1-k·u) and
// u = 2^-24 for
// float32, 2^-53 for float64 (Higham, Accuracy and Stability of Numerical
// Algorithms, 2nd ed., §3.1, (3.5), which holds with a fused multiply-add
// as each step still has one rounding). OpenBLAS also accumulates in the
// dtype with fused multiply-adds but splits p among several sums, so
// results can differ from NumPy's in the last bits within that bound.
// Floats narrower than float32 accumulate as float32 does, each product
// exact in float32 (11 bits by 11 for float16), and round once to the
// operand dtype: NumPy's float16 matmul, which no BLAS computes, sums the
// products in a float32 in order of p and rounds the sum once
// (numpy/core/src/umath/matmul.c.src, the @IS_HALF@ inner loop), so these
// give its bits. Complex numbers accumulate in complex128. Integers wrap;
// bool is an OR of ANDs.

// MatMul computes the product n of av and bv that p plans.
func (r *runner) MatMul(n *backend.Node, av, bv *view, p *backend.MatMulPlan, size int) (*view, error) {
	dt := av.dtype
	rows, k, cols := p.Rows, p.K, p.Cols
	// Batch offsets of each operand (in elements of its contiguous buffer).
	nbatch := backend.Size(p.Batch)
	strA, strB := noBatch, noBatch
	if len(p.Batch) > 0 {
		strA = batchOffsets(p.Batch, p.Operand(contigLayout(av.shape), true).Batch)
		strB = batchOffsets(p.Batch, p.Operand(contigLayout(bv.shape), false).Batch)
	}
	// A symmetric product of floats goes through gemmRun (rows > 1).
	ct := computeOf(dt)
	sym := nbatch == 1 && rows > 1 && (ct == ctF32 || ct == ctF64) && !p.InLanes(dt) && transposePair(av, bv)
	var x, y any
	var err error
	switch {
	case sym && bv.contiguous():
		// xᵀ·x: A is read from x's buffer, transposed (mmGeom.aT).
		y, err = r.computeBuf(bv)
		x = y
	case sym && av.contiguous():
		// x·xᵀ: B is read from x's buffer, transposed (mmGeom.bT).
		x, err = r.computeBuf(av)
		y = x
	default:
		if x, err = r.computeBuf(av); err == nil {
			y, err = r.computeBuf(bv)
		}
	}
	if err != nil {
		return nil, err
	}
	res, err := r.allocBufFull(computeOf(dt), size) // every path writes every element
	if err != nil {
		return nil, err
	}
	g := mmGeom{rows: rows, k: k, cols: cols, nbatch: nbatch, offA: strA, offB: strB,
		sym: sym, aT: sym && bv.contiguous(), bT: sym && !bv.contiguous() && av.contiguous()}
	if g.aT || g.bT {
		g.offA, g.offB = noBatch, noBatch
	}
	switch xs := x.(type) {
	case []bool:
		err = mmRun(r, g, xs, y.([]bool), res.([]bool), mmBool)
	case []int8:
		err = mmRun(r, g, xs, y.([]int8), res.([]int8), mmInt[int8])
	case []int16:
		err = mmRun(r, g, xs, y.([]int16), res.([]int16), mmInt[int16])
	case []int32:
		err = mmRun(r, g, xs, y.([]int32), res.([]int32), mmInt[int32])
	case []int64:
		err = mmRun(r, g, xs, y.([]int64), res.([]int64), mmInt[int64])
	case []uint8:
		err = mmRun(r, g, xs, y.([]uint8), res.([]uint8), mmInt[uint8])
	case []uint16:
		err = mmRun(r, g, xs, y.([]uint16), res.([]uint16), mmInt[uint16])
	case []uint32:
		err = mmRun(r, g, xs, y.([]uint32), res.([]uint32), mmInt[uint32])
	case []uint64:
		err = mmRun(r, g, xs, y.([]uint64), res.([]uint64), mmInt[uint64])
	case []float32:
		switch {
		case p.InLanes(dt):
			err = lanesRun(r, g, xs, y.([]float32), res.([]float32))
		case gemmShape(g):
			err = gemmRun(r, gemmF32, g, xs, y.([]float32), res.([]float32))
		case g.cols == 1:
			err = mvRun(r, mvF32, g, xs, y.([]float32), res.([]float32))
		case g.rows == 1 && vmF32.w > 0:
			err = vmRun(r, vmF32, g, xs, y.([]float32), res.([]float32))
		default:
			err = mmRun(r, g, xs, y.([]float32), res.([]float32), mmSeq[float32])
		}
		if err == nil && dt != dtypes.F32 {
			// Narrower floats: float32 sums of their products, which are
			// exact in float32 (so each fused step rounds only the
			// sum), rounded once to dt.
			err = roundNarrow(r, dt, res.([]float32))
		}
	case []float64:
		switch {
		case p.InLanes(dt):
			err = lanesRun(r, g, xs, y.([]float64), res.([]float64))
		case gemmShape(g):
			err = gemmRun(r, gemmF64, g, xs, y.([]float64), res.([]float64))
		case g.cols == 1:
			err = mvRun(r, mvF64, g, xs, y.([]float64), res.([]float64))
		case g.rows == 1 && vmF64.w > 0:
			err = vmRun(r, vmF64, g, xs, y.([]float64), res.([]float64))
		default:
			err = mmRun(r, g, xs, y.([]float64), res.([]float64), mmSeq[float64])
		}
	case []complex64:
		err = c64Run(r, g, xs, widenC64(y.([]complex64)), res.([]complex64))
	case []complex128:
		err = complex128Product(r, g, xs, y.([]complex128), res.([]complex128))
	}
	if err != nil {
		return nil, err
	}
	return r.finish(res, dt, n.DType, n.Shape)
}

type mmGeom struct {
	rows, k, cols, nbatch int
	offA, offB            []int
	// sym: the product is x·xᵀ or xᵀ·x, whose element (i, j) is the same
	// sum of the same products in the same order as (j, i) (gemm.go
	// computes the tiles on and above the diagonal and mirrors them).
	sym bool
	// aT: the first operand's buffer holds its transpose (x of xᵀ·x:
	// element (i, p) at p·rows + i); bT: the second's (x of x·xᵀ: (p, j)
	// at j·k + p). Only the gemm path reads them (sym products).
	aT, bT bool
}

// transposePair reports whether the 2-d views a and b are transposes of
// each other over the same storage: a = xᵀ and b = x, or a = x and b =
// xᵀ, so that a·b is symmetric (NumPy's matmul computes such a product
// with BLAS's syrk, half the multiply-adds: transpose(x) @ x of 1000×1000
// float32 took 2.6 ms, x @ y 4.4 ms).
func transposePair(a, b *view) bool {
	if len(a.shape) != 2 || len(b.shape) != 2 || a.off != b.off || a.dtype != b.dtype ||
		a.shape[0] != b.shape[1] || a.shape[1] != b.shape[0] ||
		a.strides[0] != b.strides[1] || a.strides[1] != b.strides[0] {
		return false
	}
	x, y := bufBytes(a.data), bufBytes(b.data)
	return len(x) > 0 && len(x) == len(y) && &x[0] == &y[0]
}

// contigLayout returns the layout of a contiguous buffer of the given shape.
func contigLayout(shape []int) backend.Layout {
	return backend.Layout{Shape: shape, Strides: backend.RowMajor(shape)}
}

// noBatch is the offsets of the one matrix of an operand with no batch
// axes (read only).
var noBatch = []int{0}

// batchOffsets returns, for every index of the batch shape, the offset
// of the matching matrix of an operand with the given batch strides.
func batchOffsets(batch, strides []int) []int {
	n := backend.Size(batch)
	offs := make([]int, n)
	idx := make([]int, len(batch))
	for i := range n {
		o := 0
		for d := range batch {
			o += idx[d] * strides[d]
		}
		offs[i] = o
		for d := len(batch) - 1; d >= 0; d-- {
			idx[d]++
			if idx[d] < batch[d] {
				break
			}
			idx[d] = 0
		}
	}
	return offs
}

// mmRun computes every output row: row(d, a, b, k, cols) gets the row of a
// (k elements), the matrix b (k×cols) and the output row d (cols).
func mmRun[T any](r *runner, g mmGeom, x, y, out []T, row func(d, a, b []T, k, cols int)) error {
	total := g.nbatch * g.rows
	work := max(1, g.k*g.cols)
	return r.parallel(total, max(1, grainSize/work), func(_, lo, hi int) error {
		for t := lo; t < hi; t++ {
			bi, i := t/g.rows, t%g.rows
			a := x[g.offA[bi]+i*g.k : g.offA[bi]+(i+1)*g.k]
			b := y[g.offB[bi] : g.offB[bi]+g.k*g.cols]
			row(out[t*g.cols:(t+1)*g.cols], a, b, g.k, g.cols)
			if work > grainSize {
				if err := r.ctx.Err(); err != nil {
					return err
				}
			}
		}
		return nil
	})
}

// complex128Product computes complex128 products: cmvRun's with one
// column, mmRun's rows of mmComplex otherwise.
func complex128Product(r *runner, g mmGeom, x, y, out []complex128) error {
	if g.cols == 1 {
		return cmvRun(r, g, x, y, out)
	}
	return mmRun(r, g, x, y, out, mmComplex[complex128])
}

// c64Run computes complex64 products: mmComplex sums complex64 in
// complex128, each operand widened as it goes; here y comes widened
// (yw) and each row of x is widened once (as it is read, two rows at a
// time, for a matrix-vector product: cmvPair64), so that the rows take
// complex128's kernels (cmatRow), and each sum rounds to complex64 as
// mmComplex's. 1000×1000 complex64: z @ z[:, :10] 5.9 → 2.9 ms, z @ z[0]
// 1.85 → 0.4–0.5 ms (NumPy's BLAS 1.3 and 0.07).
func c64Run(r *runner, g mmGeom, x []complex64, yw []complex128, out []complex64) error {
	total := g.nbatch * g.rows
	grain := max(2, grainSize/max(1, g.k*g.cols)) &^ 1
	return r.parallel(total, grain, func(_, lo, hi int) error {
		aw := make([]complex128, g.k)
		d := make([]complex128, max(2, g.cols))
		for t := lo; t < hi; {
			bi, i := t/g.rows, t%g.rows
			b := yw[g.offB[bi] : g.offB[bi]+g.k*g.cols]
			n := 1
			if g.cols == 1 && t+1 < hi && i+1 < g.rows {
				n = 2
			}
			base := g.offA[bi] + i*g.k
			switch {
			case n == 2 && cmvPair64(d[:2], x[base:base+g.k], x[base+g.k:base+2*g.k], b, g.k):
			default:
				for j, v := range x[base : base+g.k] {
					aw[j] = complex128(v)
				}
				n = 1
				mmComplex(d[:g.cols], aw[:g.k], b, g.k, g.cols)
			}
			for j, v := range d[:n*g.cols] {
				out[t*g.cols+j] = complex64(v)
			}
			t += n
		}
		return r.ctx.Err()
	})
}

// widenC64 returns x as complex128.
func widenC64(x []complex64) []complex128 {
	w := make([]complex128, len(x))
	for i, v := range x {
		w[i] = complex128(v)
	}
	return w
}

// cmvRun computes complex128 products with one column (matrix-vector):
// mmRun's rows two at a time through cmvPair, as mmComplex sums each.
func cmvRun(r *runner, g mmGeom, x, y, out []complex128) error {
	total := g.nbatch * g.rows
	return r.parallel(total, max(2, grainSize/max(1, g.k))&^1, func(_, lo, hi int) error {
		for t := lo; t < hi; {
			bi, i := t/g.rows, t%g.rows
			a := x[g.offA[bi]+i*g.k : g.offA[bi]+(i+1)*g.k]
			b := y[g.offB[bi] : g.offB[bi]+g.k]
			if t+1 < hi && i+1 < g.rows {
				a1 := x[g.offA[bi]+(i+1)*g.k : g.offA[bi]+(i+2)*g.k]
				if cmvPair(out[t:t+2], a, a1, b, g.k) {
					t += 2
					continue
				}
			}
			mmComplex(out[t:t+1], a, b, g.k, 1)
			t++
		}
		return r.ctx.Err()
	})
}

func mmInt[T integer](d, a, b []T, k, cols int) {
	clear(d)
	for p := range k {
		av := a[p]
		brow := b[p*cols : (p+1)*cols]
		for j, bv := range brow {
			d[j] += av * bv
		}
	}
}

func mmBool(d, a, b []bool, k, cols int) {
	clear(d)
	for p := range k {
		if !a[p] {
			continue
		}
		brow := b[p*cols : (p+1)*cols]
		for j, bv := range brow {
			d[j] = d[j] || bv
		}
	}
}

func mmComplex[T complex64 | complex128](d, a, b []T, k, cols int) {
	acc := make([]complex128, cols)
	if a128, ok := any(a).([]complex128); ok && cmatRow(acc, a128, any(b).([]complex128), k, cols) {
		copy(d, any(acc).([]T))
		return
	}
	for p := range k {
		av := complex128(a[p])
		brow := b[p*cols : (p+1)*cols]
		for j, bv := range brow {
			acc[j] += complex(cmulParts(real(av), imag(av), real(complex128(bv)), imag(complex128(bv))))
		}
	}
	for j, v := range acc {
		d[j] = T(v)
	}
}

// gemmShape reports whether a product goes to the GEMM of gemm.go: both
// sides of the result more than one element (a matrix-vector product
// would waste all but one row or column of each tile).
func gemmShape(g mmGeom) bool { return g.rows > 1 && g.cols > 1 }

// mmSeq is one row of a float32 or float64 product accumulated in T, in
// the order and with the fused multiply-adds of the GEMM's kernels.
func mmSeq[T float32 | float64](d, a, b []T, k, cols int) {
	clear(d)
	for p := range k {
		fmaRow(d, b[p*cols:(p+1)*cols], a[p])
	}
}

// roundNarrow rounds the float32 sums of a product to dt, a float
// narrower than float32, in place.
func roundNarrow(r *runner, dt dtypes.DType, out []float32) error {
	return r.parallel(len(out), grainSize, func(_, lo, hi int) error {
		if dt == dtypes.F16 {
			roundF16(out[lo:hi])
			return nil
		}
		for i := lo; i < hi; i++ {
			out[i] = roundTo64(dt, float64(out[i]))
		}
		return nil
	})
}

// mvRun computes products with one column (matrix-vector): the rows of
// each product spread over the workers, each sum in the order and with
// the fused multiply-adds of mmSeq; blocks of kern.rows rows go through
// kern for the largest multiple of kern.block values of p, and carry on in
// Go.
func mvRun[T float32 | float64](r *runner, kern mvKernel[T], g mmGeom, x, y, out []T) error {
	k := g.k
	grain := max(4, grainSize/max(1, k))
	if kern.rows > 0 {
		grain = (grain + kern.rows - 1) / kern.rows * kern.rows
	}
	return r.parallel(g.nbatch*g.rows, grain, func(_, lo, hi int) error {
		for t := lo; t < hi; {
			bi, i := t/g.rows, t%g.rows
			n := min(hi-t, g.rows-i) // rows of this product in [t, hi)
			a := x[g.offA[bi]+i*k : g.offA[bi]+(i+n)*k]
			v := y[g.offB[bi] : g.offB[bi]+k]
			d := out[t : t+n]
			if kb := k / max(1, kern.block) * kern.block; kb > 0 {
				for len(d) >= kern.rows {
					kern.f(kb, a, k, v, d)
					mvTail(d[:kern.rows], a, v, k, kb)
					a, d = a[kern.rows*k:], d[kern.rows:]
				}
			}
			mvSeq(d, a, v, k)
			t += n
		}
		return nil
	})
}

// lanesRun computes the products of one row and one column that sum in
// lanes (backend.MatMulPlan.InLanes), a dot product a batch.
func lanesRun[T float32 | float64](r *runner, g mmGeom, x, y, out []T) error {
	k := g.k
	return r.parallel(g.nbatch, max(1, grainSize/k), func(_, lo, hi int) error {
		for bi := lo; bi < hi; bi++ {
			out[bi] = dotLanes(x[g.offA[bi]:g.offA[bi]+k], y[g.offB[bi]:g.offB[bi]+k])
			if err := r.ctx.Err(); err != nil {
				return err
			}
		}
		return nil
	})
}

// mvTail carries each d[i] on with the fused multiply-adds of
// a[i*k+p]·v[p] for p from p0 to k, in order of p.
func mvTail[T float32 | float64](d, a, v []T, k, p0 int) {
	for i := range d {
		d[i] = fmaDot(d[i], a[i*k+p0:(i+1)*k], v[p0:k])
	}
}

// mvSeq sets d[i] to the sum over p of a[i*k+p]·v[p] in order of p, one
// fused multiply-add a step, four rows at a time (four independent sums
// keep the unit busy).
func mvSeq[T float32 | float64](d, a, v []T, k int) {
	i := 0
	for ; i+4 <= len(d); i += 4 {
		fmaDot4((*[4]T)(d[i:i+4]), a[i*k:], k, k, v)
	}
	for ; i < len(d); i++ {
		d[i] = fmaDot(0, a[i*k:(i+1)*k], v[:k])
	}
}
