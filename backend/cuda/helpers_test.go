package cuda

import (
	"reflect"

	"github.com/tensorsh/tensorsh/backend"
	"github.com/tensorsh/tensorsh/broadcast"
)

func in(t *backend.Tensor) *backend.Node {
	return &backend.Node{Op: backend.OpInput, DType: t.DType, Shape: t.Shape, Tensor: t}
}

// nb builds a binary node with the broadcast shape; the result dtype is
// bool for comparisons, the operand dtype otherwise.
func nb(o backend.Op, a, b *backend.Node) *backend.Node {
	shape, err := broadcast.Shapes(a.Shape, b.Shape)
	if err != nil {
		panic(err)
	}
	return &backend.Node{Op: o, DType: naturalDType(o, a.DType), Shape: shape, Args: []*backend.Node{a, b}}
}

func nu(o backend.Op, a *backend.Node) *backend.Node {
	return &backend.Node{Op: o, DType: naturalDType(o, a.DType), Shape: a.Shape, Args: []*backend.Node{a}}
}

func equalData(a, b any) bool { return reflect.DeepEqual(a, b) }
