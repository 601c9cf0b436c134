//go:build ignore

package endless

import "tensorsh"

func Promote(a, b tensorsh.Type) (tensorsh.Type, error) {
	for {
	}
}
