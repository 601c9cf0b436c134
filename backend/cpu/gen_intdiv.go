//go:build ignore

// gen_intdiv writes intdiv_amd64.s and intdiv_table_amd64.go: AVX-512
// loops (and AVX2 ones, but for 64 bits and uint32) for the floor
// division and the floor modulo (Python's // and %, NumPy's floor_divide
// and remainder) of integers, and for C's truncating ones (Node.CDiv) of
// signed integers, computed with a float division; and AVX2 loops that
// look for the operands NumPy warns about. Run it with go generate. See
// intdiv.go for why the float quotient is exact and how the Go side uses
// the loops.
//
// A division loop has the signature
//
//	func name(d, a, b unsafe.Pointer, n int) int
//
// and computes whole vector steps of its unit (with AVX-512 16 elements
// of 8 or 16 bits, 8 of 32 or 64 bits; half as many with AVX2) of n, a
// multiple of the unit, until a step holds a zero divisor (or, for 64
// bits, an operand of 2^53 or more in magnitude): it returns the number
// of elements it wrote, and the Go loop does that step. A scan loop has the signature
//
//	func name(a, b unsafe.Pointer, n int) uint8
//
// and returns bit 0 when one of the n divisors b[i] is 0, bit 1 when for
// one i a[i] is the minimum of the signed type and b[i] is -1 (n a
// multiple of 32 bytes).
package main

import (
	"bytes"
	"fmt"
	"go/format"
	"log"
	"os"
	"strings"
)

// A divKernel is one division loop: d = a // b (mod false) or a % b (mod
// true) on integers of size bytes.
type divKernel struct {
	size   int
	signed bool
	mod    bool
	trunc  bool // C's truncating / and % (signed types only)
	avx2   bool // the AVX2 form: 8 float32 or 4 float64 lanes, no 64 bits
}

func (k divKernel) name() string {
	op := map[[2]bool]string{{false, false}: "floorDiv", {false, true}: "floorMod",
		{true, false}: "truncDiv", {true, true}: "truncMod"}[[2]bool{k.trunc, k.mod}]
	t := "U"
	if k.signed {
		t = "I"
	}
	isa := "AVX512"
	if k.avx2 {
		isa = "AVX2"
	}
	return fmt.Sprintf("%s%s%d%s", op, t, k.size*8, isa)
}

// unit is the number of elements per step: 16 float32 lanes for 8 and 16
// bits, 8 float64 lanes for 32 and 64.
func (k divKernel) unit() int {
	u := 8
	if k.size <= 2 {
		u = 16
	}
	if k.avx2 {
		u /= 2
	}
	return u
}

// round emits the rounding of the quotient in register q.
func (k divKernel) round(e emitter, ps, q string) {
	ins := "VRNDSCALE" + ps
	if k.avx2 {
		ins = "VROUND" + ps
	}
	switch {
	case k.trunc && k.mod:
		e.op("%s $3, %s, %s", ins, q, q) // toward 0
	case k.signed && !k.trunc || k.mod:
		// Round toward -inf (an unsigned quotient is not negative, and
		// the truncating conversion of a truncating quotient is enough).
		e.op("%s $1, %s, %s", ins, q, q)
	}
}

