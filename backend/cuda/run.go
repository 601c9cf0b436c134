package cuda

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"unsafe"

	"github.com/tensorsh/tensorsh/backend"
	"github.com/tensorsh/tensorsh/dtypes"
)

// errNegativePower is NumPy's (and the CPU backend's) error for an integer
// raised to a negative integer power.
var errNegativePower = errors.New("integers to negative integer powers are not allowed")

// Error flag bits set by kernels.
const (
	flagDivZero  = 1
	flagNegPower = 2
	// Warning bits (Node.WarnIntDiv): backend.WarnDivZeroFloorDivide,
	// WarnDivZeroRemainder and WarnOverflowFloorDivide, shifted by 2.
	flagWarnShift = 2
)

// A dview is a strided window on a device buffer: element (i0, …, ik) is
// at element off + Σ ij*strides[j] of buf. Strides are in elements and may
// be zero (broadcast) or negative (reversed slices).
type dview struct {
	dtype   dtypes.DType
	buf     *buffer
	shape   []int
	strides []int
	off     int
}

// ptr returns the device address of the view's element 0.
func (v *dview) ptr() uintptr { return v.buf.ptr + uintptr(v.off*elemSize(v.dtype)) }

func (v *dview) size() int { return backend.Size(v.shape) }

// contiguous reports whether v's elements are consecutive in row-major
// order from off.
func (v *dview) contiguous() bool {
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

// broadcastStrides returns the strides that read v as if broadcast to out.
func (v *dview) broadcastStrides(out []int) ([]int, error) {
	return v.layout().BroadcastStrides(out)
}

// layout returns v's shape, strides and offset.
func (v *dview) layout() backend.Layout {
	return backend.Layout{Shape: v.shape, Strides: v.strides, Off: v.off}
}

func contigView(d dtypes.DType, buf *buffer, shape []int) *dview {
	return &dview{dtype: d, buf: buf, shape: cloneInts(shape), strides: backend.RowMajor(shape)}
}

// A runner holds the state of one Run.
type runner struct {
	b     *Backend
	ctx   context.Context
	refs  map[*backend.Node]int
	memo  map[*backend.Node]*dview
	temps []*buffer // buffers allocated by this run
	flag  *buffer   // the kernels' error word, allocated on first use
}

// run evaluates n and returns the result tensor. It waits for the device,
// reads the error flag and releases the run's temporaries.
func (r *runner) run(n *backend.Node) (res *backend.Tensor, err error) {
	defer func() {
		if serr := r.b.dev.sync(); serr != nil && err == nil {
			err = serr
		}
		if err == nil && r.flag != nil {
			var f uint32
			if ferr := r.b.dev.dtoh(unsafe.Pointer(&f), r.flag.ptr, 4); ferr != nil {
				err = ferr
			} else if f&flagDivZero != 0 {
				err = backend.ErrDivideByZero
			} else if f&flagNegPower != 0 {
				err = errNegativePower
			} else if w := backend.IntDivWarning(f >> flagWarnShift); w != nil && res != nil {
				err = w
			}
		}
		var w *backend.Warning
		if err != nil && res != nil && !errors.As(err, &w) {
			r.b.Free(res)
			res = nil
		}
		for _, buf := range r.temps {
			r.b.unref(buf)
		}
	}()
	if err := r.count(n, 0); err != nil {
		return nil, err
	}
	v, err := r.eval(n)
	if err != nil {
		return nil, err
	}
	return r.tensor(v)
}

// count fills r.refs and checks the plan's structure.
func (r *runner) count(n *backend.Node, depth int) error {
	if n == nil {
		return fmt.Errorf("cuda: plan has a nil node")
	}
	if depth > 10000 {
		return fmt.Errorf("cuda: plan too deep")
	}
	if n.DType == dtypes.C32 || n.Tensor != nil && n.Tensor.DType == dtypes.C32 {
		return errComplex32
	}
	r.refs[n]++
	if r.refs[n] > 1 {
		return nil
	}
	for _, a := range n.Args {
		if err := r.count(a, depth+1); err != nil {
			return err
		}
	}
	return nil
}

// alloc returns a new buffer for n elements of d, owned by the run.
func (r *runner) alloc(d dtypes.DType, n int) (*buffer, error) {
	if n > math.MaxInt/16 {
		return nil, fmt.Errorf("cuda: out of memory: result of %d elements is too large", n)
	}
	return r.allocBytes(n * elemSize(d))
}

func (r *runner) allocBytes(bytes int) (*buffer, error) {
	buf, err := r.b.alloc(bytes)
	if err != nil {
		return nil, err
	}
	r.temps = append(r.temps, buf)
	return buf, nil
}

// flagPtr returns the device address of the run's error word.
func (r *runner) flagPtr() (uintptr, error) {
	if r.flag == nil {
		buf, err := r.allocBytes(4)
		if err != nil {
			return 0, err
		}
		if err := r.b.dev.memsetZero(buf.ptr, 4); err != nil {
			return 0, err
		}
		r.flag = buf
	}
	return r.flag.ptr, nil
}

// tensor returns v as a new tensor: sharing v's buffer when v is all of
// it in row-major order, a contiguous copy otherwise.
func (r *runner) tensor(v *dview) (*backend.Tensor, error) {
	if !(v.contiguous() && v.off == 0 && v.buf.bytes == v.size()*elemSize(v.dtype)) {
		var err error
		if v, err = r.materialize(v); err != nil {
			return nil, err
		}
	}
	return &backend.Tensor{DType: v.dtype, Shape: cloneInts(v.shape), Data: r.b.newArray(v.buf)}, nil
}

// eval evaluates n to a view: a new buffer, or a strided view of one
// (transpose, slice, broadcast_to and reshape of contiguous data copy
// nothing).
func (r *runner) eval(n *backend.Node) (*dview, error) {
	if v, ok := r.memo[n]; ok {
		return v, nil
	}
	if err := r.ctx.Err(); err != nil {
		return nil, err
	}
	if !n.DType.IsValid() {
		return nil, fmt.Errorf("cuda: %v: invalid dtype %v", n.Op, n.DType)
	}
	size, err := shapeSize(n.Shape)
	if err != nil {
		return nil, fmt.Errorf("cuda: %v: %v", n.Op, err)
	}
	if err := checkArgs(n); err != nil {
		return nil, err
	}
	var v *dview
	switch {
	case n.Op == backend.OpInput:
		v, err = r.input(n, size)
	case n.Op.IsElementwise():
		v, err = r.elementwise(n, size)
	default:
		v, err = r.structural(n, size)
	}
	if err != nil {
		return nil, err
	}
	if v.dtype != n.DType || !slices.Equal(v.shape, n.Shape) {
		return nil, fmt.Errorf("cuda: internal error: %v gave %v%v, want %v%v", n.Op, v.dtype, v.shape, n.DType, n.Shape)
	}
	if r.refs[n] > 1 {
		r.memo[n] = v
	}
	return v, nil
}

// input returns the view of an input node's tensor, uploading CPU data.
func (r *runner) input(n *backend.Node, size int) (*dview, error) {
	t := n.Tensor
	if t == nil {
		return nil, fmt.Errorf("cuda: input node without a tensor")
	}
	if t.DType != n.DType || !slices.Equal(t.Shape, n.Shape) {
		return nil, fmt.Errorf("cuda: input node says %v%v but its tensor is %v%v", n.DType, n.Shape, t.DType, t.Shape)
	}
	a, err := r.b.arrayOf(t)
	if err != nil {
		return nil, err
	}
	if a != nil {
		if a.h.buf.bytes != size*elemSize(t.DType) {
			return nil, fmt.Errorf("cuda: input: tensor of %d %v elements holds %d bytes", size, t.DType, a.h.buf.bytes)
		}
		return contigView(t.DType, a.h.buf, t.Shape), nil
	}
	host, err := hostBytes(t.DType, t.Data, size)
	if err != nil {
		return nil, fmt.Errorf("cuda: input: %v", err)
	}
	buf, err := r.b.upload(host)
	if err != nil {
		return nil, err
	}
	r.temps = append(r.temps, buf)
	return contigView(t.DType, buf, t.Shape), nil
}

// checkArgs checks the number of arguments of n.
func checkArgs(n *backend.Node) error {
	if err := backend.CheckArgs(n); err != nil {
		return fmt.Errorf("cuda: %v", err)
	}
	return nil
}

// Launching.

const blockSize = 256

// launch compiles s (once) and runs its kernel over enough threads for
// work items, each thread taking perThread of them in a grid-stride loop.
func (r *runner) launch(s *source, kernel string, work, perThread int) error {
	if err := r.ctx.Err(); err != nil {
		return err
	}
	if work <= 0 {
		return nil
	}
	if s.flag >= 0 {
		p, err := r.flagPtr()
		if err != nil {
			return err
		}
		s.words[s.flag] = uint64(p)
	}
	m, err := r.b.module(s)
	if err != nil {
		return err
	}
	f, ok := m.fns[kernel]
	if !ok {
		return fmt.Errorf("cuda: internal error: no kernel %s in module", kernel)
	}
	threads := (work + perThread - 1) / perThread
	grid := min((threads+blockSize-1)/blockSize, r.b.sms*16)
	return r.b.dev.launch(f, max(grid, 1), blockSize, s.words)
}

// gridStride writes the head of a grid-stride loop over i in [0, n).
const gridStride = "for (IDX i = (IDX)blockIdx.x * (IDX)blockDim.x + (IDX)threadIdx.x; i < %s; i += (IDX)blockDim.x * (IDX)gridDim.x)"

// wideFor reports whether a kernel over n items reading views of up to
// elems elements, through rank strides, needs 64-bit index arithmetic.
func wideFor(n, elems, rank int) bool {
	const lim = 1<<31 - 1<<27
	return n >= lim || elems*max(rank, 1)+elems >= lim
}

// Structural operations.

func (r *runner) structural(n *backend.Node, size int) (*dview, error) {
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
	return nil, fmt.Errorf("cuda: unknown operation %v", n.Op)
}

// argView evaluates the single argument of n and checks that its dtype is
// n's (structural operations do not convert).
func (r *runner) argView(n *backend.Node) (*dview, error) {
	a, err := r.eval(n.Args[0])
	if err != nil {
		return nil, err
	}
	if a.dtype != n.DType {
		return nil, fmt.Errorf("cuda: %v keeps the dtype of its operand (%v), but the plan says %v", n.Op, a.dtype, n.DType)
	}
	return a, nil
}

func (r *runner) reshape(n *backend.Node, size int) (*dview, error) {
	a, err := r.argView(n)
	if err != nil {
		return nil, err
	}
	if a.size() != size {
		return nil, fmt.Errorf("cuda: cannot reshape %v (%d elements) to %v (%d elements)", a.shape, a.size(), n.Shape, size)
	}
	if !a.contiguous() {
		if a, err = r.materialize(a); err != nil {
			return nil, err
		}
	}
	return &dview{dtype: a.dtype, buf: a.buf, shape: cloneInts(n.Shape), strides: backend.RowMajor(n.Shape), off: a.off}, nil
}

func (r *runner) transpose(n *backend.Node) (*dview, error) {
	a, err := r.argView(n)
	if err != nil {
		return nil, err
	}
	l, err := a.layout().Transpose(n.Axes)
	if err != nil {
		return nil, fmt.Errorf("cuda: %v", err)
	}
	return &dview{dtype: a.dtype, buf: a.buf, off: l.Off, shape: l.Shape, strides: l.Strides}, nil
}

func (r *runner) broadcastTo(n *backend.Node) (*dview, error) {
	a, err := r.argView(n)
	if err != nil {
		return nil, err
	}
	s, err := a.broadcastStrides(n.Shape)
	if err != nil {
		return nil, fmt.Errorf("cuda: broadcast_to: %v", err)
	}
	return &dview{dtype: a.dtype, buf: a.buf, off: a.off, shape: cloneInts(n.Shape), strides: s}, nil
}

func (r *runner) slice(n *backend.Node) (*dview, error) {
	a, err := r.argView(n)
	if err != nil {
		return nil, err
	}
	l, err := a.layout().Slice(n.Slices, n.Shape)
	if err != nil {
		return nil, fmt.Errorf("cuda: %v", err)
	}
	return &dview{dtype: a.dtype, buf: a.buf, off: l.Off, shape: l.Shape, strides: l.Strides}, nil
}

func (r *runner) concat(n *backend.Node, size int) (*dview, error) {
	args := make([]*dview, len(n.Args))
	shapes := make([][]int, len(n.Args))
	for i, an := range n.Args {
		a, err := r.eval(an)
		if err != nil {
			return nil, err
		}
		if a.dtype != n.DType {
			return nil, fmt.Errorf("cuda: concat of %v into %v: operands must share the result dtype", a.dtype, n.DType)
		}
		args[i], shapes[i] = a, a.shape
	}
	ax, err := backend.ConcatAxis(n, shapes)
	if err != nil {
		return nil, fmt.Errorf("cuda: %v", err)
	}
	buf, err := r.alloc(n.DType, size)
	if err != nil {
		return nil, err
	}
	out := contigView(n.DType, buf, n.Shape)
	start := 0
	for _, a := range args {
		dst := &dview{dtype: out.dtype, buf: out.buf, shape: a.shape, strides: out.strides, off: start * out.strides[ax]}
		if err := r.copyInto(dst, a); err != nil {
			return nil, err
		}
		start += a.shape[ax]
	}
	return out, nil
}

// materialize returns a contiguous copy of v.
func (r *runner) materialize(v *dview) (*dview, error) {
	buf, err := r.alloc(v.dtype, v.size())
	if err != nil {
		return nil, err
	}
	out := contigView(v.dtype, buf, v.shape)
	if err := r.copyInto(out, v); err != nil {
		return nil, err
	}
	return out, nil
}

// copyInto copies the elements of src into dst (same dtype and shape, any
// strides) bit for bit: with one device copy when both are contiguous, a
// strided copy kernel otherwise.
func (r *runner) copyInto(dst, src *dview) error {
	n := src.size()
	if n == 0 {
		return nil
	}
	es := elemSize(src.dtype)
	shape, st := coalesce(src.shape, [][]int{dst.strides, src.strides})
	if len(shape) == 1 && st[0][0] == 1 && st[1][0] == 1 {
		return r.b.dev.dtod(dst.ptr(), src.ptr(), n*es)
	}
	s := newSource(wideFor(n, max(dst.buf.bytes, src.buf.bytes)/es, len(shape)))
	copyKernel(s, es, shape, st[0], st[1], dst.ptr(), src.ptr(), n)
	return r.launch(s, "copy", n, 1)
}

// copyKernel emits a strided copy of n elements of es bytes.
func copyKernel(s *source, es int, shape, dstSt, srcSt []int, dst, src uintptr, n int) {
	t := map[int]string{1: "u8", 2: "u16", 4: "u32", 8: "u64", 16: "ts_u128"}[es]
	nw := s.word(uint64(n))
	dw, sw := s.word(uint64(dst)), s.word(uint64(src))
	dims := make([]int, len(shape))
	for i, d := range shape {
		dims[i] = s.word(uint64(d))
	}
	ds, ss := make([]int, len(shape)), make([]int, len(shape))
	for i := range shape {
		ds[i] = s.word(uint64(int64(dstSt[i])))
		ss[i] = s.word(uint64(int64(srcSt[i])))
	}
	b := &s.body
	if es == 16 {
		b.WriteString("struct ts_u128 { u64 lo, hi; };\n")
	}
	s.names = append(s.names, "copy")
	fmt.Fprintf(b, "KERNEL void copy(const P p) {\n\t%s* __restrict__ dst = (%s*)p.w[%d];\n\tconst %s* __restrict__ src = (const %s*)p.w[%d];\n", t, t, dw, t, t, sw)
	fmt.Fprintf(b, "\t"+gridStride+" {\n", s.w(nw))
	b.WriteString("\t\tIDX r = i, od = 0, os = 0;\n")
	for k := len(shape) - 1; k >= 0; k-- {
		if k > 0 {
			fmt.Fprintf(b, "\t\t{ const IDX c = r %% %s; r /= %s; od += c * %s; os += c * %s; }\n", s.w(dims[k]), s.w(dims[k]), s.w(ds[k]), s.w(ss[k]))
		} else {
			fmt.Fprintf(b, "\t\tod += r * %s; os += r * %s;\n", s.w(ds[k]), s.w(ss[k]))
		}
	}
	b.WriteString("\t\tdst[od] = src[os];\n\t}\n}\n")
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

// shapeSize returns the number of elements of shape, or an error for a
// negative dimension or a count that overflows.
func shapeSize(shape []int) (int, error) {
	n := 1
	for _, d := range shape {
		if d < 0 {
			return 0, fmt.Errorf("negative dimension in shape %v", shape)
		}
		if d != 0 && n > math.MaxInt/d {
			return 0, fmt.Errorf("shape %v has too many elements", shape)
		}
		n *= d
	}
	return n, nil
}

func cloneInts(s []int) []int {
	c := make([]int, len(s))
	copy(c, s)
	return c
}

// Operations computed on the CPU.

// fallback evaluates n with the CPU backend: its arguments are evaluated
// here, copied to the host, and the result is uploaded.
func (r *runner) fallback(n *backend.Node) (*dview, error) {
	cn := *n
	cn.Args = make([]*backend.Node, len(n.Args))
	for i, a := range n.Args {
		v, err := r.eval(a)
		if err != nil {
			return nil, err
		}
		t, err := r.fetch(v)
		if err != nil {
			return nil, err
		}
		cn.Args[i] = &backend.Node{Op: backend.OpInput, DType: t.DType, Shape: t.Shape, Tensor: t}
	}
	t, err := r.b.cpu.Run(r.ctx, &cn)
	if err != nil {
		return nil, err
	}
	size, err := shapeSize(t.Shape)
	if err != nil {
		return nil, err
	}
	host, err := hostBytes(t.DType, t.Data, size)
	if err != nil {
		return nil, fmt.Errorf("cuda: %v on the CPU: %v", n.Op, err)
	}
	buf, err := r.b.upload(host)
	if err != nil {
		return nil, err
	}
	r.temps = append(r.temps, buf)
	return contigView(t.DType, buf, t.Shape), nil
}

// fetch copies v to a CPU tensor.
func (r *runner) fetch(v *dview) (*backend.Tensor, error) {
	if !v.contiguous() {
		var err error
		if v, err = r.materialize(v); err != nil {
			return nil, err
		}
	}
	size := v.size()
	data := newStorage(v.dtype, size)
	host, _ := hostBytes(v.dtype, data, size)
	if len(host) > 0 {
		if err := r.b.dev.dtoh(unsafe.Pointer(&host[0]), v.ptr(), len(host)); err != nil {
			return nil, err
		}
	}
	return &backend.Tensor{DType: v.dtype, Shape: cloneInts(v.shape), Data: data}, nil
}

// errComplex32 refuses complex32 plans. PyTorch's ComplexHalf kernels differ
// between its CPU and CUDA builds (CUDA has many more, some computed through
// jiterator), and this backend generates neither; the CPU backend computes
// the CPU ones.
var errComplex32 = fmt.Errorf("cuda: complex32 (torch.chalf) is not supported by the CUDA backend; use :backend cpu")
