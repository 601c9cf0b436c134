package cpu

import (
	"fmt"
	"math"

	"github.com/tensorsh/tensorsh/backend"
	"github.com/tensorsh/tensorsh/dtypes"
)

// Reductions.
//
// The order of operations follows NumPy's reduction loops on a C-contiguous
// array, so that float results match NumPy's bit for bit on typical inputs:
//
//   - The reduced axes are grouped. When the last axis is reduced, each
//     contiguous run along the trailing reduced axes is summed by NumPy's
//     pairwise summation (blocks of 8 accumulators up to 128 elements,
//     halves above) and added to the running result; runs of the outer
//     reduced axes are visited in memory order. When the last axis is kept,
//     every output element accumulates its inputs one by one in memory
//     order (NumPy's elementwise add of rows).
//   - The running result starts at the operation's identity (0 for sum,
//     as NumPy's +0, 1 for prod) or at the first element (max, min).
//   - Narrow floats (f16, bf16, f8, tf32) are accumulated in float32 within
//     a run and rounded to their format after each run, as NumPy's float16
//     loops do (ml_dtypes' bfloat16 rounds after every element instead).
//   - Products are sequential, never pairwise, as in NumPy.
//   - Integer sums and products wrap.

// computeBuf returns the elements of v, in row-major order, as a compute
// buffer (v's own storage when it is contiguous and needs no conversion).
func (r *runner) computeBuf(v *view) (any, error) {
	n := v.size()
	if identityStorage(v.dtype) && v.contiguous() {
		return sliceBuf(v.data, v.off, v.off+n), nil
	}
	initTables()
	buf, err := r.allocBuf(computeOf(v.dtype), n)
	if err != nil {
		return nil, err
	}
	if n == 0 {
		return buf, nil
	}
	shape, st := coalesce(v.shape, [][]int{v.strides})
	s := st[0]
	err = r.parallel(n, grainSize, func(_, lo, hi int) error {
		idx, pos := make([]int, len(shape)), make([]int, 1)
		segments(shape, st, []int{v.off}, idx, pos, lo, hi-lo, func(done int, pos []int, run int) {
			loadSeg(v.dtype, sliceBuf(buf, lo+done, lo+done+run), v.data, pos[0], s[len(s)-1], run)
		})
		return nil
	})
	return buf, err
}

