//go:build amd64 && !purego

#include "textflag.h"

// AVX2+FMA kernels. Each does exactly the operations of its Go reference
// in simd.go (same roundings, same order), 4 float64 lanes at a time; the
// Go wrappers in simd_amd64.go pass them whole groups of 8 elements.

// Constants, each repeated in 4 lanes (32 bytes). Generated from the
// values in simd.go; TestSIMDMatchesGo checks both agree.

// expm1Coef (simd.go), each in 4 lanes.
DATA expc<>+0(SB)/8, $0x3FE0000000000001
DATA expc<>+8(SB)/8, $0x3FE0000000000001
DATA expc<>+16(SB)/8, $0x3FE0000000000001
DATA expc<>+24(SB)/8, $0x3FE0000000000001
DATA expc<>+32(SB)/8, $0x3FC5555555555556
DATA expc<>+40(SB)/8, $0x3FC5555555555556
DATA expc<>+48(SB)/8, $0x3FC5555555555556
DATA expc<>+56(SB)/8, $0x3FC5555555555556
DATA expc<>+64(SB)/8, $0x3FA5555555553D68
DATA expc<>+72(SB)/8, $0x3FA5555555553D68
DATA expc<>+80(SB)/8, $0x3FA5555555553D68
DATA expc<>+88(SB)/8, $0x3FA5555555553D68
DATA expc<>+96(SB)/8, $0x3F811111111109B5
DATA expc<>+104(SB)/8, $0x3F811111111109B5
DATA expc<>+112(SB)/8, $0x3F811111111109B5
DATA expc<>+120(SB)/8, $0x3F811111111109B5
DATA expc<>+128(SB)/8, $0x3F56C16C17889F40
DATA expc<>+136(SB)/8, $0x3F56C16C17889F40
DATA expc<>+144(SB)/8, $0x3F56C16C17889F40
DATA expc<>+152(SB)/8, $0x3F56C16C17889F40
DATA expc<>+160(SB)/8, $0x3F2A01A01A7C2F2E
DATA expc<>+168(SB)/8, $0x3F2A01A01A7C2F2E
DATA expc<>+176(SB)/8, $0x3F2A01A01A7C2F2E
DATA expc<>+184(SB)/8, $0x3F2A01A01A7C2F2E
DATA expc<>+192(SB)/8, $0x3EFA019B9148739F
DATA expc<>+200(SB)/8, $0x3EFA019B9148739F
DATA expc<>+208(SB)/8, $0x3EFA019B9148739F
DATA expc<>+216(SB)/8, $0x3EFA019B9148739F
DATA expc<>+224(SB)/8, $0x3EC71DE0DB2EAFC6
DATA expc<>+232(SB)/8, $0x3EC71DE0DB2EAFC6
DATA expc<>+240(SB)/8, $0x3EC71DE0DB2EAFC6
DATA expc<>+248(SB)/8, $0x3EC71DE0DB2EAFC6
DATA expc<>+256(SB)/8, $0x3E928917CA046B86
DATA expc<>+264(SB)/8, $0x3E928917CA046B86
DATA expc<>+272(SB)/8, $0x3E928917CA046B86
DATA expc<>+280(SB)/8, $0x3E928917CA046B86
DATA expc<>+288(SB)/8, $0x3E5AF389EEB9E5E9
DATA expc<>+296(SB)/8, $0x3E5AF389EEB9E5E9
DATA expc<>+304(SB)/8, $0x3E5AF389EEB9E5E9
DATA expc<>+312(SB)/8, $0x3E5AF389EEB9E5E9
GLOBL expc<>(SB), RODATA|NOPTR, $320

// log2e, ln2Hi, ln2Lo, -708, 709, 1, 20, abs mask, sign mask,
// 2, 2·log2e, 1.5·2^52 (roundMagic)
DATA misc<>+0(SB)/8, $0x3FF71547652B82FE
DATA misc<>+8(SB)/8, $0x3FF71547652B82FE
DATA misc<>+16(SB)/8, $0x3FF71547652B82FE
DATA misc<>+24(SB)/8, $0x3FF71547652B82FE
DATA misc<>+32(SB)/8, $0x3FE62E42FEFA39EF
DATA misc<>+40(SB)/8, $0x3FE62E42FEFA39EF
DATA misc<>+48(SB)/8, $0x3FE62E42FEFA39EF
DATA misc<>+56(SB)/8, $0x3FE62E42FEFA39EF
DATA misc<>+64(SB)/8, $0x3C7ABC9E3B39803F
DATA misc<>+72(SB)/8, $0x3C7ABC9E3B39803F
DATA misc<>+80(SB)/8, $0x3C7ABC9E3B39803F
DATA misc<>+88(SB)/8, $0x3C7ABC9E3B39803F
DATA misc<>+96(SB)/8, $0xC086200000000000
DATA misc<>+104(SB)/8, $0xC086200000000000
DATA misc<>+112(SB)/8, $0xC086200000000000
DATA misc<>+120(SB)/8, $0xC086200000000000
DATA misc<>+128(SB)/8, $0x4086280000000000
DATA misc<>+136(SB)/8, $0x4086280000000000
DATA misc<>+144(SB)/8, $0x4086280000000000
DATA misc<>+152(SB)/8, $0x4086280000000000
DATA misc<>+160(SB)/8, $0x3FF0000000000000
DATA misc<>+168(SB)/8, $0x3FF0000000000000
DATA misc<>+176(SB)/8, $0x3FF0000000000000
DATA misc<>+184(SB)/8, $0x3FF0000000000000
DATA misc<>+192(SB)/8, $0x4034000000000000
DATA misc<>+200(SB)/8, $0x4034000000000000
DATA misc<>+208(SB)/8, $0x4034000000000000
DATA misc<>+216(SB)/8, $0x4034000000000000
DATA misc<>+224(SB)/8, $0x7FFFFFFFFFFFFFFF
DATA misc<>+232(SB)/8, $0x7FFFFFFFFFFFFFFF
DATA misc<>+240(SB)/8, $0x7FFFFFFFFFFFFFFF
DATA misc<>+248(SB)/8, $0x7FFFFFFFFFFFFFFF
DATA misc<>+256(SB)/8, $0x8000000000000000
DATA misc<>+264(SB)/8, $0x8000000000000000
DATA misc<>+272(SB)/8, $0x8000000000000000
DATA misc<>+280(SB)/8, $0x8000000000000000
DATA misc<>+288(SB)/8, $0x4000000000000000
DATA misc<>+296(SB)/8, $0x4000000000000000
DATA misc<>+304(SB)/8, $0x4000000000000000
DATA misc<>+312(SB)/8, $0x4000000000000000
DATA misc<>+320(SB)/8, $0x40071547652B82FE
DATA misc<>+328(SB)/8, $0x40071547652B82FE
DATA misc<>+336(SB)/8, $0x40071547652B82FE
DATA misc<>+344(SB)/8, $0x40071547652B82FE
DATA misc<>+352(SB)/8, $0x4338000000000000
DATA misc<>+360(SB)/8, $0x4338000000000000
DATA misc<>+368(SB)/8, $0x4338000000000000
DATA misc<>+376(SB)/8, $0x4338000000000000
GLOBL misc<>(SB), RODATA|NOPTR, $384


