package backend

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// The result shapes are NumPy's, np.matmul(np.ones(a), np.ones(b)).shape
// measured with numpy 1.24.2 (https://numpy.org/doc/stable/reference/generated/numpy.matmul.html:
// a 1-d first operand is a row, a 1-d second one a column, the added axis
// is removed, and the batch axes broadcast). NumPy reports a core
// mismatch before a batch mismatch: (2,2,3)@(3,2,4) raises "Input operand
// 1 has a mismatch in its core dimension 0 … (size 2 is different from 3)".
func TestPlanMatMul(t *testing.T) {
	for _, c := range []struct {
		a, b []int
		want string // the result shape, or the start of the error
	}{
		{[]int{3}, []int{3}, "[]"},
		{[]int{2, 3}, []int{3}, "[2]"},
		{[]int{3}, []int{3, 4}, "[4]"},
		{[]int{2, 3}, []int{3, 4}, "[2 4]"},
		{[]int{5, 1, 2, 3}, []int{4, 3, 6}, "[5 4 2 6]"},
		{[]int{1, 2, 3}, []int{7, 3, 2}, "[7 2 2]"},
		{[]int{0, 2, 3}, []int{3, 0}, "[0 2 0]"},
		{[]int{2, 3}, []int{2, 3}, "matmul: mismatch in its core dimension"},
		{[]int{2, 2, 3}, []int{3, 2, 4}, "matmul: mismatch in its core dimension"},
		{[]int{2, 2, 3}, []int{3, 3, 4}, "matmul: batch dimensions of [2 2 3] and [3 3 4] cannot be broadcast"},
		{[]int{}, []int{3}, "matmul: input operand does not have enough dimensions"},
	} {
		p, err := PlanMatMul(c.a, c.b)
		got := ""
		if err != nil {
			got = err.Error()
		} else {
			got = fmt.Sprint(p.Shape)
		}
		if !strings.HasPrefix(got, c.want) {
			t.Errorf("PlanMatMul(%v, %v) = %s, want %s", c.a, c.b, got, c.want)
		}
	}
}

func TestMatOperand(t *testing.T) {
	p, err := PlanMatMul([]int{5, 1, 2, 3}, []int{4, 3, 6})
	if err != nil {
		t.Fatal(err)
	}
	if p.Rows != 2 || p.K != 3 || p.Cols != 6 || !slices.Equal(p.Batch, []int{5, 4}) {
		t.Fatalf("plan %+v", p)
	}
	a := p.Operand(Layout{Shape: []int{5, 1, 2, 3}, Strides: RowMajor([]int{5, 1, 2, 3})}, true)
	// Batch axis 1 of a has size 1: stride 0.
	if a.RowStride != 3 || a.ColStride != 1 || !slices.Equal(a.Batch, []int{6, 0}) {
		t.Errorf("a: %+v", a)
	}
	// b lacks the first batch axis, and is read transposed.
	b := p.Operand(Layout{Shape: []int{4, 3, 6}, Strides: []int{18, 1, 3}}, false)
	if b.RowStride != 1 || b.ColStride != 3 || !slices.Equal(b.Batch, []int{0, 18}) {
		t.Errorf("b: %+v", b)
	}
	// A 1-d operand: a row on the left, a column on the right.
	p, _ = PlanMatMul([]int{3}, []int{2, 3, 4})
	v := p.Operand(Layout{Shape: []int{3}, Strides: []int{-2}, Off: 4}, true)
	if v.RowStride != 0 || v.ColStride != -2 || !slices.Equal(v.Batch, []int{0}) {
		t.Errorf("row vector: %+v", v)
	}
	p, _ = PlanMatMul([]int{2, 4, 3}, []int{3})
	v = p.Operand(Layout{Shape: []int{3}, Strides: []int{1}}, false)
	if v.RowStride != 1 || v.ColStride != 0 || !slices.Equal(v.Batch, []int{0}) {
		t.Errorf("column vector: %+v", v)
	}
}
