//go:build ignore

// gen_reduce writes simd_reduce_amd64.s, the AVX2 steps of reductions
// (and AVX-512 ones of float argmax and argmin), and
// simd_reduce_amd64.go, their declarations and table.
// Run it with go generate.
//
// For each operation and element type there are two kernels on the bytes
// of the elements:
//
//   - redVecOP(acc, x []byte): acc[i] = op(acc[i], x[i]) element by
//     element over the first len(acc)&^31 bytes (the rows of a reduction
//     along a kept last axis). Each element takes the same operation on
//     the same operands as the scalar loop, so the result is the same bit
//     for bit.
//   - redFoldOP(acc *[128]byte, x []byte): the 128 bytes of acc hold
//     4×32 bytes of partial results; each 128-byte block of x is combined
//     into them lane by lane, then each 32-byte block left into the
//     first 32 (over len(x)&^31 bytes); at the end the four are combined
//     into the first 32 bytes of acc. The caller combines those: only for
//     operations whose order does not matter (integer max, min, and
//     wrapping sums and products). The float max and min folds return
//     whether x holds a NaN; the caller then falls back to the scalar
//     loop, as it does when the maximum is a zero (whose sign depends on
//     the order).
//
// Also, for many rows a call: redRows* (each row of a short last axis to
// one output), redVecs* (the row step over equally spaced rows), and
// the argmax/argmin kernels redArg* (one pass over a run; redArg*512 with
// AVX-512 for floats) and
// redArgCols* (rows streamed into the best values and their row numbers);
// see the comments at rowsInt, vecsAsm, argAsm and argColsAsm.
//
// And single kernels: redHasZero*/redHasNonzero* (any and all of x != 0,
// stopping at the first deciding block), redFind* (the first element
// equal to a value, for argmax), redSum8PD (the eight accumulators of the
// float64 pairwise-sum leaf). Float16 loads and roundings are the shared
// F16C ones (f16sToF32, roundF16 in f16c_amd64.go).
package main

import (
	"bytes"
	"fmt"
	"go/format"
	"log"
	"os"
	"strings"
	"text/template"
)

// A kernel is one operation on one element type. step returns the
// instructions that combine register x into register acc, with tmp free.
type kernel struct {
	Name  string // OP suffix: MaxSB, AddQ, ...
	Doc   string
	step  func(acc, x, tmp string) string
	Float bool   // a float max or min: the fold also reports NaNs
	Instr string // a float fold's VMAX/VMIN instruction
	Fold  bool   // emit a fold
	Vec   bool   // emit a vec step
	Rows  bool   // emit a rows kernel (integers)
	Size  int    // element size in bytes
	Ident uint64 // the identity of the operation, one element's bits
}

func simple(instr string) func(acc, x, tmp string) string {
	return func(acc, x, tmp string) string {
		return fmt.Sprintf("\t%s %s, %s, %s\n", instr, x, acc, acc)
	}
}

// blend64 is the int64 max (gt "acc>x") or min: acc = acc OP x ? acc : x.
func blend64(isMax bool) func(acc, x, tmp string) string {
	return func(acc, x, tmp string) string {
		var s strings.Builder
		if isMax {
			fmt.Fprintf(&s, "\tVPCMPGTQ %s, %s, %s\n", x, acc, tmp) // tmp = acc > x
		} else {
			fmt.Fprintf(&s, "\tVPCMPGTQ %s, %s, %s\n", acc, x, tmp) // tmp = x > acc
		}
		fmt.Fprintf(&s, "\tVPBLENDVB %s, %s, %s, %s\n", tmp, acc, x, acc) // acc = tmp ? acc : x
		return s.String()
	}
}

// blendU64 is blend64 for uint64: AVX2 compares signed 64-bit lanes only,
// so both sides have their top bit flipped first (x ^ 2^63 orders as
// int64 as x does as uint64); tmp is made 2^63 in every lane from all
// ones, and Y15 is a second temporary.
func blendU64(isMax bool) func(acc, x, tmp string) string {
	return func(acc, x, tmp string) string {
		var s strings.Builder
		fmt.Fprintf(&s, "\tVPCMPEQQ %[1]s, %[1]s, %[1]s\n\tVPSLLQ $63, %[1]s, %[1]s\n", tmp)
		fmt.Fprintf(&s, "\tVPXOR %s, %s, Y15\n", tmp, acc)   // acc ^ 2^63
		fmt.Fprintf(&s, "\tVPXOR %s, %s, %s\n", tmp, x, tmp) // x ^ 2^63
		if isMax {
			fmt.Fprintf(&s, "\tVPCMPGTQ %s, Y15, %s\n", tmp, tmp) // tmp = acc > x
		} else {
			fmt.Fprintf(&s, "\tVPCMPGTQ Y15, %s, %s\n", tmp, tmp) // tmp = x > acc
		}
		fmt.Fprintf(&s, "\tVPBLENDVB %s, %s, %s, %s\n", tmp, acc, x, acc) // acc = tmp ? acc : x
		return s.String()
	}
}

// mul64 is the wrapping int64 product acc = acc * x without AVX-512:
// lo·lo + (hi·lo + lo·hi) << 32 from the 32-bit VPMULUDQ, modulo 2^64 (as
// gen_simdint.go's mul64AVX2); Y15 is a second temporary.
func mul64(acc, x, tmp string) string {
	var s strings.Builder
	fmt.Fprintf(&s, "\tVPSRLQ $32, %s, %s\n", acc, tmp)
	fmt.Fprintf(&s, "\tVPMULUDQ %s, %s, %s\n", x, tmp, tmp) // hi(acc)·lo(x)
	fmt.Fprintf(&s, "\tVPSRLQ $32, %s, Y15\n", x)
	fmt.Fprintf(&s, "\tVPMULUDQ %s, Y15, Y15\n", acc) // lo(acc)·hi(x)
	fmt.Fprintf(&s, "\tVPADDQ Y15, %s, %s\n", tmp, tmp)
	fmt.Fprintf(&s, "\tVPSLLQ $32, %s, %s\n", tmp, tmp)
	fmt.Fprintf(&s, "\tVPMULUDQ %s, %s, %s\n", x, acc, acc) // lo(acc)·lo(x)
	fmt.Fprintf(&s, "\tVPADDQ %s, %s, %s\n", tmp, acc, acc)
	return s.String()
}

// exactFloat is NumPy's max (min) fold step, maxFloat: acc stays when
// acc >= x (acc <= x) or acc is NaN, else x. With skipNaN it is the step
// of a max (min) that skips NaNs, nanMaxFloat: acc stays when acc >= x
// (acc <= x) or x is NaN, else x (so a NaN accumulator, a line of NaNs so
// far, gives way to a number).
func exactFloat(suffix string, pred string, skipNaN bool) func(acc, x, tmp string) string {
	return func(acc, x, tmp string) string {
		nan := acc
		if skipNaN {
			nan = x
		}
		var s strings.Builder
		fmt.Fprintf(&s, "\tVCMP%s $%s, %s, %s, %s\n", suffix, pred, x, acc, tmp) // tmp = acc >= x, ordered
		fmt.Fprintf(&s, "\tVCMP%s $0x03, %s, %s, Y15\n", suffix, nan, nan)       // Y15 = acc (x) is NaN
		fmt.Fprintf(&s, "\tVOR%s Y15, %s, %s\n", suffix, tmp, tmp)
		fmt.Fprintf(&s, "\tVBLENDV%s %s, %s, %s, %s\n", suffix, tmp, acc, x, acc) // acc = tmp ? acc : x
		return s.String()
	}
}

