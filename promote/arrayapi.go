package promote

import (
	"fmt"

	"github.com/tensorsh/tensorsh/dtypes"
)

// The array-api policy: the Python Array API standard, version 2023.12,
// "Type Promotion Rules".
//
// Promotion is defined only within a kind: bool with bool; signed and
// unsigned ints (uint8 with int8 is int16; uint64 with a signed int is not
// defined); floats and complex (float32 with complex128 is complex128).
// Promotion between kinds (int with float, bool with int) is not defined,
// and this policy refuses it. A Python scalar is weak and must suit the
// array: a bool for a bool array, an int within range for an int array, an
// int or float for a real float array, any number for a complex array. The
// default dtypes (implementation-defined by the standard) are int64,
// float64 and complex128.

func init() {
	register("array-api", func() Policy { return arrayAPIPolicy{} })
}

type arrayAPIPolicy struct{}

const arrayAPIName = "array-api"

var arrayAPIDTypes = []dtypes.DType{
	dtypes.Bool, dtypes.I8, dtypes.I16, dtypes.I32, dtypes.I64,
	dtypes.U8, dtypes.U16, dtypes.U32, dtypes.U64,
	dtypes.F32, dtypes.F64, dtypes.C64, dtypes.C128,
}

func (arrayAPIPolicy) Name() string { return arrayAPIName }

func (arrayAPIPolicy) Title() string { return "Python Array API standard 2023.12" }

func (arrayAPIPolicy) DTypes() []dtypes.DType { return arrayAPIDTypes }

func (arrayAPIPolicy) Host() Host { return Python }

func (arrayAPIPolicy) Check(d dtypes.DType) (dtypes.DType, string, error) {
	if numpyHas(arrayAPIDTypes, d) {
		return d, "", nil
	}
	return dtypes.Invalid, "", Errorf(arrayAPIName, -1, "no dtype %s (the standard has bool, i8–i64, u8–u64, f32, f64, c64, c128)", d)
}

// arrayAPIPyDType is the default dtype of a Python scalar (uint64 for an int
// above int64, so that it can still meet a uint64 array).
func arrayAPIPyDType(v Scalar) (dtypes.DType, bool) { return numpyPyDType(v) }

// Literal gives a Python scalar its default dtype, weak.
func (arrayAPIPolicy) Literal(v Scalar) (dtypes.Type, error) {
	d, ok := arrayAPIPyDType(v)
	if !ok {
		return dtypes.Type{}, Errorf(arrayAPIName, 0, "Python int %s does not fit any integer dtype of the standard", v)
	}
	return dtypes.Weak(d), nil
}

// ArrayLiteral gives asarray's default dtype for a list of Python scalars.
func (arrayAPIPolicy) ArrayLiteral(k ScalarKind) (dtypes.Type, error) {
	return dtypes.Strong(numpyDefault(k)), nil
}

// Convert allows asarray(v, dtype=d) only where the standard's scalar rules
// allow v to meet an array of dtype d, and only for values that fit.
func (p arrayAPIPolicy) Convert(v Scalar, d dtypes.DType) error {
	if _, _, err := p.Check(d); err != nil {
		return err
	}
	if _, err := arrayAPIWeakWith(0, v.Kind, d); err != nil {
		return err
	}
	return numpyConvert(arrayAPIName, v, d, true, true)
}

// arrayAPIKind is the standard's kind of a dtype, for promotion.
func arrayAPIKind(d dtypes.DType) string {
	switch {
	case d == dtypes.Bool:
		return "bool"
	case d.IsInt():
		return "integer"
	}
	return "floating-point"
}

// arrayAPIPromote is the standard's promotion table; false where it
// defines none.
func arrayAPIPromote(a, b dtypes.DType) (dtypes.DType, bool) {
	if a == b {
		return a, true
	}
	if arrayAPIKind(a) != arrayAPIKind(b) || a == dtypes.Bool || b == dtypes.Bool {
		return dtypes.Invalid, false
	}
	if a.IsInt() {
		if a.IsSigned() == b.IsSigned() {
			return numpyWider(a, b), true
		}
		u, s := a, b
		if a.IsSigned() {
			u, s = b, a
		}
		switch {
		case s.Bits() > u.Bits():
			return s, true
		case u == dtypes.U64:
			return dtypes.Invalid, false
		}
		return numpySignedAbove(u), true
	}
	// float32, float64, complex64, complex128: the widest precision, complex
	// if either is.
	prec := numpyWider(a.Real(), b.Real())
	if a.IsComplex() || b.IsComplex() {
		return numpyComplexFor(prec), true
	}
	return prec, true
}

