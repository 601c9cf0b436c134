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

// Constants of the quotients: sign and magnitude masks of float32 and
// float64 parts, the sign of the imaginary parts alone, ones, and (1, -1)
// pairs.
DATA cdivABS32<>+0(SB)/8, $0x7fffffff7fffffff
DATA cdivABS32<>+8(SB)/8, $0x7fffffff7fffffff
DATA cdivABS32<>+16(SB)/8, $0x7fffffff7fffffff
DATA cdivABS32<>+24(SB)/8, $0x7fffffff7fffffff
GLOBL cdivABS32<>(SB), RODATA|NOPTR, $32
DATA cdivIMSIGN32<>+0(SB)/8, $0x8000000000000000
DATA cdivIMSIGN32<>+8(SB)/8, $0x8000000000000000
DATA cdivIMSIGN32<>+16(SB)/8, $0x8000000000000000
DATA cdivIMSIGN32<>+24(SB)/8, $0x8000000000000000
GLOBL cdivIMSIGN32<>(SB), RODATA|NOPTR, $32
DATA cdivONE32<>+0(SB)/8, $0x3f8000003f800000
DATA cdivONE32<>+8(SB)/8, $0x3f8000003f800000
DATA cdivONE32<>+16(SB)/8, $0x3f8000003f800000
DATA cdivONE32<>+24(SB)/8, $0x3f8000003f800000
GLOBL cdivONE32<>(SB), RODATA|NOPTR, $32
DATA cdivPM32<>+0(SB)/8, $0xbf8000003f800000
DATA cdivPM32<>+8(SB)/8, $0xbf8000003f800000
DATA cdivPM32<>+16(SB)/8, $0xbf8000003f800000
DATA cdivPM32<>+24(SB)/8, $0xbf8000003f800000
GLOBL cdivPM32<>(SB), RODATA|NOPTR, $32
DATA cdivABS64<>+0(SB)/8, $0x7fffffffffffffff
DATA cdivABS64<>+8(SB)/8, $0x7fffffffffffffff
DATA cdivABS64<>+16(SB)/8, $0x7fffffffffffffff
DATA cdivABS64<>+24(SB)/8, $0x7fffffffffffffff
GLOBL cdivABS64<>(SB), RODATA|NOPTR, $32
DATA cdivIMSIGN64<>+0(SB)/8, $0
DATA cdivIMSIGN64<>+8(SB)/8, $0x8000000000000000
DATA cdivIMSIGN64<>+16(SB)/8, $0
DATA cdivIMSIGN64<>+24(SB)/8, $0x8000000000000000
GLOBL cdivIMSIGN64<>(SB), RODATA|NOPTR, $32
DATA cdivONE64<>+0(SB)/8, $0x3ff0000000000000
DATA cdivONE64<>+8(SB)/8, $0x3ff0000000000000
DATA cdivONE64<>+16(SB)/8, $0x3ff0000000000000
DATA cdivONE64<>+24(SB)/8, $0x3ff0000000000000
GLOBL cdivONE64<>(SB), RODATA|NOPTR, $32
DATA cdivPM64<>+0(SB)/8, $0x3ff0000000000000
DATA cdivPM64<>+8(SB)/8, $0xbff0000000000000
DATA cdivPM64<>+16(SB)/8, $0x3ff0000000000000
DATA cdivPM64<>+24(SB)/8, $0xbff0000000000000
GLOBL cdivPM64<>(SB), RODATA|NOPTR, $32


// func cdivC64AVX2(d, a, b []complex64) (nan bool): d[i] = a[i]/b[i] for the
// len(d) - len(d)%4 first elements, four a time, as cdivParts computes
// them (Smith's algorithm), each quotient in both lanes of its pair: with
// m = |br| >= |bi|, p = m ? bi : br and q = m ? br : bi, rat = p/q and
// scl = 1/(q + p·rat); where m, (ar + ai·rat, ai - ar·rat)·scl, else
// (ar·rat + ai, ai·rat - ar)·scl (a difference is the sum with the
// subtrahend negated: the same bits). It reports whether some part of a
// result is NaN: the caller redoes those elements (a NaN's payload could
// differ), and those where b is 0 (cdivParts's a/|b| part by part: here
// rat is 0/0).
TEXT ·cdivC64AVX2(SB), NOSPLIT, $0-73
	MOVQ d_base+0(FP), DI
	MOVQ d_len+8(FP), CX
	MOVQ a_base+24(FP), SI
	MOVQ b_base+48(FP), DX
	VXORPS Y15, Y15, Y15 // NaN lanes so far
	SHRQ $2, CX
	JZ   done
