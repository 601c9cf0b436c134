//go:build amd64 && !purego

#include "textflag.h"

// func argMaxBytesAVX2(x []byte, flip byte) int: the index of the first
// largest x[i]^flip, as unsigned bytes, for len(x) >= 32 (see argBytes).
// The first pass folds 32 bytes at a time with VPMAXUB, the last 32
// bytes overlapping those before them (the largest does not change);
// the second compares each 32 bytes with that largest in order and stops
// at the first that holds it. The second pass's last 32 bytes overlap
// bytes the pass already found without it, whose bits are clear.
TEXT ·argMaxBytesAVX2(SB), NOSPLIT, $0-40
	MOVQ x_base+0(FP), SI
	MOVQ x_len+8(FP), CX
	MOVBLZX flip+24(FP), AX
	MOVQ AX, X7
	VPBROADCASTB X7, Y7
	VPXOR (SI), Y7, Y0
	MOVQ $32, DX
fold:
	LEAQ 32(DX), BX
	CMPQ BX, CX
	JA   foldTail
	VPXOR (SI)(DX*1), Y7, Y1
	VPMAXUB Y1, Y0, Y0
	MOVQ BX, DX
	JMP  fold
foldTail:
	VPXOR -32(SI)(CX*1), Y7, Y1
	VPMAXUB Y1, Y0, Y0
	VEXTRACTI128 $1, Y0, X1
	VPMAXUB X1, X0, X0
	VPSRLDQ $8, X0, X1
	VPMAXUB X1, X0, X0
	VPSRLDQ $4, X0, X1
	VPMAXUB X1, X0, X0
	VPSRLDQ $2, X0, X1
	VPMAXUB X1, X0, X0
	VPSRLDQ $1, X0, X1
	VPMAXUB X1, X0, X0
	VPBROADCASTB X0, Y0 // the largest, in every byte
	XORQ DX, DX
find:
	LEAQ 32(DX), BX
	CMPQ BX, CX
	JA   findTail
	VPXOR (SI)(DX*1), Y7, Y1
	VPCMPEQB Y0, Y1, Y1
	VPMOVMSKB Y1, AX
	TESTL AX, AX
	JNZ  found
	MOVQ BX, DX
	JMP  find
findTail:
	LEAQ -32(CX), DX
	VPXOR (SI)(DX*1), Y7, Y1
	VPCMPEQB Y0, Y1, Y1
	VPMOVMSKB Y1, AX
found:
	BSFL AX, AX
	ADDQ DX, AX
	MOVQ AX, ret+32(FP)
	VZEROUPPER
	RET
