package dtypes

import (
	"math"
	"math/big"
	"math/rand"
	"testing"

	"github.com/x448/float16"
)

// p2 returns 2^e.
func p2(e int) float64 { return math.Ldexp(1, e) }

// ulpAbove returns the float64 just above x.
func up(x float64) float64 { return math.Nextafter(x, math.Inf(1)) }

// down returns the float64 just below x.
func down(x float64) float64 { return math.Nextafter(x, math.Inf(-1)) }

var (
	nan    = math.NaN()
	negNaN = math.Copysign(math.NaN(), -1)
	inf    = math.Inf(1)
	negInf = math.Inf(-1)
	negZ   = math.Copysign(0, -1)
)

// sameFloat reports whether a and b are the same float64 value, telling -0
// from +0 and treating all NaNs of one sign as equal.
func sameFloat(a, b float64) bool {
	if math.IsNaN(a) || math.IsNaN(b) {
		return math.IsNaN(a) && math.IsNaN(b) && math.Signbit(a) == math.Signbit(b)
	}
	return a == b && math.Signbit(a) == math.Signbit(b)
}

func TestF16FromFloat64Table(t *testing.T) {
	// The f16 midpoints of 0x2E66/0x2E67 (ties go down to the even 0x2E66)
	// and of 0x2E65/0x2E66 (ties go up to 0x2E66), around 0.1.
	mid1 := (F16ToFloat64(0x2E66) + F16ToFloat64(0x2E67)) / 2
	mid0 := (F16ToFloat64(0x2E65) + F16ToFloat64(0x2E66)) / 2
	tests := []struct {
		name string
		x    float64
		want uint16
	}{
		{"zero", 0, 0x0000},
		{"-zero", negZ, 0x8000},
		{"one", 1, 0x3C00},
		{"-two", -2, 0xC000},
		{"0.1", 0.1, 0x2E66},
		{"1/3", 1.0 / 3, 0x3555},
		{"max", 65504, 0x7BFF},
		{"-max", -65504, 0xFBFF},
		{"just below overflow tie", down(65520), 0x7BFF},
		{"overflow tie goes to inf (even)", 65520, 0x7C00},
		{"big", 1e10, 0x7C00},
		{"-big", -1e300, 0xFC00},
		{"inf", inf, 0x7C00},
		{"-inf", negInf, 0xFC00},
		{"nan", nan, 0x7E00},
		{"-nan", negNaN, 0xFE00},
		{"nan keeps its top payload bits", math.Float64frombits(0x7FFABC0000000000), 0x7EAF},
		{"signalling nan becomes quiet", math.Float64frombits(0xFFF0000000000001), 0xFE00},
		{"min normal", p2(-14), 0x0400},
		{"max subnormal", 1023 * p2(-24), 0x03FF},
		{"max subnormal rounds up to min normal", 1023.5 * p2(-24), 0x0400},
		{"min subnormal", p2(-24), 0x0001},
		{"-min subnormal", -p2(-24), 0x8001},
		{"half min subnormal ties to zero", p2(-25), 0x0000},
		{"-half min subnormal ties to -zero", -p2(-25), 0x8000},
		{"just above half min subnormal", up(p2(-25)), 0x0001},
		{"1.5 subnormal ulps ties to 2", 1.5 * p2(-24), 0x0002},
		{"2.5 subnormal ulps ties to 2", 2.5 * p2(-24), 0x0002},
		{"tiny", 1e-300, 0x0000},
		{"float64 subnormal", 5e-324, 0x0000},
		{"-float64 subnormal", -5e-324, 0x8000},
		{"1+2^-11 ties to 1", 1 + p2(-11), 0x3C00},
		{"1+3*2^-11 ties to even 1+2^-9", 1 + 3*p2(-11), 0x3C02},
		// Cases where double rounding through float32 gives another answer:
		// the float32 rounding lands exactly on an f16 tie.
		{"1+2^-11+2^-40 (direct up)", 1 + p2(-11) + p2(-40), 0x3C01},
		{"2^-25+2^-60 (direct up)", p2(-25) + p2(-60), 0x0001},
		{"above an even-odd midpoint (direct up)", mid1 + mid1*p2(-35), 0x2E67},
		{"below an odd-even midpoint (direct down)", mid0 - mid0*p2(-35), 0x2E65},
		{"65520-2^-20 (direct finite)", 65520 - p2(-20), 0x7BFF},
	}
	for _, tt := range tests {
		if got := F16FromFloat64(tt.x); got != tt.want {
			t.Errorf("%s: F16FromFloat64(%g) = %#04x, want %#04x", tt.name, tt.x, got, tt.want)
		}
	}
}

