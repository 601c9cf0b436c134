package eval

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/tensorsh/tensorsh/backend"
	"github.com/tensorsh/tensorsh/broadcast"
	"github.com/tensorsh/tensorsh/dtypes"
	"github.com/tensorsh/tensorsh/internal/sysmem"
	"github.com/tensorsh/tensorsh/promote"
)

// flattenList collects the literal leaves of a nested list operand and its
// shape; ragged or non-literal lists are errors.
func (c *compiler) flattenList(o *operand) ([]promote.Scalar, []int, error) {
	if o.kind == LiteralValue {
		return []promote.Scalar{o.lit}, nil, nil
	}
	if o.kind != listKind {
		return nil, nil, c.errorf(o.span(), "TypeError", "list elements must be numbers (to combine tensors use stack or concat)")
	}
	var vals []promote.Scalar
	var inner []int
	for i, e := range o.elems {
		v, s, err := c.flattenList(e)
		if err != nil {
			return nil, nil, err
		}
		if i == 0 {
			inner = s
		} else if !slices.Equal(s, inner) {
			return nil, nil, c.errorf(e.span(), "ValueError", "ragged list: element %d has shape %s but element 0 has shape %s", i, formatShape(s), formatShape(inner))
		}
		vals = append(vals, v...)
	}
	return vals, append([]int{len(o.elems)}, inner...), nil
}

// listTensor turns a bracket literal into a tensor: of type t when given (a
// dtype call), else of the policy's array literal type.
func (c *compiler) listTensor(o *operand, t *dtypes.Type, sp span) (*operand, error) {
	vals, shape, err := c.flattenList(o)
	if err != nil {
		return nil, err
	}
	if err := c.checkRank(len(shape), o.span()); err != nil {
		return nil, err
	}
	kind := promote.BoolScalar
	for _, v := range vals {
		if v.Kind > kind {
			kind = v.Kind
		}
	}
	var typ dtypes.Type
	if t != nil {
		typ = *t
	} else {
		if len(vals) == 0 {
			kind = promote.FloatScalar // [] is float, as in NumPy
		}
		if typ, err = c.policy.ArrayLiteral(kind); err != nil {
			return nil, c.promoteError(err, o.span())
		}
	}
	tt := newTensor(typ.DType, shape)
	for i, v := range vals {
		if err := c.policy.Convert(v, typ.DType); err != nil {
			return nil, c.promoteError(err, o.span())
		}
		setScalar(tt, i, v)
	}
	out := tensorOperand(tt, typ, sp)
	if c.explaining() {
		rule := "a bracket literal makes a tensor of the policy's default for " + kind.String() + " literals"
		if t != nil {
			rule = "a dtype call makes a " + map[bool]string{true: "weak", false: "known"}[typ.Weak] + " " + typ.DType.FullName()
		}
		c.record(c.source(sp, fmt.Sprintf("[…] of %d %s", len(vals), kind)), out, rule)
	}
	return out, nil
}

// zeros makes a tensor of zeros.
func zeros(c *compiler, k *call) (*operand, error) { return fill(c, k, 0) }

// ones makes a tensor of ones.
func ones(c *compiler, k *call) (*operand, error) { return fill(c, k, 1) }

// fill is zeros and ones: the policy's default float unless dtype= is given.
func fill(c *compiler, k *call, value float64) (*operand, error) {
	dims, err := c.shapeArgs(k, 0)
	if err != nil {
		return nil, err
	}
	t, err := c.defaultDType(k, promote.FloatScalar)
	if err != nil {
		return nil, err
	}
	return c.filled(dims, t, promote.FloatValue(value), k.sp)
}

// full makes a tensor filled with one value.
func full(c *compiler, k *call) (*operand, error) {
	if err := k.nargs(c, 2, 2); err != nil {
		return nil, err
	}
	dims, err := c.shapeOf(k.args[0], "shape")
	if err != nil {
		return nil, err
	}
	v := k.args[1]
	val, err := c.fillValue(v, "full")
	if err != nil {
		return nil, err
	}
	var t dtypes.Type
	if _, ok := k.kw["dtype"]; ok {
		t, err = c.defaultDType(k, val.Kind)
	} else if v.kind == TensorValue {
		t = dtypes.Strong(v.typ.DType)
	} else {
		t, err = c.defaultDType(k, val.Kind)
	}
	if err != nil {
		return nil, err
	}
	return c.filled(dims, t, val, k.sp)
}

// zerosLike, onesLike and fullLike make a tensor of x's shape filled with
// 0, 1 or value: of dtype= where it is given, else of x's type, weak or
// not (np.zeros_like(x) has x's dtype; jax.lax.full_like keeps a weak x
// weak: weak_type = dtype is None and dtypes.is_weakly_typed(x)). The
// value converts as full's does (np.full_like copies it in with
// casting='unsafe', as np.full does).
func zerosLike(c *compiler, k *call) (*operand, error) {
	return likeFill(c, k, 1, promote.FloatValue(0))
}

func onesLike(c *compiler, k *call) (*operand, error) {
	return likeFill(c, k, 1, promote.FloatValue(1))
}

func fullLike(c *compiler, k *call) (*operand, error) {
	if err := k.nargs(c, 2, 2); err != nil {
		return nil, err
	}
	val, err := c.fillValue(k.args[1], "full_like")
	if err != nil {
		return nil, err
	}
	return likeFill(c, k, 2, val)
}

