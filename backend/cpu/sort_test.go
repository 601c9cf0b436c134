package cpu

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"math/rand"
	"slices"
	"testing"

	"github.com/tensorsh/tensorsh/backend"
	"github.com/tensorsh/tensorsh/dtypes"
)

// sortDTypes are the dtypes TestSort sorts.
var sortDTypes = []dtypes.DType{
	dtypes.Bool, dtypes.I8, dtypes.U8, dtypes.I16, dtypes.U16, dtypes.I32, dtypes.U32, dtypes.I64, dtypes.U64,
	dtypes.F16, dtypes.BF16, dtypes.F8E4M3, dtypes.F8E5M2, dtypes.F32, dtypes.F64, dtypes.C64, dtypes.C128,
}

// randomStorage returns n elements of d's storage with random bits: every
// bit pattern of the type (NaNs with every payload, ±0, infinities,
// subnormals, the extremes of the integers), drawn from a pool of pool
// patterns when pool > 0, so that equal elements are many.
func randomStorage(r *rand.Rand, d dtypes.DType, n, pool int) any {
	data := backend.NewStorage(d, n)
	pats := make([]uint64, max(pool, 1))
	for i := range pats {
		pats[i] = r.Uint64()
		switch r.Intn(8) {
		case 0: // a zero of either sign, in any width
			pats[i] &= 1<<7 | 1<<15 | 1<<31 | 1<<63
		case 1: // a NaN or infinity of any width (all exponent bits set)
			pats[i] |= 0x7f80 | 0x7fc0<<16 | 0x7ff0<<48 | 0x7c<<8 | 0x78
		}
	}
	bits := func(i int) uint64 {
		if pool > 0 {
			return pats[r.Intn(pool)]
		}
		return r.Uint64()
	}
	for i := range n {
		b := bits(i)
		switch s := data.(type) {
		case []bool:
			s[i] = b&1 != 0
		case []int8:
			s[i] = int8(b)
		case []uint8:
			s[i] = uint8(b)
		case []int16:
			s[i] = int16(b)
		case []uint16:
			s[i] = uint16(b)
		case []int32:
			s[i] = int32(b)
		case []uint32:
			s[i] = uint32(b)
		case []int64:
			s[i] = int64(b)
		case []uint64:
			s[i] = b
		case []float32:
			s[i] = math.Float32frombits(uint32(b >> 32))
		case []float64:
			s[i] = math.Float64frombits(b)
		case []complex64:
			s[i] = complex(math.Float32frombits(uint32(b)), math.Float32frombits(uint32(b>>32)))
		case []complex128:
			s[i] = complex(math.Float64frombits(b), math.Float64frombits(b<<7|b>>57))
		}
	}
	return data
}

// sortCompare orders elements i and j of t's storage as NumPy's sort does
// (floats with NaN last, complex by npysort's CLT), by value.
func sortCompare(t *backend.Tensor, i, j int) int {
	fl := func(a, b float64) int {
		switch {
		case a < b || b != b && a == a:
			return -1
		case b < a || a != a && b == b:
			return 1
		}
		return 0
	}
	switch s := t.Data.(type) {
	case []int8:
		return cmp.Compare(s[i], s[j])
	case []int16:
		return cmp.Compare(s[i], s[j])
	case []int32:
		return cmp.Compare(s[i], s[j])
	case []int64:
		return cmp.Compare(s[i], s[j])
	case []uint32:
		return cmp.Compare(s[i], s[j])
	case []uint64:
		return cmp.Compare(s[i], s[j])
	case []complex64, []complex128:
		return numpyComplexOrder(complexAt(t, i), complexAt(t, j))
	}
	return fl(at(t, i), at(t, j)) // bools, bytes, uint16 and the floats
}

// numpyComplexOrder is the order NumPy's sort documents for complex
// numbers: [R + Rj, R + nanj, nan + Rj, nan + nanj], those with no NaN
// part by real part, then imaginary part, those with one NaN part by the
// other part.
func numpyComplexOrder(a, b complex128) int {
	class := func(c complex128) int {
		k := 0
		if imag(c) != imag(c) {
			k = 1
		}
		if real(c) != real(c) {
			k += 2
		}
		return k
	}
	ka, kb := class(a), class(b)
	if ka != kb {
		return cmp.Compare(ka, kb)
	}
	if ka <= 1 && real(a) != real(b) {
		return cmp.Compare(real(a), real(b))
	}
	if ka == 0 || ka == 2 {
		return cmp.Compare(imag(a), imag(b))
	}
	return 0
}

