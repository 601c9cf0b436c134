package cpu

import (
	"math"

	"github.com/tensorsh/tensorsh/backend"
)

// floatKernel returns the kernel of n on floats computed in T (float32 for
// f32, tf32, f16, bf16 and the f8 formats; float64 for f64). The basic
// operations (+ - * / sqrt) are IEEE operations in T; transcendental
// functions are computed in float64 and rounded once to T.
func floatKernel[T float](n *backend.Node) kfn {
	switch n.Op {
	case backend.OpNeg:
		return un(negL[T])
	case backend.OpAbs:
		return un(func(d, a []T) {
			a = a[:len(d)]
			for i := range d {
				d[i] = T(math.Abs(float64(a[i])))
			}
		})
	case backend.OpNot:
		return un(notL[T])
	case backend.OpRelu:
		// max(x, 0) with NaN propagated; relu(-0) is +0.
		return un(func(d, a []T) {
			a = a[:len(d)]
			for i := range d {
				x := a[i]
				if !(x > 0) && x == x {
					x = 0
				}
				d[i] = x
			}
		})
	case backend.OpExp:
		return mapF[T](math.Exp)
	case backend.OpLog:
		return mapF[T](logF64)
	case backend.OpLog1p:
		return mapF[T](log1pF64)
	case backend.OpSin:
		return mapF[T](sinF64)
	case backend.OpCos:
		return mapF[T](cosF64)
	case backend.OpTanh:
		return mapF[T](math.Tanh)
	case backend.OpErf:
		return mapF[T](math.Erf)
	case backend.OpTan:
		return mapF[T](tanF64)
	case backend.OpAsin:
		return mapF[T](asinF64)
	case backend.OpAcos:
		return mapF[T](acosF64)
	case backend.OpAtan:
		return mapF[T](atanF64)
	case backend.OpSinh:
		return mapF[T](sinhF64)
	case backend.OpCosh:
		return mapF[T](coshF64)
	case backend.OpAsinh:
		return mapF[T](asinhF64)
	case backend.OpAcosh:
		return mapF[T](acoshF64)
	case backend.OpAtanh:
		return mapF[T](atanhF64)
	case backend.OpLog2:
		return mapF[T](log2F64)
	case backend.OpLog10:
		return mapF[T](log10F64)
	case backend.OpExp2:
		return mapF[T](exp2F64)
	case backend.OpExpm1:
		return mapF[T](expm1F64)
	case backend.OpSign:
		// NumPy's float sign (loops.c.src): 1, -1, 0 for either zero, and
		// NaN for NaN.
		return un(func(d, a []T) {
			a = a[:len(d)]
			for i := range d {
				x := a[i]
				switch {
				case x > 0:
					x = 1
				case x < 0:
					x = -1
				case x == 0:
					x = 0
				}
				d[i] = x
			}
		})
	case backend.OpSquare:
		return un(func(d, a []T) {
			a = a[:len(d)]
			for i := range d {
				d[i] = a[i] * a[i]
			}
		})
	case backend.OpReciprocal:
		return un(func(d, a []T) {
			a = a[:len(d)]
			for i := range d {
				d[i] = 1 / a[i]
			}
		})
	case backend.OpIsFinite:
		return un(func(d []bool, a []T) {
			a = a[:len(d)]
			for i := range d {
				x := float64(a[i])
				d[i] = !math.IsInf(x, 0) && x == x
			}
		})
	case backend.OpFMA:
		// a·b + c rounded once: math.FMA, or fma32's rounding to odd.
		fma := func(a, b, c T) T { return T(math.FMA(float64(a), float64(b), float64(c))) }
		if _, f32 := any(T(0)).(float32); f32 {
			fma = func(a, b, c T) T { return T(fma32(float32(a), float32(b), float32(c))) }
		}
		return func(d any, args []any) error {
			dd, a, b, c := d.([]T), args[0].([]T), args[1].([]T), args[2].([]T)
			a, b, c = a[:len(dd)], b[:len(dd)], c[:len(dd)]
			for i := range dd {
				dd[i] = fma(a[i], b[i], c[i])
			}
			return nil
		}
	case backend.OpAtan2:
		return bin(func(d, a, b []T) {
			a, b = a[:len(d)], b[:len(d)]
			map64x2(d, a, b, atan2F64)
		})
	case backend.OpHypot:
		// glibc's hypot and hypotf, which NumPy's loops call (hypot.go).
		hyp := func(x, y T) T { return T(hypotF64(float64(x), float64(y))) }
		if _, f32 := any(T(0)).(float32); f32 {
			hyp = func(x, y T) T { return T(hypotF32(float32(x), float32(y))) }
		}
		return bin(func(d, a, b []T) {
			a, b = a[:len(d)], b[:len(d)]
			for i := range d {
				d[i] = hyp(a[i], b[i])
			}
		})
	case backend.OpSqrt:
		return un(func(d, a []T) {
			a = a[:len(d)]
			for i := range d {
				d[i] = T(math.Sqrt(float64(a[i])))
			}
		})
	case backend.OpRsqrt:
		return mapF[T](func(x float64) float64 { return 1 / math.Sqrt(x) })
	case backend.OpSigmoid:
		return mapF[T](sigmoid)
	case backend.OpSilu:
		return mapF[T](func(x float64) float64 { return x * sigmoid(x) })
	case backend.OpGelu:
		// 0.5·x·(1+erf(x/√2)), written with erfc so that the far negative
		// tail keeps its relative precision.
		return mapF[T](func(x float64) float64 { return 0.5 * x * math.Erfc(-x/math.Sqrt2) })
	case backend.OpFloor:
		return un(func(d, a []T) {
			a = a[:len(d)]
			for i := range d {
				d[i] = T(math.Floor(float64(a[i])))
			}
		})
	case backend.OpCeil:
		return un(func(d, a []T) {
			a = a[:len(d)]
			for i := range d {
				d[i] = T(math.Ceil(float64(a[i])))
			}
		})
	case backend.OpTrunc:
		return un(func(d, a []T) {
			a = a[:len(d)]
			for i := range d {
				d[i] = T(math.Trunc(float64(a[i])))
			}
		})
	case backend.OpRound:
		return un(func(d, a []T) {
			a = a[:len(d)]
			for i := range d {
				d[i] = T(math.Round(float64(a[i])))
			}
		})
	case backend.OpRoundEven:
		return un(func(d, a []T) {
			a = a[:len(d)]
			for i := range d {
				d[i] = T(math.RoundToEven(float64(a[i])))
			}
		})
	case backend.OpIsNaN:
		return un(func(d []bool, a []T) {
			a = a[:len(d)]
			for i := range d {
				d[i] = a[i] != a[i]
			}
		})
	case backend.OpIsInf:
		return un(func(d []bool, a []T) {
			a = a[:len(d)]
			for i := range d {
				d[i] = math.IsInf(float64(a[i]), 0)
			}
		})
	case backend.OpAdd:
		return bin(addL[T])
	case backend.OpSub:
		return bin(subL[T])
	case backend.OpMul:
		return bin(mulL[T])
	case backend.OpDiv:
		return bin(func(d, a, b []T) {
			a, b = a[:len(d)], b[:len(d)]
			for i := range d {
				d[i] = a[i] / b[i]
			}
		})
	case backend.OpFloorDiv:
		if n.CDiv {
			return bin(func(d, a, b []T) {
				a, b = a[:len(d)], b[:len(d)]
				for i := range d {
					d[i] = T(math.Trunc(float64(a[i] / b[i])))
				}
			})
		}
		return bin(func(d, a, b []T) {
			a, b = a[:len(d)], b[:len(d)]
			for i := range d {
				d[i], _ = pyDivmod(a[i], b[i])
			}
		})
	case backend.OpMod:
		if n.CDiv {
			return bin(func(d, a, b []T) {
				a, b = a[:len(d)], b[:len(d)]
				map64x2(d, a, b, math.Mod)
			})
		}
		return bin(func(d, a, b []T) {
			a, b = a[:len(d)], b[:len(d)]
			for i := range d {
				_, d[i] = pyDivmod(a[i], b[i])
			}
		})
	case backend.OpPow:
		return bin(func(d, a, b []T) { map64x2(d, a, b, powF64) })
	case backend.OpMax:
		// NumPy's maximum of float32 and float64: NaN propagates (the
		// first NaN wins), and ties give b, as the x86 MAXPS under its
		// loops (loops_minmax.dispatch.c.src) does: np.maximum(0.0, -0.0)
		// is -0.0 (float16 keeps a: narrowMinMax).
		return bin(func(d, a, b []T) {
			a, b = a[:len(d)], b[:len(d)]
			for i := range d {
				x, y := a[i], b[i]
				if x > y || x != x {
					d[i] = x
				} else {
					d[i] = y
				}
			}
		})
	case backend.OpMin:
		return bin(func(d, a, b []T) {
			a, b = a[:len(d)], b[:len(d)]
			for i := range d {
				x, y := a[i], b[i]
				if x < y || x != x {
					d[i] = x
				} else {
					d[i] = y
				}
			}
		})
	case backend.OpEq:
		return bin(eqL[T])
	case backend.OpNe:
		return bin(neL[T])
	case backend.OpLt:
		return bin(ltL[T])
	case backend.OpLe:
		return bin(leL[T])
	case backend.OpGt:
		return bin(gtL[T])
	case backend.OpGe:
		return bin(geL[T])
	case backend.OpAnd:
		return bin(andL[T])
	case backend.OpOr:
		return bin(orL[T])
	}
	return nil
}

