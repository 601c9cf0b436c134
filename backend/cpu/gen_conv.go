//go:build ignore

// gen_conv writes conv_amd64.s: AVX2 and AVX-512 loops that convert
// between numeric element types (integer widening and narrowing, integer →
// float, float32 ↔ float64, float → integers by truncation, → bool), one
// per kernel of the table below. Each
// handles len(d) - len(d)%(4*lanes) elements; conv_amd64.go finishes with
// the Go loop the kernel must match (convL, cvtt32). Run it with go
// generate.
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

// A kernel converts lanes elements per vector step: Ops are its
// instructions for one step, with %[1]d the source offset in bytes, %[2]d
// the register number (0..3) and %[3]d the destination offset.
type kernel struct {
	Name     string
	Dst, Src string // Go element types, for the comment
	DSize    int    // bytes per destination element
	SSize    int    // bytes per source element
	Lanes    int
	Ops      []string
	Go       string // the reference, for the comment
}

var kernels = []kernel{
	// Integer widening: sign-extend a signed source, zero-extend an
	// unsigned one (Go's conversion rule, whatever the destination's
	// signedness).
	widen("cvtI8I16", "int16", "int8", 2, 1, "VPMOVSXBW"),
	widen("cvtU8I16", "int16", "uint8", 2, 1, "VPMOVZXBW"),
	widen("cvtI8I32", "int32", "int8", 4, 1, "VPMOVSXBD"),
	widen("cvtU8I32", "int32", "uint8", 4, 1, "VPMOVZXBD"),
	widen("cvtI8I64", "int64", "int8", 8, 1, "VPMOVSXBQ"),
	widen("cvtU8I64", "int64", "uint8", 8, 1, "VPMOVZXBQ"),
	widen("cvtI16I32", "int32", "int16", 4, 2, "VPMOVSXWD"),
	widen("cvtU16I32", "int32", "uint16", 4, 2, "VPMOVZXWD"),
	widen("cvtI16I64", "int64", "int16", 8, 2, "VPMOVSXWQ"),
	widen("cvtU16I64", "int64", "uint16", 8, 2, "VPMOVZXWQ"),
	widen("cvtI32I64", "int64", "int32", 8, 4, "VPMOVSXDQ"),
	widen("cvtU32I64", "int64", "uint32", 8, 4, "VPMOVZXDQ"),
	// Integer → float: exact for these sources, except int32 → float32,
	// where VCVTDQ2PS rounds to nearest even under the default MXCSR, as
	// Go's CVTSL2SS does.
	{Name: "cvtI32F32", Dst: "float32", Src: "int32", DSize: 4, SSize: 4, Lanes: 8,
		Ops: []string{"VCVTDQ2PS %[1]d(SI), Y%[2]d", "VMOVUPS Y%[2]d, %[3]d(DI)"}},
	extendTo("cvtU8F32", "float32", "uint8", 1, "VPMOVZXBD", "VCVTDQ2PS"),
	extendTo("cvtI16F32", "float32", "int16", 2, "VPMOVSXWD", "VCVTDQ2PS"),
	extendTo("cvtU16F32", "float32", "uint16", 2, "VPMOVZXWD", "VCVTDQ2PS"),
	{Name: "cvtI32F64", Dst: "float64", Src: "int32", DSize: 8, SSize: 4, Lanes: 4,
		Ops: []string{"VCVTDQ2PD %[1]d(SI), Y%[2]d", "VMOVUPD Y%[2]d, %[3]d(DI)"}},
	extendTo("cvtI8F64", "float64", "int8", 1, "VPMOVSXBD", "VCVTDQ2PD"),
	extendTo("cvtU8F64", "float64", "uint8", 1, "VPMOVZXBD", "VCVTDQ2PD"),
	extendTo("cvtI16F64", "float64", "int16", 2, "VPMOVSXWD", "VCVTDQ2PD"),
	extendTo("cvtU16F64", "float64", "uint16", 2, "VPMOVZXWD", "VCVTDQ2PD"),
	// float32 ↔ float64: the vector forms of Go's CVTSS2SD and CVTSD2SS
	// (exact widening, RNE narrowing, a signaling NaN quieted).
	{Name: "cvtF32F64", Dst: "float64", Src: "float32", DSize: 8, SSize: 4, Lanes: 4,
		Ops: []string{"VCVTPS2PD %[1]d(SI), Y%[2]d", "VMOVUPD Y%[2]d, %[3]d(DI)"}},
	{Name: "cvtF64F32", Dst: "float32", Src: "float64", DSize: 4, SSize: 8, Lanes: 4,
		Ops: []string{"VMOVUPD %[1]d(SI), Y%[2]d", "VCVTPD2PSY Y%[2]d, X%[2]d", "VMOVUPS X%[2]d, %[3]d(DI)"}},
	// float → int32 truncating: NaN and values out of range give
	// 0x80000000, the integer indefinite, as cvtt32 does.
	{Name: "cvttF32I32", Dst: "int32", Src: "float32", DSize: 4, SSize: 4, Lanes: 8,
		Ops: []string{"VCVTTPS2DQ %[1]d(SI), Y%[2]d", "VMOVDQU Y%[2]d, %[3]d(DI)"}, Go: "cvtt32(float64(a[i]))"},
	{Name: "cvttF64I32", Dst: "int32", Src: "float64", DSize: 4, SSize: 8, Lanes: 4,
		Ops: []string{"VCVTTPD2DQY %[1]d(SI), X%[2]d", "VMOVDQU X%[2]d, %[3]d(DI)"}, Go: "cvtt32(a[i])"},
	// int64 → float: AVX-512DQ with VL (256-bit forms, no ZMM), used
	// only where haveAVX512DQVL; VCVTQQ2PD and VCVTQQ2PS round to
	// nearest even like Go's CVTSQ2SD and CVTSQ2SS.
	{Name: "cvtI64F64", Dst: "float64", Src: "int64", DSize: 8, SSize: 8, Lanes: 4,
		Ops: []string{"VCVTQQ2PD %[1]d(SI), Y%[2]d", "VMOVUPD Y%[2]d, %[3]d(DI)"}},
	{Name: "cvtI64F32", Dst: "float32", Src: "int64", DSize: 4, SSize: 8, Lanes: 4,
		Ops: []string{"VCVTQQ2PSY %[1]d(SI), X%[2]d", "VMOVUPS X%[2]d, %[3]d(DI)"}},
	// Unsigned → float (AVX-512F/VL), one rounding to nearest even like
	// Go's conversions.
	{Name: "cvtU32F32", Dst: "float32", Src: "uint32", DSize: 4, SSize: 4, Lanes: 8,
		Ops: []string{"VCVTUDQ2PS %[1]d(SI), Y%[2]d", "VMOVUPS Y%[2]d, %[3]d(DI)"}},
	{Name: "cvtU32F64", Dst: "float64", Src: "uint32", DSize: 8, SSize: 4, Lanes: 4,
		Ops: []string{"VCVTUDQ2PD %[1]d(SI), Y%[2]d", "VMOVUPD Y%[2]d, %[3]d(DI)"}},
	{Name: "cvtU64F64", Dst: "float64", Src: "uint64", DSize: 8, SSize: 8, Lanes: 4,
		Ops: []string{"VCVTUQQ2PD %[1]d(SI), Y%[2]d", "VMOVUPD Y%[2]d, %[3]d(DI)"}},
	// float → int64 truncating (AVX-512DQ/VL): NaN and values out of
	// range give 0x8000000000000000, as cvtt64 does.
	{Name: "cvttF64I64", Dst: "int64", Src: "float64", DSize: 8, SSize: 8, Lanes: 4,
		Ops: []string{"VCVTTPD2QQ %[1]d(SI), Y%[2]d", "VMOVDQU Y%[2]d, %[3]d(DI)"}, Go: "cvtt64(a[i])"},
	{Name: "cvttF32I64", Dst: "int64", Src: "float32", DSize: 8, SSize: 4, Lanes: 4,
		Ops: []string{"VCVTTPS2QQ %[1]d(SI), Y%[2]d", "VMOVDQU Y%[2]d, %[3]d(DI)"}, Go: "cvtt64(float64(a[i]))"},

	// AVX-512 (F, DQ, VL; used only where haveAVX512DQVL), 512-bit
	// forms. Widening to float: the AVX2 kernels' instructions on twice
	// the lanes.
	{Name: "cvtI8F32Z", Dst: "float32", Src: "int8", DSize: 4, SSize: 1, Lanes: 16,
		Ops: []string{"VPMOVSXBD %[1]d(SI), Z%[2]d", "VCVTDQ2PS Z%[2]d, Z%[2]d", "VMOVUPS Z%[2]d, %[3]d(DI)"}},
	{Name: "cvtU8F32Z", Dst: "float32", Src: "uint8", DSize: 4, SSize: 1, Lanes: 16,
		Ops: []string{"VPMOVZXBD %[1]d(SI), Z%[2]d", "VCVTDQ2PS Z%[2]d, Z%[2]d", "VMOVUPS Z%[2]d, %[3]d(DI)"}},
	{Name: "cvtI8F64Z", Dst: "float64", Src: "int8", DSize: 8, SSize: 1, Lanes: 8,
		Ops: []string{"VPMOVSXBD %[1]d(SI), Y%[2]d", "VCVTDQ2PD Y%[2]d, Z%[2]d", "VMOVUPD Z%[2]d, %[3]d(DI)"}},
	{Name: "cvtU8F64Z", Dst: "float64", Src: "uint8", DSize: 8, SSize: 1, Lanes: 8,
		Ops: []string{"VPMOVZXBD %[1]d(SI), Y%[2]d", "VCVTDQ2PD Y%[2]d, Z%[2]d", "VMOVUPD Z%[2]d, %[3]d(DI)"}},
	{Name: "cvtI16F32Z", Dst: "float32", Src: "int16", DSize: 4, SSize: 2, Lanes: 16,
		Ops: []string{"VPMOVSXWD %[1]d(SI), Z%[2]d", "VCVTDQ2PS Z%[2]d, Z%[2]d", "VMOVUPS Z%[2]d, %[3]d(DI)"}},
	{Name: "cvtU16F32Z", Dst: "float32", Src: "uint16", DSize: 4, SSize: 2, Lanes: 16,
		Ops: []string{"VPMOVZXWD %[1]d(SI), Z%[2]d", "VCVTDQ2PS Z%[2]d, Z%[2]d", "VMOVUPS Z%[2]d, %[3]d(DI)"}},
	{Name: "cvtI32F64Z", Dst: "float64", Src: "int32", DSize: 8, SSize: 4, Lanes: 8,
		Ops: []string{"VCVTDQ2PD %[1]d(SI), Z%[2]d", "VMOVUPD Z%[2]d, %[3]d(DI)"}},
	{Name: "cvtI64F64Z", Dst: "float64", Src: "int64", DSize: 8, SSize: 8, Lanes: 8,
		Ops: []string{"VCVTQQ2PD %[1]d(SI), Z%[2]d", "VMOVUPD Z%[2]d, %[3]d(DI)"}},
	{Name: "cvtF32F64Z", Dst: "float64", Src: "float32", DSize: 8, SSize: 4, Lanes: 8,
		Ops: []string{"VCVTPS2PD %[1]d(SI), Z%[2]d", "VMOVUPD Z%[2]d, %[3]d(DI)"}},
	// Narrowing integers: VPMOVWB, VPMOVDB, VPMOVDW, VPMOVQB, VPMOVQW and
	// VPMOVQD truncate, keeping the low bits as Go's conversion does (the same
	// bits for either signedness).
	narrowZ("cvtI16I8Z", "int8", "int16", 1, 2, "VPMOVWB"), // AVX-512BW
	narrowZ("cvtI32I8Z", "int8", "int32", 1, 4, "VPMOVDB"),
	narrowZ("cvtI32I16Z", "int16", "int32", 2, 4, "VPMOVDW"),
	narrowZ("cvtI64I8Z", "int8", "int64", 1, 8, "VPMOVQB"),
	narrowZ("cvtI64I16Z", "int16", "int64", 2, 8, "VPMOVQW"),
	narrowZ("cvtI64I32Z", "int32", "int64", 4, 8, "VPMOVQD"),
	// float → 8- and 16-bit integers: truncate to int32 (the integer
	// indefinite 0x80000000 for NaN and out of range, as cvtt32), then
	// keep the low bits (floatToInt's wrap), in one pass.
	{Name: "cvttF32I8Z", Dst: "int8", Src: "float32", DSize: 1, SSize: 4, Lanes: 16,
		Ops: []string{"VCVTTPS2DQ %[1]d(SI), Z%[2]d", "VPMOVDB Z%[2]d, %[3]d(DI)"}, Go: "int8(cvtt32(float64(a[i])))"},
	{Name: "cvttF32I16Z", Dst: "int16", Src: "float32", DSize: 2, SSize: 4, Lanes: 16,
		Ops: []string{"VCVTTPS2DQ %[1]d(SI), Z%[2]d", "VPMOVDW Z%[2]d, %[3]d(DI)"}, Go: "int16(cvtt32(float64(a[i])))"},
	{Name: "cvttF64I8Z", Dst: "int8", Src: "float64", DSize: 1, SSize: 8, Lanes: 8,
		Ops: []string{"VCVTTPD2DQ %[1]d(SI), Y%[2]d", "VPMOVDB Y%[2]d, %[3]d(DI)"}, Go: "int8(cvtt32(a[i]))"},
	{Name: "cvttF64I16Z", Dst: "int16", Src: "float64", DSize: 2, SSize: 8, Lanes: 8,
		Ops: []string{"VCVTTPD2DQ %[1]d(SI), Y%[2]d", "VPMOVDW Y%[2]d, %[3]d(DI)"}, Go: "int16(cvtt32(a[i]))"},
	// → bool, x != 0: a mask of the nonzero lanes (for floats, of the
	// lanes nonzero once the sign bit is shifted out: ±0 give false, NaN
	// true, as x != 0 does), as 0/-1 lanes (VPMOVM2D/Q), made 0/1 and
	// narrowed to bytes.
	toBoolZ("cvtF32BoolZ", "float32", 4, []string{"VPSLLD $1, %[1]d(SI), Z%[2]d", "VPTESTMD Z%[2]d, Z%[2]d, K%[2]d"}),
	toBoolZ("cvtF64BoolZ", "float64", 8, []string{"VPSLLQ $1, %[1]d(SI), Z%[2]d", "VPTESTMQ Z%[2]d, Z%[2]d, K%[2]d"}),
	toBoolZ("cvtI32BoolZ", "int32", 4, []string{"VMOVDQU32 %[1]d(SI), Z%[2]d", "VPTESTMD Z%[2]d, Z%[2]d, K%[2]d"}),
	toBoolZ("cvtI64BoolZ", "int64", 8, []string{"VMOVDQU64 %[1]d(SI), Z%[2]d", "VPTESTMQ Z%[2]d, Z%[2]d, K%[2]d"}),
}

