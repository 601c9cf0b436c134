package cpu

//go:generate go run gen_reduce.go

import (
	"bytes"
	"encoding/binary"
	"unsafe"

	"github.com/tensorsh/tensorsh/backend"
)

// Vector steps of reductions.
//
// The scalar folds and row steps in reduce.go (foldWith, vecWith) are the
// reference; the kernels here give the same bits:
//
//   - A row step acc[i] = c(acc[i], x[i]) is elementwise, so an assembly
//     loop doing the same operation on each element (redVec*) gives the
//     same results for every operation, floats included.
//   - A fold reassociates only where the order cannot show: integer max,
//     min and wrapping sums and products, combined in 4×32-byte partials
//     (redFold*). A float max or min fold is vectorised only to find the
//     extreme and whether there is a NaN: with a NaN, or when the extreme
//     is a zero (+0 and -0 compare equal and the first one wins), the
//     scalar fold decides.
//   - The or and and of bools stop at the first true (false) byte, found
//     by bytes.IndexByte, when the source is materialised.
//   - any and all of numbers (of cast(x, bool)) test x != 0 in place
//     (nonzeroReduce), along the last axis stopping at the first block
//     that decides, along kept axes by or (unsigned min) of the bits.
//   - float16 inputs load, and float16 sums along kept axes round, by the
//     shared F16C conversions (loadSeg's f16sToF32, roundF16).
//   - argmax and argmin (argreduce.go, argint.go) find the first extreme
//     of a float run, and of an int32 or int64 run up to 16 KB, in one
//     pass (redArg*: per lane the extreme and its first group, merged
//     lane by lane, of equal values the smaller index); other runs by the
//     folds and redFind*; along kept axes they stream rows (argCols, by
//     redArgCols* for float32, float64, int8, int32, int64).
//   - Many rows a call: along a last axis whose outputs are consecutive
//     rows, redRows* reduce each row to one output (integer folds; float
//     pairwise sums of 8 to 128 elements in the order of pairwise and
//     sum8F32/pairLeafF64; float max and min up to a row with a NaN or a
//     zero extreme, which the Go fold takes); along kept axes redVecs*
//     apply the row step to a stripe's equally spaced rows (runReduce).
//   - Reductions of inputs up to reduceSerialMax run on one worker
//     (redParallel).
//
// Each kernel is tested against its scalar loop (reduce_kernels_test.go)
// on random and edge values, every length up to 70 and longer ones, at
// unaligned starts, and every reduction end to end with fastReduce on
// and off (TestReduceKernelsEndToEnd).

// fastReduce enables the kernels; tests turn it off to get the reference
// loops.
var fastReduce = true

// A redKind names the combine step of a reduction.
type redKind uint8

const (
	kAdd redKind = iota
	kMul
	kMax
	kMin
	kOr
	kAnd
	kNanMax // max and min of floats skipping NaNs (Node.SkipNaN)
	kNanMin
)

// asmName returns the name of the assembly kernels of kind k on T (see
// gen_reduce.go), or "".
func asmName[T number | bool](k redKind) string {
	var ops [8]string // by kind: add, mul, max, min, or, and, nanmax, nanmin
	switch any(T(*new(T))).(type) {
	case bool:
		ops = [8]string{4: "Or", 5: "And"}
	case int8:
		ops = [8]string{"AddB", "", "MaxSB", "MinSB"}
	case uint8:
		ops = [8]string{"AddB", "", "MaxUB", "MinUB"}
	case int16:
		ops = [8]string{"AddW", "MulW", "MaxSW", "MinSW"}
	case uint16:
		ops = [8]string{"AddW", "MulW", "MaxUW", "MinUW"}
	case int32:
		ops = [8]string{"AddD", "MulD", "MaxSD", "MinSD"}
	case uint32:
		ops = [8]string{"AddD", "MulD", "MaxUD", "MinUD"}
	case int64:
		ops = [8]string{"AddQ", "MulQ", "MaxSQ", "MinSQ"}
	case uint64:
		ops = [8]string{"AddQ", "MulQ", "MaxUQ", "MinUQ"}
	case float32:
		ops = [8]string{"AddPS", "MulPS", "MaxPS", "MinPS", 6: "NanMaxPS", 7: "NanMinPS"}
	case float64:
		ops = [8]string{"AddPD", "MulPD", "MaxPD", "MinPD", 6: "NanMaxPD", 7: "NanMinPD"}
	}
	return ops[k]
}

