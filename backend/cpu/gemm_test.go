package cpu

import (
	"context"
	"fmt"
	"math"
	"math/rand"
	"testing"
	"time"

	"github.com/tensorsh/tensorsh/backend"
	"github.com/tensorsh/tensorsh/dtypes"
)

// naiveMatMul is the definition the GEMM keeps bit for bit: for each
// element, the fused multiply-adds acc = a[i,p]·b[p,j] + acc in order of p,
// each rounded once to T (fmaT: math.FMA, and fma32, which TestFMA32
// checks against exact sums).
//
// A long dot of vectors (m = n = 1, k at least backend.DotLanesFrom) sums
// in backend.DotLanes lanes instead, lane l the terms p ≡ l (mod 32) in
// order of p, and then the lanes pairwise (backend.MatMulPlan.InLanes).
func naiveMatMul[T float32 | float64](a, b []T, m, n, k int) []T {
	if m == 1 && n == 1 && k >= backend.DotLanesFrom {
		var lanes [backend.DotLanes]T
		for p := range k {
			l := p % backend.DotLanes
			lanes[l] = fmaT(a[p], b[p], lanes[l])
		}
		for h := backend.DotLanes / 2; h >= 1; h /= 2 {
			for l := range h {
				lanes[l] += lanes[l+h]
			}
		}
		return []T{lanes[0]}
	}
	c := make([]T, m*n)
	for i := range m {
		for j := range n {
			var acc T
			for p := range k {
				acc = fmaT(a[i*k+p], b[p*n+j], acc)
			}
			c[i*n+j] = acc
		}
	}
	return c
}

func randFloats[T float32 | float64](rng *rand.Rand, n int) []T {
	s := make([]T, n)
	for i := range s {
		s[i] = T(rng.NormFloat64())
	}
	return s
}

// gemmShapes cover edge tiles in every direction, k across several
// kc-blocks (256 or 512) with a short last one, and sizes below one tile, and
// sides around the tiles of every kernel (1, 2, 15, 16, 17, 31, 33, 64),
// k = 0 and 1.
var gemmShapes = [][3]int{
	{1, 1, 1}, {2, 2, 1}, {3, 5, 7}, {12, 32, 16}, {13, 33, 257}, {11, 31, 255},
	{50, 70, 600}, {97, 129, 64}, {240, 300, 520}, {7, 400, 3}, {300, 9, 300},
	{2, 15, 0}, {15, 16, 1}, {16, 17, 2}, {17, 31, 15}, {31, 33, 17}, {33, 2, 31},
	{64, 64, 64}, {24, 64, 33}, {36, 96, 256}, {25, 65, 16}, {20, 40, 1100}, {26, 34, 512},
}

// testGemmKernel runs the products of gemmShapes through kern, with 1 and
// 3 workers, with whole panels read in place where setDirect allows
// (where k is one block: A, and B with rows of at most 512 bytes) and
// packed, from sub-slices starting 0 to 3 elements into their
// buffers, on random values and on values mixed with edge values, and
// compares every bit (NaNs as NaNs: gemmSameBits) with naiveMatMul.
func testGemmKernel[T float32 | float64](t *testing.T, name string, kern gemmKernel[T]) {
	rng := rand.New(rand.NewSource(17))
	for si, s := range gemmShapes {
		m, n, k := s[0], s[1], s[2]
		gen := randFloats[T]
		if si%2 == 1 {
			gen = gemmEdgeFloats[T]
		}
		offA, offB := rng.Intn(4), rng.Intn(4)
		a, b := gen(rng, offA+m*k)[offA:], gen(rng, offB+k*n)[offB:]
		want := naiveMatMul(a, b, m, n, k)
		for _, w := range []int{1, 3} {
			for _, packed := range []bool{false, true} {
				r := &runner{b: New(Workers(w)), ctx: context.Background()}
				got := make([]T, m*n)
				for i := range got {
					got[i] = 7 // not cleared: every element is written
				}
				g := mmGeom{rows: m, k: k, cols: n, nbatch: 1, offA: []int{0}, offB: []int{0}}
				if err := gemmRunPacked(r, kern, g, a, b, got, packed); err != nil {
					t.Fatal(err)
				}
				for i := range got {
					if !gemmSameBits(got[i], want[i]) {
						t.Errorf("%s %dx%d@%dx%d, %d workers, packed %v: element %d = %v, want %v", name, m, k, k, n, w, packed, i, got[i], want[i])
						break
					}
				}
			}
		}
	}
}

