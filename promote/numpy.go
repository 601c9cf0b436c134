package promote

import (
	"fmt"
	"math"
	"math/big"
	"strings"

	"github.com/tensorsh/tensorsh/dtypes"
)

// The numpy policy: NumPy 2 with NEP 50 ("weak" Python scalars), plus the
// ml_dtypes extension types (bfloat16, float8) as the reference table has
// them (refs/numpy.json).
//
// NEP 50 in one paragraph: the dtypes of two arrays promote by
// numpy.promote_types; a Python bool, int, float or complex is weak: it takes
// the array's dtype when its kind is not higher (int8 + 1 is int8), else the
// lowest dtype of its own kind that holds the array (int8 + 1.5 is float64,
// float16 + 1j is complex64). Its value is then converted to the loop's
// dtype: a Python int must fit an integer dtype, while a value that
// overflows a float or complex dtype becomes inf with NumPy's RuntimeWarning.
//
// Arrays of an ml_dtypes type meeting a dtype numpy.promote_types has no
// answer for (float16 with bfloat16) still run a ufunc: NumPy searches the
// ufunc's loops (numpyLoopSearch). promote() (Where) keeps promote_types'
// error.
//
// This file also holds the value helpers (numpyIntFits, numpyOverflows, …)
// that jax, numpy1, torch and array-api share.

func init() {
	register("numpy", func() Policy { return numpyPolicy{} })
}

type numpyPolicy struct{}

// A ContextLiterals policy types a literal that its Literal refuses on its
// own from the operation the literal meets: front ends pass such a literal
// meeting a tensor to Binary, which decides. NumPy 2 does (NEP 50): a Python
// int beyond int64 and uint64 meeting a float array is converted to the
// array's dtype (f32(1) + 2**200 is float32 inf).
type ContextLiterals interface {
	Policy
	TypesLiteralsInContext()
}

// TypesLiteralsInContext marks numpy as a ContextLiterals policy.
func (numpyPolicy) TypesLiteralsInContext() {}

var numpyDTypes = []dtypes.DType{
	dtypes.Bool, dtypes.I8, dtypes.I16, dtypes.I32, dtypes.I64,
	dtypes.U8, dtypes.U16, dtypes.U32, dtypes.U64,
	dtypes.F16, dtypes.BF16, dtypes.F32, dtypes.F64, dtypes.C64, dtypes.C128,
	dtypes.F8E4M3, dtypes.F8E5M2,
}

const numpySetText = "bool, i8–i64, u8–u64, f16, bf16, f32, f64, c64, c128, f8e4m3, f8e5m2"

func (numpyPolicy) Name() string { return "numpy" }

// SqrtPower reports that NumPy computes a float or complex array to the
// power of the Python float 0.5 as its square root: ndarray.__pow__ tries
// fast_scalar_power first (numpy/_core/src/multiarray/number.c), which
// calls n_ops.sqrt for PyFloat_CheckExact(o2) && exp == 0.5 when the array
// is float or complex. The bits differ from pow's: (-0.0) ** 0.5 is -0.0
// and (-inf) ** 0.5 is nan, where np.power gives 0.0 and inf.
func (numpyPolicy) SqrtPower() bool { return true }

func (numpyPolicy) Title() string { return "NumPy 2 (NEP 50 weak Python scalars)" }

func (numpyPolicy) DTypes() []dtypes.DType { return numpyDTypes }

func (numpyPolicy) Host() Host { return Python }

func (numpyPolicy) Check(d dtypes.DType) (dtypes.DType, string, error) {
	if numpyHas(numpyDTypes, d) {
		return d, "", nil
	}
	return dtypes.Invalid, "", Errorf("numpy", -1, "no dtype %s (NumPy 2 with ml_dtypes has %s)", d, numpySetText)
}

// Literal gives a Python scalar its NumPy default dtype, weak: int64 (or
// uint64 for an int above int64, as np.asarray does), float64, complex128,
// bool.
func (numpyPolicy) Literal(v Scalar) (dtypes.Type, error) {
	d, ok := numpyPyDType(v)
	if !ok {
		return dtypes.Type{}, Errorf("numpy", 0, "Python int %s is too large for any NumPy integer dtype (np.asarray would make an object array)", v)
	}
	return dtypes.Weak(d), nil
}

// ArrayLiteral gives np.asarray's dtype for a list of Python scalars: strong.
func (numpyPolicy) ArrayLiteral(k ScalarKind) (dtypes.Type, error) {
	return dtypes.Strong(numpyDefault(k)), nil
}

func (p numpyPolicy) Convert(v Scalar, d dtypes.DType) error {
	if _, _, err := p.Check(d); err != nil {
		return err
	}
	return numpyConvert("numpy", v, d, true, true)
}

