package cpu

import (
	"bytes"
	"math"
	"math/big"
	"math/rand"
	"testing"
	"unsafe"

	"github.com/tensorsh/tensorsh/backend"
	"github.com/tensorsh/tensorsh/dtypes"
)

func castRun(t *testing.T, src *backend.Tensor, to dtypes.DType) *backend.Tensor {
	t.Helper()
	return run(t, cast(in(src), to))
}

func TestCastFloatToFloat(t *testing.T) {
	// 1 + 2^-11 + 2^-40: just above the f16 midpoint of 1 and 1+2^-10.
	// Directly it rounds up; through float32 (which drops 2^-40) it would
	// be a tie and round to 1.
	x := 1 + math.Ldexp(1, -11) + math.Ldexp(1, -40)
	src := raw(dtypes.F64, []int{4}, []float64{x, 65519.99, 65520, -1e-6})
	got := castRun(t, src, dtypes.F16).Data.([]uint16)
	want := []uint16{0x3C01, 0x7BFF, 0x7C00, 0x8000 | 17}
	// -1e-6 is 16.78·2^-24: the f16 subnormal -17·2^-24.
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("f64 %v → f16 = %#04x, want %#04x", src.Data.([]float64)[i], got[i], want[i])
		}
	}
	// tf32 also rounds directly from f64.
	if v := castRun(t, raw(dtypes.F64, []int{1}, []float64{x}), dtypes.TF32).Data.([]float32)[0]; float64(v) != 1+math.Ldexp(1, -10) {
		t.Errorf("f64 → tf32 = %v", v)
	}
	// bf16 rounds through float32, like the reference libraries.
	y := 1 + math.Ldexp(1, -8) + math.Ldexp(1, -40)
	if v := castRun(t, raw(dtypes.F64, []int{1}, []float64{y}), dtypes.BF16).Data.([]uint16)[0]; v != 0x3F80 {
		t.Errorf("f64 → bf16 = %#04x, want 0x3f80", v)
	}
	// f32 → f16 overflow and NaN; f16 → f8 overflow to NaN (e4m3fn).
	f := castRun(t, mk(dtypes.F32, []int{3}, 70000, nan, -inf), dtypes.F16)
	if got := vals(f); !sameAll(got, []float64{inf, nan, -inf}) {
		t.Errorf("f32 → f16: %v", got)
	}
	e := castRun(t, mk(dtypes.F16, []int{3}, 500, 448, -inf), dtypes.F8E4M3)
	if got := vals(e); !sameAll(got, []float64{nan, 448, nan}) {
		t.Errorf("f16 → e4m3: %v", got)
	}
	// Widening is exact.
	w := castRun(t, mk(dtypes.BF16, []int{2}, 3.140625, negz), dtypes.F64)
	if got := vals(w); !sameAll(got, []float64{3.140625, negz}) {
		t.Errorf("bf16 → f64: %v", got)
	}
}

