package cpu

import (
	"math"
	"slices"
	"testing"

	"github.com/tensorsh/tensorsh/backend"
	"github.com/tensorsh/tensorsh/dtypes"
)

// TestComplexEveryday checks the complex forms of the everyday functions
// against NumPy 1.24.2 on x86-64 with glibc 2.36 (np.tan(...) etc. of the
// complex128 array below, printed with repr): tan, sinh and cosh through
// glibc's ctan, csinh and ccosh; log2, log10, exp2 and expm1 through
// NumPy's nc_log2, nc_log10, nc_exp2 and nc_expm1 (funcs.inc.src); square
// and reciprocal through NumPy's own complex loops (loops.c.src), which
// tensorsh follows exactly. math/cmplx is within 3 ULP of glibc on these.
func TestComplexEveryday(t *testing.T) {
	xs := []complex128{1 + 1i, 0.5 - 2i, -3 + 0.25i, 1e-8 + 1e-8i, 2, -10 + 5i}
	cases := []struct {
		op   string
		want []complex128
	}{
		{"tan", []complex128{complex(0.2717525853195118, 1.0839233273386946), complex(0.03021598732287757, -0.979940849961738), complex(0.1338327425151915, 0.24959107241921716), complex(1e-08, 1.0000000000000002e-08), complex(-2.185039863261519, 0.0), complex(-8.289222887763954e-05, 0.9999629434569676)}},
		{"sinh", []complex128{complex(0.6349639147847361, 1.2984575814159773), complex(-0.21685216292078974, -1.0253473885839877), complex(-9.706443456311078, 2.490779438191711), complex(1.0000000000000002e-08, 1e-08), complex(3.626860407847019, 0.0), complex(-3124.037706253814, -10560.856389606279)}},
		{"cosh", []complex128{complex(0.8337300251311491, 0.9888977057628651), complex(-0.4692579782290534, -0.473830620416407), complex(9.754682765293257, -2.4784619203578266), complex(1.0, 1.0000000000000002e-16), complex(3.7621956910836314, 0.0), complex(3124.037719132058, 10560.856346071183)}},
		{"log2", []complex128{complex(0.5, 1.1330900354567983), complex(1.0437314206251695, -1.9127505684968622), complex(1.5899545450074672, 4.41241269888834), complex(-26.0754247590989, 1.1330900354567983), complex(1.0, 0.0), complex(3.482892142331044, 3.8634580356017056)}},
		{"log10", []complex128{complex(0.1505149978319906, 0.3410940884604603), complex(0.31419446502515574, -0.5757952953408879), complex(0.478624009789525, 1.3282685756140526), complex(-7.849485002168009, 0.3410940884604603), complex(0.3010299956639812, 0.0), complex(1.0484550065040283, 1.1630167557051547)}},
		{"exp2", []complex128{complex(1.5384778027279442, 1.2779225526272695), complex(0.25944734179391565, -1.390211162678559), complex(0.12312792206822078, 0.021552605577102677), complex(1.0000000069314718, 6.931471853644755e-09), complex(4.0, 0.0), complex(-0.0009257069791384049, -0.00031103200025190135)}},
		{"expm1", []complex128{complex(0.4686939399158852, 2.2873552871788423), complex(-1.6861101411498431, -1.4991780090003948), complex(-0.9517606910178195, 0.012317517833885159), complex(1.0000000000000002e-08, 1.00000001e-08), complex(6.38905609893065, 0.0), complex(-0.9999871217567038, -4.353509471724822e-05)}},
		{"square", []complex128{complex(0.0, 2.0), complex(-3.75, -2.0), complex(8.9375, -1.5), complex(0.0, 2.0000000000000002e-16), complex(4.0, 0.0), complex(75.0, -100.0)}},
		{"reciprocal", []complex128{complex(0.5, -0.5), complex(0.11764705882352941, 0.47058823529411764), complex(-0.3310344827586207, -0.02758620689655172), complex(50000000.0, -50000000.0), complex(0.5, math.Copysign(0, -1)), complex(-0.08, -0.04)}},
	}
	ops := map[string]backend.Op{"tan": backend.OpTan, "sinh": backend.OpSinh, "cosh": backend.OpCosh,
		"log2": backend.OpLog2, "log10": backend.OpLog10, "exp2": backend.OpExp2, "expm1": backend.OpExpm1,
		"square": backend.OpSquare, "reciprocal": backend.OpReciprocal}
	exact := map[string]bool{"square": true, "reciprocal": true}
	for _, tc := range cases {
		x := raw(dtypes.C128, []int{len(xs)}, append([]complex128(nil), xs...))
		got := run(t, nu(ops[tc.op], in(x)), Workers(1)).Data.([]complex128)
		for i, w := range tc.want {
			limit := 3.0
			if exact[tc.op] {
				limit = 0
			}
			if d := max(ulpsApart(real(got[i]), real(w)), ulpsApart(imag(got[i]), imag(w))); d > limit {
				t.Errorf("%s(%v) = %v, NumPy gives %v (%g ULP apart)", tc.op, xs[i], got[i], w, d)
			}
		}
	}
}

// ulpsApart is how many float64 steps lie between a and b (0 when equal,
// both NaN, or a zero and a signed zero).
func ulpsApart(a, b float64) float64 {
	if a == b || (math.IsNaN(a) && math.IsNaN(b)) {
		return 0
	}
	d := math.Abs(a - b)
	return d / (math.Nextafter(math.Abs(b), math.Inf(1)) - math.Abs(b))
}

// TestComplexSignFinite pins NumPy 2's sign of complex values (z/|z|, 0
// for 0, the CDOUBLE_sign loop of numpy 2's loops_autovec / loops.c.src)
// and isfinite (both parts finite).
func TestComplexSignFinite(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	x := raw(dtypes.C128, []int{6}, []complex128{3 + 4i, 0, -2i, complex(inf, 1), complex(inf, inf), complex(nan, 0)})
	got := run(t, nu(backend.OpSign, in(x)), Workers(1)).Data.([]complex128)
	want := []complex128{0.6 + 0.8i, 0, -1i, 1, complex(nan, nan), complex(nan, nan)}
	for i := range want {
		if ulpsApart(real(got[i]), real(want[i])) > 0 || ulpsApart(imag(got[i]), imag(want[i])) > 0 {
			t.Errorf("sign(%v) = %v, want %v", x.Data.([]complex128)[i], got[i], want[i])
		}
	}
	fn := &backend.Node{Op: backend.OpIsFinite, DType: dtypes.Bool, Shape: x.Shape, Args: []*backend.Node{in(x)}}
	fin := run(t, fn, Workers(1)).Data.([]bool)
	if w := []bool{true, true, true, false, false, false}; !slices.Equal(fin, w) {
		t.Errorf("isfinite = %v, want %v", fin, w)
	}
}