// TestF16DoubleRoundingDiffers shows the direct rounding is needed: for each
// case the float32 route (x448/float16's RNE Fromfloat32 after a float64 to
// float32 RNE conversion) gives a different, wrong answer.
func TestF16DoubleRoundingDiffers(t *testing.T) {
	mid0 := (F16ToFloat64(0x2E65) + F16ToFloat64(0x2E66)) / 2
	mid1 := (F16ToFloat64(0x2E66) + F16ToFloat64(0x2E67)) / 2
	tests := []struct {
		x              float64
		direct, viaF32 uint16
	}{
		{1 + p2(-11) + p2(-40), 0x3C01, 0x3C00},
		{p2(-25) + p2(-60), 0x0001, 0x0000},
		{mid1 + mid1*p2(-35), 0x2E67, 0x2E66},
		{mid0 - mid0*p2(-35), 0x2E65, 0x2E66},
		{65520 - p2(-20), 0x7BFF, 0x7C00},
	}
	for _, tt := range tests {
		if got := float16.Fromfloat32(float32(tt.x)).Bits(); got != tt.viaF32 {
			t.Errorf("via float32 %g: got %#04x, want %#04x", tt.x, got, tt.viaF32)
		}
		if got := F16FromFloat64(tt.x); got != tt.direct {
			t.Errorf("F16FromFloat64(%g) = %#04x, want %#04x (direct)", tt.x, got, tt.direct)
		}
		if math.Abs(tt.x-F16ToFloat64(tt.direct)) >= math.Abs(tt.x-F16ToFloat64(tt.viaF32)) {
			t.Errorf("%g: the direct answer is not the nearer one", tt.x)
		}
	}
}

// TestF16AgreesWithX448 checks that for float32 inputs (where the single
// rounding from float64 and x448's RNE rounding from float32 coincide) both
// give the same bits, over a sweep of float32 bit patterns and every f16
// midpoint with its neighbours.
func TestF16AgreesWithX448(t *testing.T) {
	check := func(f float32) {
		if f != f {
			return
		}
		want := float16.Fromfloat32(f).Bits()
		if got := F16FromFloat64(float64(f)); got != want {
			t.Fatalf("F16FromFloat64(%g [%#08x]) = %#04x, x448 gives %#04x", f, math.Float32bits(f), got, want)
		}
	}
	for i := uint64(0); i < 1<<32; i += 4093 {
		check(math.Float32frombits(uint32(i)))
	}
	for b := uint16(0); b < 0x7C00; b++ {
		lo, hi := F16ToFloat64(b), F16ToFloat64(b+1)
		m := float32((lo + hi) / 2) // exact: an f16 midpoint fits in float32
		for _, s := range []float32{1, -1} {
			check(s * m)
			check(s * math.Nextafter32(m, 0))
			check(s * math.Nextafter32(m, float32(inf)))
		}
	}
}

// TestF16DirectAgainstBig compares against math/big rounding to 11 bits on
// random float64 values of the f16 normal range (where the exponent range
// plays no part).
func TestF16DirectAgainstBig(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	for i := 0; i < 200000; i++ {
		x := math.Ldexp(1+r.Float64(), r.Intn(30)-14) // [2^-14, 2^16)
		if r.Intn(4) == 0 {                           // land near an f16 midpoint
			b := F16FromFloat64(x) &^ 1
			x = (F16ToFloat64(b)+F16ToFloat64(b+1))/2 + float64(r.Intn(3)-1)*math.Ldexp(1, -50)*x
		}
		bf, _ := new(big.Float).SetPrec(11).SetMode(big.ToNearestEven).SetFloat64(x).Float64()
		if bf > 65504 {
			bf = inf
		}
		if got := F16ToFloat64(F16FromFloat64(x)); got != bf {
			t.Fatalf("f16(%v) = %v, big.Float gives %v", x, got, bf)
		}
	}
}

