package backend

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/tensorsh/tensorsh/dtypes"
)

// A View is a backend's strided window on storage it owns: a dtype, and a
// Layout placing the elements in the storage.
type View[V any] interface {
	DType() dtypes.DType
	Layout() Layout
	// WithLayout returns the view of the same storage that l places.
	WithLayout(l Layout) V
}

// Kernels are what a backend gives an Exec: its computations, and its
// storage. Each is called with a node the Exec has checked (a valid
// dtype, the number of arguments its operation takes, size the number of
// elements of its shape) and returns a view of n's dtype and shape.
type Kernels[V any] interface {
	// Input returns the view of the tensor of n, an input node whose
	// tensor has n's dtype and shape.
	Input(n *Node, size int) (V, error)
	// Elementwise computes the elementwise node n.
	Elementwise(n *Node, size int) (V, error)
	// MatMul computes the product n of a and b (of one dtype) that p plans.
	MatMul(n *Node, a, b V, p *MatMulPlan, size int) (V, error)
	// Softmax computes the softmax or log-softmax n: a float result of
	// its argument's shape, along the one axis n.Axes[0].
	Softmax(n *Node, size int) (V, error)
	// Scan computes the cumulative sum or product n (OpCumSum,
	// OpCumProd) of its argument, of n's dtype and shape, along the one
	// axis n.Axes[0].
	Scan(n *Node, size int) (V, error)
	// Sort computes the sort n (OpSort) of its argument, of n's dtype and
	// shape, or the indices that sort it (OpArgSort, of n's integer
	// dtype), along the one axis n.Axes[0].
	Sort(n *Node, size int) (V, error)
	// Reduce computes the reduction n of arg (n.Args[0], or a cast of it:
	// see ReduceArg) as p plans.
	Reduce(n, arg *Node, p *ReducePlan, size int) (V, error)
	// Alloc returns a contiguous view of new storage for size elements
	// of d in the given shape, which the caller writes in full.
	Alloc(d dtypes.DType, shape []int, size int) (V, error)
	// CopyInto copies the elements of src into dst, of the same dtype and
	// shape (not empty), bit for bit.
	CopyInto(dst, src V) error
}

// A Concatenator is Kernels that can copy the operands of a
// concatenation into its result in one pass, where a copy per operand
// would make many short runs (stack along the last axis interleaves its
// operands element by element).
type Concatenator[V any] interface {
	// ConcatInto copies srcs, of dst's dtype, into dst (contiguous and
	// not empty) concatenated along axis ax, bit for bit. It reports
	// false, having written nothing, when it leaves the copy to CopyInto
	// operand by operand.
	ConcatInto(dst V, srcs []V, ax int) (bool, error)
}

// A Selector is Kernels that can give a few places of a sort without
// sorting whole lines (a median, sort(v)[:10]): an Exec asks it for a
// slice of a sort along the sort's axis (every other axis whole), before
// it sorts.
type Selector[V any] interface {
	// SortedRange returns the elements at places [from, to) along
	// n.Axes[0] of the sort n (OpSort, which the Exec has checked): the
	// bits n would put there, in a contiguous view of the given shape
	// (n's with that axis to - from long, or without it when it is one
	// place dropped). It reports false, having computed nothing, when it
	// leaves the places to Sort.
	SortedRange(n *Node, from, to int, shape []int) (V, bool, error)
}

// An Exec evaluates a plan for a backend: it walks the plan, evaluates
// each node once (keeping the views of nodes used more than once),
// checks every node and what each kernel gives, and computes the
// structural operations (reshape, transpose, broadcast_to, slicing) as
// views that copy nothing, so that both backends give the same shapes and
// errors. The backend keeps allocation and kernels.
type Exec[V View[V]] struct {
	name    string
	ctx     context.Context
	kernels Kernels[V]
	check   func(*Node) error
	refs    refCounts // how many parents use each node
	memo    memo[V]   // evaluated nodes used more than once
}

// refCounts counts the parents of each node of a plan: the first
// smallRefs nodes in arrays searched in order, the others in a map. A
// statement's plan is mostly a few nodes, and a map (its allocation, its
// hashing) was a tenth of the fixed cost of a small statement.
type refCounts struct {
	nodes [smallRefs]*Node
	n     [smallRefs]int
	len   int
	more  map[*Node]int
}

