package cpu

import (
	"math"
	"math/cmplx"

	"github.com/tensorsh/tensorsh/backend"
)

// Complex arithmetic follows NumPy's loops: products and quotients are
// computed on the parts in the parts' own precision (float32 for c64), with
// NumPy's formulas (Smith's algorithm for division, repeated
// multiplication for small integer powers). Each product is rounded on its
// own (no fused multiply-add). Transcendental functions use math/cmplx in
// complex128 and round each part once.

// cmulParts returns (ar+ai·i)(br+bi·i) as NumPy computes it.
func cmulParts[F float](ar, ai, br, bi F) (F, F) {
	return F(ar*br) - F(ai*bi), F(ar*bi) + F(ai*br)
}

// cdivParts returns (ar+ai·i)/(br+bi·i) by Smith's algorithm, as NumPy.
func cdivParts[F float](ar, ai, br, bi F) (F, F) {
	abr, abi := F(math.Abs(float64(br))), F(math.Abs(float64(bi)))
	if abr >= abi {
		if abr == 0 && abi == 0 {
			return ar / abr, ai / abi
		}
		rat := bi / br
		scl := 1 / (br + F(bi*rat))
		return F(ar+F(ai*rat)) * scl, F(ai-F(ar*rat)) * scl
	}
	rat := br / bi
	scl := 1 / (bi + F(br*rat))
	return F(F(ar*rat)+ai) * scl, F(F(ai*rat)-ar) * scl
}

// cpowParts returns (ar+ai·i)^(br+bi·i) as NumPy's npy_cpow: 1 for a zero
// exponent, 0 or nan for a zero base, repeated multiplication for integer
// exponents below 100 in magnitude, cmplx.Pow otherwise (computed in
// complex128).
func cpowParts[F float](ar, ai, br, bi F) (F, F) {
	if br == 0 && bi == 0 {
		return 1, 0
	}
	if ar == 0 && ai == 0 {
		if br > 0 {
			return 0, 0
		}
		nan := F(math.NaN())
		return nan, nan
	}
	if bi == 0 && br > -100 && br < 100 && F(int64(br)) == br {
		n := int64(br)
		switch n {
		case 1:
			return ar, ai
		case 2:
			return cmulParts(ar, ai, ar, ai)
		case 3:
			sr, si := cmulParts(ar, ai, ar, ai)
			return cmulParts(ar, ai, sr, si)
		}
		if n < 0 {
			n = -n
		}
		rr, ri := F(1), F(0)
		pr, pi := ar, ai
		for mask := int64(1); ; mask <<= 1 {
			if n&mask != 0 {
				rr, ri = cmulParts(rr, ri, pr, pi)
			}
			if n < mask<<1 {
				break
			}
			pr, pi = cmulParts(pr, pi, pr, pi)
		}
		if br < 0 {
			rr, ri = cdivParts(1, 0, rr, ri)
		}
		return rr, ri
	}
	z := cmplx.Pow(complex(float64(ar), float64(ai)), complex(float64(br), float64(bi)))
	return F(real(z)), F(imag(z))
}

// clog1p returns log(1+z) as NumPy's nc_log1p: log(hypot(re+1, im)) +
// atan2(im, re+1)·i.
func clog1p(z complex128) complex128 {
	x, y := real(z)+1, imag(z)
	return complex(logF64(hypotF64(x, y)), math.Atan2(y, x))
}

func crsqrt(z complex128) complex128 { return 1 / cmplx.Sqrt(z) }

// NumPy's complex loops for the everyday functions (numpy/_core/src/umath
// loops.c.src and funcs.inc.src): log2 and log10 scale clog's parts by
// log2(e) and log10(e) (nc_log2, nc_log10); exp2 is cexp(z·ln 2)
// (nc_exp2); expm1 is (expm1(x)·cos(y) − 2·sin²(y/2)) + exp(x)·sin(y)·i
// (nc_expm1); tan, sinh and cosh are math/cmplx, as exp, log, sin and
// cos are (within 3 ULP of NumPy with glibc). The inverse functions are
// not computed for complex values: math/cmplx's lose up to 4.5e7 ULP.

func clog2(z complex128) complex128 {
	l := cmplx.Log(z)
	return complex(real(l)*math.Log2E, imag(l)*math.Log2E)
}

func clog10(z complex128) complex128 {
	l := cmplx.Log(z)
	return complex(real(l)*math.Log10E, imag(l)*math.Log10E)
}

func cexp2(z complex128) complex128 {
	return cmplx.Exp(complex(real(z)*math.Ln2, imag(z)*math.Ln2))
}

