package eval

import (
	"strings"

	"github.com/tensorsh/tensorsh/dtypes"
	"github.com/tensorsh/tensorsh/promote"
)

// isclose and allclose, as NumPy, JAX and PyTorch define them: each is its
// library's formula, step by step, in the dtypes that library computes it
// in, so that a comparison near the tolerance answers as the library does.
// The libraries differ in those dtypes: NumPy computes x - y as the
// operands promote and the tolerance in y's float type (numeric.py), JAX
// converts both operands to their common inexact type first
// (jax/_src/numpy/lax_numpy.py, isclose), PyTorch wants one dtype and
// computes the tolerance as a tensor times a Python float
// (aten/src/ATen/native/TensorCompare.cpp, isclose). The other policies'
// libraries have no isclose; there they are an error that says so.

// closeArgs are isclose's arguments: a, b, rtol=1e-05, atol=1e-08,
// equal_nan=false, by position or keyword.
type closeArgs struct {
	a, b       *operand
	rtol, atol float64
	equalNaN   bool
}

func (c *compiler) closeArgs(k *call) (closeArgs, error) {
	var ca closeArgs
	if err := k.nargs(c, 2, 5); err != nil {
		return ca, err
	}
	for i, o := range k.args[:2] {
		if err := c.requireNumeric(o, k.name, "()"); err != nil {
			return ca, err
		}
		if err := c.known(o); err != nil {
			return ca, err
		}
		if i == 0 {
			ca.a = o
		} else {
			ca.b = o
		}
	}
	for i, name := range []string{"rtol", "atol", "equal_nan"} {
		if err := k.passedTwice(c, i+2, name); err != nil {
			return ca, err
		}
		o, ok := k.kw[name]
		if i+2 < len(k.args) {
			o, ok = k.args[i+2], true
		}
		if !ok {
			continue
		}
		if name == "equal_nan" {
			v, err := c.boolOf(o, name)
			if err != nil {
				return ca, err
			}
			ca.equalNaN = v
			continue
		}
		if o.kind != LiteralValue || o.lit.Kind > promote.FloatScalar {
			return ca, c.errorf(o.span(), "TypeError", "%s() %s= must be a real number", k.name, name)
		}
		v := promote.FloatValue(0)
		switch o.lit.Kind {
		case promote.FloatScalar:
			v = o.lit
		default:
			f, _ := intOf(o.lit).Float64()
			v = promote.FloatValue(f)
		}
		if i == 0 {
			ca.rtol = v.Float
		} else {
			ca.atol = v.Float
		}
	}
	if _, ok := k.kw["rtol"]; !ok && len(k.args) < 3 {
		ca.rtol = 1e-05
	}
	if _, ok := k.kw["atol"]; !ok && len(k.args) < 4 {
		ca.atol = 1e-08
	}
	return ca, nil
}

// closeFamily returns the library whose isclose the policy follows:
// "numpy", "jax" or "torch", or "" where its library has none.
func closeFamily(policy string) string {
	switch {
	case numpyShaped(policy):
		return "numpy"
	case strings.HasPrefix(policy, "jax"):
		return "jax"
	case policy == "torch":
		return "torch"
	}
	return ""
}

// isclose compiles isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=false).
func isclose(c *compiler, k *call) (*operand, error) {
	ca, err := c.closeArgs(k)
	if err != nil {
		return nil, err
	}
	return c.isclose(ca, k)
}

// allclose is all(isclose(…)): a Python bool under NumPy and PyTorch
// (bool(res), .item()), a 0-d bool array under JAX (reductions.all).
func allclose(c *compiler, k *call) (*operand, error) {
	ca, err := c.closeArgs(k)
	if err != nil {
		return nil, err
	}
	close, err := c.isclose(ca, k)
	if err != nil {
		return nil, err
	}
	all, err := c.reduce(promote.All, &call{name: "all", args: []*operand{close}, sp: k.sp, fnSpan: k.fnSpan})
	if err != nil || closeFamily(c.policy.Name()) == "jax" {
		return all, err
	}
	if err := c.known(all); err != nil {
		return nil, err
	}
	return c.literal(*all.value, k.sp, nil)
}

