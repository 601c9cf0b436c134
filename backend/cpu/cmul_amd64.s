//go:build amd64 && !purego

#include "textflag.h"

// func cmulC64AVX2(d, a, b []complex64) (nan bool): d[i] = a[i]·b[i] for
// the len(d) - len(d)%4 first elements, four a time, as cmulParts
// computes them: re = ar·br - ai·bi, im = ai·br + ar·bi, each product
// rounded on its own (cmulParts adds ar·bi + ai·br: the same sum, as
// addition commutes). It reports whether some part of a result is NaN:
// the caller redoes those elements (a NaN's payload could differ).
TEXT ·cmulC64AVX2(SB), NOSPLIT, $0-73
	MOVQ d_base+0(FP), DI
	MOVQ d_len+8(FP), CX
	MOVQ a_base+24(FP), SI
	MOVQ b_base+48(FP), DX
	VXORPS Y7, Y7, Y7 // NaN lanes so far
	SHRQ $2, CX
	JZ   done
loop:
	VMOVUPS (SI), Y0            // ar ai ...
	VMOVUPS (DX), Y1            // br bi ...
	VMOVSLDUP Y1, Y2            // br br
	VMOVSHDUP Y1, Y3            // bi bi
	VPERMILPS $0xb1, Y0, Y4     // ai ar
	VMULPS Y2, Y0, Y2           // ar·br ai·br
	VMULPS Y3, Y4, Y3           // ai·bi ar·bi
	VADDSUBPS Y3, Y2, Y2        // ar·br - ai·bi, ai·br + ar·bi
	VMOVUPS Y2, (DI)
	VCMPPS $3, Y2, Y2, Y5
	VORPS Y5, Y7, Y7
	ADDQ $32, SI
	ADDQ $32, DX
	ADDQ $32, DI
	DECQ CX
	JNZ  loop
done:
	VMOVMSKPS Y7, AX
	TESTL AX, AX
	SETNE nan+72(FP)
	VZEROUPPER
	RET

// func cmulC128AVX2(d, a, b []complex128) (nan bool): cmulC64AVX2 for
// complex128, two a time, the first len(d) - len(d)%2 elements.
TEXT ·cmulC128AVX2(SB), NOSPLIT, $0-73
	MOVQ d_base+0(FP), DI
	MOVQ d_len+8(FP), CX
	MOVQ a_base+24(FP), SI
	MOVQ b_base+48(FP), DX
	VXORPD Y7, Y7, Y7
	SHRQ $1, CX
	JZ   done
loop:
	VMOVUPD (SI), Y0
	VMOVUPD (DX), Y1
	VMOVDDUP Y1, Y2             // br br
	VPERMILPD $0xf, Y1, Y3      // bi bi
	VPERMILPD $0x5, Y0, Y4      // ai ar
	VMULPD Y2, Y0, Y2
	VMULPD Y3, Y4, Y3
	VADDSUBPD Y3, Y2, Y2
	VMOVUPD Y2, (DI)
	VCMPPD $3, Y2, Y2, Y5
	VORPD Y5, Y7, Y7
	ADDQ $32, SI
	ADDQ $32, DX
	ADDQ $32, DI
	DECQ CX
	JNZ  loop
done:
	VMOVMSKPD Y7, AX
	TESTL AX, AX
	SETNE nan+72(FP)
	VZEROUPPER
	RET
