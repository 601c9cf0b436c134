package cpu

//go:generate go run gen_reduce.go

import (
	"bytes"
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
)

// asmName returns the name of the assembly kernels of kind k on T (see
// gen_reduce.go), or "".
func asmName[T number | bool](k redKind) string {
	var ops [6]string // by kind: add, mul, max, min, or, and
	switch any(T(*new(T))).(type) {
	case bool:
		ops = [6]string{4: "Or", 5: "And"}
	case int8:
		ops = [6]string{"AddB", "", "MaxSB", "MinSB"}
	case uint8:
		ops = [6]string{"AddB", "", "MaxUB", "MinUB"}
	case int16:
		ops = [6]string{"AddW", "MulW", "MaxSW", "MinSW"}
	case uint16:
		ops = [6]string{"AddW", "MulW", "MaxUW", "MinUW"}
	case int32:
		ops = [6]string{"AddD", "MulD", "MaxSD", "MinSD"}
	case uint32:
		ops = [6]string{"AddD", "MulD", "MaxUD", "MinUD"}
	case int64:
		ops = [6]string{"AddQ", "", "MaxSQ", "MinSQ"}
	case uint64:
		ops = [6]string{"AddQ"}
	case float32:
		ops = [6]string{"AddPS", "MulPS", "MaxPS", "MinPS"}
	case float64:
		ops = [6]string{"AddPD", "MulPD", "MaxPD", "MinPD"}
	}
	return ops[k]
}

// byteView returns the bytes of x.
func byteView[T any](x []T) []byte {
	var z T
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(x))), len(x)*int(unsafe.Sizeof(z)))
}

// vecKernel returns a row step of kind k equal to vecWith(acc, x, c), or
// nil when there is no kernel for it.
func vecKernel[T number | bool](k redKind, c func(acc, x T) T) func(acc, x []T) {
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
		vecWith(acc[n:], x[n:], c)
	}
}

// intFoldKernel returns a fold of kind k (add, mul, max or min) of
// integers equal to foldWith(acc, x, c), or nil; id is the identity of
// add and mul.
func intFoldKernel[T integer](k redKind, c func(acc, x T) T, id T) func(acc T, x []T) T {
	f := redFoldAsm[asmName[T](k)]
	if f == nil || !fastReduce {
		return nil
	}
	var z T
	per := 128 / int(unsafe.Sizeof(z))
	return func(acc T, x []T) T {
		n := len(x) &^ (per - 1)
		if n == 0 {
			return foldWith(acc, x, c)
		}
		var buf [16]uint64
		part := unsafe.Slice((*T)(unsafe.Pointer(&buf)), per)
		if k == kMax || k == kMin {
			copy(part, x) // max and min are idempotent: x[:per] may count twice
		} else {
			for i := range part {
				part[i] = id
			}
		}
		f((*[128]byte)(unsafe.Pointer(&buf)), byteView(x[:n]))
		acc = foldWith(acc, part, c)
		return foldWith(acc, x[n:], c)
	}
}

// floatFoldKernel returns a max or min fold of floats equal to
// foldWith(acc, x, c) with c maxFloat or minFloat, or nil.
func floatFoldKernel[T float](k redKind, c func(acc, x T) T) func(acc T, x []T) T {
	f := redFoldAsmF[asmName[T](k)]
	if f == nil || !fastReduce {
		return nil
	}
	var z T
	per := 128 / int(unsafe.Sizeof(z))
	return func(acc T, x []T) T {
		if acc != acc {
			return acc // a NaN accumulator stays
		}
		n := len(x) &^ (per - 1)
		if n == 0 {
			return foldWith(acc, x, c)
		}
		if e, ok := floatExtreme(f, c, x[:n]); ok {
			// No NaN and a non-zero extreme e: every element equal to it
			// has its bits, so the first one the scalar fold would keep
			// is e.
			acc = c(acc, e)
			return foldWith(acc, x[n:], c)
		}
		return foldWith(acc, x, c)
	}
}

// floatExtreme returns the max (min) of x, len(x) a multiple of 128
// bytes, by the fold kernel f, and whether it is a non-zero number with no
// NaN in x.
func floatExtreme[T float](f func(*[128]byte, []byte) bool, c func(acc, x T) T, x []T) (T, bool) {
	var buf [16]uint64
	var z T
	part := unsafe.Slice((*T)(unsafe.Pointer(&buf)), 128/int(unsafe.Sizeof(z)))
	copy(part, x)
	if f((*[128]byte)(unsafe.Pointer(&buf)), byteView(x)) {
		return 0, false
	}
	e := foldWith(part[0], part[1:], c)
	return e, e != 0
}

// foldOr and foldAnd are foldWith(acc, x, or) and foldWith(acc, x, and),
// stopping at the first element that decides.
func foldOr(acc bool, x []bool) bool {
	return acc || bytes.IndexByte(byteView(x), 1) >= 0
}

func foldAnd(acc bool, x []bool) bool {
	return acc && bytes.IndexByte(byteView(x), 0) < 0
}

// intKind and floatKind return the kind and combine step of the value
// reduction o (sum, mean, prod, max or min).
func intKind[T integer](o backend.Op) (redKind, func(acc, x T) T) {
	switch o {
	case backend.OpProd:
		return kMul, mul[T]
	case backend.OpReduceMax:
		return kMax, maxInt[T]
	case backend.OpReduceMin:
		return kMin, minInt[T]
	}
	return kAdd, add[T]
}

func floatKind[T float](o backend.Op) (redKind, func(acc, x T) T) {
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

// roundF16 rounds float32 values to float16 in place: the round step of
// float16 sums along a kept axis, roundTo64(dtypes.F16, float64(x)) for
// each x, by f32ToF16 (which gives dtypes.F16FromFloat64's bits for
// float32 values; TestF32ToF16).
func roundF16(v []float32) {
	initTables()
	for i, x := range v {
		v[i] = f16Table[f32ToF16(x)]
	}
}
