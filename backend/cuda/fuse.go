package cuda

import (
	"fmt"
	"slices"

	"github.com/tensorsh/tensorsh/backend"
	"github.com/tensorsh/tensorsh/dtypes"
)

// Fused elementwise evaluation.
//
// As in the CPU backend, an elementwise node and the elementwise nodes
// below it that have its shape (up to leading 1s) and no other user form
// one fused tree; its leaves are views of other nodes' results (plan
// inputs, strided views of them, or materialised results), read with
// broadcast strides. The tree becomes one generated kernel that reads
// every leaf once and writes the result once.

// maxWords bounds the parameter words of the leaves of one fused tree
// (a leaf takes a pointer and up to one stride per dimension): kernel
// parameters are limited to 4 kB before CUDA 12.1. Beyond it, operands
// are evaluated on their own.
const maxWords = 384

// full reports whether the tree has as many leaves as its parameter
// words allow.
func (f *fusion) full() bool { return (len(f.leaves)+1)*(len(f.root.Shape)+1) > maxWords }

// A fusion is one fused tree being built.
type fusion struct {
	r      *runner
	root   *backend.Node
	leaves []*leaf
}

// Elementwise evaluates the fused tree rooted at n into a new buffer.
func (r *runner) Elementwise(n *backend.Node, size int) (*dview, error) {
	if cpuOnly(n) {
		return r.fallback(n)
	}
	f := &fusion{r: r, root: n}
	e, err := f.build(n)
	if err != nil {
		return nil, err
	}
	out, err := r.Alloc(n.DType, n.Shape, size)
	if err != nil || size == 0 {
		return out, err
	}
	shape, wide := f.layout(size)
	s := newSource(wide)
	if _, err := s.exprFunc("ev", e, shape); err != nil {
		return nil, err
	}
	elementwiseKernel(s, n.DType, out.buf.ptr, size)
	return out, r.launch(s, "ew", size, ewUnroll)
}

// ewUnroll is how many elements a thread of the elementwise kernel takes
// per pass (their loads are issued together).
const ewUnroll = 4

// elementwiseKernel emits the kernel storing ev(p, i) for every i < n.
// Each thread computes ewUnroll elements, a block apart, before storing
// any, so that the loads of all of them are in flight together.
func elementwiseKernel(s *source, d dtypes.DType, out uintptr, n int) {
	nw, ow := s.word(uint64(n)), s.word(uint64(out))
	st := storageC(d)
	ct := computeOf(d).C()
	s.names = append(s.names, "ew")
	fmt.Fprintf(&s.body, `KERNEL void ew(const P p) {
	const IDX n = %s;
	%s* __restrict__ out = (%s*)p.w[%d];
	const IDX step = (IDX)blockDim.x * (IDX)gridDim.x * %d;
	for (IDX i0 = (IDX)blockIdx.x * (IDX)blockDim.x * %d + (IDX)threadIdx.x; i0 < n; i0 += step) {
		%s v[%d];
#pragma unroll
		for (int u = 0; u < %d; u++) {
			const IDX i = i0 + (IDX)u * (IDX)blockDim.x;
			if (i < n) v[u] = ev(p, i);
		}
#pragma unroll
		for (int u = 0; u < %d; u++) {
			const IDX i = i0 + (IDX)u * (IDX)blockDim.x;
			if (i < n) out[i] = %s;
		}
	}
}
`, s.w(nw), st, st, ow, ewUnroll, ewUnroll, ct, ewUnroll, ewUnroll, ewUnroll, storeC(&s.h, d, "v[u]"))
}

// fusable reports whether the elementwise node n can be computed inside
// the tree of root (see backend.Exec.Fusible) and is not computed on the
// CPU.
func (f *fusion) fusable(n *backend.Node) bool {
	return f.r.x.Fusible(n, f.root) && !cpuOnly(n)
}