// fillValue returns the value of full's or full_like's value argument v:
// a literal or a 0-d tensor whose value is known.
func (c *compiler) fillValue(v *operand, fn string) (promote.Scalar, error) {
	if err := c.known(v); err != nil {
		return promote.Scalar{}, err
	}
	switch {
	case v.kind == LiteralValue:
		return v.lit, nil
	case v.kind == TensorValue && len(v.shape) == 0:
		return *v.value, nil
	}
	return promote.Scalar{}, c.errorf(v.span(), "TypeError", "%s() value must be a number", fn)
}

// likeFill is zerosLike, onesLike and fullLike, whose call takes nargs
// positional arguments.
func likeFill(c *compiler, k *call, nargs int, val promote.Scalar) (*operand, error) {
	x, err := c.tensorX(k, nargs, nargs)
	if err != nil {
		return nil, err
	}
	t := x.typ
	if o, ok := k.kw["dtype"]; ok && o.kind != noneKind {
		if t, err = c.dtypeOf(o); err != nil {
			return nil, err
		}
	}
	return c.filled(x.shape, t, val, k.sp)
}

// arange makes evenly spaced values in [start, stop).
func arange(c *compiler, k *call) (*operand, error) {
	if err := k.nargs(c, 1, 3); err != nil {
		return nil, err
	}
	vals := make([]promote.Scalar, 0, 3)
	for _, a := range k.args {
		if a.kind != LiteralValue || a.lit.Kind > promote.FloatScalar {
			return nil, c.errorf(a.span(), "TypeError", "arange() arguments must be real number literals")
		}
		vals = append(vals, a.lit)
	}
	if s, ok := k.kw["step"]; ok {
		if s.kind != LiteralValue {
			return nil, c.errorf(s.span(), "TypeError", "step must be a number")
		}
		vals = append(vals, s.lit)
	}
	start, stop, step := promote.Int64Value(0), vals[0], promote.Int64Value(1)
	if len(vals) >= 2 {
		start, stop = vals[0], vals[1]
	}
	if len(vals) == 3 {
		step = vals[2]
	}
	kind := maxKind(maxKind(start.Kind, stop.Kind), step.Kind)
	if kind == promote.BoolScalar {
		kind = promote.IntScalar
	}
	f0, _ := floatOf(start)
	f1, _ := floatOf(stop)
	fs, _ := floatOf(step)
	if fs == 0 {
		return nil, c.errorf(k.sp, "ValueError", "arange() step must not be zero")
	}
	nf := math.Max(0, math.Ceil((f1-f0)/fs))
	// NumPy's messages (numpy/_core/src/multiarray/ctors.c,
	// PyArray_ArangeObj): a NaN length "cannot compute length", an
	// infinite one exceeds the maximum size.
	if d := (f1 - f0) / fs; math.IsNaN(d) {
		return nil, c.errorf(k.sp, "ValueError", "arange: cannot compute length (start, stop and step must not be NaN)")
	} else if math.IsInf(nf, 0) {
		return nil, c.errorf(k.sp, "ValueError", "arange: maximum allowed size exceeded (an infinite range)")
	}
	t, err := c.defaultDType(k, kind)
	if err != nil {
		return nil, err
	}
	if err := c.s.checkAllocCount(t.DType, nf); err != nil {
		return nil, c.errorf(k.sp, "MemoryError", "%v", err)
	}
	if nf > min(1<<53, math.MaxInt) {
		return nil, c.errorf(k.sp, "MemoryError", "out of memory: arange() would make %g elements", nf)
	}
	n := int(nf)
	tt := c.s.fullTensor(t.DType, []int{n}) // every element is set below
	if numpyFill(c.policy.Name()) && fillNumPyRange(tt, start, step) {
		return tensorOperand(tt, t, k.sp), nil
	}
	if fillRange(tt, kind == promote.IntScalar, f0, fs) {
		return tensorOperand(tt, t, k.sp), nil
	}
	for i := 0; i < n; i++ {
		if kind == promote.IntScalar {
			setScalar(tt, i, promote.Int64Value(int64(f0)+int64(i)*int64(fs)))
		} else {
			setScalar(tt, i, promote.FloatValue(f0+float64(i)*fs))
		}
	}
	return tensorOperand(tt, t, k.sp), nil
}

// numpyFill reports whether the policy's arange fills float ranges as
// NumPy's does: numpy, and jax, whose jnp.arange with concrete arguments
// and a step returns np.arange(start, stop, step, dtype)
// (jax/_src/numpy/lax_numpy.py, arange). torch computes start + i·step
// in float64 and rounds once (fillRange), as do the other policies here.
func numpyFill(policy string) bool {
	return strings.HasPrefix(policy, "numpy") || strings.HasPrefix(policy, "jax")
}

