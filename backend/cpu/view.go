package cpu

import (
	"fmt"

	"github.com/tensorsh/tensorsh/backend"
	"github.com/tensorsh/tensorsh/dtypes"
)

// A view is a strided window on storage: element (i0, …, ik) is
// data[off + Σ ij*strides[j]]. Strides are in elements and may be zero
// (broadcast) or negative (reversed slices).
type view struct {
	dtype   dtypes.DType
	data    any // storage slice (see backend.Tensor)
	shape   []int
	strides []int
	off     int
}

// tensorView returns the contiguous view of t.
func tensorView(t *backend.Tensor) *view {
	return &view{dtype: t.DType, data: t.Data, shape: cloneInts(t.Shape), strides: backend.RowMajor(t.Shape)}
}

// contigView returns a contiguous view of storage data with the given shape.
func contigView(d dtypes.DType, data any, shape []int) *view {
	return &view{dtype: d, data: data, shape: cloneInts(shape), strides: backend.RowMajor(shape)}
}

func (v *view) size() int { return backend.Size(v.shape) }

// contiguous reports whether v's elements are data[off : off+size] in
// row-major order.
func (v *view) contiguous() bool {
	step := 1
	for i := len(v.shape) - 1; i >= 0; i-- {
		if v.shape[i] == 0 {
			return true
		}
		if v.shape[i] != 1 && v.strides[i] != step {
			return false
		}
		step *= v.shape[i]
	}
	return true
}

// broadcastStrides returns the strides that read v as if broadcast to out
// (0 on the leading axes v lacks and on axes where v has size 1).
func (v *view) broadcastStrides(out []int) ([]int, error) {
	return v.layout().BroadcastStrides(out)
}

// layout returns v's shape, strides and offset.
func (v *view) layout() backend.Layout {
	return backend.Layout{Shape: v.shape, Strides: v.strides, Off: v.off}
}

// structural evaluates the non-elementwise operations.
func (r *runner) structural(n *backend.Node, size int) (*view, error) {
	switch n.Op {
	case backend.OpReshape:
		return r.reshape(n, size)
	case backend.OpTranspose:
		return r.transpose(n)
	case backend.OpBroadcastTo:
		return r.broadcastTo(n)
	case backend.OpSlice:
		return r.slice(n)
	case backend.OpConcat:
		return r.concat(n, size)
	case backend.OpMatMul:
		return r.matmul(n, size)
	case backend.OpSoftmax, backend.OpLogSoftmax:
		return r.softmax(n, size)
	case backend.OpCumSum, backend.OpCumProd:
		return r.scan(n, size)
	case backend.OpSum, backend.OpProd, backend.OpMean, backend.OpReduceMax, backend.OpReduceMin,
		backend.OpArgMax, backend.OpArgMin, backend.OpAny, backend.OpAll:
		return r.reduce(n, size)
	}
	return nil, fmt.Errorf("cpu: unknown operation %v", n.Op)
}

// argView evaluates the single argument of n and checks that its dtype is
// n's (structural operations do not convert).
func (r *runner) argView(n *backend.Node) (*view, error) {
	a, err := r.eval(n.Args[0])
	if err != nil {
		return nil, err
	}
	if a.dtype != n.DType {
		return nil, fmt.Errorf("cpu: %v keeps the dtype of its operand (%v), but the plan says %v", n.Op, a.dtype, n.DType)
	}
	return a, nil
}

func (r *runner) reshape(n *backend.Node, size int) (*view, error) {
	a, err := r.argView(n)
	if err != nil {
		return nil, err
	}
	if a.size() != size {
		return nil, fmt.Errorf("cpu: cannot reshape %v (%d elements) to %v (%d elements)", a.shape, a.size(), n.Shape, size)
	}
	if !a.contiguous() {
		if a, err = r.materialize(a); err != nil {
			return nil, err
		}
	}
	return &view{dtype: a.dtype, data: a.data, shape: cloneInts(n.Shape), strides: backend.RowMajor(n.Shape), off: a.off}, nil
}

