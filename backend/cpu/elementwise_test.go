package cpu

import (
	"context"
	"errors"
	"math"
	"math/rand"
	"testing"

	"github.com/tensorsh/tensorsh/backend"
	"github.com/tensorsh/tensorsh/dtypes"
	"github.com/x448/float16"
)

// binCase is one elementwise binary test: a op b = want, elementwise.
type binCase struct {
	name    string
	op      backend.Op
	dt      dtypes.DType
	a, b    []float64
	want    []float64
	cdiv    bool
	zeroErr bool
}

func runBin(t *testing.T, c binCase) {
	t.Helper()
	shape := []int{len(c.a)}
	n := nb(c.op, in(mk(c.dt, shape, c.a...)), in(mk(c.dt, shape, c.b...)))
	n.CDiv, n.ZeroDivError = c.cdiv, c.zeroErr
	got := vals(run(t, n))
	if !sameAll(got, c.want) {
		t.Errorf("%s: %v %v %v = %v, want %v", c.name, c.a, c.op, c.b, got, c.want)
	}
}

func TestIntegerArithmetic(t *testing.T) {
	cases := []binCase{
		{"i8 add wraps", backend.OpAdd, dtypes.I8, []float64{127, -128, 100}, []float64{1, -1, 100}, []float64{-128, 127, -56}, false, false},
		{"u8 sub wraps", backend.OpSub, dtypes.U8, []float64{0, 5, 255}, []float64{1, 10, 255}, []float64{255, 251, 0}, false, false},
		{"i16 mul wraps", backend.OpMul, dtypes.I16, []float64{300, -300, 256}, []float64{300, 300, 128}, []float64{90000 - 65536, -90000 + 65536, -32768}, false, false},
		{"u16 mul wraps", backend.OpMul, dtypes.U16, []float64{256, 65535}, []float64{256, 65535}, []float64{0, 1}, false, false},
		{"i32 max min", backend.OpMax, dtypes.I32, []float64{-5, 3}, []float64{2, -7}, []float64{2, 3}, false, false},
		{"u32 min", backend.OpMin, dtypes.U32, []float64{5, 4e9}, []float64{2, 3e9}, []float64{2, 3e9}, false, false},
		// Floor division and modulo, every sign combination.
		{"i32 floordiv", backend.OpFloorDiv, dtypes.I32, []float64{7, -7, 7, -7, 0, 6}, []float64{2, 2, -2, -2, 3, -3}, []float64{3, -4, -4, 3, 0, -2}, false, false},
		{"i32 floormod", backend.OpMod, dtypes.I32, []float64{7, -7, 7, -7, 0, 6}, []float64{2, 2, -2, -2, 3, -3}, []float64{1, 1, -1, -1, 0, 0}, false, false},
		{"i32 cdiv", backend.OpFloorDiv, dtypes.I32, []float64{7, -7, 7, -7}, []float64{2, 2, -2, -2}, []float64{3, -3, -3, 3}, true, false},
		{"i32 cmod", backend.OpMod, dtypes.I32, []float64{7, -7, 7, -7}, []float64{2, 2, -2, -2}, []float64{1, -1, 1, -1}, true, false},
		{"i64 div is floor", backend.OpDiv, dtypes.I64, []float64{7, -7}, []float64{2, 2}, []float64{3, -4}, false, false},
		{"i64 div truncates with CDiv", backend.OpDiv, dtypes.I64, []float64{7, -7}, []float64{2, 2}, []float64{3, -3}, true, false},
		{"i8 floordiv by zero", backend.OpFloorDiv, dtypes.I8, []float64{5, -5, 0}, []float64{0, 0, 0}, []float64{0, 0, 0}, false, false},
		{"i8 mod by zero", backend.OpMod, dtypes.I8, []float64{5, -5}, []float64{0, 0}, []float64{0, 0}, false, false},
		{"i32 MIN // -1 wraps", backend.OpFloorDiv, dtypes.I32, []float64{math.MinInt32}, []float64{-1}, []float64{math.MinInt32}, false, false},
		{"i32 MIN % -1", backend.OpMod, dtypes.I32, []float64{math.MinInt32}, []float64{-1}, []float64{0}, false, false},
		{"i8 MIN c-div -1", backend.OpFloorDiv, dtypes.I8, []float64{-128}, []float64{-1}, []float64{-128}, true, false},
		{"u8 floordiv mod", backend.OpFloorDiv, dtypes.U8, []float64{200, 7}, []float64{7, 2}, []float64{28, 3}, false, false},
		{"u8 mod", backend.OpMod, dtypes.U8, []float64{200, 7}, []float64{7, 2}, []float64{4, 1}, false, false},
		// Powers by repeated squaring, wrapping.
		{"i32 pow", backend.OpPow, dtypes.I32, []float64{2, 3, 0, -2, -1, 7}, []float64{10, 0, 0, 3, 5, 1}, []float64{1024, 1, 1, -8, -1, 7}, false, false},
		{"i8 pow wraps", backend.OpPow, dtypes.I8, []float64{2, 3}, []float64{7, 5}, []float64{-128, 243 - 256}, false, false},
		{"u8 pow wraps", backend.OpPow, dtypes.U8, []float64{3, 2}, []float64{6, 8}, []float64{729 % 256, 0}, false, false},
		// Shifts: counts of the width or more give 0 (or -1).
		{"i8 shl", backend.OpShl, dtypes.I8, []float64{1, 1, 1, 3, 1}, []float64{7, 8, 100, 1, -1}, []float64{-128, 0, 0, 6, 0}, false, false},
		{"i8 shr", backend.OpShr, dtypes.I8, []float64{-128, -128, 64, 64, -1, 5}, []float64{7, 8, 10, 6, 1, -3}, []float64{-1, -1, 0, 1, -1, 0}, false, false},
		{"u8 shifts", backend.OpShr, dtypes.U8, []float64{255, 255}, []float64{8, 7}, []float64{0, 1}, false, false},
		{"u16 shl", backend.OpShl, dtypes.U16, []float64{1, 1}, []float64{15, 16}, []float64{32768, 0}, false, false},
		{"bitand", backend.OpBitAnd, dtypes.I16, []float64{12, -1}, []float64{10, 255}, []float64{8, 255}, false, false},
		{"bitor", backend.OpBitOr, dtypes.U8, []float64{12, 1}, []float64{10, 128}, []float64{14, 129}, false, false},
		{"bitxor", backend.OpBitXor, dtypes.I32, []float64{12, -1}, []float64{10, 0}, []float64{6, -1}, false, false},
		{"compare lt", backend.OpLt, dtypes.I64, []float64{1, 2, 3}, []float64{2, 2, 2}, []float64{1, 0, 0}, false, false},
		{"compare ge", backend.OpGe, dtypes.U64, []float64{1, 2, 3}, []float64{2, 2, 2}, []float64{0, 1, 1}, false, false},
		{"compare eq", backend.OpEq, dtypes.I8, []float64{1, 2}, []float64{1, 3}, []float64{1, 0}, false, false},
		{"logical and", backend.OpAnd, dtypes.I32, []float64{0, 2, 3}, []float64{1, 0, -1}, []float64{0, 0, 1}, false, false},
		{"logical or", backend.OpOr, dtypes.I32, []float64{0, 2, 0}, []float64{0, 0, -1}, []float64{0, 1, 1}, false, false},
	}
	for _, c := range cases {
		runBin(t, c)
	}
}