// testVMKernel runs vector-matrix products through kern and compares
// every bit with naiveMatMul.
func testVMKernel[T float32 | float64](t *testing.T, name string, kern vmKernel[T]) {
	if kern.w == 0 {
		return
	}
	rng := rand.New(rand.NewSource(4))
	for _, s := range [][2]int{{1, 1}, {7, kern.w}, {300, 3*kern.w + 5}, {1000, 2 * kern.w}} {
		k, n := s[0], s[1]
		a, b := randFloats[T](rng, k), randFloats[T](rng, k*n)
		want := naiveMatMul(a, b, 1, n, k)
		got := make([]T, n)
		r := &runner{b: New(Workers(3)), ctx: context.Background()}
		g := mmGeom{rows: 1, k: k, cols: n, nbatch: 1, offA: []int{0}, offB: []int{0}}
		if err := vmRun(r, kern, g, a, b, got); err != nil {
			t.Fatal(err)
		}
		for i := range got {
			if math.Float64bits(float64(got[i])) != math.Float64bits(float64(want[i])) {
				t.Errorf("%s (%d)@(%d,%d): element %d = %v, want %v", name, k, k, n, i, got[i], want[i])
				break
			}
		}
	}
}

func TestGemmKernels(t *testing.T) {
	testVMKernel(t, "vmF32", vmF32)
	testVMKernel(t, "vmF64", vmF64)
	testGemmKernel(t, "gemmF32", gemmF32)
	testGemmKernel(t, "gemmF64", gemmF64)
	testGemmKernel(t, "gemmTileGo float32", gemmKernel[float32]{mr: 4, nr: 8, kc: 256, tile: gemmTileGo[float32](4, 8)})
	testGemmKernel(t, "gemmTileGo float64", gemmKernel[float64]{mr: 3, nr: 5, kc: 100, tile: gemmTileGo[float64](3, 5)})
	testGemmKernels(t)
}

// TestMatMulOrder checks products through Backend.Run, batched and not,
// against naiveMatMul bit for bit: float32 accumulates in float32 (as BLAS
// does), float64 in float64, whichever path (GEMM, matrix-vector) the
// shape takes.
func TestMatMulOrder(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	cases := []struct{ as, bs, out []int }{
		{[]int{70, 300}, []int{300, 50}, []int{70, 50}},
		{[]int{3, 20, 30}, []int{30, 40}, []int{3, 20, 40}},          // small products spread over workers
		{[]int{2, 1, 90, 80}, []int{3, 80, 70}, []int{2, 3, 90, 70}}, // broadcast batch
		{[]int{2, 300, 280}, []int{2, 280, 260}, []int{2, 300, 260}},
		{[]int{40, 300}, []int{300}, []int{40}},
		{[]int{200, 300}, []int{300}, []int{200}},   // matrix-vector kernel and Go rows
		{[]int{3, 70, 90}, []int{90}, []int{3, 70}}, // batched
		{[]int{2, 1, 50, 9}, []int{3, 9, 1}, []int{2, 3, 50, 1}},
		{[]int{300}, []int{300, 40}, []int{40}},
		{[]int{300}, []int{300, 300}, []int{300}},                    // vector-matrix kernel and Go columns
		{[]int{2, 1, 200}, []int{2, 200, 140}, []int{2, 1, 140}},     // batched
		{[]int{2, 1, 1, 100}, []int{3, 100, 70}, []int{2, 3, 1, 70}}, // broadcast batch
		{[]int{30, 0}, []int{0, 40}, []int{30, 40}},                  // zeros, over a result not cleared
		{[]int{30, 0}, []int{0}, []int{30}},
		{[]int{0, 30}, []int{30, 200}, []int{0, 200}}, // no rows: neither GEMM nor vector-matrix
		// Dots: one chain below backend.DotLanesFrom, lanes from it on
		// (whole groups of 32 in assembly, the rest in Go).
		{[]int{1023}, []int{1023}, []int{}},
		{[]int{1024}, []int{1024}, []int{}},
		{[]int{5000}, []int{5000}, []int{}},
		{[]int{1, 1055}, []int{1055, 1}, []int{1, 1}},
		{[]int{3, 1, 2017}, []int{3, 2017, 1}, []int{3, 1, 1}},       // batched
		{[]int{2, 1, 1, 1500}, []int{3, 1500, 1}, []int{2, 3, 1, 1}}, // broadcast batch
	}
	for _, d := range []dtypes.DType{dtypes.F32, dtypes.F64} {
		for _, c := range cases {
			av := randFloats[float64](rng, backend.Size(c.as))
			bv := randFloats[float64](rng, backend.Size(c.bs))
			res := run(t, mm(in(mk(d, c.as, av...)), in(mk(d, c.bs, bv...)), c.out))
			got := vals(res)
			want := matmulByDefinition(d, av, bv, c.as, c.bs, c.out)
			for i := range got {
				if got[i] != want[i] {
					t.Errorf("%v %v@%v: element %d = %v, want %v", d, c.as, c.bs, i, got[i], want[i])
					break
				}
			}
		}
	}
}