// narrowZ truncates integers of ssize bytes to dsize bytes (AVX-512).
func narrowZ(name, dst, src string, dsize, ssize int, ins string) kernel {
	return kernel{Name: name, Dst: dst, Src: src, DSize: dsize, SSize: ssize, Lanes: 64 / ssize,
		Ops: []string{"VMOVDQU64 %[1]d(SI), Z%[2]d", ins + " Z%[2]d, %[3]d(DI)"}}
}

// toBoolZ converts to bool with test, which leaves the mask of the lanes
// that are true in K0..K3 (AVX-512).
func toBoolZ(name, src string, ssize int, test []string) kernel {
	q := map[int]string{4: "D", 8: "Q"}[ssize]
	ops := append(test, "VPMOVM2"+q+" K%[2]d, Z%[2]d", "VPABS"+q+" Z%[2]d, Z%[2]d", "VPMOV"+q+"B Z%[2]d, %[3]d(DI)")
	return kernel{Name: name, Dst: "bool", Src: src, DSize: 1, SSize: ssize, Lanes: 64 / ssize, Ops: ops, Go: "a[i] != 0"}
}

func widen(name, dst, src string, dsize, ssize int, ins string) kernel {
	return kernel{Name: name, Dst: dst, Src: src, DSize: dsize, SSize: ssize, Lanes: 32 / dsize,
		Ops: []string{ins + " %[1]d(SI), Y%[2]d", "VMOVDQU Y%[2]d, %[3]d(DI)"}}
}

