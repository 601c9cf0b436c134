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

// func fmaDotF32(s float32, a, v *float32, n int) float32
// s carried on with fma(a[p], v[p], s) for p < n, in order: one chain of
// VFMADD231SS (see fmaDot).
TEXT ·fmaDotF32(SB), NOSPLIT, $0-36
	VMOVSS s+0(FP), X0
	MOVQ a+8(FP), SI
	MOVQ v+16(FP), DI
	MOVQ n+24(FP), CX
	XORQ AX, AX
	TESTQ CX, CX
	JLE  done
loop:
	VMOVSS (DI)(AX*4), X1
	VFMADD231SS (SI)(AX*4), X1, X0
	INCQ AX
	CMPQ AX, CX
	JLT  loop
done:
	VMOVSS X0, ret+32(FP)
	RET

// func fmaDotF64(s float64, a, v *float64, n int) float64
// fmaDotF32 for float64: VFMADD231SD.
TEXT ·fmaDotF64(SB), NOSPLIT, $0-40
	VMOVSD s+0(FP), X0
	MOVQ a+8(FP), SI
	MOVQ v+16(FP), DI
	MOVQ n+24(FP), CX
	XORQ AX, AX
	TESTQ CX, CX
	JLE  done
loop:
	VMOVSD (DI)(AX*8), X1
	VFMADD231SD (SI)(AX*8), X1, X0
	INCQ AX
	CMPQ AX, CX
	JLT  loop
done:
	VMOVSD X0, ret+32(FP)
	RET

// func fmaRowF32(d, b *float32, n int, a float32)
// d[j] = fma(a, b[j], d[j]) for j < n: eight at a time (VFMADD231PS),
// then one at a time (see fmaRow).
TEXT ·fmaRowF32(SB), NOSPLIT, $0-28
	MOVQ d+0(FP), DI
	MOVQ b+8(FP), SI
	MOVQ n+16(FP), CX
	VBROADCASTSS a+24(FP), Y0
	XORQ AX, AX
	MOVQ CX, DX
	ANDQ $-8, DX
	JZ   tail
loop8:
	VMOVUPS (DI)(AX*4), Y1
	VFMADD231PS (SI)(AX*4), Y0, Y1
	VMOVUPS Y1, (DI)(AX*4)
	ADDQ $8, AX
	CMPQ AX, DX
	JLT  loop8
tail:
	CMPQ AX, CX
	JGE  done
loop1:
	VMOVSS (DI)(AX*4), X1
	VFMADD231SS (SI)(AX*4), X0, X1
	VMOVSS X1, (DI)(AX*4)
	INCQ AX
	CMPQ AX, CX
	JLT  loop1
done:
	VZEROUPPER
	RET

// func fmaRowF64(d, b *float64, n int, a float64)
// fmaRowF32 for float64: four at a time (VFMADD231PD).
TEXT ·fmaRowF64(SB), NOSPLIT, $0-32
	MOVQ d+0(FP), DI
	MOVQ b+8(FP), SI
	MOVQ n+16(FP), CX
	VBROADCASTSD a+24(FP), Y0
	XORQ AX, AX
	MOVQ CX, DX
	ANDQ $-4, DX
	JZ   tail
loop4:
	VMOVUPD (DI)(AX*8), Y1
	VFMADD231PD (SI)(AX*8), Y0, Y1
	VMOVUPD Y1, (DI)(AX*8)
	ADDQ $4, AX
	CMPQ AX, DX
	JLT  loop4
tail:
	CMPQ AX, CX
	JGE  done
loop1:
	VMOVSD (DI)(AX*8), X1
	VFMADD231SD (SI)(AX*8), X0, X1
	VMOVSD X1, (DI)(AX*8)
	INCQ AX
	CMPQ AX, CX
	JLT  loop1
done:
	VZEROUPPER
	RET
