package cpu

import (
	"errors"
	"math"
	"math/rand"
	"testing"

	"github.com/tensorsh/tensorsh/backend"
	"github.com/tensorsh/tensorsh/dtypes"
)

// The rows kernels (reductions along a short last axis, many rows a
// call) against rowsGo, the loop of runReduce they replace, bit for bit:
// every row length up to 70 and longer ones, 0 to 9 rows and more, at
// unaligned starts, on random values mixed with edge values (float rows
// with NaNs, only zeros of both signs, one non-zero extreme).

// rowLengths are the row lengths the rows tests try.
var rowLengths = func() []int {
	var ns []int
	for n := 1; n <= 70; n++ {
		ns = append(ns, n)
	}
	return append(ns, 100, 127, 128, 129, 255, 256, 1000)
}()

func checkRows[T number | bool](t *testing.T, name string, ops redOps[T], kernel func(out, x []T, l int), gen func(*rand.Rand) T, edges []T) {
	t.Helper()
	if kernel == nil {
		if haveAVX2 {
			t.Errorf("%s: no rows kernel", name)
		}
		return
	}
	rng := rand.New(rand.NewSource(int64(len(name)) * 104729))
	for _, l := range rowLengths {
		for _, m := range []int{0, 1, 2, 3, 5, 9, 37} {
			for off := range 3 {
				x := randomSlice(rng, m*l+off, gen, edges)[off:]
				want := make([]T, m)
				ops.rowsGo(want, x, l)
				got := append(make([]T, off+1), want...)[off+1:]
				for i := range got {
					got[i] = gen(rng)
				}
				kernel(got, x, l)
				for i := range want {
					if !sameBitsT(got[i], want[i]) {
						t.Fatalf("%s: l=%d, %d rows, off %d: row %d is %v, want %v (row %v)", name, l, m, off, i, got[i], want[i], x[i*l:i*l+l])
					}
				}
			}
		}
	}
}

func intRowsOps[T integer](k redKind) redOps[T] {
	ops := redOps[T]{}
	switch k {
	case kAdd:
		ops.fold = func(acc T, x []T) T { return foldWith(acc, x, add[T]) }
	case kMul:
		ops.init = 1
		ops.fold = func(acc T, x []T) T { return foldWith(acc, x, mul[T]) }
	case kMax:
		ops.first = true
		ops.fold = func(acc T, x []T) T { return foldWith(acc, x, maxInt[T]) }
	case kMin:
		ops.first = true
		ops.fold = func(acc T, x []T) T { return foldWith(acc, x, minInt[T]) }
	}
	return ops
}

func checkIntRows[T integer](t *testing.T, name string, gen func(*rand.Rand) T, edges []T) {
	for _, k := range []redKind{kAdd, kMul, kMax, kMin} {
		if asmName[T](k) == "" {
			continue
		}
		ops := intRowsOps[T](k)
		checkRows(t, name+"/"+[...]string{"sum", "prod", "max", "min"}[k], ops, intRowsKernel(k, ops.rowsGo), gen, edges)
	}
}