func kernels() []kernel {
	var ks []kernel
	add := func(name, doc string, step func(acc, x, tmp string) string, fold bool, size int, ident uint64) {
		ks = append(ks, kernel{Name: name, Doc: doc, step: step, Fold: fold, Vec: true, Rows: fold, Size: size, Ident: ident})
	}
	for _, w := range []struct {
		s, u, bits string
		size       int
	}{{"SB", "UB", "8", 1}, {"SW", "UW", "16", 2}, {"SD", "UD", "32", 4}} {
		bits := uint(8 * w.size)
		ones := uint64(1)<<bits - 1
		add("Max"+w.s, "max of int"+w.bits, simple("VPMAX"+w.s), true, w.size, 1<<(bits-1))
		add("Min"+w.s, "min of int"+w.bits, simple("VPMIN"+w.s), true, w.size, ones>>1)
		add("Max"+w.u, "max of uint"+w.bits, simple("VPMAX"+w.u), true, w.size, 0)
		add("Min"+w.u, "min of uint"+w.bits, simple("VPMIN"+w.u), true, w.size, ones)
	}
	add("MaxSQ", "max of int64", blend64(true), true, 8, 1<<63)
	add("MinSQ", "min of int64", blend64(false), true, 8, 1<<63-1)
	add("MaxUQ", "max of uint64", blendU64(true), true, 8, 0)
	add("MinUQ", "min of uint64", blendU64(false), true, 8, 1<<64-1)
	for _, w := range []struct {
		s, bits string
		size    int
	}{{"B", "8", 1}, {"W", "16", 2}, {"D", "32", 4}, {"Q", "64", 8}} {
		add("Add"+w.s, "wrapping sum of "+w.bits+"-bit integers", simple("VPADD"+w.s), true, w.size, 0)
	}
	add("MulW", "wrapping product of 16-bit integers", simple("VPMULLW"), true, 2, 1)
	add("MulD", "wrapping product of 32-bit integers", simple("VPMULLD"), true, 4, 1)
	add("MulQ", "wrapping product of 64-bit integers", mul64, true, 8, 1)
	// acc |= (x == 0): all ones in the lanes of zeros (floats: ±0, not
	// NaN), for all(x) along kept axes (nonzeroCols).
	for _, z := range []struct{ s, cmp, doc string }{
		{"Q", "VPCMPEQQ %[2]s, %[3]s, %[3]s", "64-bit integer"},
		{"PS", "VCMPPS $0x00, %[3]s, %[2]s, %[3]s", "float32"},
		{"PD", "VCMPPD $0x00, %[3]s, %[2]s, %[3]s", "float64"},
	} {
		cmp := z.cmp
		ks = append(ks, kernel{Name: "ZeroOr" + z.s, Doc: "acc |= (x == 0) of " + z.doc + "s (all ones or 0)", Vec: true,
			step: func(acc, x, tmp string) string {
				return fmt.Sprintf("\tVPXOR %[3]s, %[3]s, %[3]s\n\t"+cmp+"\n\tVPOR %[3]s, %[1]s, %[1]s\n", acc, x, tmp)
			}})
	}
	add("Or", "or of bools (bytes 0 and 1)", simple("VPOR"), false, 1, 0)
	add("And", "and of bools (bytes 0 and 1)", simple("VPAND"), false, 1, 1)
	for _, f := range []struct {
		s, name string
		size    int
	}{{"PS", "float32", 4}, {"PD", "float64", 8}} {
		add("Add"+f.s, "sum of "+f.name+" (acc + x)", simple("VADD"+f.s), false, f.size, 0)
		add("Mul"+f.s, "product of "+f.name+" (acc * x)", simple("VMUL"+f.s), false, f.size, 0)
		add("Max"+f.s, "max of "+f.name+" (maxFloat)", exactFloat(f.s, "0x1d", false), false, f.size, 0)
		add("Min"+f.s, "min of "+f.name+" (minFloat)", exactFloat(f.s, "0x12", false), false, f.size, 0)
		add("NanMax"+f.s, "max of "+f.name+" skipping NaNs (nanMaxFloat)", exactFloat(f.s, "0x1d", true), false, f.size, 0)
		add("NanMin"+f.s, "min of "+f.name+" skipping NaNs (nanMinFloat)", exactFloat(f.s, "0x12", true), false, f.size, 0)
		// The folds: plain VMAX/VMIN with a NaN flag.
		for _, op := range []string{"Max", "Min"} {
			s, instr := f.s, "V"+strings.ToUpper(op)+f.s
			ks = append(ks, kernel{Name: op + f.s, Doc: strings.ToLower(op) + " of " + f.name,
				Float: true, Instr: instr, Fold: true, Size: f.size,
				step: func(acc, x, tmp string) string {
					return fmt.Sprintf("\t%s %s, %s, %s\n\tVCMP%s $0x03, %s, %s, %s\n\tVOR%s %s, Y12, Y12\n",
						instr, x, acc, acc, s, x, x, tmp, s, tmp)
				}})
		}
	}
	return ks
}

var tmpl = template.Must(template.New("s").Parse(`// Code generated by gen_reduce.go; DO NOT EDIT.

//go:build amd64 && !purego

#include "textflag.h"
{{range .}}{{if .Vec}}
// func redVec{{.Name}}(acc, x []byte): {{.Doc}}, element by element
// over len(acc)&^31 bytes.
TEXT ·redVec{{.Name}}(SB), NOSPLIT, $0-48
	MOVQ acc_base+0(FP), DI
	MOVQ acc_len+8(FP), CX
	MOVQ x_base+24(FP), SI
	SHRQ $5, CX
	JZ   done
loop:
	VMOVDQU (DI), Y0
	VMOVDQU (SI), Y1
{{.VecBody}}	VMOVDQU Y0, (DI)
	ADDQ $32, DI
	ADDQ $32, SI
	DECQ CX
	JNZ  loop
done:
	VZEROUPPER
	RET
{{end}}{{if .Fold}}
// func redFold{{.Name}}{{if .Float}}F{{end}}(acc *[128]byte, x []byte){{if .Float}} (nan bool){{end}}: {{.Doc}},
// lane by lane into the partials acc, over len(x)&^31 bytes.
TEXT ·redFold{{.Name}}{{if .Float}}F{{end}}(SB), NOSPLIT, ${{if .Float}}0-33{{else}}0-32{{end}}
	MOVQ acc+0(FP), DI
	MOVQ x_base+8(FP), SI
	MOVQ x_len+16(FP), CX
	VMOVDQU (DI), Y0
	VMOVDQU 32(DI), Y1
	VMOVDQU 64(DI), Y2
	VMOVDQU 96(DI), Y3
{{if .Float}}	VPXOR Y12, Y12, Y12
	VPXOR Y13, Y13, Y13
{{end}}	MOVQ CX, BX
	SHRQ $7, CX
	JZ   rest
loop:
	VMOVDQU (SI), Y4
	VMOVDQU 32(SI), Y5
	VMOVDQU 64(SI), Y6
	VMOVDQU 96(SI), Y7
{{.FoldBody}}	ADDQ $128, SI
	DECQ CX
	JNZ  loop
rest:
	// The last 32-byte blocks, into the first partials.
	SHRQ $5, BX
	ANDQ $3, BX
	JZ   store
restloop:
	VMOVDQU (SI), Y4
{{.RestBody}}	ADDQ $32, SI
	DECQ BX
	JNZ  restloop
store:
	// The four partials into one (for floats a NaN among them is moot:
	// the flag tells).
{{.Combine}}	VMOVDQU Y0, (DI)
{{if .Float}}	VPOR Y13, Y12, Y12
	VPTEST Y12, Y12
	SETNE  nan+32(FP)
{{end}}	VZEROUPPER
	RET
{{end}}{{end}}`))

