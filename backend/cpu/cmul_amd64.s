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

// func cmulC64AVX512(d, a, b []complex64) (nan bool): cmulC64AVX2 with
// AVX-512, eight a time, the first len(d) - len(d)%8 elements. AVX-512
// has no VADDSUBPS: VFMADDSUB213PS with a multiplier of 1 subtracts in
// the even (real) lanes and adds in the odd ones, rounding once as it
// does (p·1 is p exactly, signed zeros included).
TEXT ·cmulC64AVX512(SB), NOSPLIT, $0-73
	MOVQ d_base+0(FP), DI
	MOVQ d_len+8(FP), CX
	MOVQ a_base+24(FP), SI
	MOVQ b_base+48(FP), DX
	KXORW K1, K1, K1            // NaN lanes so far
	MOVL $0x3f800000, AX
	VPBROADCASTD AX, Z6         // 1
	SHRQ $3, CX
	JZ   done
loop:
	VMOVUPS (SI), Z0            // ar ai ...
	VMOVUPS (DX), Z1            // br bi ...
	VMOVSLDUP Z1, Z2            // br br
	VMOVSHDUP Z1, Z3            // bi bi
	VPERMILPS $0xb1, Z0, Z4     // ai ar
	VMULPS Z2, Z0, Z2           // ar·br ai·br
	VMULPS Z3, Z4, Z3           // ai·bi ar·bi
	VFMADDSUB213PS Z3, Z6, Z2   // ar·br - ai·bi, ai·br + ar·bi
	VMOVUPS Z2, (DI)
	VCMPPS $3, Z2, Z2, K2
	KORW K2, K1, K1
	ADDQ $64, SI
	ADDQ $64, DX
	ADDQ $64, DI
	DECQ CX
	JNZ  loop
done:
	KORTESTW K1, K1
	SETNE nan+72(FP)
	VZEROUPPER
	RET

// func cmulC128AVX512(d, a, b []complex128) (nan bool): cmulC64AVX512
// for complex128, four a time, the first len(d) - len(d)%4 elements.
TEXT ·cmulC128AVX512(SB), NOSPLIT, $0-73
	MOVQ d_base+0(FP), DI
	MOVQ d_len+8(FP), CX
	MOVQ a_base+24(FP), SI
	MOVQ b_base+48(FP), DX
	KXORB K1, K1, K1
	MOVQ $0x3ff0000000000000, AX
	VPBROADCASTQ AX, Z6         // 1
	SHRQ $2, CX
	JZ   done
loop:
	VMOVUPD (SI), Z0
	VMOVUPD (DX), Z1
	VMOVDDUP Z1, Z2             // br br
	VPERMILPD $0xff, Z1, Z3     // bi bi
	VPERMILPD $0x55, Z0, Z4     // ai ar
	VMULPD Z2, Z0, Z2
	VMULPD Z3, Z4, Z3
	VFMADDSUB213PD Z3, Z6, Z2
	VMOVUPD Z2, (DI)
	VCMPPD $3, Z2, Z2, K2
	KORB K2, K1, K1
	ADDQ $64, SI
	ADDQ $64, DX
	ADDQ $64, DI
	DECQ CX
	JNZ  loop
done:
	KORTESTB K1, K1
	SETNE nan+72(FP)
	VZEROUPPER
	RET
