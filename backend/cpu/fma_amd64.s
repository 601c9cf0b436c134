//go:build amd64 && !purego

#include "textflag.h"

// func fmaDot4F32(s *[4]float32, a *float32, lda int, k int, v *float32)
// s[r] = the sum over p < k of fma(a[r*lda+p], v[p], ·) from zero, in
// order of p, for r < 4: four chains of VFMADD231SS (see fmaDot4).
TEXT ·fmaDot4F32(SB), NOSPLIT, $0-40
	MOVQ s+0(FP), DX
	MOVQ a+8(FP), SI
	MOVQ lda+16(FP), BX
	SHLQ $2, BX
	MOVQ k+24(FP), CX
	MOVQ v+32(FP), DI
	LEAQ (SI)(BX*1), R8
	LEAQ (R8)(BX*1), R9
	LEAQ (R9)(BX*1), R10
	VXORPS X0, X0, X0
	VXORPS X1, X1, X1
	VXORPS X2, X2, X2
	VXORPS X3, X3, X3
	XORQ AX, AX
	TESTQ CX, CX
	JLE  done
loop:
	VMOVSS (DI)(AX*4), X4
	VFMADD231SS (SI)(AX*4), X4, X0
	VFMADD231SS (R8)(AX*4), X4, X1
	VFMADD231SS (R9)(AX*4), X4, X2
	VFMADD231SS (R10)(AX*4), X4, X3
	INCQ AX
	CMPQ AX, CX
	JLT  loop
done:
	VMOVSS X0, 0(DX)
	VMOVSS X1, 4(DX)
	VMOVSS X2, 8(DX)
	VMOVSS X3, 12(DX)
	RET

// func fmaDot4F64(s *[4]float64, a *float64, lda int, k int, v *float64)
// fmaDot4F32 for float64: VFMADD231SD.
TEXT ·fmaDot4F64(SB), NOSPLIT, $0-40
	MOVQ s+0(FP), DX
	MOVQ a+8(FP), SI
	MOVQ lda+16(FP), BX
	SHLQ $3, BX
	MOVQ k+24(FP), CX
	MOVQ v+32(FP), DI
	LEAQ (SI)(BX*1), R8
	LEAQ (R8)(BX*1), R9
	LEAQ (R9)(BX*1), R10
	VXORPD X0, X0, X0
	VXORPD X1, X1, X1
	VXORPD X2, X2, X2
	VXORPD X3, X3, X3
	XORQ AX, AX
	TESTQ CX, CX
	JLE  done
loop:
	VMOVSD (DI)(AX*8), X4
	VFMADD231SD (SI)(AX*8), X4, X0
	VFMADD231SD (R8)(AX*8), X4, X1
	VFMADD231SD (R9)(AX*8), X4, X2
	VFMADD231SD (R10)(AX*8), X4, X3
	INCQ AX
	CMPQ AX, CX
	JLT  loop
done:
	VMOVSD X0, 0(DX)
	VMOVSD X1, 8(DX)
	VMOVSD X2, 16(DX)
	VMOVSD X3, 24(DX)
	RET
