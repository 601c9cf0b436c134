//go:build ignore

// gen_simdfloat writes simd_float_amd64.s: AVX2 loops for the simple
// elementwise operations on float32 and float64 (comparisons, maximum and
// minimum, negation, absolute value, rounding, square roots, relu, square,
// reciprocal, sign, is_nan, is_inf, isfinite, where, and the powers 0.5
// and 3; the predicates 32 elements a step, see emitBools32). Each loop does the operations of its Go
// reference in floatkernels.go and kernels.go bit for bit; the Go wrappers
// (simd_float_amd64.go) pass whole vectors and finish with the reference.
// Run it with go generate.
package main

import (
	"bytes"
	"fmt"
	"log"
	"os"
	"strings"
)

// A typ is one element type: its name suffix, Go type, width in bytes, and
// the AVX instruction suffixes of its packed (P) form.
type typ struct {
	suffix, elem string
	size         int
	p            string // PS or PD
}

var (
	f32 = typ{"F32", "float32", 4, "PS"}
	f64 = typ{"F64", "float64", 8, "PD"}
)

// Registers: the loop loads a's vector into Y0 (and b's into Y1) and stores
// Y2; Y3..Y7 are scratch; the setup puts constants in Y8..Y15:
//
//	Y8  the canonical NaN of math.Pow (Go's math.NaN(), rounded to the type)
//	Y9  +Inf
//	Y10 -Inf
//	Y11 zero
//	Y12 1.0 (float64)
//	Y13 the quiet bit of a float32 NaN
//	Y14 the absolute-value mask (all bits but the sign)
//	Y15 the sign mask
const setup = `	VXORPS Y11, Y11, Y11
	VPCMPEQD Y15, Y15, Y15
`

func setupFor(t typ) string {
	var b strings.Builder
	b.WriteString(setup)
	if t == f32 {
		b.WriteString(`	VPSRLD $1, Y15, Y14
	VPSLLD $31, Y15, Y15
	VBROADCASTSS f32quiet<>(SB), Y13
	VBROADCASTSS f32nan<>(SB), Y8
	VBROADCASTSS f32inf<>(SB), Y9
	VBROADCASTSS f32ninf<>(SB), Y10
	VBROADCASTSD f64one<>(SB), Y12
`)
	} else {
		b.WriteString(`	VPSRLQ $1, Y15, Y14
	VPSLLQ $63, Y15, Y15
	VBROADCASTSD f64nan<>(SB), Y8
	VBROADCASTSD f64inf<>(SB), Y9
	VBROADCASTSD f64ninf<>(SB), Y10
	VBROADCASTSD f64one<>(SB), Y12
`)
	}
	return b.String()
}

// Comparison predicates of VCMPPS/VCMPPD: ordered and quiet for < <= > >=
// ==, unordered for != (NaN != NaN is true), unordered for is_nan.
const (
	eqOQ   = 0x00
	ltOQ   = 0x11
	leOQ   = 0x12
	unordQ = 0x03
	neqUQ  = 0x04
	geOQ   = 0x1D
	gtOQ   = 0x1E
)

// wide applies the float64 computation f (from Y4 to Y4, Y5 to Y5: two
// halves of 4 float32 lanes widened to float64) to the float32 vector Y0
// and narrows the result into Y2, as the Go loops' float64(x) … float32()
// do.
func wide(f func(r string) string) string {
	return `	VCVTPS2PD X0, Y4
	VEXTRACTF128 $1, Y0, X5
	VCVTPS2PD X5, Y5
` + f("Y4") + f("Y5") + `	VCVTPD2PSY Y4, X4
	VCVTPD2PSY Y5, X5
	VINSERTF128 $1, X5, Y4, Y2
`
}

// An op is one loop: a unary or binary operation giving the element type,
// or a predicate giving bools.
type op struct {
	name  string // Go name without type suffix
	doc   string // what it computes, for the comment
	arity int
	bools bool // a predicate: the body leaves a lane mask in Y3
	body  func(t typ) string
}