// mapF returns the kernel applying f (computed in float64) and rounding
// once to T.
func mapF[T float](f func(float64) float64) kfn {
	return un(func(d, a []T) { map64(d, a, f) })
}

// f64Run is the length of the float64 buffer through which map64 and
// map64x2 compute float32 elements.
const f64Run = 256

// map64 sets d[i] = T(f(float64(a[i]))). float32 elements go through a
// float64 buffer, converted in a loop of their own: in one loop the
// conversion CVTSS2SD writes only the low half of its register and so
// waits for the last call's result there, which serialises the calls
// (math.Expm1 on float32 took 50 ns an element, on float64 18 ns).
func map64[T float](d, a []T, f func(float64) float64) {
	a = a[:len(d)]
	if _, f32 := any(T(0)).(float32); !f32 {
		for i := range d {
			d[i] = T(f(float64(a[i])))
		}
		return
	}
	mapBlocks64(d, a, func(b []float64) {
		for i, x := range b {
			b[i] = f(x)
		}
	})
}

// map64x2 is map64 for a function of two arguments.
func map64x2[T float](d, a, b []T, f func(x, y float64) float64) {
	a, b = a[:len(d)], b[:len(d)]
	if _, f32 := any(T(0)).(float32); !f32 {
		for i := range d {
			d[i] = T(f(float64(a[i]), float64(b[i])))
		}
		return
	}
	var bx, by [f64Run]float64
	for len(d) > 0 {
		n := min(len(d), f64Run)
		x, y := bx[:n], by[:n]
		for i := range x {
			x[i], y[i] = float64(a[i]), float64(b[i])
		}
		for i := range x {
			x[i] = f(x[i], y[i])
		}
		for i, v := range x {
			d[i] = T(v)
		}
		d, a, b = d[n:], a[n:], b[n:]
	}
}

