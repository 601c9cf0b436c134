package eval

import (
	"fmt"
	"sort"
	"strings"

	"github.com/tensorsh/tensorsh/dtypes"
	"github.com/tensorsh/tensorsh/internal/teach"
	"github.com/tensorsh/tensorsh/promote"
)

var helpTopics = map[string]string{
	"literals": `Literals are weak: 1 is int?, 1.5 / 1e-3 / inf / nan are float?, 2j is complex?,
true/false are bool (each policy decides the exact defaults). Expressions made only of
literals fold like the policy's host language (Python; R for anvil) and stay weak:
  7 // -2      → -4        true + true → 2        1 + 1.5 → 2.5
Bracket literals [[1, 2], [3, 4]] make tensors of the policy's literal default.`,
	"dtypes": `dtype names: bool i8 i16 i32 i64 u8 u16 u32 u64 f16 bf16 f32 tf32 f64 c64 c128
f8e4m3 f8e5m2 index address (aliases: int8, float32, half, fp16, ui8, pred …);
c32 (complex32, torch.chalf: two float16) exists only under :policy torch.
Call a dtype to make a known (strong) value: i16(3), f16([0.1, 0.2]), u8(x).
A trailing ? names the weak form: promote(i16, f32?). Ambiguous names (float, int, f8)
are refused with an explanation.`,
	"policies": `A policy is the promotion rules of one system. Switch with :policy NAME.`,
	"operators": `Operators, lowest precedence first (as in Python):
  or · and · not · == != < <= > >= · | · ^ · & · << >> · + - · * @ / // % · unary - + ~ · **
Indexing: x[0], x[1:3], x[:, 0], x[::-1], x[None].
Attributes and methods, as NumPy spells them (the functions under the same rules):
  x.shape x.dtype x.ndim x.size x.T · x.astype(f16) x.reshape(3, 4) x.sum(axis=0) x.item() …`,
	"directives": `:policy [NAME]   show or switch the promotion policy
:backend [cpu|cuda]  show or switch the backend
:vars, :who, :whos  list variables   :reset   forget variables
:time EXPR        one timed run      :timeit EXPR  the median of many runs
:load FILE, :run FILE  run a .tsh script    :lsmagic  list the directives
:save FILE        the last result as FILE.svg (a picture), .html, .json or .txt
:help [TOPIC]     this help (topics: literals dtypes policies operators directives, or a function)`,
}

// policyRefs gives, per built-in policy, where its rules come from, for
// :help policies (its Title says what it models).
var policyRefs = map[string]string{
	"jax":           "jax/_src/dtypes.py; refs/jax_x32.json (jax 0.11.2)",
	"jax64":         "jax/_src/dtypes.py; refs/jax_x64.json (jax 0.11.2)",
	"numpy":         "NEP 50; refs/numpy.json (numpy 2.5.2, ml_dtypes 0.6.0)",
	"numpy1":        "refs/numpy1.json (numpy 1.24.2)",
	"torch":         "c10/core/ScalarType.cpp, at::result_type; refs/torch.json (torch 2.11.0)",
	"triton":        "python/triton/language/semantic.py; refs/triton.json (triton 3.6.0)",
	"triton-doc":    "Triton's language semantics page",
	"max":           "max.graph.type_promotion (2024)",
	"max-graph":     "max.graph, RMO promotion (2025–2026)",
	"anvil":         "r-xla/anvil common_dtype",
	"array-api":     "Array API standard 2023.12, Type Promotion Rules",
	"tf":            "tensorflow math_ops.py, py_seq_tensor.cc; refs/tf.json",
	"tf-numpy":      "tensorflow framework/flexible_dtypes.py; refs/tf_numpy.json",
	"tf-numpy-safe": "tensorflow framework/flexible_dtypes.py; refs/tf_numpy_safe.json",
	"keras":         "keras/src/backend/common/dtypes.py; refs/keras.json",
	"mlx":           "mlx/dtype.cpp",
	"julia":         "base/promotion.jl, base/int.jl, base/float.jl",
	"c":             "C17 6.3.1.8, LP64",
}