var goTmpl = template.Must(template.New("go").Funcs(template.FuncMap{"inc": func(i int) int { return i + 1 }}).Parse(`// Code generated by gen_reduce.go; DO NOT EDIT.

//go:build amd64 && !purego

package cpu

import "unsafe"
{{range .Kernels}}{{if .Vec}}
//go:noescape
func redVec{{.Name}}(acc, x []byte)
{{end}}{{if .Fold}}
//go:noescape
func redFold{{.Name}}{{if .Float}}F(acc *[128]byte, x []byte) (nan bool){{else}}(acc *[128]byte, x []byte){{end}}
{{end}}{{end}}{{range .Has}}
//go:noescape
func redHas{{.Name}}(x []byte) bool
{{end}}{{range .Finds}}
//go:noescape
func redFind{{.Name}}(x []byte, v uint64) (off int)
{{end}}
//go:noescape
func redSum8PD(r *[8]float64, a []float64)

//go:noescape
func redSum8PS(r *[8]float32, a []float32)
{{range .Kernels}}{{if .Rows}}
//go:noescape
func redRows{{.Name}}(out, x []byte, l int)
{{end}}{{if .Vec}}
//go:noescape
func redVecs{{.Name}}(acc, x []byte, rows, stride int)
{{end}}{{end}}{{range .ArgInts}}
//go:noescape
func redArgMax{{.}}(x []byte) (idx int, nan bool)

//go:noescape
func redArgMin{{.}}(x []byte) (idx int, nan bool)
{{end}}{{range .ArgCols}}
//go:noescape
func redArgColsMax{{.}}(bv, bi, x []byte, rows, stride, j int)

//go:noescape
func redArgColsMin{{.}}(bv, bi, x []byte, rows, stride, j int)
{{end}}{{range .Floats}}
//go:noescape
func redRowsSum{{.}}(out, x []byte, l int)

//go:noescape
func redArgMax{{.}}(x []byte) (idx int, nan bool)

//go:noescape
func redArgMin{{.}}(x []byte) (idx int, nan bool)

//go:noescape
func redArgMax{{.}}512(x []byte) (idx int, nan bool)

//go:noescape
func redArgMin{{.}}512(x []byte) (idx int, nan bool)

//go:noescape
func redRowsMax{{.}}(out, x []byte, l int) (done int)

//go:noescape
func redRowsMin{{.}}(out, x []byte, l int) (done int)

//go:noescape
func redRowsNanMax{{.}}(out, x []byte, l int) (done int)

//go:noescape
func redRowsNanMin{{.}}(out, x []byte, l int) (done int)
{{end}}
// pairLeafF64 is sum8Go for float64 (len(a) >= 8), the accumulators by
// redSum8PD.
func pairLeafF64(a []float64) float64 {
	if !haveAVX2 {
		return sum8Go(a)
	}
	var r [8]float64
	redSum8PD(&r, a[:len(a)&^7])
	return ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]))
}

// cpairLeaf64 is cpairLeaf128 for complex64, by redSum8PS.
func cpairLeaf64(r *[4]complex64, a []complex64) bool {
	if !haveAVX2 {
		return false
	}
	redSum8PS((*[8]float32)(unsafe.Pointer(r)), unsafe.Slice((*float32)(unsafe.Pointer(unsafe.SliceData(a))), 2*len(a)))
	return true
}

// cpairLeaf128 sets r to cpairwise's four complex accumulators over a
// (len(a) a multiple of 4, at least 4) by redSum8PD, and reports whether
// it did: the real and imaginary parts of r[j] are the float64
// accumulators 2j and 2j+1 of a read as float64s, each the same sums in
// the same order.
func cpairLeaf128(r *[4]complex128, a []complex128) bool {
	if !haveAVX2 {
		return false
	}
	redSum8PD((*[8]float64)(unsafe.Pointer(r)), unsafe.Slice((*float64)(unsafe.Pointer(unsafe.SliceData(a))), 2*len(a)))
	return true
}

// The kernels by name, for the CPU in use (none without AVX2). The folds
// are numbered from 1, for redFold and redFoldF: called directly, the
// assembly does not make their partials escape.
var (
	redVecAsm   = map[string]func(acc, x []byte){}
	redFoldAsm  = map[string]int{}
	redFoldAsmF = map[string]int{}
	redHasAsm   = map[string]func(x []byte) bool{}
	redFindAsm  = map[string]func(x []byte, v uint64) int{}
	redRowsAsm  = map[string]func(out, x []byte, l int){}
	redRowsAsmF = map[string]func(out, x []byte, l int) int{}
	redVecsAsm  = map[string]func(acc, x []byte, rows, stride int){}
	redArgAsm   = map[string]func(x []byte) (int, bool){}
	redArgCols  = map[string]func(bv, bi, x []byte, rows, stride, j int){}
	// redArgAsm512 are the float kernels of redArgAsm over 256-byte
	// groups, where the CPU has AVX-512.
	redArgAsm512 = map[string]func(x []byte) (int, bool){}
)

// redFold calls the integer fold numbered i in redFoldAsm.
func redFold(i int, acc *[128]byte, x []byte) {
	switch i {
{{range $i, $k := .Kernels}}{{if and $k.Fold (not $k.Float)}}	case {{inc $i}}:
		redFold{{$k.Name}}(acc, x)
{{end}}{{end}}	default:
		panic("cpu: no reduction fold kernel")
	}
}

// redFoldF calls the float fold numbered i in redFoldAsmF.
func redFoldF(i int, acc *[128]byte, x []byte) bool {
	switch i {
{{range $i, $k := .Kernels}}{{if and $k.Fold $k.Float}}	case {{inc $i}}:
		return redFold{{$k.Name}}F(acc, x)
{{end}}{{end}}	}
	panic("cpu: no reduction fold kernel")
}

func init() {
	if !haveAVX2 {
		return
	}
{{range $i, $k := .Kernels}}{{if .Vec}}	redVecAsm["{{.Name}}"] = redVec{{.Name}}
{{end}}{{if .Fold}}{{if .Float}}	redFoldAsmF["{{.Name}}"] = {{inc $i}}
{{else}}	redFoldAsm["{{.Name}}"] = {{inc $i}}
{{end}}{{end}}{{end}}{{range .Has}}	redHasAsm["{{.Name}}"] = redHas{{.Name}}
{{end}}{{range .Finds}}	redFindAsm["{{.Name}}"] = redFind{{.Name}}
{{end}}{{range .Kernels}}{{if .Rows}}	redRowsAsm["{{.Name}}"] = redRows{{.Name}}
{{end}}{{if .Vec}}	redVecsAsm["{{.Name}}"] = redVecs{{.Name}}
{{end}}{{end}}{{range .ArgInts}}	redArgAsm["Max{{.}}"] = redArgMax{{.}}
	redArgAsm["Min{{.}}"] = redArgMin{{.}}
{{end}}{{range .ArgCols}}	redArgCols["Max{{.}}"] = redArgColsMax{{.}}
	redArgCols["Min{{.}}"] = redArgColsMin{{.}}
{{end}}{{range .Floats}}	redArgAsm["Max{{.}}"] = redArgMax{{.}}
	redArgAsm["Min{{.}}"] = redArgMin{{.}}
	redRowsAsm["Sum{{.}}"] = redRowsSum{{.}}
	redRowsAsmF["Max{{.}}"] = redRowsMax{{.}}
	redRowsAsmF["Min{{.}}"] = redRowsMin{{.}}
	redRowsAsmF["NanMax{{.}}"] = redRowsNanMax{{.}}
	redRowsAsmF["NanMin{{.}}"] = redRowsNanMin{{.}}
	if haveAVX512 {
		redArgAsm512["Max{{.}}"] = redArgMax{{.}}512
		redArgAsm512["Min{{.}}"] = redArgMin{{.}}512
	}
{{end}}}
`))

// A has kernel, redHasNAME(x []byte) bool, reports whether an element
// of x[:len(x)&^31] is zero (non-zero), stopping at the first 128-byte
// block holding one: any and all of x != 0. test sets its register from
// the memory operand, all ones in the lanes that hit, using Y15 = 0.
type has struct {
	Name, Doc string
	test      func(mem, reg string) string
}

func hasKernels() []has {
	var hs []has
	for _, w := range []struct{ s, bits string }{{"B", "8"}, {"W", "16"}, {"D", "32"}, {"Q", "64"}} {
		hs = append(hs, has{"Zero" + w.s, "some " + w.bits + "-bit integer is 0", func(mem, reg string) string {
			return fmt.Sprintf("\tVPCMPEQ%s %s, Y15, %s\n", w.s, mem, reg)
		}})
	}
	// Any non-zero bit: a non-zero integer of any width.
	hs = append(hs, has{"Nonzero", "some integer is not 0", func(mem, reg string) string {
		return fmt.Sprintf("\tVMOVDQU %s, %s\n", mem, reg)
	}})
	for _, f := range []struct{ s, name string }{{"PS", "float32"}, {"PD", "float64"}} {
		hs = append(hs, has{"Zero" + f.s, "some " + f.name + " is ±0", func(mem, reg string) string {
			return fmt.Sprintf("\tVCMP%s $0x00, %s, Y15, %s\n", f.s, mem, reg) // 0 == x, ordered
		}}, has{"Nonzero" + f.s, "some " + f.name + " is not ±0 (NaN is not)", func(mem, reg string) string {
			return fmt.Sprintf("\tVCMP%s $0x04, %s, Y15, %s\n", f.s, mem, reg) // 0 != x, or unordered
		}})
	}
	return hs
}

// sumAsm is the float64 pairwise-sum leaf, and the float32 one complex64
// sums take.
const sumAsm = `
// func redSum8PD(r *[8]float64, a []float64): the accumulators of
// NumPy's pairwise-sum leaf (sum8Go): r[j] = a[j], then r[j] += a[i+j]
// for each further group of 8, over len(a)&^7 elements (at least 8).
TEXT ·redSum8PD(SB), NOSPLIT, $0-32
	MOVQ r+0(FP), DI
	MOVQ a_base+8(FP), SI
	MOVQ a_len+16(FP), CX
	VMOVUPD (SI), Y0
	VMOVUPD 32(SI), Y1
	ADDQ $64, SI
	SHRQ $3, CX
	DECQ CX
	JZ   store
loop:
	VADDPD (SI), Y0, Y0
	VADDPD 32(SI), Y1, Y1
	ADDQ $64, SI
	DECQ CX
	JNZ  loop
store:
	VMOVUPD Y0, (DI)
	VMOVUPD Y1, 32(DI)
	VZEROUPPER
	RET

// func redSum8PS(r *[8]float32, a []float32): redSum8PD on float32 (for
// complex64's pairwise leaf, cpairLeaf64: four complex accumulators, the
// eight lanes of one register), over len(a)&^7 elements (at least 8).
TEXT ·redSum8PS(SB), NOSPLIT, $0-32
	MOVQ r+0(FP), DI
	MOVQ a_base+8(FP), SI
	MOVQ a_len+16(FP), CX
	VMOVUPS (SI), Y0
	ADDQ $32, SI
	SHRQ $3, CX
	DECQ CX
	JZ   store32
loop32:
	VADDPS (SI), Y0, Y0
	ADDQ $32, SI
	DECQ CX
	JNZ  loop32
store32:
	VMOVUPS Y0, (DI)
	VZEROUPPER
	RET

`

