// Package promote holds the promotion policies of tensorsh: the rules by which
// JAX, NumPy, PyTorch, Triton, MAX, anvil and the Array API standard choose the
// dtype (and weakness) of an operation's result.
//
// A Policy answers without touching tensor data. It sees each operand as an
// Operand: its Type, its rank, and its value when that is known (literals and
// 0-d values), because several systems decide by value (NumPy's NEP 50 range
// check, Triton's scalar dtype, NumPy 1's value-based casting, PyTorch's
// 0-dim rule).
//
// Policies are values; Lookup returns one by name and Names lists them in the
// order tables and comparisons show them.
package promote

import (
	"fmt"
	"math/big"
	"sort"

	"github.com/tensorsh/tensorsh/dtypes"
)

// A ScalarKind is the Python-level kind of a literal value.
type ScalarKind uint8

// The literal kinds, in the order bool < int < float < complex.
const (
	BoolScalar ScalarKind = iota
	IntScalar
	FloatScalar
	ComplexScalar
)

var scalarKindNames = [...]string{"bool", "int", "float", "complex"}

func (k ScalarKind) String() string { return scalarKindNames[k] }

// A Scalar is an exact scalar value: a literal as written (integers of any
// size), or the value of a 0-d tensor.
type Scalar struct {
	Kind    ScalarKind
	Bool    bool
	Int     *big.Int // IntScalar (also set, 0 or 1, for BoolScalar)
	Float   float64  // FloatScalar
	Complex complex128
}

// BoolValue, IntValue, FloatValue and ComplexValue make Scalars.
func BoolValue(b bool) Scalar {
	i := big.NewInt(0)
	if b {
		i.SetInt64(1)
	}
	return Scalar{Kind: BoolScalar, Bool: b, Int: i}
}

// IntValue returns the integer Scalar i (i is not copied).
func IntValue(i *big.Int) Scalar { return Scalar{Kind: IntScalar, Int: i} }

// Int64Value returns the integer Scalar i.
func Int64Value(i int64) Scalar { return Scalar{Kind: IntScalar, Int: big.NewInt(i)} }

// FloatValue returns the float Scalar f.
func FloatValue(f float64) Scalar { return Scalar{Kind: FloatScalar, Float: f} }

// ComplexValue returns the complex Scalar c.
func ComplexValue(c complex128) Scalar { return Scalar{Kind: ComplexScalar, Complex: c} }

// String formats the value the way Python's repr would.
func (s Scalar) String() string {
	switch s.Kind {
	case BoolScalar:
		if s.Bool {
			return "True"
		}
		return "False"
	case IntScalar:
		return s.Int.String()
	case FloatScalar:
		return dtypes.PyFloat(s.Float)
	default:
		return dtypes.PyComplex(s.Complex)
	}
}

// An Operand is one input of an operation, as a policy sees it.
type Operand struct {
	Type dtypes.Type
	// Rank is the number of dimensions (0 for a scalar).
	Rank int
	// Literal reports whether the operand is a literal (a Python scalar, or an
	// expression folded from literals), as opposed to a tensor. Literals are
	// always weak and always have a Value.
	Literal bool
	// Value is the exact value when it is known before evaluation: always for
	// literals, and for 0-d tensors. Nil otherwise.
	Value *Scalar
}

// A BinaryOp is an operation with two operands.
type BinaryOp uint8

// The binary operations.
const (
	Add BinaryOp = iota
	Sub
	Mul
	TrueDiv  // /
	FloorDiv // //
	Mod      // %
	Pow      // **
	Maximum  // max(a, b)
	Minimum  // min(a, b)
	Eq
	Ne
	Lt
	Le
	Gt
	Ge
	BitAnd // &
	BitOr  // |
	BitXor // ^
	Shl    // <<
	Shr    // >>
	And    // and
	Or     // or
	MatMul // @
	Where  // where(c, a, b): the promotion of a and b
	Clip   // clip(x, lo, hi): the promotion of x with a bound
	Dot    // dot(a, b): NumPy's dot, promoted as the system's dot is

	// Float-producing functions of two arguments, in class Div: each
	// policy gives them its true-division rule unless its library differs.
	Arctan2 // arctan2(y, x)
	Hypot   // hypot(a, b)
)

var binaryNames = [...]string{"+", "-", "*", "/", "//", "%", "**", "max", "min", "==", "!=", "<", "<=", ">", ">=", "&", "|", "^", "<<", ">>", "and", "or", "@", "where", "clip", "dot", "arctan2", "hypot"}

func (op BinaryOp) String() string { return binaryNames[op] }

// A BinaryClass groups binary operations that share promotion rules.
type BinaryClass uint8

