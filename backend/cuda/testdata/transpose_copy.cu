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
struct P { u64 w[9]; };
struct ts_u128 { u64 lo, hi; };
KERNEL void copy(const P p) {
	ts_u128* __restrict__ dst = (ts_u128*)p.w[1];
	const ts_u128* __restrict__ src = (const ts_u128*)p.w[2];
	for (IDX i = (IDX)blockIdx.x * (IDX)blockDim.x + (IDX)threadIdx.x; i < (IDX)p.w[0]; i += (IDX)blockDim.x * (IDX)gridDim.x) {
		IDX r = i, od = 0, os = 0;
		{ const IDX c = r % (IDX)p.w[4]; r /= (IDX)p.w[4]; od += c * (IDX)p.w[7]; os += c * (IDX)p.w[8]; }
		od += r * (IDX)p.w[5]; os += r * (IDX)p.w[6];
		dst[od] = src[os];
	}
}