// stepAVX2 is step in the AVX2 form; Y15 is 0, Y14 the VPSHUFB mask that
// gathers the low byte (8 bits) or word (16 bits) of each dword in the
// low 4 or 8 bytes of each 128-bit lane.
func (k divKernel) stepAVX2(e emitter) {
	switch k.size {
	case 1, 2:
		ext := map[bool]string{true: "VPMOVSX", false: "VPMOVZX"}[k.signed] + map[int]string{1: "BD", 2: "WD"}[k.size]
		e.op("%s (SI), Y0", ext)
		e.op("%s (DX), Y1", ext)
		e.op("VPCMPEQD Y15, Y1, Y3")
		e.op("VPTEST Y3, Y3")
		e.op("JNE done")
		e.op("VCVTDQ2PS Y0, Y0")
		e.op("VCVTDQ2PS Y1, Y1")
		e.op("VDIVPS Y1, Y0, Y2")
		k.round(e, "PS", "Y2")
		res := "2"
		if k.mod {
			e.op("VFNMADD231PS Y2, Y1, Y0")
			res = "0"
		}
		e.op("VCVTTPS2DQ Y%s, Y%s", res, res)
		e.op("VPSHUFB Y14, Y%s, Y%s", res, res)
		e.op("VEXTRACTI128 $1, Y%s, X4", res)
		if k.size == 1 {
			e.op("VPUNPCKLDQ X4, X%s, X%s", res, res)
			e.op("MOVQ X%s, (DI)", res)
		} else {
			e.op("VPUNPCKLQDQ X4, X%s, X%s", res, res)
			e.op("VMOVDQU X%s, (DI)", res)
		}
	case 4: // signed only
		e.op("VMOVDQU (DX), X1")
		e.op("VPCMPEQD X15, X1, X3")
		e.op("VPTEST X3, X3")
		e.op("JNE done")
		e.op("VCVTDQ2PD (SI), Y0")
		e.op("VCVTDQ2PD X1, Y1")
		e.op("VDIVPD Y1, Y0, Y2")
		k.round(e, "PD", "Y2")
		res := "Y2"
		if k.mod {
			e.op("VFNMADD231PD Y2, Y1, Y0")
			res = "Y0"
		}
		e.op("VCVTTPD2DQY %s, X5", res)
		e.op("VMOVDQU X5, (DI)")
	}
}

type emitter struct{ b *strings.Builder }

func (e emitter) op(format string, args ...any) {
	fmt.Fprintf(e.b, "\t"+format+"\n", args...)
}

func (e emitter) label(l string) { fmt.Fprintf(e.b, "%s:\n", l) }

// step emits one vector step: the operands at (SI) and (DX) are loaded and
// converted to float (Z0, Z1); a step holding a zero divisor (or an
// operand out of range) jumps to done; Z2 = floor(Z0 / Z1) and, for mod,
// Z0 - Z1*Z2; the result is converted back and stored at (DI).
func (k divKernel) step(e emitter) {
	ps := "PD"
	if k.size <= 2 {
		ps = "PS"
	}
	switch k.size {
	case 1, 2:
		ext := map[bool]string{true: "VPMOVSX", false: "VPMOVZX"}[k.signed] + map[int]string{1: "BD", 2: "WD"}[k.size]
		e.op("%s (SI), Z0", ext)
		e.op("%s (DX), Z1", ext)
		e.op("VPTESTNMD Z1, Z1, K1")
		e.op("KORTESTW K1, K1")
		e.op("JNE done")
		e.op("VCVTDQ2PS Z0, Z0")
		e.op("VCVTDQ2PS Z1, Z1")
	case 4:
		cvt := map[bool]string{true: "VCVTDQ2PD", false: "VCVTUDQ2PD"}[k.signed]
		e.op("VMOVDQU (DX), Y1")
		e.op("VPTESTNMD Y1, Y1, K1")
		e.op("KORTESTW K1, K1")
		e.op("JNE done")
		e.op("%s (SI), Z0", cvt)
		e.op("%s Y1, Z1", cvt)
	case 8:
		e.op("VMOVDQU64 (SI), Z0")
		e.op("VMOVDQU64 (DX), Z1")
		e.op("VPTESTNMQ Z1, Z1, K1")
		if k.signed {
			e.op("VPABSQ Z0, Z3")
			e.op("VPABSQ Z1, Z4")
		} else {
			e.op("VMOVDQA64 Z0, Z3")
			e.op("VMOVDQA64 Z1, Z4")
		}
		// |x| >= 2^53 as unsigned (|MinInt64| is 2^63).
		e.op("VPCMPUQ $5, Z31, Z3, K2")
		e.op("VPCMPUQ $5, Z31, Z4, K3")
		e.op("KORW K1, K2, K1")
		e.op("KORW K1, K3, K1")
		e.op("KORTESTW K1, K1")
		e.op("JNE done")
		cvt := map[bool]string{true: "VCVTQQ2PD", false: "VCVTUQQ2PD"}[k.signed]
		e.op("%s Z0, Z0", cvt)
		e.op("%s Z1, Z1", cvt)
	}
	e.op("VDIV%s Z1, Z0, Z2", ps)
	res := "Z2"
	k.round(e, ps, "Z2")
	if k.mod {
		// Z0 - Z1*Z2 with one rounding: the exact value, an integer
		// smaller than the divisor in magnitude, is representable.
		e.op("VFNMADD231%s Z2, Z1, Z0", ps)
		res = "Z0"
	}
	switch k.size {
	case 1, 2:
		e.op("VCVTTPS2DQ %s, %s", res, res)
		e.op("%s %s, (DI)", map[int]string{1: "VPMOVDB", 2: "VPMOVDW"}[k.size], res)
	case 4:
		cvt := map[bool]string{true: "VCVTTPD2DQ", false: "VCVTTPD2UDQ"}[k.signed]
		e.op("%s %s, Y5", cvt, res)
		e.op("VMOVDQU Y5, (DI)")
	case 8:
		cvt := map[bool]string{true: "VCVTTPD2QQ", false: "VCVTTPD2UQQ"}[k.signed]
		e.op("%s %s, %s", cvt, res, res)
		e.op("VMOVDQU64 %s, (DI)", res)
	}
}