// fillNumPyRange fills a float64, float32 or float16 tt as NumPy's arange
// does (numpy/core/src/multiarray/ctors.c, PyArray_ArangeObj; the fill
// functions of arraytypes.c.src): the first two elements are start and
// start + step (added as Python numbers) converted to the dtype, and
// element i is then b0 + i·delta with delta = b1 - b0, in the dtype's
// arithmetic (float for float32, and for float16 with each element
// rounded to half), i converted to that type first. With steps that are
// not exact this differs from start + i·step: np.arange(0.1, 100, 0.1,
// dtype=np.float32) in 185 of 999 elements. It reports false for other
// dtypes.
func fillNumPyRange(tt *backend.Tensor, start, step promote.Scalar) bool {
	switch tt.DType {
	case dtypes.F64, dtypes.F32, dtypes.F16:
	default:
		return false
	}
	n := tt.Len()
	if n == 0 {
		return true
	}
	setScalar(tt, 0, start)
	if n == 1 {
		return true
	}
	var next promote.Scalar
	if start.Kind == promote.IntScalar && step.Kind == promote.IntScalar {
		next = promote.IntValue(new(big.Int).Add(intOf(start), intOf(step)))
	} else {
		a, _ := floatOf(start)
		b, _ := floatOf(step)
		next = promote.FloatValue(a + b)
	}
	setScalar(tt, 1, next)
	switch d := tt.Data.(type) {
	case []float64:
		b0, delta := d[0], d[1]-d[0]
		chunked(2, n, func(lo, hi int) { affineF64(d[:hi], lo, b0, delta) })
	case []float32:
		b0, delta := d[0], d[1]-d[0]
		chunked(2, n, func(lo, hi int) { affineF32(d[:hi], lo, b0, delta) })
	case []uint16: // float16, computed in float32
		b0 := float32(dtypes.F16ToFloat64(d[0]))
		delta := float32(dtypes.F16ToFloat64(d[1])) - b0
		chunked(2, n, func(lo, hi int) {
			for i := lo; i < hi; i++ {
				d[i] = dtypes.F16FromFloat64(float64(b0 + float32(float32(i)*delta)))
			}
		})
	}
	return true
}

// affineF64 sets d[i] to b + i·s for i from lo on, the product and the
// sum each rounded (never a fused multiply-add), four elements a step
// with their indices counted in float64 (exact below 2^53, as float64(i)
// is): a conversion and a bounds check an element made the loop twice as
// long (arange(0.5, 100000, 0.1) 0.79 → 0.37–0.44 ms; NumPy 0.7).
func affineF64(d []float64, lo int, b, s float64) {
	i := lo
	for f := float64(i); i+4 <= len(d); i, f = i+4, f+4 {
		e := d[i : i+4 : i+4]
		e[0] = b + float64(f*s)
		e[1] = b + float64((f+1)*s)
		e[2] = b + float64((f+2)*s)
		e[3] = b + float64((f+3)*s)
	}
	for ; i < len(d); i++ {
		d[i] = b + float64(float64(i)*s)
	}
}

// affineF32 is affineF64 in float32 arithmetic, its indices counted in
// float32 below 2^24 and from there converted (rounded) one by one.
func affineF32(d []float32, lo int, b, s float32) {
	i := lo
	for f, end := float32(i), min(len(d), 1<<24); i+4 <= end; i, f = i+4, f+4 {
		e := d[i : i+4 : i+4]
		e[0] = b + float32(f*s)
		e[1] = b + float32((f+1)*s)
		e[2] = b + float32((f+2)*s)
		e[3] = b + float32((f+3)*s)
	}
	for ; i+4 <= len(d); i += 4 {
		e := d[i : i+4 : i+4]
		e[0] = b + float32(float32(i)*s)
		e[1] = b + float32(float32(i+1)*s)
		e[2] = b + float32(float32(i+2)*s)
		e[3] = b + float32(float32(i+3)*s)
	}
	for ; i < len(d); i++ {
		d[i] = b + float32(float32(i)*s)
	}
}

// fillChunkLen is the length of chunked's chunks.
const fillChunkLen = 1 << 16

// chunked calls fill(lo, hi) over [from, to) in chunks of fillChunkLen
// elements (each starting at from plus a multiple of it), on as many
// goroutines as GOMAXPROCS allows when there are several chunks. arange's
// element i is a function of i alone and rand's chunks have generators
// of their own, so the values do not depend on the split (arange(10^6)
// filled 8 MB on one core in 1 ms; NumPy 0.45 ms).
func chunked(from, to int, fill func(lo, hi int)) {
	const chunk = fillChunkLen
	if to-from <= chunk || runtime.GOMAXPROCS(0) == 1 {
		fill(from, to)
		return
	}
	var next atomic.Int64
	next.Store(int64(from))
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), (to-from+chunk-1)/chunk) {
		wg.Go(func() {
			for {
				lo := int(next.Add(chunk) - chunk)
				if lo >= to {
					return
				}
				fill(lo, min(to, lo+chunk))
			}
		})
	}
	wg.Wait()
}

