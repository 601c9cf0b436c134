package promote

import (
	"fmt"
	"math/big"

	"github.com/tensorsh/tensorsh/dtypes"
)

// The c policy: C's usual arithmetic conversions (C17 §6.3.1.8) on an
// LP64 machine (int 32 bits, long 64), with the extended floating types
// _Float16 and __bf16 as GCC and Clang treat them.
//
// Integer operands first go through the integer promotions (§6.3.1.1):
// _Bool, char and short, signed or not, become int, which holds all their
// values; so int8 + int8 is an int. Then of two integer types the one of
// higher conversion rank wins; at equal rank the unsigned one wins
// (int + unsigned is unsigned, long + unsigned long is unsigned long); a
// signed type wins over a lower-ranked unsigned one when it holds all its
// values (long + unsigned is long). A floating operand wins over an
// integer one; double over float over _Float16 and __bf16 (Clang's
// LanguageExtensions, "Half-Precision Floating Point": both "follow the
// usual rules for arithmetic floating-point types", arithmetic on them is
// performed in the type and gives the type). _Float16 and __bf16 have no
// common type: neither holds the other's values, and GCC refuses to mix
// them. A complex operand makes the result the complex type of the common
// real type (_Complex _Float16 is left out: tensorsh's c32 is PyTorch's
// ComplexHalf, with PyTorch's few kernels).
//
// Constants have C's types, not weak ones: 1 is an int (a long when it
// does not fit), 1.5 a double, true (stdbool.h's 1) an int. Division of
// integers truncates toward zero and % takes the dividend's sign (§6.5.5);
// // is C's / on integers, and there is no // or % on floating types.
// Unsigned arithmetic wraps; signed overflow is undefined behavior
// (§6.5p5): tensorsh refuses it where the values are known, and division
// by zero is undefined too. <tgmath.h> functions (exp, sqrt, pow …) of an
// integer are double. C has no reductions; sum and prod are modeled as a
// loop accumulating acc = acc + x in the promoted type, mean as that sum
// divided as a double, argmax as a size_t index.

func init() {
	register("c", func() Policy { return cPolicy{} })
}

type cPolicy struct{}

const cName = "c"

var cDTypes = []dtypes.DType{
	dtypes.Bool, dtypes.I8, dtypes.I16, dtypes.I32, dtypes.I64,
	dtypes.U8, dtypes.U16, dtypes.U32, dtypes.U64,
	dtypes.F16, dtypes.BF16, dtypes.F32, dtypes.F64, dtypes.C64, dtypes.C128,
}

func (cPolicy) Name() string { return cName }

func (cPolicy) Title() string { return "C17 usual arithmetic conversions (LP64, _Float16, __bf16)" }

func (cPolicy) DTypes() []dtypes.DType { return cDTypes }

func (cPolicy) Host() Host { return Python }

// cTypeName is C's name of a dtype, for messages.
func cTypeName(d dtypes.DType) string {
	switch d {
	case dtypes.Bool:
		return "_Bool"
	case dtypes.I8:
		return "signed char"
	case dtypes.I16:
		return "short"
	case dtypes.I32:
		return "int"
	case dtypes.I64:
		return "long"
	case dtypes.U8:
		return "unsigned char"
	case dtypes.U16:
		return "unsigned short"
	case dtypes.U32:
		return "unsigned int"
	case dtypes.U64:
		return "unsigned long"
	case dtypes.F16:
		return "_Float16"
	case dtypes.BF16:
		return "__bf16"
	case dtypes.F32:
		return "float"
	case dtypes.F64:
		return "double"
	case dtypes.C32:
		return "_Complex _Float16"
	case dtypes.C64:
		return "_Complex float"
	case dtypes.C128:
		return "_Complex double"
	}
	return d.FullName()
}

func (cPolicy) Check(d dtypes.DType) (dtypes.DType, string, error) {
	if numpyHas(cDTypes, d) {
		return d, "", nil
	}
	return dtypes.Invalid, "", Errorf(cName, -1, "no dtype %s in C (tensorsh models _Bool, the char, short, int and long types, _Float16, __bf16, float, double, _Complex float and _Complex double)", d)
}

