package cpu

import (
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"testing"
	"unsafe"

	"github.com/tensorsh/tensorsh/backend"
	"github.com/tensorsh/tensorsh/dtypes"
)

// checkIntDiv compares the vector floor and truncating division and
// modulo of T (the
// kernels vectorIntDiv builds) with their Go loops bit for bit on x and y,
// under every rule, over the whole input and over lengths 0..70 at offsets
// 0..3.
func checkIntDiv[T integer](t *testing.T, x, y []T) {
	t.Helper()
	for _, c := range []struct{ mod, floor bool }{{false, true}, {true, true}, {false, false}, {true, false}} {
		mod, floor := c.mod, c.floor
		for _, rule := range []backend.IntDiv{backend.IntDivZero, backend.IntDivJNP, backend.IntDivXLA, backend.IntDivNvMod} {
			for _, zeroErr := range []bool{false, true} {
				var ref func(d, a, b []T) error
				if mod {
					ref = intModL[T](floor, zeroErr, rule)
				} else {
					ref = intDivL[T](floor, zeroErr, rule)
				}
				for _, table := range intDivTables() {
					vec := vectorIntDivFrom(table.loops, ref, floor, mod, rule)
					try := func(a, b []T) {
						want, got := make([]T, len(a)), make([]T, len(a))
						for i := range got {
							got[i] = 0x5a // no stale zeros
						}
						errW, errG := ref(want, a, b), vec(got, a, b)
						if !errors.Is(errG, errW) || (errW == nil) != (errG == nil) {
							t.Fatalf("%s %T mod=%v rule=%v zeroErr=%v: error %v, want %v", table.isa, a, mod, rule, zeroErr, errG, errW)
						}
						if errW != nil {
							return // what was written before the error is not part of the contract
						}
						for i := range want {
							if got[i] != want[i] {
								t.Fatalf("%s %T mod=%v floor=%v rule=%v: %v op %v = %v, want %v (at %d of %d)", table.isa, a, mod, floor, rule, a[i], b[i], got[i], want[i], i, len(a))
							}
						}
					}
					if !zeroErr || !slices.Contains(y, 0) {
						try(x, y)
					}
					if zeroErr || rule != backend.IntDivZero {
						continue // the short ones once
					}
					for off := 0; off < 4 && off < len(x); off++ {
						for n := 0; n <= 70 && off+n <= len(x); n++ {
							try(x[off:off+n], y[off:off+n])
						}
					}
				}
			}
		}
	}
}

// checkIntDivWarn compares intDivWarnBits (with its vector scan) with the
// plain loop.
func checkIntDivWarn[T integer](t *testing.T, x, y []T) {
	t.Helper()
	signed := ^T(0) < 0
	minT := T(1) << (unsafe.Sizeof(T(0))*8 - 1)
	for _, o := range []backend.Op{backend.OpFloorDiv, backend.OpMod} {
		for n := range min(len(x), 300) + 1 {
			var want uint32
			for i, v := range y[:n] {
				switch {
				case v == 0 && o == backend.OpMod:
					want |= backend.WarnDivZeroRemainder
				case v == 0:
					want |= backend.WarnDivZeroFloorDivide
				case signed && o == backend.OpFloorDiv && v == ^T(0) && x[i] == minT:
					want |= backend.WarnOverflowFloorDivide
				}
			}
			if got := intDivWarnBits(x, y, n, o); got != want {
				t.Fatalf("%T %v n=%d: warning bits %b, want %b", x, o, n, got, want)
			}
		}
	}
}

// divAllPairs returns every pair of 8-bit values.
func divAllPairs[T int8 | uint8]() (x, y []T) {
	for i := range 256 {
		for j := range 256 {
			x, y = append(x, T(i)), append(y, T(j))
		}
	}
	return x, y
}

// divEdgePairs returns every pair of edges, then n random pairs of r's values
// with a few edges among them.
func divEdgePairs[T integer](edges []T, n int, r func() T) (x, y []T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, a := range edges {
		for _, b := range edges {
			x, y = append(x, a), append(y, b)
		}
	}
	for range n {
		a, b := r(), r()
		switch rng.IntN(16) {
		case 0:
			a = edges[rng.IntN(len(edges))]
		case 1:
			b = edges[rng.IntN(len(edges))]
		}
		x, y = append(x, a), append(y, b)
	}
	return x, y
}