func (p numpyPolicy) Binary(op BinaryOp, x, y Operand) (Result, error) {
	if op == Dot {
		return numpyDot(p, x, y)
	}
	a, err := numpyArgOf("numpy", numpyDTypes, 0, x, numpyOperandPyDType)
	if err != nil {
		return Result{}, err
	}
	b, err := numpyArgOf("numpy", numpyDTypes, 1, y, numpyOperandPyDType)
	if err != nil {
		return Result{}, err
	}
	if op == Arctan2 || op == Hypot {
		// NEP 50: a Python scalar casts to any loop of its kind, so only
		// the arrays choose the loop.
		var loops []dtypes.DType
		for _, o := range []numpyArg{a, b} {
			if !o.weak {
				loops = append(loops, o.d)
			}
		}
		return numpyFloatBinary("numpy", op, loops, func() (Result, error) { return p.Binary(TrueDiv, x, y) })
	}
	for _, o := range []numpyArg{a, b} {
		if o.lit && o.v != nil && o.v.Kind == IntScalar && a.weak == b.weak {
			if _, ok := numpyPyDType(*o.v); !ok {
				return Result{}, Errorf("numpy", o.idx, "Python int %s is too large for any NumPy integer dtype (np.asarray would make an object array)", o.v)
			}
		}
	}
	if a.weak != b.weak {
		// NEP 50: a Python scalar meets an array.
		w, s := a, b
		if b.weak {
			w, s = b, a
		}
		d, rule := numpyWeakWith(w.kind, s.d)
		r, err := numpyUfunc("numpy", op, dtypes.Strong(d), rule)
		if err != nil {
			return Result{}, err
		}
		return numpyCheckWeak(op, r, w)
	}
	d, ok := numpyPromote(a.d, b.d)
	rule := "numpy.promote_types(" + a.d.FullName() + ", " + b.d.FullName() + ") is " + d.FullName()
	if !ok {
		if !numpySearchesLoops(op) || a.weak {
			return Result{}, numpyNoCommon("numpy", a.d, b.d)
		}
		if d, ok = numpyLoopSearch(a.d, b.d); !ok {
			return Result{}, numpyNoCommon("numpy", a.d, b.d)
		}
		rule = fmt.Sprintf("numpy.promote_types(%s, %s) has no answer, so the ufunc searches its loops for the first one both operands cast to safely: %s (ml_dtypes registers safe casts from its types only to float32, float64, complex64 and complex128)", a.d.FullName(), b.d.FullName(), d.FullName())
	}
	t := dtypes.Strong(d)
	if a.weak {
		t = dtypes.Weak(d)
		rule = "both operands are Python scalars: Python arithmetic, and the result stays a weak Python scalar"
	}
	r, err := numpyUfunc("numpy", op, t, rule)
	if err != nil {
		return Result{}, err
	}
	if err := numpyNegativePower("numpy", op, r, b); err != nil {
		return Result{}, err
	}
	return r, nil
}

// numpyCheckWeak applies NEP 50's value check to the weak operand w once
// the ufunc's loop (r.Compute) is known: the Python scalar is converted to
// that dtype and must fit it. Comparisons are exact for out-of-bound Python
// ints (NumPy 2 special-cases them), so they widen Compute instead.
func numpyCheckWeak(op BinaryOp, r Result, w numpyArg) (Result, error) {
	if w.v == nil {
		return r, nil
	}
	if op.Class() == Compare && w.v.Kind == IntScalar && (r.Compute.IsInt() || r.Compute == dtypes.Bool) && !numpyIntFits(w.v.Int, r.Compute) {
		r.Compute = numpyWidenForCompare(r.Compute, w.v.Int)
		r.Rule += fmt.Sprintf("; NumPy 2 compares the out-of-bounds Python int %s exactly (computed in %s)", w.v.Int, r.Compute.FullName())
		return r, nil
	}
	if w.v.Kind == IntScalar && r.Compute.IsInexact() {
		// FLOAT_setitem and the other NumPy float setitems convert a
		// Python int with MyPyFloat_AsDouble (float(int), correctly
		// rounded) and then cast: two roundings. ml_dtypes' setitem
		// (CastToCustomFloat) takes PyLong_AsLong, then
		// static_cast<float>, then T.
		r.IntVia = dtypes.F64
		if numpyIsML(r.Compute) {
			r.IntVia = dtypes.F32
		}
	}
	if numpyCastOverflows(*w.v, r.Compute) {
		r.Warning = fmt.Sprintf("RuntimeWarning: overflow encountered in cast (the Python %s %s %s in %s)", w.v.Kind, w.v, numpyOverflowWord(*w.v), r.Compute.FullName())
		r.Rule += fmt.Sprintf("; the Python %s overflows %s: it becomes inf with a RuntimeWarning (NEP 50 converts the scalar to the loop's dtype like a cast)", w.v.Kind, r.Compute.FullName())
	} else if msg := numpyValueFits(*w.v, r.Compute); msg != "" {
		return Result{}, Errorf("numpy", w.idx, "%s (NEP 50: a Python %s must fit the array's dtype)", msg, w.v.Kind)
	}
	if err := numpyNegativePower("numpy", op, r, w); err != nil {
		return Result{}, err
	}
	return r, nil
}

// numpyNegativePower reports NumPy's (and PyTorch's) error for an integer
// raised to a known negative integer power.
func numpyNegativePower(p string, op BinaryOp, r Result, exp numpyArg) error {
	if op != Pow || exp.v == nil || exp.idx != 1 || !r.Compute.IsInt() {
		return nil
	}
	if exp.v.Kind == IntScalar && exp.v.Int != nil && exp.v.Int.Sign() < 0 {
		return Errorf(p, 1, "integers to negative integer powers are not allowed (%s ** %s)", r.Compute.FullName(), exp.v)
	}
	return nil
}

// numpyOperandPyDType is numpyPyDType for an operand of a binary operation
// under NumPy 2: a Python int beyond int64 and uint64 is still a weak int
// there (NEP 50's abstract Python int), converted to the dtype of the loop
// (numpy/_core/src/multiarray/abstractdtypes.c, npy_update_operand_for_scalar
// writes the Python scalar into a 0-d array of the loop's dtype). Its
// stand-in dtype int64 only matters for its kind; numpyCheckWeak checks the
// value against the loop's dtype.
func numpyOperandPyDType(v Scalar) (dtypes.DType, bool) {
	if d, ok := numpyPyDType(v); ok {
		return d, true
	}
	return dtypes.I64, true
}

