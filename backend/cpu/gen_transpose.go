//go:build ignore

// gen_transpose writes transpose_amd64.s: AVX2 kernels that transpose
// square-ish tiles of 1-, 2-, 4- and 8-byte elements (see transpose.go).
// Each kernel has the signature
//
//	func transN(dst *byte, ldd int, src *byte, lds int, n int)
//
// and, for t in [0, n), reads the tile of C source lines (line c at
// src + (t*C+c)*lds bytes) of R elements each and writes its transpose:
// R destination rows (row r at dst + r*ldd bytes) of C elements from
// column t*C on. The tiles are (R, C) = (16, 16) for bytes, (8, 16) for
// 2-byte elements, (8, 8) for 4-byte and (4, 4) for 8-byte ones. The
// kernels only move bits (unpack, shuffle and lane permutes), so the
// result is the Go loop's (transposeGo) whatever the values. Run it with
// go generate.
//
// The 1- and 2-byte kernels hold source lines c and c+8 in the two
// 128-bit lanes of one register and transpose each lane with three rounds
// of the perfect shuffle (out[2j], out[2j+1] = unpacklo, unpackhi of
// in[j], in[j+4]), which transposes an 8×8 matrix of any element width
// (Intel's optimisation manual; Hacker's Delight 7-3); the 4-byte kernel
// is the usual unpack / shufps / vperm2f128 8×8 transpose, the 8-byte one
// its 4×4 form.
package main

import (
	"bytes"
	"fmt"
	"log"
	"os"
)

var b bytes.Buffer

func emit(format string, args ...any) { fmt.Fprintf(&b, "\t"+format+"\n", args...) }

// header starts a kernel: DI = dst, DX = ldd, SI = src, BX = lds, CX = n.
func header(name, doc string) {
	fmt.Fprintf(&b, "\n// func %s(dst *byte, ldd int, src *byte, lds int, n int)\n// %s\n", name, doc)
	fmt.Fprintf(&b, "TEXT ·%s(SB), NOSPLIT, $0-40\n", name)
	emit("MOVQ dst+0(FP), DI")
	emit("MOVQ ldd+8(FP), DX")
	emit("MOVQ src+16(FP), SI")
	emit("MOVQ lds+24(FP), BX")
	emit("MOVQ n+32(FP), CX")
	emit("TESTQ CX, CX")
	emit("JZ done")
	fmt.Fprintf(&b, "loop:\n")
}

// footer advances DI by the tile's width in bytes and loops. SI has been
// advanced by the loads.
func footer(width int) {
	emit("ADDQ $%d, DI", width)
	emit("DECQ CX")
	emit("JNZ loop")
	fmt.Fprintf(&b, "done:\n")
	emit("VZEROUPPER")
	emit("RET")
}

// loadPairs loads 16 lines of 16 bytes: line c into the low lane of Yc
// and line c+8 into its high lane (c < 8); SI ends 16 lines on.
func loadPairs() {
	emit("MOVQ SI, AX")
	for c := range 8 {
		emit("VMOVDQU (AX), X%d", c)
		emit("ADDQ BX, AX")
	}
	for c := range 8 {
		emit("VINSERTI128 $1, (AX), Y%d, Y%d", c, c)
		emit("ADDQ BX, AX")
	}
	emit("MOVQ AX, SI")
}

// shuffle3 runs three perfect-shuffle rounds of unpack (lo, hi) over
// Y0..Y7 and returns the registers holding out[0..7] (Y8..Y15).
func shuffle3(lo, hi string) []int {
	in := []int{0, 1, 2, 3, 4, 5, 6, 7}
	spare := []int{8, 9, 10, 11, 12, 13, 14, 15}
	for range 3 {
		out := make([]int, 8)
		for j := range 4 {
			out[2*j], out[2*j+1] = spare[2*j], spare[2*j+1]
			emit("%s Y%d, Y%d, Y%d", lo, in[j+4], in[j], out[2*j])
			emit("%s Y%d, Y%d, Y%d", hi, in[j+4], in[j], out[2*j+1])
		}
		in, spare = out, in
	}
	return in
}