// TestF16RoundTripAll checks every f16 bit pattern: to float64 and back gives
// the same bits (NaNs: a NaN of the same sign; quiet NaNs bit for bit), and
// the value agrees with x448/float16.
func TestF16RoundTripAll(t *testing.T) {
	for i := 0; i < 1<<16; i++ {
		b := uint16(i)
		x := F16ToFloat64(b)
		if ref := float64(float16.Frombits(b).Float32()); !sameFloat(x, ref) {
			t.Fatalf("F16ToFloat64(%#04x) = %v, x448 gives %v", b, x, ref)
		}
		back := F16FromFloat64(x)
		isNaN := b&0x7C00 == 0x7C00 && b&0x03FF != 0
		switch {
		case !isNaN && back != b:
			t.Fatalf("round trip %#04x -> %v -> %#04x", b, x, back)
		case isNaN && (back&0x7C00 != 0x7C00 || back&0x3FF == 0 || back&0x8000 != b&0x8000):
			t.Fatalf("NaN %#04x -> %#04x is not a NaN of the same sign", b, back)
		case isNaN && b&0x200 != 0 && back != b:
			t.Fatalf("quiet NaN %#04x -> %#04x changed", b, back)
		case isNaN && back&0x200 == 0:
			t.Fatalf("NaN %#04x -> %#04x is not quiet", b, back)
		}
	}
}

// bf16Ref is the classic bit trick for float32 -> bfloat16 RNE, right for
// every non-NaN input.
func bf16Ref(f float32) uint16 {
	b := math.Float32bits(f)
	return uint16((b + 0x7FFF + (b>>16)&1) >> 16)
}

func TestBF16FromFloat32Table(t *testing.T) {
	tests := []struct {
		name string
		bits uint32
		want uint16
	}{
		{"one", 0x3F800000, 0x3F80},
		{"-zero", 0x80000000, 0x8000},
		{"tie to even down", 0x3F808000, 0x3F80},
		{"tie to even up", 0x3F818000, 0x3F82},
		{"above tie", 0x3F808001, 0x3F81},
		{"below tie", 0x3F807FFF, 0x3F80},
		{"bf16 max", 0x7F7F0000, 0x7F7F},
		{"f32 max rounds to inf", 0x7F7FFFFF, 0x7F80},
		{"just below overflow tie", 0x7F7F7FFF, 0x7F7F},
		{"overflow tie to inf", 0x7F7F8000, 0x7F80},
		{"inf", 0x7F800000, 0x7F80},
		{"-inf", 0xFF800000, 0xFF80},
		{"signalling NaN low payload stays NaN", 0x7F800001, 0x7FC0},
		{"-signalling NaN low payload", 0xFF800001, 0xFFC0},
		{"quiet NaN", 0x7FC00000, 0x7FC0},
		{"NaN with payload is canonical", 0x7FFFFFFF, 0x7FC0},
		{"NaN high payload is canonical", 0x7F810000, 0x7FC0},
		{"-quiet NaN with payload", 0xFFE00001, 0xFFC0},
		{"f32 min subnormal", 0x00000001, 0x0000},
		{"subnormal tie to zero", 0x00008000, 0x0000},
		{"subnormal above tie", 0x00008001, 0x0001},
		{"subnormal tie to even 2", 0x00018000, 0x0002},
		{"max subnormal rounds to min normal", 0x007FFFFF, 0x0080},
		{"0.1", math.Float32bits(0.1), 0x3DCD},
	}
	for _, tt := range tests {
		if got := BF16FromFloat32(math.Float32frombits(tt.bits)); got != tt.want {
			t.Errorf("%s: BF16FromFloat32(%#08x) = %#04x, want %#04x", tt.name, tt.bits, got, tt.want)
		}
	}
}

// TestBF16FromFloat32Sweep compares with the bit trick on a sweep of float32
// bit patterns and checks every NaN pattern of the sweep stays NaN.
func TestBF16FromFloat32Sweep(t *testing.T) {
	for i := uint64(0); i < 1<<32; i += 997 {
		f := math.Float32frombits(uint32(i))
		got := BF16FromFloat32(f)
		if f != f {
			if want := uint16(i>>16)&0x8000 | 0x7FC0; got != want {
				t.Fatalf("NaN %#08x -> %#04x, want %#04x", i, got, want)
			}
			continue
		}
		if want := bf16Ref(f); got != want {
			t.Fatalf("BF16FromFloat32(%#08x) = %#04x, want %#04x", i, got, want)
		}
	}
}

