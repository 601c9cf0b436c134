package cpu

import (
	"testing"

	"github.com/tensorsh/tensorsh/backend"
	"github.com/tensorsh/tensorsh/dtypes"
)

// TestSignBits checks abs and negation of float16 and bfloat16 inputs bit
// for bit, every pattern, in an input long enough for several workers:
// x & 0x7fff and x ^ 0x8000, NaN payloads kept. That is NumPy's float16
// (np.abs(np.uint16(0x7c01).view(np.float16)).view(np.uint16) is 0x7c01
// with Debian's NumPy 1.24, np.negative gives 0xfc01) and Eigen's
// bfloat16, which ml_dtypes' loops call (Eigen/src/Core/arch/Default/
// BFloat16.h: abs is a.value & 0x7FFF, operator- a.value ^ 0x8000).
func TestSignBits(t *testing.T) {
	const n = 1 << 20
	bits := make([]uint16, n+3)
	for i := range bits {
		bits[i] = uint16(i * 40503) // every pattern, in an odd order
	}
	for _, d := range []dtypes.DType{dtypes.F16, dtypes.BF16} {
		for _, size := range []int{n + 3, 5, 0} {
			x := &backend.Tensor{DType: d, Shape: []int{size}, Data: bits[:size]}
			for _, o := range []backend.Op{backend.OpAbs, backend.OpNeg} {
				got := run(t, nu(o, in(x)), Workers(4)).Data.([]uint16)
				for i, b := range bits[:size] {
					want := b & 0x7fff
					if o == backend.OpNeg {
						want = b ^ 0x8000
					}
					if got[i] != want {
						t.Fatalf("%v %v of %#04x: %#04x, want %#04x", o, d, b, got[i], want)
					}
				}
			}
		}
	}
	// Views are copied, then masked: a transpose, a strided slice.
	x := &backend.Tensor{DType: dtypes.F16, Shape: []int{512, 2048}, Data: bits[:n]}
	tr := &backend.Node{Op: backend.OpTranspose, DType: dtypes.F16, Shape: []int{2048, 512}, Axes: []int{1, 0}, Args: []*backend.Node{in(x)}}
	sl := &backend.Node{Op: backend.OpSlice, DType: dtypes.F16, Shape: []int{512, 1024}, Args: []*backend.Node{in(x)},
		Slices: []backend.Slice{{Start: 0, Stop: 512, Step: 1}, {Start: 1, Stop: 2048, Step: 2}}}
	for _, o := range []backend.Op{backend.OpAbs, backend.OpNeg} {
		for _, v := range []struct {
			node *backend.Node
			at   func(i int) int // the input element of output element i
		}{
			{tr, func(i int) int { return i%512*2048 + i/512 }},
			{sl, func(i int) int { return i/1024*2048 + 1 + 2*(i%1024) }},
		} {
			got := run(t, nu(o, v.node), Workers(4)).Data.([]uint16)
			for i, g := range got {
				b := bits[v.at(i)]
				want := b & 0x7fff
				if o == backend.OpNeg {
					want = b ^ 0x8000
				}
				if g != want {
					t.Fatalf("%v of a %v view, element %d (%#04x): %#04x, want %#04x", o, v.node.Op, i, b, g, want)
				}
			}
		}
	}

	// Within a fused tree the operation converts, and the numbers are
	// the same.
	x = &backend.Tensor{DType: dtypes.F16, Shape: []int{1 << 16}, Data: bits[:1<<16]}
	for _, o := range []backend.Op{backend.OpAbs, backend.OpNeg} {
		direct := run(t, nu(o, in(x))).Data.([]uint16)
		fused := run(t, nu(o, nu(backend.OpNeg, nu(backend.OpNeg, in(x))))).Data.([]uint16)
		for i := range direct {
			if direct[i]&0x7c00 == 0x7c00 && direct[i]&0x3ff != 0 {
				continue // NaN: the payload may differ
			}
			if direct[i] != fused[i] {
				t.Fatalf("%v of %#04x: %#04x alone, %#04x fused", o, bits[i], direct[i], fused[i])
			}
		}
	}
}
