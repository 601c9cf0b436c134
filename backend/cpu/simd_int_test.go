//go:build amd64 && !purego

package cpu

import (
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"unsafe"

	"github.com/tensorsh/tensorsh/backend"
	"github.com/tensorsh/tensorsh/dtypes"
	"github.com/tensorsh/tensorsh/internal/testenv"
)

// The integer operations with AVX2 loops. What they compute is NumPy's
// integer loops, which the Go loops (the reference here) already follow:
// wrap-around add, subtract and multiply, left_shift and right_shift
// through npy_lshift/npy_rshift (a count of the width or more, or negative,
// gives 0, or -1 for right_shift of a negative value), absolute as
// `(in >= 0) ? in : -in` (so the minimum stays the minimum; unsigned, a
// copy), bitwise_and/or/xor and invert: numpy/_core/src/umath/
// loops_autovec.dispatch.c.src (@TYPE@_add, _left_shift, _right_shift,
// _absolute, _bitwise_and, _invert) and numpy/_core/src/npymath/
// npy_math_internal.h.src (npy_lshift, npy_rshift); negative in
// loops_unary.dispatch.c.src; maximum and minimum in
// loops_minmax.dispatch.c.src; the comparisons into bools in
// loops_comparison.dispatch.c.src.
var vectorIntOps = []struct {
	op       backend.Op
	unary    bool
	unsigned bool // has a vector loop on unsigned types too
	sizes    []uintptr
}{
	{backend.OpAdd, false, true, []uintptr{1, 2, 4, 8}},
	{backend.OpSub, false, true, []uintptr{1, 2, 4, 8}},
	{backend.OpMul, false, true, []uintptr{1, 2, 4, 8}},
	{backend.OpBitAnd, false, true, []uintptr{1, 2, 4, 8}},
	{backend.OpBitOr, false, true, []uintptr{1, 2, 4, 8}},
	{backend.OpBitXor, false, true, []uintptr{1, 2, 4, 8}},
	{backend.OpMax, false, true, []uintptr{1, 2, 4, 8}},
	{backend.OpMin, false, true, []uintptr{1, 2, 4, 8}},
	{backend.OpEq, false, true, []uintptr{1, 2, 4, 8}},
	{backend.OpNe, false, true, []uintptr{1, 2, 4, 8}},
	{backend.OpLt, false, true, []uintptr{1, 2, 4, 8}},
	{backend.OpLe, false, true, []uintptr{1, 2, 4, 8}},
	{backend.OpGt, false, true, []uintptr{1, 2, 4, 8}},
	{backend.OpGe, false, true, []uintptr{1, 2, 4, 8}},
	{backend.OpShl, false, true, []uintptr{1, 2, 4, 8}},
	{backend.OpShr, false, true, []uintptr{1, 2, 4, 8}},
	{backend.OpNot, true, true, []uintptr{1, 2, 4, 8}},
	{backend.OpAnd, false, true, []uintptr{1, 2, 4, 8}},
	{backend.OpOr, false, true, []uintptr{1, 2, 4, 8}},
	{backend.OpNeg, true, true, []uintptr{1, 2, 4, 8}},
	{backend.OpSquare, true, true, []uintptr{1, 2, 4, 8}},
	{backend.OpInvert, true, true, []uintptr{1, 2, 4, 8}},
	{backend.OpAbs, true, false, []uintptr{1, 2, 4, 8}},
	{backend.OpSign, true, true, []uintptr{1, 2, 4, 8}},
}

// withIntSIMD returns the kernel of op on T with the vector loops on or
// off.
func withIntSIMD(on bool, k func() kfn) kfn {
	defer func(old bool) { haveIntSIMD = old }(haveIntSIMD)
	haveIntSIMD = on
	return k()
}

// intEdges returns the edge values of T: 0, ±1, the minimum and maximum
// and their neighbours, and the sign and byte boundaries.
func intEdges[T integer]() []T {
	bits := unsafe.Sizeof(T(0)) * 8
	top := T(1) << (bits - 1) // MinInt, or the top bit of an unsigned type
	e := []T{0, 1, ^T(0), ^T(0) - 1, 2, top, top + 1, ^top, ^top - 1}
	for _, v := range []uint64{0x7f, 0x80, 0xff, 0x100, 0x7fff, 0x8000, 0xffff, 0x7fffffff, 0x80000000} {
		if w := T(v); !slices.Contains(e, w) { // wraps to the width of T
			e = append(e, w)
		}
	}
	return e
}