func TestIntegerEdgeValues(t *testing.T) {
	// Values that float64 cannot carry: built from raw data.
	a := in(raw(dtypes.I64, []int{3}, []int64{math.MaxInt64, math.MinInt64, 1}))
	b := in(raw(dtypes.I64, []int{3}, []int64{1, -1, 63}))
	add := run(t, nb(backend.OpAdd, a, b)).Data.([]int64)
	if add[0] != math.MinInt64 || add[1] != math.MaxInt64 {
		t.Errorf("i64 add: %v", add)
	}
	shl := run(t, nb(backend.OpShl, a, b)).Data.([]int64)
	if shl[2] != math.MinInt64 {
		t.Errorf("1 << 63 = %d", shl[2])
	}
	neg := run(t, nu(backend.OpNeg, a)).Data.([]int64)
	if neg[1] != math.MinInt64 || neg[0] != -math.MaxInt64 {
		t.Errorf("i64 neg: %v", neg)
	}
	u := in(raw(dtypes.U64, []int{2}, []uint64{math.MaxUint64, 0}))
	one := in(raw(dtypes.U64, []int{2}, []uint64{1, 1}))
	if got := run(t, nb(backend.OpAdd, u, one)).Data.([]uint64); got[0] != 0 || got[1] != 1 {
		t.Errorf("u64 add: %v", got)
	}
	if got := run(t, nu(backend.OpNeg, one)).Data.([]uint64); got[0] != math.MaxUint64 {
		t.Errorf("u64 neg: %v", got)
	}
	// Index and address compute like u64.
	ix := in(raw(dtypes.Index, []int{2}, []uint64{5, 7}))
	if got := run(t, nb(backend.OpMul, ix, ix)).Data.([]uint64); got[0] != 25 || got[1] != 49 {
		t.Errorf("index mul: %v", got)
	}
}

func TestIntegerUnary(t *testing.T) {
	cases := []struct {
		op   backend.Op
		dt   dtypes.DType
		a    []float64
		want []float64
	}{
		{backend.OpNeg, dtypes.I8, []float64{-128, 5, 0}, []float64{-128, -5, 0}},
		{backend.OpNeg, dtypes.U8, []float64{1, 0}, []float64{255, 0}},
		{backend.OpAbs, dtypes.I8, []float64{-128, -5, 5}, []float64{-128, 5, 5}},
		{backend.OpAbs, dtypes.U16, []float64{65535}, []float64{65535}},
		{backend.OpInvert, dtypes.I32, []float64{0, -1, 5}, []float64{-1, 0, -6}},
		{backend.OpInvert, dtypes.U8, []float64{0, 255}, []float64{255, 0}},
		{backend.OpRelu, dtypes.I16, []float64{-3, 0, 4}, []float64{0, 0, 4}},
		{backend.OpNot, dtypes.I32, []float64{0, 3}, []float64{1, 0}},
		{backend.OpFloor, dtypes.I32, []float64{-3, 4}, []float64{-3, 4}},
		{backend.OpIsNaN, dtypes.I32, []float64{-3, 4}, []float64{0, 0}},
	}
	for _, c := range cases {
		got := vals(run(t, nu(c.op, in(mk(c.dt, []int{len(c.a)}, c.a...)))))
		if !sameAll(got, c.want) {
			t.Errorf("%v %v %v = %v, want %v", c.op, c.dt, c.a, got, c.want)
		}
	}
}

func TestIntegerErrors(t *testing.T) {
	a := in(mk(dtypes.I32, []int{2}, 5, 6))
	z := in(mk(dtypes.I32, []int{2}, 1, 0))
	for _, op := range []backend.Op{backend.OpDiv, backend.OpFloorDiv, backend.OpMod} {
		n := nb(op, a, z)
		n.ZeroDivError = true
		if err := runErr(n); !errors.Is(err, backend.ErrDivideByZero) {
			t.Errorf("%v by zero with ZeroDivError: %v", op, err)
		}
	}
	neg := in(mk(dtypes.I64, []int{2}, 2, -1))
	if err := runErr(nb(backend.OpPow, in(mk(dtypes.I64, []int{2}, 2, 2)), neg)); err == nil || err.Error() != "integers to negative integer powers are not allowed" {
		t.Errorf("negative power: %v", err)
	}
	if err := runErr(nu(backend.OpExp, a)); err == nil {
		t.Errorf("exp of i32 should be refused (the plan casts first)")
	}
	mixed := &backend.Node{Op: backend.OpAdd, DType: dtypes.I32, Shape: []int{2}, Args: []*backend.Node{a, in(mk(dtypes.I64, []int{2}, 1, 2))}}
	if err := runErr(mixed); err == nil {
		t.Errorf("operands of different dtypes should be refused")
	}
}

