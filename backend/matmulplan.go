package backend

import (
	"fmt"

	"github.com/tensorsh/tensorsh/broadcast"
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
	p := &MatMulPlan{Rows: a2[len(a2)-2], K: a2[len(a2)-1], Cols: b2[len(b2)-1]}
	if k2 := b2[len(b2)-2]; p.K != k2 {
		return nil, fmt.Errorf("matmul: mismatch in its core dimension: %v and %v (size %d is different from %d)", a, b, p.K, k2)
	}
	batch, err := broadcast.Shapes(a2[:len(a2)-2], b2[:len(b2)-2])
	if err != nil {
		return nil, fmt.Errorf("matmul: batch dimensions of %v and %v cannot be broadcast", a, b)
	}
	p.Batch = batch
	p.Shape = append(append([]int{}, p.Batch...), p.Rows, p.Cols)
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