// cLiteralDType is the type of a constant (§6.4.4.1: a decimal constant
// without suffix is the first of int, long that holds it; GCC makes a
// larger one unsigned long with a warning). A negative literal is the
// negation of the constant of its magnitude.
func cLiteralDType(v Scalar) (dtypes.DType, string, bool) {
	switch v.Kind {
	case BoolScalar:
		return dtypes.I32, "", true
	case IntScalar:
		m := new(big.Int).Abs(v.Int)
		switch {
		case numpyIntFits(m, dtypes.I32):
			return dtypes.I32, "", true
		case numpyIntFits(m, dtypes.I64):
			return dtypes.I64, "", true
		case numpyIntFits(m, dtypes.U64):
			return dtypes.U64, fmt.Sprintf("integer constant %s is so large that it is unsigned (GCC)", m), true
		}
		return dtypes.Invalid, "", false
	case FloatScalar:
		return dtypes.F64, "", true
	}
	return dtypes.C128, "", true
}

// Literal gives a constant its C type: strong, not weak.
func (cPolicy) Literal(v Scalar) (dtypes.Type, error) {
	d, _, ok := cLiteralDType(v)
	if !ok {
		return dtypes.Type{}, Errorf(cName, 0, "integer constant %s is too large for its type (it does not fit unsigned long)", v)
	}
	return dtypes.Strong(d), nil
}

// ArrayLiteral gives the element type of an initializer's constants.
func (cPolicy) ArrayLiteral(k ScalarKind) (dtypes.Type, error) {
	d, _, _ := cLiteralDType(Scalar{Kind: k, Int: big.NewInt(0)})
	return dtypes.Strong(d), nil
}

// Convert allows any cast of a constant: to an unsigned type it wraps
// (§6.3.1.3p2); to a signed type the result is implementation-defined and
// GCC wraps; a float out of an integer type's range is undefined.
func (p cPolicy) Convert(v Scalar, d dtypes.DType) error {
	if _, _, err := p.Check(d); err != nil {
		return err
	}
	if _, err := p.Literal(v); err != nil {
		return err
	}
	if v.Kind == FloatScalar && d.IsInt() {
		lo, hi := d.IntRange()
		if t := v.Float; t != t || t <= float64(lo)-1 || t >= float64(hi)+1 {
			return Errorf(cName, 0, "converting %s to %s is undefined behavior: the value does not fit (§6.3.1.4)", v, cTypeName(d))
		}
	}
	return nil
}

// cRank is the integer conversion rank (§6.3.1.1): _Bool < char < short
// < int < long.
func cRank(d dtypes.DType) int {
	if d == dtypes.Bool {
		return 0
	}
	return d.Bits() / 8
}

// cIntPromote applies the integer promotions.
func cIntPromote(d dtypes.DType) dtypes.DType {
	if d.IsInt() || d == dtypes.Bool {
		if cRank(d) < cRank(dtypes.I32) {
			return dtypes.I32
		}
	}
	return d
}

// cUnsignedOf is the unsigned type of a signed type's rank.
func cUnsignedOf(d dtypes.DType) dtypes.DType {
	if d == dtypes.I64 {
		return dtypes.U64
	}
	return dtypes.U32
}

// cFloatRank orders the real floating types; _Float16 and __bf16 share
// the lowest and have no common type.
func cFloatRank(d dtypes.DType) int {
	switch d {
	case dtypes.F16, dtypes.BF16:
		return 1
	case dtypes.F32:
		return 2
	}
	return 3
}

// cComplexOf is the complex type of a real floating type.
func cComplexOf(d dtypes.DType) (dtypes.DType, bool) {
	switch d {
	case dtypes.F16:
		return dtypes.C32, true
	case dtypes.F32:
		return dtypes.C64, true
	case dtypes.F64:
		return dtypes.C128, true
	}
	return dtypes.Invalid, false
}