func TestBF16FromFloat64Table(t *testing.T) {
	tests := []struct {
		name string
		x    float64
		want uint16
	}{
		{"one", 1, 0x3F80},
		{"0.1", 0.1, 0x3DCD},
		{"pi", math.Pi, 0x4049},
		{"-zero", negZ, 0x8000},
		{"nan", nan, 0x7FC0},
		{"-nan", negNaN, 0xFFC0},
		{"nan with payload", math.Float64frombits(0x7FFFFFFFFFFFFFFF), 0x7FC0},
		{"inf", inf, 0x7F80},
		{"1e39 overflows", 1e39, 0x7F80},
		{"-1e39 overflows", -1e39, 0xFF80},
		{"bf16 max", 0x1.FEp127, 0x7F7F},
		{"tie", 1 + p2(-8), 0x3F80},
		// Double rounding through float32, as the references do: the float32
		// rounding lands on the bf16 tie 1+2^-8, which ties to even.
		{"1+2^-8+2^-40 via float32", 1 + p2(-8) + p2(-40), 0x3F80},
		{"1+3*2^-8-2^-40 via float32", 1 + 3*p2(-8) - p2(-40), 0x3F82},
		{"tiny underflows", 1e-50, 0x0000},
		{"bf16 min subnormal", p2(-133), 0x0001},
	}
	for _, tt := range tests {
		if got := BF16FromFloat64(tt.x); got != tt.want {
			t.Errorf("%s: BF16FromFloat64(%g) = %#04x, want %#04x", tt.name, tt.x, got, tt.want)
		}
	}
	// The same two inputs rounded once would give the other neighbour: this
	// is the documented difference from a direct rounding.
	if got := uint16(fmtBF16.encode(1 + p2(-8) + p2(-40))); got != 0x3F81 {
		t.Errorf("direct bf16(1+2^-8+2^-40) = %#04x, want 0x3f81", got)
	}
	if got := uint16(fmtBF16.encode(1 + 3*p2(-8) - p2(-40))); got != 0x3F81 {
		t.Errorf("direct bf16(1+3*2^-8-2^-40) = %#04x, want 0x3f81", got)
	}
}

// TestBF16FromFloat64AgainstBig checks the float32-then-bfloat16 rounding
// against two math/big roundings (24 then 8 bits) in the normal range.
func TestBF16FromFloat64AgainstBig(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	for i := 0; i < 200000; i++ {
		x := math.Ldexp(1+r.Float64(), r.Intn(250)-125)
		if r.Intn(2) == 0 {
			x = -x
		}
		f := new(big.Float).SetPrec(24).SetMode(big.ToNearestEven).SetFloat64(x)
		want, _ := f.SetPrec(8).Float64()
		if math.Abs(want) > 0x1.FEp127 {
			want = math.Copysign(inf, want)
		}
		if got := BF16ToFloat64(BF16FromFloat64(x)); got != want {
			t.Fatalf("bf16(%v) = %v, big.Float gives %v", x, got, want)
		}
	}
}

func TestBF16RoundTripAll(t *testing.T) {
	for i := 0; i < 1<<16; i++ {
		b := uint16(i)
		x := BF16ToFloat64(b)
		if ref := float64(math.Float32frombits(uint32(b) << 16)); !sameFloat(x, ref) {
			t.Fatalf("BF16ToFloat64(%#04x) = %v, want %v", b, x, ref)
		}
		want := b
		if b&0x7F80 == 0x7F80 && b&0x7F != 0 { // NaN: canonical, sign kept
			want = b&0x8000 | 0x7FC0
		}
		for _, back := range []uint16{BF16FromFloat64(x), BF16FromFloat32(float32(x))} {
			if back != want {
				t.Fatalf("round trip %#04x -> %v -> %#04x, want %#04x", b, x, back, want)
			}
		}
	}
}

