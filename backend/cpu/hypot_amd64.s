//go:build amd64 && !purego

#include "textflag.h"

// func absC64AVX2(d []float32, a []complex64) (nan bool): d[i] =
// float32(sqrt(float64(re)² + float64(im)²)) for the len(d) - len(d)%4
// first elements, four a time: the parts widened to float64 (exactly),
// squared, each pair summed (VHADDPD adds im² to re², the same sum as
// hypotF32's re² + im²), the square root taken and rounded once to
// float32, as hypotF32 computes them. It reports whether some result is
// NaN: absC64 then redoes those with hypotF32 (an infinite part with a
// NaN one gives +Inf there).
TEXT ·absC64AVX2(SB), NOSPLIT, $0-49
	MOVQ d_base+0(FP), DI
	MOVQ d_len+8(FP), CX
	MOVQ a_base+24(FP), SI
	VXORPD Y7, Y7, Y7 // the lanes of the NaN results so far
	SHRQ $2, CX
	JZ   done
loop:
	VCVTPS2PD 0(SI), Y0   // re0 im0 re1 im1
	VCVTPS2PD 16(SI), Y1  // re2 im2 re3 im3
	VMULPD Y0, Y0, Y0
	VMULPD Y1, Y1, Y1
	VHADDPD Y1, Y0, Y2    // s0 s2 s1 s3
	VPERMPD $0xd8, Y2, Y2 // s0 s1 s2 s3
	VSQRTPD Y2, Y2
	VCVTPD2PSY Y2, X3
	VMOVUPS X3, 0(DI)
	VCMPPS $3, X3, X3, X4 // unordered: NaN
	VORPS X4, X7, X7
	ADDQ $32, SI
	ADDQ $16, DI
	DECQ CX
	JNZ  loop
done:
	VMOVMSKPS X7, AX
	TESTL AX, AX
	SETNE nan+48(FP)
	VZEROUPPER
	RET

// func scaledCAbsC64AVX2(d []float32, a []complex64): d[i] =
// scaledCAbs(real(a[i]), imag(a[i])) (NumPy's simd_cabsolute) for the
// len(d) - len(d)%8 first elements, eight a time, with the instructions
// NumPy's AVX2 loop takes: the parts split by VSHUFPS (in the order 0 1 4
// 5 2 3 6 7, put right by VPERMPD at the end), made non-negative,
// infinities and then NaNs spread to both parts (VBLENDVPS), l = VMAXPS
// re, im and s = VMINPS im, re, r = s/l where l is not 0 and s not
// infinite (0/1 elsewhere, as npyv_ifdivz divides), √(VFMADD r, r, 1)·l.
TEXT ·scaledCAbsC64AVX2(SB), NOSPLIT, $0-48
	MOVQ d_base+0(FP), DI
	MOVQ d_len+8(FP), CX
	MOVQ a_base+24(FP), SI
	VBROADCASTSS cabsABS<>(SB), Y10
	VBROADCASTSS cabsINF<>(SB), Y11
	VBROADCASTSS cabsNAN<>(SB), Y12
	VBROADCASTSS cabsONE<>(SB), Y13
	VXORPS Y14, Y14, Y14
	SHRQ $3, CX
	JZ   sdone
sloop:
	VMOVUPS 0(SI), Y0
	VMOVUPS 32(SI), Y1
	VSHUFPS $0x88, Y1, Y0, Y2 // re
	VSHUFPS $0xdd, Y1, Y0, Y3 // im
	VANDPS Y10, Y2, Y2
	VANDPS Y10, Y3, Y3
	VCMPPS $0, Y11, Y2, Y4 // re == inf
	VCMPPS $0, Y11, Y3, Y5 // im == inf
	VBLENDVPS Y4, Y11, Y3, Y3
	VBLENDVPS Y5, Y11, Y2, Y2
	VCMPPS $3, Y2, Y2, Y4 // re NaN
	VCMPPS $3, Y3, Y3, Y5 // im NaN
	VBLENDVPS Y4, Y12, Y3, Y3
	VBLENDVPS Y5, Y12, Y2, Y2
	VMAXPS Y3, Y2, Y6 // l = max(re, im)
	VMINPS Y2, Y3, Y7 // s = min(im, re)
	VCMPPS $0, Y14, Y6, Y4 // l == 0
	VCMPPS $0, Y11, Y7, Y5 // s == inf
	VORPS Y5, Y4, Y4 // no division
	VBLENDVPS Y4, Y14, Y7, Y8 // s, or 0
	VBLENDVPS Y4, Y13, Y6, Y9 // l, or 1
	VDIVPS Y9, Y8, Y8 // r
	VFMADD213PS Y13, Y8, Y8 // r·r + 1
	VSQRTPS Y8, Y8
	VMULPS Y6, Y8, Y8 // √(r·r + 1)·l
	VPERMPD $0xd8, Y8, Y8
	VMOVUPS Y8, 0(DI)
	ADDQ $64, SI
	ADDQ $32, DI
	DECQ CX
	JNZ  sloop