// cConvert applies the usual arithmetic conversions to a and b, and says
// which rule decided.
func cConvert(a, b dtypes.DType) (dtypes.DType, string, error) {
	if a.IsInexact() || b.IsInexact() {
		ar, br := a, b
		if a.IsComplex() {
			ar = a.Real()
		}
		if b.IsComplex() {
			br = b.Real()
		}
		var r dtypes.DType
		switch {
		case !ar.IsFloat():
			r = br
		case !br.IsFloat():
			r = ar
		case ar == br:
			r = ar
		case cFloatRank(ar) == cFloatRank(br):
			return dtypes.Invalid, "", Errorf(cName, -1, "invalid operands (have '%s' and '%s'): _Float16 and __bf16 have no common type", cTypeName(a), cTypeName(b))
		case cFloatRank(ar) > cFloatRank(br):
			r = ar
		default:
			r = br
		}
		rule := fmt.Sprintf("usual arithmetic conversions: the common real type of %s and %s is %s", cTypeName(a), cTypeName(b), cTypeName(r))
		if a.IsComplex() || b.IsComplex() {
			c, ok := cComplexOf(r)
			if !ok {
				return dtypes.Invalid, "", Errorf(cName, -1, "invalid operands (have '%s' and '%s'): there is no _Complex __bf16", cTypeName(a), cTypeName(b))
			}
			return c, rule + ", made complex: " + cTypeName(c), nil
		}
		return r, rule, nil
	}
	pa, pb := cIntPromote(a), cIntPromote(b)
	rule := ""
	if pa != a || pb != b {
		rule = fmt.Sprintf("integer promotions: %s and %s become %s and %s; ", cTypeName(a), cTypeName(b), cTypeName(pa), cTypeName(pb))
	}
	var r dtypes.DType
	switch {
	case pa == pb:
		r = pa
		rule += "both are " + cTypeName(r)
	case pa.IsSigned() == pb.IsSigned():
		r = numpyWider(pa, pb)
		rule += "the type of higher rank wins: " + cTypeName(r)
	default:
		u, s := pa, pb
		if pa.IsSigned() {
			u, s = pb, pa
		}
		switch {
		case cRank(u) >= cRank(s):
			r = u
			rule += fmt.Sprintf("%s has rank at least %s's: the unsigned type wins", cTypeName(u), cTypeName(s))
		case s.Bits() > u.Bits():
			r = s
			rule += fmt.Sprintf("%s holds every %s", cTypeName(s), cTypeName(u))
		default:
			r = cUnsignedOf(s)
			rule += "the unsigned type of the signed one's rank: " + cTypeName(r)
		}
	}
	return r, rule, nil
}

func (p cPolicy) arg(idx int, o Operand) (dtypes.DType, error) {
	if o.Literal && o.Value != nil {
		d, _, ok := cLiteralDType(*o.Value)
		if !ok {
			return dtypes.Invalid, Errorf(cName, idx, "integer constant %s is too large for its type (it does not fit unsigned long)", o.Value)
		}
		return d, nil
	}
	if !numpyHas(cDTypes, o.Type.DType) {
		return dtypes.Invalid, Errorf(cName, idx, "no dtype %s in C", o.Type.DType)
	}
	return o.Type.DType, nil
}

// cIntValue is the exact integer value of an operand, when it is known.
func cIntValue(o Operand) (*big.Int, bool) {
	if o.Value == nil || o.Value.Int == nil || (o.Value.Kind != IntScalar && o.Value.Kind != BoolScalar) {
		return nil, false
	}
	return o.Value.Int, true
}

// cSignedOverflow reports undefined behavior of op on known signed
// values: a result that does not fit d, or a zero divisor.
func cSignedOverflow(op BinaryOp, d dtypes.DType, x, y Operand) error {
	a, ok1 := cIntValue(x)
	b, ok2 := cIntValue(y)
	if !ok1 || !ok2 || !d.IsInt() {
		return nil
	}
	var r *big.Int
	switch op {
	case Add:
		r = new(big.Int).Add(a, b)
	case Sub:
		r = new(big.Int).Sub(a, b)
	case Mul:
		r = new(big.Int).Mul(a, b)
	case TrueDiv, FloorDiv, Mod:
		if b.Sign() == 0 {
			return Errorf(cName, 1, "division by zero is undefined behavior (§6.5.5)")
		}
		r = new(big.Int).Quo(a, b)
	default:
		return nil
	}
	if d.IsSigned() && !numpyIntFits(r, d) {
		return Errorf(cName, -1, "signed integer overflow is undefined behavior (§6.5p5): %s %s %s is %s, which does not fit %s", a, op, b, r, cTypeName(d))
	}
	return nil
}

// cMathType is the type <tgmath.h> picks for real arguments of types ds
// (C17 §7.25p3): double if any is an integer or double, else the common
// floating type; complex if any is complex. __bf16 has no functions.
func cMathType(fn string, ds ...dtypes.DType) (dtypes.DType, error) {
	r, cplx := dtypes.Invalid, false
	for _, d := range ds {
		switch d {
		case dtypes.BF16:
			return dtypes.Invalid, Errorf(cName, -1, "<tgmath.h> has no %s for __bf16", fn)
		case dtypes.F16:
			// GCC 12 with glibc: "no matching function for type-generic call".
			return dtypes.Invalid, Errorf(cName, -1, "<tgmath.h> has no %s for _Float16 (GCC: no matching function for type-generic call)", fn)
		}
		rd := d
		if d.IsComplex() {
			cplx, rd = true, d.Real()
		}
		if !rd.IsFloat() {
			rd = dtypes.F64
		}
		if r == dtypes.Invalid || cFloatRank(rd) > cFloatRank(r) {
			r = rd
		}
	}
	if cplx {
		c, _ := cComplexOf(r)
		return c, nil
	}
	return r, nil
}