func fillInts[T integer](rng *rand.Rand, x []T, edges []T) {
	for i := range x {
		switch rng.Intn(4) {
		case 0, 1:
			x[i] = edges[rng.Intn(len(edges))]
		case 2:
			x[i] = T(rng.Intn(7) - 3)
		default:
			x[i] = T(rng.Uint64())
		}
	}
}

// checkVectorInts compares the vector kernels of T with the Go loops on
// every length 0..70 and some longer ones, at every head offset of the
// result and the operands (unaligned sub-slices), on random values and
// edge values, and in place (the result over the first operand).
func checkVectorInts[T integer](t *testing.T, name string) {
	signed := ^T(0) < 0
	size := unsafe.Sizeof(T(0))
	edges := intEdges[T]()
	rng := rand.New(rand.NewSource(int64(size)))
	for _, c := range vectorIntOps {
		if !slices.Contains(c.sizes, size) || !signed && !c.unsigned {
			continue
		}
		node := &backend.Node{Op: c.op}
		vec := withIntSIMD(true, func() kfn { return vectorIntKernel[T](c.op) })
		if vec == nil {
			t.Errorf("%v %s: no vector kernel", c.op, name)
			continue
		}
		ref := withIntSIMD(false, func() kfn { return intKernel[T](node) })
		cmp := isBoolResult(c.op)
		lengths := []int{100, 127, 128, 129, 255, 1000, 4096 + 37}
		for n := range 71 {
			lengths = append(lengths, n)
		}
		for _, n := range lengths {
			for off := range 5 {
				oa, ob, od := off, (off*3)%5, (off*2)%5
				a, b := make([]T, n+oa), make([]T, n+ob)
				fillInts(rng, a, edges)
				fillInts(rng, b, edges)
				for i := range min(len(a), len(b)) {
					if rng.Intn(4) == 0 {
						b[i] = a[i] // equal pairs for ==, <=, >=
					}
				}
				if c.op == backend.OpShl || c.op == backend.OpShr {
					for i := range b {
						if rng.Intn(4) != 0 {
							b[i] = T(rng.Intn(int(size)*8 + 3)) // every count, and past the width
						}
					}
				}
				a, b = a[oa:], b[ob:]
				args := []any{a, b}
				if c.unary {
					args = args[:1]
				}
				if cmp {
					got, want := make([]bool, n+od)[od:], make([]bool, n)
					run2(t, vec, ref, got, want, args)
					for i := range n {
						if boolBytes(got)[i] != boolBytes(want)[i] {
							t.Fatalf("%v %s n=%d off=%d [%d]: %v, %v: got byte %d, want %v",
								c.op, name, n, off, i, a[i], b[i], boolBytes(got)[i], want[i])
						}
					}
					continue
				}
				got, want := make([]T, n+od)[od:], make([]T, n)
				run2(t, vec, ref, got, want, args)
				for i := range n {
					if got[i] != want[i] {
						t.Fatalf("%v %s n=%d off=%d [%d]: %v, %v: got %v, want %v",
							c.op, name, n, off, i, a[i], b[i], got[i], want[i])
					}
				}
				// In place: d is a.
				if err := vec(a, args); err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(a, want) {
					t.Fatalf("%v %s n=%d off=%d in place: got %v, want %v", c.op, name, n, off, a, want)
				}
			}
		}
	}
}

// isBoolResult reports whether o gives bools.
func isBoolResult(o backend.Op) bool {
	switch o {
	case backend.OpEq, backend.OpNe, backend.OpLt, backend.OpLe, backend.OpGt, backend.OpGe,
		backend.OpNot, backend.OpAnd, backend.OpOr:
		return true
	}
	return false
}

func run2(t *testing.T, vec, ref kfn, got, want any, args []any) {
	t.Helper()
	if err := vec(got, args); err != nil {
		t.Fatal(err)
	}
	if err := ref(want, args); err != nil {
		t.Fatal(err)
	}
}