// noZero returns y with its zeros replaced by 1, so that the whole input
// runs through the vector loop.
func noZero[T integer](y []T) []T {
	y = slices.Clone(y)
	for i := range y {
		if y[i] == 0 {
			y[i] = 1
		}
	}
	return y
}

func TestIntDivVector(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	t.Run("int8", func(t *testing.T) {
		x, y := divAllPairs[int8]()
		checkIntDiv(t, x, y)
		checkIntDiv(t, x, noZero(y))
		checkIntDivWarn(t, x, y)
	})
	t.Run("uint8", func(t *testing.T) {
		x, y := divAllPairs[uint8]()
		checkIntDiv(t, x, y)
		checkIntDiv(t, x, noZero(y))
		checkIntDivWarn(t, x, y)
	})
	t.Run("int16", func(t *testing.T) {
		edges := []int16{math.MinInt16, math.MinInt16 + 1, -256, -255, -129, -128, -127, -3, -2, -1, 0, 1, 2, 3, 7, 127, 128, 255, 256, math.MaxInt16 - 1, math.MaxInt16}
		x, y := divEdgePairs(edges, 200000, func() int16 { return int16(rng.Uint32()) })
		checkIntDiv(t, x, y)
		checkIntDiv(t, x, noZero(y))
		checkIntDivWarn(t, x, y)
		x, y = divEdgePairs(edges, 20000, func() int16 { return int16(rng.IntN(21) - 10) })
		checkIntDiv(t, x, noZero(y))
	})
	t.Run("uint16", func(t *testing.T) {
		edges := []uint16{0, 1, 2, 3, 255, 256, 32767, 32768, 65534, 65535}
		x, y := divEdgePairs(edges, 200000, func() uint16 { return uint16(rng.Uint32()) })
		checkIntDiv(t, x, y)
		checkIntDiv(t, x, noZero(y))
		checkIntDivWarn(t, x, y)
	})
	t.Run("int32", func(t *testing.T) {
		edges := []int32{math.MinInt32, math.MinInt32 + 1, -1 << 24, -1<<24 - 1, -1<<24 + 1, -65536, -3, -2, -1, 0, 1, 2, 3,
			1<<24 - 1, 1 << 24, 1<<24 + 1, 46340, 46341, math.MaxInt32 - 1, math.MaxInt32}
		x, y := divEdgePairs(edges, 200000, func() int32 { return int32(rng.Uint32()) })
		checkIntDiv(t, x, y)
		checkIntDiv(t, x, noZero(y))
		checkIntDivWarn(t, x, y)
		// Small divisors, where most quotients are large and inexact.
		x, y = divEdgePairs(edges, 200000, func() int32 {
			if rng.IntN(2) == 0 {
				return int32(rng.IntN(7) - 3)
			}
			return int32(rng.Uint32())
		})
		checkIntDiv(t, x, noZero(y))
	})
	t.Run("uint32", func(t *testing.T) {
		edges := []uint32{0, 1, 2, 3, 1 << 24, 1<<24 + 1, 1<<31 - 1, 1 << 31, 1<<31 + 1, math.MaxUint32 - 1, math.MaxUint32}
		x, y := divEdgePairs(edges, 200000, func() uint32 { return rng.Uint32() >> rng.UintN(32) })
		checkIntDiv(t, x, y)
		checkIntDiv(t, x, noZero(y))
		checkIntDivWarn(t, x, y)
	})
	t.Run("int64", func(t *testing.T) {
		edges := []int64{math.MinInt64, math.MinInt64 + 1, -1 << 53, -1<<53 + 1, -1<<53 - 1, -1 << 31, -3, -2, -1, 0, 1, 2, 3,
			1<<53 - 1, 1 << 53, 1<<53 + 1, math.MaxInt64}
		x, y := divEdgePairs(edges, 200000, func() int64 { return int64(rng.Uint64()) >> rng.UintN(64) })
		checkIntDiv(t, x, y)
		checkIntDiv(t, x, noZero(y))
		checkIntDivWarn(t, x, y)
		// Operands near 2^53, in range: the largest quotients the float
		// loop computes.
		x, y = divEdgePairs(edges, 200000, func() int64 {
			v := int64(1<<53 - 1 - rng.IntN(1<<20))
			if rng.IntN(2) == 0 {
				v = int64(rng.IntN(2001) - 1000)
			}
			if rng.IntN(2) == 0 {
				v = -v
			}
			return v
		})
		checkIntDiv(t, x, noZero(y))
	})
	t.Run("uint64", func(t *testing.T) {
		edges := []uint64{0, 1, 2, 3, 1<<53 - 1, 1 << 53, 1<<53 + 1, 1 << 63, math.MaxUint64}
		x, y := divEdgePairs(edges, 200000, func() uint64 { return rng.Uint64() >> rng.UintN(64) })
		checkIntDiv(t, x, y)
		checkIntDiv(t, x, noZero(y))
		checkIntDivWarn(t, x, y)
	})
}