func TestRowsKernelsInt(t *testing.T) {
	checkIntRows(t, "int8", func(r *rand.Rand) int8 { return int8(r.Uint32()) },
		[]int8{math.MinInt8, math.MaxInt8, -1, 0, 1, math.MinInt8 + 1})
	checkIntRows(t, "uint8", func(r *rand.Rand) uint8 { return uint8(r.Uint32()) },
		[]uint8{0, 1, math.MaxUint8, 0x80, 0x7F})
	checkIntRows(t, "int16", func(r *rand.Rand) int16 { return int16(r.Uint32()) },
		[]int16{math.MinInt16, math.MaxInt16, -1, 0, 1})
	checkIntRows(t, "uint16", func(r *rand.Rand) uint16 { return uint16(r.Uint32()) },
		[]uint16{0, 1, math.MaxUint16, 0x8000, 0x7FFF})
	checkIntRows(t, "int32", func(r *rand.Rand) int32 { return int32(r.Uint32()) },
		[]int32{math.MinInt32, math.MaxInt32, -1, 0, 1})
	checkIntRows(t, "uint32", func(r *rand.Rand) uint32 { return r.Uint32() },
		[]uint32{0, 1, math.MaxUint32, 1 << 31, 1<<31 - 1})
	checkIntRows(t, "int64", func(r *rand.Rand) int64 { return int64(r.Uint64()) },
		[]int64{math.MinInt64, math.MaxInt64, -1, 0, 1, math.MinInt64 + 1, 1 << 32, -1 << 32})
	checkIntRows(t, "uint64", func(r *rand.Rand) uint64 { return r.Uint64() },
		[]uint64{0, 1, math.MaxUint64, 1 << 63, 1<<63 - 1})
	// Small values, so that products do not all wrap to 0.
	small := func(r *rand.Rand) int64 { return int64(r.Intn(5) - 2) }
	ops := intRowsOps[int64](kMul)
	checkRows(t, "int64/prod-small", ops, intRowsKernel(kMul, ops.rowsGo), small, []int64{-1, 1, 3})
	ops32 := intRowsOps[int32](kMul)
	checkRows(t, "int32/prod-small", ops32, intRowsKernel(kMul, ops32.rowsGo),
		func(r *rand.Rand) int32 { return int32(r.Intn(5) - 2) }, []int32{-1, 1, 3})
}

func TestRowsKernelsBool(t *testing.T) {
	gen := func(r *rand.Rand) bool { return r.Intn(2) == 0 }
	or := redOps[bool]{fold: func(acc bool, x []bool) bool { return foldWith(acc, x, or) }}
	and := redOps[bool]{init: true, fold: func(acc bool, x []bool) bool { return foldWith(acc, x, and) }}
	checkRows(t, "bool/or", or, intRowsKernel(kOr, or.rowsGo), gen, []bool{false, false, false})
	checkRows(t, "bool/and", and, intRowsKernel(kAnd, and.rowsGo), gen, []bool{true, true, true})
	// Rows their first bytes do not decide (decideBool): one value but
	// for a rare other one, anywhere or nowhere in the row.
	rare := func(v bool) func(*rand.Rand) bool {
		return func(r *rand.Rand) bool { return (r.Intn(300) == 0) != v }
	}
	checkRows(t, "bool/or-rare", or, intRowsKernel(kOr, or.rowsGo), rare(false), []bool{true})
	checkRows(t, "bool/and-rare", and, intRowsKernel(kAnd, and.rowsGo), rare(true), []bool{false})
}

func floatRowsOps[T float](k redKind) redOps[T] {
	switch k {
	case kAdd:
		return redOps[T]{pairwise: pairwise[T], leafMax: 128, split: splitReal}
	case kMax:
		return redOps[T]{first: true, fold: func(acc T, x []T) T { return foldWith(acc, x, maxFloat[T]) }}
	}
	return redOps[T]{first: true, fold: func(acc T, x []T) T { return foldWith(acc, x, minFloat[T]) }}
}

func checkFloatRows[T float](t *testing.T, name string, gen func(*rand.Rand) T, edges []T) {
	for _, k := range []redKind{kAdd, kMax, kMin} {
		ops := floatRowsOps[T](k)
		kname := name + "/" + [...]string{"sum", "", "max", "min"}[k]
		kernel := floatRowsKernel(k, ops.rowsGo)
		checkRows(t, kname, ops, kernel, gen, edges)
		// Zeros of both signs only, and with one non-zero extreme.
		zeros := []T{0, T(math.Copysign(0, -1))}
		checkRows(t, kname+"/zeros", ops, kernel, func(r *rand.Rand) T { return zeros[r.Intn(2)] }, []T{1, -1})
	}
}

func TestRowsKernelsFloat(t *testing.T) {
	checkFloatRows(t, "float32", func(r *rand.Rand) float32 { return float32(r.NormFloat64()) }, floatEdges32)
	checkFloatRows(t, "float64", func(r *rand.Rand) float64 { return r.NormFloat64() }, floatEdges64)
}

