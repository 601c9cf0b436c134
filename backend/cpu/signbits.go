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

// signBits evaluates abs(x) and -x of a float16 or bfloat16 input on the
// sign bit, x & 0x7fff and x ^ 0x8000, as NumPy's float16 loops and
// ml_dtypes' bfloat16 ones do, rather than converting each block to
// float32 and rounding it back: the same numbers, two bytes an element
// read and written, and a NaN keeps its payload as in NumPy
// (np.abs(np.uint16(0x7c01).view(np.float16)) is 0x7c01, where the
// conversion made it 0x7e01). ok is false where n is not such an
// operation on an input.
func (r *runner) signBits(n *backend.Node, size int) (v *view, ok bool, err error) {
	if n.Op != backend.OpAbs && n.Op != backend.OpNeg || len(n.Args) != 1 {
		return nil, false, nil
	}
	a := n.Args[0]
	if a.Op != backend.OpInput || a.DType != n.DType || n.DType != dtypes.F16 && n.DType != dtypes.BF16 {
		return nil, false, nil
	}
	in, err := r.eval(a)
	if err != nil {
		return nil, true, err
	}
	out, err := r.Alloc(n.DType, n.Shape, size)
	if err != nil || size == 0 {
		return out, true, err
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
