//go:build !amd64 || purego

package cpu

// hasNaN32 reports whether some element of a is NaN.
func hasNaN32(a []float32) bool { return hasNaN32Go(a) }
