package cuda

import "strings"

// The C helper library emitted into generated kernels.
//
// Every helper is plain CUDA C++ with no #include: NVRTC compiles it as is,
// and the host tests compile it with g++ under a small shim that defines
// the CUDA builtins (see hostdev_test.go). Helpers are emitted only when an
// expression needs them, in the order of the helpers table (a helper comes
// after the ones it uses), so a generated source holds exactly the code its
// kernels run.
//
// The conversions are the CPU backend's (backend/cpu fastconv.go, cast.go,
// dtypes/convert.go) written as bit manipulation: f16, bf16, tf32 and the
// float8 formats round to nearest even exactly as there, and NaNs keep the
// sign and payload bits the CPU backend keeps.

// A helper is one piece of the C library.
type helper struct {
	name string
	deps []string
	code string
}

// helpers lists the library in emission order.
var helpers = []helper{
	{name: "base", code: `typedef signed char i8;
typedef unsigned char u8;
typedef short i16;
typedef unsigned short u16;
typedef int i32;
typedef unsigned int u32;
typedef long long i64;
typedef unsigned long long u64;
template <class F> struct cx { F re, im; };
typedef cx<float> c64;
typedef cx<double> c128;
#define DEV static __device__ __forceinline__
#define DEVM __device__ __forceinline__
#define KERNEL extern "C" __global__
DEV double ts_inf() { return __longlong_as_double(0x7FF0000000000000LL); }
DEV double ts_nan() { return __longlong_as_double(0x7FF8000000000000LL); }
DEV bool ts_isinf(double x) { return (__double_as_longlong(x) & 0x7FFFFFFFFFFFFFFFLL) == 0x7FF0000000000000LL; }
DEV bool ts_isinf(float x) { return (__float_as_uint(x) & 0x7FFFFFFFu) == 0x7F800000u; }
`},
	{name: "f16dec", code: `DEV float ts_f16_dec(u16 h) {
	u32 s = (u32)(h & 0x8000u) << 16, e = (h >> 10) & 0x1Fu, m = h & 0x3FFu;
	if (e == 0x1Fu) return __uint_as_float(s | 0x7F800000u | (m << 13) | (m ? 0x400000u : 0u));
	if (e == 0) { float v = (float)m * 5.9604644775390625e-08f; return s ? -v : v; }
	return __uint_as_float(s | ((e + 112u) << 23) | (m << 13));
}
`},
	{name: "f16enc", code: `DEV u16 ts_f16_enc(float x) {
	u32 b = __float_as_uint(x);
	u32 sign = (b >> 16) & 0x8000u;
	int exp = (int)((b >> 23) & 0xFFu);
	u32 mant = b & 0x7FFFFFu;
	if (exp == 0xFF) return (u16)(mant == 0 ? (sign | 0x7C00u) : (sign | 0x7E00u | (mant >> 13)));
	int e = exp - 112;
	if (e >= 31) return (u16)(sign | 0x7C00u);
	if (e <= 0) {
		if (e < -10) return (u16)sign;
		u32 m = mant | (1u << 23), shift = (u32)(14 - e);
		u32 k = m >> shift, rem = m & ((1u << shift) - 1u), half = 1u << (shift - 1u);
		if (rem > half || (rem == half && (k & 1u))) k++;
		return (u16)(sign | k);
	}
	u32 h = ((u32)e << 10) | (mant >> 13), rem = mant & 0x1FFFu;
	if (rem > 0x1000u || (rem == 0x1000u && (h & 1u))) h++;
	return (u16)(sign | h);
}
`},
	{name: "bf16", code: `DEV float ts_bf16_dec(u16 b) { return __uint_as_float((u32)b << 16); }
DEV u16 ts_bf16_enc(float x) {
	u32 b = __float_as_uint(x);
	if ((b & 0x7F800000u) == 0x7F800000u && (b & 0x7FFFFFu) != 0) return (u16)(((b >> 16) & 0x8000u) | 0x7FC0u);
	return (u16)((b + 0x7FFFu + ((b >> 16) & 1u)) >> 16);
}
`},
	{name: "tf32", code: `DEV float ts_tf32_round(float x) {
	u32 b = __float_as_uint(x);
	if ((b & 0x7F800000u) == 0x7F800000u) return x;
	return __uint_as_float((b + 0xFFFu + ((b >> 13) & 1u)) & ~0x1FFFu);
}
`},
	// ts_encd is dtypes' format.encode: x rounded once, to nearest even,
	// to a format with MANT mantissa and EXP exponent bits; FN formats have
	// no infinities, CANON formats have one quiet NaN.
	{name: "encd", deps: []string{"base"}, code: `template <int MANT, int EXP, bool FN, bool CANON> DEV u32 ts_nanbits(u32 sign, u64 xb) {
	const u32 EXPMASK = (1u << EXP) - 1u, MANTMASK = (1u << MANT) - 1u;
	if (FN) return sign | (EXPMASK << MANT) | MANTMASK;
	u32 payload = 0;
	if (!CANON && (xb & 0x7FFFFFFFFFFFFFFFull) > 0x7FF0000000000000ull) payload = (u32)((xb & 0xFFFFFFFFFFFFFull) >> (52 - MANT));
	return sign | (EXPMASK << MANT) | payload | (1u << (MANT - 1));
}
template <int MANT, int EXP, bool FN, bool CANON> DEV u32 ts_encd(double x) {
	const u32 EXPMASK = (1u << EXP) - 1u, MANTMASK = (1u << MANT) - 1u;
	const int BIAS = (1 << (EXP - 1)) - 1;
	u64 xb = (u64)__double_as_longlong(x);
	u32 sign = (xb >> 63) ? (1u << (MANT + EXP)) : 0u;
	u64 ax = xb & 0x7FFFFFFFFFFFFFFFull;
	if (ax > 0x7FF0000000000000ull) return ts_nanbits<MANT, EXP, FN, CANON>(sign, xb);
	if (ax == 0x7FF0000000000000ull) {
		if (FN) return ts_nanbits<MANT, EXP, FN, CANON>(sign, xb);
		return sign | (EXPMASK << MANT);
	}
	if (ax == 0) return sign;
	int be = (int)(ax >> 52);
	u64 m;
	int e;
	if (be == 0) {
		m = ax;
		e = -1074;
		while (!(m >> 52)) { m <<= 1; e--; }
	} else {
		m = (ax & 0xFFFFFFFFFFFFFull) | (1ull << 52);
		e = be - 1075;
	}
	int top = e + 52, emin = 1 - BIAS;
	int q = (top > emin ? top : emin) - MANT;
	int shift = q - e;
	u64 n = 0;
	if (shift < 64) {
		n = m >> shift;
		u64 rem = m & ((1ull << shift) - 1ull), half = 1ull << (shift - 1);
		if (rem > half || (rem == half && (n & 1ull))) n++;
	}
	if (n == 0) return sign;
	if (n == (1ull << (MANT + 1))) { n >>= 1; q++; }
	u32 biased = 0, frac;
	if (n < (1ull << MANT)) {
		frac = (u32)n;
	} else {
		biased = (u32)(q + MANT + BIAS);
		frac = (u32)(n - (1ull << MANT));
	}
	if (FN) {
		if (biased > EXPMASK || (biased == EXPMASK && frac == MANTMASK)) return ts_nanbits<MANT, EXP, FN, CANON>(sign, xb);
	} else if (biased >= EXPMASK) {
		return sign | (EXPMASK << MANT);
	}
	return sign | (biased << MANT) | frac;
}
`},
	{name: "e4m3", deps: []string{"encd"}, code: `DEV float ts_e4m3_dec(u8 b) {
	u32 s = (u32)(b & 0x80u) << 24, e = (b >> 3) & 0xFu, m = b & 7u;
	if (e == 0xFu && m == 7u) return __uint_as_float(s | 0x7FC00000u);
	if (e == 0) { float v = (float)m * 0.001953125f; return s ? -v : v; }
	return __uint_as_float(s | ((e + 120u) << 23) | (m << 20));
}
DEV u8 ts_e4m3_encd(double x) { return (u8)ts_encd<3, 4, true, true>(x); }
DEV u8 ts_e4m3_enc(float x) { return ts_e4m3_encd((double)x); }
`},
	{name: "e5m2", deps: []string{"encd"}, code: `DEV float ts_e5m2_dec(u8 b) {
	u32 s = (u32)(b & 0x80u) << 24, e = (b >> 2) & 0x1Fu, m = b & 3u;
	if (e == 0x1Fu) return __uint_as_float(s | 0x7F800000u | (m << 21) | (m ? 0x400000u : 0u));
	if (e == 0) { float v = (float)m * 1.52587890625e-05f; return s ? -v : v; }
	return __uint_as_float(s | ((e + 112u) << 23) | (m << 21));
}
DEV u8 ts_e5m2_encd(double x) { return (u8)ts_encd<2, 5, false, true>(x); }
DEV u8 ts_e5m2_enc(float x) { return ts_e5m2_encd((double)x); }
`},
	// The roundTo64 of the CPU backend: a float64 rounded to a narrow
	// format, returned as the float32 holding its exact value.
	{name: "f16from64", deps: []string{"encd", "f16dec"}, code: `DEV float ts_f16_from64(double x) { return ts_f16_dec((u16)ts_encd<10, 5, false, false>(x)); }
`},
	{name: "bf16from64", deps: []string{"encd", "bf16"}, code: `DEV float ts_bf16_from64(double x) {
	if (x != x) return ts_bf16_dec((u16)ts_encd<7, 8, false, true>(x));
	return ts_bf16_dec(ts_bf16_enc((float)x));
}
`},
	{name: "tf32from64", deps: []string{"encd"}, code: `DEV float ts_tf32_from64(double x) {
	u32 t = ts_encd<10, 8, false, false>(x);
	return __uint_as_float(((t & 0x40000u) << 13) | ((t & 0x3FFFFu) << 13));
}
`},
	{name: "e4m3from64", deps: []string{"e4m3"}, code: `DEV float ts_e4m3_from64(double x) { return ts_e4m3_dec(ts_e4m3_encd(x)); }
`},
	{name: "e5m2from64", deps: []string{"e5m2"}, code: `DEV float ts_e5m2_from64(double x) { return ts_e5m2_dec(ts_e5m2_encd(x)); }
`},
	// Integers to float64, rounded to odd past 53 bits (cast.go
	// intToFloat64Odd): one more rounding to a narrow format is then the
	// correct one.
	{name: "odd", deps: []string{"base"}, code: `DEV double ts_u64_odd(u64 m) {
	if (m < (1ull << 53)) return (double)m;
	int sh = 0;
	while ((m >> sh) >= (1ull << 53)) sh++;
	u64 keep = m >> sh;
	if (m & ((1ull << sh) - 1ull)) keep |= 1ull;
	return ldexp((double)keep, sh);
}
DEV double ts_i64_odd(i64 x) { return x < 0 ? -ts_u64_odd((u64)0 - (u64)x) : ts_u64_odd((u64)x); }
`},
	// Float to integer as x86-64 converts (cast.go floatToInt).
	{name: "cvtt", deps: []string{"base"}, code: `DEV i32 ts_cvtt32(double x) { return (x > -2147483649.0 && x < 2147483648.0) ? (i32)x : (i32)(-2147483647 - 1); }
DEV i64 ts_cvtt64(double x) { return (x >= -9223372036854775808.0 && x < 9223372036854775808.0) ? (i64)x : (i64)(-9223372036854775807LL - 1); }
DEV u64 ts_cvttu64(double x) {
	if (x >= 9223372036854775808.0) return (u64)ts_cvtt64(x - 9223372036854775808.0) ^ (1ull << 63);
	return (u64)ts_cvtt64(x);
}
`},
	// Integer division and remainder (intkernels.go): floor or C
	// semantics, x/0 = x%0 = 0 (flag bit 1 with ZERR), MIN/-1 = MIN.
	{name: "idiv", deps: []string{"base"}, code: `template <class T, bool FLOOR, int ZERR, int RULE> DEV T ts_idiv(T x, T y, u32* flag) {
	if (y == 0) {
		if (ZERR == 1) atomicOr(flag, 1u);
		if (ZERR == 2) atomicOr(flag, 4u);
		if (RULE == 1 && (T)-1 < (T)0 && x != 0) return (T)~(T)1;
		return RULE >= 1 ? (T)~(T)0 : (T)0;
	}
	if ((T)-1 < (T)0 && y == (T)-1) {
		if (x == (T)(1ull << (8 * sizeof(T) - 1))) { // MIN / -1 = MIN
			if (ZERR == 2 && FLOOR) atomicOr(flag, 16u);
			return x;
		}
		return (T)-x;
	}
	T q = (T)(x / y);
	if (FLOOR && (T)(x % y) != 0 && ((x < 0) != (y < 0))) q--;
	return q;
}
template <class T, bool FLOOR, int ZERR, int RULE> DEV T ts_imod(T x, T y, u32* flag) {
	if (y == 0) {
		if (ZERR == 1) atomicOr(flag, 1u);
		if (ZERR == 2) atomicOr(flag, 8u);
		return RULE >= 2 ? x : (T)0;
	}
	if ((T)-1 < (T)0 && y == (T)-1) return 0;
	T r = (T)(x % y);
	if (RULE == 3) return (T)((T)((u64)r + (u64)y) % y);
	if (FLOOR && r != 0 && ((r < 0) != (y < 0))) r = (T)(r + y);
	return r;
}
`},
	// Complex maximum and minimum (cpu complexkernels.go cKeep): NumPy's
	// CGE/CLE (a NaN in a propagates, ties keep a), or with XLA JAX's
	// lowering (a when it compares strictly, else b); and the argmax and
	// argmin test (cBetter).
	// cordered: NumPy's complex ordering comparisons CLT (0), CLE (1),
	// CGT (2) and CGE (3) of numpy/_core/src/umath/loops.c.src.
	{name: "cordered", deps: []string{"base"}, code: `template <class F, int OP> DEV bool ts_cordered(cx<F> a, cx<F> b) {
	const bool nonan = a.im == a.im && b.im == b.im;
	switch (OP) {
	case 0: return (a.re < b.re && nonan) || (a.re == b.re && a.im < b.im);
	case 1: return (a.re < b.re && nonan) || (a.re == b.re && a.im <= b.im);
	case 2: return (a.re > b.re && nonan) || (a.re == b.re && a.im > b.im);
	default: return (a.re > b.re && nonan) || (a.re == b.re && a.im >= b.im);
	}
}
`},
	{name: "cminmax", deps: []string{"base"}, code: `template <class F, bool MAX, bool XLA> DEV cx<F> ts_cminmax(cx<F> a, cx<F> b) {
	bool keep;
	if (XLA) {
		keep = (a.re == b.re) ? (MAX ? a.im > b.im : a.im < b.im) : (MAX ? a.re > b.re : a.re < b.re);
	} else if (a.re != a.re || a.im != a.im) {
		keep = true;
	} else if (MAX) {
		keep = (a.re > b.re && b.im == b.im) || (a.re == b.re && a.im >= b.im);
	} else {
		keep = (a.re < b.re && b.im == b.im) || (a.re == b.re && a.im <= b.im);
	}
	return keep ? a : b;
}
template <class F, bool MAX> DEV bool ts_cbetter(cx<F> v, cx<F> best) {
	if (v.re != v.re || v.im != v.im) return true;
	return MAX ? (v.re > best.re || (v.re == best.re && v.im > best.im))
	           : (v.re < best.re || (v.re == best.re && v.im < best.im));
}
`},
	// Integer powers by repeated squaring, wrapping; a negative exponent
	// sets flag bit 2.
	{name: "ipow", deps: []string{"base"}, code: `template <class T> DEV T ts_ipow(T x, T e, u32* flag) {
	if (e < 0) { atomicOr(flag, 2u); return 0; }
	u64 r = 1, b = (u64)x;
	while (e > 0) {
		if (e & 1) r = r * b;
		b = b * b;
		e = (T)(e >> 1);
	}
	return (T)r;
}
`},
	// Shifts as Go's (and NumPy's): counts of the width or more give 0, or
	// -1 for a negative number shifted right.
	{name: "shift", deps: []string{"base"}, code: `template <class T> DEV T ts_shl(T a, T b) {
	u64 c = (u64)b;
	if (c >= sizeof(T) * 8) return 0;
	return (T)((u64)a << c);
}
template <class T> DEV T ts_shr(T a, T b) {
	u64 c = (u64)b;
	if (c >= sizeof(T) * 8) return (a < 0) ? (T)-1 : (T)0;
	return (T)(a >> c);
}
`},
	// NumPy's npy_divmod (floatkernels.go pyDivmod).
	{name: "pydivmod", deps: []string{"base"}, code: `template <class T> DEV T ts_pydivmod(T a, T b, T* modp) {
	T mod = (T)fmod((double)a, (double)b);
	if (b == 0) { *modp = mod; return a / b; }
	T div = (a - mod) / b;
	if (mod != 0) {
		if ((b < 0) != (mod < 0)) { mod += b; div -= 1; }
	} else {
		mod = (T)copysign(0.0, (double)b);
	}
	T q;
	if (div != 0) {
		q = (T)floor((double)div);
		if (div - q > (T)0.5) q += 1;
	} else {
		q = (T)copysign(0.0, (double)(a / b));
	}
	*modp = mod;
	return q;
}
template <class T> DEV T ts_pyfloordiv(T a, T b) { T m; return ts_pydivmod<T>(a, b, &m); }
template <class T> DEV T ts_pymod(T a, T b) { T m; ts_pydivmod<T>(a, b, &m); return m; }
`},
	// Float powers (pow.go powF64): integer exponents in double-double
	// arithmetic, rounded once.
	{name: "pow", deps: []string{"base"}, code: `DEV void ts_ddmul(double ah, double al, double bh, double bl, double* h, double* l) {
	double p = ah * bh;
	double e = fma(ah, bh, -p);
	e += ah * bl + al * bh;
	double hi = p + e;
	*h = hi;
	*l = e - (hi - p);
}
DEV bool ts_ddrange(double a) {
	return a <= __longlong_as_double(0x7E70000000000000LL) && a >= __longlong_as_double(0x0170000000000000LL);
}
DEV double ts_pow(double x, double y) {
	if (y == 0.5 && x > 0 && !ts_isinf(x)) return sqrt(x);
	if (y != trunc(y) || fabs(y) > 9007199254740992.0 || x == 0 || ts_isinf(x) || x != x) return pow(x, y);
	i64 n = (i64)y;
	bool neg = n < 0;
	if (neg) n = -n;
	double rh = 1, rl = 0, bh = x, bl = 0;
	for (;;) {
		if (n & 1) ts_ddmul(rh, rl, bh, bl, &rh, &rl);
		n >>= 1;
		if (n == 0) break;
		ts_ddmul(bh, bl, bh, bl, &bh, &bl);
		if (!ts_ddrange(fabs(bh))) return pow(x, y);
	}
	if (!ts_ddrange(fabs(rh))) return pow(x, y);
	if (!neg) return rh + rl;
	double q = 1 / rh;
	double r = fma(-q, rh, 1) - q * rl;
	return q + r / rh;
}
`},
	{name: "sigmoid", deps: []string{"base"}, code: `DEV double ts_sigmoid(double x) { return 1 / (1 + exp(-x)); }
`},
	// |z| as NumPy's SIMD loop computes it (Node.ScaledCAbs;
	// backend/cpu/hypot.go scaledCAbs): an infinite part makes both
	// infinite, then a NaN part makes both NaN; l = max, s = min as x86's
	// MAXPS and MINPS pick; √fma(r, r, 1)·l with r = s/l, or 0 where l is
	// 0 or s infinite, in the parts' precision (fma and fmaf are fused
	// whatever --fmad says).
	{name: "cabs", deps: []string{"base"}, code: `DEV float ts_fma_p(float a, float b, float c) { return fmaf(a, b, c); }
DEV double ts_fma_p(double a, double b, double c) { return fma(a, b, c); }
DEV float ts_sqrt_p(float x) { return sqrtf(x); }
DEV float ts_fabs_p(float x) { return fabsf(x); }
DEV double ts_fabs_p(double x) { return fabs(x); }
DEV double ts_sqrt_p(double x) { return sqrt(x); }
template <class F> DEV F ts_cabs_scaled(F re, F im) {
	const F inf = (F)ts_inf(), nan = (F)ts_nan();
	re = ts_fabs_p(re);
	im = ts_fabs_p(im);
	bool reinf = re == inf, iminf = im == inf;
	if (reinf) im = inf;
	if (iminf) re = inf;
	bool renum = re == re, imnum = im == im;
	if (!renum) im = nan;
	if (!imnum) re = nan;
	F l = re > im ? re : im, s = im < re ? im : re;
	F r = (l != 0 && s != inf) ? s / l : (F)0;
	return ts_sqrt_p(ts_fma_p(r, r, (F)1)) * l;
}
`},
	// glibc's hypot and hypotf, as the CPU backend's hypotF64 and hypotF32
	// (backend/cpu/hypot.go): for hypot the kernel without fused
	// multiply-add, every product rounded on its own (--fmad=false).
	{name: "hypot", deps: []string{"base"}, code: `DEV double ts_hypot_kernel(double ax, double ay) {
	double h = sqrt(ax * ax + ay * ay), t1, t2;
	if (h <= 2 * ay) {
		double delta = h - ay;
		t1 = ax * (2 * delta - ax);
		t2 = (delta - 2 * (ax - ay)) * delta;
	} else {
		double delta = h - ax;
		t1 = 2 * delta * (ax - 2 * ay);
		t2 = (4 * delta - ay) * ay + delta * delta;
	}
	return h - (t1 + t2) / (2 * h);
}
DEV double ts_hypot(double x, double y) {
	if (ts_isinf(x) || ts_isinf(y)) return ts_inf();
	if (x != x || y != y) return ts_nan();
	x = fabs(x);
	y = fabs(y);
	double ax = x < y ? y : x, ay = x < y ? x : y;
	if (ax > 0x1p+511) {
		if (ay <= ax * 0x1p-54) return ax + ay;
		return ts_hypot_kernel(ax * 0x1p-600, ay * 0x1p-600) / 0x1p-600;
	}
	if (ay < 0x1p-511) {
		if (ax >= ay / 0x1p-54) return ax + ay;
		return ts_hypot_kernel(ax / 0x1p-600, ay / 0x1p-600) * 0x1p-600;
	}
	if (ay <= ax * 0x1p-54) return ax + ay;
	return ts_hypot_kernel(ax, ay);
}
DEV float ts_hypotf(float x, float y) {
	if (ts_isinf(x) || ts_isinf(y)) return (float)ts_inf();
	double xx = x, yy = y;
	return (float)sqrt(xx * xx + yy * yy);
}
`},
	// NumPy's complex product and Smith quotient (complexkernels.go).
	{name: "cmul", deps: []string{"base"}, code: `template <class F> DEV cx<F> ts_cmul(cx<F> a, cx<F> b) {
	cx<F> r;
	F p = a.re * b.re, q = a.im * b.im, s = a.re * b.im, t = a.im * b.re;
	r.re = p - q;
	r.im = s + t;
	return r;
}
`},
	{name: "cdiv", deps: []string{"base"}, code: `template <class F> DEV cx<F> ts_cdiv(cx<F> a, cx<F> b) {
	F abr = (F)fabs((double)b.re), abi = (F)fabs((double)b.im);
	cx<F> r;
	if (abr >= abi) {
		if (abr == 0 && abi == 0) {
			r.re = a.re / abr;
			r.im = a.im / abi;
			return r;
		}
		F rat = b.im / b.re;
		F t = b.im * rat;
		F scl = (F)1 / (b.re + t);
		F u = a.im * rat, v = a.re * rat;
		r.re = (F)(a.re + u) * scl;
		r.im = (F)(a.im - v) * scl;
		return r;
	}
	F rat = b.re / b.im;
	F t = b.re * rat;
	F scl = (F)1 / (b.im + t);
	F u = a.re * rat, v = a.im * rat;
	r.re = (F)(u + a.im) * scl;
	r.im = (F)(v - a.re) * scl;
	return r;
}
`},
	// NumPy's pairwise summation tree (backend/cpu reduce.go): runs of at
	// most 128 (complex: 64) are leaves, longer ones split near the middle
	// at a multiple of 8. ts_pairwise walks the tree with an explicit stack,
	// calling leaf(lo, len, path, depth) for the leaves and for the nodes
	// at depth maxd; ts_subtree finds the node at depth D whose path is s.
	{name: "pairwise", deps: []string{"base"}, code: `template <bool CPLX> DEV IDX ts_split(IDX n) {
	if (CPLX) return (n - n % 8) / 2;
	IDX h = n / 2;
	return h - h % 8;
}
template <class F> DEV cx<F> operator+(cx<F> a, cx<F> b) {
	cx<F> r;
	r.re = a.re + b.re;
	r.im = a.im + b.im;
	return r;
}
template <class ACC, bool CPLX, class LEAF> static __device__ ACC ts_pairwise(IDX n, int maxd, const LEAF& leaf) {
	const IDX LEAFMAX = CPLX ? 64 : 128;
	IDX lo[48], len[48];
	u64 path[48];
	ACC left[48];
	unsigned char st[48];
	int sp = 0;
	lo[0] = 0;
	len[0] = n;
	path[0] = 0;
	st[0] = 0;
	ACC ret;
	for (;;) {
		if (st[sp] == 0) {
			if (len[sp] <= LEAFMAX || sp >= maxd || sp == 47) {
				ret = leaf(lo[sp], len[sp], path[sp], sp);
			} else {
				const IDX h = ts_split<CPLX>(len[sp]);
				st[sp] = 1;
				lo[sp + 1] = lo[sp];
				len[sp + 1] = h;
				path[sp + 1] = path[sp] * 2;
				st[sp + 1] = 0;
				sp++;
				continue;
			}
		} else if (st[sp] == 1) {
			left[sp] = ret;
			st[sp] = 2;
			const IDX h = ts_split<CPLX>(len[sp]);
			lo[sp + 1] = lo[sp] + h;
			len[sp + 1] = len[sp] - h;
			path[sp + 1] = path[sp] * 2 + 1;
			st[sp + 1] = 0;
			sp++;
			continue;
		} else {
			ret = left[sp] + ret;
		}
		if (sp == 0) return ret;
		sp--;
	}
}
template <bool CPLX> DEV bool ts_subtree(IDX n, int D, IDX s, IDX* lo, IDX* len) {
	const IDX LEAFMAX = CPLX ? 64 : 128;
	*lo = 0;
	*len = n;
	for (int d = 0; d < D; d++) {
		if (*len <= LEAFMAX) return (s & (((IDX)1 << (D - d)) - 1)) == 0;
		const IDX h = ts_split<CPLX>(*len);
		if ((s >> (D - 1 - d)) & 1) {
			*lo += h;
			*len -= h;
		} else {
			*len = h;
		}
	}
	return true;
}
`},
}

var helperIndex = func() map[string]int {
	m := make(map[string]int, len(helpers))
	for i, h := range helpers {
		m[h.name] = i
	}
	return m
}()

// A helperSet collects the helpers a source needs.
type helperSet [32]bool

func (s *helperSet) add(name string) {
	i, ok := helperIndex[name]
	if !ok {
		panic("cuda: unknown helper " + name)
	}
	if s[i] {
		return
	}
	s[i] = true
	for _, d := range helpers[i].deps {
		s.add(d)
	}
}

// write appends the helpers of s, in table order, to b, with the base
// helper (always) first and then idx, the typedef of the index type.
func (s *helperSet) write(b *strings.Builder, idx string) {
	b.WriteString(helpers[0].code)
	b.WriteString(idx)
	for i, h := range helpers[1:] {
		if s[i+1] {
			b.WriteString(h.code)
		}
	}
}
