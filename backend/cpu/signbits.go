package cpu

import (
	"github.com/tensorsh/tensorsh/backend"
	"github.com/tensorsh/tensorsh/dtypes"
)

// signBits evaluates abs(x) and -x of a float16 or bfloat16 input, or a
// view of one (a transpose, slice, broadcast or reshape), on the sign
// bit, x & 0x7fff and x ^ 0x8000, as NumPy's float16 loops and
// ml_dtypes' bfloat16 ones do, rather than converting each block to
// float32 and rounding it back: the same numbers, two bytes an element
// read and written, and a NaN keeps its payload as in NumPy
// (np.abs(np.uint16(0x7c01).view(np.float16)) is 0x7c01, where the
// conversion made it 0x7e01) whatever the operand's layout. The plan is
// evaluated as the bitwise operation of the same storage read as uint16
// (so a transposed or strided operand is read as any 2-byte integer
// one), and the result relabelled. ok is false where n is not such an
// operation.
func (r *runner) signBits(n *backend.Node, size int) (v *view, ok bool, err error) {
	if n.Op != backend.OpAbs && n.Op != backend.OpNeg || len(n.Args) != 1 ||
		n.DType != dtypes.F16 && n.DType != dtypes.BF16 || n.Args[0].DType != n.DType {
		return nil, false, nil
	}
	a := asUint16(n.Args[0])
	if a == nil {
		return nil, false, nil
	}
	op, mask := backend.OpBitXor, uint16(0x8000)
	if n.Op == backend.OpAbs {
		op, mask = backend.OpBitAnd, 0x7fff
	}
	c := &backend.Tensor{DType: dtypes.U16, Shape: []int{}, Data: []uint16{mask}}
	m := &backend.Node{Op: op, DType: dtypes.U16, Shape: n.Shape, Args: []*backend.Node{a,
		{Op: backend.OpInput, DType: dtypes.U16, Shape: c.Shape, Tensor: c}}}
	if v, err = r.Elementwise(m, size); err != nil {
		return nil, true, err
	}
	v.dtype = n.DType // the same uint16 storage
	return v, true, nil
}

// asUint16 returns the plan n of an input of 2-byte floats, or of a view
// of one (transposes, slices, broadcasts, reshapes), reading the same
// storage as uint16; nil when n is of another form.
func asUint16(n *backend.Node) *backend.Node {
	switch n.Op {
	case backend.OpInput:
		t := *n.Tensor
		t.DType = dtypes.U16
		m := *n
		m.DType, m.Tensor = dtypes.U16, &t
		return &m
	case backend.OpTranspose, backend.OpSlice, backend.OpBroadcastTo, backend.OpReshape:
		a := asUint16(n.Args[0])
		if a == nil {
			return nil
		}
		m := *n
		m.DType, m.Args = dtypes.U16, []*backend.Node{a}
		return &m
	}
	return nil
}
