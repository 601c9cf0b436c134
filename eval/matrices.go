package eval

import (
	"math"
	"slices"
	"strings"

	"github.com/tensorsh/tensorsh/backend"
	"github.com/tensorsh/tensorsh/dtypes"
	"github.com/tensorsh/tensorsh/promote"
)

// NumPy's helpers a user types by habit: diagonal, diag, trace, tril,
// triu, outer, tile, repeat, logical_xor, nan_to_num, empty, diff (of a
// tensor), ravel, swapaxes, moveaxis, hstack, vstack, sort and median.
// Each is built from operations every backend has (slices, reshapes,
// broadcasts, concat, where, comparisons, the sort, and the policy's own
// multiply, subtract, sum and mean), the way NumPy's, JAX's or PyTorch's
// own code defines it, so its dtype follows the active policy's rules for
// those operations and its values are the library's.

// param returns the argument at position pos or given as keyword name;
// nil when neither is given or it is None.
func (c *compiler) param(k *call, pos int, name string) (*operand, error) {
	if err := k.passedTwice(c, pos, name); err != nil {
		return nil, err
	}
	o, ok := k.kw[name]
	if pos < len(k.args) {
		o, ok = k.args[pos], true
	}
	if !ok || o.kind == noneKind {
		return nil, nil
	}
	return o, nil
}

// intParam reads the integer parameter at position pos or given as
// keyword name, def when neither is given.
func (c *compiler) intParam(k *call, pos int, name string, def int) (int, error) {
	o, err := c.param(k, pos, name)
	if o == nil || err != nil {
		return def, err
	}
	return c.intOf(o, name)
}

// arrayArg returns argument i of k as a tensor, as the library's
// asarray makes one: under NumPy's policies a literal becomes a strong
// array of the default dtype of its kind (np.asarray(2.5) is a float64
// array, no longer a Python float), elsewhere a 0-d tensor of its literal
// type (jnp.asarray(2.5) keeps the weak type).
func (c *compiler) arrayArg(k *call, i int, what string) (*operand, error) {
	o, err := c.tensorArg(k, i, what)
	if err != nil {
		return nil, err
	}
	return c.asArray(o)
}

// asArray is arrayArg's conversion of a numeric operand o.
func (c *compiler) asArray(o *operand) (*operand, error) {
	if o.kind != LiteralValue || !numpyShaped(c.policy.Name()) {
		if err := c.known(o); err != nil {
			return nil, err
		}
		return c.materialize(o), nil
	}
	t, err := c.policy.ArrayLiteral(o.lit.Kind)
	if err != nil {
		return nil, c.promoteError(err, o.span())
	}
	t = dtypes.Strong(t.DType)
	if err := c.policy.Convert(o.lit, t.DType); err != nil {
		return nil, c.promoteError(err, o.span())
	}
	return &operand{kind: TensorValue, typ: t, node: inputNode(literalTensor(o.lit, t.DType)), value: &o.lit, start: o.start, end: o.end}, nil
}

// numpyShaped reports whether the policy is NumPy's (numpy, numpy1):
// np.asarray of a Python number is a strong array, and np.tril and
// np.triu take a vector (their mask tri(n) broadcast against it), where
// jnp.tril and torch.tril need two dimensions.
func numpyShaped(policy string) bool {
	return strings.HasPrefix(policy, "numpy")
}

// ravelsOuter reports whether the policy's outer takes tensors of any
// rank and ravels them: np.outer, jnp.outer, mx.outer.
func ravelsOuter(policy string) bool {
	return numpyShaped(policy) || strings.HasPrefix(policy, "jax") || strings.HasPrefix(policy, "mlx")
}

// diagonalOf is np.diagonal(x, k, a1, a2): the elements x[…, i, i+k]
// of axes a1 and a2, which leave the shape, their diagonal last. It reads
// them as a strided slice of x with those axes moved last and merged:
// element (i, i+k) of an n×m matrix is element i·(m+1) + k of its rows.
func (c *compiler) diagonalOf(x *operand, off, a1, a2 int, k *call) (*operand, error) {
	rank := len(x.shape)
	if rank < 2 {
		return nil, c.errorf(k.sp, "ValueError", "diag requires an array of at least two dimensions")
	}
	var err error
	if a1, err = c.normAxis(a1, rank, k.sp); err != nil {
		return nil, err
	}
	if a2, err = c.normAxis(a2, rank, k.sp); err != nil {
		return nil, err
	}
	if a1 == a2 {
		return nil, c.errorf(k.sp, "ValueError", "axis1 and axis2 cannot be the same")
	}
	var perm, rest []int
	for i, d := range x.shape {
		if i != a1 && i != a2 {
			perm, rest = append(perm, i), append(rest, d)
		}
	}
	perm = append(perm, a1, a2)
	n, m := x.shape[a1], x.shape[a2]
	o := x
	if !slices.IsSorted(perm) {
		shape := make([]int, rank)
		for i, p := range perm {
			shape[i] = x.shape[p]
		}
		o = c.structural(backend.OpTranspose, o, shape, perm, k)
	}
	o = c.structural(backend.OpReshape, o, append(slices.Clone(rest), n*m), nil, k)
	first, count := off, min(n, m-off)
	if off < 0 {
		first, count = -off*m, min(n+off, m)
	}
	last := backend.Slice{Start: 0, Stop: 0, Step: 1}
	if count > 0 {
		last = backend.Slice{Start: first, Stop: first + (count-1)*(m+1) + 1, Step: m + 1}
	}
	count = max(count, 0)
	sl := make([]backend.Slice, 0, len(rest)+1)
	for _, d := range rest {
		sl = append(sl, backend.Slice{Start: 0, Stop: d, Step: 1})
	}
	sl = append(sl, last)
	shape := append(slices.Clone(rest), count)
	node := &backend.Node{Op: backend.OpSlice, DType: o.node.DType, Shape: shape, Args: []*backend.Node{o.node}, Slices: sl}
	return &operand{kind: TensorValue, typ: x.typ, shape: shape, node: node, start: k.sp.start, end: k.sp.end}, nil
}

// diagonalArgs reads x, offset, axis1 and axis2 of diagonal and trace.
func (c *compiler) diagonalArgs(k *call) (*operand, error) {
	x, err := c.tensorX(k, 1, 4)
	if err != nil {
		return nil, err
	}
	off, err := c.intParam(k, 1, "offset", 0)
	if err != nil {
		return nil, err
	}
	a1, err := c.intParam(k, 2, "axis1", 0)
	if err != nil {
		return nil, err
	}
	a2, err := c.intParam(k, 3, "axis2", 1)
	if err != nil {
		return nil, err
	}
	return c.diagonalOf(x, off, a1, a2, k)
}

// diagonal is np.diagonal (jnp.diagonal, torch.diagonal's dim1 and dim2).
func diagonal(c *compiler, k *call) (*operand, error) {
	return c.diagonalArgs(k)
}

// trace is np.trace: the sum of diagonal(x, offset, axis1, axis2) along
// its last axis, by the policy's rules for sum (np.trace of int8 is
// int64, as np.sum's is; jnp.trace and torch.trace sum likewise).
func trace(c *compiler, k *call) (*operand, error) {
	d, err := c.diagonalArgs(k)
	if err != nil {
		return nil, err
	}
	minus1, err := c.literal(promote.Int64Value(-1), k.sp, nil)
	if err != nil {
		return nil, err
	}
	sum := &call{name: "sum", args: []*operand{d}, sp: k.sp, fnSpan: k.fnSpan}
	sum.setKw("axis", minus1)
	return c.reduce(promote.Sum, sum)
}

// diag is np.diag: the k-th diagonal of a matrix, or the square matrix
// of side len(v) + |k| with vector v on its k-th diagonal and zeros
// elsewhere (twodim_base.py: res = zeros((n, n), v.dtype), then v written
// along the diagonal), of v's type (weak or not: jnp.diag pads v and
// selects it where eye(n, k=k) is true, which keeps the weak type).
func diag(c *compiler, k *call) (*operand, error) {
	x, err := c.tensorX(k, 1, 2)
	if err != nil {
		return nil, err
	}
	off, err := c.intParam(k, 1, "k", 0)
	if err != nil {
		return nil, err
	}
	switch len(x.shape) {
	case 2:
		return c.diagonalOf(x, off, 0, 1, k)
	case 1:
	default:
		return nil, c.errorf(k.sp, "ValueError", "Input must be 1- or 2-d.")
	}
	pad := abs(off)
	if pad < 0 || pad > math.MaxInt-x.shape[0] {
		return nil, c.errorf(k.sp, "MemoryError", "out of memory: diag(v, k=%d) has more elements than fit in memory", off)
	}
	n := x.shape[0] + pad
	if err := c.checkShape([]int{n, n}, k.sp); err != nil {
		return nil, err
	}
	// Zeros, then v's elements along the diagonal on the host, as eye sets
	// its ones: a where over n² elements took 2.5 times np.diag's time.
	// (A v on a device: the where, which every backend computes.)
	vt := x.node.Tensor
	if x.node.Op != backend.OpInput {
		if c.s.backend.Name() != "cpu" {
			return c.diagWhere(x, off, n, k), nil
		}
		if vt, err = c.s.run(c.ctx, backend.InOrder(x.node)); err != nil {
			return nil, c.errorf(x.span(), "RuntimeError", "%w", err)
		}
	}
	if !hostStorage(vt.Data) {
		return c.diagWhere(x, off, n, k), nil
	}
	z, err := c.filled([]int{n, n}, x.typ, promote.Int64Value(0), k.sp)
	if err != nil {
		return nil, err
	}
	tt, err := c.zerosOnHost(z, k)
	if err != nil {
		return nil, err
	}
	// Row i holds v[i] at column i + k (k >= 0); row i - k holds it at
	// column i (k < 0).
	setDiagonal(tt.Data, vt.Data, max(0, -off)*n+max(0, off), x.shape[0], n+1)
	return tensorOperand(tt, x.typ, k.sp), nil
}