// keepA is the body of maximum and minimum: d[i] = a[i] where a[i]
// compares to b[i] by pred or is NaN, else b[i].
func keepA(pred int) func(t typ) string {
	return func(t typ) string {
		return fmt.Sprintf(`	VCMP%[1]s $0x%02[2]x, Y1, Y0, Y3
	VCMP%[1]s $0x%02[3]x, Y0, Y0, Y4
	VOR%[1]s Y4, Y3, Y3
	VBLENDV%[1]s Y3, Y0, Y1, Y2
`, t.p, pred, unordQ)
	}
}

func cmp(pred int) func(t typ) string {
	return func(t typ) string { return fmt.Sprintf("\tVCMP%s $0x%02x, Y1, Y0, Y3\n", t.p, pred) }
}

var ops = []op{
	{"eq", "d[i] = a[i] == b[i]", 2, true, cmp(eqOQ)},
	{"ne", "d[i] = a[i] != b[i]", 2, true, cmp(neqUQ)},
	{"lt", "d[i] = a[i] < b[i]", 2, true, cmp(ltOQ)},
	{"le", "d[i] = a[i] <= b[i]", 2, true, cmp(leOQ)},
	{"gt", "d[i] = a[i] > b[i]", 2, true, cmp(gtOQ)},
	{"ge", "d[i] = a[i] >= b[i]", 2, true, cmp(geOQ)},
	{"isnan", "d[i] = a[i] != a[i]", 1, true, func(t typ) string {
		return fmt.Sprintf("\tVCMP%s $0x%02x, Y0, Y0, Y3\n", t.p, unordQ)
	}},
	{"maximum", "d[i] = a[i] if a[i] > b[i] or a[i] is NaN, else b[i]", 2, false, keepA(gtOQ)},
	{"minimum", "d[i] = a[i] if a[i] < b[i] or a[i] is NaN, else b[i]", 2, false, keepA(ltOQ)},
	// The float16 and bfloat16 maximum and minimum (narrowMinMax, on
	// their float32 values): ties keep a.
	{"maximumNarrow", "d[i] = a[i] if a[i] >= b[i] or a[i] is NaN, else b[i]", 2, false, keepA(geOQ)},
	{"minimumNarrow", "d[i] = a[i] if a[i] <= b[i] or a[i] is NaN, else b[i]", 2, false, keepA(leOQ)},
	{"neg", "d[i] = -a[i] (the sign flipped)", 1, false, func(t typ) string {
		return fmt.Sprintf("\tVXOR%s Y15, Y0, Y2\n", t.p)
	}},
	{"abs", "d[i] = |a[i]| (the sign cleared; a float32 NaN quieted, as by float64(x))", 1, false, func(t typ) string {
		s := fmt.Sprintf("\tVAND%s Y14, Y0, Y2\n", t.p)
		if t == f32 {
			s += fmt.Sprintf(`	VCMPPS $0x%02x, Y0, Y0, Y3
	VANDPS Y13, Y3, Y3
	VORPS Y3, Y2, Y2
`, unordQ)
		}
		return s
	}},
	{"relu", "d[i] = a[i] if a[i] > 0 or a[i] is NaN, else +0", 1, false, func(t typ) string {
		return fmt.Sprintf(`	VCMP%[1]s $0x%02[2]x, Y11, Y0, Y3
	VCMP%[1]s $0x%02[3]x, Y0, Y0, Y4
	VOR%[1]s Y4, Y3, Y3
	VAND%[1]s Y3, Y0, Y2
`, t.p, gtOQ, unordQ)
	}},
	{"rint", "d[i] = a[i] rounded to an integer, ties to even", 1, false, round(0)},
	{"floor", "d[i] = floor(a[i])", 1, false, round(1)},
	{"ceil", "d[i] = ceil(a[i])", 1, false, round(2)},
	{"trunc", "d[i] = trunc(a[i])", 1, false, round(3)},
	{"round", "d[i] = math.Round(a[i]): to nearest, halves away from zero", 1, false, func(t typ) string {
		// r = trunc(x), and r ± 1 (x's sign) where |x - r| >= 1/2:
		// x - r, the fraction, is exact. A -0 r stays -0 (a blend, not
		// an add of 0); infinities give NaN fractions and stay. A
		// float64 NaN is x itself, as math.Round gives it (VROUNDPD
		// would quiet a signalling one; a float32 one is quieted by
		// float64(x) in the Go loop too).
		l := strings.ToLower(t.suffix)
		s := fmt.Sprintf(`	VROUND%[1]s $3, Y0, Y2
	VSUB%[1]s Y2, Y0, Y3
	VAND%[1]s Y14, Y3, Y3
	VBROADCASTS%[2]s %[3]shalf<>(SB), Y4
	VCMP%[1]s $0x%02[4]x, Y4, Y3, Y3
	VBROADCASTS%[2]s %[3]sone<>(SB), Y5
	VAND%[1]s Y15, Y0, Y6
	VOR%[1]s Y6, Y5, Y5
	VADD%[1]s Y5, Y2, Y5
	VBLENDV%[1]s Y3, Y5, Y2, Y2
`, t.p, t.p[1:], l, geOQ)
		if t == f64 {
			s += fmt.Sprintf("\tVCMPPD $0x%02x, Y0, Y0, Y3\n\tVBLENDVPD Y3, Y0, Y2, Y2\n", unordQ)
		}
		return s
	}},
	{"sqrt", "d[i] = sqrt(a[i]), correctly rounded", 1, false, func(t typ) string {
		return fmt.Sprintf("\tVSQRT%s Y0, Y2\n", t.p)
	}},
	{"rsqrt", "d[i] = 1/sqrt(a[i]) computed in float64 and rounded once", 1, false, func(t typ) string {
		f := func(r string) string { return fmt.Sprintf("\tVSQRTPD %[1]s, %[1]s\n\tVDIVPD %[1]s, Y12, %[1]s\n", r) }
		if t == f32 {
			return wide(f)
		}
		return "\tVSQRTPD Y0, Y2\n\tVDIVPD Y2, Y12, Y2\n"
	}},
	{"square", "d[i] = a[i]·a[i]", 1, false, func(t typ) string {
		return fmt.Sprintf("\tVMUL%s Y0, Y0, Y2\n", t.p)
	}},
	{"reciprocal", "d[i] = 1/a[i]", 1, false, func(t typ) string {
		return fmt.Sprintf("\tVBROADCASTS%[2]s %[1]sone<>(SB), Y3\n\tVDIV%[3]s Y0, Y3, Y2\n", strings.ToLower(t.suffix), t.p[1:], t.p)
	}},
	{"sign", "d[i] = 1, -1, +0 for a[i] > 0, < 0, = ±0; NaN stays (NumPy's sign)", 1, false, func(t typ) string {
		l := strings.ToLower(t.suffix)
		return fmt.Sprintf(`	VCMP%[1]s $0x%02[3]x, Y11, Y0, Y3
	VCMP%[1]s $0x%02[4]x, Y11, Y0, Y4
	VBROADCASTS%[2]s %[6]sone<>(SB), Y5
	VAND%[1]s Y5, Y3, Y3
	VOR%[1]s Y15, Y5, Y5
	VAND%[1]s Y5, Y4, Y4
	VOR%[1]s Y4, Y3, Y2
	VCMP%[1]s $0x%02[5]x, Y0, Y0, Y3
	VBLENDV%[1]s Y3, Y0, Y2, Y2
`, t.p, t.p[1:], gtOQ, ltOQ, unordQ, l)
	}},
	{"isinf", "d[i] = a[i] is ±Inf", 1, true, func(t typ) string {
		return fmt.Sprintf("\tVAND%[1]s Y14, Y0, Y3\n\tVCMP%[1]s $0x%02[2]x, Y9, Y3, Y3\n", t.p, eqOQ)
	}},
	{"isfinite", "d[i] = a[i] is neither ±Inf nor NaN", 1, true, func(t typ) string {
		return fmt.Sprintf("\tVAND%[1]s Y14, Y0, Y3\n\tVCMP%[1]s $0x%02[2]x, Y9, Y3, Y3\n", t.p, ltOQ)
	}},
	{"pow05", "d[i] = powF64(a[i], 0.5): sqrt, but +0 at ±0, +Inf at -Inf and math.NaN() at NaN", 1, false, func(t typ) string {
		return fmt.Sprintf(`	VSQRT%[1]s Y0, Y2
	VCMP%[1]s $0x%02[2]x, Y11, Y0, Y3
	VANDN%[1]s Y2, Y3, Y2
	VCMP%[1]s $0x%02[2]x, Y10, Y0, Y3
	VBLENDV%[1]s Y3, Y9, Y2, Y2
	VCMP%[1]s $0x%02[3]x, Y0, Y0, Y3
	VBLENDV%[1]s Y3, Y8, Y2, Y2
`, t.p, eqOQ, unordQ)
	}},
	{"pow3", "d[i] = powF64(a[i], 3) for float32 a: (x·x)·x in float64 (x·x is exact), math.NaN() at NaN", 1, false, func(t typ) string {
		return wide(func(r string) string { return fmt.Sprintf("\tVMULPD %[1]s, %[1]s, Y6\n\tVMULPD %[1]s, Y6, %[1]s\n", r) }) +
			fmt.Sprintf("\tVCMPPS $0x%02x, Y0, Y0, Y3\n\tVBLENDVPS Y3, Y8, Y2, Y2\n", unordQ)
	}},
}

