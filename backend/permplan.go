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
	if !findPerm(n, n.Shape, &perm, &budget) || perm == nil {
		return n, nil, false
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

// findPerm reports whether the tree at n has Unpermute's form for a
// result of the given shape, setting *perm to the permutation of its
// transposed leaves (left nil where it has none).
func findPerm(n *Node, shape []int, perm *[]int, budget *int) bool {
	if *budget--; *budget < 0 {
		return false
	}
	if allOnes(n.Shape) {
		return true
	}
	if !slices.Equal(n.Shape, shape) {
		// Broadcast to the result: read through the permutation.
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
			if !findPerm(a, shape, perm, budget) {
				return false
			}
		}
		return true
	}
	return false
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
