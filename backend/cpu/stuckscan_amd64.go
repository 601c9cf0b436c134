//go:build amd64 && !purego

package cpu

// stuckScan64AVX2 and stuckScan32AVX2 are stuckRun's scans with AVX2
// (stuckscan_amd64.s), whole groups of eight (sixteen) words: they stop
// before the first group with a word outside the run.
//
//go:noescape
func stuckScan64AVX2(w []uint64, base, span uint64) (n int, s uint64)

//go:noescape
func stuckScan32AVX2(w []uint32, base, span uint32) (n int, s uint32)

// stuckScan64 returns stuckRun's result for float64 words, the bulk of
// the run by stuckScan64AVX2 where the CPU has AVX2.
func stuckScan64(w []uint64, base, span uint64) (int, uint64) {
	return stuckScanWith(w, base, span, 1<<63-1, stuckScan64AVX2)
}

// stuckScan32 is stuckScan64 for float32 words.
func stuckScan32(w []uint32, base, span uint32) (int, uint32) {
	return stuckScanWith(w, base, span, 1<<31-1, stuckScan32AVX2)
}

// stuckScanWith is stuckRun with the bulk of the run by scan where the
// CPU has AVX2, the rest in Go.
func stuckScanWith[U uint32 | uint64](w []U, base, span, abs U, scan func([]U, U, U) (int, U)) (int, U) {
	var n int
	var s U
	if haveAVX2 {
		n, s = scan(w, base, span)
	}
	m, t := stuckRun(w[n:], base, span, abs)
	return n + m, s ^ t
}
