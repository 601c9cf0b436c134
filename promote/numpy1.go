package promote

import (
	"fmt"
	"math"
	"math/big"

	"github.com/tensorsh/tensorsh/dtypes"
)

// The numpy1 policy: NumPy 1.24's legacy value-based promotion
// (refs/numpy1.json), what changed for users moving to NumPy 2.
//
// When an array meets a scalar (a Python scalar or a 0-d array) whose kind
// is not higher (bool < int < float = complex), the scalar's dtype is
// replaced by numpy.min_scalar_type of its value: the smallest dtype that
// holds it (300 → uint16, -1 → int8, 1e300 → float64, 1.5 → float16). A
// non-negative value that also fits the signed type of the same width is
// "small unsigned" and acts signed against signed, float and complex arrays
// (int8 + 1 stays int8). A scalar of a higher kind keeps its own dtype
// (int8 + 1.5 is float64). Two scalars promote by their dtypes.

func init() {
	register("numpy1", func() Policy { return numpy1Policy{} })
}

type numpy1Policy struct{}

var numpy1DTypes = []dtypes.DType{
	dtypes.Bool, dtypes.I8, dtypes.I16, dtypes.I32, dtypes.I64,
	dtypes.U8, dtypes.U16, dtypes.U32, dtypes.U64,
	dtypes.F16, dtypes.F32, dtypes.F64, dtypes.C64, dtypes.C128,
}

func (numpy1Policy) Name() string { return "numpy1" }

// SqrtPower: NumPy 1's fast_scalar_power (numpy/core/src/multiarray/
// number.c, 1.24) also computes a float or complex array ** 0.5 as sqrt
// (see numpyPolicy.SqrtPower).
func (numpy1Policy) SqrtPower() bool { return true }

func (numpy1Policy) Title() string { return "NumPy 1.24 (legacy value-based promotion)" }

func (numpy1Policy) DTypes() []dtypes.DType { return numpy1DTypes }

func (numpy1Policy) Host() Host { return Python }

func (numpy1Policy) Check(d dtypes.DType) (dtypes.DType, string, error) {
	if numpyHas(numpy1DTypes, d) {
		return d, "", nil
	}
	return dtypes.Invalid, "", Errorf("numpy1", -1, "no dtype %s (NumPy 1.24 has bool, i8–i64, u8–u64, f16, f32, f64, c64, c128)", d)
}

// Literal gives a Python scalar its NumPy dtype (int64, uint64 above int64,
// float64, complex128, bool), marked weak: it is still a Python scalar, and
// acts by value when it meets an array.
func (numpy1Policy) Literal(v Scalar) (dtypes.Type, error) {
	d, ok := numpyPyDType(v)
	if !ok {
		return dtypes.Type{}, Errorf("numpy1", 0, "Python int %s is too large for any NumPy integer dtype (NumPy 1.24 would make an object array)", v)
	}
	return dtypes.Weak(d), nil
}

// ArrayLiteral gives np.asarray's dtype for a list of Python scalars.
func (numpy1Policy) ArrayLiteral(k ScalarKind) (dtypes.Type, error) {
	return dtypes.Strong(numpyDefault(k)), nil
}

// Convert accepts any value NumPy 1.24 converts: out-of-range ints wrap
// (with a DeprecationWarning) and floats overflow to infinity silently.
func (p numpy1Policy) Convert(v Scalar, d dtypes.DType) error {
	if _, _, err := p.Check(d); err != nil {
		return err
	}
	return numpyConvert("numpy1", v, d, false, false)
}

func (p numpy1Policy) Binary(op BinaryOp, x, y Operand) (Result, error) {
	if op == Dot {
		return numpyDot(p, x, y)
	}
	a, err := numpyArgOf("numpy1", numpy1DTypes, 0, x, numpyPyDType)
	if err != nil {
		return Result{}, err
	}
	b, err := numpyArgOf("numpy1", numpy1DTypes, 1, y, numpyPyDType)
	if err != nil {
		return Result{}, err
	}
	sa, sb := a.rank == 0 || a.lit, b.rank == 0 || b.lit
	if op == Arctan2 || op == Hypot {
		// The loop search casts a scalar by its value (min_scalar_type)
		// when an array is of its kind or higher (numpy1WithScalar).
		loops := []dtypes.DType{a.d, b.d}
		for i, o := range []numpyArg{a, b} {
			arr := []numpyArg{b, a}[i]
			if sa != sb && (i == 0) == sa && o.v != nil && numpy1KindOrder(o.d) <= numpy1KindOrder(arr.d) {
				loops[i], _ = numpy1MinScalar(*o.v, o.d)
			}
		}
		return numpyFloatBinary("numpy1", op, loops, func() (Result, error) { return p.Binary(TrueDiv, x, y) })
	}
	var d dtypes.DType
	var rule string
	if sa == sb {
		d = numpyClassic(a.d, b.d)
		what := "two arrays"
		if sa {
			what = "two scalars"
		}
		rule = fmt.Sprintf("%s promote by their dtypes: numpy.promote_types(%s, %s) is %s", what, a.d.FullName(), b.d.FullName(), d.FullName())
	} else {
		arr, sc := a, b
		if sa {
			arr, sc = b, a
		}
		d, rule = numpy1WithScalar(arr.d, sc, numpy1LoopSearch(op))
	}
	t := dtypes.Type{DType: d, Weak: a.weak && b.weak}
	r, err := numpyUfunc("numpy1", op, t, rule)
	if err != nil {
		return Result{}, err
	}
	if err := numpyNegativePower("numpy1", op, r, b); err != nil {
		return Result{}, err
	}
	return r, nil
}