// diagWhere is diag of vector x with n = len(x) + |off| as jnp.diag
// computes it: where(eye(n, k=off), x padded to n, 0), column j of the
// diagonal holding x[j - off] (x padded by off zeros in front for off > 0,
// by -off behind for off < 0).
func (c *compiler) diagWhere(x *operand, off, n int, k *call) *operand {
	d := x.node.DType
	zero := constNode(promote.Int64Value(0), d)
	row := x.node
	if pad := abs(off); pad > 0 {
		zeros := &backend.Node{Op: backend.OpBroadcastTo, DType: d, Shape: []int{pad}, Args: []*backend.Node{zero}}
		args := []*backend.Node{zeros, row}
		if off < 0 {
			args = []*backend.Node{row, zeros}
		}
		row = &backend.Node{Op: backend.OpConcat, DType: d, Shape: []int{n}, Args: args, Axes: []int{0}}
	}
	row = &backend.Node{Op: backend.OpReshape, DType: d, Shape: []int{1, n}, Args: []*backend.Node{row}}
	shape := []int{n, n}
	node := &backend.Node{Op: backend.OpWhere, DType: d, Shape: shape, Args: []*backend.Node{diagonalMask(n, n, off, backend.OpEq), row, zero}}
	return &operand{kind: TensorValue, typ: x.typ, shape: shape, node: node, start: k.sp.start, end: k.sp.end}
}

// hostStorage reports whether data is a storage slice in this process's
// memory (a tensor on the CPU), not a device's array.
func hostStorage(data any) bool {
	switch data.(type) {
	case []bool, []int8, []int16, []int32, []int64, []uint8, []uint16, []uint32, []uint64,
		[]float32, []float64, []complex64, []complex128:
		return true
	}
	return false
}

func abs(i int) int {
	if i < 0 {
		return -i
	}
	return i
}

// diagonalMask returns the n×m bools j op i + k for row i and column j
// (np.tri(n, m, k) is j <= i + k; eye's diagonal j == i + k): a comparison
// of two index vectors, which the backend broadcasts and fuses.
func diagonalMask(n, m, k int, op backend.Op) *backend.Node {
	// Indices in int32 (half the bytes of int64 to broadcast); i + k
	// clamped to [-1, m], which no column index reaches or passes, so
	// that both comparisons keep their answer and k cannot overflow.
	k = min(max(k, -n-1), m)
	rows := newTensor(dtypes.I32, []int{n, 1})
	cols := newTensor(dtypes.I32, []int{1, m})
	for i, r := 0, rows.Data.([]int32); i < n; i++ {
		r[i] = int32(min(max(i+k, -1), m))
	}
	for j, cl := 0, cols.Data.([]int32); j < m; j++ {
		cl[j] = int32(j)
	}
	return &backend.Node{Op: op, DType: dtypes.Bool, Shape: []int{n, m}, Args: []*backend.Node{inputNode(cols), inputNode(rows)}}
}

// tril and triu are np.tril and np.triu: x with the elements above
// (tril) or below (triu) its k-th diagonal zeroed, in the last two axes:
// where(tri(n, m, k), x, 0) and where(tri(n, m, k-1), 0, x) of NumPy's
// twodim_base.py, so x's type is kept (weak or not, as jnp.tril's
// lax.select of x and zeros_like(x) keeps it).
func tril(c *compiler, k *call) (*operand, error) { return c.triangle(k, true) }
func triu(c *compiler, k *call) (*operand, error) { return c.triangle(k, false) }

func (c *compiler) triangle(k *call, lower bool) (*operand, error) {
	x, err := c.tensorX(k, 1, 2)
	if err != nil {
		return nil, err
	}
	off, err := c.intParam(k, 1, "k", 0)
	if err != nil {
		return nil, err
	}
	rank := len(x.shape)
	if rank == 0 || rank == 1 && !numpyShaped(c.policy.Name()) {
		return nil, c.errorf(k.sp, "ValueError", "%s: %s needs a tensor of at least 2 dimensions (NumPy's also takes a vector), got %s", c.policy.Name(), k.name, formatShape(x.shape))
	}
	n, m := x.shape[0], x.shape[0]
	if rank >= 2 {
		n, m = x.shape[rank-2], x.shape[rank-1]
	}
	shape := append(slices.Clone(x.shape[:max(rank-2, 0)]), n, m)
	if rank == 1 {
		// np.tril of a vector: its mask tri(n) broadcast with it.
		if err := c.checkShape(shape, k.sp); err != nil {
			return nil, err
		}
		if err := c.s.checkAlloc(x.typ.DType, n*m); err != nil {
			return nil, c.errorf(k.sp, "MemoryError", "%v", err)
		}
	}
	zero := constNode(promote.Int64Value(0), x.typ.DType)
	args := []*backend.Node{diagonalMask(n, m, off, backend.OpLe), x.node, zero}
	if !lower {
		args = []*backend.Node{diagonalMask(n, m, off-1, backend.OpLe), zero, x.node}
	}
	node := &backend.Node{Op: backend.OpWhere, DType: x.typ.DType, Shape: shape, Args: args}
	return &operand{kind: TensorValue, typ: x.typ, shape: shape, node: node, start: k.sp.start, end: k.sp.end}, nil
}

// outer is np.outer: ravel(a)[:, None] * ravel(b)[None, :] by the
// policy's multiply (numeric.py; jnp.outer and mx.outer ravel too;
// torch.outer and the Array API's linalg.outer take vectors only, and so
// do the other policies here).
func outer(c *compiler, k *call) (*operand, error) {
	if err := k.nargs(c, 2, 2); err != nil {
		return nil, err
	}
	var xs [2]*operand
	for i := range xs {
		o, err := c.arrayArg(k, i, "ab"[i:i+1])
		if err != nil {
			return nil, err
		}
		if len(o.shape) != 1 && !ravelsOuter(c.policy.Name()) {
			return nil, c.errorf(o.span(), "ValueError", "%s: outer takes vectors (NumPy's ravels), got %s", c.policy.Name(), formatShape(o.shape))
		}
		shape := []int{backend.Size(o.shape), 1}
		if i == 1 {
			shape = []int{1, shape[0]}
		}
		xs[i] = at(c.structural(backend.OpReshape, o, shape, nil, k), o.span())
	}
	return c.binary(promote.Mul, xs[0], xs[1], k.fnSpan)
}

// tile is np.tile(x, reps): x repeated reps[i] times along axis i, x
// seen with len(reps) axes (ones in front) or reps with x's rank (ones in
// front). It is a broadcast of x with a new axis of reps[i] before each
// axis i, merged: (r0, d0, r1, d1, …) read as (r0·d0, r1·d1, …).
func tile(c *compiler, k *call) (*operand, error) {
	if err := k.nargs(c, 2, 2); err != nil {
		return nil, err
	}
	x, err := c.arrayArg(k, 0, "x")
	if err != nil {
		return nil, err
	}
	reps, err := c.shapeOf(k.args[1], "reps")
	if err != nil {
		return nil, err
	}
	if err := c.checkShape(reps, k.args[1].span()); err != nil {
		return nil, err
	}
	rank := max(len(reps), len(x.shape))
	dims := append(make([]int, rank-len(x.shape)), x.shape...)
	rs := append(make([]int, rank-len(reps)), reps...)
	var split, wide, out []int
	for i := range rank {
		if rank-len(x.shape) > i {
			dims[i] = 1
		}
		if rank-len(reps) > i {
			rs[i] = 1
		}
		split = append(split, 1, dims[i])
		wide = append(wide, rs[i], dims[i])
		out = append(out, rs[i]*dims[i])
	}
	if err := c.checkShape(wide, k.sp); err != nil {
		return nil, err // before out, whose products may have wrapped
	}
	return c.repeated(x, split, wide, out, k)
}

// repeated reshapes x to split, broadcasts it to wide and reshapes the
// result to out (tile and repeat).
func (c *compiler) repeated(x *operand, split, wide, out []int, k *call) (*operand, error) {
	if err := c.checkShape(out, k.sp); err != nil {
		return nil, err
	}
	if err := c.s.checkAlloc(x.typ.DType, backend.Size(out)); err != nil {
		return nil, c.errorf(k.sp, "MemoryError", "%v", err)
	}
	o := c.structural(backend.OpReshape, x, split, nil, k)
	o = c.structural(backend.OpBroadcastTo, o, wide, nil, k)
	return c.structural(backend.OpReshape, o, out, nil, k), nil
}

