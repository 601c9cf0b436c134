package cpu

import (
	"github.com/tensorsh/tensorsh/backend"
	"github.com/tensorsh/tensorsh/dtypes"
	"math/rand/v2"
	"slices"
	"testing"
	"unsafe"
)

// TestTransposeInto checks transposeInto (the AVX2 tile kernels where the
// CPU has them, transposeGo at the edges) against the index formula, bit
// for bit, for every element size: random bits (NaN payloads, any byte),
// every shape up to 70×70 in a sample plus large ones, offsets that
// leave the tiles unaligned, strides longer than the rows, and the
// elements around each window left alone.
func TestTransposeInto(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	type shape struct{ rows, cols, dp, sp, ldx, lsx int }
	var shapes []shape
	for rows := 0; rows <= 70; rows++ {
		for cols := 0; cols <= 70; cols++ {
			if rows > 20 && cols > 20 && (rows*71+cols)%7 != 0 {
				continue
			}
			shapes = append(shapes, shape{rows, cols, rng.IntN(5), rng.IntN(5), rng.IntN(3), rng.IntN(3)})
		}
	}
	shapes = append(shapes, shape{1000, 1000, 0, 0, 0, 0}, shape{16, 1000, 3, 1, 0, 0}, shape{261, 517, 1, 2, 5, 3})
	check := func(t *testing.T, es int) {
		for _, s := range shapes {
			ldd, lds := s.cols+s.ldx, s.rows+s.lsx
			dn := s.dp + max(s.rows*ldd, 1) + 3
			sn := s.sp + max(s.cols*lds, 1) + 3
			src := randBytes(rng, sn*es)
			dst := randBytes(rng, dn*es)
			want := slices.Clone(dst)
			for r := range s.rows {
				for c := range s.cols {
					d, p := (s.dp+r*ldd+c)*es, (s.sp+r+c*lds)*es
					copy(want[d:d+es], src[p:p+es])
				}
			}
			switch es {
			case 1:
				transposeInto(asT[int8](dst), s.dp, ldd, asT[int8](src), s.sp, lds, s.rows, s.cols)
			case 2:
				transposeInto(asT[uint16](dst), s.dp, ldd, asT[uint16](src), s.sp, lds, s.rows, s.cols)
			case 4:
				transposeInto(asT[float32](dst), s.dp, ldd, asT[float32](src), s.sp, lds, s.rows, s.cols)
			case 8:
				transposeInto(asT[float64](dst), s.dp, ldd, asT[float64](src), s.sp, lds, s.rows, s.cols)
			case 16:
				transposeInto(asT[complex128](dst), s.dp, ldd, asT[complex128](src), s.sp, lds, s.rows, s.cols)
			}
			if !slices.Equal(dst, want) {
				t.Fatalf("%+v: %d-byte elements differ", s, es)
			}
		}
	}
	for _, es := range []int{1, 2, 4, 8, 16} {
		t.Run(string(rune('0'+es%10)), func(t *testing.T) { check(t, es) })
	}
}

func randBytes(rng *rand.Rand, n int) []byte {
	b := make([]byte, n, n+16)
	for i := range b {
		b[i] = byte(rng.Uint32())
	}
	return b
}

// asT reinterprets b as a slice of T (len(b) a multiple of T's size).
func asT[T any](b []byte) []T {
	var zero T
	es := int(unsafe.Sizeof(zero))
	if len(b) == 0 {
		return nil
	}
	return unsafe.Slice((*T)(unsafe.Pointer(&b[0])), len(b)/es)
}

// BenchmarkTranspose times transposeInto on a 1000×1000 matrix: whole
// (a transposed view copied) and in strips of 16 rows into a block buffer
// (a fused transposed operand).
func BenchmarkTranspose(b *testing.B) {
	const n = 1000
	for _, es := range []int{1, 4, 8} {
		src := make([]byte, n*n*es)
		dst := make([]byte, n*n*es)
		buf := make([]byte, 16*n*es)
		run := func(name string, f func()) {
			b.Run(name, func(b *testing.B) {
				b.SetBytes(int64(n * n * es))
				for range b.N {
					f()
				}
			})
		}
		switch es {
		case 1:
			s, d, bb := asT[int8](src), asT[int8](dst), asT[int8](buf)
			run("whole/1", func() { transposeInto(d, 0, n, s, 0, n, n, n) })
			run("strips/1", func() {
				for r := 0; r < n; r += 16 {
					transposeInto(bb, 0, n, s, r, n, min(16, n-r), n)
				}
			})
			run("copy/1", func() { copy(d, s) })
		case 4:
			s, d, bb := asT[float32](src), asT[float32](dst), asT[float32](buf)
			run("whole/4", func() { transposeInto(d, 0, n, s, 0, n, n, n) })
			run("strips/4", func() {
				for r := 0; r < n; r += 16 {
					transposeInto(bb, 0, n, s, r, n, min(16, n-r), n)
				}
			})
			run("copy/4", func() { copy(d, s) })
		case 8:
			s, d, bb := asT[float64](src), asT[float64](dst), asT[float64](buf)
			run("whole/8", func() { transposeInto(d, 0, n, s, 0, n, n, n) })
			run("strips/8", func() {
				for r := 0; r < n; r += 16 {
					transposeInto(bb, 0, n, s, r, n, min(16, n-r), n)
				}
			})
			run("copy/8", func() { copy(d, s) })
		}
	}
}

