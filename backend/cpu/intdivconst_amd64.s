//go:build amd64 && !purego

#include "textflag.h"

// func floorDivConstI32AVX512(d, a unsafe.Pointer, n int, c *[3]float64)
//
// d[i] = floor(a[i] / b) for a divisor b != 0 known in advance, for n a
// multiple of 8: c holds s, the sign of b (±1), |b| and fl(1/|b|); and
// floor(a/b) = floor(x/|b|) for x = s·a[i] (exact). The product p =
// fl(x · fl(1/|b|)) is within 2^-51·|x/|b|| of Q = x/|b| (two roundings).
// Where Q is not an integer it lies at least 1/|b| from the next one,
// more than that error (|x| < 2^31), so floor(p) = floor(Q). Where Q is
// an integer, p may fall just below it and floor(p) = Q - 1: then the
// remainder r = x - q·|b| (exact: one FMA, an integer below 2^32 in
// magnitude) is |b|, and q moves up by one. MinInt32 // -1 gives 2^31,
// which VCVTTPD2DQ turns into MinInt32 as Go's division wraps.
TEXT ·floorDivConstI32AVX512(SB), NOSPLIT, $0-32
	MOVQ d+0(FP), DI
	MOVQ a+8(FP), SI
	MOVQ n+16(FP), CX
	MOVQ c+24(FP), AX
	VBROADCASTSD 0(AX), Z10 // s
	VBROADCASTSD 8(AX), Z11 // |b|
	VBROADCASTSD 16(AX), Z12 // 1/|b|
	MOVQ $0x3FF0000000000000, AX
	VPBROADCASTQ AX, Z13 // 1
	SHRQ $3, CX
	JZ   done
loop:
	VCVTDQ2PD (SI), Z0
	VMULPD Z10, Z0, Z0 // x
	VMULPD Z12, Z0, Z1
	VRNDSCALEPD $1, Z1, Z1 // q
	VMOVAPD Z0, Z2
	VFNMADD231PD Z11, Z1, Z2 // r = x - q·|b|
	VCMPPD $13, Z11, Z2, K2 // r >= |b|
	VADDPD Z13, Z1, K2, Z1
	VCVTTPD2DQ Z1, Y1
	VMOVDQU Y1, (DI)
	ADDQ $32, SI
	ADDQ $32, DI
	DECQ CX
	JNZ  loop
done:
	VZEROUPPER
	RET
