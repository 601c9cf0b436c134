// Package conformance checks a backend against the CPU backend, the
// reference: every operation on every dtype it applies to, casts between
// every pair of dtypes, broadcasting and strided views, fusion,
// reductions, softmax, matrix products, structural operations, transfers
// and errors.
//
// Results must be bit for bit the CPU backend's wherever the CPU backend
// is exact (integer and bool operations, + - * / sqrt and the other
// IEEE-exact float operations, conversions, reductions, matrix products,
// structural operations), and within the ULP bounds of tolerance where it
// computes a transcendental function. NaNs match NaNs whatever their sign
// and payload (hardware differs in the NaN it produces). When the CPU
// backend refuses a plan, the backend must refuse it too, with the same
// message unless the CPU's message is an internal one ("cpu: …"), and
// errors.Is must agree on backend.ErrDivideByZero. A run that warns
// (*backend.Warning, Node.WarnIntDiv) must warn alike and give the same
// result.
//
// A backend's test calls Run:
//
//	func TestConformance(t *testing.T) { conformance.Run(t, mybackend.New()) }
package conformance

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand"
	"strings"
	"testing"

	"github.com/tensorsh/tensorsh/backend"
	"github.com/tensorsh/tensorsh/backend/cpu"
	"github.com/tensorsh/tensorsh/dtypes"
)

// Options adjusts Run.
type Options struct {
	// Short runs fewer cases: the operation, cast and view tables over
	// ten dtypes that stand for all (for slow backends, such as an
	// emulated one that compiles every kernel with a C++ compiler).
	Short bool
}

// SkipNaN checks b's float maxima and minima that skip NaNs
// (backend.Node.SkipNaN) against backend.LowerSkipNaN's plain operations
// on the CPU backend, bit for bit: Run's "skipnan", for the CPU backend
// itself too.
func SkipNaN(t *testing.T, b backend.Backend) {
	c := &checker{b: b, ref: cpu.New()}
	c.skipNaN(t)
}

// Run checks b against the CPU backend (see the package doc).
func Run(t *testing.T, b backend.Backend) { RunOptions(t, b, Options{}) }

// RunOptions is Run with options.
func RunOptions(t *testing.T, b backend.Backend, o Options) {
	c := &checker{b: b, ref: cpu.New(), opts: o}
	t.Run("transfer", c.transfer)
	t.Run("unary", c.unary)
	t.Run("binary", c.binary)
	t.Run("cast", c.cast)
	t.Run("where", c.where)
	t.Run("fma", c.fma)
	t.Run("fused", c.fused)
	t.Run("views", c.views)
	t.Run("reduce", c.reduce)
	t.Run("skipnan", c.skipNaN)
	t.Run("softmax", c.softmax)
	t.Run("scan", c.scan)
	t.Run("sort", c.sort)
	t.Run("matmul", c.matmul)
	t.Run("errors", c.errors)
	t.Run("known", c.known)
	t.Run("complex32", c.complex32)
}

type checker struct {
	b    backend.Backend
	ref  *cpu.Backend
	opts Options
}

// freer is the optional method backends provide to release a tensor.
type freer interface{ Free(*backend.Tensor) }

// dtypesFor returns the dtypes the tables run over.
func (c *checker) dtypesFor() []dtypes.DType {
	if c.opts.Short {
		return []dtypes.DType{dtypes.Bool, dtypes.I8, dtypes.I64, dtypes.U16, dtypes.F16, dtypes.BF16,
			dtypes.F32, dtypes.F64, dtypes.C64, dtypes.F8E4M3}
	}
	return sweptDTypes()
}

// sweptDTypes is every dtype but complex32, which only the CPU backend
// computes (PyTorch's ComplexHalf; the CUDA backend refuses it): the
// complex32 table checks it apart.
func sweptDTypes() []dtypes.DType {
	var out []dtypes.DType
	for _, d := range dtypes.All {
		if d != dtypes.C32 {
			out = append(out, d)
		}
	}
	return out
}