var hasTmpl = template.Must(template.New("has").Parse(`{{range .}}
// func redHas{{.Name}}(x []byte) bool: {{.Doc}} in x[:len(x)&^31]?
TEXT ·redHas{{.Name}}(SB), NOSPLIT, $0-25
	MOVQ x_base+0(FP), SI
	MOVQ x_len+8(FP), CX
	VPXOR Y15, Y15, Y15
	MOVQ CX, BX
	SHRQ $7, CX
	JZ   rest
loop:
{{.Body}}	VPOR Y1, Y0, Y0
	VPOR Y3, Y2, Y2
	VPOR Y2, Y0, Y0
	VPTEST Y0, Y0
	JNZ  found
	ADDQ $128, SI
	DECQ CX
	JNZ  loop
rest:
	SHRQ $5, BX
	ANDQ $3, BX
	JZ   none
restloop:
{{.Rest}}	VPTEST Y0, Y0
	JNZ  found
	ADDQ $32, SI
	DECQ BX
	JNZ  restloop
none:
	MOVB $0, ret+24(FP)
	VZEROUPPER
	RET
found:
	MOVB $1, ret+24(FP)
	VZEROUPPER
	RET
{{end}}`))

// findTmpl writes redFindOP(x []byte, v uint64) (off int): the byte
// offset of the first 32-byte block of x[:len(x)&^31] holding an element
// equal to v (its low bytes, broadcast), or len(x)&^31: where argmax
// finds the first extreme of a run.
var findTmpl = template.Must(template.New("find").Parse(`{{range .}}
// func redFind{{.Name}}(x []byte, v uint64) (off int): the first 32-byte
// block of x[:len(x)&^31] holding {{.Doc}} equal to v.
TEXT ·redFind{{.Name}}(SB), NOSPLIT, $0-40
	MOVQ x_base+0(FP), SI
	MOVQ x_len+8(FP), CX
	ANDQ $~31, CX
	MOVQ v+24(FP), BX
	VMOVQ BX, X15
	VPBROADCAST{{.Bcast}} X15, Y15
	XORQ AX, AX
loop:
	CMPQ AX, CX
	JAE  done
	{{.Cmp}} (SI)(AX*1), Y15, Y0
	VPTEST Y0, Y0
	JNZ  done
	ADDQ $32, AX
	JMP  loop
done:
	MOVQ AX, off+32(FP)
	VZEROUPPER
	RET
{{end}}`))

type find struct{ Name, Doc, Bcast, Cmp string }

var finds = []find{
	{"B", "a byte", "B", "VPCMPEQB"},
	{"W", "a 16-bit integer", "W", "VPCMPEQW"},
	{"D", "a 32-bit integer", "D", "VPCMPEQD"},
	{"Q", "a 64-bit integer", "Q", "VPCMPEQQ"},
	{"PS", "a float32 (==: ±0 equal)", "D", "VCMPPS $0x00,"},
	{"PD", "a float64 (==: ±0 equal)", "Q", "VCMPPD $0x00,"},
}

// The rows kernels reduce each of the rows of l bytes of x (a reduction
// along a short last axis) to one element of out, len(out)/size rows, in
// one call: redRowsNAME(out, x []byte, l int), l >= 32.
//
//   - Integers (any order gives the same result): two accumulators over
//     the 32-byte blocks of the row; the last l%32 bytes are those of the
//     last 32 bytes of the row (which start inside it) in the lanes a
//     sliding mask (redTailMask) selects, the identity in the others;
//     then the two accumulators and the lanes of the register are
//     combined.
//   - float32 and float64 sums of rows of 8 to 128 elements (redRowsSumPS,
//     redRowsSumPD): NumPy's pairwise leaf in sum8Go's order, r[j] = a[j],
//     r[j] += a[8i+j], ((r0+r1)+(r2+r3))+((r4+r5)+(r6+r7)), then the
//     last len%8 elements one by one, then added to +0 (the identity
//     runReduce starts from): the same operations on the same operands.
//     Where two NaNs meet, the first operand's payload wins, so the
//     operands are also in the order of the reference: sum8F32AVX2's
//     for float32 (r0+r1 ...), and for float64 the order the Go compiler
//     gives pairLeafF64's combine, ((r1+r0)+(r3+r2))+((r7+r6)+(r5+r4))
//     (TestRowsKernelsFloat checks it).
//   - float max and min (redRowsMaxPS, ...): VMAX/VMIN over the row (the
//     last 32 bytes again: max and min may see an element twice), with a
//     NaN flag; a row holding a NaN or whose extreme is a zero (whose
//     sign the order decides) stops the kernel, which returns the number
//     of rows done: the caller folds that row in Go and calls again.

// argColTypes are the element types of the redArgCols kernels.
var argColTypes = []string{"PS", "PD", "D", "Q", "B"}

var shifts = map[int]int{1: 0, 2: 1, 4: 2, 8: 3, 32: 5, 64: 6}

var bcast = map[int]string{1: "B", 2: "W", 4: "D", 8: "Q"}

// horizontal combines the lanes of Y0 into its first element with step.
func horizontal(step func(acc, x, tmp string) string, size int) string {
	var b strings.Builder
	b.WriteString("\tVEXTRACTI128 $1, Y0, X1\n" + step("Y0", "Y1", "Y8"))
	b.WriteString("\tVPSHUFD $0x4E, Y0, Y1\n" + step("Y0", "Y1", "Y8"))
	if size <= 4 {
		b.WriteString("\tVPSHUFD $0xB1, Y0, Y1\n" + step("Y0", "Y1", "Y8"))
	}
	if size <= 2 {
		b.WriteString("\tVPSRLD $16, Y0, Y1\n" + step("Y0", "Y1", "Y8"))
	}
	if size == 1 {
		b.WriteString("\tVPSRLW $8, Y0, Y1\n" + step("Y0", "Y1", "Y8"))
	}
	return b.String()
}

func rowsInt(k kernel) string {
	var b strings.Builder
	store := map[int]string{
		1: "\tVMOVD X0, AX\n\tMOVB AX, (DI)\n",
		2: "\tVMOVD X0, AX\n\tMOVW AX, (DI)\n",
		4: "\tVMOVD X0, (DI)\n",
		8: "\tVMOVQ X0, (DI)\n",
	}[k.Size]
	fmt.Fprintf(&b, `
// func redRows%[1]s(out, x []byte, l int): %[2]s of each row of l bytes
// (l >= 32) of x into one element of out.
TEXT ·redRows%[1]s(SB), NOSPLIT, $0-56
	MOVQ out_base+0(FP), DI
	MOVQ out_len+8(FP), CX
	MOVQ x_base+24(FP), SI
	MOVQ l+48(FP), DX
	SHRQ $%[3]d, CX
	TESTQ CX, CX
	JZ   done
	MOVQ $0x%[4]x, AX
	VMOVQ AX, X14
	VPBROADCAST%[5]s X14, Y14
	MOVQ DX, BX
	ANDQ $31, BX
	LEAQ redTailMask<>(SB), AX
	VMOVDQU (AX)(BX*1), Y13
	MOVQ DX, R8
	SHRQ $5, R8
row:
	VMOVDQU (SI), Y0
	VMOVDQA Y14, Y1
	LEAQ 32(SI), R10
	LEAQ -1(R8), R9
pair:
	CMPQ R9, $2
	JB   one
	VMOVDQU (R10), Y4
	VMOVDQU 32(R10), Y5
%[6]s%[7]s	ADDQ $64, R10
	SUBQ $2, R9
	JMP  pair
one:
	TESTQ R9, R9
	JZ   tail
	VMOVDQU (R10), Y4
%[8]stail:
	VMOVDQU -32(SI)(DX*1), Y4
	VPBLENDVB Y13, Y4, Y14, Y4
%[9]s%[10]s%[11]s%[12]s	ADDQ $%[13]d, DI
	ADDQ DX, SI
	DECQ CX
	JNZ  row
done:
	VZEROUPPER
	RET
`, k.Name, k.Doc, shifts[k.Size], k.Ident, bcast[k.Size],
		k.step("Y0", "Y4", "Y8"), k.step("Y1", "Y5", "Y9"), k.step("Y0", "Y4", "Y8"),
		k.step("Y1", "Y4", "Y8"), k.step("Y0", "Y1", "Y8"), horizontal(k.step, k.Size), store, k.Size)
	return b.String()
}

