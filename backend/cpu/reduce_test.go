package cpu

import (
	"context"
	"errors"
	"math"
	"math/rand"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tensorsh/tensorsh/backend"
	"github.com/tensorsh/tensorsh/dtypes"
)

// red builds a reduction node, working out the result shape.
func red(o backend.Op, d dtypes.DType, a *backend.Node, keep bool, axes ...int) *backend.Node {
	isRed := make([]bool, len(a.Shape))
	for _, ax := range axes {
		isRed[ax] = true
	}
	shape := []int{}
	for i, s := range a.Shape {
		switch {
		case len(axes) > 0 && !isRed[i]:
			shape = append(shape, s)
		case keep:
			shape = append(shape, 1)
		}
	}
	return &backend.Node{Op: o, DType: d, Shape: shape, Args: []*backend.Node{a}, Axes: axes, KeepDims: keep}
}

func TestSumAxes(t *testing.T) {
	// x = arange(24).reshape(2, 3, 4)
	x := in(mk(dtypes.I64, []int{2, 3, 4}, seq(24, 0, 1)...))
	cases := []struct {
		axes  []int
		keep  bool
		shape []int
		want  []float64
	}{
		{nil, false, []int{}, []float64{276}},
		{nil, true, []int{1, 1, 1}, []float64{276}},
		{[]int{0}, false, []int{3, 4}, []float64{12, 14, 16, 18, 20, 22, 24, 26, 28, 30, 32, 34}},
		{[]int{1}, false, []int{2, 4}, []float64{12, 15, 18, 21, 48, 51, 54, 57}},
		{[]int{1}, true, []int{2, 1, 4}, []float64{12, 15, 18, 21, 48, 51, 54, 57}},
		{[]int{2}, false, []int{2, 3}, []float64{6, 22, 38, 54, 70, 86}},
		{[]int{0, 2}, false, []int{3}, []float64{60, 92, 124}},
		{[]int{0, 1}, true, []int{1, 1, 4}, []float64{60, 66, 72, 78}},
	}
	for _, c := range cases {
		for _, d := range []dtypes.DType{dtypes.I64, dtypes.F32, dtypes.F64, dtypes.F16, dtypes.U16} {
			arg := x
			if d != dtypes.I64 {
				arg = cast(x, d)
			}
			n := red(backend.OpSum, d, arg, c.keep, c.axes...)
			res := run(t, n)
			if !slices.Equal(res.Shape, c.shape) || !sameAll(vals(res), c.want) {
				t.Errorf("%v sum axes %v keep %v = %v %v, want %v %v", d, c.axes, c.keep, res.Shape, vals(res), c.shape, c.want)
			}
		}
	}
}

func TestReductionsBasic(t *testing.T) {
	f := func(v ...float64) *backend.Node { return in(mk(dtypes.F64, []int{len(v)}, v...)) }
	cases := []struct {
		name string
		n    *backend.Node
		want float64
	}{
		{"prod", red(backend.OpProd, dtypes.F64, f(1, 2, 3, 4), false), 24},
		{"mean", red(backend.OpMean, dtypes.F64, f(1, 2, 3, 4), false), 2.5},
		{"mean f32", red(backend.OpMean, dtypes.F32, cast(f(1, 2, 3, 5), dtypes.F32), false), 2.75},
		{"max nan", red(backend.OpReduceMax, dtypes.F64, f(1, nan, 3), false), nan},
		{"min nan", red(backend.OpReduceMin, dtypes.F64, f(1, 3, nan), false), nan},
		{"max", red(backend.OpReduceMax, dtypes.F64, f(1, 7, -inf, 3), false), 7},
		{"min", red(backend.OpReduceMin, dtypes.F64, f(1, 7, -inf, 3), false), -inf},
		{"argmax first", red(backend.OpArgMax, dtypes.I64, f(1, 7, 7, 3), false), 1},
		{"argmax nan wins", red(backend.OpArgMax, dtypes.I64, f(1, 5, nan, 7, nan), false), 2},
		{"argmin nan wins", red(backend.OpArgMin, dtypes.I32, f(1, -5, nan, -7), false), 2},
		{"argmin first", red(backend.OpArgMin, dtypes.I64, f(3, 1, 1), false), 1},
		{"any nan", red(backend.OpAny, dtypes.Bool, f(0, nan), false), 1},
		{"any zeros", red(backend.OpAny, dtypes.Bool, f(0, negz), false), 0},
		{"all", red(backend.OpAll, dtypes.Bool, f(1, 2, 0), false), 0},
		{"sum empty", red(backend.OpSum, dtypes.F64, f(), false), 0},
		{"prod empty", red(backend.OpProd, dtypes.F64, f(), false), 1},
		{"mean empty", red(backend.OpMean, dtypes.F64, f(), false), nan},
		{"all empty", red(backend.OpAll, dtypes.Bool, f(), false), 1},
		{"i8 sum wraps", red(backend.OpSum, dtypes.I8, in(mk(dtypes.I8, []int{3}, 100, 100, 56)), false), 0},
		{"u8 prod wraps", red(backend.OpProd, dtypes.U8, in(mk(dtypes.U8, []int{2}, 16, 17)), false), 16},
		{"i32 max", red(backend.OpReduceMax, dtypes.I32, in(mk(dtypes.I32, []int{3}, -4, -2, -9)), false), -2},
		{"bool sum as i64", red(backend.OpSum, dtypes.I64, in(mk(dtypes.Bool, []int{3}, 1, 1, 0)), false), 2},
		{"bool argmax", red(backend.OpArgMax, dtypes.I64, in(mk(dtypes.Bool, []int{3}, 0, 1, 1)), false), 1},
		{"sum to other dtype", red(backend.OpSum, dtypes.F16, f(1, 2), false), 3},
	}
	for _, c := range cases {
		got := vals(run(t, c.n))
		if len(got) != 1 || !same(got[0], c.want) {
			t.Errorf("%s = %v, want %v", c.name, got, c.want)
		}
	}
}

