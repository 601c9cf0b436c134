//go:build amd64 && !purego

#include "textflag.h"

// float32 → float8 bits with AVX2, 8 lanes a step: f32ToE4M3 and
// f32ToE5M2 (fastconv.go) lane by lane. A normal result is the
// rebias-and-round add on the bits, shifted; a subnormal one the float add
// of the magic power of two, less its bits; overflow and NaN are blended
// in by comparisons on |x|'s bits (all below 2^31, so the signed compares
// are right).

// F8CONST(rb, normmin, magic, over, overval) loads the constants.
#define F8CONST(rb, normmin, magic, over, overval) \
	MOVL $1, AX; VMOVD AX, X15; VPBROADCASTD X15, Y15 \
	MOVL $rb, AX; VMOVD AX, X14; VPBROADCASTD X14, Y14 \
	MOVL $0x7FFFFFFF, AX; VMOVD AX, X13; VPBROADCASTD X13, Y13 \
	MOVL $normmin, AX; VMOVD AX, X12; VPBROADCASTD X12, Y12 \
	MOVL $magic, AX; VMOVD AX, X11; VPBROADCASTD X11, Y11 \
	MOVL $over, AX; VMOVD AX, X10; VPBROADCASTD X10, Y10 \
	MOVL $overval, AX; VMOVD AX, X9; VPBROADCASTD X9, Y9 \
	MOVL $0x7F800000, AX; VMOVD AX, X8; VPBROADCASTD X8, Y8 \
	MOVL $0x7E, AX; VMOVD AX, X7; VPBROADCASTD X7, Y7 \
	MOVL $0x80, AX; VMOVD AX, X6; VPBROADCASTD X6, Y6

// F8LANE(sh) sets the lanes of Y0 to the float8 bits of its float32
// lanes, for a format whose kept bits end at bit sh (Y1-Y5 scratch).
#define F8LANE(sh) \
	VPAND     Y13, Y0, Y1 \
	VPSRLD    $24, Y0, Y2 \
	VPAND     Y6, Y2, Y2 \
	VPSRLD    $sh, Y1, Y3 \
	VPAND     Y15, Y3, Y3 \
	VPADDD    Y14, Y1, Y4 \
	VPADDD    Y3, Y4, Y4 \
	VPSRLD    $sh, Y4, Y4 \
	VADDPS    Y11, Y1, Y3 \
	VPSUBD    Y11, Y3, Y3 \
	VPCMPGTD  Y1, Y12, Y5 \
	VPBLENDVB Y5, Y3, Y4, Y4 \
	VPCMPGTD  Y10, Y1, Y5 \
	VPBLENDVB Y5, Y9, Y4, Y4

// F8NAN: NaN lanes (|x| > Inf) get 0x7E (float8_e5m2's quiet NaN).
#define F8NAN \
	VPCMPGTD  Y8, Y1, Y5 \
	VPBLENDVB Y5, Y7, Y4, Y4

// F8STORE ors the sign in and stores the 8 low bytes of the lanes.
#define F8STORE \
	VPOR        Y2, Y4, Y0 \
	VPACKUSDW   Y0, Y0, Y0 \
	VPACKUSWB   Y0, Y0, Y0 \
	VEXTRACTI128 $1, Y0, X1 \
	VPUNPCKLDQ  X1, X0, X0 \
	MOVQ        X0, (DI)

// func f32sToE4M3AVX2(d []uint8, a []float32), len(d) a multiple of 8.
TEXT ·f32sToE4M3AVX2(SB), NOSPLIT, $0-48
	MOVQ d_base+0(FP), DI
	MOVQ d_len+8(FP), CX
	MOVQ a_base+24(FP), SI
	SHRQ $3, CX
	JZ   done
	// rebias (7-127)<<23 + 0x7FFFF; 2^-6; 2^14; 464; NaN 0x7F.
	F8CONST(0xC407FFFF, 0x3C800000, 0x46800000, 0x43E80000, 0x7F)
loop:
	VMOVDQU (SI), Y0
	F8LANE(20)
	F8STORE
	ADDQ $32, SI
	ADDQ $8, DI
	DECQ CX
	JNZ  loop
done:
	VZEROUPPER
	RET

// func f32sToE5M2AVX2(d []uint8, a []float32), len(d) a multiple of 8.
TEXT ·f32sToE5M2AVX2(SB), NOSPLIT, $0-48
	MOVQ d_base+0(FP), DI
	MOVQ d_len+8(FP), CX
	MOVQ a_base+24(FP), SI
	SHRQ $3, CX
	JZ   done
	// rebias (15-127)<<23 + 0xFFFFF; 2^-14; 2^7; |x| >= 61440 is Inf 0x7C.
	F8CONST(0xC80FFFFF, 0x38800000, 0x43000000, 0x476FFFFF, 0x7C)
loop:
	VMOVDQU (SI), Y0
	F8LANE(21)
	F8NAN
	F8STORE
	ADDQ $32, SI
	ADDQ $8, DI
	DECQ CX
	JNZ  loop
done:
	VZEROUPPER
	RET