// matmulByDefinition computes a (possibly batched, broadcast) product of
// row-major operands with naiveMatMul in dtype d.
func matmulByDefinition(d dtypes.DType, av, bv []float64, as, bs, out []int) []float64 {
	a2, b2 := as, bs
	if len(as) == 1 {
		a2 = []int{1, as[0]}
	}
	if len(bs) == 1 {
		b2 = []int{bs[0], 1}
	}
	m, k, n := a2[len(a2)-2], a2[len(a2)-1], b2[len(b2)-1]
	if m*n == 0 {
		return nil
	}
	batch := backend.Size(out) / (m * n)
	nbA, nbB := backend.Size(a2[:len(a2)-2]), backend.Size(b2[:len(b2)-2])
	var res []float64
	for bi := range batch {
		// The batch shapes of the cases broadcast (2,1) with (3) as an
		// outer product, so the flat index splits as (bi/3, bi%3).
		ia, ib := bi, bi
		if nbA != batch {
			ia = bi / (batch / nbA)
		}
		if nbB != batch {
			ib = bi % nbB
		}
		x, y := av[ia*m*k:(ia+1)*m*k], bv[ib*k*n:(ib+1)*k*n]
		if d == dtypes.F32 {
			for _, v := range naiveMatMul(conv[float32](x), conv[float32](y), m, n, k) {
				res = append(res, float64(v))
			}
		} else {
			res = append(res, naiveMatMul(x, y, m, n, k)...)
		}
	}
	return res
}

func conv[T float32 | float64](s []float64) []T {
	out := make([]T, len(s))
	for i, v := range s {
		out[i] = T(v)
	}
	return out
}

// TestMatMulNarrow: f16 and bf16 products are float32 sums of their
// products (exact in float32) in order of p, rounded once to the dtype,
// as NumPy's float16 matmul loop computes them (matmul.c.src), through
// the GEMM, the matrix-vector and vector-matrix kernels and the row loop.
func TestMatMulNarrow(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	for _, d := range []dtypes.DType{dtypes.F16, dtypes.BF16} {
		for _, sh := range [][3]int{{30, 200, 40}, {30, 200, 1}, {1, 200, 40}, {3, 5, 4}} {
			m, k, n := sh[0], sh[1], sh[2]
			av, bv := randFloats[float64](rng, m*k), randFloats[float64](rng, k*n)
			a, b := mk(d, []int{m, k}, av...), mk(d, []int{k, n}, bv...)
			got := vals(run(t, mm(in(a), in(b), []int{m, n})))
			ad, bd := vals(a), vals(b) // the values as stored in d
			for i := range m {
				for j := range n {
					var s float32
					for p := range k {
						s += float32(ad[i*k+p] * bd[p*n+j]) // exact
					}
					want := vals(mk(d, []int{1}, float64(s)))[0]
					if g := got[i*n+j]; g != want {
						t.Fatalf("%v %v [%d,%d] = %v, want %v", d, sh, i, j, g, want)
					}
				}
			}
		}
	}
}