// extendTo widens a small integer to int32 lanes, then converts them.
func extendTo(name, dst, src string, ssize int, ext, cvt string) kernel {
	k := kernel{Name: name, Dst: dst, Src: src, SSize: ssize, Ops: []string{}}
	if dst == "float32" {
		k.DSize, k.Lanes = 4, 8
		k.Ops = []string{ext + " %[1]d(SI), Y%[2]d", cvt + " Y%[2]d, Y%[2]d", "VMOVUPS Y%[2]d, %[3]d(DI)"}
	} else {
		k.DSize, k.Lanes = 8, 4
		k.Ops = []string{ext + " %[1]d(SI), X%[2]d", cvt + " X%[2]d, Y%[2]d", "VMOVUPD Y%[2]d, %[3]d(DI)"}
	}
	return k
}

const unroll = 4

func (k kernel) Per() int { return unroll * k.Lanes }

func (k kernel) Shift() int {
	s := 0
	for 1<<s < k.Per() {
		s++
	}
	return s
}

func (k kernel) SStep() int { return k.Per() * k.SSize }
func (k kernel) DStep() int { return k.Per() * k.DSize }

func (k kernel) Ref() string {
	if k.Go != "" {
		return k.Go
	}
	return k.Dst + "(a[i])"
}

func (k kernel) Body() string {
	var b strings.Builder
	for u := range unroll {
		for _, op := range k.Ops {
			fmt.Fprintf(&b, "\t"+op+"\n", u*k.Lanes*k.SSize, u, u*k.Lanes*k.DSize)
		}
	}
	return b.String()
}

