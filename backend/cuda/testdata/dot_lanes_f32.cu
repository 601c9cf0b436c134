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
struct P { u64 w[11]; };
KERNEL void mm(const P p) {
	const IDX rows = (IDX)p.w[1], cols = (IDX)p.w[2], K = (IDX)p.w[3];
	float* __restrict__ out = (float*)p.w[4];
	const float* __restrict__ A = (const float*)p.w[5];
	const float* __restrict__ B = (const float*)p.w[6];
	for (IDX i = (IDX)blockIdx.x * (IDX)blockDim.x + (IDX)threadIdx.x; i < (IDX)p.w[0]; i += (IDX)blockDim.x * (IDX)gridDim.x) {
		IDX t = i;
		const IDX jj = t % cols; t /= cols;
		const IDX ii = t % rows; t /= rows;
		IDX oa = 0, ob = 0;
		const float* a = A + oa + ii * (IDX)p.w[7];
		const float* b = B + ob + jj * (IDX)p.w[8];
		float s[32];
#pragma unroll
		for (int l = 0; l < 32; l++) s[l] = 0;
		for (IDX q0 = 0; q0 < K; q0 += 32) {
#pragma unroll
			for (int l = 0; l < 32; l++) {
				const IDX q = q0 + l;
				if (q < K) s[l] = fmaf(a[q * (IDX)p.w[9]], b[q * (IDX)p.w[10]], s[l]);
			}
		}
#pragma unroll
		for (int h = 16; h > 0; h /= 2) {
#pragma unroll
			for (int l = 0; l < h; l++) s[l] += s[l + h];
		}
		out[i] = s[0];
	}
}
