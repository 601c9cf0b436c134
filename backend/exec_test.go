package backend

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/tensorsh/tensorsh/dtypes"
)

// A toy backend for the tests of Exec: float64 storage, no elementwise
// kernels, and counts of what the Exec asks of it.
type toyView struct {
	data []float64
	l    Layout
}

func (v *toyView) DType() dtypes.DType          { return dtypes.F64 }
func (v *toyView) Layout() Layout               { return v.l }
func (v *toyView) WithLayout(l Layout) *toyView { return &toyView{v.data, l} }

// values returns the elements of v in row-major order.
func (v *toyView) values() []float64 {
	var out []float64
	idx := make([]int, len(v.l.Shape))
	for range Size(v.l.Shape) {
		p := v.l.Off
		for d, i := range idx {
			p += i * v.l.Strides[d]
		}
		out = append(out, v.data[p])
		for d := len(idx) - 1; d >= 0; d-- {
			if idx[d]++; idx[d] < v.l.Shape[d] {
				break
			}
			idx[d] = 0
		}
	}
	return out
}

type toy struct {
	inputs, allocs, reduces int
	arg                     *Node
	plan                    *ReducePlan
}

func (k *toy) Input(n *Node, size int) (*toyView, error) {
	k.inputs++
	return &toyView{n.Tensor.Data.([]float64), Layout{Shape: n.Shape, Strides: RowMajor(n.Shape)}}, nil
}

func (k *toy) Elementwise(n *Node, size int) (*toyView, error) {
	return nil, fmt.Errorf("toy: no kernel for %v", n.Op)
}

// MatMul gives a result of the wrong shape, which the Exec must catch.
func (k *toy) MatMul(n *Node, a, b *toyView, p *MatMulPlan, size int) (*toyView, error) {
	return k.Alloc(n.DType, []int{size}, size)
}

func (k *toy) Softmax(n *Node, size int) (*toyView, error) { return nil, errors.New("toy: no softmax") }
func (k *toy) Scan(n *Node, size int) (*toyView, error)    { return nil, errors.New("toy: no scan") }
func (k *toy) Sort(n *Node, size int) (*toyView, error)    { return nil, errors.New("toy: no sort") }

func (k *toy) Reduce(n, arg *Node, p *ReducePlan, size int) (*toyView, error) {
	k.reduces++
	k.arg, k.plan = arg, p
	return k.Alloc(n.DType, n.Shape, size)
}

func (k *toy) Alloc(d dtypes.DType, shape []int, size int) (*toyView, error) {
	k.allocs++
	return &toyView{make([]float64, size), Layout{Shape: slices.Clone(shape), Strides: RowMajor(shape)}}, nil
}

func (k *toy) CopyInto(dst, src *toyView) error {
	for i, x := range src.values() {
		// dst is a window on contiguous storage: place element i.
		p, rem := dst.l.Off, i
		for d := len(dst.l.Shape) - 1; d >= 0; d-- {
			p += rem % dst.l.Shape[d] * dst.l.Strides[d]
			rem /= dst.l.Shape[d]
		}
		dst.data[p] = x
	}
	return nil
}

func toyInput(shape ...int) *Node {
	data := make([]float64, Size(shape))
	for i := range data {
		data[i] = float64(i)
	}
	t := &Tensor{DType: dtypes.F64, Shape: shape, Data: data}
	return &Node{Op: OpInput, DType: dtypes.F64, Shape: shape, Tensor: t}
}

func toyNode(op Op, shape []int, args ...*Node) *Node {
	return &Node{Op: op, DType: dtypes.F64, Shape: shape, Args: args}
}

// TestExecViews checks that the structural operations are views: they
// read the argument's storage and allocate nothing, but for concat and a
// reshape of a non-contiguous view, which copies it once. (NumPy's reshape
// copies only when no view can give the new shape, _attempt_nocopy_reshape
// in numpy/_core/src/multiarray/shape.c; the values are the same.)
func TestExecViews(t *testing.T) {
	x := toyInput(2, 3) // [[0 1 2] [3 4 5]]
	tr := &Node{Op: OpTranspose, DType: dtypes.F64, Shape: []int{3, 2}, Axes: []int{1, 0}, Args: []*Node{x}}
	for _, c := range []struct {
		name   string
		n      *Node
		want   string
		allocs int
	}{
		{"transpose", tr, "[0 3 1 4 2 5]", 0},
		{"slice", &Node{Op: OpSlice, DType: dtypes.F64, Shape: []int{2, 2}, Args: []*Node{x},
			Slices: []Slice{{Start: 0, Stop: 2, Step: 1}, {Start: 2, Stop: -1, Step: -2}}}, "[2 0 5 3]", 0},
		{"broadcast_to", toyNode(OpBroadcastTo, []int{2, 2, 3}, x), "[0 1 2 3 4 5 0 1 2 3 4 5]", 0},
		{"reshape", toyNode(OpReshape, []int{3, 2}, x), "[0 1 2 3 4 5]", 0},
		{"reshape of a transpose", toyNode(OpReshape, []int{6}, tr), "[0 3 1 4 2 5]", 1},
		{"concat", &Node{Op: OpConcat, DType: dtypes.F64, Shape: []int{2, 5}, Axes: []int{1}, Args: []*Node{x, toyNode(OpSlice, []int{2, 2}, x)}}, "", 0},
	} {
		if c.name == "concat" {
			c.n.Args[1].Slices = []Slice{{Start: 0, Stop: 2, Step: 1}, {Start: 0, Stop: 2, Step: 1}}
			c.want, c.allocs = "[0 1 2 0 1 3 4 5 3 4]", 1
		}
		k := &toy{}
		v, err := NewExec[*toyView](context.Background(), "toy", k, nil).Run(c.n)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if got := fmt.Sprint(v.values()); got != c.want || k.allocs != c.allocs {
			t.Errorf("%s = %s with %d allocations, want %s with %d", c.name, got, k.allocs, c.want, c.allocs)
		}
	}
}