loop:
	VMOVUPS (SI), Y0           // ar ai
	VMOVUPS (DX), Y1           // br bi
	VANDPS cdivABS32<>(SB), Y1, Y2 // |br| |bi|
	VMOVSLDUP Y2, Y3               // |br| |br|
	VMOVSHDUP Y2, Y4               // |bi| |bi|
	VCMPPS $13, Y4, Y3, Y5      // m: |br| >= |bi|
	VMOVSLDUP Y1, Y6               // br br
	VMOVSHDUP Y1, Y7               // bi bi
	VBLENDVPS Y5, Y7, Y6, Y8    // p
	VBLENDVPS Y5, Y6, Y7, Y9    // q
	VDIVPS Y9, Y8, Y10          // rat = p/q
	VMULPS Y10, Y8, Y11
	VADDPS Y11, Y9, Y11         // q + p·rat
	VMOVUPS cdivONE32<>(SB), Y12
	VDIVPS Y11, Y12, Y11        // scl
	VPERMILPS $0xb1, Y0, Y12               // ai ar
	VMULPS Y10, Y12, Y13        // ai·rat ar·rat
	VXORPS cdivIMSIGN32<>(SB), Y13, Y13
	VADDPS Y13, Y0, Y13         // m's sums
	VMULPS Y10, Y0, Y14         // ar·rat ai·rat
	VXORPS cdivIMSIGN32<>(SB), Y12, Y12 // ai -ar
	VADDPS Y12, Y14, Y14        // the others'
	VBLENDVPS Y5, Y13, Y14, Y13
	VMULPS Y11, Y13, Y13
	VMOVUPS Y13, (DI)
	VCMPPS $3, Y13, Y13, Y5
	VORPS Y5, Y15, Y15
	ADDQ $32, SI
	ADDQ $32, DX
	ADDQ $32, DI
	DECQ CX
	JNZ  loop
done:
	VMOVMSKPS Y15, AX
	TESTL AX, AX
	SETNE nan+72(FP)
	VZEROUPPER
	RET

// func cdivC128AVX2(d, a, b []complex128) (nan bool): d[i] = a[i]/b[i] for the
// len(d) - len(d)%2 first elements, two a time, as cdivParts computes
// them (Smith's algorithm), each quotient in both lanes of its pair: with
// m = |br| >= |bi|, p = m ? bi : br and q = m ? br : bi, rat = p/q and
// scl = 1/(q + p·rat); where m, (ar + ai·rat, ai - ar·rat)·scl, else
// (ar·rat + ai, ai·rat - ar)·scl (a difference is the sum with the
// subtrahend negated: the same bits). It reports whether some part of a
// result is NaN: the caller redoes those elements (a NaN's payload could
// differ), and those where b is 0 (cdivParts's a/|b| part by part: here
// rat is 0/0).
TEXT ·cdivC128AVX2(SB), NOSPLIT, $0-73
	MOVQ d_base+0(FP), DI
	MOVQ d_len+8(FP), CX
	MOVQ a_base+24(FP), SI
	MOVQ b_base+48(FP), DX
	VXORPD Y15, Y15, Y15 // NaN lanes so far
	SHRQ $1, CX
	JZ   done
loop:
	VMOVUPD (SI), Y0           // ar ai
	VMOVUPD (DX), Y1           // br bi
	VANDPD cdivABS64<>(SB), Y1, Y2 // |br| |bi|
	VMOVDDUP Y2, Y3               // |br| |br|
	VPERMILPD $0xf, Y2, Y4               // |bi| |bi|
	VCMPPD $13, Y4, Y3, Y5      // m: |br| >= |bi|
	VMOVDDUP Y1, Y6               // br br
	VPERMILPD $0xf, Y1, Y7               // bi bi
	VBLENDVPD Y5, Y7, Y6, Y8    // p
	VBLENDVPD Y5, Y6, Y7, Y9    // q
	VDIVPD Y9, Y8, Y10          // rat = p/q
	VMULPD Y10, Y8, Y11
	VADDPD Y11, Y9, Y11         // q + p·rat
	VMOVUPD cdivONE64<>(SB), Y12
	VDIVPD Y11, Y12, Y11        // scl
	VPERMILPD $0x5, Y0, Y12               // ai ar
	VMULPD Y10, Y12, Y13        // ai·rat ar·rat
	VXORPD cdivIMSIGN64<>(SB), Y13, Y13
	VADDPD Y13, Y0, Y13         // m's sums
	VMULPD Y10, Y0, Y14         // ar·rat ai·rat
	VXORPD cdivIMSIGN64<>(SB), Y12, Y12 // ai -ar
	VADDPD Y12, Y14, Y14        // the others'
	VBLENDVPD Y5, Y13, Y14, Y13
	VMULPD Y11, Y13, Y13
	VMOVUPD Y13, (DI)
	VCMPPD $3, Y13, Y13, Y5
	VORPD Y5, Y15, Y15
	ADDQ $32, SI
	ADDQ $32, DX
	ADDQ $32, DI
	DECQ CX
	JNZ  loop
done:
	VMOVMSKPD Y15, AX
	TESTL AX, AX
	SETNE nan+72(FP)
	VZEROUPPER
	RET