var tmpl = template.Must(template.New("s").Parse(`// Code generated by gen_conv.go; DO NOT EDIT.

//go:build amd64 && !purego

#include "textflag.h"
{{range .}}
// func {{.Name}}(d []{{.Dst}}, a []{{.Src}}), len(d) a multiple of {{.Per}}:
//
//	for i := range d {
//		d[i] = {{.Ref}}
//	}
TEXT ·{{.Name}}(SB), NOSPLIT, $0-48
	MOVQ d_base+0(FP), DI
	MOVQ d_len+8(FP), CX
	MOVQ a_base+24(FP), SI
	SHRQ ${{.Shift}}, CX
	JZ   done
loop:
{{.Body}}	ADDQ ${{.SStep}}, SI
	ADDQ ${{.DStep}}, DI
	DECQ CX
	JNZ  loop
done:
	VZEROUPPER
	RET
{{end}}`))

var goTmpl = template.Must(template.New("go").Parse(`// Code generated by gen_conv.go; DO NOT EDIT.

//go:build amd64 && !purego

package cpu
{{range .}}
//go:noescape
func {{.Name}}(d []{{.Dst}}, a []{{.Src}})
{{end}}
// The number of elements each kernel handles per step: it converts
// len(d) - len(d)%per of them.
const (
{{- range .}}
	{{.Name}}Per = {{.Per}}
{{- end}}
)
`))

func main() {
	var b bytes.Buffer
	if err := tmpl.Execute(&b, kernels); err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile("conv_amd64.s", b.Bytes(), 0o644); err != nil {
		log.Fatal(err)
	}
	b.Reset()
	if err := goTmpl.Execute(&b, kernels); err != nil {
		log.Fatal(err)
	}
	src, err := format.Source(b.Bytes())
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile("conv_decl_amd64.go", src, 0o644); err != nil {
		log.Fatal(err)
	}
}