#define LOG2E misc<>+0(SB)
#define LN2HI misc<>+32(SB)
#define LN2LO misc<>+64(SB)
#define MIN708 misc<>+96(SB)
#define MAX709 misc<>+128(SB)
#define ONE misc<>+160(SB)
#define C20 misc<>+192(SB)
#define ABSMASK misc<>+224(SB)
#define SIGNMASK misc<>+256(SB)
#define TWO misc<>+288(SB)
#define LOG2E2 misc<>+320(SB)
#define MAGIC misc<>+352(SB)

// EXPPOLY sets Y2 = expPoly(r) (see simd.go) for r in register r; it
// uses Y3-Y5, and r2 and p4 as scratch.
#define EXPPOLY(r, r2, p4) \
	VMULPD r, r, r2 \
	VMOVUPD expc<>+32(SB), Y2 \
	VFMADD213PD expc<>+0(SB), r, Y2 \
	VMOVUPD expc<>+96(SB), Y3 \
	VFMADD213PD expc<>+64(SB), r, Y3 \
	VMOVUPD expc<>+160(SB), Y4 \
	VFMADD213PD expc<>+128(SB), r, Y4 \
	VMOVUPD expc<>+224(SB), Y5 \
	VFMADD213PD expc<>+192(SB), r, Y5 \
	VMOVUPD expc<>+288(SB), p4 \
	VFMADD213PD expc<>+256(SB), r, p4 \
	VFMADD231PD Y3, r2, Y2 \
	VFMADD231PD Y5, r2, Y4 \
	VMULPD r2, r2, r2 \
	VFMADD231PD Y4, r2, Y2 \
	VMULPD r2, r2, r2 \
	VFMADD231PD p4, r2, Y2 \
	VFMADD213PD ONE, r, Y2

// EXP sets Y9 = expCore(Y6) (see simd.go); it uses Y0, Y2-Y5, Y7, Y8,
// Y13.
#define EXP \
	VMULPD LOG2E, Y6, Y7 \
	VADDPD MAGIC, Y7, Y7 \
	VSUBPD MAGIC, Y7, Y13 \
	VMOVAPD Y6, Y8 \
	VFNMADD231PD LN2HI, Y13, Y8 \
	VFNMADD231PD LN2LO, Y13, Y8 \
	EXPPOLY(Y8, Y9, Y0) \
	VFMADD213PD ONE, Y8, Y2 \
	VPSLLQ $52, Y7, Y13 \
	VPADDQ ONE, Y13, Y13 \
	VMULPD Y13, Y2, Y9

// TANH sets Y9 = tanh64(Y0) (see tanh64 and expm1Core in simd.go), with
// Y14 = 20 and Y15 = 2; it uses Y1-Y10 and Y13.
#define TANH \
	VANDPD ABSMASK, Y0, Y1 \
	VMINPD Y1, Y14, Y1 \
	VMULPD LOG2E2, Y1, Y7 \
	VADDPD Y1, Y1, Y6 \
	VADDPD MAGIC, Y7, Y7 \
	VSUBPD MAGIC, Y7, Y8 \
	VFNMADD231PD LN2HI, Y8, Y6 \
	VFNMADD231PD LN2LO, Y8, Y6 \
	EXPPOLY(Y6, Y9, Y10) \
	VPSLLQ $52, Y7, Y13 \
	VPADDQ ONE, Y13, Y13 \
	VMULPD Y13, Y6, Y6 \
	VSUBPD ONE, Y13, Y13 \
	VFMADD213PD Y13, Y6, Y2 \
	VADDPD Y15, Y2, Y10 \
	VDIVPD Y10, Y2, Y9 \
	VANDPD SIGNMASK, Y0, Y0 \
	VORPD Y0, Y9, Y9

// func cpuHasAVX2FMA() bool
TEXT ·cpuHasAVX2FMA(SB), NOSPLIT, $0-1
	MOVL $1, AX
	XORL CX, CX
	CPUID
	// FMA (bit 12), OSXSAVE (27), AVX (28).
	ANDL $0x18001000, CX
	CMPL CX, $0x18001000
	JNE  no
	// The OS saves the XMM and YMM state.
	XORL CX, CX
	XGETBV
	ANDL $6, AX
	CMPL AX, $6
	JNE  no
	MOVL $7, AX
	XORL CX, CX
	CPUID
	ANDL $0x20, BX // AVX2
	JZ   no
	MOVB $1, ret+0(FP)
	RET
