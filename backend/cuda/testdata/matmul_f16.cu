// tensorsh generated kernel
typedef signed char i8;
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
typedef int IDX;
DEV float ts_f16_dec(u16 h) {
	u32 s = (u32)(h & 0x8000u) << 16, e = (h >> 10) & 0x1Fu, m = h & 0x3FFu;
	if (e == 0x1Fu) return __uint_as_float(s | 0x7F800000u | (m << 13) | (m ? 0x400000u : 0u));
	if (e == 0) { float v = (float)m * 5.9604644775390625e-08f; return s ? -v : v; }
	return __uint_as_float(s | ((e + 112u) << 23) | (m << 13));
}
DEV u16 ts_f16_enc(float x) {
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
template <int MANT, int EXP, bool FN, bool CANON> DEV u32 ts_nanbits(u32 sign, u64 xb) {
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
DEV float ts_f16_from64(double x) { return ts_f16_dec((u16)ts_encd<10, 5, false, false>(x)); }
struct P { u64 w[11]; };
KERNEL void mm(const P p) {
	const IDX rows = (IDX)p.w[1], cols = (IDX)p.w[2], K = (IDX)p.w[3];
	u16* __restrict__ out = (u16*)p.w[4];
	const u16* __restrict__ A = (const u16*)p.w[5];
	const u16* __restrict__ B = (const u16*)p.w[6];
	for (IDX i = (IDX)blockIdx.x * (IDX)blockDim.x + (IDX)threadIdx.x; i < (IDX)p.w[0]; i += (IDX)blockDim.x * (IDX)gridDim.x) {
		IDX t = i;
		const IDX jj = t % cols; t /= cols;
		const IDX ii = t % rows; t /= rows;
		IDX oa = 0, ob = 0;
		const u16* a = A + oa + ii * (IDX)p.w[7];
		const u16* b = B + ob + jj * (IDX)p.w[8];
		float acc = 0;
		for (IDX q = 0; q < K; q++) {
			const float x = ts_f16_dec(a[q * (IDX)p.w[9]]), y = ts_f16_dec(b[q * (IDX)p.w[10]]);
			acc = acc + x * y;
		}
		const float res = ts_f16_from64((double)acc);
		out[i] = ts_f16_enc(res);
	}
}
