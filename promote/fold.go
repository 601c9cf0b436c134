package promote

import (
	"errors"
	"math"
	"math/big"

	"github.com/tensorsh/tensorsh/dtypes"
	"github.com/tensorsh/tensorsh/internal/pow"
)

// A LiteralFolder is a Policy whose language computes arithmetic on
// literals in their own fixed-width types (C's int and long, Julia's
// Int64), where most systems' literals are Python numbers: 2147483647 + 1
// is undefined in C, 7 / 2 is 3 in C, -7 ÷ 2 is -3 in Julia.
type LiteralFolder interface {
	Policy
	// FoldBinary computes x op y on literals. handled is false when the
	// host language's folding gives the same value (comparisons, complex
	// numbers), and the caller folds as usual.
	FoldBinary(op BinaryOp, x, y Scalar) (v Scalar, handled bool, err error)
}

// FoldBinary computes x op y in C's types (see typedFold).
func (p cPolicy) FoldBinary(op BinaryOp, x, y Scalar) (Scalar, bool, error) {
	return typedFold(p, op, x, y)
}

// FoldBinary computes x op y in Julia's types (see typedFold).
func (p juliaPolicy) FoldBinary(op BinaryOp, x, y Scalar) (Scalar, bool, error) {
	return typedFold(p, op, x, y)
}

// typedFold computes x op y on literals of policy p as values of the types
// p gives them: p.Binary decides the result type, refuses what p refuses
// (C's signed overflow and division by zero), and says whether integer
// division truncates. Integers wrap to the result type; floats are IEEE
// doubles (1.0 / 0 is Inf). Comparisons, logical and bitwise operations
// other than shifts, and complex operands are left to the host.
func typedFold(p Policy, op BinaryOp, x, y Scalar) (Scalar, bool, error) {
	if x.Kind == ComplexScalar || y.Kind == ComplexScalar {
		return Scalar{}, false, nil
	}
	switch op.Class() {
	case Compare, Logical:
		return Scalar{}, false, nil
	case Bitwise:
		if op != Shl && op != Shr {
			return Scalar{}, false, nil
		}
	}
	if op == Maximum || op == Minimum || op == Where || op == Clip || op == MatMul {
		return Scalar{}, false, nil
	}
	operand := func(v Scalar) (Operand, error) {
		t, err := p.Literal(v)
		return Operand{Type: t, Literal: true, Value: &v}, err
	}
	a, err := operand(x)
	if err != nil {
		return Scalar{}, true, foldError(err)
	}
	b, err := operand(y)
	if err != nil {
		return Scalar{}, true, foldError(err)
	}
	r, err := p.Binary(op, a, b)
	if err != nil {
		return Scalar{}, true, foldError(err)
	}
	d := r.Compute
	if d.IsInt() || d == dtypes.Bool {
		v, err := foldInt(op, r, scalarInt(x), scalarInt(y))
		if err != nil {
			return Scalar{}, true, err
		}
		if r.Type.DType == dtypes.Bool {
			return BoolValue(v.Sign() != 0), true, nil
		}
		return IntValue(wrapInt(v, r.Type.DType)), true, nil
	}
	fa, fb := scalarFloat(x), scalarFloat(y)
	var f float64
	switch op {
	case Add:
		f = fa + fb
	case Sub:
		f = fa - fb
	case Mul:
		f = fa * fb
	case TrueDiv:
		f = fa / fb
	case FloorDiv:
		f = math.Trunc(fa / fb) // only Julia's ÷ gets here: div truncates
	case Mod:
		f = math.Mod(fa, fb) // Julia's rem, C's fmod
	case Pow:
		f = pow.Float64(fa, fb)
	default:
		return Scalar{}, false, nil
	}
	return FloatValue(f), true, nil
}

// foldError unwraps a policy's *Error to its message: the caller names
// the policy.
func foldError(err error) error {
	var e *Error
	if errors.As(err, &e) {
		return errors.New(e.Msg)
	}
	return err
}

func scalarInt(s Scalar) *big.Int {
	if s.Int != nil {
		return s.Int
	}
	return big.NewInt(0)
}

func scalarFloat(s Scalar) float64 {
	if s.Kind == FloatScalar {
		return s.Float
	}
	f, _ := new(big.Float).SetInt(scalarInt(s)).Float64()
	return f
}

// foldInt computes op on integers exactly; the caller wraps the result.
func foldInt(op BinaryOp, r Result, a, b *big.Int) (*big.Int, error) {
	z := new(big.Int)
	switch op {
	case Add:
		return z.Add(a, b), nil
	case Sub:
		return z.Sub(a, b), nil
	case Mul:
		return z.Mul(a, b), nil
	case TrueDiv, FloorDiv, Mod:
		if b.Sign() == 0 {
			return nil, errors.New("DivideError: integer division error (an integer divisor of zero)")
		}
		q, m := new(big.Int).QuoRem(a, b, new(big.Int))
		if !r.CDiv && m.Sign() != 0 && (m.Sign() < 0) != (b.Sign() < 0) {
			q.Sub(q, big.NewInt(1))
			m.Add(m, b)
		}
		if op == Mod {
			return m, nil
		}
		return q, nil
	case Pow:
		if b.Sign() < 0 {
			return nil, errors.New("DomainError: an integer raised to a negative integer power")
		}
		// Julia's power_by_squaring wraps: compute modulo 2^64.
		return z.Exp(a, b, new(big.Int).Lsh(big.NewInt(1), 64)), nil
	case Shl, Shr:
		// C refuses the undefined shifts in Binary; Julia shifts by any
		// amount (a negative one shifts the other way), and wrapping makes
		// a shift past the width 0, or -1 for a negative >>.
		n, left := new(big.Int).Abs(b), op == Shl
		if b.Sign() < 0 {
			left = !left
		}
		k := uint(1024)
		if n.IsUint64() && n.Uint64() < 1024 {
			k = uint(n.Uint64())
		}
		if left {
			return z.Lsh(a, k), nil
		}
		return z.Rsh(a, k), nil
	}
	return nil, errors.New("unsupported operation " + op.String() + " on literals")
}

// wrapInt reduces v to the two's complement range of d.
func wrapInt(v *big.Int, d dtypes.DType) *big.Int {
	if !d.IsInt() {
		return v
	}
	bits := uint(d.Bits())
	m := new(big.Int).Lsh(big.NewInt(1), bits)
	z := new(big.Int).Mod(v, m)
	if d.IsSigned() && z.Cmp(new(big.Int).Rsh(m, 1)) >= 0 {
		z.Sub(z, m)
	}
	return z
}