no:
	MOVB $0, ret+0(FP)
	RET

// func tanhF32AVX2(d, a []float32, pf []byte), len(d) a multiple of 4:
// tanhF32Go, and while it computes, PREFETCHT0 of the lines of pf, one
// line per 4 elements (so that memory is read while the core computes).
TEXT ·tanhF32AVX2(SB), NOSPLIT, $0-72
	MOVQ d_base+0(FP), DI
	MOVQ d_len+8(FP), CX
	MOVQ a_base+24(FP), SI
	MOVQ pf_base+48(FP), R8
	MOVQ pf_len+56(FP), R9
	ADDQ R8, R9
	VMOVUPD C20, Y14
	VMOVUPD TWO, Y15
	SHRQ $2, CX
	JZ   pfdone
pfloop:
	CMPQ R8, R9
	JAE  pfskip
	PREFETCHT0 (R8)
	ADDQ $64, R8
pfskip:
	VCVTPS2PD (SI), Y0 // x
	TANH
	VCVTPD2PSY Y9, X9
	VMOVUPS X9, (DI)
	ADDQ $16, SI
	ADDQ $16, DI
	DECQ CX
	JNZ  pfloop
pfdone:
	VZEROUPPER
	RET

// func expSumF32AVX2(d []float64, a []float32, m float64, pf []byte) float64,
// len(d) a multiple of 8: expSumF32Go, and while it computes, PREFETCHT0
// of the lines of pf, one line per 8 elements.
TEXT ·expSumF32AVX2(SB), NOSPLIT, $0-88
	MOVQ d_base+0(FP), DI
	MOVQ d_len+8(FP), CX
	MOVQ a_base+24(FP), SI
	MOVQ pf_base+56(FP), R8
	MOVQ pf_len+64(FP), R9
	ADDQ R8, R9
	VBROADCASTSD m+48(FP), Y15
	VMOVUPD MIN708, Y11
	VMOVUPD MAX709, Y10
	VXORPD Y14, Y14, Y14 // accumulators 0-3
	VXORPD Y12, Y12, Y12 // accumulators 4-7
	SHRQ $3, CX
	JZ   pffold
pfloop:
	CMPQ R8, R9
	JAE  pfskip
	PREFETCHT0 (R8)
	ADDQ $64, R8
pfskip:
	VCVTPS2PD (SI), Y6
	VSUBPD Y15, Y6, Y6
	VMAXPD Y6, Y11, Y6 // max(-708, y), NaN stays
	VMINPD Y6, Y10, Y6 // min(709, y)
	EXP
	VMOVUPD Y9, (DI)
	VADDPD Y9, Y14, Y14
	VCVTPS2PD 16(SI), Y6
	VSUBPD Y15, Y6, Y6
	VMAXPD Y6, Y11, Y6
	VMINPD Y6, Y10, Y6
	EXP
	VMOVUPD Y9, 32(DI)
	VADDPD Y9, Y12, Y12
	ADDQ $32, SI
	ADDQ $64, DI
	DECQ CX
	JNZ  pfloop
pffold:
	// ((s0+s1)+(s2+s3))+((s4+s5)+(s6+s7))
	VHADDPD Y12, Y14, Y0 // s0+s1, s4+s5, s2+s3, s6+s7
	VEXTRACTF128 $1, Y0, X1
	VADDPD X1, X0, X0
	VHADDPD X0, X0, X0
	VMOVSD X0, ret+80(FP)
	VZEROUPPER
	RET

// EXPPOLY512 and EXP512 are EXPPOLY and EXP on eight lanes (ZMM
// registers, the constants broadcast from their first lanes): the same
// operations in the same order.
#define EXPPOLY512(r, r2, p4) \
	VMULPD r, r, r2 \
	VBROADCASTSD expc<>+32(SB), Z2 \
	VFMADD213PD.BCST expc<>+0(SB), r, Z2 \
	VBROADCASTSD expc<>+96(SB), Z3 \
	VFMADD213PD.BCST expc<>+64(SB), r, Z3 \
	VBROADCASTSD expc<>+160(SB), Z4 \
	VFMADD213PD.BCST expc<>+128(SB), r, Z4 \
	VBROADCASTSD expc<>+224(SB), Z5 \
	VFMADD213PD.BCST expc<>+192(SB), r, Z5 \
	VBROADCASTSD expc<>+288(SB), p4 \
	VFMADD213PD.BCST expc<>+256(SB), r, p4 \
	VFMADD231PD Z3, r2, Z2 \
	VFMADD231PD Z5, r2, Z4 \
	VMULPD r2, r2, r2 \
	VFMADD231PD Z4, r2, Z2 \
	VMULPD r2, r2, r2 \
	VFMADD231PD p4, r2, Z2 \
	VFMADD213PD.BCST ONE, r, Z2

#define EXP512 \
	VMULPD.BCST LOG2E, Z6, Z7 \
	VADDPD.BCST MAGIC, Z7, Z7 \
	VSUBPD.BCST MAGIC, Z7, Z13 \
	VMOVAPD Z6, Z8 \
	VFNMADD231PD.BCST LN2HI, Z13, Z8 \
	VFNMADD231PD.BCST LN2LO, Z13, Z8 \
	EXPPOLY512(Z8, Z9, Z0) \
	VFMADD213PD.BCST ONE, Z8, Z2 \
	VPSLLQ $52, Z7, Z13 \
	VPADDQ.BCST ONE, Z13, Z13 \
	VMULPD Z13, Z2, Z9

