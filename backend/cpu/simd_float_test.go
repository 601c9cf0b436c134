package cpu

import (
	"fmt"
	"math"
	"math/rand"
	"testing"

	"github.com/tensorsh/tensorsh/backend"
	"github.com/tensorsh/tensorsh/dtypes"
)

// Edge values of the vector float loops (simd_float_amd64.s): both zeros,
// both infinities, NaNs with payloads and signs, quiet and signalling,
// the extremes, subnormals, ties of the roundings, and the largest
// fractional and smallest integral magnitudes.
var (
	edgeF32 = []uint32{
		0x00000000, 0x80000000, 0x7f800000, 0xff800000, // ±0, ±Inf
		0x7fc00000, 0xffc00000, 0x7fc12345, 0xffc00001, // quiet NaNs
		0x7f800001, 0xff800001, 0x7fa00000, 0x7fbfffff, // signalling NaNs
		0x7f7fffff, 0xff7fffff, 0x00000001, 0x80000001, 0x007fffff, 0x807fffff, 0x00800000, // extremes, subnormals
		0x3f800000, 0xbf800000, 0x3f000000, 0xbf000000, 0x3fc00000, 0xbfc00000, 0x40200000, 0xc0200000, // ±1, ±0.5, ±1.5, ±2.5
		0x3effffff, 0xbeffffff, 0x3f3504f3, 0x4affffff, 0xcaffffff, 0x4b000001, 0x4b7fffff, // 0.49999997, 2^23-0.5, …
		0x5f800000, 0x1f800000, 0x7e967699, // 2^64, 2^-64, 1e38
	}
	edgeF64 = []uint64{
		0x0000000000000000, 0x8000000000000000, 0x7ff0000000000000, 0xfff0000000000000,
		0x7ff8000000000000, 0xfff8000000000000, 0x7ff8000000012345, 0xfff8000000000001, 0x7ff8000000000001,
		0x7ff0000000000001, 0xfff0000000000001, 0x7ff4000000000000, 0x7ff7ffffffffffff,
		0x7fefffffffffffff, 0xffefffffffffffff, 0x0000000000000001, 0x8000000000000001, 0x000fffffffffffff,
		0x800fffffffffffff, 0x0010000000000000,
		0x3ff0000000000000, 0xbff0000000000000, 0x3fe0000000000000, 0xbfe0000000000000,
		0x3ff8000000000000, 0xbff8000000000000, 0x4004000000000000, 0xc004000000000000,
		0x3fdfffffffffffff, 0xbfdfffffffffffff, 0x432fffffffffffff, 0xc32fffffffffffff, 0x4330000000000001,
		0x433fffffffffffff, 0x5ff0000000000000, 0x1ff0000000000000, 0x7e37e43c8800759c, // 2^512, 2^-512, 1e300
	}
)

// floatCase returns n inputs of T: edge values, random bits (NaNs with
// random payloads among them), values near 1 and of every scale.
func floatCase[T float](rng *rand.Rand, n int) []T {
	x := make([]T, n)
	for i := range x {
		var v T
		switch rng.Intn(5) {
		case 0:
			if _, f32 := any(v).(float32); f32 {
				x[i] = any(math.Float32frombits(edgeF32[rng.Intn(len(edgeF32))])).(T)
			} else {
				x[i] = any(math.Float64frombits(edgeF64[rng.Intn(len(edgeF64))])).(T)
			}
			continue
		case 1:
			if _, f32 := any(v).(float32); f32 {
				x[i] = any(math.Float32frombits(rng.Uint32())).(T)
			} else {
				x[i] = any(math.Float64frombits(rng.Uint64())).(T)
			}
			continue
		case 2:
			v = T(rng.Float64() + 0.5)
		case 3:
			v = T(rng.NormFloat64() * math.Pow(2, float64(rng.Intn(80)-40)))
		default:
			v = T(math.Round(rng.NormFloat64()*8) / 2) // integers and halves
		}
		x[i] = v
	}
	return x
}

func floatBits[T float](v T) uint64 {
	if f, ok := any(v).(float32); ok {
		return uint64(math.Float32bits(f))
	}
	return math.Float64bits(any(v).(float64))
}

