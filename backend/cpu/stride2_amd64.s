//go:build amd64 && !purego

#include "textflag.h"

DATA lowBytes<>+0(SB)/8, $0x00ff00ff00ff00ff
GLOBL lowBytes<>(SB), RODATA|NOPTR, $8
DATA lowWords<>+0(SB)/8, $0x0000ffff0000ffff
GLOBL lowWords<>(SB), RODATA|NOPTR, $8

// The loops below set d[i] = s[2i] for i < n (a multiple of the
// elements one iteration stores), reading s[0 : 2n]: each iteration
// loads 64 bytes of s and stores the even elements, 32 bytes.

// func even1AVX2(d, s unsafe.Pointer, n int): 1-byte elements, n%32 == 0.
TEXT ·even1AVX2(SB), NOSPLIT, $0-24
	MOVQ d+0(FP), DI
	MOVQ s+8(FP), SI
	MOVQ n+16(FP), CX
	VPBROADCASTQ lowBytes<>(SB), Y15
	SHRQ $5, CX
	JZ   done1
loop1:
	VPAND (SI), Y15, Y0
	VPAND 32(SI), Y15, Y1
	VPACKUSWB Y1, Y0, Y0
	VPERMQ $0xd8, Y0, Y0
	VMOVDQU Y0, (DI)
	ADDQ $64, SI
	ADDQ $32, DI
	DECQ CX
	JNZ  loop1
done1:
	VZEROUPPER
	RET

// func even2AVX2(d, s unsafe.Pointer, n int): 2-byte elements, n%16 == 0.
TEXT ·even2AVX2(SB), NOSPLIT, $0-24
	MOVQ d+0(FP), DI
	MOVQ s+8(FP), SI
	MOVQ n+16(FP), CX
	VPBROADCASTQ lowWords<>(SB), Y15
	SHRQ $4, CX
	JZ   done2
loop2:
	VPAND (SI), Y15, Y0
	VPAND 32(SI), Y15, Y1
	VPACKUSDW Y1, Y0, Y0
	VPERMQ $0xd8, Y0, Y0
	VMOVDQU Y0, (DI)
	ADDQ $64, SI
	ADDQ $32, DI
	DECQ CX
	JNZ  loop2
done2:
	VZEROUPPER
	RET

// func even4AVX2(d, s unsafe.Pointer, n int): 4-byte elements, n%8 == 0.
TEXT ·even4AVX2(SB), NOSPLIT, $0-24
	MOVQ d+0(FP), DI
	MOVQ s+8(FP), SI
	MOVQ n+16(FP), CX
	SHRQ $3, CX
	JZ   done4
loop4:
	VMOVDQU (SI), Y0
	VMOVDQU 32(SI), Y1
	VSHUFPS $0x88, Y1, Y0, Y0 // s0 s2 s8 s10 | s4 s6 s12 s14
	VPERMQ $0xd8, Y0, Y0       // s0 s2 s4 s6 s8 s10 s12 s14
	VMOVDQU Y0, (DI)
	ADDQ $64, SI
	ADDQ $32, DI
	DECQ CX
	JNZ  loop4
done4:
	VZEROUPPER
	RET

// func even8AVX2(d, s unsafe.Pointer, n int): 8-byte elements, n%4 == 0.
TEXT ·even8AVX2(SB), NOSPLIT, $0-24
	MOVQ d+0(FP), DI
	MOVQ s+8(FP), SI
	MOVQ n+16(FP), CX
	SHRQ $2, CX
	JZ   done8
loop8:
	VMOVDQU (SI), Y0
	VMOVDQU 32(SI), Y1
	VPUNPCKLQDQ Y1, Y0, Y0 // s0 s4 | s2 s6
	VPERMQ $0xd8, Y0, Y0   // s0 s2 s4 s6
	VMOVDQU Y0, (DI)
	ADDQ $64, SI
	ADDQ $32, DI
	DECQ CX
	JNZ  loop8
done8:
	VZEROUPPER
	RET
