package conformance

import (
	"context"
	"fmt"
	"math"
	"math/rand"
	"slices"
	"strings"
	"testing"

	"github.com/tensorsh/tensorsh/backend"
	"github.com/tensorsh/tensorsh/dtypes"
)

// The ULP bounds of the transcendental functions: one ULP of the result
// for float32 and narrower (both backends compute in float64 and round
// once), and for float64 the sum of two libraries' errors (Go's math and,
// for example, CUDA's, whose documented maxima are 1-2 ULP for exp, log,
// sin, cos, tanh, erf and pow, and 5 for the erfc in gelu), widened where
// Go's math package is less accurate than documented: sin and cos near
// multiples of π and for large arguments, log of subnormal numbers (on
// amd64 it returns about -709.09 for all of them, hence also pow with a
// subnormal base), and pow with non-integer exponents.
func opTol(op backend.Op, d dtypes.DType) tol {
	f64 := d.Real() == dtypes.F64
	switch op {
	case backend.OpExp, backend.OpLog, backend.OpLog1p, backend.OpSin, backend.OpCos, backend.OpTanh, backend.OpErf:
		switch {
		case d.IsComplex():
			return tol{ulps: 4}
		case f64 && (op == backend.OpSin || op == backend.OpCos):
			return tol{ulps: 3, absIn: 0x1p-50}
		case f64 && op == backend.OpLog:
			return tol{ulps: 3, subnormalIn: true}
		case f64 && op == backend.OpErf:
			return tol{ulps: 4}
		case f64:
			return tol{ulps: 3}
		}
		return tol{ulps: 1}
	case backend.OpPow:
		switch {
		case d == dtypes.F64:
			// The CPU backend raises to non-integer powers with Go's
			// math.Pow, which is up to about 100 ULP from the correctly
			// rounded result (75 seen for 0.1**300.7).
			return tol{ulps: 128}
		case d.IsComplex():
			return tol{ulps: 4}
		}
		return tol{ulps: 1}
	case backend.OpSigmoid, backend.OpSilu:
		if f64 || d.IsComplex() {
			return tol{ulps: 6}
		}
		return tol{ulps: 1}
	case backend.OpGelu:
		if f64 {
			return tol{ulps: 10}
		}
		return tol{ulps: 1}
	case backend.OpSqrt, backend.OpRsqrt:
		if d.IsComplex() {
			return tol{ulps: 4}
		}
	case backend.OpTan, backend.OpAsin, backend.OpAcos, backend.OpAtan, backend.OpSinh, backend.OpCosh,
		backend.OpAsinh, backend.OpAcosh, backend.OpAtanh, backend.OpLog2, backend.OpLog10, backend.OpExp2,
		backend.OpExpm1, backend.OpAtan2:
		// CUDA's documented maxima for these are 1-3 ULP in double (tan
		// and the inverse functions 2, atanh 2, exp2 and log2 1); Go's
		// math package is within about 1-2 ULP; tan of a large argument
		// is taken like sin and cos.
		switch {
		case f64 && op == backend.OpTan:
			return tol{ulps: 4, absIn: 0x1p-50}
		case f64:
			return tol{ulps: 4}
		}
		return tol{ulps: 1}
	}
	return exact
}

var unaryOps = []backend.Op{
	backend.OpNeg, backend.OpAbs, backend.OpInvert, backend.OpNot, backend.OpRelu, backend.OpExp, backend.OpLog,
	backend.OpLog1p, backend.OpSin, backend.OpCos, backend.OpTanh, backend.OpSqrt, backend.OpRsqrt, backend.OpErf,
	backend.OpSigmoid, backend.OpSilu, backend.OpGelu, backend.OpFloor, backend.OpCeil, backend.OpRound,
	backend.OpRoundEven, backend.OpTrunc, backend.OpIsNaN, backend.OpIsInf,
	backend.OpTan, backend.OpAsin, backend.OpAcos, backend.OpAtan, backend.OpSinh, backend.OpCosh, backend.OpAsinh,
	backend.OpAcosh, backend.OpAtanh, backend.OpLog2, backend.OpLog10, backend.OpExp2, backend.OpExpm1,
	backend.OpSign, backend.OpSquare, backend.OpReciprocal, backend.OpIsFinite,
}

var binaryOps = []backend.Op{
	backend.OpAdd, backend.OpSub, backend.OpMul, backend.OpDiv, backend.OpFloorDiv, backend.OpMod, backend.OpPow,
	backend.OpMax, backend.OpMin, backend.OpEq, backend.OpNe, backend.OpLt, backend.OpLe, backend.OpGt, backend.OpGe,
	backend.OpBitAnd, backend.OpBitOr, backend.OpBitXor, backend.OpShl, backend.OpShr, backend.OpAnd, backend.OpOr,
	backend.OpAtan2, backend.OpHypot,
}

func (c *checker) transfer(t *testing.T) {
	for _, d := range sweptDTypes() {
		for _, x := range []*backend.Tensor{specials(d), reshaped(specials(d), nil, 1), reshaped(specials(d), []int{0, 3}, 0)} {
			u, err := c.b.Upload(x)
			if err != nil {
				t.Fatalf("%v%v: upload: %v", d, x.Shape, err)
			}
			got, err := c.b.Fetch(u)
			if err != nil {
				t.Fatalf("%v%v: fetch: %v", d, x.Shape, err)
			}
			compare(t, fmt.Sprintf("%v%v round trip", d, x.Shape), got, x, exact, input(x))
			if f, ok := c.b.(freer); ok {
				f.Free(u)
				if _, err := c.b.Fetch(u); err == nil && u.Data != x.Data {
					t.Errorf("%v: fetch of a freed tensor succeeds", d)
				}
			}
		}
	}
	if _, err := c.b.Upload(&backend.Tensor{DType: dtypes.F32, Shape: []int{2}, Data: []float64{1, 2}}); err == nil {
		t.Errorf("upload of f32 holding []float64 succeeds")
	}
	if _, err := c.b.Upload(&backend.Tensor{DType: dtypes.I32, Shape: []int{3}, Data: []int32{1, 2}}); err == nil {
		t.Errorf("upload of 3 elements holding 2 succeeds")
	}
	// A result used as the input of another run.
	x := specials(dtypes.F32)
	first := unary(backend.OpNeg, input(x))
	r1, err := c.b.Run(context.Background(), mustOn(c, first))
	if err != nil {
		t.Fatal(err)
	}
	r2, err := c.b.Run(context.Background(), unary(backend.OpAbs, input(r1)))
	if err != nil {
		t.Fatal(err)
	}
	got, err := c.b.Fetch(r2)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := c.ref.Run(context.Background(), unary(backend.OpAbs, first))
	compare(t, "chained runs", got, want, exact, first)
	c.free(r1)
	c.free(r2)
}

// reshaped returns x's first elements with the given shape (n of them).
func reshaped(x *backend.Tensor, shape []int, n int) *backend.Tensor {
	t := tileTo(x, []int{n})
	t.Shape = shape
	if shape == nil {
		t.Shape = []int{}
	}
	return t
}

func mustOn(c *checker, n *backend.Node) *backend.Node {
	m, err := c.onBackend(n, map[*backend.Node]*backend.Node{})
	if err != nil {
		panic(err)
	}
	return m
}

