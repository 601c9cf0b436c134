// Package backend defines what the evaluator hands a backend: typed plans
// (trees of Nodes whose operands already share a dtype) and the Tensors they
// produce. Backends never decide promotion; every Node carries its result
// dtype and shape, worked out by the evaluator through promote/ and
// broadcast/.
//
// The CPU backend (backend/cpu) and the CUDA backend (backend/cuda) implement
// Backend.
package backend

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/tensorsh/tensorsh/dtypes"
)

// A Tensor is a dense, row-major array.
//
// On the CPU, Data holds a slice whose Go type follows the dtype:
//
//	bool                    []bool
//	i8 i16 i32 i64          []int8 []int16 []int32 []int64
//	u8 u16 u32              []uint8 []uint16 []uint32
//	u64 index address       []uint64
//	f16 bf16                []uint16 (the format's bits)
//	f8e4m3 f8e5m2           []uint8 (the format's bits)
//	f32 tf32                []float32 (tf32 values are rounded to 10 mantissa bits)
//	f64                     []float64
//	c64 c128                []complex64 []complex128
//	c32                     []uint32 (two float16: real part in the low
//	                        16 bits, imaginary part in the high 16)
//
// A 0-d tensor has an empty Shape and one element. Other backends may keep
// their own handle in Data; Backend.Fetch turns it into the CPU form.
type Tensor struct {
	DType dtypes.DType
	Shape []int
	Data  any
}

// Size returns the number of elements of shape.
func Size(shape []int) int {
	n := 1
	for _, d := range shape {
		n *= d
	}
	return n
}

// Len returns the number of elements of t.
func (t *Tensor) Len() int { return Size(t.Shape) }

// An Op is the operation of a Node.
type Op uint8

// The operations. Elementwise operations broadcast their arguments to the
// Node's Shape (NumPy rules, already checked); their arguments share one
// dtype, given by the first argument.
const (
	OpInput Op = iota // a materialised tensor: Node.Tensor
	OpCast            // convert Args[0] to Node.DType (exact rounding; ints wrap)

	// Elementwise unary: result dtype = argument dtype unless noted.
	OpNeg
	OpAbs
	OpInvert // bitwise not (logical not on bool)
	OpNot    // logical not; result bool
	OpRelu
	OpExp
	OpLog
	OpLog1p
	OpSin
	OpCos
	OpTanh
	OpSqrt
	OpRsqrt
	OpErf
	OpSigmoid
	OpSilu
	OpGelu // exact (erf) gelu
	OpFloor
	OpCeil
	OpRound     // half away from zero
	OpRoundEven // half to even
	OpTrunc
	OpIsNaN // result bool
	OpIsInf // result bool
	OpTan
	OpAsin
	OpAcos
	OpAtan
	OpSinh
	OpCosh
	OpAsinh
	OpAcosh
	OpAtanh
	OpLog2
	OpLog10
	OpExp2
	OpExpm1
	OpSign       // -1, 0 or 1 (NaN for NaN); bool is kept
	OpSquare     // x * x, wrapping for integers
	OpReciprocal // 1 / x; for integers NumPy's 1.0/x converted back
	OpIsFinite   // result bool

	// Elementwise binary.
	OpAdd
	OpSub
	OpMul
	OpDiv      // true division for floats; integer division (see CDiv) for ints
	OpFloorDiv // floor (or C-truncating, see CDiv) division
	OpMod      // floor (Python) or C remainder (see CDiv)
	OpPow
	OpMax // elementwise maximum (NaN propagates)
	OpMin
	OpEq // result bool
	OpNe
	OpLt
	OpLe
	OpGt
	OpGe
	OpBitAnd // logical on bool
	OpBitOr
	OpBitXor
	OpShl
	OpShr
	OpAnd // logical, result bool
	OpOr
	OpAtan2 // atan2(a, b), floats only
	OpHypot // floats only

	// Elementwise ternary.
	OpWhere // Args: cond (bool), a, b (same dtype)
	// OpFMA is a·b + c rounded once (Args a, b, c of one dtype, float32
	// or float64): the fused multiply-add of torch.lerp's CPU kernel and
	// of XLA's contracted products.
	OpFMA

	// Reductions over Node.Axes (all axes when empty), keeping them as
	// size-1 dims when KeepDims. Args[0] has the accumulation dtype.
	OpSum
	OpProd
	OpMean
	OpReduceMax
	OpReduceMin
	OpArgMax // result Node.DType (an int dtype); Axes has at most one axis
	OpArgMin
	OpAny // result bool
	OpAll

	// Structural operations.
	OpSoftmax     // along Axes[0]
	OpLogSoftmax  // along Axes[0]
	OpMatMul      // NumPy matmul semantics (1-d promotion, batch broadcast)
	OpReshape     // to Node.Shape
	OpTranspose   // permutation Axes
	OpBroadcastTo // to Node.Shape
	OpConcat      // along Axes[0]
	OpSlice       // Node.Slices, one per dimension of Args[0]
	// Scans along Axes[0]: the same shape and dtype as Args[0]; element i
	// is Args[0]'s elements 0..i combined in order, each step in the
	// dtype's arithmetic (ints wrap, narrow floats round after every step).
	OpCumSum
	OpCumProd
	// OpSort sorts Args[0] along Axes[0] (same shape and dtype): in
	// ascending order, stably, NaN after every number (NumPy's order:
	// complex numbers by real part, then imaginary part, with NumPy's
	// rule for NaN parts; bools false first).
	OpSort
	// OpArgSort gives the indices along Axes[0] that sort Args[0] as
	// OpSort does (equal elements in index order), in Node.DType (an
	// integer dtype).
	OpArgSort

	NumOps
)

