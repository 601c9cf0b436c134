package cpu

// Arg-reductions: argmax and argmin.

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/bits"
	"unsafe"
)

// argReduce returns the int64 index of the first maximum (or minimum) of
// each output's reduced elements; NaN counts as the extreme (the first NaN
// wins), as in NumPy. With several axes (all of them, for a flattened
// argmax) the index counts the reduced elements in row-major order.
func argReduce(r *runner, x any, p *redPlan, isMax bool) (any, error) {
	switch xs := x.(type) {
	case []bool:
		if p.inner == 0 && p.m > 0 && p.l > 0 {
			// As bytes 0 and 1: true is the largest, false the smallest.
			top := uint8(0)
			if isMax {
				top = 1
			}
			return argRowsBool(r, boolBytes(xs), p, top)
		}
		if p.inner > 0 && fastReduce {
			top := uint8(0)
			if isMax {
				top = 1
			}
			return argColsBool(r, boolBytes(xs), p, top)
		}
		return argReduceT(r, xs, p, func(a, b bool) bool {
			if isMax {
				return a && !b
			}
			return !a && b
		}, func(bool) bool { return false })
	case []int8:
		return argInt(r, xs, p, isMax)
	case []int16:
		return argInt(r, xs, p, isMax)
	case []int32:
		return argInt(r, xs, p, isMax)
	case []int64:
		return argInt(r, xs, p, isMax)
	case []uint8:
		return argInt(r, xs, p, isMax)
	case []uint16:
		return argInt(r, xs, p, isMax)
	case []uint32:
		return argInt(r, xs, p, isMax)
	case []uint64:
		return argInt(r, xs, p, isMax)
	case []float32:
		return argFloat(r, xs, p, isMax)
	case []float64:
		return argFloat(r, xs, p, isMax)
	case []complex64:
		return argComplex(r, xs, p, isMax)
	case []complex128:
		return argComplex(r, xs, p, isMax)
	}
	return nil, fmt.Errorf("cpu: argmax and argmin of %T are not supported", x)
}

// argRowsBool is argRowsInt for bools (the bytes 0 and 1; top is 1 for
// argmax, 0 for argmin): the answer is the first top, or 0 when there is
// none (every element is the extreme then), found by bytes.IndexByte
// without a pass for the row's extreme first. NumPy's bool argmax stops
// at the first True too (BOOL_argmax in arraytypes.c.src, memchr).
func argRowsBool(r *runner, x []uint8, p *redPlan, top uint8) ([]int64, error) {
	out := tempOf[int64](r, p.m)
	clear(out) // 0 where a row has no top
	grain := max(1, grainSize/p.l)
	return out, r.redParallel(len(x), p.m, grain, func(_, lo, hi int) error {
		if len(p.keptSize) == 1 && len(p.offs) == 1 && p.chunk >= 8 {
			// Rows a stride apart (a matrix along its last axis),
			// without a row's base and offsets recomputed: argmax(x,
			// axis=1) of 1000×1000 random bools 5.2 → 3.6 µs on the AMD
			// EPYC guest (NumPy 3.7).
			str, off := p.keptStr[0], p.offs[0]
			for o := lo; o < hi; o++ {
				row := x[o*str+off : o*str+off+p.chunk]
				if i := top8(row, top); i >= 0 {
					out[o] = int64(i)
				} else if i := bytes.IndexByte(row, top); i >= 0 {
					out[o] = int64(i)
				}
			}
			return r.ctx.Err()
		}
		for o := lo; o < hi; o++ {
			b := p.base(o)
			idx := 0
			for _, off := range p.offs {
				if i := indexTop(x[b+off:b+off+p.chunk], top); i >= 0 {
					out[o] = int64(idx + i)
					break
				}
				idx += p.chunk
			}
		}
		return r.ctx.Err()
	})
}

// indexTop is bytes.IndexByte(b, top), which it calls only where b's
// first eight bytes do not hold top: a row of random bools has its first
// True there, and IndexByte's setup took twice the time of the test.
func indexTop(b []byte, top uint8) int {
	if len(b) >= 8 {
		if i := top8(b, top); i >= 0 {
			return i
		}
	}
	return bytes.IndexByte(b, top)
}

// top8 returns the index of the first of b's first eight bytes (len(b) >=
// 8) equal to top, or -1 (small enough to inline).
func top8(b []byte, top uint8) int {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	w := binary.LittleEndian.Uint64(b) ^ (ones * uint64(top))
	if m := (w - ones) &^ w & highs; m != 0 {
		// The lowest marked byte is the first zero of w (a borrow runs
		// only from a zero byte up).
		return bits.TrailingZeros64(m) / 8
	}
	return -1
}