// everydayOps are the operations of issue 16's functions. The short
// tables run them on fewer dtypes (everydayShort), to keep a fresh
// emulated run's kernel compilations down; the full tables run them all.
var everydayOps = map[backend.Op]bool{
	backend.OpTan: true, backend.OpAsin: true, backend.OpAcos: true, backend.OpAtan: true, backend.OpSinh: true,
	backend.OpCosh: true, backend.OpAsinh: true, backend.OpAcosh: true, backend.OpAtanh: true, backend.OpLog2: true,
	backend.OpLog10: true, backend.OpExp2: true, backend.OpExpm1: true, backend.OpSign: true, backend.OpSquare: true,
	backend.OpReciprocal: true, backend.OpIsFinite: true, backend.OpAtan2: true, backend.OpHypot: true,
}

var everydayShort = map[dtypes.DType]bool{dtypes.Bool: true, dtypes.I8: true, dtypes.U16: true, dtypes.F16: true, dtypes.F32: true, dtypes.F64: true}

// skip reports whether the short tables leave op on d out.
func (c *checker) skip(op backend.Op, d dtypes.DType) bool {
	return c.opts.Short && everydayOps[op] && !everydayShort[d]
}

func (c *checker) unary(t *testing.T) {
	for _, d := range c.dtypesFor() {
		x := input(specials(d))
		for _, op := range unaryOps {
			if c.skip(op, d) {
				continue
			}
			c.check(t, fmt.Sprintf("%v %v", op, d), unary(op, x), opTol(op, d))
		}
	}
}

// pairValues returns the operand values of the binary tables as a column
// [k,1] and a row [1,k]: every pair meets once in the broadcast [k,k].
func pairValues(d dtypes.DType) (col, row *backend.Tensor) {
	x := specials(d)
	switch d {
	case dtypes.F16, dtypes.BF16:
		x = floatTensor(d, floatSpecials())
	case dtypes.F8E4M3, dtypes.F8E5M2:
		s := x.Data.([]uint8)
		var sub []uint8
		for i := 0; i < len(s); i += 3 {
			sub = append(sub, s[i])
		}
		x = &backend.Tensor{DType: d, Shape: []int{len(sub)}, Data: sub}
	}
	k := backend.Size(x.Shape)
	col, row = tileTo(x, []int{k}), tileTo(x, []int{k})
	col.Shape, row.Shape = []int{k, 1}, []int{1, k}
	return col, row
}

// without returns the elements of x (a row or a column) for which keep
// holds, in the same orientation.
func without(x *backend.Tensor, keep func(value) bool) *backend.Tensor {
	var idx []int
	for i := range backend.Size(x.Shape) {
		if keep(element(x, i)) {
			idx = append(idx, i)
		}
	}
	out := tileTo(x, []int{backend.Size(x.Shape)})
	switch s := out.Data.(type) {
	case []bool:
		out.Data = pick(s, idx)
	case []int8:
		out.Data = pick(s, idx)
	case []int16:
		out.Data = pick(s, idx)
	case []int32:
		out.Data = pick(s, idx)
	case []int64:
		out.Data = pick(s, idx)
	case []uint8:
		out.Data = pick(s, idx)
	case []uint16:
		out.Data = pick(s, idx)
	case []uint32:
		out.Data = pick(s, idx)
	case []uint64:
		out.Data = pick(s, idx)
	case []float32:
		out.Data = pick(s, idx)
	case []float64:
		out.Data = pick(s, idx)
	case []complex64:
		out.Data = pick(s, idx)
	case []complex128:
		out.Data = pick(s, idx)
	}
	out.Shape = []int{1, len(idx)}
	if len(x.Shape) == 2 && x.Shape[1] == 1 {
		out.Shape = []int{len(idx), 1}
	}
	return out
}

func pick[T any](s []T, idx []int) []T {
	out := make([]T, len(idx))
	for i, j := range idx {
		out[i] = s[j]
	}
	return out
}

func (c *checker) binary(t *testing.T) {
	for _, d := range c.dtypesFor() {
		col, row := pairValues(d)
		a, b := input(col), input(row)
		nonzero := input(without(row, func(v value) bool { return v.parts[0] != 0 || len(v.parts) == 2 && v.parts[1] != 0 }))
		nonneg := input(without(row, func(v value) bool { return v.parts[0] >= 0 && v.parts[0] < 200 }))
		for _, op := range binaryOps {
			if c.skip(op, d) {
				continue
			}
			name := fmt.Sprintf("%v %v", op, d)
			switch {
			case op == backend.OpPow && d == dtypes.F64:
				normal := input(without(col, func(v value) bool { return !(v.parts[0] != 0 && math.Abs(v.parts[0]) < 0x1p-1022) }))
				c.check(t, name, binary(op, normal, b), opTol(op, d))
			case op == backend.OpPow && d.IsInt():
				c.check(t, name, binary(op, a, nonneg), exact)
				c.check(t, name+" negative exponents", binary(op, a, b), exact)
			case op == backend.OpDiv || op == backend.OpFloorDiv || op == backend.OpMod:
				for _, cdiv := range []bool{false, true} {
					for _, zerr := range []bool{false, true} {
						n := binary(op, a, b)
						if zerr {
							n = binary(op, a, nonzero)
						}
						n.CDiv, n.ZeroDivError = cdiv, zerr
						c.check(t, fmt.Sprintf("%s cdiv=%v zerodiverror=%v", name, cdiv, zerr), n, exact)
					}
				}
				if d.IsInt() {
					n := binary(op, a, b)
					n.ZeroDivError = true
					c.check(t, name+" by zero", n, exact)
					// The libraries' own answers at a zero divisor and at
					// MIN / -1 (jax.numpy, XLA, anvil's nv_mod).
					if op != backend.OpDiv {
						// NumPy's divide-by-zero and overflow warnings.
						n := binary(op, a, b)
						n.WarnIntDiv = true
						c.check(t, name+" warns", n, exact)
					}
					for _, rule := range []backend.IntDiv{backend.IntDivJNP, backend.IntDivXLA, backend.IntDivNvMod} {
						for _, cdiv := range []bool{false, true} {
							n := binary(op, a, b)
							n.CDiv, n.IntDiv = cdiv, rule
							c.check(t, fmt.Sprintf("%s cdiv=%v intdiv=%d", name, cdiv, rule), n, exact)
						}
					}
				}
			case (op == backend.OpMax || op == backend.OpMin) && d.IsComplex():
				// NumPy's lexicographic order, and JAX's lowering.
				c.check(t, name, binary(op, a, b), exact)
				n := binary(op, a, b)
				n.XLAMinMax = true
				c.check(t, name+" xla", n, exact)
			default:
				c.check(t, name, binary(op, a, b), opTol(op, d))
			}
		}
	}
}

func (c *checker) cast(t *testing.T) {
	for _, from := range c.dtypesFor() {
		x := input(specials(from))
		for _, to := range c.dtypesFor() {
			c.check(t, fmt.Sprintf("%v to %v", from, to), castNode(x, to), exact)
		}
	}
}

