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
template <class F, bool MAX, bool XLA> DEV cx<F> ts_cminmax(cx<F> a, cx<F> b) {
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
struct P { u64 w[4]; };
DEV c128 ev(const P& p, IDX i) {
	const c128 v1 = ((const c128*)p.w[0])[i];
	const c128 v2 = ((const c128*)p.w[1])[i];
	const c128 v3 = ts_cminmax<double, false, false>(v1, v2);
	return v3;
}
KERNEL void ew(const P p) {
	const IDX n = (IDX)p.w[2];
	c128* __restrict__ out = (c128*)p.w[3];
	const IDX step = (IDX)blockDim.x * (IDX)gridDim.x * 4;
	for (IDX i0 = (IDX)blockIdx.x * (IDX)blockDim.x * 4 + (IDX)threadIdx.x; i0 < n; i0 += step) {
		c128 v[4];
#pragma unroll
		for (int u = 0; u < 4; u++) {
			const IDX i = i0 + (IDX)u * (IDX)blockDim.x;
			if (i < n) v[u] = ev(p, i);
		}
#pragma unroll
		for (int u = 0; u < 4; u++) {
			const IDX i = i0 + (IDX)u * (IDX)blockDim.x;
			if (i < n) out[i] = v[u];
		}
	}
}
