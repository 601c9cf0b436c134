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
template <bool CPLX> DEV IDX ts_split(IDX n) {
	if (CPLX) return (n - n % 8) / 2;
	IDX h = n / 2;
	return h - h % 8;
}
template <class F> DEV cx<F> operator+(cx<F> a, cx<F> b) {
	cx<F> r;
	r.re = a.re + b.re;
	r.im = a.im + b.im;
	return r;
}
template <class ACC, bool CPLX, class LEAF> static __device__ ACC ts_pairwise(IDX n, int maxd, const LEAF& leaf) {
	const IDX LEAFMAX = CPLX ? 64 : 128;
	IDX lo[48], len[48];
	u64 path[48];
	ACC left[48];
	unsigned char st[48];
	int sp = 0;
	lo[0] = 0;
	len[0] = n;
	path[0] = 0;
	st[0] = 0;
	ACC ret;
	for (;;) {
		if (st[sp] == 0) {
			if (len[sp] <= LEAFMAX || sp >= maxd || sp == 47) {
				ret = leaf(lo[sp], len[sp], path[sp], sp);
			} else {
				const IDX h = ts_split<CPLX>(len[sp]);
				st[sp] = 1;
				lo[sp + 1] = lo[sp];
				len[sp + 1] = h;
				path[sp + 1] = path[sp] * 2;
				st[sp + 1] = 0;
				sp++;
				continue;
			}
		} else if (st[sp] == 1) {
			left[sp] = ret;
			st[sp] = 2;
			const IDX h = ts_split<CPLX>(len[sp]);
			lo[sp + 1] = lo[sp] + h;
			len[sp + 1] = len[sp] - h;
			path[sp + 1] = path[sp] * 2 + 1;
			st[sp + 1] = 0;
			sp++;
			continue;
		} else {
			ret = left[sp] + ret;
		}
		if (sp == 0) return ret;
		sp--;
	}
}
template <bool CPLX> DEV bool ts_subtree(IDX n, int D, IDX s, IDX* lo, IDX* len) {
	const IDX LEAFMAX = CPLX ? 64 : 128;
	*lo = 0;
	*len = n;
	for (int d = 0; d < D; d++) {
		if (*len <= LEAFMAX) return (s & (((IDX)1 << (D - d)) - 1)) == 0;
		const IDX h = ts_split<CPLX>(*len);
		if ((s >> (D - 1 - d)) & 1) {
			*lo += h;
			*len -= h;
		} else {
			*len = h;
		}
	}
	return true;
}
struct P { u64 w[11]; };
DEV float ev(const P& p, IDX i) {
	const float v1 = __ldg(&((const float*)p.w[0])[i]);
	return v1;
}
DEV IDX kbase(const P& p, IDX o) {
	IDX b = 0;
	b += (o % (IDX)p.w[5]) * (IDX)p.w[6]; o /= (IDX)p.w[5];
	return b;
}
DEV IDX roff(const P& p, IDX j) {
	IDX b = 0;
	return b;
}
DEV float pwleaf(const P& p, IDX b, IDX n) {
	if (n < 8) {
		float res = (float)-0.0;
		for (IDX i = 0; i < n; i++) res = res + ev(p, b + i);
		return res;
	}
	float r0 = ev(p, b + 0), r1 = ev(p, b + 1), r2 = ev(p, b + 2), r3 = ev(p, b + 3), r4 = ev(p, b + 4), r5 = ev(p, b + 5), r6 = ev(p, b + 6), r7 = ev(p, b + 7);
	IDX i = 8;
	for (; i < n - n % 8; i += 8) {
		r0 = r0 + ev(p, b + i + 0);
		r1 = r1 + ev(p, b + i + 1);
		r2 = r2 + ev(p, b + i + 2);
		r3 = r3 + ev(p, b + i + 3);
		r4 = r4 + ev(p, b + i + 4);
		r5 = r5 + ev(p, b + i + 5);
		r6 = r6 + ev(p, b + i + 6);
		r7 = r7 + ev(p, b + i + 7);
	}
	float res = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7));
	for (; i < n; i++) res = res + ev(p, b + i);
	return res;
}
struct PwLeaf {
	const P& p;
	IDX b;
	DEVM float operator()(IDX lo, IDX n, IDX, int) const { return pwleaf(p, b + lo, n); }
};
DEV float pwsum(const P& p, IDX b, IDX n) { return ts_pairwise<float, false>(n, 1000, PwLeaf{p, b}); }
KERNEL void red_pw(const P p) {
	const IDX m = (IDX)p.w[1], J = (IDX)p.w[2], C = (IDX)p.w[3];
	const int D = (int)p.w[7];
	float* __restrict__ part = (float*)p.w[8];
	const IDX Q = (C + 8192 - 1) / 8192;
	for (IDX i = (IDX)blockIdx.x * (IDX)blockDim.x + (IDX)threadIdx.x; i < m * J * Q << D; i += (IDX)blockDim.x * (IDX)gridDim.x) {
		const IDX S = (IDX)1 << D, s = i % S, k = (i / S) % (J * Q), j = k / Q, q = k % Q, o = i / S / (J * Q);
		const IDX n = C - q * 8192 < 8192 ? C - q * 8192 : 8192;
		IDX lo, len;
		if (ts_subtree<false>(n, D, s, &lo, &len)) part[i] = pwsum(p, kbase(p, o) + roff(p, j) + q * 8192 + lo, len);
	}
}
struct PwPart {
	const float* part;
	int D;
	DEVM float operator()(IDX, IDX, IDX path, int depth) const { return part[path << (D - depth)]; }
};
KERNEL void red(const P p) {
	const IDX m = (IDX)p.w[1], J = (IDX)p.w[2], C = (IDX)p.w[3];
	float* __restrict__ out = (float*)p.w[9];
	const float* __restrict__ part = (const float*)p.w[10];
	for (IDX i = (IDX)blockIdx.x * (IDX)blockDim.x + (IDX)threadIdx.x; i < m; i += (IDX)blockDim.x * (IDX)gridDim.x) {
		const IDX o = i;
		const int D = (int)p.w[7];
		float acc = 0;
		const IDX Q = (C + 8192 - 1) / 8192;
		for (IDX k = 0; k < J * Q; k++) {
			const IDX q = k % Q, n = C - q * 8192 < 8192 ? C - q * 8192 : 8192;
			const float* pk = part + ((i64)o * J * Q + k) * ((IDX)1 << D);
			acc = (acc + ts_pairwise<float, false>(n, D, PwPart{pk, D}));
		}
		out[o] = acc;
	}
}