// argColsBool is argCols for bools (the bytes 0 and 1; top is 1 for
// argmax, 0 for argmin): each column's answer is the index of its first
// top, or 0 when there is none. The rows of a group of k columns are
// read in order only until every column has met its top (argmax along
// axis 0 of a 1000×1000 mask, half of it true, reads about a dozen rows
// rather than 1000), eight columns a word: a word's new tops are its
// bytes equal to top in columns not found yet, without a branch per
// column (a branch on random bools mispredicts every other column).
func argColsBool(r *runner, x []uint8, p *redPlan, top uint8) ([]int64, error) {
	out := tempOf[int64](r, p.m)
	clear(out) // 0 where a column has no top
	if p.m == 0 || p.l == 0 {
		return out, nil
	}
	k := p.inner
	const ones = 0x0101010101010101
	flip := uint64(ones) // the bytes of a word equal to top are 1 in w ^ flip
	if top == 1 {
		flip = 0
	}
	return out, r.redParallel(len(x), p.m/k, 1, func(_, lo, hi int) error {
		words := k / 8
		found := make([]uint64, words+1) // a 1 byte per column found
		for oo := lo; oo < hi; oo++ {
			dst := out[oo*k : oo*k+k]
			clear(found)
			b := p.base(oo * k)
			left := k
			for j, off := range p.offs {
				row := x[b+off : b+off+k]
				for i := range words {
					hits := (binary.LittleEndian.Uint64(row[8*i:]) ^ flip) &^ found[i]
					if hits == 0 {
						continue
					}
					found[i] |= hits
					left -= bits.OnesCount64(hits)
					for ; hits != 0; hits &= hits - 1 {
						dst[8*i+bits.TrailingZeros64(hits)/8] = int64(j)
					}
				}
				for c := 8 * words; c < k; c++ {
					if bit := uint64(1) << (8 * (c - 8*words)); row[c] == top && found[words]&bit == 0 {
						found[words] |= bit
						dst[c] = int64(j)
						left--
					}
				}
				if left == 0 {
					break
				}
			}
			if err := r.ctx.Err(); err != nil {
				return err
			}
		}
		return nil
	})
}

func argInt[T integer](r *runner, x []T, p *redPlan, isMax bool) ([]int64, error) {
	if p.inner == 0 && p.m > 0 && p.l > 0 {
		one := func(x []T, q *redPlan) ([]int64, error) { return argRowsInt(r, x, q, isMax, intTop[T](isMax)) }
		if r.argInParts(p, sizeOf[T]()) {
			return argParts(r, x, p, isMax, one)
		}
		return one(x, p)
	}
	if p.inner > 0 && fastReduce {
		return argCols(r, x, p, isMax)
	}
	if isMax {
		return argReduceT(r, x, p, func(v, best T) bool { return v > best }, func(T) bool { return false })
	}
	return argReduceT(r, x, p, func(v, best T) bool { return v < best }, func(T) bool { return false })
}

func argFloat[T float](r *runner, x []T, p *redPlan, isMax bool) ([]int64, error) {
	if p.inner == 0 && p.m > 0 && p.l > 0 {
		one := func(x []T, q *redPlan) ([]int64, error) { return argRowsFloat(r, x, q, isMax) }
		if r.argInParts(p, sizeOf[T]()) {
			return argParts(r, x, p, isMax, one)
		}
		return one(x, p)
	}
	if p.inner > 0 && fastReduce {
		return argCols(r, x, p, isMax)
	}
	isNaN := func(v T) bool { return v != v }
	if isMax {
		return argReduceT(r, x, p, func(v, best T) bool { return !(v <= best) }, isNaN)
	}
	return argReduceT(r, x, p, func(v, best T) bool { return !(v >= best) }, isNaN)
}

// argInParts reports whether argParts should take the search of p (on
// elements of size bytes): one output over one run, larger than one
// worker reads (reduceLimit), with workers to share it.
func (r *runner) argInParts(p *redPlan, size int) bool {
	nw := r.workers()
	return fastReduce && nw > 1 && p.m == 1 && len(p.offs) == 1 && p.chunk >= 64*nw && r.reduceParallel(p.chunk*size)
}

