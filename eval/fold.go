package eval

import (
	"errors"
	"math"
	"math/big"

	"github.com/tensorsh/tensorsh/internal/pow"
	"github.com/tensorsh/tensorsh/promote"
)

// Literal folding: expressions made only of literals are computed the way the
// policy's host language computes them (Python for most systems, Mojo with
// the same results, R for anvil), and the result stays a literal.

// maxLiteralBits bounds the size of folded integers, so that 2**10**9 is a
// clear error instead of a hang.
const maxLiteralBits = 1 << 16

var (
	errZeroDiv  = errors.New("division by zero")
	errBigInt   = errors.New("integer literal too large (more than 65536 bits)")
	errIntFloat = errors.New("int too large to convert to float")
)

// A zeroDivError is a division by zero whose message says more than
// errZeroDiv's; errors.Is(err, errZeroDiv) holds for it.
type zeroDivError string

func (e zeroDivError) Error() string        { return string(e) }
func (e zeroDivError) Is(target error) bool { return target == errZeroDiv }

func intOf(s promote.Scalar) *big.Int {
	if s.Kind == promote.BoolScalar {
		if s.Bool {
			return big.NewInt(1)
		}
		return big.NewInt(0)
	}
	return s.Int
}

func floatOf(s promote.Scalar) (float64, error) {
	switch s.Kind {
	case promote.BoolScalar, promote.IntScalar:
		f, acc := new(big.Float).SetInt(intOf(s)).Float64()
		if math.IsInf(f, 0) && acc != big.Exact {
			return 0, errIntFloat
		}
		return f, nil
	case promote.FloatScalar:
		return s.Float, nil
	}
	return real(s.Complex), nil
}

func complexOf(s promote.Scalar) (complex128, error) {
	if s.Kind == promote.ComplexScalar {
		return s.Complex, nil
	}
	f, err := floatOf(s)
	return complex(f, 0), err
}

func maxKind(a, b promote.ScalarKind) promote.ScalarKind {
	if a > b {
		return a
	}
	return b
}

// r32 reports whether i fits an R integer (32-bit, with NA as -2^31).
func r32(i *big.Int) bool {
	return i.IsInt64() && i.Int64() > math.MinInt32 && i.Int64() <= math.MaxInt32
}

// foldLiteral returns a literal as the host language reads it: R reads an
// integer literal that does not fit in 32 bits as a double.
func foldLiteral(h promote.Host, v promote.Scalar) promote.Scalar {
	if h == promote.R && v.Kind == promote.IntScalar && !r32(v.Int) {
		f, _ := new(big.Float).SetInt(v.Int).Float64()
		return promote.FloatValue(f)
	}
	return v
}

// foldBinary computes x op y on literals in host language h.
func foldBinary(h promote.Host, op promote.BinaryOp, x, y promote.Scalar) (promote.Scalar, error) {
	r, err := pyBinary(h, op, x, y)
	if err != nil {
		return r, err
	}
	if h == promote.R && r.Kind == promote.IntScalar && !r32(r.Int) {
		return r, errors.New("integer overflow: R integers are 32-bit (R gives NA)")
	}
	return r, nil
}