// BenchmarkMatMulSizes times the products of bench/matmul.py (which
// runs the same shapes in NumPy): square float32 and float64 products of
// 64, 256, 1000 and 2000, a matrix-vector and a vector-matrix product, a
// batch of 256 products of 64×64, and float16 and int32 products of 256.
//
// Each product first runs for 50 ms untimed: on this project's virtual
// machines a core that has been waiting runs the first ~10 ms of work
// several times slower (a 64×64 product takes 50 µs, then 6.5 µs, with
// the AVX2 kernel as with AVX-512, and with the collector off), and
// benchNode's six warm-up runs of a small product end long before that;
// NumPy's process has been busy for 100 ms importing before it times
// anything.
func BenchmarkMatMulSizes(b *testing.B) {
	rng := rand.New(rand.NewSource(8))
	benchNode := func(b *testing.B, n *backend.Node, bytes int64) {
		be := New()
		for t0 := time.Now(); time.Since(t0) < 50*time.Millisecond; {
			if _, err := be.Run(context.Background(), n); err != nil {
				b.Fatal(err)
			}
		}
		benchNode(b, n, bytes)
	}
	input := func(d dtypes.DType, shape ...int) *backend.Node {
		return in(mk(d, shape, randFloats[float64](rng, backend.Size(shape))...))
	}
	for _, d := range []dtypes.DType{dtypes.F32, dtypes.F64} {
		for _, n := range []int{64, 256, 1000, 2000} {
			b.Run(fmt.Sprintf("%v/%d", d, n), func(b *testing.B) {
				benchNode(b, mm(input(d, n, n), input(d, n, n), []int{n, n}), int64(3*n*n*d.Bits()/8))
			})
		}
	}
	b.Run("f32/mv1000", func(b *testing.B) {
		benchNode(b, mm(input(dtypes.F32, 1000, 1000), input(dtypes.F32, 1000), []int{1000}), 4*1000*1000)
	})
	b.Run("f32/vm1000", func(b *testing.B) {
		benchNode(b, mm(input(dtypes.F32, 1000), input(dtypes.F32, 1000, 1000), []int{1000}), 4*1000*1000)
	})
	b.Run("f32/batch256x64", func(b *testing.B) {
		benchNode(b, mm(input(dtypes.F32, 256, 64, 64), input(dtypes.F32, 256, 64, 64), []int{256, 64, 64}), 3*4*256*64*64)
	})
	b.Run("f16/256", func(b *testing.B) {
		benchNode(b, mm(input(dtypes.F16, 256, 256), input(dtypes.F16, 256, 256), []int{256, 256}), 3*2*256*256)
	})
	b.Run("i32/256", func(b *testing.B) {
		x := in(mk(dtypes.I32, []int{256, 256}, seq(256*256, 0, 1)...))
		benchNode(b, mm(x, x, []int{256, 256}), 3*4*256*256)
	})
}

// gemmEdgeFloats returns n values of which about one in four is an edge
// value (NaNs with payloads of either sign, ±0, ±Inf, subnormals, the
// largest and smallest normals, values whose products overflow or
// underflow), the others normally distributed.
func gemmEdgeFloats[T float32 | float64](rng *rand.Rand, n int) []T {
	var edges []T
	switch any(T(0)).(type) {
	case float32:
		for _, b := range []uint32{0x7fc00000, 0xffc00001, 0x7fa5a5a5, 0xff812345, 0x80000000, 0x00000001, 0x807fffff, 0x00400000} {
			edges = append(edges, T(math.Float32frombits(b)))
		}
		edges = append(edges, T(math.MaxFloat32), T(-math.MaxFloat32), T(math.SmallestNonzeroFloat32), 0x1p-126, 3e19, -2e-20)
	default:
		for _, b := range []uint64{0x7ff8000000000000, 0xfff8000000000001, 0x7ff4a5a5a5a5a5a5, 0xfff0123456789abc, 0x8000000000000000, 1, 0x800fffffffffffff, 0x0008000000000000} {
			edges = append(edges, T(math.Float64frombits(b)))
		}
		for _, v := range []float64{math.MaxFloat64, -math.MaxFloat64, math.SmallestNonzeroFloat64, 0x1p-1022, 3e160, -2e-170} {
			edges = append(edges, T(v))
		}
	}
	edges = append(edges, T(math.Inf(1)), T(math.Inf(-1)), 0, 1, -1)
	s := make([]T, n)
	for i := range s {
		if rng.Intn(4) == 0 {
			s[i] = edges[rng.Intn(len(edges))]
		} else {
			s[i] = T(rng.NormFloat64())
		}
	}
	return s
}

// gemmSameBits reports whether x and y have the same bits or are both
// NaN. Which payload a NaN result carries is not pinned: where both
// operands of a multiply or an add are NaNs, x86 returns the first
// operand's, and for the commutative x*y and s+x Go's compiler picks the
// operand order (mvSeq's single rows and naiveMatMul already differ
// there).
func gemmSameBits[T float32 | float64](x, y T) bool {
	if x != x && y != y {
		return true
	}
	switch x := any(x).(type) {
	case float32:
		return math.Float32bits(x) == math.Float32bits(any(y).(float32))
	default:
		return math.Float64bits(any(x).(float64)) == math.Float64bits(any(y).(float64))
	}
}