func TestFloatArithmetic(t *testing.T) {
	cases := []binCase{
		{"f64 div by zero", backend.OpDiv, dtypes.F64, []float64{1, -1, 0, negz}, []float64{0, 0, 0, 1}, []float64{inf, -inf, nan, negz}, false, false},
		{"f32 div by -0", backend.OpDiv, dtypes.F32, []float64{1}, []float64{negz}, []float64{-inf}, false, false},
		{"f64 floordiv", backend.OpFloorDiv, dtypes.F64, []float64{7, -7, 7, -7, 1, -1, 0, 5, -5, inf}, []float64{2, 3, -2, -2, 0, 0, 0, inf, inf, 2}, []float64{3, -3, -4, 3, inf, -inf, nan, 0, -1, nan}, false, false},
		{"f64 remainder", backend.OpMod, dtypes.F64, []float64{-7, 7, 7, 0, 0, 1, 5, -5, 6}, []float64{3, -3, 3, -3, 3, 0, inf, inf, 3}, []float64{2, -2, 1, negz, 0, nan, 5, inf, 0}, false, false},
		{"f32 floordiv", backend.OpFloorDiv, dtypes.F32, []float64{7, -7.5}, []float64{-2, 2}, []float64{-4, -4}, false, false},
		{"f32 remainder", backend.OpMod, dtypes.F32, []float64{-7, 5.5}, []float64{3, -2}, []float64{2, -0.5}, false, false},
		{"f64 c floordiv", backend.OpFloorDiv, dtypes.F64, []float64{-7, 7}, []float64{2, -2}, []float64{-3, -3}, true, false},
		{"f64 fmod", backend.OpMod, dtypes.F64, []float64{-7, 7, -7}, []float64{2, -2, 0}, []float64{-1, 1, nan}, true, false},
		{"max propagates nan", backend.OpMax, dtypes.F64, []float64{nan, 1, 2, inf}, []float64{1, nan, 1, -inf}, []float64{nan, nan, 2, inf}, false, false},
		{"min propagates nan", backend.OpMin, dtypes.F32, []float64{nan, 1, 2}, []float64{1, nan, 1}, []float64{nan, nan, 1}, false, false},
		{"nan compares", backend.OpEq, dtypes.F64, []float64{nan, 1}, []float64{nan, 1}, []float64{0, 1}, false, false},
		{"nan ne", backend.OpNe, dtypes.F64, []float64{nan, 1}, []float64{nan, 1}, []float64{1, 0}, false, false},
		{"nan lt", backend.OpLt, dtypes.F32, []float64{nan, 1, 1}, []float64{1, nan, 2}, []float64{0, 0, 1}, false, false},
		{"pow", backend.OpPow, dtypes.F64, []float64{2, 1, nan, -8, 0}, []float64{0.5, nan, 0, 1.0 / 3, -1}, []float64{math.Sqrt2, 1, 1, nan, inf}, false, false},
		{"f32 pow", backend.OpPow, dtypes.F32, []float64{3, 2}, []float64{4, -2}, []float64{81, 0.25}, false, false},
		{"truth of floats", backend.OpAnd, dtypes.F64, []float64{nan, 0, 1}, []float64{1, 1, negz}, []float64{1, 0, 0}, false, false},
	}
	for _, c := range cases {
		runBin(t, c)
	}
}

func TestFloatUnary(t *testing.T) {
	cases := []struct {
		op   backend.Op
		dt   dtypes.DType
		a    []float64
		want []float64
	}{
		{backend.OpRound, dtypes.F64, []float64{0.5, 1.5, 2.5, -0.5, -2.5, 2.4}, []float64{1, 2, 3, -1, -3, 2}},
		{backend.OpRoundEven, dtypes.F32, []float64{0.5, 1.5, 2.5, -0.5, -2.5, 2.6}, []float64{0, 2, 2, negz, -2, 3}},
		{backend.OpFloor, dtypes.F64, []float64{-1.5, 1.5, nan}, []float64{-2, 1, nan}},
		{backend.OpCeil, dtypes.F16, []float64{-1.5, 1.5}, []float64{-1, 2}},
		{backend.OpTrunc, dtypes.BF16, []float64{-1.5, 1.5}, []float64{-1, 1}},
		{backend.OpRelu, dtypes.F32, []float64{-1, 0, negz, 2, nan, -inf}, []float64{0, 0, 0, 2, nan, 0}},
		{backend.OpAbs, dtypes.F64, []float64{-1, negz, -inf}, []float64{1, 0, inf}},
		{backend.OpNeg, dtypes.F16, []float64{0, 1}, []float64{negz, -1}},
		{backend.OpSqrt, dtypes.F64, []float64{4, -1, inf, negz}, []float64{2, nan, inf, negz}},
		{backend.OpRsqrt, dtypes.F32, []float64{4, 0}, []float64{0.5, inf}},
		{backend.OpExp, dtypes.F64, []float64{0, -inf, 1000}, []float64{1, 0, inf}},
		{backend.OpLog, dtypes.F64, []float64{1, 0, -1}, []float64{0, -inf, nan}},
		{backend.OpSigmoid, dtypes.F64, []float64{0, inf, -inf}, []float64{0.5, 1, 0}},
		{backend.OpSilu, dtypes.F32, []float64{0, 10000}, []float64{0, 10000}},
		{backend.OpGelu, dtypes.F64, []float64{0, 30, -30}, []float64{0, 30, -15 * math.Erfc(thirty/math.Sqrt2)}}, // 1.47e-196, not -0
		{backend.OpIsNaN, dtypes.F32, []float64{nan, inf, 1}, []float64{1, 0, 0}},
		{backend.OpIsInf, dtypes.F64, []float64{nan, -inf, 1}, []float64{0, 1, 0}},
		{backend.OpNot, dtypes.F64, []float64{0, negz, nan, 2}, []float64{1, 1, 0, 0}},
	}
	for _, c := range cases {
		got := vals(run(t, nu(c.op, in(mk(c.dt, []int{len(c.a)}, c.a...)))))
		if !sameAll(got, c.want) {
			t.Errorf("%v %v %v = %v, want %v", c.op, c.dt, c.a, got, c.want)
		}
	}
}