func round(mode int) func(t typ) string {
	return func(t typ) string { return fmt.Sprintf("\tVROUND%s $%d, Y0, Y2\n", t.p, mode) }
}

func main() {
	var b bytes.Buffer
	b.WriteString(`// Code generated by gen_simdfloat.go; DO NOT EDIT.

//go:build amd64 && !purego

#include "textflag.h"

// Each loop handles len(d) elements, a multiple of 8; the Go wrappers in
// simd_float_amd64.go finish the rest with the Go reference.

DATA f32quiet<>+0(SB)/4, $0x00400000
GLOBL f32quiet<>(SB), RODATA|NOPTR, $4
DATA f32nan<>+0(SB)/4, $0x7fc00000
GLOBL f32nan<>(SB), RODATA|NOPTR, $4
DATA f32inf<>+0(SB)/4, $0x7f800000
GLOBL f32inf<>(SB), RODATA|NOPTR, $4
DATA f32ninf<>+0(SB)/4, $0xff800000
GLOBL f32ninf<>(SB), RODATA|NOPTR, $4
DATA f64nan<>+0(SB)/8, $0x7ff8000000000001
GLOBL f64nan<>(SB), RODATA|NOPTR, $8
DATA f64inf<>+0(SB)/8, $0x7ff0000000000000
GLOBL f64inf<>(SB), RODATA|NOPTR, $8
DATA f64ninf<>+0(SB)/8, $0xfff0000000000000
GLOBL f64ninf<>(SB), RODATA|NOPTR, $8
DATA f64lo<>+0(SB)/8, $0x2b50000000000000
GLOBL f64lo<>(SB), RODATA|NOPTR, $8
DATA f64hi<>+0(SB)/8, $0x5490000000000000
GLOBL f64hi<>(SB), RODATA|NOPTR, $8
DATA f32one<>+0(SB)/4, $0x3f800000
GLOBL f32one<>(SB), RODATA|NOPTR, $4
DATA f64one<>+0(SB)/8, $0x3ff0000000000000
GLOBL f64one<>(SB), RODATA|NOPTR, $8
DATA f32half<>+0(SB)/4, $0x3f000000
GLOBL f32half<>(SB), RODATA|NOPTR, $4
DATA f64half<>+0(SB)/8, $0x3fe0000000000000
GLOBL f64half<>(SB), RODATA|NOPTR, $8

// boolBytes<>[m] holds 8 bools, bool j set when bit j of m is.
`)
	for m := 0; m < 256; m++ {
		var v uint64
		for j := 0; j < 8; j++ {
			if m>>j&1 == 1 {
				v |= 1 << (8 * j)
			}
		}
		fmt.Fprintf(&b, "DATA boolBytes<>+%d(SB)/8, $0x%016x\n", 8*m, v)
	}
	b.WriteString("GLOBL boolBytes<>(SB), RODATA|NOPTR, $2048\n")
	// boolPerm<> puts the dwords of a vector of 32 packed bools in order
	// (see emitBools32).
	for i, v := range []int{0, 4, 1, 5, 2, 6, 3, 7} {
		fmt.Fprintf(&b, "DATA boolPerm<>+%d(SB)/4, $%d\n", 4*i, v)
	}
	b.WriteString("GLOBL boolPerm<>(SB), RODATA|NOPTR, $32\n")

	for _, t := range []typ{f32, f64} {
		for _, o := range ops {
			if o.name == "pow3" && t == f64 {
				continue // float64 x·x is not exact
			}
			if strings.HasSuffix(o.name, "Narrow") && t == f64 {
				continue // narrow floats compute in float32
			}
			emit(&b, t, o)
		}
		emitWhere(&b, t)
	}
	b.WriteString(pow3F64)
	if err := os.WriteFile("simd_float_amd64.s", b.Bytes(), 0o644); err != nil {
		log.Fatal(err)
	}
}

