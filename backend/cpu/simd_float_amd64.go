//go:build amd64 && !purego

package cpu

import (
	"github.com/tensorsh/tensorsh/backend"
)

//go:generate go run gen_simdfloat.go

// Assembly loops of simd_float_amd64.s (gen_simdfloat.go). Each handles
// len(d) - len(d)%8 elements; vecUnary, vecBinary and vecWhere finish the
// rest with the Go reference.

//go:noescape
func eqF32AVX2(d []bool, a, b []float32)

//go:noescape
func neF32AVX2(d []bool, a, b []float32)

//go:noescape
func ltF32AVX2(d []bool, a, b []float32)

//go:noescape
func leF32AVX2(d []bool, a, b []float32)

//go:noescape
func gtF32AVX2(d []bool, a, b []float32)

//go:noescape
func geF32AVX2(d []bool, a, b []float32)

//go:noescape
func isnanF32AVX2(d []bool, a []float32)

//go:noescape
func maximumF32AVX2(d, a, b []float32)

//go:noescape
func minimumF32AVX2(d, a, b []float32)

//go:noescape
func maximumNarrowF32AVX2(d, a, b []float32)

//go:noescape
func minimumNarrowF32AVX2(d, a, b []float32)

// narrowMinMaxLoop returns narrowMinMax's loop for len(d) a multiple of 8
// (nil without AVX2).
func narrowMinMaxLoop(isMax bool) func(d, a, b []float32) {
	switch {
	case !haveAVX2:
		return nil
	case isMax:
		return maximumNarrowF32AVX2
	}
	return minimumNarrowF32AVX2
}

//go:noescape
func negF32AVX2(d, a []float32)

//go:noescape
func absF32AVX2(d, a []float32)

//go:noescape
func reluF32AVX2(d, a []float32)

//go:noescape
func rintF32AVX2(d, a []float32)

//go:noescape
func floorF32AVX2(d, a []float32)

//go:noescape
func ceilF32AVX2(d, a []float32)

//go:noescape
func truncF32AVX2(d, a []float32)

//go:noescape
func roundF32AVX2(d, a []float32)

//go:noescape
func sqrtF32AVX2(d, a []float32)

//go:noescape
func rsqrtF32AVX2(d, a []float32)

//go:noescape
func squareF32AVX2(d, a []float32)

//go:noescape
func reciprocalF32AVX2(d, a []float32)

//go:noescape
func signF32AVX2(d, a []float32)

//go:noescape
func isinfF32AVX2(d []bool, a []float32)

//go:noescape
func isfiniteF32AVX2(d []bool, a []float32)

//go:noescape
func pow05F32AVX2(d, a []float32)

//go:noescape
func pow3F32AVX2(d, a []float32)

//go:noescape
func whereF32AVX2(d []float32, c []bool, a, b []float32)

//go:noescape
func eqF64AVX2(d []bool, a, b []float64)

//go:noescape
func neF64AVX2(d []bool, a, b []float64)

//go:noescape
func ltF64AVX2(d []bool, a, b []float64)

//go:noescape
func leF64AVX2(d []bool, a, b []float64)

//go:noescape
func gtF64AVX2(d []bool, a, b []float64)

//go:noescape
func geF64AVX2(d []bool, a, b []float64)

//go:noescape
func isnanF64AVX2(d []bool, a []float64)

//go:noescape
func maximumF64AVX2(d, a, b []float64)

//go:noescape
func minimumF64AVX2(d, a, b []float64)

//go:noescape
func negF64AVX2(d, a []float64)

//go:noescape
func absF64AVX2(d, a []float64)

//go:noescape
func reluF64AVX2(d, a []float64)

//go:noescape
func rintF64AVX2(d, a []float64)

//go:noescape
func floorF64AVX2(d, a []float64)

//go:noescape
func ceilF64AVX2(d, a []float64)

//go:noescape
func truncF64AVX2(d, a []float64)

//go:noescape
func roundF64AVX2(d, a []float64)

//go:noescape
func sqrtF64AVX2(d, a []float64)

//go:noescape
func rsqrtF64AVX2(d, a []float64)

//go:noescape
func squareF64AVX2(d, a []float64)

//go:noescape
func reciprocalF64AVX2(d, a []float64)

//go:noescape
func signF64AVX2(d, a []float64)

//go:noescape
func isinfF64AVX2(d []bool, a []float64)

