package backend

import "slices"

// unpermuteVisits bounds the nodes Unpermute looks at, so that a plan
// that shares its subtrees many times over is left as it is rather than
// walked path by path.
const unpermuteVisits = 1 << 12

// Unpermute finds an elementwise plan whose full-size operands all read
// one permutation of their arguments (exp(transpose(x)), transpose(x) * 2,
// transpose(x) - r for a row r, or a bare transpose) and returns the plan
// that computes the same elements in those arguments' order, with that
// permutation: n's value is m's value transposed by perm (dimension i of
// n is dimension perm[i] of m), and m reads its arguments as they are
// stored. NumPy's ufuncs keep their operand's order in the same way
// (order='K': np.exp(x.T) is stored as x is, and its .T is C-contiguous;
// a broadcast operand, whose strides are 0 along the broadcast axes, does
// not change the order x.T gives x.T - r).
//
// Every other operand must be smaller than the result and broadcast to it
// (a literal, a row, a column): m reads it through the inverse
// permutation. Nested transposes compose; where they compose to the
// identity, perm is nil and m drops them. ok is false, and m is n, where
// the plan is of another form or the permutation only moves axes of size
// 1 (then the elements are in order already).
func Unpermute(n *Node) (m *Node, perm []int, ok bool) {
	budget := unpermuteVisits
	var small []*Node
	if !findPerm(n, n.Shape, &perm, &small, &budget) || perm == nil {
		return n, nil, false
	}
	for _, s := range small {
		if !storedAlike(s, n.Shape, perm) {
			return n, nil, false
		}
	}
	identity := true
	for i, p := range perm {
		identity = identity && p == i
	}
	if !identity && !movesAxes(perm, n.Shape) {
		return n, nil, false
	}
	u := &unpermuter{shape: n.Shape, storage: make([]int, len(perm)), done: map[*Node]*Node{}}
	for i, p := range perm {
		u.storage[p] = n.Shape[i]
	}
	if !identity {
		u.inv = make([]int, len(perm))
		for i, p := range perm {
			u.inv[p] = i
		}
	}
	m = u.rewrite(n)
	if identity {
		perm = nil
	}
	return m, perm, true
}

// InOrder returns the plan n with each reduction that Unpermute can
// rewrite made a reduction of the stored order: a sum over transpose(x)
// becomes a sum over x along the same axes of x, transposed. NumPy
// reduces a view in the order of its memory (the reduction's iterator
// orders the axes by their strides, and keeps a negative stride's
// direction), so x.T.sum(axis=1) adds the elements of x.sum(axis=0) in
// its order and gives its bits, and np.exp(x.T), stored as x is, sums in
// that order too. The result is transposed back to the reduction's
// shape; Unpermute takes that transpose off at the root, where NumPy's
// result is stored in the order of its operand too. argmax and argmin
// are left as they are: NumPy reads a copy in the logical order, and the
// flat index of argmax(transpose(x)) counts in that order.
func InOrder(n *Node) *Node {
	budget := unpermuteVisits
	if !hasReduction(n, &budget) {
		return n // most statements: no map to make
	}
	r := &reorderer{done: map[*Node]*Node{}, budget: unpermuteVisits}
	return r.walk(n)
}

// hasReduction reports whether the plan at n holds a reduction InOrder
// rewrites, looking at no more than *budget nodes.
func hasReduction(n *Node, budget *int) bool {
	if *budget--; *budget < 0 {
		return false
	}
	switch n.Op {
	case OpSum, OpProd, OpMean, OpReduceMax, OpReduceMin, OpAny, OpAll:
		return true
	}
	for _, a := range n.Args {
		if hasReduction(a, budget) {
			return true
		}
	}
	return false
}

type reorderer struct {
	done   map[*Node]*Node
	budget int
}