// fma checks the fused multiply-add a·b + c, rounded once, of float32
// and float64: the specials against each other, random operands, a
// scalar c broadcast, and products whose sum lies just beside a halfway
// point of the format, where rounding a·b + c to float64 first (and then
// to float32) would give the other neighbour; float16 is refused.
func (c *checker) fma(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	for _, d := range []dtypes.DType{dtypes.F32, dtypes.F64} {
		a := specials(d)
		k := backend.Size(a.Shape)
		b, cc := randomTensor(rng, d, []int{k}, true), randomTensor(rng, d, []int{k}, true)
		fma := func(x, y, z *backend.Node) *backend.Node {
			return &backend.Node{Op: backend.OpFMA, DType: d, Shape: x.Shape, Args: []*backend.Node{x, y, z}}
		}
		c.check(t, fmt.Sprintf("fma %v specials", d), fma(input(a), input(b), input(cc)), exact)
		c.check(t, fmt.Sprintf("fma %v specials, c", d), fma(input(b), input(cc), input(a)), exact)
		c.check(t, fmt.Sprintf("fma %v, scalar c", d), fma(input(b), input(cc), input(reshaped(a, []int{}, 1))), exact)
		// (1 + 2^-12)² = 1 + 2^-11 + 2^-24 is a float32 halfway point;
		// ±2^-60 beside it vanishes in a float64 sum. Likewise for
		// float64 with (1 + 2^-27)² and ±2^-120.
		e, tiny := -12, -60
		if d == dtypes.F64 {
			e, tiny = -27, -120
		}
		x := 1 + math.Ldexp(1, e)
		var xs, zs []float64
		for _, s := range []float64{1, -1} {
			for _, z := range []float64{math.Ldexp(1, tiny), -math.Ldexp(1, tiny), 0} {
				xs, zs = append(xs, s*x), append(zs, s*z)
			}
		}
		xv := input(floatTensor(d, xs))
		c.check(t, fmt.Sprintf("fma %v beside a halfway point", d), fma(xv, xv, input(floatTensor(d, zs))), exact)
	}
	h := input(floatTensor(dtypes.F16, []float64{1, 2}))
	c.check(t, "fma f16 refused", &backend.Node{Op: backend.OpFMA, DType: dtypes.F16, Shape: h.Shape, Args: []*backend.Node{h, h, h}}, exact)
}

func (c *checker) where(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for _, d := range c.dtypesFor() {
		a := specials(d)
		k := backend.Size(a.Shape)
		b := randomTensor(rng, d, []int{k}, true)
		cond := randomTensor(rng, dtypes.Bool, []int{k}, false)
		n := &backend.Node{Op: backend.OpWhere, DType: d, Shape: []int{k}, Args: []*backend.Node{input(cond), input(a), input(b)}}
		c.check(t, fmt.Sprintf("where %v", d), n, exact)
		// A non-bool condition (nonzero, NaN true) and a broadcast scalar.
		fc := randomTensor(rng, dtypes.F32, []int{k}, true)
		s := reshaped(b, []int{}, 1)
		n = &backend.Node{Op: backend.OpWhere, DType: d, Shape: []int{k}, Args: []*backend.Node{input(fc), input(s), input(a)}}
		c.check(t, fmt.Sprintf("where %v, f32 condition", d), n, exact)
	}
}

// fused checks random trees of exact operations, with broadcasting,
// shared subexpressions, casts and results of another dtype than the
// operation's, and the benchmark expression tanh(a*2+b)*c.
func (c *checker) fused(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	types := []dtypes.DType{dtypes.F32, dtypes.F16, dtypes.BF16, dtypes.F64, dtypes.I32, dtypes.U8, dtypes.I64, dtypes.F8E4M3, dtypes.TF32}
	shapes := [][]int{{4, 5}, {5}, {4, 1}, {1, 5}, {}}
	trees := 60
	if c.opts.Short {
		trees = 25
	}
	for i := range trees {
		d := types[i%len(types)]
		leaves := map[int]*backend.Node{}
		n := randomTree(rng, d, 4, shapes, leaves)
		if rng.Intn(3) == 0 && n.DType != dtypes.Bool {
			// Ask for another result dtype than the operation gives.
			to := types[rng.Intn(len(types))]
			n = &backend.Node{Op: n.Op, DType: to, Shape: n.Shape, Args: n.Args, CDiv: n.CDiv}
		}
		c.check(t, fmt.Sprintf("tree %d (%v)", i, d), n, exact)
	}
	for _, d := range []dtypes.DType{dtypes.F32, dtypes.F16, dtypes.F64} {
		a := input(randomTensor(rng, d, []int{1000}, false))
		b := input(randomTensor(rng, d, []int{1000}, false))
		cc := input(randomTensor(rng, d, []int{1000}, false))
		two := input(floatTensor(d, []float64{2}))
		two.Shape, two.Tensor.Shape = []int{}, []int{}
		n := binary(backend.OpMul, unary(backend.OpTanh, binary(backend.OpAdd, binary(backend.OpMul, a, two), b)), cc)
		tl := tol{ulps: 2}
		if d == dtypes.F64 {
			tl = tol{ulps: 4}
		}
		c.check(t, fmt.Sprintf("tanh(a*2+b)*c %v", d), n, tl)
	}
	// Results of another dtype than the operation gives (rounded once).
	for _, d := range []dtypes.DType{dtypes.F32, dtypes.F64, dtypes.I32} {
		x := input(randomTensor(rng, d, []int{64}, true))
		y := input(randomTensor(rng, d, []int{64}, true))
		for _, to := range []dtypes.DType{dtypes.F16, dtypes.BF16, dtypes.F32, dtypes.I8, dtypes.Bool, dtypes.C64} {
			for _, n := range []*backend.Node{binary(backend.OpAdd, x, y), binary(backend.OpGt, x, y), unary(backend.OpNeg, x)} {
				m := *n
				m.DType = to
				c.check(t, fmt.Sprintf("%v %v into %v", n.Op, d, to), &m, exact)
			}
			if d.IsFloat() {
				m := *unary(backend.OpSqrt, x)
				m.DType = to
				c.check(t, fmt.Sprintf("sqrt %v into %v", d, to), &m, exact)
			}
		}
	}
	// A large expression (many blocks of threads), and a shared node.
	big := []int{300, 1001}
	x := input(randomTensor(rng, dtypes.F32, big, true))
	y := input(randomTensor(rng, dtypes.F32, []int{1001}, true))
	s := binary(backend.OpSub, x, y)
	n := binary(backend.OpMax, binary(backend.OpMul, s, s), castNode(binary(backend.OpGt, x, y), dtypes.F32))
	c.check(t, "large shared", n, exact)
}