func emit(b *bytes.Buffer, t typ, o op) {
	name := o.name + t.suffix + "AVX2"
	dt := "[]" + t.elem
	if o.bools {
		dt = "[]bool"
	}
	args, frame := "a", 48
	if o.arity == 2 {
		args, frame = "a, b", 72
	}
	fmt.Fprintf(b, "\n// func %s(d %s, %s []%s): %s.\n", name, dt, args, t.elem, o.doc)
	fmt.Fprintf(b, "TEXT ·%s(SB), NOSPLIT, $0-%d\n", name, frame)
	b.WriteString("\tMOVQ d_base+0(FP), DI\n\tMOVQ d_len+8(FP), CX\n\tMOVQ a_base+24(FP), SI\n")
	if o.arity == 2 {
		b.WriteString("\tMOVQ b_base+48(FP), DX\n")
	}
	b.WriteString(setupFor(t))
	mov := "VMOVUP" + t.p[1:]
	b.WriteString("\tXORQ AX, AX\n")
	if o.bools {
		b.WriteString("\tLEAQ boolBytes<>(SB), R9\n")
		emitBools32(b, t, o)
	}
	b.WriteString("\tSHRQ $3, CX\n\tJZ   done\nloop:\n")
	// One group of 8 elements: one vector of float32, two of float64.
	vecs := 8 * t.size / 32
	for v := 0; v < vecs; v++ {
		off := 32 * v
		fmt.Fprintf(b, "\t%s %d(SI)(AX*1), Y0\n", mov, off)
		if o.arity == 2 {
			fmt.Fprintf(b, "\t%s %d(DX)(AX*1), Y1\n", mov, off)
		}
		b.WriteString(o.body(t))
		if o.bools {
			if v == 0 {
				fmt.Fprintf(b, "\tVMOVMSK%s Y3, BX\n", t.p)
			} else {
				fmt.Fprintf(b, "\tVMOVMSK%s Y3, R10\n\tSHLQ $%d, R10\n\tORQ R10, BX\n", t.p, 4*v)
			}
		} else {
			fmt.Fprintf(b, "\t%s Y2, %d(DI)(AX*1)\n", mov, off)
		}
	}
	if o.bools {
		b.WriteString("\tMOVQ (R9)(BX*8), R10\n\tMOVQ R10, (DI)\n\tADDQ $8, DI\n")
	}
	fmt.Fprintf(b, "\tADDQ $%d, AX\n\tDECQ CX\n\tJNZ  loop\ndone:\n\tVZEROUPPER\n\tRET\n", 8*t.size)
}