// numpyCastOverflows reports whether NumPy 2 converts the weak Python scalar
// v to float or complex dtype d with an overflow to infinity: the scalar is
// written into the loop's dtype (npy_update_operand_for_scalar →
// PyArray_SETITEM: a Python int through PyLong_AsDouble, then a C cast), and
// the cast's floating-point overflow flag is reported as
// "RuntimeWarning: overflow encountered in cast" (PyUFunc_GiveFloatingpointErrors
// with "cast"). The value becomes ±inf; the operation goes on. ml_dtypes'
// types convert Python ints through int64 instead and never warn.
func numpyCastOverflows(v Scalar, d dtypes.DType) bool {
	if !d.IsInexact() || numpyIsML(d) {
		return false
	}
	switch v.Kind {
	case IntScalar:
		f, ok := numpyIntToFloat(v.Int)
		return ok && numpyOverflows(f, d)
	case FloatScalar:
		return numpyOverflows(v.Float, d)
	case ComplexScalar:
		return d.IsComplex() && (numpyOverflows(real(v.Complex), d) || numpyOverflows(imag(v.Complex), d))
	}
	return false
}

// numpyOverflowWord says what an overflowing scalar becomes.
func numpyOverflowWord(v Scalar) string {
	switch {
	case v.Kind == ComplexScalar:
		return "overflows to infinity"
	case v.Kind == IntScalar && v.Int.Sign() < 0, v.Kind == FloatScalar && v.Float < 0:
		return "becomes -inf"
	}
	return "becomes inf"
}

// numpyWidenForCompare returns a dtype in which d's values and v compare
// exactly: the smallest signed int holding both, else uint64 when both are
// non-negative, else float64 (exact for v, approximate only for 64-bit
// values beyond 2**53).
func numpyWidenForCompare(d dtypes.DType, v *big.Int) dtypes.DType {
	lo, hi := d.IntRange()
	for _, c := range []dtypes.DType{dtypes.I16, dtypes.I32, dtypes.I64} {
		clo, chi := c.IntRange()
		if lo >= clo && hi <= chi && numpyIntFits(v, c) {
			return c
		}
	}
	if lo >= 0 && numpyIntFits(v, dtypes.U64) {
		return dtypes.U64
	}
	return dtypes.F64
}

func (p numpyPolicy) Unary(op UnaryOp, x Operand) (Result, error) {
	a, err := numpyArgOf("numpy", numpyDTypes, 0, x, numpyPyDType)
	if err != nil {
		return Result{}, err
	}
	return numpyUnary("numpy", op, a, false)
}