// finish turns a compute buffer of dtype from (values already rounded to
// from) into a tensor of dtype to with the given shape.
func (r *runner) finish(buf any, from, to dtypes.DType, shape []int) (*view, error) {
	n := bufLen(buf)
	if from == to && identityStorage(to) {
		return contigView(to, buf, shape), nil
	}
	data, err := r.alloc(to, n)
	if err != nil {
		return nil, err
	}
	var k kfn
	if from != to {
		if k, err = castKernel(from, to); err != nil {
			return nil, err
		}
	}
	err = r.parallel(n, grainSize, func(_, lo, hi int) error {
		var tmp any
		for off := lo; off < hi; off += blockSize {
			end := min(off+blockSize, hi)
			src := sliceBuf(buf, off, end)
			if k != nil {
				if tmp == nil {
					tmp = newBuf(computeOf(to), blockSize)
				}
				dst := sliceBuf(tmp, 0, end-off)
				if err := k(dst, []any{src}); err != nil {
					return err
				}
				src = dst
			}
			storeSeg(to, data, off, src)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return contigView(to, data, shape), nil
}

// A redPlan describes the walk of a reduction over a contiguous input.
type redPlan struct {
	outShape []int // kept axes (with 1s where keepdims), for the result
	keptSize []int // coalesced kept groups
	keptStr  []int
	offs     []int // chunk start offsets relative to an output's base, in memory order
	chunk    int   // chunk length (contiguous); 1 when the last axis is kept
	inner    int   // when the last axis is kept: its group size (stride 1); else 0
	m, l     int   // outputs, reduced elements per output
}

func planReduce(shape, axes []int, keep bool) (*redPlan, error) {
	nd := len(shape)
	red := make([]bool, nd)
	if len(axes) == 0 {
		for i := range red {
			red[i] = true
		}
	}
	for _, a := range axes {
		if a < 0 || a >= nd {
			return nil, fmt.Errorf("axis %d is out of bounds for array of dimension %d", a, nd)
		}
		if red[a] {
			return nil, fmt.Errorf("duplicate value in 'axis'")
		}
		red[a] = true
	}
	p := &redPlan{m: 1, l: 1}
	p.outShape = []int{}
	for i, d := range shape {
		if red[i] {
			p.l *= d
			if keep {
				p.outShape = append(p.outShape, 1)
			}
		} else {
			p.m *= d
			p.outShape = append(p.outShape, d)
		}
	}
	if p.m == 0 || p.l == 0 {
		return p, nil
	}
	// Group the axes: drop size-1 axes, merge neighbours of the same kind.
	type group struct {
		size int
		red  bool
	}
	var gs []group
	for i, d := range shape {
		if d == 1 {
			continue
		}
		if len(gs) > 0 && gs[len(gs)-1].red == red[i] {
			gs[len(gs)-1].size *= d
			continue
		}
		gs = append(gs, group{d, red[i]})
	}
	strides := make([]int, len(gs))
	step := 1
	for i := len(gs) - 1; i >= 0; i-- {
		strides[i] = step
		step *= gs[i].size
	}
	var rsize, rstr []int
	last := len(gs) - 1
	p.chunk = 1
	for i, g := range gs {
		switch {
		case !g.red:
			p.keptSize = append(p.keptSize, g.size)
			p.keptStr = append(p.keptStr, strides[i])
		case i == last:
			p.chunk = g.size
		default:
			rsize = append(rsize, g.size)
			rstr = append(rstr, strides[i])
		}
	}
	if last >= 0 && !gs[last].red {
		p.inner = gs[last].size
	}
	// Offsets of the chunks, in memory order.
	p.offs = []int{0}
	for i := range rsize {
		next := make([]int, 0, len(p.offs)*rsize[i])
		for _, o := range p.offs {
			for j := range rsize[i] {
				next = append(next, o+j*rstr[i])
			}
		}
		p.offs = next
	}
	return p, nil
}

// base returns the input offset of output element o (kept multi-index in
// row-major order).
func (p *redPlan) base(o int) int {
	b := 0
	for i := len(p.keptSize) - 1; i >= 0; i-- {
		b += (o % p.keptSize[i]) * p.keptStr[i]
		o /= p.keptSize[i]
	}
	return b
}

// redOps are the typed steps of one reduction.
type redOps[T any] struct {
	first  bool             // start from the first element rather than init
	init   T                // the identity
	chunk  func(T, []T) T   // fold a contiguous run into the accumulator
	vec    func(acc, x []T) // acc[i] = fold(acc[i], x[i])
	round1 func(T) T        // round an accumulator to the dtype (nil: exact)
	round  func([]T)
}

// runReduce computes the reduction of x (contiguous, shape of the plan's
// input) for every output element.
func runReduce[T any](r *runner, x []T, p *redPlan, ops redOps[T]) ([]T, error) {
	out := make([]T, p.m)
	if p.m == 0 {
		return out, nil
	}
	if p.l == 0 {
		for i := range out {
			out[i] = ops.init
		}
		return out, nil
	}
	if p.inner > 0 {
		// The last axis is kept: accumulate rows, a stripe of the inner
		// axis at a time.
		k := p.inner
		stripes := (k + blockSize - 1) / blockSize
		units := p.m / k * stripes
		return out, r.parallel(units, 1, func(_, lo, hi int) error {
			for u := lo; u < hi; u++ {
				oo, s := u/stripes, u%stripes
				k0, k1 := s*blockSize, min(s*blockSize+blockSize, k)
				acc := out[oo*k+k0 : oo*k+k1]
				b := p.base(oo*k) + k0
				if ops.first {
					copy(acc, x[b+p.offs[0]:])
				} else {
					for i := range acc {
						acc[i] = ops.init
					}
				}
				for j, off := range p.offs {
					if j&255 == 255 {
						if err := r.ctx.Err(); err != nil {
							return err
						}
					}
					ops.vec(acc, x[b+off:b+off+len(acc)])
					if ops.round != nil {
						ops.round(acc)
					}
				}
			}
			return nil
		})
	}
	grain := max(1, grainSize/(p.l))
	return out, r.parallel(p.m, grain, func(_, lo, hi int) error {
		for o := lo; o < hi; o++ {
			b := p.base(o)
			acc := ops.init
			if ops.first {
				acc = x[b+p.offs[0]]
			}
			done := 0
			for _, off := range p.offs {
				acc = ops.chunk(acc, x[b+off:b+off+p.chunk])
				if ops.round1 != nil {
					acc = ops.round1(acc)
				}
				if done += p.chunk; done >= grainSize {
					done = 0
					if err := r.ctx.Err(); err != nil {
						return err
					}
				}
			}
			out[o] = acc
		}
		return nil
	})
}

// reduce evaluates sum, prod, mean, max, min, argmax, argmin, any, all.
func (r *runner) reduce(n *backend.Node, size int) (*view, error) {
	argNode := n.Args[0]
	at := argNode.DType
	switch n.Op {
	case backend.OpAny, backend.OpAll:
		if at != dtypes.Bool {
			argNode = &backend.Node{Op: backend.OpCast, DType: dtypes.Bool, Shape: argNode.Shape, Args: []*backend.Node{argNode}}
			at = dtypes.Bool
		}
	case backend.OpSum, backend.OpProd, backend.OpMean:
		// Sums of bools, and means of integers with an inexact result,
		// accumulate in the result dtype.
		if at == dtypes.Bool || n.Op == backend.OpMean && at.IsInt() && n.DType.IsInexact() {
			if n.DType == dtypes.Bool {
				return nil, fmt.Errorf("cpu: %v of bool needs a numeric accumulation dtype", n.Op)
			}
			argNode = &backend.Node{Op: backend.OpCast, DType: n.DType, Shape: argNode.Shape, Args: []*backend.Node{argNode}}
			at = n.DType
		}
	}
	a, err := r.eval(argNode)
	if err != nil {
		return nil, err
	}
	p, err := planReduce(a.shape, n.Axes, n.KeepDims)
	if err != nil {
		return nil, fmt.Errorf("cpu: %v: %v", n.Op, err)
	}
	if !sameShape(p.outShape, n.Shape) {
		return nil, fmt.Errorf("cpu: %v of shape %v over axes %v gives %v, plan says %v", n.Op, a.shape, n.Axes, p.outShape, n.Shape)
	}
	if p.l == 0 && p.m > 0 {
		switch n.Op {
		case backend.OpReduceMax:
			return nil, fmt.Errorf("zero-size array to reduction operation maximum which has no identity")
		case backend.OpReduceMin:
			return nil, fmt.Errorf("zero-size array to reduction operation minimum which has no identity")
		case backend.OpArgMax:
			return nil, fmt.Errorf("attempt to get argmax of an empty sequence")
		case backend.OpArgMin:
			return nil, fmt.Errorf("attempt to get argmin of an empty sequence")
		}
	}
	if n.Op == backend.OpArgMax || n.Op == backend.OpArgMin {
		if !n.DType.IsInt() {
			return nil, fmt.Errorf("cpu: %v gives an integer dtype, not %v", n.Op, n.DType)
		}
	}
	if err := r.reserve(p.m, 16); err != nil {
		return nil, err
	}
	x, err := r.computeBuf(a)
	if err != nil {
		return nil, err
	}
	var res any
	resDT := at
	switch n.Op {
	case backend.OpArgMax, backend.OpArgMin:
		res, err = argReduce(r, x, p, n.Op == backend.OpArgMax)
		resDT = dtypes.I64
	default:
		res, err = reduceAny(r, x, p, n.Op, at)
	}
	if err != nil {
		return nil, err
	}
	return r.finish(res, resDT, n.DType, n.Shape)
}

// reduceAny dispatches a value reduction on the compute type of dt.
func reduceAny(r *runner, x any, p *redPlan, o backend.Op, dt dtypes.DType) (any, error) {
	switch xs := x.(type) {
	case []bool:
		return reduceBool(r, xs, p, o)
	case []int8:
		return reduceInt(r, xs, p, o)
	case []int16:
		return reduceInt(r, xs, p, o)
	case []int32:
		return reduceInt(r, xs, p, o)
	case []int64:
		return reduceInt(r, xs, p, o)
	case []uint8:
		return reduceInt(r, xs, p, o)
	case []uint16:
		return reduceInt(r, xs, p, o)
	case []uint32:
		return reduceInt(r, xs, p, o)
	case []uint64:
		return reduceInt(r, xs, p, o)
	case []float32:
		return reduceFloat(r, xs, p, o, dt)
	case []float64:
		return reduceFloat(r, xs, p, o, dt)
	case []complex64:
		return reduceComplex(r, xs, p, o)
	case []complex128:
		return reduceComplex(r, xs, p, o)
	}
	return nil, fmt.Errorf("cpu: %v of %v is not supported", o, dt)
}

func reduceBool(r *runner, x []bool, p *redPlan, o backend.Op) (any, error) {
	var ops redOps[bool]
	switch o {
	case backend.OpAny, backend.OpReduceMax:
		ops = redOps[bool]{init: false,
			chunk: func(acc bool, x []bool) bool {
				for _, v := range x {
					acc = acc || v
				}
				return acc
			},
			vec: func(acc, x []bool) {
				for i := range acc {
					acc[i] = acc[i] || x[i]
				}
			}}
	case backend.OpAll, backend.OpReduceMin:
		ops = redOps[bool]{init: true,
			chunk: func(acc bool, x []bool) bool {
				for _, v := range x {
					acc = acc && v
				}
				return acc
			},
			vec: func(acc, x []bool) {
				for i := range acc {
					acc[i] = acc[i] && x[i]
				}
			}}
	default:
		return nil, fmt.Errorf("cpu: %v of bool is not supported", o)
	}
	return runReduce(r, x, p, ops)
}

func reduceInt[T integer](r *runner, x []T, p *redPlan, o backend.Op) (any, error) {
	var ops redOps[T]
	switch o {
	case backend.OpSum, backend.OpMean:
		ops = redOps[T]{init: 0,
			chunk: func(acc T, x []T) T {
				for _, v := range x {
					acc += v
				}
				return acc
			},
			vec: func(acc, x []T) { addL(acc, acc, x) }}
	case backend.OpProd:
		ops = redOps[T]{init: 1,
			chunk: func(acc T, x []T) T {
				for _, v := range x {
					acc *= v
				}
				return acc
			},
			vec: func(acc, x []T) { mulL(acc, acc, x) }}
	case backend.OpReduceMax:
		ops = redOps[T]{first: true,
			chunk: func(acc T, x []T) T {
				for _, v := range x {
					acc = max(acc, v)
				}
				return acc
			},
			vec: func(acc, x []T) {
				for i := range acc {
					acc[i] = max(acc[i], x[i])
				}
			}}
	case backend.OpReduceMin:
		ops = redOps[T]{first: true,
			chunk: func(acc T, x []T) T {
				for _, v := range x {
					acc = min(acc, v)
				}
				return acc
			},
			vec: func(acc, x []T) {
				for i := range acc {
					acc[i] = min(acc[i], x[i])
				}
			}}
	default:
		return nil, fmt.Errorf("cpu: %v of integers is not supported", o)
	}
	res, err := runReduce(r, x, p, ops)
	if err != nil || o != backend.OpMean {
		return res, err
	}
	for i := range res {
		if p.l == 0 {
			res[i] = 0
		} else {
			res[i] /= T(p.l)
		}
	}
	return res, nil
}

func reduceFloat[T float](r *runner, x []T, p *redPlan, o backend.Op, dt dtypes.DType) (any, error) {
	var ops redOps[T]
	switch o {
	case backend.OpSum, backend.OpMean:
		ops = redOps[T]{init: 0,
			chunk: func(acc T, x []T) T {
				if len(x) > 1<<16 && r.b.nworkers() > 1 {
					return acc + parallelPairwise(r, x, 2)
				}
				return acc + pairwise(x)
			},
			vec: func(acc, x []T) { addL(acc, acc, x) }}
	case backend.OpProd:
		ops = redOps[T]{init: 1,
			chunk: func(acc T, x []T) T {
				for _, v := range x {
					acc *= v
				}
				return acc
			},
			vec: func(acc, x []T) { mulL(acc, acc, x) }}
	case backend.OpReduceMax:
		ops = redOps[T]{first: true,
			chunk: func(acc T, x []T) T {
				for _, v := range x {
					if !(acc >= v || acc != acc) {
						acc = v
					}
				}
				return acc
			},
			vec: func(acc, x []T) {
				for i := range acc {
					if !(acc[i] >= x[i] || acc[i] != acc[i]) {
						acc[i] = x[i]
					}
				}
			}}
	case backend.OpReduceMin:
		ops = redOps[T]{first: true,
			chunk: func(acc T, x []T) T {
				for _, v := range x {
					if !(acc <= v || acc != acc) {
						acc = v
					}
				}
				return acc
			},
			vec: func(acc, x []T) {
				for i := range acc {
					if !(acc[i] <= x[i] || acc[i] != acc[i]) {
						acc[i] = x[i]
					}
				}
			}}
	default:
		return nil, fmt.Errorf("cpu: %v of floats is not supported", o)
	}
	if narrow(dt) && (o == backend.OpSum || o == backend.OpMean || o == backend.OpProd) {
		ops.round1 = func(v T) T { return T(roundTo64(dt, float64(v))) }
		ops.round = func(v []T) {
			for i, x := range v {
				v[i] = T(roundTo64(dt, float64(x)))
			}
		}
	}
	res, err := runReduce(r, x, p, ops)
	if err != nil || o != backend.OpMean {
		return res, err
	}
	n := T(p.l)
	for i := range res {
		v := res[i] / n
		if ops.round1 != nil {
			v = ops.round1(v)
		}
		res[i] = v
	}
	return res, nil
}

func reduceComplex[T complex64 | complex128](r *runner, x []T, p *redPlan, o backend.Op) (any, error) {
	var ops redOps[T]
	switch o {
	case backend.OpSum, backend.OpMean:
		ops = redOps[T]{init: 0,
			chunk: func(acc T, x []T) T { return acc + cpairwise(x) },
			vec:   func(acc, x []T) { addL(acc, acc, x) }}
	case backend.OpProd:
		ops = redOps[T]{init: 1,
			chunk: func(acc T, x []T) T {
				for _, v := range x {
					acc = cmul(acc, v)
				}
				return acc
			},
			vec: func(acc, x []T) {
				for i := range acc {
					acc[i] = cmul(acc[i], x[i])
				}
			}}
	default:
		return nil, fmt.Errorf("cpu: %v of complex numbers is not supported", o)
	}
	res, err := runReduce(r, x, p, ops)
	if err != nil || o != backend.OpMean {
		return res, err
	}
	for i := range res {
		res[i] = cdiv(res[i], T(complex(float64(p.l), 0)))
	}
	return res, nil
}

// cmul and cdiv are NumPy's complex product and quotient on complex64 or
// complex128.
func cmul[T complex64 | complex128](a, b T) T {
	switch x := any(a).(type) {
	case complex64:
		y := any(b).(complex64)
		return T(complex(cmulParts(real(x), imag(x), real(y), imag(y))))
	default:
		x128, y := any(a).(complex128), any(b).(complex128)
		return T(complex(cmulParts(real(x128), imag(x128), real(y), imag(y))))
	}
}

func cdiv[T complex64 | complex128](a, b T) T {
	switch x := any(a).(type) {
	case complex64:
		y := any(b).(complex64)
		return T(complex(cdivParts(real(x), imag(x), real(y), imag(y))))
	default:
		x128, y := any(a).(complex128), any(b).(complex128)
		return T(complex(cdivParts(real(x128), imag(x128), real(y), imag(y))))
	}
}

// pairwise is NumPy's pairwise summation (loops_utils.h.src).
func pairwise[T float](a []T) T {
	n := len(a)
	switch {
	case n < 8:
		res := T(math.Copysign(0, -1))
		for _, v := range a {
			res += v
		}
		return res
	case n <= 128:
		var r [8]T
		copy(r[:], a[:8])
		i := 8
		for ; i < n-n%8; i += 8 {
			r[0] += a[i]
			r[1] += a[i+1]
			r[2] += a[i+2]
			r[3] += a[i+3]
			r[4] += a[i+4]
			r[5] += a[i+5]
			r[6] += a[i+6]
			r[7] += a[i+7]
		}
		res := ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]))
		for ; i < n; i++ {
			res += a[i]
		}
		return res
	}
	n2 := n / 2
	n2 -= n2 % 8
	return pairwise(a[:n2]) + pairwise(a[n2:])
}

