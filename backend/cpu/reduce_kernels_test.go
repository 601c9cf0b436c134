package cpu

import (
	"fmt"
	"math"
	"math/rand"
	"slices"
	"testing"
	"unsafe"

	"github.com/tensorsh/tensorsh/backend"
	"github.com/tensorsh/tensorsh/dtypes"
)

// The vector steps of reductions against the scalar loops they replace
// (foldWith and vecWith with the same combine step), bit for bit, on
// random values mixed with each type's edge values, on every length up to
// 70 and some longer ones (the 128-byte blocks of the folds and their
// tails), at unaligned starts.

// kernelLengths are the lengths the kernel tests try.
var kernelLengths = func() []int {
	var ns []int
	for n := range 71 {
		ns = append(ns, n)
	}
	return append(ns, 127, 128, 129, 255, 256, 257, 300, 513, 1000, 4099)
}()

// sameBitsT reports whether a and b have the same bits.
func sameBitsT[T any](a, b T) bool {
	x, y := unsafe.Slice((*byte)(unsafe.Pointer(&a)), unsafe.Sizeof(a)), unsafe.Slice((*byte)(unsafe.Pointer(&b)), unsafe.Sizeof(b))
	return string(x) == string(y)
}

// randomSlice returns n values from gen, some of them (one in four, or
// all in runs, so that folds see whole blocks of them) from edges.
func randomSlice[T any](rng *rand.Rand, n int, gen func(*rand.Rand) T, edges []T) []T {
	x := make([]T, n)
	mode := rng.Intn(4)
	for i := range x {
		switch {
		case mode == 0 && rng.Intn(4) == 0, mode == 1 && rng.Intn(64) == 0:
			x[i] = edges[rng.Intn(len(edges))]
		case mode == 2:
			x[i] = edges[(i/40)%len(edges)]
		default:
			x[i] = gen(rng)
		}
	}
	return x
}

func checkKernels[T number | bool](t *testing.T, name string, k redKind, c func(acc, x T) T, id T, gen func(*rand.Rand) T, edges []T) {
	t.Helper()
	vec := vecKernel(k, func(acc, x []T) { vecWith(acc, x, c) })
	var fold func(T, []T) T
	switch cf := any(c).(type) {
	case func(float32, float32) float32:
		if k == kMax || k == kMin {
			fold = any(floatFoldKernel(k, func(a float32, x []float32) float32 { return foldWith(a, x, cf) }, cf)).(func(T, []T) T)
		}
	case func(float64, float64) float64:
		if k == kMax || k == kMin {
			fold = any(floatFoldKernel(k, func(a float64, x []float64) float64 { return foldWith(a, x, cf) }, cf)).(func(T, []T) T)
		}
	case func(bool, bool) bool:
		fold = any(foldOr).(func(T, []T) T)
		if k == kAnd {
			fold = any(foldAnd).(func(T, []T) T)
		}
	default:
		fold = intFold[T](k, c, id)
	}
	if haveAVX2 && asmName[T](k) != "" && vec == nil {
		t.Errorf("%s: no vector row step", name)
	}
	rng := rand.New(rand.NewSource(int64(len(name)) * 7919))
	for _, n := range kernelLengths {
		for off := range 4 {
			for range 3 {
				x := randomSlice(rng, n+off, gen, edges)[off:]
				acc := randomSlice(rng, n+off, gen, edges)[off:]
				if vec != nil {
					want := append([]T(nil), acc...)
					vecWith(want, x, c)
					got := append(make([]T, off), acc...)[off:]
					vec(got, x)
					for i := range want {
						if !sameBitsT(got[i], want[i]) {
							t.Fatalf("%s: row step, n=%d off=%d, element %d: %v (acc %v, x %v), want %v",
								name, n, off, i, got[i], acc[i], x[i], want[i])
						}
					}
				}
				if fold != nil {
					a0 := id
					if k == kMax || k == kMin || rng.Intn(2) == 0 {
						a0 = edges[rng.Intn(len(edges))]
					}
					want := foldWith(a0, x, c)
					if got := fold(a0, x); !sameBitsT(got, want) {
						t.Fatalf("%s: fold, n=%d off=%d from %v: %v, want %v", name, n, off, a0, got, want)
					}
				}
			}
		}
	}
}