func TestCastFloatToInt(t *testing.T) {
	cases := []struct {
		to   dtypes.DType
		in   []float64
		want []float64
	}{
		{dtypes.I32, []float64{2.9, -2.9, nan, 1e10, -1e10, inf, -2147483648.9, 2147483647.9}, []float64{2, -2, math.MinInt32, math.MinInt32, math.MinInt32, math.MinInt32, math.MinInt32, math.MaxInt32}},
		{dtypes.U8, []float64{300, -1, nan, 255.9, 1e10}, []float64{44, 255, 0, 255, 0}},
		{dtypes.I8, []float64{200, -129, 127.5}, []float64{-56, 127, 127}},
		{dtypes.I16, []float64{40000, -0.5}, []float64{-25536, 0}},
		{dtypes.U16, []float64{-2, 65536}, []float64{65534, 0}},
		{dtypes.U32, []float64{-1, 5e9, nan}, []float64{4294967295, 705032704, 0}},
		{dtypes.Bool, []float64{0, negz, 0.5, nan, -inf}, []float64{0, 0, 1, 1, 1}},
	}
	for _, c := range cases {
		for _, from := range []dtypes.DType{dtypes.F64, dtypes.F32} {
			if from == dtypes.F32 && c.to == dtypes.I32 {
				continue // ±2147483648.9 are not float32 values
			}
			got := vals(castRun(t, mk(from, []int{len(c.in)}, c.in...), c.to))
			if !sameAll(got, c.want) {
				t.Errorf("%v %v → %v = %v, want %v", from, c.in, c.to, got, c.want)
			}
		}
	}
	i64 := castRun(t, mk(dtypes.F64, []int{4}, nan, 9.3e18, -9.3e18, -9223372036854775808), dtypes.I64).Data.([]int64)
	if i64[0] != math.MinInt64 || i64[1] != math.MinInt64 || i64[2] != math.MinInt64 || i64[3] != math.MinInt64 {
		t.Errorf("f64 → i64: %v", i64)
	}
	u64 := castRun(t, mk(dtypes.F64, []int{7}, -1, nan, 1e19, math.Ldexp(1, 64), inf, -inf, 1.5), dtypes.U64).Data.([]uint64)
	want := []uint64{math.MaxUint64, 1 << 63, 10000000000000000000, 0, 0, 1 << 63, 1}
	for i := range want {
		if u64[i] != want[i] {
			t.Errorf("f64 → u64 [%d] = %d, want %d", i, u64[i], want[i])
		}
	}
	// f16 → int truncates the exact value.
	if got := vals(castRun(t, mk(dtypes.F16, []int{2}, -3.75, 65504), dtypes.I16)); !sameAll(got, []float64{-3, 65504 - 65536}) {
		t.Errorf("f16 → i16: %v", got)
	}
}

// bigRound rounds the integer x to a float of prec significand bits, to
// nearest even (no exponent limits: the values tested are in range).
func bigRound(x *big.Int, prec uint) float64 {
	f := new(big.Float).SetMode(big.ToNearestEven).SetPrec(prec)
	f.SetInt(x)
	v, _ := f.Float64()
	return v
}

func TestCastIntToFloat(t *testing.T) {
	// 2^60 + 2^36 + 1 is above the float32 midpoint 2^60 + 2^36; through
	// float64 (which drops the 1) it would be a tie, rounding down.
	x := int64(1)<<60 + 1<<36 + 1
	f32 := castRun(t, raw(dtypes.I64, []int{1}, []int64{x}), dtypes.F32).Data.([]float32)[0]
	if float64(f32) != math.Ldexp(1, 60)+math.Ldexp(1, 37) {
		t.Errorf("i64 → f32 = %v", f32)
	}
	u := castRun(t, raw(dtypes.U64, []int{2}, []uint64{math.MaxUint64, 1<<63 + 1<<39 + 1}), dtypes.F32).Data.([]float32)
	if float64(u[0]) != math.Ldexp(1, 64) || float64(u[1]) != math.Ldexp(1, 63)+math.Ldexp(1, 40) {
		t.Errorf("u64 → f32 = %v", u)
	}
	// Random 64-bit integers against math/big.
	rng := rand.New(rand.NewSource(4))
	n := 20000
	is, us := make([]int64, n), make([]uint64, n)
	for i := range is {
		b := rng.Intn(64)
		is[i] = int64(rng.Uint64() >> b)
		if i%2 == 0 {
			is[i] = -is[i]
		}
		us[i] = rng.Uint64() >> rng.Intn(64)
		if i%7 == 0 { // a midpoint pattern: top bits, then a 1, zeros, a low 1
			us[i] = 1<<63 | 1<<39 | uint64(rng.Intn(2))
		}
	}
	ti, tu := raw(dtypes.I64, []int{n}, is), raw(dtypes.U64, []int{n}, us)
	for _, c := range []struct {
		to   dtypes.DType
		prec uint
	}{{dtypes.F32, 24}, {dtypes.F64, 53}, {dtypes.TF32, 11}} {
		gi, gu := vals(castRun(t, ti, c.to)), vals(castRun(t, tu, c.to))
		for i := range is {
			if w := bigRound(big.NewInt(is[i]), c.prec); gi[i] != w {
				t.Fatalf("i64 %d → %v = %v, want %v", is[i], c.to, gi[i], w)
			}
			if w := bigRound(new(big.Int).SetUint64(us[i]), c.prec); gu[i] != w {
				t.Fatalf("u64 %d → %v = %v, want %v", us[i], c.to, gu[i], w)
			}
		}
	}
	// f16 saturates to inf beyond 65519.
	h := vals(castRun(t, mk(dtypes.I32, []int{4}, 65519, 65520, -70000, 2049), dtypes.F16))
	if !sameAll(h, []float64{65504, inf, -inf, 2048}) {
		t.Errorf("i32 → f16: %v", h)
	}
	// bf16 rounds through float32 like the references: 2^62 + 2^54 + 1
	// becomes the float32 2^62 + 2^54, a bf16 tie that goes to 2^62.
	b := castRun(t, raw(dtypes.I64, []int{1}, []int64{1<<62 + 1<<54 + 1}), dtypes.BF16).Data.([]uint16)[0]
	if bf16Value(b) != float32(math.Ldexp(1, 62)) {
		t.Errorf("i64 → bf16 = %v", bf16Value(b))
	}
	// f8: 17 → 16 (e4m3, tie to even), 1000 → NaN.
	if got := vals(castRun(t, mk(dtypes.I16, []int{2}, 17, 1000), dtypes.F8E4M3)); !sameAll(got, []float64{16, nan}) {
		t.Errorf("i16 → e4m3: %v", got)
	}
}

