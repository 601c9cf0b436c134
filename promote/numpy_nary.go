package promote

import (
	"fmt"
	"strings"

	"github.com/tensorsh/tensorsh/dtypes"
)

// np.result_type over n operands, after NumPy 2's
// numpy/_core/src/multiarray/common_dtype.c (PyArray_PromoteDTypeSequence,
// reduce_dtypes_to_most_knowledgeable), dtypemeta.c
// (default_builtin_common_dtype) and abstractdtypes.c (the common_dtype of
// the abstract DTypes of Python int, float and complex, which is how NEP 50
// lets Python scalars take part).
//
// NumPy does not fold promote_types from the left: int16 + uint16 is int32
// and int32 + float16 is float64, but np.result_type(int16, uint16, float16)
// is float32 in any order. It first finds the "most knowledgeable" DType by
// a pairwise tournament (among the builtin dtypes, the one with the highest
// type number; float16 is numbered after all the others), then promotes
// each other DType with it and reduces those promotions with the common
// DType operator. For NumPy's own dtypes and Python scalars the answer does
// not depend on the order of the inputs.
//
// ml_dtypes' bfloat16 and float8 types are DTypes of another library whose
// common-DType rules are not transitive with NumPy's (NumPy's source warns
// that such DTypes can make the result depend on the order); with one of
// them among the operands tensorsh folds the binary rule from the left and
// says so.

// An npNode is a DType as the promotion machinery sees it: a builtin dtype,
// or (abstract) the DType of a Python int, float or complex.
type npNode struct {
	d        dtypes.DType
	py       ScalarKind
	abstract bool
}

func (n npNode) String() string {
	if n.abstract {
		return "Python " + n.py.String()
	}
	return n.d.FullName()
}

// npTypeNum is NumPy's type number of a builtin dtype (int64 is NPY_LONG on
// the platforms tensorsh runs on; float16, NPY_HALF, comes after them all).
func npTypeNum(d dtypes.DType) int {
	switch d {
	case dtypes.Bool:
		return 0
	case dtypes.I8:
		return 1
	case dtypes.U8:
		return 2
	case dtypes.I16:
		return 3
	case dtypes.U16:
		return 4
	case dtypes.I32:
		return 5
	case dtypes.U32:
		return 6
	case dtypes.I64:
		return 7
	case dtypes.U64:
		return 8
	case dtypes.F32:
		return 11
	case dtypes.F64:
		return 12
	case dtypes.C64:
		return 14
	case dtypes.C128:
		return 15
	case dtypes.F16:
		return 23
	}
	return -1
}

// npCommonDir is one direction of the common-DType operator,
// a.__common_dtype__(b); false means NotImplemented.
func npCommonDir(a, b npNode) (npNode, bool) {
	if a == b {
		return a, true
	}
	if !a.abstract {
		d := a.d
		if b.abstract {
			// default_builtin_common_dtype: the Python scalar DTypes it
			// knows.
			switch b.py {
			case ComplexScalar:
				switch {
				case d.IsComplex():
					return a, true
				case d == dtypes.F16 || d == dtypes.F32:
					return npNode{d: dtypes.C64}, true
				case d == dtypes.F64:
					return npNode{d: dtypes.C128}, true
				}
			case FloatScalar:
				if d.IsInexact() {
					return a, true
				}
			case IntScalar:
				if d != dtypes.Bool {
					return a, true
				}
			}
			return npNode{}, false
		}
		// The more generic DType (larger type number) handles the pair.
		if npTypeNum(b.d) > npTypeNum(d) {
			return npNode{}, false
		}
		return npNode{d: numpyClassic(d, b.d)}, true
	}
	// The abstract Python DTypes (abstractdtypes.c).
	switch a.py {
	case IntScalar:
		if !b.abstract && b.d == dtypes.Bool {
			return npNode{d: dtypes.I64}, true
		}
	case FloatScalar:
		switch {
		case !b.abstract && (b.d == dtypes.Bool || b.d.IsInt()):
			return npNode{d: dtypes.F64}, true
		case b.abstract && b.py == IntScalar:
			return a, true
		}
	case ComplexScalar:
		switch {
		case !b.abstract && (b.d == dtypes.Bool || b.d.IsInt()):
			return npNode{d: dtypes.C128}, true
		case b.abstract && (b.py == IntScalar || b.py == FloatScalar):
			return a, true
		}
	}
	return npNode{}, false
}

// npCommon is PyArray_CommonDType: either direction; false when neither
// knows the other.
func npCommon(a, b npNode) (npNode, bool) {
	if r, ok := npCommonDir(a, b); ok {
		return r, true
	}
	return npCommonDir(b, a)
}

// npReduce is reduce_dtypes_to_most_knowledgeable: it reorders ds so that
// ds[0] is the most knowledgeable DType, clears (ok=false in kept) DTypes
// that cannot change the result, and returns the last pairwise result.
func npReduce(ds []npNode, kept []bool) (npNode, bool) {
	length := len(ds)
	half := length / 2
	var res npNode
	var ok bool
	for low := 0; low < half; low++ {
		high := length - 1 - low
		res, ok = npCommonDir(ds[low], ds[high])
		switch {
		case !ok:
			ds[low], ds[high] = ds[high], ds[low]
			kept[low], kept[high] = kept[high], kept[low]
		case res == ds[low]:
			kept[high] = false
		}
	}
	if length == 2 {
		return res, ok
	}
	return npReduce(ds[:length-half], kept[:length-half])
}