func TestF8E4M3Table(t *testing.T) {
	tests := []struct {
		name string
		x    float64
		want uint8
	}{
		{"zero", 0, 0x00},
		{"-zero", negZ, 0x80},
		{"one", 1, 0x38},
		{"-one", -1, 0xB8},
		{"0.1", 0.1, 0x1D},
		{"240", 240, 0x77},
		{"256", 256, 0x78},
		{"max 448", 448, 0x7E},
		{"-max", -448, 0xFE},
		{"449 rounds to 448", 449, 0x7E},
		{"464 (tie) rounds to even 448", 464, 0x7E},
		{"just above 464 is NaN", up(464), 0x7F},
		{"480 is NaN", 480, 0x7F},
		{"-464 rounds to -448", -464, 0xFE},
		{"-500 is -NaN", -500, 0xFF},
		{"1e10 is NaN", 1e10, 0x7F},
		{"inf is NaN", inf, 0x7F},
		{"-inf is -NaN", negInf, 0xFF},
		{"nan", nan, 0x7F},
		{"-nan", negNaN, 0xFF},
		{"nan with payload", math.Float64frombits(0x7FF0000000000001), 0x7F},
		{"min normal", p2(-6), 0x08},
		{"max subnormal", 7 * p2(-9), 0x07},
		{"min subnormal", p2(-9), 0x01},
		{"-min subnormal", -p2(-9), 0x81},
		{"half min subnormal ties to zero", p2(-10), 0x00},
		{"just above half min subnormal", up(p2(-10)), 0x01},
		{"1.5 subnormal ulps ties to 2", 1.5 * p2(-9), 0x02},
		{"7.5 subnormal ulps ties to min normal", 7.5 * p2(-9), 0x08},
		{"1.0625 ties to 1", 1.0625, 0x38},
		{"1.1875 ties to 1.25", 1.1875, 0x3A},
		// Direct from float64 (ml_dtypes ConvertImpl<double, ...>): via
		// float32 the 2^-40 would be lost and the tie go to 1.
		{"1+2^-4+2^-40 direct", 1 + p2(-4) + p2(-40), 0x39},
	}
	for _, tt := range tests {
		if got := F8E4M3FromFloat64(tt.x); got != tt.want {
			t.Errorf("%s: F8E4M3FromFloat64(%g) = %#02x, want %#02x", tt.name, tt.x, got, tt.want)
		}
	}
}

func TestF8E5M2Table(t *testing.T) {
	tests := []struct {
		name string
		x    float64
		want uint8
	}{
		{"zero", 0, 0x00},
		{"-zero", negZ, 0x80},
		{"one", 1, 0x3C},
		{"-two", -2, 0xC0},
		{"0.1", 0.1, 0x2E},
		{"max 57344", 57344, 0x7B},
		{"-max", -57344, 0xFB},
		{"61439 rounds to max", 61439, 0x7B},
		{"61440 (tie) goes to inf", 61440, 0x7C},
		{"-61440 goes to -inf", -61440, 0xFC},
		{"1e10", 1e10, 0x7C},
		{"inf", inf, 0x7C},
		{"-inf", negInf, 0xFC},
		{"nan", nan, 0x7E},
		{"-nan", negNaN, 0xFE},
		{"signalling nan is canonical", math.Float64frombits(0x7FF4000000000000), 0x7E},
		{"nan with payload is canonical", math.Float64frombits(0xFFFFFFFFFFFFFFFF), 0xFE},
		{"min normal", p2(-14), 0x04},
		{"max subnormal", 3 * p2(-16), 0x03},
		{"min subnormal", p2(-16), 0x01},
		{"half min subnormal ties to zero", p2(-17), 0x00},
		{"-half min subnormal ties to -zero", -p2(-17), 0x80},
		{"just above half min subnormal", up(p2(-17)), 0x01},
		{"3.5 subnormal ulps ties to min normal", 3.5 * p2(-16), 0x04},
		{"1.125 ties to 1", 1.125, 0x3C},
		{"1.375 ties to 1.5", 1.375, 0x3E},
		{"1+2^-3+2^-40 direct", 1 + p2(-3) + p2(-40), 0x3D},
	}
	for _, tt := range tests {
		if got := F8E5M2FromFloat64(tt.x); got != tt.want {
			t.Errorf("%s: F8E5M2FromFloat64(%g) = %#02x, want %#02x", tt.name, tt.x, got, tt.want)
		}
	}
}