// TestReduceWorkers runs reductions of inputs large enough for several
// ranges of work on one worker (reduceSerialMax) and spread over four, from
// materialised and fused sources, and wants the same bits: the parallel
// pairwise sum joins its subtrees in the recursion's order.
func TestReduceWorkers(t *testing.T) {
	defer func(b int) { reduceSerialMax = b }(reduceSerialMax)
	rng := rand.New(rand.NewSource(17))
	shapes := [][]int{{300001}, {3, 70001}, {70001, 3}, {1000, 300}, {40, 50, 60}}
	for _, d := range []dtypes.DType{dtypes.F32, dtypes.F64, dtypes.I32, dtypes.I64} {
		for _, shape := range shapes {
			n := backend.Size(shape)
			v := make([]float64, n)
			for i := range v {
				v[i] = rng.NormFloat64() * math.Exp(rng.Float64()*20)
				if !d.IsFloat() {
					v[i] = float64(rng.Intn(1 << 20))
				}
				if d.IsFloat() && rng.Intn(100000) == 0 {
					v[i] = math.Inf(1 - 2*rng.Intn(2))
				}
			}
			x := in(mk(d, shape, v...))
			var nodes []*backend.Node
			for a := -1; a < len(shape); a++ {
				var axes []int
				if a >= 0 {
					axes = []int{a}
				}
				for _, o := range []backend.Op{backend.OpSum, backend.OpReduceMax, backend.OpArgMax, backend.OpAny} {
					rd := d
					switch o {
					case backend.OpArgMax:
						rd = dtypes.I64
					case backend.OpAny:
						rd = dtypes.Bool
					}
					nodes = append(nodes, red(o, rd, x, false, axes...))
				}
				// Fused sources: a product, a cast.
				nodes = append(nodes, red(backend.OpSum, d, nb(backend.OpMul, x, x), false, axes...),
					red(backend.OpMean, dtypes.F64, cast(x, dtypes.F64), false, axes...))
			}
			for _, node := range nodes {
				reduceSerialMax = 16 << 20
				one := run(t, node, Workers(4))
				reduceSerialMax = 0
				four := run(t, node, Workers(4))
				if !sameBits(one, four) {
					t.Fatalf("%v of %v%v along %v: one worker %v, four %v", node.Op, d, shape, node.Axes, head(one), head(four))
				}
			}
		}
	}
}

// TestReduceWorkersError divides by zero in a fused source that workers
// fold in parts (the int64 sum of a quotient of int32 elements, whole or
// along axis 0, where each worker folds a range of rows): the error must
// come back, whichever part meets the zero.
func TestReduceWorkersError(t *testing.T) {
	defer func(b int) { reduceSerialMax = b }(reduceSerialMax)
	reduceSerialMax = 0
	const n = 1 << 18
	for _, tc := range []struct {
		shape []int
		axes  []int
	}{{[]int{n}, nil}, {[]int{512, 512}, []int{0}}} {
		for _, at := range []int{0, n / 3, n - 1} {
			v, z := make([]float64, n), make([]float64, n)
			for i := range v {
				v[i], z[i] = float64(i), 1
			}
			z[at] = 0
			q := nb(backend.OpFloorDiv, in(mk(dtypes.I32, tc.shape, v...)), in(mk(dtypes.I32, tc.shape, z...)))
			q.ZeroDivError = true
			sum := red(backend.OpSum, dtypes.I64, cast(q, dtypes.I64), false, tc.axes...)
			if err := runErr(sum, Workers(4)); !errors.Is(err, backend.ErrDivideByZero) {
				t.Errorf("sum of %v along %v with a zero divisor at %d: %v", tc.shape, tc.axes, at, err)
			}
		}
	}
}