func TestArgmaxAxis(t *testing.T) {
	x := in(mk(dtypes.F32, []int{2, 3}, 1, 9, 2, 8, nan, 8))
	if got := vals(run(t, red(backend.OpArgMax, dtypes.I64, x, false, 0))); !sameAll(got, []float64{1, 1, 1}) {
		t.Errorf("argmax axis 0 = %v", got)
	}
	if got := vals(run(t, red(backend.OpArgMax, dtypes.I64, x, false, 1))); !sameAll(got, []float64{1, 1}) {
		t.Errorf("argmax axis 1 = %v", got)
	}
	if got := vals(run(t, red(backend.OpArgMin, dtypes.I64, x, true, 1))); !sameAll(got, []float64{0, 1}) {
		t.Errorf("argmin axis 1 = %v", got)
	}
	if got := vals(run(t, red(backend.OpArgMax, dtypes.I64, x, false))); !sameAll(got, []float64{4}) {
		t.Errorf("argmax all = %v", got)
	}
	if got := vals(run(t, red(backend.OpArgMax, dtypes.I64, x, false, 0, 1))); !sameAll(got, []float64{4}) {
		t.Errorf("argmax axes (0, 1) = %v", got)
	}
	y := in(mk(dtypes.I32, []int{2, 2}, 1, 9, 9, 3))
	if got := vals(run(t, red(backend.OpArgMax, dtypes.I64, y, false, 0, 1))); !sameAll(got, []float64{1}) {
		t.Errorf("i32 argmax axes (0, 1) = %v", got)
	}
	m := red(backend.OpMean, dtypes.F64, in(mk(dtypes.I32, []int{2}, 1, 2)), false)
	if got := vals(run(t, m)); got[0] != 1.5 {
		t.Errorf("mean of i32 as f64 = %v", got)
	}
}

// TestArgmaxLong checks argmax and argmin of long runs, which
// argRowsFloat walks in pieces of argPiece: the first NaN wins wherever
// it lies (NumPy's argmax), even after a larger number in a later piece,
// and the first extreme wins without one.
func TestArgmaxLong(t *testing.T) {
	const n = 3*argPiece + 77
	for _, c := range []struct {
		name       string
		nans       []int
		big, small int // where 10 and -10 go
		max, min   int
	}{
		{"no NaN", nil, 2*argPiece + 5, 7, 2*argPiece + 5, 7},
		{"NaN in the second piece", []int{argPiece + 3, 3 * argPiece}, 2*argPiece + 5, 7, argPiece + 3, argPiece + 3},
		{"NaN last", []int{n - 1}, 5, argPiece, n - 1, n - 1},
		{"NaN first", []int{0, 1}, 5, 6, 0, 0},
	} {
		for _, dt := range []dtypes.DType{dtypes.F32, dtypes.F64} {
			v := make([]float64, n)
			for i := range v {
				v[i] = math.Sin(float64(i)) // in [-1, 1]
			}
			v[c.big], v[c.small] = 10, -10
			for _, i := range c.nans {
				v[i] = nan
			}
			x := in(mk(dt, []int{n}, v...))
			if got := vals(run(t, red(backend.OpArgMax, dtypes.I64, x, false))); !sameAll(got, []float64{float64(c.max)}) {
				t.Errorf("%v %s: argmax = %v, want %d", dt, c.name, got, c.max)
			}
			if got := vals(run(t, red(backend.OpArgMin, dtypes.I64, x, false))); !sameAll(got, []float64{float64(c.min)}) {
				t.Errorf("%v %s: argmin = %v, want %d", dt, c.name, got, c.min)
			}
		}
	}
}

func TestReductionErrors(t *testing.T) {
	empty := in(mk(dtypes.F32, []int{0, 3}))
	for _, c := range []struct {
		op   backend.Op
		want string
	}{
		{backend.OpReduceMax, "zero-size array to reduction operation maximum which has no identity"},
		{backend.OpReduceMin, "zero-size array to reduction operation minimum which has no identity"},
	} {
		err := runErr(red(c.op, dtypes.F32, empty, false, 0))
		if err == nil || err.Error() != c.want {
			t.Errorf("%v of empty: %v", c.op, err)
		}
	}
	if err := runErr(red(backend.OpArgMax, dtypes.I64, empty, false, 0)); err == nil || !strings.Contains(err.Error(), "empty sequence") {
		t.Errorf("argmax of empty: %v", err)
	}
	// Reducing the non-empty axis of an empty array is fine.
	if res := run(t, red(backend.OpReduceMax, dtypes.F32, empty, false, 1)); len(vals(res)) != 0 {
		t.Errorf("max over axis 1 of (0, 3): %v", res)
	}
}

// TestPairwiseSumOrder checks NumPy's summation order on values where it
// matters. For 2^24 followed by nineteen 1s in float32, NumPy's pairwise
// sum keeps eight accumulators: r0 = 2^24 + 1 (a tie, back to 2^24), r1…r7
// = 2, giving 2^24 + 14, then adds the last four 1s one at a time:
// 2^24+15 ties up to +16, and +17 ties back down to +16. A sequential sum
// would stay at 2^24.
func TestPairwiseSumOrder(t *testing.T) {
	v := make([]float64, 20)
	v[0] = 1 << 24
	for i := 1; i < 20; i++ {
		v[i] = 1
	}
	got := vals(run(t, red(backend.OpSum, dtypes.F32, in(mk(dtypes.F32, []int{20}, v...)), false)))
	if got[0] != 1<<24+16 {
		t.Errorf("pairwise f32 sum = %v, want %v", got[0], 1<<24+16)
	}
	// Along axis 0 of a (20, 2) array NumPy adds rows one by one.
	v2 := make([]float64, 40)
	for i := range v2 {
		v2[i] = v[i/2]
	}
	got = vals(run(t, red(backend.OpSum, dtypes.F32, in(mk(dtypes.F32, []int{20, 2}, v2...)), false, 0)))
	if !sameAll(got, []float64{1 << 24, 1 << 24}) {
		t.Errorf("f32 column sums = %v, want 2^24", got)
	}
	// A million float32 0.1s: NumPy 1.24 gives 100000.086
	// (np.full(10**6, 0.1, np.float32).sum()): 123 pieces of 8192 (NumPy's
	// buffer), each summed pairwise, added one by one. The exact sum is
	// 100000.0015; a sequential float32 sum gives 100958.34, one pairwise
	// sum of the whole 100000.0.
	n := 1000000
	tenth := make([]float32, n)
	for i := range tenth {
		tenth[i] = 0.1
	}
	s := vals(run(t, red(backend.OpSum, dtypes.F32, in(raw(dtypes.F32, []int{n}, tenth)), false), Workers(4)))[0]
	if s != 100000.0859375 {
		t.Errorf("sum of 10^6 float32 0.1 = %v, want NumPy's 100000.086", s)
	}
}