// parallelPairwise gives pairwise(a), computing the halves of the top
// levels of the recursion in parallel and checking for cancellation.
func parallelPairwise[T float](r *runner, a []T, depth int) T {
	n := len(a)
	if n <= 128 || depth > 6 {
		if r.ctx.Err() != nil {
			return 0
		}
		return pairwise(a)
	}
	n2 := n / 2
	n2 -= n2 % 8
	var lo T
	done := make(chan struct{})
	go func() {
		lo = parallelPairwise(r, a[:n2], depth+1)
		close(done)
	}()
	hi := parallelPairwise(r, a[n2:], depth+1)
	<-done
	return lo + hi
}

// cpairwise is NumPy's pairwise summation of complex numbers: four
// complex accumulators, blocks of up to 64 numbers.
func cpairwise[T complex64 | complex128](a []T) T {
	n := len(a)
	switch {
	case n < 4:
		res := T(complex(math.Copysign(0, -1), math.Copysign(0, -1)))
		for _, v := range a {
			res += v
		}
		return res
	case n <= 64:
		var r [4]T
		copy(r[:], a[:4])
		i := 4
		for ; i < n-n%4; i += 4 {
			r[0] += a[i]
			r[1] += a[i+1]
			r[2] += a[i+2]
			r[3] += a[i+3]
		}
		res := (r[0] + r[1]) + (r[2] + r[3])
		for ; i < n; i++ {
			res += a[i]
		}
		return res
	}
	// NumPy splits 2n floats at n2 = n - n%8 floats, that is n2/2 numbers.
	n2 := n - n%8
	return cpairwise(a[:n2/2]) + cpairwise(a[n2/2:])
}