func cexpm1(z complex128) complex128 {
	x, y := real(z), imag(z)
	a := math.Sin(y / 2)
	return complex(math.Expm1(x)*math.Cos(y)-2*a*a, math.Exp(x)*math.Sin(y))
}

// csignParts is NumPy 2's sign of a complex number, z/|z| (0 for 0;
// a unit on the axis of an infinite part; NaN when both parts are
// infinite or one is NaN), in the parts' own precision.
func csignParts[F float](r, i F, abs F) (F, F) {
	switch {
	case abs != abs:
		return F(math.NaN()), F(math.NaN())
	case math.IsInf(float64(abs), 0):
		rinf, iinf := math.IsInf(float64(r), 0), math.IsInf(float64(i), 0)
		switch {
		case rinf && iinf:
			return F(math.NaN()), F(math.NaN())
		case rinf:
			return F(math.Copysign(1, float64(r))), 0
		default:
			return 0, F(math.Copysign(1, float64(i)))
		}
	case abs == 0:
		return 0, 0
	}
	return r / abs, i / abs
}

// crecipParts is NumPy's complex reciprocal (Smith's algorithm, the
// reciprocal loop of loops.c.src) in the parts' own precision.
func crecipParts[F float](r, i F) (F, F) {
	if F(math.Abs(float64(i))) <= F(math.Abs(float64(r))) {
		q := i / r
		d := r + F(i*q)
		return 1 / d, -q / d
	}
	q := r / i
	d := F(r*q) + i
	return q / d, -1 / d
}

// complexFns are the everyday functions both complex kernels compute in
// complex128 (complex64 rounds each part once).
var complexFns = map[backend.Op]func(complex128) complex128{
	backend.OpTan: cmplx.Tan, backend.OpSinh: cmplx.Sinh, backend.OpCosh: cmplx.Cosh,
	backend.OpLog2: clog2, backend.OpLog10: clog10, backend.OpExp2: cexp2, backend.OpExpm1: cexpm1,
}

func complex128Kernel(o backend.Op) kfn {
	type C = complex128
	if f, ok := complexFns[o]; ok {
		return cmap128(f)
	}
	switch o {
	case backend.OpNeg:
		if k := negPartsC128(); k != nil {
			return k
		}
		return un(negL[C])
	case backend.OpAbs:
		return un(func(d []float64, a []C) {
			a = a[:len(d)]
			for i := range d {
				d[i] = hypotF64(real(a[i]), imag(a[i]))
			}
		})
	case backend.OpNot:
		return un(notL[C])
	case backend.OpExp:
		return un(cexp[C]())
	case backend.OpLog:
		return cmap128(cmplx.Log)
	case backend.OpLog1p:
		return cmap128(clog1p)
	case backend.OpSin:
		return cmap128(cmplx.Sin)
	case backend.OpCos:
		return cmap128(cmplx.Cos)
	case backend.OpTanh:
		return cmap128(cmplx.Tanh)
	case backend.OpSqrt:
		return cmap128(cmplx.Sqrt)
	case backend.OpRsqrt:
		return cmap128(crsqrt)
	case backend.OpSquare:
		return un(func(d, a []C) { csquare(d, a, cmulC128, cmulGo128) })
	case backend.OpReciprocal:
		return un(crecipC128)
	case backend.OpSign:
		return un(func(d, a []C) {
			a = a[:len(d)]
			for i := range d {
				r, im := real(a[i]), imag(a[i])
				d[i] = complex(csignParts(r, im, hypotF64(r, im)))
			}
		})
	case backend.OpIsFinite:
		return un(func(d []bool, a []C) {
			a = a[:len(d)]
			for i := range d {
				d[i] = !(math.IsInf(float64(real(a[i])), 0) || math.IsInf(float64(imag(a[i])), 0) || real(a[i]) != real(a[i]) || imag(a[i]) != imag(a[i]))
			}
		})
	case backend.OpIsNaN:
		return un(func(d []bool, a []C) {
			a = a[:len(d)]
			for i := range d {
				d[i] = math.IsNaN(real(a[i])) || math.IsNaN(imag(a[i]))
			}
		})
	case backend.OpIsInf:
		return un(func(d []bool, a []C) {
			a = a[:len(d)]
			for i := range d {
				d[i] = math.IsInf(real(a[i]), 0) || math.IsInf(imag(a[i]), 0)
			}
		})
	case backend.OpAdd:
		return bin(partsC128('+'))
	case backend.OpSub:
		return bin(partsC128('-'))
	case backend.OpMul:
		return bin(cmulC128)
	case backend.OpDiv:
		return bin(cdivC128)
	case backend.OpPow:
		return bin(func(d, a, b []C) {
			a, b = a[:len(d)], b[:len(d)]
			for i := range d {
				d[i] = complex(cpowParts(real(a[i]), imag(a[i]), real(b[i]), imag(b[i])))
			}
		})
	case backend.OpEq, backend.OpNe:
		if k := cmpPartsC128(o); k != nil {
			return k
		}
		if o == backend.OpEq {
			return bin(eqL[C])
		}
		return bin(neL[C])
	case backend.OpLt, backend.OpLe, backend.OpGt, backend.OpGe:
		return complexOrdered[C](o)
	case backend.OpAnd:
		return bin(andL[C])
	case backend.OpOr:
		return bin(orL[C])
	}
	return nil
}