// func expSumF32AVX512(d []float64, a []float32, m float64, pf []byte) float64,
// len(d) a multiple of 8: expSumF32AVX2 on eight lanes, accumulator i of
// the eight in lane i, so that each accumulator adds the same elements in
// the same order; PREFETCHT0 of the lines of pf, one per 8 elements.
TEXT ·expSumF32AVX512(SB), NOSPLIT, $0-88
	MOVQ d_base+0(FP), DI
	MOVQ d_len+8(FP), CX
	MOVQ a_base+24(FP), SI
	MOVQ pf_base+56(FP), R8
	MOVQ pf_len+64(FP), R9
	ADDQ R8, R9
	VBROADCASTSD m+48(FP), Z15
	VBROADCASTSD MIN708, Z11
	VBROADCASTSD MAX709, Z10
	VXORPD Z14, Z14, Z14 // accumulators 0-7
	SHRQ $3, CX
	JZ   fold
loop:
	CMPQ R8, R9
	JAE  skip
	PREFETCHT0 (R8)
	ADDQ $64, R8
skip:
	VCVTPS2PD (SI), Z6
	VSUBPD Z15, Z6, Z6
	VMAXPD Z6, Z11, Z6 // max(-708, y), NaN stays
	VMINPD Z6, Z10, Z6 // min(709, y)
	EXP512
	VMOVUPD Z9, (DI)
	VADDPD Z9, Z14, Z14
	ADDQ $32, SI
	ADDQ $64, DI
	DECQ CX
	JNZ  loop
fold:
	// ((s0+s1)+(s2+s3))+((s4+s5)+(s6+s7)), as expSumF32AVX2
	VEXTRACTF64X4 $1, Z14, Y12
	VHADDPD Y12, Y14, Y0 // s0+s1, s4+s5, s2+s3, s6+s7
	VEXTRACTF128 $1, Y0, X1
	VADDPD X1, X0, X0
	VHADDPD X0, X0, X0
	VMOVSD X0, ret+80(FP)
	VZEROUPPER
	RET

// func divToF32AVX2(d []float32, a []float64, s float64), len(d) a
// multiple of 4: d[i] = float32(a[i] / s).
TEXT ·divToF32AVX2(SB), NOSPLIT, $0-56
	MOVQ d_base+0(FP), DI
	MOVQ d_len+8(FP), CX
	MOVQ a_base+24(FP), SI
	VBROADCASTSD s+48(FP), Y15
	SHRQ $2, CX
	JZ   done
loop:
	VMOVUPD (SI), Y0
	VDIVPD Y15, Y0, Y0
	VCVTPD2PSY Y0, X0
	VMOVUPS X0, (DI)
	ADDQ $32, SI
	ADDQ $16, DI
	DECQ CX
	JNZ  loop
done:
	VZEROUPPER
	RET

// func cvtI8F32AVX2(d []float32, a []int8), len(d) a multiple of 8.
TEXT ·cvtI8F32AVX2(SB), NOSPLIT, $0-48
	MOVQ d_base+0(FP), DI
	MOVQ d_len+8(FP), CX
	MOVQ a_base+24(FP), SI
	SHRQ $3, CX
	JZ   done
loop:
	VPMOVSXBD (SI), Y0
	VCVTDQ2PS Y0, Y0
	VMOVUPS Y0, (DI)
	ADDQ $8, SI
	ADDQ $32, DI
	DECQ CX
	JNZ  loop
done:
	VZEROUPPER
	RET

// func sum8F32AVX2(a []float32) float32, len(a) a positive multiple of
// 8: sum8F32Go.
TEXT ·sum8F32AVX2(SB), NOSPLIT, $0-28
	MOVQ a_base+0(FP), SI
	MOVQ a_len+8(FP), CX
	VMOVUPS (SI), Y0
	ADDQ $32, SI
	SHRQ $3, CX
	DECQ CX
	JZ   fold
loop:
	VADDPS (SI), Y0, Y0
	ADDQ $32, SI
	DECQ CX
	JNZ  loop
fold:
	VPERMILPS $0xB1, Y0, Y1 // r1 r0 r3 r2 …
	VADDPS Y1, Y0, Y0       // lanes 0, 2, 4, 6: r0+r1, r2+r3, r4+r5, r6+r7
	VPERMILPS $0x4E, Y0, Y1
	VADDPS Y1, Y0, Y0       // lanes 0, 4: (r0+r1)+(r2+r3), (r4+r5)+(r6+r7)
	VEXTRACTF128 $1, Y0, X1
	VADDSS X1, X0, X0
	VMOVSS X0, ret+24(FP)
	VZEROUPPER
	RET

// func maxF32AVX2(a []float32) (m float32, nan bool), len(a) a positive
// multiple of 8: the largest element when there is no NaN (nan reports
// whether there is one; m is then meaningless), by VMAXPS.
TEXT ·maxF32AVX2(SB), NOSPLIT, $0-29
	MOVQ a_base+0(FP), SI
	MOVQ a_len+8(FP), CX
	VMOVUPS (SI), Y0
	VCMPPS $3, Y0, Y0, Y2 // unordered: NaN lanes
	ADDQ $32, SI
	SHRQ $3, CX
	DECQ CX
	JZ   fold
loop:
	VMOVUPS (SI), Y1
	VMAXPS Y1, Y0, Y0
	VCMPPS $3, Y1, Y1, Y3
	VORPS Y3, Y2, Y2
	ADDQ $32, SI
	DECQ CX
	JNZ  loop
fold:
	VEXTRACTF128 $1, Y0, X1
	VMAXPS X1, X0, X0
	VPERMILPS $0x4E, X0, X1
	VMAXPS X1, X0, X0
	VPERMILPS $0xB1, X0, X1
	VMAXPS X1, X0, X0
	VMOVSS X0, m+24(FP)
	VMOVMSKPS Y2, AX
	TESTL AX, AX
	SETNE nan+28(FP)
	VZEROUPPER
	RET

