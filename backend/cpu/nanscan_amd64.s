//go:build amd64 && !purego

#include "textflag.h"

// func anyNaNF32AVX2(a []float32) bool
//
// Four compares of eight lanes a step (a NaN is unordered with itself),
// ORed into two accumulators; len(a) - len(a)%32 elements.
TEXT ·anyNaNF32AVX2(SB), NOSPLIT, $0-25
	MOVQ a_base+0(FP), SI
	MOVQ a_len+8(FP), CX
	SHRQ $5, CX
	VXORPS Y4, Y4, Y4
	VXORPS Y5, Y5, Y5
	TESTQ CX, CX
	JZ   done
loop:
	VMOVUPS 0(SI), Y0
	VMOVUPS 32(SI), Y1
	VMOVUPS 64(SI), Y2
	VMOVUPS 96(SI), Y3
	VCMPPS $3, Y0, Y0, Y0
	VCMPPS $3, Y1, Y1, Y1
	VCMPPS $3, Y2, Y2, Y2
	VCMPPS $3, Y3, Y3, Y3
	VORPS Y0, Y4, Y4
	VORPS Y1, Y5, Y5
	VORPS Y2, Y4, Y4
	VORPS Y3, Y5, Y5
	ADDQ $128, SI
	DECQ CX
	JNZ  loop
done:
	VORPS Y5, Y4, Y4
	VPTEST Y4, Y4
	SETNE ret+24(FP)
	VZEROUPPER
	RET