// repeat is np.repeat(x, repeats, axis=None) with one count: each
// element repeated that many times along axis, or of ravel(x) when no
// axis is given. Each element gets a new axis of length repeats after
// axis, merged with it.
func repeat(c *compiler, k *call) (*operand, error) {
	if err := k.nargs(c, 2, 3); err != nil {
		return nil, err
	}
	x, err := c.arrayArg(k, 0, "x")
	if err != nil {
		return nil, err
	}
	if e := k.args[1]; e.kind == listKind || e.kind == tupleKind || e.kind == TensorValue && len(e.shape) > 0 {
		return nil, c.errorf(e.span(), "TypeError", "repeat() takes one count for every element (repeats as a list is not supported)")
	}
	r, err := c.intOf(k.args[1], "repeats")
	if err != nil {
		return nil, err
	}
	if r < 0 {
		return nil, c.errorf(k.args[1].span(), "ValueError", "negative dimensions are not allowed")
	}
	ao, err := c.param(k, 2, "axis")
	if err != nil {
		return nil, err
	}
	if ao == nil {
		n := backend.Size(x.shape)
		if err := c.checkShape([]int{n, r}, k.sp); err != nil {
			return nil, err
		}
		return c.repeated(x, []int{n, 1}, []int{n, r}, []int{n * r}, k)
	}
	axis, err := c.intOf(ao, "axis")
	if err != nil {
		return nil, err
	}
	if len(x.shape) == 0 && (axis == 0 || axis == -1) {
		// np.repeat(np.float64(0), 2, axis=0) is [0, 0]: a 0-d x
		// repeats as its one element would.
		x = at(c.structural(backend.OpReshape, x, []int{1}, nil, k), x.span())
	}
	if axis, err = c.normAxis(axis, len(x.shape), ao.span()); err != nil {
		return nil, err
	}
	split := slices.Insert(slices.Clone(x.shape), axis+1, 1)
	wide := slices.Insert(slices.Clone(x.shape), axis+1, r)
	if err := c.checkShape(wide, k.sp); err != nil {
		return nil, err
	}
	out := slices.Clone(x.shape)
	out[axis] *= r
	return c.repeated(x, split, wide, out, k)
}

// logicalXor is np.logical_xor: true where exactly one of a and b is
// nonzero (NaN is nonzero), a bool; computed as not(a) != not(b), or
// for bool operands as a != b, the same answer without the two nots
// (logical_xor(x > 1, y > 1) of 10^6 float32 253–258 → 190–208 µs).
func logicalXor(c *compiler, k *call) (*operand, error) {
	if err := k.nargs(c, 2, 2); err != nil {
		return nil, err
	}
	var nots [2]*operand
	for i, o := range k.args {
		if o.kind == TensorValue && o.typ.DType == dtypes.Bool && k.args[1-i].kind == TensorValue && k.args[1-i].typ.DType == dtypes.Bool {
			nots[i] = o
			continue
		}
		n, err := c.unary(promote.Not, o, k.fnSpan, 0)
		if err != nil {
			return nil, err
		}
		nots[i] = at(n, o.span())
	}
	return c.binary(promote.Ne, nots[0], nots[1], k.fnSpan)
}

// nanToNum is np.nan_to_num(x, nan=0.0, posinf=None, neginf=None): NaN
// replaced by nan, +inf by posinf (the dtype's largest finite value by
// default) and -inf by neginf (its most negative); integers and bools
// are x itself. The values convert to x's dtype as np.copyto's do
// (function_base.py: _nx.copyto(d, nan, where=isnan(d)), maxf =
// finfo(d.dtype).max).
func nanToNum(c *compiler, k *call) (*operand, error) {
	if err := k.nargs(c, 1, 1); err != nil {
		return nil, err
	}
	x, err := c.arrayArg(k, 0, "x")
	if err != nil {
		return nil, err
	}
	d := x.typ.DType
	if d.IsComplex() {
		return nil, c.errorf(k.sp, "TypeError", "nan_to_num of %s is not supported (its real and imaginary parts need parts of their own)", d.FullName())
	}
	if !d.IsFloat() {
		return x, nil
	}
	big := maxFinite(d)
	repl := []struct {
		name string
		def  float64
		test *backend.Node
	}{
		{"nan", 0, &backend.Node{Op: backend.OpIsNaN, DType: dtypes.Bool, Shape: x.shape, Args: []*backend.Node{x.node}}},
		{"posinf", big, &backend.Node{Op: backend.OpEq, DType: dtypes.Bool, Shape: x.shape, Args: []*backend.Node{x.node, constNode(promote.FloatValue(math.Inf(1)), d)}}},
		{"neginf", -big, &backend.Node{Op: backend.OpEq, DType: dtypes.Bool, Shape: x.shape, Args: []*backend.Node{x.node, constNode(promote.FloatValue(math.Inf(-1)), d)}}},
	}
	node := x.node
	for _, r := range repl {
		v := promote.FloatValue(r.def)
		if o, ok := k.kw[r.name]; ok && o.kind != noneKind {
			if v, err = c.fillValue(o, "nan_to_num"); err != nil {
				return nil, err
			}
			if v.Kind == promote.ComplexScalar {
				return nil, c.errorf(o.span(), "TypeError", "nan_to_num() %s= must be a real number", r.name)
			}
		}
		if err := c.policy.Convert(v, d); err != nil {
			return nil, c.promoteError(err, k.sp)
		}
		node = &backend.Node{Op: backend.OpWhere, DType: d, Shape: x.shape, Args: []*backend.Node{r.test, constNode(v, d), node}}
	}
	return &operand{kind: TensorValue, typ: x.typ, shape: x.shape, node: node, start: k.sp.start, end: k.sp.end}, nil
}

// empty is np.empty: a tensor of the shape whose values are not to be
// relied on; tensorsh's are zeros (as jnp.empty's are).
func empty(c *compiler, k *call) (*operand, error) { return fill(c, k, 0) }

// maxFinite is finfo(d).max of float dtype d: (2 - 2^-m)·2^emax, 448 for
// float8_e4m3fn (whose top exponent holds numbers, and no infinity).
func maxFinite(d dtypes.DType) float64 {
	switch d {
	case dtypes.F64:
		return math.MaxFloat64
	case dtypes.F8E4M3:
		return 448
	}
	m, e := d.MantissaBits(), d.ExponentBits()
	return math.Ldexp(2-math.Ldexp(1, -m), 1<<(e-1)-1)
}

// arrayDiff is np.diff(x, n=1, axis=-1): n times the differences
// x[1:] - x[:-1] along axis (not_equal for bools), as np.diff, jnp.diff
// and torch.diff compute them, each step by the policy's subtract.
func (c *compiler) arrayDiff(k *call) (*operand, error) {
	x, err := c.arrayArg(k, 0, "x")
	if err != nil {
		return nil, err
	}
	n, err := c.intParam(k, 1, "n", 1)
	if err != nil {
		return nil, err
	}
	if n < 0 {
		return nil, c.errorf(k.sp, "ValueError", "order must be non-negative but got %d", n)
	}
	rank := len(x.shape)
	if rank == 0 {
		return nil, c.errorf(k.sp, "ValueError", "diff requires input that is at least one dimensional")
	}
	ax, err := c.intParam(k, 2, "axis", -1)
	if err != nil {
		return nil, err
	}
	if ax, err = c.normAxis(ax, rank, k.sp); err != nil {
		return nil, err
	}
	for range min(n, x.shape[ax]+1) {
		lo, hi := c.sliceAlong(x, ax, 1, x.shape[ax], k), c.sliceAlong(x, ax, 0, max(x.shape[ax]-1, 0), k)
		op := promote.Sub
		if x.typ.DType == dtypes.Bool {
			op = promote.Ne
		}
		if x, err = c.binary(op, lo, hi, k.fnSpan); err != nil {
			return nil, err
		}
	}
	x.start, x.end = k.sp.start, k.sp.end
	return x, nil
}

// sliceAlong is x[..., from:to, ...] along axis ax.
func (c *compiler) sliceAlong(x *operand, ax, from, to int, k *call) *operand {
	from = min(from, to)
	sl := make([]backend.Slice, len(x.shape))
	shape := slices.Clone(x.shape)
	for i, d := range x.shape {
		sl[i] = backend.Slice{Start: 0, Stop: d, Step: 1}
	}
	sl[ax], shape[ax] = backend.Slice{Start: from, Stop: to, Step: 1}, to-from
	n := &backend.Node{Op: backend.OpSlice, DType: x.node.DType, Shape: shape, Args: []*backend.Node{x.node}, Slices: sl}
	return &operand{kind: TensorValue, typ: x.typ, shape: shape, node: n, start: x.start, end: x.end}
}

