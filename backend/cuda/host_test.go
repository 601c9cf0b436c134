//go:build linux

package cuda

import (
	"context"
	"fmt"
	"math"
	"math/rand"
	"os"
	"slices"
	"testing"

	"github.com/tensorsh/tensorsh/backend"
	"github.com/tensorsh/tensorsh/backend/conformance"
	"github.com/tensorsh/tensorsh/backend/cpu"
	"github.com/tensorsh/tensorsh/dtypes"
)

func TestHostSmoke(t *testing.T) {
	b, _ := newHostBackend(t)
	a := in(&backend.Tensor{DType: dtypes.F32, Shape: []int{2, 3}, Data: []float32{1, 2, 3, 4, 5, 6}})
	c := in(&backend.Tensor{DType: dtypes.F32, Shape: []int{3}, Data: []float32{10, 20, 30}})
	n := nb(backend.OpMul, nb(backend.OpAdd, a, c), c)
	res, err := b.Run(context.Background(), n)
	if err != nil {
		t.Fatal(err)
	}
	got, err := b.Fetch(res)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := cpu.New().Run(context.Background(), n)
	t.Logf("got %v want %v", got.Data, want.Data)
	if !equalData(got.Data, want.Data) {
		t.Fatalf("got %v want %v", got.Data, want.Data)
	}
}

// TestHostConformance runs the conformance suite on the backend with the
// host device: every generated kernel, compiled with g++, against the
// CPU backend.
//
// Every kernel is its own g++ run, so the full tables (every dtype) take
// many minutes on a fresh 2-core machine whose kernel cache is empty. The
// suite's short tables (ten dtypes that stand for all) run by default, as
// part of make test; TENSORSH_HOST_FULL=1 (make test-cuda-host) runs the
// full ones; go test -short skips the test.
func TestHostConformance(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: compiles hundreds of kernels with g++ (make test runs it)")
	}
	b, d := newHostBackend(t)
	full := os.Getenv("TENSORSH_HOST_FULL") == "1"
	conformance.RunOptions(t, b, conformance.Options{Short: !full})
	t.Logf("%d kernel sources compiled (full tables: %v)", d.compiles, full)
}

// TestHostPiecesUnsplit checks the sums in pieces of backend.SumPiece of
// the kernel that sums each output on one thread, which the conformance
// suite's long runs (few outputs, split among threads) do not reach.
func TestHostPiecesUnsplit(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: compiles kernels with g++")
	}
	defer func(n int) { redManyOutputs = n }(redManyOutputs)
	redManyOutputs = 1
	b, _ := newHostBackend(t)
	rng := rand.New(rand.NewSource(1))
	for _, tc := range []struct {
		d     dtypes.DType
		shape []int
		axes  []int
	}{{dtypes.F32, []int{3, 20000}, []int{1}}, {dtypes.F16, []int{2, 2, 8200}, []int{0, 2}}, {dtypes.F64, []int{1 << 17}, nil}} {
		x := randTensor(rng, tc.d, tc.shape)
		p, err := backend.PlanReduce(tc.shape, tc.axes, false)
		if err != nil {
			t.Fatal(err)
		}
		n := &backend.Node{Op: backend.OpSum, DType: tc.d, Shape: p.OutShape, Axes: tc.axes, Args: []*backend.Node{in(x)}}
		got, want := hostAndCPU(t, b, n)
		if !equalData(got.Data, want.Data) {
			t.Errorf("sum of %v%v over %v: got %v, want %v", tc.d, tc.shape, tc.axes, got.Data, want.Data)
		}
	}
}