// Building plans.

func input(t *backend.Tensor) *backend.Node {
	return &backend.Node{Op: backend.OpInput, DType: t.DType, Shape: t.Shape, Tensor: t}
}

// natural returns the dtype op gives on operands of dtype d.
func natural(op backend.Op, d dtypes.DType) dtypes.DType {
	switch op {
	case backend.OpNot, backend.OpIsNaN, backend.OpIsInf, backend.OpIsFinite,
		backend.OpEq, backend.OpNe, backend.OpLt, backend.OpLe, backend.OpGt, backend.OpGe,
		backend.OpAnd, backend.OpOr:
		return dtypes.Bool
	case backend.OpAbs:
		return d.Real()
	}
	return d
}

func unary(op backend.Op, a *backend.Node) *backend.Node {
	return &backend.Node{Op: op, DType: natural(op, a.DType), Shape: a.Shape, Args: []*backend.Node{a}}
}

func binary(op backend.Op, a, b *backend.Node) *backend.Node {
	return &backend.Node{Op: op, DType: natural(op, a.DType), Shape: broadcastShape(a.Shape, b.Shape), Args: []*backend.Node{a, b}}
}

func castNode(a *backend.Node, d dtypes.DType) *backend.Node {
	return &backend.Node{Op: backend.OpCast, DType: d, Shape: a.Shape, Args: []*backend.Node{a}}
}

func broadcastShape(a, b []int) []int {
	n := max(len(a), len(b))
	out := make([]int, n)
	for i := range n {
		da, db := 1, 1
		if j := i - (n - len(a)); j >= 0 {
			da = a[j]
		}
		if j := i - (n - len(b)); j >= 0 {
			db = b[j]
		}
		out[i] = max(da, db)
		if da == 0 || db == 0 {
			out[i] = 0
		}
	}
	return out
}

// Running and comparing.

// A tol is how far a result may be from the reference: ulps of the
// result dtype (0: bit for bit), or abs, an absolute difference.
type tol struct {
	ulps int
	abs  float64
	// absIn allows an absolute difference of absIn·max(1, |x|), x the
	// (single) input: the error of Go's float64 sin and cos, whose
	// argument reduction loses accuracy near multiples of π and for
	// large arguments.
	absIn float64
	// subnormalIn skips subnormal inputs: Go's float64 log on amd64
	// returns about -709.09 for all of them.
	subnormalIn bool
	// absAt, when set, is the absolute difference allowed at each element
	// (in place of abs): the error bound of a matrix product.
	absAt []float64
}

var exact = tol{}

// check runs n on both backends and compares the results.
func (c *checker) check(t *testing.T, name string, n *backend.Node, tl tol) {
	t.Helper()
	c.checkRef(t, name, n, n, tl)
}

// checkRef is check with the reference computed from ref, a plan of the
// same result as n.
func (c *checker) checkRef(t *testing.T, name string, n, ref *backend.Node, tl tol) {
	t.Helper()
	want, werr := c.ref.Run(context.Background(), ref)
	dn, err := c.onBackend(n, map[*backend.Node]*backend.Node{})
	if err != nil {
		t.Fatalf("%s: preparing inputs: %v", name, err)
	}
	got, gerr := c.b.Run(context.Background(), dn)
	var ww, gw *backend.Warning
	wWarn, gWarn := errors.As(werr, &ww), errors.As(gerr, &gw)
	if wWarn || gWarn {
		// Both must warn alike, with their results.
		if ww == nil || gw == nil || want == nil || got == nil || ww.Error() != gw.Error() {
			t.Errorf("%s: warnings differ: %s: %v; cpu: %v", name, c.b.Name(), gerr, werr)
			return
		}
		werr, gerr = nil, nil
	}
	if werr != nil || gerr != nil {
		c.sameError(t, name, werr, gerr)
		return
	}
	defer c.free(got)
	host, err := c.b.Fetch(got)
	if err != nil {
		t.Fatalf("%s: fetch: %v", name, err)
	}
	compare(t, name, host, want, tl, n)
}