// The binary classes.
const (
	Arith   BinaryClass = iota // + - * ** max min @ where clip dot
	Div                        // true division /, arctan2, hypot
	DivMod                     // // and %
	Compare                    // == != < <= > >=: result bool
	Bitwise                    // & | ^ << >>: ints and bools only
	Logical                    // and, or: bools
)

// Class returns the class of op.
func (op BinaryOp) Class() BinaryClass {
	switch op {
	case TrueDiv, Arctan2, Hypot:
		return Div
	case FloorDiv, Mod:
		return DivMod
	case Eq, Ne, Lt, Le, Gt, Ge:
		return Compare
	case BitAnd, BitOr, BitXor, Shl, Shr:
		return Bitwise
	case And, Or:
		return Logical
	}
	return Arith
}

// A UnaryOp is an operation with one operand (reductions included).
type UnaryOp uint8

// The unary operations.
const (
	Neg UnaryOp = iota
	Pos
	Abs
	Invert // ~
	Not    // not
	Relu
	Exp
	Log
	Log1p
	Sin
	Cos
	Tanh
	Sqrt
	Rsqrt
	Erf
	Sigmoid
	Silu
	Gelu
	Softmax
	LogSoftmax
	Floor
	Ceil
	Round     // half away from zero
	RoundEven // half to even
	Trunc
	IsNaN
	IsInf
	Sum
	Prod
	Mean
	ReduceMax
	ReduceMin
	ArgMax
	ArgMin
	Any
	All

	// NumPy's everyday functions (issue 16), after the reductions so that
	// the ranges above keep their meaning.
	Tan
	Arcsin
	Arccos
	Arctan
	Sinh
	Cosh
	Arcsinh
	Arccosh
	Arctanh
	Log2
	Log10
	Exp2
	Expm1
	Sign       // same type
	Square     // same type (NumPy: bool computes in int8)
	Reciprocal // same type in NumPy (integer 1/x); float in JAX and PyTorch
	IsFinite   // predicate

	CumSum       // cumsum: a running sum along an axis
	CumProd      // cumprod: a running product along an axis
	Var          // var: the variance (ddof)
	Std          // std: the standard deviation (ddof)
	CountNonzero // count_nonzero: how many elements are not zero
)

var unaryNames = [...]string{"-", "+", "abs", "~", "not", "relu", "exp", "log", "log1p", "sin", "cos", "tanh", "sqrt", "rsqrt", "erf", "sigmoid", "silu", "gelu", "softmax", "logsoftmax", "floor", "ceil", "round", "roundeven", "trunc", "is_nan", "is_inf", "sum", "prod", "mean", "max", "min", "argmax", "argmin", "any", "all",
	"tan", "arcsin", "arccos", "arctan", "sinh", "cosh", "arcsinh", "arccosh", "arctanh", "log2", "log10", "exp2", "expm1", "sign", "square", "reciprocal", "isfinite", "cumsum", "cumprod", "var", "std", "count_nonzero"}

func (op UnaryOp) String() string { return unaryNames[op] }

// A UnaryClass groups unary operations that share promotion rules.
type UnaryClass uint8

// The unary classes.
const (
	SameType   UnaryClass = iota // - + abs relu: the operand's type
	BitNot                       // ~: ints and bools
	LogicalNot                   // not: bools
	FloatFn                      // exp log sin … softmax: float-producing
	Rounding                     // floor ceil round roundeven trunc
	Predicate                    // is_nan is_inf: result bool
	SumProd                      // sum prod: may widen small ints
	MeanOp                       // mean: float-producing
	Extreme                      // reduce max/min: the operand's type
	ArgOp                        // argmax argmin: an index dtype
	BoolReduce                   // any all: bool
	Cumulative                   // cumsum cumprod: a running sum or product, same shape
	Moment                       // var std: real inexact, computed in two passes
	Count                        // count_nonzero: an integer count
)

// Class returns the class of op.
func (op UnaryOp) Class() UnaryClass {
	switch op {
	case Invert:
		return BitNot
	case Not:
		return LogicalNot
	case Exp, Log, Log1p, Sin, Cos, Tanh, Sqrt, Rsqrt, Erf, Sigmoid, Silu, Gelu, Softmax, LogSoftmax,
		Tan, Arcsin, Arccos, Arctan, Sinh, Cosh, Arcsinh, Arccosh, Arctanh, Log2, Log10, Exp2, Expm1:
		return FloatFn
	case Floor, Ceil, Round, RoundEven, Trunc:
		return Rounding
	case IsNaN, IsInf, IsFinite:
		return Predicate
	case Sum, Prod:
		return SumProd
	case Mean:
		return MeanOp
	case ReduceMax, ReduceMin:
		return Extreme
	case ArgMax, ArgMin:
		return ArgOp
	case Any, All:
		return BoolReduce
	case CumSum, CumProd:
		return Cumulative
	case Var, Std:
		return Moment
	case CountNonzero:
		return Count
	}
	return SameType
}