func (r *runner) transpose(n *backend.Node) (*view, error) {
	a, err := r.argView(n)
	if err != nil {
		return nil, err
	}
	l, err := a.layout().Transpose(n.Axes)
	if err != nil {
		return nil, fmt.Errorf("cpu: %v", err)
	}
	return &view{dtype: a.dtype, data: a.data, off: l.Off, shape: l.Shape, strides: l.Strides}, nil
}

func (r *runner) broadcastTo(n *backend.Node) (*view, error) {
	a, err := r.argView(n)
	if err != nil {
		return nil, err
	}
	s, err := a.broadcastStrides(n.Shape)
	if err != nil {
		return nil, fmt.Errorf("cpu: broadcast_to: %v", err)
	}
	return &view{dtype: a.dtype, data: a.data, off: a.off, shape: cloneInts(n.Shape), strides: s}, nil
}

func (r *runner) slice(n *backend.Node) (*view, error) {
	a, err := r.argView(n)
	if err != nil {
		return nil, err
	}
	l, err := a.layout().Slice(n.Slices, n.Shape)
	if err != nil {
		return nil, fmt.Errorf("cpu: %v", err)
	}
	return &view{dtype: a.dtype, data: a.data, off: l.Off, shape: l.Shape, strides: l.Strides}, nil
}

func (r *runner) concat(n *backend.Node, size int) (*view, error) {
	args := make([]*view, len(n.Args))
	shapes := make([][]int, len(n.Args))
	for i, an := range n.Args {
		a, err := r.eval(an)
		if err != nil {
			return nil, err
		}
		if a.dtype != n.DType {
			return nil, fmt.Errorf("cpu: concat of %v into %v: operands must share the result dtype", a.dtype, n.DType)
		}
		args[i], shapes[i] = a, a.shape
	}
	ax, err := backend.ConcatAxis(n, shapes)
	if err != nil {
		return nil, fmt.Errorf("cpu: %v", err)
	}
	data, err := r.allocFull(n.DType, size)
	if err != nil {
		return nil, err
	}
	out := contigView(n.DType, data, n.Shape)
	start := 0
	for _, a := range args {
		// The destination window of a: out sliced along ax.
		dst := &view{dtype: out.dtype, data: out.data, shape: a.shape, strides: out.strides, off: start * out.strides[ax]}
		if err := r.copyInto(dst, a); err != nil {
			return nil, err
		}
		start += a.shape[ax]
	}
	return out, nil
}

// materialize returns a contiguous copy of v.
func (r *runner) materialize(v *view) (*view, error) {
	data, err := r.allocFull(v.dtype, v.size())
	if err != nil {
		return nil, err
	}
	out := contigView(v.dtype, data, v.shape)
	if err := r.copyInto(out, v); err != nil {
		return nil, err
	}
	return out, nil
}

// copyInto copies the elements of src into dst (same dtype and shape, any
// strides), without conversion, in parallel.
func (r *runner) copyInto(dst, src *view) error {
	n := src.size()
	if n == 0 {
		return nil
	}
	shape, st := coalesce(src.shape, [][]int{dst.strides, src.strides})
	ds, ss := st[0], st[1]
	return r.parallel(n, grainSize, func(_, lo, hi int) error {
		idx, pos := make([]int, len(shape)), make([]int, 2)
		segments(shape, [][]int{ds, ss}, []int{dst.off, src.off}, idx, pos, lo, hi-lo, func(done int, pos []int, run int) {
			copyRaw(dst.data, pos[0], ds[len(ds)-1], src.data, pos[1], ss[len(ss)-1], run)
		})
		return nil
	})
}