func (k divKernel) emit(b *strings.Builder) {
	e := emitter{b}
	fmt.Fprintf(b, "// func %s(d, a, b unsafe.Pointer, n int) int\n", k.name())
	fmt.Fprintf(b, "TEXT ·%s(SB), NOSPLIT, $0-40\n", k.name())
	e.op("MOVQ d+0(FP), DI")
	e.op("MOVQ a+8(FP), SI")
	e.op("MOVQ b+16(FP), DX")
	e.op("MOVQ n+24(FP), CX")
	e.op("XORQ AX, AX")
	switch {
	case k.avx2:
		e.op("VPXOR Y15, Y15, Y15")
		if k.size <= 2 {
			e.op("MOVQ $0x%016x, R8", map[int]uint64{1: 0x808080800C080400, 2: 0x0D0C090805040100}[k.size])
			e.op("MOVQ R8, X14")
			e.op("VPBROADCASTQ X14, Y14")
		}
	case k.size == 8:
		e.op("MOVQ $0x0020000000000000, R8") // 2^53
		e.op("VPBROADCASTQ R8, Z31")
	}
	e.label("loop")
	e.op("CMPQ AX, CX")
	e.op("JGE done")
	if k.avx2 {
		k.stepAVX2(e)
	} else {
		k.step(e)
	}
	e.op("ADDQ $%d, SI", k.unit()*k.size)
	e.op("ADDQ $%d, DX", k.unit()*k.size)
	e.op("ADDQ $%d, DI", k.unit()*k.size)
	e.op("ADDQ $%d, AX", k.unit())
	e.op("JMP loop")
	e.label("done")
	e.op("MOVQ AX, ret+32(FP)")
	e.op("VZEROUPPER")
	e.op("RET")
	b.WriteString("\n")
}

// emitScan writes the warning scan of elements of size bytes.
func emitScan(b *strings.Builder, size int) {
	e := emitter{b}
	s := map[int]string{1: "B", 2: "W", 4: "D", 8: "Q"}[size]
	min := map[int]uint64{1: 0x8080808080808080, 2: 0x8000800080008000,
		4: 0x8000000080000000, 8: 0x8000000000000000}[size]
	name := fmt.Sprintf("intDivScan%dAVX2", size*8)
	fmt.Fprintf(b, "// func %s(a, b unsafe.Pointer, n int) uint8\n", name)
	fmt.Fprintf(b, "TEXT ·%s(SB), NOSPLIT, $0-25\n", name)
	e.op("MOVQ a+0(FP), SI")
	e.op("MOVQ b+8(FP), DX")
	e.op("MOVQ n+16(FP), CX")
	e.op("SHLQ $%d, CX", map[int]int{1: 0, 2: 1, 4: 2, 8: 3}[size]) // bytes
	e.op("XORQ AX, AX")
	e.op("VPXOR Y8, Y8, Y8")    // 0
	e.op("VPCMPEQB Y9, Y9, Y9") // -1
	e.op("MOVQ $0x%016x, R8", min)
	e.op("MOVQ R8, X10")
	e.op("VPBROADCASTQ X10, Y10") // the minimum
	e.op("VPXOR Y11, Y11, Y11")   // zero divisors seen
	e.op("VPXOR Y12, Y12, Y12")   // MIN / -1 seen
	e.label("loop")
	e.op("CMPQ AX, CX")
	e.op("JGE done")
	e.op("VMOVDQU (DX)(AX*1), Y0")
	e.op("VPCMPEQ%s Y8, Y0, Y1", s)
	e.op("VPOR Y1, Y11, Y11")
	e.op("VPCMPEQ%s Y9, Y0, Y2", s)
	e.op("VPCMPEQ%s (SI)(AX*1), Y10, Y3", s)
	e.op("VPAND Y2, Y3, Y3")
	e.op("VPOR Y3, Y12, Y12")
	e.op("ADDQ $32, AX")
	e.op("JMP loop")
	e.label("done")
	e.op("XORQ AX, AX")
	e.op("VPTEST Y11, Y11")
	e.op("SETNE AL")
	e.op("XORQ BX, BX")
	e.op("VPTEST Y12, Y12")
	e.op("SETNE BL")
	e.op("SHLB $1, BL")
	e.op("ORB BL, AL")
	e.op("MOVB AL, ret+24(FP)")
	e.op("VZEROUPPER")
	e.op("RET")
	b.WriteString("\n")
}

