//go:build ignore

// gen_simdint writes simd_int_amd64.s and simd_int_table_amd64.go: AVX2
// loops for the elementwise operations of integers (8, 16, 32 and 64 bits)
// and bools, and the table that finds them (see simd_int.go). Run it with
// go generate.
//
// Every loop has the signature
//
//	func name(d, a, b unsafe.Pointer, n int) // binary
//	func name(d, a unsafe.Pointer, n int)    // unary
//
// and computes n elements, n a multiple of the loop's step (its unit, in
// the table); the Go side does the rest with the reference loop. A loop runs
// a few steps per iteration while it can, then one step at a time.
package main

import (
	"bytes"
	"fmt"
	"go/format"
	"log"
	"os"
	"strings"
)

// A kernel is one assembly loop.
type kernel struct {
	name   string
	doc    string // the Go loop it computes, one line
	unary  bool
	in     int      // bytes per operand element
	out    int      // bytes per result element
	unit   int      // elements per step
	temps  int      // vector registers per step
	consts []string // constant registers it needs (see setConst)
	extra  []uint64 // more constants, broadcast to extraReg(0), extraReg(1) ...
	step   func(e *emitter, t []string, ia, oa func(off int, base string) string)
	keys   []string // Go expressions of its table keys
	table  string   // "intAsms", "boolAsms" or "constShiftAsms"
	// setup, when set, follows the constants: it may read the operands'
	// first elements and fill the reserve registers below extraReg's
	// (Y10, Y9, … after the extra constants).
	setup   func(e *emitter)
	reserve int
}

// emitter collects the lines of a loop.
type emitter struct{ b *strings.Builder }

func (e emitter) op(format string, args ...any) {
	fmt.Fprintf(e.b, "\t"+format+"\n", args...)
}

// Constant registers.
const (
	rOnes  = "Y15" // all bits set
	rByte1 = "Y14" // 0x01 in every byte: the bool true
	rSign  = "Y13" // the sign bit of every element (width of the kernel)
	rZero  = "Y12"
	rLow8  = "Y11" // 0x00ff in every 16-bit word
)

func setConst(e emitter, r string, in int) {
	switch r {
	case rOnes:
		e.op("VPCMPEQB %s, %s, %s", r, r, r)
	case rZero:
		e.op("VPXOR %s, %s, %s", r, r, r)
	default:
		var v uint64
		switch r {
		case rByte1:
			v = 0x0101010101010101
		case rLow8:
			v = 0x00ff00ff00ff00ff
		case rSign:
			v = map[int]uint64{1: 0x8080808080808080, 2: 0x8000800080008000,
				4: 0x8000000080000000, 8: 0x8000000000000000}[in]
		}
		x := "X" + r[1:]
		e.op("MOVQ $0x%016x, R11", v)
		e.op("MOVQ R11, %s", x)
		e.op("VPBROADCASTQ %s, %s", x, r)
	}
}

var suffix = map[int]string{1: "B", 2: "W", 4: "D", 8: "Q"}

var typeName = map[int]string{1: "8", 2: "16", 4: "32", 8: "64"}

func key(op string, size int, signed bool) string {
	return fmt.Sprintf("{backend.%s, %d, %v}", op, size, signed)
}

func keys(op string, size int, signed ...bool) []string {
	var k []string
	for _, s := range signed {
		k = append(k, key(op, size, s))
	}
	return k
}

// simple is a kernel d[i] = a[i] op b[i] by one instruction on each
// vector (instr's first operand is b, its second a).
func simple(name, doc, instr, op string, size int, signed ...bool) kernel {
	return kernel{
		name: name, doc: doc, in: size, out: size, unit: 32 / size, temps: 1,
		keys: keys(op, size, signed...), table: "intAsms",
		step: func(e *emitter, t []string, ia, oa func(int, string) string) {
			e.op("VMOVDQU %s, %s", ia(0, "SI"), t[0])
			e.op("%s %s, %s, %s", instr, ia(0, "DX"), t[0], t[0])
			e.op("VMOVDQU %s, %s", t[0], oa(0, "DI"))
		},
	}
}

// compare emits into dst the mask of x > y (gt) or x == y (eq), elements of
// size bytes at addresses xa, ya; unsigned elements are compared with
// their sign bits flipped.
func compare(e *emitter, eq, signed bool, size int, xa, ya, dst, tmp string) {
	s := suffix[size]
	switch {
	case eq:
		e.op("VMOVDQU %s, %s", xa, dst)
		e.op("VPCMPEQ%s %s, %s, %s", s, ya, dst, dst)
	case signed:
		e.op("VMOVDQU %s, %s", xa, dst)
		e.op("VPCMPGT%s %s, %s, %s", s, ya, dst, dst)
	default:
		e.op("VPXOR %s, %s, %s", xa, rSign, dst)
		e.op("VPXOR %s, %s, %s", ya, rSign, tmp)
		e.op("VPCMPGT%s %s, %s, %s", s, tmp, dst, dst)
	}
}