func (c *compiler) isclose(ca closeArgs, k *call) (*operand, error) {
	fam := closeFamily(c.policy.Name())
	if fam == "" {
		return nil, c.errorf(k.fnSpan, "NameError", "%s: %s has no %s (NumPy's, JAX's and PyTorch's are under :policy numpy, jax and torch)", c.policy.Name(), c.policy.Name(), k.name)
	}
	f := closeOps{c: c, sp: k.fnSpan}
	var out *operand
	switch fam {
	case "numpy":
		out = f.numpy(ca)
	case "jax":
		out = f.jax(ca)
	default:
		out = f.torch(ca, k)
	}
	if f.err != nil {
		return nil, f.err
	}
	if out.kind == LiteralValue {
		out = c.materialize(out) // np.isclose(1.0, 1.0) is np.True_, an array scalar
	}
	out.typ.Weak = false
	out.start, out.end = k.sp.start, k.sp.end
	return out, nil
}

// closeOps composes the steps of an isclose; the first error sticks and
// the steps after it return nil.
type closeOps struct {
	c   *compiler
	sp  span
	err error
}

func (f *closeOps) bin(op promote.BinaryOp, x, y *operand) *operand {
	if f.err != nil {
		return nil
	}
	o, err := f.c.binaryCall(op, x, y, f.sp)
	f.err = err
	return o
}

func (f *closeOps) un(op promote.UnaryOp, x *operand) *operand {
	if f.err != nil {
		return nil
	}
	o, err := f.c.unary(op, x, f.sp, 0)
	f.err = err
	return o
}

func (f *closeOps) lit(v float64) *operand {
	if f.err != nil {
		return nil
	}
	o, err := f.c.literal(promote.FloatValue(v), f.sp, nil)
	f.err = err
	return o
}

// as converts x to type t (lax.convert_element_type, asanyarray(y, dtype)).
func (f *closeOps) as(x *operand, t dtypes.Type) *operand {
	if f.err != nil || x.kind != LiteralValue && x.typ.DType == t.DType {
		return x
	}
	o, err := f.c.convert(x, t, &call{name: "cast", sp: x.span(), fnSpan: f.sp}, true)
	f.err = err
	return o
}

// resultType is the policy's type of x op y, without computing it.
func (f *closeOps) resultType(op promote.BinaryOp, x, y *operand) dtypes.Type {
	if f.err != nil {
		return dtypes.Type{}
	}
	res, err := f.c.policy.Binary(op, toPolicyOperand(x), toPolicyOperand(y))
	if err != nil {
		f.err = f.c.promoteError(err, f.sp, x, y)
	}
	return res.Type
}

// numpy is NumPy 2's isclose (numpy/_core/numeric.py): Python numbers
// stay Python numbers (a Python int y becomes float(y)), an array y
// becomes result_type(y, 1.), then
//
//	less_equal(abs(x - y), atol + rtol * abs(y)) & isfinite(y) | (x == y)
//
// and, with equal_nan, | isnan(x) & isnan(y). NumPy 1.24's older code
// (finite elements compared by the same within_tol, the others by x == y)
// gives the same answers.
func (f *closeOps) numpy(ca closeArgs) *operand {
	x, y := ca.a, ca.b
	if y.kind == LiteralValue && y.lit.Kind <= promote.IntScalar {
		v, _ := intOf(y.lit).Float64() // an int the policy types fits float64
		y = f.lit(v)
	} else if y.kind != LiteralValue {
		y = f.as(y, dtypes.Strong(f.resultType(promote.Add, y, f.lit(1)).DType))
	}
	diff := f.un(promote.Abs, f.bin(promote.Sub, x, y))
	tol := f.bin(promote.Add, f.lit(ca.atol), f.bin(promote.Mul, f.lit(ca.rtol), f.un(promote.Abs, y)))
	out := f.bin(promote.BitOr, f.bin(promote.BitAnd, f.bin(promote.Le, diff, tol), f.un(promote.IsFinite, y)), f.bin(promote.Eq, x, y))
	if ca.equalNaN {
		out = f.bin(promote.BitOr, out, f.bin(promote.BitAnd, f.un(promote.IsNaN, x), f.un(promote.IsNaN, y)))
	}
	return out
}

