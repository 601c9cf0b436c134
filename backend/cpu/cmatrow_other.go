//go:build !amd64 || purego

package cpu

// cmatRow has no kernel here: mmComplex's Go loop sums.
func cmatRow(acc, a, b []complex128, k, cols int) bool { return false }

// cmvPair has no kernel here either.
func cmvPair(d, a0, a1, x []complex128, k int) bool { return false }

// cmvPair64 has no kernel here either.
func cmvPair64(d []complex128, a0, a1 []complex64, x []complex128, k int) bool { return false }