// byteView returns the bytes of x.
func byteView[T any](x []T) []byte {
	var z T
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(x))), len(x)*int(unsafe.Sizeof(z)))
}

// vecKernel returns a row step of kind k equal to ref, vecWith(acc, x, c)
// with a named c, or nil when there is no kernel for it. ref does the
// tails.
func vecKernel[T number | bool](k redKind, ref func(acc, x []T)) func(acc, x []T) {
	f := redVecAsm[asmName[T](k)]
	if f == nil || !fastReduce {
		return nil
	}
	var z T
	lanes := 32 / int(unsafe.Sizeof(z))
	return func(acc, x []T) {
		x = x[:len(acc)]
		n := len(acc) &^ (lanes - 1)
		if n > 0 {
			f(byteView(acc[:n]), byteView(x[:n]))
		}
		ref(acc[n:], x[n:])
	}
}

// vecsKernel returns the row step of kind k on T for many rows a call,
// vecs(acc, x, rows, stride): ref(acc, row) for each of rows rows of x,
// stride elements apart, by redVecs* (rows of 32 bytes or more); nil
// where there is no kernel. ref (the ops' vec) does the shorter rows.
func vecsKernel[T number | bool](k redKind, ref func(acc, x []T)) func(acc, x []T, rows, stride int) {
	f := redVecsAsm[asmName[T](k)]
	if f == nil || !fastReduce {
		return nil
	}
	size := sizeOf[T]()
	return func(acc, x []T, rows, stride int) {
		if rows <= 0 {
			return
		}
		if len(acc)*size < 32 {
			for j := range rows {
				ref(acc, x[j*stride:j*stride+len(acc)])
			}
			return
		}
		x = x[:(rows-1)*stride+len(acc)] // the bounds the kernel reads
		f(byteView(acc), byteView(x), rows, stride*size)
	}
}

// partials returns the 128 bytes of fold partials in buf as elements of
// T, set to x[:32 bytes] four times (for max and min, which may count an
// element twice) or to id.
func partials[T number](buf *[16]uint64, k redKind, x []T, id T) []T {
	var z T
	part := unsafe.Slice((*T)(unsafe.Pointer(buf)), 128/int(unsafe.Sizeof(z)))
	if k == kMax || k == kMin {
		lanes := len(part) / 4
		copy(part, x[:lanes])
		copy(part[lanes:], part[:lanes])
		copy(part[2*lanes:], part[:2*lanes])
		return part
	}
	for i := range part {
		part[i] = id
	}
	return part
}

// intFoldKernel returns a fold of kind k (add, mul, max or min) of
// integers equal to ref, foldWith(acc, x, c) with c the step of k, or
// nil; id is the identity of add and mul. ref does the tails.
func intFoldKernel[T integer](k redKind, ref func(T, []T) T, id T) func(acc T, x []T) T {
	f := redFoldAsm[asmName[T](k)]
	if f == 0 || !fastReduce {
		return nil
	}
	var z T
	lanes := 32 / int(unsafe.Sizeof(z))
	return func(acc T, x []T) T {
		n := len(x) &^ (lanes - 1)
		if n == 0 {
			return ref(acc, x)
		}
		var buf [16]uint64
		part := partials(&buf, k, x, id)
		redFold(f, (*[128]byte)(unsafe.Pointer(&buf)), byteView(x[:n]))
		acc = combineInt(k, acc, part[:lanes])
		return ref(acc, x[n:])
	}
}

