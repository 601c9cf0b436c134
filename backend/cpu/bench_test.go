package cpu

import (
	"context"
	"testing"

	"github.com/tensorsh/tensorsh/backend"
	"github.com/tensorsh/tensorsh/dtypes"
)

func benchInputs(d dtypes.DType, n int) (a, b, c *backend.Node) {
	v := seq(n, 0, 0.001)
	return in(mk(d, []int{n}, v...)), in(mk(d, []int{n}, v...)), in(mk(d, []int{n}, v...))
}

func benchRun(b *testing.B, n *backend.Node, elems int) {
	be := New()
	ctx := context.Background()
	b.SetBytes(int64(elems) * 4)
	b.ResetTimer()
	for b.Loop() {
		if _, err := be.Run(ctx, n); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAddMul evaluates a*b+c over 10^6 float32 elements (one fused
// pass).
func BenchmarkAddMul(b *testing.B) {
	const n = 1000000
	x, y, z := benchInputs(dtypes.F32, n)
	benchRun(b, nb(backend.OpAdd, nb(backend.OpMul, x, y), z), n)
}

// BenchmarkAddMulF16 is a*b+c in float16 (decode, compute in float32,
// round after each operation, encode).
func BenchmarkAddMulF16(b *testing.B) {
	const n = 1000000
	x, y, z := benchInputs(dtypes.F16, n)
	benchRun(b, nb(backend.OpAdd, nb(backend.OpMul, x, y), z), n)
}

// BenchmarkBroadcastAdd adds a row to every row of a 1000×1000 float32
// matrix.
func BenchmarkBroadcastAdd(b *testing.B) {
	x := in(mk(dtypes.F32, []int{1000, 1000}, seq(1000000, 0, 1)...))
	r := in(mk(dtypes.F32, []int{1000}, seq(1000, 0, 1)...))
	benchRun(b, nb(backend.OpAdd, x, r), 1000000)
}

// BenchmarkExp is exp over 10^6 float32 elements.
func BenchmarkExp(b *testing.B) {
	x, _, _ := benchInputs(dtypes.F32, 1000000)
	benchRun(b, nu(backend.OpExp, x), 1000000)
}

// BenchmarkSum is a full float32 sum of 10^6 elements.
func BenchmarkSum(b *testing.B) {
	x, _, _ := benchInputs(dtypes.F32, 1000000)
	benchRun(b, red(backend.OpSum, dtypes.F32, x, false), 1000000)
}

// BenchmarkMatMul is a 256×256 float32 product.
func BenchmarkMatMul(b *testing.B) {
	x := in(mk(dtypes.F32, []int{256, 256}, seq(65536, 0, 0.001)...))
	benchRun(b, mm(x, x, []int{256, 256}), 65536)
}

// BenchmarkSumMul is sum(a*b) over 10^6 float32 elements, fused.
func BenchmarkSumMul(b *testing.B) {
	x, y, _ := benchInputs(dtypes.F32, 1000000)
	benchRun(b, red(backend.OpSum, dtypes.F32, nb(backend.OpMul, x, y), false), 1000000)
}