// randomTree builds an expression of exact operations on dtype d.
func randomTree(rng *rand.Rand, d dtypes.DType, depth int, shapes [][]int, leaves map[int]*backend.Node) *backend.Node {
	if depth == 0 || rng.Intn(4) == 0 {
		k := rng.Intn(len(shapes))
		if l, ok := leaves[k]; ok && l.DType == d && rng.Intn(2) == 0 {
			return l
		}
		l := input(randomTensor(rng, d, shapes[k], true))
		leaves[k] = l
		return l
	}
	var ops []backend.Op
	switch {
	case d.IsInt():
		ops = []backend.Op{backend.OpAdd, backend.OpSub, backend.OpMul, backend.OpFloorDiv, backend.OpMod, backend.OpMax,
			backend.OpNeg, backend.OpAbs, backend.OpBitXor, backend.OpShr, backend.OpCast, backend.OpWhere}
	default:
		ops = []backend.Op{backend.OpAdd, backend.OpSub, backend.OpMul, backend.OpDiv, backend.OpMax, backend.OpMin,
			backend.OpNeg, backend.OpAbs, backend.OpSqrt, backend.OpFloor, backend.OpRoundEven, backend.OpMod,
			backend.OpCast, backend.OpWhere, backend.OpRelu}
	}
	op := ops[rng.Intn(len(ops))]
	switch op {
	case backend.OpCast:
		from := []dtypes.DType{dtypes.F32, dtypes.I16, dtypes.F64, dtypes.BF16, dtypes.U8, dtypes.F16}[rng.Intn(6)]
		return castNode(randomTree(rng, from, depth-1, shapes, leaves), d)
	case backend.OpWhere:
		cond := binary(backend.OpLt, randomTree(rng, d, depth-1, shapes, leaves), randomTree(rng, d, depth-1, shapes, leaves))
		a, b := randomTree(rng, d, depth-1, shapes, leaves), randomTree(rng, d, depth-1, shapes, leaves)
		shape := broadcastShape(cond.Shape, broadcastShape(a.Shape, b.Shape))
		return &backend.Node{Op: backend.OpWhere, DType: d, Shape: shape, Args: []*backend.Node{cond, a, b}}
	case backend.OpNeg, backend.OpAbs, backend.OpSqrt, backend.OpFloor, backend.OpRoundEven, backend.OpRelu:
		return unary(op, randomTree(rng, d, depth-1, shapes, leaves))
	}
	n := binary(op, randomTree(rng, d, depth-1, shapes, leaves), randomTree(rng, d, depth-1, shapes, leaves))
	n.CDiv = rng.Intn(3) == 0
	return n
}

// views checks strided views (transpose, slices with negative steps and
// dropped axes, broadcast_to), reshape of views, concat, and results that
// are views.
func (c *checker) views(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	for _, d := range c.dtypesFor() {
		x := input(randomTensor(rng, d, []int{3, 4, 5}, true))
		tr := &backend.Node{Op: backend.OpTranspose, DType: d, Shape: []int{5, 3, 4}, Axes: []int{2, 0, 1}, Args: []*backend.Node{x}}
		sl := &backend.Node{Op: backend.OpSlice, DType: d, Shape: []int{3, 2}, Args: []*backend.Node{x},
			Slices: []backend.Slice{{Start: 2, Stop: -1, Step: -1}, {Start: 1, Stop: 2, Step: 1, Drop: true}, {Start: 4, Stop: 0, Step: -3}}}
		c.check(t, fmt.Sprintf("transpose %v", d), tr, exact)
		c.check(t, fmt.Sprintf("slice %v", d), sl, exact)
		rs := &backend.Node{Op: backend.OpReshape, DType: d, Shape: []int{6, 10}, Args: []*backend.Node{tr}}
		c.check(t, fmt.Sprintf("reshape of a transpose %v", d), rs, exact)
		row := input(randomTensor(rng, d, []int{1, 5}, true))
		bc := &backend.Node{Op: backend.OpBroadcastTo, DType: d, Shape: []int{2, 4, 5}, Args: []*backend.Node{row}}
		c.check(t, fmt.Sprintf("broadcast_to %v", d), bc, exact)
		y := input(randomTensor(rng, d, []int{3, 2, 5}, true))
		cat := &backend.Node{Op: backend.OpConcat, DType: d, Shape: []int{3, 8, 5}, Axes: []int{1},
			Args: []*backend.Node{x, y, &backend.Node{Op: backend.OpSlice, DType: d, Shape: []int{3, 2, 5}, Args: []*backend.Node{x},
				Slices: []backend.Slice{{Start: 0, Stop: 3, Step: 1}, {Start: 3, Stop: -1, Step: -2}, {Start: 0, Stop: 5, Step: 1}}}}}
		c.check(t, fmt.Sprintf("concat %v", d), cat, exact)
		if d.IsFloat() || d.IsInt() {
			// A view feeding a fused expression.
			n := binary(backend.OpAdd, tr, &backend.Node{Op: backend.OpBroadcastTo, DType: d, Shape: []int{5, 3, 4},
				Args: []*backend.Node{&backend.Node{Op: backend.OpSlice, DType: d, Shape: []int{4}, Args: []*backend.Node{x},
					Slices: []backend.Slice{{Start: 0, Stop: 1, Step: 1, Drop: true}, {Start: 3, Stop: -1, Step: -1}, {Start: 2, Stop: 3, Step: 1, Drop: true}}}}})
			c.check(t, fmt.Sprintf("views fused %v", d), n, exact)
		}
	}
	// Empty and 0-d.
	e := input(randomTensor(rng, dtypes.F32, []int{0, 3}, false))
	c.check(t, "empty", unary(backend.OpNeg, e), exact)
	c.check(t, "empty transpose", &backend.Node{Op: backend.OpTranspose, DType: dtypes.F32, Shape: []int{3, 0}, Axes: []int{1, 0}, Args: []*backend.Node{e}}, exact)
	s := input(randomTensor(rng, dtypes.I32, []int{}, false))
	c.check(t, "0-d", binary(backend.OpAdd, s, s), exact)
}

// A redCase is one reduction shape.
type redCase struct {
	shape []int
	axes  []int
	keep  bool
}

func reduceNode(op backend.Op, d dtypes.DType, a *backend.Node, rc redCase) *backend.Node {
	isRed := make([]bool, len(a.Shape))
	for _, ax := range rc.axes {
		isRed[ax] = true
	}
	shape := []int{}
	for i, s := range a.Shape {
		switch {
		case len(rc.axes) > 0 && !isRed[i]:
			shape = append(shape, s)
		case rc.keep:
			shape = append(shape, 1)
		}
	}
	return &backend.Node{Op: op, DType: d, Shape: shape, Args: []*backend.Node{a}, Axes: rc.axes, KeepDims: rc.keep}
}

// reduceDType returns the result dtype the tests ask of op on d.
func reduceDType(op backend.Op, d dtypes.DType) dtypes.DType {
	switch op {
	case backend.OpArgMax, backend.OpArgMin:
		return dtypes.I64
	case backend.OpAny, backend.OpAll:
		return dtypes.Bool
	case backend.OpMean:
		if d.IsInt() || d == dtypes.Bool {
			return dtypes.F64
		}
	case backend.OpSum, backend.OpProd:
		if d == dtypes.Bool {
			return dtypes.I64
		}
	}
	return d
}

var reduceOps = []backend.Op{backend.OpSum, backend.OpProd, backend.OpMean, backend.OpReduceMax, backend.OpReduceMin,
	backend.OpArgMax, backend.OpArgMin, backend.OpAny, backend.OpAll}