// testMVKernel runs matrix-vector products of every number of rows up to
// 40 and every k up to 70 (and a few larger), from sub-slices starting 0
// to 3 elements into their buffers, through mvRun with kern and compares
// every bit (NaNs as NaNs: gemmSameBits) with naiveMatMul, on random values
// and on values mixed with edge values, with 1 and 3 workers.
func testMVKernel[T float32 | float64](t *testing.T, name string, kern mvKernel[T]) {
	rng := rand.New(rand.NewSource(6))
	ks := []int{255, 256, 257, 1000}
	for k := range 71 {
		ks = append(ks, k)
	}
	for _, k := range ks {
		for rows := 1; rows <= 40; rows++ {
			if k > 70 && rows%7 != 3 && rows != 16 && rows != 32 {
				continue
			}
			off := rng.Intn(4)
			gen := randFloats[T]
			if rows%2 == 0 {
				gen = gemmEdgeFloats[T]
			}
			a, v := gen(rng, off+rows*k)[off:], gen(rng, off+k)[off:]
			want := naiveMatMul(a, v, rows, 1, k)
			for _, w := range []int{1, 3} {
				r := &runner{b: New(Workers(w)), ctx: context.Background()}
				got := make([]T, rows)
				for i := range got {
					got[i] = 7 // not cleared: every element is written
				}
				g := mmGeom{rows: rows, k: k, cols: 1, nbatch: 1, offA: []int{0}, offB: []int{0}}
				if err := mvRun(r, kern, g, a, v, got); err != nil {
					t.Fatal(err)
				}
				for i := range got {
					if !gemmSameBits(got[i], want[i]) {
						t.Fatalf("%s (%d,%d)@(%d), %d workers: element %d = %v, want %v", name, rows, k, k, w, i, got[i], want[i])
					}
				}
			}
		}
	}
}

func TestMVKernels(t *testing.T) {
	testMVKernel(t, "mvF32", mvF32)
	testMVKernel(t, "mvF64", mvF64)
	testMVKernel(t, "mvSeq float32", mvKernel[float32]{})
	testMVKernel(t, "mvSeq float64", mvKernel[float64]{})
	if mvF32.rows == 0 {
		t.Logf("no matrix-vector kernel on this CPU")
	}
}