// cmp is a comparison d[i] = a[i] rel b[i] into bools. Each is a mask of
// x > y or x == y, negated for <=, >= and !=.
func cmp(rel string, size int, signed bool) kernel {
	var eq, swap, neg bool
	var op string
	switch rel {
	case "==":
		eq, op = true, "OpEq"
	case "!=":
		eq, neg, op = true, true, "OpNe"
	case ">":
		op = "OpGt"
	case "<=":
		neg, op = true, "OpLe"
	case "<":
		swap, op = true, "OpLt"
	case ">=":
		swap, neg, op = true, true, "OpGe"
	}
	sn := map[bool]string{true: "I", false: "U"}[signed]
	name := fmt.Sprintf("%s%s%sAVX2", strings.ToLower(op[2:]), sn, typeName[size])
	k := kernel{
		name: name, doc: fmt.Sprintf("d[i] = a[i] %s b[i] (%sint%s)", rel,
			map[bool]string{true: "", false: "u"}[signed], typeName[size]),
		in: size, out: 1, keys: []string{key(op, size, signed)}, table: "intAsms",
	}
	if !signed && !eq {
		k.consts = []string{rSign}
	}
	// mask computes the mask of the vector at byte offset off into dst.
	mask := func(e *emitter, ia func(int, string) string, off int, dst, tmp string) {
		x, y := ia(off, "SI"), ia(off, "DX")
		if swap {
			x, y = y, x
		}
		compare(e, eq, signed, size, x, y, dst, tmp)
	}
	toBools(&k, mask, neg)
	return k
}

// toBools completes k, whose result is bools: mask writes the mask (all
// ones or all zeros per element) of the vector at byte offset off of the
// operands into dst, using tmp; the bools are its elements, negated when
// neg is set.
func toBools(k *kernel, mask func(e *emitter, ia func(int, string) string, off int, dst, tmp string), neg bool) {
	size := k.in
	switch size {
	case 1, 2:
		// One vector of bools from one or two vectors of masks, each byte
		// anded with 1 (or, negated, andn'd).
		k.unit, k.temps = 32, 3
		k.consts = append(k.consts, rByte1)
		k.step = func(e *emitter, t []string, ia, oa func(int, string) string) {
			mask(e, ia, 0, t[0], t[1])
			if size == 2 {
				mask(e, ia, 32, t[1], t[2])
				// Pack the words to bytes: lanes a.lo b.lo a.hi b.hi,
				// then put the quarters in order.
				e.op("VPACKSSWB %s, %s, %s", t[1], t[0], t[0])
				e.op("VPERMQ $0xd8, %s, %s", t[0], t[0])
			}
			if neg {
				e.op("VPANDN %s, %s, %s", rByte1, t[0], t[0])
			} else {
				e.op("VPAND %s, %s, %s", rByte1, t[0], t[0])
			}
			e.op("VMOVDQU %s, %s", t[0], oa(0, "DI"))
		}
	case 4, 8:
		// Eight bools from one (32-bit) or two (64-bit) vectors: the sign
		// bits of the mask index boolsOfBits, a table of 8-byte words.
		k.unit, k.temps = 8, 3
		k.step = func(e *emitter, t []string, ia, oa func(int, string) string) {
			mask(e, ia, 0, t[0], t[1])
			if size == 4 {
				e.op("VMOVMSKPS %s, R8", t[0])
			} else {
				mask(e, ia, 32, t[2], t[1])
				e.op("VMOVMSKPD %s, R8", t[0])
				e.op("VMOVMSKPD %s, R9", t[2])
				e.op("SHLQ $4, R9")
				e.op("ORQ R9, R8")
			}
			if neg {
				e.op("XORQ $0xff, R8")
			}
			e.op("MOVQ (R10)(R8*8), R9")
			e.op("MOVQ R9, %s", oa(0, "DI"))
		}
	}
}

// logical is the kernel of logical not, and or or of integers into bools
// (a[i] == 0; a[i] != 0 && b[i] != 0; a[i] != 0 || b[i] != 0): from the
// masks of the zero elements, not is the mask of a, and the negated or of
// the two masks, or their negated and.
func logical(op string, size int) kernel {
	w, s := typeName[size], suffix[size]
	k := kernel{in: size, out: 1, consts: []string{rZero}, keys: keys(op, size, true, false), table: "intAsms"}
	var combine string
	switch op {
	case "OpNot":
		k.name, k.doc, k.unary = "not"+w+"AVX2", "d[i] = a[i] == 0", true
	case "OpAnd":
		k.name, k.doc, combine = "land"+w+"AVX2", "d[i] = a[i] != 0 && b[i] != 0", "VPOR"
	case "OpOr":
		k.name, k.doc, combine = "lor"+w+"AVX2", "d[i] = a[i] != 0 || b[i] != 0", "VPAND"
	}
	toBools(&k, func(e *emitter, ia func(int, string) string, off int, dst, tmp string) {
		e.op("VPCMPEQ%s %s, %s, %s", s, ia(off, "SI"), rZero, dst)
		if combine != "" {
			e.op("VPCMPEQ%s %s, %s, %s", s, ia(off, "DX"), rZero, tmp)
			e.op("%s %s, %s, %s", combine, tmp, dst, dst)
		}
	}, combine != "")
	return k
}