// COLEXP512 sets Z9 = expCore(clampExp(float64(x) - mx)) for the eight
// float32s at off(SI) and the register mx: expSumF32AVX512's steps.
#define COLEXP512(off, mx) \
	VCVTPS2PD off(SI), Z6 \
	VSUBPD mx, Z6, Z6 \
	VMAXPD Z6, Z11, Z6 \
	VMINPD Z6, Z10, Z6 \
	EXP512

// func colExpSumF32AVX512(e []float64, x []float32, stride int, mx *[16]float64, acc *[8][16]float64, rows, n8 int)
//
// For the sixteen columns of x at 0(SI) and rows rows stride elements
// apart, sets e[16i+k] = expCore(clampExp(float64(x[i·stride+k]) -
// mx[k])) and, for the rows i < n8, adds it to acc[i mod 8][k]: the
// accumulators of sum8F64 down each column, added in its order.
TEXT ·colExpSumF32AVX512(SB), NOSPLIT, $0-88
	MOVQ e_base+0(FP), DI
	MOVQ x_base+24(FP), SI
	MOVQ stride+48(FP), R8
	SHLQ $2, R8
	MOVQ mx+56(FP), AX
	VMOVUPD (AX), Z14
	VMOVUPD 64(AX), Z15
	MOVQ acc+64(FP), R11
	LEAQ 1024(R11), R12
	MOVQ R11, R10
	VBROADCASTSD MIN708, Z11
	VBROADCASTSD MAX709, Z10
	MOVQ rows+72(FP), BX
	MOVQ n8+80(FP), CX
	SUBQ CX, BX // the rows after n8
	TESTQ CX, CX
	JZ   tail
sum:
	PREFETCHT0 (SI)(R8*8) // the row 8 ahead
	COLEXP512(0, Z14)
	VMOVUPD Z9, (DI)
	VMOVUPD (R10), Z12
	VADDPD Z9, Z12, Z12 // acc + e
	VMOVUPD Z12, (R10)
	COLEXP512(32, Z15)
	VMOVUPD Z9, 64(DI)
	VMOVUPD 64(R10), Z12
	VADDPD Z9, Z12, Z12
	VMOVUPD Z12, 64(R10)
	ADDQ R8, SI
	ADDQ $128, DI
	ADDQ $128, R10
	CMPQ R10, R12
	JB   same
	MOVQ R11, R10
same:
	DECQ CX
	JNZ  sum
tail:
	TESTQ BX, BX
	JZ   done
tailloop:
	PREFETCHT0 (SI)(R8*8)
	COLEXP512(0, Z14)
	VMOVUPD Z9, (DI)
	COLEXP512(32, Z15)
	VMOVUPD Z9, 64(DI)
	ADDQ R8, SI
	ADDQ $128, DI
	DECQ BX
	JNZ  tailloop
done:
	VZEROUPPER
	RET

// Constants of the float32 quotients by a reciprocal (DIVQ32): 2^-125
// (below it float32's subnormals round on another grid), and
// roundCheck512's 2^10 - 2^28, 2^29 - 1 and 2^11 (gen_libm.go).
DATA divq<>+0(SB)/8, $0x3820000000000000
DATA divq<>+8(SB)/8, $0xFFFFFFFFF0000400
DATA divq<>+16(SB)/8, $0x000000001FFFFFFF
DATA divq<>+24(SB)/8, $0x0000000000000800
GLOBL divq<>(SB), RODATA|NOPTR, $32

// DIVQ32CONSTS loads DIVQ32's constants into Z8 and Z10-Z12.
#define DIVQ32CONSTS \
	VBROADCASTSD divq<>+0(SB), Z8 \
	VPBROADCASTQ divq<>+8(SB), Z10 \
	VPBROADCASTQ divq<>+16(SB), Z11 \
	VPBROADCASTQ divq<>+24(SB), Z12

// DIVQ32 sets q = a·r (r the reciprocal of the divisor, rounded: r =
// RN(1/s)) and clears, in the opmask k, the lanes where float32(q) may
// differ from float32(a/s) (a/s rounded to float64 first, as Go's
// float32(a / s)): q is within 2^-51.9 of a/s, relative, so within 5
// float64 ULP of RN(a/s), and both round to the same float32 unless a
// float32 rounding midpoint lies between them. It keeps the lanes where
// q >= 2^-125 (normal float32s on both sides; not NaN) and the low 29
// bits of q lie 2^10 or more from the midpoint's 2^28 (roundCheck512's
// test). Large q need no bound: float32's overflow threshold is such a
// midpoint (that of its largest value and 2^128), and beyond it both
// round to +Inf. t is scratch.
#define DIVQ32(a, r, q, t, k) \
	VMULPD r, a, q \
	VCMPPD $13, Z8, q, k \
	VPADDQ Z10, q, t \
	VPANDQ Z11, t, t \
	VPCMPUQ $5, Z12, t, k, k

// func divColsF32AVX512(out []float32, e []float64, stride int, s, rs *[16]float64, rows int)
//
// Sets out[i·stride+k] = float32(e[16i+k] / s[k]) for the rows i <
// rows and the sixteen columns k, by the products with rs[k] = 1/s[k]
// where DIVQ32 shows they round to the same float32 (every lane of a
// row, else that row by division); rs[k] must be a normal float64.
TEXT ·divColsF32AVX512(SB), NOSPLIT, $0-80
	MOVQ out_base+0(FP), DI
	MOVQ e_base+24(FP), SI
	MOVQ stride+48(FP), R8
	SHLQ $2, R8
	MOVQ s+56(FP), AX
	VMOVUPD (AX), Z16
	VMOVUPD 64(AX), Z17
	MOVQ rs+64(FP), AX
	VMOVUPD (AX), Z14
	VMOVUPD 64(AX), Z15
	DIVQ32CONSTS
	MOVQ rows+72(FP), CX
	TESTQ CX, CX
	JZ   done