var opNames = [...]string{
	"input", "cast",
	"neg", "abs", "invert", "not", "relu", "exp", "log", "log1p", "sin", "cos", "tanh", "sqrt", "rsqrt", "erf",
	"sigmoid", "silu", "gelu", "floor", "ceil", "round", "roundeven", "trunc", "is_nan", "is_inf",
	"tan", "asin", "acos", "atan", "sinh", "cosh", "asinh", "acosh", "atanh", "log2", "log10", "exp2", "expm1",
	"sign", "square", "reciprocal", "is_finite",
	"add", "sub", "mul", "div", "floordiv", "mod", "pow", "max", "min", "eq", "ne", "lt", "le", "gt", "ge",
	"bitand", "bitor", "bitxor", "shl", "shr", "and", "or", "atan2", "hypot",
	"where", "fma",
	"sum", "prod", "mean", "reduce_max", "reduce_min", "argmax", "argmin", "any", "all",
	"softmax", "logsoftmax", "matmul", "reshape", "transpose", "broadcast_to", "concat", "slice",
	"cumsum", "cumprod", "sort", "argsort",
}

func (op Op) String() string {
	if op < NumOps {
		return opNames[op]
	}
	return fmt.Sprintf("Op(%d)", uint8(op))
}

// IsElementwise reports whether op works element by element (and so can be
// fused with its neighbours).
func (op Op) IsElementwise() bool { return op >= OpCast && op <= OpFMA }

// A Slice selects along one dimension: Start, Stop, Step as in Python after
// normalisation (0 <= Start, Stop <= dim for Step > 0; Stop may be -1 for
// Step < 0). Drop removes the dimension (an integer index: Stop = Start+1).
type Slice struct {
	Start, Stop, Step int
	Drop              bool
}

// A Node is one operation of a plan.
type Node struct {
	Op    Op
	DType dtypes.DType // result dtype
	Shape []int        // result shape
	Args  []*Node

	Tensor   *Tensor // OpInput
	Axes     []int   // reductions, softmax, concat, transpose (normalised, non-negative)
	KeepDims bool    // reductions
	CDiv     bool    // OpDiv on ints, OpFloorDiv, OpMod: truncate toward zero like C
	// ZeroDivError makes integer division or remainder by zero fail with
	// ErrDivideByZero; otherwise IntDiv says what x/0 and x%0 give.
	ZeroDivError bool
	// IntDiv selects the integer division and remainder at a zero divisor
	// and at MIN / -1 (see IntDiv's constants).
	IntDiv IntDiv
	// XLAMinMax makes complex OpMax and OpMin pick as JAX's lowering does
	// (the first operand when its real part, or at equal real parts its
	// imaginary part, compares strictly; otherwise the second, so a NaN
	// does not propagate) instead of NumPy's CGE/CLE (NaN propagates, ties
	// keep the first operand).
	XLAMinMax bool
	// ScaledCAbs makes complex OpAbs NumPy's SIMD formula (see
	// promote.Result.ScaledCAbs) rather than the correctly rounded hypot
	// of the parts.
	ScaledCAbs bool
	// WarnIntDiv makes integer OpFloorDiv and OpMod report NumPy's
	// RuntimeWarnings (a *Warning from Run, with the result): "divide by
	// zero encountered in floor_divide" (or "remainder") when a divisor is
	// 0, "overflow encountered in floor_divide" for MIN // -1.
	WarnIntDiv bool
	// SkipNaN makes OpReduceMax and OpReduceMin of real floats leave the
	// NaNs out (np.nanmax, jnp.nanmax): the extreme of each line's
	// numbers, the first of equal ones as the plain reduction keeps it,
	// and NaN (a float64 NaN cast to the dtype) for a line of NaNs
	// alone. LowerSkipNaN gives the same from plain operations.
	SkipNaN bool
	Slices  []Slice // OpSlice
}