// sameError reports an error unless both runs failed alike.
func (c *checker) sameError(t *testing.T, name string, werr, gerr error) {
	t.Helper()
	switch {
	case werr == nil:
		t.Errorf("%s: %s failed: %v (cpu succeeds)", name, c.b.Name(), gerr)
	case gerr == nil:
		t.Errorf("%s: %s succeeds; cpu fails with %v", name, c.b.Name(), werr)
	case errors.Is(werr, backend.ErrDivideByZero) != errors.Is(gerr, backend.ErrDivideByZero):
		t.Errorf("%s: errors differ: %s: %v; cpu: %v", name, c.b.Name(), gerr, werr)
	case !strings.HasPrefix(werr.Error(), "cpu:") && werr.Error() != gerr.Error():
		t.Errorf("%s: error messages differ:\n%s: %v\ncpu:  %v", name, c.b.Name(), gerr, werr)
	}
}

func (c *checker) free(t *backend.Tensor) {
	if f, ok := c.b.(freer); ok {
		f.Free(t)
	}
}

// onBackend returns a copy of plan n whose input tensors are uploaded to
// the backend (a node used twice stays one node).
func (c *checker) onBackend(n *backend.Node, done map[*backend.Node]*backend.Node) (*backend.Node, error) {
	if m, ok := done[n]; ok {
		return m, nil
	}
	m := *n
	if n.Op == backend.OpInput && n.Tensor != nil {
		t, err := c.b.Upload(n.Tensor)
		if err != nil {
			return nil, err
		}
		m.Tensor = t
	}
	m.Args = make([]*backend.Node, len(n.Args))
	for i, a := range n.Args {
		var err error
		if m.Args[i], err = c.onBackend(a, done); err != nil {
			return nil, err
		}
	}
	done[n] = &m
	return &m, nil
}

// compare reports the elements of got that differ from want beyond tl.
func compare(t *testing.T, name string, got, want *backend.Tensor, tl tol, n *backend.Node) {
	t.Helper()
	if got.DType != want.DType || !sameInts(got.Shape, want.Shape) {
		t.Errorf("%s: got %v%v, want %v%v", name, got.DType, got.Shape, want.DType, want.Shape)
		return
	}
	var in *backend.Tensor
	if len(n.Args) == 1 && n.Args[0].Tensor != nil && backend.Size(n.Args[0].Shape) == backend.Size(n.Shape) {
		in = n.Args[0].Tensor
	}
	bad := 0
	for i := range backend.Size(want.Shape) {
		g, w := element(got, i), element(want, i)
		et := tl
		if tl.absAt != nil {
			et.abs = tl.absAt[i]
		}
		if closeEnough(g, w, want.DType, et) {
			continue
		}
		if in != nil && inputExcused(element(in, i), g, w, tl) {
			continue
		}
		if bad++; bad <= 5 {
			t.Errorf("%s: element %d: got %v, want %v%s", name, i, g, w, inputsAt(n, i))
		}
	}
	if bad > 5 {
		t.Errorf("%s: %d elements differ", name, bad)
	}
}