func TestVectorInts(t *testing.T) {
	if !haveIntSIMD {
		t.Skip("no AVX2")
	}
	checkVectorInts[int8](t, "int8")
	checkVectorInts[int16](t, "int16")
	checkVectorInts[int32](t, "int32")
	checkVectorInts[int64](t, "int64")
	checkVectorInts[uint8](t, "uint8")
	checkVectorInts[uint16](t, "uint16")
	checkVectorInts[uint32](t, "uint32")
	checkVectorInts[uint64](t, "uint64")
}

// TestVectorIntEdges checks every pair of edge values of each width
// (the comparisons, max and min at the sign boundary and the extremes,
// multiply and negate wrapping) in one block.
func TestVectorIntEdges(t *testing.T) {
	if !haveIntSIMD {
		t.Skip("no AVX2")
	}
	edgePairs[int8](t)
	edgePairs[int16](t)
	edgePairs[int32](t)
	edgePairs[int64](t)
	edgePairs[uint8](t)
	edgePairs[uint16](t)
	edgePairs[uint32](t)
	edgePairs[uint64](t)
}

func edgePairs[T integer](t *testing.T) {
	e := intEdges[T]()
	var a, b []T
	for _, x := range e {
		for _, y := range e {
			a, b = append(a, x), append(b, y)
		}
	}
	for _, c := range vectorIntOps {
		vec := withIntSIMD(true, func() kfn { return vectorIntKernel[T](c.op) })
		if vec == nil {
			continue
		}
		ref := withIntSIMD(false, func() kfn { return intKernel[T](&backend.Node{Op: c.op}) })
		var got, want any = make([]T, len(a)), make([]T, len(a))
		if isBoolResult(c.op) {
			got, want = make([]bool, len(a)), make([]bool, len(a))
		}
		args := []any{a, b}
		if c.unary {
			args = args[:1]
		}
		run2(t, vec, ref, got, want, args)
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%v %T on edges: got %v\nwant %v", c.op, T(0), got, want)
		}
	}
}

// TestVectorBools checks the vector bool kernels against the word loops
// of boolwords.go (whose truth tables TestBoolWords checks: NumPy's
// numpy/_core/src/umath/loops_logical.dispatch.cpp.src and the BOOL loops
// of loops_comparison.dispatch.c.src) on lengths 0..70 and longer, at
// unaligned offsets.
func TestVectorBools(t *testing.T) {
	if !haveIntSIMD {
		t.Skip("no AVX2")
	}
	ops := []backend.Op{backend.OpAdd, backend.OpBitOr, backend.OpOr, backend.OpMax, backend.OpMul, backend.OpBitAnd,
		backend.OpAnd, backend.OpMin, backend.OpBitXor, backend.OpNe, backend.OpEq, backend.OpLt, backend.OpLe,
		backend.OpGt, backend.OpGe, backend.OpNot, backend.OpInvert}
	rng := rand.New(rand.NewSource(3))
	lengths := []int{100, 127, 128, 129, 1000, 4096 + 5}
	for n := range 71 {
		lengths = append(lengths, n)
	}
	for _, o := range ops {
		vec := withIntSIMD(true, func() kfn { return vectorBoolKernel(o) })
		if vec == nil {
			t.Errorf("%v: no vector kernel", o)
			continue
		}
		ref := withIntSIMD(false, func() kfn { return boolKernel(o) })
		for _, n := range lengths {
			for off := range 4 {
				a, b := make([]bool, n+off)[off:], make([]bool, n+3-off)[3-off:]
				for i := range a {
					a[i], b[i] = rng.Intn(2) == 1, rng.Intn(2) == 1
				}
				args := []any{a, b}
				if o == backend.OpNot || o == backend.OpInvert {
					args = args[:1]
				}
				got, want := make([]bool, n+2*off)[2*off:], make([]bool, n)
				run2(t, vec, ref, got, want, args)
				if !slices.Equal(boolBytes(got), boolBytes(want)) {
					t.Fatalf("%v n=%d off=%d: got %v, want %v", o, n, off, boolBytes(got), boolBytes(want))
				}
			}
		}
	}
}