func kernels() []kernel {
	var ks []kernel
	both := []bool{true, false}
	for _, size := range []int{1, 2, 4, 8} {
		s, w := suffix[size], typeName[size]
		ks = append(ks,
			simple("add"+w+"AVX2", "d[i] = a[i] + b[i]", "VPADD"+s, "OpAdd", size, both...),
			simple("sub"+w+"AVX2", "d[i] = a[i] - b[i]", "VPSUB"+s, "OpSub", size, both...),
			simple("and"+w+"AVX2", "d[i] = a[i] & b[i]", "VPAND", "OpBitAnd", size, both...),
			simple("or"+w+"AVX2", "d[i] = a[i] | b[i]", "VPOR", "OpBitOr", size, both...),
			simple("xor"+w+"AVX2", "d[i] = a[i] ^ b[i]", "VPXOR", "OpBitXor", size, both...),
		)
		switch size {
		case 2, 4:
			ks = append(ks, simple("mul"+w+"AVX2", "d[i] = a[i] * b[i]", "VPMULL"+s, "OpMul", size, both...))
		case 8:
			// No 64-bit multiply before AVX-512: lo·lo + (hi·lo + lo·hi) << 32
			// from the 32-bit VPMULUDQ, modulo 2^64.
			ks = append(ks, kernel{
				name: "mul64AVX2", doc: "d[i] = a[i] * b[i]", in: 8, out: 8, unit: 4, temps: 4,
				keys: keys("OpMul", 8, both...), table: "intAsms",
				step: func(e *emitter, t []string, ia, oa func(int, string) string) {
					e.op("VMOVDQU %s, %s", ia(0, "SI"), t[0])
					e.op("VMOVDQU %s, %s", ia(0, "DX"), t[1])
					e.op("VPSRLQ $32, %s, %s", t[0], t[2])
					e.op("VPMULUDQ %s, %s, %s", t[1], t[2], t[2]) // hi(a)·lo(b)
					e.op("VPSRLQ $32, %s, %s", t[1], t[3])
					e.op("VPMULUDQ %s, %s, %s", t[0], t[3], t[3]) // lo(a)·hi(b)
					e.op("VPADDQ %s, %s, %s", t[3], t[2], t[2])
					e.op("VPSLLQ $32, %s, %s", t[2], t[2])
					e.op("VPMULUDQ %s, %s, %s", t[1], t[0], t[0]) // lo(a)·lo(b)
					e.op("VPADDQ %s, %s, %s", t[2], t[0], t[0])
					e.op("VMOVDQU %s, %s", t[0], oa(0, "DI"))
				},
			})
		case 1:
			// Bytes have no multiply: the even bytes' product is the low
			// byte of the words' product, the odd bytes' that of the
			// words shifted down by 8.
			ks = append(ks, kernel{
				name: "mul8AVX2", doc: "d[i] = a[i] * b[i]", in: 1, out: 1, unit: 32, temps: 3,
				consts: []string{rLow8}, keys: keys("OpMul", 1, both...), table: "intAsms",
				step: func(e *emitter, t []string, ia, oa func(int, string) string) {
					e.op("VMOVDQU %s, %s", ia(0, "SI"), t[0])
					e.op("VMOVDQU %s, %s", ia(0, "DX"), t[1])
					e.op("VPMULLW %s, %s, %s", t[1], t[0], t[2])
					e.op("VPSRLW $8, %s, %s", t[0], t[0])
					e.op("VPSRLW $8, %s, %s", t[1], t[1])
					e.op("VPMULLW %s, %s, %s", t[1], t[0], t[0])
					e.op("VPSLLW $8, %s, %s", t[0], t[0])
					e.op("VPAND %s, %s, %s", rLow8, t[2], t[2])
					e.op("VPOR %s, %s, %s", t[0], t[2], t[2])
					e.op("VMOVDQU %s, %s", t[2], oa(0, "DI"))
				},
			})
		}
		for _, signed := range both {
			sn := map[bool]string{true: "I", false: "U"}[signed]
			if size < 8 {
				us := map[bool]string{true: "S", false: "U"}[signed]
				ks = append(ks,
					simple("max"+sn+w+"AVX2", "d[i] = max(a[i], b[i])", "VPMAX"+us+s, "OpMax", size, signed),
					simple("min"+sn+w+"AVX2", "d[i] = min(a[i], b[i])", "VPMIN"+us+s, "OpMin", size, signed))
			} else {
				// No 64-bit max in AVX2: compare, then blend.
				for _, isMax := range []bool{true, false} {
					op, fn := "OpMax", "max"
					if !isMax {
						op, fn = "OpMin", "min"
					}
					k := kernel{
						name: fn + sn + w + "AVX2", doc: "d[i] = " + fn + "(a[i], b[i])", in: 8, out: 8, unit: 4, temps: 3,
						keys: []string{key(op, 8, signed)}, table: "intAsms",
						step: func(e *emitter, t []string, ia, oa func(int, string) string) {
							e.op("VMOVDQU %s, %s", ia(0, "SI"), t[0])
							e.op("VMOVDQU %s, %s", ia(0, "DX"), t[1])
							if signed {
								e.op("VPCMPGTQ %s, %s, %s", t[1], t[0], t[2]) // a > b
							} else {
								e.op("VPXOR %s, %s, %s", t[0], rSign, t[2])
								e.op("VPXOR %s, %s, %s", t[1], rSign, Yplus(t[2]))
								e.op("VPCMPGTQ %s, %s, %s", Yplus(t[2]), t[2], t[2])
							}
							if isMax {
								e.op("VPBLENDVB %s, %s, %s, %s", t[2], t[0], t[1], t[0]) // a > b ? a : b
							} else {
								e.op("VPBLENDVB %s, %s, %s, %s", t[2], t[1], t[0], t[0]) // a > b ? b : a
							}
							e.op("VMOVDQU %s, %s", t[0], oa(0, "DI"))
						},
					}
					if !signed {
						k.temps, k.consts = 4, []string{rSign}
					}
					ks = append(ks, k)
				}
			}
			for _, rel := range []string{"==", "!=", "<", "<=", ">", ">="} {
				ks = append(ks, cmp(rel, size, signed))
			}
		}
		ks = append(ks, shift(true, size, true), shift(false, size, true), shift(false, size, false),
			logical("OpNot", size), logical("OpAnd", size), logical("OpOr", size))
		if size <= 2 {
			ks = append(ks, constShift(true, size, true), constShift(false, size, true), constShift(false, size, false))
		}
		// Unary: -x, ~x, abs(x) (signed; MinInt stays MinInt).
		ks = append(ks, kernel{
			name: "neg" + w + "AVX2", doc: "d[i] = -a[i]", unary: true, in: size, out: size, unit: 32 / size, temps: 1,
			consts: []string{rZero}, keys: keys("OpNeg", size, both...), table: "intAsms",
			step: func(e *emitter, t []string, ia, oa func(int, string) string) {
				e.op("VPSUB%s %s, %s, %s", s, ia(0, "SI"), rZero, t[0])
				e.op("VMOVDQU %s, %s", t[0], oa(0, "DI"))
			},
		}, kernel{
			name: "invert" + w + "AVX2", doc: "d[i] = ^a[i]", unary: true, in: size, out: size, unit: 32 / size, temps: 1,
			consts: []string{rOnes}, keys: keys("OpInvert", size, both...), table: "intAsms",
			step: func(e *emitter, t []string, ia, oa func(int, string) string) {
				e.op("VPXOR %s, %s, %s", ia(0, "SI"), rOnes, t[0])
				e.op("VMOVDQU %s, %s", t[0], oa(0, "DI"))
			},
		})
		abs := kernel{
			name: "absI" + w + "AVX2", doc: "d[i] = abs(a[i])", unary: true, in: size, out: size, unit: 32 / size, temps: 1,
			keys: []string{key("OpAbs", size, true)}, table: "intAsms",
			step: func(e *emitter, t []string, ia, oa func(int, string) string) {
				e.op("VPABS%s %s, %s", s, ia(0, "SI"), t[0])
				e.op("VMOVDQU %s, %s", t[0], oa(0, "DI"))
			},
		}
		if size == 8 {
			// No VPABSQ in AVX2: (x ^ m) - m with m = x < 0.
			abs.temps, abs.consts = 2, []string{rZero}
			abs.step = func(e *emitter, t []string, ia, oa func(int, string) string) {
				e.op("VMOVDQU %s, %s", ia(0, "SI"), t[0])
				e.op("VPCMPGTQ %s, %s, %s", t[0], rZero, t[1])
				e.op("VPXOR %s, %s, %s", t[1], t[0], t[0])
				e.op("VPSUBQ %s, %s, %s", t[1], t[0], t[0])
				e.op("VMOVDQU %s, %s", t[0], oa(0, "DI"))
			}
		}
		ks = append(ks, abs)
		// sign(x): signed, -(VPSIGN of -1 by x), the sign's opposite
		// negated (64 bits, no VPSIGNQ: (0 > x) - (x > 0) as masks);
		// unsigned, (x == 0) + 1 as masks.
		sg := kernel{
			name: "signI" + w + "AVX2", doc: "d[i] = sign(a[i]): -1, 0 or 1", unary: true, in: size, out: size,
			unit: 32 / size, temps: 1, consts: []string{rOnes, rZero},
			keys: []string{key("OpSign", size, true)}, table: "intAsms",
			step: func(e *emitter, t []string, ia, oa func(int, string) string) {
				e.op("VPSIGN%s %s, %s, %s", s, ia(0, "SI"), rOnes, t[0])
				e.op("VPSUB%s %s, %s, %s", s, t[0], rZero, t[0])
				e.op("VMOVDQU %s, %s", t[0], oa(0, "DI"))
			},
		}
		if size == 8 {
			sg.temps, sg.consts = 3, []string{rZero}
			sg.step = func(e *emitter, t []string, ia, oa func(int, string) string) {
				e.op("VMOVDQU %s, %s", ia(0, "SI"), t[0])
				e.op("VPCMPGTQ %s, %s, %s", t[0], rZero, t[1])
				e.op("VPCMPGTQ %s, %s, %s", rZero, t[0], t[2])
				e.op("VPSUBQ %s, %s, %s", t[2], t[1], t[0])
				e.op("VMOVDQU %s, %s", t[0], oa(0, "DI"))
			}
		}
		ks = append(ks, sg, kernel{
			name: "signU" + w + "AVX2", doc: "d[i] = sign(a[i]): 0 or 1", unary: true, in: size, out: size,
			unit: 32 / size, temps: 1, consts: []string{rOnes, rZero},
			keys: []string{key("OpSign", size, false)}, table: "intAsms",
			step: func(e *emitter, t []string, ia, oa func(int, string) string) {
				e.op("VPCMPEQ%s %s, %s, %s", s, ia(0, "SI"), rZero, t[0])
				e.op("VPSUB%s %s, %s, %s", s, rOnes, t[0], t[0])
				e.op("VMOVDQU %s, %s", t[0], oa(0, "DI"))
			},
		})
	}
	// Bools: bytes 0 or 1, the formulas of boolwords.go's wordOp.apply.
	for _, b := range []struct {
		name, w, doc string
		body         func(e *emitter, t []string, a, b string)
	}{
		{"orBoolAVX2", "wOr", "d[i] = a[i] | b[i]", func(e *emitter, t []string, a, b string) {
			e.op("VMOVDQU %s, %s", a, t[0])
			e.op("VPOR %s, %s, %s", b, t[0], t[0])
		}},
		{"andBoolAVX2", "wAnd", "d[i] = a[i] & b[i]", func(e *emitter, t []string, a, b string) {
			e.op("VMOVDQU %s, %s", a, t[0])
			e.op("VPAND %s, %s, %s", b, t[0], t[0])
		}},
		{"xorBoolAVX2", "wXor", "d[i] = a[i] ^ b[i]", func(e *emitter, t []string, a, b string) {
			e.op("VMOVDQU %s, %s", a, t[0])
			e.op("VPXOR %s, %s, %s", b, t[0], t[0])
		}},
		{"eqBoolAVX2", "wEq", "d[i] = a[i] ^ b[i] ^ 1", func(e *emitter, t []string, a, b string) {
			e.op("VMOVDQU %s, %s", a, t[0])
			e.op("VPXOR %s, %s, %s", b, t[0], t[0])
			e.op("VPXOR %s, %s, %s", rByte1, t[0], t[0])
		}},
		{"ltBoolAVX2", "wLt", "d[i] = ^a[i] & b[i]", func(e *emitter, t []string, a, b string) {
			e.op("VMOVDQU %s, %s", a, t[0])
			e.op("VPANDN %s, %s, %s", b, t[0], t[0])
		}},
		{"gtBoolAVX2", "wGt", "d[i] = a[i] &^ b[i]", func(e *emitter, t []string, a, b string) {
			e.op("VMOVDQU %s, %s", b, t[0])
			e.op("VPANDN %s, %s, %s", a, t[0], t[0])
		}},
		{"leBoolAVX2", "wLe", "d[i] = (a[i] ^ 1) | b[i]", func(e *emitter, t []string, a, b string) {
			e.op("VPXOR %s, %s, %s", a, rByte1, t[0])
			e.op("VPOR %s, %s, %s", b, t[0], t[0])
		}},
		{"geBoolAVX2", "wGe", "d[i] = a[i] | (b[i] ^ 1)", func(e *emitter, t []string, a, b string) {
			e.op("VPXOR %s, %s, %s", b, rByte1, t[0])
			e.op("VPOR %s, %s, %s", a, t[0], t[0])
		}},
	} {
		body := b.body
		ks = append(ks, kernel{
			name: b.name, doc: b.doc + " (bools)", in: 1, out: 1, unit: 32, temps: 1,
			consts: []string{rByte1}, keys: []string{b.w}, table: "boolAsms",
			step: func(e *emitter, t []string, ia, oa func(int, string) string) {
				body(e, t, ia(0, "SI"), ia(0, "DX"))
				e.op("VMOVDQU %s, %s", t[0], oa(0, "DI"))
			},
		})
	}
	ks = append(ks, kernel{
		name: "notBoolAVX2", doc: "d[i] = a[i] ^ 1 (bools)", unary: true, in: 1, out: 1, unit: 32, temps: 1,
		consts: []string{rByte1}, table: "notBool",
		step: func(e *emitter, t []string, ia, oa func(int, string) string) {
			e.op("VPXOR %s, %s, %s", ia(0, "SI"), rByte1, t[0])
			e.op("VMOVDQU %s, %s", t[0], oa(0, "DI"))
		},
	})
	return ks
}