func (p cPolicy) Binary(op BinaryOp, x, y Operand) (Result, error) {
	a, err := p.arg(0, x)
	if err != nil {
		return Result{}, err
	}
	b, err := p.arg(1, y)
	if err != nil {
		return Result{}, err
	}
	var warning string
	for _, o := range []Operand{x, y} {
		if o.Literal && o.Value != nil {
			if _, w, _ := cLiteralDType(*o.Value); w != "" {
				warning = w
			}
		}
	}
	invalid := func() error {
		return Errorf(cName, -1, "invalid operands to binary %s (have '%s' and '%s')", op, cTypeName(a), cTypeName(b))
	}
	if op.Class() == Logical {
		// && and || take scalar operands of any arithmetic type and give
		// an int 0 or 1 (§6.5.13, §6.5.14).
		return Result{Type: dtypes.Strong(dtypes.I32), Compute: dtypes.Bool, Rule: op.String() + " compares each operand with 0 and gives an int 0 or 1", Warning: warning}, nil
	}
	if op == Pow {
		d, err := cMathType("pow", a, b)
		if err != nil {
			return Result{}, err
		}
		return Result{Type: dtypes.Strong(d), Compute: d, Rule: fmt.Sprintf("C has no **: <tgmath.h> pow of %s and %s is %s", cTypeName(a), cTypeName(b), cTypeName(d)), Warning: warning}, nil
	}
	if op == MatMul {
		return Result{}, Errorf(cName, -1, "C has no matrix product operator")
	}
	if r, ok, err := cEverydayBinary(op, a, b); ok {
		r.Warning = warning
		return r, err
	}
	if op == Shl || op == Shr {
		// §6.5.7: the integer promotions apply to each operand separately,
		// and the result has the promoted left operand's type.
		if !(a.IsInt() || a == dtypes.Bool) || !(b.IsInt() || b == dtypes.Bool) {
			return Result{}, invalid()
		}
		d := cIntPromote(a)
		if v, ok := cIntValue(y); ok && (v.Sign() < 0 || v.Cmp(big.NewInt(int64(d.Bits()))) >= 0) {
			return Result{}, Errorf(cName, 1, "shifting %s by %s is undefined behavior: the count must be below its width %d (§6.5.7)", cTypeName(d), v, d.Bits())
		}
		u, ok1 := cIntValue(x)
		v, ok2 := cIntValue(y)
		if ok1 && ok2 && d.IsSigned() && op == Shl {
			if u.Sign() < 0 || !numpyIntFits(new(big.Int).Lsh(u, uint(v.Uint64())), d) {
				return Result{}, Errorf(cName, -1, "signed integer overflow is undefined behavior (§6.5.7): %s << %s does not fit %s", u, v, cTypeName(d))
			}
		}
		return Result{Type: dtypes.Strong(d), Compute: d, Rule: fmt.Sprintf("a shift has the promoted type of its left operand: %s", cTypeName(d)), Warning: warning}, nil
	}
	d, rule, err := cConvert(a, b)
	if err != nil {
		return Result{}, err
	}
	r := Result{Type: dtypes.Strong(d), Compute: d, Rule: rule, Warning: warning}
	if d.IsSigned() {
		r.Rule += "; signed overflow is undefined behavior (tensorsh wraps)"
	}
	switch op.Class() {
	case Arith:
		if (op == Maximum || op == Minimum || op == Clip) && d.IsComplex() {
			return Result{}, invalid()
		}
	case Div:
		if d.IsInt() {
			r.CDiv, r.ZeroDivError = true, true
			r.Rule += "; / on integers truncates toward zero"
		}
	case DivMod:
		if !d.IsInt() {
			if op == Mod {
				return Result{}, invalid()
			}
			return Result{}, Errorf(cName, -1, "C has no // on %s: / on floating types is true division", cTypeName(d))
		}
		r.CDiv, r.ZeroDivError = true, true
		if op == FloorDiv {
			r.Rule += "; // is C's / on integers, which truncates toward zero"
		} else {
			r.Rule += "; % takes the sign of the dividend"
		}
	case Compare:
		if d.IsComplex() && op != Eq && op != Ne {
			return Result{}, invalid()
		}
		r.Type.DType = dtypes.I32
		r.Rule += fmt.Sprintf("; the comparison is made in %s and gives an int 0 or 1 (§6.5.8, §6.5.9)", cTypeName(d))
	case Bitwise:
		if !d.IsInt() {
			return Result{}, invalid()
		}
	}
	if err := cSignedOverflow(op, d, x, y); err != nil {
		return Result{}, err
	}
	return r, nil
}