// intFold is intFoldKernel, or nil for bools and floats.
func intFold[T number | bool](k redKind, c func(acc, x T) T, id T) func(T, []T) T {
	switch c := any(c).(type) {
	case func(int8, int8) int8:
		return any(intFoldRef(k, c, any(id).(int8))).(func(T, []T) T)
	case func(uint8, uint8) uint8:
		return any(intFoldRef(k, c, any(id).(uint8))).(func(T, []T) T)
	case func(int16, int16) int16:
		return any(intFoldRef(k, c, any(id).(int16))).(func(T, []T) T)
	case func(uint16, uint16) uint16:
		return any(intFoldRef(k, c, any(id).(uint16))).(func(T, []T) T)
	case func(int32, int32) int32:
		return any(intFoldRef(k, c, any(id).(int32))).(func(T, []T) T)
	case func(uint32, uint32) uint32:
		return any(intFoldRef(k, c, any(id).(uint32))).(func(T, []T) T)
	case func(int64, int64) int64:
		return any(intFoldRef(k, c, any(id).(int64))).(func(T, []T) T)
	case func(uint64, uint64) uint64:
		return any(intFoldRef(k, c, any(id).(uint64))).(func(T, []T) T)
	}
	return nil
}

func intFoldRef[T integer](k redKind, c func(acc, x T) T, id T) func(T, []T) T {
	return intFoldKernel(k, func(a T, x []T) T { return foldWith(a, x, c) }, id)
}

func checkIntKernels[T integer](t *testing.T, name string, gen func(*rand.Rand) T, edges []T) {
	for _, k := range []redKind{kAdd, kMul, kMax, kMin} {
		if n := asmName[T](k); haveAVX2 && n != "" && redFoldAsm[n] == 0 {
			t.Errorf("%s: no fold kernel %s", name, n)
		}
	}
	checkKernels(t, name+"/sum", kAdd, add[T], 0, gen, edges)
	checkKernels(t, name+"/max", kMax, maxInt[T], 0, gen, edges)
	checkKernels(t, name+"/min", kMin, minInt[T], 0, gen, edges)
	if asmName[T](kMul) != "" {
		checkKernels(t, name+"/prod", kMul, mul[T], 1, gen, edges)
	}
}

func TestReduceKernelsInt(t *testing.T) {
	checkIntKernels(t, "int8", func(r *rand.Rand) int8 { return int8(r.Uint32()) },
		[]int8{math.MinInt8, math.MaxInt8, -1, 0, 1, math.MinInt8 + 1})
	checkIntKernels(t, "uint8", func(r *rand.Rand) uint8 { return uint8(r.Uint32()) },
		[]uint8{0, 1, math.MaxUint8, 0x80, 0x7F})
	checkIntKernels(t, "int16", func(r *rand.Rand) int16 { return int16(r.Uint32()) },
		[]int16{math.MinInt16, math.MaxInt16, -1, 0, 1})
	checkIntKernels(t, "uint16", func(r *rand.Rand) uint16 { return uint16(r.Uint32()) },
		[]uint16{0, 1, math.MaxUint16, 0x8000, 0x7FFF})
	checkIntKernels(t, "int32", func(r *rand.Rand) int32 { return int32(r.Uint32()) },
		[]int32{math.MinInt32, math.MaxInt32, -1, 0, 1})
	checkIntKernels(t, "uint32", func(r *rand.Rand) uint32 { return r.Uint32() },
		[]uint32{0, 1, math.MaxUint32, 1 << 31, 1<<31 - 1})
	checkIntKernels(t, "int64", func(r *rand.Rand) int64 { return int64(r.Uint64()) },
		[]int64{math.MinInt64, math.MaxInt64, -1, 0, 1, math.MinInt64 + 1, 1 << 32, -1 << 32})
	checkIntKernels(t, "uint64", func(r *rand.Rand) uint64 { return r.Uint64() },
		[]uint64{0, 1, math.MaxUint64, 1 << 63, 1<<63 - 1})
	// Small values, so that products do not all wrap to 0.
	checkKernels(t, "int32/prod-small", kMul, mul[int32], 1, func(r *rand.Rand) int32 { return int32(r.Intn(5) - 2) }, []int32{-1, 1, 3})
}

