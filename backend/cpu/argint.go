package cpu

import (
	"bytes"
	"unsafe"
)

// argRowsInt is argReduceT for integers (and bools, as the bytes 0 and 1)
// when the reduced elements of each output are contiguous runs (argmax(m,
// axis=1), or of a whole array): the same answer, the index of the first
// extreme, found in two tight passes per run instead of a call per
// element: the run's extreme, and, when it beats the best so far, its
// first position (bytes.IndexByte for 8-bit types). The walk ends once
// the best is top, the largest value (smallest, for argmin) the type or
// the data can hold: nothing after it can win.
func argRowsInt[T integer](r *runner, x []T, p *redPlan, isMax bool, top T) ([]int64, error) {
	out := tempOf[int64](r, p.m) // every output is written
	grain := max(1, grainSize/p.l)
	// The extreme of a run: runMax or runMin, or the vector fold.
	extreme := runMin[T]
	if isMax {
		extreme = runMax[T]
	}
	k, c := kMin, minInt[T]
	if isMax {
		k, c = kMax, maxInt[T]
	}
	if fold := intFoldKernel(k, func(a T, x []T) T { return foldWith(a, x, c) }, 0); fold != nil {
		// Runs shorter than 256 bytes are quicker by the scalar loop.
		scalar := extreme
		short := 256 / int(unsafe.Sizeof(top))
		extreme = func(run []T) T {
			if len(run) < short {
				return scalar(run)
			}
			return fold(run[0], run)
		}
	}
	// The first position of the extreme: bytes.IndexByte for 8-bit
	// types, else the vector search.
	first := firstIndex[T]
	if unsafe.Sizeof(top) > 1 && fastReduce {
		first = findKernel[T]()
	}
	argk, size, least := argIntKernel[T](isMax), sizeOf[T](), 128
	if argk == nil {
		argk, least = argBytes[T](isMax), 32
	}
	return out, r.redParallel(len(x)*sizeOf[T](), p.m, grain, func(_, lo, hi int) error {
		for o := lo; o < hi; o++ {
			b := p.base(o)
			best := x[b+p.offs[0]]
			bi, idx := 0, 0
			for _, off := range p.offs {
				if best == top {
					break
				}
				run := x[b+off : b+off+p.chunk]
				if argk != nil && len(run)*size >= least && len(run)*size <= 16<<10 {
					// One pass: the first extreme of the run. (Longer
					// runs take the vector fold and search: the fold's
					// one operation per block is quicker than the
					// kernel's three, and the search mostly stops early.)
					i := argk(run)
					if e := run[i]; isMax && e > best || !isMax && e < best {
						best, bi = e, idx+i
					}
					idx += len(run)
					continue
				}
				if isMax {
					if e := extreme(run); e > best {
						best, bi = e, idx+first(run, e)
					}
				} else if e := extreme(run); e < best {
					best, bi = e, idx+first(run, e)
				}
				idx += len(run)
			}
			out[o] = int64(bi)
		}
		return r.ctx.Err()
	})
}

// runMax and runMin return the largest and smallest element of a
// non-empty run, with four independent accumulators widened to int64 or
// uint64 (whose max and min compile to conditional moves).
func runMax[T integer](run []T) T {
	if ^T(0) > 0 { // unsigned
		m0, m1, m2, m3 := uint64(run[0]), uint64(run[0]), uint64(run[0]), uint64(run[0])
		i := 0
		for ; i+4 <= len(run); i += 4 {
			m0, m1 = max(m0, uint64(run[i])), max(m1, uint64(run[i+1]))
			m2, m3 = max(m2, uint64(run[i+2])), max(m3, uint64(run[i+3]))
		}
		for ; i < len(run); i++ {
			m0 = max(m0, uint64(run[i]))
		}
		return T(max(m0, m1, m2, m3))
	}
	m0, m1, m2, m3 := int64(run[0]), int64(run[0]), int64(run[0]), int64(run[0])
	i := 0
	for ; i+4 <= len(run); i += 4 {
		m0, m1 = max(m0, int64(run[i])), max(m1, int64(run[i+1]))
		m2, m3 = max(m2, int64(run[i+2])), max(m3, int64(run[i+3]))
	}
	for ; i < len(run); i++ {
		m0 = max(m0, int64(run[i]))
	}
	return T(max(m0, m1, m2, m3))
}

func runMin[T integer](run []T) T {
	if ^T(0) > 0 {
		m0, m1, m2, m3 := uint64(run[0]), uint64(run[0]), uint64(run[0]), uint64(run[0])
		i := 0
		for ; i+4 <= len(run); i += 4 {
			m0, m1 = min(m0, uint64(run[i])), min(m1, uint64(run[i+1]))
			m2, m3 = min(m2, uint64(run[i+2])), min(m3, uint64(run[i+3]))
		}
		for ; i < len(run); i++ {
			m0 = min(m0, uint64(run[i]))
		}
		return T(min(m0, m1, m2, m3))
	}
	m0, m1, m2, m3 := int64(run[0]), int64(run[0]), int64(run[0]), int64(run[0])
	i := 0
	for ; i+4 <= len(run); i += 4 {
		m0, m1 = min(m0, int64(run[i])), min(m1, int64(run[i+1]))
		m2, m3 = min(m2, int64(run[i+2])), min(m3, int64(run[i+3]))
	}
	for ; i < len(run); i++ {
		m0 = min(m0, int64(run[i]))
	}
	return T(min(m0, m1, m2, m3))
}

// firstIndex returns the index of the first v in run, which holds one.
func firstIndex[T integer](run []T, v T) int {
	if unsafe.Sizeof(v) == 1 {
		return bytes.IndexByte(unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(run))), len(run)), byte(v))
	}
	for i, w := range run {
		if w == v {
			return i
		}
	}
	return -1 // not reached: the caller found v in run
}

// intTop returns the value after which argmax (isMax) or argmin of T
// can stop: T's largest or smallest value.
func intTop[T integer](isMax bool) T {
	bits := unsafe.Sizeof(T(0)) * 8
	if ^T(0) > 0 { // unsigned
		if isMax {
			return ^T(0)
		}
		return 0
	}
	maxT := T(1)<<(bits-1) - 1
	if isMax {
		return maxT
	}
	return -maxT - 1
}

// argIntKernel returns a function giving the index of the first max
// (isMax) or min of a run of at least 128 bytes of int32 or int64, in
// one pass by redArgMaxD/Q (redArgMinD/Q) over its 128-byte groups,
// then the elements after them one by one; nil for other types or
// without a kernel.
func argIntKernel[T integer](isMax bool) func(run []T) int {
	name := ""
	switch any(*new(T)).(type) {
	case int32:
		name = "D"
	case int64:
		name = "Q"
	}
	if isMax {
		name = "Max" + name
	} else {
		name = "Min" + name
	}
	f := redArgAsm[name]
	if f == nil || !fastReduce || len(name) == 3 {
		return nil
	}
	group := 128 / sizeOf[T]()
	return func(run []T) int {
		n := len(run) &^ (group - 1)
		i, _ := f(byteView(run[:n]))
		e := run[i]
		for j, v := range run[n:] {
			if isMax && v > e || !isMax && v < e {
				e, i = v, n+j
			}
		}
		return i
	}
}