// TestPairwiseMatchesDefinition compares the sum of random float32 arrays
// of many lengths with a direct transcription of NumPy's pairwise_sum of
// each piece of backend.SumPiece elements (its buffered inner loop), added
// in order to the +0 identity.
func TestPairwiseMatchesDefinition(t *testing.T) {
	var ref func(a []float32) float32
	ref = func(a []float32) float32 {
		n := len(a)
		if n < 8 {
			res := float32(math.Copysign(0, -1))
			for _, v := range a {
				res += v
			}
			return res
		}
		if n <= 128 {
			var r [8]float32
			copy(r[:], a)
			i := 8
			for ; i < n-n%8; i += 8 {
				for j := range 8 {
					r[j] += a[i+j]
				}
			}
			res := ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]))
			for ; i < n; i++ {
				res += a[i]
			}
			return res
		}
		n2 := n / 2
		n2 -= n2 % 8
		return ref(a[:n2]) + ref(a[n2:])
	}
	rng := rand.New(rand.NewSource(5))
	for _, n := range []int{1, 7, 8, 9, 127, 128, 129, 1000, 4097, 8192, 8193, 70001, 300000} {
		a := make([]float32, n)
		for i := range a {
			a[i] = float32(rng.NormFloat64() * math.Exp(rng.Float64()*20))
		}
		got := run(t, red(backend.OpSum, dtypes.F32, in(raw(dtypes.F32, []int{n}, a)), false), Workers(3)).Data.([]float32)[0]
		want := float32(0)
		for lo := 0; lo < n; lo += backend.SumPiece {
			want += ref(a[lo:min(lo+backend.SumPiece, n)])
		}
		if got != want {
			t.Errorf("sum of %d float32 = %v, want %v", n, got, want)
		}
	}
}

func TestFloat16Sums(t *testing.T) {
	// NumPy sums float16 along the contiguous axis in float32 and rounds
	// once (3000 ones give 3000), but adds rows one at a time, rounding
	// each step, along other axes (a float16 column of 3000 ones stops at
	// 2048, where 2048 + 1 rounds back to 2048).
	ones := make([]float64, 3000)
	for i := range ones {
		ones[i] = 1
	}
	x := in(mk(dtypes.F16, []int{3000}, ones...))
	if got := vals(run(t, red(backend.OpSum, dtypes.F16, x, false))); got[0] != 3000 {
		t.Errorf("f16 sum of 3000 ones = %v", got)
	}
	col := in(mk(dtypes.F16, []int{1500, 2}, ones...))
	if got := vals(run(t, red(backend.OpSum, dtypes.F16, col, false, 0))); !sameAll(got, []float64{1500, 1500}) {
		t.Errorf("f16 column sums of 1500 = %v", got)
	}
	col2 := in(mk(dtypes.F16, []int{3000, 1}, ones...))
	// (3000, 1): the size-1 axis vanishes, so this is a contiguous sum.
	if got := vals(run(t, red(backend.OpSum, dtypes.F16, col2, false, 0))); got[0] != 3000 {
		t.Errorf("f16 (3000,1) axis 0 = %v", got)
	}
	wide := make([]float64, 6000)
	for i := range wide {
		wide[i] = 1
	}
	cols := in(mk(dtypes.F16, []int{3000, 2}, wide...))
	if got := vals(run(t, red(backend.OpSum, dtypes.F16, cols, false, 0))); !sameAll(got, []float64{2048, 2048}) {
		t.Errorf("f16 column sums of 3000 ones = %v, want 2048 (NumPy)", got)
	}
}

func TestComplexReductions(t *testing.T) {
	c := in(raw(dtypes.C128, []int{4}, []complex128{1 + 1i, 2, 3i, -1}))
	if got := run(t, red(backend.OpSum, dtypes.C128, c, false)).Data.([]complex128)[0]; got != 2+4i {
		t.Errorf("complex sum = %v", got)
	}
	if got := run(t, red(backend.OpProd, dtypes.C128, c, false)).Data.([]complex128)[0]; got != 6-6i {
		t.Errorf("complex prod = %v", got)
	}
	if got := run(t, red(backend.OpMean, dtypes.C128, c, false)).Data.([]complex128)[0]; got != 0.5+1i {
		t.Errorf("complex mean = %v", got)
	}
}

func TestSoftmax(t *testing.T) {
	x := in(mk(dtypes.F32, []int{2, 3}, 1, 2, 3, 1000, 1001, 1002))
	for _, ax := range []int{0, 1} {
		n := &backend.Node{Op: backend.OpSoftmax, DType: dtypes.F32, Shape: []int{2, 3}, Args: []*backend.Node{x}, Axes: []int{ax}}
		y := run(t, n).Data.([]float32)
		for _, v := range y {
			if v != v {
				t.Fatalf("softmax axis %d has NaN: %v", ax, y)
			}
		}
		if ax == 1 {
			for r := range 2 {
				s := float64(y[3*r]) + float64(y[3*r+1]) + float64(y[3*r+2])
				if math.Abs(s-1) > 1e-6 {
					t.Errorf("softmax row %d sums to %v", r, s)
				}
			}
			want := []float64{0.09003057317038046, 0.24472847105479764, 0.6652409557748219}
			for i, w := range want {
				if y[i] != float32(w) || y[3+i] != float32(w) {
					t.Errorf("softmax[%d] = %v %v, want %v", i, y[i], y[3+i], float32(w))
				}
			}
		}
	}
	n := &backend.Node{Op: backend.OpLogSoftmax, DType: dtypes.F64, Shape: []int{2, 3}, Args: []*backend.Node{cast(x, dtypes.F64)}, Axes: []int{1}}
	y := run(t, n).Data.([]float64)
	if math.Abs(y[2]-math.Log(0.6652409557748219)) > 1e-15 {
		t.Errorf("logsoftmax = %v", y)
	}
	s := math.Exp(y[3]) + math.Exp(y[4]) + math.Exp(y[5])
	if math.Abs(s-1) > 1e-15 {
		t.Errorf("exp(logsoftmax) sums to %v", s)
	}
}