// numpyUnary applies NumPy's ufunc and reduction rules to one operand.
// legacy selects NumPy 1 (floor, ceil and trunc of ints give floats).
func numpyUnary(p string, op UnaryOp, a numpyArg, legacy bool) (Result, error) {
	d := a.d
	keep := a.weak && (op.Class() == SameType || op.Class() == BitNot || op.Class() == LogicalNot)
	res := func(out, compute dtypes.DType, rule string) (Result, error) {
		return Result{Type: dtypes.Type{DType: out, Weak: keep}, Compute: compute, Rule: rule}, nil
	}
	// numpy/_core/code_generators/generate_umath.py: sign has the loops
	// nobool_or_datetime; square and reciprocal have ints + inexact, so a
	// bool takes the first loop it casts to safely, int8. The integer
	// reciprocal loop (loops.c.src, @TYPE@_reciprocal) is 1.0/x converted
	// back to the integer dtype.
	switch {
	case op == Sign && d == dtypes.Bool:
		return Result{}, Errorf(p, 0, "ufunc 'sign' did not contain a loop with signature matching types bool -> None (sign has no bool loop)")
	case (op == Square || op == Reciprocal) && d == dtypes.Bool:
		return Result{Type: dtypes.Strong(dtypes.I8), Compute: dtypes.I8, Rule: fmt.Sprintf("%s has no bool loop: bool takes the first loop it casts to safely, int8", op)}, nil
	case op == Reciprocal && d.IsInt():
		return res(d, d, "reciprocal of an integer stays an integer: 1.0/x converted back (0 except at ±1; 1/0 is the minimum of a 32- or 64-bit signed dtype, else 0, on x86-64)")
	}
	switch op.Class() {
	case SameType:
		if d == dtypes.Bool && op == Neg {
			return Result{}, Errorf(p, 0, "the boolean negative, the `-` operator, is not supported; use ~ or logical_not instead")
		}
		if op == Abs && d.IsComplex() {
			// np.absolute's complex loops are F->f, D->d, computed by
			// simd_cabsolute wherever NumPy has SIMD loops (every x86-64
			// and ARM64 build; 1.24 on AVX-512 CPUs).
			r, err := res(d.Real(), d, "np.absolute of "+d.FullName()+" gives the real dtype of its precision, "+d.Real().FullName()+", as max(|re|, |im|)·√(1 + r²), r = min/max (NumPy's SIMD loop)")
			r.ScaledCAbs = true
			return r, err
		}
		r, err := res(d, d, "the operand's dtype")
		// scalarmath.c.src, @name@_ctype_negative and _absolute: -x of a
		// nonzero unsigned scalar, and -x and abs(x) of the minimum signed
		// one, report NPY_FPE_OVERFLOW.
		r.WarnScalarOverflow = d.IsInt() && (op == Neg || op == Abs)
		return r, err
	case BitNot:
		if d.IsInexact() {
			return Result{}, Errorf(p, 0, "~ (invert) needs an int or bool operand, got %s", d.FullName())
		}
		return res(d, d, "the operand's dtype")
	case LogicalNot:
		return res(dtypes.Bool, dtypes.Bool, "logical_not gives bool")
	case FloatFn:
		if d.IsComplex() && (op == Erf || op == Gelu) {
			return Result{}, Errorf(p, 0, "%s is not defined for complex (%s)", op, d.FullName())
		}
		f := numpyFloatFor(d)
		if f == d {
			return res(d, d, "a float operand keeps its dtype")
		}
		return res(f, f, op.String()+" of "+d.FullName()+" uses the first ufunc loop that holds it safely: "+f.FullName())
	case Rounding:
		if d.IsComplex() && op != Round && op != RoundEven {
			return Result{}, Errorf(p, 0, "%s is not supported for complex (%s)", op, d.FullName())
		}
		if legacy && (op == Floor || op == Ceil || op == Trunc) && !d.IsInexact() {
			f := numpyFloatFor(d)
			return res(f, f, "NumPy 1's "+op.String()+" has only float loops: "+d.FullName()+" computes in "+f.FullName())
		}
		return res(d, d, "rounding keeps the dtype (ints and bools are returned unchanged)")
	case Predicate:
		return res(dtypes.Bool, d, op.String()+" gives bool")
	case SumProd:
		switch {
		case d == dtypes.Bool || (d.IsSigned() && d.Bits() < 64):
			return res(dtypes.I64, dtypes.I64, op.String()+" of "+d.FullName()+" accumulates in the default int64")
		case d.IsUnsigned() && d.Bits() < 64:
			return res(dtypes.U64, dtypes.U64, op.String()+" of "+d.FullName()+" accumulates in uint64")
		}
		return res(d, d, op.String()+" keeps "+d.FullName())
	case MeanOp:
		switch {
		case d == dtypes.Bool || d.IsInt():
			return res(dtypes.F64, dtypes.F64, "mean of "+d.FullName()+" is float64")
		case d == dtypes.F16:
			return res(d, dtypes.F32, "mean of float16 is float16, computed with float32 intermediates")
		}
		return res(d, d, "mean keeps "+d.FullName())
	case Extreme, ArgOp:
		out, rule := d, "the operand's dtype"
		if op.Class() == ArgOp {
			out, rule = dtypes.I64, op.String()+" gives an intp (int64) index"
		}
		r, err := res(out, d, rule)
		if d.IsComplex() {
			// maximum.reduce runs the complex maximum loop (CGE); argmax is
			// arraytypes.c.src's @fname@_argmax, lexicographic with the
			// first NaN winning.
			r.ComplexOrder = ComplexNumPy
			r.Rule += "; complex numbers are ordered lexicographically (real part, then imaginary), and the first NaN wins"
		}
		return r, err
	case BoolReduce:
		return res(dtypes.Bool, d, op.String()+" gives bool")
	case Cumulative:
		// np.cumsum and np.cumprod are add.accumulate and multiply.accumulate
		// with the reduction's dtype (fromnumeric.py cumsum → _wrapfunc →
		// PyArray_CumSum, which takes _get_reduction_dtype's rtype): small
		// ints and bool accumulate in the default int, as sum does.
		switch {
		case d == dtypes.Bool || (d.IsSigned() && d.Bits() < 64):
			return res(dtypes.I64, dtypes.I64, op.String()+" of "+d.FullName()+" accumulates in the default int64, as sum does")
		case d.IsUnsigned() && d.Bits() < 64:
			return res(dtypes.U64, dtypes.U64, op.String()+" of "+d.FullName()+" accumulates in uint64, as sum does")
		}
		return res(d, d, op.String()+" keeps "+d.FullName()+", rounding after every step")
	case Moment:
		// numpy/_core/_methods.py _var: ints and bool are summed with
		// dtype f8; floats (float16 too: unlike _mean, _var has no
		// float32 path for it) are computed in their own dtype; complex
		// deviations are squared as re² + im², so the result is the real
		// dtype of the operand's precision.
		switch {
		case d == dtypes.Bool || d.IsInt():
			return res(dtypes.F64, dtypes.F64, op.String()+" of "+d.FullName()+" is float64 (_methods._var sums with dtype f8)")
		case d.IsComplex():
			return res(d.Real(), d, op.String()+" of "+d.FullName()+" is "+d.Real().FullName()+": the deviations are squared as re² + im²")
		}
		return res(d, d, op.String()+" keeps "+d.FullName())
	case Count:
		// numeric.py count_nonzero: multiarray.count_nonzero (intp) without
		// an axis, else a.astype(bool).sum(axis, dtype=np.intp).
		return res(dtypes.I64, d, "count_nonzero gives an intp (int64) count")
	}
	return Result{}, Errorf(p, -1, "unknown operation %s", op)
}