loop:
	PREFETCHT0 (DI)(R8*8) // the row 8 ahead
	VMOVUPD (SI), Z0
	VMOVUPD 64(SI), Z1
	DIVQ32(Z0, Z14, Z2, Z4, K1)
	DIVQ32(Z1, Z15, Z3, Z5, K2)
	KANDB K1, K2, K3
	KORTESTB K3, K3
	JCS  store // every lane
	VDIVPD Z16, Z0, Z2
	VDIVPD Z17, Z1, Z3
store:
	VCVTPD2PS Z2, Y2
	VCVTPD2PS Z3, Y3
	VMOVUPS Y2, (DI)
	VMOVUPS Y3, 32(DI)
	ADDQ $128, SI
	ADDQ R8, DI
	DECQ CX
	JNZ  loop
done:
	VZEROUPPER
	RET

// func divToF32AVX512(d []float32, a []float64, s, rs float64), len(d) a
// multiple of 16: d[i] = float32(a[i] / s), by products with rs = 1/s
// where DIVQ32 allows (as divColsF32AVX512); rs must be a normal float64.
TEXT ·divToF32AVX512(SB), NOSPLIT, $0-64
	MOVQ d_base+0(FP), DI
	MOVQ d_len+8(FP), CX
	MOVQ a_base+24(FP), SI
	VBROADCASTSD s+48(FP), Z16
	VBROADCASTSD rs+56(FP), Z14
	DIVQ32CONSTS
	SHRQ $4, CX
	JZ   done
loop:
	VMOVUPD (SI), Z0
	VMOVUPD 64(SI), Z1
	DIVQ32(Z0, Z14, Z2, Z4, K1)
	DIVQ32(Z1, Z14, Z3, Z5, K2)
	KANDB K1, K2, K3
	KORTESTB K3, K3
	JCS  store
	VDIVPD Z16, Z0, Z2
	VDIVPD Z16, Z1, Z3
store:
	VCVTPD2PS Z2, Y2
	VCVTPD2PS Z3, Y3
	VMOVUPS Y2, (DI)
	VMOVUPS Y3, 32(DI)
	ADDQ $128, SI
	ADDQ $64, DI
	DECQ CX
	JNZ  loop
done:
	VZEROUPPER
	RET

// func logColsF32AVX512(out, x []float32, stride int, mx, ls *[16]float64, rows int)
//
// Sets out[i·stride+k] = float32(float64(x[i·stride+k]) - mx[k] -
// ls[k]) for the rows i < rows and the sixteen columns k.
TEXT ·logColsF32AVX512(SB), NOSPLIT, $0-80
	MOVQ out_base+0(FP), DI
	MOVQ x_base+24(FP), SI
	MOVQ stride+48(FP), R8
	SHLQ $2, R8
	MOVQ mx+56(FP), AX
	VMOVUPD (AX), Z14
	VMOVUPD 64(AX), Z15
	MOVQ ls+64(FP), AX
	VMOVUPD (AX), Z12
	VMOVUPD 64(AX), Z13
	MOVQ rows+72(FP), CX
	TESTQ CX, CX
	JZ   done
loop:
	VCVTPS2PD (SI), Z0
	VSUBPD Z14, Z0, Z0
	VSUBPD Z12, Z0, Z0
	VCVTPS2PD 32(SI), Z1
	VSUBPD Z15, Z1, Z1
	VSUBPD Z13, Z1, Z1
	VCVTPD2PS Z0, Y0
	VCVTPD2PS Z1, Y1
	VMOVUPS Y0, (DI)
	VMOVUPS Y1, 32(DI)
	ADDQ R8, SI
	ADDQ R8, DI
	DECQ CX
	JNZ  loop
done:
	VZEROUPPER
	RET

// Constants of DIVX64: 2^-960 and 2^1000 (the dividends it takes), 53,
// the float64 mantissa's bits, and the absolute value's mask.
DATA divx<>+0(SB)/8, $0x03F0000000000000
DATA divx<>+8(SB)/8, $0x7E70000000000000
DATA divx<>+16(SB)/8, $0x404A800000000000
DATA divx<>+24(SB)/8, $0x000FFFFFFFFFFFFF
DATA divx<>+32(SB)/8, $0x7FFFFFFFFFFFFFFF
GLOBL divx<>(SB), RODATA|NOPTR, $40

// DIVX64 sets q to the quotient a/b rounded to nearest, from r =
// RN(1/b), where opmask k shows it is: q0 = a·r, then one correction
// (Markstein's) q = q0 + (a - q0·b)·r, and the test: the remainder a -
// q·b (exact, by FMA, for a q within an ULP of a/b; rounding it cannot
// make it smaller than a bound it exceeds) is below b·ulp(q)/2 in
// magnitude, so q is the float64 nearest a/b, when q is not a power of two
// (whose lower neighbour is nearer). k keeps those lanes, for dividends in
// [2^-960, 2^1000] (no NaN) and divisors in [2^-1000, 2^1000] (r is NaN
// otherwise), where nothing overflows or underflows; elsewhere a/b must be
// divided. t and u are scratch.
#define DIVX64(a, b, r, q, t, u, k) \
	VMULPD r, a, q \
	VMOVAPD a, t \
	VFNMADD231PD q, b, t \
	VFMADD231PD t, r, q \
	VMOVAPD a, t \
	VFNMADD231PD q, b, t \
	VPANDQ.BCST divx<>+32(SB), t, t \
	VGETEXPPD q, u \
	VSUBPD.BCST divx<>+16(SB), u, u \
	VSCALEFPD u, b, u \
	VCMPPD $1, u, t, k \
	VCMPPD.BCST $13, divx<>+0(SB), a, k, k \
	VCMPPD.BCST $2, divx<>+8(SB), a, k, k \
	VPTESTMQ.BCST divx<>+24(SB), q, k, k