// ravel is np.ravel: reshape(x, -1).
func ravel(c *compiler, k *call) (*operand, error) {
	x, err := c.tensorX(k, 1, 1)
	if err != nil {
		return nil, err
	}
	return c.structural(backend.OpReshape, x, []int{backend.Size(x.shape)}, nil, k), nil
}

// swapaxes is np.swapaxes(x, a, b): transpose with axes a and b swapped.
func swapaxes(c *compiler, k *call) (*operand, error) {
	x, err := c.tensorX(k, 3, 3)
	if err != nil {
		return nil, err
	}
	rank := len(x.shape)
	perm := make([]int, rank)
	for i := range perm {
		perm[i] = i
	}
	var ab [2]int
	for i := range ab {
		a, err := c.intOf(k.args[i+1], "axis")
		if err != nil {
			return nil, err
		}
		if err := c.noAxis0(x, a, k.args[i+1].span(), []string{"axis1: ", "axis2: "}[i]); err != nil {
			return nil, err
		}
		if ab[i], err = c.normAxis(a, rank, k.args[i+1].span()); err != nil {
			return nil, err
		}
	}
	perm[ab[0]], perm[ab[1]] = perm[ab[1]], perm[ab[0]]
	return c.permuted(x, perm, k), nil
}

// moveaxis is np.moveaxis(x, source, destination): the axes source (an
// int or a tuple) moved to the positions destination, the others kept in
// order.
func moveaxis(c *compiler, k *call) (*operand, error) {
	x, err := c.tensorX(k, 3, 3)
	if err != nil {
		return nil, err
	}
	rank := len(x.shape)
	var ends [2][]int
	for i, what := range []string{"source", "destination"} {
		raw, err := c.shapeOf(k.args[i+1], what)
		if err != nil {
			return nil, err
		}
		seen := map[int]bool{}
		for _, a := range raw {
			if err := c.noAxis0(x, a, k.args[i+1].span(), what+": "); err != nil {
				return nil, err
			}
			n, err := c.normAxis(a, rank, k.args[i+1].span())
			if err != nil {
				return nil, err
			}
			if seen[n] {
				return nil, c.errorf(k.args[i+1].span(), "ValueError", "repeated axis in `%s` argument", what)
			}
			seen[n] = true
			ends[i] = append(ends[i], n)
		}
	}
	src, dst := ends[0], ends[1]
	if len(src) != len(dst) {
		return nil, c.errorf(k.sp, "ValueError", "`source` and `destination` arguments must have the same number of elements")
	}
	// numeric.py: order = [n for n in range(a.ndim) if n not in source],
	// then each source axis inserted at its destination, in sorted order.
	var order []int
	for i := range rank {
		if !slices.Contains(src, i) {
			order = append(order, i)
		}
	}
	idx := make([]int, len(src))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int { return dst[a] - dst[b] })
	for _, i := range idx {
		order = slices.Insert(order, dst[i], src[i])
	}
	return c.permuted(x, order, k), nil
}

// permuted is x transposed by perm.
func (c *compiler) permuted(x *operand, perm []int, k *call) *operand {
	shape := make([]int, len(perm))
	for i, p := range perm {
		shape[i] = x.shape[p]
	}
	return c.structural(backend.OpTranspose, x, shape, perm, k)
}

// hstack and vstack are np.hstack and np.vstack: concat of the parts seen
// with at least one axis (hstack: along axis 0 for vectors, else 1) or at
// least two (vstack: a vector becomes a row), along axis 0; their dtypes
// promote together as concat's do.
func hstack(c *compiler, k *call) (*operand, error) { return c.stackAlong(k, false) }
func vstack(c *compiler, k *call) (*operand, error) { return c.stackAlong(k, true) }

func (c *compiler) stackAlong(k *call, vertical bool) (*operand, error) {
	if err := k.nargs(c, 1, 1); err != nil {
		return nil, err
	}
	l := k.args[0]
	if l.kind != listKind && l.kind != tupleKind {
		return nil, c.errorf(l.span(), "TypeError", "%s() takes a list of tensors, as in %s([a, b])", k.name, k.name)
	}
	parts := make([]*operand, len(l.elems))
	axis := 0
	for i, p := range l.elems {
		var err error
		if p.kind == listKind {
			if p, err = c.listTensor(p, nil, p.span()); err != nil {
				return nil, err
			}
		}
		if err := c.requireNumeric(p, k.name, "()"); err != nil {
			return nil, err
		}
		if p, err = c.asArray(p); err != nil {
			return nil, err
		}
		want := 1
		if vertical {
			want = 2
		}
		if len(p.shape) < want {
			// np.atleast_1d, np.atleast_2d: (n,) becomes (1, n), () (1,) or (1, 1).
			shape := append(make([]int, want-len(p.shape)), p.shape...)
			for j := range want - len(p.shape) {
				shape[j] = 1
			}
			p = at(c.structural(backend.OpReshape, p, shape, nil, k), p.span())
		}
		if i == 0 && !vertical && len(p.shape) > 1 {
			axis = 1
		}
		parts[i] = p
	}
	ax, err := c.literal(promote.Int64Value(int64(axis)), k.sp, nil)
	if err != nil {
		return nil, err
	}
	joined := &call{name: k.name, args: []*operand{{kind: listKind, elems: parts, start: l.start, end: l.end}}, sp: k.sp, fnSpan: k.fnSpan}
	joined.setKw("axis", ax)
	return c.join(joined, false)
}

// sortFn is sort(x, axis=-1, descending=false): np.sort, jnp.sort,
// torch.sort's values, xp.sort: x's elements in ascending order along
// axis (of the flattened x for axis=None), NaN after every number, equal
// elements in their order (a stable sort: the bits of -0.0 and 0.0 keep
// their order, as jnp.sort's and np.sort(kind="stable")'s do).
// descending=true is the ascending sort reversed along axis, as jnp.sort
// computes it (NaN first). Complex numbers sort in NumPy's order, under
// NumPy's policies only (JAX orders them otherwise, PyTorch not at all).
func sortFn(c *compiler, k *call) (*operand, error) {
	x, axis, err := c.sortArgs(k, false)
	if err != nil {
		return nil, err
	}
	desc := false
	if o, ok := k.kw["descending"]; ok {
		if desc, err = c.boolOf(o, "descending"); err != nil {
			return nil, err
		}
	}
	n := &backend.Node{Op: backend.OpSort, DType: x.node.DType, Shape: x.shape, Args: []*backend.Node{x.node}, Axes: []int{axis}}
	out := &operand{kind: TensorValue, typ: x.typ, shape: x.shape, node: n, start: k.sp.start, end: k.sp.end}
	if desc && x.shape[axis] > 1 {
		sl := make([]backend.Slice, len(x.shape))
		for i, d := range x.shape {
			sl[i] = backend.Slice{Start: 0, Stop: d, Step: 1}
		}
		sl[axis] = backend.Slice{Start: x.shape[axis] - 1, Stop: -1, Step: -1}
		out.node = &backend.Node{Op: backend.OpSlice, DType: n.DType, Shape: n.Shape, Args: []*backend.Node{n}, Slices: sl}
	}
	return out, nil
}

// sortArgs reads sort's and argsort's x and axis (-1 by default; None
// sorts the flattened x) and refuses complex numbers outside NumPy's
// policies. A 0-d x is NumPy's AxisError for sort, one element for
// argsort (np.argsort of a 0-d array is array([0])).
func (c *compiler) sortArgs(k *call, arg bool) (*operand, int, error) {
	if err := k.nargs(c, 1, 2); err != nil {
		return nil, 0, err
	}
	x, err := c.arrayArg(k, 0, "x")
	if err != nil {
		return nil, 0, err
	}
	if arg && len(x.shape) == 0 {
		x = at(c.structural(backend.OpReshape, x, []int{1}, nil, k), x.span())
	}
	_, given := k.kw["axis"]
	given = given || len(k.args) == 2
	ao, err := c.param(k, 1, "axis")
	if err != nil {
		return nil, 0, err
	}
	axis, sp := -1, k.sp
	switch {
	case given && ao == nil: // axis=None
		x = at(c.structural(backend.OpReshape, x, []int{backend.Size(x.shape)}, nil, k), x.span())
	case given:
		if axis, err = c.intOf(ao, "axis"); err != nil {
			return nil, 0, err
		}
		sp = ao.span()
	}
	if len(x.shape) == 0 {
		return nil, 0, c.errorf(sp, "AxisError", "axis %d is out of bounds for array of dimension 0", axis)
	}
	if axis, err = c.normAxis(axis, len(x.shape), sp); err != nil {
		return nil, 0, err
	}
	if x.typ.DType.IsComplex() && !numpyShaped(c.policy.Name()) {
		return nil, 0, c.errorf(k.fnSpan, "TypeError", "%s: %s of %s is not supported (tensorsh orders complex numbers in NumPy's order only: :policy numpy)", c.policy.Name(), k.name, x.typ.DType.FullName())
	}
	return x, axis, nil
}