// ulpDist returns how many float32 (or narrow) steps separate got from the
// exact reference, measured in units of the result format's ULP at ref.
func ulpDist32(got float32, ref float64) float64 {
	if math.IsNaN(ref) {
		if got != got {
			return 0
		}
		return math.Inf(1)
	}
	if math.IsInf(ref, 0) || math.IsInf(float64(got), 0) {
		if float64(got) == ref {
			return 0
		}
		// Overflow to inf when the exact value is within an ULP of
		// MaxFloat32 is a correct rounding.
		if math.Abs(ref) > math.MaxFloat32 {
			return 0
		}
		return math.Inf(1)
	}
	a := math.Abs(ref)
	var ulp float64
	if a < math.SmallestNonzeroFloat32*(1<<23) {
		ulp = math.SmallestNonzeroFloat32
	} else {
		_, e := math.Frexp(a)
		ulp = math.Ldexp(1, e-24)
	}
	return math.Abs(float64(got)-ref) / ulp
}

// TestTranscendentalULP checks the documented bound: float32 results of
// transcendental functions are within 1 ULP of the float64 reference.
func TestTranscendentalULP(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	n := 20000
	xs := make([]float64, n)
	for i := range xs {
		switch i % 4 {
		case 0:
			xs[i] = float64(float32(rng.NormFloat64()))
		case 1:
			xs[i] = float64(float32(rng.NormFloat64() * 30))
		case 2:
			xs[i] = float64(float32(rng.Float64() * 1e-3))
		default:
			xs[i] = float64(float32(math.Exp(rng.Float64()*80 - 40)))
		}
	}
	refs := map[backend.Op]func(float64) float64{
		backend.OpExp:     math.Exp,
		backend.OpLog:     math.Log,
		backend.OpLog1p:   math.Log1p,
		backend.OpSin:     math.Sin,
		backend.OpCos:     math.Cos,
		backend.OpTanh:    math.Tanh,
		backend.OpErf:     math.Erf,
		backend.OpRsqrt:   func(x float64) float64 { return 1 / math.Sqrt(x) },
		backend.OpSigmoid: func(x float64) float64 { return 1 / (1 + math.Exp(-x)) },
		backend.OpSilu:    func(x float64) float64 { return x / (1 + math.Exp(-x)) },
		backend.OpGelu:    func(x float64) float64 { return x * math.Erfc(-x/math.Sqrt2) / 2 },
		backend.OpSqrt:    math.Sqrt,
	}
	x := in(mk(dtypes.F32, []int{n}, xs...))
	for op, ref := range refs {
		got := run(t, nu(op, x)).Data.([]float32)
		worst := 0.0
		for i, v := range xs {
			if d := ulpDist32(got[i], ref(v)); d > worst {
				worst = d
				if d > 1 {
					t.Errorf("%v(%g) = %g, reference %g: %.2f ULP", op, v, got[i], ref(v), d)
					break
				}
			}
		}
	}
}

// TestFloat16Arithmetic compares f16 + - * / sqrt with an independent
// float16 implementation (x448/float16) applied to the exact float64
// result: each must be the correctly rounded binary16 value.
func TestFloat16Arithmetic(t *testing.T) {
	// 0.1 + 0.2 in f16: 0x2E66 + 0x3266 = 0.2999267578125 exactly, a tie
	// between 0x34CC and 0x34CD that goes to the even 0x34CC (0.2998046875).
	a := in(mk(dtypes.F16, []int{1}, 0.1))
	b := in(mk(dtypes.F16, []int{1}, 0.2))
	if got := run(t, nb(backend.OpAdd, a, b)).Data.([]uint16)[0]; got != 0x34CC {
		t.Errorf("f16 0.1+0.2 = %#04x, want 0x34cc", got)
	}
	rng := rand.New(rand.NewSource(2))
	n := 50000
	ab, bb := make([]uint16, n), make([]uint16, n)
	for i := range ab {
		ab[i] = uint16(rng.Intn(1 << 16))
		bb[i] = uint16(rng.Intn(1 << 16))
		if i%3 == 0 { // keep many pairs close in magnitude
			bb[i] = ab[i] ^ uint16(rng.Intn(1<<9))
		}
	}
	x := in(raw(dtypes.F16, []int{n}, ab))
	y := in(raw(dtypes.F16, []int{n}, bb))
	ops := map[backend.Op]func(a, b float64) float64{
		backend.OpAdd: func(a, b float64) float64 { return a + b },
		backend.OpSub: func(a, b float64) float64 { return a - b },
		backend.OpMul: func(a, b float64) float64 { return a * b },
		backend.OpDiv: func(a, b float64) float64 { return a / b },
	}
	for op, f := range ops {
		got := run(t, nb(op, x, y)).Data.([]uint16)
		for i := range got {
			av, bv := float16.Frombits(ab[i]).Float32(), float16.Frombits(bb[i]).Float32()
			want := float16.Fromfloat32(float32(f(float64(av), float64(bv))))
			if !sameF16(got[i], uint16(want)) {
				t.Fatalf("f16 %v: %#04x %v %#04x = %#04x, want %#04x", op, ab[i], op, bb[i], got[i], want)
			}
		}
	}
	got := run(t, nu(backend.OpSqrt, x)).Data.([]uint16)
	for i := range got {
		av := float16.Frombits(ab[i]).Float32()
		want := float16.Fromfloat32(float32(math.Sqrt(float64(av))))
		if !sameF16(got[i], uint16(want)) {
			t.Fatalf("f16 sqrt(%#04x) = %#04x, want %#04x", ab[i], got[i], want)
		}
	}
}

