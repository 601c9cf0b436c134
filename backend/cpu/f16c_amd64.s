//go:build amd64 && !purego

#include "textflag.h"

// float32 ↔ float16 conversions with F16C. VCVTPS2PH's immediate 0 rounds
// to nearest even whatever MXCSR says; overflow gives ±Inf, subnormal
// results are kept, and a NaN keeps its sign and the top 10 bits of its
// payload with the quiet bit set: the bits of f32ToF16 (TestF16C).

// func f32sToF16F16C(d []uint16, a []float32), len(d) a multiple of 16.
TEXT ·f32sToF16F16C(SB), NOSPLIT, $0-48
	MOVQ d_base+0(FP), DI
	MOVQ d_len+8(FP), CX
	MOVQ a_base+24(FP), SI
	SHRQ $4, CX
	JZ   done
loop:
	VMOVUPS   (SI), Y0
	VMOVUPS   32(SI), Y1
	VCVTPS2PH $0, Y0, X0
	VCVTPS2PH $0, Y1, X1
	VMOVDQU   X0, (DI)
	VMOVDQU   X1, 16(DI)
	ADDQ      $64, SI
	ADDQ      $32, DI
	DECQ      CX
	JNZ       loop
done:
	VZEROUPPER
	RET

// func f16sToF32F16C(d []float32, a []uint16), len(d) a multiple of 16.
TEXT ·f16sToF32F16C(SB), NOSPLIT, $0-48
	MOVQ d_base+0(FP), DI
	MOVQ d_len+8(FP), CX
	MOVQ a_base+24(FP), SI
	SHRQ $4, CX
	JZ   done
loop:
	VCVTPH2PS (SI), Y0
	VCVTPH2PS 16(SI), Y1
	VMOVUPS   Y0, (DI)
	VMOVUPS   Y1, 32(DI)
	ADDQ      $32, SI
	ADDQ      $64, DI
	DECQ      CX
	JNZ       loop
done:
	VZEROUPPER
	RET

// func roundF16F16C(d []float32), len(d) a multiple of 16: each value
// rounded to float16 and back.
TEXT ·roundF16F16C(SB), NOSPLIT, $0-24
	MOVQ d_base+0(FP), DI
	MOVQ d_len+8(FP), CX
	SHRQ $4, CX
	JZ   done
loop:
	VMOVUPS   (DI), Y0
	VMOVUPS   32(DI), Y1
	VCVTPS2PH $0, Y0, X0
	VCVTPS2PH $0, Y1, X1
	VCVTPH2PS X0, Y0
	VCVTPH2PS X1, Y1
	VMOVUPS   Y0, (DI)
	VMOVUPS   Y1, 32(DI)
	ADDQ      $64, DI
	DECQ      CX
	JNZ       loop
done:
	VZEROUPPER
	RET

// func f64sToF16ValsAVX512(d []float32, a []float64), len(d) a multiple
// of 8
//
// sets d[i] to the float32 value of the float16 nearest a[i] (ties to
// even: f16Table[f64ToF16(a[i])]). Each value is rounded to float32 by
// truncation, with the last bit set where that was inexact (rounding to
// odd), then to float16 to nearest (VCVTPS2PH): with 13 bits to spare,
// rounding to odd first gives the single rounding's result (Boldo and
// Melquiond, "When double rounding is odd"), subnormal, overflowing and
// tiny values included (a value below float32's range keeps its sign and
// a last bit, and goes to ±0). A NaN keeps its sign and the top 10 bits
// of its payload, quiet bit set, as in f64ToF16.
TEXT ·f64sToF16ValsAVX512(SB), NOSPLIT, $0-48
	MOVQ d_base+0(FP), DI
	MOVQ d_len+8(FP), CX
	MOVQ a_base+24(FP), SI
	MOVL $1, AX
	VPBROADCASTD AX, Y15
	SHRQ $3, CX
	JZ   done
loop:
	VMOVUPD (SI), Z0
	VCVTPD2PS.RZ_SAE Z0, Y1
	VCVTPS2PD Y1, Z2
	VCMPPD $12, Z2, Z0, K2 // inexact (not NaN)
	VPORD Y15, Y1, K2, Y1
	VCVTPS2PH $0, Y1, X3
	VCVTPH2PS X3, Y4
	VMOVUPS Y4, (DI)
	ADDQ $64, SI
	ADDQ $32, DI
	DECQ CX
	JNZ  loop
done:
	VZEROUPPER
	RET