// argReduce returns the int64 index of the first maximum (or minimum) of
// each output's reduced elements; NaN counts as the extreme (the first NaN
// wins), as in NumPy. With several axes (all of them, for a flattened
// argmax) the index counts the reduced elements in row-major order.
func argReduce(r *runner, x any, p *redPlan, isMax bool) (any, error) {
	switch xs := x.(type) {
	case []bool:
		return argReduceT(r, xs, p, func(a, b bool) bool {
			if isMax {
				return a && !b
			}
			return !a && b
		}, func(bool) bool { return false })
	case []int8:
		return argInt(r, xs, p, isMax)
	case []int16:
		return argInt(r, xs, p, isMax)
	case []int32:
		return argInt(r, xs, p, isMax)
	case []int64:
		return argInt(r, xs, p, isMax)
	case []uint8:
		return argInt(r, xs, p, isMax)
	case []uint16:
		return argInt(r, xs, p, isMax)
	case []uint32:
		return argInt(r, xs, p, isMax)
	case []uint64:
		return argInt(r, xs, p, isMax)
	case []float32:
		return argFloat(r, xs, p, isMax)
	case []float64:
		return argFloat(r, xs, p, isMax)
	}
	return nil, fmt.Errorf("cpu: argmax and argmin of complex numbers are not supported")
}

