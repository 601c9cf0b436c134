//go:build !amd64 || purego

package cpu

// copyEven sets no element without vector loops (see the amd64 form).
func copyEven[T any](dst, src []T, pos int) int { return 0 }