// median is median(x, axis=None, keepdims=false) as the policy's library
// computes it, from x sorted along axis (the flattened x for axis=None),
// NaN last:
//
//   - np.median (function_base.py _median): the mean (np.mean's dtype and
//     arithmetic) of the middle element, or of the two middle ones, and
//     NaN where the line holds one (_median_nancheck: its last element).
//   - jnp.median, quantile(x, 0.5, method="midpoint"): x made inexact
//     (promote_dtypes_inexact), NaN everywhere in a line that holds one,
//     then (low + high) * 0.5 in that dtype.
//   - torch.median: the lower of the two middle elements, in x's dtype,
//     NaN where the line holds one.
//
// The other policies' libraries have none.
func median(c *compiler, k *call) (*operand, error) {
	x, err := c.arrayArg(k, 0, "x")
	if err != nil {
		return nil, err
	}
	if err := k.nargs(c, 1, 2); err != nil {
		return nil, err
	}
	fam := closeFamily(c.policy.Name())
	if fam == "" {
		return nil, c.errorf(k.fnSpan, "NameError", "%s: %s has no median (NumPy's, JAX's and PyTorch's are under :policy numpy, jax and torch)", c.policy.Name(), c.policy.Name())
	}
	if x.typ.DType.IsComplex() {
		return nil, c.errorf(k.fnSpan, "TypeError", "%s: median of %s is not supported", c.policy.Name(), x.typ.DType.FullName())
	}
	x, ax, outShape, err := c.lineArgs(k, x, 1)
	if err != nil {
		return nil, err
	}
	if fam == "jax" {
		if x, err = c.inexact(x, k); err != nil {
			return nil, err
		}
	}
	n := x.shape[ax]
	sorted := &operand{kind: TensorValue, typ: x.typ, shape: x.shape, start: x.start, end: x.end,
		node: &backend.Node{Op: backend.OpSort, DType: x.node.DType, Shape: x.shape, Args: []*backend.Node{x.node}, Axes: []int{ax}}}
	reduced := func(o *operand) *operand {
		return c.structural(backend.OpReshape, o, outShape, nil, k)
	}
	var mid *operand
	switch {
	case fam == "torch" && n == 0:
		return nil, c.errorf(k.sp, "IndexError", "torch: median() cannot compute the median of an empty tensor")
	case fam == "torch":
		mid = reduced(c.sliceAlong(sorted, ax, max(n-1, 0)/2, max(n-1, 0)/2+1, k))
	case fam == "jax" && n > 0:
		// lax.add and lax.mul in x's dtype, built as nodes: the policy's
		// binary would compute a 0-d operand (axis=None) on its own,
		// sorting x once more.
		lo := reduced(c.sliceAlong(sorted, ax, (n-1)/2, (n-1)/2+1, k))
		hi := reduced(c.sliceAlong(sorted, ax, n/2, n/2+1, k))
		d := x.node.DType
		sum := &backend.Node{Op: backend.OpAdd, DType: d, Shape: outShape, Args: []*backend.Node{lo.node, hi.node}}
		half := &backend.Node{Op: backend.OpMul, DType: d, Shape: outShape, Args: []*backend.Node{sum, constNode(promote.FloatValue(0.5), d)}}
		mid = &operand{kind: TensorValue, typ: x.typ, shape: outShape, node: half}
	default:
		// np.mean of the middle one or two (of nothing: NaN, as np.mean
		// of an empty slice, with its warning).
		from, to := (n-1)/2, n/2+1
		if n == 0 {
			from, to = 0, 0
		}
		m := &call{name: "mean", args: []*operand{c.sliceAlong(sorted, ax, from, to, k)}, sp: k.sp, fnSpan: k.fnSpan}
		axis, err := c.literal(promote.Int64Value(int64(ax)), k.sp, nil)
		if err != nil {
			return nil, err
		}
		m.setKw("axis", axis)
		if mid, err = c.reduce(promote.Mean, m); err != nil {
			return nil, err
		}
		mid = reduced(mid)
	}
	if x.typ.DType.IsFloat() && n > 0 {
		// NaN where the line holds one: its last element once sorted.
		// (A node, as above.)
		last := reduced(c.sliceAlong(sorted, ax, n-1, n, k))
		isNaN := &backend.Node{Op: backend.OpIsNaN, DType: dtypes.Bool, Shape: outShape, Args: []*backend.Node{last.node}}
		d := mid.typ.DType
		node := &backend.Node{Op: backend.OpWhere, DType: d, Shape: outShape, Args: []*backend.Node{isNaN, castNode(last.node, d), mid.node}}
		mid = &operand{kind: TensorValue, typ: mid.typ, shape: outShape, node: node}
	}
	mid.start, mid.end = k.sp.start, k.sp.end
	return mid, nil
}

// lineArgs reads the axis (argument pos, or the keyword axis) and
// keepdims of a function of the lines of x along one axis (median,
// quantile): it returns x (flattened where axis is None), the axis, and
// the result's shape: x's without the axis, or with it of length 1 for
// keepdims (every axis of x of length 1, for axis=None).
// noAxis0 is NumPy's AxisError for an axis given for a 0-d x (normAxis
// lets 0 and -1 through for rank 0, as np.argmax, np.any and np.repeat
// take them; np.flip, np.roll, np.std and np.swapaxes do not). what
// prefixes the message ("axis1: ").
func (c *compiler) noAxis0(x *operand, axis int, sp span, what string) error {
	if len(x.shape) != 0 {
		return nil
	}
	return c.errorf(sp, "AxisError", "%saxis %d is out of bounds for array of dimension 0", what, axis)
}

func (c *compiler) lineArgs(k *call, x *operand, pos int) (*operand, int, []int, error) {
	keep, err := c.keepdims(k)
	if err != nil {
		return nil, 0, nil, err
	}
	ao, err := c.param(k, pos, "axis")
	if err != nil {
		return nil, 0, nil, err
	}
	rank := len(x.shape)
	ax := 0
	if ao == nil {
		x = at(c.structural(backend.OpReshape, x, []int{backend.Size(x.shape)}, nil, k), x.span())
	} else {
		if ax, err = c.intOf(ao, "axis"); err != nil {
			return nil, 0, nil, err
		}
		if err := c.noAxis0(x, ax, ao.span(), ""); err != nil { // np.median(np.float32(1), axis=0)
			return nil, 0, nil, err
		}
		if ax, err = c.normAxis(ax, rank, ao.span()); err != nil {
			return nil, 0, nil, err
		}
	}
	shape := slices.Delete(slices.Clone(x.shape), ax, ax+1)
	switch {
	case keep && ao == nil:
		shape = make([]int, rank)
		for i := range shape {
			shape[i] = 1
		}
	case keep:
		shape = slices.Clone(x.shape)
		shape[ax] = 1
	}
	return x, ax, shape, nil
}

// inexact converts x to the inexact dtype JAX's promote_dtypes_inexact
// gives it (the policy's sqrt's), where it is not inexact already.
func (c *compiler) inexact(x *operand, k *call) (*operand, error) {
	if x.typ.DType.IsInexact() {
		return x, nil
	}
	res, err := c.policy.Unary(promote.Sqrt, toPolicyOperand(x))
	if err != nil {
		return nil, c.promoteError(err, k.fnSpan, x)
	}
	return c.convert(x, res.Type, &call{name: "cast", sp: x.span(), fnSpan: k.fnSpan}, true)
}