// TestMatMulSymmetric checks xᵀ·x and x·xᵀ (mmGeom.sym: the tiles below
// the diagonal mirrored, mirrorLower) against the naive loop bit for bit:
// sizes below, at and past a tile (12 and 32 on AVX-512, 6 and 16 on AVX2)
// and a block of p (512), on one and two workers, float32 and float64,
// float16 through float32.
func TestMatMulSymmetric(t *testing.T) {
	rng := rand.New(rand.NewSource(9))
	for _, d := range []dtypes.DType{dtypes.F32, dtypes.F64, dtypes.F16} {
		for _, s := range [][2]int{{2, 3}, {13, 5}, {33, 40}, {64, 64}, {7, 100}, {100, 31}, {600, 70}, {45, 257}} {
			k, n := s[0], s[1]
			xv := vals(mk(d, []int{k, n}, randFloats[float64](rng, k*n)...)) // rounded to d
			xt := make([]float64, n*k)
			for p := range k {
				for j := range n {
					xt[j*k+p] = xv[p*n+j]
				}
			}
			x := in(mk(d, []int{k, n}, xv...))
			tr := &backend.Node{Op: backend.OpTranspose, DType: d, Shape: []int{n, k}, Axes: []int{1, 0}, Args: []*backend.Node{x}}
			for _, c := range []struct {
				name   string
				a, b   *backend.Node
				av, bv []float64
				as, bs []int
			}{
				{"xᵀ·x", tr, x, xt, xv, []int{n, k}, []int{k, n}},
				{"x·xᵀ", x, tr, xv, xt, []int{k, n}, []int{n, k}},
			} {
				out := []int{c.as[0], c.bs[1]}
				var want []float64
				if d == dtypes.F16 {
					// float32 sums of exact products, rounded once.
					want = vals(mk(d, out, matmulByDefinition(dtypes.F32, c.av, c.bv, c.as, c.bs, out)...))
				} else {
					want = matmulByDefinition(d, c.av, c.bv, c.as, c.bs, out)
				}
				for _, w := range []int{1, 2} {
					got := vals(run(t, mm(c.a, c.b, out), Workers(w)))
					for i := range got {
						if got[i] != want[i] {
							t.Fatalf("%v %s of %d×%d, %d workers: element (%d, %d) = %v, want %v",
								d, c.name, k, n, w, i/out[1], i%out[1], got[i], want[i])
						}
					}
				}
			}
		}
	}
	// x a strided slice (every other column of w): neither operand is
	// contiguous, both are copied, the tiles still mirrored.
	const k, n = 70, 45
	wv := vals(mk(dtypes.F32, []int{k, 2 * n}, randFloats[float64](rng, 2*k*n)...))
	w := in(mk(dtypes.F32, []int{k, 2 * n}, wv...))
	xs := &backend.Node{Op: backend.OpSlice, DType: dtypes.F32, Shape: []int{k, n}, Args: []*backend.Node{w},
		Slices: []backend.Slice{{Start: 0, Stop: k, Step: 1}, {Start: 0, Stop: 2 * n, Step: 2}}}
	xst := &backend.Node{Op: backend.OpTranspose, DType: dtypes.F32, Shape: []int{n, k}, Axes: []int{1, 0}, Args: []*backend.Node{xs}}
	sv, st := make([]float64, k*n), make([]float64, n*k)
	for p := range k {
		for j := range n {
			sv[p*n+j], st[j*k+p] = wv[p*2*n+2*j], wv[p*2*n+2*j]
		}
	}
	want := matmulByDefinition(dtypes.F32, st, sv, []int{n, k}, []int{k, n}, []int{n, n})
	for _, wk := range []int{1, 2} {
		got := vals(run(t, mm(xst, xs, []int{n, n}), Workers(wk)))
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("xᵀ·x of a strided x, %d workers: element (%d, %d) = %v, want %v", wk, i/n, i%n, got[i], want[i])
			}
		}
	}
	// Which views are a transpose pair.
	x := contigView(dtypes.F32, make([]float32, 12), []int{3, 4})
	xt := &view{dtype: dtypes.F32, data: x.data, shape: []int{4, 3}, strides: []int{1, 4}}
	y := contigView(dtypes.F32, make([]float32, 12), []int{3, 4})
	shifted := &view{dtype: dtypes.F32, data: x.data, shape: []int{4, 3}, strides: []int{1, 4}, off: 1}
	for _, c := range []struct {
		a, b *view
		want bool
	}{{xt, x, true}, {x, xt, true}, {xt, y, false}, {shifted, x, false}, {x, x, false}} {
		if got := transposePair(c.a, c.b); got != c.want {
			t.Errorf("transposePair(%v %v, %v %v) = %v", c.a.shape, c.a.strides, c.b.shape, c.b.strides, got)
		}
	}
}

// TestMatMulAllocs pins the allocations of a small product: the serial
// GEMM of 64×64 keeps its job on the stack and its packing buffers in a
// pool (none a call), and a 64×64 float32 product through Backend.Run
// allocates only what a Run does for any statement (its plan, the exec's
// state, the result tensor). Stop 53 took such a Run from 20 allocations
// to 7 (the sum's 6 and the plan), and the statement `a @ b` from 4.2 to
// 3.6 µs.
func TestMatMulAllocs(t *testing.T) {
	rng := rand.New(rand.NewSource(9))
	const n = 64
	a, b, c := randFloats[float32](rng, n*n), randFloats[float32](rng, n*n), make([]float32, n*n)
	g := mmGeom{rows: n, k: n, cols: n, nbatch: 1, offA: []int{0}, offB: []int{0}}
	r := &runner{b: New(Workers(2)), ctx: context.Background()}
	gemm := func() {
		if err := gemmRunPacked(r, gemmF32, g, a, b, c, false); err != nil {
			t.Fatal(err)
		}
	}
	gemm() // fills the pool
	if got := testing.AllocsPerRun(50, gemm); got != 0 {
		t.Errorf("a serial 64×64 gemm made %v allocations a call, want 0", got)
	}
	be := New(Workers(2))
	x := in(mk(dtypes.F32, []int{n, n}, randFloats[float64](rng, n*n)...))
	node := mm(x, x, []int{n, n})
	ew := nb(backend.OpAdd, x, x)
	runIt := func(n *backend.Node) func() {
		return func() {
			if _, err := be.Run(context.Background(), n); err != nil {
				t.Fatal(err)
			}
		}
	}
	runIt(node)()
	runIt(ew)()
	// The product may allocate what an elementwise sum of the same
	// operands does, and its plan.
	want := testing.AllocsPerRun(50, runIt(ew)) + 1
	if got := testing.AllocsPerRun(50, runIt(node)); got > want {
		t.Errorf("a 64×64 float32 product made %v allocations a Run, want at most %v", got, want)
	}
}