// sameF16 compares binary16 bits, any NaN equal to any NaN.
func sameF16(a, b uint16) bool {
	isNaN := func(x uint16) bool { return x&0x7C00 == 0x7C00 && x&0x3FF != 0 }
	if isNaN(a) || isNaN(b) {
		return isNaN(a) && isNaN(b)
	}
	return a == b
}

// bf16RNE rounds float32 bits to bfloat16 with the classic bias trick (an
// implementation independent of the package's).
func bf16RNE(x float32) uint16 {
	b := math.Float32bits(x)
	if x != x {
		return uint16(b>>16)&0x8000 | 0x7FC0
	}
	return uint16((b + 0x7FFF + (b>>16)&1) >> 16)
}

func TestBFloat16Arithmetic(t *testing.T) {
	// 1 + 2^-8 is a tie between 1 and 1+2^-7: even gives 1.
	one := in(mk(dtypes.BF16, []int{2}, 1, 1))
	small := in(mk(dtypes.BF16, []int{2}, math.Ldexp(1, -8), math.Ldexp(3, -9)))
	got := run(t, nb(backend.OpAdd, one, small)).Data.([]uint16)
	if got[0] != 0x3F80 || got[1] != 0x3F81 {
		t.Errorf("bf16 1+2^-8, 1+3·2^-9 = %#04x %#04x, want 0x3f80 0x3f81", got[0], got[1])
	}
	rng := rand.New(rand.NewSource(3))
	n := 30000
	ab, bb := make([]uint16, n), make([]uint16, n)
	for i := range ab {
		ab[i] = uint16(rng.Intn(1 << 16))
		bb[i] = ab[i] ^ uint16(rng.Intn(1<<10))
	}
	x := in(raw(dtypes.BF16, []int{n}, ab))
	y := in(raw(dtypes.BF16, []int{n}, bb))
	for _, op := range []backend.Op{backend.OpAdd, backend.OpMul, backend.OpDiv} {
		res := run(t, nb(op, x, y)).Data.([]uint16)
		for i := range res {
			a, b := bf16Value(ab[i]), bf16Value(bb[i])
			var exact float64
			switch op {
			case backend.OpAdd:
				exact = float64(a) + float64(b)
			case backend.OpMul:
				exact = float64(a) * float64(b)
			default:
				exact = float64(a) / float64(b)
			}
			want := bf16RNE(float32(exact))
			if res[i] != want && !(res[i]&0x7F80 == 0x7F80 && res[i]&0x7F != 0 && want&0x7F80 == 0x7F80 && want&0x7F != 0) {
				t.Fatalf("bf16 %v(%#04x, %#04x) = %#04x, want %#04x", op, ab[i], bb[i], res[i], want)
			}
		}
	}
}

func TestFloat8AndTF32(t *testing.T) {
	// e4m3fn has no infinity: 448 + 32 = 480 rounds past 448 → NaN.
	a := in(mk(dtypes.F8E4M3, []int{3}, 448, 448, 1))
	b := in(mk(dtypes.F8E4M3, []int{3}, 32, 16, 0.0625))
	got := run(t, nb(backend.OpAdd, a, b)).Data.([]uint8)
	if got[0] != 0x7F || got[1] != 0x7E {
		t.Errorf("e4m3 448+32, 448+16 = %#02x %#02x, want 0x7f (NaN), 0x7e (448)", got[0], got[1])
	}
	if v := dtypes.F8E4M3ToFloat64(got[2]); v != 1 { // 1.0625 is a tie: even gives 1
		t.Errorf("e4m3 1+1/16 = %v", v)
	}
	// e5m2 overflows to inf.
	c := in(mk(dtypes.F8E5M2, []int{1}, 57344))
	if v := vals(run(t, nb(backend.OpMul, c, c)))[0]; !math.IsInf(v, 1) {
		t.Errorf("e5m2 57344² = %v", v)
	}
	// tf32: 1 + 2^-11 is a tie (10 mantissa bits): even gives 1;
	// 1 + 3·2^-12 rounds up to 1 + 2^-10.
	one := in(mk(dtypes.TF32, []int{2}, 1, 1))
	d := in(raw(dtypes.TF32, []int{2}, []float32{float32(math.Ldexp(1, -11)), float32(math.Ldexp(3, -12))}))
	r := run(t, nb(backend.OpAdd, one, d)).Data.([]float32)
	if r[0] != 1 || float64(r[1]) != 1+math.Ldexp(1, -10) {
		t.Errorf("tf32 sums = %v", r)
	}
}

