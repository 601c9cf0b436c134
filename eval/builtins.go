package eval

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/tensorsh/tensorsh/backend"
	"github.com/tensorsh/tensorsh/broadcast"
	"github.com/tensorsh/tensorsh/dtypes"
	"github.com/tensorsh/tensorsh/promote"
)

// A call is a builtin call being compiled.
type call struct {
	name   string
	args   []*operand
	kw     map[string]*operand // nil until setKw adds the first
	sp     span                // the whole call
	fnSpan span                // the callee
}

// setKw sets keyword argument name to o. Most calls have none, so the map
// is made by the first.
func (k *call) setKw(name string, o *operand) {
	if k.kw == nil {
		k.kw = make(map[string]*operand)
	}
	k.kw[name] = o
}

// A builtin is a function of the language.
type builtin struct {
	name    string
	sig     string // "sqrt(x)"
	doc     string // one sentence
	example string
	kwargs  []string // accepted keyword arguments
	fn      builtinFunc
}

// A builtinFunc compiles a call of a builtin.
type builtinFunc func(c *compiler, k *call) (*operand, error)

// Functions returns the names of the builtin functions, sorted.
func Functions() []string {
	names := make([]string, 0, len(builtins))
	for n := range builtins {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Doc returns the signature, description and example of a builtin.
func Doc(name string) (sig, doc, example string, ok bool) {
	b, ok := builtins[name]
	if !ok {
		return "", "", "", false
	}
	return b.sig, b.doc, b.example, true
}

// Keywords returns the keyword arguments a builtin accepts.
func Keywords(name string) []string {
	if b, ok := builtins[name]; ok {
		return b.kwargs
	}
	return nil
}

func (k *call) arg(c *compiler, i int, what string) (*operand, error) {
	if i < len(k.args) {
		return k.args[i], nil
	}
	return nil, c.errorf(k.sp, "TypeError", "%s() missing argument: %s", k.name, what)
}

func (k *call) nargs(c *compiler, min, max int) error {
	if len(k.args) < min {
		return c.errorf(k.sp, "TypeError", "%s() takes at least %d argument%s (%d given); usage: %s", k.name, min, plural(min), len(k.args), builtins[k.name].sig)
	}
	if max >= 0 && len(k.args) > max {
		return c.errorf(k.args[max].span(), "TypeError", "%s() takes at most %d argument%s (%d given); usage: %s", k.name, max, plural(max), len(k.args), builtins[k.name].sig)
	}
	return nil
}

// passedTwice reports a TypeError where the argument at position i (0
// for the first) was also given by one of its keyword names, as Python
// does ("got multiple values for argument"); nil otherwise.
func (k *call) passedTwice(c *compiler, i int, names ...string) error {
	if len(k.args) <= i {
		return nil
	}
	for _, n := range names {
		if o, ok := k.kw[n]; ok {
			return c.errorf(o.span(), "TypeError", "%s() got multiple values for argument %q", k.name, n)
		}
	}
	return nil
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// intArg reads an integer literal operand.
func (c *compiler) intOf(o *operand, what string) (int, error) {
	if o.kind == LiteralValue && (o.lit.Kind == promote.IntScalar || o.lit.Kind == promote.BoolScalar) {
		i := intOf(o.lit)
		if !i.IsInt64() {
			return 0, c.errorf(o.span(), "ValueError", "%s %s is too large", what, i)
		}
		if v := i.Int64(); v > math.MaxInt || v < math.MinInt {
			// Only where int has 32 bits: no such size fits in memory.
			return 0, c.errorf(o.span(), "MemoryError", "out of memory: %s %s is too large for this 32-bit platform", what, i)
		}
		return int(i.Int64()), nil
	}
	if o.kind == TensorValue && len(o.shape) == 0 && (o.typ.DType.IsInt() || o.typ.DType.IsBool()) {
		if err := c.known(o); err != nil {
			return 0, err
		}
		return c.intOf(&operand{kind: LiteralValue, lit: *o.value, start: o.start, end: o.end}, what)
	}
	return 0, c.errorf(o.span(), "TypeError", "%s must be an integer", what)
}

func (c *compiler) boolOf(o *operand, what string) (bool, error) {
	if o.kind == LiteralValue && o.lit.Kind <= promote.IntScalar {
		return truth(o.lit), nil
	}
	return false, c.errorf(o.span(), "TypeError", "%s must be true or false", what)
}

// shapeOf reads a shape: an int, a tuple of ints, or a shape value.
// maxRank is the largest rank a tensor may have: NumPy's NPY_MAXDIMS (64
// since NumPy 2). Printing and broadcasting cost grows with the rank; a
// rank-10^5 shape used to take gigabytes to print.
const maxRank = 64

// checkRank refuses a rank beyond maxRank with NumPy's message.
func (c *compiler) checkRank(rank int, sp span) error {
	if rank > maxRank {
		return c.errorf(sp, "ValueError", "maximum supported dimension for a tensor is %d, found %d (as in NumPy)", maxRank, rank)
	}
	return nil
}

func (c *compiler) shapeOf(o *operand, what string) ([]int, error) {
	switch o.kind {
	case ShapeValue:
		return o.dims, nil
	case LiteralValue:
		n, err := c.intOf(o, what)
		if err != nil {
			return nil, err
		}
		return []int{n}, nil
	case tupleKind:
		if err := c.checkRank(len(o.elems), o.span()); err != nil {
			return nil, err
		}
		dims := make([]int, len(o.elems))
		for i, e := range o.elems {
			n, err := c.intOf(e, what)
			if err != nil {
				return nil, err
			}
			dims[i] = n
		}
		return dims, nil
	}
	return nil, c.errorf(o.span(), "TypeError", "%s must be a tuple of ints like (2, 3)", what)
}

// shapeArgs reads a shape given as one tuple or as several ints.
func (c *compiler) shapeArgs(k *call, from int) ([]int, error) {
	if len(k.args) <= from {
		return nil, c.errorf(k.sp, "TypeError", "%s() needs a shape; usage: %s", k.name, builtins[k.name].sig)
	}
	if len(k.args) == from+1 {
		return c.shapeOf(k.args[from], "shape")
	}
	var dims []int
	for _, a := range k.args[from:] {
		n, err := c.intOf(a, "shape")
		if err != nil {
			return nil, err
		}
		dims = append(dims, n)
	}
	return dims, nil
}

func (c *compiler) checkShape(dims []int, sp span) error {
	n := 1
	for _, d := range dims {
		if d < 0 {
			return c.errorf(sp, "ValueError", "negative dimensions are not allowed: %s", formatShape(dims))
		}
		if d > 0 && n > math.MaxInt/d {
			return c.errorf(sp, "MemoryError", "out of memory: shape %s has more elements than fit in memory", formatShape(dims))
		}
		n *= d
	}
	return nil
}

// dtypeOf reads a dtype argument (a dtype name or a dtype value) and checks
// it against the policy.
func (c *compiler) dtypeOf(o *operand) (dtypes.Type, error) {
	if o.kind == StringValue {
		t, err := dtypes.ParseType(o.str)
		if err != nil {
			return dtypes.Type{}, c.errorf(o.span(), "TypeError", "%v", err)
		}
		o = &operand{kind: DTypeValue, typ: t, start: o.start, end: o.end}
	}
	if o.kind != DTypeValue {
		return dtypes.Type{}, c.errorf(o.span(), "TypeError", "expected a dtype such as f32 or i16")
	}
	d, warning, err := c.policy.Check(o.typ.DType)
	if err != nil {
		return dtypes.Type{}, c.promoteError(err, o.span())
	}
	c.warn(warning)
	return dtypes.Type{DType: d, Weak: o.typ.Weak}, nil
}

// defaultDType returns the dtype kw "dtype" names, or the policy's default
// for arrays of kind k (made strong).
func (c *compiler) defaultDType(k *call, kind promote.ScalarKind) (dtypes.Type, error) {
	if o, ok := k.kw["dtype"]; ok {
		return c.dtypeOf(o)
	}
	t, err := c.policy.ArrayLiteral(kind)
	if err != nil {
		return dtypes.Type{}, c.promoteError(err, k.sp)
	}
	return dtypes.Strong(t.DType), nil
}

// tensorOperand wraps a CPU tensor made at compile time.
func tensorOperand(t *backend.Tensor, typ dtypes.Type, sp span) *operand {
	return &operand{kind: TensorValue, typ: typ, shape: t.Shape, node: inputNode(t), start: sp.start, end: sp.end}
}

// axesOf reads axis=: none, an int or a tuple of ints, normalised.
func (c *compiler) axesOf(k *call, rank int) ([]int, bool, error) {
	o, ok := k.kw["axis"]
	if !ok && len(k.args) > 1 {
		o, ok = k.args[1], true
	}
	if !ok || o.kind == noneKind {
		return nil, false, nil
	}
	var raw []int
	if o.kind == tupleKind {
		for _, e := range o.elems {
			a, err := c.intOf(e, "axis")
			if err != nil {
				return nil, false, err
			}
			raw = append(raw, a)
		}
	} else {
		a, err := c.intOf(o, "axis")
		if err != nil {
			return nil, false, err
		}
		raw = []int{a}
	}
	seen := map[int]bool{}
	var axes []int
	for _, a := range raw {
		n, err := c.normAxis(a, rank, o.span())
		if err != nil {
			return nil, false, err
		}
		if seen[n] {
			return nil, false, c.errorf(o.span(), "ValueError", "duplicate value in axis")
		}
		seen[n] = true
		axes = append(axes, n)
	}
	sort.Ints(axes)
	return axes, true, nil
}

func (c *compiler) tensorArg(k *call, i int, what string) (*operand, error) {
	o, err := k.arg(c, i, what)
	if err != nil {
		return nil, err
	}
	if err := c.requireNumeric(o, k.name, "()"); err != nil {
		return nil, err
	}
	return o, nil
}

// tensorX checks that k has from lo to hi positional arguments (hi < 0:
// any number) and returns the first, x, as a tensor: a literal becomes a
// 0-d tensor of its literal type.
func (c *compiler) tensorX(k *call, lo, hi int) (*operand, error) {
	if err := k.nargs(c, lo, hi); err != nil {
		return nil, err
	}
	x, err := c.tensorArg(k, 0, "x")
	if err != nil {
		return nil, err
	}
	return c.materialize(x), nil
}

// reductionArgs reads the arguments of f(x, axis=None, keepdims=false):
// x as a tensor, the axes it reduces (all of them when axis is not given)
// and keepdims.
func (c *compiler) reductionArgs(k *call) (x *operand, axes []int, keep bool, err error) {
	if x, err = c.tensorX(k, 1, 2); err != nil {
		return nil, nil, false, err
	}
	if axes, _, err = c.axesOf(k, len(x.shape)); err != nil {
		return nil, nil, false, err
	}
	if keep, err = c.keepdims(k); err != nil {
		return nil, nil, false, err
	}
	return x, axes, keep, nil
}

// keepdims returns a reduction's keepdims keyword, false when not given.
func (c *compiler) keepdims(k *call) (bool, error) {
	o, ok := k.kw["keepdims"]
	if !ok {
		return false, nil
	}
	return c.boolOf(o, "keepdims")
}

// materialize turns a literal operand into a 0-d tensor of its literal type.
func (c *compiler) materialize(o *operand) *operand {
	if o.kind != LiteralValue || o.litErr != nil {
		return o // a literal the policy cannot type fails in requireNumeric
	}
	t := literalTensor(o.lit, o.typ.DType)
	return &operand{kind: TensorValue, typ: o.typ, shape: nil, node: inputNode(t), value: &o.lit, start: o.start, end: o.end}
}

// builtins are the functions of the language, by name. The table is built
// by builtinTable in init because its functions refer to it (for their
// signatures in errors): a package-level initializer would be a cycle.
var builtins map[string]*builtin

func init() { builtins = builtinTable() }

// builtinTable returns the builtin functions, each named in its entry.
func builtinTable() map[string]*builtin {
	t := map[string]*builtin{
		// Elementwise functions of one argument: promote.UnaryOp by class.
		"abs": {sig: "abs(x)", doc: "Absolute value, elementwise; of a complex value, the real dtype of its precision (under NumPy's policies as NumPy's SIMD loop computes it).",
			example: "abs(f32([0.5, 1, 2]))", fn: elementwise(promote.Abs)},
		"cos": {sig: "cos(x)", doc: "Cosine, elementwise.",
			example: "cos(f32([0.5, 1, 2]))", fn: elementwise(promote.Cos)},
		"sin": {sig: "sin(x)", doc: "Sine, elementwise.",
			example: "sin(f32([0.5, 1, 2]))", fn: elementwise(promote.Sin)},
		"tanh": {sig: "tanh(x)", doc: "Hyperbolic tangent, elementwise.",
			example: "tanh(f32([0.5, 1, 2]))", fn: elementwise(promote.Tanh)},
		"exp": {sig: "exp(x)", doc: "e to the power x, elementwise.",
			example: "exp(f32([0.5, 1, 2]))", fn: elementwise(promote.Exp)},
		"log": {sig: "log(x)", doc: "Natural logarithm, elementwise.",
			example: "log(f32([0.5, 1, 2]))", fn: elementwise(promote.Log)},
		"log1p": {sig: "log1p(x)", doc: "log(1 + x), accurate for small x.",
			example: "log1p(f32([0.5, 1, 2]))", fn: elementwise(promote.Log1p)},
		"sqrt": {sig: "sqrt(x)", doc: "Square root, elementwise (correctly rounded).",
			example: "sqrt(f32([0.5, 1, 2]))", fn: elementwise(promote.Sqrt)},
		"rsqrt": {sig: "rsqrt(x)", doc: "1 / sqrt(x), elementwise.",
			example: "rsqrt(f32([0.5, 1, 2]))", fn: elementwise(promote.Rsqrt)},
		"erf": {sig: "erf(x)", doc: "The error function, elementwise.",
			example: "erf(f32([0.5, 1, 2]))", fn: elementwise(promote.Erf)},
		"sigmoid": {sig: "sigmoid(x)", doc: "1 / (1 + exp(-x)), elementwise.",
			example: "sigmoid(f32([0.5, 1, 2]))", fn: elementwise(promote.Sigmoid)},
		"silu": {sig: "silu(x)", doc: "x * sigmoid(x), elementwise.",
			example: "silu(f32([0.5, 1, 2]))", fn: elementwise(promote.Silu)},
		"gelu": {sig: "gelu(x)", doc: "The exact (erf) GELU: x/2 * (1 + erf(x/sqrt(2))).",
			example: "gelu(f32([0.5, 1, 2]))", fn: elementwise(promote.Gelu)},
		"relu": {sig: "relu(x)", doc: "max(x, 0), elementwise.",
			example: "relu(f32([0.5, 1, 2]))", fn: elementwise(promote.Relu)},
		"floor": {sig: "floor(x)", doc: "Round down, elementwise.",
			example: "floor(f32([0.5, 1, 2]))", fn: elementwise(promote.Floor)},
		"ceil": {sig: "ceil(x)", doc: "Round up, elementwise.",
			example: "ceil(f32([0.5, 1, 2]))", fn: elementwise(promote.Ceil)},
		"round": {sig: "round(x)", doc: "Round to nearest, halves away from zero (2.5 → 3); around(x, decimals) is NumPy's round.",
			example: "round(f32([0.5, 1, 2]))", kwargs: []string{"decimals"}, fn: roundFn},
		"roundeven": {sig: "roundeven(x)", doc: "Round to nearest, halves to even (2.5 → 2).",
			example: "roundeven(f32([0.5, 1, 2]))", fn: elementwise(promote.RoundEven)},
		"trunc": {sig: "trunc(x)", doc: "Round toward zero, elementwise.",
			example: "trunc(f32([0.5, 1, 2]))", fn: elementwise(promote.Trunc)},
		"is_nan": {sig: "is_nan(x)", doc: "True where x is NaN.",
			example: "is_nan(f32([0.5, 1, 2]))", fn: elementwise(promote.IsNaN)},
		"is_inf": {sig: "is_inf(x)", doc: "True where x is ±inf.",
			example: "is_inf(f32([0.5, 1, 2]))", fn: elementwise(promote.IsInf)},
		// NumPy's, JAX's and the Array API's spellings of is_nan and
		// is_inf, and NumPy's name of abs and of ~.
		"isnan": {sig: "isnan(x)", doc: "True where x is NaN (NumPy's name of is_nan).",
			example: "isnan(f32([1, nan, inf]))", fn: elementwise(promote.IsNaN)},
		"isinf": {sig: "isinf(x)", doc: "True where x is ±inf (NumPy's name of is_inf).",
			example: "isinf(f32([1, nan, -inf]))", fn: elementwise(promote.IsInf)},
		"absolute": {sig: "absolute(x)", doc: "abs(x) (NumPy's other name).",
			example: "absolute(i8([-3, 0, 5]))", fn: elementwise(promote.Abs)},
		"invert": {sig: "invert(x)", doc: "~x: bitwise not of integers, logical not of bools.",
			example: "invert(u8([0, 1, 255]))", fn: elementwise(promote.Invert)},
		"negative": {sig: "negative(x)", doc: "-x, elementwise.",
			example: "negative(f32([0.5, 1, 2]))", fn: elementwise(promote.Neg)},
		"logical_not": {sig: "logical_not(x)", doc: "not x, elementwise (bool result).",
			example: "logical_not(f32([0.5, 1, 2]))", fn: elementwise(promote.Not)},
		"tan": {sig: "tan(x)", doc: "Tangent, elementwise.",
			example: "tan(f32([0.5, 1, 2]))", fn: elementwise(promote.Tan)},
		"arcsin": {sig: "arcsin(x)", doc: "Inverse sine, elementwise (NaN outside [-1, 1]).",
			example: "arcsin(f32([-1, 0, 0.5]))", fn: elementwise(promote.Arcsin)},
		"arccos": {sig: "arccos(x)", doc: "Inverse cosine, elementwise (NaN outside [-1, 1]).",
			example: "arccos(f32([-1, 0, 0.5]))", fn: elementwise(promote.Arccos)},
		"arctan": {sig: "arctan(x)", doc: "Inverse tangent, elementwise.",
			example: "arctan(f32([-1, 0, 0.5]))", fn: elementwise(promote.Arctan)},
		"sinh": {sig: "sinh(x)", doc: "Hyperbolic sine, elementwise.",
			example: "sinh(f32([0.5, 1, 2]))", fn: elementwise(promote.Sinh)},
		"cosh": {sig: "cosh(x)", doc: "Hyperbolic cosine, elementwise.",
			example: "cosh(f32([0.5, 1, 2]))", fn: elementwise(promote.Cosh)},
		"arcsinh": {sig: "arcsinh(x)", doc: "Inverse hyperbolic sine, elementwise.",
			example: "arcsinh(f32([0.5, 1, 2]))", fn: elementwise(promote.Arcsinh)},
		"arccosh": {sig: "arccosh(x)", doc: "Inverse hyperbolic cosine, elementwise (NaN below 1).",
			example: "arccosh(f32([1, 2, 10]))", fn: elementwise(promote.Arccosh)},
		"arctanh": {sig: "arctanh(x)", doc: "Inverse hyperbolic tangent, elementwise (±inf at ±1).",
			example: "arctanh(f32([-0.5, 0, 0.5]))", fn: elementwise(promote.Arctanh)},
		"log2": {sig: "log2(x)", doc: "Base-2 logarithm, elementwise.",
			example: "log2(f32([0.5, 1, 8]))", fn: elementwise(promote.Log2)},
		"log10": {sig: "log10(x)", doc: "Base-10 logarithm, elementwise (log10(0) is -inf).",
			example: "log10(f32([0, 1, 1000]))", fn: elementwise(promote.Log10)},
		"exp2": {sig: "exp2(x)", doc: "2 to the power x, elementwise.",
			example: "exp2(f32([-1, 0, 10]))", fn: elementwise(promote.Exp2)},
		"expm1": {sig: "expm1(x)", doc: "exp(x) - 1, accurate for small x.",
			example: "expm1(f32([1e-10, 0, 1]))", fn: elementwise(promote.Expm1)},
		"sign": {sig: "sign(x)", doc: "-1, 0 or 1 by the sign of x (NaN stays NaN), in x's dtype.",
			example: "sign(i8([-5, 0, 3]))", fn: elementwise(promote.Sign)},
		"square": {sig: "square(x)", doc: "x * x in x's dtype (integers wrap; NumPy squares bool in int8).",
			example: "square(i8([3, -4, 12]))", fn: elementwise(promote.Square)},
		"reciprocal": {sig: "reciprocal(x)", doc: "1 / x; NumPy keeps integers (1/2 is 0), JAX and PyTorch give floats.",
			example: "reciprocal(i16([1, 2, -1]))", fn: elementwise(promote.Reciprocal)},
		"isfinite": {sig: "isfinite(x)", doc: "True where x is neither ±inf nor NaN.",
			example: "isfinite(f32([1, inf, nan]))", fn: elementwise(promote.IsFinite)},
		"softmax": {sig: "softmax(x, axis=-1)", doc: "exp(x) / sum(exp(x)) along axis (default -1), computed stably.",
			example: "softmax(f32([[1, 2, 3], [1, 1, 1]]))", kwargs: []string{"axis"}, fn: softmaxLike(promote.Softmax)},
		"logsoftmax": {sig: "logsoftmax(x, axis=-1)", doc: "log(softmax(x)) along axis (default -1), computed stably.",
			example: "logsoftmax(f32([[1, 2, 3], [1, 1, 1]]))", kwargs: []string{"axis"}, fn: softmaxLike(promote.LogSoftmax)},

		// Elementwise functions of two arguments, as the operators.
		"add": {sig: "add(a, b)", doc: "a + b, elementwise with promotion and broadcasting.",
			example: "add(i16([1, 2]), 3)", fn: binaryFn(promote.Add)},
		"sub": {sig: "sub(a, b)", doc: "a - b.",
			example: "sub(i16([1, 2]), 3)", fn: binaryFn(promote.Sub)},
		"mul": {sig: "mul(a, b)", doc: "a * b.",
			example: "mul(i16([1, 2]), 3)", fn: binaryFn(promote.Mul)},
		"div": {sig: "div(a, b)", doc: "a / b (true division).",
			example: "div(i16([1, 2]), 3)", fn: binaryFn(promote.TrueDiv)},
		"floor_divide": {sig: "floor_divide(a, b)", doc: "a // b.",
			example: "floor_divide(i16([1, 2]), 3)", fn: binaryFn(promote.FloorDiv)},
		"true_divide": {sig: "true_divide(a, b)", doc: "a / b (NumPy's other name for div).",
			example: "true_divide(i16([1, 2]), 3)", fn: binaryFn(promote.TrueDiv)},
		"arctan2": {sig: "arctan2(y, x)", doc: "The angle of the point (x, y), elementwise, in (-pi, pi]; float-producing.",
			example: "arctan2(f32([1, -1]), f32([0, -1]))", fn: binaryFn(promote.Arctan2)},
		"hypot": {sig: "hypot(a, b)", doc: "sqrt(a*a + b*b) without overflow, elementwise; float-producing.",
			example: "hypot(f32([3, 1e30]), f32([4, 1e30]))", fn: binaryFn(promote.Hypot)},
		"mod": {sig: "mod(a, b)", doc: "a % b (sign follows the divisor, except where the policy uses C semantics).",
			example: "mod(i16([1, 2]), 3)", fn: binaryFn(promote.Mod)},
		"pow": {sig: "pow(a, b)", doc: "a ** b.",
			example: "pow(i16([1, 2]), 3)", fn: binaryFn(promote.Pow)},
		// NumPy's names of the operators.
		"power": {sig: "power(a, b)", doc: "a ** b (NumPy's name of pow).",
			example: "power(i16([1, 2]), 3)", fn: binaryFn(promote.Pow)},
		"multiply": {sig: "multiply(a, b)", doc: "a * b (NumPy's name of mul).",
			example: "multiply(i16([1, 2]), 3)", fn: binaryFn(promote.Mul)},
		"subtract": {sig: "subtract(a, b)", doc: "a - b (NumPy's name of sub).",
			example: "subtract(i16([1, 2]), 3)", fn: binaryFn(promote.Sub)},
		"divide": {sig: "divide(a, b)", doc: "a / b (NumPy's name of div).",
			example: "divide(i16([1, 2]), 3)", fn: binaryFn(promote.TrueDiv)},
		"remainder": {sig: "remainder(a, b)", doc: "a % b (NumPy's name of mod).",
			example: "remainder(i16([-1, 2]), 3)", fn: binaryFn(promote.Mod)},
		"logical_and": {sig: "logical_and(a, b)", doc: "a and b, elementwise: true where both are nonzero (NaN is nonzero).",
			example: "logical_and(f32([0, 1, 2]), i8([1, 1, 0]))", fn: binaryFn(promote.And)},
		"logical_or": {sig: "logical_or(a, b)", doc: "a or b, elementwise: true where either is nonzero (NaN is nonzero).",
			example: "logical_or(f32([0, 1, 0]), i8([1, 0, 0]))", fn: binaryFn(promote.Or)},
		"bitwise_and": {sig: "bitwise_and(a, b)", doc: "a & b.",
			example: "bitwise_and(u8([12, 10]), 6)", fn: binaryFn(promote.BitAnd)},
		"bitwise_or": {sig: "bitwise_or(a, b)", doc: "a | b.",
			example: "bitwise_or(u8([12, 10]), 6)", fn: binaryFn(promote.BitOr)},
		"bitwise_xor": {sig: "bitwise_xor(a, b)", doc: "a ^ b.",
			example: "bitwise_xor(u8([12, 10]), 6)", fn: binaryFn(promote.BitXor)},
		"left_shift": {sig: "left_shift(a, b)", doc: "a << b.",
			example: "left_shift(u8([1, 3]), 2)", fn: binaryFn(promote.Shl)},
		"right_shift": {sig: "right_shift(a, b)", doc: "a >> b.",
			example: "right_shift(i8([-8, 12]), 2)", fn: binaryFn(promote.Shr)},
		"equal": {sig: "equal(a, b)", doc: "a == b (bool result).",
			example: "equal(i16([1, 2]), 3)", fn: binaryFn(promote.Eq)},
		"not_equal": {sig: "not_equal(a, b)", doc: "a != b.",
			example: "not_equal(i16([1, 2]), 3)", fn: binaryFn(promote.Ne)},
		"greater": {sig: "greater(a, b)", doc: "a > b.",
			example: "greater(i16([1, 2]), 3)", fn: binaryFn(promote.Gt)},
		"greater_equal": {sig: "greater_equal(a, b)", doc: "a >= b.",
			example: "greater_equal(i16([1, 2]), 3)", fn: binaryFn(promote.Ge)},
		"less": {sig: "less(a, b)", doc: "a < b.",
			example: "less(i16([1, 2]), 3)", fn: binaryFn(promote.Lt)},
		"less_equal": {sig: "less_equal(a, b)", doc: "a <= b.",
			example: "less_equal(i16([1, 2]), 3)", fn: binaryFn(promote.Le)},
		"maximum": {sig: "maximum(a, b)", doc: "Elementwise maximum (NaN propagates).",
			example: "maximum(i16([1, 2]), 3)", fn: binaryFn(promote.Maximum)},
		"minimum": {sig: "minimum(a, b)", doc: "Elementwise minimum (NaN propagates).",
			example: "minimum(i16([1, 2]), 3)", fn: binaryFn(promote.Minimum)},

		// Reductions.
		"sum": {sig: "sum(x, axis=None, keepdims=false)", doc: "Sum over axis (all axes by default).",
			example: "sum(i8([[1, 2], [3, 4]]), axis=0)", kwargs: []string{"axis", "keepdims"}, fn: reduction(promote.Sum)},
		"prod": {sig: "prod(x, axis=None, keepdims=false)", doc: "Product over axis (all axes by default).",
			example: "prod(i8([[1, 2], [3, 4]]), axis=0)", kwargs: []string{"axis", "keepdims"}, fn: reduction(promote.Prod)},
		"mean": {sig: "mean(x, axis=None, keepdims=false)", doc: "Mean over axis (all axes by default).",
			example: "mean(i8([[1, 2], [3, 4]]), axis=0)", kwargs: []string{"axis", "keepdims"}, fn: reduction(promote.Mean)},
		"argmax": {sig: "argmax(x, axis=None, keepdims=false)", doc: "Index of the first maximum (NaN wins) over axis, or of the flattened tensor.",
			example: "argmax(i8([[1, 2], [3, 4]]), axis=0)", kwargs: []string{"axis", "keepdims"}, fn: reduction(promote.ArgMax)},
		"argmin": {sig: "argmin(x, axis=None, keepdims=false)", doc: "Index of the first minimum (NaN wins) over axis, or of the flattened tensor.",
			example: "argmin(i8([[1, 2], [3, 4]]), axis=0)", kwargs: []string{"axis", "keepdims"}, fn: reduction(promote.ArgMin)},
		"any": {sig: "any(x, axis=None, keepdims=false)", doc: "True if any element is true (nonzero) over axis.",
			example: "any(i8([[1, 2], [3, 4]]), axis=0)", kwargs: []string{"axis", "keepdims"}, fn: reduction(promote.Any)},
		"all": {sig: "all(x, axis=None, keepdims=false)", doc: "True if every element is true (nonzero) over axis.",
			example: "all(i8([[1, 2], [3, 4]]), axis=0)", kwargs: []string{"axis", "keepdims"}, fn: reduction(promote.All)},
		"max": {sig: "max(x, axis=None, keepdims=false) or max(a, b)", doc: "With one argument, the maximum over axis; with two, the elementwise maximum (NaN propagates).",
			example: "max(f32([1, 5, 2])); max(i8([1, 5]), i8([4, 2]))", kwargs: []string{"axis", "keepdims"}, fn: maxOrMaximum},
		"min": {sig: "min(x, axis=None, keepdims=false) or min(a, b)", doc: "With one argument, the minimum over axis; with two, the elementwise minimum (NaN propagates).",
			example: "min(f32([1, 5, 2])); min(i8([1, 5]), i8([4, 2]))", kwargs: []string{"axis", "keepdims"}, fn: minOrMinimum},

		// Types and values.
		"where": {sig: "where(cond, a, b)", doc: "Elements of a where cond is true, else of b; a and b are promoted together.",
			example: "where(f32([1, -1]) > 0, 1, i8([5, 6]))", fn: where},
		"cast": {sig: "cast(x, dtype)", doc: "Converts x to dtype (a known type; integers wrap, floats round to nearest even).",
			example: "cast(f32([1.7, -1.7]), i8)", fn: cast},
		"clip": {sig: "clip(x, lo, hi)", doc: "min(max(x, lo), hi), with promotion as the policy does for clip.",
			example: "clip(i16([-5, 5, 50]), 0, 10)", fn: clip},
		"weak": {sig: "weak(x)", doc: "The same value with the weak (?) flag set.",
			example: "weak(i16([1, 2]))", fn: weak},
		"strong": {sig: "strong(x)", doc: "The same value with the weak (?) flag cleared.",
			example: "strong(1.5)", fn: strong},
		"dtype": {sig: "dtype(x)", doc: "The dtype of x, with ? if it is weak.",
			example: "dtype(i16([1]) + 1.5)", fn: dtype},
		"shape": {sig: "shape(x)", doc: "The shape of x as a tuple.",
			example: "shape(zeros((2, 3)))", fn: shape},
		"promote": {sig: "promote(a, b, …)", doc: "The library's promote_types of dtypes (weak with ?) or values, without data: all of them promoted together (jnp.promote_types, np.result_type, torch.promote_types).",
			example: "promote(i16, f32?)", fn: promoteFn},
		"result_type": {sig: "result_type(a, b, …)", doc: "The library's result_type of dtypes or values: the dtype arrays of these types give together (jnp.result_type: canonicalised with x64 off, weak results at the default width).",
			example: "result_type(i16, f32?)", fn: resultType},
		"broadcast_shapes": {sig: "broadcast_shapes(s1, s2, …)", doc: "The shape NumPy broadcasting gives shapes s1, s2, ….",
			example: "broadcast_shapes((3, 1), (4,))", fn: broadcastShapes},

		// Constructors (shapes.go).
		"zeros": {sig: "zeros(shape, dtype=None)", doc: "A tensor of zeros (the policy's default float unless dtype= is given).",
			example: "zeros((2, 3), dtype=i8)", kwargs: []string{"dtype"}, fn: zeros},
		"ones": {sig: "ones(shape, dtype=None)", doc: "A tensor of ones (the policy's default float unless dtype= is given).",
			example: "ones((2, 3), dtype=i8)", kwargs: []string{"dtype"}, fn: ones},
		"full": {sig: "full(shape, value, dtype=None)", doc: "A tensor filled with value; its dtype follows value's kind unless dtype= is given.",
			example: "full((2, 2), 7)", kwargs: []string{"dtype"}, fn: full},
		"zeros_like": {sig: "zeros_like(x, dtype=None)", doc: "Zeros of x's shape and type (weak or not) unless dtype= is given.",
			example: "zeros_like(i8([[1, 2], [3, 4]]))", kwargs: []string{"dtype"}, fn: zerosLike},
		"ones_like": {sig: "ones_like(x, dtype=None)", doc: "Ones of x's shape and type (weak or not) unless dtype= is given.",
			example: "ones_like(f16([1, 2, 3]))", kwargs: []string{"dtype"}, fn: onesLike},
		"full_like": {sig: "full_like(x, value, dtype=None)", doc: "value in x's shape and type (weak or not) unless dtype= is given; value converts as in full.",
			example: "full_like(i16([1, 2, 3]), 7)", kwargs: []string{"dtype"}, fn: fullLike},
		"arange": {sig: "arange(stop) or arange(start, stop, step=1, dtype=None)", doc: "Evenly spaced values in [start, stop).",
			example: "arange(5); arange(0, 1, 0.25)", kwargs: []string{"dtype", "step"}, fn: arange},
		"linspace": {sig: "linspace(start, stop, num=50, endpoint=true, dtype=None)", doc: "num evenly spaced values from start to stop (inclusive unless endpoint=false).",
			example: "linspace(0, 1, 5); linspace(0, 1, 4, endpoint=false)", kwargs: []string{"num", "endpoint", "dtype"}, fn: linspace},
		"eye": {sig: "eye(n, m=None, k=0, dtype=None)", doc: "An n×m matrix with ones on its k-th diagonal (above the main one for k > 0): the identity by default.",
			example: "eye(3, dtype=i8); eye(3, 4, k=1)", kwargs: []string{"m", "M", "k", "dtype"}, fn: eye},
		"rand": {sig: "rand(shape, dtype=None, seed=None)", doc: "Uniform random values in [0, 1) from the session's seeded generator (seed= reseeds it).",
			example: "rand((2, 3), seed=0)", kwargs: []string{"dtype", "seed"}, fn: randUniform},
		"randn": {sig: "randn(shape, dtype=None, seed=None)", doc: "Standard normal random values from the session's seeded generator (seed= reseeds it).",
			example: "randn((2, 3), seed=0)", kwargs: []string{"dtype", "seed"}, fn: randNormal},

		// Shape operations (shapes.go).
		"reshape": {sig: "reshape(x, shape)", doc: "x with a new shape of the same size (one dimension may be -1).",
			example: "reshape(arange(6), (2, 3))", fn: reshape},
		"transpose": {sig: "transpose(x, axes=None)", doc: "x with its axes permuted (reversed by default).",
			example: "transpose(reshape(arange(6), (2, 3)))", kwargs: []string{"axes"}, fn: transpose},
		"broadcast_to": {sig: "broadcast_to(x, shape)", doc: "x broadcast to shape (NumPy rules).",
			example: "broadcast_to(i8([1, 2]), (3, 2))", fn: broadcastTo},
		"expand_dims": {sig: "expand_dims(x, axis)", doc: "x with a new axis of length 1 inserted at axis.",
			example: "expand_dims(i8([1, 2]), 0)", kwargs: []string{"axis"}, fn: expandDims},
		"squeeze": {sig: "squeeze(x, axis=None)", doc: "x without its length-1 axes (or just the given one).",
			example: "squeeze(zeros((1, 3, 1)))", kwargs: []string{"axis"}, fn: squeeze},
		"flip": {sig: "flip(x, axis=None)", doc: "x reversed along axis (every axis by default), as x[::-1] is along the first.",
			example: "flip(i8([[1, 2], [3, 4]]), axis=1)", kwargs: []string{"axis"}, fn: flip},
		"concat": {sig: "concat([a, b, …], axis=0)", doc: "Joins tensors along an existing axis, promoting their dtypes.",
			example: "concat([i8([1, 2]), f16([3])])", kwargs: []string{"axis"}, fn: concat},
		"stack": {sig: "stack([a, b, …], axis=0)", doc: "Joins same-shaped tensors along a new axis, promoting their dtypes.",
			example: "stack([i8([1, 2]), i8([3, 4])])", kwargs: []string{"axis"}, fn: stack},

		// NumPy's matrix and repetition helpers (matrices.go).
		"diagonal": {sig: "diagonal(x, offset=0, axis1=0, axis2=1)", doc: "The elements x[…, i, i+offset] of axes axis1 and axis2, which leave the shape; the diagonal is the last axis.",
			example: "diagonal(reshape(arange(12), (3, 4)), 1)", kwargs: []string{"offset", "axis1", "axis2"}, fn: diagonal},
		"diag": {sig: "diag(v, k=0)", doc: "The k-th diagonal of a matrix, or the square matrix with vector v on its k-th diagonal and zeros elsewhere.",
			example: "diag(i8([1, 2, 3])); diag(reshape(arange(9), (3, 3)), k=-1)", kwargs: []string{"k"}, fn: diag},
		"trace": {sig: "trace(x, offset=0, axis1=0, axis2=1)", doc: "The sum of diagonal(x, offset, axis1, axis2) along its last axis, in the policy's sum dtype.",
			example: "trace(i8([[1, 2], [3, 4]]))", kwargs: []string{"offset", "axis1", "axis2"}, fn: trace},
		"tril": {sig: "tril(x, k=0)", doc: "x with the elements above its k-th diagonal zeroed (in the last two axes).",
			example: "tril(ones((3, 3), dtype=i8))", kwargs: []string{"k"}, fn: tril},
		"triu": {sig: "triu(x, k=0)", doc: "x with the elements below its k-th diagonal zeroed (in the last two axes).",
			example: "triu(ones((3, 3), dtype=i8), k=1)", kwargs: []string{"k"}, fn: triu},
		"outer": {sig: "outer(a, b)", doc: "The product of every element of a with every element of b: a[:, None] * b[None, :] (NumPy ravels a and b first).",
			example: "outer(i8([1, 2, 3]), f16([1, 10]))", fn: outer},
		"tile": {sig: "tile(x, reps)", doc: "x repeated reps[i] times along axis i (reps an int or a tuple).",
			example: "tile(i8([1, 2]), (2, 3))", fn: tile},
		"repeat": {sig: "repeat(x, repeats, axis=None)", doc: "Each element of x repeated repeats times along axis (of the flattened x by default).",
			example: "repeat(i8([[1, 2], [3, 4]]), 2, axis=1)", kwargs: []string{"axis"}, fn: repeat},
		"logical_xor": {sig: "logical_xor(a, b)", doc: "True where exactly one of a and b is nonzero (NaN is nonzero), elementwise.",
			example: "logical_xor(f32([0, 1, 2]), i8([1, 1, 0]))", fn: logicalXor},
		"nan_to_num": {sig: "nan_to_num(x, nan=0.0, posinf=None, neginf=None)", doc: "x with NaN replaced by nan, +inf by posinf and -inf by neginf (by default the dtype's largest and most negative finite values).",
			example: "nan_to_num(f16([1, nan, inf, -inf]))", kwargs: []string{"nan", "posinf", "neginf"}, fn: nanToNum},
		"ravel": {sig: "ravel(x)", doc: "x as one axis: reshape(x, -1).",
			example: "ravel(i8([[1, 2], [3, 4]]))", fn: ravel},
		"swapaxes": {sig: "swapaxes(x, a, b)", doc: "x with axes a and b swapped.",
			example: "shape(swapaxes(zeros((2, 3, 4)), 0, 2))", fn: swapaxes},
		"moveaxis": {sig: "moveaxis(x, source, destination)", doc: "x with axes source moved to destination (ints or tuples), the others in order.",
			example: "shape(moveaxis(zeros((2, 3, 4)), 0, -1))", fn: moveaxis},
		"hstack": {sig: "hstack([a, b, …])", doc: "concat along axis 1 (axis 0 for vectors), promoting the dtypes.",
			example: "hstack([i8([1, 2]), i8([3])])", fn: hstack},
		"vstack": {sig: "vstack([a, b, …])", doc: "concat along axis 0, vectors as rows, promoting the dtypes.",
			example: "vstack([i8([1, 2]), f16([3, 4])])", fn: vstack},
		"sort": {sig: "sort(x, axis=-1, descending=false)", doc: "x sorted along axis (the flattened x for axis=None), NaN last, equal elements in their order.",
			example: "sort(f32([3, nan, -1, 2])); sort(i8([[3, 1], [2, 5]]), axis=0)", kwargs: []string{"axis", "descending"}, fn: sortFn},
		"median": {sig: "median(x, axis=None, keepdims=false)", doc: "The middle value along axis (of the flattened x by default): NumPy's and JAX's mean of the two middle ones for an even count, PyTorch's lower one; NaN where a NaN is met.",
			example: "median(i8([3, 1, 4, 1, 5, 9]))", kwargs: []string{"axis", "keepdims"}, fn: median},
		"quantile": {sig: "quantile(x, q, axis=None, keepdims=false, method=\"linear\")", doc: "The q-th quantiles (q in [0, 1], a number or a list) along axis (of the flattened x by default), interpolated between the sorted places as the policy's library does; method linear, lower, higher, midpoint or nearest.",
			example: "quantile(i8([1, 2, 3, 4, 10]), [0.25, 0.5, 0.9])", kwargs: []string{"axis", "keepdims", "method", "interpolation"}, fn: quantileFn(false)},
		"percentile": {sig: "percentile(x, q, axis=None, keepdims=false, method=\"linear\")", doc: "quantile with q in [0, 100].",
			example: "percentile(f32([3, 1, 4, 1, 5]), 30)", kwargs: []string{"axis", "keepdims", "method", "interpolation"}, fn: quantileFn(true)},
		"around": {sig: "around(x, decimals=0)", doc: "NumPy's round: x rounded to decimals places, halves to even (round(x) rounds halves away from zero), computed as the policy's library does.",
			example: "around(f32([1.005, 2.675, -0.125]), 2)", kwargs: []string{"decimals"}, fn: around},
		"concatenate": {sig: "concatenate([a, b, …], axis=0)", doc: "concat (NumPy's name): joins tensors along an existing axis, promoting their dtypes.",
			example: "concatenate([i8([1, 2]), f16([3])])", kwargs: []string{"axis"}, fn: concat},
		"matmul": {sig: "matmul(a, b)", doc: "a @ b (NumPy's name).",
			example: "matmul(f32([[1, 2], [3, 4]]), f32([1, 1]))", fn: binaryFn(promote.MatMul)},
		"identity": {sig: "identity(n, dtype=None)", doc: "The n×n identity matrix: eye(n) (NumPy's name).",
			example: "identity(3, dtype=i8)", kwargs: []string{"dtype"}, fn: identity},
		"nansum": {sig: "nansum(x, axis=None, keepdims=false)", doc: "The sum over axis with NaNs counted as 0.",
			example: "nansum(f32([1, nan, 2]))", kwargs: []string{"axis", "keepdims"}, fn: nanReduction(promote.Sum)},
		"nanmean": {sig: "nanmean(x, axis=None, keepdims=false)", doc: "The mean over axis of the elements that are not NaN (NaN where there are none), divided as the policy's library divides.",
			example: "nanmean(f32([1, nan, 2]))", kwargs: []string{"axis", "keepdims"}, fn: nanReduction(promote.Mean)},
		"nanmax": {sig: "nanmax(x, axis=None, keepdims=false)", doc: "The maximum over axis of the elements that are not NaN (NaN where there are none).",
			example: "nanmax(f32([1, nan, 2]))", kwargs: []string{"axis", "keepdims"}, fn: nanReduction(promote.ReduceMax)},
		"nanmin": {sig: "nanmin(x, axis=None, keepdims=false)", doc: "The minimum over axis of the elements that are not NaN (NaN where there are none).",
			example: "nanmin(f32([1, nan, 2]))", kwargs: []string{"axis", "keepdims"}, fn: nanReduction(promote.ReduceMin)},
		"roll": {sig: "roll(x, shift, axis=None)", doc: "x's elements moved shift places along axis, those past the end coming round to the front (of the flattened x by default).",
			example: "roll(i8([1, 2, 3, 4]), 1); roll(reshape(arange(6), (2, 3)), -1, axis=1)", kwargs: []string{"axis"}, fn: roll},
		"argsort": {sig: "argsort(x, axis=-1)", doc: "The indices along axis that sort x (the flattened x for axis=None), NaN last, equal elements in index order; in the policy's index dtype.",
			example: "argsort(f32([3, nan, -1, 2])); argsort(i8([[3, 1], [2, 5]]), axis=0)", kwargs: []string{"axis"}, fn: argsort},
		"ptp": {sig: "ptp(x, axis=None, keepdims=false)", doc: "max(x) - min(x) over axis (peak to peak), in x's dtype: integers wrap.",
			example: "ptp(i8([[1, 5], [-3, 2]]), axis=1)", kwargs: []string{"axis", "keepdims"}, fn: ptp},
		"isin": {sig: "isin(element, test_elements)", doc: "True where an element equals one of test_elements (NaN is in nothing), in element's shape.",
			example: "isin(i8([1, 2, 3, 4]), [2, 4])", fn: isin},
		"cross": {sig: "cross(a, b, axis=-1)", doc: "The cross product of the 3-vectors (NumPy: or 2-vectors) along axis of a and b.",
			example: "cross(f32([1, 0, 0]), f32([0, 1, 0]))", kwargs: []string{"axis"}, fn: cross},
		"average": {sig: "average(a, axis=None, weights=None, keepdims=false)", doc: "The mean over axis, or with weights sum(a·w) / sum(w) as the policy's library computes it.",
			example: "average(i8([1, 2, 3]), weights=f32([3, 1, 0]))", kwargs: []string{"axis", "weights", "keepdims"}, fn: average},
		"isclose": {sig: "isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=false)", doc: "True where a and b are equal within atol + rtol * abs(b), by the formula and in the dtypes of the policy's library (NumPy, JAX or PyTorch).",
			example: "isclose(f32([1, 1.00001, 1.1]), 1)", kwargs: []string{"rtol", "atol", "equal_nan"}, fn: isclose},
		"allclose": {sig: "allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=false)", doc: "all(isclose(a, b, …)): a Python bool under NumPy and PyTorch, a 0-d bool under JAX.",
			example: "allclose(f32([1, 2]), f64([1, 2.000001]))", kwargs: []string{"rtol", "atol", "equal_nan"}, fn: allclose},
		"empty": {sig: "empty(shape, dtype=None)", doc: "A tensor whose values are not to be relied on (tensorsh's are zeros, as jnp.empty's).",
			example: "empty((2, 3), dtype=i8)", kwargs: []string{"dtype"}, fn: empty},

		// Promotion tables and graphs (tables.go).
		"table": {sig: "table(policy=active, op=\"+\")", doc: "The promotion table of a policy over its dtypes (and its weak literal types), for + or another operator.",
			example: "table(\"numpy\")", kwargs: []string{"op"}, fn: table},
		"diff": {sig: "diff(\"jax\", \"numpy\", op=\"+\") or diff(x, n=1, axis=-1)", doc: "With policy names, the cells where two policies' promotion tables differ, with both answers and a count; with a tensor, NumPy's diff: x[1:] - x[:-1] along axis, n times.",
			example: "diff(\"jax\", \"numpy\"); diff(i8([1, 4, 9, 16]))", kwargs: []string{"op", "n", "axis"}, fn: diff},
		"lattice": {sig: "lattice(policy=active, literals=false)", doc: "The promotion graph of a policy: the Hasse diagram of its join where it is a lattice, else what promotes to what (SVG in Jupyter).",
			example: "lattice(\"max\")", kwargs: []string{"literals"}, fn: lattice},

		// Everyday functions (everyday.go).
		"cumsum": {sig: "cumsum(x, axis=None)", doc: "Running sum along axis (of the flattened tensor by default), in the policy's accumulator dtype.",
			example: "cumsum(i8([100, 100]))", kwargs: []string{"axis"}, fn: cumulative(promote.CumSum)},
		"cumprod": {sig: "cumprod(x, axis=None)", doc: "Running product along axis (of the flattened tensor by default), in the policy's accumulator dtype.",
			example: "cumprod(i8([[1, 2], [3, 4]]), axis=1)", kwargs: []string{"axis"}, fn: cumulative(promote.CumProd)},
		"var": {sig: "var(x, axis=None, ddof=0, keepdims=false)", doc: "Variance over axis: the mean of squared deviations, divided by n - ddof (correction= is the same; torch's default is 1).",
			example: "var(f32([1, 2, 3, 4])); var(i8([1, 2, 3, 4]), ddof=1)", kwargs: []string{"axis", "ddof", "correction", "keepdims"}, fn: moment(promote.Var)},
		"std": {sig: "std(x, axis=None, ddof=0, keepdims=false)", doc: "Standard deviation over axis: sqrt(var(x, axis, ddof)).",
			example: "std(f64([1, 2, 3, 4]), ddof=1)", kwargs: []string{"axis", "ddof", "correction", "keepdims"}, fn: moment(promote.Std)},
		"count_nonzero": {sig: "count_nonzero(x, axis=None, keepdims=false)", doc: "How many elements are not zero, over axis (all by default).",
			example: "count_nonzero(i8([[0, 1], [2, 0]]), axis=0)", kwargs: []string{"axis", "keepdims"}, fn: countNonzero},
		"dot": {sig: "dot(a, b)", doc: "NumPy's dot: the inner product of vectors, the matrix product of matrices, a sum over a's last and b's second-to-last axis, or a product with a 0-d operand.",
			example: "dot(i8([1, 2]), i16([3, 4]))", fn: dot},
	}
	for name, b := range t {
		b.name = name
	}
	return t
}

// elementwise is a function of one tensor computed element by element.
func elementwise(op promote.UnaryOp) builtinFunc {
	return func(c *compiler, k *call) (*operand, error) {
		if err := k.nargs(c, 1, 1); err != nil {
			return nil, err
		}
		x, err := c.tensorArg(k, 0, "x")
		if err != nil {
			return nil, err
		}
		return c.unary(op, c.materialize(x), k.fnSpan, 0)
	}
}

// softmaxLike is softmax or logsoftmax: a normalisation along one axis.
func softmaxLike(op promote.UnaryOp) builtinFunc {
	return func(c *compiler, k *call) (*operand, error) {
		if err := k.nargs(c, 1, 2); err != nil {
			return nil, err
		}
		x, err := c.tensorArg(k, 0, "x")
		if err != nil {
			return nil, err
		}
		axis := -1
		if o, ok := k.kw["axis"]; ok {
			if axis, err = c.intOf(o, "axis"); err != nil {
				return nil, err
			}
		} else if len(k.args) == 2 {
			if axis, err = c.intOf(k.args[1], "axis"); err != nil {
				return nil, err
			}
		}
		return c.unary(op, c.materialize(x), k.fnSpan, axis)
	}
}

// binaryFn is the named form of a binary operator.
func binaryFn(op promote.BinaryOp) builtinFunc {
	return func(c *compiler, k *call) (*operand, error) {
		if err := k.nargs(c, 2, 2); err != nil {
			return nil, err
		}
		return c.binaryCall(op, k.args[0], k.args[1], k.fnSpan)
	}
}

// reduction is a reduction over axes (all by default).
func reduction(op promote.UnaryOp) builtinFunc {
	return func(c *compiler, k *call) (*operand, error) { return c.reduce(op, k) }
}

// maxOrMaximum is max: a reduction with one argument, maximum with two.
func maxOrMaximum(c *compiler, k *call) (*operand, error) {
	return reduceOrBinary(c, k, promote.ReduceMax, promote.Maximum)
}

// minOrMinimum is min: a reduction with one argument, minimum with two.
func minOrMinimum(c *compiler, k *call) (*operand, error) {
	return reduceOrBinary(c, k, promote.ReduceMin, promote.Minimum)
}

func reduceOrBinary(c *compiler, k *call, op promote.UnaryOp, binop promote.BinaryOp) (*operand, error) {
	if len(k.args) == 2 && k.args[1].kind != tupleKind && k.args[1].kind != noneKind && k.kw["axis"] == nil {
		return c.binaryCall(binop, k.args[0], k.args[1], k.fnSpan)
	}
	return c.reduce(op, k)
}

func where(c *compiler, k *call) (*operand, error) {
	if err := k.nargs(c, 3, 3); err != nil {
		return nil, err
	}
	return c.where(k)
}

func cast(c *compiler, k *call) (*operand, error) {
	if err := k.nargs(c, 2, 2); err != nil {
		return nil, err
	}
	t, err := c.dtypeOf(k.args[1])
	if err != nil {
		return nil, err
	}
	return c.convert(k.args[0], t, k, true)
}

func clip(c *compiler, k *call) (*operand, error) {
	if err := k.nargs(c, 2, 3); err != nil {
		return nil, err
	}
	x := k.args[0]
	var err error
	if k.args[1].kind != noneKind {
		if x, err = c.binaryAs(promote.Clip, backend.OpMax, x, k.args[1], k.fnSpan); err != nil {
			return nil, err
		}
	}
	if len(k.args) == 3 && k.args[2].kind != noneKind {
		if x, err = c.binaryAs(promote.Clip, backend.OpMin, x, k.args[2], k.fnSpan); err != nil {
			return nil, err
		}
	}
	x.start, x.end = k.sp.start, k.sp.end
	return x, nil
}

func weak(c *compiler, k *call) (*operand, error)   { return c.setWeak(k, true) }
func strong(c *compiler, k *call) (*operand, error) { return c.setWeak(k, false) }

func dtype(c *compiler, k *call) (*operand, error) {
	if err := k.nargs(c, 1, 1); err != nil {
		return nil, err
	}
	x, err := c.tensorArg(k, 0, "x")
	if err != nil {
		return nil, err
	}
	return &operand{kind: DTypeValue, typ: x.typ, start: k.sp.start, end: k.sp.end}, nil
}

func shape(c *compiler, k *call) (*operand, error) {
	if err := k.nargs(c, 1, 1); err != nil {
		return nil, err
	}
	x, err := c.tensorArg(k, 0, "x")
	if err != nil {
		return nil, err
	}
	return &operand{kind: ShapeValue, dims: append([]int{}, x.shape...), start: k.sp.start, end: k.sp.end}, nil
}

func promoteFn(c *compiler, k *call) (*operand, error)  { return c.promoteTypes(k, false) }
func resultType(c *compiler, k *call) (*operand, error) { return c.promoteTypes(k, true) }

func broadcastShapes(c *compiler, k *call) (*operand, error) {
	if err := k.nargs(c, 1, -1); err != nil {
		return nil, err
	}
	var shapes [][]int
	for _, a := range k.args {
		s, err := c.shapeOf(a, "shape")
		if err != nil {
			return nil, err
		}
		shapes = append(shapes, s)
	}
	out, err := broadcast.Shapes(shapes...)
	if err != nil {
		return nil, c.errorf(k.sp, "BroadcastError", "%v", err)
	}
	return &operand{kind: ShapeValue, dims: out, start: k.sp.start, end: k.sp.end}, nil
}

// binaryCall compiles a named binary function.
func (c *compiler) binaryCall(op promote.BinaryOp, x, y *operand, fnSpan span) (*operand, error) {
	if x.kind == LiteralValue && y.kind == LiteralValue {
		x = c.materialize(x)
	}
	o, err := c.binary(op, x, y, fnSpan)
	if err != nil {
		return nil, err
	}
	return o, nil
}

// binaryAs compiles a binary operation typed as policy op pop and computed
// by backend op bop (clip's max and min).
func (c *compiler) binaryAs(pop promote.BinaryOp, bop backend.Op, x, y *operand, sp span) (*operand, error) {
	if err := c.requireNumeric(x, pop.String()); err != nil {
		return nil, err
	}
	if err := c.requireNumeric(y, pop.String()); err != nil {
		return nil, err
	}
	x = c.materialize(x)
	if err := c.known(x); err != nil {
		return nil, err
	}
	if err := c.known(y); err != nil {
		return nil, err
	}
	res, err := c.policy.Binary(pop, toPolicyOperand(x), toPolicyOperand(y))
	if err != nil {
		return nil, c.promoteError(err, sp, x, y)
	}
	c.warn(res.Warning)
	if res.Compute.IsComplex() {
		return nil, c.errorf(sp, "TypeError", "%s: %s is not defined for complex values", c.policy.Name(), pop)
	}
	shape, err := broadcast.Shapes(x.shape, y.shape)
	if err != nil {
		return nil, c.errorf(sp, "BroadcastError", "%v", err)
	}
	n := &backend.Node{Op: bop, DType: res.Type.DType, Shape: shape,
		Args: []*backend.Node{asNode(x, res.Compute), asNode(y, res.Compute)}}
	out := &operand{kind: TensorValue, typ: res.Type, shape: shape, node: n, start: x.start, end: y.end}
	if c.explaining() {
		c.record(fmt.Sprintf("%s(%s, %s)", pop, c.describe(x), c.describe(y)), out, res.Rule)
	}
	return out, nil
}

func (c *compiler) setWeak(k *call, weak bool) (*operand, error) {
	if err := k.nargs(c, 1, 1); err != nil {
		return nil, err
	}
	x := k.args[0]
	if x.kind == DTypeValue {
		return &operand{kind: DTypeValue, typ: dtypes.Type{DType: x.typ.DType, Weak: weak}, start: k.sp.start, end: k.sp.end}, nil
	}
	if err := c.requireNumeric(x, k.name, "()"); err != nil {
		return nil, err
	}
	if x.kind == LiteralValue {
		if weak {
			return x, nil
		}
		x = c.materialize(x)
	}
	o := *x
	o.typ.Weak = weak
	o.start, o.end = k.sp.start, k.sp.end
	return &o, nil
}

// convert compiles an explicit conversion of x to t: a dtype call
// (i16(x)) or cast(x, t).
func (c *compiler) convert(x *operand, t dtypes.Type, k *call, isCast bool) (*operand, error) {
	switch x.kind {
	case LiteralValue:
		if err := c.policy.Convert(x.lit, t.DType); err != nil {
			return nil, c.promoteError(err, k.sp, x)
		}
		tt := literalTensor(x.lit, t.DType)
		v := scalarAt(tt, 0)
		o := tensorOperand(tt, t, k.sp)
		o.value = &v
		return o, nil
	case TensorValue:
		n := castNode(x.node, t.DType)
		o := &operand{kind: TensorValue, typ: t, shape: x.shape, node: n, start: k.sp.start, end: k.sp.end}
		if c.explaining() {
			rule := "an explicit conversion makes a known " + t.DType.FullName()
			if t.Weak {
				rule = "an explicit conversion to a weak " + t.DType.FullName()
			}
			c.record(fmt.Sprintf("%s(%s)", t, c.describe(x)), o, rule)
		}
		return o, nil
	case listKind:
		return c.listTensor(x, &t, k.sp)
	}
	return nil, c.requireNumeric(x, k.name, "()")
}

func (c *compiler) where(k *call) (*operand, error) {
	cond, a, b := k.args[0], k.args[1], k.args[2]
	for _, o := range k.args {
		if err := c.requireNumeric(o, "where()"); err != nil {
			return nil, err
		}
	}
	cond = c.materialize(cond)
	if err := c.known(a); err != nil {
		return nil, err
	}
	if err := c.known(b); err != nil {
		return nil, err
	}
	if a.kind == LiteralValue && b.kind == LiteralValue {
		a = c.materialize(a)
	}
	res, err := promote.Nary(c.policy, promote.Where, toPolicyOperand(a), toPolicyOperand(b))
	if err != nil {
		return nil, c.promoteError(err, k.fnSpan, a, b)
	}
	c.warn(res.Warning)
	shape, err := broadcast.Shapes(cond.shape, a.shape, b.shape)
	if err != nil {
		return nil, c.errorf(k.sp, "BroadcastError", "%v", err)
	}
	n := &backend.Node{Op: backend.OpWhere, DType: res.Type.DType, Shape: shape,
		Args: []*backend.Node{castNode(cond.node, dtypes.Bool), asNode(a, res.Compute), asNode(b, res.Compute)}}
	out := &operand{kind: TensorValue, typ: res.Type, shape: shape, node: n, start: k.sp.start, end: k.sp.end}
	if c.explaining() {
		c.record(fmt.Sprintf("where(%s, %s, %s)", c.describe(cond), c.describe(a), c.describe(b)), out, res.Rule)
	}
	return out, nil
}

var reduceOps = map[promote.UnaryOp]backend.Op{
	promote.Sum: backend.OpSum, promote.Prod: backend.OpProd, promote.Mean: backend.OpMean,
	promote.ReduceMax: backend.OpReduceMax, promote.ReduceMin: backend.OpReduceMin,
	promote.ArgMax: backend.OpArgMax, promote.ArgMin: backend.OpArgMin,
	promote.Any: backend.OpAny, promote.All: backend.OpAll,
}

func (c *compiler) reduce(op promote.UnaryOp, k *call) (*operand, error) {
	x, err := c.tensorX(k, 1, 2)
	if err != nil {
		return nil, err
	}
	axes, _, err := c.axesOf(k, len(x.shape))
	if err != nil {
		return nil, err
	}
	if (op == promote.ArgMax || op == promote.ArgMin) && len(axes) > 1 {
		return nil, c.errorf(k.sp, "ValueError", "%s takes a single axis", op)
	}
	keep, err := c.keepdims(k)
	if err != nil {
		return nil, err
	}
	res, err := c.policy.Unary(op, toPolicyOperand(x))
	if err != nil {
		return nil, c.promoteError(err, k.fnSpan, x)
	}
	c.warn(res.Warning)
	if res.Compute.IsComplex() && res.ComplexOrder == promote.ComplexUnordered && (op == promote.ReduceMax || op == promote.ReduceMin || op == promote.ArgMax || op == promote.ArgMin) {
		return nil, c.errorf(k.fnSpan, "TypeError", "%s: %s of complex values is not supported (tensorsh orders complex reductions only as NumPy does)", c.policy.Name(), op)
	}
	all := len(axes) == 0
	if all {
		for i := range x.shape {
			axes = append(axes, i)
		}
	}
	reduced := map[int]bool{}
	for _, a := range axes {
		reduced[a] = true
	}
	var shape []int
	for i, d := range x.shape {
		if !reduced[i] {
			shape = append(shape, d)
		} else if keep {
			shape = append(shape, 1)
		}
		if reduced[i] && d == 0 && (op == promote.ReduceMax || op == promote.ReduceMin || op == promote.ArgMax || op == promote.ArgMin) {
			return nil, c.errorf(k.sp, "ValueError", "zero-size array to reduction operation %s which has no identity", op)
		}
	}
	n := &backend.Node{Op: reduceOps[op], DType: res.Type.DType, Shape: shape,
		Args: []*backend.Node{asNode(x, res.Compute)}, Axes: axes, KeepDims: keep}
	out := &operand{kind: TensorValue, typ: res.Type, shape: shape, node: n, start: k.sp.start, end: k.sp.end}
	if c.explaining() {
		c.record(fmt.Sprintf("%s(%s)", op, c.describe(x)), out, res.Rule)
	}
	return out, nil
}

// promoteTypes answers promote(a, b, …) (resultType false) or
// result_type(a, b, …) (resultType true) on the types of its arguments:
// dtypes, or values.
func (c *compiler) promoteTypes(k *call, resultType bool) (*operand, error) {
	if err := k.nargs(c, 1, -1); err != nil {
		return nil, err
	}
	name := "promote"
	if resultType {
		name = "result_type"
	}
	var ops []*operand
	var xs []promote.Operand
	for _, a := range k.args {
		switch a.kind {
		case DTypeValue:
			// The dtype as named: promote_types does not canonicalise
			// (jnp.promote_types(int8, int64) is int64 with x64 off), and
			// result_type canonicalises in the policy, with its warning.
			if _, _, err := c.policy.Check(a.typ.DType); err != nil {
				return nil, c.promoteError(err, a.span())
			}
			a = &operand{kind: TensorValue, typ: a.typ, shape: []int{1}, start: a.start, end: a.end}
		case TensorValue, LiteralValue:
			if a.kind == LiteralValue && a.litErr != nil {
				return nil, a.litErr
			}
		default:
			return nil, c.errorf(a.span(), "TypeError", "%s() takes dtypes like i16 or f32? (or values)", name)
		}
		ops = append(ops, a)
		xs = append(xs, toPolicyOperand(a))
	}
	var res promote.Result
	var err error
	if resultType {
		res, err = promote.ResultType(c.policy, xs...)
	} else {
		res, err = promote.PromoteTypes(c.policy, xs...)
	}
	if err != nil {
		return nil, c.promoteError(err, k.fnSpan, ops...)
	}
	c.warn(res.Warning)
	if c.explaining() {
		var args []string
		for _, o := range ops {
			args = append(args, o.typ.String())
		}
		c.record(fmt.Sprintf("%s(%s)", name, strings.Join(args, ", ")), &operand{kind: DTypeValue, typ: res.Type}, res.Rule)
	}
	return &operand{kind: DTypeValue, typ: res.Type, start: k.sp.start, end: k.sp.end, str: res.Rule}, nil
}

// docFor returns help text for a builtin name.
func docFor(name string) string {
	b, ok := builtins[name]
	if !ok {
		return ""
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "%s\n    %s\n", b.sig, b.doc)
	if b.example != "" {
		fmt.Fprintf(&sb, "example: %s\n", b.example)
	}
	return strings.TrimRight(sb.String(), "\n")
}