//go:noescape
func isfiniteF64AVX2(d []bool, a []float64)

//go:noescape
func pow05F64AVX2(d, a []float64)

//go:noescape
func pow3F64AVX2(d, a []float64) (slow bool)

//go:noescape
func whereF64AVX2(d []float64, c []bool, a, b []float64)

// A floatLoops holds the assembly loops of one float type (nil where it
// has none).
type floatLoops[T float] struct {
	unary                  map[backend.Op]func(d, a []T)
	pred                   map[backend.Op]func(d []bool, a, b []T)
	isnan, isinf, isfinite func(d []bool, a []T)
	max, min               func(d, a, b []T)
	pow05, pow3            func(d, a []T)
	where                  func(d []T, c []bool, a, b []T)
}

var (
	f32Loops = floatLoops[float32]{
		unary: map[backend.Op]func(d, a []float32){
			backend.OpNeg: negF32AVX2, backend.OpAbs: absF32AVX2, backend.OpRelu: reluF32AVX2,
			backend.OpRoundEven: rintF32AVX2, backend.OpRound: roundF32AVX2, backend.OpFloor: floorF32AVX2, backend.OpCeil: ceilF32AVX2,
			backend.OpTrunc: truncF32AVX2, backend.OpSqrt: sqrtF32AVX2, backend.OpRsqrt: rsqrtF32,
			backend.OpSquare: squareF32AVX2, backend.OpReciprocal: reciprocalF32AVX2, backend.OpSign: signF32AVX2,
		},
		pred: map[backend.Op]func(d []bool, a, b []float32){
			backend.OpEq: eqF32AVX2, backend.OpNe: neF32AVX2, backend.OpLt: ltF32AVX2,
			backend.OpLe: leF32AVX2, backend.OpGt: gtF32AVX2, backend.OpGe: geF32AVX2,
		},
		isinf: isinfF32AVX2, isfinite: isfiniteF32AVX2,
		isnan: isnanF32AVX2, max: maximumF32AVX2, min: minimumF32AVX2,
		pow05: pow05F32AVX2, pow3: pow3F32AVX2, where: whereF32AVX2,
	}
	f64Loops = floatLoops[float64]{
		unary: map[backend.Op]func(d, a []float64){
			backend.OpNeg: negF64AVX2, backend.OpAbs: absF64AVX2, backend.OpRelu: reluF64AVX2,
			backend.OpRoundEven: rintF64AVX2, backend.OpRound: roundF64AVX2, backend.OpFloor: floorF64AVX2, backend.OpCeil: ceilF64AVX2,
			backend.OpTrunc: truncF64AVX2, backend.OpSqrt: sqrtF64AVX2, backend.OpRsqrt: rsqrtF64AVX2,
			backend.OpSquare: squareF64AVX2, backend.OpReciprocal: reciprocalF64AVX2, backend.OpSign: signF64AVX2,
		},
		pred: map[backend.Op]func(d []bool, a, b []float64){
			backend.OpEq: eqF64AVX2, backend.OpNe: neF64AVX2, backend.OpLt: ltF64AVX2,
			backend.OpLe: leF64AVX2, backend.OpGt: gtF64AVX2, backend.OpGe: geF64AVX2,
		},
		isinf: isinfF64AVX2, isfinite: isfiniteF64AVX2,
		isnan: isnanF64AVX2, max: maximumF64AVX2, min: minimumF64AVX2,
		pow05: pow05F64AVX2, where: whereF64AVX2,
		pow3: func(d, a []float64) {
			if pow3F64AVX2(d, a) {
				for i, x := range a { // floatKernel's loop
					d[i] = powF64(x, 3)
				}
			}
		},
	}
)

// simdFloatKernel returns the vector kernel of n on compute type ct
// (ctF32 or ctF64), or nil when it has none (or the CPU lacks AVX2). Its
// results are those of floatKernel bit for bit: it finishes each block
// with floatKernel's loop.
func simdFloatKernel(n *backend.Node, ct ctype) kfn {
	if !haveAVX2 {
		return nil
	}
	switch ct {
	case ctF32:
		return vecFloatKernel(n, &f32Loops)
	case ctF64:
		return vecFloatKernel(n, &f64Loops)
	}
	return nil
}