func main() {
	var ks []divKernel
	for _, avx2 := range []bool{false, true} {
		for _, size := range []int{1, 2, 4, 8} {
			for _, signed := range []bool{true, false} {
				if avx2 && (size == 8 || size == 4 && !signed) {
					continue // no AVX2 conversions of these
				}
				for _, mod := range []bool{false, true} {
					ks = append(ks, divKernel{size, signed, mod, false, avx2})
					if signed {
						ks = append(ks, divKernel{size, signed, mod, true, avx2})
					}
				}
			}
		}
	}
	var s strings.Builder
	s.WriteString("// Code generated by gen_intdiv.go; DO NOT EDIT.\n\n//go:build amd64 && !purego\n\n#include \"textflag.h\"\n\n")
	for _, k := range ks {
		k.emit(&s)
	}
	for _, size := range []int{1, 2, 4, 8} {
		emitScan(&s, size)
	}
	if err := os.WriteFile("intdiv_amd64.s", []byte(s.String()), 0o644); err != nil {
		log.Fatal(err)
	}

	var g bytes.Buffer
	g.WriteString("// Code generated by gen_intdiv.go; DO NOT EDIT.\n\n//go:build amd64 && !purego\n\npackage cpu\n\nimport \"unsafe\"\n\n")
	for _, k := range ks {
		fmt.Fprintf(&g, "//go:noescape\nfunc %s(d, a, b unsafe.Pointer, n int) int\n\n", k.name())
	}
	for _, size := range []int{1, 2, 4, 8} {
		fmt.Fprintf(&g, "//go:noescape\nfunc intDivScan%dAVX2(a, b unsafe.Pointer, n int) uint8\n\n", size*8)
	}
	for _, avx2 := range []bool{false, true} {
		if avx2 {
			g.WriteString("// intDivAsmsAVX2 are the AVX2 division loops.\n")
			g.WriteString("var intDivAsmsAVX2 = map[intDivKey]intDivAsm{\n")
		} else {
			g.WriteString("// intDivAsms512 are the AVX-512 division loops.\n")
			g.WriteString("var intDivAsms512 = map[intDivKey]intDivAsm{\n")
		}
		for _, k := range ks {
			if k.avx2 == avx2 {
				fmt.Fprintf(&g, "\t{%d, %v, %v, %v}: {%s, %d},\n", k.size, k.signed, k.mod, k.trunc, k.name(), k.unit())
			}
		}
		g.WriteString("}\n\n")
	}
	g.WriteString("\n\n// intDivScans are the warning scans by size.\n")
	g.WriteString("var intDivScans = map[uintptr]func(a, b unsafe.Pointer, n int) uint8{\n")
	for _, size := range []int{1, 2, 4, 8} {
		fmt.Fprintf(&g, "\t%d: intDivScan%dAVX2,\n", size, size*8)
	}
	g.WriteString("}\n")
	src, err := format.Source(g.Bytes())
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile("intdiv_table_amd64.go", src, 0o644); err != nil {
		log.Fatal(err)
	}
}