// TestFusedReductions checks that reducing an elementwise expression read
// block by block gives the bits of reducing its materialised result, for
// every axis set, several dtypes and lengths that cross block and
// parallel-pairwise boundaries.
func TestFusedReductions(t *testing.T) {
	rng := rand.New(rand.NewSource(8))
	shapes := [][]int{{70001}, {3, 5000}, {300, 7}, {4, 3, 1100}, {2, 1, 40000}}
	for _, shape := range shapes {
		size := backend.Size(shape)
		a := make([]float64, size)
		b := make([]float64, size)
		for i := range a {
			a[i] = rng.NormFloat64() * 100
			b[i] = rng.Float64()
		}
		for _, d := range []dtypes.DType{dtypes.F32, dtypes.F16, dtypes.F64, dtypes.C64, dtypes.I32} {
			x, y := in(mk(d, shape, a...)), in(mk(d, shape, b...))
			expr := nb(backend.OpAdd, nb(backend.OpMul, x, y), x)
			mat := in(run(t, expr))
			axesSets := [][]int{nil, {0}, {len(shape) - 1}}
			if len(shape) == 3 {
				axesSets = append(axesSets, []int{0, 2}, []int{1, 2})
			}
			ops := []backend.Op{backend.OpSum, backend.OpMean, backend.OpProd, backend.OpReduceMax, backend.OpAny}
			for _, o := range ops {
				if d == dtypes.C64 && (o == backend.OpReduceMax) {
					continue
				}
				for _, axes := range axesSets {
					rd := d
					if o == backend.OpAny {
						rd = dtypes.Bool
					}
					for _, w := range []int{1, 3} {
						fused := run(t, red(o, rd, expr, false, axes...), Workers(w))
						want := run(t, red(o, rd, mat, false, axes...), Workers(w))
						if !sameBits(fused, want) {
							t.Fatalf("%v %v of %v%v axes %v workers %d: fused %v, materialised %v", o, d, d, shape, axes, w, head(fused), head(want))
						}
					}
				}
			}
		}
	}
}

func head(t *backend.Tensor) []float64 {
	v := vals(t)
	return v[:min(len(v), 4)]
}

// sameBits compares two tensors' storage exactly (NaNs by bits too).
func sameBits(a, b *backend.Tensor) bool {
	if a.DType != b.DType || !slices.Equal(a.Shape, b.Shape) {
		return false
	}
	switch x := a.Data.(type) {
	case []float32:
		y := b.Data.([]float32)
		for i := range x {
			if math.Float32bits(x[i]) != math.Float32bits(y[i]) {
				return false
			}
		}
		return true
	case []float64:
		y := b.Data.([]float64)
		for i := range x {
			if math.Float64bits(x[i]) != math.Float64bits(y[i]) {
				return false
			}
		}
		return true
	case []complex64:
		y := b.Data.([]complex64)
		for i := range x {
			if math.Float32bits(real(x[i])) != math.Float32bits(real(y[i])) || math.Float32bits(imag(x[i])) != math.Float32bits(imag(y[i])) {
				return false
			}
		}
		return true
	}
	return sameAll(vals(a), vals(b))
}

// TestFusedReductionMemory: a reduction of an elementwise expression makes
// no full-size temporary, so it runs under a memory limit far below the
// expression's size.
func TestFusedReductionMemory(t *testing.T) {
	row := in(mk(dtypes.F64, []int{1, 10000}, seq(10000, 0, 1)...))
	col := in(mk(dtypes.F64, []int{2000, 1}, seq(2000, 0, 0.5)...))
	expr := nu(backend.OpSqrt, nb(backend.OpAdd, row, col)) // 2000×10000 float64: 160 MB
	for _, axes := range [][]int{nil, {0}, {1}} {
		if err := runErr(red(backend.OpSum, dtypes.F64, expr, false, axes...), MemLimit(1<<20)); err != nil {
			t.Errorf("sum over %v under a 1 MB limit: %v", axes, err)
		}
	}
	// Cancellation reaches fused reductions: seconds of work return the
	// deadline's error, not a sum (no time is asserted; see
	// TestCancellation).
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := New().Run(ctx, red(backend.OpSum, dtypes.F32, slowPlan(2e7), false))
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("cancelled fused sum: %v, want the deadline's", err)
	}
	t.Logf("fused sum: stopped %v after the start (deadline 20 ms)", time.Since(start))
}

