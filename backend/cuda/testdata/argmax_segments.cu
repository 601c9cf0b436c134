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
DEV float ev(const P& p, IDX i) {
	const float v1 = __ldg(&((const float*)p.w[0])[i]);
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
	float* __restrict__ part = (float*)p.w[6];
	i64* __restrict__ pidx = (i64*)p.w[7];
	for (IDX i = (IDX)blockIdx.x * (IDX)blockDim.x + (IDX)threadIdx.x; i < m * S; i += (IDX)blockDim.x * (IDX)gridDim.x) {
		const IDX o = i / S, sg = i % S;
		const IDX e0 = (IDX)((i64)sg * L / S), e1 = (IDX)((i64)(sg + 1) * L / S);
		const IDX base = kbase(p, o);
		IDX j = e0 / C, c = e0 % C, bj = base + roff(p, j);
		float best = ev(p, bj + c);
		i64 bi = e0;
		for (IDX e = e0; e < e1; e++) {
			if (best != best) break;
			const float v = ev(p, bj + c);
			if (!(v <= best)) { best = v; bi = e; }
			if (++c == C) { c = 0; j++; bj = base + roff(p, j); }
		}
		part[i] = best;
		pidx[i] = bi;
	}
}
KERNEL void red(const P p) {
	const IDX m = (IDX)p.w[1], J = (IDX)p.w[2], C = (IDX)p.w[3];
	i64* __restrict__ out = (i64*)p.w[8];
	const float* __restrict__ part = (const float*)p.w[9];
	const i64* __restrict__ pidx = (const i64*)p.w[10];
	for (IDX i = (IDX)blockIdx.x * (IDX)blockDim.x + (IDX)threadIdx.x; i < m; i += (IDX)blockDim.x * (IDX)gridDim.x) {
		const IDX o = i;
		const IDX S = (IDX)p.w[5];
		float best = part[o * S];
		i64 bi = pidx[o * S];
		for (IDX k = 1; k < S; k++) {
			if ((best != best)) break;
			const float v = part[o * S + k];
			if (!(v <= best)) { best = v; bi = pidx[o * S + k]; }
		}
		out[o] = bi;
	}
}
