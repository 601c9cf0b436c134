//go:build amd64 && !purego

#include "textflag.h"

// func cmatRowC128AVX2(acc, a, b *complex128, k, cols int): for p in
// 0..k-1 in order, acc[j] += a[p]·b[p·cols + j] for j in 0..cols-1, each
// product as cmulParts makes it (ar·br - ai·bi, ar·bi + ai·br: four
// products each rounded, then one subtraction and one addition, the first
// operands those of the Go code) and added to acc[j] with acc first:
// mmComplex's steps, two numbers a register (VADDSUBPD subtracts in the
// even lanes and adds in the odd ones), the last one of an odd row in
// the low half.
TEXT ·cmatRowC128AVX2(SB), NOSPLIT, $0-40
	MOVQ acc+0(FP), DI
	MOVQ a+8(FP), SI
	MOVQ b+16(FP), BX
	MOVQ k+24(FP), R8
	MOVQ cols+32(FP), CX
	MOVQ CX, R9
	SHLQ $4, R9 // bytes of a row of b
	TESTQ R8, R8
	JZ   done
prow:
	VBROADCASTSD (SI), Y14 // ar
	VBROADCASTSD 8(SI), Y15 // ai
	XORQ AX, AX
	MOVQ CX, DX
	SHRQ $1, DX
	JZ   tail
pair:
	VMOVUPD (BX)(AX*1), Y0 // br0 bi0 br1 bi1
	VPERMILPD $5, Y0, Y1 // bi0 br0 bi1 br1
	VMULPD Y14, Y0, Y2 // ar·br, ar·bi
	VMULPD Y15, Y1, Y3 // ai·bi, ai·br
	VADDSUBPD Y3, Y2, Y2
	VMOVUPD (DI)(AX*1), Y4
	VADDPD Y2, Y4, Y4
	VMOVUPD Y4, (DI)(AX*1)
	ADDQ $32, AX
	DECQ DX
	JNZ  pair
tail:
	TESTQ $1, CX
	JZ   next
	VMOVUPD (BX)(AX*1), X0
	VPERMILPD $1, X0, X1
	VMULPD X14, X0, X2
	VMULPD X15, X1, X3
	VADDSUBPD X3, X2, X2
	VMOVUPD (DI)(AX*1), X4
	VADDPD X2, X4, X4
	VMOVUPD X4, (DI)(AX*1)
next:
	ADDQ $16, SI
	ADDQ R9, BX
	DECQ R8
	JNZ  prow
done:
	VZEROUPPER
	RET

// func cmvPairC128AVX2(acc *[2]complex128, a0, a1, x *complex128, k int):
// two rows of a complex128 matrix-vector product, acc[i] = the sum over p
// in order of ai[p]·x[p], each product and sum as mmComplex's (cmulParts,
// then acc first), starting from zero: the rows in the two halves of one
// register, so that each step's two sums run side by side.
TEXT ·cmvPairC128AVX2(SB), NOSPLIT, $0-40
	MOVQ acc+0(FP), DI
	MOVQ a0+8(FP), SI
	MOVQ a1+16(FP), DX
	MOVQ x+24(FP), BX
	MOVQ k+32(FP), CX
	VXORPD Y0, Y0, Y0
	TESTQ CX, CX
	JZ   mvdone
mvloop:
	VMOVUPD (SI), X1
	VINSERTF128 $1, (DX), Y1, Y1 // ar0 ai0 ar1 ai1
	VBROADCASTF128 (BX), Y2 // br bi br bi
	VMOVDDUP Y1, Y3 // ar0 ar0 ar1 ar1
	VPERMILPD $15, Y1, Y4 // ai0 ai0 ai1 ai1
	VPERMILPD $5, Y2, Y5 // bi br bi br
	VMULPD Y2, Y3, Y3 // ar·br, ar·bi
	VMULPD Y5, Y4, Y4 // ai·bi, ai·br
	VADDSUBPD Y4, Y3, Y3
	VADDPD Y3, Y0, Y0
	ADDQ $16, SI
	ADDQ $16, DX
	ADDQ $16, BX
	DECQ CX
	JNZ  mvloop
mvdone:
	VMOVUPD Y0, (DI)
	VZEROUPPER
	RET

// func cmvPairC64AVX2(acc *[2]complex128, a0, a1 *complex64, x *complex128, k int):
// cmvPairC128AVX2 for rows of complex64, each number widened as it is
// loaded (VCVTPS2PD: exact), x already widened.
TEXT ·cmvPairC64AVX2(SB), NOSPLIT, $0-40
	MOVQ acc+0(FP), DI
	MOVQ a0+8(FP), SI
	MOVQ a1+16(FP), DX
	MOVQ x+24(FP), BX
	MOVQ k+32(FP), CX
	VXORPD Y0, Y0, Y0
	TESTQ CX, CX
	JZ   mv64done
mv64loop:
	VCVTPS2PD (SI), X1
	VCVTPS2PD (DX), X6
	VINSERTF128 $1, X6, Y1, Y1 // ar0 ai0 ar1 ai1
	VBROADCASTF128 (BX), Y2 // br bi br bi
	VMOVDDUP Y1, Y3
	VPERMILPD $15, Y1, Y4
	VPERMILPD $5, Y2, Y5
	VMULPD Y2, Y3, Y3
	VMULPD Y5, Y4, Y4
	VADDSUBPD Y4, Y3, Y3
	VADDPD Y3, Y0, Y0
	ADDQ $8, SI
	ADDQ $8, DX
	ADDQ $16, BX
	DECQ CX
	JNZ  mv64loop
mv64done:
	VMOVUPD Y0, (DI)
	VZEROUPPER
	RET