// copyRaw copies n storage elements from src (at sp, step ss) to dst (at
// dp, step ds).
func copyRaw(dst any, dp, ds int, src any, sp, ss, n int) {
	switch d := dst.(type) {
	case []bool:
		stridedCopy(d, dp, ds, src.([]bool), sp, ss, n)
	case []int8:
		stridedCopy(d, dp, ds, src.([]int8), sp, ss, n)
	case []int16:
		stridedCopy(d, dp, ds, src.([]int16), sp, ss, n)
	case []int32:
		stridedCopy(d, dp, ds, src.([]int32), sp, ss, n)
	case []int64:
		stridedCopy(d, dp, ds, src.([]int64), sp, ss, n)
	case []uint8:
		stridedCopy(d, dp, ds, src.([]uint8), sp, ss, n)
	case []uint16:
		stridedCopy(d, dp, ds, src.([]uint16), sp, ss, n)
	case []uint32:
		stridedCopy(d, dp, ds, src.([]uint32), sp, ss, n)
	case []uint64:
		stridedCopy(d, dp, ds, src.([]uint64), sp, ss, n)
	case []float32:
		stridedCopy(d, dp, ds, src.([]float32), sp, ss, n)
	case []float64:
		stridedCopy(d, dp, ds, src.([]float64), sp, ss, n)
	case []complex64:
		stridedCopy(d, dp, ds, src.([]complex64), sp, ss, n)
	case []complex128:
		stridedCopy(d, dp, ds, src.([]complex128), sp, ss, n)
	default:
		panic(fmt.Sprintf("cpu: bad storage %T", dst))
	}
}

func stridedCopy[T any](dst []T, dp, ds int, src []T, sp, ss, n int) {
	if ds == 1 && ss == 1 {
		copy(dst[dp:dp+n], src[sp:sp+n])
		return
	}
	for range n {
		dst[dp] = src[sp]
		dp += ds
		sp += ss
	}
}

// coalesce drops the size-1 axes of shape and merges neighbouring axes that
// every stride set walks as one (strides[k][i] == strides[k][i+1] *
// shape[i+1]). It returns at least one axis (of size 1 for a scalar).
func coalesce(shape []int, strides [][]int) ([]int, [][]int) {
	var out []int
	outSt := make([][]int, len(strides))
	for i, d := range shape {
		if d == 1 {
			continue
		}
		if len(out) > 0 {
			last := len(out) - 1
			merge := true
			for k, s := range strides {
				if outSt[k][last] != s[i]*d {
					merge = false
					break
				}
			}
			if merge {
				out[last] *= d
				for k, s := range strides {
					outSt[k][last] = s[i]
				}
				continue
			}
		}
		out = append(out, d)
		for k, s := range strides {
			outSt[k] = append(outSt[k], s[i])
		}
	}
	if len(out) == 0 {
		out = []int{1}
		for k := range strides {
			outSt[k] = []int{0}
		}
	}
	return out, outSt
}

// segments walks the flat row-major positions [off, off+cnt) of shape and
// calls fn once per run along the last axis: done is how many elements came
// before the run, pos the storage position of the run's first element for
// each stride set (starting from base), run its length. idx (len(shape))
// and pos (len(strides)) are scratch.
func segments(shape []int, strides [][]int, base, idx, pos []int, off, cnt int, fn func(done int, pos []int, run int)) {
	nd := len(shape)
	rem := off
	for d := nd - 1; d >= 0; d-- {
		idx[d] = rem % shape[d]
		rem /= shape[d]
	}
	for k, s := range strides {
		p := base[k]
		for d := range nd {
			p += idx[d] * s[d]
		}
		pos[k] = p
	}
	last := nd - 1
	done := 0
	for done < cnt {
		run := min(shape[last]-idx[last], cnt-done)
		fn(done, pos, run)
		done += run
		if done == cnt {
			return
		}
		// Move to the start of the next row.
		for k, s := range strides {
			pos[k] -= idx[last] * s[last] // back to index 0 of the row
		}
		idx[last] = 0
		for d := last - 1; d >= 0; d-- {
			idx[d]++
			for k, s := range strides {
				pos[k] += s[d]
			}
			if idx[d] < shape[d] {
				break
			}
			for k, s := range strides {
				pos[k] -= shape[d] * s[d]
			}
			idx[d] = 0
		}
	}
}
