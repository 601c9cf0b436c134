//go:build amd64 && !purego

#include "textflag.h"

// func cpuHasF16C() bool: CPUID.1:ECX has F16C (29), AVX (28) and OSXSAVE
// (27), and the OS saves the YMM state.
TEXT ·cpuHasF16C(SB), NOSPLIT, $0-1
	MOVL $1, AX
	XORL CX, CX
	CPUID
	ANDL $0x38000000, CX
	CMPL CX, $0x38000000
	JNE  no
	XORL CX, CX
	XGETBV
	ANDL $6, AX
	CMPL AX, $6
	JNE  no
	MOVB $1, ret+0(FP)
	RET
no:
	MOVB $0, ret+0(FP)
	RET

// func cpuHasAVX512Features(ebx uint32) bool: CPUID.7:EBX has every bit
// of ebx (AVX512F is bit 16, DQ 17, BW 30, VL 31), and the OS saves the
// opmask, ZMM and YMM state (XCR0 bits 1, 2, 5, 6, 7).
TEXT ·cpuHasAVX512Features(SB), NOSPLIT, $0-9
	MOVL $1, AX
	XORL CX, CX
	CPUID
	ANDL $0x08000000, CX // OSXSAVE
	JZ   no
	XORL CX, CX
	XGETBV
	ANDL $0xE6, AX
	CMPL AX, $0xE6
	JNE  no
	MOVL $7, AX
	XORL CX, CX
	CPUID
	MOVL ebx+0(FP), DX
	ANDL DX, BX
	CMPL BX, DX
	JNE  no
	MOVB $1, ret+8(FP)
	RET
no:
	MOVB $0, ret+8(FP)
	RET