// emitBools32 writes the main loop of a predicate: 32 elements a step,
// their lane masks packed into 32 bools with two VPACKSSDW and a
// VPACKSSWB (float64 masks first made float32-like: the low dwords of two
// vectors by VSHUFPS, in order by VPERMQ), the dwords of bools put in
// order by VPERMD (boolPerm), and 0/-1 made 0/1; 8 elements a step then
// finish, from the same AX and DI. Predicate bodies leave their mask in Y3
// and use no register above Y3 but the constants Y9 and Y14; Y4..Y7 hold
// the masks here, Y12 the permutation and Y13 the bytes 1.
func emitBools32(b *bytes.Buffer, t typ, o op) {
	mov := "VMOVUP" + t.p[1:]
	b.WriteString("\tMOVQ CX, R11\n\tSHRQ $5, R11\n\tJZ   tail\n")
	b.WriteString("\tVMOVDQU boolPerm<>(SB), Y12\n\tVPCMPEQB Y13, Y13, Y13\n\tVPABSB Y13, Y13\n")
	b.WriteString("loop32:\n")
	for v := range 32 * t.size / 32 {
		off := 32 * v
		fmt.Fprintf(b, "\t%s %d(SI)(AX*1), Y0\n", mov, off)
		if o.arity == 2 {
			fmt.Fprintf(b, "\t%s %d(DX)(AX*1), Y1\n", mov, off)
		}
		b.WriteString(o.body(t))
		switch {
		case t == f32:
			fmt.Fprintf(b, "\tVMOVAPS Y3, Y%d\n", 4+v)
		case v%2 == 0:
			b.WriteString("\tVMOVAPD Y3, Y2\n")
		default:
			fmt.Fprintf(b, "\tVSHUFPS $0x88, Y3, Y2, Y%[1]d\n\tVPERMQ $0xd8, Y%[1]d, Y%[1]d\n", 4+v/2)
		}
	}
	fmt.Fprintf(b, `	VPACKSSDW Y5, Y4, Y4
	VPACKSSDW Y7, Y6, Y6
	VPACKSSWB Y6, Y4, Y4
	VPERMD Y4, Y12, Y4
	VPAND Y13, Y4, Y4
	VMOVDQU Y4, (DI)
	ADDQ $32, DI
	ADDQ $%d, AX
	DECQ R11
	JNZ  loop32
tail:
	ANDQ $31, CX
`, 32*t.size)
}