// numpyUfunc applies the ufunc rules of NumPy (both versions) for op to the
// promoted type t: bool loops, true division to float64, comparison results.
func numpyUfunc(p string, op BinaryOp, t dtypes.Type, rule string) (Result, error) {
	r := Result{Type: t, Compute: t.DType, Rule: rule}
	d := t.DType
	switch op.Class() {
	case Arith:
		if d.IsComplex() && (op == Maximum || op == Minimum) {
			// numpy/_core/src/umath/loops.c.src, @TYPE@_maximum: CGE/CLE,
			// lexicographic; a NaN part propagates.
			r.ComplexOrder = ComplexNumPy
			r.Rule += "; complex numbers are ordered lexicographically (real part, then imaginary), and a NaN propagates"
		}
		if d.IsInt() && (op == Add || op == Sub || op == Mul) {
			// numpy/_core/src/umath/scalarmath.c.src, @name@_ctype_add,
			// _subtract, _multiply: scalars report NPY_FPE_OVERFLOW when
			// the result wraps (power and shifts do not); array loops
			// wrap silently.
			r.WarnScalarOverflow = true
		}
		if d == dtypes.Bool {
			switch op {
			case Sub:
				return Result{}, Errorf(p, -1, "boolean subtract, the `-` operator, is not supported; use ^ (bitwise_xor) or logical_xor instead")
			case Pow:
				r.Type.DType, r.Compute = dtypes.I8, dtypes.I8
				r.Rule += "; power has no bool loop, so bools compute in int8"
			}
		}
	case Div:
		if d == dtypes.Bool || d.IsInt() {
			r.Type.DType, r.Compute = dtypes.F64, dtypes.F64
			r.Rule += "; true division of " + d.FullName() + " computes in float64"
		}
	case DivMod:
		if d.IsComplex() {
			return Result{}, Errorf(p, -1, "%s is not supported for complex (%s)", op, d.FullName())
		}
		if d == dtypes.Bool {
			r.Type.DType, r.Compute = dtypes.I8, dtypes.I8
			r.Rule += fmt.Sprintf("; %s has no bool loop, so bools compute in int8", op)
		}
		if r.Compute.IsInt() {
			// loops_arithmetic / loops_modulo: a zero divisor gives 0 and
			// sets the divide-by-zero status, MIN // -1 the overflow one.
			r.WarnIntDiv = true
			r.Rule += "; an integer divisor of 0 gives 0 with a RuntimeWarning"
		}
	case Compare:
		r.Type.DType = dtypes.Bool
		r.Rule += "; the comparison is made in " + d.FullName() + " and gives bool"
		if d.IsComplex() && op != Eq && op != Ne {
			// numpy/_core/src/umath/loops.c.src, CLT, CLE, CGT, CGE:
			// lexicographic; the real parts decide only where neither
			// imaginary part is NaN.
			r.ComplexOrder = ComplexNumPy
			r.Rule += "; complex numbers are ordered lexicographically (real part, then imaginary)"
		}
	case Bitwise:
		if d.IsInexact() {
			return Result{}, Errorf(p, -1, "%s needs int or bool operands, got %s", op, d.FullName())
		}
		if d == dtypes.Bool && (op == Shl || op == Shr) {
			r.Type.DType, r.Compute = dtypes.I8, dtypes.I8
			r.Rule += fmt.Sprintf("; %s has no bool loop, so bools compute in int8", op)
		}
	case Logical:
		r.Type.DType, r.Compute = dtypes.Bool, dtypes.Bool
		r.Rule += "; logical " + op.String() + " gives bool"
	}
	return r, nil
}

// numpyWeakWith is NEP 50: the dtype that a Python scalar of kind k meets
// an array of dtype d at, and why.
func numpyWeakWith(k ScalarKind, d dtypes.DType) (dtypes.DType, string) {
	switch k {
	case BoolScalar:
		return d, "NEP 50: a Python bool takes the array's dtype " + d.FullName()
	case IntScalar:
		if d == dtypes.Bool {
			return dtypes.I64, "NEP 50: a Python int with a bool array gives the default int64"
		}
		return d, "NEP 50: a Python int takes the array's dtype " + d.FullName()
	case FloatScalar:
		switch {
		case d == dtypes.Bool || d.IsInt():
			return dtypes.F64, "NEP 50: a Python float with an " + numpyKindWord(d) + " array gives float64"
		case d == dtypes.BF16 || d.IsFloat8():
			return dtypes.F32, "ml_dtypes: a Python float with " + d.FullName() + " gives float32"
		}
		return d, "NEP 50: a Python float takes the array's dtype " + d.FullName()
	default:
		switch {
		case d.IsComplex():
			return d, "NEP 50: a Python complex takes the array's dtype " + d.FullName()
		case d == dtypes.F64 || d == dtypes.Bool || d.IsInt():
			return dtypes.C128, "NEP 50: a Python complex with a " + d.FullName() + " array gives complex128"
		}
		return dtypes.C64, "NEP 50: a Python complex with a " + d.FullName() + " array gives complex64, the complex type that keeps its precision"
	}
}

// numpyKindWord describes a dtype's kind for messages ("int", "bool").
func numpyKindWord(d dtypes.DType) string {
	switch {
	case d == dtypes.Bool:
		return "bool"
	case d.IsInt():
		return "int"
	case d.IsFloat():
		return "float"
	}
	return "complex"
}

// numpyNoCommon is the error for two dtypes without a common dtype.
func numpyNoCommon(p string, a, b dtypes.DType) error {
	return Errorf(p, -1, "%s and %s have no common dtype (DTypePromotionError: ml_dtypes defines no promotion between them)", a.FullName(), b.FullName())
}

// numpyPromote is numpy.promote_types over NumPy 2's dtypes, ml_dtypes'
// bfloat16 and float8 included.
func numpyPromote(a, b dtypes.DType) (dtypes.DType, bool) {
	if numpyIsML(b) && !numpyIsML(a) {
		a, b = b, a
	}
	if numpyIsML(a) {
		return numpyMLPromote(a, b)
	}
	return numpyClassic(a, b), true
}

func numpyIsML(d dtypes.DType) bool { return d == dtypes.BF16 || d.IsFloat8() }

// numpySearchesLoops reports whether op is a ufunc call whose loop NumPy
// finds by its legacy linear search when an operand has an ml_dtypes type:
// the elementwise arithmetic, comparison and logical ufuncs. where, clip
// and matmul keep numpy.promote_types' answer (and its error).
func numpySearchesLoops(op BinaryOp) bool {
	switch op {
	case Where, Clip, MatMul:
		return false
	}
	return true
}

