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
struct P { u64 w[11]; };
DEV c128 ev(const P& p, IDX i) {
	const c128 v1 = ((const c128*)p.w[0])[i];
	return v1;
}
DEV IDX kbase(const P& p, IDX o) {
	IDX b = 0;
	return b;
}
DEV IDX roff(const P& p, IDX j) {
	IDX b = 0;
	return b;
}
KERNEL void red_seg(const P p) {
	const IDX m = (IDX)p.w[1], C = (IDX)p.w[3], L = (IDX)p.w[4], S = (IDX)p.w[5];
	c128* __restrict__ part = (c128*)p.w[6];
	i64* __restrict__ pidx = (i64*)p.w[7];
	for (IDX i = (IDX)blockIdx.x * (IDX)blockDim.x + (IDX)threadIdx.x; i < m * S; i += (IDX)blockDim.x * (IDX)gridDim.x) {
		const IDX o = i / S, sg = i % S;
		const IDX e0 = (IDX)((i64)sg * L / S), e1 = (IDX)((i64)(sg + 1) * L / S);
		const IDX base = kbase(p, o);
		IDX j = e0 / C, c = e0 % C, bj = base + roff(p, j);
		c128 best = ev(p, bj + c);
		i64 bi = e0;
		for (IDX e = e0; e < e1; e++) {
			if (best.re != best.re || best.im != best.im) break;
			const c128 v = ev(p, bj + c);
			if (ts_cbetter<double, true>(v, best)) { best = v; bi = e; }
			if (++c == C) { c = 0; j++; bj = base + roff(p, j); }
		}
		part[i] = best;
		pidx[i] = bi;
	}
}
KERNEL void red(const P p) {
	const IDX m = (IDX)p.w[1], J = (IDX)p.w[2], C = (IDX)p.w[3];
	i64* __restrict__ out = (i64*)p.w[8];
	const c128* __restrict__ part = (const c128*)p.w[9];
	const i64* __restrict__ pidx = (const i64*)p.w[10];
	for (IDX i = (IDX)blockIdx.x * (IDX)blockDim.x + (IDX)threadIdx.x; i < m; i += (IDX)blockDim.x * (IDX)gridDim.x) {
		const IDX o = i;
		const IDX S = (IDX)p.w[5];
		c128 best = part[o * S];
		i64 bi = pidx[o * S];
		for (IDX k = 1; k < S; k++) {
			if ((best.re != best.re || best.im != best.im)) break;
			const c128 v = part[o * S + k];
			if (ts_cbetter<double, true>(v, best)) { best = v; bi = pidx[o * S + k]; }
		}
		out[o] = bi;
	}
}