// checkVecs compares vecsKernel (many rows a call) with vecWith row by
// row, bit for bit, on rows of every length up to 70 and longer ones
// (fewer rows than the four a pass of the loop takes, and more),
// spaced exactly or further apart, at unaligned starts.
func checkVecs[T number | bool](t *testing.T, name string, k redKind, c func(acc, x T) T, gen func(*rand.Rand) T, edges []T) {
	t.Helper()
	vecs := vecsKernel(k, func(acc, x []T) { vecWith(acc, x, c) })
	if vecs == nil {
		if haveAVX2 && asmName[T](k) != "" {
			t.Errorf("%s: no vecs kernel", name)
		}
		return
	}
	rng := rand.New(rand.NewSource(int64(len(name)) * 7))
	for _, l := range rowLengths {
		for _, rows := range []int{0, 1, 2, 3, 4, 5, 8, 17, 18} {
			for _, gap := range []int{0, 3} {
				stride := l + gap
				off := rng.Intn(3)
				x := randomSlice(rng, rows*stride+off, gen, edges)[off:]
				acc := randomSlice(rng, l+off, gen, edges)[off:]
				want := append([]T(nil), acc...)
				for j := range rows {
					vecWith(want, x[j*stride:j*stride+l], c)
				}
				vecs(acc, x, rows, stride)
				for i := range want {
					if !sameBitsT(acc[i], want[i]) {
						t.Fatalf("%s: l=%d, %d rows %d apart: element %d is %v, want %v", name, l, rows, stride, i, acc[i], want[i])
					}
				}
			}
		}
	}
}

func TestVecsKernels(t *testing.T) {
	i8 := func(r *rand.Rand) int8 { return int8(r.Uint32()) }
	e8 := []int8{math.MinInt8, math.MaxInt8, -1, 0, 1}
	checkVecs(t, "int8/sum", kAdd, add[int8], i8, e8)
	checkVecs(t, "int8/max", kMax, maxInt[int8], i8, e8)
	checkVecs(t, "int8/min", kMin, minInt[int8], i8, e8)
	i32 := func(r *rand.Rand) int32 { return int32(r.Uint32()) }
	e32 := []int32{math.MinInt32, math.MaxInt32, -1, 0, 1}
	checkVecs(t, "int32/sum", kAdd, add[int32], i32, e32)
	checkVecs(t, "int32/prod", kMul, mul[int32], i32, e32)
	checkVecs(t, "int32/max", kMax, maxInt[int32], i32, e32)
	checkVecs(t, "int32/min", kMin, minInt[int32], i32, e32)
	i64 := func(r *rand.Rand) int64 { return int64(r.Uint64()) }
	e64 := []int64{math.MinInt64, math.MaxInt64, -1, 0, 1, 1 << 32}
	checkVecs(t, "int64/sum", kAdd, add[int64], i64, e64)
	checkVecs(t, "int64/prod", kMul, mul[int64], i64, e64)
	checkVecs(t, "int64/max", kMax, maxInt[int64], i64, e64)
	checkVecs(t, "int64/min", kMin, minInt[int64], i64, e64)
	b := func(r *rand.Rand) bool { return r.Intn(2) == 0 }
	checkVecs(t, "bool/or", kOr, or, b, []bool{false})
	checkVecs(t, "bool/and", kAnd, and, b, []bool{true})
	f32 := func(r *rand.Rand) float32 { return float32(r.NormFloat64()) }
	checkVecs(t, "float32/sum", kAdd, add[float32], f32, floatEdges32)
	checkVecs(t, "float32/prod", kMul, mul[float32], f32, floatEdges32)
	checkVecs(t, "float32/max", kMax, maxFloat[float32], f32, floatEdges32)
	checkVecs(t, "float32/min", kMin, minFloat[float32], f32, floatEdges32)
	f64 := func(r *rand.Rand) float64 { return r.NormFloat64() }
	checkVecs(t, "float64/sum", kAdd, add[float64], f64, floatEdges64)
	checkVecs(t, "float64/prod", kMul, mul[float64], f64, floatEdges64)
	checkVecs(t, "float64/max", kMax, maxFloat[float64], f64, floatEdges64)
	checkVecs(t, "float64/min", kMin, minFloat[float64], f64, floatEdges64)
}