// A Backend evaluates plans.
type Backend interface {
	// Name is "cpu" or "cuda".
	Name() string
	// Run evaluates the plan rooted at n. It stops early with ctx.Err()
	// when ctx is cancelled.
	Run(ctx context.Context, n *Node) (*Tensor, error)
	// Fetch returns t in the CPU form described at Tensor.
	Fetch(t *Tensor) (*Tensor, error)
	// Upload returns t (in CPU form) as this backend's own tensor.
	Upload(t *Tensor) (*Tensor, error)
}

// An IntDiv selects how integer OpDiv, OpFloorDiv and OpMod behave where
// arithmetic leaves them open: a zero divisor, and MIN / -1.
type IntDiv uint8

// The integer division rules (promote.IntDivRule's, for the backends).
const (
	// IntDivZero: x / 0 and x % 0 give 0; MIN / -1 gives MIN (NumPy).
	IntDivZero IntDiv = iota
	// IntDivJNP: jax.numpy on XLA. OpFloorDiv by 0: -1 for x == 0 and -2
	// otherwise (signed), all ones (unsigned); OpMod by 0: 0.
	IntDivJNP
	// IntDivXLA: XLA's Div and Rem: x / 0 is all ones (-1 signed), x % 0
	// is x; MIN / -1 is MIN, MIN % -1 is 0. Division truncates.
	IntDivXLA
	// IntDivNvMod: OpMod is anvil's nv_mod, rem(rem(x, y) + y, y) with
	// XLA's Rem (wrapping); other ops as IntDivXLA.
	IntDivNvMod
)

// The warning bits of an integer division (Node.WarnIntDiv).
const (
	WarnDivZeroFloorDivide uint32 = 1 << iota
	WarnDivZeroRemainder
	WarnOverflowFloorDivide
)

// A Warning is what Run returns, with its result, when the operations
// completed but some reported RuntimeWarnings (NumPy's floating-point
// status, as its ufuncs report it).
type Warning struct {
	Msgs []string
}

func (w *Warning) Error() string { return strings.Join(w.Msgs, "; ") }

// IntDivWarning returns the *Warning for the warning bits (nil for none),
// in NumPy's words.
func IntDivWarning(bits uint32) error {
	var w Warning
	if bits&WarnDivZeroFloorDivide != 0 {
		w.Msgs = append(w.Msgs, "RuntimeWarning: divide by zero encountered in floor_divide")
	}
	if bits&WarnOverflowFloorDivide != 0 {
		w.Msgs = append(w.Msgs, "RuntimeWarning: overflow encountered in floor_divide")
	}
	if bits&WarnDivZeroRemainder != 0 {
		w.Msgs = append(w.Msgs, "RuntimeWarning: divide by zero encountered in remainder")
	}
	if len(w.Msgs) == 0 {
		return nil
	}
	return &w
}

// ErrUnavailable is wrapped by the error a backend returns when it cannot
// run on this machine (no GPU, no driver).
var ErrUnavailable = errors.New("backend unavailable")

// ErrDivideByZero is returned for integer division or remainder by zero
// when the Node asks for it (Node.ZeroDivError).
var ErrDivideByZero = fmt.Errorf("integer division or modulo by zero")

// FormatBytes writes n bytes in decimal units, as both backends'
// out-of-memory messages do: "40.0 GB", "512.0 MB".
func FormatBytes(n int64) string {
	switch {
	case n >= 1e12:
		return fmt.Sprintf("%.1f TB", float64(n)/1e12)
	case n >= 1e9:
		return fmt.Sprintf("%.1f GB", float64(n)/1e9)
	case n >= 1e6:
		return fmt.Sprintf("%.1f MB", float64(n)/1e6)
	case n >= 1e3:
		return fmt.Sprintf("%.1f kB", float64(n)/1e3)
	}
	return fmt.Sprintf("%d B", n)
}