// sigmoid returns 1/(1+e^-x).
func sigmoid(x float64) float64 { return 1 / (1 + math.Exp(-x)) }

// x86DefaultNaN is the NaN an x86 processor gives an invalid operation
// of no NaN operands (0/0, ∞ - ∞): the quiet NaN with the sign set and no
// payload.
const x86DefaultNaN = 0xfff8000000000000

// pyDivmod returns Python's (floor(a/b), a mod b) computed in T exactly as
// NumPy's npy_divmod does: from fmod, with the remainder taking the sign
// of the divisor and the quotient snapped to an integer. A zero divisor
// gives a/b (±inf or nan) and nan.
func pyDivmod[T float](a, b T) (T, T) {
	mod := T(math.Mod(float64(a), float64(b))) // fmod is exact
	if mod != mod {
		// NaN as C's fmod gives it on x86 (glibc's (a·b)/(a·b), NumPy's
		// npy_divmod): a NaN operand's, quieted, else the processor's
		// default NaN (negative, no payload) for a % 0 and ±inf % b,
		// where Go's math.Mod gives its own NaN (positive, payload 1).
		if a != a || b != b {
			mod = a * b
		} else {
			mod = T(math.Float64frombits(x86DefaultNaN))
		}
	}
	if b == 0 {
		return a / b, mod
	}
	div := (a - mod) / b
	if mod != 0 {
		if (b < 0) != (mod < 0) {
			mod += b
			div -= 1
		}
	} else {
		mod = T(math.Copysign(0, float64(b)))
	}
	var q T
	if div != 0 {
		q = T(math.Floor(float64(div)))
		if div-q > 0.5 {
			q += 1
		}
	} else {
		q = T(math.Copysign(0, float64(a/b)))
	}
	return q, mod
}

// narrowMinMax returns maximum or minimum of floats narrower than float32
// (held as float32): NaN propagates (the first NaN wins) and ties keep a,
// as NumPy's float16 loops compare (HALF_maximum: npy_half_ge(a, b) or a
// NaN gives a: np.maximum(float16(0), float16(-0.0)) is 0.0).
// The loop's branch went either way on random data (4 ns an element);
// narrowMinMaxLoop's vector loop does the same compares.
func narrowMinMax(o backend.Op) kfn {
	isMax := o == backend.OpMax
	loop := narrowMinMaxLoop(isMax)
	return bin(func(d, a, b []float32) {
		a, b = a[:len(d)], b[:len(d)]
		if n := len(d) &^ 7; loop != nil && n > 0 {
			loop(d[:n], a[:n], b[:n])
			d, a, b = d[n:], a[n:], b[n:]
		}
		for i := range d {
			x, y := a[i], b[i]
			if isMax && x >= y || !isMax && x <= y || x != x {
				d[i] = x
			} else {
				d[i] = y
			}
		}
	})
}