// A Result is a policy's answer for one operation.
type Result struct {
	// Type is the dtype and weakness of the result.
	Type dtypes.Type
	// Compute is the dtype every operand is converted to before the
	// operation runs. It equals Type.DType except for comparisons and
	// predicates (result bool), argmax/argmin, and reductions that
	// accumulate in another dtype.
	Compute dtypes.DType
	// CDiv reports that integer //, % (and / when Compute is an integer)
	// truncate toward zero like C, instead of flooring like Python.
	CDiv bool
	// ZeroDivError reports that integer division or remainder by zero is an
	// error in this system (PyTorch raises); otherwise IntDiv says what it
	// gives.
	ZeroDivError bool
	// IntDiv is how the system computes integer //, % (and / when Compute
	// is an integer) where arithmetic leaves the answer open: a zero
	// divisor, and the minimum integer divided by -1.
	IntDiv IntDivRule
	// WarnIntDiv reports that integer // and % warn as NumPy's loops do
	// ("divide by zero encountered in floor_divide" or "remainder", and
	// "overflow encountered in floor_divide" for MIN // -1); the operation
	// still gives IntDiv's values.
	WarnIntDiv bool
	// WarnScalarOverflow reports that integer +, -, *, negation and abs
	// warn when they wrap on scalars (0-d operands), as NumPy's scalar math
	// does ("overflow encountered in scalar add"; with WarnIntDiv, // and %
	// on scalars warn in those words too); arrays wrap silently.
	WarnScalarOverflow bool
	// IntVia, when valid, is the float format a literal Python int is
	// rounded to first when it is converted to an inexact Compute dtype:
	// float64 for NumPy (its setitem takes float(int), PyNumber_Float),
	// float32 for ml_dtypes (static_cast<float> of the int64). Otherwise
	// the int is rounded once, directly, to Compute.
	IntVia dtypes.DType
	// FloatVia, when valid, is the float format a literal Python float is
	// rounded to first when it is converted to an inexact Compute dtype:
	// float32 for MLX (to_array takes nb::cast<float> of the float).
	FloatVia dtypes.DType
	// ComplexOrder says whether and how maximum, minimum and the max,
	// min, argmax and argmin reductions order complex operands;
	// ComplexUnordered (the zero value) refuses them.
	ComplexOrder ComplexOrder
	// ScaledCAbs makes abs of a complex value NumPy's SIMD loop's
	// (numpy/_core/src/umath/loops_unary_complex.dispatch.c.src,
	// simd_cabsolute): l·√fma(r, r, 1) with l = max(|re|, |im|) and r =
	// min/l (0 where l is 0 or both are infinite), in the parts'
	// precision, an infinite part giving inf and then a NaN part NaN;
	// otherwise it is the correctly rounded hypot of the parts (npy_hypot,
	// the C library's: NumPy without those loops, and the other systems).
	ScaledCAbs bool
	// Rule names the rule that fired, in the policy's own terms, for
	// explain(); e.g. "weak float meets known int: the known side takes the
	// ambiguous float's dtype (anvil rule a)".
	Rule string
	// Warning is set when the policy changed what was asked for (JAX x32
	// truncating a 64-bit dtype). The operation still succeeds.
	Warning string
}

// An IntDivRule names how a system's integer division and remainder
// behave at a zero divisor and at MIN // -1.
type IntDivRule uint8

// The integer division rules.
const (
	// IntDivNumPy: x // 0 and x % 0 give 0 (NumPy's loops, which warn
	// "divide by zero encountered in floor_divide"); MIN // -1 wraps to
	// MIN and MIN % -1 is 0.
	IntDivNumPy IntDivRule = iota
	// IntDivJNP: jax.numpy's floor_divide and remainder built on XLA's
	// Div and Rem (x / 0 is -1, all ones unsigned; x % 0 is x): signed
	// x // 0 is -2 for x != 0 and -1 for 0, unsigned x // 0 is the
	// maximum; x % 0 is 0 (jnp.remainder divides by 1 instead of 0).
	IntDivJNP
	// IntDivXLA: XLA's Div and Rem themselves (stablehlo.divide and
	// remainder): truncating; x / 0 is -1 (all ones unsigned), x % 0 is x;
	// MIN / -1 is MIN and MIN % -1 is 0.
	IntDivXLA
	// IntDivNvMod: anvil's %% (nv_mod): rem(rem(x, y) + y, y) with XLA's
	// Rem, in the dtype's wrapping arithmetic.
	IntDivNvMod
)