// numpy1LoopSearch reports whether NumPy 1.24 resolves op's loop by the
// linear search of its type list (PyUFunc_DefaultTypeResolver: floor_divide,
// remainder, power, the bitwise operations and shifts) rather than from
// result_type (add, subtract, multiply, maximum, minimum, comparisons).
func numpy1LoopSearch(op BinaryOp) bool {
	switch op {
	case FloorDiv, Mod, Pow, BitAnd, BitOr, BitXor, Shl, Shr:
		return true
	}
	return false
}

// numpy1WithScalar is NumPy 1's result_type of an array of dtype arr and a
// scalar sc (a Python scalar or a 0-d array), or with loopSearch the dtype
// of the first loop of the ufunc's list both can be cast to safely, the
// scalar by its value: they differ only where a positive scalar wider than
// an unsigned array also fits the signed type of its width, which comes
// first in the list (np.ones(2, np.uint8) // 256 is int16, + 256 uint16).
func numpy1WithScalar(arr dtypes.DType, sc numpyArg, loopSearch bool) (dtypes.DType, string) {
	what := "the Python " + sc.kind.String()
	if !sc.lit {
		what = "the 0-d " + sc.d.FullName() + " array"
	}
	if numpy1KindOrder(sc.d) > numpy1KindOrder(arr) || sc.v == nil {
		d := numpyClassic(arr, sc.d)
		why := "it is of a higher kind than the array, so it acts by its dtype"
		if sc.v == nil {
			why = "its value is unknown, so it acts by its dtype"
		}
		return d, fmt.Sprintf("%s is %s: %s; numpy.promote_types(%s, %s) is %s", what, sc.d.FullName(), why, arr.FullName(), sc.d.FullName(), d.FullName())
	}
	m, small := numpy1MinScalar(*sc.v, sc.d)
	rule := fmt.Sprintf("value-based casting: min_scalar_type(%s) is %s", sc.v, m.FullName())
	switch {
	case small && arr != dtypes.Bool && !arr.IsUnsigned():
		m = numpySignedOf(m)
		rule += fmt.Sprintf(", which also fits %s and so acts signed", m.FullName())
	case small && loopSearch && arr.IsUnsigned() && m.Bits() > arr.Bits():
		m = numpySignedOf(m)
		rule += fmt.Sprintf(", which also fits %s; the loop search takes that signed loop, which comes first and the %s array casts to", m.FullName(), arr.FullName())
	}
	d := numpyClassic(arr, m)
	return d, fmt.Sprintf("%s; %s with the %s array gives %s", rule, m.FullName(), arr.FullName(), d.FullName())
}

// numpy1KindOrder is NumPy 1's simplified kind order for value-based
// casting: bool 0, int 1, float and complex 2.
func numpy1KindOrder(d dtypes.DType) int {
	switch {
	case d == dtypes.Bool:
		return 0
	case d.IsInt():
		return 1
	}
	return 2
}

// numpy1MinScalar is numpy.min_scalar_type of value v held in dtype d, and
// whether the result is a "small unsigned" type (a non-negative value that
// also fits the signed type of its width).
func numpy1MinScalar(v Scalar, d dtypes.DType) (dtypes.DType, bool) {
	switch {
	case d == dtypes.Bool:
		return dtypes.Bool, false
	case d.IsInt():
		i := v.Int
		if i == nil {
			i = big.NewInt(0)
		}
		if i.Sign() >= 0 {
			for _, u := range []dtypes.DType{dtypes.U8, dtypes.U16, dtypes.U32, dtypes.U64} {
				if numpyIntFits(i, u) {
					return u, numpyIntFits(i, numpySignedOf(u))
				}
			}
			return d, false
		}
		for _, s := range []dtypes.DType{dtypes.I8, dtypes.I16, dtypes.I32} {
			if numpyIntFits(i, s) {
				return s, false
			}
		}
		return dtypes.I64, false
	case d.IsFloat():
		f := v.Float
		if v.Kind == IntScalar || v.Kind == BoolScalar {
			f, _ = numpyIntToFloat(v.Int)
		}
		switch {
		case d == dtypes.F16:
			return d, false
		case f > -65000 && f < 65000 || math.IsInf(f, 0) || math.IsNaN(f):
			// min_scalar_type_num (numpy/core/src/multiarray/
			// convert_datatype.c) takes a float that is not finite as
			// float16 too: np.min_scalar_type(np.inf) is float16, so
			// float32 + inf stays float32.
			return dtypes.F16, false
		case d == dtypes.F64 && f > -3.4e38 && f < 3.4e38:
			return dtypes.F32, false
		}
		return d, false
	}
	c := v.Complex
	switch v.Kind {
	case FloatScalar:
		c = complex(v.Float, 0)
	case IntScalar, BoolScalar:
		f, _ := numpyIntToFloat(v.Int)
		c = complex(f, 0)
	}
	if d == dtypes.C128 && real(c) > -3.4e38 && real(c) < 3.4e38 && imag(c) > -3.4e38 && imag(c) < 3.4e38 {
		return dtypes.C64, false
	}
	return d, false
}

func (p numpy1Policy) Unary(op UnaryOp, x Operand) (Result, error) {
	a, err := numpyArgOf("numpy1", numpy1DTypes, 0, x, numpyPyDType)
	if err != nil {
		return Result{}, err
	}
	return numpyUnary("numpy1", op, a, true)
}

// LegacyComplexSign reports that NumPy 1's sign of a complex number is
// sign(re) + 0j, or sign(im) + 0j when re is 0 (numpy 1.24
// loops.c.src, the CDOUBLE_sign loop), not NumPy 2's z/|z|. The dtype is
// the operand's either way; eval refuses the value, which tensorsh does
// not compute.
func (numpy1Policy) LegacyComplexSign() bool { return true }