// BenchmarkVectorInts times each vector kernel against its Go loop on
// 16384 elements (cache-resident): go test -bench VectorInts -count 5.
func BenchmarkVectorInts(b *testing.B) {
	benchInts[int8](b, "i8")
	benchInts[uint8](b, "u8")
	benchInts[int16](b, "i16")
	benchInts[int32](b, "i32")
	benchInts[uint32](b, "u32")
	benchInts[int64](b, "i64")
	benchInts[uint64](b, "u64")
	for _, o := range []backend.Op{backend.OpBitAnd, backend.OpEq, backend.OpLt, backend.OpNot} {
		x, y, d := make([]bool, 16384), make([]bool, 16384), make([]bool, 16384)
		rng := rand.New(rand.NewSource(1))
		for i := range x {
			x[i], y[i] = rng.Intn(2) == 1, rng.Intn(2) == 1
		}
		args := []any{x, y}
		if o == backend.OpNot {
			args = args[:1]
		}
		for _, on := range []bool{false, true} {
			k := withIntSIMD(on, func() kfn { return boolKernel(o) })
			b.Run(fmt.Sprintf("%v/bool/%s", o, map[bool]string{false: "go", true: "avx2"}[on]), func(b *testing.B) {
				b.SetBytes(16384)
				for range b.N {
					_ = k(d, args)
				}
			})
		}
	}
}

func benchInts[T integer](b *testing.B, name string) {
	const n = 16384
	x, y := make([]T, n), make([]T, n)
	rng := rand.New(rand.NewSource(1))
	for i := range x {
		x[i], y[i] = T(rng.Intn(100)+1), T(rng.Intn(100)+1)
	}
	for _, c := range vectorIntOps {
		if withIntSIMD(true, func() kfn { return vectorIntKernel[T](c.op) }) == nil {
			continue
		}
		var d any = make([]T, n)
		if isBoolResult(c.op) {
			d = make([]bool, n)
		}
		args := []any{x, y}
		if c.unary {
			args = args[:1]
		}
		for _, on := range []bool{false, true} {
			k := withIntSIMD(on, func() kfn { return intKernel[T](&backend.Node{Op: c.op}) })
			b.Run(fmt.Sprintf("%v/%s/%s", c.op, name, map[bool]string{false: "go", true: "avx2"}[on]), func(b *testing.B) {
				b.SetBytes(int64(n * unsafe.Sizeof(T(0))))
				for range b.N {
					_ = k(d, args)
				}
			})
		}
	}
}

// TestGeneratedCurrent runs each generator of this package (gen_*.go)
// in a temporary directory and checks that the committed files it writes
// are what it writes now (edit the generator, not its output, and run go
// generate ./backend/cpu/).
func TestGeneratedCurrent(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the generators")
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		testenv.Missing(t, "the go command is needed to run the generators: %v", err)
		return
	}
	for _, g := range []struct {
		gen  string
		outs []string
	}{
		{"gen_simdint.go", []string{"simd_int_amd64.s", "simd_int_table_amd64.go"}},
		{"gen_libm.go", []string{"simd_libm_amd64.s", "simd_libm_tabs_amd64.go"}},
		{"gen_conv.go", []string{"conv_amd64.s", "conv_decl_amd64.go"}},
		{"gen_gemm.go", []string{"gemm_amd64.s"}},
		{"gen_intdiv.go", []string{"intdiv_amd64.s", "intdiv_table_amd64.go"}},
		{"gen_reduce.go", []string{"simd_reduce_amd64.s", "simd_reduce_amd64.go"}},
		{"gen_simd.go", []string{"simd_binary_amd64.s"}},
		{"gen_simdfloat.go", []string{"simd_float_amd64.s"}},
		{"gen_transpose.go", []string{"transpose_amd64.s"}},
		{"gen_cdiv.go", []string{"cdiv_amd64.s"}},
		{"gen_fma.go", []string{"fma_amd64.s"}},
	} {
		t.Run(g.gen, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			src, err := os.ReadFile(g.gen)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, g.gen), src, 0o644); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(goBin, "run", g.gen)
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), "GO111MODULE=off", "GOFLAGS=")
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("go run %s: %v\n%s", g.gen, err, out)
			}
			for _, f := range g.outs {
				want, err := os.ReadFile(filepath.Join(dir, f))
				if err != nil {
					t.Fatal(err)
				}
				got, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				if string(got) != string(want) {
					t.Errorf("%s is not what %s writes: run go generate ./backend/cpu/", f, g.gen)
				}
			}
		})
	}
}