// argParts is argmax or argmin of one output over one run (argmax of a
// whole array): the run is cut into two parts a worker, one searches each
// part, and the parts' answers are taken in order, a later part's only
// when strictly better, or a NaN while the best is not (the first NaN
// wins): the index one search of the whole run finds.
func argParts[T integer | float](r *runner, x []T, p *redPlan, isMax bool, one func([]T, *redPlan) ([]int64, error)) ([]int64, error) {
	n, b := p.chunk, p.base(0)+p.offs[0]
	parts := 2 * r.workers()
	at := make([]int, parts) // each part's answer, an index into x
	err := r.parallel(parts, 1, func(_, lo, hi int) error {
		for j := lo; j < hi; j++ {
			a, e := b+j*n/parts, b+(j+1)*n/parts
			i, err := one(x[a:e], &redPlan{offs: []int{0}, chunk: e - a, m: 1, l: e - a})
			if err != nil {
				return err
			}
			at[j] = a + int(i[0])
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	best := at[0]
	for _, i := range at[1:] {
		v, w := x[best], x[i]
		if v != v {
			break // a NaN: the first wins
		}
		if w != w || isMax && w > v || !isMax && w < v {
			best = i
		}
	}
	return []int64{int64(best - b)}, nil
}

// argComplex is NumPy's complex argmax and argmin (cBetter).
func argComplex[T complex64 | complex128](r *runner, x []T, p *redPlan, isMax bool) ([]int64, error) {
	return argReduceT(r, x, p, func(v, best T) bool {
		a, b := complex128(v), complex128(best)
		return cBetter(real(a), imag(a), real(b), imag(b), isMax)
	}, func(v T) bool {
		c := complex128(v)
		return real(c) != real(c) || imag(c) != imag(c)
	})
}

// argReduceT walks each output's reduced elements in row-major order of
// the reduced axes; better(v, best) says v replaces the current best, and
// stop(best) ends the search (a NaN).
func argReduceT[T any](r *runner, x []T, p *redPlan, better func(v, best T) bool, stop func(T) bool) ([]int64, error) {
	out := tempOf[int64](r, p.m) // every path writes every element
	if p.m == 0 || p.l == 0 {
		return out, nil
	}
	if p.inner > 0 {
		// With one reduced axis (or all axes) and the last axis kept, the
		// reduced elements of output (oo, k) are x[base+off+k] in order.
		k := p.inner
		return out, r.redParallel(len(x)*sizeOf[T](), p.m/k, 1, func(_, lo, hi int) error {
			for oo := lo; oo < hi; oo++ {
				b := p.base(oo * k)
				for kk := range k {
					best, bi := x[b+p.offs[0]+kk], 0
					if !stop(best) {
						for j := 1; j < len(p.offs); j++ {
							v := x[b+p.offs[j]+kk]
							if better(v, best) {
								best, bi = v, j
								if stop(v) {
									break
								}
							}
						}
					}
					out[oo*k+kk] = int64(bi)
				}
				if err := r.ctx.Err(); err != nil {
					return err
				}
			}
			return nil
		})
	}
	grain := max(1, grainSize/p.l)
	return out, r.redParallel(len(x)*sizeOf[T](), p.m, grain, func(_, lo, hi int) error {
		for o := lo; o < hi; o++ {
			b := p.base(o)
			best, bi := x[b+p.offs[0]], 0
			idx := 0
		walk:
			for _, off := range p.offs {
				for _, v := range x[b+off : b+off+p.chunk] {
					if stop(best) {
						break walk
					}
					if better(v, best) {
						best, bi = v, idx
					}
					idx++
				}
			}
			out[o] = int64(bi)
		}
		return nil
	})
}

// argPiece is how many elements argRowsFloat's vector step takes at a
// time.
const argPiece = 4096

// argRowsFloat is argReduceT for floats when the reduced elements of each
// output are contiguous runs (the last axis reduced, as in argmax(m,
// axis=1)): the same answer (the first extreme wins, the first NaN wins
// and ends the search) with the comparisons in the loop instead of a
// call per element.
func argRowsFloat[T float](r *runner, x []T, p *redPlan, isMax bool) ([]int64, error) {
	out := tempOf[int64](r, p.m) // every path writes every element
	grain := max(1, grainSize/p.l)
	extreme, find := runExtreme[T](isMax), findKernel[T]()
	argk, lanes := argKernel[T](isMax), 128/sizeOf[T]()
	return out, r.redParallel(len(x)*sizeOf[T](), p.m, grain, func(_, lo, hi int) error {
		for o := lo; o < hi; o++ {
			b := p.base(o)
			best := x[b+p.offs[0]]
			bi, idx := 0, 0
			if best == best {
			walk:
				for _, off := range p.offs {
					for whole := x[b+off : b+off+p.chunk]; len(whole) > 0; {
						// Pieces of argPiece: the first NaN ends the walk,
						// so the pieces after the one holding it are not
						// read (argmax of 10^6 float64, one in ten NaN, took
						// 200 µs, NumPy's 2).
						run := whole[:min(len(whole), argPiece)]
						whole = whole[len(run):]
						if argk != nil && len(run) >= lanes {
							// One pass: the first extreme of the run, unless
							// it holds a NaN (the loops below then find it).
							if i, nan := argk(run); !nan {
								if e := run[i]; isMax && e > best || !isMax && e < best {
									best, bi = e, idx+i
								}
								idx += len(run)
								continue
							}
						} else if extreme != nil {
							// Without a NaN in the run, the first element
							// equal to its extreme is the one the loops
							// below would keep, if it beats best.
							if e, nan := extreme(run); !nan {
								if isMax && e > best || !isMax && e < best {
									best, bi = e, idx+find(run, e)
								}
								idx += len(run)
								continue
							}
						}
						if isMax {
							for i, v := range run {
								if v > best {
									best, bi = v, idx+i
								} else if v != v {
									bi = idx + i
									break walk
								}
							}
						} else {
							for i, v := range run {
								if v < best {
									best, bi = v, idx+i
								} else if v != v {
									bi = idx + i
									break walk
								}
							}
						}
						idx += len(run)
					}
				}
			}
			out[o] = int64(bi)
		}
		return nil
	})
}

// argCols is argReduceT when the last axis is kept (argmax(m, axis=0)):
// instead of walking each output's reduced elements, a strided walk per
// output, it streams the rows of a stripe of outputs, keeping their best
// values and indices; the comparisons are argReduceT's, so are the
// answers: a later element replaces the best only when strictly better
// (the first extreme wins); for floats a NaN replaces a number and
// nothing replaces a NaN (the first NaN wins).
func argCols[T integer | float](r *runner, x []T, p *redPlan, isMax bool) ([]int64, error) {
	out := tempOf[int64](r, p.m) // every path writes every element
	if p.m == 0 || p.l == 0 {
		return out, nil
	}
	k := p.inner
	stripes := (k + blockSize - 1) / blockSize
	// The rows by redArgCols* when they are equally spaced.
	size := sizeOf[T]()
	cols := argColsKernel[T](isMax)
	stride := 0
	if len(p.offs) > 1 {
		stride = p.offs[1]
		for j, off := range p.offs {
			if off != j*stride {
				stride = 0
				break
			}
		}
	}
	// The indices too are folded into a buffer of the worker's own and
	// copied out (see runReduce: neighbouring units' rows in out share
	// cache lines).
	per := min(k, blockSize)
	bests, bs := workerTemps[T](r, per)
	idxs, is := workerTemps[int64](r, per)
	return out, r.redParallel(len(x)*sizeOf[T](), p.m/k*stripes, 1, func(w, lo, hi int) error {
		best, idx := bests[w*bs:][:per], idxs[w*is:][:per]
		for u := lo; u < hi; u++ {
			oo, st := u/stripes, u%stripes
			k0, k1 := st*blockSize, min(st*blockSize+blockSize, k)
			dst := out[oo*k+k0 : oo*k+k1]
			bi, bv := idx[:k1-k0], best[:k1-k0]
			clear(bi)
			b := p.base(oo*k) + k0
			copy(bv, x[b+p.offs[0]:])
			j := 1
			if cols != nil && stride > 0 && len(bv)*size >= 32 {
				// The vector columns of every row by the kernel, the
				// others below.
				n := len(bv) &^ (32/size - 1)
				rows := len(p.offs) - 1
				cols(byteView(bv[:n]), byteView(bi[:n]), byteView(x[b+stride:b+rows*stride+n]), rows, stride*size, 1)
				bv, bi = bv[n:], bi[n:]
				b += n
			}
			for ; j < len(p.offs); j++ {
				row := x[b+p.offs[j] : b+p.offs[j]+len(bv)]
				if isMax {
					argColMax(bv, bi, row, int64(j))
				} else {
					argColMin(bv, bi, row, int64(j))
				}
			}
			copy(dst, idx[:len(dst)])
			if err := r.ctx.Err(); err != nil {
				return err
			}
		}
		return nil
	})
}

// argColMax and argColMin fold row j into the best values bv and their
// indices bi. v != v && b == b is false for integers.
// argColsKernel returns argColMax (argColMin) for many rows a call,
// cols(bv, bi, x, rows, stride, j) over the first len(bv)&^31 bytes, by
// redArgCols* (float32, float64, int8, int32, int64); nil for the others.
func argColsKernel[T integer | float](isMax bool) func(bv, bi, x []byte, rows, stride, j int) {
	if !fastReduce {
		return nil
	}
	name := ""
	switch any(*new(T)).(type) {
	case float32:
		name = "PS"
	case float64:
		name = "PD"
	case int32:
		name = "D"
	case int64:
		name = "Q"
	case int8:
		name = "B"
	default:
		return nil
	}
	if isMax {
		return redArgCols["Max"+name]
	}
	return redArgCols["Min"+name]
}

func argColMax[T integer | float](bv []T, bi []int64, row []T, j int64) {
	row, bi = row[:len(bv)], bi[:len(bv)]
	for i, v := range row {
		if b := bv[i]; v > b || (v != v && b == b) {
			bv[i], bi[i] = v, j
		}
	}
}

func argColMin[T integer | float](bv []T, bi []int64, row []T, j int64) {
	row, bi = row[:len(bv)], bi[:len(bv)]
	for i, v := range row {
		if b := bv[i]; v < b || (v != v && b == b) {
			bv[i], bi[i] = v, j
		}
	}
}

// argKernel returns a function giving the index of the first max
// (isMax) or min of a non-empty run of floats and whether the run holds
// a NaN (the index is then moot), in one pass by redArg* over its
// 128-byte groups (redArg*512 over the 256-byte ones, where the CPU has
// AVX-512, and redArg* over a 128-byte group left), then the elements
// after them one by one; nil without a kernel.
func argKernel[T float](isMax bool) func(run []T) (int, bool) {
	name := "Min" + asmName[T](kAdd)[len("Add"):]
	if isMax {
		name = "Max" + name[len("Min"):]
	}
	f := redArgAsm[name]
	if f == nil || !fastReduce {
		return nil
	}
	group := 128 / sizeOf[T]()
	f512 := redArgAsm512[name] // 256-byte groups, where there is AVX-512
	return func(run []T) (int, bool) {
		n := len(run) &^ (group - 1)
		if n == 0 {
			return argWalk(run, isMax)
		}
		var i int
		if f512 != nil && n >= 4*group {
			// The 256-byte groups, then a 128-byte one left: a later
			// extreme only where strictly better. (Below two of them
			// the one AVX2 pass is faster: each call ends merging its
			// registers' lanes.)
			n2 := n &^ (2*group - 1)
			j, nan := f512(byteView(run[:n2]))
			if nan {
				return 0, true
			}
			i = j
			if n > n2 {
				j, nan := f(byteView(run[n2:n]))
				if nan {
					return 0, true
				}
				if v, e := run[n2+j], run[i]; isMax && v > e || !isMax && v < e {
					i = n2 + j
				}
			}
		} else {
			j, nan := f(byteView(run[:n]))
			if nan {
				return 0, true
			}
			i = j
		}
		e := run[i]
		for j, v := range run[n:] {
			if v != v {
				return 0, true
			}
			if isMax && v > e || !isMax && v < e {
				e, i = v, n+j
			}
		}
		return i, false
	}
}

// argWalk is argKernel's answer by a scalar walk of a non-empty run.
func argWalk[T float](run []T, isMax bool) (int, bool) {
	i := 0
	for j, v := range run {
		if v != v {
			return 0, true
		}
		if isMax && v > run[i] || !isMax && v < run[i] {
			i = j
		}
	}
	return i, false
}

// runExtreme returns a function giving the max (isMax) or min of a run
// of floats and whether the run holds a NaN (the extreme is then moot),
// by the vector fold; nil without one.
func runExtreme[T float](isMax bool) func(run []T) (T, bool) {
	k, c := kMin, minFloat[T]
	if isMax {
		k, c = kMax, maxFloat[T]
	}
	f := redFoldAsmF[asmName[T](k)]
	if f == 0 || !fastReduce {
		return nil
	}
	var z T
	lanes := 32 / int(unsafe.Sizeof(z))
	return func(run []T) (T, bool) {
		n := len(run) &^ (lanes - 1)
		e := run[0]
		if n > 0 {
			var nan bool
			if e, nan = floatExtremeNaN(f, k, run[:n]); nan {
				return e, true
			}
		}
		for _, v := range run[n:] {
			if v != v {
				return v, true
			}
			e = c(e, v)
		}
		return e, false
	}
}