func (r *reorderer) walk(n *Node) *Node {
	if m, ok := r.done[n]; ok {
		return m
	}
	if r.budget--; r.budget < 0 {
		return n
	}
	m := n
	for i, a := range n.Args {
		if b := r.walk(a); b != a {
			if m == n {
				c := *n
				c.Args = slices.Clone(n.Args)
				m = &c
			}
			m.Args[i] = b
		}
	}
	switch m.Op {
	case OpSum, OpProd, OpMean, OpReduceMax, OpReduceMin, OpAny, OpAll:
		m = reduceStored(m)
	}
	r.done[n] = m
	return m
}

// reduceStored returns the reduction n of an operand Unpermute rewrites
// as the same reduction of the rewritten operand, transposed to n's
// shape; else n.
func reduceStored(n *Node) *Node {
	a, perm, ok := Unpermute(n.Args[0])
	if !ok || perm == nil {
		return n
	}
	// Dimension i of the operand is dimension perm[i] of a.
	nd := len(perm)
	red := make([]bool, nd)
	for _, ax := range n.Axes {
		if ax < 0 || ax >= nd {
			return n // the Exec reports it
		}
		red[perm[ax]] = true
	}
	if len(n.Axes) == 0 {
		for i := range red {
			red[i] = true
		}
	}
	m := &Node{Op: n.Op, DType: n.DType, Args: []*Node{a}, KeepDims: n.KeepDims, Shape: []int{}}
	pos := make([]int, nd) // dimension i of a is dimension pos[i] of m, or none (-1)
	for i, d := range a.Shape {
		switch {
		case !red[i]:
			pos[i] = len(m.Shape)
			m.Shape = append(m.Shape, d)
		case n.KeepDims:
			pos[i] = len(m.Shape)
			m.Shape = append(m.Shape, 1)
		default:
			pos[i] = -1
		}
		if red[i] && len(n.Axes) > 0 {
			m.Axes = append(m.Axes, i)
		}
	}
	// Dimension j of n is dimension t[j] of m: the operand's dimensions
	// that n keeps, in the operand's order.
	var t []int
	for _, p := range perm {
		if pos[p] >= 0 {
			t = append(t, pos[p])
		}
	}
	switch {
	case movesAxes(t, n.Shape):
		return &Node{Op: OpTranspose, DType: n.DType, Shape: n.Shape, Axes: t, Args: []*Node{m}}
	case slices.Equal(m.Shape, n.Shape):
		return m
	}
	// Only axes of size 1 move.
	return &Node{Op: OpReshape, DType: n.DType, Shape: n.Shape, Args: []*Node{m}}
}

// findPerm reports whether the tree at n has Unpermute's form for a
// result of the given shape, setting *perm to the permutation of its
// transposed leaves (left nil where it has none) and adding its smaller
// operands to *small.
func findPerm(n *Node, shape []int, perm *[]int, small *[]*Node, budget *int) bool {
	if *budget--; *budget < 0 {
		return false
	}
	if allOnes(n.Shape) {
		return true
	}
	if !slices.Equal(n.Shape, shape) {
		// Broadcast to the result: read through the permutation.
		*small = append(*small, n)
		return broadcastsTo(n.Shape, shape) && Size(n.Shape) < Size(shape)
	}
	switch {
	case n.Op == OpTranspose:
		q, _ := peelTranspose(n)
		if *perm == nil {
			*perm = q
		}
		return slices.Equal(*perm, q)
	case n.Op.IsElementwise():
		for _, a := range n.Args {
			if !findPerm(a, shape, perm, small, budget) {
				return false
			}
		}
		return true
	}
	return false
}