// TestSoftmaxFloat32 checks softmax and log-softmax to float32 on a large
// random matrix: within 1 ULP of the float64 computation with math.Exp
// (and equal to it on all but a tiny fraction), the same bits along
// either axis of the transposed input and with one worker, and for a
// float16 result the single rounding of the float64 values.
func TestSoftmaxFloat32(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	const rows, cols = 37, 1029
	v := make([]float64, rows*cols)
	for i := range v {
		v[i] = float64(float32(rng.NormFloat64() * 4))
	}
	v[5*cols+3] = math.Inf(-1)
	x := in(mk(dtypes.F32, []int{rows, cols}, v...))
	xt := in(mk(dtypes.F32, []int{cols, rows}, transpose2(v, rows, cols)...))
	for _, op := range []backend.Op{backend.OpSoftmax, backend.OpLogSoftmax} {
		sm := func(x *backend.Node, d dtypes.DType, ax int, opts ...Option) *backend.Tensor {
			n := &backend.Node{Op: op, DType: d, Shape: x.Shape, Args: []*backend.Node{x}, Axes: []int{ax}}
			return run(t, n, opts...)
		}
		got := sm(x, dtypes.F32, 1).Data.([]float32)
		gotT := sm(xt, dtypes.F32, 0).Data.([]float32)
		got1 := sm(x, dtypes.F32, 1, Workers(1)).Data.([]float32)
		got16 := sm(x, dtypes.F16, 1)
		differ := 0
		for r := range rows {
			row := v[r*cols : (r+1)*cols]
			ref := make([]float64, cols)
			copy(ref, row)
			softmaxRowExact(ref, op == backend.OpLogSoftmax)
			fast := make([]float64, cols)
			copy(fast, row)
			softmaxRow(fast, op == backend.OpLogSoftmax)
			for c := range cols {
				i := r*cols + c
				if d := ulpDist32(got[i], ref[c]); d > 1 {
					t.Fatalf("%v[%d,%d] = %g, float64 reference %g: %.2f ULP", op, r, c, got[i], ref[c], d)
				}
				if got[i] != float32(ref[c]) {
					differ++
				}
				if !sameBits32(got[i], gotT[c*rows+r]) || !sameBits32(got[i], got1[i]) {
					t.Fatalf("%v[%d,%d] = %g, transposed %g, one worker %g", op, r, c, got[i], gotT[c*rows+r], got1[i])
				}
				if h := at(got16, i); !same(h, float64(roundTo64(dtypes.F16, fast[c]))) {
					t.Fatalf("%v f16[%d,%d] = %g, want %g", op, r, c, h, roundTo64(dtypes.F16, fast[c]))
				}
			}
		}
		t.Logf("%v: %d of %d differ from the math.Exp computation", op, differ, rows*cols)
		if differ > rows*cols/10000 {
			t.Errorf("%v: %d of %d differ from the math.Exp computation", op, differ, rows*cols)
		}
	}
	// A NaN makes its row NaN.
	v[7] = math.NaN()
	y := run(t, &backend.Node{Op: backend.OpSoftmax, DType: dtypes.F32, Shape: []int{rows, cols},
		Args: []*backend.Node{in(mk(dtypes.F32, []int{rows, cols}, v...))}, Axes: []int{1}}).Data.([]float32)
	if y[0] == y[0] || y[cols-1] == y[cols-1] || y[cols] != y[cols] {
		t.Errorf("softmax with a NaN: %v %v %v", y[0], y[cols-1], y[cols])
	}
}

func transpose2(v []float64, rows, cols int) []float64 {
	t := make([]float64, len(v))
	for r := range rows {
		for c := range cols {
			t[c*rows+r] = v[r*cols+c]
		}
	}
	return t
}

// TestArgRowsFloat checks the float argmax/argmin along the last axis
// against a plain reading of NumPy's rule (the first extreme wins; the
// first NaN wins), on rows with ties, signed zeros, infinities and NaNs,
// split over workers.
func TestArgRowsFloat(t *testing.T) {
	rng := rand.New(rand.NewSource(34))
	const rows, cols = 257, 301
	vals := make([]float64, rows*cols)
	pool := []float64{0, math.Copysign(0, -1), 1, -1, 2, 2, math.Inf(1), math.Inf(-1), 0.5}
	for i := range vals {
		switch r := rng.Intn(100); {
		case r < 2:
			vals[i] = math.NaN()
		case r < 40:
			vals[i] = pool[rng.Intn(len(pool))]
		default:
			vals[i] = rng.NormFloat64()
		}
	}
	for _, d := range []dtypes.DType{dtypes.F32, dtypes.F64} {
		for _, op := range []backend.Op{backend.OpArgMax, backend.OpArgMin} {
			got := run(t, red(op, dtypes.I64, in(mk(d, []int{rows, cols}, vals...)), false, 1)).Data.([]int64)
			for r := range rows {
				row := vals[r*cols : (r+1)*cols]
				if d == dtypes.F32 {
					row = append([]float64(nil), row...)
					for i, v := range row {
						row[i] = float64(float32(v))
					}
				}
				want := 0
				for i, v := range row {
					if math.IsNaN(row[want]) {
						break
					}
					if math.IsNaN(v) || (op == backend.OpArgMax && v > row[want]) || (op == backend.OpArgMin && v < row[want]) {
						want = i
					}
				}
				if got[r] != int64(want) {
					t.Fatalf("%v %v row %d: %d, want %d", d, op, r, got[r], want)
				}
			}
		}
	}
}

// TestCountTrue checks sum(cast(b, d)) of a whole bool array (countTrue:
// population counts of its bytes, eight a word) against a plain count,
// for the integer dtypes it takes and for int8, which it leaves to the
// running sum (the count wraps there, as np.sum(b, dtype=np.int8) does).
func TestCountTrue(t *testing.T) {
	rng := rand.New(rand.NewSource(4))
	for _, n := range []int{1, 7, 8, 9, 1000, 1000003, -8005} {
		all := n < 0 // every element true: a byte lane of 255 words fills up
		n = max(n, -n)
		v := make([]float64, n)
		count := 0
		for i := range v {
			if all || rng.Intn(3) == 0 {
				v[i] = 1
				count++
			}
		}
		x := in(mk(dtypes.Bool, []int{n}, v...))
		for _, d := range []dtypes.DType{dtypes.I64, dtypes.I32, dtypes.U64, dtypes.U32, dtypes.I8} {
			got := vals(run(t, red(backend.OpSum, d, cast(x, d), false)))[0]
			want := float64(count)
			if d == dtypes.I8 {
				want = float64(int8(count))
			}
			if got != want {
				t.Fatalf("sum of %d bools (%d true) as %v = %v, want %v", n, count, d, got, want)
			}
		}
	}
	// Along an axis the running sums are kept.
	x := in(mk(dtypes.Bool, []int{2, 3}, 1, 0, 1, 1, 1, 0))
	if got := vals(run(t, red(backend.OpSum, dtypes.I64, cast(x, dtypes.I64), false, 0))); !sameAll(got, []float64{2, 1, 1}) {
		t.Errorf("sum along axis 0 = %v", got)
	}
}

