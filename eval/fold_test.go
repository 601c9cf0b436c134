package eval

import (
	"errors"
	"math"
	"math/big"
	"strconv"
	"strings"
	"testing"

	"github.com/tensorsh/tensorsh/promote"
)

// TestFoldPython checks the folding of literal arithmetic against Python
// 3.11: every expected value (or exception) below was computed by
// CPython's own evaluation of the expression in the comment, and is
// written as Python's float.hex so that the comparison is exact. Python's
// int / int rounds the exact quotient once; // and % floor (with float %
// taking the divisor's sign); ** of ints with a negative exponent is a
// float; a negative base to a fractional power is complex; float overflow
// in ** raises OverflowError while * and + give inf; ints compare with
// floats exactly.
func TestFoldPython(t *testing.T) {
	const (
		Add      = promote.Add
		Sub      = promote.Sub
		Mul      = promote.Mul
		TrueDiv  = promote.TrueDiv
		FloorDiv = promote.FloorDiv
		Mod      = promote.Mod
		Pow      = promote.Pow
		Eq       = promote.Eq
		Ne       = promote.Ne
		Lt       = promote.Lt
		Le       = promote.Le
		Gt       = promote.Gt
		Ge       = promote.Ge
		BitAnd   = promote.BitAnd
		BitOr    = promote.BitOr
		BitXor   = promote.BitXor
		Shl      = promote.Shl
		Shr      = promote.Shr
	)
	tests := []struct {
		x  string
		op promote.BinaryOp
		y  string
		// want is the value as "i:", "f:", "c:" or "b:", or "E:" and
		// Python's exception.
		want string
	}{
		{"i:7", FloorDiv, "i:-2", "i:-4"},                                                       // (7) // (-2)
		{"i:-7", Mod, "i:3", "i:2"},                                                             // (-7) % (3)
		{"i:-7", FloorDiv, "i:2", "i:-4"},                                                       // (-7) // (2)
		{"i:7", Mod, "i:-3", "i:-2"},                                                            // (7) % (-3)
		{"f:0x1.e000000000000p+2", FloorDiv, "i:2", "f:0x1.8000000000000p+1"},                   // (7.5) // (2)
		{"f:-0x1.e000000000000p+2", Mod, "i:2", "f:0x1.0000000000000p-1"},                       // (-7.5) % (2)
		{"f:0x1.c000000000000p+2", Mod, "i:-2", "f:-0x1.0000000000000p+0"},                      // (7.0) % (-2)
		{"f:-0x0.0p+0", FloorDiv, "i:1", "f:-0x0.0p+0"},                                         // (-0.0) // (1)
		{"i:2", Pow, "i:-1", "f:0x1.0000000000000p-1"},                                          // (2) ** (-1)
		{"i:2", Pow, "f:0x1.0000000000000p-1", "f:0x1.6a09e667f3bcdp+0"},                        // (2) ** (0.5)
		{"i:-8", Pow, "f:0x1.0000000000000p-1", "c:0x1.8f5a0be038ed7p-53,0x1.6a09e667f3bcdp+1"}, // (-8) ** (0.5)
		// float ** float is C's pow (glibc), correctly rounded; Go's
		// math.Pow gives 0x1.6a09e667f3bccp+1 for 2.0 ** 1.5.
		{"f:0x1.0000000000000p+1", Pow, "f:0x1.8000000000000p+0", "f:0x1.6a09e667f3bcdp+1"},  // (2.0) ** (1.5)
		{"f:0x1.999999999999ap-1", Pow, "f:0x1.8000000000000p+0", "f:0x1.6e5b7d16657e2p-1"},  // (0.8) ** (1.5)
		{"f:0x1.4000000000000p+1", Pow, "f:0x1.8000000000000p+0", "f:0x1.f9f6e4990f227p+1"},  // (2.5) ** (1.5)
		{"f:0x1.4cccccccccccdp+0", Pow, "f:0x1.4000000000000p+1", "f:0x1.ed491642a1995p+0"},  // (1.3) ** (2.5)
		{"f:0x1.8000000000000p+1", Pow, "f:-0x1.0000000000000p-1", "f:0x1.279a74590331cp-1"}, // (3.0) ** (-0.5)
		{"f:0x1.fffffffffffffp-1", Pow, "f:0x1.8000000000000p+0", "f:0x1.fffffffffffffp-1"},  // (0.9999999999999999) ** (1.5)
		{"f:0x1.199999999999ap+0", Pow, "f:0x1.8000000000000p+1", "f:0x1.54bc6a7ef9db4p+0"},  // (1.1) ** (3.0)
		{"f:0x1.e666666666666p+0", Pow, "f:-0x1.8000000000000p+0", "f:0x1.86fe570dfe800p-2"}, // (1.9) ** (-1.5)
		{"i:2", Pow, "i:100", "i:1267650600228229401496703205376"},                           // (2) ** (100)
		{"i:0", Pow, "i:0", "i:1"},                         // (0) ** (0)
		{"f:0x0.0p+0", Pow, "i:-1", "E:ZeroDivisionError"}, // (0.0) ** (-1)
		{"f:-0x1.0000000000000p+1", Pow, "f:0x1.0000000000000p-1", "c:0x1.8f5a0be038ed7p-54,0x1.6a09e667f3bcdp+0"}, // (-2.0) ** (0.5)
		{"i:1", TrueDiv, "i:2", "f:0x1.0000000000000p-1"},                                                          // (1) / (2)
		{"i:1", FloorDiv, "i:0", "E:ZeroDivisionError"},                                                            // (1) // (0)
		{"f:0x1.0000000000000p+0", TrueDiv, "i:0", "E:ZeroDivisionError"},                                          // (1.0) / (0)
		{"f:0x1.8000000000000p+0", Mod, "i:0", "E:ZeroDivisionError"},                                              // (1.5) % (0)
		{"i:1", Mod, "f:0x0.0p+0", "E:ZeroDivisionError"},                                                          // (1) % (0.0)
		{"i:10000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000", TrueDiv, "i:1", "E:OverflowError"},                                                                                                                                                                                                                                                                                                                                                                                                                       // (10**400) / (1)
		{"i:10000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000", TrueDiv, "i:1000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000", "f:0x1.4000000000000p+3"}, // (10**400) / (10**399)
		{"b:true", Add, "b:true", "i:2"},                                                               // (True) + (True)
		{"b:true", TrueDiv, "i:2", "f:0x1.0000000000000p-1"},                                           // (True) / (2)
		{"b:true", FloorDiv, "b:true", "i:1"},                                                          // (True) // (True)
		{"b:true", Sub, "b:false", "i:1"},                                                              // (True) - (False)
		{"i:1", Add, "c:0x0.0p+0,0x1.0000000000000p+1", "c:0x1.0000000000000p+0,0x1.0000000000000p+1"}, // (1) + (2j)
		{"c:0x1.0000000000000p+0,0x1.0000000000000p+1", Mul, "c:0x1.8000000000000p+1,-0x1.0000000000000p+0", "c:0x1.4000000000000p+2,0x1.4000000000000p+2"},      // ((1+2j)) * ((3-1j))
		{"c:0x1.0000000000000p+0,0x1.0000000000000p+1", TrueDiv, "i:0", "E:ZeroDivisionError"},                                                                   // ((1+2j)) / (0)
		{"c:0x0.0p+0,0x1.0000000000000p+0", Pow, "i:2", "c:-0x1.0000000000000p+0,0x0.0p+0"},                                                                      // (1j) ** (2)
		{"c:0x1.0000000000000p+0,0x1.0000000000000p+1", TrueDiv, "c:0x1.8000000000000p+1,-0x1.0000000000000p+2", "c:-0x1.999999999999ap-3,0x1.999999999999ap-2"}, // ((1+2j)) / ((3-4j))
		{"c:0x0.0p+0,0x1.0000000000000p+0", FloorDiv, "i:1", "E:TypeError"},                                                                                      // (1j) // (1)
		{"c:0x0.0p+0,0x1.0000000000000p+0", Mod, "i:1", "E:TypeError"},                                                                                           // (1j) % (1)
		{"i:1", Lt, "f:0x1.4000000000000p+1", "b:true"},                                                                                                          // (1) < (2.5)
		{"i:9007199254740993", Gt, "f:0x1.0000000000000p+53", "b:true"},                                                                                          // (2**53+1) > (2.0**53)
		{"i:1", Eq, "f:0x1.0000000000000p+0", "b:true"},                                                                                                          // (1) == (1.0)
		{"c:0x0.0p+0,0x1.0000000000000p+0", Eq, "c:0x0.0p+0,0x1.0000000000000p+0", "b:true"},                                                                     // (1j) == (1j)
		{"f:nan", Eq, "f:nan", "b:false"},                                                                                                                        // (float('nan')) == (float('nan'))
		{"f:nan", Ne, "f:nan", "b:true"},                                                                                                                         // (float('nan')) != (float('nan'))
		{"c:0x0.0p+0,0x1.0000000000000p+0", Lt, "c:0x0.0p+0,0x1.0000000000000p+1", "E:TypeError"},                                                                // (1j) < (2j)
		{"i:10000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000", Gt, "f:inf", "b:false"},                      // (10**400) > (float('inf'))
		{"i:-10000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000", Lt, "f:-0x1.1ccf385ebc8a0p+1023", "b:true"}, // (-10**400) < (-1e308)
		{"b:true", Eq, "i:1", "b:true"},                                                         // (True) == (1)
		{"i:6", BitAnd, "i:3", "i:2"},                                                           // (6) & (3)
		{"i:-1", Shr, "i:1", "i:-1"},                                                            // (-1) >> (1)
		{"i:1", Shl, "i:70", "i:1180591620717411303424"},                                        // (1) << (70)
		{"i:5", BitXor, "b:true", "i:4"},                                                        // (5) ^ (True)
		{"b:true", BitAnd, "b:false", "b:false"},                                                // (True) & (False)
		{"b:true", BitOr, "b:false", "b:true"},                                                  // (True) | (False)
		{"f:0x1.8000000000000p+0", BitAnd, "i:1", "E:TypeError"},                                // (1.5) & (1)
		{"i:1", Shl, "i:-1", "E:ValueError"},                                                    // (1) << (-1)
		{"f:0x1.999999999999ap-4", Add, "f:0x1.999999999999ap-3", "f:0x1.3333333333334p-2"},     // (0.1) + (0.2)
		{"f:0x1.1ccf385ebc8a0p+1023", Mul, "i:10", "f:inf"},                                     // (1e308) * (10)
		{"f:0x1.0000000000000p+1", Pow, "i:10000", "E:OverflowError"},                           // (2.0) ** (10000)
		{"f:0x1.4000000000000p+3", Pow, "i:400", "E:OverflowError"},                             // (10.0) ** (400)
		{"f:-0x1.1ccf385ebc8a0p+1023", Sub, "f:0x1.1ccf385ebc8a0p+1023", "f:-inf"},              // (-1e308) - (1e308)
		{"f:inf", Sub, "f:inf", "f:nan"},                                                        // (float('inf')) - (float('inf'))
		{"f:0x1.4000000000000p+2", FloorDiv, "f:inf", "f:0x0.0p+0"},                             // (5.0) // (float('inf'))
		{"f:-0x1.4000000000000p+2", FloorDiv, "f:inf", "f:-0x1.0000000000000p+0"},               // (-5.0) // (float('inf'))
		{"f:0x1.4000000000000p+2", Mod, "f:inf", "f:0x1.4000000000000p+2"},                      // (5.0) % (float('inf'))
		{"f:-0x1.4000000000000p+2", Mod, "f:inf", "f:inf"},                                      // (-5.0) % (float('inf'))
		{"f:inf", FloorDiv, "i:1", "f:nan"},                                                     // (float('inf')) // (1)
		{"i:3", Pow, "i:-2", "f:0x1.c71c71c71c71cp-4"},                                          // (3) ** (-2)
		{"i:-1", Pow, "f:0x1.0000000000000p-1", "c:0x1.1a62633145c07p-54,0x1.0000000000000p+0"}, // ((-1)) ** (0.5)
		{"f:0x1.7e43c8800759cp+996", Mul, "f:0x1.7e43c8800759cp+996", "f:inf"},                  // (1e300) * (1e300)
		{"i:10715086071862673209484250490600018105614048117055336074437503883703510511249361224931983788156958581275946729175531468251871452856923140435984577574698574803934567774824230985421074605062371141877954182153046474983581941267398767559165543946077062914571196477686542167660429831652624386837205668069376", Mul, "f:0x1.0000000000000p+0", "f:0x1.0000000000000p+1000"}, // (2**1000) * (1.0)
		{"i:179769313486231590772930519078902473361797697894230657273430081157732675805500963132708477322407536021120113879871393357658789768814416622492847430639474124377767893424865485276302219601246094119453082952085005768838150682342462881473913110540827237163350510684586298239947245938479716304835356329624224137216", Add, "f:0x1.0000000000000p-1", "E:OverflowError"},    // (2**1024) + (0.5)
	}
	for _, tc := range tests {
		x, y := pyScalar(t, tc.x), pyScalar(t, tc.y)
		got, err := foldBinary(promote.Python, tc.op, x, y)
		what := x.String() + " " + tc.op.String() + " " + y.String()
		if exc, ok := strings.CutPrefix(tc.want, "E:"); ok {
			if err == nil {
				t.Errorf("%s = %v, want Python's %s", what, got, exc)
			} else if exc == "ZeroDivisionError" && !errors.Is(err, errZeroDiv) {
				t.Errorf("%s: %v, want a ZeroDivisionError", what, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v, want %s", what, err, tc.want)
			continue
		}
		want := pyScalar(t, tc.want)
		if polar := tc.op == promote.Pow && want.Kind == promote.ComplexScalar && x.Kind != promote.ComplexScalar; polar {
			// A negative real to a fractional power goes through polar
			// form: cos and sin of Go's math may differ from the C
			// library's in the last bits, so allow 8 ULP of |result|.
			if got.Kind != promote.ComplexScalar || cmplxDist(got.Complex, want.Complex) > 8*ulp(cmplxAbs(want.Complex)) {
				t.Errorf("%s = %v, want %v within 8 ULP", what, got, want)
			}
			continue
		}
		if !sameScalar(got, want) {
			t.Errorf("%s = %v (%s), want %v (%s)", what, got, got.Kind, want, want.Kind)
		}
	}
}

// pyScalar decodes "i:-4", "f:0x1.8p+1", "c:RE,IM" (float.hex parts) or
// "b:true".
func pyScalar(t *testing.T, s string) promote.Scalar {
	t.Helper()
	kind, v, _ := strings.Cut(s, ":")
	float := func(s string) float64 {
		f, err := strconv.ParseFloat(s, 64)
		if err != nil {
			t.Fatalf("%q: %v", s, err)
		}
		return f
	}
	switch kind {
	case "i":
		i, ok := new(big.Int).SetString(v, 10)
		if !ok {
			t.Fatalf("bad int %q", v)
		}
		return promote.IntValue(i)
	case "f":
		return promote.FloatValue(float(v))
	case "c":
		re, im, _ := strings.Cut(v, ",")
		return promote.ComplexValue(complex(float(re), float(im)))
	case "b":
		return promote.BoolValue(v == "true")
	}
	t.Fatalf("bad scalar %q", s)
	return promote.Scalar{}
}

// sameScalar reports whether a and b are the same value of the same kind,
// bit for bit (NaN equals NaN; 0 and -0 differ).
func sameScalar(a, b promote.Scalar) bool {
	same := func(x, y float64) bool {
		return math.Float64bits(x) == math.Float64bits(y) || math.IsNaN(x) && math.IsNaN(y)
	}
	if a.Kind != b.Kind {
		return false
	}
	switch a.Kind {
	case promote.BoolScalar:
		return a.Bool == b.Bool
	case promote.IntScalar:
		return a.Int.Cmp(b.Int) == 0
	case promote.FloatScalar:
		return same(a.Float, b.Float)
	}
	return same(real(a.Complex), real(b.Complex)) && same(imag(a.Complex), imag(b.Complex))
}

func cmplxAbs(c complex128) float64 { return math.Hypot(real(c), imag(c)) }

func cmplxDist(a, b complex128) float64 { return cmplxAbs(a - b) }

// ulp returns the distance from |x| to the next float64 up.
func ulp(x float64) float64 {
	x = math.Abs(x)
	return math.Nextafter(x, math.Inf(1)) - x
}

// TestFoldR checks anvil's literal arithmetic, which folds like R: 32-bit
// integers whose overflow is NA (an error here), / and ^ giving doubles,
// %/% and %% flooring, and IEEE division by zero for doubles (R's
// Arithmetic help page: "1/0 is Inf", "x %/% 0 is NA").
func TestFoldR(t *testing.T) {
	i := func(v int64) promote.Scalar { return promote.Int64Value(v) }
	f := promote.FloatValue
	tests := []struct {
		x    promote.Scalar
		op   promote.BinaryOp
		y    promote.Scalar
		want promote.Scalar
		err  string
	}{
		{i(5), promote.TrueDiv, i(2), f(2.5), ""},
		{i(1), promote.TrueDiv, i(0), f(math.Inf(1)), ""},
		{i(-1), promote.TrueDiv, i(0), f(math.Inf(-1)), ""},
		{f(1), promote.TrueDiv, f(0), f(math.Inf(1)), ""},
		{i(2147483647), promote.Add, i(1), promote.Scalar{}, "R integers are 32-bit"},
		{i(-2147483647), promote.Sub, i(2), promote.Scalar{}, "R integers are 32-bit"},
		{i(46341), promote.Mul, i(46341), promote.Scalar{}, "R integers are 32-bit"},
		{i(2), promote.Pow, i(31), f(2147483648), ""},
		{i(-7), promote.FloorDiv, i(2), i(-4), ""},
		{i(-7), promote.Mod, i(3), i(2), ""},
		{i(5), promote.FloorDiv, i(0), promote.Scalar{}, "R gives NA"},
	}
	for _, tc := range tests {
		got, err := foldBinary(promote.R, tc.op, tc.x, tc.y)
		what := tc.x.String() + " " + tc.op.String() + " " + tc.y.String()
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("R %s = %v, %v; want an error saying %q", what, got, err, tc.err)
			}
			continue
		}
		if err != nil || !sameScalar(got, tc.want) {
			t.Errorf("R %s = %v (%s), %v; want %v (%s)", what, got, got.Kind, err, tc.want, tc.want.Kind)
		}
	}
}