const smallRefs = 8

// add counts one more parent of n and returns n's count.
func (r *refCounts) add(n *Node) int {
	for i, m := range r.nodes[:r.len] {
		if m == n {
			r.n[i]++
			return r.n[i]
		}
	}
	if r.len < smallRefs {
		r.nodes[r.len], r.n[r.len] = n, 1
		r.len++
		return 1
	}
	if r.more == nil {
		r.more = map[*Node]int{}
	}
	r.more[n]++
	return r.more[n]
}

// get returns n's count.
func (r *refCounts) get(n *Node) int {
	for i, m := range r.nodes[:r.len] {
		if m == n {
			return r.n[i]
		}
	}
	return r.more[n]
}

// A memo holds the views of the evaluated nodes that have more than one
// parent: the first smallRefs in arrays searched in order, the others in
// a map. `p ** 2` (p * p) uses p twice, and the map and its group were a
// third of the small statement's allocations.
type memo[V any] struct {
	nodes [smallRefs]*Node
	views [smallRefs]V
	len   int
	more  map[*Node]V
}

// get returns n's view and whether n has one.
func (m *memo[V]) get(n *Node) (V, bool) {
	for i, k := range m.nodes[:m.len] {
		if k == n {
			return m.views[i], true
		}
	}
	v, ok := m.more[n]
	return v, ok
}

// put keeps v as n's view.
func (m *memo[V]) put(n *Node, v V) {
	if m.len < smallRefs {
		m.nodes[m.len], m.views[m.len] = n, v
		m.len++
		return
	}
	if m.more == nil {
		m.more = map[*Node]V{}
	}
	m.more[n] = v
}

// NewExec returns an Exec for one evaluation under ctx by the backend of
// the given name (which begins its errors), with its kernels. check, when
// not nil, is called for every node of the plan before anything is
// evaluated: a backend refuses there what it does not compute.
func NewExec[V View[V]](ctx context.Context, name string, k Kernels[V], check func(*Node) error) *Exec[V] {
	x := new(Exec[V])
	x.Init(ctx, name, k, check)
	return x
}

// Init makes x an executor as NewExec does, in place: a backend that
// holds its Exec in its own state for a Run allocates one object fewer a
// statement.
func (x *Exec[V]) Init(ctx context.Context, name string, k Kernels[V], check func(*Node) error) {
	*x = Exec[V]{name: name, ctx: ctx, kernels: k, check: check}
}

func (x *Exec[V]) errorf(format string, args ...any) error {
	return fmt.Errorf("%s: %w", x.name, fmt.Errorf(format, args...))
}

// Run checks the plan rooted at root and evaluates it.
func (x *Exec[V]) Run(root *Node) (V, error) {
	if err := x.count(root, 0); err != nil {
		var zero V
		return zero, err
	}
	return x.Eval(root)
}

// count fills x.refs and checks the plan's structure.
func (x *Exec[V]) count(n *Node, depth int) error {
	if n == nil {
		return x.errorf("plan has a nil node")
	}
	if depth > 10000 {
		return x.errorf("plan too deep")
	}
	if x.check != nil {
		if err := x.check(n); err != nil {
			return err
		}
	}
	if x.refs.add(n) > 1 {
		return nil
	}
	for _, a := range n.Args {
		if err := x.count(a, depth+1); err != nil {
			return err
		}
	}
	return nil
}

// Fusible reports whether the elementwise node n can be computed inside
// the elementwise tree of root: it has root's shape (up to leading 1s),
// no other user, and has not been evaluated already.
func (x *Exec[V]) Fusible(n, root *Node) bool {
	if !n.Op.IsElementwise() || x.refs.get(n) > 1 {
		return false
	}
	if _, done := x.memo.get(n); done {
		return false
	}
	return slices.Equal(trimOnes(n.Shape), trimOnes(root.Shape))
}

func trimOnes(s []int) []int {
	for len(s) > 0 && s[0] == 1 {
		s = s[1:]
	}
	return s
}