// floatFoldKernel returns a max or min fold of floats equal to ref,
// foldWith(acc, x, c) with c maxFloat or minFloat, or nil.
func floatFoldKernel[T float](k redKind, ref func(T, []T) T, c func(acc, x T) T) func(acc T, x []T) T {
	f := redFoldAsmF[asmName[T](k)]
	if f == 0 || !fastReduce {
		return nil
	}
	var z T
	lanes := 32 / int(unsafe.Sizeof(z))
	return func(acc T, x []T) T {
		if acc != acc {
			return acc // a NaN accumulator stays
		}
		n := len(x) &^ (lanes - 1)
		if n == 0 {
			return ref(acc, x)
		}
		if e, ok := floatExtreme(f, k, x[:n]); ok {
			// No NaN and a non-zero extreme e: every element equal to it
			// has its bits, so the first one the scalar fold would keep
			// is e.
			return ref(c(acc, e), x[n:])
		}
		if j := firstNaN(x); j >= 0 {
			return x[j] // the fold keeps the first NaN, after any number
		}
		return ref(acc, x)
	}
}

// nanFoldKernel returns a max or min fold of floats skipping NaNs equal
// to ref, foldWith(acc, x, c) with c nanMaxFloat or nanMinFloat, or nil:
// the rows kernel of k over x (but its last len(x)%8 elements) as one
// row, whose extreme, a non-zero number, every element equal to it
// shares (so the first one the scalar fold would keep is it); ref where
// the kernel leaves the row (a zero or infinite extreme, or no number).
func nanFoldKernel[T float](k redKind, ref func(T, []T) T, c func(acc, x T) T) func(acc T, x []T) T {
	f := redRowsAsmF[asmName[T](k)]
	if f == nil || !fastReduce {
		return nil
	}
	size := sizeOf[T]()
	return func(acc T, x []T) T {
		n := len(x) &^ (32/size - 1)
		if n == 0 {
			return ref(acc, x)
		}
		var e [1]T
		if f(byteView(e[:]), byteView(x[:n]), n*size) == 1 {
			return ref(c(acc, e[0]), x[n:])
		}
		return ref(acc, x)
	}
}

// floatExtreme returns the max (min) of x, len(x) a multiple of 32 bytes,
// by the fold kernel numbered f, and whether it is a non-zero number with no NaN
// in x.
func floatExtreme[T float](f int, k redKind, x []T) (T, bool) {
	e, nan := floatExtremeNaN(f, k, x)
	return e, !nan && e != 0
}

// floatExtremeNaN returns the max (min) of x, len(x) a multiple of 32
// bytes, by the fold kernel numbered f and combineFloat over the 32 bytes
// of partials left (a zero of either sign when the extreme is a zero), and
// whether x holds a NaN (the extreme is then moot).
func floatExtremeNaN[T float](f int, k redKind, x []T) (T, bool) {
	var buf [16]uint64
	part := partials(&buf, k, x, 0)
	if redFoldF(f, (*[128]byte)(unsafe.Pointer(&buf)), byteView(x)) {
		return 0, true
	}
	return combineFloat(k, part[0], part[1:len(part)/4]), false
}

// intRowsKernel returns the rows step of kind k (add, mul, max or min;
// or and and of bools as max and min of bytes) on T equal to ref (the
// ops' rowsGo), or nil: redRows* for rows of 32 bytes or more, ref for
// shorter ones.
func intRowsKernel[T integer | bool](k redKind, ref func(out, x []T, l int)) func(out, x []T, l int) {
	name := asmName[T](k)
	if _, ok := any(*new(T)).(bool); ok {
		name = map[redKind]string{kOr: "MaxUB", kAnd: "MinUB"}[k]
	}
	f := redRowsAsm[name]
	if f == nil || !fastReduce {
		return nil
	}
	size := int(unsafe.Sizeof(*new(T)))
	whole := func(out, x []T, l int) {
		if l*size < 32 {
			ref(out, x, l)
			return
		}
		f(byteView(out), byteView(x[:len(out)*l]), l*size)
	}
	if _, ok := any(*new(T)).(bool); ok {
		// any and all: rows decided by their first bytes are not read
		// further.
		return func(out, x []T, l int) {
			if l < 2*decideBytes {
				whole(out, x, l)
				return
			}
			// Runs of rows their first bytes leave open go to f whole;
			// after decideRun such rows in a row, all the rest (rows
			// of one value cost a read of their first bytes each).
			o, b := byteView(out), byteView(x[:len(out)*l])
			open := 0 // the first row of the current run
			for r := 0; r < len(o) && r-open < decideRun; r++ {
				if v, ok := decideBool(b[r*l:r*l+decideBytes], k == kOr); ok {
					if open < r {
						f(o[open:r], b[open*l:r*l], l)
					}
					o[r], open = v, r+1
				}
			}
			if open < len(o) {
				f(o[open:], b[open*l:], l)
			}
		}
	}
	return whole
}