func TestF8ToFloat64Table(t *testing.T) {
	tests := []struct {
		name string
		got  float64
		want float64
	}{
		{"e4m3 0x7E", F8E4M3ToFloat64(0x7E), 448},
		{"e4m3 0x78", F8E4M3ToFloat64(0x78), 256},
		{"e4m3 0x7F", F8E4M3ToFloat64(0x7F), nan},
		{"e4m3 0xFF", F8E4M3ToFloat64(0xFF), negNaN},
		{"e4m3 0x80", F8E4M3ToFloat64(0x80), negZ},
		{"e4m3 0x01", F8E4M3ToFloat64(0x01), p2(-9)},
		{"e4m3 0x08", F8E4M3ToFloat64(0x08), p2(-6)},
		{"e4m3 0x38", F8E4M3ToFloat64(0x38), 1},
		{"e5m2 0x7B", F8E5M2ToFloat64(0x7B), 57344},
		{"e5m2 0x7C", F8E5M2ToFloat64(0x7C), inf},
		{"e5m2 0xFC", F8E5M2ToFloat64(0xFC), negInf},
		{"e5m2 0x7D", F8E5M2ToFloat64(0x7D), nan},
		{"e5m2 0xFF", F8E5M2ToFloat64(0xFF), negNaN},
		{"e5m2 0x01", F8E5M2ToFloat64(0x01), p2(-16)},
		{"e5m2 0x3C", F8E5M2ToFloat64(0x3C), 1},
	}
	for _, tt := range tests {
		if !sameFloat(tt.got, tt.want) {
			t.Errorf("%s = %v, want %v", tt.name, tt.got, tt.want)
		}
	}
}

// TestF8RoundTripAll checks every float8 bit pattern of both formats, and
// that values are strictly increasing over the positive patterns.
func TestF8RoundTripAll(t *testing.T) {
	type f8 struct {
		name   string
		to     func(uint8) float64
		from   func(float64) uint8
		isNaN  func(uint8) bool
		maxPos uint8 // the largest finite positive pattern
		nan    uint8 // the positive canonical NaN
	}
	formats := []f8{
		{"e4m3fn", F8E4M3ToFloat64, F8E4M3FromFloat64, func(b uint8) bool { return b&0x7F == 0x7F }, 0x7E, 0x7F},
		{"e5m2", F8E5M2ToFloat64, F8E5M2FromFloat64, func(b uint8) bool { return b&0x7C == 0x7C && b&3 != 0 }, 0x7B, 0x7E},
	}
	for _, f := range formats {
		nans := 0
		for i := 0; i < 256; i++ {
			b := uint8(i)
			x := f.to(b)
			back := f.from(x)
			if f.isNaN(b) {
				nans++
				if !math.IsNaN(x) || back != b&0x80|f.nan {
					t.Errorf("%s: NaN %#02x -> %v -> %#02x", f.name, b, x, back)
				}
				continue
			}
			if math.IsNaN(x) || back != b {
				t.Errorf("%s: round trip %#02x -> %v -> %#02x", f.name, b, x, back)
			}
			if b > 0 && b <= f.maxPos && !(x > f.to(b-1)) {
				t.Errorf("%s: %#02x = %v is not above %#02x = %v", f.name, b, x, b-1, f.to(b-1))
			}
		}
		if want := map[string]int{"e4m3fn": 2, "e5m2": 6}[f.name]; nans != want {
			t.Errorf("%s: %d NaN patterns, want %d", f.name, nans, want)
		}
	}
}

// TestF8AgainstNearest checks every float8 rounding by brute force: for many
// float64 inputs the result is the nearest finite value (ties to the even
// pattern), or the overflow answer beyond the rounding range.
func TestF8AgainstNearest(t *testing.T) {
	type f8 struct {
		name     string
		to       func(uint8) float64
		from     func(float64) uint8
		maxPos   uint8
		overflow float64 // the smallest |x| that overflows
		over     uint8   // the positive overflow pattern
	}
	formats := []f8{
		{"e4m3fn", F8E4M3ToFloat64, F8E4M3FromFloat64, 0x7E, up(464), 0x7F},
		{"e5m2", F8E5M2ToFloat64, F8E5M2FromFloat64, 0x7B, 61440, 0x7C},
	}
	r := rand.New(rand.NewSource(3))
	for _, f := range formats {
		nearest := func(x float64) uint8 {
			a := math.Abs(x)
			if a >= f.overflow {
				return f.over
			}
			best := uint8(0)
			for b := uint8(1); b <= f.maxPos; b++ {
				d, db := math.Abs(f.to(b)-a), math.Abs(f.to(best)-a)
				if d < db || d == db && b&1 == 0 {
					best = b
				}
			}
			return best
		}
		var xs []float64
		for b := uint8(0); b < f.maxPos; b++ { // each midpoint and its neighbours
			m := (f.to(b) + f.to(b+1)) / 2
			xs = append(xs, m, up(m), down(m), f.to(b))
		}
		for i := 0; i < 20000; i++ {
			xs = append(xs, math.Ldexp(r.Float64(), r.Intn(40)-24))
		}
		for _, x := range xs {
			for _, s := range []float64{1, -1} {
				want := nearest(x)
				if s < 0 {
					want |= 0x80
				}
				if got := f.from(s * x); got != want {
					t.Fatalf("%s(%v) = %#02x, want %#02x", f.name, s*x, got, want)
				}
			}
		}
	}
}

