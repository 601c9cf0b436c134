package backend

import (
	"slices"
	"testing"

	"github.com/tensorsh/tensorsh/dtypes"
)

// permInput is an input node of dtype d and the given shape, for the
// tests of Unpermute and InOrder.
func permInput(d dtypes.DType, shape ...int) *Node {
	return &Node{Op: OpInput, DType: d, Shape: shape, Tensor: &Tensor{DType: d, Shape: shape}}
}

// transposeOf is x transposed by perm.
func transposeOf(x *Node, perm ...int) *Node {
	shape := make([]int, len(perm))
	for i, p := range perm {
		shape[i] = x.Shape[p]
	}
	return &Node{Op: OpTranspose, DType: x.DType, Shape: shape, Axes: perm, Args: []*Node{x}}
}

func TestUnpermute(t *testing.T) {
	in := func(shape ...int) *Node { return permInput(dtypes.I32, shape...) }
	tr := transposeOf
	op := func(o Op, shape []int, args ...*Node) *Node {
		return &Node{Op: o, DType: args[0].DType, Shape: shape, Args: args}
	}
	x, y := in(2, 3), in(2, 3)
	c := in(2, 3, 4)
	one := in()
	ones := in(1, 1)
	for _, tc := range []struct {
		name    string
		n       *Node
		ok      bool
		perm    []int
		storage []int // the rewritten root's shape
	}{
		{"bare transpose", tr(x, 1, 0), true, []int{1, 0}, []int{2, 3}},
		{"unary", op(OpNeg, []int{3, 2}, tr(x, 1, 0)), true, []int{1, 0}, []int{2, 3}},
		{"times a 0-d literal", op(OpMul, []int{3, 2}, tr(x, 1, 0), one), true, []int{1, 0}, []int{2, 3}},
		{"plus a [1,1] tensor", op(OpAdd, []int{3, 2}, ones, tr(x, 1, 0)), true, []int{1, 0}, []int{2, 3}},
		{"two transposes alike", op(OpAdd, []int{3, 2}, tr(x, 1, 0), tr(y, 1, 0)), true, []int{1, 0}, []int{2, 3}},
		{"3-d", op(OpCast, []int{4, 2, 3}, tr(c, 2, 0, 1)), true, []int{2, 0, 1}, []int{2, 3, 4}},
		{"nested transposes compose", tr(tr(c, 2, 0, 1), 0, 2, 1), true, []int{2, 1, 0}, []int{2, 3, 4}},
		{"back to the identity", op(OpNeg, []int{2, 3}, tr(tr(x, 1, 0), 1, 0)), true, nil, []int{2, 3}},
		{"where", op(OpWhere, []int{3, 2}, op(OpGt, []int{3, 2}, tr(x, 1, 0), one), tr(y, 1, 0), one), true, []int{1, 0}, []int{2, 3}},

		{"a row-major operand", op(OpAdd, []int{3, 2}, tr(x, 1, 0), in(3, 2)), false, nil, nil},
		{"a broadcast row", op(OpAdd, []int{3, 2}, tr(x, 1, 0), in(2)), true, []int{1, 0}, []int{2, 3}},
		{"a broadcast column", op(OpMul, []int{3, 2}, in(3, 1), tr(x, 1, 0)), true, []int{1, 0}, []int{2, 3}},
		{"a row of a 3-d result", op(OpSub, []int{4, 2, 3}, tr(c, 2, 0, 1), op(OpNeg, []int{3}, in(3))), true, []int{2, 0, 1}, []int{2, 3, 4}},
		{"a smaller matrix of the same size", op(OpAdd, []int{1, 3, 2}, tr(in(1, 2, 3), 0, 2, 1), in(3, 2)), false, nil, nil},
		{"two permutations", op(OpAdd, []int{4, 2, 3}, tr(c, 2, 0, 1), tr(tr(c, 1, 2, 0), 1, 2, 0)), true, []int{2, 0, 1}, []int{2, 3, 4}},
		{"two other permutations", op(OpAdd, []int{2, 4, 3}, tr(c, 0, 2, 1), tr(in(4, 2, 3), 1, 0, 2)), false, nil, nil},
		{"only size-1 axes move", op(OpNeg, []int{6, 1}, tr(in(1, 6), 1, 0)), false, nil, nil},
		{"a reduction", op(OpSum, []int{3}, tr(x, 1, 0)), false, nil, nil},
		// An operand of two axes longer than 1 must be stored in the
		// order the permutation gives them (NumPy's iterator keeps the
		// row-major order where operands disagree).
		{"a matrix stored alike", op(OpAdd, []int{4, 2, 3}, tr(c, 2, 0, 1), in(2, 3)), true, []int{2, 0, 1}, []int{2, 3, 4}},
		{"a matrix stored the other way", op(OpAdd, []int{4, 3, 2}, tr(c, 2, 1, 0), in(4, 1, 2)), false, nil, nil},
		{"a transposed matrix stored alike", op(OpAdd, []int{4, 3, 2}, tr(c, 2, 1, 0), tr(in(2, 1, 4), 2, 1, 0)), true, []int{2, 1, 0}, []int{2, 3, 4}},
		{"no transpose", op(OpNeg, []int{2, 3}, x), false, nil, nil},
		{"an input", x, false, nil, nil},
		{"a transposed reduction", op(OpNeg, []int{3, 2}, tr(op(OpSum, []int{2, 3}, c), 1, 0)), true, []int{1, 0}, []int{2, 3}},
	} {
		m, perm, ok := Unpermute(tc.n)
		if ok != tc.ok || !slices.Equal(perm, tc.perm) {
			t.Errorf("%s: perm %v, ok %v; want %v, %v", tc.name, perm, ok, tc.perm, tc.ok)
			continue
		}
		if !ok {
			if m != tc.n {
				t.Errorf("%s: not ok, but the plan changed", tc.name)
			}
			continue
		}
		if !slices.Equal(m.Shape, tc.storage) {
			t.Errorf("%s: rewritten shape %v, want %v", tc.name, m.Shape, tc.storage)
		}
		// No full-size transpose is left (a smaller operand is read
		// through the inverse permutation, at the result's rank), and
		// the plan given is unchanged.
		var walk func(n *Node)
		walk = func(n *Node) {
			if n.Op == OpTranspose {
				if Size(n.Shape) >= Size(m.Shape) || len(n.Shape) != len(m.Shape) {
					t.Errorf("%s: a transpose of shape %v is left", tc.name, n.Shape)
				}
				for k, i := range n.Axes {
					if tc.perm[i] != k {
						t.Errorf("%s: a smaller operand is read through axes %v, want the inverse of %v", tc.name, n.Axes, tc.perm)
					}
				}
				return
			}
			for _, a := range n.Args {
				walk(a)
			}
		}
		walk(m)
		if tc.n.Op != OpTranspose && m == tc.n {
			t.Errorf("%s: rewrote the plan in place", tc.name)
		}
	}

	// A shared subtree stays shared, and the walk is bounded.
	s := op(OpNeg, []int{3, 2}, tr(x, 1, 0))
	m, _, ok := Unpermute(op(OpAdd, []int{3, 2}, s, s))
	if !ok || m.Args[0] != m.Args[1] {
		t.Errorf("a shared subtree: ok %v, shared %v", ok, ok && m.Args[0] == m.Args[1])
	}
	deep := op(OpNeg, []int{3, 2}, tr(x, 1, 0))
	for range 40 {
		deep = op(OpAdd, []int{3, 2}, deep, deep)
	}
	if _, _, ok := Unpermute(deep); ok {
		t.Errorf("a plan of 2^40 paths was walked")
	}
}