func pyBinary(h promote.Host, op promote.BinaryOp, x, y promote.Scalar) (promote.Scalar, error) {
	k := maxKind(x.Kind, y.Kind)
	switch op.Class() {
	case promote.Compare:
		return pyCompare(op, x, y)
	case promote.Logical:
		// Python's and/or return an operand; tensorsh keeps them on truth values.
		a, b := truth(x), truth(y)
		if op == promote.And {
			return promote.BoolValue(a && b), nil
		}
		return promote.BoolValue(a || b), nil
	case promote.Bitwise:
		if k > promote.IntScalar {
			return promote.Scalar{}, errors.New("unsupported operand types for " + op.String() + ": bitwise operations need ints or bools")
		}
		if k == promote.BoolScalar && op != promote.Shl && op != promote.Shr {
			switch op {
			case promote.BitAnd:
				return promote.BoolValue(x.Bool && y.Bool), nil
			case promote.BitOr:
				return promote.BoolValue(x.Bool || y.Bool), nil
			default:
				return promote.BoolValue(x.Bool != y.Bool), nil
			}
		}
		a, b := intOf(x), intOf(y)
		z := new(big.Int)
		switch op {
		case promote.BitAnd:
			z.And(a, b)
		case promote.BitOr:
			z.Or(a, b)
		case promote.BitXor:
			z.Xor(a, b)
		case promote.Shl, promote.Shr:
			if b.Sign() < 0 {
				return promote.Scalar{}, errors.New("negative shift count")
			}
			if op == promote.Shr {
				if !b.IsInt64() || b.Int64() > maxLiteralBits {
					if a.Sign() < 0 {
						return promote.Int64Value(-1), nil
					}
					return promote.Int64Value(0), nil
				}
				z.Rsh(a, uint(b.Int64()))
			} else {
				if !b.IsInt64() || int64(a.BitLen())+b.Int64() > maxLiteralBits {
					return promote.Scalar{}, errBigInt
				}
				z.Lsh(a, uint(b.Int64()))
			}
		}
		return promote.IntValue(z), nil
	}
	if op == promote.Maximum || op == promote.Minimum {
		less, err := pyCompare(promote.Lt, x, y)
		if err != nil {
			return promote.Scalar{}, err
		}
		if less.Bool == (op == promote.Minimum) {
			return x, nil
		}
		return y, nil
	}
	if op == promote.TrueDiv {
		if h == promote.R || k <= promote.FloatScalar {
			if k == promote.IntScalar || k == promote.BoolScalar {
				if h == promote.R && intOf(y).Sign() == 0 {
					// R's / gives a double: 1L/0L is Inf, 0L/0L NaN.
					a, _ := floatOf(x)
					return promote.FloatValue(a / float64(intOf(y).Sign())), nil
				}
				return intTrueDiv(intOf(x), intOf(y))
			}
			a, err := floatOf(x)
			if err != nil {
				return promote.Scalar{}, err
			}
			b, err := floatOf(y)
			if err != nil {
				return promote.Scalar{}, err
			}
			if b == 0 {
				if h == promote.R {
					return promote.FloatValue(a / b), nil // R: 1/0 is Inf
				}
				return promote.Scalar{}, errZeroDiv
			}
			return promote.FloatValue(a / b), nil
		}
	}
	switch k {
	case promote.BoolScalar, promote.IntScalar:
		return intArith(h, op, intOf(x), intOf(y))
	case promote.FloatScalar:
		a, err := floatOf(x)
		if err != nil {
			return promote.Scalar{}, err
		}
		b, err := floatOf(y)
		if err != nil {
			return promote.Scalar{}, err
		}
		return floatArith(h, op, a, b)
	}
	a, err := complexOf(x)
	if err != nil {
		return promote.Scalar{}, err
	}
	b, err := complexOf(y)
	if err != nil {
		return promote.Scalar{}, err
	}
	return complexArith(op, a, b)
}

func truth(s promote.Scalar) bool {
	switch s.Kind {
	case promote.BoolScalar:
		return s.Bool
	case promote.IntScalar:
		return s.Int.Sign() != 0
	case promote.FloatScalar:
		return s.Float != 0
	}
	return s.Complex != 0
}

func intTrueDiv(a, b *big.Int) (promote.Scalar, error) {
	if b.Sign() == 0 {
		return promote.Scalar{}, errZeroDiv
	}
	// Python divides ints exactly and rounds once.
	q := new(big.Rat).SetFrac(a, b)
	f, _ := q.Float64()
	if math.IsInf(f, 0) {
		return promote.Scalar{}, errors.New("integer division result too large for a float")
	}
	return promote.FloatValue(f), nil
}

func intArith(h promote.Host, op promote.BinaryOp, a, b *big.Int) (promote.Scalar, error) {
	z := new(big.Int)
	switch op {
	case promote.Add:
		z.Add(a, b)
	case promote.Sub:
		z.Sub(a, b)
	case promote.Mul:
		if a.BitLen()+b.BitLen() > maxLiteralBits {
			return promote.Scalar{}, errBigInt
		}
		z.Mul(a, b)
	case promote.FloorDiv, promote.Mod:
		if b.Sign() == 0 {
			if h == promote.R {
				return promote.Scalar{}, zeroDivError("integer division by zero (R gives NA)")
			}
			return promote.Scalar{}, errZeroDiv
		}
		q, m := new(big.Int), new(big.Int)
		q.QuoRem(a, b, m)
		if m.Sign() != 0 && (m.Sign() < 0) != (b.Sign() < 0) {
			q.Sub(q, big.NewInt(1))
			m.Add(m, b)
		}
		if op == promote.FloorDiv {
			z = q
		} else {
			z = m
		}
	case promote.Pow:
		if h == promote.R {
			fa, _ := new(big.Float).SetInt(a).Float64()
			fb, _ := new(big.Float).SetInt(b).Float64()
			return promote.FloatValue(pow.Float64(fa, fb)), nil // R's ^ always gives a double
		}
		if b.Sign() < 0 {
			if a.Sign() == 0 {
				return promote.Scalar{}, errors.New("0 cannot be raised to a negative power")
			}
			fa, err := floatOf(promote.IntValue(a))
			if err != nil {
				return promote.Scalar{}, err
			}
			fb, _ := new(big.Float).SetInt(b).Float64()
			return promote.FloatValue(pow.Float64(fa, fb)), nil
		}
		if a.CmpAbs(big.NewInt(1)) > 0 && (!b.IsInt64() || int64(a.BitLen())*b.Int64() > maxLiteralBits) {
			return promote.Scalar{}, errBigInt
		}
		z.Exp(a, b, nil)
	default:
		return promote.Scalar{}, errors.New("unsupported operation " + op.String() + " on literals")
	}
	return promote.IntValue(z), nil
}