// jax is jnp.isclose: a and b promoted together (promote_args), then to
// an inexact type (promote_args_inexact: as the policy's sqrt makes an
// integer inexact), rtol and atol converted to its real type, then
//
//	abs(a - b) <= atol + rtol * abs(b), false where either is infinite
//	unless both are the same infinity, false where either is NaN
//
// and, with equal_nan, true where both are NaN.
func (f *closeOps) jax(ca closeArgs) *operand {
	a, b := ca.a, ca.b
	t := f.resultType(promote.Add, a, b)
	if f.err != nil {
		return nil
	}
	if !t.DType.IsInexact() {
		res, err := f.c.policy.Unary(promote.Sqrt, promote.Operand{Type: t, Rank: 1})
		if err != nil {
			f.err = f.c.promoteError(err, f.sp, a, b)
			return nil
		}
		t = res.Type
	}
	a, b = f.as(f.c.materialize(a), t), f.as(f.c.materialize(b), t)
	real := dtypes.Strong(t.DType.Real())
	rtol, atol := f.as(f.lit(ca.rtol), real), f.as(f.lit(ca.atol), real)
	out := f.bin(promote.Le, f.un(promote.Abs, f.bin(promote.Sub, a, b)), f.bin(promote.Add, atol, f.bin(promote.Mul, rtol, f.un(promote.Abs, b))))
	aInf, bInf := f.un(promote.IsInf, a), f.un(promote.IsInf, b)
	out = f.bin(promote.BitAnd, out, f.un(promote.Not, f.bin(promote.BitOr, aInf, bInf)))
	out = f.bin(promote.BitOr, out, f.bin(promote.BitAnd, f.bin(promote.BitAnd, aInf, bInf), f.bin(promote.Eq, a, b)))
	aNaN, bNaN := f.un(promote.IsNaN, a), f.un(promote.IsNaN, b)
	out = f.bin(promote.BitAnd, out, f.un(promote.Not, f.bin(promote.BitOr, aNaN, bNaN)))
	if ca.equalNaN {
		out = f.bin(promote.BitOr, out, f.bin(promote.BitAnd, aNaN, bNaN))
	}
	return out
}

// torch is torch.isclose (aten/src/ATen/native/TensorCompare.cpp): tensors
// of one dtype, rtol and atol at least 0, then close = a == b (| isnan(a) &
// isnan(b) for floats and complex numbers with equal_nan); unless both
// tolerances are 0, a bool a and an integer or bool b become the default
// float, and
//
//	close | isfinite(actual) & (actual <= allowed)
//
// with allowed = atol + abs(rtol * b), actual = abs(a - b).
func (f *closeOps) torch(ca closeArgs, k *call) *operand {
	a, b := ca.a, ca.b
	for _, o := range []*operand{a, b} {
		if o.kind == LiteralValue {
			f.err = f.c.errorf(o.span(), "TypeError", "torch: %s() takes tensors (a Python number is not one)", k.name)
			return nil
		}
	}
	d := a.typ.DType
	switch {
	case d != b.typ.DType:
		f.err = f.c.errorf(k.sp, "RuntimeError", "torch: %s() needs a and b of one dtype (%s did not match %s)", k.name, d, b.typ.DType)
	case ca.rtol < 0 || ca.atol < 0:
		f.err = f.c.errorf(k.sp, "RuntimeError", "torch: rtol and atol must be greater than or equal to zero (%g and %g given)", ca.rtol, ca.atol)
	}
	if f.err != nil {
		return nil
	}
	close := f.bin(promote.Eq, a, b)
	if ca.equalNaN && d.IsInexact() {
		close = f.bin(promote.BitOr, close, f.bin(promote.BitAnd, f.un(promote.IsNaN, a), f.un(promote.IsNaN, b)))
	}
	if ca.rtol == 0 && ca.atol == 0 {
		return close
	}
	if !d.IsInexact() {
		t, err := f.c.policy.ArrayLiteral(promote.FloatScalar)
		if err != nil {
			f.err = f.c.promoteError(err, f.sp)
			return nil
		}
		if d == dtypes.Bool {
			a = f.as(a, dtypes.Strong(t.DType))
		}
		b = f.as(b, dtypes.Strong(t.DType))
	}
	allowed := f.bin(promote.Add, f.lit(ca.atol), f.un(promote.Abs, f.bin(promote.Mul, f.lit(ca.rtol), b)))
	actual := f.un(promote.Abs, f.bin(promote.Sub, a, b))
	return f.bin(promote.BitOr, close, f.bin(promote.BitAnd, f.un(promote.IsFinite, actual), f.bin(promote.Le, actual, allowed)))
}
