//go:build amd64 && !purego

#include "textflag.h"

// float32 → bfloat16 with AVX2, 8 lanes a register: f32ToBF16's
// round-to-nearest-even add (b + 0x7FFF + (b>>16)&1, then >>16), and for
// a NaN (|b| > 0x7F800000) the quiet NaN 0x7FC0 with its sign.

// BF16CONST loads the constants of BF16LANE.
#define BF16CONST \
	MOVL $1, AX; VMOVD AX, X15; VPBROADCASTD X15, Y15 \
	MOVL $0x7FFF, AX; VMOVD AX, X14; VPBROADCASTD X14, Y14 \
	MOVL $0x7FFFFFFF, AX; VMOVD AX, X13; VPBROADCASTD X13, Y13 \
	MOVL $0x7F800000, AX; VMOVD AX, X12; VPBROADCASTD X12, Y12 \
	MOVL $0x8000, AX; VMOVD AX, X11; VPBROADCASTD X11, Y11 \
	MOVL $0x7FC0, AX; VMOVD AX, X10; VPBROADCASTD X10, Y10

// BF16LANE sets the 32-bit lanes of out to the bfloat16 bits of the
// float32 lanes of in (t1, t2, t3 scratch).
#define BF16LANE(in, out, t1, t2, t3) \
	VPSRLD    $16, in, t1 \
	VPAND     Y15, t1, t2 \
	VPADDD    Y14, in, out \
	VPADDD    t2, out, out \
	VPSRLD    $16, out, out \
	VPAND     Y13, in, t2 \
	VPCMPGTD  Y12, t2, t2 \
	VPAND     Y11, t1, t3 \
	VPOR      Y10, t3, t3 \
	VPBLENDVB t2, t3, out, out

// func f32sToBF16AVX2(d []uint16, a []float32), len(d) a multiple of 16.
TEXT ·f32sToBF16AVX2(SB), NOSPLIT, $0-48
	MOVQ d_base+0(FP), DI
	MOVQ d_len+8(FP), CX
	MOVQ a_base+24(FP), SI
	SHRQ $4, CX
	JZ   done
	BF16CONST
loop:
	VMOVDQU   (SI), Y0
	VMOVDQU   32(SI), Y1
	BF16LANE(Y0, Y4, Y2, Y3, Y5)
	BF16LANE(Y1, Y6, Y2, Y3, Y5)
	VPACKUSDW Y6, Y4, Y4
	VPERMQ    $0xD8, Y4, Y4
	VMOVDQU   Y4, (DI)
	ADDQ      $64, SI
	ADDQ      $32, DI
	DECQ      CX
	JNZ       loop
done:
	VZEROUPPER
	RET

// func roundBF16AVX2(d []float32), len(d) a multiple of 16: each value
// rounded to bfloat16 in place.
TEXT ·roundBF16AVX2(SB), NOSPLIT, $0-24
	MOVQ d_base+0(FP), DI
	MOVQ d_len+8(FP), CX
	SHRQ $4, CX
	JZ   done
	BF16CONST
loop:
	VMOVDQU (DI), Y0
	VMOVDQU 32(DI), Y1
	BF16LANE(Y0, Y4, Y2, Y3, Y5)
	BF16LANE(Y1, Y6, Y2, Y3, Y5)
	VPSLLD  $16, Y4, Y4
	VPSLLD  $16, Y6, Y6
	VMOVDQU Y4, (DI)
	VMOVDQU Y6, 32(DI)
	ADDQ    $64, DI
	DECQ    CX
	JNZ     loop
done:
	VZEROUPPER
	RET

// func bf16sToF32AVX2(d []float32, a []uint16), len(d) a multiple of 16:
// each bfloat16 widened to float32 (its bits shifted up 16; exact, NaN
// payloads kept).
TEXT ·bf16sToF32AVX2(SB), NOSPLIT, $0-48
	MOVQ d_base+0(FP), DI
	MOVQ d_len+8(FP), CX
	MOVQ a_base+24(FP), SI
	SHRQ $4, CX
	JZ   done
loop:
	VPMOVZXWD (SI), Y0
	VPMOVZXWD 16(SI), Y1
	VPSLLD    $16, Y0, Y0
	VPSLLD    $16, Y1, Y1
	VMOVDQU   Y0, (DI)
	VMOVDQU   Y1, 32(DI)
	ADDQ      $32, SI
	ADDQ      $64, DI
	DECQ      CX
	JNZ       loop
done:
	VZEROUPPER
	RET
