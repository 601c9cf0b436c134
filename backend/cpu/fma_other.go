//go:build !amd64 || purego

package cpu

func fmaDot4Asm[T float32 | float64](s *[4]T, a []T, lda, k int, v []T) bool { return false }