// TestCountFused checks sum(cast(x > y, d)) of fused comparisons
// (countFused: each block's bools counted as bytes, on the workers)
// against a plain count: one and several blocks and workers, tails,
// operands transposed and broadcast, every integer dtype it takes, and
// int8, which it leaves to the running sum.
func TestCountFused(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	for _, shape := range [][]int{{1}, {7}, {4097}, {300, 301}, {1000, 1003}} {
		n := 1
		for _, s := range shape {
			n *= s
		}
		xv, yv := make([]float64, n), make([]float64, n)
		for i := range xv {
			xv[i], yv[i] = float64(rng.Intn(7)), float64(rng.Intn(7))
		}
		x, y := in(mk(dtypes.F32, shape, xv...)), in(mk(dtypes.F32, shape, yv...))
		count := 0
		for i := range xv {
			if xv[i] > yv[i] {
				count++
			}
		}
		gt := &backend.Node{Op: backend.OpGt, DType: dtypes.Bool, Shape: shape, Args: []*backend.Node{x, y}}
		for _, d := range []dtypes.DType{dtypes.I64, dtypes.I32, dtypes.U64, dtypes.U32, dtypes.I8} {
			got := vals(run(t, red(backend.OpSum, d, cast(gt, d), false)))[0]
			want := float64(count)
			if d == dtypes.I8 {
				want = float64(int8(count))
			}
			if got != want {
				t.Fatalf("%v: count of x > y as %v = %v, want %v", shape, d, got, want)
			}
		}
		// x > 3 and x > 3 of x transposed: the same count.
		c3 := 0
		for _, v := range xv {
			if v > 3 {
				c3++
			}
		}
		three := in(mk(dtypes.F32, nil, 3))
		xt := x
		if len(shape) == 2 {
			xt = &backend.Node{Op: backend.OpTranspose, DType: dtypes.F32, Shape: []int{shape[1], shape[0]}, Axes: []int{1, 0}, Args: []*backend.Node{x}}
		}
		for _, a := range []*backend.Node{x, xt} {
			g := &backend.Node{Op: backend.OpGt, DType: dtypes.Bool, Shape: a.Shape, Args: []*backend.Node{a, three}}
			if got := vals(run(t, red(backend.OpSum, dtypes.I64, cast(g, dtypes.I64), false)))[0]; got != float64(c3) {
				t.Fatalf("%v: count of x > 3 = %v, want %v", shape, got, c3)
			}
		}
	}
}

// TestCountRowsFused checks sums and means of cast(x > y, d) along the
// last axis (countRowsFused: each row's bools counted as bytes) against
// the same reductions of the numbers: rows shorter and longer than a
// block, blocks cut inside rows, 3-d inputs, keepdims, one worker and
// four, every dtype it takes, and int8 and float16, which it leaves to the
// general walk; operands transposed and broadcast along either axis; a
// division by zero inside the comparison.
func TestCountRowsFused(t *testing.T) {
	rng := rand.New(rand.NewSource(8))
	for _, shape := range [][]int{{1, 40}, {3, 32}, {5, 33}, {1000, 1003}, {2, 70001}, {7, 4, 40}} {
		n := backend.Size(shape)
		xv, yv, gv := make([]float64, n), make([]float64, n), make([]float64, n)
		for i := range xv {
			xv[i], yv[i] = float64(rng.Intn(7)), float64(rng.Intn(7))
			if xv[i] > yv[i] {
				gv[i] = 1
			}
		}
		x, y := in(mk(dtypes.F32, shape, xv...)), in(mk(dtypes.F32, shape, yv...))
		gt := &backend.Node{Op: backend.OpGt, DType: dtypes.Bool, Shape: shape, Args: []*backend.Node{x, y}}
		last := len(shape) - 1
		for _, c := range []struct {
			op backend.Op
			d  dtypes.DType
		}{
			{backend.OpSum, dtypes.I64}, {backend.OpSum, dtypes.I32}, {backend.OpSum, dtypes.U64},
			{backend.OpSum, dtypes.U32}, {backend.OpSum, dtypes.I8}, {backend.OpMean, dtypes.F64},
			{backend.OpMean, dtypes.F32}, {backend.OpMean, dtypes.F16},
		} {
			for _, keep := range []bool{false, true} {
				want := vals(run(t, red(c.op, c.d, in(mk(c.d, shape, gv...)), keep, last)))
				for _, w := range []int{1, 4} {
					got := vals(run(t, red(c.op, c.d, cast(gt, c.d), keep, last), Workers(w)))
					if !sameAll(got, want) {
						t.Fatalf("%v of %v along %d of x > y, %v, keepdims %v, %d workers: %v, want %v",
							c.op, shape, last, c.d, keep, w, got[:min(len(got), 4)], want[:min(len(want), 4)])
					}
				}
			}
		}
	}
	// Operands read other than in place: transposed (in tiles), a row
	// broadcast down the rows, a column broadcast along them.
	const m, k = 300, 301
	xv, rv, cv := make([]float64, m*k), make([]float64, k), make([]float64, m)
	for i := range xv {
		xv[i] = float64(rng.Intn(7))
	}
	for i := range rv {
		rv[i] = float64(rng.Intn(7))
	}
	for i := range cv {
		cv[i] = float64(rng.Intn(7))
	}
	x := in(mk(dtypes.F32, []int{k, m}, xv...))
	xt := &backend.Node{Op: backend.OpTranspose, DType: dtypes.F32, Shape: []int{m, k}, Axes: []int{1, 0}, Args: []*backend.Node{x}}
	row := &backend.Node{Op: backend.OpBroadcastTo, DType: dtypes.F32, Shape: []int{m, k}, Args: []*backend.Node{in(mk(dtypes.F32, []int{k}, rv...))}}
	col := &backend.Node{Op: backend.OpBroadcastTo, DType: dtypes.F32, Shape: []int{m, k}, Args: []*backend.Node{in(mk(dtypes.F32, []int{m, 1}, cv...))}}
	for _, c := range []struct {
		name string
		a, b *backend.Node
	}{{"transpose(x) > row", xt, row}, {"transpose(x) > column", xt, col}, {"row > column", row, col}} {
		gt := &backend.Node{Op: backend.OpGt, DType: dtypes.Bool, Shape: []int{m, k}, Args: []*backend.Node{c.a, c.b}}
		want := make([]float64, m)
		for i := range m {
			for j := range k {
				a, b := rv[j], cv[i]
				switch c.name {
				case "transpose(x) > row":
					a, b = xv[j*m+i], rv[j]
				case "transpose(x) > column":
					a = xv[j*m+i]
				}
				if a > b {
					want[i]++
				}
			}
		}
		for _, w := range []int{1, 4} {
			got := vals(run(t, red(backend.OpSum, dtypes.I64, cast(gt, dtypes.I64), false, 1), Workers(w)))
			if !sameAll(got, want) {
				t.Fatalf("sum(%s, axis=1), %d workers: %v, want %v", c.name, w, got[:4], want[:4])
			}
		}
	}
	// A division by zero in a row's comparison comes back.
	const rows, l = 64, 1000
	v, z := make([]float64, rows*l), make([]float64, rows*l)
	for i := range v {
		v[i], z[i] = float64(i), 1
	}
	z[rows*l-5] = 0
	q := nb(backend.OpFloorDiv, in(mk(dtypes.I32, []int{rows, l}, v...)), in(mk(dtypes.I32, []int{rows, l}, z...)))
	q.ZeroDivError = true
	zero := in(mk(dtypes.I32, nil, 0))
	gt := &backend.Node{Op: backend.OpGt, DType: dtypes.Bool, Shape: []int{rows, l}, Args: []*backend.Node{q, zero}}
	if err := runErr(red(backend.OpSum, dtypes.I64, cast(gt, dtypes.I64), false, 1), Workers(4)); !errors.Is(err, backend.ErrDivideByZero) {
		t.Errorf("sum along rows of (x // z) > 0 with a zero divisor: %v", err)
	}
}