func argInt[T integer](r *runner, x []T, p *redPlan, isMax bool) ([]int64, error) {
	if isMax {
		return argReduceT(r, x, p, func(v, best T) bool { return v > best }, func(T) bool { return false })
	}
	return argReduceT(r, x, p, func(v, best T) bool { return v < best }, func(T) bool { return false })
}

func argFloat[T float](r *runner, x []T, p *redPlan, isMax bool) ([]int64, error) {
	isNaN := func(v T) bool { return v != v }
	if isMax {
		return argReduceT(r, x, p, func(v, best T) bool { return !(v <= best) }, isNaN)
	}
	return argReduceT(r, x, p, func(v, best T) bool { return !(v >= best) }, isNaN)
}

// argReduceT walks each output's reduced elements in row-major order of
// the reduced axes; better(v, best) says v replaces the current best, and
// stop(best) ends the search (a NaN).
func argReduceT[T any](r *runner, x []T, p *redPlan, better func(v, best T) bool, stop func(T) bool) ([]int64, error) {
	out := make([]int64, p.m)
	if p.m == 0 || p.l == 0 {
		return out, nil
	}
	if p.inner > 0 {
		// With one reduced axis (or all axes) and the last axis kept, the
		// reduced elements of output (oo, k) are x[base+off+k] in order.
		k := p.inner
		return out, r.parallel(p.m/k, 1, func(_, lo, hi int) error {
			for oo := lo; oo < hi; oo++ {
				b := p.base(oo * k)
				for kk := range k {
					best, bi := x[b+p.offs[0]+kk], 0
					if !stop(best) {
						for j := 1; j < len(p.offs); j++ {
							v := x[b+p.offs[j]+kk]
							if better(v, best) {
								best, bi = v, j
								if stop(v) {
									break
								}
							}
						}
					}
					out[oo*k+kk] = int64(bi)
				}
				if err := r.ctx.Err(); err != nil {
					return err
				}
			}
			return nil
		})
	}
	grain := max(1, grainSize/p.l)
	return out, r.parallel(p.m, grain, func(_, lo, hi int) error {
		for o := lo; o < hi; o++ {
			b := p.base(o)
			best, bi := x[b+p.offs[0]], 0
			idx := 0
		walk:
			for _, off := range p.offs {
				for _, v := range x[b+off : b+off+p.chunk] {
					if stop(best) {
						break walk
					}
					if better(v, best) {
						best, bi = v, idx
					}
					idx++
				}
			}
			out[o] = int64(bi)
		}
		return nil
	})
}