// randTensor returns a tensor of d (float32, float64 or float16) of
// uniform values in [0, 1), which round when added.
func randTensor(rng *rand.Rand, d dtypes.DType, shape []int) *backend.Tensor {
	n := backend.Size(shape)
	t := &backend.Tensor{DType: d, Shape: shape}
	switch d {
	case dtypes.F32:
		s := make([]float32, n)
		for i := range s {
			s[i] = rng.Float32()
		}
		t.Data = s
	case dtypes.F64:
		s := make([]float64, n)
		for i := range s {
			s[i] = rng.Float64()
		}
		t.Data = s
	default:
		s := make([]uint16, n)
		for i := range s {
			s[i] = dtypes.F16FromFloat64(rng.Float64())
		}
		t.Data = s
	}
	return t
}

// TestHostNarrowMatMul checks that float16 products give the CPU
// backend's bits (float32 sums of exact products, rounded once), which
// the conformance suite's tolerance for products would not tell apart
// from float64 sums.
func TestHostNarrowMatMul(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: compiles kernels with g++")
	}
	b, _ := newHostBackend(t)
	rng := rand.New(rand.NewSource(2))
	x, y := randTensor(rng, dtypes.F16, []int{40, 300}), randTensor(rng, dtypes.F16, []int{300, 30})
	n := &backend.Node{Op: backend.OpMatMul, DType: dtypes.F16, Shape: []int{40, 30}, Args: []*backend.Node{in(x), in(y)}}
	got, want := hostAndCPU(t, b, n)
	if !equalData(got.Data, want.Data) {
		t.Errorf("float16 product: the host kernel's bits differ from the CPU backend's")
	}
}

// TestHostDotLanes checks that long dots of float32 and float64 vectors,
// which sum in lanes (backend.MatMulPlan.InLanes), give the CPU backend's
// bits: for float32 the conformance suite's tolerance would not tell its
// lanes apart from a float64 sum.
func TestHostDotLanes(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: compiles kernels with g++")
	}
	b, _ := newHostBackend(t)
	rng := rand.New(rand.NewSource(3))
	for _, d := range []dtypes.DType{dtypes.F32, dtypes.F64} {
		for _, s := range [][3][]int{{{5000}, {5000}, {}}, {{3, 1, 1055}, {3, 1055, 1}, {3, 1, 1}}} {
			x, y := randTensor(rng, d, s[0]), randTensor(rng, d, s[1])
			n := &backend.Node{Op: backend.OpMatMul, DType: d, Shape: s[2], Args: []*backend.Node{in(x), in(y)}}
			got, want := hostAndCPU(t, b, n)
			if !equalData(got.Data, want.Data) {
				t.Errorf("%v %v@%v: got %v, want the CPU backend's %v", d, s[0], s[1], got.Data, want.Data)
			}
		}
	}
}

// TestHostMinMaxTies checks the kernels of maximum and minimum on ties of
// signed zeros against the CPU backend's, bit for bit: b for float32 and
// float64, a for float16 (NumPy's loops).
func TestHostMinMaxTies(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: compiles kernels with g++")
	}
	b, _ := newHostBackend(t)
	neg := math.Copysign(0, -1)
	xs, ys := []float64{0, neg, 0, neg, 1, neg}, []float64{neg, 0, 0, neg, neg, 2}
	for _, d := range []dtypes.DType{dtypes.F32, dtypes.F64, dtypes.F16} {
		for _, o := range []backend.Op{backend.OpMax, backend.OpMin} {
			x, y := floatsOf(d, xs), floatsOf(d, ys)
			n := &backend.Node{Op: o, DType: d, Shape: []int{len(xs)}, Args: []*backend.Node{in(x), in(y)}}
			got, want := hostAndCPU(t, b, n)
			if fmt.Sprintf("%x", bitsOf(got.Data)) != fmt.Sprintf("%x", bitsOf(want.Data)) {
				t.Errorf("%v of %v: %x, the CPU backend's %x", o, d, bitsOf(got.Data), bitsOf(want.Data))
			}
		}
	}
}