func TestCastIntToInt(t *testing.T) {
	cases := []struct {
		from, to dtypes.DType
		in, want []float64
	}{
		{dtypes.I32, dtypes.U8, []float64{300, -1, 255}, []float64{44, 255, 255}},
		{dtypes.I32, dtypes.U16, []float64{-1}, []float64{65535}},
		{dtypes.U8, dtypes.I8, []float64{200, 127}, []float64{-56, 127}},
		{dtypes.I8, dtypes.U64, []float64{-1}, []float64{math.MaxUint64}},
		{dtypes.I64, dtypes.Bool, []float64{0, -5}, []float64{0, 1}},
		{dtypes.Bool, dtypes.F16, []float64{1, 0}, []float64{1, 0}},
		{dtypes.Bool, dtypes.I32, []float64{1, 0}, []float64{1, 0}},
	}
	for _, c := range cases {
		got := vals(castRun(t, mk(c.from, []int{len(c.in)}, c.in...), c.to))
		if !sameAll(got, c.want) {
			t.Errorf("%v %v → %v = %v, want %v", c.from, c.in, c.to, got, c.want)
		}
	}
	big := castRun(t, raw(dtypes.U64, []int{1}, []uint64{math.MaxUint64}), dtypes.I8).Data.([]int8)[0]
	if big != -1 {
		t.Errorf("u64 max → i8 = %d", big)
	}
}

func TestCastComplex(t *testing.T) {
	c := raw(dtypes.C128, []int{3}, []complex128{1.5 + 2i, complex(-2.5, 1), complex(0, 1)})
	if got := vals(castRun(t, c, dtypes.F64)); !sameAll(got, []float64{1.5, -2.5, 0}) {
		t.Errorf("c128 → f64: %v", got)
	}
	if got := vals(castRun(t, c, dtypes.I32)); !sameAll(got, []float64{1, -2, 0}) {
		t.Errorf("c128 → i32: %v", got)
	}
	if got := vals(castRun(t, c, dtypes.Bool)); !sameAll(got, []float64{1, 1, 1}) {
		t.Errorf("c128 → bool: %v", got)
	}
	c64 := castRun(t, c, dtypes.C64).Data.([]complex64)
	if c64[0] != 1.5+2i {
		t.Errorf("c128 → c64: %v", c64)
	}
	r := castRun(t, mk(dtypes.I32, []int{2}, 3, -4), dtypes.C128).Data.([]complex128)
	if r[0] != 3 || r[1] != -4 {
		t.Errorf("i32 → c128: %v", r)
	}
	h := castRun(t, mk(dtypes.F64, []int{1}, 1+math.Ldexp(1, -30)), dtypes.C64).Data.([]complex64)
	if h[0] != 1 {
		t.Errorf("f64 → c64: %v", h)
	}
}