// TestAnyAllFused checks any and all of fused comparisons (counted by
// countFused) where every element, none, or one decides.
func TestAnyAllFused(t *testing.T) {
	for _, n := range []int{1, 5, 4096, 4097, 300001} {
		for _, where := range []int{-1, 0, n / 2, n - 1} {
			v := make([]float64, n)
			if where >= 0 {
				v[where] = 5
			}
			x := in(mk(dtypes.F32, []int{n}, v...))
			lim := in(mk(dtypes.F32, nil, 1))
			gt := &backend.Node{Op: backend.OpGt, DType: dtypes.Bool, Shape: []int{n}, Args: []*backend.Node{x, lim}}
			le := &backend.Node{Op: backend.OpLe, DType: dtypes.Bool, Shape: []int{n}, Args: []*backend.Node{x, lim}}
			if got := vals(run(t, red(backend.OpAny, dtypes.Bool, gt, false)))[0]; (got == 1) != (where >= 0) {
				t.Fatalf("n=%d, 5 at %d: any(x > 1) = %v", n, where, got)
			}
			if got := vals(run(t, red(backend.OpAll, dtypes.Bool, le, false)))[0]; (got == 1) != (where < 0) {
				t.Fatalf("n=%d, 5 at %d: all(x <= 1) = %v", n, where, got)
			}
		}
	}
}

// TestProdBool checks prod(cast(b, d)) of bools (all(b) cast) against
// the products of their numbers, along every axis and all, with keepdims,
// for integer, float and complex d, and over no elements (1).
func TestProdBool(t *testing.T) {
	rng := rand.New(rand.NewSource(6))
	shape := []int{3, 40, 5}
	v := make([]float64, 600)
	for i := range v {
		if rng.Intn(8) != 0 || i%5 == 2 {
			v[i] = 1 // mostly true, one column all true
		}
	}
	b := in(mk(dtypes.Bool, shape, v...))
	for _, d := range []dtypes.DType{dtypes.I64, dtypes.U8, dtypes.F32, dtypes.C64} {
		for _, axes := range [][]int{nil, {0}, {1}, {2}, {0, 2}} {
			for _, keep := range []bool{false, true} {
				got := vals(run(t, red(backend.OpProd, d, cast(b, d), keep, axes...)))
				want := vals(run(t, red(backend.OpProd, d, in(mk(d, shape, v...)), keep, axes...)))
				if !sameAll(got, want) {
					t.Fatalf("%v axes %v keep %v: prod = %v, want %v", d, axes, keep, got, want)
				}
			}
		}
	}
	e := in(mk(dtypes.Bool, []int{0, 3}))
	if got := vals(run(t, red(backend.OpProd, dtypes.I64, cast(e, dtypes.I64), false, 0))); !sameAll(got, []float64{1, 1, 1}) {
		t.Errorf("prod over no elements = %v, want ones", got)
	}
}

// TestMeanBool checks mean(cast(b, d)) of a whole bool array and of a
// fused comparison (the count over the size) against the mean of the
// numbers, for float64 and float32, sizes of one and many blocks.
func TestMeanBool(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	for _, n := range []int{1, 3, 4097, 1000003} {
		v := make([]float64, n)
		for i := range v {
			v[i] = float64(rng.Intn(2))
		}
		for _, d := range []dtypes.DType{dtypes.F64, dtypes.F32} {
			want := vals(run(t, red(backend.OpMean, d, in(mk(d, []int{n}, v...)), false)))[0]
			b := in(mk(dtypes.Bool, []int{n}, v...))
			if got := vals(run(t, red(backend.OpMean, d, cast(b, d), false)))[0]; got != want {
				t.Fatalf("%d bools, %v: mean = %v, want %v", n, d, got, want)
			}
			x := in(mk(dtypes.F32, []int{n}, v...))
			half := in(mk(dtypes.F32, nil, 0.5))
			gt := &backend.Node{Op: backend.OpGt, DType: dtypes.Bool, Shape: []int{n}, Args: []*backend.Node{x, half}}
			if got := vals(run(t, red(backend.OpMean, d, cast(gt, d), false)))[0]; got != want {
				t.Fatalf("%d elements, %v: mean(x > 0.5) = %v, want %v", n, d, got, want)
			}
		}
	}
}