func TestReduceKernelsBool(t *testing.T) {
	gen := func(r *rand.Rand) bool { return r.Intn(2) == 0 }
	checkKernels(t, "bool/or", kOr, or, false, gen, []bool{false, false, true})
	checkKernels(t, "bool/and", kAnd, and, true, gen, []bool{true, true, false})
	// Long runs of one value, broken at every position.
	for _, k := range []redKind{kOr, kAnd} {
		for _, n := range kernelLengths {
			for at := -1; at < n; at++ {
				x := make([]bool, n)
				for i := range x {
					x[i] = k == kAnd
				}
				if at >= 0 {
					x[at] = k != kAnd
				}
				for _, a0 := range []bool{false, true} {
					want, got := foldWith(a0, x, or), foldOr(a0, x)
					if k == kAnd {
						want, got = foldWith(a0, x, and), foldAnd(a0, x)
					}
					if got != want {
						t.Fatalf("kind %d, n=%d, odd one at %d, from %v: %v, want %v", k, n, at, a0, got, want)
					}
				}
			}
		}
	}
}

// floatEdges64 are the float edge values: NaNs with payloads and signs,
// ±0, ±Inf, subnormals, the extremes.
var floatEdges64 = []float64{
	math.NaN(), -math.NaN(), math.Float64frombits(0x7FF0000000000001), math.Float64frombits(0xFFF8000000000123),
	0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), 5e-324, -5e-324, math.SmallestNonzeroFloat64 * 3,
	math.MaxFloat64, -math.MaxFloat64, 1, -1, 2.5,
}

var floatEdges32 = []float32{
	float32(math.NaN()), -float32(math.NaN()), math.Float32frombits(0x7F800001), math.Float32frombits(0xFFC00123),
	0, float32(math.Copysign(0, -1)), float32(math.Inf(1)), float32(math.Inf(-1)), math.Float32frombits(1), -math.Float32frombits(1),
	math.MaxFloat32, -math.MaxFloat32, 1, -1, 2.5,
}

func TestReduceKernelsFloat(t *testing.T) {
	for _, n := range []string{"MaxPS", "MinPS", "MaxPD", "MinPD"} {
		if haveAVX2 && redFoldAsmF[n] == 0 {
			t.Errorf("no fold kernel %s", n)
		}
	}
	g32 := func(r *rand.Rand) float32 { return float32(r.NormFloat64()) }
	g64 := func(r *rand.Rand) float64 { return r.NormFloat64() }
	checkKernels(t, "float32/max", kMax, maxFloat[float32], 0, g32, floatEdges32)
	checkKernels(t, "float32/min", kMin, minFloat[float32], 0, g32, floatEdges32)
	checkKernels(t, "float32/sum", kAdd, add[float32], 0, g32, floatEdges32)
	checkKernels(t, "float32/prod", kMul, mul[float32], 1, g32, floatEdges32)
	checkKernels(t, "float64/max", kMax, maxFloat[float64], 0, g64, floatEdges64)
	checkKernels(t, "float64/min", kMin, minFloat[float64], 0, g64, floatEdges64)
	checkKernels(t, "float64/sum", kAdd, add[float64], 0, g64, floatEdges64)
	checkKernels(t, "float64/prod", kMul, mul[float64], 1, g64, floatEdges64)
	// Only zeros of both signs (the fold falls back), and only one
	// non-zero extreme among them.
	for _, n := range kernelLengths {
		x := make([]float32, n)
		for i := range x {
			x[i] = float32(math.Copysign(0, float64(i%3-1)))
		}
		for _, c := range []func(a, b float32) float32{maxFloat[float32], minFloat[float32]} {
			k := kMax
			if fmt.Sprint(c(1, 2)) == "1" {
				k = kMin
			}
			fold := floatFoldKernel(k, func(a float32, x []float32) float32 { return foldWith(a, x, c) }, c)
			if fold == nil {
				continue
			}
			for _, a0 := range floatEdges32 {
				if got, want := fold(a0, x), foldWith(a0, x, c); !sameBitsT(got, want) {
					t.Fatalf("zeros, n=%d, kind %d, from %v: %v, want %v", n, k, a0, got, want)
				}
			}
		}
	}
}