// TestCastIntPaths checks the conversions of integers that take a short
// path against the element-by-element references they replace, bit for
// bit: to float16, bfloat16 and the float8 formats through float32 and
// one rounding (roundTo64 of the integer, read exactly or rounded to odd
// in float64, is the reference: for float16 and float8 one rounding of
// the integer; bfloat16 rounds through float32 as ml_dtypes does), and
// the copy between the signednesses of one size (Go's conversion).
// 8- and 16-bit sources take every value; wider ones the values around
// 2^24 (where float32 starts to round), the float16 and float8 overflow
// thresholds, values float32 rounds onto a tensorfloat32 or bfloat16
// midpoint (2^30 + 2^19 + 1, 2^62 + 2^54 + 1: rounding through float32 is
// not one rounding there) and random ones.
func TestCastIntPaths(t *testing.T) {
	initTables()
	rng := rand.New(rand.NewSource(37))
	ints := func(bits int, signed bool) []int64 {
		var x []int64
		if bits <= 16 {
			lo, hi := int64(0), int64(1)<<bits-1
			if signed {
				lo, hi = -(int64(1) << (bits - 1)), int64(1)<<(bits-1)-1
			}
			for v := lo; v <= hi; v++ {
				x = append(x, v)
			}
			return x
		}
		for _, c := range []int64{1 << 24, 1<<24 + 1, 1<<24 + 3, 1<<25 + 5, 65504, 65519, 65520, 65535, 65536, 57344, 61439, 61440, 448, 464, 1<<31 - 1, 1 << 40, 1<<30 + 1<<19, 1<<62 + 1<<54} {
			for _, e := range []int64{-1, 0, 1} {
				x = append(x, c+e)
				if signed {
					x = append(x, -(c + e))
				}
			}
		}
		for range 3000 {
			v := int64(rng.Uint64() >> rng.Intn(64))
			if bits == 32 {
				v = int64(uint32(v))
			}
			if signed && rng.Intn(2) == 0 {
				v = -v
			}
			x = append(x, v)
		}
		return x
	}
	type src struct {
		dt   dtypes.DType
		bits int
		sign bool
	}
	for _, s := range []src{{dtypes.I8, 8, true}, {dtypes.U8, 8, false}, {dtypes.I16, 16, true}, {dtypes.U16, 16, false},
		{dtypes.I32, 32, true}, {dtypes.U32, 32, false}, {dtypes.I64, 64, true}, {dtypes.U64, 64, false}} {
		xs := ints(s.bits, s.sign)
		buf := newBuf(computeOf(s.dt), len(xs))
		exact := make([]float64, len(xs)) // for the reference: x, or x rounded to odd
		for i, v := range xs {
			switch b := buf.(type) {
			case []int8:
				b[i] = int8(v)
				exact[i] = float64(b[i])
			case []uint8:
				b[i] = uint8(v)
				exact[i] = float64(b[i])
			case []int16:
				b[i] = int16(v)
				exact[i] = float64(b[i])
			case []uint16:
				b[i] = uint16(v)
				exact[i] = float64(b[i])
			case []int32:
				b[i] = int32(v)
				exact[i] = float64(b[i])
			case []uint32:
				b[i] = uint32(v)
				exact[i] = float64(b[i])
			case []int64:
				b[i] = v
				exact[i] = intToFloat64Odd(v)
			case []uint64:
				b[i] = uint64(v)
				exact[i] = intToFloat64Odd(uint64(v))
			}
		}
		for _, to := range []dtypes.DType{dtypes.F16, dtypes.BF16, dtypes.F8E4M3, dtypes.F8E5M2, dtypes.TF32} {
			k, err := castKernel(s.dt, to)
			if err != nil {
				t.Fatal(err)
			}
			got := make([]float32, len(xs))
			if err := k(got, []any{buf}); err != nil {
				t.Fatal(err)
			}
			for i := range got {
				want := roundTo64(to, exact[i])
				if math.Float32bits(got[i]) != math.Float32bits(want) && !(got[i] != got[i] && want != want) {
					t.Fatalf("%v %d → %v: %v, want %v", s.dt, xs[i], to, got[i], want)
				}
			}
		}
		for _, to := range []dtypes.DType{dtypes.I8, dtypes.U8, dtypes.I16, dtypes.U16, dtypes.I32, dtypes.U32, dtypes.I64, dtypes.U64} {
			k, err := castKernel(s.dt, to)
			if err != nil {
				t.Fatal(err)
			}
			got, want := newBuf(computeOf(to), len(xs)), newBuf(computeOf(to), len(xs))
			if err := k(got, []any{buf}); err != nil {
				t.Fatal(err)
			}
			for i := range xs {
				// Go's conversion: the low bits, of the source's value.
				setInt(want, i, bufInt(buf, i))
			}
			if !bytes.Equal(bufBytes(got), bufBytes(want)) {
				t.Fatalf("%v → %v: the bits differ from Go's conversion", s.dt, to)
			}
		}
	}
}