func cmap128(f func(complex128) complex128) kfn {
	return un(func(d, a []complex128) {
		a = a[:len(d)]
		for i := range d {
			d[i] = f(a[i])
		}
	})
}

// cmulGo sets d[i] = a[i]·b[i] by cmulParts: the reference of cmulC64.
// It is not inlined, so that cmulC64's calls for single elements run the
// same code (Go's compiler orders the operands of a commutative + or ·
// as it likes, which decides the payload of a NaN sum of two NaNs).
//
//go:noinline
func cmulGo(d, a, b []complex64) {
	a, b = a[:len(d)], b[:len(d)]
	for i := range d {
		d[i] = complex(cmulParts(real(a[i]), imag(a[i]), real(b[i]), imag(b[i])))
	}
}

// hasNaN reports whether a part of z is NaN: a complex number equals
// itself unless one is.
func hasNaN[C complex64 | complex128](z C) bool {
	w := z
	return w != z
}

// cdivGo sets d[i] = a[i]/b[i] by cdivParts: the reference of cdivC64
// (not inlined, as cmulGo).
//
//go:noinline
func cdivGo(d, a, b []complex64) {
	a, b = a[:len(d)], b[:len(d)]
	for i := range d {
		d[i] = complex(cdivParts(real(a[i]), imag(a[i]), real(b[i]), imag(b[i])))
	}
}

// cdivGo128 is cdivGo for complex128.
//
//go:noinline
func cdivGo128(d, a, b []complex128) {
	a, b = a[:len(d)], b[:len(d)]
	for i := range d {
		d[i] = complex(cdivParts(real(a[i]), imag(a[i]), real(b[i]), imag(b[i])))
	}
}

// crecipGo sets d[i] = 1/a[i] by crecipParts: the reference of crecipC64.
//
//go:noinline
func crecipGo(d, a []complex64) {
	a = a[:len(d)]
	for i := range d {
		d[i] = complex(crecipParts(real(a[i]), imag(a[i])))
	}
}

// crecipGo128 is crecipGo for complex128.
//
//go:noinline
func crecipGo128(d, a []complex128) {
	a = a[:len(d)]
	for i := range d {
		d[i] = complex(crecipParts(real(a[i]), imag(a[i])))
	}
}

// csquare sets d[i] = a[i]·a[i] by the product's loops: vec, the vector
// loop, which recomputes an element with a NaN part from its operands
// for the NaN's payload, or ref where d is a itself (the operands are
// overwritten by then).
func csquare[C complex64 | complex128](d, a []C, vec, ref func(d, a, b []C)) {
	if len(d) > 0 && len(a) > 0 && &d[0] == &a[0] {
		ref(d, a, a)
		return
	}
	vec(d, a, a)
}

// cmulGo128 is cmulGo for complex128.
//
//go:noinline
func cmulGo128(d, a, b []complex128) {
	a, b = a[:len(d)], b[:len(d)]
	for i := range d {
		d[i] = complex(cmulParts(real(a[i]), imag(a[i]), real(b[i]), imag(b[i])))
	}
}

