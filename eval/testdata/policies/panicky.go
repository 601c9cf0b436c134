//go:build ignore

package panicky

import "tensorsh"

const Base = "numpy"

func Promote(a, b tensorsh.Type) (tensorsh.Type, error) {
	if a.DType == tensorsh.I8 {
		panic("i8 is not welcome")
	}
	return tensorsh.Strong(tensorsh.F64), nil
}