// rowsSum writes redRowsSumPS or redRowsSumPD.
func rowsSum(f string) string {
	size, t, leaf, combine := 4, "SS", "", ""
	if f == "PS" {
		leaf = "\tVMOVUPS (SI), Y0\n"
		combine = `	VADDPS (R10), Y0, Y0
	ADDQ $32, R10
	DECQ R9
	JNZ  leaf
combine:
	VSHUFPS $0xB1, Y0, Y0, Y1
	VADDPS Y1, Y0, Y2
	VSHUFPS $0x4E, Y2, Y2, Y3
	VADDPS Y3, Y2, Y4
	VEXTRACTF128 $1, Y4, X5
	VADDSS X5, X4, X6
`
	} else {
		size, t = 8, "SD"
		leaf = "\tVMOVUPD (SI), Y0\n\tVMOVUPD 32(SI), Y1\n"
		combine = `	VADDPD (R10), Y0, Y0
	VADDPD 32(R10), Y1, Y1
	ADDQ $64, R10
	DECQ R9
	JNZ  leaf
combine:
	VSHUFPD $0x5, Y0, Y0, Y2
	VADDPD Y0, Y2, Y3
	VEXTRACTF128 $1, Y3, X4
	VADDSD X4, X3, X5
	VSHUFPD $0x5, Y1, Y1, Y2
	VADDPD Y1, Y2, Y3
	VEXTRACTF128 $1, Y3, X4
	VADDSD X3, X4, X7
	VADDSD X7, X5, X6
`
	}
	group := 8 * size // bytes of a group of eight
	return fmt.Sprintf(`
// func redRowsSum%[1]s(out, x []byte, l int): the pairwise sum of each row of
// l bytes (8 to 128 elements) of x, added to +0, into one element of out.
TEXT ·redRowsSum%[1]s(SB), NOSPLIT, $0-56
	MOVQ out_base+0(FP), DI
	MOVQ out_len+8(FP), CX
	MOVQ x_base+24(FP), SI
	MOVQ l+48(FP), DX
	SHRQ $%[2]d, CX
	TESTQ CX, CX
	JZ   done
	MOVQ DX, R8
	SHRQ $%[3]d, R8
	MOVQ DX, R11
	ANDQ $%[4]d, R11
	SHRQ $%[2]d, R11
row:
%[5]s	LEAQ %[6]d(SI), R10
	LEAQ -1(R8), R9
	TESTQ R9, R9
	JZ   combine
leaf:
%[7]s	MOVQ R11, BX
	TESTQ BX, BX
	JZ   zero
tail:
	VADD%[8]s (R10), X6, X6
	ADDQ $%[9]d, R10
	DECQ BX
	JNZ  tail
zero:
	VXORPS X7, X7, X7
	VADD%[8]s X6, X7, X7
	VMOV%[8]s X7, (DI)
	ADDQ $%[9]d, DI
	ADDQ DX, SI
	DECQ CX
	JNZ  row
done:
	VZEROUPPER
	RET
`, f, shifts[size], shifts[group], group-1, leaf, group, combine, t, size)
}

// rowsExt writes redRowsMaxPS, redRowsMinPS, redRowsMaxPD, redRowsMinPD,
// or with skipNaN redRowsNanMaxPS, ..., the rows kernels of a max or min
// that skips NaNs.
//
// The plain kernels take VMAX/VMIN over each row with a NaN flag, and
// stop at a row holding a NaN. Those that skip NaNs start each row's
// lanes at the fill (-inf for a max, +inf for a min) and take VMAX/VMIN
// with x as the first source and the accumulator as the second, which the
// instruction returns where x is NaN, so NaNs never enter; they stop at a
// row whose extreme is the fill (no number above it, or no number at
// all: the row's NaN or infinity the fold's). Both take the last 32 bytes
// again (an extreme may see an element twice) and stop at a row whose
// extreme is a zero (its sign the order's).
func rowsExt(op, f string, skipNaN bool) string {
	size, t, hor := 4, "SS", `	VEXTRACTF128 $1, Y0, X1
	%[1]s X1, X0, X0
	VSHUFPS $0x4E, X0, X0, X1
	%[1]s X1, X0, X0
	VSHUFPS $0xB1, X0, X0, X1
	%[1]s X1, X0, X0
`
	fill := "\tMOVL $%d, AX\n\tVMOVD AX, X10\n\tVBROADCASTSS X10, Y10\n"
	inf := map[string]int64{"Max": -0x800000, "Min": 0x7f800000} // float32 -inf, +inf
	if f == "PD" {
		size, t, hor = 8, "SD", `	VEXTRACTF128 $1, Y0, X1
	%[1]s X1, X0, X0
	VSHUFPD $0x1, X0, X0, X1
	%[1]s X1, X0, X0
`
		fill = "\tMOVQ $%d, AX\n\tVMOVQ AX, X10\n\tVBROADCASTSD X10, Y10\n"
		inf = map[string]int64{"Max": -0x10000000000000, "Min": 0x7ff0000000000000}
	}
	instr := "V" + strings.ToUpper(op) + f
	lower := strings.ToLower(op)
	name, setup, check := "", "", ""
	doc := fmt.Sprintf(`// func redRows%[1]s%[2]s(out, x []byte, l int) (done int): the %[3]s of each
// row of l bytes (l >= 32) of x into one element of out, up to the first
// row holding a NaN or whose %[3]s is a zero (done: the rows before it).`, op, f, lower)
	loop := fmt.Sprintf(`	VMOVUPS (SI), Y0
	VCMP%[1]s $0x03, Y0, Y0, Y12
	LEAQ 32(SI), R10
	LEAQ -1(R8), R9
	TESTQ R9, R9
	JZ   tail
block:
	VMOVUPS (R10), Y4
	%[2]s Y4, Y0, Y0
	VCMP%[1]s $0x03, Y4, Y4, Y8
	VOR%[1]s Y8, Y12, Y12
	ADDQ $32, R10
	DECQ R9
	JNZ  block
tail:
	VMOVUPS -32(SI)(DX*1), Y4
	%[2]s Y4, Y0, Y0
	VCMP%[1]s $0x03, Y4, Y4, Y8
	VOR%[1]s Y8, Y12, Y12
	VPTEST Y12, Y12
	JNZ  done
`, f, instr)
	if skipNaN {
		name = "Nan"
		doc = fmt.Sprintf(`// func redRowsNan%[1]s%[2]s(out, x []byte, l int) (done int): the %[3]s of
// the numbers of each row of l bytes (l >= 32) of x into one element of
// out, NaNs left out, up to the first row whose %[3]s is a zero or
// infinite (done: the rows before it).`, op, f, lower)
		setup, check = fmt.Sprintf(fill, inf[op]), fmt.Sprintf("\tVUCOMI%s X10, X0\n\tJEQ  done\n", t)
		loop = fmt.Sprintf(`	VMOVAPS Y10, Y0
	MOVQ SI, R10
	MOVQ R8, R9
block:
	VMOVUPS (R10), Y4
	%[1]s Y0, Y4, Y0
	ADDQ $32, R10
	DECQ R9
	JNZ  block
	VMOVUPS -32(SI)(DX*1), Y4
	%[1]s Y0, Y4, Y0
`, instr)
	}
	return fmt.Sprintf("\n"+doc+`
TEXT ·redRows%[9]s%[1]s%[2]s(SB), NOSPLIT, $0-64
	MOVQ out_base+0(FP), DI
	MOVQ out_len+8(FP), CX
	MOVQ x_base+24(FP), SI
	MOVQ l+48(FP), DX
	SHRQ $%[4]d, CX
	TESTQ CX, CX
	JZ   done
	MOVQ DX, R8
	SHRQ $5, R8
	VXORPS X9, X9, X9
%[10]srow:
%[11]s%[6]s	VUCOMI%[7]s X9, X0
	JEQ  done
%[12]s	VMOV%[7]s X0, (DI)
	ADDQ $%[8]d, DI
	ADDQ DX, SI
	DECQ CX
	JNZ  row
done:
	SUBQ out_base+0(FP), DI
	SHRQ $%[4]d, DI
	MOVQ DI, done+56(FP)
	VZEROUPPER
	RET
`, op, f, lower, shifts[size], instr, fmt.Sprintf(hor, instr), t, size, name, setup, loop, check)
}

