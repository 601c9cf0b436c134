//go:build amd64 && !purego

#include "textflag.h"

// func mul64AVX512(d, a, b unsafe.Pointer, n int)
//
//	d[i] = a[i] * b[i] (64-bit, wrapping), n a multiple of 8: VPMULLQ
//	(AVX-512 DQ), eight lanes an instruction, where AVX2 takes three
//	32-bit multiplies and four more steps for four (mul64AVX2).
TEXT ·mul64AVX512(SB), NOSPLIT, $0-32
	MOVQ d+0(FP), DI
	MOVQ a+8(FP), SI
	MOVQ b+16(FP), DX
	MOVQ n+24(FP), CX
	XORQ AX, AX
	MOVQ CX, BX
	SUBQ $32, BX
	JL   single
loop:
	VMOVDQU64 (SI)(AX*8), Z0
	VMOVDQU64 64(SI)(AX*8), Z1
	VMOVDQU64 128(SI)(AX*8), Z2
	VMOVDQU64 192(SI)(AX*8), Z3
	VPMULLQ (DX)(AX*8), Z0, Z0
	VPMULLQ 64(DX)(AX*8), Z1, Z1
	VPMULLQ 128(DX)(AX*8), Z2, Z2
	VPMULLQ 192(DX)(AX*8), Z3, Z3
	VMOVDQU64 Z0, (DI)(AX*8)
	VMOVDQU64 Z1, 64(DI)(AX*8)
	VMOVDQU64 Z2, 128(DI)(AX*8)
	VMOVDQU64 Z3, 192(DI)(AX*8)
	ADDQ $32, AX
	CMPQ AX, BX
	JLE  loop
single:
	CMPQ AX, CX
	JGE  done
loop1:
	VMOVDQU64 (SI)(AX*8), Z0
	VPMULLQ (DX)(AX*8), Z0, Z0
	VMOVDQU64 Z0, (DI)(AX*8)
	ADDQ $8, AX
	CMPQ AX, CX
	JL   loop1
done:
	VZEROUPPER
	RET

// func mul8AVX512(d, a, b unsafe.Pointer, n int)
//
//	d[i] = a[i] * b[i] (8-bit, wrapping), n a multiple of 64 (AVX-512
//	BW): the even bytes' product is the low byte of the 16-bit product
//	of the words, the odd bytes' the low byte of the product of the
//	words shifted right by 8, shifted back; VPTERNLOGQ takes each byte
//	from its product (mask 0x00ff in Z31).
TEXT ·mul8AVX512(SB), NOSPLIT, $0-32
	MOVQ d+0(FP), DI
	MOVQ a+8(FP), SI
	MOVQ b+16(FP), DX
	MOVQ n+24(FP), CX
	MOVQ $0x00ff00ff00ff00ff, R11
	VPBROADCASTQ R11, Z31
	XORQ AX, AX
	MOVQ CX, BX
	SUBQ $128, BX
	JL   single
loop:
	VMOVDQU64 (SI)(AX*1), Z0
	VMOVDQU64 (DX)(AX*1), Z1
	VMOVDQU64 64(SI)(AX*1), Z4
	VMOVDQU64 64(DX)(AX*1), Z5
	VPMULLW Z1, Z0, Z2
	VPMULLW Z5, Z4, Z6
	VPSRLW $8, Z0, Z0
	VPSRLW $8, Z1, Z1
	VPSRLW $8, Z4, Z4
	VPSRLW $8, Z5, Z5
	VPMULLW Z1, Z0, Z0
	VPMULLW Z5, Z4, Z4
	VPSLLW $8, Z0, Z0
	VPSLLW $8, Z4, Z4
	VPTERNLOGQ $0xD8, Z31, Z2, Z0 // Z0 = Z31 ? Z2 : Z0, bit by bit
	VPTERNLOGQ $0xD8, Z31, Z6, Z4
	VMOVDQU64 Z0, (DI)(AX*1)
	VMOVDQU64 Z4, 64(DI)(AX*1)
	ADDQ $128, AX
	CMPQ AX, BX
	JLE  loop
single:
	CMPQ AX, CX
	JGE  done
loop1:
	VMOVDQU64 (SI)(AX*1), Z0
	VMOVDQU64 (DX)(AX*1), Z1
	VPMULLW Z1, Z0, Z2
	VPSRLW $8, Z0, Z0
	VPSRLW $8, Z1, Z1
	VPMULLW Z1, Z0, Z0
	VPSLLW $8, Z0, Z0
	VPTERNLOGQ $0xD8, Z31, Z2, Z0
	VMOVDQU64 Z0, (DI)(AX*1)
	ADDQ $64, AX
	CMPQ AX, CX
	JL   loop1
done:
	VZEROUPPER
	RET