// func divExactF64AVX512(d, a, b, rb []float64), len(d) a multiple of 8,
// rb[i] = 1/b[i] (rounded) where b[i] is in [2^-1000, 2^1000], else NaN:
// d[i] = a[i] / b[i], eight at a time by DIVX64, or by division where a
// lane of the eight needs it.
TEXT ·divExactF64AVX512(SB), NOSPLIT, $0-96
	MOVQ d_base+0(FP), DI
	MOVQ d_len+8(FP), CX
	MOVQ a_base+24(FP), SI
	MOVQ b_base+48(FP), DX
	MOVQ rb_base+72(FP), R8
	SHRQ $3, CX
	JZ   done
loop:
	VMOVUPD (SI), Z0
	VMOVUPD (DX), Z1
	VMOVUPD (R8), Z2
	DIVX64(Z0, Z1, Z2, Z3, Z4, Z5, K1)
	KORTESTB K1, K1
	JCS  store // every lane
	VDIVPD Z1, Z0, Z3
store:
	VMOVUPD Z3, (DI)
	ADDQ $64, SI
	ADDQ $64, DX
	ADDQ $64, R8
	ADDQ $64, DI
	DECQ CX
	JNZ  loop
done:
	VZEROUPPER
	RET

// func divByF64AVX512(d, a []float64, b, rb float64), len(d) a multiple
// of 8, rb = 1/b (rounded) where b is in [2^-1000, 2^1000], else NaN:
// d[i] = a[i] / b, as divExactF64AVX512.
TEXT ·divByF64AVX512(SB), NOSPLIT, $0-64
	MOVQ d_base+0(FP), DI
	MOVQ d_len+8(FP), CX
	MOVQ a_base+24(FP), SI
	VBROADCASTSD b+48(FP), Z1
	VBROADCASTSD rb+56(FP), Z2
	SHRQ $3, CX
	JZ   done
loop:
	VMOVUPD (SI), Z0
	DIVX64(Z0, Z1, Z2, Z3, Z4, Z5, K1)
	KORTESTB K1, K1
	JCS  store // every lane
	VDIVPD Z1, Z0, Z3
store:
	VMOVUPD Z3, (DI)
	ADDQ $64, SI
	ADDQ $64, DI
	DECQ CX
	JNZ  loop
done:
	VZEROUPPER
	RET

// func sumBytesAVX2(x []byte, flip uint64) uint64, len(x) a multiple of
// 32: the sum of the bytes of x, each XORed with the bytes of flip first
// (0, or 0x80 in each byte: an int8 plus 128), by VPSADBW against zero
// (eight bytes summed into each 64-bit lane) into four accumulators, 128
// bytes a step, then 32.
TEXT ·sumBytesAVX2(SB), NOSPLIT, $0-40
	MOVQ x_base+0(FP), SI
	MOVQ x_len+8(FP), CX
	VPBROADCASTQ flip+24(FP), Y9
	VPXOR Y0, Y0, Y0
	VPXOR Y1, Y1, Y1
	VPXOR Y2, Y2, Y2
	VPXOR Y3, Y3, Y3
	VPXOR Y4, Y4, Y4
	MOVQ CX, DX
	SHRQ $7, CX
	JZ   tail
loop:
	VPXOR (SI), Y9, Y5
	VPSADBW Y0, Y5, Y5
	VPADDQ Y5, Y1, Y1
	VPXOR 32(SI), Y9, Y6
	VPSADBW Y0, Y6, Y6
	VPADDQ Y6, Y2, Y2
	VPXOR 64(SI), Y9, Y7
	VPSADBW Y0, Y7, Y7
	VPADDQ Y7, Y3, Y3
	VPXOR 96(SI), Y9, Y8
	VPSADBW Y0, Y8, Y8
	VPADDQ Y8, Y4, Y4
	ADDQ $128, SI
	DECQ CX
	JNZ  loop
tail:
	ANDQ $127, DX
	SHRQ $5, DX
	JZ   fold
tail32:
	VPXOR (SI), Y9, Y5
	VPSADBW Y0, Y5, Y5
	VPADDQ Y5, Y1, Y1
	ADDQ $32, SI
	DECQ DX
	JNZ  tail32
fold:
	VPADDQ Y2, Y1, Y1
	VPADDQ Y4, Y3, Y3
	VPADDQ Y3, Y1, Y1
	VEXTRACTI128 $1, Y1, X2
	VPADDQ X2, X1, X1
	VPSHUFD $0x4E, X1, X2
	VPADDQ X2, X1, X1
	VMOVQ X1, AX
	MOVQ AX, ret+32(FP)
	VZEROUPPER
	RET

// func colBytesAVX2(acc []int32, x []byte, rows, stride, signed int),
// len(acc) a multiple of 32: acc[j] += x[i*stride+j] for the rows i, the
// bytes read as uint8 (signed 0) or int8. Thirty-two columns at a time
// held in four registers while the rows go by.
TEXT ·colBytesAVX2(SB), NOSPLIT, $0-72
	MOVQ acc_base+0(FP), DI
	MOVQ acc_len+8(FP), CX
	MOVQ x_base+24(FP), SI
	MOVQ rows+48(FP), R8
	MOVQ stride+56(FP), R9
	MOVQ signed+64(FP), R10
	SHRQ $5, CX
	JZ   coldone
colblock:
	VMOVDQU (DI), Y1
	VMOVDQU 32(DI), Y2
	VMOVDQU 64(DI), Y3
	VMOVDQU 96(DI), Y4
	MOVQ SI, AX
	MOVQ R8, DX
	TESTQ DX, DX
	JZ   colstore
	TESTQ R10, R10
	JNZ  colsigned
