package cpu

import (
	"testing"

	"github.com/tensorsh/tensorsh/backend"
	"github.com/tensorsh/tensorsh/dtypes"
)

// TestF16TreeTable checks the table path of one-operand float16 trees
// (f16Leaf, f16TreeTable) on every float16 bit pattern (NaN payloads,
// ±Inf, ±0, subnormals): a tree of f16TableMin elements or more, which
// is looked up, gives the bits of the same tree on fewer elements, which
// the kernels compute block by block.
func TestF16TreeTable(t *testing.T) {
	const m = 1 << 16
	small := make([]uint16, m)
	for i := range small {
		small[i] = uint16(i)
	}
	// Every pattern at two offsets, then a few thousand more.
	n := 2*m + 4321
	large := make([]uint16, n)
	for i := range large {
		large[i] = uint16(i*40503 + 7) // odd multiplier: a permutation
	}
	if n < f16TableMin || m >= f16TableMin {
		t.Fatalf("sizes %d and %d do not straddle f16TableMin", n, m)
	}
	ops := []backend.Op{backend.OpExp, backend.OpLog, backend.OpSin, backend.OpCos, backend.OpTanh,
		backend.OpLog1p, backend.OpSigmoid, backend.OpRsqrt, backend.OpSqrt, backend.OpAbs, backend.OpNeg, backend.OpFloor}
	for _, o := range ops {
		for _, chain := range []bool{false, true} {
			tree := func(d []uint16) *backend.Node {
				x := in(raw(dtypes.F16, []int{len(d)}, d))
				if chain {
					x = nu(backend.OpNeg, x)
				}
				return nu(o, x)
			}
			want := run(t, tree(small)).Data.([]uint16)
			got := run(t, tree(large)).Data.([]uint16)
			for i, b := range large {
				if got[i] != want[b] {
					t.Fatalf("%v (after - : %v) of float16 bits %#04x: got %#04x, want %#04x", o, chain, b, got[i], want[b])
				}
			}
		}
	}
}