// helpMore is the longer help of some functions, after their one-line doc.
var helpMore = map[string]string{
	"promote":     promoteVsResultType,
	"result_type": promoteVsResultType,
	"reciprocal":  reciprocalHelp,
	"square":      squareSignHelp,
	"sign":        squareSignHelp,
	"arctan2":     floatBinaryHelp,
	"hypot":       floatBinaryHelp,
	"median":      medianHelp,
	"around":      aroundHelp,
	"isclose":     iscloseHelp,
	"allclose":    iscloseHelp,
	"sort":        sortHelp,
	"argsort":     sortHelp,
	"nanmean":     nanmeanHelp,
	"quantile":    quantileHelp,
	"percentile":  quantileHelp,
}

const quantileHelp = `The default method, linear, interpolates between the sorted places around
the rank q * (n - 1). NumPy 1.24 computes q and the interpolation in float64
(float64 for float32 data); NumPy 2 ranks a Python q in float64 and
interpolates in a float x's dtype (float32 for float32 data), a list q in
float64; jnp.quantile makes x inexact, weights the two places as
low * (1 - w) + high * w in q's dtype, one multiply-add as XLA contracts
it, and converts back; torch.quantile takes float32 and float64 only,
with torch.lerp's multiply-add. nearest rounds a rank of .5 to even under NumPy and PyTorch,
down under JAX; midpoint overflows under JAX as jnp.median does. PyTorch
has no percentile. A NaN makes the line's quantiles NaN in all three.`

const medianHelp = `np.median averages the two middle values as np.mean does (float64 for
integers); jnp.median is quantile's midpoint, (low + high) * 0.5 in the
inexact dtype (float32 for integers with x64 off, and inf for one float32
above half its maximum); torch.median is the lower middle value, in the
tensor's dtype. A NaN makes the line's median NaN in all three.`

const aroundHelp = `around(x, d) is NumPy's round: rint(x * 10**d) / 10**d, halves to even.
NumPy computes float16 in float16, jnp.round and torch.round in float32,
which can round the other way: around(f16([0.145]), 2) is 0.14 under numpy,
0.15 under jax and torch. For d < 0 NumPy and PyTorch divide by 10**-d, JAX
multiplies by 10.0**d. tensorsh's round(x) rounds halves away from zero.`

const iscloseHelp = `|a - b| <= atol + rtol * |b|, in each library's dtypes: np.isclose makes b
float64 for integers and subtracts as the operands promote; jnp.isclose
converts both to their common inexact type first (int32 16777217 and
16777216 are close there); torch.isclose needs one dtype and converts an
integral b to the default float. allclose is a Python bool under NumPy and
PyTorch, a 0-d array under JAX.`

const sortHelp = `sort and argsort are stable, in NumPy's order: NaN after every number,
complex numbers by real then imaginary part (those with a NaN part after),
false before true; equal elements keep their order, so the signs of -0.0
and 0.0 come out as in np.sort(x, kind="stable") and jnp.sort. NumPy's
default quicksort can order ties otherwise: np.argsort of integers with
ties may differ from tensorsh's (and from kind="stable", which it matches).`

const nanmeanHelp = `nanmean divides the sum of the numbers by their count: NumPy in float64
(np.divide of the sum by an intp count, cast back), JAX and PyTorch in the
sum's dtype. A line of NaNs only gives NaN (NumPy also warns, which tensorsh,
which does not see the values when it compiles, does not).`

const reciprocalHelp = `NumPy keeps integers: reciprocal(i32([2])) is 0 (1.0/x converted back), and
1/0 gives the minimum of int32 and int64 and 0 for the narrower and unsigned
types (NumPy on x86-64); bool computes in int8. jax.numpy and PyTorch give
floats (promote_dtypes_inexact; INT_TO_FLOAT), the Array API standard takes
floats only, and Triton, MAX and anvil have no reciprocal.`