// decideBytes is how many bytes of a bool row decideBool reads first;
// decideRun how many rows in a row it may leave open before the rest of
// a block of rows is read whole.
const (
	decideBytes = 64
	decideRun   = 8
)

// decideBool returns the result of any (or) or all (and) of a bool row
// and true where the bytes b, its first ones, decide it: a nonzero byte
// for any, a zero one for all. Rows of random bools are decided in their
// first word, as NumPy's logical reductions stop at their first vector
// that decides (all(x, axis=1) of 1000×1000 bools read all of x in
// 21 µs, NumPy's took 21 with its overhead).
func decideBool(b []byte, or bool) (byte, bool) {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	for i := 0; i+8 <= len(b); i += 8 {
		w := binary.LittleEndian.Uint64(b[i:])
		if or && w != 0 {
			return 1, true
		}
		if !or && (w-ones)&^w&highs != 0 { // a zero byte
			return 0, true
		}
	}
	return 0, false
}

// floatRowsKernel returns the rows step of a float sum (kAdd: the
// pairwise sum added to +0), max or min equal to ref (the ops' rowsGo,
// with no rounding), or nil: redRowsSum* for rows of 8 to 128
// elements, redRowsMax*/Min* for rows of 32 bytes or more up to a row
// they leave to ref (a NaN or a zero extreme), ref for the others.
func floatRowsKernel[T float](k redKind, ref func(out, x []T, l int)) func(out, x []T, l int) {
	suffix := asmName[T](kAdd)[len("Add"):]
	size := int(unsafe.Sizeof(*new(T)))
	if !fastReduce {
		return nil
	}
	switch k {
	case kAdd:
		f := redRowsAsm["Sum"+suffix]
		if f == nil {
			return nil
		}
		return func(out, x []T, l int) {
			if l < 8 || l > 128 {
				ref(out, x, l)
				return
			}
			f(byteView(out), byteView(x[:len(out)*l]), l*size)
		}
	case kMax, kMin, kNanMax, kNanMin:
		f := redRowsAsmF[map[redKind]string{kMax: "Max", kMin: "Min", kNanMax: "NanMax", kNanMin: "NanMin"}[k]+suffix]
		if f == nil {
			return nil
		}
		return func(out, x []T, l int) {
			if l*size < 32 {
				ref(out, x, l)
				return
			}
			for i := 0; i < len(out); {
				i += f(byteView(out[i:]), byteView(x[i*l:len(out)*l]), l*size)
				if i < len(out) {
					row := x[i*l : i*l+l]
					j := -1
					if k == kMax || k == kMin { // not the NaN-skipping kinds
						j = firstNaN(row)
					}
					if j >= 0 {
						// maxFloat and minFloat keep the row's first NaN:
						// no fold (rows with a NaN among ten numbers took
						// five times as long as rows without).
						out[i] = row[j]
					} else {
						ref(out[i:i+1], row, l)
					}
					i++
				}
			}
		}
	}
	return nil
}

// firstNaN returns the place of the first NaN in x, or -1.
func firstNaN[T float](x []T) int {
	for i, v := range x {
		if v != v {
			return i
		}
	}
	return -1
}

