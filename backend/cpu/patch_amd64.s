//go:build amd64 && !purego

#include "textflag.h"

// The partition of libmPatch (simd_libm.go) with AVX-512: b points to
// lo, hi, safe, nlo, nhi, -max, max (float32 or float64 each). For each
// element y of a (whose length is a multiple of 16 or 8): t = y inside
// [lo, hi], else safe; outside, the bit of y's place set in below where
// -max <= y < nlo, in above where nhi < y <= max, else (NaN and ±Inf
// too) y and its place appended to x and at. Returns how many were
// appended. A compressed vector is stored whole at x+n: n never passes
// the place of the vector's first element, so the store stays inside x.

// func patchArgsF32AVX512(t, x []float32, at []int32, below, above []byte, a []float32, b *float32) int
TEXT ·patchArgsF32AVX512(SB), NOSPLIT, $0-160
	MOVQ t_base+0(FP), DI
	MOVQ x_base+24(FP), SI
	MOVQ at_base+48(FP), R8
	MOVQ below_base+72(FP), R11
	MOVQ above_base+96(FP), R12
	MOVQ a_base+120(FP), R9
	MOVQ a_len+128(FP), CX
	MOVQ b+144(FP), R10
	VBROADCASTSS 0(R10), Z20 // lo
	VBROADCASTSS 4(R10), Z21 // hi
	VBROADCASTSS 8(R10), Z22 // safe
	VBROADCASTSS 12(R10), Z23 // nlo
	VBROADCASTSS 16(R10), Z24 // nhi
	VBROADCASTSS 20(R10), Z27 // -max
	VBROADCASTSS 24(R10), Z28 // max
	VMOVDQU32 patchIota<>(SB), Z25 // the places of the vector's elements
	MOVL $16, AX
	VPBROADCASTD AX, Z26
	XORQ BX, BX // element
	XORQ DX, DX // appended
loop32:
	CMPQ BX, CX
	JAE  done32
	VMOVUPS (R9)(BX*4), Z0
	VCMPPS $13, Z20, Z0, K1 // y >= lo (false for NaN)
	VCMPPS $2, Z21, Z0, K1, K1 // and y <= hi
	KNOTW K1, K2 // outside
	VMOVAPS Z0, Z1
	VMOVAPS Z22, K2, Z1
	VMOVUPS Z1, (DI)(BX*4)
	VCMPPS $1, Z23, Z0, K2, K3 // outside, y < nlo
	VCMPPS $13, Z27, Z0, K3, K3 // and y >= -max
	VCMPPS $14, Z24, Z0, K2, K4 // outside, y > nhi
	VCMPPS $2, Z28, Z0, K4, K4 // and y <= max
	MOVQ BX, AX
	SHRQ $3, AX
	KMOVW K3, (R11)(AX*1)
	KMOVW K4, (R12)(AX*1)
	KORW K3, K4, K3
	KANDNW K2, K3, K5 // outside, neither
	KORTESTW K5, K5
	JZ   next32 // none: the common case, off the dependency on DX
	VCOMPRESSPS Z0, K5, Z2
	VMOVUPS Z2, (SI)(DX*4)
	VPCOMPRESSD Z25, K5, Z3
	VMOVDQU32 Z3, (R8)(DX*4)
	KMOVW K5, AX
	POPCNTL AX, AX
	ADDQ AX, DX
next32:
	VPADDD Z26, Z25, Z25
	ADDQ $16, BX
	JMP  loop32
done32:
	MOVQ DX, ret+152(FP)
	VZEROUPPER
	RET

// func patchArgsF64AVX512(t, x []float64, at []int32, below, above []byte, a []float64, b *float64) int
TEXT ·patchArgsF64AVX512(SB), NOSPLIT, $0-160
	MOVQ t_base+0(FP), DI
	MOVQ x_base+24(FP), SI
	MOVQ at_base+48(FP), R8
	MOVQ below_base+72(FP), R11
	MOVQ above_base+96(FP), R12
	MOVQ a_base+120(FP), R9
	MOVQ a_len+128(FP), CX
	MOVQ b+144(FP), R10
	VBROADCASTSD 0(R10), Z20 // lo
	VBROADCASTSD 8(R10), Z21 // hi
	VBROADCASTSD 16(R10), Z22 // safe
	VBROADCASTSD 24(R10), Z23 // nlo
	VBROADCASTSD 32(R10), Z24 // nhi
	VBROADCASTSD 40(R10), Z27 // -max
	VBROADCASTSD 48(R10), Z28 // max
	VMOVDQU32 patchIota<>(SB), Y25
	MOVL $8, AX
	VPBROADCASTD AX, Y26
	XORQ BX, BX
	XORQ DX, DX
