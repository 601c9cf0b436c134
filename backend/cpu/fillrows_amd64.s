//go:build amd64 && !purego

#include "textflag.h"

// func fillRowsAVX2(d, s unsafe.Pointer, rows, rowBytes, step, size int):
// for each of rows rows, the element of size bytes (1, 2, 4 or 8) at s
// (then s+step, s+2*step, …) broadcast over the row's rowBytes bytes (at
// least 32) of d, rows one after another. The last store of a row ends
// at its end and may overlap the one before it with the same bytes.
TEXT ·fillRowsAVX2(SB), NOSPLIT, $0-48
	MOVQ d+0(FP), DI
	MOVQ s+8(FP), SI
	MOVQ rows+16(FP), CX
	MOVQ rowBytes+24(FP), DX
	MOVQ step+32(FP), R8
	MOVQ size+40(FP), R9
	TESTQ CX, CX
	JZ   done
	LEAQ -32(DX), R10 // where the last store of a row starts
row:
	CMPQ R9, $1
	JNE  w2
	VPBROADCASTB (SI), Y0
	JMP  store
w2:
	CMPQ R9, $2
	JNE  w4
	VPBROADCASTW (SI), Y0
	JMP  store
w4:
	CMPQ R9, $4
	JNE  w8
	VPBROADCASTD (SI), Y0
	JMP  store
w8:
	VPBROADCASTQ (SI), Y0
store:
	XORQ AX, AX
loop:
	CMPQ AX, R10
	JGE  last
	VMOVDQU Y0, (DI)(AX*1)
	ADDQ $32, AX
	JMP  loop
last:
	VMOVDQU Y0, (DI)(R10*1)
	ADDQ DX, DI
	ADDQ R8, SI
	DECQ CX
	JNZ  row
done:
	VZEROUPPER
	RET