// bufInt returns element i of an integer buffer as an int64 (uint64's
// bits).
func bufInt(b any, i int) int64 {
	switch b := b.(type) {
	case []int8:
		return int64(b[i])
	case []uint8:
		return int64(b[i])
	case []int16:
		return int64(b[i])
	case []uint16:
		return int64(b[i])
	case []int32:
		return int64(b[i])
	case []uint32:
		return int64(b[i])
	case []int64:
		return b[i]
	}
	return int64(b.([]uint64)[i])
}

// setInt sets element i of an integer buffer to v's low bits.
func setInt(b any, i int, v int64) {
	switch b := b.(type) {
	case []int8:
		b[i] = int8(v)
	case []uint8:
		b[i] = uint8(v)
	case []int16:
		b[i] = int16(v)
	case []uint16:
		b[i] = uint16(v)
	case []int32:
		b[i] = int32(v)
	case []uint32:
		b[i] = uint32(v)
	case []int64:
		b[i] = v
	case []uint64:
		b[i] = uint64(v)
	}
}

// TestCastRealToComplex checks casts of real dtypes to complex64 and
// complex128 (the parts converted into the second half of the result's
// memory, then spread from the front) against the cast to the part's
// dtype with a zero imaginary part, at lengths 0..40 and 1000.
func TestCastRealToComplex(t *testing.T) {
	initTables()
	rng := rand.New(rand.NewSource(40))
	for _, from := range []dtypes.DType{dtypes.I8, dtypes.U8, dtypes.I16, dtypes.I32, dtypes.U32, dtypes.I64, dtypes.U64,
		dtypes.F16, dtypes.BF16, dtypes.F32, dtypes.F64} {
		for _, to := range []dtypes.DType{dtypes.C64, dtypes.C128} {
			k, err := castKernel(from, to)
			if err != nil {
				t.Fatal(err)
			}
			part, err := castKernel(from, to.Real())
			if err != nil {
				t.Fatal(err)
			}
			for _, n := range append(rangeInts(41), 1000) {
				src := newBuf(computeOf(from), n)
				b := bufBytes(src)
				rng.Read(b)
				if from == dtypes.F16 || from == dtypes.BF16 {
					for i, v := range src.([]float32) { // compute values: a float16 or bfloat16 each
						src.([]float32)[i] = roundTo64(from, float64(v)*1e-30)
					}
				}
				got, parts := newBuf(computeOf(to), n), newBuf(computeOf(to.Real()), n)
				if err := k(got, []any{src}); err != nil {
					t.Fatal(err)
				}
				if err := part(parts, []any{src}); err != nil {
					t.Fatal(err)
				}
				want := newBuf(computeOf(to), n)
				toComplex(want, parts)
				if !bytes.Equal(bufBytes(got), bufBytes(want)) {
					t.Fatalf("%v → %v, n %d: %v, want %v", from, to, n, got, want)
				}
			}
		}
	}
}

// TestCastRealToComplexInPlace checks the cast to complex where the source
// lies in the result's own memory (its front, or its second half, where
// the parts are converted): it goes through a buffer.
func TestCastRealToComplexInPlace(t *testing.T) {
	for _, at := range []int{0, 5, 10} {
		d := make([]complex128, 10)
		f := unsafe.Slice((*float64)(unsafe.Pointer(&d[0])), 20)
		src := make([]int32, 10)
		for i := range src {
			src[i] = int32(i + 1)
		}
		// The int32s written over the floats from word at on.
		s32 := unsafe.Slice((*int32)(unsafe.Pointer(&f[at])), 10)
		copy(s32, src)
		k, err := castKernel(dtypes.I32, dtypes.C128)
		if err != nil {
			t.Fatal(err)
		}
		if err := k(d, []any{s32}); err != nil {
			t.Fatal(err)
		}
		for i, v := range d {
			if v != complex(float64(i+1), 0) {
				t.Fatalf("source at word %d: %v", at, d)
			}
		}
	}
}
