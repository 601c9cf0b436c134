package cpu

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/tensorsh/tensorsh/backend"
	"github.com/tensorsh/tensorsh/dtypes"
)

// TestSortedRange checks slices of a sort along its axis, which the
// backend selects rather than sorts (SortedRange), against the elements
// of the whole sort (which TestSort checks against a stable sort), bit
// for bit: random bits of every dtype, half the time drawn from a few
// patterns (equal elements, ±0 and NaNs of several payloads, many), along
// every axis, on lines shorter and longer than sampleMin (bools, bytes
// and complex numbers are left to Sort); the places of a
// median, the first and the last place, a few at either end and inside,
// and one place dropped, as x[5] drops its axis.
func TestSortedRange(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	shapes := [][]int{{64}, {301}, {5, 130}, {130, 3}, {3, 70, 4}}
	long := [][]int{{20000}, {40001}, {2, 17000}}
	for _, d := range sortDTypes {
		shapes := shapes
		switch d {
		case dtypes.I16, dtypes.U32, dtypes.I64, dtypes.F16, dtypes.F32, dtypes.F64:
			// Lines long enough to be narrowed by a sample, for one
			// dtype of each kind of key (the others as these).
			shapes = append(shapes, long...)
		}
		for _, shape := range shapes {
			for ax := range shape {
				for _, pool := range []int{0, 3, 40} {
					testSortedRange(t, r, d, shape, ax, pool)
				}
			}
		}
	}
}

func testSortedRange(t *testing.T, r *rand.Rand, d dtypes.DType, shape []int, ax, pool int) {
	t.Helper()
	m := shape[ax]
	x := &backend.Tensor{DType: d, Shape: shape, Data: randomStorage(r, d, backend.Size(shape), pool)}
	sortOf := func() *backend.Node {
		return &backend.Node{Op: backend.OpSort, DType: d, Shape: shape, Axes: []int{ax}, Args: []*backend.Node{in(x)}}
	}
	sorted := run(t, sortOf())
	ranges := [][2]int{{0, 1}, {m - 1, m}, {(m - 1) / 2, m/2 + 1}, {m / 2, m/2 + 1}, {3, 13}, {m - 10, m}, {m / 3, m/3 + m/5}, {0, m}}
	for _, rg := range ranges {
		if rg[0] < 0 || rg[1] > m || rg[0] >= rg[1] {
			continue
		}
		for _, drop := range []bool{false, true} {
			if drop && rg[1]-rg[0] != 1 {
				continue
			}
			sl := make([]backend.Slice, len(shape))
			var out []int
			for i, n := range shape {
				sl[i] = backend.Slice{Start: 0, Stop: n, Step: 1}
				if i == ax {
					sl[i] = backend.Slice{Start: rg[0], Stop: rg[1], Step: 1, Drop: drop}
					if drop {
						continue
					}
					n = rg[1] - rg[0]
				}
				out = append(out, n)
			}
			got := run(t, &backend.Node{Op: backend.OpSlice, DType: d, Shape: out, Args: []*backend.Node{sortOf()}, Slices: sl})
			// Element (o, j, in) of got is element (o, from+j, in) of
			// the sort.
			inner := backend.Size(shape[ax+1:])
			k := rg[1] - rg[0]
			for i := range backend.Size(out) {
				o, j, in := i/(k*inner), i/inner%k, i%inner
				w := o*m*inner + (rg[0]+j)*inner + in
				if !sameElement(got, i, sorted, w) {
					t.Errorf("%v%v axis %d pool %d, places [%d, %d) drop %v: element %d is %v, the sort's %v",
						d, shape, ax, pool, rg[0], rg[1], drop, i, elementOf(got, i), elementOf(sorted, w))
					return
				}
			}
		}
	}
}

// TestSelectKeys checks selectKeys against a sorted copy of its keys:
// random keys of 16, 32 and 64 bits, from a few values or from all of
// them, every range of places of short windows and some of long ones,
// from its first round and past its 64th (where it radix sorts).
func TestSelectKeys(t *testing.T) {
	testSelectKeys[uint16](t)
	testSelectKeys[uint32](t)
	testSelectKeys[uint64](t)
}

func testSelectKeys[K uint16 | uint32 | uint64](t *testing.T) {
	r := rand.New(rand.NewSource(3))
	for _, n := range []int{1, 2, 33, 100, 5000, 70000} {
		for _, values := range []int{1, 2, 7, 0} {
			keys := make([]K, n)
			for i := range keys {
				keys[i] = K(r.Uint64())
				if values > 0 {
					keys[i] = K(r.Intn(values)) * (^K(0) / 6)
				}
			}
			want := slices.Clone(keys)
			slices.Sort(want)
			var ranges [][2]int
			if n <= 100 {
				for from := range n {
					for to := from + 1; to <= n; to++ {
						ranges = append(ranges, [2]int{from, to})
					}
				}
			} else {
				ranges = [][2]int{{0, 1}, {n - 1, n}, {n / 2, n/2 + 1}, {n/2 - 1, n/2 + 1}, {17, 40}, {n - 30, n}, {0, n}}
			}
			for _, rg := range ranges {
				for _, rounds := range []int{0, 65} {
					src, tmp := slices.Clone(keys), make([]K, n)
					got := make([]K, rg[1]-rg[0])
					selectKeys(src, tmp, 0, n, rg[0], rg[1], got, rg[0], rounds)
					if !slices.Equal(got, want[rg[0]:rg[1]]) {
						t.Fatalf("%T n=%d values=%d places %v rounds %d: got %.80v, want %.80v", keys[0], n, values, rg, rounds,
							fmt.Sprint(got), fmt.Sprint(want[rg[0]:rg[1]]))
					}
				}
			}
		}
	}
}