func complexAt(t *backend.Tensor, i int) complex128 {
	if s, ok := t.Data.([]complex64); ok {
		return complex128(s[i])
	}
	return t.Data.([]complex128)[i]
}

// sameElement reports whether elements i of a and j of b have the same
// bits, any NaN matching any NaN of narrow floats (whose conversion to
// float32 and back may quiet it).
func sameElement(a *backend.Tensor, i int, b *backend.Tensor, j int) bool {
	switch sa := a.Data.(type) {
	case []float32:
		return math.Float32bits(sa[i]) == math.Float32bits(b.Data.([]float32)[j])
	case []float64:
		return math.Float64bits(sa[i]) == math.Float64bits(b.Data.([]float64)[j])
	case []complex64:
		x, y := sa[i], b.Data.([]complex64)[j]
		return math.Float32bits(real(x)) == math.Float32bits(real(y)) && math.Float32bits(imag(x)) == math.Float32bits(imag(y))
	case []complex128:
		x, y := sa[i], b.Data.([]complex128)[j]
		return math.Float64bits(real(x)) == math.Float64bits(real(y)) && math.Float64bits(imag(x)) == math.Float64bits(imag(y))
	}
	if narrow(a.DType) {
		return same(at(a, i), at(b, j))
	}
	return at(a, i) == at(b, j) && fmt.Sprint(elementOf(a, i)) == fmt.Sprint(elementOf(b, j))
}

func elementOf(t *backend.Tensor, i int) any {
	switch s := t.Data.(type) {
	case []int64:
		return s[i]
	case []uint64:
		return s[i]
	}
	return at(t, i)
}

// TestSort checks OpSort, and OpArgSort's indices, against a stable
// comparison sort in NumPy's order, line by line, on random bits of every dtype (NaNs of every
// payload, ±0, infinities, the extremes of the integers; half the time
// drawn from a few patterns, so that equal elements are many), along
// every axis of one to three dimensions, and on lines long enough to sort
// on several workers.
func TestSort(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	shapes := [][]int{{1}, {2}, {37}, {300}, {5, 23}, {3, 4, 17}, {0}, {4, 0}, {2, 600}, {700, 3}, {40000}, {3, 20000}, {1500, 41}, {3, 300, 70}}
	for _, d := range sortDTypes {
		for _, shape := range shapes {
			for ax := range shape {
				for _, pool := range []int{0, 5} {
					n := backend.Size(shape)
					x := &backend.Tensor{DType: d, Shape: shape, Data: randomStorage(r, d, n, pool)}
					node := &backend.Node{Op: backend.OpSort, DType: d, Shape: shape, Axes: []int{ax}, Args: []*backend.Node{in(x)}}
					got := run(t, node)
					what := fmt.Sprintf("%v%v axis %d pool %d", d, shape, ax, pool)
					checkSorted(t, x, got, ax, what)
					it := dtypes.I64
					if pool > 0 {
						it = dtypes.I32
					}
					arg := &backend.Node{Op: backend.OpArgSort, DType: it, Shape: shape, Axes: []int{ax}, Args: []*backend.Node{in(x)}}
					checkArgSorted(t, x, run(t, arg), ax, what)
				}
			}
		}
	}
}

// stableOrders calls f with each line of x along ax (its first element's
// index base, its elements inner apart) and the order of a stable sort of
// it: order[j] is the position in the line of its j-th smallest element.
func stableOrders(x *backend.Tensor, ax int, f func(l, base, inner int, order []int) bool) {
	m, inner := x.Shape[ax], 1
	for _, d := range x.Shape[ax+1:] {
		inner *= d
	}
	n := backend.Size(x.Shape)
	for l := 0; l < n/max(m, 1); l++ {
		base := l/inner*m*inner + l%inner
		order := make([]int, m)
		for j := range order {
			order[j] = j
		}
		slices.SortStableFunc(order, func(i, j int) int { return sortCompare(x, base+i*inner, base+j*inner) })
		if !f(l, base, inner, order) {
			return
		}
	}
}