// TestTransposeCopy checks a transposed view copied into a result (a bare
// transpose, and a transposed operand of concat, whose destination rows
// are longer than its own): every element's bits against the index
// formula, for 2-d and 3-d permutations, sizes that leave partial tiles
// and strips split between workers, and each storage width.
func TestTransposeCopy(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, tc := range []struct {
		shape []int // of the stored array
		axes  []int // the permutation
	}{
		{[]int{1000, 1000}, []int{1, 0}},
		{[]int{300, 37}, []int{1, 0}},
		{[]int{37, 300}, []int{1, 0}},
		{[]int{2000, 17}, []int{1, 0}},
		{[]int{3, 5}, []int{1, 0}},
		{[]int{7, 40, 33}, []int{0, 2, 1}},
		{[]int{40, 7, 33}, []int{2, 1, 0}},
		{[]int{5, 64, 700}, []int{0, 2, 1}},
	} {
		for _, d := range []dtypes.DType{dtypes.Bool, dtypes.I8, dtypes.F16, dtypes.F32, dtypes.F64, dtypes.C64, dtypes.C128} {
			n := backend.Size(tc.shape)
			x := mk(d, tc.shape, make([]float64, n)...)
			raw := bufBytes(x.Data)
			for i := range raw {
				raw[i] = byte(rng.Uint32())
			}
			if d == dtypes.Bool {
				for i := range raw {
					raw[i] &= 1
				}
			}
			out := make([]int, len(tc.shape))
			for i, a := range tc.axes {
				out[i] = tc.shape[a]
			}
			tr := &backend.Node{Op: backend.OpTranspose, DType: d, Shape: out, Args: []*backend.Node{in(x)}, Axes: tc.axes}
			cshape := slices.Clone(out)
			cshape[len(cshape)-1] += 3
			y := mk(d, append(slices.Clone(out[:len(out)-1]), 3), make([]float64, backend.Size(out)/out[len(out)-1]*3)...)
			cat := &backend.Node{Op: backend.OpConcat, DType: d, Shape: cshape, Axes: []int{len(out) - 1}, Args: []*backend.Node{tr, in(y)}}
			es := backend.ElemSize(d)
			st := backend.RowMajor(tc.shape)
			for _, root := range []*backend.Node{tr, cat} {
				got := bufBytes(run(t, root).Data)
				rowLen := root.Shape[len(root.Shape)-1]
				idx := make([]int, len(out))
				for i := range n {
					p, r := 0, i
					for a := len(out) - 1; a >= 0; a-- {
						idx[a] = r % out[a]
						r /= out[a]
						p += idx[a] * st[tc.axes[a]]
					}
					q := i/out[len(out)-1]*rowLen + idx[len(out)-1]
					if !slices.Equal(got[q*es:(q+1)*es], raw[p*es:(p+1)*es]) {
						t.Fatalf("%v %v%v: element %v differs", root.Op, d, tc.shape, idx)
					}
				}
			}
		}
	}
}

// TestTransposedNarrowOperands checks -transpose(x) (a fused tree with a
// transposed leaf, read by readTiled) bit for bit against the negation of
// the transposed bits laid out contiguously by hand, for the storage
// types that are converted after the transpose (float16, bfloat16, the
// 8-bit floats, complex32) and two that are not, with random bits (NaN
// payloads included), on shapes whose blocks start and end mid-row.
func TestTransposedNarrowOperands(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, shape := range [][]int{{300, 37}, {37, 300}, {1000, 1000}, {7, 40, 33}} {
		for _, d := range []dtypes.DType{dtypes.F16, dtypes.BF16, dtypes.F8E4M3, dtypes.F8E5M2, dtypes.C32, dtypes.F32, dtypes.I8} {
			n := backend.Size(shape)
			nd := len(shape)
			x := backend.NewStorage(d, n)
			bits := bufBytes(x)
			for i := range bits {
				bits[i] = byte(rng.Uint32())
			}
			out := slices.Clone(shape)
			out[nd-2], out[nd-1] = shape[nd-1], shape[nd-2]
			axes := make([]int, nd)
			for i := range axes {
				axes[i] = i
			}
			axes[nd-2], axes[nd-1] = nd-1, nd-2
			// The transposed bits, contiguous.
			xt := backend.NewStorage(d, n)
			tb := bufBytes(xt)
			es := backend.ElemSize(d)
			rows, cols := out[nd-2], out[nd-1]
			for m := range n / (rows * cols) {
				for r := range rows {
					for c := range cols {
						q := m*rows*cols + r*cols + c
						p := m*rows*cols + c*rows + r
						copy(tb[q*es:(q+1)*es], bits[p*es:(p+1)*es])
					}
				}
			}
			tr := &backend.Node{Op: backend.OpTranspose, DType: d, Shape: out, Args: []*backend.Node{in(raw(d, shape, x))}, Axes: axes}
			got := bufBytes(run(t, nu(backend.OpNeg, tr)).Data)
			want := bufBytes(run(t, nu(backend.OpNeg, in(raw(d, out, xt)))).Data)
			if !slices.Equal(got, want) {
				t.Fatalf("-transpose(x) of %v%v differs from - of the transposed bits", d, shape)
			}
		}
	}
}