// extraReg returns the register of the kernel's constant extra[i].
func extraReg(i int) string { return fmt.Sprintf("Y%d", 10-i) }

// shift is the kernel of a << b (left) or a >> b with a count per
// element, read as unsigned: a count of the width or more gives 0, or
// for >> of a signed type the sign (Go's shifts, and NumPy's
// npy_lshift/npy_rshift in numpy/_core/include/numpy/npy_math.h).
func shift(left bool, size int, signed bool) kernel {
	w, s := typeName[size], suffix[size]
	k := kernel{in: size, out: size, unit: 32 / size, table: "intAsms"}
	sn := map[bool]string{true: "I", false: "U"}[signed]
	if left {
		k.name, k.doc, k.keys = "shl"+w+"AVX2", "d[i] = a[i] << uint64(b[i])", keys("OpShl", size, true, false)
	} else {
		k.name, k.doc, k.keys = "shr"+sn+w+"AVX2", "d[i] = a[i] >> uint64(b[i])", []string{key("OpShr", size, signed)}
	}
	arith := !left && signed
	switch size {
	case 4, 8:
		// AVX2 shifts each element by its own count, giving 0 (or, for
		// VPSRAVD, the sign) for counts of the width or more; the 64-bit
		// arithmetic shift is the logical one of a ^ m, ^ m again, with
		// m = a < 0.
		instr := map[bool]string{true: "VPSLLV", false: "VPSRLV"}[left] + s
		if arith && size == 4 {
			instr = "VPSRAVD"
		}
		k.temps = 1
		if arith && size == 8 {
			k.temps, k.consts = 2, []string{rZero}
		}
		k.step = func(e *emitter, t []string, ia, oa func(int, string) string) {
			e.op("VMOVDQU %s, %s", ia(0, "SI"), t[0])
			if arith && size == 8 {
				e.op("VPCMPGTQ %s, %s, %s", t[0], rZero, t[1])
				e.op("VPXOR %s, %s, %s", t[1], t[0], t[0])
				e.op("VPSRLVQ %s, %s, %s", ia(0, "DX"), t[0], t[0])
				e.op("VPXOR %s, %s, %s", t[1], t[0], t[0])
			} else {
				e.op("%s %s, %s, %s", instr, ia(0, "DX"), t[0], t[0])
			}
			e.op("VMOVDQU %s, %s", t[0], oa(0, "DI"))
		}
	case 1, 2:
		// No shifts by element before AVX-512: shift by 1, 2, 4 (and 8)
		// where the count has that bit, selecting with VPBLENDVB. The
		// count is first clamped to the width (a shift by the width is
		// 0), or for >> of a signed type to the width - 1 (the sign).
		bitsN := 3
		if size == 2 {
			bitsN = 4
		}
		clamp := uint64(8 * size)
		if arith {
			clamp--
		}
		rep := func(v uint64) uint64 { // v in every element
			var r uint64
			for i := 0; i < 8; i += size {
				r |= v << (8 * i)
			}
			return r
		}
		k.extra = []uint64{rep(clamp)}
		for j := range bitsN {
			sh := uint64(1) << j
			switch {
			case size == 2:
			case left:
				k.extra = append(k.extra, rep(0xff<<sh&0xff))
			case arith:
				k.extra = append(k.extra, rep(0xff>>sh), rep(0x80>>sh))
			default:
				k.extra = append(k.extra, rep(0xff>>sh))
			}
		}
		k.temps = 3
		if !arith {
			k.consts = []string{rZero}
		}
		k.step = func(e *emitter, t []string, ia, oa func(int, string) string) {
			x, c, u := t[0], t[1], t[2]
			e.op("VMOVDQU %s, %s", ia(0, "SI"), x)
			e.op("VPMINU%s %s, %s, %s", s, ia(0, "DX"), extraReg(0), c)
			next := 1
			steps := bitsN
			if !arith {
				steps++ // the bit of the width: 0
			}
			for j := range steps {
				sh := 1 << j
				switch {
				case j == bitsN:
					e.op("VMOVDQU %s, %s", rZero, u)
				case size == 2 && left:
					e.op("VPSLLW $%d, %s, %s", sh, x, u)
				case size == 2 && arith:
					e.op("VPSRAW $%d, %s, %s", sh, x, u)
				case size == 2:
					e.op("VPSRLW $%d, %s, %s", sh, x, u)
				case left:
					e.op("VPSLLW $%d, %s, %s", sh, x, u)
					e.op("VPAND %s, %s, %s", extraReg(next), u, u)
					next++
				default:
					// Bytes shifted down within words, the bits of the
					// byte above cleared; signed, sign-extended by
					// (v ^ s) - s with s the shifted sign bit.
					e.op("VPSRLW $%d, %s, %s", sh, x, u)
					e.op("VPAND %s, %s, %s", extraReg(next), u, u)
					next++
					if arith {
						e.op("VPXOR %s, %s, %s", extraReg(next), u, u)
						e.op("VPSUBB %s, %s, %s", extraReg(next), u, u)
						next++
					}
				}
				// The selector: bit j of the count in the top bit of each
				// byte (of each word: both bytes, by VPSRAW).
				sel := t[3]
				if size == 1 {
					e.op("VPSLLW $%d, %s, %s", 7-j, c, sel)
				} else {
					e.op("VPSLLW $%d, %s, %s", 15-j, c, sel)
					e.op("VPSRAW $15, %s, %s", sel, sel)
				}
				e.op("VPBLENDVB %s, %s, %s, %s", sel, u, x, x)
			}
			e.op("VMOVDQU %s, %s", x, oa(0, "DI"))
		}
		k.temps = 4
	}
	return k
}