func complex64Kernel(o backend.Op) kfn {
	type C = complex64
	if f, ok := complexFns[o]; ok {
		return cmap64(f)
	}
	switch o {
	case backend.OpNeg:
		if k := negPartsC64(); k != nil {
			return k
		}
		return un(negL[C])
	case backend.OpAbs:
		return un(absC64)
	case backend.OpNot:
		return un(notL[C])
	case backend.OpExp:
		return un(cexp[C]())
	case backend.OpLog:
		return cmap64(cmplx.Log)
	case backend.OpLog1p:
		return cmap64(clog1p)
	case backend.OpSin:
		return cmap64(cmplx.Sin)
	case backend.OpCos:
		return cmap64(cmplx.Cos)
	case backend.OpTanh:
		return cmap64(cmplx.Tanh)
	case backend.OpSqrt:
		return cmap64(cmplx.Sqrt)
	case backend.OpRsqrt:
		return cmap64(crsqrt)
	case backend.OpSquare:
		return un(func(d, a []C) { csquare(d, a, cmulC64, cmulGo) })
	case backend.OpReciprocal:
		return un(crecipC64)
	case backend.OpSign:
		return un(func(d, a []C) {
			a = a[:len(d)]
			for i := range d {
				r, im := real(a[i]), imag(a[i])
				d[i] = complex(csignParts(r, im, hypotF32(r, im)))
			}
		})
	case backend.OpIsFinite:
		return un(func(d []bool, a []C) {
			a = a[:len(d)]
			for i := range d {
				d[i] = !(math.IsInf(float64(real(a[i])), 0) || math.IsInf(float64(imag(a[i])), 0) || real(a[i]) != real(a[i]) || imag(a[i]) != imag(a[i]))
			}
		})
	case backend.OpIsNaN:
		return un(func(d []bool, a []C) {
			a = a[:len(d)]
			for i := range d {
				d[i] = real(a[i]) != real(a[i]) || imag(a[i]) != imag(a[i])
			}
		})
	case backend.OpIsInf:
		return un(func(d []bool, a []C) {
			a = a[:len(d)]
			for i := range d {
				d[i] = math.IsInf(float64(real(a[i])), 0) || math.IsInf(float64(imag(a[i])), 0)
			}
		})
	case backend.OpAdd:
		return bin(partsC64('+'))
	case backend.OpSub:
		return bin(partsC64('-'))
	case backend.OpMul:
		return bin(cmulC64)
	case backend.OpDiv:
		return bin(cdivC64)
	case backend.OpPow:
		return bin(func(d, a, b []C) {
			a, b = a[:len(d)], b[:len(d)]
			for i := range d {
				d[i] = complex(cpowParts(real(a[i]), imag(a[i]), real(b[i]), imag(b[i])))
			}
		})
	case backend.OpEq, backend.OpNe:
		if k := cmpPartsC64(o); k != nil {
			return k
		}
		if o == backend.OpEq {
			return bin(eqL[C])
		}
		return bin(neL[C])
	case backend.OpLt, backend.OpLe, backend.OpGt, backend.OpGe:
		return complexOrdered[C](o)
	case backend.OpAnd:
		return bin(andL[C])
	case backend.OpOr:
		return bin(orL[C])
	}
	return nil
}

func cmap64(f func(complex128) complex128) kfn {
	return un(func(d, a []complex64) {
		a = a[:len(d)]
		for i := range d {
			d[i] = complex64(f(complex128(a[i])))
		}
	})
}

// complex32Kernel returns the kernel of o on complex32 values held as
// complex64 (each part a float16 value); the fused evaluator rounds each
// part of the results to float16. The operations are PyTorch's CPU kernels
// for ComplexHalf, which compute in complex<float> (c10::complex<float>
// arithmetic on the float values of the parts) and store the result as
// complex<Half>:
//
//   - add and sub are the ufunc add, self + alpha*other with alpha 1 or -1
//     as a complex number (aten/src/ATen/native/ufunc/add.h; sub passes
//     -alpha). The product alpha*other is a full complex product, so an
//     infinite or NaN part of other makes the other part NaN (0·inf).
//   - mul is (a·c − b·d) + (a·d + b·c)i in float32 (mul_kernel); the
//     products of float16 values are exact in float32.
//   - abs is |z| of the complex<float> value (abs_kernel), as float32, then
//     float16.
//   - neg, ==, !=, is_nan, is_inf and not need no arithmetic.
//
// The other operations have no ComplexHalf kernel on CPU (div_true_kernel,
// pow and the transcendental kernels dispatch on
// FLOATING_AND_COMPLEX_TYPES_AND2(kBFloat16, kHalf)), and neither here.
func complex32Kernel(o backend.Op) kfn {
	type C = complex64
	switch o {
	case backend.OpAdd:
		return bin(func(d, a, b []C) { caddAlpha(d, a, b, 1) })
	case backend.OpSub:
		return bin(func(d, a, b []C) { caddAlpha(d, a, b, -1) })
	case backend.OpNeg, backend.OpAbs, backend.OpMul, backend.OpEq, backend.OpNe,
		backend.OpIsNaN, backend.OpIsInf, backend.OpNot, backend.OpAnd, backend.OpOr,
		backend.OpLt, backend.OpLe, backend.OpGt, backend.OpGe:
		return complex64Kernel(o)
	}
	return nil
}