// foldOr and foldAnd are foldWith(acc, x, or) and foldWith(acc, x, and),
// stopping at the first element that decides.
func foldOr(acc bool, x []bool) bool {
	return acc || bytes.IndexByte(byteView(x), 1) >= 0
}

func foldAnd(acc bool, x []bool) bool {
	return acc && bytes.IndexByte(byteView(x), 0) < 0
}

// intKind returns the kind of the value reduction o (sum, mean, prod,
// max or min); floatKind also its combine step.
func intKind(o backend.Op) redKind {
	switch o {
	case backend.OpProd:
		return kMul
	case backend.OpReduceMax:
		return kMax
	case backend.OpReduceMin:
		return kMin
	}
	return kAdd
}

func floatKind[T float](o backend.Op, skipNaN bool) (redKind, func(acc, x T) T) {
	switch {
	case skipNaN && o == backend.OpReduceMax:
		return kNanMax, nanMaxFloat[T]
	case skipNaN && o == backend.OpReduceMin:
		return kNanMin, nanMinFloat[T]
	}
	switch o {
	case backend.OpProd:
		return kMul, mul[T]
	case backend.OpReduceMax:
		return kMax, maxFloat[T]
	case backend.OpReduceMin:
		return kMin, minFloat[T]
	}
	return kAdd, add[T]
}

// nonzeroReduce is any or all (isAny false) of in != 0, in a materialised
// input: the reduction of cast(in, bool), without the cast. Along the
// last axis each output stops at the first element that decides it
// (NumPy's logical_or.reduce stops there too). ok is false for inputs
// it does not take (complex numbers).
func (r *runner) nonzeroReduce(in *backend.Node, p *redPlan, isAny bool) (res []bool, ok bool, err error) {
	a, err := r.eval(in)
	if err != nil {
		return nil, true, err
	}
	if a.dtype.IsComplex() {
		return nil, false, nil
	}
	x, err := r.computeBuf(a)
	if err != nil {
		return nil, true, err
	}
	switch x := x.(type) {
	case []int8:
		res, err = nonzeroRed(r, x, p, isAny)
	case []int16:
		res, err = nonzeroRed(r, x, p, isAny)
	case []int32:
		res, err = nonzeroRed(r, x, p, isAny)
	case []int64:
		res, err = nonzeroRed(r, x, p, isAny)
	case []uint8:
		res, err = nonzeroRed(r, x, p, isAny)
	case []uint16:
		res, err = nonzeroRed(r, x, p, isAny)
	case []uint32:
		res, err = nonzeroRed(r, x, p, isAny)
	case []uint64:
		res, err = nonzeroRed(r, x, p, isAny)
	case []float32:
		res, err = nonzeroRed(r, x, p, isAny)
	case []float64:
		res, err = nonzeroRed(r, x, p, isAny)
	default:
		return nil, false, nil
	}
	return res, true, err
}

func nonzeroRed[T integer | float](r *runner, x []T, p *redPlan, isAny bool) ([]bool, error) {
	if p.m > 0 && p.l > 0 && p.inner > 0 {
		if out, ok, err := nonzeroCols(r, x, p, isAny); ok {
			return out, err
		}
	}
	out := tempOf[bool](r, p.m) // every path writes every element
	if p.m == 0 {
		return out, nil
	}
	if p.l == 0 {
		for i := range out {
			out[i] = !isAny
		}
		return out, nil
	}
	if p.inner > 0 {
		// The last axis is kept: or (and) the rows into a stripe of
		// outputs.
		k := p.inner
		stripes := (k + blockSize - 1) / blockSize
		return out, r.redParallel(len(x)*sizeOf[T](), p.m/k*stripes, 1, func(_, lo, hi int) error {
			for u := lo; u < hi; u++ {
				oo, st := u/stripes, u%stripes
				k0, k1 := st*blockSize, min(st*blockSize+blockSize, k)
				acc := out[oo*k+k0 : oo*k+k1]
				for i := range acc {
					acc[i] = !isAny
				}
				b := p.base(oo*k) + k0
				for _, off := range p.offs {
					row := x[b+off : b+off+len(acc)]
					if isAny {
						for i, v := range row {
							if v != 0 {
								acc[i] = true
							}
						}
					} else {
						for i, v := range row {
							if v == 0 {
								acc[i] = false
							}
						}
					}
				}
				if err := r.ctx.Err(); err != nil {
					return err
				}
			}
			return nil
		})
	}
	hit := hasKernel[T](isAny)
	grain := max(1, grainSize/p.l)
	return out, r.redParallel(len(x)*sizeOf[T](), p.m, grain, func(_, lo, hi int) error {
		for o := lo; o < hi; o++ {
			b := p.base(o)
			res := !isAny
			for _, off := range p.offs {
				if hit(x[b+off : b+off+p.chunk]) {
					res = isAny
					break
				}
			}
			out[o] = res
		}
		return r.ctx.Err()
	})
}