// constShift is the kernel of a << c or a >> c for 8- and 16-bit
// integers with one count c for every element: b's first element, which
// the caller (constShiftKernel) guarantees every element of b equals.
// AVX2 shifts 16-bit lanes by one count (VPSLLW, VPSRLW, VPSRAW with the
// count in X10), giving 0, or the sign for VPSRAW, from a count of 16 or
// more; bytes are shifted as words and masked (Y9: 0xff >> c or 0xff << c
// in every byte, made by shifting all ones the same way), and for >> of
// int8 sign-extended by (v ^ s) - s (Y8: 0x80 >> c), the count first
// clamped to 7 (a count of 8 or more gives the sign, as shift's). The
// per-element kernel (shift) takes three or four blend steps a vector.
func constShift(left bool, size int, signed bool) kernel {
	w := typeName[size]
	sn := map[bool]string{true: "I", false: "U"}[signed]
	k := kernel{in: size, out: size, unit: 32 / size, temps: 1, table: "constShiftAsms"}
	if left {
		k.name, k.doc, k.keys = "shlc"+w+"AVX2", "d[i] = a[i] << uint64(b[0])", keys("OpShl", size, true, false)
	} else {
		k.name, k.doc, k.keys = "shrc"+sn+w+"AVX2", "d[i] = a[i] >> uint64(b[0])", []string{key("OpShr", size, signed)}
	}
	arith := !left && signed
	instr := map[bool]string{true: "VPSLLW", false: "VPSRLW"}[left]
	if arith && size == 2 {
		instr = "VPSRAW"
	}
	k.reserve = 1
	if size == 1 {
		k.reserve = 2
		if arith {
			k.reserve = 3
		}
	}
	k.setup = func(e *emitter) {
		e.op("MOV%sQZX (DX), R11", map[int]string{1: "B", 2: "W"}[size])
		if arith && size == 1 {
			e.op("MOVQ $7, R12")
			e.op("CMPQ R11, R12")
			e.op("CMOVQHI R12, R11")
		}
		e.op("MOVQ R11, X10")
		if size == 2 {
			return
		}
		e.op("VPCMPEQB Y9, Y9, Y9")
		e.op("%s X10, Y9, Y9", instr)
		if !left {
			e.op("VPSRLW $8, Y9, Y9") // the high byte of 0xffff >> c
		}
		e.op("VPBROADCASTB X9, Y9")
		if arith {
			e.op("VPCMPEQB Y8, Y8, Y8")
			e.op("VPSLLW $15, Y8, Y8")
			e.op("VPSRLW X10, Y8, Y8")
			e.op("VPSRLW $8, Y8, Y8") // the high byte of 0x8000 >> c
			e.op("VPBROADCASTB X8, Y8")
		}
	}
	k.step = func(e *emitter, t []string, ia, oa func(int, string) string) {
		x := t[0]
		e.op("VMOVDQU %s, %s", ia(0, "SI"), x)
		e.op("%s X10, %s, %s", instr, x, x)
		if size == 1 {
			e.op("VPAND Y9, %s, %s", x, x)
			if arith {
				e.op("VPXOR Y8, %s, %s", x, x)
				e.op("VPSUBB Y8, %s, %s", x, x)
			}
		}
		e.op("VMOVDQU %s, %s", x, oa(0, "DI"))
	}
	return k
}