// TestDoubleInt checks x * 2 and 2 * x of every integer type, taken as
// x + x (doubleIntKernel), against the products element by element,
// wrapping included, and that other constants keep the product kernel.
func TestDoubleInt(t *testing.T) {
	for _, d := range []dtypes.DType{dtypes.I8, dtypes.U8, dtypes.I16, dtypes.U16, dtypes.I32, dtypes.U32, dtypes.I64, dtypes.U64} {
		n := 1000
		v := make([]float64, n)
		for i := range v {
			v[i] = float64(i*37%251) - 120
			if !d.IsSigned() {
				v[i] += 120
			}
		}
		x := in(mk(d, []int{n}, v...))
		two := in(mk(d, []int{}, 2))
		want := vals(run(t, nb(backend.OpMul, x, in(mk(d, []int{n}, slices.Repeat([]float64{2}, n)...)))))
		for _, node := range []*backend.Node{nb(backend.OpMul, x, two), nb(backend.OpMul, two, x)} {
			node.Shape = []int{n}
			if haveIntSIMD && kernelIsDouble(node, d) == false {
				t.Fatalf("%v: x * 2 does not take doubleIntKernel", d)
			}
			if got := vals(run(t, node)); !sameAll(got, want) {
				t.Errorf("%v: x * 2 = %v, want %v", d, got[:8], want[:8])
			}
		}
		if three := nb(backend.OpMul, x, in(mk(d, []int{}, 3))); kernelIsDouble(three, d) {
			t.Errorf("%v: x * 3 takes doubleIntKernel", d)
		}
	}
}

// kernelIsDouble reports whether doubleIntKernel takes node, of dtype d.
func kernelIsDouble(node *backend.Node, d dtypes.DType) bool {
	switch computeOf(d) {
	case ctI8:
		return doubleIntKernel[int8](node) != nil
	case ctU8:
		return doubleIntKernel[uint8](node) != nil
	case ctI16:
		return doubleIntKernel[int16](node) != nil
	case ctU16:
		return doubleIntKernel[uint16](node) != nil
	case ctI32:
		return doubleIntKernel[int32](node) != nil
	case ctU32:
		return doubleIntKernel[uint32](node) != nil
	case ctI64:
		return doubleIntKernel[int64](node) != nil
	case ctU64:
		return doubleIntKernel[uint64](node) != nil
	}
	return false
}

// TestConstShifts checks the loops of x << c and x >> c for one count c
// (constShiftKernel) against the Go loops, for 8- and 16-bit integers,
// every count up to past the width, counts read as unsigned (a negative
// int8 count is 255 or more), on random and edge values of every length
// 0..70 and some longer, at unaligned starts.
func TestConstShifts(t *testing.T) {
	checkConstShifts[int8](t)
	checkConstShifts[uint8](t)
	checkConstShifts[int16](t)
	checkConstShifts[uint16](t)
}