// arrayAPIWeakWith is the dtype a Python scalar of kind k meets an array of
// dtype d at, or the error blaming operand idx (the scalar).
func arrayAPIWeakWith(idx int, k ScalarKind, d dtypes.DType) (dtypes.DType, error) {
	ok := false
	switch k {
	case BoolScalar:
		ok = d == dtypes.Bool
	case IntScalar:
		ok = d != dtypes.Bool
	case FloatScalar:
		ok = d.IsInexact()
	case ComplexScalar:
		ok = d.IsComplex()
	}
	if !ok {
		return dtypes.Invalid, Errorf(arrayAPIName, idx, "mixing %s array with a Python %s is not defined by the standard", arrayAPIArticle(d), k)
	}
	return d, nil
}

// arrayAPIArticle describes the kind of d with its article ("an int").
func arrayAPIArticle(d dtypes.DType) string {
	switch {
	case d == dtypes.Bool:
		return "a bool"
	case d.IsInt():
		return "an int"
	case d.IsFloat():
		return "a real float"
	}
	return "a complex"
}

func (p arrayAPIPolicy) promote(a, b numpyArg) (dtypes.Type, string, error) {
	switch {
	case a.weak && b.weak:
		k := max(a.kind, b.kind)
		d := numpyDefault(k)
		return dtypes.Weak(d), fmt.Sprintf("both operands are Python scalars: Python arithmetic gives a Python %s", k), nil
	case a.weak || b.weak:
		w, s := a, b
		if b.weak {
			w, s = b, a
		}
		d, err := arrayAPIWeakWith(w.idx, w.kind, s.d)
		if err != nil {
			return dtypes.Type{}, "", err
		}
		if w.v != nil {
			if msg := numpyValueFits(*w.v, d); msg != "" {
				return dtypes.Type{}, "", Errorf(arrayAPIName, w.idx, "%s (the standard defines Python scalars only within the array dtype's range)", msg)
			}
		}
		return dtypes.Strong(d), fmt.Sprintf("a Python %s meets %s array: it takes the array's dtype %s", w.kind, arrayAPIArticle(s.d), d.FullName()), nil
	}
	d, ok := arrayAPIPromote(a.d, b.d)
	if !ok {
		why := "promotion between kinds is not defined by the standard"
		if arrayAPIKind(a.d) == arrayAPIKind(b.d) && a.d != dtypes.Bool && b.d != dtypes.Bool {
			why = "uint64 with a signed int has no common integer dtype in the standard"
		}
		return dtypes.Type{}, "", Errorf(arrayAPIName, -1, "mixing %s and %s is not defined: %s", a.d.FullName(), b.d.FullName(), why)
	}
	return dtypes.Strong(d), fmt.Sprintf("the standard's promotion table: %s with %s is %s", a.d.FullName(), b.d.FullName(), d.FullName()), nil
}