// Yplus returns the vector register after r.
func Yplus(r string) string {
	var i int
	fmt.Sscanf(r, "Y%d", &i)
	return fmt.Sprintf("Y%d", i+1)
}

// asm writes the loop of k.
func asm(b *strings.Builder, k kernel) {
	e := &emitter{b}
	args, frame := "d, a, b unsafe.Pointer, n int", 32
	if k.unary {
		args, frame = "d, a unsafe.Pointer, n int", 24
	}
	fmt.Fprintf(b, "\n// func %s(%s)\n//\n//\t%s, n a multiple of %d\n", k.name, args, k.doc, k.unit)
	fmt.Fprintf(b, "TEXT ·%s(SB), NOSPLIT, $0-%d\n", k.name, frame)
	e.op("MOVQ d+0(FP), DI")
	e.op("MOVQ a+8(FP), SI")
	if k.unary {
		e.op("MOVQ n+16(FP), CX")
	} else {
		e.op("MOVQ b+16(FP), DX")
		e.op("MOVQ n+24(FP), CX")
	}
	for _, c := range k.consts {
		setConst(*e, c, k.in)
	}
	for i, v := range k.extra {
		r := extraReg(i)
		e.op("MOVQ $0x%016x, R11", v)
		e.op("MOVQ R11, X%s", r[1:])
		e.op("VPBROADCASTQ X%s, %s", r[1:], r)
	}
	if k.setup != nil {
		k.setup(e)
	}
	if k.out == 1 && k.in >= 4 {
		e.op("LEAQ boolsOfBits<>(SB), R10")
	}
	e.op("XORQ AX, AX")
	// Steps per iteration: up to 128 bytes of each operand, within the
	// eleven free registers.
	u := max(1, min(128/(k.unit*k.in), (11-len(k.extra)-k.reserve)/k.temps))
	addr := func(j, size int) func(off int, base string) string {
		return func(off int, base string) string {
			o := j*k.unit*size + off
			if o == 0 {
				return fmt.Sprintf("(%s)(AX*%d)", base, size)
			}
			return fmt.Sprintf("%d(%s)(AX*%d)", o, base, size)
		}
	}
	regs := func(j int) []string {
		var t []string
		for i := range k.temps {
			t = append(t, fmt.Sprintf("Y%d", j*k.temps+i))
		}
		return t
	}
	if u > 1 {
		e.op("MOVQ CX, BX")
		e.op("SUBQ $%d, BX", u*k.unit)
		e.op("JL   single")
		b.WriteString("loop:\n")
		for j := range u {
			k.step(e, regs(j), addr(j, k.in), addr(j, k.out))
		}
		e.op("ADDQ $%d, AX", u*k.unit)
		e.op("CMPQ AX, BX")
		e.op("JLE  loop")
		b.WriteString("single:\n")
	}
	e.op("CMPQ AX, CX")
	e.op("JGE  done")
	b.WriteString("loop1:\n")
	k.step(e, regs(0), addr(0, k.in), addr(0, k.out))
	e.op("ADDQ $%d, AX", k.unit)
	e.op("CMPQ AX, CX")
	e.op("JL   loop1")
	b.WriteString("done:\n")
	e.op("VZEROUPPER")
	e.op("RET")
}