func checkConstShifts[T integer](t *testing.T) {
	size := unsafe.Sizeof(T(0))
	edges := intEdges[T]()
	rng := rand.New(rand.NewSource(int64(size) * 131))
	var counts []T
	for c := range int(size)*8 + 3 {
		counts = append(counts, T(c))
	}
	counts = append(counts, ^T(0), ^T(0)-1, T(1)<<(size*8-1), 0x7f)
	for _, op := range []backend.Op{backend.OpShl, backend.OpShr} {
		for _, c := range counts {
			node := &backend.Node{Op: op, Args: []*backend.Node{{Op: backend.OpInput},
				{Op: backend.OpInput, Tensor: &backend.Tensor{Data: []T{c}}}}}
			k := constShiftKernel[T](node)
			if k == nil {
				if haveIntSIMD {
					t.Fatalf("%T %v %v: no kernel", T(0), op, c)
				}
				return
			}
			ref := withIntSIMD(false, func() kfn { return intKernel[T](node) })
			lengths := []int{100, 127, 128, 129, 1000}
			for n := range 71 {
				lengths = append(lengths, n)
			}
			for _, n := range lengths {
				off := rng.Intn(4)
				a, b := make([]T, n+off)[off:], make([]T, n)
				fillInts(rng, a, edges)
				for i := range b {
					b[i] = c
				}
				got, want := make([]T, n+off)[off:], make([]T, n)
				if err := k(got, []any{a, b}); err != nil {
					t.Fatal(err)
				}
				if err := ref(want, []any{a, b}); err != nil {
					t.Fatal(err)
				}
				for i := range want {
					if got[i] != want[i] {
						t.Fatalf("%T %v by %v, n=%d: at %d: %v gives %v, want %v", T(0), op, c, n, i, a[i], got[i], want[i])
					}
				}
			}
		}
	}
}

// TestMulLoops checks the 8- and 64-bit multiply loops against Go's
// wrapping product, whichever of them vectorIntKernel takes on this CPU:
// mul8AVX2 and mul8AVX512 (16-bit products of the even and odd bytes),
// mul64AVX2 (three 32-bit products) and mul64AVX512 (VPMULLQ).
func TestMulLoops(t *testing.T) {
	if !haveIntSIMD {
		t.Skip("no AVX2")
	}
	loops8 := map[string]intAsm{"mul8AVX2": intAsms[intAsmKey{backend.OpMul, 1, true}]}
	if haveAVX512BW {
		loops8["mul8AVX512"] = mul8Asm(intAsm{})
	}
	loops64 := map[string]intAsm{"mul64AVX2": intAsms[intAsmKey{backend.OpMul, 8, true}]}
	if haveAVX512DQVL {
		loops64["mul64AVX512"] = mul64Asm(intAsm{})
	}
	checkMulLoops[int8](t, loops8)
	checkMulLoops[int64](t, loops64)
	if haveAVX512BW && len(loops8) != 2 || haveAVX512DQVL && len(loops64) != 2 {
		t.Error("an AVX-512 CPU without its multiply loops")
	}
}

func checkMulLoops[T integer](t *testing.T, loops map[string]intAsm) {
	rng := rand.New(rand.NewSource(int64(unsafe.Sizeof(T(0)))))
	edges := intEdges[T]()
	for name, v := range loops {
		for _, n := range []int{0, 8, 16, 32, 40, 64, 96, 128, 136, 192, 200, 256, 1000, 4096} {
			a, b, d := make([]T, n+1), make([]T, n+1), make([]T, n+1)
			fillInts(rng, a, edges)
			fillInts(rng, b, edges)
			m := n - n%v.unit
			for off := range 2 { // aligned, and one element on
				if m > 0 {
					v.bin(unsafe.Pointer(&d[off]), unsafe.Pointer(&a[off]), unsafe.Pointer(&b[off]), m)
				}
				for i := off; i < off+m; i++ {
					if d[i] != a[i]*b[i] {
						t.Fatalf("%s n=%d [%d]: %d * %d = %d, want %d", name, n, i, a[i], b[i], d[i], a[i]*b[i])
					}
				}
			}
		}
	}
}

// TestAVX512Features checks cpuHasAVX512Features against the detector of
// the matrix products (cpuHasAVX512: AVX512F and the OS's state): the
// same answer for F alone, no more for F with DQ and VL or BW and VL.
func TestAVX512Features(t *testing.T) {
	if got := cpuHasAVX512Features(1 << 16); got != haveAVX512 {
		t.Errorf("AVX512F: %v, the products' detector %v", got, haveAVX512)
	}
	if haveAVX512DQVL && !haveAVX512 || haveAVX512BW && !haveAVX512 {
		t.Errorf("DQ/VL %v or BW/VL %v without AVX512F", haveAVX512DQVL, haveAVX512BW)
	}
	if cpuHasAVX512Features(1<<16|1<<30|1<<31) != haveAVX512BW || cpuHasAVX512Features(1<<16|1<<17|1<<31) != haveAVX512DQVL {
		t.Error("the detector's answers change between calls")
	}
}