// caddAlpha sets d to a + alpha·b as PyTorch's add computes it for
// complex32: the complex product alpha·b (alpha real, as a complex number
// with imaginary part 0) rounded to float16 parts, then the sum in float32.
func caddAlpha(d, a, b []complex64, alpha float32) {
	a, b = a[:len(d)], b[:len(d)]
	for i := range d {
		pr, pi := cmulParts(real(b[i]), imag(b[i]), alpha, 0)
		p := complex(f16Table[f16Bits(pr)], f16Table[f16Bits(pi)])
		d[i] = a[i] + p
	}
}

// cKeep reports whether complex maximum (isMax) or minimum keeps its first
// operand a = ar+ai·i rather than b. NumPy (numpy/_core/src/umath/loops.c.src,
// @TYPE@_maximum and _minimum) keeps a when a part of a is NaN or CGE(a, b)
// (CLE for minimum) holds, where CGE(a, b) is (ar > br && neither imaginary
// part is NaN) || (ar == br && ai >= bi): lexicographic, a NaN propagates
// and ties keep a. JAX (xla: jax/_src/interpreters/mlir.py _minmax_hlo)
// keeps a when ar > br, or ai > bi at ar == br (< for minimum): a NaN
// compares false, so b is taken.
func cKeep(ar, ai, br, bi float64, isMax, xla bool) bool {
	if xla {
		if ar == br {
			return isMax && ai > bi || !isMax && ai < bi
		}
		return isMax && ar > br || !isMax && ar < br
	}
	if ar != ar || ai != ai {
		return true
	}
	if isMax {
		return ar > br && bi == bi || ar == br && ai >= bi
	}
	return ar < br && bi == bi || ar == br && ai <= bi
}

// cOrdered is NumPy's ordering comparison o (OpLt, OpLe, OpGt or OpGe) of
// complex numbers, the macros CLT, CLE, CGT and CGE of
// numpy/_core/src/umath/loops.c.src: lexicographic, the real parts
// deciding only where neither imaginary part is NaN (a NaN real part
// compares false).
func cOrdered(o backend.Op, ar, ai, br, bi float64) bool {
	noNaN := ai == ai && bi == bi
	switch o {
	case backend.OpLt:
		return ar < br && noNaN || ar == br && ai < bi
	case backend.OpLe:
		return ar < br && noNaN || ar == br && ai <= bi
	case backend.OpGt:
		return ar > br && noNaN || ar == br && ai > bi
	}
	return ar > br && noNaN || ar == br && ai >= bi
}

// complexOrdered returns the kernel of a complex ordering comparison (see
// cOrdered).
func complexOrdered[C complex64 | complex128](o backend.Op) kfn {
	return bin(func(d []bool, a, b []C) {
		a, b = a[:len(d)], b[:len(d)]
		for i := range d {
			x, y := complex128(a[i]), complex128(b[i])
			d[i] = cOrdered(o, real(x), imag(x), real(y), imag(y))
		}
	})
}

// cBetter reports whether v replaces best in complex argmax (isMax) or
// argmin: NumPy's @fname@_argmax and _argmin (numpy/_core/src/multiarray/
// arraytypes.c.src) take v when it is lexicographically greater (smaller)
// or has a NaN part, and stop at the first NaN.
func cBetter(vr, vi, br, bi float64, isMax bool) bool {
	if vr != vr || vi != vi {
		return true
	}
	if isMax {
		return vr > br || vr == br && vi > bi
	}
	return vr < br || vr == br && vi < bi
}

// complexMinMax returns the kernel of complex OpMax or OpMin (see cKeep),
// or nil for other operations.
func complexMinMax[T complex64 | complex128](n *backend.Node) kfn {
	if n.Op != backend.OpMax && n.Op != backend.OpMin {
		return nil
	}
	isMax, xla := n.Op == backend.OpMax, n.XLAMinMax
	return bin(func(d, a, b []T) {
		a, b = a[:len(d)], b[:len(d)]
		for i := range d {
			x, y := complex128(a[i]), complex128(b[i])
			if cKeep(real(x), imag(x), real(y), imag(y), isMax, xla) {
				d[i] = a[i]
			} else {
				d[i] = b[i]
			}
		}
	})
}