func trans1() {
	header("trans1AVX2", "16×16 tiles of bytes.")
	loadPairs()
	out := shuffle3("VPUNPCKLBW", "VPUNPCKHBW")
	// out[m]: low lane = rows 2m, 2m+1 of columns 0..7 (8 bytes each),
	// high lane = the same rows of columns 8..15.
	emit("MOVQ DI, AX")
	for _, r := range out {
		emit("VPERMQ $0xD8, Y%d, Y%d", r, r)
		emit("VMOVDQU X%d, (AX)", r)
		emit("ADDQ DX, AX")
		emit("VEXTRACTI128 $1, Y%d, (AX)", r)
		emit("ADDQ DX, AX")
	}
	footer(16)
}

func trans2() {
	header("trans2AVX2", "8×16 tiles (8 rows of 16 columns) of 2-byte elements.")
	loadPairs()
	out := shuffle3("VPUNPCKLWD", "VPUNPCKHWD")
	// out[m]: row m, columns 0..7 in the low lane and 8..15 in the high.
	emit("MOVQ DI, AX")
	for _, r := range out {
		emit("VMOVDQU Y%d, (AX)", r)
		emit("ADDQ DX, AX")
	}
	footer(32)
}

func trans4() {
	header("trans4AVX2", "8×8 tiles of 4-byte elements.")
	emit("MOVQ SI, AX")
	for c := range 8 {
		emit("VMOVUPS (AX), Y%d", c)
		emit("ADDQ BX, AX")
	}
	emit("MOVQ AX, SI")
	// t (Y8..Y15): interleave pairs of lines.
	for p := range 4 {
		emit("VUNPCKLPS Y%d, Y%d, Y%d", 2*p+1, 2*p, 8+2*p)
		emit("VUNPCKHPS Y%d, Y%d, Y%d", 2*p+1, 2*p, 9+2*p)
	}
	// u (Y0..Y7): four lines' elements 0, 1 (lane-wise), 2, 3.
	for h := range 2 {
		t := 8 + 4*h
		emit("VSHUFPS $0x44, Y%d, Y%d, Y%d", t+2, t, 4*h)
		emit("VSHUFPS $0xEE, Y%d, Y%d, Y%d", t+2, t, 4*h+1)
		emit("VSHUFPS $0x44, Y%d, Y%d, Y%d", t+3, t+1, 4*h+2)
		emit("VSHUFPS $0xEE, Y%d, Y%d, Y%d", t+3, t+1, 4*h+3)
	}
	// Rows: the low lanes of u0..u3 with those of u4..u7, then the high.
	for r := range 4 {
		emit("VPERM2F128 $0x20, Y%d, Y%d, Y%d", r+4, r, 8+r)
		emit("VPERM2F128 $0x31, Y%d, Y%d, Y%d", r+4, r, 12+r)
	}
	emit("MOVQ DI, AX")
	for r := range 8 {
		emit("VMOVUPS Y%d, (AX)", 8+r)
		emit("ADDQ DX, AX")
	}
	footer(32)
}

func trans8() {
	header("trans8AVX2", "4×4 tiles of 8-byte elements.")
	emit("MOVQ SI, AX")
	for c := range 4 {
		emit("VMOVUPD (AX), Y%d", c)
		emit("ADDQ BX, AX")
	}
	emit("MOVQ AX, SI")
	emit("VUNPCKLPD Y1, Y0, Y4")
	emit("VUNPCKHPD Y1, Y0, Y5")
	emit("VUNPCKLPD Y3, Y2, Y6")
	emit("VUNPCKHPD Y3, Y2, Y7")
	emit("VPERM2F128 $0x20, Y6, Y4, Y0")
	emit("VPERM2F128 $0x20, Y7, Y5, Y1")
	emit("VPERM2F128 $0x31, Y6, Y4, Y2")
	emit("VPERM2F128 $0x31, Y7, Y5, Y3")
	emit("MOVQ DI, AX")
	for r := range 4 {
		emit("VMOVUPD Y%d, (AX)", r)
		emit("ADDQ DX, AX")
	}
	footer(32)
}

func main() {
	b.WriteString("// Code generated by gen_transpose.go; DO NOT EDIT.\n\n//go:build amd64 && !purego\n\n#include \"textflag.h\"\n")
	trans1()
	trans2()
	trans4()
	trans8()
	if err := os.WriteFile("transpose_amd64.s", b.Bytes(), 0o644); err != nil {
		log.Fatal(err)
	}
}
