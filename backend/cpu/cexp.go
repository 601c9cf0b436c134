package cpu

import (
	"math"
	"math/cmplx"
	"sync"

	"github.com/tensorsh/tensorsh/backend"
)

// cexpBlock is how many elements cexp splits into parts at a time.
const cexpBlock = 256

// cexpBufs holds cexp's buffers: the parts, then exp, sin and cos of them.
var cexpBufs = sync.Pool{New: func() any { return new([5][cexpBlock]float64) }}

// cexp returns the kernel of exp of complex64 or complex128 values, which
// gives expC128's bits (complex64: computed in complex128, each part
// rounded once): for a finite real part, Exp(re)·(cos im, sin im), so
// that the three come from their vector loops (libmF64), a block of parts
// at a time. An element with a NaN part in its result (whose payload
// could differ) is computed by expC128 itself; that takes in its special
// cases too, an infinite or NaN real part: where they return other than
// the general formula, the formula gives NaN (∞·0 for exp(±∞ + 0i), ∞·NaN
// or 0·NaN for an infinite or NaN imaginary part, NaN·x for a NaN real
// part). exp of 10^6 complex64 took 25 ms through cmplx.Exp an element,
// NumPy's 21.
func cexp[C complex64 | complex128]() func(d, a []C) {
	exp, sin, cos := libmF64(backend.OpExp), libmF64(backend.OpSin), libmF64(backend.OpCos)
	return func(d, a []C) {
		a = a[:len(d)]
		b := cexpBufs.Get().(*[5][cexpBlock]float64)
		defer cexpBufs.Put(b)
		for off := 0; off < len(d); off += cexpBlock {
			n := min(cexpBlock, len(d)-off)
			re, im, e, s, c := b[0][:n], b[1][:n], b[2][:n], b[3][:n], b[4][:n]
			x := a[off : off+n]
			for i, z := range x {
				re[i], im[i] = real(complex128(z)), imag(complex128(z))
			}
			exp(e, re)
			sin(s, im)
			cos(c, im)
			y := d[off : off+n]
			for i := range y {
				w := C(complex(e[i]*c[i], e[i]*s[i]))
				if hasNaN(w) {
					w = C(expC128(complex128(x[i])))
				}
				y[i] = w
			}
		}
	}
}

// libmF64 returns the float64 loop of o's vector kernel (libmLoop), or
// the scalar function's where there is none: the bits of libmRef(o).
func libmF64(o backend.Op) func(d, a []float64) {
	f := libmRef(o)
	if v := libmAsm[float64](o); v != nil {
		return libmLoop(v, f, libmDomain[float64](o))
	}
	return func(d, a []float64) {
		a = a[:len(d)]
		for i := range d {
			d[i] = f(a[i])
		}
	}
}

// expC128 is exp of a complex128: cmplx.Exp's special cases (an infinite
// real part with a zero, infinite or NaN imaginary part; a NaN real part
// with a zero one), and otherwise cmplx.Exp's formula Exp(re)·(cos im,
// sin im) with cosF64 and sinF64 (cmplx.Exp takes math.Sincos, whose bits
// are math.Sin's and math.Cos's).
func expC128(x complex128) complex128 {
	re, im := real(x), imag(x)
	if math.IsInf(re, 0) && (re > 0 && im == 0 || math.IsInf(im, 0) || math.IsNaN(im)) || math.IsNaN(re) && im == 0 {
		return cmplx.Exp(x)
	}
	r := math.Exp(re)
	return complex(r*cosF64(im), r*sinF64(im))
}