// hasKernel returns a function reporting whether some element of x is
// not 0 (isAny) or is 0: x != 0 decides any and all.
func hasKernel[T integer | float](isAny bool) func(x []T) bool {
	var z T
	size := int(unsafe.Sizeof(z))
	name := "Nonzero"
	switch any(z).(type) {
	case float32:
		name += "PS"
	case float64:
		name += "PD"
	}
	if !isAny {
		name = "Zero" + name[len("Nonzero"):]
		if name == "Zero" {
			name += [9]string{1: "B", 2: "W", 4: "D", 8: "Q"}[size]
		}
	}
	f := redHasAsm[name]
	lanes := 32 / size
	return func(x []T) bool {
		n := 0
		if f != nil {
			n = len(x) &^ (lanes - 1)
			if n > 0 && f(byteView(x[:n])) {
				return true
			}
		}
		for _, v := range x[n:] {
			if (v != 0) == isAny {
				return true
			}
		}
		return false
	}
}

// combineInt and combineFloat fold the partials of a fold kernel into
// acc: the add, mul, max or min (maxFloat, minFloat) of kind k, in loops
// the compiler sees whole (a func value would make the partials escape
// to the heap, once per call).
func combineInt[T integer](k redKind, acc T, part []T) T {
	switch k {
	case kAdd:
		for _, v := range part {
			acc += v
		}
	case kMul:
		for _, v := range part {
			acc *= v
		}
	case kMax:
		for _, v := range part {
			acc = max(acc, v)
		}
	default:
		for _, v := range part {
			acc = min(acc, v)
		}
	}
	return acc
}

func combineFloat[T float](k redKind, acc T, part []T) T {
	if k == kMax {
		for _, v := range part {
			acc = maxFloat(acc, v)
		}
		return acc
	}
	for _, v := range part {
		acc = minFloat(acc, v)
	}
	return acc
}

// findKernel returns a function giving the index of the first element of
// run equal to v (==, so -0 finds +0), or -1, as slices.Index: by
// redFind* a 32-byte block at a time, then within the block.
func findKernel[T integer | float]() func(run []T, v T) int {
	var z T
	size := int(unsafe.Sizeof(z))
	name := [9]string{1: "B", 2: "W", 4: "D", 8: "Q"}[size]
	switch any(z).(type) {
	case float32:
		name = "PS"
	case float64:
		name = "PD"
	}
	f := redFindAsm[name]
	return func(run []T, v T) int {
		off := 0
		if f != nil && fastReduce {
			var bits uint64
			*(*T)(unsafe.Pointer(&bits)) = v
			off = f(byteView(run), bits) / size
		}
		for i, w := range run[off:] {
			if w == v {
				return off + i
			}
		}
		return -1
	}
}