// TestReduceKernelsEndToEnd runs every reduction on every dtype along
// each axis, pairs of axes and all of them, of inputs mixing random and
// edge values, with the kernels and with the scalar loops (fastReduce
// off), and wants the same bits. Shapes are odd so that rows have tails
// and stripes of several blocks.
func TestReduceKernelsEndToEnd(t *testing.T) {
	defer func(f bool) { fastReduce = f }(fastReduce)
	rng := rand.New(rand.NewSource(61))
	edges := map[dtypes.DType][]float64{
		dtypes.Bool: {0, 1},
		dtypes.I8:   {-128, 127, -1, 0},
		dtypes.U8:   {0, 255, 128},
		dtypes.I16:  {-32768, 32767, -1},
		dtypes.I32:  {math.MinInt32, math.MaxInt32, -1, 0},
		dtypes.U32:  {0, math.MaxUint32, 1 << 31},
		dtypes.I64:  {-1 << 62, 1 << 62, -1, 0},
		dtypes.U64:  {0, 1 << 63, 1},
		dtypes.F16:  {math.NaN(), 0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), 65504, 6e-8},
		dtypes.F32:  {math.NaN(), 0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), 1e-45, 3e38},
		dtypes.F64:  {math.NaN(), 0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), 5e-324, 1e308},
	}
	shapes := [][]int{{37, 70}, {3, 5, 131}, {2, 4100}, {4100, 3}, {1, 300}, {5, 33, 70}, {3, 70000}}
	for d, edge := range edges {
		for _, shape := range shapes {
			n := backend.Size(shape)
			vals := make([]float64, n)
			for i := range vals {
				switch {
				case rng.Intn(8) == 0:
					vals[i] = edge[rng.Intn(len(edge))]
				case d == dtypes.Bool:
					vals[i] = float64(rng.Intn(2))
				case d.IsFloat():
					vals[i] = rng.NormFloat64() * 4
				default:
					vals[i] = float64(rng.Intn(200) - 100)
					if !d.IsSigned() {
						vals[i] = math.Abs(vals[i])
					}
				}
			}
			x := in(mk(d, shape, vals...))
			var axesList [][]int
			axesList = append(axesList, nil)
			for a := range shape {
				axesList = append(axesList, []int{a})
				if a > 0 {
					axesList = append(axesList, []int{a - 1, a})
				}
			}
			if len(shape) == 3 {
				// The middle axis kept: its outputs' runs lie side by
				// side (runChunks).
				axesList = append(axesList, []int{0, 2})
			}
			ops := []backend.Op{backend.OpSum, backend.OpMean, backend.OpProd, backend.OpReduceMax, backend.OpReduceMin,
				backend.OpArgMax, backend.OpArgMin}
			if d == dtypes.Bool {
				ops = []backend.Op{backend.OpAny, backend.OpAll, backend.OpReduceMax, backend.OpReduceMin, backend.OpArgMax, backend.OpArgMin}
			}
			for _, op := range ops {
				for _, axes := range axesList {
					if (op == backend.OpArgMax || op == backend.OpArgMin) && len(axes) > 1 {
						continue
					}
					rd := d
					if op == backend.OpArgMax || op == backend.OpArgMin {
						rd = dtypes.I64
					}
					nodes := []*backend.Node{red(op, rd, x, false, axes...)}
					if !d.IsFloat() && d != dtypes.Bool && op == backend.OpSum || d == dtypes.Bool && op == backend.OpAny {
						// A fused source: the sum of the values as int64
						// (for bools, their count).
						nodes = append(nodes, red(backend.OpSum, dtypes.I64, cast(x, dtypes.I64), false, axes...))
					}
					if (d == dtypes.Bool || d == dtypes.I8 || d == dtypes.U8 || d == dtypes.I32 || d == dtypes.U32) &&
						(op == backend.OpSum || op == backend.OpAny) {
						// Sums of bytes and 32-bit integers into other
						// integers (wrapping), means into floats
						// (intsum.go).
						for _, to := range []dtypes.DType{dtypes.I32, dtypes.U64, dtypes.U32, dtypes.I16} {
							nodes = append(nodes, red(backend.OpSum, to, cast(x, to), false, axes...))
						}
						for _, to := range []dtypes.DType{dtypes.F64, dtypes.F32} {
							nodes = append(nodes, red(backend.OpMean, to, cast(x, to), false, axes...))
						}
					}
					if d != dtypes.Bool && op == backend.OpSum {
						// any and all of numbers: of x != 0.
						for _, o := range []backend.Op{backend.OpAny, backend.OpAll} {
							nodes = append(nodes, red(o, dtypes.Bool, cast(x, dtypes.Bool), false, axes...))
						}
					}
					for _, node := range nodes {
						fastReduce = true
						got := run(t, node)
						fastReduce = false
						want := run(t, node)
						if !sameBits(got, want) {
							t.Fatalf("%v of %v%v along %v: kernels give %v, the scalar loops %v", op, d, shape, axes, head(got), head(want))
						}
					}
				}
			}
		}
	}
}