// pyFloorDivMod is CPython's float divmod.
func pyFloorDivMod(a, b float64) (float64, float64) {
	mod := math.Mod(a, b)
	div := (a - mod) / b
	if mod != 0 {
		if (b < 0) != (mod < 0) {
			mod += b
			div -= 1
		}
	} else {
		mod = math.Copysign(0, b)
	}
	var floordiv float64
	if div != 0 {
		floordiv = math.Floor(div)
		if div-floordiv > 0.5 {
			floordiv++
		}
	} else {
		floordiv = math.Copysign(0, a/b)
	}
	return floordiv, mod
}

func floatArith(h promote.Host, op promote.BinaryOp, a, b float64) (promote.Scalar, error) {
	switch op {
	case promote.Add:
		return promote.FloatValue(a + b), nil
	case promote.Sub:
		return promote.FloatValue(a - b), nil
	case promote.Mul:
		return promote.FloatValue(a * b), nil
	case promote.FloorDiv, promote.Mod:
		if b == 0 {
			if h == promote.R {
				if op == promote.Mod {
					return promote.FloatValue(math.NaN()), nil
				}
				return promote.FloatValue(math.Floor(a / b)), nil
			}
			return promote.Scalar{}, errZeroDiv
		}
		d, m := pyFloorDivMod(a, b)
		if op == promote.FloorDiv {
			return promote.FloatValue(d), nil
		}
		return promote.FloatValue(m), nil
	case promote.Pow:
		if a == 0 && b < 0 && h != promote.R {
			return promote.Scalar{}, zeroDivError("0.0 cannot be raised to a negative power")
		}
		if a < 0 && b != math.Trunc(b) && h != promote.R {
			// float_pow: a negative base to a fractional power is
			// complex, computed by complex ** complex.
			return pyComplexPow(complex(a, 0), complex(b, 0))
		}
		r := pow.Float64(a, b)
		if math.IsInf(r, 0) && !math.IsInf(a, 0) && !math.IsInf(b, 0) && h != promote.R {
			return promote.Scalar{}, errors.New("numerical result out of range")
		}
		return promote.FloatValue(r), nil
	}
	return promote.Scalar{}, errors.New("unsupported operation " + op.String() + " on float literals")
}

func complexArith(op promote.BinaryOp, a, b complex128) (promote.Scalar, error) {
	switch op {
	case promote.Add:
		return promote.ComplexValue(a + b), nil
	case promote.Sub:
		return promote.ComplexValue(a - b), nil
	case promote.Mul:
		return promote.ComplexValue(a * b), nil
	case promote.TrueDiv:
		if b == 0 {
			return promote.Scalar{}, zeroDivError("complex division by zero")
		}
		return promote.ComplexValue(pyCQuot(a, b)), nil
	case promote.Pow:
		return pyComplexPow(a, b)
	}
	return promote.Scalar{}, errors.New("can't take floor or mod of complex number")
}

func pyCompare(op promote.BinaryOp, x, y promote.Scalar) (promote.Scalar, error) {
	k := maxKind(x.Kind, y.Kind)
	var c int
	switch {
	case k <= promote.IntScalar:
		c = intOf(x).Cmp(intOf(y))
	case k == promote.FloatScalar:
		// Python compares ints and floats exactly.
		a, b := exactFloat(x), exactFloat(y)
		if a == nil || b == nil {
			return promote.BoolValue(op == promote.Ne), nil // NaN
		}
		c = a.Cmp(b)
	default:
		if op != promote.Eq && op != promote.Ne {
			return promote.Scalar{}, errors.New("'" + op.String() + "' not supported between complex numbers")
		}
		a, _ := complexOf(x)
		b, _ := complexOf(y)
		return promote.BoolValue((a == b) == (op == promote.Eq)), nil
	}
	var r bool
	switch op {
	case promote.Eq:
		r = c == 0
	case promote.Ne:
		r = c != 0
	case promote.Lt:
		r = c < 0
	case promote.Le:
		r = c <= 0
	case promote.Gt:
		r = c > 0
	case promote.Ge:
		r = c >= 0
	}
	return promote.BoolValue(r), nil
}

// exactFloat returns x as an exact big.Float, or nil for NaN.
func exactFloat(x promote.Scalar) *big.Float {
	if x.Kind == promote.FloatScalar {
		if math.IsNaN(x.Float) {
			return nil
		}
		return new(big.Float).SetFloat64(x.Float)
	}
	return new(big.Float).SetInt(intOf(x))
}