// sameResult reports whether two result buffers hold the same bits.
func sameResult(a, b any) (int, bool) {
	switch a := a.(type) {
	case []bool:
		b := b.([]bool)
		for i := range a {
			if a[i] != b[i] {
				return i, false
			}
		}
	case []float32:
		b := b.([]float32)
		for i := range a {
			if math.Float32bits(a[i]) != math.Float32bits(b[i]) {
				return i, false
			}
		}
	case []float64:
		b := b.([]float64)
		for i := range a {
			if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
				return i, false
			}
		}
	}
	return 0, true
}

// powNode returns x ** c with a literal exponent, as the compiler makes it.
func powNode[T float](c T) *backend.Node {
	dt := dtypes.F32
	if _, ok := any(c).(float64); ok {
		dt = dtypes.F64
	}
	return &backend.Node{Op: backend.OpPow, DType: dt, Args: []*backend.Node{{Op: backend.OpInput, DType: dt},
		{Op: backend.OpInput, DType: dt, Tensor: &backend.Tensor{DType: dt, Data: []T{c}}}}}
}

// TestSIMDFloatMatchesGo checks every vector float loop against its Go
// reference (floatKernel, whereOf) bit for bit, on edge values and random
// bits, at lengths 0..70 and unaligned starts (the assembly's tails and
// heads). The references are floatKernel's loops, which follow NumPy:
// maximum and minimum propagate the first NaN and give b on ties; < <= >
// >= == are IEEE's ordered comparisons and != the unordered one; relu is
// maximum(x, 0) with relu(-0) = +0; roundeven is np.rint (ties to even).
// The literal exponents 0.5 and 3 get loops because array ** scalar is
// the common power (NumPy's numpy/_core/src/multiarray/number.c,
// fast_scalar_power, turns a Python float 0.5 into sqrt and an int 2 into
// square); the loops keep powF64's bits,
// math.Pow's special cases included (pow.go).
func TestSIMDFloatMatchesGo(t *testing.T) {
	t.Logf("AVX2: %v", haveAVX2)
	testSIMDFloat[float32](t, ctF32)
	testSIMDFloat[float64](t, ctF64)
}

func testSIMDFloat[T float](t *testing.T, ct ctype) {
	rng := rand.New(rand.NewSource(17))
	unary := []backend.Op{backend.OpNeg, backend.OpAbs, backend.OpRelu, backend.OpRoundEven, backend.OpRound, backend.OpFloor,
		backend.OpCeil, backend.OpTrunc, backend.OpSqrt, backend.OpRsqrt, backend.OpIsNaN, backend.OpSquare,
		backend.OpReciprocal, backend.OpSign, backend.OpIsInf, backend.OpIsFinite}
	binary := []backend.Op{backend.OpEq, backend.OpNe, backend.OpLt, backend.OpLe, backend.OpGt, backend.OpGe,
		backend.OpMax, backend.OpMin}
	type kcase struct {
		name     string
		n        *backend.Node
		arity    int
		bools    bool
		constant T // the exponent of a power
	}
	var cases []kcase
	for _, o := range unary {
		cases = append(cases, kcase{name: o.String(), n: &backend.Node{Op: o}, arity: 1,
			bools: o == backend.OpIsNaN || o == backend.OpIsInf || o == backend.OpIsFinite})
	}
	for _, o := range binary {
		cases = append(cases, kcase{name: o.String(), n: &backend.Node{Op: o}, arity: 2, bools: o != backend.OpMax && o != backend.OpMin})
	}
	for _, c := range []T{0.5, 3} {
		cases = append(cases, kcase{name: fmt.Sprintf("pow %v", c), n: powNode(c), arity: 2, constant: c})
	}
	const pad = 8
	for _, c := range cases {
		k := simdFloatKernel(c.n, ct)
		ref := floatKernel[T](c.n)
		if k == nil {
			if haveAVX2 {
				t.Errorf("%T %s: no vector kernel", T(0), c.name)
			}
			continue
		}
		for trial := 0; trial < 40; trial++ {
			for n := 0; n <= 70; n++ {
				off := rng.Intn(pad)
				a := floatCase[T](rng, n+pad)[off : off+n]
				b := floatCase[T](rng, n+pad)[off : off+n]
				for i := range b {
					switch {
					case c.constant != 0:
						b[i] = c.constant
					case rng.Intn(4) == 0:
						b[i] = a[i] // ties
					case rng.Intn(8) == 0:
						b[i] = -a[i]
					}
				}
				args := []any{a, b}[:c.arity]
				var got, want any
				if c.bools {
					got, want = make([]bool, n+pad)[off:off+n], make([]bool, n)
				} else {
					got, want = make([]T, n+pad)[off:off+n], make([]T, n)
				}
				if err := k(got, args); err != nil {
					t.Fatal(err)
				}
				if err := ref(want, args); err != nil {
					t.Fatal(err)
				}
				if i, ok := sameResult(got, want); !ok {
					t.Fatalf("%T %s, n=%d: at %d (a=%#x b=%#x): got %v, want %v", T(0), c.name, n, i,
						floatBits(a[i]), floatBits(b[i]), elemAt(got, i), elemAt(want, i))
				}
			}
		}
	}
	k := simdWhereKernel(ct)
	if k == nil {
		if haveAVX2 {
			t.Errorf("%T where: no vector kernel", T(0))
		}
		return
	}
	ref := whereOf[T]()
	for trial := 0; trial < 40; trial++ {
		for n := 0; n <= 70; n++ {
			off := rng.Intn(pad)
			a := floatCase[T](rng, n+pad)[off : off+n]
			b := floatCase[T](rng, n+pad)[off : off+n]
			cond := make([]bool, n+pad)[off : off+n]
			for i := range cond {
				cond[i] = rng.Intn(2) == 0
			}
			got, want := make([]T, n+pad)[off:off+n], make([]T, n)
			k(got, []any{cond, a, b})
			ref(want, []any{cond, a, b})
			if i, ok := sameResult(got, want); !ok {
				t.Fatalf("%T where, n=%d: at %d: got %v, want %v", T(0), n, i, elemAt(got, i), elemAt(want, i))
			}
		}
	}
}

