package cpu

import (
	"math"
	"math/rand"
	"testing"

	"github.com/tensorsh/tensorsh/backend"
)

// TestComposedKernels checks log10, log2, cosh, sinh, atanh, asinh and
// acosh built on the vector loops of Exp, Log and Log1p against the scalar
// kernels (the functions of libm.go and Go's math package), bit for bit,
// on float64 and float32: random bits over the whole range, values in
// each branch of the functions and on their edges, zeros, infinities
// and NaN.
func TestComposedKernels(t *testing.T) {
	rng := rand.New(rand.NewSource(11))
	var x64 []float64
	for _, v := range []float64{0, math.Copysign(0, -1), 1, -1, 0.5, 2, 0.49999999999999994, 2.0000000000000004,
		21, 21.000000000000004, 709, 709.0000000000001, 710, -710, 1.0 / (1 << 28), 1 << 28, (1 << 28) + 1,
		0.9999999999999999, -0.9999999999999999, 1.0000000000000002, math.Inf(1), math.Inf(-1), math.NaN(),
		math.SmallestNonzeroFloat64, 0x1p-1023, 0x1p-1022, math.MaxFloat64, -3,
		// log2: powers of 2; acosh: the ends of its branches
		0x1p-30, 4, 0x1p100, 0x1p-1000, 1.5, 1.0000000000000002, 2.0000000000000004, 0x1p28 - 1} {
		x64 = append(x64, v, -v)
	}
	for range 100000 {
		x64 = append(x64,
			math.Float64frombits(rng.Uint64()),
			rng.Float64()*4-2, rng.Float64()*60-30, rng.NormFloat64()*1e3,
			math.Ldexp(rng.Float64(), rng.Intn(80)-40))
	}
	x32 := make([]float32, len(x64))
	for i, v := range x64 {
		x32[i] = float32(v)
	}
	for _, o := range []backend.Op{backend.OpLog10, backend.OpCosh, backend.OpSinh, backend.OpAtanh, backend.OpAsinh,
		backend.OpAcosh, backend.OpLog2} {
		node := &backend.Node{Op: o}
		k, ref := composedKernel[float64](o), floatKernel[float64](node)
		if k == nil && o == backend.OpLog2 && goFusesMulAdd {
			continue
		}
		got, want := make([]float64, len(x64)), make([]float64, len(x64))
		if err := k(got, []any{x64}); err != nil {
			t.Fatal(err)
		}
		if err := ref(want, []any{x64}); err != nil {
			t.Fatal(err)
		}
		for i := range got {
			if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
				t.Fatalf("%v(%v) float64 = %v (%#x), scalar %v (%#x)", o, x64[i], got[i], math.Float64bits(got[i]), want[i], math.Float64bits(want[i]))
			}
		}
		k32, ref32 := composedKernel[float32](o), floatKernel[float32](node)
		g32, w32 := make([]float32, len(x32)), make([]float32, len(x32))
		if err := k32(g32, []any{x32}); err != nil {
			t.Fatal(err)
		}
		if err := ref32(w32, []any{x32}); err != nil {
			t.Fatal(err)
		}
		for i := range g32 {
			if math.Float32bits(g32[i]) != math.Float32bits(w32[i]) {
				t.Fatalf("%v(%v) float32 = %v, scalar %v", o, x32[i], g32[i], w32[i])
			}
		}
	}
	if composedKernel[float64](backend.OpTan) != nil {
		t.Errorf("tan has no composed kernel")
	}
}