// An intDivTable is a table of division loops and the name of its ISA.
type intDivTable struct {
	isa   string
	loops map[intDivKey]intDivAsm
}

// intDivTables returns the tables of division loops this CPU can run.
func intDivTables() []intDivTable {
	var ts []intDivTable
	if haveIntDiv512 {
		ts = append(ts, intDivTable{"avx512", intDivAsms512})
	}
	if haveAVX2 {
		ts = append(ts, intDivTable{"avx2", intDivAsmsAVX2})
	}
	return ts
}

// TestIntDivVectorUsed checks that the vector loops run where they should
// (so that TestIntDivVector tests them): every loop the CPU can run
// computes 7 // 2 (or 7 % 2) and stops at a zero divisor.
func TestIntDivVectorUsed(t *testing.T) {
	if haveAVX2 && len(intDivAsms) == 0 {
		t.Fatal("AVX2 but no vector integer division")
	}
	for _, table := range intDivTables() {
		for k, v := range table.loops {
			// 7 and 2 in every element (little-endian), then a zero
			// divisor.
			d, a, b := make([]byte, 64), make([]byte, 64), make([]byte, 64)
			for i := 0; i < 64; i += int(k.size) {
				a[i], b[i] = 7, 2
			}
			n := 64 / int(k.size) / v.unit * v.unit
			if got := v.f(unsafe.Pointer(&d[0]), unsafe.Pointer(&a[0]), unsafe.Pointer(&b[0]), n); got != n {
				t.Errorf("%+v: wrote %d elements of %d", k, got, n)
			}
			want := byte(3)
			if k.mod {
				want = 1
			}
			if d[0] != want || d[(n-1)*int(k.size)] != want {
				t.Errorf("%+v: 7 op 2 = %d, want %d", k, d[0], want)
			}
			b[(n-1)*int(k.size)] = 0
			if got := v.f(unsafe.Pointer(&d[0]), unsafe.Pointer(&a[0]), unsafe.Pointer(&b[0]), n); got == n {
				t.Errorf("%+v: went past a zero divisor", k)
			}
		}
	}
}

// BenchmarkIntDiv compares the Go loop of int32 and int8 x // y with the
// vector loops, on a block of 4096 elements.
func BenchmarkIntDiv(b *testing.B) {
	rng := rand.New(rand.NewPCG(5, 6))
	run := func(name string, f func()) {
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				f()
			}
		})
	}
	x32, y32, d32 := make([]int32, 4096), make([]int32, 4096), make([]int32, 4096)
	x8, y8, d8 := make([]int8, 4096), make([]int8, 4096), make([]int8, 4096)
	for i := range x32 {
		x32[i], y32[i] = int32(rng.IntN(100)+1), int32(rng.IntN(100)+1)
		x8[i], y8[i] = int8(rng.IntN(100)+1), int8(rng.IntN(100)+1)
	}
	ref32, ref8 := intDivL[int32](true, false, 0), intDivL[int8](true, false, 0)
	run("i32/go", func() { ref32(d32, x32, y32) })
	run("i8/go", func() { ref8(d8, x8, y8) })
	for _, table := range intDivTables() {
		v32, v8 := vectorIntDivFrom(table.loops, ref32, true, false, 0), vectorIntDivFrom(table.loops, ref8, true, false, 0)
		run("i32/"+table.isa, func() { v32(d32, x32, y32) })
		run("i8/"+table.isa, func() { v8(d8, x8, y8) })
	}
}

