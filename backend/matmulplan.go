package backend

import (
	"fmt"

	"github.com/tensorsh/tensorsh/broadcast"
	"github.com/tensorsh/tensorsh/dtypes"
)

// A MatMulPlan is the geometry of a matrix product under NumPy's matmul:
// a 1-d first operand is a row vector and a 1-d second operand a column
// vector (the added axis is removed from the result), and the leading
// (batch) axes broadcast.
type MatMulPlan struct {
	Rows, K, Cols int
	Batch         []int // the broadcast batch shape
	Shape         []int // the result's shape
}

// PlanMatMul returns the plan of the product of operands of shapes a and
// b, or NumPy's error when they do not multiply.
func PlanMatMul(a, b []int) (*MatMulPlan, error) {
	if len(a) == 0 || len(b) == 0 {
		return nil, fmt.Errorf("matmul: input operand does not have enough dimensions (0-d arrays are not allowed)")
	}
	a2, b2 := a, b
	if len(a) == 1 {
		a2 = []int{1, a[0]}
	}
	if len(b) == 1 {
		b2 = []int{b[0], 1}
	}
	// The plan and a result of up to four axes in one allocation.
	mem := new(struct {
		p    MatMulPlan
		dims [4]int
	})
	p := &mem.p
	*p = MatMulPlan{Rows: a2[len(a2)-2], K: a2[len(a2)-1], Cols: b2[len(b2)-1]}
	if k2 := b2[len(b2)-2]; p.K != k2 {
		return nil, fmt.Errorf("matmul: mismatch in its core dimension: %v and %v (size %d is different from %d)", a, b, p.K, k2)
	}
	batch, err := broadcast.Shapes(a2[:len(a2)-2], b2[:len(b2)-2])
	if err != nil {
		return nil, fmt.Errorf("matmul: batch dimensions of %v and %v cannot be broadcast", a, b)
	}
	p.Batch = batch
	p.Shape = append(append(mem.dims[:0], p.Batch...), p.Rows, p.Cols)
	if len(a) == 1 {
		p.Shape = append(p.Shape[:len(batch)], p.Cols)
	}
	if len(b) == 1 {
		p.Shape = p.Shape[:len(p.Shape)-1]
	}
	return p, nil
}

// A MatOperand places the matrices of one operand of a product in its
// layout: element [i, j] of the matrix at batch index b is at
// Off + Σ b[d]*Batch[d] + i*RowStride + j*ColStride, Off the layout's.
type MatOperand struct {
	RowStride, ColStride int
	Batch                []int // strides along MatMulPlan.Batch, 0 where broadcast
}

// Operand returns the placement of the operand l (first: the left one)
// of the product p plans. A 1-d operand has stride 0 along its added
// axis.
func (p *MatMulPlan) Operand(l Layout, first bool) MatOperand {
	nd := len(l.Shape)
	var m MatOperand
	if nd == 1 {
		if first {
			m.ColStride = l.Strides[0]
		} else {
			m.RowStride = l.Strides[0]
		}
		m.Batch = make([]int, len(p.Batch))
		return m
	}
	m.RowStride, m.ColStride = l.Strides[nd-2], l.Strides[nd-1]
	batch := Layout{Shape: l.Shape[:nd-2], Strides: l.Strides[:nd-2]}
	// The batch shapes broadcast: PlanMatMul checked them.
	m.Batch, _ = batch.BroadcastStrides(p.Batch)
	return m
}

// Dots in lanes. Every product sums its terms in order of p, one fused
// multiply-add a step (see the backends' MatMul), except a long dot of
// two float32 or float64 vectors: a product whose matrices have one row
// and one column (a 1-d @ 1-d, or a batch of such) with at least
// DotLanesFrom terms. Its sum is DotLanes partial sums, sum l taking the
// terms p ≡ l (mod DotLanes) in order of p from zero, one fused
// multiply-add a step, which are then added pairwise: sum[l] += sum[l+h]
// for every l < h, for h = DotLanes/2, …, 2, 1, leaving the result in
// sum[0]. One chain of k dependent steps runs at one step a latency of
// the multiply-add unit, whatever the machine (dot(v, v) of 10^6 float32
// took 1.6 ms where OpenBLAS's sdot, which splits its sum among
// accumulators too, takes 0.2); 32 chains keep the unit busy. The error
// bound only shrinks: each result is within γ_m·Σ_p |a[p]·b[p]| of the
// exact sum, m = ⌈k/DotLanes⌉ + log2(DotLanes) ≤ k (Higham, Accuracy and
// Stability of Numerical Algorithms, 2nd ed., §3.1, with the sum's
// pairwise tree). Floats narrower than float32 keep NumPy's float16 loop
// (in order of p), and shorter dots keep their one chain.
const (
	DotLanes     = 32
	DotLanesFrom = 1024
)

// InLanes reports whether the product p of operands of dtype d sums in
// DotLanes lanes.
func (p *MatMulPlan) InLanes(d dtypes.DType) bool {
	return p.Rows == 1 && p.Cols == 1 && p.K >= DotLanesFrom && (d == dtypes.F32 || d == dtypes.F64)
}