// Eval evaluates n to a view: new storage, or a strided view of storage
// (transpose, slice, broadcast_to and reshape of contiguous data copy
// nothing).
func (x *Exec[V]) Eval(n *Node) (V, error) {
	var zero V
	if v, ok := x.memo.get(n); ok {
		return v, nil
	}
	if err := x.ctx.Err(); err != nil {
		return zero, err
	}
	if !n.DType.IsValid() {
		return zero, x.errorf("%v: invalid dtype %v", n.Op, n.DType)
	}
	size, err := ShapeSize(n.Shape)
	if err != nil {
		if errors.Is(err, ErrOutOfMemory) {
			return zero, err
		}
		return zero, x.errorf("%v: %v", n.Op, err)
	}
	if err := CheckArgs(n); err != nil {
		return zero, x.errorf("%v", err)
	}
	v, err := x.eval(n, size)
	if err != nil {
		return zero, err
	}
	if v.DType() != n.DType || !slices.Equal(v.Layout().Shape, n.Shape) {
		return zero, x.errorf("internal error: %v gave %v%v, want %v%v", n.Op, v.DType(), v.Layout().Shape, n.DType, n.Shape)
	}
	if x.refs.get(n) > 1 {
		x.memo.put(n, v)
	}
	return v, nil
}

func (x *Exec[V]) eval(n *Node, size int) (V, error) {
	switch n.Op {
	case OpInput:
		t := n.Tensor
		if t == nil {
			var zero V
			return zero, x.errorf("input node without a tensor")
		}
		if t.DType != n.DType || !slices.Equal(t.Shape, n.Shape) {
			var zero V
			return zero, x.errorf("input node says %v%v but its tensor is %v%v", n.DType, n.Shape, t.DType, t.Shape)
		}
		return x.kernels.Input(n, size)
	case OpReshape:
		return x.reshape(n, size)
	case OpTranspose, OpBroadcastTo, OpSlice:
		if v, ok, err := x.sortedRange(n); ok || err != nil {
			return v, err
		}
		return x.view(n)
	case OpConcat:
		return x.concat(n, size)
	case OpMatMul:
		return x.matmul(n, size)
	case OpSoftmax, OpLogSoftmax:
		return x.softmax(n, size)
	case OpCumSum, OpCumProd, OpSort, OpArgSort:
		return x.scan(n, size)
	case OpSum, OpProd, OpMean, OpReduceMax, OpReduceMin, OpArgMax, OpArgMin, OpAny, OpAll:
		return x.reduce(n, size)
	}
	return x.kernels.Elementwise(n, size)
}

// Materialize returns a contiguous copy of v.
func (x *Exec[V]) Materialize(v V) (V, error) {
	shape := v.Layout().Shape
	out, err := x.kernels.Alloc(v.DType(), shape, Size(shape))
	if err != nil {
		return out, err
	}
	if err := x.copyInto(out, v); err != nil {
		var zero V
		return zero, err
	}
	return out, nil
}

// copyInto copies src into dst unless they are empty.
func (x *Exec[V]) copyInto(dst, src V) error {
	if Size(src.Layout().Shape) == 0 {
		return nil
	}
	return x.kernels.CopyInto(dst, src)
}

// arg evaluates the single argument of n and checks that its dtype is
// n's (structural operations do not convert).
func (x *Exec[V]) arg(n *Node) (V, error) {
	a, err := x.Eval(n.Args[0])
	if err != nil {
		return a, err
	}
	if a.DType() != n.DType {
		var zero V
		return zero, x.errorf("%v keeps the dtype of its operand (%v), but the plan says %v", n.Op, a.DType(), n.DType)
	}
	return a, nil
}

func (x *Exec[V]) reshape(n *Node, size int) (V, error) {
	a, err := x.arg(n)
	if err != nil {
		return a, err
	}
	if l := a.Layout(); Size(l.Shape) != size {
		var zero V
		return zero, x.errorf("cannot reshape %v (%d elements) to %v (%d elements)", l.Shape, Size(l.Shape), n.Shape, size)
	}
	if !a.Layout().Contiguous() {
		if a, err = x.Materialize(a); err != nil {
			return a, err
		}
	}
	return a.WithLayout(Layout{Shape: append([]int{}, n.Shape...), Strides: RowMajor(n.Shape), Off: a.Layout().Off}), nil
}