func (p cPolicy) Unary(op UnaryOp, x Operand) (Result, error) {
	d, err := p.arg(0, x)
	if err != nil {
		return Result{}, err
	}
	res := func(out, compute dtypes.DType, rule string) (Result, error) {
		return Result{Type: dtypes.Strong(out), Compute: compute, Rule: rule}, nil
	}
	invalid := func() error {
		return Errorf(cName, 0, "invalid operand to %s (have '%s')", op, cTypeName(d))
	}
	if r, ok, err := cEveryday(op, d); ok {
		return r, err
	}
	pd := cIntPromote(d)
	switch op.Class() {
	case SameType:
		switch op {
		case Neg, Pos:
			if v, ok := cIntValue(x); ok && op == Neg && pd.IsSigned() && !numpyIntFits(new(big.Int).Neg(v), pd) {
				return Result{}, Errorf(cName, 0, "signed integer overflow is undefined behavior (§6.5p5): -(%s) does not fit %s", v, cTypeName(pd))
			}
			return res(pd, pd, fmt.Sprintf("unary %s applies the integer promotions: %s", op, cTypeName(pd)))
		case Abs:
			if d.IsComplex() {
				return res(d.Real(), d, fmt.Sprintf("cabs of %s is %s", cTypeName(d), cTypeName(d.Real())))
			}
			return res(pd, pd, fmt.Sprintf("abs of %s is %s", cTypeName(d), cTypeName(pd)))
		}
		if d.IsComplex() {
			return Result{}, invalid()
		}
		return res(pd, pd, "x > 0 ? x : 0 has the promoted type "+cTypeName(pd))
	case BitNot:
		if d.IsComplex() {
			// A GNU extension: ~ of a complex number is its conjugate.
			return res(d, d, "~ of a complex number is its conjugate (a GNU extension)")
		}
		if !d.IsInt() && d != dtypes.Bool {
			return Result{}, Errorf(cName, 0, "wrong type argument to bit-complement (have '%s')", cTypeName(d))
		}
		return res(pd, pd, "~ applies the integer promotions: "+cTypeName(pd))
	case LogicalNot:
		return res(dtypes.I32, d, "! gives an int 0 or 1 (§6.5.3.3)")
	case FloatFn:
		if d.IsComplex() && (op == Erf || op == Gelu) {
			return Result{}, Errorf(cName, 0, "<tgmath.h> has no complex %s", op)
		}
		f, err := cMathType(op.String(), d)
		if err != nil {
			return Result{}, err
		}
		return res(f, f, fmt.Sprintf("<tgmath.h> %s of %s is %s", op, cTypeName(d), cTypeName(f)))
	case Rounding:
		if d.IsComplex() {
			return Result{}, invalid()
		}
		if !d.IsFloat() {
			return res(dtypes.F64, dtypes.F64, fmt.Sprintf("<tgmath.h> %s of an integer is double", op))
		}
		f, err := cMathType(op.String(), d)
		if err != nil {
			return Result{}, err
		}
		return res(f, f, "a floating operand keeps its type")
	case Predicate:
		return res(dtypes.Bool, d, op.String()+" gives an int 0 or 1 (shown as bool)")
	case SumProd:
		return res(pd, pd, fmt.Sprintf("a loop acc = acc %s x accumulates in the promoted type %s", map[UnaryOp]string{Sum: "+", Prod: "*"}[op], cTypeName(pd)))
	case MeanOp:
		if d.IsInexact() {
			return res(d, d, "the sum divided by the count keeps "+cTypeName(d))
		}
		return res(dtypes.F64, pd, fmt.Sprintf("the sum (in %s) divided by the count as a double", cTypeName(pd)))
	case Extreme:
		if d.IsComplex() {
			return Result{}, invalid()
		}
		return res(d, d, "the operand's type")
	case ArgOp:
		if d.IsComplex() {
			return Result{}, invalid()
		}
		return res(dtypes.U64, d, op.String()+" gives a size_t index (unsigned long)")
	case BoolReduce:
		return res(dtypes.Bool, d, op.String()+" gives an int 0 or 1 (shown as bool)")
	}
	return Result{}, Errorf(cName, -1, "unknown operation %s", op)
}