const squareSignHelp = `square and sign keep the dtype, but for bool: NumPy squares bool in int8,
jax.numpy in its default int, PyTorch in int64 (square is pow(x, 2)); NumPy
and jax.numpy refuse sign of bool, PyTorch keeps it. sign of -0.0 is 0.0
and sign of NaN is NaN.`

const floatBinaryHelp = `arctan2 and hypot promote their operands and give floats. NumPy takes its
first float loop (float16, float32, float64) that both arrays cast to safely,
so arctan2(i8, u8) is float16 where i8 / u8 is float64; jax.numpy and
PyTorch promote ints to the default float; PyTorch's hypot and the Array API
take floats only; complex operands are refused.`

const promoteVsResultType = `promote and result_type both promote all their arguments together, as the
library does: JAX joins them all on its lattice; NumPy's np.result_type looks at
all of them at once (promote(i16, u16, f16) is f32 in any order, where
(i16 + u16) + f16 would be f64); torch promotes tensors, 0-dim tensors and
Python scalars each as a group; the other policies fold left to right.

promote is the library's promote_types: under jax, jnp.promote_types, the
table of JAX's docs (table()). It does not canonicalise to 32 bits
(promote(i8, i64) is i64 with x64 off), and a weak type stands for Python's
int, float or complex, a join at which is the 64-bit dtype
(promote(i16, f32?) is f64).

result_type is what values of these types give: under jax, jnp.result_type,
which canonicalises with x64 off (result_type(i8, i64) is i32, with JAX's
warning) and gives a weak result at the default width, still weak
(result_type(i16, f32?) is f32?, result_type(weak(i8(0))) is i32?). For the
other policies the two agree.`

// Help returns the help text for topic ("" lists the topics).
func Help(topic string) string {
	topic = strings.TrimSpace(topic)
	if topic == "" {
		var fns []string
		fns = append(fns, Functions()...)
		for n := range specialForms {
			fns = append(fns, n)
		}
		sort.Strings(fns)
		return "tensorsh " + Version + ": dtype promotion and broadcasting you can see.\n" +
			"Type an expression: i16([1, 2, 3]) + 1.5\n\n" +
			"topics: literals dtypes policies operators directives (:help TOPIC)\n" +
			"functions (:help NAME): " + teach.Wrap(strings.Join(fns, " "), 70, "  ")
	}
	topic = strings.TrimPrefix(topic, ":")
	if t, ok := helpTopics[topic]; ok {
		if topic == "policies" {
			var sb strings.Builder
			sb.WriteString(t)
			names := promote.Names()
			w := 0
			for _, n := range names {
				w = max(w, len(n))
			}
			for _, n := range names {
				p, _ := promote.Lookup(n)
				fmt.Fprintf(&sb, "\n  %-*s %s", w, n, p.Title())
				if ref, ok := policyRefs[n]; ok {
					fmt.Fprintf(&sb, " · %s", ref)
				}
			}
			return sb.String()
		}
		return t
	}
	if d := docFor(topic); d != "" {
		if more, ok := helpMore[topic]; ok {
			d += "\n\n" + more
		}
		return d
	}
	if sf, ok := specialForms[topic]; ok {
		return sf.sig + "\n    " + sf.doc + "\nexample: " + sf.example
	}
	if p, err := promote.Lookup(topic); err == nil {
		return fmt.Sprintf("policy %s: %s (switch with :policy %s)", p.Name(), p.Title(), p.Name())
	}
	if t, err := dtypes.ParseType(topic); err == nil {
		d := t.DType
		return fmt.Sprintf("dtype %s (%s): %s, %d bits", d, d.FullName(), d.Kind(), d.Bits())
	}
	return fmt.Sprintf("no help for %q; :help lists the topics", topic)
}
