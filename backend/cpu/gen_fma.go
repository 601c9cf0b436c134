//go:build ignore

// gen_fma writes fma_amd64.s: the loops of fused multiply-adds that the
// Go matrix products call where the CPU has FMA3 (fma.go, fma_amd64.go),
// one body each for float32 (SS, PS: eight a register) and float64 (SD,
// PD: four):
//
//	fmaDot4F32/F64: four sums s[r] = fma(a[r*lda+p], v[p], s[r]) from 0,
//	               p in order, interleaved
//	fmaDotF32/F64:  one such sum carried on from s
//	fmaRowF32/F64:  d[j] = fma(a, b[j], d[j]), a register at a time,
//	               then one at a time
//	fmaLanesF32/F64: the 32 sums of a long dot (backend.DotLanes),
//	               s[l] = fma(a[p], v[p], s[l]) for p ≡ l (mod 32), in
//	               order of p: 4 (float32) or 8 (float64) registers of
//	               chains
//
// Each step is VFMADD231 of its form: the single rounding fmaT defines.
// Run it with go generate.
package main

import (
	"bytes"
	"fmt"
	"log"
	"os"
	"strings"
)

// A form is one element type's instructions.
type form struct {
	name  string // F32, F64
	typ   string // float32, float64
	size  int    // bytes of an element
	s, p  string // scalar and packed suffixes: SS, PS or SD, PD
	bcast string // VBROADCASTSS, VBROADCASTSD
	xor   string // VXORPS, VXORPD
}

var forms = []form{
	{"F32", "float32", 4, "SS", "PS", "VBROADCASTSS", "VXORPS"},
	{"F64", "float64", 8, "SD", "PD", "VBROADCASTSD", "VXORPD"},
}

var b bytes.Buffer

// emit writes one body with its form's names in place of _SIZE_, _S_,
// _P_, _TYP_, _NAME_, _BCAST_, _XOR_, _LANES_ (elements of a Y register),
// _MASK_ (-_LANES_), _SHIFT_ (log2 _SIZE_) and its frame sizes.
func emit(f form, body string) {
	r := strings.NewReplacer("_SIZE_", fmt.Sprint(f.size), "_S_", f.s, "_P_", f.p, "_TYP_", f.typ, "_NAME_", f.name,
		"_BCAST_", f.bcast, "_XOR_", f.xor, "_LANES_", fmt.Sprint(32/f.size), "_MASK_", fmt.Sprint(-32/f.size),
		"_SHIFT_", fmt.Sprint(map[int]int{4: 2, 8: 3}[f.size]), "_ROWFRAME_", fmt.Sprint(24+f.size),
		"_DOTFRAME_", fmt.Sprint(32+f.size))
	b.WriteString(r.Replace(body))
}

const dot4 = `
// func fmaDot4_NAME_(s *[4]_TYP_, a *_TYP_, lda int, k int, v *_TYP_)
// s[r] = the sum over p < k of fma(a[r*lda+p], v[p], ·) from zero, in
// order of p, for r < 4: four chains of VFMADD231_S_ (see fmaDot4).
TEXT ·fmaDot4_NAME_(SB), NOSPLIT, $0-40
	MOVQ s+0(FP), DX
	MOVQ a+8(FP), SI
	MOVQ lda+16(FP), BX
	SHLQ $_SHIFT_, BX
	MOVQ k+24(FP), CX
	MOVQ v+32(FP), DI
	LEAQ (SI)(BX*1), R8
	LEAQ (R8)(BX*1), R9
	LEAQ (R9)(BX*1), R10
	_XOR_ X0, X0, X0
	_XOR_ X1, X1, X1
	_XOR_ X2, X2, X2
	_XOR_ X3, X3, X3
	XORQ AX, AX
	TESTQ CX, CX
	JLE  done
loop:
	VMOV_S_ (DI)(AX*_SIZE_), X4
	VFMADD231_S_ (SI)(AX*_SIZE_), X4, X0
	VFMADD231_S_ (R8)(AX*_SIZE_), X4, X1
	VFMADD231_S_ (R9)(AX*_SIZE_), X4, X2
	VFMADD231_S_ (R10)(AX*_SIZE_), X4, X3
	INCQ AX
	CMPQ AX, CX
	JLT  loop
done:
	VMOV_S_ X0, 0(DX)
	VMOV_S_ X1, 1*_SIZE_(DX)
	VMOV_S_ X2, 2*_SIZE_(DX)
	VMOV_S_ X3, 3*_SIZE_(DX)
	RET
`

