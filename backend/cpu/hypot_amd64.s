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