// softmax evaluates softmax and log-softmax along Axes[0], in float64
// (max subtracted first), rounding once to the result dtype.
func (r *runner) softmax(n *backend.Node, size int) (*view, error) {
	a, err := r.eval(n.Args[0])
	if err != nil {
		return nil, err
	}
	if a.dtype.IsComplex() || a.dtype == dtypes.Bool || !(n.DType.IsFloat()) {
		return nil, fmt.Errorf("cpu: %v of %v to %v is not supported", n.Op, a.dtype, n.DType)
	}
	if len(n.Axes) != 1 || n.Axes[0] < 0 || n.Axes[0] >= len(a.shape) {
		return nil, fmt.Errorf("cpu: %v needs one axis within the %d dimensions", n.Op, len(a.shape))
	}
	if !sameShape(a.shape, n.Shape) {
		return nil, fmt.Errorf("cpu: %v keeps the shape %v, plan says %v", n.Op, a.shape, n.Shape)
	}
	ax := n.Axes[0]
	x, err := r.computeBuf(a)
	if err != nil {
		return nil, err
	}
	data, err := r.allocBuf(ctF64, size)
	if err != nil {
		return nil, err
	}
	y := data.([]float64)
	if err := toFloat64(x, y); err != nil {
		return nil, err
	}
	outer, inner := 1, 1
	for _, d := range a.shape[:ax] {
		outer *= d
	}
	for _, d := range a.shape[ax+1:] {
		inner *= d
	}
	m := a.shape[ax]
	log := n.Op == backend.OpLogSoftmax
	err = r.parallel(outer*inner, max(1, grainSize/max(m, 1)), func(_, lo, hi int) error {
		for row := lo; row < hi; row++ {
			o, k := row/inner, row%inner
			b := o*m*inner + k
			mx := math.Inf(-1)
			for i := range m {
				v := y[b+i*inner]
				if v > mx || v != v {
					mx = v
					if v != v {
						break
					}
				}
			}
			s := 0.0
			for i := range m {
				s += math.Exp(y[b+i*inner] - mx)
			}
			ls := math.Log(s)
			for i := range m {
				p := b + i*inner
				if log {
					y[p] = y[p] - mx - ls
				} else {
					y[p] = math.Exp(y[p]-mx) / s
				}
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return r.finishFloat64(y, n.DType, n.Shape)
}

// finishFloat64 rounds float64 results once to the float dtype d.
func (r *runner) finishFloat64(y []float64, d dtypes.DType, shape []int) (*view, error) {
	if d == dtypes.F64 {
		return contigView(d, y, shape), nil
	}
	buf := make([]float32, len(y))
	for i, v := range y {
		buf[i] = roundTo64(d, v)
	}
	return r.finish(buf, d, d, shape)
}

// toFloat64 converts a real compute buffer to float64.
func toFloat64(x any, y []float64) error {
	switch xs := x.(type) {
	case []int8:
		convL(y, xs)
	case []int16:
		convL(y, xs)
	case []int32:
		convL(y, xs)
	case []int64:
		convL(y, xs)
	case []uint8:
		convL(y, xs)
	case []uint16:
		convL(y, xs)
	case []uint32:
		convL(y, xs)
	case []uint64:
		convL(y, xs)
	case []float32:
		convL(y, xs)
	case []float64:
		copy(y, xs)
	default:
		return fmt.Errorf("cpu: cannot convert %T to float64", x)
	}
	return nil
}