// TestFoldUnary checks Python's unary operators on literals: a bool
// becomes an int under - + ~ (-True is -1, ~True is -2), ints have
// arbitrary size, and ~ refuses floats.
func TestFoldUnary(t *testing.T) {
	big63 := new(big.Int).Lsh(big.NewInt(1), 63)
	tests := []struct {
		op   promote.UnaryOp
		x    promote.Scalar
		want promote.Scalar
		err  bool
	}{
		{promote.Neg, promote.BoolValue(true), promote.Int64Value(-1), false},
		{promote.Pos, promote.BoolValue(true), promote.Int64Value(1), false},
		{promote.Invert, promote.BoolValue(true), promote.Int64Value(-2), false},
		{promote.Invert, promote.Int64Value(5), promote.Int64Value(-6), false},
		{promote.Neg, promote.IntValue(new(big.Int).Neg(big63)), promote.IntValue(big63), false},
		{promote.Neg, promote.FloatValue(0), promote.FloatValue(math.Copysign(0, -1)), false},
		{promote.Neg, promote.ComplexValue(1 + 2i), promote.ComplexValue(-1 - 2i), false},
		{promote.Invert, promote.FloatValue(1.5), promote.Scalar{}, true},
		{promote.Not, promote.Int64Value(0), promote.BoolValue(true), false},
		{promote.Not, promote.FloatValue(0.5), promote.BoolValue(false), false},
	}
	for _, tc := range tests {
		got, err := foldUnary(promote.Python, tc.op, tc.x)
		if tc.err {
			if err == nil {
				t.Errorf("%s%v = %v, want an error", tc.op, tc.x, got)
			}
			continue
		}
		if err != nil || !sameScalar(got, tc.want) {
			t.Errorf("%s%v = %v (%s), %v; want %v (%s)", tc.op, tc.x, got, got.Kind, err, tc.want, tc.want.Kind)
		}
	}
}
