package promote

// Helpers for the everyday functions that not every system has: cumsum,
// cumprod, var, std, count_nonzero and dot.

import "github.com/tensorsh/tensorsh/dtypes"

// noFunction is the error for a function fn that the system's library lib
// lacks (the error names the policy), with what to write instead.
func noFunction(p, lib, fn, instead string) *Error {
	msg := lib + " has no " + fn
	if instead != "" {
		msg += "; " + instead
	}
	return Errorf(p, -1, "%s", msg)
}

// dotAsMatMul answers dot for a system whose dot promotes as its matmul.
func dotAsMatMul(p Policy, lib string, x, y Operand) (Result, error) {
	r, err := p.Binary(MatMul, x, y)
	if err != nil {
		return Result{}, err
	}
	r.Rule = lib + " promotes as matmul: " + r.Rule
	return r, nil
}

// DefaultDDOF returns the delta degrees of freedom var and std use when the
// call gives none: 0, NumPy's ddof=0 and the Array API's correction=0, or
// the policy's own default (torch.var and torch.std: correction=1).
func DefaultDDOF(p Policy) int {
	if d, ok := p.(interface{ defaultDDOF() int }); ok {
		return d.defaultDDOF()
	}
	return 0
}

// defaultDDOF is torch.var's: aten/src/ATen/native/ReduceOps.cpp
// std_var_all_cpu and std_var_out take correction_opt.value_or(1).
func (torchPolicy) defaultDDOF() int { return 1 }

// numpyDot is np.dot in NumPy 2 and 1: PyArray_MatrixProduct2
// (numpy/_core/src/multiarray/multiarraymodule.c) takes the common type
// with PyArray_ObjectType, which reads a Python scalar as the array it
// would make (int as int64, float as float64, complex as complex128, bool
// as bool) and a 0-d array by its dtype: promote_types, with neither NEP 50
// weak scalars nor value-based casting. The operands are converted to it,
// as matmul's are.
func numpyDot(p Policy, x, y Operand) (Result, error) {
	strong := func(o Operand) Operand {
		if o.Literal || o.Type.Weak {
			switch {
			case o.Value != nil && o.Value.Kind == BoolScalar:
				o.Type = dtypes.Strong(dtypes.Bool)
			case o.Value != nil && o.Value.Kind == IntScalar:
				o.Type = dtypes.Strong(dtypes.I64)
			case o.Value != nil && o.Value.Kind == FloatScalar:
				o.Type = dtypes.Strong(dtypes.F64)
			case o.Value != nil && o.Value.Kind == ComplexScalar:
				o.Type = dtypes.Strong(dtypes.C128)
			default:
				o.Type.Weak = false
			}
		}
		o.Literal, o.Value, o.Rank = false, nil, max(o.Rank, 1)
		return o
	}
	r, err := p.Binary(MatMul, strong(x), strong(y))
	if err != nil {
		return Result{}, err
	}
	r.Rule = "np.dot takes promote_types of the operands' dtypes (PyArray_ObjectType: a Python int is int64, a float float64), no weak scalars: " + r.Rule
	return r, nil
}

// StdAfterRounding reports whether std takes the square root of var's
// result rounded to the result dtype (NumPy: numpy/_core/_methods.py _std
// applies um.sqrt to what _var returns, already cast back to float16;
// jax.numpy: std is lax.sqrt(var(...)), var already cast to its dtype) or,
// when false, in the computation dtype before rounding once (torch: the
// std_var kernel takes the square root in its accumulation type). It
// matters only where the two dtypes differ (float16, bfloat16).
func StdAfterRounding(p Policy) bool {
	if d, ok := p.(interface{ stdAfterRounding() bool }); ok {
		return d.stdAfterRounding()
	}
	return true
}

// stdAfterRounding is torch's: aten/src/ATen/native/cpu/ReduceOpsKernel.cpp
// std_var_kernel_impl projects WelfordOps with take_sqrt in the
// accumulation type (float for half and bfloat16), then casts.
func (torchPolicy) stdAfterRounding() bool { return false }

// NoDOF says what var and std (op) give where n - ddof <= 0: whether the
// result is always NaN (jax.numpy: reductions.py _var takes
// _where(normalizer > 0, result, nan)) rather than the sum of squares
// divided by 0 (NumPy, torch: inf, or NaN for 0/0), and the warning the
// library gives, if any (numpy/_core/_methods.py _var: "Degrees of
// freedom <= 0 for slice").
func NoDOF(p Policy, op UnaryOp) (nan bool, warning string) {
	if d, ok := p.(interface {
		noDOF(UnaryOp) (bool, string)
	}); ok {
		return d.noDOF(op)
	}
	return false, "RuntimeWarning: Degrees of freedom <= 0 for slice"
}

func (jaxPolicy) noDOF(UnaryOp) (bool, string) { return true, "" }

// noDOF is torch's: aten/src/ATen/native/ReduceOps.cpp std_var_out warns
// and divides by max(0, n - correction).
func (torchPolicy) noDOF(op UnaryOp) (bool, string) {
	return false, "UserWarning: " + op.String() + "(): degrees of freedom is <= 0. Correction should be strictly less than the reduction factor (input numel divided by output numel)."
}

// CountGivesPythonInt reports whether count_nonzero over all axes (no
// axis, no keepdims) gives a Python int rather than a 0-d array: NumPy's
// numpy/_core/numeric.py count_nonzero returns multiarray.count_nonzero(a),
// an int, when axis is None and keepdims is false. Every other library
// returns an array.
func CountGivesPythonInt(p Policy) bool {
	_, ok := p.(interface{ countGivesPythonInt() })
	return ok
}

func (numpyPolicy) countGivesPythonInt()  {}
func (numpy1Policy) countGivesPythonInt() {}

// CumulativeNeedsAxis reports whether cumsum and cumprod need an axis for
// a tensor of more than one dimension and refuse a 0-d one, instead of
// flattening as NumPy does. The Array API standard's cumulative_sum
// (2023.12) and cumulative_prod (2024.12): "x: ... Should have one or more
// dimensions"; "if x is a one-dimensional array, providing an axis is
// optional; however, if x has more than one dimension, providing an axis
// is required".
func CumulativeNeedsAxis(p Policy) bool {
	_, ok := p.(interface{ cumulativeNeedsAxis() })
	return ok
}

func (arrayAPIPolicy) cumulativeNeedsAxis() {}