// emitWhere writes where<T>AVX2(d []T, c []bool, a, b []T): d[i] = a[i]
// if c[i], else b[i] (any nonzero byte is true).
func emitWhere(b *bytes.Buffer, t typ) {
	name := "where" + t.suffix + "AVX2"
	fmt.Fprintf(b, "\n// func %s(d []%[2]s, c []bool, a, b []%[2]s): d[i] = a[i] if c[i], else b[i].\n", name, t.elem)
	fmt.Fprintf(b, "TEXT ·%s(SB), NOSPLIT, $0-96\n", name)
	b.WriteString("\tMOVQ d_base+0(FP), DI\n\tMOVQ d_len+8(FP), CX\n\tMOVQ c_base+24(FP), R8\n" +
		"\tMOVQ a_base+48(FP), SI\n\tMOVQ b_base+72(FP), DX\n\tVPXOR Y11, Y11, Y11\n" +
		"\tXORQ AX, AX\n\tSHRQ $3, CX\n\tJZ   done\nloop:\n")
	mov, ext, eq, per := "VMOVUPS", "VPMOVZXBD", "VPCMPEQD", 8
	if t == f64 {
		mov, ext, eq, per = "VMOVUPD", "VPMOVZXBQ", "VPCMPEQQ", 4
	}
	for v := 0; v < 8/per; v++ {
		off := 32 * v
		fmt.Fprintf(b, "\t%s %d(R8), Y3\n\t%s Y11, Y3, Y3\n", ext, per*v, eq)
		fmt.Fprintf(b, "\t%s %d(SI)(AX*1), Y0\n\t%s %d(DX)(AX*1), Y1\n", mov, off, mov, off)
		// Y3 is set where c is false: take b there.
		fmt.Fprintf(b, "\tVBLENDV%s Y3, Y1, Y0, Y2\n\t%s Y2, %d(DI)(AX*1)\n", t.p, mov, off)
	}
	fmt.Fprintf(b, "\tADDQ $8, R8\n\tADDQ $%d, AX\n\tDECQ CX\n\tJNZ  loop\ndone:\n\tVZEROUPPER\n\tRET\n", 8*t.size)
}