// fillRange sets element i of tt to start + i*step for the common
// dtypes, with the values and conversions of setScalar's (integers
// computed in int64 and wrapped, or rounded once to a float dtype; floats
// computed in float64 and rounded once), without a big.Int or a Scalar
// per element: arange(10**6) took 14 ms that way. It reports false for
// the other dtypes, which the caller fills through setScalar.
func fillRange(tt *backend.Tensor, ints bool, start, step float64) bool {
	n := tt.Len()
	if ints {
		s, st := int64(start), int64(step)
		switch d := tt.Data.(type) {
		case []int64:
			rangeInts(d, s, st)
		case []int32:
			rangeInts(d, s, st)
		case []int16:
			rangeInts(d, s, st)
		case []int8:
			rangeInts(d, s, st)
		case []uint8:
			if tt.DType != dtypes.U8 {
				return false
			}
			rangeInts(d, s, st)
		case []float64:
			if tt.DType != dtypes.F64 {
				return false
			}
			chunked(0, n, func(lo, hi int) {
				for i := lo; i < hi; i++ {
					d[i] = float64(s + int64(i)*st)
				}
			})
		case []float32:
			if tt.DType != dtypes.F32 {
				return false
			}
			chunked(0, n, func(lo, hi int) {
				for i := lo; i < hi; i++ {
					d[i] = float32(s + int64(i)*st)
				}
			})
		default:
			return false
		}
		return true
	}
	switch d := tt.Data.(type) {
	case []float64:
		if tt.DType != dtypes.F64 {
			return false
		}
		chunked(0, n, func(lo, hi int) { affineF64(d[:hi], lo, start, step) })
	case []float32:
		if tt.DType != dtypes.F32 {
			return false
		}
		chunked(0, n, func(lo, hi int) {
			for i := lo; i < hi; i++ {
				d[i] = float32(start + float64(i)*step)
			}
		})
	default:
		return false
	}
	return true
}

// rangeInts sets d[i] = start + i*step computed in int64, wrapped to T.
func rangeInts[T int8 | int16 | int32 | int64 | uint8](d []T, start, step int64) {
	chunked(0, len(d), func(lo, hi int) {
		c := d[lo:hi]
		v := start + int64(lo)*step
		for i := range c {
			c[i] = T(v)
			v += step
		}
	})
}

// linspace makes num evenly spaced values from start to stop, the last
// one stop itself unless endpoint=false, as numpy.linspace computes them
// (numpy/core/function_base.py): start + i·step with step = (stop -
// start)/div, div = num - 1 (num without the endpoint), or start +
// i/div·(stop - start) where step is 0.
func linspace(c *compiler, k *call) (*operand, error) {
	if err := k.nargs(c, 2, 3); err != nil {
		return nil, err
	}
	if err := k.passedTwice(c, 2, "num"); err != nil {
		return nil, err
	}
	num := 50
	var err error
	if len(k.args) == 3 {
		if num, err = c.intOf(k.args[2], "num"); err != nil {
			return nil, err
		}
	} else if o, ok := k.kw["num"]; ok {
		if num, err = c.intOf(o, "num"); err != nil {
			return nil, err
		}
	}
	if num < 0 {
		return nil, c.errorf(k.sp, "ValueError", "number of samples, %d, must be non-negative", num)
	}
	endpoint := true
	if o, ok := k.kw["endpoint"]; ok {
		if endpoint, err = c.boolOf(o, "endpoint"); err != nil {
			return nil, err
		}
	}
	var ends [2]float64
	for i := 0; i < 2; i++ {
		a := k.args[i]
		if a.kind != LiteralValue || a.lit.Kind > promote.FloatScalar {
			return nil, c.errorf(a.span(), "TypeError", "linspace() bounds must be real number literals")
		}
		ends[i], _ = floatOf(a.lit)
	}
	t, err := c.defaultDType(k, promote.FloatScalar)
	if err != nil {
		return nil, err
	}
	if err := c.s.checkAlloc(t.DType, num); err != nil {
		return nil, c.errorf(k.sp, "MemoryError", "%v", err)
	}
	tt := c.s.fullTensor(t.DType, []int{num}) // every element is set below
	div := num
	if endpoint {
		div = num - 1
	}
	delta := ends[1] - ends[0]
	step := 0.0
	if div > 0 {
		step = delta / float64(div)
	}
	last := endpoint && num > 1 // the last element is stop
	if num > 0 && (step != 0 || delta == 0) && fillRange(tt, false, ends[0], step) {
		if last {
			setScalar(tt, num-1, promote.FloatValue(ends[1]))
		}
		return tensorOperand(tt, t, k.sp), nil
	}
	for i := 0; i < num; i++ {
		v := float64(i)*step + ends[0]
		if step == 0 && div > 0 {
			v = float64(i)/float64(div)*delta + ends[0]
		}
		if last && i == num-1 {
			v = ends[1]
		}
		setScalar(tt, i, promote.FloatValue(v))
	}
	return tensorOperand(tt, t, k.sp), nil
}