// checkArg compares argKernel with the first extreme by a scalar walk
// (v > best, or v < best; a NaN reported), on runs of random values with
// ties, ±0, infinities and NaNs, of every length from one block to 70
// and longer ones, at unaligned starts.
func checkArg[T float](t *testing.T, name string, gen func(*rand.Rand) T, edges []T) {
	t.Helper()
	rng := rand.New(rand.NewSource(int64(len(name)) * 31))
	for _, isMax := range []bool{true, false} {
		argk := argKernel[T](isMax)
		if argk == nil {
			if haveAVX2 {
				t.Errorf("%s: no arg kernel", name)
			}
			return
		}
		for _, n := range append(rowLengths[7:], 200, 1059, 1075, 4099, 70001) {
			for off := range 3 {
				for range 4 {
					x := randomSlice(rng, n+off, gen, edges)[off:]
					if rng.Intn(2) == 0 { // few distinct values: ties
						for i := range x {
							if x[i] == x[i] {
								x[i] = T(math.Round(float64(x[i])))
							}
						}
					}
					want, wantNaN := 0, false
					for i, v := range x {
						if v != v {
							wantNaN = true
							break
						}
						if isMax && v > x[want] || !isMax && v < x[want] {
							want = i
						}
					}
					got, nan := argk(x)
					if nan != wantNaN || !nan && got != want {
						t.Fatalf("%s max=%v: n=%d off %d: %d (NaN %v), want %d (NaN %v)", name, isMax, n, off, got, nan, want, wantNaN)
					}
				}
				// One NaN, at places across the run (in every kind of
				// group and in the tail).
				x := make([]T, n+off)[off:] // at an unaligned start
				for i := range x {
					x[i] = gen(rng)
				}
				for p := 0; p < n; p += max(1, n/61) {
					v := x[p]
					x[p] = T(math.NaN())
					if _, nan := argk(x); !nan {
						t.Fatalf("%s max=%v: n=%d off %d: NaN at %d not reported", name, isMax, n, off, p)
					}
					x[p] = v
				}
			}
		}
	}
}

func TestArgKernels(t *testing.T) {
	noNaN32 := []float32{0, float32(math.Copysign(0, -1)), float32(math.Inf(1)), float32(math.Inf(-1)), 1, -1, 2.5, math.MaxFloat32}
	noNaN64 := []float64{0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), 1, -1, 2.5, math.MaxFloat64}
	g32 := func(r *rand.Rand) float32 { return float32(r.NormFloat64()) }
	g64 := func(r *rand.Rand) float64 { return r.NormFloat64() }
	checkArg(t, "float32", g32, floatEdges32)
	checkArg(t, "float32/no-NaN", g32, noNaN32)
	checkArg(t, "float64", g64, floatEdges64)
	checkArg(t, "float64/no-NaN", g64, noNaN64)
}

// checkArgInt compares argIntKernel with the first extreme by a scalar
// walk on runs of few distinct values (ties) and edge values.
func checkArgInt[T int32 | int64](t *testing.T, name string, edges []T) {
	t.Helper()
	rng := rand.New(rand.NewSource(int64(len(name)) * 37))
	for _, isMax := range []bool{true, false} {
		argk := argIntKernel[T](isMax)
		if argk == nil {
			if haveAVX2 {
				t.Errorf("%s: no arg kernel", name)
			}
			return
		}
		for _, n := range append(rowLengths[31:], 4099, 70001) {
			for off := range 3 {
				for spread := range []int{0, 1} {
					gen := func(r *rand.Rand) T { return T(r.Intn(5 + 1000*spread)) }
					x := randomSlice(rng, n+off, gen, edges)[off:]
					want := 0
					for i, v := range x {
						if isMax && v > x[want] || !isMax && v < x[want] {
							want = i
						}
					}
					if got := argk(x); got != want {
						t.Fatalf("%s max=%v: n=%d off %d: %d, want %d", name, isMax, n, off, got, want)
					}
				}
			}
		}
	}
}

func TestArgIntKernels(t *testing.T) {
	checkArgInt(t, "int32", []int32{math.MinInt32, math.MaxInt32, -1, 0})
	checkArgInt(t, "int64", []int64{math.MinInt64, math.MaxInt64, -1, 0, 1 << 40})
}

