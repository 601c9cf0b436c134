//go:build !amd64 || purego

package cpu

import "github.com/tensorsh/tensorsh/backend"

// libmAsm returns nil: without assembly the kernels are the scalar ones.
func libmAsm[T float32 | float64](backend.Op) func(d, a []T) int { return nil }
