package cpu

import (
	"bytes"
	"math"
	"math/rand"
	"testing"

	"github.com/tensorsh/tensorsh/backend"
	"github.com/tensorsh/tensorsh/dtypes"
)

// cpairwiseRef is cpairwise with its leaf in Go alone: NumPy's pairwise
// summation of complex numbers (numpy/_core/src/umath/loops_utils.h.src,
// pairwise_sum for complex types: four complex accumulators r[j] = a[j],
// r[j] += a[i+j], ((r0 + r1) + (r2 + r3)), then the rest one by one,
// blocks of up to 64 numbers halved at (n - n%8)/2).
func cpairwiseRef[T complex64 | complex128](a []T) T {
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
	n2 := (n - n%8) / 2
	return cpairwiseRef(a[:n2]) + cpairwiseRef(a[n2:])
}

// TestCpairwise checks cpairwise (the vector leaf of complex128 where the
// CPU has one) against cpairwiseRef bit for bit, on every length to 300
// and longer ones, at every start offset to 3, with values of mixed
// magnitudes (where the order of the additions shows in the bits), and
// with NaNs of distinct payloads, infinities of both signs and signed
// zeros (where the order of the operands shows).
func TestCpairwise(t *testing.T) {
	rng := rand.New(rand.NewSource(38))
	val := func() float64 {
		switch rng.Intn(40) {
		case 0:
			return math.Float64frombits(0x7FF8000000000000 | rng.Uint64()&0xFFFFF)
		case 1:
			return math.Inf(1 - 2*rng.Intn(2))
		case 2:
			return math.Copysign(0, -1)
		}
		return math.Ldexp(rng.NormFloat64(), rng.Intn(60)-30)
	}
	for _, special := range []bool{false, true} {
		for _, n := range append(rangeInts(301), 1000, 4099, 65536+17) {
			a := make([]complex128, n+3)
			for i := range a {
				re, im := math.Ldexp(rng.NormFloat64(), rng.Intn(60)-30), math.Ldexp(rng.NormFloat64(), rng.Intn(60)-30)
				if special {
					re, im = val(), val()
				}
				a[i] = complex(re, im)
			}
			for off := range 4 {
				s := a[off : off+n]
				got, want := cpairwise(s), cpairwiseRef(s)
				if math.Float64bits(real(got)) != math.Float64bits(real(want)) || math.Float64bits(imag(got)) != math.Float64bits(imag(want)) {
					t.Fatalf("n %d off %d special %v: %v, want %v", n, off, special, got, want)
				}
				s64 := make([]complex64, n)
				for i, v := range s {
					s64[i] = complex64(v)
				}
				g64, w64 := cpairwise(s64), cpairwiseRef(s64)
				if math.Float32bits(real(g64)) != math.Float32bits(real(w64)) || math.Float32bits(imag(g64)) != math.Float32bits(imag(w64)) {
					t.Fatalf("complex64 n %d off %d: %v, want %v", n, off, g64, w64)
				}
			}
		}
	}
}

// TestComplexSumKernels checks complex sums and means along every axis set
// of 2-d and 3-d inputs, whole and along axes that are not the last
// (where the float kernels add the parts, complexAddKernels), of the
// inputs and of a fused expression of them (rows of 5000, longer than a
// block, take the step one row at a time), against the
// same reductions with the Go loops alone (fastReduce off), bit for bit,
// for complex64 and complex128, with NaNs of distinct payloads,
// infinities and signed zeros among the values.
func TestComplexSumKernels(t *testing.T) {
	defer func(f bool) { fastReduce = f }(fastReduce)
	rng := rand.New(rand.NewSource(39))
	val := func() float64 {
		switch rng.Intn(50) {
		case 0:
			return math.Float64frombits(0x7FF8000000000000 | rng.Uint64()&0xFFFFF)
		case 1:
			return math.Inf(1 - 2*rng.Intn(2))
		case 2:
			return math.Copysign(0, -1)
		}
		return math.Ldexp(rng.NormFloat64(), rng.Intn(40)-20)
	}
	for _, shape := range [][]int{{300, 7}, {7, 300}, {130, 33}, {3, 5000}, {5, 9, 70}, {40, 3, 11}} {
		n := 1
		for _, s := range shape {
			n *= s
		}
		c128, c64 := make([]complex128, n), make([]complex64, n)
		for i := range c128 {
			c128[i] = complex(val(), val())
			c64[i] = complex64(c128[i])
		}
		axesSets := [][]int{nil, {0}, {1}, {0, 1}}
		if len(shape) == 3 {
			axesSets = append(axesSets, []int{2}, []int{0, 2}, []int{1, 2})
		}
		for _, x := range []*backend.Tensor{raw(dtypes.C128, shape, c128), raw(dtypes.C64, shape, c64)} {
			for _, o := range []backend.Op{backend.OpSum, backend.OpMean} {
				for _, axes := range axesSets {
					// x itself, and x + x read block by block (a fused
					// source, whose rows the kernels take one at a time).
					for _, src := range []func() *backend.Node{func() *backend.Node { return in(x) },
						func() *backend.Node { return nb(backend.OpAdd, in(x), in(x)) }} {
						fastReduce = true
						got := run(t, red(o, x.DType, src(), false, axes...))
						fastReduce = false
						want := run(t, red(o, x.DType, src(), false, axes...))
						if !bytes.Equal(bufBytes(got.Data), bufBytes(want.Data)) {
							t.Fatalf("%v %v of %v axes %v: %v, want %v", o, x.DType, shape, axes, got.Data, want.Data)
						}
					}
				}
			}
		}
	}
}