// func crecipC64AVX2(d, a []complex64) (nan bool): d[i] = 1/a[i] for the len(d) -
// len(d)%4 first elements, four a time, as crecipParts computes them:
// with m = |i| <= |r|, p = m ? i : r and s = m ? r : i, q = p/s and
// e = s + p·q; where m, (1, -q)/e, else (q, -1)/e (-q/e is -(q/e): the
// same bits). It reports whether some part of a result is NaN, as
// cdiv's loops.
TEXT ·crecipC64AVX2(SB), NOSPLIT, $0-49
	MOVQ d_base+0(FP), DI
	MOVQ d_len+8(FP), CX
	MOVQ a_base+24(FP), SI
	VXORPS Y15, Y15, Y15 // NaN lanes so far
	VMOVUPS cdivPM32<>(SB), Y13 // 1 -1
	SHRQ $2, CX
	JZ   done
loop:
	VMOVUPS (SI), Y0            // r i
	VANDPS cdivABS32<>(SB), Y0, Y2 // |r| |i|
	VMOVSLDUP Y2, Y3               // |r| |r|
	VMOVSHDUP Y2, Y4               // |i| |i|
	VCMPPS $2, Y3, Y4, Y5       // m: |i| <= |r|
	VMOVSLDUP Y0, Y6               // r r
	VMOVSHDUP Y0, Y7               // i i
	VBLENDVPS Y5, Y7, Y6, Y8    // p
	VBLENDVPS Y5, Y6, Y7, Y9    // s
	VDIVPS Y9, Y8, Y10          // q = p/s
	VMULPS Y10, Y8, Y11
	VADDPS Y11, Y9, Y11         // e = s + p·q
	VXORPS cdivIMSIGN32<>(SB), Y10, Y12 // q -q
	VBLENDPS $0xaa, Y12, Y13, Y14 // 1 -q
	VBLENDPS $0xaa, Y13, Y12, Y8  // q -1
	VBLENDVPS Y5, Y14, Y8, Y14
	VDIVPS Y11, Y14, Y14
	VMOVUPS Y14, (DI)
	VCMPPS $3, Y14, Y14, Y5
	VORPS Y5, Y15, Y15
	ADDQ $32, SI
	ADDQ $32, DI
	DECQ CX
	JNZ  loop
done:
	VMOVMSKPS Y15, AX
	TESTL AX, AX
	SETNE nan+48(FP)
	VZEROUPPER
	RET

// func crecipC128AVX2(d, a []complex128) (nan bool): d[i] = 1/a[i] for the len(d) -
// len(d)%2 first elements, two a time, as crecipParts computes them:
// with m = |i| <= |r|, p = m ? i : r and s = m ? r : i, q = p/s and
// e = s + p·q; where m, (1, -q)/e, else (q, -1)/e (-q/e is -(q/e): the
// same bits). It reports whether some part of a result is NaN, as
// cdiv's loops.
TEXT ·crecipC128AVX2(SB), NOSPLIT, $0-49
	MOVQ d_base+0(FP), DI
	MOVQ d_len+8(FP), CX
	MOVQ a_base+24(FP), SI
	VXORPD Y15, Y15, Y15 // NaN lanes so far
	VMOVUPD cdivPM64<>(SB), Y13 // 1 -1
	SHRQ $1, CX
	JZ   done
loop:
	VMOVUPD (SI), Y0            // r i
	VANDPD cdivABS64<>(SB), Y0, Y2 // |r| |i|
	VMOVDDUP Y2, Y3               // |r| |r|
	VPERMILPD $0xf, Y2, Y4               // |i| |i|
	VCMPPD $2, Y3, Y4, Y5       // m: |i| <= |r|
	VMOVDDUP Y0, Y6               // r r
	VPERMILPD $0xf, Y0, Y7               // i i
	VBLENDVPD Y5, Y7, Y6, Y8    // p
	VBLENDVPD Y5, Y6, Y7, Y9    // s
	VDIVPD Y9, Y8, Y10          // q = p/s
	VMULPD Y10, Y8, Y11
	VADDPD Y11, Y9, Y11         // e = s + p·q
	VXORPD cdivIMSIGN64<>(SB), Y10, Y12 // q -q
	VBLENDPD $0xa, Y12, Y13, Y14 // 1 -q
	VBLENDPD $0xa, Y13, Y12, Y8  // q -1
	VBLENDVPD Y5, Y14, Y8, Y14
	VDIVPD Y11, Y14, Y14
	VMOVUPD Y14, (DI)
	VCMPPD $3, Y14, Y14, Y5
	VORPD Y5, Y15, Y15
	ADDQ $32, SI
	ADDQ $32, DI
	DECQ CX
	JNZ  loop
done:
	VMOVMSKPD Y15, AX
	TESTL AX, AX
	SETNE nan+48(FP)
	VZEROUPPER
	RET
