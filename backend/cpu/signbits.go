package cpu

import (
	"unsafe"

	"github.com/tensorsh/tensorsh/backend"
	"github.com/tensorsh/tensorsh/dtypes"
)

// signMasks holds a block of 0x7fff and one of 0x8000, the second
// operands of signBits' bitwise steps.
var signMasks = func() (m [2][blockSize]uint16) {
	for i := range blockSize {
		m[0][i], m[1][i] = 0x7fff, 0x8000
	}
	return m
}()

// signBits evaluates abs(x) and -x of a float16 or bfloat16 input, or a
// view of one (a transpose, slice, broadcast or reshape), on the sign
// bit, x & 0x7fff and x ^ 0x8000, as NumPy's float16 loops and
// ml_dtypes' bfloat16 ones do, rather than converting each block to
// float32 and rounding it back: the same numbers, two bytes an element
// read and written, and a NaN keeps its payload as in NumPy
// (np.abs(np.uint16(0x7c01).view(np.float16)) is 0x7c01, where the
// conversion made it 0x7e01) whatever the operand's layout: a view is
// copied contiguous first, and the copy masked in place. ok is false
// where n is not such an operation.
func (r *runner) signBits(n *backend.Node, size int) (v *view, ok bool, err error) {
	if n.Op != backend.OpAbs && n.Op != backend.OpNeg || len(n.Args) != 1 ||
		n.DType != dtypes.F16 && n.DType != dtypes.BF16 || n.Args[0].DType != n.DType || !inputView(n.Args[0]) {
		return nil, false, nil
	}
	in, err := r.eval(n.Args[0])
	if err != nil {
		return nil, true, err
	}
	var out *view
	if in.Layout().Contiguous() {
		if out, err = r.Alloc(n.DType, n.Shape, size); err != nil {
			return nil, true, err
		}
	} else {
		if out, err = r.x.Materialize(in); err != nil {
			return nil, true, err
		}
		in = out
	}
	if size == 0 {
		return out, true, nil
	}
	x, d := in.data.([]uint16)[in.off:in.off+size], out.data.([]uint16)
	op, mask := backend.OpBitXor, signMasks[1][:]
	if n.Op == backend.OpAbs {
		op, mask = backend.OpBitAnd, signMasks[0][:]
	}
	step := bitAndL[uint16]
	if op == backend.OpBitXor {
		step = bitXorL[uint16]
	}
	if v, ok := intAsms[intAsmKey{op, unsafe.Sizeof(uint16(0)), false}]; ok && haveIntSIMD {
		step = vbin(v, step)
	}
	grain := grainSize
	if b := 4 * size; b < serialMin || b < serialLimit(r.b.nworkers()) {
		grain = size // one range, on the calling goroutine
	}
	return out, true, r.parallel(size, grain, func(_, lo, hi int) error {
		for off := lo; off < hi; off += blockSize {
			e := min(off+blockSize, hi)
			step(d[off:e], x[off:e], mask[:e-off])
		}
		return nil
	})
}

// inputView reports whether n is an input or a view of one that
// evaluating copies nothing (or, for a reshape of a strided view, only
// the elements).
func inputView(n *backend.Node) bool {
	for {
		switch n.Op {
		case backend.OpInput:
			return true
		case backend.OpTranspose, backend.OpSlice, backend.OpBroadcastTo, backend.OpReshape:
			n = n.Args[0]
		default:
			return false
		}
	}
}