// foldUnary computes op x on a literal.
func foldUnary(h promote.Host, op promote.UnaryOp, x promote.Scalar) (promote.Scalar, error) {
	switch op {
	case promote.Pos:
		if x.Kind == promote.BoolScalar {
			return promote.IntValue(intOf(x)), nil
		}
		return x, nil
	case promote.Neg:
		switch x.Kind {
		case promote.BoolScalar, promote.IntScalar:
			r := promote.IntValue(new(big.Int).Neg(intOf(x)))
			if h == promote.R && !r32(r.Int) {
				return r, errors.New("integer overflow: R integers are 32-bit (R gives NA)")
			}
			return r, nil
		case promote.FloatScalar:
			return promote.FloatValue(-x.Float), nil
		}
		return promote.ComplexValue(-x.Complex), nil
	case promote.Invert:
		switch x.Kind {
		case promote.BoolScalar:
			if h == promote.R {
				return promote.BoolValue(!x.Bool), nil
			}
			return promote.IntValue(new(big.Int).Not(intOf(x))), nil
		case promote.IntScalar:
			return promote.IntValue(new(big.Int).Not(x.Int)), nil
		}
		return promote.Scalar{}, errors.New("bad operand type for unary ~: " + x.Kind.String())
	case promote.Not:
		return promote.BoolValue(!truth(x)), nil
	}
	return promote.Scalar{}, errors.New("unsupported operation " + op.String() + " on literals")
}

// pyComplexPow is CPython's complex ** complex (Objects/complexobject.c,
// complex_pow): an integral real exponent of at most 100 in magnitude
// multiplies by repeated squaring (c_powi), so 1j ** 2 is exactly -1;
// other exponents go through polar form (_Py_c_pow). 0 to a negative or
// complex power is a ZeroDivisionError; a result that overflows is an
// OverflowError. The polar form uses Go's math functions, which may differ
// from the C library's in the last bit.
func pyComplexPow(a, b complex128) (promote.Scalar, error) {
	var r complex128
	if n := real(b); imag(b) == 0 && n == math.Trunc(n) && math.Abs(n) <= 100 {
		if a == 0 && n < 0 {
			return promote.Scalar{}, zeroDivError("0.0 to a negative or complex power")
		}
		if n >= 0 {
			r = pyCPowU(a, uint(n))
		} else {
			r = pyCQuot(1, pyCPowU(a, uint(-n)))
		}
	} else {
		switch {
		case b == 0:
			r = 1
		case a == 0:
			if imag(b) != 0 || real(b) < 0 {
				return promote.Scalar{}, zeroDivError("0.0 to a negative or complex power")
			}
			r = 0
		default:
			vabs := math.Hypot(real(a), imag(a))
			l := pow.Float64(vabs, real(b))
			at := math.Atan2(imag(a), real(a))
			phase := at * real(b)
			if imag(b) != 0 {
				l /= math.Exp(at * imag(b))
				phase += imag(b) * math.Log(vabs)
			}
			r = complex(l*math.Cos(phase), l*math.Sin(phase))
		}
	}
	if math.IsInf(real(r), 0) || math.IsInf(imag(r), 0) {
		return promote.Scalar{}, errors.New("complex exponentiation overflows")
	}
	return promote.ComplexValue(r), nil
}

// pyCPowU is CPython's c_powu: x**n by binary exponentiation, with
// CPython's complex product.
func pyCPowU(x complex128, n uint) complex128 {
	r, p := complex128(1), x
	for mask := uint(1); mask > 0 && n >= mask; mask <<= 1 {
		if n&mask != 0 {
			r = pyCProd(r, p)
		}
		p = pyCProd(p, p)
	}
	return r
}

// pyCProd is CPython's _Py_c_prod. The conversions round each product,
// so that no platform fuses them into a multiply-add (the Go spec allows
// that otherwise; C compiles these with contraction off).
func pyCProd(a, b complex128) complex128 {
	return complex(float64(real(a)*real(b))-float64(imag(a)*imag(b)), float64(real(a)*imag(b))+float64(imag(a)*real(b)))
}

// pyCQuot is CPython's _Py_c_quot (Smith's algorithm); b is not 0.
func pyCQuot(a, b complex128) complex128 {
	ar, ai, br, bi := real(a), imag(a), real(b), imag(b)
	switch abr, abi := math.Abs(br), math.Abs(bi); {
	case abr >= abi:
		ratio := bi / br
		denom := br + float64(bi*ratio)
		return complex((ar+float64(ai*ratio))/denom, (ai-float64(ar*ratio))/denom)
	case abi >= abr:
		ratio := br / bi
		denom := float64(br*ratio) + bi
		return complex((float64(ar*ratio)+ai)/denom, (float64(ai*ratio)-ar)/denom)
	}
	return complex(math.NaN(), math.NaN())
}