func TestTF32Round(t *testing.T) {
	tests := []struct {
		name string
		x    float32
		want float32
	}{
		{"one", 1, 1},
		{"exact", 1 + 0x1p-10, 1 + 0x1p-10},
		{"tie to even down", 1 + 0x1p-11, 1},
		{"tie to even up", 1 + 3*0x1p-11, 1 + 0x1p-9},
		{"above tie", 1 + 0x1p-11 + 0x1p-23, 1 + 0x1p-10},
		{"-above tie", -(1 + 0x1p-11 + 0x1p-23), -(1 + 0x1p-10)},
		{"0.1", 0.1, 0x1.998p-4},
		{"max float32 overflows", math.MaxFloat32, float32(inf)},
		{"tf32 max", 0x1.FFCp127, 0x1.FFCp127},
		{"inf", float32(inf), float32(inf)},
		{"-inf", float32(negInf), float32(negInf)},
		{"f32 min subnormal", 0x1p-149, 0},
		{"tf32 min subnormal", 0x1p-136, 0x1p-136},
		{"min normal", 0x1p-126, 0x1p-126},
	}
	for _, tt := range tests {
		if got := TF32Round(tt.x); got != tt.want {
			t.Errorf("%s: TF32Round(%g) = %g, want %g", tt.name, tt.x, got, tt.want)
		}
	}
	if got := TF32Round(float32(negZ)); got != 0 || !math.Signbit(float64(got)) {
		t.Errorf("TF32Round(-0) = %g, want -0", got)
	}
	for _, b := range []uint32{0x7FC00000, 0x7F800001, 0xFFC00001} {
		if got := TF32Round(math.Float32frombits(b)); math.Float32bits(got) != b {
			t.Errorf("TF32Round(NaN %#08x) = %#08x, want it kept", b, math.Float32bits(got))
		}
	}
	// The bit trick for RNE to 10 mantissa bits, on a sweep of finite inputs.
	for i := uint64(0); i < 1<<32; i += 1009 {
		f := math.Float32frombits(uint32(i))
		if math.IsNaN(float64(f)) || math.IsInf(float64(f), 0) {
			continue
		}
		b := uint32(i)
		want := math.Float32frombits((b + 0xFFF + (b>>13)&1) &^ 0x1FFF)
		if got := TF32Round(f); math.Float32bits(got) != math.Float32bits(want) {
			t.Fatalf("TF32Round(%#08x) = %#08x, want %#08x", b, math.Float32bits(got), math.Float32bits(want))
		}
	}
}

func TestFloatFromFloat64(t *testing.T) {
	tests := []struct {
		d    DType
		x    float64
		want float64
	}{
		{F16, 0.1, 0.0999755859375},
		{F16, 1e5, inf},
		{F16, 1 + p2(-11) + p2(-40), 1 + p2(-10)},
		{BF16, 0.1, 0.10009765625},
		{BF16, 1 + p2(-8) + p2(-40), 1},
		{F32, 0.1, float64(float32(0.1))},
		{F32, 1e39, inf},
		{C64, 0.1, float64(float32(0.1))},
		{TF32, 0.1, 0x1.998p-4},
		{TF32, 1 + p2(-11) + p2(-40), 1 + p2(-10)}, // rounded once, directly
		{F64, 0.1, 0.1},
		{C128, 0.1, 0.1},
		{F8E4M3, 0.1, 0.1015625},
		{F8E4M3, 1000, nan},
		{F8E4M3, -1000, negNaN},
		{F8E5M2, 0.1, 0.09375},
		{F8E5M2, 1e5, inf},
		{F16, negZ, negZ},
		{F8E5M2, nan, nan},
		{I32, 2.5, 2.5},
	}
	for _, tt := range tests {
		if got := FloatFromFloat64(tt.d, tt.x); !sameFloat(got, tt.want) {
			t.Errorf("FloatFromFloat64(%v, %v) = %v, want %v", tt.d, tt.x, got, tt.want)
		}
	}
}