// TestHasKernels checks the tests of any(x) and all(x) of numbers (is
// some element non-zero, is some element zero; NaN is non-zero, -0 is
// zero, as x != 0 says) against a plain loop, with one odd element at
// every position of every length.
func TestHasKernels(t *testing.T) {
	checkHas(t, "int8", []int8{0, 1, -1, math.MinInt8})
	checkHas(t, "uint8", []uint8{0, 1, 0x80})
	checkHas(t, "int16", []int16{0, 1, -1, math.MinInt16, 0x100})
	checkHas(t, "uint16", []uint16{0, 1, 0x8000})
	checkHas(t, "int32", []int32{0, 1, -1, math.MinInt32, 0x10000})
	checkHas(t, "uint32", []uint32{0, 1, 1 << 31})
	checkHas(t, "int64", []int64{0, 1, -1, math.MinInt64, 1 << 32})
	checkHas(t, "uint64", []uint64{0, 1, 1 << 63})
	checkHas(t, "float32", floatEdges32)
	checkHas(t, "float64", floatEdges64)
}

func checkHas[T integer | float](t *testing.T, name string, vals []T) {
	for _, isAny := range []bool{true, false} {
		hit := hasKernel[T](isAny)
		for _, n := range kernelLengths[:71] {
			for off := range 3 {
				for _, base := range vals[:min(len(vals), 6)] {
					for _, odd := range vals {
						for at := -1; at < n; at++ {
							x := make([]T, n+off)[off:]
							for i := range x {
								x[i] = base
							}
							if at >= 0 {
								x[at] = odd
							}
							want := false
							for _, v := range x {
								if (v != 0) == isAny {
									want = true
								}
							}
							if got := hit(x); got != want {
								t.Fatalf("%s, any %v, n=%d off=%d, %v with %v at %d: %v, want %v", name, isAny, n, off, base, odd, at, got, want)
							}
						}
					}
				}
			}
		}
	}
}