// TestQuietDivisor checks which constant divisors skip the scan for
// NumPy's warnings: any but 0 and -1 (MIN // -1 overflows); an array
// divisor never does.
func TestQuietDivisor(t *testing.T) {
	for _, c := range []struct {
		d    *backend.Node
		want bool
	}{
		{in(mk(dtypes.I32, []int{}, 7)), true},
		{in(mk(dtypes.I8, []int{}, -3)), true},
		{in(mk(dtypes.I32, []int{}, 0)), false},
		{in(mk(dtypes.I64, []int{}, -1)), false},
		{in(mk(dtypes.U8, []int{}, 255)), true},
		{in(mk(dtypes.U64, []int{}, 0)), false},
		{in(mk(dtypes.I32, []int{2}, 7, 7)), false},
	} {
		if got := quietDivisor(c.d); got != c.want {
			t.Errorf("quietDivisor(%v %v) = %v, want %v", c.d.Tensor.DType, c.d.Tensor.Data, got, c.want)
		}
	}
}

// TestIntSign checks the branch-free integer sign on every int8 and uint8
// and on the ends of the wider types: -1, 0 or 1 (0 or 1 unsigned).
func TestIntSign(t *testing.T) {
	check := func(name string, x, want []float64, d dtypes.DType) {
		t.Helper()
		got := vals(run(t, &backend.Node{Op: backend.OpSign, DType: d, Shape: []int{len(x)}, Args: []*backend.Node{in(mk(d, []int{len(x)}, x...))}}))
		for i := range x {
			if got[i] != want[i] {
				t.Fatalf("%s sign(%v) = %v, want %v", name, x[i], got[i], want[i])
			}
		}
	}
	sign := func(v float64) float64 {
		switch {
		case v > 0:
			return 1
		case v < 0:
			return -1
		}
		return 0
	}
	var x, want []float64
	for v := -128; v < 128; v++ {
		x, want = append(x, float64(v)), append(want, sign(float64(v)))
	}
	check("int8", x, want, dtypes.I8)
	check("int8 (tail)", x[:251], want[:251], dtypes.I8) // eight a word, then three alone
	check("int8 (end)", x[125:], want[125:], dtypes.I8)
	x, want = x[:0], want[:0]
	for v := range 256 {
		x, want = append(x, float64(v)), append(want, sign(float64(v)))
	}
	check("uint8", x, want, dtypes.U8)
	check("uint8 (tail)", x[:253], want[:253], dtypes.U8)
	ends := []float64{math.MinInt32, math.MinInt32 + 1, -1, 0, 1, math.MaxInt32}
	w := make([]float64, len(ends))
	for i, v := range ends {
		w[i] = sign(v)
	}
	check("int32", ends, w, dtypes.I32)
	check("int64", ends, w, dtypes.I64)
	check("uint32", []float64{0, 1, math.MaxUint32, 1 << 31}, []float64{0, 1, 1, 1}, dtypes.U32)
}

// TestFloorDivConst checks the floor division by a constant divisor (the
// kernel intKernel builds when the divisor is a one-element input:
// floorDivConst's multiply by 1/|c| and correction) against the Go loop,
// bit for bit, for each type with a loop. int8 and uint8: every dividend
// by every divisor. int16 and uint16: every dividend by divisors ±1, ±2,
// ±3, ±7, powers of two, the extremes and their neighbours, and random
// ones. int32 and uint32: those divisors and random ones, dividends the
// extremes, 0, ±1, multiples of the divisor and their neighbours (where a
// quotient is exact or one below) and random ones. Each at lengths
// around the vector steps (8 or 16 elements) and the Go tail.
func TestFloorDivConst(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	t.Run("int8", func(t *testing.T) { floorDivConstAll[int8](t, -128, 127) })
	t.Run("uint8", func(t *testing.T) { floorDivConstAll[uint8](t, 0, 255) })
	d16 := []int64{1, -1, 2, -2, 3, -3, 7, -7, 10, 255, 256, -256, 1 << 14, -1 << 14, math.MaxInt16, math.MinInt16, math.MaxInt16 - 1, math.MinInt16 + 1, 181, -181, math.MaxUint16, math.MaxUint16 - 1}
	for range 60 {
		d16 = append(d16, int64(rng.IntN(65536))-32768, int64(rng.IntN(1000))+1)
	}
	t.Run("int16", func(t *testing.T) { floorDivConstBy[int16](t, d16, allInts(-32768, 32767)) })
	t.Run("uint16", func(t *testing.T) { floorDivConstBy[uint16](t, d16, allInts(0, 65535)) })
	d32 := []int64{1, -1, 2, -2, 3, -3, 7, -7, 10, 1 << 30, -1 << 30, math.MaxInt32, math.MinInt32, math.MaxInt32 - 1, math.MinInt32 + 1, 46341, -46341, math.MaxUint32, math.MaxUint32 - 1, 1 << 31, 65537}
	for range 40 {
		d32 = append(d32, int64(int32(rng.Uint32())), int64(rng.Uint32()), int64(rng.IntN(1000))+1, -int64(rng.IntN(1000))-1)
	}
	t.Run("int32", func(t *testing.T) { floorDivConstBy[int32](t, d32, nil) })
	t.Run("uint32", func(t *testing.T) { floorDivConstBy[uint32](t, d32, nil) })
}