// checkSorted checks that each line of got along ax is the line of x
// sorted stably.
func checkSorted(t *testing.T, x, got *backend.Tensor, ax int, what string) {
	t.Helper()
	stableOrders(x, ax, func(l, base, inner int, order []int) bool {
		for j, p := range order {
			if i := base + p*inner; !sameElement(got, base+j*inner, x, i) {
				t.Errorf("%s: line %d, element %d is %v, want %v (input element %d)", what, l, j, elementOf(got, base+j*inner), elementOf(x, i), i)
				return false
			}
		}
		return true
	})
}

func benchmarkSort(b *testing.B, shape []int, ax int) {
	r := rand.New(rand.NewSource(1))
	n := backend.Size(shape)
	v := make([]float32, n)
	for i := range v {
		v[i] = r.Float32()
	}
	x := &backend.Tensor{DType: dtypes.F32, Shape: shape, Data: v}
	node := &backend.Node{Op: backend.OpSort, DType: dtypes.F32, Shape: shape, Axes: []int{ax}, Args: []*backend.Node{in(x)}}
	be := New()
	for b.Loop() {
		if _, err := be.Run(context.Background(), node); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSortRows(b *testing.B) { benchmarkSort(b, []int{1000, 1000}, 1) }
func BenchmarkSortCols(b *testing.B) { benchmarkSort(b, []int{1000, 1000}, 0) }
func BenchmarkSortLong(b *testing.B) { benchmarkSort(b, []int{1000000}, 0) }

// checkArgSorted checks that each line of idx along ax holds the indices
// of x's line in the order of a stable sort.
func checkArgSorted(t *testing.T, x, idx *backend.Tensor, ax int, what string) {
	t.Helper()
	stableOrders(x, ax, func(l, base, inner int, order []int) bool {
		for j, w := range order {
			if got := int(at(idx, base+j*inner)); got != w {
				t.Errorf("argsort %s: line %d, index %d is %d, want %d", what, l, j, got, w)
				return false
			}
		}
		return true
	})
}

// TestSortNarrowFloats sorts lines whose floats differ in a few low bits
// only, or not at all (the radix passes skip the bytes every key shares),
// and the same with both signs, zeros of both signs, infinities and NaNs
// among them: rows short and long, float32 and float64.
func TestSortNarrowFloats(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	for _, d := range []dtypes.DType{dtypes.F32, dtypes.F64} {
		for _, spread := range []int{0, 1, 200, 5000, 70000} { // values 1 + k·ulp, k < spread
			for _, mixed := range []bool{false, true} { // both signs (the keys' top bits differ)
				for _, shape := range [][]int{{3, 1}, {4, 7}, {2, 1000}, {1, radixMSD}} {
					n := backend.Size(shape)
					data := backend.NewStorage(d, n)
					for i := range n {
						k := 0
						if spread > 0 {
							k = r.Intn(spread)
						}
						v := math.Nextafter(1, 2)
						if d == dtypes.F32 {
							f := math.Float32frombits(math.Float32bits(1) + uint32(k))
							if mixed && r.Intn(2) == 0 {
								f = -f
							}
							data.([]float32)[i] = f
						} else {
							f := math.Float64frombits(math.Float64bits(v) + uint64(k))
							if mixed && r.Intn(2) == 0 {
								f = -f
							}
							data.([]float64)[i] = f
						}
						if mixed && r.Intn(6) == 0 {
							sp := []float64{0, math.Copysign(0, -1), math.NaN(), math.Inf(1), math.Inf(-1)}[r.Intn(5)]
							if d == dtypes.F32 {
								data.([]float32)[i] = float32(sp)
							} else {
								data.([]float64)[i] = sp
							}
						}
					}
					x := &backend.Tensor{DType: d, Shape: shape, Data: data}
					node := &backend.Node{Op: backend.OpSort, DType: d, Shape: shape, Axes: []int{1}, Args: []*backend.Node{in(x)}}
					checkSorted(t, x, run(t, node), 1, fmt.Sprintf("%v%v spread %d mixed %v", d, shape, spread, mixed))
				}
			}
		}
	}
}