func TestComplex(t *testing.T) {
	c := func(vs ...complex128) *backend.Node { return in(raw(dtypes.C128, []int{len(vs)}, vs)) }
	a := c(1+2i, 1+1i, 3+4i, complex(nan, 0))
	b := c(3+4i, 0, 1i, 1)
	mul := run(t, nb(backend.OpMul, a, b)).Data.([]complex128)
	if mul[0] != -5+10i || mul[2] != -4+3i {
		t.Errorf("complex mul: %v", mul)
	}
	div := run(t, nb(backend.OpDiv, a, b)).Data.([]complex128)
	if math.Abs(real(div[0])-0.44) > 1e-15 || math.Abs(imag(div[0])-0.08) > 1e-15 {
		t.Errorf("(1+2j)/(3+4j) = %v", div[0])
	}
	if !math.IsInf(real(div[1]), 1) || !math.IsInf(imag(div[1]), 1) {
		t.Errorf("(1+1j)/0 = %v, want inf+infj (NumPy)", div[1])
	}
	abs := run(t, nu(backend.OpAbs, a))
	if abs.DType != dtypes.F64 || abs.Data.([]float64)[2] != 5 {
		t.Errorf("abs(3+4j) = %v %v", abs.DType, abs.Data)
	}
	sq := run(t, nb(backend.OpPow, a, c(2, 2, 2, 2))).Data.([]complex128)
	if sq[1] != 2i || sq[0] != -3+4i {
		t.Errorf("complex square: %v", sq)
	}
	sqrt := run(t, nu(backend.OpSqrt, c(-4, 1i))).Data.([]complex128)
	if sqrt[0] != 2i {
		t.Errorf("sqrt(-4) = %v", sqrt[0])
	}
	isnan := vals(run(t, nu(backend.OpIsNaN, a)))
	if !sameAll(isnan, []float64{0, 0, 0, 1}) {
		t.Errorf("isnan: %v", isnan)
	}
	eq := vals(run(t, nb(backend.OpEq, a, a)))
	if !sameAll(eq, []float64{1, 1, 1, 0}) {
		t.Errorf("eq: %v", eq)
	}
	// complex64 computes in float32.
	f := in(raw(dtypes.C64, []int{1}, []complex64{complex(float32(0.1), float32(0.3))}))
	m := run(t, nb(backend.OpMul, f, f)).Data.([]complex64)[0]
	x, y := float32(0.1), float32(0.3)
	if real(m) != x*x-y*y || imag(m) != x*y+y*x {
		t.Errorf("c64 mul = %v", m)
	}
	// Ordering comparisons are NumPy's CLT, CLE, CGT, CGE (loops.c.src):
	// lexicographic, the real parts deciding only where neither imaginary
	// part is NaN. a = [1+2j, 1+1j, 3+4j, nan], b = [3+4j, 0, 1j, 1];
	// ties of real parts and NaN imaginary parts below.
	for _, tc := range []struct {
		op   backend.Op
		x, y *backend.Node
		want []float64
	}{
		{backend.OpLt, a, b, []float64{1, 0, 0, 0}},
		{backend.OpGe, a, b, []float64{0, 1, 1, 0}},
		{backend.OpLt, c(1+1i, 1+2i, complex(1, nan), 2), c(1+2i, 1+2i, 2, complex(3, nan)), []float64{1, 0, 0, 0}},
		{backend.OpLe, c(1+1i, 1+2i, complex(1, nan), 2), c(1+2i, 1+2i, 2, complex(3, nan)), []float64{1, 1, 0, 0}},
		{backend.OpGt, c(1+3i, 1+2i, complex(3, nan), 2), c(1+2i, 1+2i, 2, complex(1, nan)), []float64{1, 0, 0, 0}},
	} {
		if got := vals(run(t, nb(tc.op, tc.x, tc.y))); !sameAll(got, tc.want) {
			t.Errorf("complex %v: %v, want %v", tc.op, got, tc.want)
		}
	}
}

func TestBool(t *testing.T) {
	tf := in(mk(dtypes.Bool, []int{4}, 1, 1, 0, 0))
	ft := in(mk(dtypes.Bool, []int{4}, 1, 0, 1, 0))
	cases := []struct {
		op   backend.Op
		want []float64
	}{
		{backend.OpAdd, []float64{1, 1, 1, 0}},
		{backend.OpMul, []float64{1, 0, 0, 0}},
		{backend.OpBitXor, []float64{0, 1, 1, 0}},
		{backend.OpBitAnd, []float64{1, 0, 0, 0}},
		{backend.OpOr, []float64{1, 1, 1, 0}},
		{backend.OpLt, []float64{0, 0, 1, 0}},
		{backend.OpGe, []float64{1, 1, 0, 1}},
		{backend.OpMax, []float64{1, 1, 1, 0}},
	}
	for _, c := range cases {
		if got := vals(run(t, nb(c.op, tf, ft))); !sameAll(got, c.want) {
			t.Errorf("bool %v = %v, want %v", c.op, got, c.want)
		}
	}
	if got := vals(run(t, nu(backend.OpInvert, tf))); !sameAll(got, []float64{0, 0, 1, 1}) {
		t.Errorf("~bool = %v", got)
	}
	if err := runErr(nb(backend.OpSub, tf, ft)); err == nil {
		t.Errorf("bool - bool should be refused")
	}
}

func TestWhere(t *testing.T) {
	c := in(mk(dtypes.Bool, []int{3, 1}, 1, 0, 1))
	a := in(mk(dtypes.F16, []int{1, 2}, 1.5, 2.5))
	b := in(mk(dtypes.F16, []int{}, -1))
	n := &backend.Node{Op: backend.OpWhere, DType: dtypes.F16, Shape: []int{3, 2}, Args: []*backend.Node{c, a, b}}
	if got := vals(run(t, n)); !sameAll(got, []float64{1.5, 2.5, -1, -1, 1.5, 2.5}) {
		t.Errorf("where = %v", got)
	}
	// A non-bool condition is read by truth value.
	n.Args[0] = in(mk(dtypes.F32, []int{3, 1}, nan, 0, -2))
	if got := vals(run(t, n)); !sameAll(got, []float64{1.5, 2.5, -1, -1, 1.5, 2.5}) {
		t.Errorf("where with a float condition = %v", got)
	}
}

// TestResultDTypeConversion: a node whose dtype differs from what its
// operation gives converts its result, rounding once.
func TestResultDTypeConversion(t *testing.T) {
	a := in(mk(dtypes.F32, []int{1}, 1))
	b := in(raw(dtypes.F32, []int{1}, []float32{float32(math.Ldexp(1, -11) + math.Ldexp(1, -20))}))
	n := nb(backend.OpAdd, a, b)
	n.DType = dtypes.F16
	if got := run(t, n).Data.([]uint16)[0]; got != 0x3C01 {
		t.Errorf("f32 sum to f16 = %#04x, want 0x3c01", got)
	}
}

// thirty is a variable so that thirty/math.Sqrt2 is a float64 division.
var thirty = 30.0