// A ComplexOrder names how a system orders complex numbers in maximum,
// minimum and the max, min, argmax and argmin reductions.
type ComplexOrder uint8

// The complex orders.
const (
	// ComplexUnordered: complex operands are refused.
	ComplexUnordered ComplexOrder = iota
	// ComplexNumPy: lexicographic (real part, then imaginary), NumPy's
	// CGE/CLE; an operand with a NaN part wins and propagates, ties keep
	// the first operand.
	ComplexNumPy
	// ComplexXLA: lexicographic as JAX lowers lax.max and lax.min
	// (jax/_src/interpreters/mlir.py _minmax_hlo): the first operand is
	// kept when its real part compares strictly (or, at equal real parts,
	// its imaginary part); otherwise the second, so a NaN is not
	// propagated.
	ComplexXLA
)

// A Host is the language whose literal arithmetic a policy folds with.
type Host uint8

// The host languages.
const (
	Python Host = iota // arbitrary-precision ints, IEEE doubles, floor // and %
	Mojo               // same results as Python for tensorsh's literals
	R                  // 32-bit integers (overflow is NA: an error), doubles
)

// An Error is a promotion error. It names the policy and the rule that fired.
type Error struct {
	Policy string
	Msg    string
	// Operand is the operand to blame: 0 or 1, or -1 for the operation
	// itself. Front ends put the caret under it.
	Operand int
}

func (e *Error) Error() string { return e.Policy + ": " + e.Msg }

// Errorf returns an *Error for policy p blaming operand (−1 for the operator).
func Errorf(p string, operand int, format string, args ...any) *Error {
	return &Error{Policy: p, Msg: fmt.Sprintf(format, args...), Operand: operand}
}

// A Policy is one system's promotion rules.
type Policy interface {
	// Name is the short name used by :policy ("jax", "max-graph").
	Name() string
	// Title describes the system in a few words ("JAX, x64 off").
	Title() string
	// DTypes lists the dtypes the system has, in table order.
	DTypes() []dtypes.DType
	// Check says what happens when a user asks for dtype d: d itself, a
	// canonical replacement with a warning (JAX x32: i64 → i32), or an
	// error naming the policy when d is not in its set.
	Check(d dtypes.DType) (dtypes.DType, string, error)
	// Literal returns the type of a literal value on its own (1 → i32? in
	// jax, i64? in jax64).
	Literal(v Scalar) (dtypes.Type, error)
	// ArrayLiteral returns the type of a bracket literal whose elements are
	// at most of kind k ([1, 2.5] is FloatScalar).
	ArrayLiteral(k ScalarKind) (dtypes.Type, error)
	// Convert reports whether literal v may be explicitly converted to d
	// (i8(300)); nil means it converts (wrapping if the system wraps).
	Convert(v Scalar, d dtypes.DType) error
	// Binary returns the result of op on x and y. An error means the system
	// refuses the combination (including a literal that does not fit the
	// dtype it would be converted to).
	Binary(op BinaryOp, x, y Operand) (Result, error)
	// Unary returns the result of op on x.
	Unary(op UnaryOp, x Operand) (Result, error)
	// Host returns the language whose literal arithmetic the system uses.
	Host() Host
}

// order is the display order of the built-in policies.
var order = []string{"jax", "jax64", "numpy", "numpy1", "torch", "triton", "triton-doc", "max", "max-graph", "anvil", "array-api", "tf", "tf-numpy", "tf-numpy-safe", "keras", "mlx", "julia", "c"}

var registry = map[string]func() Policy{}

// register makes a built-in policy constructor available to Lookup.
// It is called from the init functions of the policy files.
func register(name string, f func() Policy) {
	if _, dup := registry[name]; dup {
		panic("promote: duplicate policy " + name)
	}
	registry[name] = f
}

// Lookup returns the built-in policy named name.
func Lookup(name string) (Policy, error) {
	if f, ok := registry[name]; ok {
		return f(), nil
	}
	return nil, fmt.Errorf("unknown policy %q (policies: %v)", name, Names())
}

// Names lists the built-in policies in display order.
func Names() []string {
	var out []string
	seen := map[string]bool{}
	for _, n := range order {
		if _, ok := registry[n]; ok {
			out = append(out, n)
			seen[n] = true
		}
	}
	var rest []string
	for n := range registry {
		if !seen[n] {
			rest = append(rest, n)
		}
	}
	sort.Strings(rest)
	return append(out, rest...)
}
