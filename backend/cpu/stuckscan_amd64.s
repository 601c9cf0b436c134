//go:build amd64 && !purego

#include "textflag.h"

// func stuckScan64AVX2(w []uint64, base, span uint64) (n int, s uint64)
//
// stuckRun of float64 words (foldmul.go), eight a step: each lane's
// magnitude bits less base, compared below span as signed numbers with
// 2^63 added to both (AVX2 compares no unsigned ones); it stops before
// the first group of eight with a word outside the run, and returns how
// many words it passed and their XOR.
TEXT ·stuckScan64AVX2(SB), NOSPLIT, $0-56
	MOVQ w_base+0(FP), SI
	MOVQ w_len+8(FP), CX
	SHRQ $3, CX
	MOVQ $0x7fffffffffffffff, AX
	MOVQ AX, X0
	VPBROADCASTQ X0, Y0 // magnitude mask
	MOVQ base+24(FP), AX
	MOVQ AX, X1
	VPBROADCASTQ X1, Y1 // base
	MOVQ $0x8000000000000000, DX
	MOVQ span+32(FP), AX
	XORQ DX, AX
	MOVQ AX, X2
	VPBROADCASTQ X2, Y2 // span + 2^63
	MOVQ DX, X3
	VPBROADCASTQ X3, Y3 // 2^63
	VPXOR Y4, Y4, Y4
	VPXOR Y5, Y5, Y5
	XORQ BX, BX
	TESTQ CX, CX
	JZ   done
loop:
	VMOVDQU (SI), Y6
	VMOVDQU 32(SI), Y7
	VPAND Y0, Y6, Y8
	VPAND Y0, Y7, Y9
	VPSUBQ Y1, Y8, Y8
	VPSUBQ Y1, Y9, Y9
	VPXOR Y3, Y8, Y8
	VPXOR Y3, Y9, Y9
	VPCMPGTQ Y8, Y2, Y8 // in the run: span > bits - base
	VPCMPGTQ Y9, Y2, Y9
	VPAND Y8, Y9, Y8
	VMOVMSKPD Y8, AX
	CMPL AX, $0xF
	JNE  done
	VPXOR Y6, Y4, Y4
	VPXOR Y7, Y5, Y5
	ADDQ $64, SI
	ADDQ $8, BX
	DECQ CX
	JNZ  loop
done:
	VPXOR Y5, Y4, Y4
	VEXTRACTI128 $1, Y4, X5
	VPXOR X5, X4, X4
	VPSHUFD $0x4E, X4, X5
	VPXOR X5, X4, X4
	MOVQ X4, AX
	MOVQ BX, n+40(FP)
	MOVQ AX, s+48(FP)
	VZEROUPPER
	RET

// func stuckScan32AVX2(w []uint32, base, span uint32) (n int, s uint32)
//
// stuckScan64AVX2 for float32 words, sixteen a step.
TEXT ·stuckScan32AVX2(SB), NOSPLIT, $0-44
	MOVQ w_base+0(FP), SI
	MOVQ w_len+8(FP), CX
	SHRQ $4, CX
	MOVL $0x7fffffff, AX
	MOVD AX, X0
	VPBROADCASTD X0, Y0 // magnitude mask
	MOVL base+24(FP), AX
	MOVD AX, X1
	VPBROADCASTD X1, Y1 // base
	MOVL $0x80000000, DX
	MOVL span+28(FP), AX
	XORL DX, AX
	MOVD AX, X2
	VPBROADCASTD X2, Y2 // span + 2^31
	MOVD DX, X3
	VPBROADCASTD X3, Y3 // 2^31
	VPXOR Y4, Y4, Y4
	VPXOR Y5, Y5, Y5
	XORQ BX, BX
	TESTQ CX, CX
	JZ   done
loop:
	VMOVDQU (SI), Y6
	VMOVDQU 32(SI), Y7
	VPAND Y0, Y6, Y8
	VPAND Y0, Y7, Y9
	VPSUBD Y1, Y8, Y8
	VPSUBD Y1, Y9, Y9
	VPXOR Y3, Y8, Y8
	VPXOR Y3, Y9, Y9
	VPCMPGTD Y8, Y2, Y8 // in the run: span > bits - base
	VPCMPGTD Y9, Y2, Y9
	VPAND Y8, Y9, Y8
	VMOVMSKPS Y8, AX
	CMPL AX, $0xFF
	JNE  done
	VPXOR Y6, Y4, Y4
	VPXOR Y7, Y5, Y5
	ADDQ $64, SI
	ADDQ $16, BX
	DECQ CX
	JNZ  loop
done:
	VPXOR Y5, Y4, Y4
	VEXTRACTI128 $1, Y4, X5
	VPXOR X5, X4, X4
	VPSHUFD $0x4E, X4, X5
	VPXOR X5, X4, X4
	VPSHUFD $0xB1, X4, X5
	VPXOR X5, X4, X4
	MOVD X4, AX
	MOVQ BX, n+32(FP)
	MOVL AX, s+40(FP)
	VZEROUPPER
	RET