// TestRoundF16 checks the float16 rounding of float32 sums (F16C where
// the CPU has it) against the table rounding f16Table[f32ToF16(x)]
// (itself checked against dtypes.F16FromFloat64 by TestF32ToF16): every
// float16 value, the midpoints between neighbours and one float32 ulp
// either side (ties to even, the subnormal range, overflow at 65520),
// NaNs with payloads, at every length up to 70 and unaligned starts.
func TestRoundF16(t *testing.T) {
	initTables()
	var vals []float32
	for b := range 1 << 16 {
		v := f16Table[b]
		next := f16Table[(b+1)&0xFFFF]
		vals = append(vals, v)
		if v == v && next == next && !math.IsInf(float64(v), 0) && !math.IsInf(float64(next), 0) {
			mid := float32((float64(v) + float64(next)) / 2)
			vals = append(vals, mid, math.Nextafter32(mid, float32(math.Inf(1))), math.Nextafter32(mid, float32(math.Inf(-1))))
		}
	}
	vals = append(vals, floatEdges32...)
	vals = append(vals, 65519.996, 65520, -65520, 1e9, math.Float32frombits(0x7FBFFFFF), math.Float32frombits(0xFF800001))
	rng := rand.New(rand.NewSource(62))
	for range 1000 {
		vals = append(vals, float32(rng.NormFloat64()*1000))
	}
	want := make([]float32, len(vals))
	for i, x := range vals {
		want[i] = f16Table[f32ToF16(x)]
	}
	check := func(got, want, in []float32) {
		t.Helper()
		for i := range got {
			if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
				t.Fatalf("roundF16(%v = %#x) = %#x, want %#x", in[i], math.Float32bits(in[i]), math.Float32bits(got[i]), math.Float32bits(want[i]))
			}
		}
	}
	got := append([]float32(nil), vals...)
	roundF16(got)
	check(got, want, vals)
	for n := range 71 {
		for off := range 3 {
			lo := rng.Intn(len(vals) - n)
			in := vals[lo : lo+n]
			if n > 0 && rng.Intn(2) == 0 {
				in = append([]float32(nil), in...)
				in[rng.Intn(n)] = float32(math.NaN())
			}
			got := append(make([]float32, off), in...)[off:]
			roundF16(got)
			w := make([]float32, n)
			for i, x := range in {
				w[i] = f16Table[f32ToF16(x)]
			}
			check(got, w, in)
		}
	}
}

// TestLoadF16 checks the float16 loads (f16sToF32, F16C where the CPU
// has it) against the table f16Table (exact values, NaN payloads as
// dtypes.F16ToFloat64 gives them): all 65536 bit patterns in order and
// shuffled, at every length up to 70 and unaligned starts.
func TestLoadF16(t *testing.T) {
	initTables()
	all := make([]uint16, 1<<16)
	for i := range all {
		all[i] = uint16(i)
	}
	rng := rand.New(rand.NewSource(63))
	shuffled := append([]uint16(nil), all...)
	rng.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	check := func(a []uint16, off int) {
		t.Helper()
		d := make([]float32, len(a)+off)[off:]
		f16sToF32(d, a)
		for i, b := range a {
			if math.Float32bits(d[i]) != math.Float32bits(f16Table[b]) {
				t.Fatalf("f16sToF32(%#04x) = %#x, want %#x", b, math.Float32bits(d[i]), math.Float32bits(f16Table[b]))
			}
		}
	}
	check(all, 0)
	check(shuffled, 1)
	for n := range 71 {
		for off := range 3 {
			lo := rng.Intn(len(shuffled) - n)
			check(shuffled[lo:lo+n], off)
			check(all[0x7BF0:][:n], off) // up to the infinities and NaNs
		}
	}
}

// TestPairLeafF64 checks the vectorised leaf of float64 pairwise sums
// against sum8Go (NumPy's pairwise_sum leaf in
// numpy/_core/src/umath/loops_utils.h.src: eight accumulators, then
// ((r0+r1)+(r2+r3))+((r4+r5)+(r6+r7))), and pairwiseF64 against the
// generic recursion with sum8Go, on random values and edges (NaNs,
// infinities, ±0, subnormals, cancellations), lengths 8..300, unaligned.
func TestPairLeafF64(t *testing.T) {
	rng := rand.New(rand.NewSource(64))
	var ref func(a []float64) float64
	ref = func(a []float64) float64 {
		n := len(a)
		switch {
		case n < 8:
			res := math.Copysign(0, -1)
			for _, v := range a {
				res += v
			}
			return res
		case n <= 128:
			res := sum8Go(a)
			for _, v := range a[n-n%8:] {
				res += v
			}
			return res
		}
		n2 := splitReal(n)
		return ref(a[:n2]) + ref(a[n2:])
	}
	for n := 0; n <= 300; n++ {
		for off := range 3 {
			for range 4 {
				a := randomSlice(rng, n+off, func(r *rand.Rand) float64 { return r.NormFloat64() * math.Pow(10, float64(r.Intn(30)-15)) }, floatEdges64)[off:]
				if n >= 8 {
					if got, want := pairLeafF64(a), sum8Go(a); math.Float64bits(got) != math.Float64bits(want) {
						t.Fatalf("pairLeafF64, n=%d off=%d: %v, want %v", n, off, got, want)
					}
				}
				if got, want := pairwiseF64(a), ref(a); math.Float64bits(got) != math.Float64bits(want) {
					t.Fatalf("pairwiseF64, n=%d off=%d: %v, want %v", n, off, got, want)
				}
			}
		}
	}
}

