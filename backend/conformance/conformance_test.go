package conformance

import (
	"context"
	"fmt"
	"math/rand"
	"reflect"
	"testing"

	"github.com/tensorsh/tensorsh/backend"
	"github.com/tensorsh/tensorsh/backend/cpu"
	"github.com/tensorsh/tensorsh/dtypes"
)

// TestCPU runs the suite on the CPU backend itself (with a different
// worker count, so that it checks that results do not depend on the
// parallel split).
func TestCPU(t *testing.T) {
	Run(t, cpu.New(cpu.Workers(3)))
}

// wideProducts is the CPU backend with float32 products accumulated in
// float64 and rounded once (as the CUDA backend computes them): what the
// tolerance of productTol must accept.
type wideProducts struct {
	*cpu.Backend
	differs bool // some product differed from the CPU's in its bits
}

func (w *wideProducts) Run(ctx context.Context, n *backend.Node) (*backend.Tensor, error) {
	if n.Op != backend.OpMatMul || n.Args[0].DType != dtypes.F32 {
		return w.Backend.Run(ctx, n)
	}
	wide := &backend.Node{Op: backend.OpMatMul, DType: dtypes.F64, Shape: n.Shape,
		Args: []*backend.Node{castNode(n.Args[0], dtypes.F64), castNode(n.Args[1], dtypes.F64)}}
	got, err := w.Backend.Run(ctx, castNode(wide, n.DType))
	if err != nil {
		return nil, err
	}
	if own, err := w.Backend.Run(ctx, n); err == nil && !reflect.DeepEqual(own.Data, got.Data) {
		w.differs = true
	}
	return got, nil
}

// TestProductTolerance runs the matmul cases against float64 sums of
// float32 products: within the bound of productTol, and, so that the test
// means something, different in some bits from the CPU's float32 sums.
func TestProductTolerance(t *testing.T) {
	w := &wideProducts{Backend: cpu.New()}
	c := &checker{b: w, ref: cpu.New()}
	t.Run("matmul", c.matmul)
	// The table's operands are multiples of 1/256 whose short sums are
	// mostly exact in float32; longer sums of arbitrary values are not.
	rng := rand.New(rand.NewSource(1))
	for _, k := range []int{10, 100, 1000} {
		a, b := make([]float64, 8*k), make([]float64, k*9)
		for i := range a {
			a[i] = rng.NormFloat64()
		}
		for i := range b {
			b[i] = rng.NormFloat64()
		}
		x := castNode(input(&backend.Tensor{DType: dtypes.F64, Shape: []int{8, k}, Data: a}), dtypes.F32)
		y := castNode(input(&backend.Tensor{DType: dtypes.F64, Shape: []int{k, 9}, Data: b}), dtypes.F32)
		for _, d := range []dtypes.DType{dtypes.F32, dtypes.F16} {
			n := &backend.Node{Op: backend.OpMatMul, DType: d, Shape: []int{8, 9}, Args: []*backend.Node{x, y}}
			c.check(t, fmt.Sprintf("(8,%d)@(%d,9) into %v", k, k, d), n, c.productTol(t, n))
		}
	}
	if !w.differs {
		t.Errorf("no float32 product differed between float32 and float64 sums")
	}
}
