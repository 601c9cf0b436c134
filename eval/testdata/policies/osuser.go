//go:build ignore

package osuser

import (
	"os"

	"tensorsh"
)

func Promote(a, b tensorsh.Type) (tensorsh.Type, error) {
	os.Exit(1)
	return a, nil
}