// vecsAsm writes redVecsNAME(acc, x []byte, rows, stride int): the row
// step of the kernel for each of rows rows of x, stride bytes apart
// (len(acc) >= 32): acc[i] = op(acc[i], row[i]) row after row, the
// last len(acc)%32 bytes by the step on the last 32 bytes of acc and the
// row, stored only in the lanes redTailMask selects (each element takes
// the step once, in row order: the same results as the row step).
func vecsAsm(k out) string {
	return fmt.Sprintf(`
// func redVecs%[1]s(acc, x []byte, rows, stride int): %[2]s, element by
// element, for each of rows rows of x stride bytes apart (len(acc) >= 32).
TEXT ·redVecs%[1]s(SB), NOSPLIT, $0-64
	MOVQ acc_base+0(FP), DI
	MOVQ acc_len+8(FP), DX
	MOVQ x_base+24(FP), SI
	MOVQ rows+48(FP), CX
	MOVQ stride+56(FP), R8
	TESTQ CX, CX
	JZ   done
	MOVQ DX, BX
	ANDQ $31, BX
	LEAQ redTailMask<>(SB), AX
	VMOVDQU (AX)(BX*1), Y13
	MOVQ DX, R11
	SHRQ $5, R11
	// Short rows (a 2-d input's columns shared among the workers) are
	// runs the hardware prefetcher starts over on each: read each run
	// two rows ahead where a call sweeps many rows of the input. Long
	// runs it follows, and a few rows a call (a converted window, in
	// the cache) gain nothing; R13 = 0 prefetches the line being read.
	XORQ R13, R13
	LEAQ (R8)(R8*2), R14
	CMPQ DX, $%[4]d
	JA   quad
	CMPQ CX, $%[5]d
	JB   quad
	LEAQ (R8)(R8*1), R13
quad:
	CMPQ CX, $4
	JB   row
	MOVQ DI, R9
	MOVQ SI, R10
	LEAQ (SI)(R13*2), AX // the next four rows (or these)
	MOVQ R11, R12
	TESTQ R12, R12
	JZ   qtail
qloop:
	PREFETCHT0 (AX)
	PREFETCHT0 (AX)(R8*1)
	PREFETCHT0 (AX)(R8*2)
	PREFETCHT0 (AX)(R14*1)
	VMOVDQU (R9), Y0
	VMOVDQU (R10), Y1
	VMOVDQU (R10)(R8*1), Y4
	VMOVDQU (R10)(R8*2), Y5
	VMOVDQU (R10)(R14*1), Y6
%[6]s	VMOVDQU Y0, (R9)
	ADDQ $32, R9
	ADDQ $32, R10
	ADDQ $32, AX
	DECQ R12
	JNZ  qloop
qtail:
	TESTQ BX, BX
	JZ   qnext
	LEAQ -32(SI)(DX*1), R10
	VMOVDQU -32(DI)(DX*1), Y0
	VMOVDQU (R10), Y1
	VMOVDQU (R10)(R8*1), Y4
	VMOVDQU (R10)(R8*2), Y5
	VMOVDQU (R10)(R14*1), Y6
	VMOVDQA Y0, Y3
%[6]s	VPBLENDVB Y13, Y0, Y3, Y0
	VMOVDQU Y0, -32(DI)(DX*1)
qnext:
	LEAQ (SI)(R8*4), SI
	SUBQ $4, CX
	JMP  quad
row:
	TESTQ CX, CX
	JZ   done
	MOVQ DI, R9
	MOVQ SI, R10
	MOVQ R11, R12
	TESTQ R12, R12
	JZ   tail
loop:
	PREFETCHT0 (R10)(R13*1)
	VMOVDQU (R9), Y0
	VMOVDQU (R10), Y1
%[3]s	VMOVDQU Y0, (R9)
	ADDQ $32, R9
	ADDQ $32, R10
	DECQ R12
	JNZ  loop
tail:
	TESTQ BX, BX
	JZ   next
	VMOVDQU -32(DI)(DX*1), Y0
	VMOVDQU -32(SI)(DX*1), Y1
	VMOVDQA Y0, Y3
%[3]s	VPBLENDVB Y13, Y0, Y3, Y0
	VMOVDQU Y0, -32(DI)(DX*1)
next:
	ADDQ R8, SI
	DECQ CX
	JNZ  row
done:
	VZEROUPPER
	RET
`, k.Name, k.Doc, k.VecBody, vecsPrefetchMax, vecsPrefetchRows, k.QuadBody)
}

// vecsPrefetchMax is the longest row step (bytes of acc) that vecsAsm's
// loop prefetches two rows ahead: sum(x, axis=0) of 1000×1000 float64
// (rows of 4000 bytes a worker) 0.37 → 0.32 ms and of float32 0.22 →
// 0.16–0.19 ms, while rows of 40 KB and more (sum(m, axis=0) of a
// 100×100×100 float64) ran 10% slower with it.
const vecsPrefetchMax = 16 << 10

// vecsPrefetchRows is the fewest rows a call of vecsAsm's loop prefetches
// for: the reductions that convert their input first pass windows of a
// few rows, already in the cache (sum(x, axis=0) of 1000×1000 int8, four
// rows of int64 a window, 0.39 → 0.52 ms when they prefetched too).
const vecsPrefetchRows = 16

// argAsm writes redArgMaxPS, ... (x []byte) (idx int, nan bool): the
// index of the first max (min) of x[:len(x)&^127] (at least one
// 128-byte group) in one pass, and whether x holds a NaN (idx is then
// moot). Four chains (the group's four 32-byte blocks; a compare and a
// blend on one accumulator take longer than a load) keep in each lane
// the extreme and the number of the first group holding it: a later group
// replaces it only when strictly greater (less), ordered. Then each
// lane's group becomes an element index, (group*4+chain)*lanes+lane
// (redIota), and the lanes are merged pairwise, the chains and then the
// halves of the register: the greater (less) value wins, of two equal
// (==, so ±0 too) the smaller index: the first element equal to the
// extreme, as argRowsFloat's search finds it.
func argAsm(op, f string) string {
	isInt := f == "D" || f == "Q"
	wide := f == "PD" || f == "Q" // 64-bit lanes
	pred, add := "0x1e", "VPADDD" // x > best, ordered
	if op == "Min" {
		pred = "0x11" // x < best, ordered
	}
	one, shl, gt, iota, w := "VPSRLD $31, Y9, Y9", "VPSLLD $5", "VPCMPGTD", "redIota32<>", "D"
	if wide {
		add, one, shl, gt, iota, w = "VPADDQ", "VPSRLQ $63, Y9, Y9", "VPSLLQ $4", "VPCMPGTQ", "redIota64<>", "Q"
	}
	// beats sets dst where b beats a (strictly); equal where they are
	// equal (==); blend takes b into a where mask.
	beats := func(a, b, dst string) string {
		if !isInt {
			return fmt.Sprintf("\tVCMP%s $%s, %s, %s, %s\n", f, pred, a, b, dst)
		}
		if op == "Max" {
			return fmt.Sprintf("\t%s %s, %s, %s\n", gt, a, b, dst) // b > a
		}
		return fmt.Sprintf("\t%s %s, %s, %s\n", gt, b, a, dst) // a > b
	}
	equal := func(a, b, dst string) string {
		if isInt {
			return fmt.Sprintf("\tVPCMPEQ%s %s, %s, %s\n", w, a, b, dst)
		}
		return fmt.Sprintf("\tVCMP%s $0x00, %s, %s, %s\n", f, a, b, dst)
	}
	blend := func(mask, b, a string) string {
		if isInt {
			return fmt.Sprintf("\tVPBLENDVB %s, %s, %s, %s\n", mask, b, a, a)
		}
		return fmt.Sprintf("\tVBLENDV%s %s, %s, %s, %s\n", f, mask, b, a, a)
	}
	nanInit := fmt.Sprintf("\tVCMP%[1]s $0x03, Y0, Y1, Y10\n\tVCMP%[1]s $0x03, Y2, Y3, Y11\n\tVOR%[1]s Y11, Y10, Y10\n", f)
	if isInt {
		nanInit = "\tVPXOR Y10, Y10, Y10\n"
	}
	var chains, merge strings.Builder
	for c := range 4 {
		fmt.Fprintf(&chains, "\tVMOVUPS %d(SI), Y11\n", 32*c)
		chains.WriteString(beats(fmt.Sprintf("Y%d", c), "Y11", "Y12"))
		if !isInt {
			fmt.Fprintf(&chains, "\tVCMP%[1]s $0x03, Y11, Y11, Y13\n\tVOR%[1]s Y13, Y10, Y10\n", f)
		}
		chains.WriteString(blend("Y12", "Y11", fmt.Sprintf("Y%d", c)))
		fmt.Fprintf(&chains, "\tVPBLENDVB Y12, Y8, Y%[1]d, Y%[1]d\n", 4+c)
		fmt.Fprintf(&merge, "\t%s, Y%d, Y%d\n\tVPADD%s %s+%d(SB), Y%d, Y%d\n", shl, 4+c, 4+c, w, iota, 32*c, 4+c, 4+c)
	}
	// mergeInto takes (Yb, Yj) into (Ya, Yi) where b beats a, or equals
	// it with a smaller index.
	mergeInto := func(a, i, b, j string) string {
		return beats(a, b, "Y12") + equal(a, b, "Y13") + fmt.Sprintf(`	%[1]s %[2]s, %[3]s, Y14
	VPAND Y14, Y13, Y13
	VPOR Y13, Y12, Y12
`, gt, j, i) + blend("Y12", b, a) + fmt.Sprintf("\tVPBLENDVB Y12, %s, %s, %s\n", j, i, i)
	}
	merge.WriteString(mergeInto("Y0", "Y4", "Y1", "Y5"))
	merge.WriteString(mergeInto("Y2", "Y6", "Y3", "Y7"))
	merge.WriteString(mergeInto("Y0", "Y4", "Y2", "Y6"))
	shuffles := []string{"VPERM2I128 $0x01, %[1]s, %[1]s, %[2]s", "VPSHUFD $0x4E, %[1]s, %[2]s"}
	if !wide {
		shuffles = append(shuffles, "VPSHUFD $0xB1, %[1]s, %[2]s")
	}
	for _, sh := range shuffles {
		merge.WriteString("\t" + fmt.Sprintf(sh, "Y0", "Y1") + "\n\t" + fmt.Sprintf(sh, "Y4", "Y5") + "\n")
		merge.WriteString(mergeInto("Y0", "Y4", "Y1", "Y5"))
	}
	store := "\tVMOVQ X4, AX\n"
	if !wide {
		store = "\tVMOVD X4, AX\n"
	}
	return fmt.Sprintf(`
// func redArg%[1]s%[2]s(x []byte) (idx int, nan bool): the index of the
// first %[6]s of x[:len(x)&^127], and whether x holds a NaN (floats).
TEXT ·redArg%[1]s%[2]s(SB), NOSPLIT, $0-33
	MOVQ x_base+0(FP), SI
	MOVQ x_len+8(FP), CX
	SHRQ $7, CX
	VMOVUPS (SI), Y0
	VMOVUPS 32(SI), Y1
	VMOVUPS 64(SI), Y2
	VMOVUPS 96(SI), Y3
%[10]s	VPXOR Y4, Y4, Y4
	VPXOR Y5, Y5, Y5
	VPXOR Y6, Y6, Y6
	VPXOR Y7, Y7, Y7
	VPXOR Y8, Y8, Y8
	VPCMPEQD Y9, Y9, Y9
	%[5]s
	ADDQ $128, SI
	DECQ CX
	JZ   merge
loop:
	%[4]s Y9, Y8, Y8
%[7]s	ADDQ $128, SI
	DECQ CX
	JNZ  loop
merge:
	VPTEST Y10, Y10
	SETNE nan+32(FP)
	JNE  done
%[8]s%[9]s	MOVQ AX, idx+24(FP)
done:
	VZEROUPPER
	RET
`, op, f, pred, add, one, strings.ToLower(op), chains.String(), merge.String(), store, nanInit)
}

