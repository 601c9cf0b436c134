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
struct P { u64 w[7]; };
DEV float ev(const P& p, IDX i) {
	const float v1 = __ldg(&((const float*)p.w[0])[i]);
	return v1;
}
__device__ __forceinline__ bool ts_sort_less(const float a, const float b) { return a < b || (b != b && a == a); }
KERNEL void sortload(const P p) {
	float* __restrict__ out = (float*)p.w[5];
	for (IDX i = (IDX)blockIdx.x * (IDX)blockDim.x + (IDX)threadIdx.x; i < (IDX)p.w[1]; i += (IDX)blockDim.x * (IDX)gridDim.x) {
		out[i] = ev(p, i);
	}
}
KERNEL void sortpass(const P p) {
	const IDX inner = (IDX)p.w[2], M = (IDX)p.w[3], w = (IDX)p.w[4];
	const float* __restrict__ src = (const float*)p.w[5];
	float* __restrict__ dst = (float*)p.w[6];
	for (IDX i = (IDX)blockIdx.x * (IDX)blockDim.x + (IDX)threadIdx.x; i < (IDX)p.w[1]; i += (IDX)blockDim.x * (IDX)gridDim.x) {
		const IDX line = i / M, q = i % M;
		const IDX base = (line / inner) * M * inner + line % inner;
		const IDX lo = q / (2 * w) * (2 * w), mid = lo + w < M ? lo + w : M, hi = lo + 2 * w < M ? lo + 2 * w : M;
		const float v = src[base + q * inner];
		const float x = v;
		IDX pos;
		if (q < mid) {
			IDX a = mid, c = hi;
			while (a < c) { const IDX h = a + (c - a) / 2; if (ts_sort_less(src[base + h * inner], x)) a = h + 1; else c = h; }
			pos = q + (a - mid);
		} else {
			IDX a = lo, c = mid;
			while (a < c) { const IDX h = a + (c - a) / 2; if (!ts_sort_less(x, src[base + h * inner])) a = h + 1; else c = h; }
			pos = lo + (q - mid) + (a - lo);
		}
		dst[base + pos * inner] = v;
	}
}
