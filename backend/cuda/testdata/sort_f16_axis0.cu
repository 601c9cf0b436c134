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
struct P { u64 w[6]; };
DEV float ev(const P& p, IDX i) {
	const float v1 = ts_f16_dec(__ldg(&((const u16*)p.w[0])[i]));
	return v1;
}
__device__ __forceinline__ bool ts_sort_less(const float a, const float b) { return a < b || (b != b && a == a); }
KERNEL void sort(const P p) {
	const IDX inner = (IDX)p.w[2], M = (IDX)p.w[3];
	u16* __restrict__ out = (u16*)p.w[4];
	u16* __restrict__ tmp = (u16*)p.w[5];
	for (IDX i = (IDX)blockIdx.x * (IDX)blockDim.x + (IDX)threadIdx.x; i < (IDX)p.w[1]; i += (IDX)blockDim.x * (IDX)gridDim.x) {
		const IDX base = (i / inner) * M * inner + i % inner;
		for (IDX q = 0; q < M; q++) out[base + q * inner] = ts_f16_enc(ev(p, base + q * inner));
		u16* src = out;
		u16* dst = tmp;
		for (IDX w = 1; w < M; w *= 2) {
			for (IDX lo = 0; lo < M; lo += 2 * w) {
				const IDX mid = lo + w < M ? lo + w : M, hi = lo + 2 * w < M ? lo + 2 * w : M;
				IDX a = lo, c = mid;
				for (IDX q = lo; q < hi; q++) {
					if (c < hi && (a >= mid || ts_sort_less(ts_f16_dec(src[base + c * inner]), ts_f16_dec(src[base + a * inner])))) {
						dst[base + q * inner] = src[base + c * inner];
						c++;
					} else {
						dst[base + q * inner] = src[base + a * inner];
						a++;
					}
				}
			}
			u16* t = src;
			src = dst;
			dst = t;
		}
		if (src != out) for (IDX q = 0; q < M; q++) out[base + q * inner] = src[base + q * inner];
	}
}