// TestExecShared checks that a node used twice is evaluated once.
func TestExecShared(t *testing.T) {
	x := toyInput(2, 2)
	a := toyNode(OpReshape, []int{4}, x)
	root := &Node{Op: OpConcat, DType: dtypes.F64, Shape: []int{8}, Axes: []int{0}, Args: []*Node{a, a}}
	k := &toy{}
	v, err := NewExec[*toyView](context.Background(), "toy", k, nil).Run(root)
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(v.values()); got != "[0 1 2 3 0 1 2 3]" || k.inputs != 1 {
		t.Errorf("got %s with %d inputs", got, k.inputs)
	}
}

func TestExecErrors(t *testing.T) {
	x := toyInput(2, 3)
	refuse := func(n *Node) error {
		if n.Op == OpSoftmax && n.DType == dtypes.F64 {
			return errors.New("toy: no softmax here")
		}
		return nil
	}
	for _, c := range []struct {
		n    *Node
		want string
	}{
		{nil, "toy: plan has a nil node"},
		{toyNode(OpReshape, []int{4}, x), "toy: cannot reshape [2 3] (6 elements) to [4] (4 elements)"},
		{&Node{Op: OpTranspose, DType: dtypes.F64, Shape: []int{3, 2}, Axes: []int{0, 0}, Args: []*Node{x}}, "toy: transpose: axes [0 0] are not a permutation"},
		{toyNode(OpBroadcastTo, []int{4, 3}, x), "toy: broadcast_to: cannot broadcast shape [2 3] to [4 3]"},
		{&Node{Op: OpReshape, DType: dtypes.F32, Shape: []int{6}, Args: []*Node{x}}, "toy: reshape keeps the dtype of its operand (f64), but the plan says f32"},
		{toyNode(OpReshape, []int{-1, -6}, x), "toy: reshape: negative dimension in shape [-1 -6]"},
		{toyNode(OpReshape, []int{1 << 40, 1 << 40}, x), "out of memory: shape [1099511627776 1099511627776] has too many elements"},
		{toyNode(OpNeg, []int{2, 3}, x), "toy: no kernel for neg"},
		{toyNode(OpNeg, []int{3, 2}, x, x), "toy: neg takes 1 arguments, got 2"},
		{&Node{Op: OpSoftmax, DType: dtypes.F64, Shape: []int{2, 3}, Axes: []int{1}, Args: []*Node{x}}, "toy: no softmax here"},
		{&Node{Op: OpSoftmax, DType: dtypes.I64, Shape: []int{2, 3}, Axes: []int{1}, Args: []*Node{x}}, "toy: softmax of f64 to i64 is not supported"},
		{&Node{Op: OpMatMul, DType: dtypes.F64, Shape: []int{2, 2}, Args: []*Node{x, x}}, "matmul: mismatch in its core dimension: [2 3] and [2 3] (size 3 is different from 2)"},
		{&Node{Op: OpMatMul, DType: dtypes.F64, Shape: []int{2, 2}, Args: []*Node{x, toyNode(OpReshape, []int{3, 2}, x)}}, "toy: internal error: matmul gave f64[4], want f64[2 2]"},
		{&Node{Op: OpReduceMax, DType: dtypes.F64, Shape: []int{3}, Axes: []int{0}, Args: []*Node{toyInput(0, 3)}}, "zero-size array to reduction operation maximum which has no identity"},
		{&Node{Op: OpArgMin, DType: dtypes.I64, Shape: []int{}, Args: []*Node{toyInput(0)}}, "attempt to get argmin of an empty sequence"},
		{&Node{Op: OpSum, DType: dtypes.F64, Shape: []int{3}, Axes: []int{2}, Args: []*Node{x}}, "toy: sum: axis 2 is out of bounds for array of dimension 2"},
		{&Node{Op: OpSum, DType: dtypes.F64, Shape: []int{2}, Axes: []int{0}, Args: []*Node{x}}, "toy: sum of shape [2 3] over axes [0] gives [3], plan says [2]"},
		{&Node{Op: OpSum, DType: dtypes.F64, Shape: []int{3}, Axes: []int{0}, Args: []*Node{x}, SkipNaN: true}, "toy: sum of f64 cannot skip NaNs"},
		{&Node{Op: OpReduceMax, DType: dtypes.I64, Shape: []int{}, Args: []*Node{{Op: OpCast, DType: dtypes.I64, Shape: []int{2, 3}, Args: []*Node{x}}}, SkipNaN: true}, "toy: reduce_max of i64 cannot skip NaNs"},
	} {
		k := &toy{}
		x := NewExec[*toyView](context.Background(), "toy", k, refuse)
		_, err := x.Run(c.n)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%v: got %v, want %s", c.n, err, c.want)
		}
	}
}