// inputsAt describes the plan's input values at flat position i (for
// elementwise plans over inputs of the result's shape).
func inputsAt(n *backend.Node, i int) string {
	var parts []string
	for _, a := range n.Args {
		if a.Op == backend.OpInput && a.Tensor != nil && backend.Size(a.Shape) == backend.Size(n.Shape) {
			parts = append(parts, fmt.Sprint(element(a.Tensor, i)))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return " (inputs " + strings.Join(parts, ", ") + ")"
}

// A value is one element: parts holds a real number's value, or a complex
// number's two parts; bits the raw storage bits for exact comparison.
type value struct {
	parts []float64
	bits  [2]uint64
	float bool
}

func (v value) String() string {
	if len(v.parts) == 2 {
		return fmt.Sprintf("(%v%+vi)", v.parts[0], v.parts[1])
	}
	if v.float {
		return fmt.Sprintf("%v [%#x]", v.parts[0], v.bits[0])
	}
	return fmt.Sprint(v.parts[0])
}

// element returns element i of a CPU-form tensor.
func element(t *backend.Tensor, i int) value {
	f := func(x float64, b uint64) value { return value{parts: []float64{x}, bits: [2]uint64{b}, float: true} }
	n := func(x float64, b uint64) value { return value{parts: []float64{x}, bits: [2]uint64{b}} }
	switch s := t.Data.(type) {
	case []bool:
		if s[i] {
			return n(1, 1)
		}
		return n(0, 0)
	case []int8:
		return n(float64(s[i]), uint64(s[i]))
	case []int16:
		return n(float64(s[i]), uint64(s[i]))
	case []int32:
		return n(float64(s[i]), uint64(s[i]))
	case []int64:
		return n(float64(s[i]), uint64(s[i]))
	case []uint8:
		switch t.DType {
		case dtypes.F8E4M3:
			return f(dtypes.F8E4M3ToFloat64(s[i]), uint64(s[i]))
		case dtypes.F8E5M2:
			return f(dtypes.F8E5M2ToFloat64(s[i]), uint64(s[i]))
		}
		return n(float64(s[i]), uint64(s[i]))
	case []uint16:
		switch t.DType {
		case dtypes.F16:
			return f(dtypes.F16ToFloat64(s[i]), uint64(s[i]))
		case dtypes.BF16:
			return f(dtypes.BF16ToFloat64(s[i]), uint64(s[i]))
		}
		return n(float64(s[i]), uint64(s[i]))
	case []uint32:
		if t.DType == dtypes.C32 {
			z := dtypes.C32ToComplex128(s[i])
			return value{parts: []float64{real(z), imag(z)}, bits: [2]uint64{uint64(uint16(s[i])), uint64(s[i] >> 16)}, float: true}
		}
		return n(float64(s[i]), uint64(s[i]))
	case []uint64:
		return n(float64(s[i]), s[i])
	case []float32:
		return f(float64(s[i]), uint64(math.Float32bits(s[i])))
	case []float64:
		return f(s[i], math.Float64bits(s[i]))
	case []complex64:
		re, im := real(s[i]), imag(s[i])
		return value{parts: []float64{float64(re), float64(im)}, bits: [2]uint64{uint64(math.Float32bits(re)), uint64(math.Float32bits(im))}, float: true}
	case []complex128:
		re, im := real(s[i]), imag(s[i])
		return value{parts: []float64{re, im}, bits: [2]uint64{math.Float64bits(re), math.Float64bits(im)}, float: true}
	}
	panic(fmt.Sprintf("conformance: bad tensor data %T", t.Data))
}

// inputExcused reports whether the difference between got and want is
// within the reference's known error for input x (see tol).
func inputExcused(x, got, want value, tl tol) bool {
	if len(x.parts) != 1 || len(want.parts) != 1 || !x.float {
		return false
	}
	v := x.parts[0]
	if tl.subnormalIn && v != 0 && math.Abs(v) < 0x1p-1022 {
		return true
	}
	g, w := got.parts[0], want.parts[0]
	return tl.absIn > 0 && !math.IsNaN(g) && !math.IsNaN(w) && math.Abs(g-w) <= tl.absIn*math.Max(1, math.Abs(v))
}

// closeEnough reports whether got matches want within tl for dtype d.
func closeEnough(got, want value, d dtypes.DType, tl tol) bool {
	if !want.float {
		return got.bits == want.bits
	}
	for k := range want.parts {
		g, w := got.parts[k], want.parts[k]
		switch {
		case math.IsNaN(w) || math.IsNaN(g):
			if math.IsNaN(w) != math.IsNaN(g) {
				return false
			}
		case got.bits[k] == want.bits[k]:
		case tl.ulps == 0 && tl.abs == 0:
			return false
		case tl.abs > 0 && math.Abs(g-w) <= tl.abs:
		case math.IsInf(g, 0) || math.IsInf(w, 0):
			// Infinity is one ULP past the largest finite number.
			f := g
			if math.IsInf(g, 0) {
				f = w
			}
			if !(tl.ulps > 0 && !math.IsInf(f, 0) && math.Abs(f) == formatMax(d) && math.Signbit(g) == math.Signbit(w)) {
				return false
			}
		default:
			if ulpDist(g, w, d) > float64(tl.ulps) {
				return false
			}
		}
	}
	return true
}

// ulpDist returns how many representable numbers of the real format of d
// lie between a and b (±0 count as one point).
func ulpDist(a, b float64, d dtypes.DType) float64 {
	mant := 52
	switch d.Real() {
	case dtypes.F32, dtypes.C64:
		mant = 23
	case dtypes.F64:
	default:
		mant = d.MantissaBits()
	}
	// Work on the real line in units of the smaller number's quantum.
	if a == b {
		return 0
	}
	m := math.Max(math.Abs(a), math.Abs(b))
	_, e := math.Frexp(m)
	minExp := map[dtypes.DType]int{dtypes.F16: -13, dtypes.BF16: -125, dtypes.TF32: -125, dtypes.F8E4M3: -5, dtypes.F8E5M2: -13}[d.Real()]
	if minExp == 0 {
		minExp = -125
		if mant == 52 {
			minExp = -1021
		}
	}
	e = max(e, minExp)
	quantum := math.Ldexp(1, e-1-mant)
	return math.Abs(a-b) / quantum
}

// formatMax returns the largest finite number of the real format of d.
func formatMax(d dtypes.DType) float64 {
	switch d.Real() {
	case dtypes.F64:
		return math.MaxFloat64
	case dtypes.F32, dtypes.C64:
		return math.MaxFloat32
	case dtypes.F16:
		return 65504
	case dtypes.F8E5M2:
		return 57344
	case dtypes.F8E4M3:
		return 448
	}
	m := d.Real().MantissaBits()
	return (2 - math.Ldexp(1, -m)) * math.Ldexp(1, 127)
}

func sameInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// Test values.

// specials returns values that exercise dtype d: zeros, ones, extremes,
// rounding boundaries, and for floats infinities, NaN and subnormals; for
// the narrow float formats every bit pattern (f8) or a sample of them.
func specials(d dtypes.DType) *backend.Tensor {
	switch {
	case d == dtypes.Bool:
		return &backend.Tensor{DType: d, Shape: []int{2}, Data: []bool{false, true}}
	case d.IsInt():
		lo, hi := d.IntRange()
		vs := []int64{0, 1, 2, 3, 5, 7, 8, 9, 15, 16, 31, 32, 63, 64, 100, 127, 128, 255, 256, 1000, 65535, 1 << 20, 1<<31 - 1, 1 << 40,
			-1, -2, -3, -7, -8, -100, -128, -129, -32768, -1 << 31}
		data := append(vs, lo, lo+1, int64(hi), int64(hi-1))
		return intTensor(d, data)
	case d.IsComplex():
		re := []float64{0, math.Copysign(0, -1), 1, -1, 2.5, -3, 1e-3, 1e30, math.Inf(1), math.Inf(-1), math.NaN(), 0.75}
		im := []float64{0, 1, -1, math.Copysign(0, -1), 4, -0.5, 1e-30, -2e30, math.Inf(1), math.NaN(), 3, -0.75}
		var vals []complex128
		for i := range re {
			vals = append(vals, complex(re[i], im[i]), complex(im[i], re[i]))
		}
		return complexTensor(d, vals)
	}
	vs := floatSpecials()
	switch d {
	case dtypes.F8E4M3, dtypes.F8E5M2:
		data := make([]uint8, 256)
		for i := range data {
			data[i] = uint8(i)
		}
		return &backend.Tensor{DType: d, Shape: []int{256}, Data: data}
	case dtypes.F16, dtypes.BF16:
		var data []uint16
		for i := 0; i < 1<<16; i += 257 {
			data = append(data, uint16(i))
		}
		for _, v := range vs {
			if d == dtypes.F16 {
				data = append(data, dtypes.F16FromFloat64(v))
			} else {
				data = append(data, dtypes.BF16FromFloat64(v))
			}
		}
		return &backend.Tensor{DType: d, Shape: []int{len(data)}, Data: data}
	}
	return floatTensor(d, vs)
}

func floatSpecials() []float64 {
	return []float64{0, math.Copysign(0, -1), 1, -1, 0.5, -0.5, 1.5, 2.5, -2.5, 3, -7.25, 0.1, 1e-3, 123.456,
		1e10, -1e10, 65504, 65520, 16777217, 1e30, -1e30, 3.4e38, 1e300, 5e-324, 1e-310, 1.2e-38, 1e-45, 6e-8,
		math.Pi, -math.E, 0.7, 40, -40, 710, -745, 2147483647.5, -2147483648.5, 9.3e18, -9.3e18, 1.8e19, 4e9,
		math.Inf(1), math.Inf(-1), math.NaN(), 300.7, -0.9999, 0.9999, 20, -20}
}

// intTensor stores integer values (wrapped) in dtype d.
func intTensor(d dtypes.DType, vs []int64) *backend.Tensor {
	n := len(vs)
	var data any
	switch d {
	case dtypes.I8:
		s := make([]int8, n)
		for i, v := range vs {
			s[i] = int8(v)
		}
		data = s
	case dtypes.I16:
		s := make([]int16, n)
		for i, v := range vs {
			s[i] = int16(v)
		}
		data = s
	case dtypes.I32:
		s := make([]int32, n)
		for i, v := range vs {
			s[i] = int32(v)
		}
		data = s
	case dtypes.I64:
		data = append([]int64(nil), vs...)
	case dtypes.U8:
		s := make([]uint8, n)
		for i, v := range vs {
			s[i] = uint8(v)
		}
		data = s
	case dtypes.U16:
		s := make([]uint16, n)
		for i, v := range vs {
			s[i] = uint16(v)
		}
		data = s
	case dtypes.U32:
		s := make([]uint32, n)
		for i, v := range vs {
			s[i] = uint32(v)
		}
		data = s
	default:
		s := make([]uint64, n)
		for i, v := range vs {
			s[i] = uint64(v)
		}
		data = s
	}
	return &backend.Tensor{DType: d, Shape: []int{n}, Data: data}
}

// floatTensor stores float64 values in the float dtype d, rounded as
// conversions round.
func floatTensor(d dtypes.DType, vs []float64) *backend.Tensor {
	n := len(vs)
	var data any
	switch d {
	case dtypes.F16, dtypes.BF16:
		s := make([]uint16, n)
		for i, v := range vs {
			if d == dtypes.F16 {
				s[i] = dtypes.F16FromFloat64(v)
			} else {
				s[i] = dtypes.BF16FromFloat64(v)
			}
		}
		data = s
	case dtypes.F8E4M3, dtypes.F8E5M2:
		s := make([]uint8, n)
		for i, v := range vs {
			if d == dtypes.F8E4M3 {
				s[i] = dtypes.F8E4M3FromFloat64(v)
			} else {
				s[i] = dtypes.F8E5M2FromFloat64(v)
			}
		}
		data = s
	case dtypes.F32, dtypes.TF32:
		s := make([]float32, n)
		for i, v := range vs {
			s[i] = float32(dtypes.FloatFromFloat64(d, v))
		}
		data = s
	default:
		data = append([]float64(nil), vs...)
	}
	return &backend.Tensor{DType: d, Shape: []int{n}, Data: data}
}

func complexTensor(d dtypes.DType, vs []complex128) *backend.Tensor {
	if d == dtypes.C128 {
		return &backend.Tensor{DType: d, Shape: []int{len(vs)}, Data: append([]complex128(nil), vs...)}
	}
	if d == dtypes.C32 {
		s := make([]uint32, len(vs))
		for i, v := range vs {
			s[i] = dtypes.C32FromComplex128(v)
		}
		return &backend.Tensor{DType: d, Shape: []int{len(vs)}, Data: s}
	}
	s := make([]complex64, len(vs))
	for i, v := range vs {
		s[i] = complex64(v)
	}
	return &backend.Tensor{DType: d, Shape: []int{len(vs)}, Data: s}
}

// randomTensor returns n random values of d with the given shape: small
// integers, or floats of moderate size (with a few specials mixed in when
// specials is set).
func randomTensor(rng *rand.Rand, d dtypes.DType, shape []int, specials bool) *backend.Tensor {
	n := backend.Size(shape)
	vs := make([]float64, n)
	sp := floatSpecials()
	for i := range vs {
		switch {
		case d == dtypes.Bool:
			vs[i] = float64(rng.Intn(2))
		case d.IsInt():
			vs[i] = float64(rng.Intn(200) - 100)
			if d.IsUnsigned() {
				vs[i] = float64(rng.Intn(200))
			}
		case specials && rng.Intn(10) == 0:
			vs[i] = sp[rng.Intn(len(sp))]
		default:
			vs[i] = math.Round(rng.NormFloat64()*1000) / 256
		}
	}
	var t *backend.Tensor
	switch {
	case d == dtypes.Bool:
		b := make([]bool, n)
		for i, v := range vs {
			b[i] = v != 0
		}
		t = &backend.Tensor{DType: d, Data: b}
	case d.IsInt():
		iv := make([]int64, n)
		for i, v := range vs {
			iv[i] = int64(v)
		}
		t = intTensor(d, iv)
	case d.IsComplex():
		cv := make([]complex128, n)
		for i, v := range vs {
			cv[i] = complex(v, math.Round(rng.NormFloat64()*100)/64)
		}
		t = complexTensor(d, cv)
	default:
		t = floatTensor(d, vs)
	}
	t.Shape = shape
	return t
}

// tileTo returns t (1-d) repeated to m elements with the given shape.
func tileTo(t *backend.Tensor, shape []int) *backend.Tensor {
	m := backend.Size(shape)
	k := backend.Size(t.Shape)
	out := &backend.Tensor{DType: t.DType, Shape: shape}
	switch s := t.Data.(type) {
	case []bool:
		out.Data = tile(s, m, k)
	case []int8:
		out.Data = tile(s, m, k)
	case []int16:
		out.Data = tile(s, m, k)
	case []int32:
		out.Data = tile(s, m, k)
	case []int64:
		out.Data = tile(s, m, k)
	case []uint8:
		out.Data = tile(s, m, k)
	case []uint16:
		out.Data = tile(s, m, k)
	case []uint32:
		out.Data = tile(s, m, k)
	case []uint64:
		out.Data = tile(s, m, k)
	case []float32:
		out.Data = tile(s, m, k)
	case []float64:
		out.Data = tile(s, m, k)
	case []complex64:
		out.Data = tile(s, m, k)
	case []complex128:
		out.Data = tile(s, m, k)
	}
	return out
}

func tile[T any](s []T, m, k int) []T {
	out := make([]T, m)
	for i := range out {
		out[i] = s[i%k]
	}
	return out
}
