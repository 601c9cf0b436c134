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
DEV float ts_bf16_dec(u16 b) { return __uint_as_float((u32)b << 16); }
DEV u16 ts_bf16_enc(float x) {
	u32 b = __float_as_uint(x);
	if ((b & 0x7F800000u) == 0x7F800000u && (b & 0x7FFFFFu) != 0) return (u16)(((b >> 16) & 0x8000u) | 0x7FC0u);
	return (u16)((b + 0x7FFFu + ((b >> 16) & 1u)) >> 16);
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
DEV float ts_bf16_from64(double x) {
	if (x != x) return ts_bf16_dec((u16)ts_encd<7, 8, false, true>(x));
	return ts_bf16_dec(ts_bf16_enc((float)x));
}
DEV double ts_u64_odd(u64 m) {
	if (m < (1ull << 53)) return (double)m;
	int sh = 0;
	while ((m >> sh) >= (1ull << 53)) sh++;
	u64 keep = m >> sh;
	if (m & ((1ull << sh) - 1ull)) keep |= 1ull;
	return ldexp((double)keep, sh);
}
DEV double ts_i64_odd(i64 x) { return x < 0 ? -ts_u64_odd((u64)0 - (u64)x) : ts_u64_odd((u64)x); }
struct P { u64 w[3]; };
DEV float ev(const P& p, IDX i) {
	const i64 v1 = __ldg(&((const i64*)p.w[0])[i]);
	const float v2 = ts_bf16_from64(ts_i64_odd((i64)v1));
	return v2;
}
KERNEL void ew(const P p) {
	const IDX n = (IDX)p.w[1];
	u16* __restrict__ out = (u16*)p.w[2];
	const IDX step = (IDX)blockDim.x * (IDX)gridDim.x * 4;
	for (IDX i0 = (IDX)blockIdx.x * (IDX)blockDim.x * 4 + (IDX)threadIdx.x; i0 < n; i0 += step) {
		float v[4];
#pragma unroll
		for (int u = 0; u < 4; u++) {
			const IDX i = i0 + (IDX)u * (IDX)blockDim.x;
			if (i < n) v[u] = ev(p, i);
		}
#pragma unroll
		for (int u = 0; u < 4; u++) {
			const IDX i = i0 + (IDX)u * (IDX)blockDim.x;
			if (i < n) out[i] = ts_bf16_enc(v[u]);
		}
	}
}