// TestLargeFusedTanh evaluates tanh(a*2+b)*c over operands large enough
// for the fused loop to prefetch (prefetchMin) and to stream its result
// (streamMin), in blocks split over several workers, and checks every
// element against the same operations one element at a time.
func TestLargeFusedTanh(t *testing.T) {
	n := max(prefetchMin, streamMin)/4 + 1001
	rng := rand.New(rand.NewSource(9))
	a, b, c := randF32(rng, n), randF32(rng, n), randF32(rng, n)
	a[17], b[n-1], c[n/2] = float32(math.NaN()), float32(math.Inf(-1)), 0
	two := in(raw(dtypes.F32, []int{}, []float32{2}))
	ia, ib, ic := in(raw(dtypes.F32, []int{n}, a)), in(raw(dtypes.F32, []int{n}, b)), in(raw(dtypes.F32, []int{n}, c))
	plan := nb(backend.OpMul, nu(backend.OpTanh, nb(backend.OpAdd, nb(backend.OpMul, ia, two), ib)), ic)
	for _, workers := range []int{1, 3} {
		out, err := New(Workers(workers)).Run(context.Background(), plan)
		if err != nil {
			t.Fatal(err)
		}
		got := out.Data.([]float32)
		one, x := make([]float32, 1), make([]float32, 1)
		for i := range n {
			x[0] = float32(a[i]*2) + b[i] // float32(): no fused multiply-add
			tanhF32Go(one, x)
			if want := one[0] * c[i]; !sameBits32(got[i], want) {
				t.Fatalf("%d workers: element %d: got %g, want %g", workers, i, got[i], want)
			}
		}
	}
}

// TestIntegerDivisionRules pins each library's integer division and
// remainder at a zero divisor and at MIN / -1 (backend.IntDiv):
//
//   - IntDivZero (NumPy): x // 0 and x % 0 are 0 (numpy/_core/src/umath
//     loops_arithmetic.dispatch and loops_modulo.dispatch: a zero divisor
//     sets the divide-by-zero status and gives 0); MIN // -1 is MIN.
//   - IntDivXLA (XLA's Div and Rem, anvil's / on integers): xla/service/
//     elemental_ir_emitter.cc EmitIntegerDivide "X / 0 == -1,
//     INT_SMIN /s -1 = INT_SMIN" (all ones, so the maximum, for unsigned)
//     and EmitIntegerRemainder "X % 0 == X, INT_SMIN %s -1 = 0".
//   - IntDivJNP (jax.numpy): jax/_src/numpy/ufuncs.py floor_divide is
//     lax.div, then minus one where sign(x) != sign(y) and lax.rem(x, y)
//     != 0: x // 0 is -2 for x != 0, -1 for 0; for unsigned types it is
//     lax.div alone (all ones); remainder replaces a zero divisor by 1, so
//     x % 0 is 0.
//   - IntDivNvMod (anvil's %%): r-xla/anvil nv_mod is
//     nv_remainder(nv_remainder(x, y) + y, y) on XLA's Rem, in wrapping
//     arithmetic: x %% 0 is x, and the sum can wrap (u8 100 %% 200 is 44).
func TestIntegerDivisionRules(t *testing.T) {
	const minI8, minI32 = -128, math.MinInt32
	for _, c := range []struct {
		name string
		rule backend.IntDiv
		binCase
	}{
		{"numpy", backend.IntDivZero, binCase{"i8 // 0", backend.OpFloorDiv, dtypes.I8, []float64{5, -5, 0}, []float64{0, 0, 0}, []float64{0, 0, 0}, false, false}},
		{"numpy", backend.IntDivZero, binCase{"u8 % 0", backend.OpMod, dtypes.U8, []float64{5, 0}, []float64{0, 0}, []float64{0, 0}, false, false}},
		{"jnp", backend.IntDivJNP, binCase{"i32 // 0", backend.OpFloorDiv, dtypes.I32, []float64{7, -7, 0, 1}, []float64{0, 0, 0, 0}, []float64{-2, -2, -1, -2}, false, false}},
		{"jnp", backend.IntDivJNP, binCase{"i8 // with MIN", backend.OpFloorDiv, dtypes.I8, []float64{minI8, minI8, 7, -7}, []float64{-1, 1, 2, 2}, []float64{minI8, minI8, 3, -4}, false, false}},
		{"jnp", backend.IntDivJNP, binCase{"u8 // 0", backend.OpFloorDiv, dtypes.U8, []float64{7, 0, 255}, []float64{0, 0, 0}, []float64{255, 255, 255}, false, false}},
		{"jnp", backend.IntDivJNP, binCase{"u16 // 0", backend.OpFloorDiv, dtypes.U16, []float64{7}, []float64{0}, []float64{65535}, false, false}},
		{"jnp", backend.IntDivJNP, binCase{"i32 % 0", backend.OpMod, dtypes.I32, []float64{7, -7, 0, minI32}, []float64{0, 0, 0, -1}, []float64{0, 0, 0, 0}, false, false}},
		{"jnp", backend.IntDivJNP, binCase{"u8 % 0", backend.OpMod, dtypes.U8, []float64{7, 200}, []float64{0, 7}, []float64{0, 4}, false, false}},
		{"xla", backend.IntDivXLA, binCase{"i32 / 0", backend.OpDiv, dtypes.I32, []float64{7, -7, 0, minI32, -7}, []float64{0, 0, 0, -1, 2}, []float64{-1, -1, -1, minI32, -3}, true, false}},
		{"xla", backend.IntDivXLA, binCase{"u8 / 0", backend.OpDiv, dtypes.U8, []float64{7, 0}, []float64{0, 0}, []float64{255, 255}, true, false}},
		{"xla", backend.IntDivXLA, binCase{"i8 % 0", backend.OpMod, dtypes.I8, []float64{7, -7, minI8}, []float64{0, 0, -1}, []float64{7, -7, 0}, true, false}},
		{"nv_mod", backend.IntDivNvMod, binCase{"i32 %% 0", backend.OpMod, dtypes.I32, []float64{7, -7, 0, minI32}, []float64{0, 0, 0, -1}, []float64{7, -7, 0, 0}, false, false}},
		{"nv_mod", backend.IntDivNvMod, binCase{"i32 %% floors", backend.OpMod, dtypes.I32, []float64{7, -7, 7, -7, 6}, []float64{2, 2, -2, -2, -3}, []float64{1, 1, -1, -1, 0}, false, false}},
		{"nv_mod", backend.IntDivNvMod, binCase{"u8 %% wraps", backend.OpMod, dtypes.U8, []float64{100, 255, 200}, []float64{200, 128, 7}, []float64{44, 127, 4}, false, false}},
		{"nv_mod", backend.IntDivNvMod, binCase{"i8 %% wraps", backend.OpMod, dtypes.I8, []float64{100, -100, 5}, []float64{120, 120, -3}, []float64{-36, 20, -1}, false, false}},
	} {
		shape := []int{len(c.a)}
		n := nb(c.op, in(mk(c.dt, shape, c.a...)), in(mk(c.dt, shape, c.b...)))
		n.CDiv, n.IntDiv = c.cdiv, c.rule
		if got := vals(run(t, n)); !sameAll(got, c.want) {
			t.Errorf("%s %s: %v %v %v = %v, want %v", c.name, c.binCase.name, c.a, c.op, c.b, got, c.want)
		}
	}
	// 64-bit edges, from raw data.
	a := in(raw(dtypes.I64, []int{3}, []int64{math.MinInt64, 5, 0}))
	b := in(raw(dtypes.I64, []int{3}, []int64{-1, 0, 0}))
	n := nb(backend.OpFloorDiv, a, b)
	n.IntDiv = backend.IntDivJNP
	if got := run(t, n).Data.([]int64); got[0] != math.MinInt64 || got[1] != -2 || got[2] != -1 {
		t.Errorf("jnp i64 //: %v, want [MIN -2 -1]", got)
	}
	u := in(raw(dtypes.U64, []int{2}, []uint64{5, math.MaxUint64}))
	uz := in(raw(dtypes.U64, []int{2}, []uint64{0, 0}))
	n = nb(backend.OpFloorDiv, u, uz)
	n.IntDiv = backend.IntDivJNP
	if got := run(t, n).Data.([]uint64); got[0] != math.MaxUint64 || got[1] != math.MaxUint64 {
		t.Errorf("jnp u64 // 0: %v, want all ones", got)
	}
}