// floatsOf returns a tensor of d (float32, float64 or float16) holding vs.
func floatsOf(d dtypes.DType, vs []float64) *backend.Tensor {
	t := &backend.Tensor{DType: d, Shape: []int{len(vs)}}
	switch d {
	case dtypes.F32:
		s := make([]float32, len(vs))
		for i, v := range vs {
			s[i] = float32(v)
		}
		t.Data = s
	case dtypes.F64:
		t.Data = slices.Clone(vs)
	default:
		s := make([]uint16, len(vs))
		for i, v := range vs {
			s[i] = dtypes.F16FromFloat64(v)
		}
		t.Data = s
	}
	return t
}

// bitsOf returns the bits of a float32, float64 or float16 slice.
func bitsOf(data any) []uint64 {
	var out []uint64
	switch s := data.(type) {
	case []float32:
		for _, v := range s {
			out = append(out, uint64(math.Float32bits(v)))
		}
	case []float64:
		for _, v := range s {
			out = append(out, math.Float64bits(v))
		}
	case []uint16:
		for _, v := range s {
			out = append(out, uint64(v))
		}
	}
	return out
}

// hostAndCPU runs n on the host device's backend b and on the CPU backend
// and returns both results, on the host.
func hostAndCPU(t *testing.T, b *Backend, n *backend.Node) (got, want *backend.Tensor) {
	t.Helper()
	res, err := b.Run(context.Background(), n)
	if err != nil {
		t.Fatal(err)
	}
	if got, err = b.Fetch(res); err != nil {
		t.Fatal(err)
	}
	if want, err = cpu.New().Run(context.Background(), n); err != nil {
		t.Fatal(err)
	}
	return got, want
}

// TestHostScaledCAbs checks complex abs as NumPy's SIMD loop computes it
// (Node.ScaledCAbs, the prelude's ts_cabs_scaled) against the CPU
// backend, bit for bit: random parts of both signs and many magnitudes,
// zeros, infinities and NaNs in either part, for complex64 and
// complex128; and that the fma is fused (a value where it matters).
func TestHostScaledCAbs(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: compiles kernels with g++")
	}
	b, _ := newHostBackend(t)
	rng := rand.New(rand.NewSource(7))
	inf, nan := math.Inf(1), math.NaN()
	edges := []float64{0, math.Copysign(0, -1), 1, -3, inf, -inf, nan, 1e-40, 3e38, 1e300}
	var re, im []float64
	for _, x := range edges {
		for _, y := range edges {
			re, im = append(re, x), append(im, y)
		}
	}
	for range 2000 {
		re = append(re, (rng.Float64()*2-1)*math.Pow(10, float64(rng.Intn(20)-10)))
		im = append(im, (rng.Float64()*2-1)*math.Pow(10, float64(rng.Intn(20)-10)))
	}
	for _, d := range []dtypes.DType{dtypes.C64, dtypes.C128} {
		x := &backend.Tensor{DType: d, Shape: []int{len(re)}}
		if d == dtypes.C64 {
			s := make([]complex64, len(re))
			for i := range s {
				s[i] = complex(float32(re[i]), float32(im[i]))
			}
			x.Data = s
		} else {
			s := make([]complex128, len(re))
			for i := range s {
				s[i] = complex(re[i], im[i])
			}
			x.Data = s
		}
		n := &backend.Node{Op: backend.OpAbs, DType: d.Real(), Shape: x.Shape, Args: []*backend.Node{in(x)}, ScaledCAbs: true}
		got, want := hostAndCPU(t, b, n)
		if fmt.Sprintf("%x", bitsOf(got.Data)) != fmt.Sprintf("%x", bitsOf(want.Data)) {
			g, w := bitsOf(got.Data), bitsOf(want.Data)
			for i := range g {
				if g[i] != w[i] {
					t.Errorf("%v: |%g%+gi|: %x, the CPU backend's %x (and maybe more)", d, re[i], im[i], g[i], w[i])
					break
				}
			}
		}
	}
}