func elemAt(b any, i int) any {
	switch b := b.(type) {
	case []bool:
		return b[i]
	case []float32:
		return fmt.Sprintf("%#x", math.Float32bits(b[i]))
	case []float64:
		return fmt.Sprintf("%#x", math.Float64bits(b[i]))
	}
	return nil
}

// BenchmarkSIMDFloat times each vector float loop ("avx2") against its Go
// reference ("go") on a cache-resident block of 16384 elements.
func BenchmarkSIMDFloat(b *testing.B) {
	benchSIMDFloat[float32](b, ctF32)
	benchSIMDFloat[float64](b, ctF64)
}

func benchSIMDFloat[T float](b *testing.B, ct ctype) {
	const n = 16384
	rng := rand.New(rand.NewSource(1))
	x, y := make([]T, n), make([]T, n)
	for i := range x {
		x[i], y[i] = T(rng.Float64()+0.5), T(rng.Float64()+0.5)
	}
	name := fmt.Sprintf("%T", T(0))
	for _, o := range []backend.Op{backend.OpLt, backend.OpNe, backend.OpMax, backend.OpNeg, backend.OpAbs,
		backend.OpFloor, backend.OpRoundEven, backend.OpSqrt, backend.OpRsqrt, backend.OpRelu, backend.OpIsNaN} {
		nd := &backend.Node{Op: o}
		var d any = make([]T, n)
		if o == backend.OpLt || o == backend.OpNe || o == backend.OpIsNaN {
			d = make([]bool, n)
		}
		args := []any{x, y}
		for _, k := range []struct {
			impl string
			k    kfn
		}{{"go", floatKernel[T](nd)}, {"avx2", simdFloatKernel(nd, ct)}} {
			if k.k == nil {
				continue
			}
			b.Run(name+"/"+o.String()+"/"+k.impl, func(b *testing.B) {
				for b.Loop() {
					k.k(d, args)
				}
			})
		}
	}
	for _, c := range []T{0.5, 3} {
		nd := powNode(c)
		c3 := make([]T, n)
		for i := range c3 {
			c3[i] = c
		}
		d := make([]T, n)
		for _, k := range []struct {
			impl string
			k    kfn
		}{{"go", floatKernel[T](nd)}, {"avx2", simdFloatKernel(nd, ct)}} {
			if k.k == nil {
				continue
			}
			b.Run(fmt.Sprintf("%s/pow%v/%s", name, c, k.impl), func(b *testing.B) {
				for b.Loop() {
					k.k(d, []any{x, c3})
				}
			})
		}
	}
	cond := make([]bool, n)
	for i := range cond {
		cond[i] = rng.Intn(2) == 0
	}
	d := make([]T, n)
	for _, k := range []struct {
		impl string
		k    kfn
	}{{"go", whereOf[T]()}, {"avx2", simdWhereKernel(ct)}} {
		if k.k == nil {
			continue
		}
		b.Run(name+"/where/"+k.impl, func(b *testing.B) {
			for b.Loop() {
				k.k(d, []any{cond, x, y})
			}
		})
	}
}