loop64:
	CMPQ BX, CX
	JAE  done64
	VMOVUPD (R9)(BX*8), Z0
	VCMPPD $13, Z20, Z0, K1
	VCMPPD $2, Z21, Z0, K1, K1
	KNOTB K1, K2
	VMOVAPD Z0, Z1
	VMOVAPD Z22, K2, Z1
	VMOVUPD Z1, (DI)(BX*8)
	VCMPPD $1, Z23, Z0, K2, K3
	VCMPPD $13, Z27, Z0, K3, K3
	VCMPPD $14, Z24, Z0, K2, K4
	VCMPPD $2, Z28, Z0, K4, K4
	MOVQ BX, AX
	SHRQ $3, AX
	KMOVB K3, (R11)(AX*1)
	KMOVB K4, (R12)(AX*1)
	KORB K3, K4, K3
	KANDNB K2, K3, K5
	KORTESTB K5, K5
	JZ   next64
	VCOMPRESSPD Z0, K5, Z2
	VMOVUPD Z2, (SI)(DX*8)
	VPCOMPRESSD Y25, K5, Y3
	VMOVDQU32 Y3, (R8)(DX*4)
	KMOVB K5, AX
	POPCNTL AX, AX
	ADDQ AX, DX
next64:
	VPADDD Y26, Y25, Y25
	ADDQ $8, BX
	JMP  loop64
done64:
	MOVQ DX, ret+152(FP)
	VZEROUPPER
	RET

// func patchConstF32AVX512(d []float32, m []byte, v float32): d[i] = v
// where bit i of m is set (len(d) a multiple of 16).
TEXT ·patchConstF32AVX512(SB), NOSPLIT, $0-52
	MOVQ d_base+0(FP), DI
	MOVQ d_len+8(FP), CX
	MOVQ m_base+24(FP), R11
	VBROADCASTSS v+48(FP), Z0
	XORQ BX, BX
c32:
	CMPQ BX, CX
	JAE  cdone32
	MOVQ BX, AX
	SHRQ $3, AX
	KMOVW (R11)(AX*1), K1
	VMOVUPS Z0, K1, (DI)(BX*4)
	ADDQ $16, BX
	JMP  c32
cdone32:
	VZEROUPPER
	RET

// func patchConstF64AVX512(d []float64, m []byte, v float64)
TEXT ·patchConstF64AVX512(SB), NOSPLIT, $0-56
	MOVQ d_base+0(FP), DI
	MOVQ d_len+8(FP), CX
	MOVQ m_base+24(FP), R11
	VBROADCASTSD v+48(FP), Z0
	XORQ BX, BX
c64:
	CMPQ BX, CX
	JAE  cdone64
	MOVQ BX, AX
	SHRQ $3, AX
	KMOVB (R11)(AX*1), K1
	VMOVUPD Z0, K1, (DI)(BX*8)
	ADDQ $8, BX
	JMP  c64
cdone64:
	VZEROUPPER
	RET

DATA patchIota<>+0(SB)/8, $0x0000000100000000
DATA patchIota<>+8(SB)/8, $0x0000000300000002
DATA patchIota<>+16(SB)/8, $0x0000000500000004
DATA patchIota<>+24(SB)/8, $0x0000000700000006
DATA patchIota<>+32(SB)/8, $0x0000000900000008
DATA patchIota<>+40(SB)/8, $0x0000000b0000000a
DATA patchIota<>+48(SB)/8, $0x0000000d0000000c
DATA patchIota<>+56(SB)/8, $0x0000000f0000000e
GLOBL patchIota<>(SB), RODATA|NOPTR, $64
