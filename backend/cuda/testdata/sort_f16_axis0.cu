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
struct P { u64 w[7]; };
DEV float ev(const P& p, IDX i) {
	const float v1 = ts_f16_dec(__ldg(&((const u16*)p.w[0])[i]));
	return v1;
}
__device__ __forceinline__ bool ts_sort_less(const float a, const float b) { return a < b || (b != b && a == a); }
KERNEL void sortload(const P p) {
	u16* __restrict__ out = (u16*)p.w[5];
	for (IDX i = (IDX)blockIdx.x * (IDX)blockDim.x + (IDX)threadIdx.x; i < (IDX)p.w[1]; i += (IDX)blockDim.x * (IDX)gridDim.x) {
		out[i] = ts_f16_enc(ev(p, i));
	}
}
KERNEL void sortpass(const P p) {
	const IDX inner = (IDX)p.w[2], M = (IDX)p.w[3], w = (IDX)p.w[4];
	const u16* __restrict__ src = (const u16*)p.w[5];
	u16* __restrict__ dst = (u16*)p.w[6];
	for (IDX i = (IDX)blockIdx.x * (IDX)blockDim.x + (IDX)threadIdx.x; i < (IDX)p.w[1]; i += (IDX)blockDim.x * (IDX)gridDim.x) {
		const IDX line = i / M, q = i % M;
		const IDX base = (line / inner) * M * inner + line % inner;
		const IDX lo = q / (2 * w) * (2 * w), mid = lo + w < M ? lo + w : M, hi = lo + 2 * w < M ? lo + 2 * w : M;
		const u16 v = src[base + q * inner];
		const float x = ts_f16_dec(v);
		IDX pos;
		if (q < mid) {
			IDX a = mid, c = hi;
			while (a < c) { const IDX h = a + (c - a) / 2; if (ts_sort_less(ts_f16_dec(src[base + h * inner]), x)) a = h + 1; else c = h; }
			pos = q + (a - mid);
		} else {
			IDX a = lo, c = mid;
			while (a < c) { const IDX h = a + (c - a) / 2; if (!ts_sort_less(x, ts_f16_dec(src[base + h * inner]))) a = h + 1; else c = h; }
			pos = lo + (q - mid) + (a - lo);
		}
		dst[base + pos * inner] = v;
	}
}