// build turns n (the root, or a fusable node) and the fusable nodes below
// it into an expression.
func (f *fusion) build(n *backend.Node) (*expr, error) {
	if err := backend.CheckArgs(n); err != nil {
		return nil, fmt.Errorf("cuda: %v", err)
	}
	if !n.DType.IsValid() {
		return nil, fmt.Errorf("cuda: %v: invalid dtype %v", n.Op, n.DType)
	}
	// A tree takes operands until it is full (see full).
	fusible := func(a *backend.Node) bool { return f.fusable(a) && !f.full() }
	args, err := backend.FuseArgs(n, fusible, f.build, f.leafOf)
	if err != nil {
		return nil, err
	}
	argDT := func(i int) dtypes.DType { return n.Args[i].DType }
	var e *expr
	switch n.Op {
	case backend.OpCast:
		e = &expr{op: backend.OpCast, dt: n.DType, argDT: argDT(0), args: args}
	case backend.OpWhere:
		if argDT(0) != dtypes.Bool {
			args[0] = &expr{op: backend.OpCast, dt: dtypes.Bool, argDT: argDT(0), args: []*expr{args[0]}}
		}
		if argDT(1) != argDT(2) {
			return nil, fmt.Errorf("cuda: where: operands have dtypes %v and %v; the plan must cast them to one", argDT(1), argDT(2))
		}
		e = &expr{op: backend.OpWhere, dt: argDT(1), argDT: argDT(1), args: args}
	default:
		for i := 1; i < len(n.Args); i++ {
			if argDT(i) != argDT(0) {
				return nil, fmt.Errorf("cuda: %v: operands have dtypes %v and %v; the plan must cast them to one", n.Op, argDT(0), argDT(i))
			}
		}
		natural := naturalDType(n.Op, argDT(0))
		e = &expr{op: n.Op, dt: natural, argDT: argDT(0), args: args, cdiv: n.CDiv, zeroErr: n.ZeroDivError, intDiv: n.IntDiv, xlaMinMax: n.XLAMinMax, scaledCAbs: n.ScaledCAbs, warnIntDiv: n.WarnIntDiv,
			round: backend.RoundingFor(n.Op, natural)}
		// Refuse unsupported operations now, as the CPU backend does.
		if _, err := newSource(false).opC(e, []string{"x", "y", "z"}[:len(args)]); err != nil {
			return nil, err
		}
	}
	if e.dt != n.DType {
		// The plan asks for another result dtype than the operation gives
		// (say, a float16 result of a float32 computation): convert,
		// rounding once.
		e = &expr{op: backend.OpCast, dt: n.DType, argDT: e.dt, args: []*expr{e}}
	}
	return e, nil
}

// leafOf evaluates n outside the tree and returns a leaf reading it.
func (f *fusion) leafOf(n *backend.Node) (*expr, error) {
	v, err := f.r.eval(n)
	if err != nil {
		return nil, err
	}
	s, err := v.Layout().BroadcastStrides(f.root.Shape)
	if err != nil {
		return nil, fmt.Errorf("cuda: %v: operand: %v", f.root.Op, err)
	}
	l := &leaf{v: v, strides: s}
	f.leaves = append(f.leaves, l)
	return &expr{op: backend.OpInput, dt: v.dtype, leaf: l}, nil
}

// layout coalesces the root's shape over the leaves' strides, classifies
// every leaf (contiguous, broadcast scalar or strided) and reports whether
// the kernel needs 64-bit indices.
func (f *fusion) layout(size int) (shape []int, wide bool) {
	st := make([][]int, len(f.leaves))
	for i, l := range f.leaves {
		st[i] = l.strides
	}
	shape, st = backend.Coalesce(f.root.Shape, st)
	rm := backend.RowMajor(shape)
	elems := 0
	for i, l := range f.leaves {
		l.strides = st[i]
		switch {
		case allZero(st[i]):
			l.kind = leafScalar
		case slices.Equal(st[i], rm):
			l.kind = leafContig
		default:
			l.kind = leafStrided
		}
		elems = max(elems, l.v.buf.bytes/backend.ElemSize(l.v.dtype))
	}
	return shape, wideFor(size, elems, len(shape))
}

func allZero(s []int) bool {
	for _, x := range s {
		if x != 0 {
			return false
		}
	}
	return true
}
