package cuda

import (
	"context"
	"errors"
	"fmt"
	"math"
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
func (v *dview) ptr() uintptr { return v.buf.ptr + uintptr(v.off*backend.ElemSize(v.dtype)) }

func (v *dview) size() int { return backend.Size(v.shape) }

// DType, Layout and WithLayout make a dview a backend.View.

func (v *dview) DType() dtypes.DType { return v.dtype }

func (v *dview) Layout() backend.Layout {
	return backend.Layout{Shape: v.shape, Strides: v.strides, Off: v.off}
}

func (v *dview) WithLayout(l backend.Layout) *dview {
	return &dview{dtype: v.dtype, buf: v.buf, shape: l.Shape, strides: l.Strides, off: l.Off}
}

// contigView returns a contiguous view of buf with the given shape.
func contigView(d dtypes.DType, buf *buffer, shape []int) *dview {
	return &dview{dtype: d, buf: buf, shape: append([]int{}, shape...), strides: backend.RowMajor(shape)}
}

// A runner holds the state of one Run.
type runner struct {
	b     *Backend
	ctx   context.Context
	x     *backend.Exec[*dview]
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
	r.x = backend.NewExec[*dview](r.ctx, "cuda", r, refuseComplex32)
	v, err := r.x.Run(n)
	if err != nil {
		return nil, err
	}
	return r.tensor(v)
}

// refuseComplex32 refuses the nodes of complex32 (see errComplex32).
func refuseComplex32(n *backend.Node) error {
	if n.DType == dtypes.C32 || n.Tensor != nil && n.Tensor.DType == dtypes.C32 {
		return errComplex32
	}
	return nil
}

// Alloc returns a contiguous view of a new buffer for size elements of d.
func (r *runner) Alloc(d dtypes.DType, shape []int, size int) (*dview, error) {
	buf, err := r.alloc(d, size)
	if err != nil {
		return nil, err
	}
	return contigView(d, buf, shape), nil
}

// alloc returns a new buffer for n elements of d, owned by the run.
func (r *runner) alloc(d dtypes.DType, n int) (*buffer, error) {
	if n > math.MaxInt/16 {
		return nil, fmt.Errorf("cuda: out of memory: result of %d elements is too large", n)
	}
	return r.allocBytes(n * backend.ElemSize(d))
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
	if !(v.Layout().Contiguous() && v.off == 0 && v.buf.bytes == v.size()*backend.ElemSize(v.dtype)) {
		var err error
		if v, err = r.x.Materialize(v); err != nil {
			return nil, err
		}
	}
	return &backend.Tensor{DType: v.dtype, Shape: append([]int{}, v.shape...), Data: r.b.newArray(v.buf)}, nil
}

// eval evaluates n (see backend.Exec.Eval).
func (r *runner) eval(n *backend.Node) (*dview, error) { return r.x.Eval(n) }

// Input returns the view of an input node's tensor, uploading CPU data.
func (r *runner) Input(n *backend.Node, size int) (*dview, error) {
	t := n.Tensor
	a, err := r.b.arrayOf(t)
	if err != nil {
		return nil, err
	}
	if a != nil {
		if a.h.buf.bytes != size*backend.ElemSize(t.DType) {
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

// CopyInto copies the elements of src into dst (same dtype and shape, any
// strides) bit for bit: with one device copy when both are contiguous, a
// strided copy kernel otherwise.
func (r *runner) CopyInto(dst, src *dview) error {
	n := src.size()
	es := backend.ElemSize(src.dtype)
	shape, st := backend.Coalesce(src.shape, [][]int{dst.strides, src.strides})
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

// Operations computed on the CPU.

// fallback evaluates n with the CPU backend: its arguments are evaluated
// here, copied to the host, and the result is uploaded.
func (r *runner) fallback(n *backend.Node) (*dview, error) {
	cn := *n
	cn.Args = make([]*backend.Node, len(n.Args))
	for i, a := range n.Args {
		t, err := r.fetch(a)
		if err != nil {
			return nil, err
		}
		cn.Args[i] = &backend.Node{Op: backend.OpInput, DType: t.DType, Shape: t.Shape, Tensor: t}
	}
	t, err := r.b.cpu.Run(r.ctx, &cn)
	if err != nil {
		return nil, err
	}
	size, err := backend.ShapeSize(t.Shape)
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

// fetch evaluates n and copies its value to a CPU tensor.
func (r *runner) fetch(n *backend.Node) (*backend.Tensor, error) {
	v, err := r.eval(n)
	if err == nil && !v.Layout().Contiguous() {
		v, err = r.x.Materialize(v)
	}
	if err != nil {
		return nil, err
	}
	size := v.size()
	data := backend.NewStorage(v.dtype, size)
	host, _ := hostBytes(v.dtype, data, size)
	if len(host) > 0 {
		if err := r.b.dev.dtoh(unsafe.Pointer(&host[0]), v.ptr(), len(host)); err != nil {
			return nil, err
		}
	}
	return &backend.Tensor{DType: v.dtype, Shape: append([]int{}, v.shape...), Data: data}, nil
}

// errComplex32 refuses complex32 plans. PyTorch's ComplexHalf kernels differ
// between its CPU and CUDA builds (CUDA has many more, some computed through
// jiterator), and this backend generates neither; the CPU backend computes
// the CPU ones.
var errComplex32 = fmt.Errorf("cuda: complex32 (torch.chalf) is not supported by the CUDA backend; use :backend cpu")