func vecFloatKernel[T float](n *backend.Node, l *floatLoops[T]) kfn {
	o := n.Op
	if f := l.unary[o]; f != nil {
		return vecUnary(f, floatKernel[T](n))
	}
	if f := l.pred[o]; f != nil {
		return vecBinary(f, floatKernel[T](n))
	}
	switch o {
	case backend.OpIsNaN:
		return vecUnary(l.isnan, floatKernel[T](n))
	case backend.OpIsInf:
		return vecUnary(l.isinf, floatKernel[T](n))
	case backend.OpIsFinite:
		return vecUnary(l.isfinite, floatKernel[T](n))
	case backend.OpMax:
		return vecBinary(l.max, floatKernel[T](n))
	case backend.OpMin:
		return vecBinary(l.min, floatKernel[T](n))
	case backend.OpPow:
		var f func(d, a []T)
		switch y, ok := constExponent(n); {
		case !ok:
		case y == 0.5:
			f = l.pow05
		case y == 3:
			f = l.pow3
		}
		if f != nil {
			return vecPow(f, floatKernel[T](n))
		}
	}
	return nil
}

// simdWhereKernel returns the vector kernel of where on compute type ct,
// or nil.
func simdWhereKernel(ct ctype) kfn {
	if !haveAVX2 {
		return nil
	}
	switch ct {
	case ctF32:
		return vecWhere(f32Loops.where, whereOf[float32]())
	case ctF64:
		return vecWhere(f64Loops.where, whereOf[float64]())
	}
	return nil
}

// vecUnary returns the kernel running f on the whole groups of 8 elements
// and ref on the rest.
func vecUnary[T, R any](f func(d []R, a []T), ref kfn) kfn {
	return func(d any, args []any) error {
		dd, a := d.([]R), args[0].([]T)
		n := len(dd) &^ 7
		f(dd[:n], a[:n])
		if n == len(dd) {
			return nil
		}
		return ref(dd[n:], []any{a[n:len(dd)]})
	}
}

// vecPow is vecUnary for x ** c with a constant c: the exponents' buffer
// is not read.
func vecPow[T any](f func(d, a []T), ref kfn) kfn {
	return func(d any, args []any) error {
		dd, a := d.([]T), args[0].([]T)
		n := len(dd) &^ 7
		f(dd[:n], a[:n])
		if n == len(dd) {
			return nil
		}
		return ref(dd[n:], []any{a[n:len(dd)], args[1].([]T)[n:len(dd)]})
	}
}

// vecBinary is vecUnary for two operands.
func vecBinary[T, R any](f func(d []R, a, b []T), ref kfn) kfn {
	return func(d any, args []any) error {
		dd, a, b := d.([]R), args[0].([]T), args[1].([]T)
		n := len(dd) &^ 7
		f(dd[:n], a[:n], b[:n])
		if n == len(dd) {
			return nil
		}
		return ref(dd[n:], []any{a[n:len(dd)], b[n:len(dd)]})
	}
}

// vecWhere is vecUnary for where.
func vecWhere[T any](f func(d []T, c []bool, a, b []T), ref kfn) kfn {
	return func(d any, args []any) error {
		dd, c, a, b := d.([]T), args[0].([]bool), args[1].([]T), args[2].([]T)
		n := len(dd) &^ 7
		f(dd[:n], c[:n], a[:n], b[:n])
		if n == len(dd) {
			return nil
		}
		return ref(dd[n:], []any{c[n:len(dd)], a[n:len(dd)], b[n:len(dd)]})
	}
}

// floatPred32 returns the vector comparison o of float32 values (a
// length that is a multiple of 8), or nil without AVX2.
func floatPred32(o backend.Op) func(d []bool, a, b []float32) {
	if !haveAVX2 {
		return nil
	}
	return f32Loops.pred[o]
}

// floatPred64 is floatPred32 for float64.
func floatPred64(o backend.Op) func(d []bool, a, b []float64) {
	if !haveAVX2 {
		return nil
	}
	return f64Loops.pred[o]
}

// floatUnary32 returns the vector loop of the float32 operation o (a
// length that is a multiple of 8), or nil without AVX2.
func floatUnary32(o backend.Op) func(d, a []float32) {
	if !haveAVX2 {
		return nil
	}
	return f32Loops.unary[o]
}

// floatUnary64 is floatUnary32 for float64.
func floatUnary64(o backend.Op) func(d, a []float64) {
	if !haveAVX2 {
		return nil
	}
	return f64Loops.unary[o]
}