func (c *checker) reduce(t *testing.T) {
	rng := rand.New(rand.NewSource(4))
	small := []redCase{{[]int{2, 3, 4}, nil, false}, {[]int{2, 3, 4}, []int{1}, true}}
	for _, d := range c.dtypesFor() {
		for _, rc := range small {
			x := input(randomTensor(rng, d, rc.shape, true))
			for _, op := range reduceOps {
				c.check(t, fmt.Sprintf("%v %v %v axes %v", op, d, rc.shape, rc.axes), reduceNode(op, reduceDType(op, d), x, rc), exact)
			}
		}
	}
	// Every walk: last axis reduced or kept, outer axes, several groups,
	// long runs (split pairwise sums and segmented folds), empty ones.
	cases := []redCase{
		{[]int{2, 3, 4}, []int{0}, false}, {[]int{2, 3, 4}, []int{2}, false}, {[]int{2, 3, 4}, []int{0, 2}, false},
		{[]int{5, 2, 3, 7}, []int{1, 3}, true}, {[]int{3, 20000}, []int{1}, false}, {[]int{20000, 3}, []int{0}, false},
		{[]int{1 << 17}, nil, false}, {[]int{2, 9000, 2}, []int{0, 1}, false}, {[]int{0, 3}, []int{0}, false},
		{[]int{3, 0}, []int{0}, false}, {[]int{}, nil, false}, {[]int{4, 1, 3}, []int{1}, false},
	}
	types := []dtypes.DType{dtypes.F32, dtypes.F16, dtypes.I32, dtypes.F64, dtypes.C64, dtypes.Bool, dtypes.U8, dtypes.BF16}
	if c.opts.Short {
		types = []dtypes.DType{dtypes.F32, dtypes.I32, dtypes.C64}
		cases = []redCase{cases[3], cases[4], cases[5], cases[6], cases[8], cases[10]}
	}
	for _, d := range types {
		for _, rc := range cases {
			x := input(randomTensor(rng, d, rc.shape, true))
			for _, op := range reduceOps {
				c.check(t, fmt.Sprintf("%v %v %v axes %v", op, d, rc.shape, rc.axes), reduceNode(op, reduceDType(op, d), x, rc), exact)
			}
		}
	}
	// NaNs placed for argmax/argmin and max/min, in long and short runs.
	for _, size := range []int{10, 50000} {
		v := randomTensor(rng, dtypes.F32, []int{size}, false)
		s := v.Data.([]float32)
		s[size/3] = float32(math.NaN())
		s[size/2] = float32(math.NaN())
		for _, op := range []backend.Op{backend.OpArgMax, backend.OpArgMin, backend.OpReduceMax, backend.OpReduceMin} {
			c.check(t, fmt.Sprintf("%v with NaN, %d", op, size), reduceNode(op, reduceDType(op, dtypes.F32), input(v), redCase{shape: v.Shape}), exact)
		}
	}
	// Complex NaNs (in either part) and ties of the real part, for the
	// lexicographic max, min, argmax and argmin.
	for _, size := range []int{10, 50000} {
		v := randomTensor(rng, dtypes.C128, []int{size}, false)
		s := v.Data.([]complex128)
		s[size/4] = complex(real(s[size/5]), imag(s[size/5])+1)
		s[size/3] = complex(1, math.NaN())
		s[size/2] = complex(math.NaN(), 0)
		for _, op := range []backend.Op{backend.OpArgMax, backend.OpArgMin, backend.OpReduceMax, backend.OpReduceMin} {
			c.check(t, fmt.Sprintf("%v complex with NaN, %d", op, size), reduceNode(op, reduceDType(op, dtypes.C128), input(v), redCase{shape: v.Shape}), exact)
		}
	}
	// Signed zeros: max and min keep the first of equal elements.
	z := floatTensor(dtypes.F64, []float64{0, math.Copysign(0, -1), 0, math.Copysign(0, -1)})
	for _, op := range []backend.Op{backend.OpReduceMax, backend.OpReduceMin, backend.OpSum} {
		c.check(t, fmt.Sprintf("%v of signed zeros", op), reduceNode(op, dtypes.F64, input(z), redCase{shape: z.Shape}), exact)
	}
	// Reductions of fused expressions; integer means into integers; a
	// result dtype other than the input's.
	a := input(randomTensor(rng, dtypes.F32, []int{40, 300}, true))
	b := input(randomTensor(rng, dtypes.F32, []int{300}, true))
	c.check(t, "sum(a*b)", reduceNode(backend.OpSum, dtypes.F32, binary(backend.OpMul, a, b), redCase{shape: []int{40, 300}}), exact)
	c.check(t, "sum(a*b, axis=0)", reduceNode(backend.OpSum, dtypes.F32, binary(backend.OpMul, a, b), redCase{shape: []int{40, 300}, axes: []int{0}}), exact)
	iv := input(randomTensor(rng, dtypes.I16, []int{7, 9}, false))
	c.check(t, "mean i16 to i16", reduceNode(backend.OpMean, dtypes.I16, iv, redCase{shape: []int{7, 9}, axes: []int{1}}), exact)
	c.check(t, "sum i16 to f32", reduceNode(backend.OpSum, dtypes.F32, castNode(iv, dtypes.F32), redCase{shape: []int{7, 9}}), exact)
	c.check(t, "argmax to i32", reduceNode(backend.OpArgMax, dtypes.I32, a, redCase{shape: []int{40, 300}, axes: []int{1}}), exact)
	c.check(t, "sum bool to bool", reduceNode(backend.OpSum, dtypes.Bool, binary(backend.OpGt, a, b), redCase{shape: []int{40, 300}, axes: []int{0}}), exact)
	c.check(t, "prod f32 long", reduceNode(backend.OpProd, dtypes.F32, input(floatTensor(dtypes.F32, repeat(1.0001, 100000))), redCase{shape: []int{100000}}), exact)
	// Sums whose order shows: values that round when added, in runs
	// longer than the pieces of backend.SumPiece NumPy sums them in
	// (a row of 20000 is three pieces, the last short), split among
	// threads or not.
	for _, d := range []dtypes.DType{dtypes.F32, dtypes.F16, dtypes.C64} {
		for _, rc := range []redCase{{[]int{3, 20000}, []int{1}, false}, {[]int{1 << 17}, nil, false}, {[]int{2, 2, 8200}, []int{0, 2}, false}, {[]int{300, 8193}, []int{1}, true}} {
			vs := make([]float64, backend.Size(rc.shape))
			for i := range vs {
				vs[i] = rng.Float64()
			}
			st := dtypes.F32
			if d != dtypes.C64 {
				st = d
			}
			v := floatTensor(st, vs)
			v.Shape = rc.shape
			x := input(v)
			if d == dtypes.C64 {
				x = castNode(x, d)
			}
			for _, op := range []backend.Op{backend.OpSum, backend.OpMean} {
				c.check(t, fmt.Sprintf("%v of inexact %v %v axes %v", op, d, rc.shape, rc.axes), reduceNode(op, d, x, rc), exact)
			}
		}
	}
}