// allInts returns lo..hi.
func allInts(lo, hi int64) []int64 {
	var x []int64
	for v := lo; v <= hi; v++ {
		x = append(x, v)
	}
	return x
}

// floorDivConstAll checks T's division by every divisor in [lo, hi].
func floorDivConstAll[T integer](t *testing.T, lo, hi int64) {
	floorDivConstBy[T](t, allInts(lo, hi), allInts(lo, hi))
}

// floorDivConstBy checks T's division of xs (nil: dividends made for each
// divisor, see TestFloorDivConst) by each divisor of divs that T holds
// (divisors it cannot hold, and 0, are skipped).
func floorDivConstBy[T integer](t *testing.T, divs, xs []int64) {
	rng := rand.New(rand.NewPCG(8, 12))
	ref := intDivL[T](true, false, backend.IntDivZero)
	dt := map[any]dtypes.DType{int8(0): dtypes.I8, uint8(0): dtypes.U8, int16(0): dtypes.I16, uint16(0): dtypes.U16,
		int32(0): dtypes.I32, uint32(0): dtypes.U32}[any(T(0))]
	for _, cv := range divs {
		c := T(cv)
		if cv == 0 || int64(c) != cv {
			continue
		}
		n := &backend.Node{Op: backend.OpFloorDiv, DType: dt, Args: []*backend.Node{
			{Op: backend.OpInput, DType: dt},
			{Op: backend.OpInput, DType: dt, Tensor: &backend.Tensor{DType: dt, Data: []T{c}}},
		}}
		k := intKernel[T](n)
		x := make([]T, 0, len(xs))
		for _, v := range xs {
			x = append(x, T(v))
		}
		if xs == nil {
			lo, hi := int64(intTop[T](false)), int64(intTop[T](true))
			x = append(x, T(lo), T(hi), 0, 1, T(hi-1), T(lo+1), T(max(lo, -1)))
			for _, m := range []int64{0, 1, -1, 2, -2, 5, -5, hi / max(cv, -cv, 1), lo / max(cv, -cv, 1)} {
				for _, e := range []int64{-1, 0, 1} {
					if v := m*cv + e; v >= lo && v <= hi {
						x = append(x, T(v))
					}
				}
			}
			for range 200 {
				x = append(x, T(rng.Uint64()))
			}
		}
		y := make([]T, len(x))
		for i := range y {
			y[i] = c
		}
		for _, l := range []int{len(x), 0, 1, 7, 8, 9, 15, 16, 17, 40} {
			l = min(l, len(x))
			want, got := make([]T, l), make([]T, l)
			if err := ref(want, x[:l], y[:l]); err != nil {
				t.Fatal(err)
			}
			if err := k(got, []any{x[:l], y[:l]}); err != nil {
				t.Fatal(err)
			}
			for i := range got {
				if got[i] != want[i] {
					t.Fatalf("%d // %d: got %d, want %d", x[i], c, got[i], want[i])
				}
			}
		}
	}
}

// TestFloorDivConst16Exhaustive is TestFloorDivConst's int16 and uint16
// cases for every divisor (about 40 s): TENSORSH_EXHAUSTIVE=1.
func TestFloorDivConst16Exhaustive(t *testing.T) {
	if os.Getenv("TENSORSH_EXHAUSTIVE") == "" {
		t.Skip("set TENSORSH_EXHAUSTIVE=1 to check every 16-bit divisor")
	}
	t.Run("int16", func(t *testing.T) { floorDivConstAll[int16](t, -32768, 32767) })
	t.Run("uint16", func(t *testing.T) { floorDivConstAll[uint16](t, 0, 65535) })
}