sdone:
	VZEROUPPER
	RET

// func scaledCAbsC128AVX2(d []float64, a []complex128):
// scaledCAbsC64AVX2 for complex128, four a time (the parts split by
// VUNPCKLPD and VUNPCKHPD, in the order 0 2 1 3).
TEXT ·scaledCAbsC128AVX2(SB), NOSPLIT, $0-48
	MOVQ d_base+0(FP), DI
	MOVQ d_len+8(FP), CX
	MOVQ a_base+24(FP), SI
	VBROADCASTSD cabsABS64<>(SB), Y10
	VBROADCASTSD cabsINF64<>(SB), Y11
	VBROADCASTSD cabsNAN64<>(SB), Y12
	VBROADCASTSD cabsONE64<>(SB), Y13
	VXORPD Y14, Y14, Y14
	SHRQ $2, CX
	JZ   ddone
dloop:
	VMOVUPD 0(SI), Y0
	VMOVUPD 32(SI), Y1
	VUNPCKLPD Y1, Y0, Y2 // re
	VUNPCKHPD Y1, Y0, Y3 // im
	VANDPD Y10, Y2, Y2
	VANDPD Y10, Y3, Y3
	VCMPPD $0, Y11, Y2, Y4 // re == inf
	VCMPPD $0, Y11, Y3, Y5 // im == inf
	VBLENDVPD Y4, Y11, Y3, Y3
	VBLENDVPD Y5, Y11, Y2, Y2
	VCMPPD $3, Y2, Y2, Y4 // re NaN
	VCMPPD $3, Y3, Y3, Y5 // im NaN
	VBLENDVPD Y4, Y12, Y3, Y3
	VBLENDVPD Y5, Y12, Y2, Y2
	VMAXPD Y3, Y2, Y6 // l = max(re, im)
	VMINPD Y2, Y3, Y7 // s = min(im, re)
	VCMPPD $0, Y14, Y6, Y4 // l == 0
	VCMPPD $0, Y11, Y7, Y5 // s == inf
	VORPD Y5, Y4, Y4 // no division
	VBLENDVPD Y4, Y14, Y7, Y8 // s, or 0
	VBLENDVPD Y4, Y13, Y6, Y9 // l, or 1
	VDIVPD Y9, Y8, Y8 // r
	VFMADD213PD Y13, Y8, Y8 // r·r + 1
	VSQRTPD Y8, Y8
	VMULPD Y6, Y8, Y8 // √(r·r + 1)·l
	VPERMPD $0xd8, Y8, Y8
	VMOVUPD Y8, 0(DI)
	ADDQ $64, SI
	ADDQ $32, DI
	DECQ CX
	JNZ  dloop
ddone:
	VZEROUPPER
	RET

DATA cabsABS64<>+0(SB)/8, $0x7fffffffffffffff
GLOBL cabsABS64<>(SB), RODATA|NOPTR, $8
DATA cabsINF64<>+0(SB)/8, $0x7ff0000000000000
GLOBL cabsINF64<>(SB), RODATA|NOPTR, $8
DATA cabsNAN64<>+0(SB)/8, $0x7ff8000000000000
GLOBL cabsNAN64<>(SB), RODATA|NOPTR, $8
DATA cabsONE64<>+0(SB)/8, $0x3ff0000000000000
GLOBL cabsONE64<>(SB), RODATA|NOPTR, $8

DATA cabsABS<>+0(SB)/4, $0x7fffffff
GLOBL cabsABS<>(SB), RODATA|NOPTR, $4
DATA cabsINF<>+0(SB)/4, $0x7f800000
GLOBL cabsINF<>(SB), RODATA|NOPTR, $4
DATA cabsNAN<>+0(SB)/4, $0x7fc00000
GLOBL cabsNAN<>(SB), RODATA|NOPTR, $4
DATA cabsONE<>+0(SB)/4, $0x3f800000
GLOBL cabsONE<>(SB), RODATA|NOPTR, $4
