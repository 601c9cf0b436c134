package cpu

import (
	"bytes"
	"math"
	"testing"
	"unsafe"

	"github.com/tensorsh/tensorsh/backend"
	"github.com/tensorsh/tensorsh/dtypes"
)

// TestConstBlocks checks trees with a constant operand, whose blocks are
// kept across statements (constBuf), against the same trees with the
// constant stored in full (read in place): bit for bit, over more values
// than there are slots, lengths that need shorter and longer blocks than
// the one kept, NaN payloads and signed zeros, a constant read twice, and
// statements in between whose scratch buffers would overwrite a kept block
// given back by mistake.
func TestConstBlocks(t *testing.T) {
	nan32 := math.Float32frombits(0x7fc01234)
	nan64 := math.Float64frombits(0x7ff8000000abcdef)
	type value struct {
		d    dtypes.DType
		data func(n int) any // storage of n copies of the value
	}
	var values []value
	for i := range 3 * constSlots {
		i32, f32 := int32(i*7-20), float32(i)*0.25-1
		values = append(values,
			value{dtypes.I32, func(n int) any { return fill(n, i32) }},
			value{dtypes.F32, func(n int) any { return fill(n, f32) }})
	}
	values = append(values,
		value{dtypes.F32, func(n int) any { return fill(n, nan32) }},
		value{dtypes.F32, func(n int) any { return fill(n, float32(math.Copysign(0, -1))) }},
		value{dtypes.F64, func(n int) any { return fill(n, nan64) }},
		value{dtypes.F64, func(n int) any { return fill(n, math.Copysign(0, -1)) }},
		value{dtypes.I8, func(n int) any { return fill(n, int8(-128)) }},
		value{dtypes.F16, func(n int) any { return fill(n, uint16(0x7e05)) }}, // NaN payload
		value{dtypes.F16, func(n int) any { return fill(n, uint16(0x8000)) }}, // -0
		value{dtypes.C128, func(n int) any { return fill(n, complex(nan64, -1.5)) }})
	sizes := []int{1, 7, 100, 4096, 5000, 10000, 20000, 70000, 3}
	be := New()
	run := func(n *backend.Node) []byte {
		t.Helper()
		res, err := be.Run(t.Context(), n)
		if err != nil {
			t.Fatalf("Run: %v", err)
		}
		return bytes.Clone(bufBytes(res.Data))
	}
	for round := range 2 {
		for si, size := range sizes {
			for vi, v := range values {
				if (vi+si+round)%3 != 0 && size > 100 {
					continue // a sample of the large cases
				}
				shape := []int{size}
				x := in(mk(v.d, shape, seq(size, -3, 0.5)...))
				c := in(raw(v.d, nil, v.data(1)))
				full := in(raw(v.d, shape, v.data(size)))
				trees := []func(c *backend.Node) *backend.Node{
					func(c *backend.Node) *backend.Node { return nb(backend.OpMax, x, c) },
					func(c *backend.Node) *backend.Node { return nb(backend.OpSub, c, x) },
					func(c *backend.Node) *backend.Node { return nb(backend.OpAdd, nb(backend.OpMul, c, c), x) },
				}
				if v.d.IsComplex() {
					trees = trees[1:] // no maximum of complex numbers
				}
				for ti, tree := range trees {
					got, want := run(tree(c)), run(tree(full))
					if !bytes.Equal(got, want) {
						t.Fatalf("round %d, %v value %d, size %d, tree %d: constant gives %x…, stored in full %x…",
							round, v.d, vi, size, ti, got[:min(16, len(got))], want[:min(16, len(want))])
					}
				}
				// Scratch buffers of this compute type and block length.
				y := in(mk(v.d, shape, seq(size, 1, 1)...))
				run(nb(backend.OpMul, nb(backend.OpAdd, x, y), y))
			}
		}
	}
}

func fill[T any](n int, v T) []T {
	s := make([]T, n)
	for i := range s {
		s[i] = v
	}
	return s
}

// TestWorkerReuse runs trees of different sizes and node counts one after
// another, so that pooled workers serve trees other than the one they were
// made for.
func TestWorkerReuse(t *testing.T) {
	be := New()
	for i := range 40 {
		size := []int{5, 70000, 300, 4096}[i%4]
		x := in(mk(dtypes.F64, []int{size}, seq(size, 0, 1)...))
		y := in(mk(dtypes.F64, []int{1, size}, seq(size, 2, -1)...))
		var n *backend.Node
		var want func(j int) float64
		switch i % 3 {
		case 0:
			n = nb(backend.OpAdd, x, y)
			want = func(j int) float64 { return float64(j) + float64(2-j) }
		case 1:
			n = nb(backend.OpMul, nb(backend.OpSub, x, y), nb(backend.OpAdd, x, x))
			want = func(j int) float64 { return (float64(j) - float64(2-j)) * (2 * float64(j)) }
		default:
			n = nu(backend.OpNeg, nb(backend.OpMul, y, y))
			want = func(j int) float64 { return -float64(2-j) * float64(2-j) }
		}
		res, err := be.Run(t.Context(), n)
		if err != nil {
			t.Fatal(err)
		}
		got := res.Data.([]float64)
		for j := range size {
			if got[j] != want(j) {
				t.Fatalf("statement %d (size %d): element %d is %v, want %v", i, size, j, got[j], want(j))
			}
		}
		be.Recycle(res)
	}
}

// TestManyLeaves checks a tree with more leaves than leafScan and the
// fusion holds, one of them read again once leafFor is in use.
func TestManyLeaves(t *testing.T) {
	const size = 5
	var xs []*backend.Node
	for i := range 12 {
		xs = append(xs, in(mk(dtypes.I64, []int{size}, seq(size, float64(i), 1)...)))
	}
	n := xs[0]
	for _, x := range xs[1:] {
		n = nb(backend.OpAdd, n, x)
	}
	n = nb(backend.OpMul, n, xs[3]) // xs[3] is the 4th leaf; leafFor is in use by now
	got := run(t, n).Data.([]int64)
	for j := range size {
		sum := int64(0)
		for i := range 12 {
			sum += int64(i + j)
		}
		if want := sum * int64(3+j); got[j] != want {
			t.Errorf("element %d is %d, want %d", j, got[j], want)
		}
	}
}

// TestOffsetBuf checks where a constant's block starts: constPageOffset
// into a page (see there), for every compute type, with the length asked
// for, so that its loads never share their low 12 bits with the page-
// aligned operand and result blocks at the same step.
func TestOffsetBuf(t *testing.T) {
	for _, ct := range []ctype{ctBool, ctI8, ctI16, ctI32, ctI64, ctU8, ctF32, ctF64, ctC64, ctC128} {
		for _, n := range []int{1, 1000, 1024, 4096} {
			buf := offsetBuf(ct, n)
			if got := bufLen(buf); got != n {
				t.Errorf("%v: %d elements, want %d", ct, got, n)
			}
			addr := uintptr(unsafe.Pointer(unsafe.SliceData(bufBytes(buf))))
			if addr%4096 != constPageOffset {
				t.Errorf("%v, %d elements: the block starts %d bytes into its page, want %d", ct, n, addr%4096, constPageOffset)
			}
		}
	}
}