// eye makes an n×m matrix with ones on its k-th diagonal (numpy.eye(N,
// M=None, k=0): above the main one for k > 0, below for k < 0).
func eye(c *compiler, k *call) (*operand, error) {
	if err := k.nargs(c, 1, 3); err != nil {
		return nil, err
	}
	if err := k.passedTwice(c, 1, "M", "m"); err != nil {
		return nil, err
	}
	if err := k.passedTwice(c, 2, "k"); err != nil {
		return nil, err
	}
	if _, ok := k.kw["M"]; ok {
		if o, ok := k.kw["m"]; ok {
			return nil, c.errorf(o.span(), "TypeError", "eye() got multiple values for argument \"M\" (M= and m=)")
		}
	}
	n, err := c.intOf(k.args[0], "n")
	if err != nil {
		return nil, err
	}
	m, d := n, 0
	mo, ok := k.kw["M"]
	if !ok {
		mo = k.kw["m"]
	}
	if len(k.args) >= 2 {
		mo = k.args[1]
	}
	if mo != nil && mo.kind != noneKind {
		if m, err = c.intOf(mo, "m"); err != nil {
			return nil, err
		}
	}
	ko := k.kw["k"]
	if len(k.args) == 3 {
		ko = k.args[2]
	}
	if ko != nil {
		if d, err = c.intOf(ko, "k"); err != nil {
			return nil, err
		}
	}
	if err := c.checkShape([]int{n, m}, k.sp); err != nil {
		return nil, err
	}
	t, err := c.defaultDType(k, promote.FloatScalar)
	if err != nil {
		return nil, err
	}
	// Zeros as zeros() makes them (the CPU backend fills its storage in
	// parallel: clearing a new slice in Go took twice as long at
	// 1000×1000), then the 1 of the dtype once and its bits along the
	// diagonal (setScalar a diagonal element took 0.15 ms of eye(1000)).
	z, err := c.filled([]int{n, m}, t, promote.Int64Value(0), k.sp)
	// The diagonal's rows: r in [lo, hi), at column r + d.
	lo, hi := max(0, -d), min(n, m-d)
	if err != nil || hi <= lo {
		return z, err
	}
	tt, err := c.zerosOnHost(z, k)
	if err != nil {
		return nil, err
	}
	one := literalTensor(promote.Int64Value(1), t.DType)
	setDiagonal(tt.Data, one.Data, lo*m+lo+d, hi-lo, m+1)
	return tensorOperand(tt, t, k.sp), nil
}

// zerosOnHost returns the tensor of z, zeros made by filled, computed on
// the CPU backend (which fills its storage in parallel) to be written on
// the host.
func (c *compiler) zerosOnHost(z *operand, k *call) (*backend.Tensor, error) {
	if z.node.Op == backend.OpInput {
		return z.node.Tensor, nil // a new 0-d literal's, reshaped, when z has one element
	}
	tt, err := c.s.backends["cpu"].Run(c.ctx, z.node)
	if err != nil {
		return nil, c.errorf(k.sp, "RuntimeError", "%w", err)
	}
	return tt, nil
}

// setDiagonal sets count elements of dst (a storage slice), stride apart
// from element first, to the elements of src (a storage slice of the same
// type) in turn, src's first again after its last.
func setDiagonal(dst, src any, first, count, stride int) {
	switch d := dst.(type) {
	case []bool:
		setEvery(d, src, first, count, stride)
	case []int8:
		setEvery(d, src, first, count, stride)
	case []int16:
		setEvery(d, src, first, count, stride)
	case []int32:
		setEvery(d, src, first, count, stride)
	case []int64:
		setEvery(d, src, first, count, stride)
	case []uint8:
		setEvery(d, src, first, count, stride)
	case []uint16:
		setEvery(d, src, first, count, stride)
	case []uint32:
		setEvery(d, src, first, count, stride)
	case []uint64:
		setEvery(d, src, first, count, stride)
	case []float32:
		setEvery(d, src, first, count, stride)
	case []float64:
		setEvery(d, src, first, count, stride)
	case []complex64:
		setEvery(d, src, first, count, stride)
	case []complex128:
		setEvery(d, src, first, count, stride)
	default:
		panic(fmt.Sprintf("setDiagonal: storage %T", dst))
	}
}

func setEvery[T any](d []T, src any, first, count, stride int) {
	s := src.([]T)
	for i := range count {
		d[first+i*stride] = s[i%len(s)]
	}
}

// randUniform is rand: uniform random values in [0, 1).
func randUniform(c *compiler, k *call) (*operand, error) { return random(c, k, false) }

// randNormal is randn: standard normal random values.
func randNormal(c *compiler, k *call) (*operand, error) { return random(c, k, true) }

// random is rand and randn, from the session's seeded generator.
func random(c *compiler, k *call, normal bool) (*operand, error) {
	dims, err := c.shapeArgs(k, 0)
	if err != nil {
		return nil, err
	}
	if err := c.checkShape(dims, k.sp); err != nil {
		return nil, err
	}
	t, err := c.defaultDType(k, promote.FloatScalar)
	if err != nil {
		return nil, err
	}
	if !t.DType.IsFloat() {
		return nil, c.errorf(k.sp, "TypeError", "%s() makes floats; dtype %s is not a float", k.name, t.DType)
	}
	if o, ok := k.kw["seed"]; ok {
		seed, err := c.intOf(o, "seed")
		if err != nil {
			return nil, err
		}
		c.s.reseed(uint64(seed))
	}
	n := backend.Size(dims)
	if err := c.s.checkAlloc(t.DType, n); err != nil {
		return nil, c.errorf(k.sp, "MemoryError", "%v", err)
	}
	tt := newTensor(t.DType, dims)
	if err := fillRandom(c.ctx, c.s, tt, normal); err != nil {
		return nil, &Error{Name: "KeyboardInterrupt", Msg: "interrupted", File: c.file}
	}
	return tensorOperand(tt, t, k.sp), nil
}