// view evaluates a transpose, a broadcast_to or a slice: a view of the
// argument's storage.
func (x *Exec[V]) view(n *Node) (V, error) {
	a, err := x.arg(n)
	if err != nil {
		return a, err
	}
	l := a.Layout()
	switch n.Op {
	case OpTranspose:
		l, err = l.Transpose(n.Axes)
	case OpSlice:
		l, err = l.Slice(n.Slices, n.Shape)
	default:
		var s []int
		if s, err = l.BroadcastStrides(n.Shape); err != nil {
			err = fmt.Errorf("broadcast_to: %v", err)
		}
		l = Layout{Shape: append([]int{}, n.Shape...), Strides: s, Off: l.Off}
	}
	if err != nil {
		var zero V
		return zero, x.errorf("%v", err)
	}
	return a.WithLayout(l), nil
}

func (x *Exec[V]) concat(n *Node, size int) (V, error) {
	var zero V
	args := make([]V, len(n.Args))
	shapes := make([][]int, len(n.Args))
	for i, an := range n.Args {
		a, err := x.Eval(an)
		if err != nil {
			return zero, err
		}
		if a.DType() != n.DType {
			return zero, x.errorf("concat of %v into %v: operands must share the result dtype", a.DType(), n.DType)
		}
		args[i], shapes[i] = a, a.Layout().Shape
	}
	ax, err := ConcatAxis(n, shapes)
	if err != nil {
		return zero, x.errorf("%v", err)
	}
	out, err := x.kernels.Alloc(n.DType, n.Shape, size)
	if err != nil {
		return zero, err
	}
	if c, ok := x.kernels.(Concatenator[V]); ok && size > 0 {
		done, err := c.ConcatInto(out, args, ax)
		if err != nil {
			var zero V
			return zero, err
		}
		if done {
			return out, nil
		}
	}
	ol := out.Layout()
	start := 0
	for i, a := range args {
		// The destination window of a: out sliced along ax.
		dst := out.WithLayout(Layout{Shape: shapes[i], Strides: ol.Strides, Off: ol.Off + start*ol.Strides[ax]})
		if err := x.copyInto(dst, a); err != nil {
			return zero, err
		}
		start += shapes[i][ax]
	}
	return out, nil
}

func (x *Exec[V]) matmul(n *Node, size int) (V, error) {
	a, err := x.Eval(n.Args[0])
	if err != nil {
		return a, err
	}
	b, err := x.Eval(n.Args[1])
	if err != nil {
		return b, err
	}
	var zero V
	if a.DType() != b.DType() {
		return zero, x.errorf("matmul: operands have dtypes %v and %v; the plan must cast them to one", a.DType(), b.DType())
	}
	as, bs := a.Layout().Shape, b.Layout().Shape
	p, err := PlanMatMul(as, bs)
	if err != nil {
		return zero, err
	}
	if !slices.Equal(p.Shape, n.Shape) {
		return zero, x.errorf("matmul of %v and %v gives %v, plan says %v", as, bs, p.Shape, n.Shape)
	}
	return x.kernels.MatMul(n, a, b, p, size)
}

func (x *Exec[V]) softmax(n *Node, size int) (V, error) {
	var zero V
	a := n.Args[0]
	if a.DType.IsComplex() || a.DType == dtypes.Bool || !n.DType.IsFloat() {
		return zero, x.errorf("%v of %v to %v is not supported", n.Op, a.DType, n.DType)
	}
	if len(n.Axes) != 1 || n.Axes[0] < 0 || n.Axes[0] >= len(a.Shape) {
		return zero, x.errorf("%v needs one axis within the %d dimensions", n.Op, len(a.Shape))
	}
	if !slices.Equal(a.Shape, n.Shape) {
		return zero, x.errorf("%v keeps the shape %v, plan says %v", n.Op, a.Shape, n.Shape)
	}
	return x.kernels.Softmax(n, size)
}