// around is around(x, decimals=0): NumPy's np.round (np.around), halves
// to even at the given decimal (tensorsh's round(x) rounds halves away
// from zero), as the policy's library computes it:
//
//   - np.round (multiarray/calculation.c, PyArray_Round): floats as
//     rint(x * 10^d) / 10^d in x's dtype, or rint(x / 10^-d) * 10^-d for
//     d < 0; integers unchanged for d >= 0, else the same in float64 and
//     converted back.
//   - jnp.round: the same for d >= 0 but float16 computed in float32; for
//     d < 0, x * 10.0**d (0.01 rounded to the dtype), then the division
//     by it; integers unchanged, refused for d < 0.
//   - torch.round(decimals=d): in the op math type (float32 for float16
//     and bfloat16), d < 0 as NumPy's; integers unchanged for d = 0.
//
// Complex numbers (np.round rounds both parts) are not computed here.
func around(c *compiler, k *call) (*operand, error) {
	if err := k.nargs(c, 1, 2); err != nil {
		return nil, err
	}
	x, err := c.arrayArg(k, 0, "x")
	if err != nil {
		return nil, err
	}
	dec, err := c.intParam(k, 1, "decimals", 0)
	if err != nil {
		return nil, err
	}
	fam := closeFamily(c.policy.Name())
	d := x.typ.DType
	switch {
	case fam == "":
		return nil, c.errorf(k.fnSpan, "NameError", "%s: %s has no around (NumPy's, JAX's and PyTorch's round with decimals are under :policy numpy, jax and torch)", c.policy.Name(), c.policy.Name())
	case d.IsComplex() || d == dtypes.Bool:
		return nil, c.errorf(k.fnSpan, "TypeError", "%s: around of %s is not supported", c.policy.Name(), d.FullName())
	case dec > 300 || dec < -300:
		return nil, c.errorf(k.args[1].span(), "ValueError", "decimals=%d: 10**%d is not a float64", dec, abs(dec))
	}
	if d.IsInt() {
		switch {
		case fam == "torch" && dec != 0:
			return nil, c.errorf(k.fnSpan, "RuntimeError", "torch: round with decimals of integers is not supported")
		case dec >= 0:
			return x, nil
		case fam == "jax":
			return nil, c.errorf(k.fnSpan, "NotImplementedError", "jax: integer np.round not implemented for decimals < 0")
		}
	}
	// cd: the dtype the library computes in; f: the factor, converted to
	// it; scale first: multiply (d >= 0) or divide.
	cd := d
	switch {
	case d.IsInt(), fam == "jax" && d == dtypes.F16, fam == "torch" && (d == dtypes.F16 || d == dtypes.BF16):
		cd = dtypes.F64
		if d.IsFloat() {
			cd = dtypes.F32
		}
	}
	if dec == 0 && fam != "torch" {
		// np.round and jnp.round with 0 decimals: rint of x itself.
		n := &backend.Node{Op: backend.OpRoundEven, DType: cd, Shape: x.shape, Args: []*backend.Node{castNode(x.node, cd)}}
		return &operand{kind: TensorValue, typ: x.typ, shape: x.shape, node: castNode(n, d), start: k.sp.start, end: k.sp.end}, nil
	}
	scale, unscale := backend.OpMul, backend.OpDiv
	f := math.Pow(10, float64(abs(dec))) // exact up to 10^22
	if dec < 0 {
		if fam == "jax" {
			f = math.Pow(10, float64(dec)) // Python's 10 ** d, a float
		} else {
			scale, unscale = unscale, scale
		}
	}
	factor := constNode(promote.FloatValue(f), cd)
	n := &backend.Node{Op: scale, DType: cd, Shape: x.shape, Args: []*backend.Node{castNode(x.node, cd), factor}}
	n = &backend.Node{Op: backend.OpRoundEven, DType: cd, Shape: x.shape, Args: []*backend.Node{n}}
	n = &backend.Node{Op: unscale, DType: cd, Shape: x.shape, Args: []*backend.Node{n, factor}}
	return &operand{kind: TensorValue, typ: x.typ, shape: x.shape, node: castNode(n, d), start: k.sp.start, end: k.sp.end}, nil
}

// roundFn is round(x): halves away from zero. round(x, decimals), NumPy's
// spelling of its round to a decimal, is an error that names around.
func roundFn(c *compiler, k *call) (*operand, error) {
	if o, ok := k.kw["decimals"]; ok || len(k.args) == 2 {
		if !ok {
			o = k.args[1]
		}
		return nil, c.errorf(o.span(), "TypeError", "round() takes no decimals: write around(x, decimals), NumPy's round (halves to even); tensorsh's round(x) rounds halves away from zero")
	}
	return elementwise(promote.Round)(c, k)
}

// identity is np.identity(n, dtype=None): eye(n).
func identity(c *compiler, k *call) (*operand, error) {
	if err := k.nargs(c, 1, 1); err != nil {
		return nil, err
	}
	return eye(c, k)
}

// nanReduction is nansum, nanmean, nanmax and nanmin: the reduction op of
// x with its NaNs left out, as the policy's library computes it
// (numpy/lib/_nanfunctions_impl.py; jnp's _nan_reduction; torch.nansum
// and torch.nanmean):
//
//   - nansum: the sum of x with its NaNs replaced by 0.
//   - nanmean: that sum divided by the count of numbers: NumPy divides in
//     float64 (np.divide of the sum by an intp count, cast back to the
//     sum's dtype), JAX and PyTorch in the sum's dtype; NaN where a line
//     holds none (NumPy warns "Mean of empty slice", which tensorsh,
//     which does not see the values at compile time, does not).
//   - nanmax, nanmin (NumPy, JAX): the max (min) of x with its NaNs
//     replaced by -inf (+inf), NaN where a line holds only NaNs (jnp's
//     formula; np.nanmax's fmax.reduce can keep the other zero of a tie
//     between 0.0 and -0.0), as the backend's reduction that skips NaNs
//     (backend.Node.SkipNaN) computes it in one pass.
//
// Integers and bools hold no NaN: the plain reduction.
func nanReduction(op promote.UnaryOp) builtinFunc {
	return func(c *compiler, k *call) (*operand, error) {
		x, _, _, err := c.reductionArgs(k)
		if err != nil {
			return nil, err
		}
		fam := closeFamily(c.policy.Name())
		if fam == "" || fam == "torch" && (op == promote.ReduceMax || op == promote.ReduceMin) {
			return nil, c.errorf(k.fnSpan, "NameError", "%s: %s has no %s", c.policy.Name(), c.policy.Name(), k.name)
		}
		d := x.typ.DType
		red := func(op promote.UnaryOp, arg *operand) (*operand, error) {
			args := append([]*operand{arg}, k.args[1:]...) // the axis, given by position
			return c.reduce(op, &call{name: k.name, args: args, kw: k.kw, sp: k.sp, fnSpan: k.fnSpan})
		}
		if !d.IsInexact() {
			return red(op, x)
		}
		if d.IsComplex() && (op == promote.ReduceMax || op == promote.ReduceMin) {
			return nil, c.errorf(k.fnSpan, "TypeError", "%s: %s of %s is not supported", c.policy.Name(), k.name, d.FullName())
		}
		if op == promote.ReduceMax || op == promote.ReduceMin {
			// The backend's reduction that skips NaNs (its plain form is
			// backend.LowerSkipNaN, jnp's formula).
			m, err := red(op, x)
			if err != nil {
				return nil, err
			}
			if m.node.Op != reduceOps[op] {
				return nil, c.errorf(k.fnSpan, "InternalError", "internal error: %s gave %v (this is a tensorsh bug)", k.name, m.node.Op)
			}
			m.node.SkipNaN = true
			return m, nil
		}
		isNaN := &backend.Node{Op: backend.OpIsNaN, DType: dtypes.Bool, Shape: x.shape, Args: []*backend.Node{x.node}}
		xr := &operand{kind: TensorValue, typ: x.typ, shape: x.shape, start: x.start, end: x.end,
			node: &backend.Node{Op: backend.OpWhere, DType: d, Shape: x.shape, Args: []*backend.Node{isNaN, constNode(promote.FloatValue(0), d), x.node}}}
		if op == promote.Sum {
			return red(promote.Sum, xr)
		}
		// nanmean: the sum over the count.
		tot, err := red(promote.Sum, xr)
		if err != nil {
			return nil, err
		}
		td := tot.typ.DType
		cd := td // the division's dtype: JAX's and PyTorch's
		if fam == "numpy" {
			cd = dtypes.F64
			if td.IsComplex() {
				cd = dtypes.C128
			}
		}
		num := &backend.Node{Op: backend.OpNot, DType: dtypes.Bool, Shape: x.shape, Args: []*backend.Node{isNaN}}
		cnt, err := red(promote.Sum, &operand{kind: TensorValue, typ: dtypes.Strong(dtypes.Bool), shape: x.shape, node: num})
		if err != nil {
			return nil, err
		}
		div := &backend.Node{Op: backend.OpDiv, DType: cd, Shape: tot.shape, Args: []*backend.Node{castNode(tot.node, cd), castNode(cnt.node, cd)}}
		tot.node = castNode(div, td)
		return tot, nil
	}
}

// roll is np.roll(x, shift, axis=None): x's elements moved shift places
// along axis (to higher indices, those past the end coming round to the
// front), of the flattened x reshaped back for axis=None; shift and axis
// may be tuples, paired as NumPy broadcasts them (a shift for every axis,
// or one for all). Along each axis it is the concatenation of x[n-s:]
// and x[:n-s], s = shift mod n.
func roll(c *compiler, k *call) (*operand, error) {
	if err := k.nargs(c, 2, 3); err != nil {
		return nil, err
	}
	x, err := c.arrayArg(k, 0, "x")
	if err != nil {
		return nil, err
	}
	ints := func(o *operand, what string) ([]int, error) {
		if o.kind == tupleKind || o.kind == listKind {
			out := make([]int, len(o.elems))
			for i, e := range o.elems {
				if out[i], err = c.intOf(e, what); err != nil {
					return nil, err
				}
			}
			return out, nil
		}
		v, err := c.intOf(o, what)
		return []int{v}, err
	}
	shifts, err := ints(k.args[1], "shift")
	if err != nil {
		return nil, err
	}
	ao, err := c.param(k, 2, "axis")
	if err != nil {
		return nil, err
	}
	shape := x.shape
	var axes []int
	if ao == nil {
		x = at(c.structural(backend.OpReshape, x, []int{backend.Size(x.shape)}, nil, k), x.span())
		axes = []int{0}
	} else {
		if axes, err = ints(ao, "axis"); err != nil {
			return nil, err
		}
		for i, a := range axes {
			if err := c.noAxis0(x, a, ao.span(), ""); err != nil {
				return nil, err
			}
			if axes[i], err = c.normAxis(a, len(x.shape), ao.span()); err != nil {
				return nil, err
			}
		}
	}
	switch {
	case len(shifts) == 1 && len(axes) > 1:
		shifts = slices.Repeat(shifts, len(axes))
	case len(axes) == 1 && len(shifts) > 1:
		axes = slices.Repeat(axes, len(shifts))
	case len(axes) != len(shifts):
		return nil, c.errorf(k.sp, "ValueError", "shape mismatch: %d shifts for %d axes", len(shifts), len(axes))
	}
	by := make([]int, len(x.shape)) // the shift of each axis, summed
	for i, a := range axes {
		by[a] += shifts[i]
	}
	for a, s := range by {
		n := x.shape[a]
		if n == 0 {
			continue
		}
		if s %= n; s < 0 {
			s += n
		}
		if s == 0 {
			continue
		}
		tail, head := c.sliceAlong(x, a, n-s, n, k), c.sliceAlong(x, a, 0, n-s, k)
		node := &backend.Node{Op: backend.OpConcat, DType: x.node.DType, Shape: x.shape, Args: []*backend.Node{tail.node, head.node}, Axes: []int{a}}
		x = &operand{kind: TensorValue, typ: x.typ, shape: x.shape, node: node, start: x.start, end: x.end}
	}
	if !slices.Equal(x.shape, shape) {
		x = c.structural(backend.OpReshape, x, shape, nil, k)
	}
	x.start, x.end = k.sp.start, k.sp.end
	return x, nil
}