const dot = `
// func fmaDot_NAME_(s _TYP_, a, v *_TYP_, n int) _TYP_
// s carried on with fma(a[p], v[p], s) for p < n, in order: one chain of
// VFMADD231_S_ (see fmaDot).
TEXT ·fmaDot_NAME_(SB), NOSPLIT, $0-_DOTFRAME_
	VMOV_S_ s+0(FP), X0
	MOVQ a+8(FP), SI
	MOVQ v+16(FP), DI
	MOVQ n+24(FP), CX
	XORQ AX, AX
	TESTQ CX, CX
	JLE  done
loop:
	VMOV_S_ (DI)(AX*_SIZE_), X1
	VFMADD231_S_ (SI)(AX*_SIZE_), X1, X0
	INCQ AX
	CMPQ AX, CX
	JLT  loop
done:
	VMOV_S_ X0, ret+32(FP)
	RET
`

const row = `
// func fmaRow_NAME_(d, b *_TYP_, n int, a _TYP_)
// d[j] = fma(a, b[j], d[j]) for j < n: _LANES_ at a time (VFMADD231_P_),
// then one at a time (see fmaRow).
TEXT ·fmaRow_NAME_(SB), NOSPLIT, $0-_ROWFRAME_
	MOVQ d+0(FP), DI
	MOVQ b+8(FP), SI
	MOVQ n+16(FP), CX
	_BCAST_ a+24(FP), Y0
	XORQ AX, AX
	MOVQ CX, DX
	ANDQ $_MASK_, DX
	JZ   tail
loop:
	VMOVU_P_ (DI)(AX*_SIZE_), Y1
	VFMADD231_P_ (SI)(AX*_SIZE_), Y0, Y1
	VMOVU_P_ Y1, (DI)(AX*_SIZE_)
	ADDQ $_LANES_, AX
	CMPQ AX, DX
	JLT  loop
tail:
	CMPQ AX, CX
	JGE  done
loop1:
	VMOV_S_ (DI)(AX*_SIZE_), X1
	VFMADD231_S_ (SI)(AX*_SIZE_), X0, X1
	VMOV_S_ X1, (DI)(AX*_SIZE_)
	INCQ AX
	CMPQ AX, CX
	JLT  loop1
done:
	VZEROUPPER
	RET
`

// lanes writes fmaLanes_NAME_: the 32 lanes of backend.DotLanes in
// 32/_LANES_ Y registers, each a chain of VFMADD231_P_ (eight chains for
// float64, four for float32: enough to keep both FMA units busy through
// their latency). n is a multiple of 32.
func lanes(f form) {
	regs := f.size // registers of 32/f.size lanes for 32 lanes
	var body strings.Builder
	body.WriteString(`
// func fmaLanes_NAME_(s *[32]_TYP_, a, v *_TYP_, n int)
// s[l] carried on with fma(a[p], v[p], s[l]) for p < n, p ≡ l (mod 32),
// in order of p (see fmaLanes); n is a multiple of 32.
TEXT ·fmaLanes_NAME_(SB), NOSPLIT, $0-32
	MOVQ s+0(FP), DX
	MOVQ a+8(FP), SI
	MOVQ v+16(FP), DI
	MOVQ n+24(FP), CX
`)
	for r := range regs {
		fmt.Fprintf(&body, "\tVMOVU_P_ %d(DX), Y%d\n", 32*r, r)
	}
	body.WriteString("\tXORQ AX, AX\n\tTESTQ CX, CX\n\tJLE  done\nloop:\n")
	for r := range regs {
		fmt.Fprintf(&body, "\tVMOVU_P_ %d(DI)(AX*_SIZE_), Y%d\n", 32*r, 8+r)
	}
	for r := range regs {
		fmt.Fprintf(&body, "\tVFMADD231_P_ %d(SI)(AX*_SIZE_), Y%d, Y%d\n", 32*r, 8+r, r)
	}
	body.WriteString("\tADDQ $32, AX\n\tCMPQ AX, CX\n\tJLT  loop\ndone:\n")
	for r := range regs {
		fmt.Fprintf(&body, "\tVMOVU_P_ Y%d, %d(DX)\n", r, 32*r)
	}
	body.WriteString("\tVZEROUPPER\n\tRET\n")
	emit(f, body.String())
}

func main() {
	b.WriteString("// Code generated by gen_fma.go; DO NOT EDIT.\n\n//go:build amd64 && !purego\n\n#include \"textflag.h\"\n")
	for _, body := range []string{dot4, dot, row} {
		for _, f := range forms {
			emit(f, body)
		}
	}
	for _, f := range forms {
		lanes(f)
	}
	if err := os.WriteFile("fma_amd64.s", b.Bytes(), 0o644); err != nil {
		log.Fatal(err)
	}
}