// TestFusedReduceGivesBlocksBack checks that a reduction of a fused tree
// (sum(x*x) of 1000 float64) gives its windows' block buffers back: run
// again and again, it allocates far less than one block (blockSize
// elements, 32 kB) a run, where each run once allocated (and cleared)
// one a window.
func TestFusedReduceGivesBlocksBack(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	xs := make([]float64, 1000)
	for i := range xs {
		xs[i] = rng.Float64()
	}
	x := in(mk(dtypes.F64, []int{1000}, xs...))
	n := red(backend.OpSum, dtypes.F64, nb(backend.OpMul, x, x), false)
	b := New(Workers(1))
	for range 10 {
		if _, err := b.Run(context.Background(), n); err != nil {
			t.Fatal(err)
		}
	}
	const runs = 200
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	for range runs {
		if _, err := b.Run(context.Background(), n); err != nil {
			t.Fatal(err)
		}
	}
	runtime.ReadMemStats(&m1)
	if per := (m1.TotalAlloc - m0.TotalAlloc) / runs; per > blockSize*8/4 {
		t.Errorf("sum(x*x) of 1000 float64 allocates %d bytes a run, want at most %d (a quarter of a block)", per, blockSize*8/4)
	}
}

// TestChunkOffsets checks chunkOffsets against the offsets listed group by
// group (the first group's index slowest), for walks made and found again
// in its cache, after other walks have moved them down or out of it, and
// for a walk too long to keep.
func TestChunkOffsets(t *testing.T) {
	want := func(size, str []int) []int {
		offs := []int{0}
		for i, s := range size {
			var next []int
			for _, o := range offs {
				for j := range s {
					next = append(next, o+j*str[i])
				}
			}
			offs = next
		}
		return offs
	}
	walks := [][2][]int{
		{{1000}, {1000}},
		{{3, 4}, {100, 7}},
		{{2, 3, 5}, {60, 20, 1}},
		{{5, 3, 2}, {1, 5, 15}},
		{{7}, {1}},
		{{1}, {9}},
		{{2, 2}, {1000, 10}},
	}
	rng := rand.New(rand.NewSource(1))
	for range 12 {
		n := 1 + rng.Intn(3)
		size, str := make([]int, n), make([]int, n)
		for i := range size {
			size[i], str[i] = 1+rng.Intn(6), 1+rng.Intn(50)
		}
		walks = append(walks, [2][]int{size, str})
	}
	// Each walk three times, in two orders: the later calls find most
	// of them in the cache, some after redOffsKeep others pushed them out.
	for round := range 3 {
		for i := range walks {
			w := walks[i]
			if round == 1 {
				w = walks[len(walks)-1-i]
			}
			if got := chunkOffsets(w[0], w[1]); !slices.Equal(got, want(w[0], w[1])) {
				t.Fatalf("round %d: chunkOffsets(%v, %v) = %v, want %v", round, w[0], w[1], got, want(w[0], w[1]))
			}
		}
	}
	// A cached list is the same list the next time, and the sizes and
	// strides it is kept under are copies: changing the caller's slices
	// after the call does not change what the cache finds.
	size, str := []int{4, 6}, []int{50, 3}
	a := chunkOffsets(size, str)
	size[0], str[1] = 9, 8
	if b := chunkOffsets([]int{4, 6}, []int{50, 3}); &a[0] != &b[0] {
		t.Error("a walk made just before was not found in the cache")
	}
	if got := chunkOffsets(size, str); !slices.Equal(got, want(size, str)) {
		t.Errorf("after the caller's slices changed: %v, want %v", got, want(size, str))
	}
	if len(redOffs.list) > redOffsKeep {
		t.Errorf("the cache holds %d walks, more than %d", len(redOffs.list), redOffsKeep)
	}
	// Past redOffsMax offsets a list is made each time, not kept.
	big := []int{redOffsMax + 1}
	x := chunkOffsets(big, []int{2})
	if y := chunkOffsets(big, []int{2}); &x[0] == &y[0] || !slices.Equal(x, y) || x[redOffsMax] != 2*redOffsMax {
		t.Error("a walk longer than redOffsMax was kept, or listed wrong")
	}
}

// TestRedOpsMemo checks that the memo of reduction steps (memoOps) keeps
// apart what makes them differ: the element type (int32 and uint32 of
// one size compare differently), the operation, the dtype of the result
// (a float16 sum rounds each step) and fastReduce (tests turn the kernels
// off to get the reference loops).
func TestRedOpsMemo(t *testing.T) {
	i32, err := memoOps(backend.OpReduceMax, dtypes.Invalid, newIntOps[int32])
	if err != nil {
		t.Fatal(err)
	}
	u32, err := memoOps(backend.OpReduceMax, dtypes.Invalid, newIntOps[uint32])
	if err != nil {
		t.Fatal(err)
	}
	if got := i32.fold(-5, []int32{-1, 1}); got != 1 {
		t.Errorf("int32 max of -5, -1, 1 = %d, want 1", got)
	}
	if got := u32.fold(5, []uint32{0xffffffff, 1}); got != 0xffffffff {
		t.Errorf("uint32 max of 5, 0xffffffff, 1 = %#x, want 0xffffffff", got)
	}
	sum, err := memoOps(backend.OpSum, dtypes.F32, newFloatOps[float32])
	if err != nil {
		t.Fatal(err)
	}
	prod, err := memoOps(backend.OpProd, dtypes.F32, newFloatOps[float32])
	if err != nil {
		t.Fatal(err)
	}
	if sum.init != 0 || prod.init != 1 || sum.round1 != nil {
		t.Errorf("float32 sum and prod: init %v and %v, round1 set %v", sum.init, prod.init, sum.round1 != nil)
	}
	initTables()
	half, err := memoOps(backend.OpSum, dtypes.F16, newFloatOps[float32])
	if err != nil {
		t.Fatal(err)
	}
	if half.round1 == nil || half.round1(1+0x1p-12) != 1 {
		t.Errorf("float16 sum: its steps do not round to float16")
	}
	defer func(f bool) { fastReduce = f }(fastReduce)
	fastReduce = true
	fast, _ := memoOps(backend.OpSum, dtypes.F64, newFloatOps[float64])
	fastReduce = false
	slow, _ := memoOps(backend.OpSum, dtypes.F64, newFloatOps[float64])
	if fast.vecs != nil && slow.vecs != nil && haveAVX2 {
		t.Errorf("fastReduce off: the memo gave the steps made with the kernels")
	}
	if _, err := memoOps(backend.OpAdd, dtypes.F64, newFloatOps[float64]); err == nil {
		t.Errorf("memoOps of + (no reduction): no error")
	}
}