// numpyLoopOrder is the order of the builtin loops of NumPy's binary ufuncs
// (np.add.types: ??, bb, BB, hh, HH, ii, II, ll, LL, qq, QQ, ee, ff, dd, gg,
// FF, DD, GG), over tensorsh's dtypes.
var numpyLoopOrder = []dtypes.DType{
	dtypes.Bool, dtypes.I8, dtypes.U8, dtypes.I16, dtypes.U16, dtypes.I32, dtypes.U32,
	dtypes.I64, dtypes.U64, dtypes.F16, dtypes.F32, dtypes.F64, dtypes.C64, dtypes.C128,
}

// numpyLoopSearch is the loop dtype NumPy's ufuncs pick for arrays of
// dtypes a and b when an operand has an ml_dtypes type (a legacy user
// dtype). numpy/_core/src/umath/ufunc_type_resolution.c: the type resolver
// sends custom dtypes to PyUFunc_DefaultTypeResolver, whose
// linear_search_type_resolver tries first the loops registered for the
// operands' user dtypes, in operand order (ml_dtypes' RegisterFloatUFuncs
// registers one (T, T) loop per ufunc), then the builtin loops in order,
// and takes the first loop that every input casts to safely. It reports
// false when no loop fits.
func numpyLoopSearch(a, b dtypes.DType) (dtypes.DType, bool) {
	for _, d := range []dtypes.DType{a, b} {
		if numpyIsML(d) && numpySafeCast(a, d) && numpySafeCast(b, d) {
			return d, true
		}
	}
	for _, d := range numpyLoopOrder {
		if numpySafeCast(a, d) && numpySafeCast(b, d) {
			return d, true
		}
	}
	return dtypes.Invalid, false
}

// numpySafeCast is np.can_cast(from, to, "safe") over NumPy 2's dtypes and
// ml_dtypes' types. ml_dtypes (ml_dtypes/_src/custom_float.h,
// RegisterFloatCasts) registers safe casts from each of its types to
// float32, float64, complex64 and complex128, and from bool, int8 and uint8
// to it; its casts between its own types and to or from other builtin
// dtypes are registered as casts only (PyArray_RegisterCastFunc), which
// NumPy counts as unsafe. Builtin dtypes cast safely where
// numpy.promote_types gives the target.
func numpySafeCast(from, to dtypes.DType) bool {
	switch {
	case from == to:
		return true
	case numpyIsML(from):
		return to == dtypes.F32 || to == dtypes.F64 || to.IsComplex()
	case numpyIsML(to):
		return from == dtypes.Bool || from == dtypes.I8 || from == dtypes.U8
	}
	return numpyClassic(from, to) == to
}

// numpyMLPromote holds ml_dtypes' promotion rules for its type ml with d:
// it absorbs bool, int8 and uint8, gives way to float32 and wider, and
// float8_e5m2 (a subset of float16) also meets 16- and 32-bit types at the
// float that holds them. Everything else has no common dtype.
func numpyMLPromote(ml, d dtypes.DType) (dtypes.DType, bool) {
	switch {
	case ml == d:
		return ml, true
	case d == dtypes.Bool || d == dtypes.I8 || d == dtypes.U8:
		return ml, true
	case d == dtypes.F32 || d == dtypes.F64 || d.IsComplex():
		return d, true
	case ml == dtypes.F8E5M2 && (d == dtypes.I16 || d == dtypes.U16 || d == dtypes.F16):
		return dtypes.F32, true
	case ml == dtypes.F8E5M2 && d.IsInt():
		return dtypes.F64, true
	}
	return dtypes.Invalid, false
}

// numpyClassic is numpy.promote_types over the builtin dtypes: the smallest
// dtype both can be cast to safely (uint64 with a signed int is float64).
func numpyClassic(a, b dtypes.DType) dtypes.DType {
	if a == b || b == dtypes.Bool {
		return a
	}
	if a == dtypes.Bool {
		return b
	}
	if numpyCategory(a) > numpyCategory(b) {
		a, b = b, a
	}
	switch {
	case a.IsInt() && b.IsInt():
		if a.IsSigned() == b.IsSigned() {
			return numpyWider(a, b)
		}
		u, s := a, b
		if a.IsSigned() {
			u, s = b, a
		}
		if s.Bits() > u.Bits() {
			return s
		}
		return numpySignedAbove(u)
	case a.IsInt() && b.IsFloat():
		return numpyWider(numpyFloatFor(a), b)
	case a.IsInt():
		return numpyWider(numpyComplexFor(numpyFloatFor(a)), b)
	case a.IsFloat() && b.IsFloat():
		return numpyWider(a, b)
	case a.IsFloat():
		return numpyWider(numpyComplexFor(a), b)
	}
	return numpyWider(a, b)
}

// numpyCategory orders the kinds: bool < int < float < complex.
func numpyCategory(d dtypes.DType) int {
	switch {
	case d == dtypes.Bool:
		return 0
	case d.IsInt():
		return 1
	case d.IsFloat():
		return 2
	}
	return 3
}

func numpyWider(a, b dtypes.DType) dtypes.DType {
	if b.Bits() > a.Bits() {
		return b
	}
	return a
}

// numpySignedAbove is the smallest signed int holding unsigned u (float64
// for uint64).
func numpySignedAbove(u dtypes.DType) dtypes.DType {
	switch u {
	case dtypes.U8:
		return dtypes.I16
	case dtypes.U16:
		return dtypes.I32
	case dtypes.U32:
		return dtypes.I64
	}
	return dtypes.F64
}

// numpySignedOf is the signed int of the same width as unsigned u.
func numpySignedOf(u dtypes.DType) dtypes.DType {
	switch u {
	case dtypes.U8:
		return dtypes.I8
	case dtypes.U16:
		return dtypes.I16
	case dtypes.U32:
		return dtypes.I32
	case dtypes.U64:
		return dtypes.I64
	}
	return u
}