func (p arrayAPIPolicy) Binary(op BinaryOp, x, y Operand) (Result, error) {
	if op == Dot {
		// The standard's linear algebra functions are matmul, tensordot
		// and vecdot; there is no dot.
		return Result{}, noFunction(arrayAPIName, "the standard", "dot", "use a @ b (matmul), vecdot or tensordot")
	}
	a, err := numpyArgOf(arrayAPIName, arrayAPIDTypes, 0, x, arrayAPIPyDType)
	if err != nil {
		return Result{}, err
	}
	b, err := numpyArgOf(arrayAPIName, arrayAPIDTypes, 1, y, arrayAPIPyDType)
	if err != nil {
		return Result{}, err
	}
	if op.Class() == Logical {
		for _, o := range []numpyArg{a, b} {
			if o.kind != BoolScalar {
				return Result{}, Errorf(arrayAPIName, o.idx, "logical %s needs bool operands, got %s", op, o.d.FullName())
			}
		}
		return Result{Type: dtypes.Type{DType: dtypes.Bool, Weak: a.weak && b.weak}, Compute: dtypes.Bool, Rule: "logical " + op.String() + " of bools"}, nil
	}
	t, rule, err := p.promote(a, b)
	if err != nil {
		return Result{}, err
	}
	d := t.DType
	r := Result{Type: t, Compute: d, Rule: rule}
	need := func(ok bool, what string) error {
		if ok {
			return nil
		}
		return Errorf(arrayAPIName, -1, "%s needs %s operands; %s is not defined by the standard", op, what, d.FullName())
	}
	realNum := d != dtypes.Bool && !d.IsComplex()
	switch op.Class() {
	case Arith:
		switch op {
		case Where:
		case Maximum, Minimum, Clip:
			err = need(realNum, "real-valued")
		default:
			err = need(d != dtypes.Bool, "numeric")
		}
	case Div:
		if op == Arctan2 || op == Hypot {
			// The standard's atan2 and hypot: "Should have a real-valued
			// floating-point data type."
			err = need(d.IsFloat(), "real-valued floating-point")
			break
		}
		err = need(d.IsInexact(), "floating-point")
		if err != nil {
			err = Errorf(arrayAPIName, -1, "true division of %s arrays is implementation-defined in the standard (it defines / for floating-point dtypes only)", d.FullName())
		}
	case DivMod:
		err = need(realNum, "real-valued")
	case Compare:
		if op != Eq && op != Ne {
			err = need(realNum, "real-valued")
		}
		r.Type.DType = dtypes.Bool
		r.Rule += "; the comparison is made in " + d.FullName() + " and gives bool"
	case Bitwise:
		if op == Shl || op == Shr {
			err = need(d.IsInt(), "integer")
		} else {
			err = need(d == dtypes.Bool || d.IsInt(), "integer or bool")
		}
	}
	if err != nil {
		return Result{}, err
	}
	return r, nil
}