// TestFindKernels checks the search for the first extreme of argmax
// (redFind*) against slices.Index (== on the values, so -0 and +0 find
// each other) with the value at every position of every length, absent,
// and repeated, at unaligned starts.
func TestFindKernels(t *testing.T) {
	checkFind(t, "int8", []int8{0, 1, -1, math.MinInt8, math.MaxInt8})
	checkFind(t, "int16", []int16{0, 1, -1, math.MinInt16, 0x100})
	checkFind(t, "uint16", []uint16{0, 1, 0x8000, 0xFFFF})
	checkFind(t, "int32", []int32{0, 1, -1, math.MinInt32, 0x10000})
	checkFind(t, "uint32", []uint32{0, 1, 1 << 31})
	checkFind(t, "int64", []int64{0, 1, -1, math.MinInt64, 1 << 32})
	checkFind(t, "uint64", []uint64{0, 1, 1 << 63})
	checkFind(t, "float32", []float32{0, float32(math.Copysign(0, -1)), 1, -1, float32(math.Inf(1)), math.Float32frombits(1)})
	checkFind(t, "float64", []float64{0, math.Copysign(0, -1), 1, -1, math.Inf(-1), 5e-324})
}

func checkFind[T integer | float](t *testing.T, name string, vals []T) {
	find := findKernel[T]()
	for _, n := range kernelLengths[:71] {
		for off := range 3 {
			for _, base := range vals {
				for _, v := range vals {
					for at := -1; at < n; at++ {
						x := make([]T, n+off)[off:]
						for i := range x {
							x[i] = base
						}
						if at >= 0 {
							x[at] = v
							if at+1 < n {
								x[n-1] = v // a later copy
							}
						}
						if got, want := find(x, v), slices.Index(x, v); got != want {
							t.Fatalf("%s: n=%d off=%d, %v with %v at %d: %d, want %d", name, n, off, base, v, at, got, want)
						}
					}
				}
			}
		}
	}
}

// TestReduceChunks checks reductions over the first and last axes of 3-d
// inputs (runChunks: each output's runs lie side by side with the
// others') against the scalar walk by output (fastReduce off), bit for
// bit, on values whose sums and products round differently in another
// order (no NaN to hide it), from materialised and fused sources, and
// with runs of -0 (a run's sum added to +0 first).
func TestReduceChunks(t *testing.T) {
	defer func(f bool) { fastReduce = f }(fastReduce)
	rng := rand.New(rand.NewSource(62))
	for _, d := range []dtypes.DType{dtypes.F32, dtypes.F64, dtypes.I32, dtypes.F16} {
		for _, shape := range [][]int{{5, 33, 70}, {7, 3, 300}, {40, 9, 12}} {
			n := backend.Size(shape)
			a, b := make([]float64, n), make([]float64, n)
			for i := range a {
				a[i], b[i] = rng.NormFloat64()*3, rng.NormFloat64()
				if d == dtypes.I32 {
					a[i], b[i] = float64(rng.Intn(1<<20)-1<<19), float64(rng.Intn(7)-3)
				}
			}
			if d != dtypes.I32 {
				for i := range shape[2] { // one run of -0s
					a[i] = math.Copysign(0, -1)
				}
			}
			x, y := in(mk(d, shape, a...)), in(mk(d, shape, b...))
			for _, src := range []*backend.Node{x, nb(backend.OpMul, x, y)} {
				for _, op := range []backend.Op{backend.OpSum, backend.OpMean, backend.OpProd, backend.OpReduceMax} {
					rd := d
					if op == backend.OpMean && d == dtypes.I32 {
						rd = dtypes.F64
					}
					node := red(op, rd, src, false, 0, 2)
					fastReduce = true
					got := run(t, node)
					fastReduce = false
					want := run(t, node)
					if !sameBits(got, want) {
						t.Fatalf("%v of %v%v over (0, 2): %v, the walk by output %v", op, d, shape, head(got), head(want))
					}
				}
			}
		}
	}
}
