package cpu

import "github.com/tensorsh/tensorsh/backend"

// constExponent returns the value of n's second operand (the exponent of
// x ** c) when it is one materialised float32 or float64 element
// broadcast, as a literal exponent is.
func constExponent(n *backend.Node) (float64, bool) {
	if len(n.Args) != 2 {
		return 0, false
	}
	e := n.Args[1]
	if e.Op != backend.OpInput || e.Tensor == nil || e.Tensor.Len() != 1 {
		return 0, false
	}
	switch v := e.Tensor.Data.(type) {
	case []float32:
		return float64(v[0]), true
	case []float64:
		return v[0], true
	}
	return 0, false
}