// argsort is argsort(x, axis=-1): the indices along axis that sort x as
// sort does, equal elements by index (a stable sort: np.argsort's
// kind="stable", jnp.argsort's default, torch.argsort(stable=True); NumPy's
// default quicksort can order ties otherwise), in the policy's index
// dtype (argmax's: int64 under NumPy and PyTorch, int32 under JAX with
// x64 off). axis=None sorts the flattened x.
func argsort(c *compiler, k *call) (*operand, error) {
	x, axis, err := c.sortArgs(k, true)
	if err != nil {
		return nil, err
	}
	res, err := c.policy.Unary(promote.ArgMax, toPolicyOperand(x))
	if err != nil {
		return nil, c.promoteError(err, k.fnSpan, x)
	}
	t := dtypes.Strong(res.Type.DType)
	n := &backend.Node{Op: backend.OpArgSort, DType: t.DType, Shape: x.shape, Args: []*backend.Node{x.node}, Axes: []int{axis}}
	return &operand{kind: TensorValue, typ: t, shape: x.shape, node: n, start: k.sp.start, end: k.sp.end}, nil
}

// ptp is np.ptp(x, axis=None, keepdims=false): max(x) - min(x) over axis
// by the policy's subtract (fromnumeric.py: um.subtract of the max and
// the min; jnp.ptp is lax.sub of amax and amin), so integers wrap and
// bools are refused as NumPy's boolean subtract is. PyTorch has no ptp.
func ptp(c *compiler, k *call) (*operand, error) {
	if fam := closeFamily(c.policy.Name()); fam == "" || fam == "torch" {
		return nil, c.errorf(k.fnSpan, "NameError", "%s: %s has no ptp", c.policy.Name(), c.policy.Name())
	}
	hi, err := c.reduce(promote.ReduceMax, k)
	if err != nil {
		return nil, err
	}
	lo, err := c.reduce(promote.ReduceMin, k)
	if err != nil {
		return nil, err
	}
	// The policy's subtract types it (and refuses bools); the node is
	// built here, as np.ptp's um.subtract of the two reductions does not
	// warn of an integer overflow where a 0-d statement's operator would.
	res, err := c.policy.Binary(promote.Sub, toPolicyOperand(hi), toPolicyOperand(lo))
	if err != nil {
		return nil, c.promoteError(err, k.fnSpan, hi, lo)
	}
	d := res.Compute
	n := &backend.Node{Op: backend.OpSub, DType: d, Shape: hi.shape, Args: []*backend.Node{castNode(hi.node, d), castNode(lo.node, d)}}
	return &operand{kind: TensorValue, typ: res.Type, shape: hi.shape, node: castNode(n, res.Type.DType), start: k.sp.start, end: k.sp.end}, nil
}

// isinOrMax is the most test values isin compares one by one.
const isinOrMax = 16

// isin is np.isin(element, test_elements): true where an element equals
// one of test_elements (flattened), by the policy's ==, so NaN is in
// nothing and -0.0 is 0.0; element's shape. It compares every pair (a
// broadcast == reduced by any along the test axis), without storing the
// pairs: NumPy sorts both for large inputs, with the same answers.
func isin(c *compiler, k *call) (*operand, error) {
	if err := k.nargs(c, 2, 2); err != nil {
		return nil, err
	}
	if fam := closeFamily(c.policy.Name()); fam == "" {
		return nil, c.errorf(k.fnSpan, "NameError", "%s: %s has no isin", c.policy.Name(), c.policy.Name())
	}
	x, err := c.arrayArg(k, 0, "element")
	if err != nil {
		return nil, err
	}
	v, err := c.arrayArg(k, 1, "test_elements")
	if err != nil {
		return nil, err
	}
	n, m := backend.Size(x.shape), backend.Size(v.shape)
	if m > 0 && n > math.MaxInt/m {
		return nil, c.errorf(k.sp, "MemoryError", "out of memory: isin compares %d × %d pairs", n, m)
	}
	xs := at(c.structural(backend.OpReshape, x, append(slices.Clone(x.shape), 1), nil, k), x.span())
	vs := at(c.structural(backend.OpReshape, v, []int{m}, nil, k), v.span())
	eq, err := c.binary(promote.Eq, xs, vs, k.fnSpan)
	if err != nil {
		return nil, err
	}
	if m == 0 {
		// Nothing to be in: all false (np.isin's empty test).
		return c.filled(x.shape, dtypes.Strong(dtypes.Bool), promote.BoolValue(false), k.sp)
	}
	if m <= isinOrMax {
		// Few test values: (x == v0) | (x == v1) | …, one fused pass, as
		// NumPy's in1d loops over a small ar2 (mask |= ar1 == a); the
		// reduction along a test axis of 3 took 9 ms on 10^6 int32.
		// Each v[j] is a 1-element slice, typed as v is.
		var or *backend.Node
		for j := range m {
			e, err := c.binary(promote.Eq, xs, c.sliceAlong(vs, 0, j, j+1, k), k.fnSpan)
			if err != nil {
				return nil, err
			}
			if or == nil {
				or = e.node
			} else {
				or = &backend.Node{Op: backend.OpOr, DType: dtypes.Bool, Shape: e.shape, Args: []*backend.Node{or, e.node}}
			}
		}
		o := &operand{kind: TensorValue, typ: dtypes.Strong(dtypes.Bool), shape: xs.shape, node: or}
		return c.structural(backend.OpReshape, o, x.shape, nil, k), nil
	}
	last, err := c.literal(promote.Int64Value(-1), k.sp, nil)
	if err != nil {
		return nil, err
	}
	any := &call{name: "any", args: []*operand{eq}, sp: k.sp, fnSpan: k.fnSpan}
	any.setKw("axis", last)
	return c.reduce(promote.Any, any)
}

