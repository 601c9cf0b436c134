package promote

import (
	"fmt"

	"github.com/tensorsh/tensorsh/dtypes"
)

// np.result_type over n operands in NumPy 1.24 (legacy promotion), after
// numpy/core/src/multiarray/convert_datatype.c: PyArray_ResultType first
// promotes all dtypes at once (PyArray_PromoteDTypeSequence, as NumPy 2
// does; see numpy_nary.go), and when a scalar (a Python scalar or a 0-d
// array) is among them, PyArray_CheckLegacyResultType replaces that result
// by the legacy one: should_use_min_scalar decides for all operands at once
// whether scalars act by value (some operand is an array, and no scalar is
// of a higher kind than every array); if they do, each scalar is replaced
// by min_scalar_type of its value and the operands are promoted pairwise in
// argument order (promote_types with the "small unsigned" flags), else all
// dtypes are promoted at once. Only that pairwise fold can depend on the
// order.

// Nary is NumPy 1.24's np.result_type of xs, with op's ufunc rules.
func (p numpy1Policy) Nary(op BinaryOp, xs []Operand) (Result, error) {
	if r, done, err := numpyNaryFew(p, numpy1DTypes, numpyPyDType, op, xs); done {
		return r, err
	}
	args := make([]numpyArg, len(xs))
	weak, scalars, arrays := true, false, false
	maxScalar, maxArray := -1, -1
	for i, x := range xs {
		a, err := numpyArgOf("numpy1", numpy1DTypes, i, x, numpyPyDType)
		if err != nil {
			return Result{}, err
		}
		args[i] = a
		weak = weak && a.weak
		k := numpy1KindOrder(a.d)
		if a.rank == 0 || a.lit {
			scalars = true
			maxScalar = max(maxScalar, k)
		} else {
			arrays = true
			maxArray = max(maxArray, k)
		}
	}
	var d dtypes.DType
	var rule string
	if scalars && arrays && maxArray >= maxScalar {
		d, rule = numpy1MinScalarFold(args)
	} else {
		nodes := make([]npNode, len(args))
		for i, a := range args {
			nodes[i] = npNode{d: a.d}
		}
		n, err := npPromoteSequence(nodes)
		if err != nil {
			return Result{}, Errorf("numpy1", -1, "%v", err)
		}
		d = n.d
		rule = fmt.Sprintf("np.result_type(%s) is %s: NumPy promotes all dtypes at once (the most general one, promoted with each of the others), not pairwise from the left", describeTypes(xs), d.FullName())
		if scalars {
			rule += "; a scalar is of a higher kind than every array, so no scalar acts by value"
		}
	}
	r, err := numpyUfunc("numpy1", op, dtypes.Type{DType: d, Weak: weak}, rule)
	if err != nil {
		return Result{}, err
	}
	return r, nil
}

// numpy1MinScalarFold is the value-based branch of
// PyArray_CheckLegacyResultType: scalars replaced by min_scalar_type,
// promoted pairwise from the left with the small-unsigned flags.
func numpy1MinScalarFold(args []numpyArg) (dtypes.DType, string) {
	var ret dtypes.DType
	retSmall := false
	for i, a := range args {
		t, small := a.d, false
		if (a.rank == 0 || a.lit) && a.v != nil {
			t, small = numpy1MinScalar(*a.v, a.d)
		}
		if i == 0 {
			ret, retSmall = t, small
			continue
		}
		ret = numpy1PromoteSmall(t, ret, small, retSmall)
		retSmall = small && retSmall
	}
	return ret, fmt.Sprintf("value-based casting over all operands: each scalar acts as min_scalar_type of its value, and the dtypes are promoted pairwise from the left: %s", ret.FullName())
}

// numpy1PromoteSmall is convert_datatype.c's promote_types with the
// "small unsigned" flags: a small unsigned type meeting a type that is not
// bool or unsigned acts as the signed type of its width.
func numpy1PromoteSmall(a, b dtypes.DType, smallA, smallB bool) dtypes.DType {
	switch {
	case smallA && b != dtypes.Bool && !b.IsUnsigned():
		return numpyClassic(numpySignedOf(a), b)
	case smallB && a != dtypes.Bool && !a.IsUnsigned():
		return numpyClassic(a, numpySignedOf(b))
	}
	return numpyClassic(a, b)
}