// skipNaN checks the float maxima and minima that skip NaNs (nanmax,
// nanmin) against backend.LowerSkipNaN's plan on the CPU backend: along
// every walk (rows short and long, columns, outer axes, several axes,
// the whole array), on lines that hold NaNs of several payloads and
// signs among numbers, NaNs alone, zeros of both signs as the extreme,
// infinities, and a fused argument.
func (c *checker) skipNaN(t *testing.T) {
	rng := rand.New(rand.NewSource(9))
	types := []dtypes.DType{dtypes.F32, dtypes.F64, dtypes.F16, dtypes.BF16}
	cases := []redCase{
		{[]int{9, 37}, []int{1}, false}, {[]int{9, 37}, []int{0}, false}, {[]int{40, 8}, []int{1}, true},
		{[]int{40, 3}, []int{1}, false}, {[]int{3, 20000}, []int{1}, false}, {[]int{20000, 3}, []int{0}, false},
		{[]int{300, 300}, []int{0}, false}, {[]int{300, 300}, []int{1}, false}, {[]int{2, 3, 4}, nil, false},
		{[]int{5, 2, 3, 7}, []int{1, 3}, true}, {[]int{6, 500, 4}, []int{1}, false}, {[]int{1 << 17}, nil, false},
	}
	if c.opts.Short {
		types = []dtypes.DType{dtypes.F32, dtypes.F64, dtypes.F16}
	}
	check := func(name string, op backend.Op, x *backend.Node, rc redCase) {
		n := reduceNode(op, x.DType, x, rc)
		n.SkipNaN = true
		c.checkRef(t, name, n, backend.LowerSkipNaN(n), exact)
	}
	for _, d := range types {
		for _, rc := range cases {
			x := input(nanTensor(rng, d, rc.shape))
			for _, op := range []backend.Op{backend.OpReduceMax, backend.OpReduceMin} {
				check(fmt.Sprintf("%v skipping NaNs %v %v axes %v", op, d, rc.shape, rc.axes), op, x, rc)
			}
		}
	}
	// Long lines of NaNs alone, of NaNs and one number, of NaNs and
	// zeros, of NaNs and infinities; a fused argument.
	neg0, nan := math.Copysign(0, -1), math.NaN()
	for _, line := range []struct {
		name string
		set  func(i int) float64
	}{
		{"NaNs", func(int) float64 { return nan }},
		{"one number", func(i int) float64 { return map[bool]float64{true: -2.5, false: nan}[i == 7777] }},
		{"zeros", func(i int) float64 { return []float64{nan, neg0, 0, nan, neg0}[i%5] }},
		{"infinities", func(i int) float64 { return []float64{nan, math.Inf(-1), math.Inf(1)}[i%3] }},
		{"-inf", func(i int) float64 { return []float64{nan, math.Inf(-1)}[i%2] }},
	} {
		vs := make([]float64, 10000)
		for i := range vs {
			vs[i] = line.set(i)
		}
		for _, d := range []dtypes.DType{dtypes.F32, dtypes.F64} {
			x := input(floatTensor(d, vs))
			for _, op := range []backend.Op{backend.OpReduceMax, backend.OpReduceMin} {
				check(fmt.Sprintf("%v skipping NaNs, %s, %v", op, line.name, d), op, x, redCase{shape: x.Shape})
			}
		}
	}
	a := input(nanTensor(rng, dtypes.F32, []int{50, 70}))
	fused := binary(backend.OpMul, a, a)
	for _, op := range []backend.Op{backend.OpReduceMax, backend.OpReduceMin} {
		check(fmt.Sprintf("%v skipping NaNs of a*a", op), op, fused, redCase{shape: fused.Shape, axes: []int{1}})
		check(fmt.Sprintf("%v skipping NaNs of a*a, axis 0", op), op, fused, redCase{shape: fused.Shape, axes: []int{0}})
	}
}

// nanTensor returns floats of dtype d for reductions that skip NaNs, laid
// out as rows of the last axes: a third NaNs (of both signs and several
// payloads), zeros of both signs, infinities and numbers; row 0 and
// column 0 NaNs alone; row 1 and column 1 zeros, NaNs and numbers of one
// sign (an extreme that is a zero, for max along rows and min along
// columns).
func nanTensor(rng *rand.Rand, d dtypes.DType, shape []int) *backend.Tensor {
	n := backend.Size(shape)
	cols := n
	if len(shape) > 1 {
		cols = n / shape[0]
	}
	nans := []float64{math.NaN(), -math.NaN(), math.Float64frombits(0x7ff4000000000123), math.Float64frombits(0xfff8000000f00000)}
	neg0 := math.Copysign(0, -1)
	vs := make([]float64, n)
	for i := range vs {
		r, col := i/cols, i%cols
		switch p := rng.Intn(12); {
		case r == 0 && len(shape) > 1 || col == 0 && cols > 1:
			vs[i] = nans[rng.Intn(len(nans))]
		case r == 1 && len(shape) > 1:
			vs[i] = []float64{0, neg0, math.NaN(), -1 - rng.Float64()}[rng.Intn(4)]
		case col == 1:
			vs[i] = []float64{0, neg0, math.NaN(), 1 + rng.Float64()}[rng.Intn(4)]
		case p < 4:
			vs[i] = nans[rng.Intn(len(nans))]
		case p == 4:
			vs[i] = []float64{0, neg0}[rng.Intn(2)]
		case p == 5:
			vs[i] = math.Inf(1 - 2*rng.Intn(2))
		default:
			vs[i] = rng.NormFloat64() * 100
		}
	}
	t := floatTensor(d, vs)
	t.Shape = shape
	return t
}

func repeat(v float64, n int) []float64 {
	s := make([]float64, n)
	for i := range s {
		s[i] = v + float64(i%7)*1e-5
	}
	return s
}

func (c *checker) softmax(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	for _, d := range []dtypes.DType{dtypes.F32, dtypes.F64, dtypes.F16, dtypes.BF16, dtypes.I32} {
		for _, ax := range []int{0, 1, 2} {
			x := randomTensor(rng, d, []int{3, 7, 5}, false)
			if d.IsFloat() {
				// A row with -inf, one with NaN.
				setFloat(x, 0, math.Inf(-1))
				setFloat(x, 40, math.NaN())
			}
			res := d
			if d.IsInt() {
				res = dtypes.F32
			}
			for _, op := range []backend.Op{backend.OpSoftmax, backend.OpLogSoftmax} {
				n := &backend.Node{Op: op, DType: res, Shape: x.Shape, Args: []*backend.Node{input(x)}, Axes: []int{ax}}
				tl := tol{ulps: 1}
				if res == dtypes.F64 {
					tl = tol{ulps: 4, abs: 1e-13}
				}
				c.check(t, fmt.Sprintf("%v %v axis %d", op, d, ax), n, tl)
			}
		}
	}
}

// scan checks cumsum and cumprod along each axis, on every dtype, exactly:
// both backends combine the elements in the same order and round alike.
func (c *checker) scan(t *testing.T) {
	rng := rand.New(rand.NewSource(9))
	for _, d := range c.dtypesFor() {
		for _, shape := range [][]int{{3, 7, 5}, {1000}, {0, 4}} {
			x := randomTensor(rng, d, shape, false)
			for ax := range shape {
				for _, op := range []backend.Op{backend.OpCumSum, backend.OpCumProd} {
					n := &backend.Node{Op: op, DType: d, Shape: shape, Args: []*backend.Node{input(x)}, Axes: []int{ax}}
					c.check(t, fmt.Sprintf("%v %v%v axis %d", op, d, shape, ax), n, exact)
				}
			}
		}
	}
	// The plan eval makes for NumPy's var (numpy/_core/_methods.py _var):
	// a keepdims sum divided by the count, the deviations squared (re² +
	// im² for complex, the imaginary part as Re(dev · -i)), summed and
	// divided by n - ddof. Every step is exact IEEE arithmetic or a sum in
	// the backends' common order, so the results agree bit for bit.
	for _, d := range []dtypes.DType{dtypes.F32, dtypes.F64, dtypes.F16, dtypes.C64} {
		x := input(randomTensor(rng, d, []int{4, 300}, false))
		for _, axes := range [][]int{{1}, {0}, {0, 1}} {
			c.check(t, fmt.Sprintf("var plan %v axes %v", d, axes), varPlan(x, axes, 1), exact)
		}
	}
	// A fused elementwise argument, scanned along a kept middle axis.
	a := input(randomTensor(rng, dtypes.F32, []int{4, 6, 3}, false))
	sq := binary(backend.OpMul, a, a)
	c.check(t, "cumsum of a*a axis 1", &backend.Node{Op: backend.OpCumSum, DType: dtypes.F32, Shape: sq.Shape, Args: []*backend.Node{sq}, Axes: []int{1}}, exact)
}

