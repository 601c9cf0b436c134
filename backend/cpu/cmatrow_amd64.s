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
