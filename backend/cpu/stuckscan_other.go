//go:build !amd64 || purego

package cpu

// stuckScan64 returns stuckRun's result for float64 words.
func stuckScan64(w []uint64, base, span uint64) (int, uint64) {
	return stuckRun(w, base, span, 1<<63-1)
}

// stuckScan32 returns stuckRun's result for float32 words.
func stuckScan32(w []uint32, base, span uint32) (int, uint32) {
	return stuckRun(w, base, span, 1<<31-1)
}