func TestInOrder(t *testing.T) {
	in := func(shape ...int) *Node { return permInput(dtypes.F32, shape...) }
	tr := transposeOf
	red := func(o Op, x *Node, keep bool, axes ...int) *Node {
		p, err := PlanReduce(x.Shape, axes, keep)
		if err != nil {
			t.Fatal(err)
		}
		return &Node{Op: o, DType: x.DType, Shape: p.OutShape, Axes: axes, KeepDims: keep, Args: []*Node{x}}
	}
	x, c := in(2, 3), in(2, 3, 4)
	for _, tc := range []struct {
		name string
		n    *Node
		// what the rewritten plan reduces, along which axes of it, and
		// the permutation that gives n's order (nil: none)
		arg  *Node
		axes []int
		perm []int
	}{
		{"a transposed matrix along its rows", red(OpSum, tr(x, 1, 0), false, 1), x, []int{0}, nil},
		{"all of it", red(OpMean, tr(x, 1, 0), false), x, nil, nil},
		{"keeping its dimensions (a reshape)", red(OpSum, tr(x, 1, 0), true, 1), x, []int{0}, nil},
		{"3-d, the kept axes swapped", red(OpSum, tr(c, 2, 0, 1), false, 1), c, []int{0}, []int{1, 0}},
		{"3-d, two axes", red(OpProd, tr(c, 2, 0, 1), false, 0, 1), c, []int{0, 2}, nil},
		{"3-d keeping dimensions (a reshape)", red(OpReduceMax, tr(c, 1, 2, 0), true, 2), c, []int{0}, nil},
		{"3-d keeping dimensions, transposed", red(OpSum, tr(c, 2, 0, 1), true, 1), c, []int{0}, []int{2, 0, 1}},
		{"an elementwise operand", red(OpAny, &Node{Op: OpNeg, DType: dtypes.F32, Shape: []int{3, 2}, Args: []*Node{tr(x, 1, 0)}}, false, 0), nil, []int{1}, nil},
		{"argmax counts in the logical order", red(OpArgMax, tr(x, 1, 0), false), nil, nil, nil},
		{"a row-major operand", red(OpSum, x, false, 1), nil, nil, nil},
	} {
		m := InOrder(tc.n)
		if tc.n.Op == OpArgMax || tc.n.Args[0] == x {
			if m != tc.n {
				t.Errorf("%s: rewritten", tc.name)
			}
			continue
		}
		if !slices.Equal(m.Shape, tc.n.Shape) {
			t.Errorf("%s: shape %v, want %v", tc.name, m.Shape, tc.n.Shape)
		}
		r := m
		switch {
		case tc.perm != nil:
			if m.Op != OpTranspose || !slices.Equal(m.Axes, tc.perm) {
				t.Errorf("%s: %v %v, want a transpose by %v", tc.name, m.Op, m.Axes, tc.perm)
				continue
			}
			r = m.Args[0]
		case m.Op == OpReshape:
			r = m.Args[0]
		}
		if r.Op != tc.n.Op || !slices.Equal(r.Axes, tc.axes) || r.KeepDims != tc.n.KeepDims {
			t.Errorf("%s: %v over %v, want %v over %v", tc.name, r.Op, r.Axes, tc.n.Op, tc.axes)
			continue
		}
		if tc.arg != nil && r.Args[0] != tc.arg {
			t.Errorf("%s: reduces %v%v, want the stored operand", tc.name, r.Args[0].Op, r.Args[0].Shape)
		}
		if tc.arg == nil && (r.Args[0].Op != OpNeg || r.Args[0].Args[0] != x) {
			t.Errorf("%s: reduces %v, want -x", tc.name, r.Args[0].Op)
		}
	}

	// An axis out of range is left for the Exec to report.
	bad := &Node{Op: OpSum, DType: dtypes.F32, Shape: []int{3}, Axes: []int{5}, Args: []*Node{tr(x, 1, 0)}}
	if InOrder(bad) != bad {
		t.Errorf("a reduction over axis 5 of a matrix was rewritten")
	}
	// No reduction: the plan as it is.
	neg := &Node{Op: OpNeg, DType: dtypes.F32, Shape: []int{3, 2}, Args: []*Node{tr(x, 1, 0)}}
	if InOrder(neg) != neg {
		t.Errorf("a plan without a reduction was rewritten")
	}

	// A reduction inside a plan, and one of another's result.
	inner := red(OpSum, tr(c, 2, 0, 1), false, 1) // [4, 3]: c's sum over axis 0, transposed
	outer := red(OpSum, inner, false, 0)          // [3]
	m := InOrder(&Node{Op: OpNeg, DType: dtypes.F32, Shape: []int{3}, Args: []*Node{outer}})
	r := m.Args[0]
	if r.Op != OpSum || !slices.Equal(r.Axes, []int{1}) || r.Args[0].Op != OpSum || r.Args[0].Args[0] != c {
		t.Errorf("nested: %v over %v of %v, want a sum over axis 1 of c's sum over axis 0", r.Op, r.Axes, r.Args[0].Op)
	}
}