// pow3F64 is powF64(x, 3) on float64 (pow.go): exponentiation by squaring
// in double-double arithmetic. For x = ±0 or ±Inf powF64 gives x (through
// math.Pow), for NaN math.NaN(). Its other branch, math.Pow when x² or
// x³ leaves [2^-1000, 2^1000], is not followed: the loop returns true
// when some |x| is outside [2^-330, 2^330] (where neither can leave it),
// and the caller then computes with the Go reference instead.
//
// With r = (1, 0) and b = (x, 0), powF64's operations reduce to
//
//	p1 = x·x, e1 = fma(x, x, -p1)          b = ddMul(b, b) = (p1, e1)
//	p = x·p1, e = fma(x, p1, -p) + x·e1    r = ddMul((x, 0), (p1, e1))
//	hi = p + e, lo = e - (hi - p), hi + lo
//
// (the terms with a zero low part add a zero that changes nothing).
const pow3F64 = `
// func pow3F64AVX2(d, a []float64) (slow bool): d[i] = powF64(a[i], 3), or
// true when some a[i] needs math.Pow.
TEXT ·pow3F64AVX2(SB), NOSPLIT, $0-49
	MOVQ d_base+0(FP), DI
	MOVQ d_len+8(FP), CX
	MOVQ a_base+24(FP), SI
	VXORPD Y11, Y11, Y11
	VPCMPEQD Y15, Y15, Y15
	VPCMPEQD Y13, Y13, Y13
	VPSRLQ $1, Y15, Y14
	VBROADCASTSD f64nan<>(SB), Y8
	VBROADCASTSD f64inf<>(SB), Y9
	VBROADCASTSD f64lo<>(SB), Y10
	VBROADCASTSD f64hi<>(SB), Y12
	XORQ AX, AX
	SHRQ $2, CX
	JZ   done
loop:
	VMOVUPD (SI)(AX*1), Y0
	VMULPD Y0, Y0, Y3
	VMOVAPD Y3, Y4
	VFMSUB231PD Y0, Y0, Y4
	VMULPD Y3, Y0, Y5
	VMOVAPD Y5, Y6
	VFMSUB231PD Y3, Y0, Y6
	VMULPD Y4, Y0, Y7
	VADDPD Y7, Y6, Y6
	VADDPD Y6, Y5, Y7
	VSUBPD Y5, Y7, Y2
	VSUBPD Y2, Y6, Y2
	VADDPD Y2, Y7, Y2
	// ±0, ±Inf: x; NaN: math.NaN().
	VANDPD Y14, Y0, Y1
	VCMPPD $0x00, Y11, Y1, Y3
	VCMPPD $0x00, Y9, Y1, Y4
	VORPD Y4, Y3, Y3
	VBLENDVPD Y3, Y0, Y2, Y2
	VCMPPD $0x03, Y0, Y0, Y4
	VBLENDVPD Y4, Y8, Y2, Y2
	VMOVUPD Y2, (DI)(AX*1)
	// Lanes neither special nor within [2^-330, 2^330] are slow.
	VORPD Y4, Y3, Y3
	VCMPPD $0x1d, Y10, Y1, Y5
	VCMPPD $0x12, Y12, Y1, Y6
	VANDPD Y6, Y5, Y5
	VORPD Y5, Y3, Y3
	VANDPD Y3, Y13, Y13
	ADDQ $32, AX
	DECQ CX
	JNZ  loop
done:
	VMOVMSKPD Y13, AX
	CMPQ AX, $15
	SETNE slow+48(FP)
	VZEROUPPER
	RET
`