// ReduceArg casts the argument of a reduction to the dtype it accumulates
// in: a bool sum or product into a number accumulates in that number
// (np.sum(np.array([True, True])) is 2, numpy.sum's dtype parameter at
// https://numpy.org/doc/stable/reference/generated/numpy.sum.html), a mean
// of integers in its float result ("for integer inputs, the default is
// float64", https://numpy.org/doc/stable/reference/generated/numpy.mean.html),
// and any and all test truth values (numpy.any: "Not a Number (NaN),
// positive infinity and negative infinity evaluate to True because these
// are not equal to zero").
func TestReduceArg(t *testing.T) {
	for _, c := range []struct {
		op       Op
		from, to dtypes.DType
		cast     dtypes.DType // Invalid: no cast
	}{
		{OpSum, dtypes.Bool, dtypes.I64, dtypes.I64},
		{OpProd, dtypes.Bool, dtypes.U8, dtypes.U8},
		{OpSum, dtypes.Bool, dtypes.Bool, dtypes.Invalid},
		{OpMean, dtypes.I32, dtypes.F64, dtypes.F64},
		{OpMean, dtypes.I32, dtypes.I32, dtypes.Invalid},
		{OpMean, dtypes.F16, dtypes.F16, dtypes.Invalid},
		{OpAny, dtypes.F32, dtypes.Bool, dtypes.Bool},
		{OpAll, dtypes.Bool, dtypes.Bool, dtypes.Invalid},
		{OpSum, dtypes.I8, dtypes.I64, dtypes.Invalid},
		{OpReduceMax, dtypes.Bool, dtypes.Bool, dtypes.Invalid},
	} {
		a := &Node{Op: OpInput, DType: c.from, Shape: []int{3}}
		got := ReduceArg(&Node{Op: c.op, DType: c.to, Shape: []int{}, Args: []*Node{a}})
		switch {
		case c.cast == dtypes.Invalid && got != a:
			t.Errorf("%v of %v to %v: cast to %v, want none", c.op, c.from, c.to, got.DType)
		case c.cast != dtypes.Invalid && (got.Op != OpCast || got.DType != c.cast || got.Args[0] != a || !slices.Equal(got.Shape, a.Shape)):
			t.Errorf("%v of %v to %v: %v %v, want a cast to %v", c.op, c.from, c.to, got.Op, got.DType, c.cast)
		}
	}
}

// TestRefCounts checks the parent counts of an Exec past the nodes it
// keeps in arrays: each node's count is the number of add calls for it,
// and a node never added counts 0.
func TestRefCounts(t *testing.T) {
	var r refCounts
	nodes := make([]*Node, 3*smallRefs)
	for i := range nodes {
		nodes[i] = &Node{Op: OpInput}
	}
	want := map[*Node]int{}
	for round := range 3 {
		for i, n := range nodes {
			if i%(round+1) != 0 {
				continue
			}
			want[n]++
			if got := r.add(n); got != want[n] {
				t.Fatalf("add(node %d) in round %d = %d, want %d", i, round, got, want[n])
			}
		}
	}
	for i, n := range nodes {
		if got := r.get(n); got != want[n] {
			t.Errorf("get(node %d) = %d, want %d", i, got, want[n])
		}
	}
	if got := r.get(&Node{}); got != 0 {
		t.Errorf("get of a node never added = %d, want 0", got)
	}
}

// TestMemo checks an Exec's memo past the nodes it keeps in arrays: each
// node put gives back its own view, and a node never put has none.
func TestMemo(t *testing.T) {
	var m memo[int]
	nodes := make([]*Node, 3*smallRefs)
	for i := range nodes {
		nodes[i] = &Node{Op: OpInput}
		if _, ok := m.get(nodes[i]); ok {
			t.Fatalf("get(node %d) before its put found a view", i)
		}
		m.put(nodes[i], 100+i)
	}
	for i, n := range nodes {
		if v, ok := m.get(n); !ok || v != 100+i {
			t.Errorf("get(node %d) = %d, %v; want %d, true", i, v, ok, 100+i)
		}
	}
	if v, ok := m.get(&Node{}); ok {
		t.Errorf("get of a node never put = %d, true; want none", v)
	}
}