// sort checks sorts and argsorts along each axis, on every dtype,
// exactly: both backends sort stably in NumPy's order and move elements
// unconverted, so even the order of -0.0 and 0.0 and of NaNs agrees. The values repeat
// (multiples of 1/256) and include the specials.
func (c *checker) sort(t *testing.T) {
	rng := rand.New(rand.NewSource(10))
	for _, d := range c.dtypesFor() {
		for _, shape := range [][]int{{3, 7, 5}, {1000}, {0, 4}, {2, 300}} {
			x := randomTensor(rng, d, shape, true)
			for ax := range shape {
				n := &backend.Node{Op: backend.OpSort, DType: d, Shape: shape, Args: []*backend.Node{input(x)}, Axes: []int{ax}}
				c.check(t, fmt.Sprintf("sort %v%v axis %d", d, shape, ax), n, exact)
				it := []dtypes.DType{dtypes.I64, dtypes.I32}[ax%2]
				a := &backend.Node{Op: backend.OpArgSort, DType: it, Shape: shape, Args: []*backend.Node{input(x)}, Axes: []int{ax}}
				c.check(t, fmt.Sprintf("argsort %v%v axis %d", d, shape, ax), a, exact)
				// A few places of the sort (a median's, its last),
				// which a backend may select rather than sort
				// (backend.Selector).
				if m := shape[ax]; m >= 64 {
					for _, p := range [][2]int{{(m - 1) / 2, m/2 + 1}, {m - 1, m}} {
						sl := make([]backend.Slice, len(shape))
						out := slices.Clone(shape)
						for i, k := range shape {
							sl[i] = backend.Slice{Start: 0, Stop: k, Step: 1}
						}
						sl[ax], out[ax] = backend.Slice{Start: p[0], Stop: p[1], Step: 1}, p[1]-p[0]
						s := &backend.Node{Op: backend.OpSlice, DType: d, Shape: out, Args: []*backend.Node{n}, Slices: sl}
						c.check(t, fmt.Sprintf("sort %v%v axis %d, places %v", d, shape, ax, p), s, exact)
					}
				}
			}
		}
	}
	// A fused elementwise argument, sorted along a kept middle axis.
	a := input(randomTensor(rng, dtypes.F32, []int{4, 6, 3}, true))
	sq := binary(backend.OpSub, a, binary(backend.OpMul, a, a))
	c.check(t, "sort of a-a*a axis 1", &backend.Node{Op: backend.OpSort, DType: dtypes.F32, Shape: sq.Shape, Args: []*backend.Node{sq}, Axes: []int{1}}, exact)
}

func setFloat(x *backend.Tensor, i int, v float64) {
	switch s := x.Data.(type) {
	case []float32:
		s[i] = float32(v)
	case []float64:
		s[i] = v
	case []uint16:
		if x.DType == dtypes.F16 {
			s[i] = dtypes.F16FromFloat64(v)
		} else {
			s[i] = dtypes.BF16FromFloat64(v)
		}
	}
}

func (c *checker) matmul(t *testing.T) {
	rng := rand.New(rand.NewSource(6))
	shapes := [][3][]int{
		{{3, 4}, {4, 5}, {3, 5}}, {{4}, {4, 5}, {5}}, {{3, 4}, {4}, {3}}, {{4}, {4}, {}},
		{{2, 1, 3, 4}, {5, 4, 2}, {2, 5, 3, 2}}, {{1, 6}, {6, 1}, {1, 1}}, {{0, 3}, {3, 2}, {0, 2}},
		// Long dots, which sum in lanes (backend.MatMulPlan.InLanes).
		{{2000}, {2000}, {}}, {{2, 1, 1500}, {2, 1500, 1}, {2, 1, 1}},
	}
	for _, d := range c.dtypesFor() {
		for _, s := range shapes {
			a := input(randomTensor(rng, d, s[0], false))
			b := input(randomTensor(rng, d, s[1], false))
			n := &backend.Node{Op: backend.OpMatMul, DType: d, Shape: s[2], Args: []*backend.Node{a, b}}
			c.check(t, fmt.Sprintf("matmul %v %v@%v", d, s[0], s[1]), n, c.productTol(t, n))
		}
	}
	// Transposed operands, and a result dtype other than the operands'.
	a := input(randomTensor(rng, dtypes.F32, []int{4, 3}, false))
	at := &backend.Node{Op: backend.OpTranspose, DType: dtypes.F32, Shape: []int{3, 4}, Axes: []int{1, 0}, Args: []*backend.Node{a}}
	b := input(randomTensor(rng, dtypes.F32, []int{4, 6}, false))
	n := &backend.Node{Op: backend.OpMatMul, DType: dtypes.F32, Shape: []int{3, 6}, Args: []*backend.Node{at, b}}
	c.check(t, "matmul of a transpose", n, c.productTol(t, n))
	n = &backend.Node{Op: backend.OpMatMul, DType: dtypes.F16, Shape: []int{3, 6}, Args: []*backend.Node{at, b}}
	c.check(t, "matmul into f16", n, c.productTol(t, n))
	// float64 operands of 53 bits, whose products are not exact: each
	// step's one rounding (a fused multiply-add) is pinned.
	full := func(shape []int) *backend.Node {
		vs := make([]float64, backend.Size(shape))
		for i := range vs {
			vs[i] = rng.NormFloat64()
		}
		return input(&backend.Tensor{DType: dtypes.F64, Shape: shape, Data: vs})
	}
	n = &backend.Node{Op: backend.OpMatMul, DType: dtypes.F64, Shape: []int{5, 3}, Args: []*backend.Node{full([]int{5, 40}), full([]int{40, 3})}}
	c.check(t, "matmul of full float64", n, c.productTol(t, n))
}

// productTol is the tolerance of a matrix product n. Products of float32
// operands may accumulate in float32 (the CPU backend does, in order of p,
// as BLAS does) or in float64 (rounding once): each result is then within
// γ_k·S of the exact sum, S = Σ_p |a[i,p]|·|b[p,j]|, γ_k = k·u/(1-k·u),
// u = 2^-24 (Higham, Accuracy and Stability of Numerical Algorithms, 2nd
// ed., §3.1, (3.5)), and the float64 sum within u·S, so two backends
// differ by at most γ_{k+1}·S; a result narrower than float32 adds one ULP
// of its format, as the two sums may round to neighbours. Every other
// product is pinned bit for bit: float64 accumulates in float64 with a
// fused multiply-add a step on every backend, narrower floats in float64
// with exact products, integers wrap.
func (c *checker) productTol(t *testing.T, n *backend.Node) tol {
	t.Helper()
	a, b := n.Args[0], n.Args[1]
	if a.DType != dtypes.F32 {
		return exact
	}
	k := a.Shape[len(a.Shape)-1]
	wide := func(x *backend.Node, abs bool) *backend.Node {
		if abs {
			x = unary(backend.OpAbs, x)
		}
		return castNode(x, dtypes.F64)
	}
	prod := func(abs bool) []float64 {
		m := &backend.Node{Op: backend.OpMatMul, DType: dtypes.F64, Shape: n.Shape, Args: []*backend.Node{wide(a, abs), wide(b, abs)}}
		res, err := c.ref.Run(context.Background(), m)
		if err != nil {
			t.Fatalf("the bound of a product: %v", err)
		}
		return res.Data.([]float64)
	}
	// In float64 the products of float32 values are exact and these short
	// sums within k·2^-53 of S, relatively: the factor 1+2^-30 covers that.
	s, v := prod(true), prod(false)
	const u = 0x1p-24
	gamma := float64(k+1) * u / (1 - float64(k+1)*u)
	bound := make([]float64, len(s))
	for i := range s {
		bound[i] = gamma * s[i] * (1 + 0x1p-30)
		if n.DType != dtypes.F32 {
			_, e := math.Frexp(math.Abs(v[i]) + bound[i])
			bound[i] += math.Ldexp(1, e-1-n.DType.MantissaBits())
		}
		if bound[i] == 0 {
			bound[i] = math.SmallestNonzeroFloat64 // abs 0 means bit for bit
		}
	}
	return tol{absAt: bound}
}