func (p arrayAPIPolicy) Unary(op UnaryOp, x Operand) (Result, error) {
	a, err := numpyArgOf(arrayAPIName, arrayAPIDTypes, 0, x, arrayAPIPyDType)
	if err != nil {
		return Result{}, err
	}
	d := a.d
	keep := a.weak && (op.Class() == SameType || op.Class() == BitNot || op.Class() == LogicalNot)
	res := func(out, compute dtypes.DType, rule string) (Result, error) {
		return Result{Type: dtypes.Type{DType: out, Weak: keep}, Compute: compute, Rule: rule}, nil
	}
	need := func(ok bool, what string) error {
		if ok {
			return nil
		}
		return Errorf(arrayAPIName, 0, "%s needs %s input; %s is not defined by the standard", op, what, d.FullName())
	}
	realNum := d != dtypes.Bool && !d.IsComplex()
	// The standard's elementwise functions
	// (https://data-apis.org/array-api/latest/API_specification/elementwise_functions.html):
	// there is no exp2; reciprocal (2024.12) takes floating-point only;
	// sign takes any numeric dtype, complex included.
	switch op {
	case Exp2:
		return Result{}, Errorf(arrayAPIName, 0, "the standard has no exp2 (write 2 ** x)")
	case Reciprocal:
		if err := need(d.IsInexact(), "a floating-point"); err != nil {
			return Result{}, err
		}
	}
	switch op.Class() {
	case SameType:
		if op == Relu {
			err = need(realNum, "a real-valued")
		} else {
			err = need(d != dtypes.Bool, "a numeric")
		}
		if err != nil {
			return Result{}, err
		}
		if op == Abs && d.IsComplex() {
			// The standard's abs: "If x has a complex floating-point data
			// type, the returned array must have a real-valued
			// floating-point data type whose precision matches the precision
			// of x (e.g., if x is complex128, then the returned array must
			// have a float64 data type)."
			return res(d.Real(), d, fmt.Sprintf("abs of %s gives the real dtype of its precision, %s", d.FullName(), d.Real().FullName()))
		}
		return res(d, d, "the operand's dtype")
	case BitNot:
		if err := need(d == dtypes.Bool || d.IsInt(), "an integer or bool"); err != nil {
			return Result{}, err
		}
		return res(d, d, "the operand's dtype")
	case LogicalNot:
		if err := need(d == dtypes.Bool, "a bool"); err != nil {
			return Result{}, err
		}
		return res(dtypes.Bool, dtypes.Bool, "logical_not of a bool")
	case FloatFn:
		err = need(d.IsInexact(), "a floating-point")
		if err == nil && d.IsComplex() && (op == Erf || op == Gelu) {
			err = need(false, "a real floating-point")
		}
		if err != nil {
			return Result{}, err
		}
		return res(d, d, "a floating-point operand keeps its dtype")
	case Rounding:
		if op == Round || op == RoundEven {
			err = need(d != dtypes.Bool, "a numeric")
		} else {
			err = need(realNum, "a real-valued")
		}
		if err != nil {
			return Result{}, err
		}
		return res(d, d, "rounding keeps the dtype (integers are returned unchanged)")
	case Predicate:
		if err := need(d != dtypes.Bool, "a numeric"); err != nil {
			return Result{}, err
		}
		return res(dtypes.Bool, d, op.String()+" gives bool")
	case SumProd:
		if err := need(d != dtypes.Bool, "a numeric"); err != nil {
			return Result{}, err
		}
		switch {
		case d.IsSigned() && d.Bits() < 64:
			return res(dtypes.I64, dtypes.I64, fmt.Sprintf("%s of %s gives the default integer dtype int64", op, d.FullName()))
		case d.IsUnsigned() && d.Bits() < 64:
			return res(dtypes.U64, dtypes.U64, fmt.Sprintf("%s of %s gives uint64, the unsigned int as wide as the default int64", op, d.FullName()))
		}
		return res(d, d, fmt.Sprintf("%s keeps %s", op, d.FullName()))
	case MeanOp:
		if err := need(d.IsFloat(), "a real floating-point"); err != nil {
			return Result{}, err
		}
		return res(d, d, "mean keeps "+d.FullName())
	case Extreme:
		if err := need(realNum, "a real-valued"); err != nil {
			return Result{}, err
		}
		return res(d, d, "the operand's dtype")
	case ArgOp:
		if err := need(realNum, "a real-valued"); err != nil {
			return Result{}, err
		}
		return res(dtypes.I64, d, op.String()+" gives the default index dtype int64")
	case BoolReduce:
		return res(dtypes.Bool, d, op.String()+" gives bool")
	case Cumulative:
		// cumulative_sum (2023.12) and cumulative_prod (2024.12): "If x
		// has a signed integer data type ... smaller than the default
		// integer data type, the returned array must have the default
		// integer data type"; unsigned likewise; otherwise x's dtype, as sum.
		if err := need(d != dtypes.Bool, "a numeric"); err != nil {
			return Result{}, err
		}
		name := map[UnaryOp]string{CumSum: "cumulative_sum", CumProd: "cumulative_prod"}[op]
		switch {
		case d.IsSigned() && d.Bits() < 64:
			return res(dtypes.I64, dtypes.I64, fmt.Sprintf("%s of %s gives the default integer dtype int64", name, d.FullName()))
		case d.IsUnsigned() && d.Bits() < 64:
			return res(dtypes.U64, dtypes.U64, fmt.Sprintf("%s of %s gives uint64, the unsigned int as wide as the default int64", name, d.FullName()))
		}
		return res(d, d, fmt.Sprintf("%s keeps %s", name, d.FullName()))
	case Moment:
		// var and std: "x: ... Should have a real-valued floating-point
		// data type"; the result has x's dtype.
		if err := need(d.IsFloat(), "a real floating-point"); err != nil {
			return Result{}, err
		}
		return res(d, d, op.String()+" keeps "+d.FullName())
	case Count:
		// count_nonzero (2024.12): "the returned array must have the
		// default array index data type".
		return res(dtypes.I64, d, "count_nonzero gives the default index dtype int64")
	}
	return Result{}, Errorf(arrayAPIName, -1, "unknown operation %s", op)
}