// argAsm512 writes redArgMaxPS512, ... (x []byte) (idx int, nan bool):
// argAsm's search with AVX-512 over x[:len(x)&^255] (at least one
// 256-byte group), four chains of one register each. A compare into a
// mask register and two masked moves take the place of AVX2's compare
// and two three-uop blends, and the NaN test compares two loaded
// registers (unordered) rather than each with itself. The merge is
// argAsm's: the four chains, then the halves, quarters, ... of the
// register.
func argAsm512(op, f string) string {
	pred := "0x1e" // x > best, ordered
	if op == "Min" {
		pred = "0x11"
	}
	add, shl, gt, iota, mov, idxMov, one := "VPADDD", "VPSLLD $6", "VPCMPGTD", "redIota32<>", "VMOVAPS", "VMOVDQA32", "VPSRLD $31"
	if f == "PD" {
		add, shl, gt, iota, mov, idxMov, one = "VPADDQ", "VPSLLQ $5", "VPCMPGTQ", "redIota64<>", "VMOVAPD", "VMOVDQA64", "VPSRLQ $63"
	}
	var chains, merge strings.Builder
	for c := range 4 {
		fmt.Fprintf(&chains, "\tVMOVUPS %d(SI), Z%d\n", 64*c, 10+c)
	}
	fmt.Fprintf(&chains, "\tVCMP%[1]s $0x03, Z10, Z11, K2\n\tVCMP%[1]s $0x03, Z12, Z13, K3\n\tKORW K2, K7, K7\n\tKORW K3, K7, K7\n", f)
	for c := range 4 {
		fmt.Fprintf(&chains, "\tVCMP%[1]s $%[2]s, Z%[3]d, Z%[4]d, K1\n\t%[5]s Z%[4]d, K1, Z%[3]d\n\t%[6]s Z8, K1, Z%[7]d\n",
			f, pred, c, 10+c, mov, idxMov, 4+c)
		fmt.Fprintf(&merge, "\t%s, Z%d, Z%d\n\t%s %s+%d(SB), Z%d, Z%d\n", shl, 4+c, 4+c, add, iota, 64*c, 4+c, 4+c)
	}
	// mergeInto takes (Zb, Zj) into (Za, Zi) where b beats a, or equals
	// it with a smaller index.
	mergeInto := func(a, i, b, j string) string {
		return fmt.Sprintf(`	VCMP%[1]s $%[2]s, %[3]s, %[5]s, K1
	VCMP%[1]s $0x00, %[3]s, %[5]s, K2
	%[7]s %[6]s, %[4]s, K3
	KANDW K3, K2, K2
	KORW K2, K1, K1
	%[8]s %[5]s, K1, %[3]s
	%[9]s %[6]s, K1, %[4]s
`, f, pred, a, i, b, j, gt, mov, idxMov)
	}
	merge.WriteString(mergeInto("Z0", "Z4", "Z1", "Z5"))
	merge.WriteString(mergeInto("Z2", "Z6", "Z3", "Z7"))
	merge.WriteString(mergeInto("Z0", "Z4", "Z2", "Z6"))
	shuffles := []string{"VSHUFF64X2 $0x4E, %[1]s, %[1]s, %[2]s", "VSHUFF64X2 $0xB1, %[1]s, %[1]s, %[2]s",
		"VPSHUFD $0x4E, %[1]s, %[2]s"}
	store := "\tVMOVQ X4, AX\n"
	if f == "PS" {
		shuffles = append(shuffles, "VPSHUFD $0xB1, %[1]s, %[2]s")
		store = "\tVMOVD X4, AX\n"
	}
	for _, sh := range shuffles {
		merge.WriteString("\t" + fmt.Sprintf(sh, "Z0", "Z1") + "\n\t" + fmt.Sprintf(sh, "Z4", "Z5") + "\n")
		merge.WriteString(mergeInto("Z0", "Z4", "Z1", "Z5"))
	}
	return fmt.Sprintf(`
// func redArg%[1]s%[2]s512(x []byte) (idx int, nan bool): the index of the
// first %[3]s of x[:len(x)&^255], and whether x holds a NaN.
TEXT ·redArg%[1]s%[2]s512(SB), NOSPLIT, $0-33
	MOVQ x_base+0(FP), SI
	MOVQ x_len+8(FP), CX
	SHRQ $8, CX
	VMOVUPS (SI), Z0
	VMOVUPS 64(SI), Z1
	VMOVUPS 128(SI), Z2
	VMOVUPS 192(SI), Z3
	VCMP%[2]s $0x03, Z0, Z1, K7
	VCMP%[2]s $0x03, Z2, Z3, K2
	KORW K2, K7, K7
	VPXORD Z4, Z4, Z4
	VPXORD Z5, Z5, Z5
	VPXORD Z6, Z6, Z6
	VPXORD Z7, Z7, Z7
	VPXORD Z8, Z8, Z8
	VPTERNLOGD $0xFF, Z9, Z9, Z9
	%[4]s, Z9, Z9
	ADDQ $256, SI
	DECQ CX
	JZ   merge
loop:
	%[5]s Z9, Z8, Z8
%[6]s	ADDQ $256, SI
	DECQ CX
	JNZ  loop
merge:
	KORTESTW K7, K7
	SETNE nan+32(FP)
	JNE  done
%[7]s%[8]s	MOVQ AX, idx+24(FP)
done:
	VZEROUPPER
	RET
`, op, f, strings.ToLower(op), one, add, chains.String(), merge.String(), store)
}