// reshape gives x a new shape of the same size.
func reshape(c *compiler, k *call) (*operand, error) {
	x, err := c.tensorX(k, 2, -1)
	if err != nil {
		return nil, err
	}
	dims, err := c.shapeArgs(k, 1)
	if err != nil {
		return nil, err
	}
	size := backend.Size(x.shape)
	infer := -1
	known := 1
	for i, d := range dims {
		if d == -1 {
			if infer >= 0 {
				return nil, c.errorf(k.sp, "ValueError", "can only specify one unknown dimension")
			}
			infer = i
		} else if d < 0 {
			return nil, c.errorf(k.sp, "ValueError", "negative dimensions are not allowed: %s", formatShape(dims))
		} else {
			known *= d
		}
	}
	dims = append([]int(nil), dims...)
	if infer >= 0 {
		if known == 0 || size%known != 0 {
			return nil, c.errorf(k.sp, "ValueError", "cannot reshape a tensor of size %d into shape %s", size, formatShape(dims))
		}
		dims[infer] = size / known
	} else if known != size {
		return nil, c.errorf(k.sp, "ValueError", "cannot reshape a tensor of size %d into shape %s", size, formatShape(dims))
	}
	return c.structural(backend.OpReshape, x, dims, nil, k), nil
}

// transpose permutes the axes of x.
func transpose(c *compiler, k *call) (*operand, error) {
	x, err := c.tensorX(k, 1, 2)
	if err != nil {
		return nil, err
	}
	rank := len(x.shape)
	perm := make([]int, rank)
	for i := range perm {
		perm[i] = rank - 1 - i
	}
	var ax *operand
	if len(k.args) == 2 {
		ax = k.args[1]
	} else if o, ok := k.kw["axes"]; ok {
		ax = o
	}
	if ax != nil && ax.kind != noneKind {
		raw, err := c.shapeOf(ax, "axes")
		if err != nil {
			return nil, err
		}
		if len(raw) != rank {
			return nil, c.errorf(ax.span(), "ValueError", "axes %s don't match a tensor of rank %d", formatShape(raw), rank)
		}
		seen := map[int]bool{}
		for i, a := range raw {
			n, err := c.normAxis(a, rank, ax.span())
			if err != nil {
				return nil, err
			}
			if seen[n] {
				return nil, c.errorf(ax.span(), "ValueError", "repeated axis in transpose")
			}
			seen[n] = true
			perm[i] = n
		}
	}
	shape := make([]int, rank)
	for i, p := range perm {
		shape[i] = x.shape[p]
	}
	return c.structural(backend.OpTranspose, x, shape, perm, k), nil
}

// broadcastTo is broadcast_to: x broadcast to a shape.
func broadcastTo(c *compiler, k *call) (*operand, error) {
	x, err := c.tensorX(k, 2, 2)
	if err != nil {
		return nil, err
	}
	dims, err := c.shapeOf(k.args[1], "shape")
	if err != nil {
		return nil, err
	}
	out, err := broadcast.Shapes(x.shape, dims)
	if err != nil || !slices.Equal(out, dims) {
		return nil, c.errorf(k.sp, "BroadcastError", "cannot broadcast a tensor of shape %s to shape %s", formatShape(x.shape), formatShape(dims))
	}
	return c.structural(backend.OpBroadcastTo, x, dims, nil, k), nil
}

// expandDims is expand_dims: x with a new axis of length 1.
func expandDims(c *compiler, k *call) (*operand, error) {
	x, err := c.tensorX(k, 1, 2)
	if err != nil {
		return nil, err
	}
	var ax *operand
	if len(k.args) == 2 {
		ax = k.args[1]
	} else if ax = k.kw["axis"]; ax == nil {
		return nil, c.errorf(k.sp, "TypeError", "expand_dims() needs axis")
	}
	a, err := c.intOf(ax, "axis")
	if err != nil {
		return nil, err
	}
	if err := c.checkRank(len(x.shape)+1, k.sp); err != nil {
		return nil, err
	}
	if a, err = c.normAxis(a, len(x.shape)+1, ax.span()); err != nil {
		return nil, err
	}
	shape := append(append(append([]int{}, x.shape[:a]...), 1), x.shape[a:]...)
	return c.structural(backend.OpReshape, x, shape, nil, k), nil
}

// squeeze drops length-1 axes.
func squeeze(c *compiler, k *call) (*operand, error) {
	x, err := c.tensorX(k, 1, 2)
	if err != nil {
		return nil, err
	}
	axes, given, err := c.axesOf(k, len(x.shape))
	if err != nil {
		return nil, err
	}
	drop := map[int]bool{}
	if given && len(x.shape) == 0 {
		return x, nil // np.squeeze(np.float64(0), 0) is the 0-d value
	}
	if given {
		for _, a := range axes {
			if x.shape[a] != 1 {
				return nil, c.errorf(k.sp, "ValueError", "cannot select an axis to squeeze out which has size not equal to one (axis %d has size %d)", a, x.shape[a])
			}
			drop[a] = true
		}
	} else {
		for i, d := range x.shape {
			if d == 1 {
				drop[i] = true
			}
		}
	}
	var shape []int
	for i, d := range x.shape {
		if !drop[i] {
			shape = append(shape, d)
		}
	}
	return c.structural(backend.OpReshape, x, shape, nil, k), nil
}