// TestReduceRowParts runs folds that runRowParts splits by rows (maxima,
// minima, integer sums and products along a non-last axis with few
// outputs) and runFoldParts and argParts by ranges (the same, argmax and
// argmin over all axes) on one worker and on four, and wants the same
// bits: NaNs with
// payloads (the first wins), zeros of both signs (the first of equal
// extremes wins), wrapping 8-bit sums and products.
func TestReduceRowParts(t *testing.T) {
	defer func(b int) { reduceSerialMax = b }(reduceSerialMax)
	rng := rand.New(rand.NewSource(23))
	pool := []float64{0, math.Copysign(0, -1), 1, -1, 3, -3, math.Inf(1), math.Inf(-1),
		math.Float64frombits(0x7ff8000000000001), math.Float64frombits(0xfff8000000000003)}
	for _, d := range []dtypes.DType{dtypes.F32, dtypes.F64, dtypes.I8, dtypes.U8, dtypes.I32, dtypes.I64} {
		for _, shape := range [][]int{{1000, 40}, {257, 3, 24}, {64, 100}} {
			n := backend.Size(shape)
			v := make([]float64, n)
			for i := range v {
				if d.IsFloat() {
					v[i] = pool[rng.Intn(len(pool)-rng.Intn(3)*2)]
					if rng.Intn(4) == 0 {
						v[i] = rng.NormFloat64()
					}
				} else {
					v[i] = float64(rng.Intn(256) - 128)
					if d == dtypes.U8 {
						v[i] += 128
					}
				}
			}
			x := in(mk(d, shape, v...))
			ops := []backend.Op{backend.OpReduceMax, backend.OpReduceMin, backend.OpArgMax, backend.OpArgMin}
			if !d.IsFloat() {
				ops = append(ops, backend.OpSum, backend.OpProd)
			}
			for _, o := range ops {
				for _, axes := range [][]int{{0}, {0, 1}, nil} {
					if len(axes) == 2 && len(shape) < 3 {
						continue
					}
					rd := d
					if o == backend.OpArgMax || o == backend.OpArgMin {
						if len(axes) != 0 {
							continue
						}
						rd = dtypes.I64
					}
					node := red(o, rd, x, false, axes...)
					reduceSerialMax = 1 << 40
					one := run(t, node, Workers(1))
					reduceSerialMax = 0
					four := run(t, node, Workers(4))
					if !sameBits(one, four) {
						t.Fatalf("%v of %v%v along %v: one worker %v, four %v", o, d, shape, axes, head(one), head(four))
					}
				}
			}
		}
	}
}

// TestArgParts places the answers of argmax and argmin of a whole array
// in later parts of argParts's cut: an extreme repeated in two parts (the
// first wins), a NaN after a larger number (the NaN wins), and a NaN in
// the first part before a larger number in a later one.
func TestArgParts(t *testing.T) {
	defer func(b int) { reduceSerialMax = b }(reduceSerialMax)
	reduceSerialMax = 0
	const n = 4096
	nan := math.NaN()
	for _, c := range []struct {
		set  map[int]float64
		op   backend.Op
		want int64
	}{
		{map[int]float64{3000: 5, 3500: 5}, backend.OpArgMax, 3000},
		{map[int]float64{1700: -5, 3500: -5}, backend.OpArgMin, 1700},
		{map[int]float64{1000: 7, 2500: nan, 3900: nan}, backend.OpArgMax, 2500},
		{map[int]float64{100: nan, 3000: 9}, backend.OpArgMax, 100},
		{map[int]float64{4095: 9}, backend.OpArgMax, 4095},
	} {
		for _, d := range []dtypes.DType{dtypes.F32, dtypes.F64, dtypes.I32, dtypes.I64} {
			v := make([]float64, n)
			for i := range v {
				v[i] = float64(i%3) / 4
				if !d.IsFloat() {
					v[i] = float64(i % 3)
				}
			}
			skip := false
			for i, x := range c.set {
				if x != x && !d.IsFloat() {
					skip = true
				}
				v[i] = x
			}
			if skip {
				continue
			}
			node := red(c.op, dtypes.I64, in(mk(d, []int{n}, v...)), false)
			for _, w := range []int{1, 4} {
				got := run(t, node, Workers(w)).Data.([]int64)[0]
				if got != c.want {
					t.Errorf("%v of %v with %v, %d workers: %d, want %d", c.op, d, c.set, w, got, c.want)
				}
			}
		}
	}
}