// TestConstExponent checks which exponents of x ** c are seen as one
// constant (the compiler materialises a literal as a one-element input of
// the operands' dtype; float16 and bfloat16 ones are stored as bits).
func TestConstExponent(t *testing.T) {
	in := func(d dtypes.DType, shape []int, data any) *backend.Node {
		return &backend.Node{Op: backend.OpInput, DType: d, Shape: shape,
			Tensor: &backend.Tensor{DType: d, Shape: shape, Data: data}}
	}
	for _, c := range []struct {
		e    *backend.Node
		want float64
		ok   bool
	}{
		{in(dtypes.F32, nil, []float32{3}), 3, true},
		{in(dtypes.F64, nil, []float64{0.5}), 0.5, true},
		{in(dtypes.F16, nil, []uint16{0x4200}), 3, true},
		{in(dtypes.BF16, nil, []uint16{0x3f00}), 0.5, true},
		{in(dtypes.F32, []int{1, 1}, []float32{0.5}), 0.5, true},
		{in(dtypes.F32, []int{2}, []float32{3, 3}), 0, false},
		{in(dtypes.F32, nil, []float64{3}), 0, false}, // not float32 storage
		{in(dtypes.I32, nil, []int32{3}), 0, false},
		{&backend.Node{Op: backend.OpNeg, DType: dtypes.F32, Args: []*backend.Node{in(dtypes.F32, nil, []float32{3})}}, 0, false},
	} {
		n := &backend.Node{Op: backend.OpPow, Args: []*backend.Node{in(c.e.DType, []int{4}, nil), c.e}}
		got, ok := constExponent(n)
		if got != c.want || ok != c.ok {
			t.Errorf("%v %v: got %v, %v; want %v, %v", c.e.Op, c.e.DType, got, ok, c.want, c.ok)
		}
	}
}

// TestNarrowMinMax checks narrowMinMax (float16 and bfloat16 maximum and
// minimum on their float32 values, with its vector loop where there is
// one) against NumPy's rule for half floats element by element: a where a
// >= b (a <= b for the minimum) or a is NaN, else b, so that ties such as
// maximum(0, -0) keep a (numpy/_core/src/umath/loops.c.src,
// HALF_maximum and npy_half_ge), and the first NaN wins.
func TestNarrowMinMax(t *testing.T) {
	t.Logf("AVX2: %v", haveAVX2)
	rng := rand.New(rand.NewSource(5))
	for _, o := range []backend.Op{backend.OpMax, backend.OpMin} {
		k := narrowMinMax(o)
		for trial := 0; trial < 40; trial++ {
			for n := 0; n <= 70; n++ {
				a, b := floatCase[float32](rng, n), floatCase[float32](rng, n)
				for i := range b {
					switch rng.Intn(4) {
					case 0:
						b[i] = a[i]
					case 1:
						b[i] = -a[i]
					}
				}
				got := make([]float32, n)
				if err := k(got, []any{a, b}); err != nil {
					t.Fatal(err)
				}
				for i := range got {
					x, y := a[i], b[i]
					want := y
					if o == backend.OpMax && x >= y || o == backend.OpMin && x <= y || x != x {
						want = x
					}
					if math.Float32bits(got[i]) != math.Float32bits(want) {
						t.Fatalf("%v n=%d [%d]: (%#x, %#x) gives %#x, want %#x", o, n, i,
							math.Float32bits(x), math.Float32bits(y), math.Float32bits(got[i]), math.Float32bits(want))
					}
				}
			}
		}
	}
}