// flip reverses x along axis (every axis by default), as np.flip,
// jnp.flip and torch.flip do: a view with step -1 (x[::-1] along each of
// those axes), of x's dtype, weak or not.
func flip(c *compiler, k *call) (*operand, error) {
	x, err := c.tensorX(k, 1, 2)
	if err != nil {
		return nil, err
	}
	axes, given, err := c.axesOf(k, len(x.shape))
	if err != nil {
		return nil, err
	}
	if given && len(axes) > 0 {
		if err := c.noAxis0(x, axes[0], k.sp, ""); err != nil { // np.flip(np.float64(0), 0)
			return nil, err
		}
	}
	rev := make([]bool, len(x.shape))
	for i := range rev {
		rev[i] = !given
	}
	for _, a := range axes {
		rev[a] = true
	}
	slices := make([]backend.Slice, len(x.shape))
	for i, d := range x.shape {
		slices[i] = backend.Slice{Start: 0, Stop: d, Step: 1}
		if rev[i] && d > 0 {
			// Python's slice(None, None, -1).indices(d).
			slices[i] = backend.Slice{Start: d - 1, Stop: -1, Step: -1}
		}
	}
	n := &backend.Node{Op: backend.OpSlice, DType: x.node.DType, Shape: x.shape, Args: []*backend.Node{x.node}, Slices: slices}
	return &operand{kind: TensorValue, typ: x.typ, shape: x.shape, node: n, start: k.sp.start, end: k.sp.end}, nil
}

// concat joins tensors along an existing axis.
func concat(c *compiler, k *call) (*operand, error) {
	return c.join(k, false)
}

// stack joins tensors along a new axis.
func stack(c *compiler, k *call) (*operand, error) {
	return c.join(k, true)
}

// filled makes a tensor of shape dims and type t holding v everywhere.
func (c *compiler) filled(dims []int, t dtypes.Type, v promote.Scalar, sp span) (*operand, error) {
	if err := c.checkShape(dims, sp); err != nil {
		return nil, err
	}
	if err := c.policy.Convert(v, t.DType); err != nil {
		return nil, c.promoteError(err, sp)
	}
	n := backend.Size(dims)
	if err := c.s.checkAlloc(t.DType, n); err != nil {
		return nil, c.errorf(sp, "MemoryError", "%v", err)
	}
	one := literalTensor(v, t.DType)
	if n == 1 {
		one.Shape = append([]int(nil), dims...)
		return tensorOperand(one, t, sp), nil
	}
	// A broadcast of the 0-d constant: the backend fills it in one pass.
	node := &backend.Node{Op: backend.OpBroadcastTo, DType: t.DType, Shape: append([]int(nil), dims...), Args: []*backend.Node{inputNode(one)}}
	return &operand{kind: TensorValue, typ: t, shape: node.Shape, node: node, start: sp.start, end: sp.end}, nil
}

// structural wraps x in a shape operation; the dtype and weak flag are kept.
func (c *compiler) structural(op backend.Op, x *operand, shape, axes []int, k *call) *operand {
	n := &backend.Node{Op: op, DType: x.node.DType, Shape: shape, Args: []*backend.Node{x.node}, Axes: axes}
	return &operand{kind: TensorValue, typ: x.typ, shape: shape, node: n, start: k.sp.start, end: k.sp.end}
}

// join compiles concat and stack.
func (c *compiler) join(k *call, stack bool) (*operand, error) {
	if len(k.args) == 0 {
		return nil, c.errorf(k.sp, "TypeError", "%s() needs a list of tensors", k.name)
	}
	parts := k.args
	axisPos := -1
	if len(k.args) >= 1 && (k.args[0].kind == listKind || k.args[0].kind == tupleKind) {
		parts = k.args[0].elems
		if len(k.args) == 2 {
			axisPos = 1
		} else if len(k.args) > 2 {
			return nil, c.errorf(k.args[2].span(), "TypeError", "%s() takes a list and an axis", k.name)
		}
	}
	if len(parts) == 0 {
		return nil, c.errorf(k.sp, "ValueError", "need at least one tensor to %s", k.name)
	}
	axis := 0
	var err error
	if axisPos > 0 {
		if axis, err = c.intOf(k.args[axisPos], "axis"); err != nil {
			return nil, err
		}
	} else if o, ok := k.kw["axis"]; ok {
		if axis, err = c.intOf(o, "axis"); err != nil {
			return nil, err
		}
	}
	ops := make([]*operand, len(parts))
	for i, p := range parts {
		if p.kind == listKind {
			if p, err = c.listTensor(p, nil, p.span()); err != nil {
				return nil, err
			}
		}
		if err := c.requireNumeric(p, k.name, "()"); err != nil {
			return nil, err
		}
		ops[i] = c.materialize(p)
	}
	// The dtype: the policy's promotion of all parts together (np.result_type
	// and torch's result_type look at all of them at once; others fold).
	xs := make([]promote.Operand, len(ops))
	for i, o := range ops {
		xs[i] = toPolicyOperand(o)
	}
	res, err := promote.Nary(c.policy, promote.Where, xs...)
	if err != nil {
		return nil, c.promoteError(err, k.fnSpan, ops...)
	}
	c.warn(res.Warning)
	typ := res.Type
	rank := len(ops[0].shape)
	if stack {
		rank++
	}
	if rank == 0 {
		return nil, c.errorf(k.sp, "ValueError", "zero-dimensional tensors cannot be concatenated")
	}
	if axis, err = c.normAxis(axis, rank, k.sp); err != nil {
		return nil, err
	}
	args := make([]*backend.Node, len(ops))
	var shape []int
	for i, o := range ops {
		s := o.shape
		n := castNode(o.node, typ.DType)
		if stack {
			if !slices.Equal(s, ops[0].shape) {
				return nil, c.errorf(o.span(), "ValueError", "all input tensors must have the same shape to stack: %s vs %s", formatShape(s), formatShape(ops[0].shape))
			}
			s = append(append(append([]int{}, s[:axis]...), 1), s[axis:]...)
			n = &backend.Node{Op: backend.OpReshape, DType: typ.DType, Shape: s, Args: []*backend.Node{n}}
		}
		if len(s) != rank {
			return nil, c.errorf(o.span(), "ValueError", "all input tensors must have the same rank: %s vs %s", formatShape(s), formatShape(ops[0].shape))
		}
		if i == 0 {
			shape = append([]int{}, s...)
		} else {
			for d := range s {
				if d != axis && s[d] != shape[d] {
					return nil, c.errorf(o.span(), "ValueError", "shapes %s and %s differ outside axis %d", formatShape(ops[0].shape), formatShape(o.shape), axis)
				}
			}
			shape[axis] += s[axis]
		}
		args[i] = n
	}
	node := &backend.Node{Op: backend.OpConcat, DType: typ.DType, Shape: shape, Args: args, Axes: []int{axis}}
	out := &operand{kind: TensorValue, typ: typ, shape: shape, node: node, start: k.sp.start, end: k.sp.end}
	if c.explaining() {
		c.record(k.name+"(…)", out, "the parts are promoted together: "+res.Rule)
	}
	return out, nil
}