// sortedRange computes the slice n of a sort by the kernels' Selector,
// where they have one and n takes a range of places along the sort's
// axis and the whole of every other axis of a sort not evaluated yet. It
// reports false, having computed nothing, otherwise.
func (x *Exec[V]) sortedRange(n *Node) (V, bool, error) {
	var zero V
	if n.Op != OpSlice || len(n.Args) != 1 || n.Args[0].Op != OpSort {
		return zero, false, nil
	}
	sel, ok := x.kernels.(Selector[V])
	if !ok {
		return zero, false, nil
	}
	s := n.Args[0]
	if _, done := x.memo.get(s); done || n.DType != s.DType || len(n.Slices) != len(s.Shape) || len(s.Axes) != 1 {
		return zero, false, nil
	}
	ax := s.Axes[0]
	from, to := 0, 0
	for d, sl := range n.Slices {
		switch {
		case d == ax && sl.Step == 1 && 0 <= sl.Start && sl.Start < sl.Stop && sl.Stop <= s.Shape[d] && (!sl.Drop || sl.Stop == sl.Start+1):
			from, to = sl.Start, sl.Stop
		case d != ax && sl.Step == 1 && sl.Start == 0 && sl.Stop == s.Shape[d] && !sl.Drop:
		default:
			return zero, false, nil
		}
	}
	if err := x.ctx.Err(); err != nil {
		return zero, true, err
	}
	if err := CheckArgs(s); err != nil {
		return zero, true, x.errorf("%v", err)
	}
	if err := x.checkAlong(s); err != nil {
		return zero, true, err
	}
	return sel.SortedRange(s, from, to, n.Shape)
}

// checkAlong checks the scan or sort n: its dtype, its one axis and its
// shape.
func (x *Exec[V]) checkAlong(n *Node) error {
	a := n.Args[0]
	if n.Op == OpArgSort && !n.DType.IsInt() {
		return x.errorf("%v gives integers, but the plan says %v", n.Op, n.DType)
	}
	if a.DType != n.DType && n.Op != OpArgSort {
		return x.errorf("%v keeps the dtype of its operand (%v), but the plan says %v", n.Op, a.DType, n.DType)
	}
	if len(n.Axes) != 1 || n.Axes[0] < 0 || n.Axes[0] >= len(a.Shape) {
		return x.errorf("%v needs one axis within the %d dimensions", n.Op, len(a.Shape))
	}
	if !slices.Equal(a.Shape, n.Shape) {
		return x.errorf("%v keeps the shape %v, plan says %v", n.Op, a.Shape, n.Shape)
	}
	return nil
}

func (x *Exec[V]) scan(n *Node, size int) (V, error) {
	var zero V
	if err := x.checkAlong(n); err != nil {
		return zero, err
	}
	if n.Op == OpSort || n.Op == OpArgSort {
		return x.kernels.Sort(n, size)
	}
	return x.kernels.Scan(n, size)
}

// ReduceArg returns what the reduction n reads: its argument, or a cast
// of it to the dtype the reduction accumulates in. any and all read bools;
// sums and products of bools into another dtype, and means of integers
// with an inexact result, accumulate in the result dtype. (A bool sum or
// product into bool is a logical or / and.)
func ReduceArg(n *Node) *Node {
	a := n.Args[0]
	to := dtypes.Invalid
	switch n.Op {
	case OpAny, OpAll:
		if a.DType != dtypes.Bool {
			to = dtypes.Bool
		}
	case OpSum, OpProd, OpMean:
		if a.DType == dtypes.Bool && n.DType != dtypes.Bool || n.Op == OpMean && a.DType.IsInt() && n.DType.IsInexact() {
			to = n.DType
		}
	}
	if to == dtypes.Invalid {
		return a
	}
	return &Node{Op: OpCast, DType: to, Shape: a.Shape, Args: []*Node{a}}
}