// nonzeroCols is any (all) of x != 0 along kept last axes with the vector
// row steps, on the bits of the values: a column holds a non-zero value
// when the or of its bits is not 0 (for floats, leaving the sign out:
// the or is then a float != 0), and holds no 0 when the unsigned min of
// its integers is not 0. ok is false where there is no such step (all
// of 64-bit integers and of floats).
func nonzeroCols[T integer | float](r *runner, x []T, p *redPlan, isAny bool) ([]bool, bool, error) {
	var z T
	size := int(unsafe.Sizeof(z))
	name := "Or"
	// zeroOr: all by acc |= (x == 0) masks, from zeros, on every row;
	// a column holds no 0 when its mask stays 0.
	zeroOr := !isAny && (isFloat[T]() || size == 8)
	if !isAny {
		name = [9]string{1: "MinUB", 2: "MinUW", 4: "MinUD", 8: "ZeroOrQ"}[size]
		switch any(z).(type) {
		case float32:
			name = "ZeroOrPS"
		case float64:
			name = "ZeroOrPD"
		}
	}
	f := redVecAsm[name]
	if f == nil || !fastReduce {
		return nil, false, nil
	}
	if zeroOr {
		return nonzeroColsAll(r, x, p, f)
	}
	out := tempOf[bool](r, p.m) // the units cover it
	k := p.inner
	stripes := (k + blockSize - 1) / blockSize
	per := min(k, blockSize)
	accs, as := workerTemps[T](r, per)
	return out, true, r.redParallel(len(x)*sizeOf[T](), p.m/k*stripes, 1, func(w, lo, hi int) error {
		acc := accs[w*as:][:per]
		for u := lo; u < hi; u++ {
			oo, st := u/stripes, u%stripes
			k0, k1 := st*blockSize, min(st*blockSize+blockSize, k)
			acc := acc[:k1-k0]
			b := p.base(oo*k) + k0
			copy(acc, x[b+p.offs[0]:])
			n := len(acc) &^ (32/size - 1)
			accB := byteView(acc)
			for _, off := range p.offs[1:] {
				row := x[b+off : b+off+len(acc)]
				f(accB, byteView(row))
				if isAny {
					rowB := byteView(row)
					for i := n * size; i < len(accB); i++ {
						accB[i] |= rowB[i]
					}
				} else {
					for i, v := range row[n:] {
						if v == 0 {
							acc[n+i] = 0
						}
					}
				}
			}
			for i, v := range acc {
				out[oo*k+k0+i] = v != 0
			}
			if err := r.ctx.Err(); err != nil {
				return err
			}
		}
		return nil
	})
}

// nonzeroColsAll is nonzeroCols for all of floats and 64-bit integers:
// zero is redVecZeroOr*, acc |= (x == 0) as all-ones masks.
func nonzeroColsAll[T integer | float](r *runner, x []T, p *redPlan, zero func(acc, x []byte)) ([]bool, bool, error) {
	size := sizeOf[T]()
	out := tempOf[bool](r, p.m) // the units cover it
	k := p.inner
	stripes := (k + blockSize - 1) / blockSize
	per := min(k, blockSize)
	masks, ms := workerTemps[uint64](r, per)
	return out, true, r.redParallel(len(x)*size, p.m/k*stripes, 1, func(w, lo, hi int) error {
		mask := masks[w*ms:][:per] // the masks, the first len(acc)*size bytes
		for u := lo; u < hi; u++ {
			oo, st := u/stripes, u%stripes
			k0, k1 := st*blockSize, min(st*blockSize+blockSize, k)
			acc := unsafe.Slice((*T)(unsafe.Pointer(&mask[0])), k1-k0)
			clear(acc)
			b := p.base(oo*k) + k0
			n := len(acc) &^ (32/size - 1)
			accB := byteView(acc)
			for _, off := range p.offs {
				row := x[b+off : b+off+len(acc)]
				zero(accB, byteView(row))
				for i, v := range row[n:] {
					if v == 0 {
						accB[(n+i)*size] = 1
					}
				}
			}
			for i := range acc {
				out[oo*k+k0+i] = accB[i*size] == 0
			}
			if err := r.ctx.Err(); err != nil {
				return err
			}
		}
		return nil
	})
}

// isFloat reports whether T is a float type.
func isFloat[T integer | float]() bool {
	switch any(*new(T)).(type) {
	case float32, float64:
		return true
	}
	return false
}
