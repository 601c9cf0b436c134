//go:build !amd64 || purego

package cpu

// argBytes has no kernel here: argRowsInt takes its scalar loops.
func argBytes[T integer](isMax bool) func(run []T) int { return nil }