// reduce checks the reduction n and plans its walk, with NumPy's errors
// for reductions without an identity over no elements.
func (x *Exec[V]) reduce(n *Node, size int) (V, error) {
	var zero V
	arg := ReduceArg(n)
	if !arg.DType.IsValid() {
		return zero, x.errorf("%v: invalid dtype %v", n.Op, arg.DType)
	}
	if _, err := ShapeSize(arg.Shape); err != nil {
		return zero, x.errorf("%v: %v", n.Op, err)
	}
	p, err := PlanReduce(arg.Shape, n.Axes, n.KeepDims)
	if err != nil {
		return zero, x.errorf("%v: %v", n.Op, err)
	}
	if !slices.Equal(p.OutShape, n.Shape) {
		return zero, x.errorf("%v of shape %v over axes %v gives %v, plan says %v", n.Op, arg.Shape, n.Axes, p.OutShape, n.Shape)
	}
	if p.L == 0 && p.M > 0 {
		switch n.Op {
		case OpReduceMax:
			return zero, fmt.Errorf("zero-size array to reduction operation maximum which has no identity")
		case OpReduceMin:
			return zero, fmt.Errorf("zero-size array to reduction operation minimum which has no identity")
		case OpArgMax:
			return zero, fmt.Errorf("attempt to get argmax of an empty sequence")
		case OpArgMin:
			return zero, fmt.Errorf("attempt to get argmin of an empty sequence")
		}
	}
	if (n.Op == OpArgMax || n.Op == OpArgMin) && !n.DType.IsInt() {
		return zero, x.errorf("%v gives an integer dtype, not %v", n.Op, n.DType)
	}
	if n.SkipNaN {
		if n.Op != OpReduceMax && n.Op != OpReduceMin || !arg.DType.IsFloat() {
			return zero, x.errorf("%v of %v cannot skip NaNs", n.Op, arg.DType)
		}
		if s, ok := x.kernels.(NaNSkipper[V]); !ok || !s.SkipsNaN(n) {
			return x.Eval(LowerSkipNaN(n))
		}
	}
	return x.kernels.Reduce(n, arg, p, size)
}

// A NaNSkipper is Kernels whose Reduce computes a reduction that skips
// NaNs (Node.SkipNaN) itself; for others the Exec computes LowerSkipNaN.
type NaNSkipper[V any] interface {
	// SkipsNaN reports whether Reduce computes n, a float OpReduceMax or
	// OpReduceMin with SkipNaN.
	SkipsNaN(n *Node) bool
}

// LowerSkipNaN returns the reduction n that skips NaNs (Node.SkipNaN) as
// plain operations, jnp.nanmax's formula: the reduction of x with its
// NaNs replaced by -inf (+inf for a minimum), and NaN where the line is
// all NaN.
func LowerSkipNaN(n *Node) *Node {
	x := n.Args[0]
	d := x.DType
	constant := func(v float64, d dtypes.DType) *Node {
		f := &Node{Op: OpInput, DType: dtypes.F64, Tensor: &Tensor{DType: dtypes.F64, Data: []float64{v}}}
		return &Node{Op: OpCast, DType: d, Args: []*Node{f}}
	}
	fill := math.Inf(-1)
	if n.Op == OpReduceMin {
		fill = math.Inf(1)
	}
	isNaN := &Node{Op: OpIsNaN, DType: dtypes.Bool, Shape: x.Shape, Args: []*Node{x}}
	red := *n
	red.SkipNaN = false
	red.Args = []*Node{{Op: OpWhere, DType: d, Shape: x.Shape, Args: []*Node{isNaN, constant(fill, d), x}}}
	all := &Node{Op: OpAll, DType: dtypes.Bool, Shape: n.Shape, Args: []*Node{isNaN}, Axes: n.Axes, KeepDims: n.KeepDims}
	return &Node{Op: OpWhere, DType: n.DType, Shape: n.Shape, Args: []*Node{all, constant(math.NaN(), n.DType), &red}}
}

// FuseArgs returns the operands of the elementwise node n in a fused
// tree: build compiles each argument that fusible says can join the tree
// (after checking its shape), and leaf reads each other one, evaluated
// outside the tree.
func FuseArgs[E any](n *Node, fusible func(*Node) bool, build, leaf func(*Node) (E, error)) ([]E, error) {
	return FuseArgsBuf(nil, n, fusible, build, leaf)
}

// FuseArgsBuf is FuseArgs that returns the operands in buf's array when
// its capacity holds them.
func FuseArgsBuf[E any](buf []E, n *Node, fusible func(*Node) bool, build, leaf func(*Node) (E, error)) ([]E, error) {
	args := buf[:0]
	if cap(buf) < len(n.Args) {
		args = make([]E, 0, len(n.Args))
	}
	args = args[:len(n.Args)]
	for i, a := range n.Args {
		var err error
		if fusible(a) {
			if _, err = ShapeSize(a.Shape); err == nil {
				args[i], err = build(a)
			}
		} else {
			args[i], err = leaf(a)
		}
		if err != nil {
			return nil, err
		}
	}
	return args, nil
}