func main() {
	ks := kernels()
	var s strings.Builder
	s.WriteString("// Code generated by gen_simdint.go; DO NOT EDIT.\n\n//go:build amd64 && !purego\n\n#include \"textflag.h\"\n")
	s.WriteString("\n// boolsOfBits[m] holds eight bools, byte i the bit i of m.\n")
	for m := range 256 {
		var w uint64
		for i := range 8 {
			w |= uint64(m>>i&1) << (8 * i)
		}
		fmt.Fprintf(&s, "DATA boolsOfBits<>+%d(SB)/8, $0x%016x\n", 8*m, w)
	}
	s.WriteString("GLOBL boolsOfBits<>(SB), RODATA|NOPTR, $2048\n")
	for _, k := range ks {
		asm(&s, k)
	}
	if err := os.WriteFile("simd_int_amd64.s", []byte(s.String()), 0o644); err != nil {
		log.Fatal(err)
	}

	var g bytes.Buffer
	g.WriteString("// Code generated by gen_simdint.go; DO NOT EDIT.\n\n//go:build amd64 && !purego\n\npackage cpu\n\n")
	g.WriteString("import (\n\t\"unsafe\"\n\n\t\"github.com/tensorsh/tensorsh/backend\"\n)\n")
	for _, k := range ks {
		args := "d, a, b unsafe.Pointer, n int"
		if k.unary {
			args = "d, a unsafe.Pointer, n int"
		}
		fmt.Fprintf(&g, "\n//go:noescape\nfunc %s(%s)\n", k.name, args)
	}
	for _, table := range []string{"intAsms", "boolAsms", "constShiftAsms"} {
		typ := "intAsmKey"
		if table == "boolAsms" {
			typ = "wordOp"
		}
		fmt.Fprintf(&g, "\nvar %s = map[%s]intAsm{\n", table, typ)
		for _, k := range ks {
			if k.table != table {
				continue
			}
			field := "bin"
			if k.unary {
				field = "un"
			}
			for _, key := range k.keys {
				fmt.Fprintf(&g, "\t%s: {%s: %s, unit: %d},\n", key, field, k.name, k.unit)
			}
		}
		g.WriteString("}\n")
	}
	for _, k := range ks {
		if k.table == "notBool" {
			fmt.Fprintf(&g, "\nvar notBoolAsm = intAsm{un: %s, unit: %d}\n", k.name, k.unit)
		}
	}
	src, err := format.Source(g.Bytes())
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile("simd_int_table_amd64.go", src, 0o644); err != nil {
		log.Fatal(err)
	}
}