// fillRandom fills a float tensor from the session's generator.
func fillRandom(ctx context.Context, s *Session, t *backend.Tensor, normal bool) error {
	// The tensor is filled in chunks of chunked's size, each from its
	// own generator seeded by the session's generator in order: the
	// values depend only on the seed, never on how many workers fill
	// them.
	s.draws++
	n := t.Len()
	if n == 0 {
		return ctx.Err() // rand(0): no values, no draws
	}
	seeds := make([]uint64, (n+fillChunkLen-1)/fillChunkLen)
	for i := range seeds {
		seeds[i] = s.rng.Uint64()
	}
	chunked(0, n, func(lo, hi int) {
		if ctx.Err() != nil {
			return
		}
		c := lo / fillChunkLen
		fillChunk(rand.New(rand.NewPCG(seeds[c], uint64(c))), t, lo, hi, normal)
	})
	return ctx.Err()
}

// fillChunk fills t[lo:hi] with uniform values in [0, 1) or standard
// normal ones.
func fillChunk(r *rand.Rand, t *backend.Tensor, lo, hi int, normal bool) {
	switch data := t.Data.(type) {
	case []float32:
		for i := lo; i < hi; i++ {
			if normal {
				data[i] = float32(r.NormFloat64())
			} else {
				// The float64 draw r.Float64() would give (53 random bits),
				// cut to its first 24: exact, below 1, and the same number
				// a float64 tensor holds to float32's precision, so that
				// compare(rand(3)) shows one set of values.
				u := r.Uint64() << 11 >> 11
				data[i] = float32(u>>29) * (1.0 / (1 << 24))
			}
		}
		return
	case []float64:
		for i := lo; i < hi; i++ {
			if normal {
				data[i] = r.NormFloat64()
			} else {
				data[i] = r.Float64()
			}
		}
		return
	}
	for i := lo; i < hi; i++ {
		var v float64
		if normal {
			v = r.NormFloat64()
		} else {
			v = r.Float64()
		}
		setScalar(t, i, promote.FloatValue(v))
		if !normal {
			// Rounding to a narrow float may give 1.0; keep the half-open
			// interval.
			if f := scalarAt(t, i).Float; f >= 1 {
				setScalar(t, i, promote.FloatValue(math.Nextafter(1, 0)))
				if g := scalarAt(t, i).Float; g >= 1 {
					setScalar(t, i, promote.FloatValue(1-math.Pow(2, -float64(t.DType.MantissaBits()+1))))
				}
			}
		}
	}
}

// countString formats a count exactly up to 10^15 and in scientific
// notation beyond (1e+300 elements, not a 301-digit number).
func countString(n float64) string {
	if n < 1e15 {
		return strconv.FormatFloat(n, 'f', -1, 64)
	}
	return strconv.FormatFloat(n, 'g', 4, 64)
}

// gbString formats bytes in GB: one decimal, or scientific notation for
// sizes no machine has.
func gbString(bytes float64) string {
	if gb := bytes / 1e9; gb < 1e15 {
		return strconv.FormatFloat(gb, 'f', 1, 64)
	}
	return strconv.FormatFloat(bytes/1e9, 'g', 4, 64)
}

// checkAlloc refuses tensors that cannot fit in memory.
func (s *Session) checkAlloc(d dtypes.DType, n int) error {
	return s.checkAllocCount(d, float64(n))
}

// checkAllocCount is checkAlloc for a count that may not fit in an int.
func (s *Session) checkAllocCount(d dtypes.DType, n float64) error {
	bytes := n * float64(d.Bits()) / 8
	if limit := sysmem.LimitFor(bytes); bytes > limit {
		return fmt.Errorf("out of memory: %s elements of %s need %s GB (available %.1f GB)", countString(n), d.FullName(), gbString(bytes), limit/1e9)
	}
	return nil
}
