//go:build amd64 && !purego

#include "textflag.h"

// func maxF64AVX2(a []float64) (m float64, nan bool), len(a) a positive
// multiple of 8: the largest element when there is no NaN (nan reports
// whether there is one; m is then meaningless), by VMAXPD on two
// accumulators.
TEXT ·maxF64AVX2(SB), NOSPLIT, $0-33
	MOVQ a_base+0(FP), SI
	MOVQ a_len+8(FP), CX
	VMOVUPD (SI), Y0
	VMOVUPD 32(SI), Y4
	VCMPPD $3, Y0, Y0, Y2 // unordered: NaN lanes
	VCMPPD $3, Y4, Y4, Y6
	ADDQ $64, SI
	SHRQ $3, CX
	DECQ CX
	JZ   fold
loop:
	VMOVUPD (SI), Y1
	VMOVUPD 32(SI), Y5
	VMAXPD Y1, Y0, Y0
	VMAXPD Y5, Y4, Y4
	VCMPPD $3, Y1, Y1, Y3
	VCMPPD $3, Y5, Y5, Y7
	VORPD Y3, Y2, Y2
	VORPD Y7, Y6, Y6
	ADDQ $64, SI
	DECQ CX
	JNZ  loop
fold:
	VMAXPD Y4, Y0, Y0
	VORPD Y6, Y2, Y2
	VEXTRACTF128 $1, Y0, X1
	VMAXPD X1, X0, X0
	VPERMILPD $1, X0, X1
	VMAXPD X1, X0, X0
	VMOVSD X0, m+24(FP)
	VMOVMSKPD Y2, AX
	TESTL AX, AX
	SETNE nan+32(FP)
	VZEROUPPER
	RET