// storedAlike reports whether the operand s, broadcast to shape, is
// stored with its axes longer than 1 in the order perm gives those axes
// of the result (dimension i of the result is dimension perm[i] of the
// storage). NumPy's iterator orders the axes of an elementwise operation
// by the strides of all its operands (npyiter_find_best_axis_ordering in
// numpy/core/src/multiarray/nditer_constr.c): an axis goes inside another
// only where every operand that moves along both agrees, so a row r of
// x.T - r, whose stride along the broadcast axis is 0, follows x.T, but
// an operand of two axes stored the other way round leaves the result in
// an order that is neither (np.ones((4,3,2)).transpose(2,1,0) +
// np.ones((2,1,4)) has strides of 12, 1 and 3 elements).
func storedAlike(s *Node, shape, perm []int) bool {
	q := make([]int, len(s.Shape))
	for i := range q {
		q[i] = i
	}
	if s.Op == OpTranspose {
		q, _ = peelTranspose(s)
	}
	off := len(shape) - len(s.Shape)
	for i, d := range s.Shape {
		for j := i + 1; j < len(s.Shape) && d > 1; j++ {
			if s.Shape[j] > 1 && q[i] < q[j] != (perm[off+i] < perm[off+j]) {
				return false
			}
		}
	}
	return true
}

// peelTranspose returns the permutation a chain of transposes at n makes
// of the first node under it that is not a transpose, and that node.
func peelTranspose(n *Node) ([]int, *Node) {
	q := slices.Clone(n.Axes)
	x := n.Args[0]
	for x.Op == OpTranspose {
		// Dimension i of n is dimension q[i] of x, which is dimension
		// x.Axes[q[i]] of x's argument.
		for i, a := range q {
			q[i] = x.Axes[a]
		}
		x = x.Args[0]
	}
	return q, x
}

// An unpermuter rebuilds a plan in its transposed leaves' order.
type unpermuter struct {
	shape   []int // the result's
	storage []int // the result's in the leaves' order
	inv     []int // the inverse permutation; nil for the identity
	done    map[*Node]*Node
}

// rewrite rebuilds the tree at n: full elementwise nodes take the
// storage shape, transposes give way to what they read, smaller
// operands are read through the inverse permutation (after a reshape to
// the result's rank), and size-1 ones stay as they are.
func (u *unpermuter) rewrite(n *Node) *Node {
	if allOnes(n.Shape) {
		return n
	}
	if m, ok := u.done[n]; ok {
		return m
	}
	var m *Node
	switch {
	case !slices.Equal(n.Shape, u.shape):
		m = n
		if u.inv == nil {
			break
		}
		if len(n.Shape) < len(u.shape) {
			full := make([]int, len(u.shape)-len(n.Shape), len(u.shape))
			for i := range full {
				full[i] = 1
			}
			full = append(full, n.Shape...)
			m = &Node{Op: OpReshape, DType: n.DType, Shape: full, Args: []*Node{n}}
		}
		t := make([]int, len(u.inv))
		for k, i := range u.inv {
			t[k] = m.Shape[i]
		}
		m = &Node{Op: OpTranspose, DType: n.DType, Shape: t, Axes: u.inv, Args: []*Node{m}}
	case n.Op == OpTranspose:
		_, m = peelTranspose(n)
	default:
		c := *n
		c.Shape = u.storage
		c.Args = make([]*Node, len(n.Args))
		for i, a := range n.Args {
			c.Args[i] = u.rewrite(a)
		}
		m = &c
	}
	u.done[n] = m
	return m
}

// broadcastsTo reports whether shape broadcasts to out (NumPy's rules:
// aligned at the right, each dimension 1 or out's).
func broadcastsTo(shape, out []int) bool {
	if len(shape) > len(out) {
		return false
	}
	off := len(out) - len(shape)
	for i, d := range shape {
		if d != 1 && d != out[off+i] {
			return false
		}
	}
	return true
}

// movesAxes reports whether perm changes the order of the elements of a
// row-major tensor of the given (permuted) shape: whether the axes longer
// than 1 come out of their original order.
func movesAxes(perm, shape []int) bool {
	last := -1
	for i, p := range perm {
		if shape[i] == 1 {
			continue
		}
		if p < last {
			return true
		}
		last = p
	}
	return false
}

func allOnes(shape []int) bool {
	for _, d := range shape {
		if d != 1 {
			return false
		}
	}
	return true
}