func (c *checker) errors(t *testing.T) {
	i := input(intTensor(dtypes.I32, []int64{5, 6}))
	z := input(intTensor(dtypes.I32, []int64{1, 0}))
	for _, op := range []backend.Op{backend.OpDiv, backend.OpFloorDiv, backend.OpMod} {
		n := binary(op, i, z)
		n.ZeroDivError = true
		c.check(t, fmt.Sprintf("%v by zero", op), n, exact)
	}
	neg := input(intTensor(dtypes.I64, []int64{2, -1}))
	c.check(t, "negative power", binary(backend.OpPow, input(intTensor(dtypes.I64, []int64{2, 2})), neg), exact)
	bl := input(&backend.Tensor{DType: dtypes.Bool, Shape: []int{2}, Data: []bool{true, false}})
	c.check(t, "bool neg", unary(backend.OpNeg, bl), exact)
	c.check(t, "bool sub", binary(backend.OpSub, bl, bl), exact)
	c.check(t, "exp of i32", unary(backend.OpExp, i), exact)
	c.check(t, "mixed dtypes", &backend.Node{Op: backend.OpAdd, DType: dtypes.I32, Shape: []int{2}, Args: []*backend.Node{i, neg}}, exact)
	empty := input(floatTensor(dtypes.F32, nil))
	empty.Shape, empty.Tensor.Shape = []int{0}, []int{0}
	c.check(t, "max of empty", reduceNode(backend.OpReduceMax, dtypes.F32, empty, redCase{shape: []int{0}}), exact)
	c.check(t, "argmin of empty", reduceNode(backend.OpArgMin, dtypes.I64, empty, redCase{shape: []int{0}}), exact)
	c.check(t, "bad slice", &backend.Node{Op: backend.OpSlice, DType: dtypes.I32, Shape: []int{1}, Args: []*backend.Node{i},
		Slices: []backend.Slice{{Start: 5, Stop: 6, Step: 1}}}, exact)
	c.check(t, "wrong shape", &backend.Node{Op: backend.OpAdd, DType: dtypes.I32, Shape: []int{3}, Args: []*backend.Node{i, i}}, exact)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := c.b.Run(ctx, mustOn(c, binary(backend.OpAdd, i, i))); err == nil {
		t.Errorf("a cancelled run succeeds")
	}
	if _, err := c.b.Run(context.Background(), nil); err == nil {
		t.Errorf("an empty plan succeeds")
	}
}

// complex32 checks PyTorch's ComplexHalf operations on complex32 specials:
// a backend computes them as the CPU does, or refuses complex32 as a whole
// with an error that names it (the CUDA backend: PyTorch's CUDA ComplexHalf
// kernels differ from its CPU ones).
func (c *checker) complex32(t *testing.T) {
	x := input(specials(dtypes.C32))
	k := backend.Size(x.Shape)
	y := input(reshaped(specials(dtypes.C32), []int{k, 1}, k))
	plans := map[string]*backend.Node{
		"neg": unary(backend.OpNeg, x), "abs": unary(backend.OpAbs, x), "is_nan": unary(backend.OpIsNaN, x),
		"is_inf": unary(backend.OpIsInf, x), "add": binary(backend.OpAdd, x, y), "sub": binary(backend.OpSub, x, y),
		"mul": binary(backend.OpMul, x, y), "eq": binary(backend.OpEq, x, y), "ne": binary(backend.OpNe, x, y),
		"to c64": castTo(x, dtypes.C64), "to f16": castTo(x, dtypes.F16),
		"from c128": castTo(input(specials(dtypes.C128)), dtypes.C32), "from f64": castTo(input(specials(dtypes.F64)), dtypes.C32),
	}
	for name, n := range plans {
		dn, err := c.onBackend(n, map[*backend.Node]*backend.Node{})
		if err == nil {
			var got *backend.Tensor
			if got, err = c.b.Run(context.Background(), dn); err == nil {
				c.free(got)
			}
		}
		if err != nil {
			if !strings.Contains(err.Error(), "complex32") {
				t.Errorf("complex32 %s: refused without naming complex32: %v", name, err)
			}
			continue
		}
		c.check(t, "complex32 "+name, n, exact)
	}
}

func castTo(a *backend.Node, d dtypes.DType) *backend.Node {
	return &backend.Node{Op: backend.OpCast, DType: d, Shape: a.Shape, Args: []*backend.Node{a}}
}

// varPlan is eval's plan for var(x, axis=axes, ddof=ddof) computed in x's
// dtype (everyday.go moment).
func varPlan(x *backend.Node, axes []int, ddof int) *backend.Node {
	d := x.DType
	rd := d.Real()
	red := map[int]bool{}
	count := 1
	for _, a := range axes {
		red[a] = true
		count *= x.Shape[a]
	}
	var kept, shape []int
	for i, n := range x.Shape {
		if red[i] {
			kept = append(kept, 1)
		} else {
			kept = append(kept, n)
			shape = append(shape, n)
		}
	}
	constant := func(v complex128, d dtypes.DType) *backend.Node {
		t := &backend.Tensor{DType: d, Shape: []int{}, Data: nil}
		switch d {
		case dtypes.F16:
			t.Data = []uint16{dtypes.F16FromFloat64(real(v))}
		case dtypes.F32:
			t.Data = []float32{float32(real(v))}
		case dtypes.F64:
			t.Data = []float64{real(v)}
		case dtypes.C64:
			t.Data = []complex64{complex64(v)}
		}
		return input(t)
	}
	sum := &backend.Node{Op: backend.OpSum, DType: d, Shape: kept, Args: []*backend.Node{x}, Axes: axes, KeepDims: true}
	mean := &backend.Node{Op: backend.OpDiv, DType: d, Shape: kept, Args: []*backend.Node{sum, constant(complex(float64(count), 0), d)}}
	dev := &backend.Node{Op: backend.OpSub, DType: d, Shape: x.Shape, Args: []*backend.Node{x, mean}}
	sq := binary(backend.OpMul, dev, dev)
	if d.IsComplex() {
		re := castNode(dev, rd)
		im := castNode(&backend.Node{Op: backend.OpMul, DType: d, Shape: x.Shape, Args: []*backend.Node{dev, constant(-1i, d)}}, rd)
		sq = binary(backend.OpAdd, binary(backend.OpMul, re, re), binary(backend.OpMul, im, im))
	}
	total := &backend.Node{Op: backend.OpSum, DType: rd, Shape: shape, Args: []*backend.Node{sq}, Axes: axes}
	return &backend.Node{Op: backend.OpDiv, DType: rd, Shape: shape, Args: []*backend.Node{total, constant(complex(float64(count-ddof), 0), rd)}}
}