// npPromoteSequence is PyArray_PromoteDTypeSequence.
func npPromoteSequence(in []npNode) (npNode, error) {
	if len(in) == 1 {
		return in[0], nil
	}
	ds := append([]npNode(nil), in...)
	kept := make([]bool, len(ds))
	for i := range kept {
		kept[i] = true
	}
	result, have := npReduce(ds, kept)
	main := ds[0]
	start := 1
	if have {
		start = 2
	}
	for i := start; i < len(ds); i++ {
		if !kept[i] {
			continue
		}
		promotion, ok := npCommonDir(main, ds[i])
		if !ok {
			names := make([]string, len(in))
			for j, d := range in {
				names[j] = d.String()
			}
			return npNode{}, fmt.Errorf("%s could not be promoted by %s: no common DType exists for %s (DTypePromotionError)", ds[i], main, strings.Join(names, ", "))
		}
		if !have {
			result, have = promotion, true
			continue
		}
		r, ok := npCommon(result, promotion)
		if !ok {
			return npNode{}, fmt.Errorf("%s and %s have no common DType (DTypePromotionError)", result, promotion)
		}
		result = r
	}
	return result, nil
}

// Nary is np.result_type of xs (with op's ufunc rules applied to the
// result, and NEP 50's value check of the Python scalars against it). Two
// operands are the binary rule.
func (p numpyPolicy) Nary(op BinaryOp, xs []Operand) (Result, error) {
	return numpyNary(p, op, xs)
}

// ResultType is np.result_type(*xs).
func (p numpyPolicy) ResultType(xs []Operand) (Result, error) { return numpyNary(p, Where, xs) }

func numpyNary(p numpyPolicy, op BinaryOp, xs []Operand) (Result, error) {
	if r, done, err := numpyNaryFew(p, numpyDTypes, numpyPyDType, op, xs); done {
		return r, err
	}
	args := make([]numpyArg, len(xs))
	nodes := make([]npNode, len(xs))
	allWeak, ml := true, false
	for i, x := range xs {
		a, err := numpyArgOf("numpy", numpyDTypes, i, x, numpyPyDType)
		if err != nil {
			return Result{}, err
		}
		args[i] = a
		if !a.weak {
			allWeak = false
		}
		if a.weak {
			nodes[i] = npNode{py: a.kind, abstract: true}
			if a.kind == BoolScalar {
				// A Python bool is NumPy's bool.
				nodes[i] = npNode{d: dtypes.Bool}
			}
		} else {
			nodes[i] = npNode{d: a.d}
		}
		if numpyIsML(a.d) {
			ml = true
		}
	}
	if ml {
		r, err := Fold(p, op, xs...)
		if err != nil {
			return Result{}, err
		}
		r.Rule += "; with an ml_dtypes type among the operands the promotion is folded left to right (ml_dtypes' common-DType rules are not transitive with NumPy's, so np.result_type may depend on the order)"
		return r, nil
	}
	if allWeak {
		// Python scalars alone: Python arithmetic, whose result is a weak
		// scalar of the promotion of their dtypes (as Binary gives two).
		for i, a := range args {
			nodes[i] = npNode{d: a.d}
		}
	}
	n, err := npPromoteSequence(nodes)
	if err != nil {
		return Result{}, Errorf("numpy", -1, "%v", err)
	}
	d := n.d
	if n.abstract {
		d = numpyDefault(n.py)
	}
	rule := fmt.Sprintf("np.result_type(%s) is %s: NumPy promotes all operands at once (the most general one, promoted with each of the others), not pairwise from the left", describeTypes(xs), d.FullName())
	r, err := numpyUfunc("numpy", op, dtypes.Type{DType: d, Weak: allWeak}, rule)
	if err != nil {
		return Result{}, err
	}
	for _, a := range args {
		if !a.weak || allWeak {
			continue
		}
		if r, err = numpyCheckWeak(op, r, a); err != nil {
			return Result{}, err
		}
	}
	return r, nil
}

// numpyNaryFew answers an n-ary promotion of one or two operands for the
// policies whose operands are numpyArgs (numpy, numpy1, torch): one keeps
// its type, two are the policy's Binary. done is false for three or more.
func numpyNaryFew(p Policy, ds []dtypes.DType, py func(Scalar) (dtypes.DType, bool), op BinaryOp, xs []Operand) (r Result, done bool, err error) {
	switch len(xs) {
	case 1:
		a, err := numpyArgOf(p.Name(), ds, 0, xs[0], py)
		if err != nil {
			return Result{}, true, err
		}
		t := dtypes.Type{DType: a.d, Weak: a.weak}
		return Result{Type: t, Compute: a.d, Rule: "a single operand keeps its type " + t.String()}, true, nil
	case 2:
		r, err := p.Binary(op, xs[0], xs[1])
		return r, true, err
	}
	return Result{}, false, nil
}