// FuzzSelect checks a slice of a sort, which the backend selects, against
// the whole sort, bit for bit, on float32 lines made from the fuzzer's
// bytes (NaNs of any payload, ±0, infinities and repeats, as the bytes
// make them) and a range of places; the seeds run with go test.
func FuzzSelect(f *testing.F) {
	f.Add([]byte{0, 0, 0x80, 0x7f, 0, 0, 0xc0, 0xff, 0, 0, 0, 0x80, 1, 2, 3, 4}, uint16(3), uint8(2))
	f.Add([]byte{0x3f}, uint16(0), uint8(0))
	f.Add([]byte{0, 0, 0, 0x80, 0, 0, 0, 0, 0, 0, 0, 0}, uint16(5), uint8(3))                 // -0, +0, +0: zeros in input order
	f.Add([]byte{1, 0, 0xc0, 0x7f, 0, 0, 0xc0, 0xff, 0, 0, 0x80, 0x3f}, uint16(60), uint8(3)) // two NaNs and 1.0
	f.Add([]byte{}, uint16(70), uint8(9))
	f.Add([]byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20}, uint16(40), uint8(200))
	f.Fuzz(func(t *testing.T, data []byte, from uint16, width uint8) {
		m := max(selectMin, len(data)/4)
		vals := make([]float32, m)
		for i := range vals {
			var b [4]byte
			for j := range b {
				if len(data) > 0 {
					b[j] = data[(4*i+j)%len(data)]
				}
			}
			vals[i] = math.Float32frombits(uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16 | uint32(b[3])<<24)
		}
		lo := int(from) % m
		hi := min(m, lo+1+int(width)%(m/4))
		x := &backend.Tensor{DType: dtypes.F32, Shape: []int{m}, Data: vals}
		sortOf := func() *backend.Node {
			return &backend.Node{Op: backend.OpSort, DType: dtypes.F32, Shape: []int{m}, Axes: []int{0}, Args: []*backend.Node{in(x)}}
		}
		sorted := run(t, sortOf())
		got := run(t, &backend.Node{Op: backend.OpSlice, DType: dtypes.F32, Shape: []int{hi - lo}, Args: []*backend.Node{sortOf()},
			Slices: []backend.Slice{{Start: lo, Stop: hi, Step: 1}}})
		for i := range hi - lo {
			if !sameElement(got, i, sorted, lo+i) {
				t.Fatalf("places [%d, %d) of %d: element %d is %v, the sort's %v", lo, hi, m, i, elementOf(got, i), elementOf(sorted, lo+i))
			}
		}
	})
}

// countdownCtx is a context whose Err is nil for its first n calls and
// context.Canceled after: a cancellation at every point of a run, in turn.
type countdownCtx struct {
	context.Context
	n atomic.Int64
}

func (c *countdownCtx) Err() error {
	if c.n.Add(-1) < 0 {
		return context.Canceled
	}
	return nil
}

// TestSortCanceled cancels a sort and a selection of long lines (each
// split between the workers) at every point the run asks its context, in
// turn: each run gives context.Canceled or the right elements, never an
// unfinished line (a part the workers skipped once the run was canceled).
func TestSortCanceled(t *testing.T) {
	r := rand.New(rand.NewSource(4))
	x := &backend.Tensor{DType: dtypes.F32, Shape: []int{40000}, Data: randomStorage(r, dtypes.F32, 40000, 0)}
	sortOf := func() *backend.Node {
		return &backend.Node{Op: backend.OpSort, DType: dtypes.F32, Shape: []int{40000}, Axes: []int{0}, Args: []*backend.Node{in(x)}}
	}
	want := run(t, sortOf())
	for _, c := range []struct {
		name string
		node func() *backend.Node
		from int
	}{
		{"sort", sortOf, 0},
		{"median's places", func() *backend.Node {
			return &backend.Node{Op: backend.OpSlice, DType: dtypes.F32, Shape: []int{2}, Args: []*backend.Node{sortOf()},
				Slices: []backend.Slice{{Start: 19999, Stop: 20001, Step: 1}}}
		}, 19999},
		{"the last place", func() *backend.Node {
			return &backend.Node{Op: backend.OpSlice, DType: dtypes.F32, Shape: []int{1}, Args: []*backend.Node{sortOf()},
				Slices: []backend.Slice{{Start: 39999, Stop: 40000, Step: 1}}}
		}, 39999},
	} {
		for n := range 80 {
			ctx := &countdownCtx{Context: context.Background()}
			ctx.n.Store(int64(n))
			got, err := New(Workers(2)).Run(ctx, c.node())
			if err != nil {
				if !errors.Is(err, context.Canceled) {
					t.Fatalf("%s canceled after %d checks: %v", c.name, n, err)
				}
				continue
			}
			for i := range backend.Size(got.Shape) {
				if !sameElement(got, i, want, c.from+i) {
					t.Fatalf("%s canceled after %d checks gave no error, and element %d is %v, not %v", c.name, n, i, elementOf(got, i), elementOf(want, c.from+i))
				}
			}
		}
	}
}