// numpyFloatFor is the float loop NumPy picks for a float-producing ufunc on
// d: the smallest of float16 < float32 < float64 that holds d exactly (bool
// and 8-bit ints: float16; 16-bit: float32; wider: float64). Inexact dtypes
// are returned unchanged.
func numpyFloatFor(d dtypes.DType) dtypes.DType {
	if d.IsInexact() {
		return d
	}
	switch d.Bits() {
	case 8:
		return dtypes.F16
	case 16:
		return dtypes.F32
	}
	return dtypes.F64
}

// numpyFloatBinary is arctan2 and hypot (generate_umath.py: loops 'efdg'
// only, TD(flts)): the ufunc takes the first of float16, float32, float64
// that every operand in loops casts to safely (numpyFloatFor of each,
// the widest wins). With a float operand that is promote_types, which is
// true division's answer; complex operands have no loop.
func numpyFloatBinary(p string, op BinaryOp, loops []dtypes.DType, div func() (Result, error)) (Result, error) {
	r, err := div()
	if err != nil {
		return Result{}, err
	}
	if r.Compute.IsComplex() {
		return Result{}, Errorf(p, -1, "ufunc '%s' not supported for the input types (it has float loops only, not complex)", op)
	}
	inexact := false
	for _, d := range loops {
		inexact = inexact || d.IsInexact()
	}
	if len(loops) == 0 || inexact {
		r.Rule += fmt.Sprintf("; %s has float loops only (efdg), and this is the first one both operands cast to safely", op)
		return r, nil
	}
	f := dtypes.F16
	var names []string
	for _, d := range loops {
		if g := numpyFloatFor(d); g.Bits() > f.Bits() {
			f = g
		}
		names = append(names, d.FullName())
	}
	// r keeps true division's conversion of a Python scalar (IntVia).
	r.Type, r.Compute = dtypes.Strong(f), f
	r.Rule = fmt.Sprintf("%s has float loops only (efdg): the first one that %s cast to safely is %s", op, strings.Join(names, " and "), f.FullName())
	if len(names) == 1 {
		r.Rule += " (a Python scalar casts to any float loop, NEP 50)"
	}
	return r, nil
}

// numpyComplexFor is the smallest complex dtype that holds float f.
func numpyComplexFor(f dtypes.DType) dtypes.DType {
	if f == dtypes.F64 {
		return dtypes.C128
	}
	return dtypes.C64
}

// numpyDefault is the default dtype of a Python scalar kind in NumPy.
func numpyDefault(k ScalarKind) dtypes.DType {
	switch k {
	case BoolScalar:
		return dtypes.Bool
	case IntScalar:
		return dtypes.I64
	case FloatScalar:
		return dtypes.F64
	}
	return dtypes.C128
}

// numpyPyDType is the dtype np.asarray gives a Python scalar: int64, or
// uint64 for an int beyond int64; false for an int beyond both.
func numpyPyDType(v Scalar) (dtypes.DType, bool) {
	if v.Kind == IntScalar {
		switch {
		case numpyIntFits(v.Int, dtypes.I64):
			return dtypes.I64, true
		case numpyIntFits(v.Int, dtypes.U64):
			return dtypes.U64, true
		}
		return dtypes.Invalid, false
	}
	return numpyDefault(v.Kind), true
}

// A numpyArg is an operand as the value-aware policies (numpy, numpy1,
// torch, array-api) see it.
type numpyArg struct {
	idx  int          // operand index, for blame
	d    dtypes.DType // its dtype (a literal's: from its value)
	weak bool         // a Python scalar (literal) or a weak value
	lit  bool
	kind ScalarKind // the Python kind of a weak operand
	v    *Scalar    // the value, when known
	rank int
}

// numpyArgOf checks operand o against the policy's dtype set and describes
// it. A literal's dtype comes from its value through pyDType.
func numpyArgOf(p string, set []dtypes.DType, idx int, o Operand, pyDType func(Scalar) (dtypes.DType, bool)) (numpyArg, error) {
	a := numpyArg{idx: idx, d: o.Type.DType, weak: o.Literal || o.Type.Weak, lit: o.Literal, v: o.Value, rank: o.Rank}
	if o.Literal && o.Value != nil {
		d, ok := pyDType(*o.Value)
		if !ok {
			return a, Errorf(p, idx, "Python int %s does not fit any dtype of %s (it is outside int64 and uint64)", o.Value, p)
		}
		a.d = d
		a.kind = o.Value.Kind
		return a, nil
	}
	if !numpyHas(set, a.d) {
		return a, Errorf(p, idx, "no dtype %s in %s", a.d, p)
	}
	a.kind = numpyKindOf(a.d)
	return a, nil
}

// numpyKindOf is the Python scalar kind of dtype d.
func numpyKindOf(d dtypes.DType) ScalarKind {
	switch {
	case d == dtypes.Bool:
		return BoolScalar
	case d.IsInt():
		return IntScalar
	case d.IsFloat():
		return FloatScalar
	}
	return ComplexScalar
}

// numpyHas reports whether d is in set.
func numpyHas(set []dtypes.DType, d dtypes.DType) bool {
	for _, s := range set {
		if s == d {
			return true
		}
	}
	return false
}

// numpyIntFits reports whether integer v is in the range of integer (or
// bool) dtype d.
func numpyIntFits(v *big.Int, d dtypes.DType) bool {
	if v == nil {
		return true
	}
	// Every dtype's range lies within [MinInt64, MaxUint64], so a value
	// outside both int64 and uint64 fits none, and the others compare as
	// machine integers (no big.Int per call: this runs for every literal).
	lo, hi := d.IntRange()
	switch {
	case v.IsInt64():
		x := v.Int64()
		return x >= lo && (x < 0 || uint64(x) <= hi)
	case v.IsUint64():
		return v.Uint64() <= hi // v > MaxInt64 ≥ lo
	}
	return false
}