// argColsAsm writes redArgColsOPT(bv, bi, x []byte, rows, stride, j int):
// argColMax (argColMin) for each of rows rows of x, stride bytes apart,
// numbered j, j+1, ...: where the row's element beats the best in bv
// (strictly greater, or less; for floats also a NaN over a number), it
// replaces it and its row number the int64 in bi; over the first
// len(bv)&^31 bytes of bv (the caller does the other columns).
func argColsAsm(op, t string) string {
	size := map[string]int{"PS": 4, "D": 4, "PD": 8, "Q": 8, "B": 1}[t]
	var cmp string
	switch t {
	case "PS", "PD":
		pred := map[string]string{"Max": "0x1e", "Min": "0x11"}[op]
		cmp = fmt.Sprintf(`	VCMP%[1]s $%[2]s, Y0, Y1, Y2
	VCMP%[1]s $0x03, Y1, Y1, Y3
	VCMP%[1]s $0x07, Y0, Y0, Y4
	VAND%[1]s Y4, Y3, Y3
	VOR%[1]s Y3, Y2, Y2
`, t, pred)
	default:
		gt := "VPCMPGT" + t
		if op == "Max" {
			cmp = "\t" + gt + " Y0, Y1, Y2\n" // v > b
		} else {
			cmp = "\t" + gt + " Y1, Y0, Y2\n" // b > v
		}
	}
	idx := `	VMOVDQU (R12), Y5
	VPBLENDVB Y2, Y15, Y5, Y5
	VMOVDQU Y5, (R12)
	ADDQ $32, R12
`
	if size == 1 {
		// Thirty-two int8 columns: their masks widened to int64, four
		// at a time (bytes 0-15 of Y2, then 16-31).
		// Rows that replace no best value (most, once the column
		// maxima are found) skip the indices.
		var b strings.Builder
		b.WriteString("\tVPTEST Y2, Y2\n\tJZ   same\n")
		for q := range 8 {
			src := "X2"
			if q >= 4 {
				src = "X7"
			}
			if q == 4 {
				b.WriteString("\tVEXTRACTI128 $1, Y2, X7\n")
			}
			if q%4 == 0 {
				fmt.Fprintf(&b, "\tVPMOVSXBQ %s, Y3\n", src)
			} else {
				fmt.Fprintf(&b, "\tVPSRLDQ $%d, %s, X4\n\tVPMOVSXBQ X4, Y3\n", 4*(q%4), src)
			}
			fmt.Fprintf(&b, "\tVMOVDQU %[1]d(R12), Y5\n\tVPBLENDVB Y3, Y15, Y5, Y5\n\tVMOVDQU Y5, %[1]d(R12)\n", 32*q)
		}
		b.WriteString("same:\n\tADDQ $256, R12\n")
		idx = b.String()
	}
	if size == 4 {
		idx = `	VPMOVSXDQ X2, Y3
	VEXTRACTI128 $1, Y2, X4
	VPMOVSXDQ X4, Y4
	VMOVDQU (R12), Y5
	VPBLENDVB Y3, Y15, Y5, Y5
	VMOVDQU Y5, (R12)
	VMOVDQU 32(R12), Y6
	VPBLENDVB Y4, Y15, Y6, Y6
	VMOVDQU Y6, 32(R12)
	ADDQ $64, R12
`
	}
	return fmt.Sprintf(`
// func redArgCols%[1]s%[2]s(bv, bi, x []byte, rows, stride, j int): argCol%[1]s
// of rows rows of x, stride bytes apart, numbered from j, over
// len(bv)&^31 bytes of bv.
TEXT ·redArgCols%[1]s%[2]s(SB), NOSPLIT, $0-96
	MOVQ bv_base+0(FP), DI
	MOVQ bv_len+8(FP), DX
	MOVQ bi_base+24(FP), R9
	MOVQ x_base+48(FP), SI
	MOVQ rows+72(FP), CX
	MOVQ stride+80(FP), R8
	MOVQ j+88(FP), AX
	SHRQ $5, DX
	TESTQ DX, DX
	JZ   done
	TESTQ CX, CX
	JZ   done
	VMOVQ AX, X15
	VPBROADCASTQ X15, Y15
	VPCMPEQD Y14, Y14, Y14
	VPSRLQ $63, Y14, Y14
row:
	MOVQ DI, R10
	MOVQ SI, R11
	MOVQ R9, R12
	MOVQ DX, BX
block:
	VMOVDQU (R10), Y0
	VMOVDQU (R11), Y1
%[3]s	VPBLENDVB Y2, Y1, Y0, Y0
	VMOVDQU Y0, (R10)
%[4]s	ADDQ $32, R10
	ADDQ $32, R11
	DECQ BX
	JNZ  block
	VPADDQ Y14, Y15, Y15
	ADDQ R8, SI
	DECQ CX
	JNZ  row
done:
	VZEROUPPER
	RET
`, op, t, cmp, idx)
}

// iotas are redIota32 and redIota64: 0, 1, ... 63 as int32 and 0, 1,
// ... 31 as int64 (chain c's lanes at 32c in argAsm, 64c in argAsm512).
func iotas() string {
	var b strings.Builder
	for i := 0; i < 64; i += 2 {
		fmt.Fprintf(&b, "DATA redIota32<>+%d(SB)/8, $0x%08x%08x\n", 4*i, i+1, i)
	}
	b.WriteString("GLOBL redIota32<>(SB), RODATA|NOPTR, $256\n")
	for i := range 32 {
		fmt.Fprintf(&b, "DATA redIota64<>+%d(SB)/8, $%d\n", 8*i, i)
	}
	b.WriteString("GLOBL redIota64<>(SB), RODATA|NOPTR, $256\n")
	return b.String()
}

// tailMask is redTailMask: 32 zero bytes, then 32 bytes of ones; its 32
// bytes from t on select the last t bytes of a register.
const tailMask = `
DATA redTailMask<>+0(SB)/8, $0
DATA redTailMask<>+8(SB)/8, $0
DATA redTailMask<>+16(SB)/8, $0
DATA redTailMask<>+24(SB)/8, $0
DATA redTailMask<>+32(SB)/8, $-1
DATA redTailMask<>+40(SB)/8, $-1
DATA redTailMask<>+48(SB)/8, $-1
DATA redTailMask<>+56(SB)/8, $-1
GLOBL redTailMask<>(SB), RODATA|NOPTR, $64
`

type hasOut struct {
	has
	Body, Rest string
}

type out struct {
	kernel
	VecBody, QuadBody, FoldBody, RestBody, Combine string
}

func main() {
	var outs []out
	for _, k := range kernels() {
		o := out{kernel: k}
		if k.Vec {
			o.VecBody = k.step("Y0", "Y1", "Y2")
			o.QuadBody = o.VecBody + k.step("Y0", "Y4", "Y2") + k.step("Y0", "Y5", "Y2") + k.step("Y0", "Y6", "Y2")
		}
		if k.Fold {
			var b strings.Builder
			for i := range 4 {
				b.WriteString(k.step(fmt.Sprintf("Y%d", i), fmt.Sprintf("Y%d", 4+i), fmt.Sprintf("Y%d", 8+i)))
			}
			o.FoldBody = b.String()
			if k.Float {
				// Four VMAX/VMIN, and the NaN flag from two unordered
				// compares of pairs of inputs (a pair is unordered when
				// either holds a NaN) into two flags: 8 instructions a
				// pass rather than 12 (on the AMD EPYC guest, Zen 5,
				// max(x) of 16 kB in the L1 cache took 210 ns with a
				// compare and an OR a vector into one flag).
				b.Reset()
				for i := range 4 {
					fmt.Fprintf(&b, "\t%s Y%d, Y%d, Y%d\n", k.Instr, 4+i, i, i)
				}
				s := k.Instr[len(k.Instr)-2:]
				fmt.Fprintf(&b, "\tVCMP%s $0x03, Y5, Y4, Y8\n\tVCMP%s $0x03, Y7, Y6, Y9\n", s, s)
				fmt.Fprintf(&b, "\tVOR%s Y8, Y12, Y12\n\tVOR%s Y9, Y13, Y13\n", s, s)
				o.FoldBody = b.String()
			}
			o.RestBody = k.step("Y0", "Y4", "Y8")
			o.Combine = k.step("Y0", "Y1", "Y8") + k.step("Y2", "Y3", "Y9") + k.step("Y0", "Y2", "Y8")
		}
		if k.Float {
			// The float folds have no vec step of their own (the exact
			// Max/Min kernels above give it).
			o.Vec = false
		}
		outs = append(outs, o)
	}
	var b bytes.Buffer
	if err := tmpl.Execute(&b, outs); err != nil {
		log.Fatal(err)
	}
	var hos []hasOut
	for _, h := range hasKernels() {
		o := hasOut{has: h, Rest: h.test("(SI)", "Y0")}
		for i := range 4 {
			o.Body += h.test(fmt.Sprintf("%d(SI)", 32*i), fmt.Sprintf("Y%d", i))
		}
		hos = append(hos, o)
	}
	if err := hasTmpl.Execute(&b, hos); err != nil {
		log.Fatal(err)
	}
	if err := findTmpl.Execute(&b, finds); err != nil {
		log.Fatal(err)
	}
	b.WriteString(sumAsm)
	b.WriteString(tailMask)
	b.WriteString(iotas())
	for _, t := range argColTypes {
		b.WriteString(argColsAsm("Max", t))
		b.WriteString(argColsAsm("Min", t))
	}
	for _, o := range outs {
		if o.Rows {
			b.WriteString(rowsInt(o.kernel))
		}
		if o.Vec {
			b.WriteString(vecsAsm(o))
		}
	}
	for _, t := range []string{"D", "Q"} {
		b.WriteString(argAsm("Max", t))
		b.WriteString(argAsm("Min", t))
	}
	for _, f := range []string{"PS", "PD"} {
		b.WriteString(argAsm("Max", f))
		b.WriteString(argAsm("Min", f))
		b.WriteString(argAsm512("Max", f))
		b.WriteString(argAsm512("Min", f))
		b.WriteString(rowsSum(f))
		for _, op := range []string{"Max", "Min"} {
			b.WriteString(rowsExt(op, f, false))
			b.WriteString(rowsExt(op, f, true))
		}
	}
	if err := os.WriteFile("simd_reduce_amd64.s", b.Bytes(), 0o644); err != nil {
		log.Fatal(err)
	}
	b.Reset()
	if err := goTmpl.Execute(&b, struct {
		Kernels []out
		Has     []hasOut
		Finds   []find
		Floats  []string
		ArgCols []string
		ArgInts []string
	}{outs, hos, finds, []string{"PS", "PD"}, argColTypes, []string{"D", "Q"}}); err != nil {
		log.Fatal(err)
	}
	src, err := format.Source(b.Bytes())
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile("simd_reduce_amd64.go", src, 0o644); err != nil {
		log.Fatal(err)
	}
}
