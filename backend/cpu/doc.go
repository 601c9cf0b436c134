// Package cpu is the CPU backend of tensorsh: it evaluates typed plans
// (backend.Node trees) for every dtype and operation, exactly where the
// reference libraries are exact.
//
// # Evaluation
//
// Elementwise nodes are fused: a node and the elementwise nodes below it
// that have its shape and no other user are evaluated together over blocks
// of 4096 output elements, each node into a small scratch buffer, so a
// statement makes one pass over memory with no full-size temporaries.
// Blocks are spread over runtime.GOMAXPROCS workers (see Workers): the
// calling goroutine and helpers that stay, watching for the next loop a
// moment before they sleep (pool.go);
// along a last axis of 1024 or more elements they stop at row ends, so
// that an operand broadcast along the rows is read in place and one
// broadcast along the columns is filled once per row.
// Transpose, slice, broadcast_to and reshape of contiguous data are views:
// they copy nothing, and fused loops read through their strides. A node
// used by several parents is evaluated once. Reductions (sum, prod, mean,
// max, min, any, all) of an elementwise expression read it block by block
// too, so sum(a*b) makes no temporary either. A tree with a compute-bound
// kernel (float32 tanh) over large operands has that kernel prefetch the
// next block of the contiguous operands while it computes, so that memory
// and arithmetic overlap; memory-bound trees rely on the hardware
// prefetcher, which does better for them.
//
// The inner loops are typed per compute type. The hot float loops
// (float32 and float64 + - * /, float32 tanh, int8 → float32, the blocks
// of float32 pairwise sums, softmax's exponentials and maxima) have AVX2+FMA
// assembly on amd64 that performs the same IEEE operations in the same
// order as their Go reference loops (see simd.go), so the bits do not
// depend on the CPU; build with the purego tag to use the Go loops only.
//
// Run checks its context between ranges of 65536 elements, so a cancelled
// statement stops within milliseconds, and refuses any allocation larger
// than the limit (see MemLimit) with an "out of memory" error.
//
// Plans must give the operands of an elementwise node one dtype (where:
// a bool condition and two operands of one dtype). When a node's dtype is
// not the one its operation gives (say a float16 result of a float32
// computation), the result is converted to it, rounding once.
//
// # Precision
//
// Narrow floats (f16, bf16, f8e4m3, f8e5m2) are stored as bits and
// computed in float32, rounded back to their format after every
// operation; tf32 is computed in float32 and rounded to 10 mantissa bits.
// For + - * / and sqrt this gives the correctly rounded result of the
// narrow format (float32 has more than twice their precision plus two
// bits, so the double rounding is innocuous), as NumPy's float16 and
// ml_dtypes' loops do. float32 and float64 + - * / sqrt are IEEE
// operations.
//
// Transcendental functions (exp, log, log1p, sin, cos, tanh, erf, rsqrt,
// sigmoid, silu, gelu, pow) of float32 and narrower are computed in
// float64 and rounded once to float32 (then to the narrow format): the
// result is within 1 ULP of the exact value, and for float32 it is the
// correctly rounded one except when the exact value lies within about
// 2^-26 ULP of a rounding boundary. All but tanh use Go's math package
// (within 1 ULP in float64, so within 2^-29 float32 ULP of a boundary).
// tanh uses its own vectorised float64 evaluation, em/(em+2) with
// em = e^(2|x|) - 1 (tanh64 in simd.go), within 4 float64 ULP of the exact
// value; on every one of the 2^32 float32 inputs it gives the bits of
// float32(math.Tanh(x)) (TestTanhF32Exhaustive checks this when
// TENSORSH_EXHAUSTIVE is set). For float64 they have the
// accuracy of Go's math package: within 1 ULP for exp, log, log1p, sin,
// cos, tanh and erf on ordinary arguments (but not always the correctly
// rounded value: on random arguments Go's sin and cos differ from glibc's,
// which NumPy uses, in the last bit about a quarter of the time, exp about
// an eighth, log, tanh and erf rarely), and within a few ULP for the
// composite sigmoid, silu, gelu and rsqrt. Powers
// with integer exponents are computed in double-double arithmetic and
// rounded once (correctly rounded, like glibc's pow; Go's math.Pow is an
// ULP off for most of them), x**0.5 is sqrt(x), other powers use
// math.Pow. Known gaps inherited from Go's math package for float64 (the
// float32 results are unaffected): sin and cos are tens of ULP off near
// multiples of π and for huge arguments, and math.Pow with a non-integer
// exponent can be tens of ULP off; log of subnormal numbers is corrected
// here (Go's amd64 log is not). Complex functions use math/cmplx in
// complex128 (complex64 parts rounded once). Tests check the float32 bound
// against float64 math for every function.
//
// Comparisons, maximum and minimum follow IEEE and NumPy: maximum and
// minimum propagate NaN; relu is max(x, 0) with relu(-0) = +0. round
// rounds half away from zero, roundeven half to even. Float floor division
// and remainder follow NumPy's npy_divmod (Python semantics: the remainder
// has the sign of the divisor; a zero divisor gives ±inf or nan); with
// CDiv they truncate (fmod). Integer arithmetic wraps; integer division
// and remainder by zero give what Node.IntDiv says (0, NumPy's answer, by
// default; or backend.ErrDivideByZero with ZeroDivError, and NumPy's
// RuntimeWarnings as a *backend.Warning with WarnIntDiv), MIN // -1 gives
// MIN; shifts by the width or more give 0 (or -1 for a negative number
// shifted right). Complex maximum and minimum (and max, min, argmax and
// argmin) order lexicographically, as NumPy does, or as JAX lowers them
// with Node.XLAMinMax. The absolute value of a complex number is the
// correctly rounded hypot of its parts, or with Node.ScaledCAbs NumPy's
// SIMD formula, max·√fma(r, r, 1) with r = min/max in the parts'
// precision (scaledCAbs; AVX2 loops in hypot_amd64.s).
//
// Reductions follow the order of NumPy's loops (see reduce.go): float sums
// use NumPy's pairwise summation along the contiguous axis, in pieces of
// its buffer's 8192 elements, and a permuted operand is reduced in the
// order of its storage (backend.InOrder), so typical results match
// NumPy's bit for bit. Softmax and log-softmax are computed
// in float64 (max subtracted first) and rounded once: with math.Exp and
// a sum in order for a float64 result; for float32 and narrower results
// with a vectorised exponential within 2 float64 ULP (expCore) and a sum
// over eight interleaved accumulators, which stays far inside the half
// float32 ULP of the final rounding. Matrix products
// accumulate float32 and narrower in float64 (rounded once), float64 in
// float64, complex in complex128.
//
// Conversions are exact: see castKernel for the rules, including what
// NaN and out-of-range floats give as integers (NumPy on x86-64).
package cpu