// cross is np.cross(a, b, axis=-1): the cross product of the vectors of
// length 2 or 3 along axis of a and b (broadcast), both converted to
// their promoted type, by the policy's multiply, subtract and negative as
// numeric.py computes it: cp0 = a1·b2 -
// a2·b1, cp1 = a2·b0 - a0·b2, cp2 = a0·b1 - a1·b0, the terms of a
// 2-vector's missing third part left out (cp1 = -(a0·b2), not 0·b0 -
// a0·b2, which differs in the sign of a zero), and for two 2-vectors the
// scalar a0·b1 - a1·b0 (deprecated in NumPy 2; jnp.cross and
// torch.linalg.cross take 3-vectors and compute the same differences).
func cross(c *compiler, k *call) (*operand, error) {
	if err := k.nargs(c, 2, 2); err != nil {
		return nil, err
	}
	fam := closeFamily(c.policy.Name())
	if fam == "" {
		return nil, c.errorf(k.fnSpan, "NameError", "%s: %s has no cross", c.policy.Name(), c.policy.Name())
	}
	ax, err := c.intParam(k, 2, "axis", -1)
	if err != nil {
		return nil, err
	}
	var parts [2][]*operand // the components of a and b
	for i := range parts {
		o, err := c.arrayArg(k, i, "ab"[i:i+1])
		if err != nil {
			return nil, err
		}
		if len(o.shape) == 0 {
			return nil, c.errorf(o.span(), "ValueError", "cross needs vectors, got a 0-d value")
		}
		a, err := c.normAxis(ax, len(o.shape), k.sp)
		if err != nil {
			return nil, err
		}
		n := o.shape[a]
		if n != 2 && n != 3 || fam != "numpy" && n != 3 {
			return nil, c.errorf(o.span(), "ValueError", "incompatible dimensions for cross product (dimension must be 3%s, got %d)", map[bool]string{true: " or 2", false: ""}[fam == "numpy"], n)
		}
		for j := range n {
			p := c.sliceAlong(o, a, j, j+1, k)
			parts[i] = append(parts[i], at(c.structural(backend.OpReshape, p, slices.Delete(slices.Clone(o.shape), a, a+1), nil, k), o.span()))
		}
	}
	a, b := parts[0], parts[1]
	// Every component in the result's type first: promote_types of a's
	// and b's (numeric.py: a = a.astype(promote_types(a.dtype, b.dtype));
	// jnp's promote_args), so that no product of a 0-d component is
	// computed narrower by NumPy 1's value-based casting.
	rt, err := c.policy.Binary(promote.Mul, promote.Operand{Type: a[0].typ, Rank: 1}, promote.Operand{Type: b[0].typ, Rank: 1})
	if err != nil {
		return nil, c.promoteError(err, k.fnSpan, a[0], b[0])
	}
	for _, v := range [][]*operand{a, b} {
		for j, o := range v {
			if o.typ.DType != rt.Type.DType {
				if v[j], err = c.convert(o, rt.Type, &call{name: "cast", sp: o.span(), fnSpan: k.fnSpan}, true); err != nil {
					return nil, err
				}
			}
		}
	}
	mul := func(x, y *operand) (*operand, error) { return c.binary(promote.Mul, x, y, k.fnSpan) }
	// diff is x·y - z·w.
	diff := func(x, y, z, w *operand) (*operand, error) {
		p, err := mul(x, y)
		if err != nil {
			return nil, err
		}
		q, err := mul(z, w)
		if err != nil {
			return nil, err
		}
		return c.binary(promote.Sub, p, q, k.fnSpan)
	}
	if len(a) == 2 && len(b) == 2 {
		return diff(a[0], b[1], a[1], b[0])
	}
	neg := func(o *operand, err error) (*operand, error) {
		if err != nil {
			return nil, err
		}
		return c.unary(promote.Neg, o, k.fnSpan, 0)
	}
	cps := make([]*operand, 3)
	switch {
	case len(a) == 3 && len(b) == 3:
		cps[0], err = diff(a[1], b[2], a[2], b[1])
		if err == nil {
			cps[1], err = diff(a[2], b[0], a[0], b[2])
		}
	case len(a) == 2: // numeric.py with a2 = 0: cp0 = a1·b2, cp1 = -(a0·b2)
		cps[0], err = mul(a[1], b[2])
		if err == nil {
			cps[1], err = neg(mul(a[0], b[2]))
		}
	default: // b2 = 0: cp0 = -(a2·b1), cp1 = a2·b0
		cps[0], err = neg(mul(a[2], b[1]))
		if err == nil {
			cps[1], err = mul(a[2], b[0])
		}
	}
	if err == nil {
		cps[2], err = diff(a[0], b[1], a[1], b[0])
	}
	if err != nil {
		return nil, err
	}
	// The components along axis (numeric.py: moveaxis(cp, -1, axisc),
	// axisc = axis).
	st := &call{name: "stack", args: []*operand{{kind: listKind, elems: cps, start: k.sp.start, end: k.sp.end}}, sp: k.sp, fnSpan: k.fnSpan}
	axc, err := c.literal(promote.Int64Value(int64(ax)), k.sp, nil)
	if err != nil {
		return nil, err
	}
	st.setKw("axis", axc)
	return c.join(st, true)
}

// average is np.average(a, axis=None, weights=None, keepdims=false): the
// mean without weights; with them sum(a·w, axis) / sum(w, axis) as the
// library computes it:
//
//   - NumPy (function_base.py): a and w multiplied and summed in
//     result_type(a, w) (and float64 for integer or bool a), divided by the
//     weights' sum in that type; a ZeroDivisionError where the weights sum
//     to zero (tensorsh computes that sum to see).
//   - JAX (jnp.average): a and w promoted to their inexact type first, no
//     check.
//
// Weights of another shape than a's are a vector along the one axis.
func average(c *compiler, k *call) (*operand, error) {
	if err := k.nargs(c, 1, 3); err != nil {
		return nil, err
	}
	fam := closeFamily(c.policy.Name())
	if fam == "" || fam == "torch" {
		return nil, c.errorf(k.fnSpan, "NameError", "%s: %s has no average", c.policy.Name(), c.policy.Name())
	}
	wo, err := c.param(k, 2, "weights")
	if err != nil {
		return nil, err
	}
	// The reductions' arguments: x and axis (by keyword), keepdims.
	redKw := map[string]*operand{}
	if o, err := c.param(k, 1, "axis"); err != nil {
		return nil, err
	} else if o != nil {
		redKw["axis"] = o
	}
	if o, ok := k.kw["keepdims"]; ok {
		redKw["keepdims"] = o
	}
	red := func(op promote.UnaryOp, x *operand) (*operand, error) {
		return c.reduce(op, &call{name: k.name, args: []*operand{x}, kw: redKw, sp: k.sp, fnSpan: k.fnSpan})
	}
	a, err := c.arrayArg(k, 0, "a")
	if err != nil {
		return nil, err
	}
	if wo == nil {
		return red(promote.Mean, a)
	}
	if err := c.requireNumeric(wo, "weights"); err != nil {
		return nil, err
	}
	w, err := c.asArray(wo)
	if err != nil {
		return nil, err
	}
	// The type both are computed in.
	op := func(o *operand) promote.Operand { return promote.Operand{Type: o.typ, Rank: 1} }
	rt, err := c.policy.Binary(promote.Mul, op(a), op(w))
	if err != nil {
		return nil, c.promoteError(err, k.fnSpan, a, w)
	}
	t := rt.Type
	if fam == "numpy" && !a.typ.DType.IsInexact() || fam == "jax" && !t.DType.IsInexact() {
		f := promote.Operand{Type: dtypes.Strong(dtypes.F64), Rank: 1}
		if fam == "jax" {
			f = promote.Operand{Type: t, Rank: 1}
			r, err := c.policy.Unary(promote.Sqrt, f) // promote_dtypes_inexact
			if err != nil {
				return nil, c.promoteError(err, k.fnSpan, a, w)
			}
			t = r.Type
		} else {
			r, err := c.policy.Binary(promote.Add, promote.Operand{Type: t, Rank: 1}, f)
			if err != nil {
				return nil, c.promoteError(err, k.fnSpan, a, w)
			}
			t = r.Type
		}
	}
	if !slices.Equal(a.shape, w.shape) {
		ao := redKw["axis"]
		if ao == nil {
			return nil, c.errorf(k.sp, "TypeError", "Axis must be specified when shapes of a and weights differ.")
		}
		ax, err := c.intOf(ao, "axis")
		if err != nil {
			return nil, err
		}
		if ax, err = c.normAxis(ax, len(a.shape), ao.span()); err != nil {
			return nil, err
		}
		if len(w.shape) != 1 || w.shape[0] != a.shape[ax] {
			return nil, c.errorf(wo.span(), "ValueError", "Shape of weights must be consistent with shape of a along specified axis.")
		}
		shape := make([]int, len(a.shape))
		for i := range shape {
			shape[i] = 1
		}
		shape[ax] = w.shape[0]
		w = at(c.structural(backend.OpReshape, w, shape, nil, k), w.span())
	}
	conv := func(o *operand) (*operand, error) {
		if o.typ.DType == t.DType {
			return o, nil
		}
		return c.convert(o, dtypes.Strong(t.DType), &call{name: "cast", sp: o.span(), fnSpan: k.fnSpan}, true)
	}
	if a, err = conv(a); err != nil {
		return nil, err
	}
	if w, err = conv(w); err != nil {
		return nil, err
	}
	scl, err := red(promote.Sum, w)
	if err != nil {
		return nil, err
	}
	if fam == "numpy" {
		// if np.any(scl == 0.0): raise ZeroDivisionError
		zero := &backend.Node{Op: backend.OpEq, DType: dtypes.Bool, Shape: scl.shape, Args: []*backend.Node{scl.node, constNode(promote.Int64Value(0), scl.node.DType)}}
		anyZero := &backend.Node{Op: backend.OpAny, DType: dtypes.Bool, Shape: nil, Args: []*backend.Node{zero}}
		res, err := c.s.runOnHost(c.ctx, backend.InOrder(anyZero))
		if err != nil {
			return nil, c.errorf(k.sp, "RuntimeError", "%w", err)
		}
		if v := scalarAt(res, 0); v.Kind == promote.BoolScalar && v.Bool {
			return nil, c.errorf(k.sp, "ZeroDivisionError", "Weights sum to zero, can't be normalized")
		}
	}
	aw, err := c.binary(promote.Mul, a, w, k.fnSpan)
	if err != nil {
		return nil, err
	}
	tot, err := red(promote.Sum, aw)
	if err != nil {
		return nil, err
	}
	out, err := c.binary(promote.TrueDiv, tot, scl, k.fnSpan)
	if err != nil {
		return nil, err
	}
	out.start, out.end = k.sp.start, k.sp.end
	return out, nil
}
