package cpu

import "github.com/tensorsh/tensorsh/backend"

// constExponent returns the value of n's second operand (the exponent of
// x ** c) in n's compute type when it is one materialised element
// broadcast, as a literal exponent is.
func constExponent(n *backend.Node) (float64, bool) {
	if len(n.Args) != 2 {
		return 0, false
	}
	e := n.Args[1]
	if e.Op != backend.OpInput || e.Tensor == nil || backend.Size(e.Tensor.Shape) != 1 ||
		backend.CheckStorage(e.Tensor.DType, e.Tensor.Data, 1) != nil {
		return 0, false
	}
	initTables() // the float16 table of loadSeg
	switch computeOf(e.Tensor.DType) {
	case ctF32:
		v := make([]float32, 1)
		loadSeg(e.Tensor.DType, v, e.Tensor.Data, 0, 0, 1)
		return float64(v[0]), true
	case ctF64:
		v := make([]float64, 1)
		loadSeg(e.Tensor.DType, v, e.Tensor.Data, 0, 0, 1)
		return v[0], true
	}
	return 0, false
}
