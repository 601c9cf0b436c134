// Package plantest builds plan nodes for the tests of the backends.
package plantest

import (
	"github.com/tensorsh/tensorsh/backend"
	"github.com/tensorsh/tensorsh/broadcast"
	"github.com/tensorsh/tensorsh/dtypes"
)

// In returns the input node of t.
func In(t *backend.Tensor) *backend.Node {
	return &backend.Node{Op: backend.OpInput, DType: t.DType, Shape: t.Shape, Tensor: t}
}

// Binary returns the node of o applied to a and b, of their broadcast
// shape (it panics when they do not broadcast). The result dtype is bool
// for comparisons and logical operations, a's otherwise.
func Binary(o backend.Op, a, b *backend.Node) *backend.Node {
	shape, err := broadcast.Shapes(a.Shape, b.Shape)
	if err != nil {
		panic(err)
	}
	d := a.DType
	switch o {
	case backend.OpEq, backend.OpNe, backend.OpLt, backend.OpLe, backend.OpGt, backend.OpGe, backend.OpAnd, backend.OpOr:
		d = dtypes.Bool
	}
	return &backend.Node{Op: o, DType: d, Shape: shape, Args: []*backend.Node{a, b}}
}

// Unary returns the node of o applied to a. The result dtype is bool for
// not, isnan and isinf, real for the absolute value, a's otherwise.
func Unary(o backend.Op, a *backend.Node) *backend.Node {
	d := a.DType
	switch o {
	case backend.OpNot, backend.OpIsNaN, backend.OpIsInf:
		d = dtypes.Bool
	case backend.OpAbs:
		d = d.Real()
	}
	return &backend.Node{Op: o, DType: d, Shape: a.Shape, Args: []*backend.Node{a}}
}