// numpyOverflowLimit is the smallest magnitude that rounds past the largest
// finite value of float format d (the real part of a complex d) under
// round-to-nearest-even: (2 − 2^−(m+1))·2^emax for IEEE formats; 464 for
// float8_e4m3fn (largest 448, no infinity); +Inf for float64.
func numpyOverflowLimit(d dtypes.DType) float64 {
	r := d.Real()
	switch r {
	case dtypes.F64:
		return math.Inf(1)
	case dtypes.F8E4M3:
		return 464
	}
	m, e := r.MantissaBits(), r.ExponentBits()
	emax := 1<<(e-1) - 1
	return math.Ldexp(2-math.Ldexp(1, -(m+1)), emax)
}

// numpyOverflows reports whether the finite value f becomes infinite (or
// NaN) when rounded to float format d.
func numpyOverflows(f float64, d dtypes.DType) bool {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return false
	}
	return math.Abs(f) >= numpyOverflowLimit(d)
}

// numpyIntToFloat converts v to the nearest float64 (as Python's float(v)
// does); ok is false when it is too large for float64.
func numpyIntToFloat(v *big.Int) (float64, bool) {
	if v == nil {
		return 0, true
	}
	f, _ := new(big.Float).SetInt(v).Float64()
	return f, !math.IsInf(f, 0)
}

// numpyValueFits checks that a weak scalar v converts to dtype d the way
// NumPy 2 converts it: ints must be in range, and the conversion to a float
// format must not overflow (NumPy's "overflow encountered in cast", an error
// in the reference tables). ml_dtypes converts Python ints through int64.
// It returns "" when v fits, else the reason.
func numpyValueFits(v Scalar, d dtypes.DType) string {
	switch v.Kind {
	case BoolScalar:
		return ""
	case IntScalar:
		switch {
		case d.IsInt() || d == dtypes.Bool:
			if !numpyIntFits(v.Int, d) {
				return fmt.Sprintf("Python int %s is out of bounds for %s", v.Int, d.FullName())
			}
		case numpyIsML(d):
			if !numpyIntFits(v.Int, dtypes.I64) {
				return fmt.Sprintf("Python int %s cannot be converted to %s (ml_dtypes converts Python ints through int64)", v.Int, d.FullName())
			}
		default:
			f, ok := numpyIntToFloat(v.Int)
			if !ok {
				return fmt.Sprintf("Python int %s is too large to convert to float", v.Int)
			}
			if numpyOverflows(f, d) {
				return fmt.Sprintf("Python int %s overflows %s (overflow encountered in cast)", v.Int, d.FullName())
			}
		}
	case FloatScalar:
		if d.IsInexact() && numpyOverflows(v.Float, d) {
			return fmt.Sprintf("Python float %s overflows %s (overflow encountered in cast)", v, d.FullName())
		}
	case ComplexScalar:
		if d.IsComplex() && (numpyOverflows(real(v.Complex), d) || numpyOverflows(imag(v.Complex), d)) {
			return fmt.Sprintf("Python complex %s overflows %s (overflow encountered in cast)", v, d.FullName())
		}
	}
	return ""
}

// numpyConvert checks an explicit conversion of literal v to dtype d, as
// in i8(300). intStrict makes an int out of the dtype's range an error
// (NumPy 2, PyTorch, JAX); floatStrict makes a float conversion that
// overflows or is invalid an error (NumPy 2 warns, and the reference tables
// count such warnings as errors; PyTorch raises). Complex values never
// convert to a real dtype.
func numpyConvert(p string, v Scalar, d dtypes.DType, intStrict, floatStrict bool) error {
	if d == dtypes.Bool {
		return nil
	}
	if v.Kind == ComplexScalar && !d.IsComplex() {
		return Errorf(p, 0, "cannot convert complex %s to %s", v, d.FullName())
	}
	if d.IsInt() {
		switch v.Kind {
		case IntScalar:
			if !numpyIntFits(v.Int, dtypes.I64) && !numpyIntFits(v.Int, dtypes.U64) {
				return Errorf(p, 0, "Python int %s is too large to convert to %s", v.Int, d.FullName())
			}
			if intStrict && !numpyIntFits(v.Int, d) {
				return Errorf(p, 0, "Python int %s is out of bounds for %s", v.Int, d.FullName())
			}
		case FloatScalar:
			if !floatStrict {
				return nil
			}
			f := math.Trunc(v.Float)
			lo, hi := d.IntRange()
			if math.IsNaN(f) || f < float64(lo) || f >= float64(hi)+1 {
				return Errorf(p, 0, "float %s cannot be converted to %s (invalid value encountered in cast)", v, d.FullName())
			}
		}
		return nil
	}
	switch v.Kind {
	case IntScalar:
		f, ok := numpyIntToFloat(v.Int)
		if !ok {
			return Errorf(p, 0, "Python int %s is too large to convert to float", v.Int)
		}
		if floatStrict && numpyOverflows(f, d) {
			return Errorf(p, 0, "Python int %s overflows %s (overflow encountered in cast)", v.Int, d.FullName())
		}
	case FloatScalar:
		if floatStrict && numpyOverflows(v.Float, d) {
			return Errorf(p, 0, "float %s overflows %s (overflow encountered in cast)", v, d.FullName())
		}
	case ComplexScalar:
		if floatStrict && (numpyOverflows(real(v.Complex), d) || numpyOverflows(imag(v.Complex), d)) {
			return Errorf(p, 0, "complex %s overflows %s (overflow encountered in cast)", v, d.FullName())
		}
	}
	return nil
}