colunsigned:
	VPMOVZXBD (AX), Y5
	VPMOVZXBD 8(AX), Y6
	VPMOVZXBD 16(AX), Y7
	VPMOVZXBD 24(AX), Y8
	VPADDD Y5, Y1, Y1
	VPADDD Y6, Y2, Y2
	VPADDD Y7, Y3, Y3
	VPADDD Y8, Y4, Y4
	ADDQ R9, AX
	DECQ DX
	JNZ  colunsigned
	JMP  colstore
colsigned:
	VPMOVSXBD (AX), Y5
	VPMOVSXBD 8(AX), Y6
	VPMOVSXBD 16(AX), Y7
	VPMOVSXBD 24(AX), Y8
	VPADDD Y5, Y1, Y1
	VPADDD Y6, Y2, Y2
	VPADDD Y7, Y3, Y3
	VPADDD Y8, Y4, Y4
	ADDQ R9, AX
	DECQ DX
	JNZ  colsigned
colstore:
	VMOVDQU Y1, (DI)
	VMOVDQU Y2, 32(DI)
	VMOVDQU Y3, 64(DI)
	VMOVDQU Y4, 96(DI)
	ADDQ $128, DI
	ADDQ $32, SI
	DECQ CX
	JNZ  colblock
coldone:
	VZEROUPPER
	RET

// func sumInt32sAVX2(x []int32, unsigned int) int64, len(x) a multiple of
// 16: the sum of the elements, widened to int64 by VPMOVSXDQ (VPMOVZXDQ
// where unsigned), into four accumulators.
TEXT ·sumInt32sAVX2(SB), NOSPLIT, $0-40
	MOVQ x_base+0(FP), SI
	MOVQ x_len+8(FP), CX
	MOVQ unsigned+24(FP), R10
	VPXOR Y1, Y1, Y1
	VPXOR Y2, Y2, Y2
	VPXOR Y3, Y3, Y3
	VPXOR Y4, Y4, Y4
	SHRQ $4, CX
	JZ   sumfold
	TESTQ R10, R10
	JNZ  sumu
sums:
	VPMOVSXDQ (SI), Y5
	VPMOVSXDQ 16(SI), Y6
	VPMOVSXDQ 32(SI), Y7
	VPMOVSXDQ 48(SI), Y8
	VPADDQ Y5, Y1, Y1
	VPADDQ Y6, Y2, Y2
	VPADDQ Y7, Y3, Y3
	VPADDQ Y8, Y4, Y4
	ADDQ $64, SI
	DECQ CX
	JNZ  sums
	JMP  sumfold
sumu:
	VPMOVZXDQ (SI), Y5
	VPMOVZXDQ 16(SI), Y6
	VPMOVZXDQ 32(SI), Y7
	VPMOVZXDQ 48(SI), Y8
	VPADDQ Y5, Y1, Y1
	VPADDQ Y6, Y2, Y2
	VPADDQ Y7, Y3, Y3
	VPADDQ Y8, Y4, Y4
	ADDQ $64, SI
	DECQ CX
	JNZ  sumu
sumfold:
	VPADDQ Y2, Y1, Y1
	VPADDQ Y4, Y3, Y3
	VPADDQ Y3, Y1, Y1
	VEXTRACTI128 $1, Y1, X2
	VPADDQ X2, X1, X1
	VPSHUFD $0x4E, X1, X2
	VPADDQ X2, X1, X1
	VMOVQ X1, AX
	MOVQ AX, ret+32(FP)
	VZEROUPPER
	RET

// func colInt32sAVX2(dst []int64, x []int32, rows, stride, unsigned int),
// len(dst) a multiple of 16: dst[j] += x[i*stride+j] for the rows i,
// widened to int64 by VPMOVSXDQ (VPMOVZXDQ where unsigned). Sixteen
// columns at a time held in four registers while the rows go by.
TEXT ·colInt32sAVX2(SB), NOSPLIT, $0-72
	MOVQ dst_base+0(FP), DI
	MOVQ dst_len+8(FP), CX
	MOVQ x_base+24(FP), SI
	MOVQ rows+48(FP), R8
	MOVQ stride+56(FP), R9
	SHLQ $2, R9
	MOVQ unsigned+64(FP), R10
	SHRQ $4, CX
	JZ   cidone
ciblock:
	VMOVDQU (DI), Y1
	VMOVDQU 32(DI), Y2
	VMOVDQU 64(DI), Y3
	VMOVDQU 96(DI), Y4
	MOVQ SI, AX
	MOVQ R8, DX
	TESTQ DX, DX
	JZ   cistore
	TESTQ R10, R10
	JNZ  ciunsigned
cisigned:
	VPMOVSXDQ (AX), Y5
	VPMOVSXDQ 16(AX), Y6
	VPMOVSXDQ 32(AX), Y7
	VPMOVSXDQ 48(AX), Y8
	VPADDQ Y5, Y1, Y1
	VPADDQ Y6, Y2, Y2
	VPADDQ Y7, Y3, Y3
	VPADDQ Y8, Y4, Y4
	ADDQ R9, AX
	DECQ DX
	JNZ  cisigned
	JMP  cistore
ciunsigned:
	VPMOVZXDQ (AX), Y5
	VPMOVZXDQ 16(AX), Y6
	VPMOVZXDQ 32(AX), Y7
	VPMOVZXDQ 48(AX), Y8
	VPADDQ Y5, Y1, Y1
	VPADDQ Y6, Y2, Y2
	VPADDQ Y7, Y3, Y3
	VPADDQ Y8, Y4, Y4
	ADDQ R9, AX
	DECQ DX
	JNZ  ciunsigned
cistore:
	VMOVDQU Y1, (DI)
	VMOVDQU Y2, 32(DI)
	VMOVDQU Y3, 64(DI)
	VMOVDQU Y4, 96(DI)
	ADDQ $128, DI
	ADDQ $64, SI
	DECQ CX
	JNZ  ciblock
cidone:
	VZEROUPPER
	RET