// TestIntegerDivisionWarnings pins NumPy's RuntimeWarnings of integer
// floor_divide and remainder (Node.WarnIntDiv): a zero divisor gives 0 and
// "divide by zero encountered in floor_divide" (or "remainder"); MIN // -1
// gives MIN and "overflow encountered in floor_divide", MIN % -1 is 0 with
// no warning (numpy/_core/src/umath/loops_arithmetic.dispatch and
// loops_modulo.dispatch set the floating-point status the ufunc reports).
// Run returns the result with a *backend.Warning.
func TestIntegerDivisionWarnings(t *testing.T) {
	for _, c := range []struct {
		op   backend.Op
		dt   dtypes.DType
		a, b []float64
		want []float64
		msgs string // the *backend.Warning's text, "" for none
	}{
		{backend.OpFloorDiv, dtypes.I32, []float64{7, -7}, []float64{0, 2}, []float64{0, -4}, "RuntimeWarning: divide by zero encountered in floor_divide"},
		{backend.OpMod, dtypes.U8, []float64{7, 5}, []float64{0, 3}, []float64{0, 2}, "RuntimeWarning: divide by zero encountered in remainder"},
		{backend.OpFloorDiv, dtypes.I8, []float64{-128, 0}, []float64{-1, 0}, []float64{-128, 0}, "RuntimeWarning: divide by zero encountered in floor_divide; RuntimeWarning: overflow encountered in floor_divide"},
		{backend.OpMod, dtypes.I8, []float64{-128}, []float64{-1}, []float64{0}, ""},
		{backend.OpFloorDiv, dtypes.I16, []float64{7}, []float64{2}, []float64{3}, ""},
	} {
		shape := []int{len(c.a)}
		n := nb(c.op, in(mk(c.dt, shape, c.a...)), in(mk(c.dt, shape, c.b...)))
		n.WarnIntDiv = true
		res, err := New().Run(context.Background(), n)
		var w *backend.Warning
		switch {
		case c.msgs == "" && err != nil:
			t.Errorf("%v %v %v %v: error %v, want none", c.a, c.op, c.b, c.dt, err)
			continue
		case c.msgs != "" && (!errors.As(err, &w) || w.Error() != c.msgs):
			t.Errorf("%v %v %v %v: error %v, want the warning %q", c.a, c.op, c.b, c.dt, err, c.msgs)
			continue
		}
		if res == nil || !sameAll(vals(res), c.want) {
			t.Errorf("%v %v %v %v: result %v, want %v", c.a, c.op, c.b, c.dt, res, c.want)
		}
	}
}

// TestPow8 checks x ** e on int8 and uint8 (pow8Table) for every pair of
// operands against repeated multiplication, wrapping as NumPy's integer
// power does (np.int8(3) ** np.int8(5) is -13), and the error of a
// negative int8 exponent.
func TestPow8(t *testing.T) {
	var xs, es []int8
	var us, vs []uint8
	for x := range 256 {
		for e := range 256 {
			us, vs = append(us, uint8(x)), append(vs, uint8(e))
			if e < 128 {
				xs, es = append(xs, int8(x)), append(es, int8(e))
			}
		}
	}
	checkPow8(t, dtypes.I8, xs, es)
	checkPow8(t, dtypes.U8, us, vs)
	neg := in(raw(dtypes.I8, []int{3}, []int8{2, -1, 3}))
	if err := runErr(nb(backend.OpPow, in(raw(dtypes.I8, []int{3}, []int8{2, 2, 2})), neg)); err == nil || err.Error() != "integers to negative integer powers are not allowed" {
		t.Errorf("int8 negative power: %v", err)
	}
}

// checkPow8 checks x ** e of d (int8 or uint8) against repeated
// multiplication.
func checkPow8[T int8 | uint8](t *testing.T, d dtypes.DType, xs, es []T) {
	t.Helper()
	got := run(t, nb(backend.OpPow, in(raw(d, []int{len(xs)}, xs)), in(raw(d, []int{len(es)}, es)))).Data.([]T)
	for i := range xs {
		want := T(1)
		for range int(es[i]) {
			want *= xs[i]
		}
		if got[i] != want {
			t.Fatalf("%v %d ** %d = %d, want %d", d, xs[i], es[i], got[i], want)
		}
	}
}
