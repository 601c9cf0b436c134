package cuda

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/tensorsh/tensorsh/backend"
	"github.com/tensorsh/tensorsh/dtypes"
)

// Code generation.
//
// A fused elementwise expression becomes a device function
//
//	DEV T ev(const P& p, IDX i)
//
// that computes the expression's value at flat (row-major) position i of
// its shape, reading every leaf through its own strides. Kernels call it:
// the elementwise kernel stores ev(p, i) for every i; reductions fold it.
// A kernel takes one parameter, a struct P of 64-bit words holding the
// pointers, sizes and strides; the words are collected while the source is
// generated, so that the source depends only on the structure of the
// computation (operations, dtypes, rank, which leaves are contiguous,
// broadcast scalars or strided, the index width) and not on sizes or
// addresses. The source text is the key of the module cache.

// A leafKind is how a leaf is read.
type leafKind uint8

const (
	leafContig  leafKind = iota // element i of the leaf is at i
	leafScalar                  // every element is element 0
	leafStrided                 // through per-axis strides
)

// A leaf is a tensor read by an expression.
type leaf struct {
	v       *dview
	strides []int // over the expression's shape (after coalescing)
	kind    leafKind
}

// An expr is a node of a fused elementwise expression.
type expr struct {
	op    backend.Op   // OpInput for a leaf
	dt    dtypes.DType // the dtype of the node's value
	argDT dtypes.DType // operand dtype (the second operand's for where)
	args  []*expr
	leaf  *leaf

	cdiv, zeroErr bool
	intDiv        backend.IntDiv // the RULE of ts_idiv and ts_imod
	xlaMinMax     bool           // complex max and min as JAX lowers them
	scaledCAbs    bool           // complex abs as NumPy's SIMD loop computes it
	warnIntDiv    bool           // report NumPy's integer division warnings
	round         dtypes.DType   // narrow dtype the result is rounded to, or Invalid
}

// A source is a CUDA C++ translation unit being generated.
type source struct {
	h     helperSet
	wide  bool     // 64-bit index arithmetic
	words []uint64 // kernel parameter words
	flag  int      // the word holding the error flag pointer, or -1
	body  strings.Builder
	names []string // kernel names
	nvar  int
}

func newSource(wide bool) *source { return &source{wide: wide, flag: -1} }

// word appends a parameter word and returns its index.
func (s *source) word(v uint64) int {
	s.words = append(s.words, v)
	return len(s.words) - 1
}

// w returns the C expression reading word k as an index.
func (s *source) w(k int) string { return "(IDX)p.w[" + strconv.Itoa(k) + "]" }

// flagWord returns the word of the error flag pointer (allocating it once).
func (s *source) flagWord() int {
	if s.flag < 0 {
		s.flag = s.word(0)
	}
	return s.flag
}

func (s *source) newVar() string {
	s.nvar++
	return "v" + strconv.Itoa(s.nvar)
}

// text returns the complete source.
func (s *source) text() string {
	var b strings.Builder
	b.WriteString("// tensorsh generated kernel\n")
	idx := "typedef int IDX;\n"
	if s.wide {
		idx = "typedef long long IDX;\n"
	}
	s.h.write(&b, idx)
	n := max(len(s.words), 1)
	fmt.Fprintf(&b, "struct P { u64 w[%d]; };\n", n)
	b.WriteString(s.body.String())
	return b.String()
}

// exprFunc emits the device function name(p, i) computing e at flat index
// i of shape (the coalesced expression shape) and returns the C type of
// its value. Leaves get their words (pointer, and strides if strided) in
// the order they are first met, depth first.
func (s *source) exprFunc(name string, e *expr, shape []int) (string, error) {
	var lines []string
	strided := false
	walkLeaves(e, func(l *leaf) {
		if l.kind == leafStrided {
			strided = true
		}
	})
	var coords []string
	if strided {
		dims := make([]int, len(shape))
		for i, d := range shape {
			dims[i] = s.word(uint64(d))
		}
		coords = make([]string, len(shape))
		lines = append(lines, "IDX r = i;")
		for k := len(shape) - 1; k > 0; k-- {
			c := "c" + strconv.Itoa(k)
			coords[k] = c
			lines = append(lines, fmt.Sprintf("const IDX %s = r %% %s; r /= %s;", c, s.w(dims[k]), s.w(dims[k])))
		}
		coords[0] = "r"
	}
	ret, err := s.emit(e, coords, &lines)
	if err != nil {
		return "", err
	}
	ct := computeOf(e.dt).C()
	fmt.Fprintf(&s.body, "DEV %s %s(const P& p, IDX i) {\n", ct, name)
	for _, l := range lines {
		s.body.WriteString("\t" + l + "\n")
	}
	fmt.Fprintf(&s.body, "\treturn %s;\n}\n", ret)
	return ct, nil
}

func walkLeaves(e *expr, fn func(*leaf)) {
	if e.leaf != nil {
		fn(e.leaf)
	}
	for _, a := range e.args {
		walkLeaves(a, fn)
	}
}

// emit appends the lines computing e and returns the variable holding its
// value.
func (s *source) emit(e *expr, coords []string, lines *[]string) (string, error) {
	if e.op == backend.OpInput {
		l := e.leaf
		v := s.newVar()
		ptr := s.word(uint64(l.v.ptr()))
		idx := "i"
		switch l.kind {
		case leafScalar:
			idx = "0"
		case leafStrided:
			var terms []string
			for k, st := range l.strides {
				if st == 0 {
					continue
				}
				terms = append(terms, coords[k]+" * "+s.w(s.word(uint64(int64(st)))))
			}
			if len(terms) == 0 {
				idx = "0"
			} else {
				idx = strings.Join(terms, " + ")
			}
		}
		p := "((const " + storageC(l.v.dtype) + "*)p.w[" + strconv.Itoa(ptr) + "])"
		x := loadC(&s.h, e.dt, p, idx)
		if !computeOf(e.dt).isComplex() {
			// Leaves are never written by the kernel that reads them:
			// read them through the read-only data cache.
			x = loadC(&s.h, e.dt, "", "__ldg(&"+p+"["+idx+"])")
		}
		*lines = append(*lines, fmt.Sprintf("const %s %s = %s;", computeOf(e.dt).C(), v, x))
		return v, nil
	}
	args := make([]string, len(e.args))
	for i, a := range e.args {
		var err error
		if args[i], err = s.emit(a, coords, lines); err != nil {
			return "", err
		}
	}
	var (
		x   string
		err error
	)
	switch e.op {
	case backend.OpCast:
		x = castC(&s.h, e.argDT, e.dt, args[0])
	case backend.OpWhere:
		x = "(" + args[0] + " ? " + args[1] + " : " + args[2] + ")"
	default:
		x, err = s.opC(e, args)
	}
	if err != nil {
		return "", err
	}
	if e.round != dtypes.Invalid {
		x = roundF32C(&s.h, e.round, x)
	}
	v := s.newVar()
	*lines = append(*lines, fmt.Sprintf("const %s %s = %s;", computeOf(e.dt).C(), v, x))
	return v, nil
}

// naturalDType returns the dtype operation o gives on operands of dtype
// dt: bool for comparisons and predicates, the real part's dtype for the
// absolute value of a complex number, dt otherwise.
func naturalDType(o backend.Op, dt dtypes.DType) dtypes.DType {
	switch o {
	case backend.OpNot, backend.OpIsNaN, backend.OpIsInf, backend.OpIsFinite,
		backend.OpEq, backend.OpNe, backend.OpLt, backend.OpLe, backend.OpGt, backend.OpGe,
		backend.OpAnd, backend.OpOr:
		return dtypes.Bool
	case backend.OpAbs:
		return dt.Real()
	}
	return dt
}

// cmpOps are the C operators of the comparisons.
var cmpOps = map[backend.Op]string{
	backend.OpEq: "==", backend.OpNe: "!=", backend.OpLt: "<", backend.OpLe: "<=", backend.OpGt: ">", backend.OpGe: ">=",
}

// mathFuncs are the transcendental functions computed in double and
// rounded once, as the CPU backend does with Go's math package.
var mathFuncs = map[backend.Op]string{
	backend.OpExp: "exp", backend.OpLog: "log", backend.OpLog1p: "log1p", backend.OpSin: "sin",
	backend.OpCos: "cos", backend.OpTanh: "tanh", backend.OpErf: "erf",
	backend.OpFloor: "floor", backend.OpCeil: "ceil", backend.OpTrunc: "trunc",
	backend.OpRound: "round", backend.OpRoundEven: "rint", backend.OpSqrt: "sqrt", backend.OpAbs: "fabs",
	backend.OpTan: "tan", backend.OpAsin: "asin", backend.OpAcos: "acos", backend.OpAtan: "atan",
	backend.OpSinh: "sinh", backend.OpCosh: "cosh", backend.OpAsinh: "asinh", backend.OpAcosh: "acosh",
	backend.OpAtanh: "atanh", backend.OpLog2: "log2", backend.OpLog10: "log10", backend.OpExp2: "exp2",
	backend.OpExpm1: "expm1",
}

// opC returns the C expression of the operation e (not cast or where) on
// the argument variables a, with the semantics of the CPU backend's
// kernels (backend/cpu kernels.go, intkernels.go, floatkernels.go,
// complexkernels.go).
func (s *source) opC(e *expr, a []string) (string, error) {
	o, dt := e.op, e.argDT
	ct := computeOf(dt)
	var x string
	switch {
	case ct == ctBool:
		x = boolOpC(o, a)
	case ct.isInt():
		x = s.intOpC(e, ct, a)
	case ct.isFloat():
		x = s.floatOpC(e, ct, a)
	default:
		x = s.complexOpC(e, ct, a)
	}
	if x == "" {
		return "", backend.Unsupported(o, dt)
	}
	return x, nil
}

func boolOpC(o backend.Op, a []string) string {
	switch o {
	case backend.OpInvert, backend.OpNot:
		return "(!" + a[0] + ")"
	case backend.OpAbs, backend.OpRelu, backend.OpFloor, backend.OpCeil, backend.OpRound,
		backend.OpRoundEven, backend.OpTrunc, backend.OpSign, backend.OpSquare:
		return a[0]
	case backend.OpIsNaN, backend.OpIsInf:
		return "false"
	case backend.OpIsFinite:
		return "true"
	case backend.OpAdd, backend.OpBitOr, backend.OpOr, backend.OpMax:
		return "(" + a[0] + " || " + a[1] + ")"
	case backend.OpMul, backend.OpBitAnd, backend.OpAnd, backend.OpMin:
		return "(" + a[0] + " && " + a[1] + ")"
	case backend.OpBitXor, backend.OpNe:
		return "(" + a[0] + " != " + a[1] + ")"
	case backend.OpEq:
		return "(" + a[0] + " == " + a[1] + ")"
	case backend.OpLt:
		return "(!" + a[0] + " && " + a[1] + ")"
	case backend.OpLe:
		return "(!" + a[0] + " || " + a[1] + ")"
	case backend.OpGt:
		return "(" + a[0] + " && !" + a[1] + ")"
	case backend.OpGe:
		return "(" + a[0] + " || !" + a[1] + ")"
	}
	return ""
}

func (s *source) intOpC(e *expr, ct ctype, a []string) string {
	t, u := ct.C(), ct.wrapType()
	signed := ct.isSigned()
	wrap := func(op string) string {
		return "(" + t + ")((" + u + ")" + a[0] + " " + op + " (" + u + ")" + a[1] + ")"
	}
	flag := func() string { return "(u32*)p.w[" + strconv.Itoa(s.flagWord()) + "]" }
	switch e.op {
	case backend.OpNeg:
		return "(" + t + ")((" + u + ")0 - (" + u + ")" + a[0] + ")"
	case backend.OpAbs:
		if !signed {
			return a[0]
		}
		return "(" + a[0] + " < 0 ? (" + t + ")((" + u + ")0 - (" + u + ")" + a[0] + ") : " + a[0] + ")"
	case backend.OpInvert:
		return "(" + t + ")~" + a[0]
	case backend.OpNot:
		return "(" + a[0] + " == 0)"
	case backend.OpRelu:
		if !signed {
			return a[0]
		}
		return "(" + a[0] + " > 0 ? " + a[0] + " : (" + t + ")0)"
	case backend.OpFloor, backend.OpCeil, backend.OpRound, backend.OpRoundEven, backend.OpTrunc:
		return a[0]
	case backend.OpIsNaN, backend.OpIsInf:
		return "false"
	case backend.OpIsFinite:
		return "true"
	case backend.OpSign:
		if !signed {
			return "(" + t + ")(" + a[0] + " > 0)"
		}
		return "(" + t + ")((" + a[0] + " > 0) - (" + a[0] + " < 0))"
	case backend.OpSquare:
		return "(" + t + ")((" + u + ")" + a[0] + " * (" + u + ")" + a[0] + ")"
	case backend.OpReciprocal:
		// NumPy's 1.0/x converted back, with x86-64's value for 1/0 (the
		// CPU backend's reciprocalL).
		zero := "(" + t + ")0"
		switch ct {
		case ctI32:
			zero = "(" + t + ")((" + u + ")1 << 31)"
		case ctI64:
			zero = "(" + t + ")((" + u + ")1 << 63)"
		}
		minus := "0"
		if signed {
			minus = "(" + a[0] + " == -1 ? (" + t + ")-1 : (" + t + ")0)"
		}
		return "(" + a[0] + " == 1 ? (" + t + ")1 : " + a[0] + " == 0 ? " + zero + " : " + minus + ")"
	case backend.OpAdd:
		return wrap("+")
	case backend.OpSub:
		return wrap("-")
	case backend.OpMul:
		return wrap("*")
	case backend.OpDiv, backend.OpFloorDiv, backend.OpMod:
		s.h.add("idiv")
		fn := "ts_idiv"
		if e.op == backend.OpMod {
			fn = "ts_imod"
		}
		f, mode := "(u32*)0", 0
		switch {
		case e.zeroErr:
			f, mode = flag(), 1
		case e.warnIntDiv && e.op != backend.OpDiv:
			f, mode = flag(), 2
		}
		return fmt.Sprintf("%s<%s, %v, %d, %d>(%s, %s, %s)", fn, t, !e.cdiv, mode, e.intDiv, a[0], a[1], f)
	case backend.OpPow:
		s.h.add("ipow")
		f := "(u32*)0"
		if signed {
			f = flag()
		}
		return fmt.Sprintf("ts_ipow<%s>(%s, %s, %s)", t, a[0], a[1], f)
	case backend.OpMax:
		return "(" + a[0] + " > " + a[1] + " ? " + a[0] + " : " + a[1] + ")"
	case backend.OpMin:
		return "(" + a[0] + " < " + a[1] + " ? " + a[0] + " : " + a[1] + ")"
	case backend.OpEq, backend.OpNe, backend.OpLt, backend.OpLe, backend.OpGt, backend.OpGe:
		return "(" + a[0] + " " + cmpOps[e.op] + " " + a[1] + ")"
	case backend.OpBitAnd:
		return "(" + t + ")(" + a[0] + " & " + a[1] + ")"
	case backend.OpBitOr:
		return "(" + t + ")(" + a[0] + " | " + a[1] + ")"
	case backend.OpBitXor:
		return "(" + t + ")(" + a[0] + " ^ " + a[1] + ")"
	case backend.OpShl, backend.OpShr:
		s.h.add("shift")
		fn := "ts_shl"
		if e.op == backend.OpShr {
			fn = "ts_shr"
		}
		return fmt.Sprintf("%s<%s>(%s, %s)", fn, t, a[0], a[1])
	case backend.OpAnd:
		return "(" + a[0] + " != 0 && " + a[1] + " != 0)"
	case backend.OpOr:
		return "(" + a[0] + " != 0 || " + a[1] + " != 0)"
	}
	return ""
}

func (s *source) floatOpC(e *expr, ct ctype, a []string) string {
	t := ct.C()
	d0 := "(double)" + a[0]
	switch e.op {
	case backend.OpNeg:
		return "(-" + a[0] + ")"
	case backend.OpNot:
		return "(" + a[0] + " == 0)"
	case backend.OpRelu:
		return "((!(" + a[0] + " > 0) && " + a[0] + " == " + a[0] + ") ? (" + t + ")0 : " + a[0] + ")"
	case backend.OpExp, backend.OpLog, backend.OpLog1p, backend.OpSin, backend.OpCos, backend.OpTanh,
		backend.OpErf, backend.OpFloor, backend.OpCeil, backend.OpTrunc, backend.OpRound,
		backend.OpRoundEven, backend.OpSqrt, backend.OpAbs,
		backend.OpTan, backend.OpAsin, backend.OpAcos, backend.OpAtan, backend.OpSinh, backend.OpCosh,
		backend.OpAsinh, backend.OpAcosh, backend.OpAtanh, backend.OpLog2, backend.OpLog10,
		backend.OpExp2, backend.OpExpm1:
		return "(" + t + ")" + mathFuncs[e.op] + "(" + d0 + ")"
	case backend.OpSign:
		// NumPy's float sign: ±1, 0 for either zero, NaN for NaN.
		return "(" + a[0] + " > 0 ? (" + t + ")1 : " + a[0] + " < 0 ? (" + t + ")-1 : " + a[0] + " == 0 ? (" + t + ")0 : " + a[0] + ")"
	case backend.OpSquare:
		return "(" + a[0] + " * " + a[0] + ")"
	case backend.OpReciprocal:
		return "((" + t + ")1 / " + a[0] + ")"
	case backend.OpIsFinite:
		return "(" + a[0] + " == " + a[0] + " && !ts_isinf(" + a[0] + "))"
	case backend.OpAtan2:
		return "(" + t + ")atan2(" + d0 + ", (double)" + a[1] + ")"
	case backend.OpFMA:
		// One rounding (float16 and bfloat16, computed in float32,
		// would round twice: refused, as on the CPU).
		switch e.argDT {
		case dtypes.F32:
			return "fmaf(" + a[0] + ", " + a[1] + ", " + a[2] + ")"
		case dtypes.F64:
			return "fma(" + a[0] + ", " + a[1] + ", " + a[2] + ")"
		}
		return ""
	case backend.OpHypot:
		// glibc's hypotf and hypot, as the CPU backend computes them.
		s.h.add("hypot")
		if ct == ctF32 {
			return "ts_hypotf(" + a[0] + ", " + a[1] + ")"
		}
		return "ts_hypot(" + a[0] + ", " + a[1] + ")"
	case backend.OpRsqrt:
		return "(" + t + ")(1.0 / sqrt(" + d0 + "))"
	case backend.OpSigmoid:
		s.h.add("sigmoid")
		return "(" + t + ")ts_sigmoid(" + d0 + ")"
	case backend.OpSilu:
		s.h.add("sigmoid")
		return "(" + t + ")(" + d0 + " * ts_sigmoid(" + d0 + "))"
	case backend.OpGelu:
		// 0.5·x·erfc(-x/√2), as the CPU backend writes it.
		return "(" + t + ")(0.5 * " + d0 + " * erfc(-" + d0 + " / 1.4142135623730951))"
	case backend.OpIsNaN:
		return "(" + a[0] + " != " + a[0] + ")"
	case backend.OpIsInf:
		return "ts_isinf(" + a[0] + ")"
	case backend.OpAdd:
		return "(" + a[0] + " + " + a[1] + ")"
	case backend.OpSub:
		return "(" + a[0] + " - " + a[1] + ")"
	case backend.OpMul:
		return "(" + a[0] + " * " + a[1] + ")"
	case backend.OpDiv:
		return "(" + a[0] + " / " + a[1] + ")"
	case backend.OpFloorDiv:
		if e.cdiv {
			return "(" + t + ")trunc((double)(" + a[0] + " / " + a[1] + "))"
		}
		s.h.add("pydivmod")
		return "ts_pyfloordiv<" + t + ">(" + a[0] + ", " + a[1] + ")"
	case backend.OpMod:
		if e.cdiv {
			return "(" + t + ")fmod(" + d0 + ", (double)" + a[1] + ")"
		}
		s.h.add("pydivmod")
		return "ts_pymod<" + t + ">(" + a[0] + ", " + a[1] + ")"
	case backend.OpPow:
		s.h.add("pow")
		return "(" + t + ")ts_pow(" + d0 + ", (double)" + a[1] + ")"
	case backend.OpMax, backend.OpMin:
		// NumPy's maximum and minimum: NaN propagates (the first NaN
		// wins); ties give b for float32 and float64 (x86's MAXPS under
		// NumPy's loops) and keep a for narrower floats (NumPy's float16
		// loops), as the CPU backend's kernels do.
		cmp := map[backend.Op]string{backend.OpMax: " > ", backend.OpMin: " < "}[e.op]
		if e.argDT != dtypes.F32 && e.argDT != dtypes.F64 {
			cmp = map[backend.Op]string{backend.OpMax: " >= ", backend.OpMin: " <= "}[e.op]
		}
		return "((" + a[0] + cmp + a[1] + " || " + a[0] + " != " + a[0] + ") ? " + a[0] + " : " + a[1] + ")"
	case backend.OpEq, backend.OpNe, backend.OpLt, backend.OpLe, backend.OpGt, backend.OpGe:
		return "(" + a[0] + " " + cmpOps[e.op] + " " + a[1] + ")"
	case backend.OpAnd:
		return "(" + a[0] + " != 0 && " + a[1] + " != 0)"
	case backend.OpOr:
		return "(" + a[0] + " != 0 || " + a[1] + " != 0)"
	}
	return ""
}

func (s *source) complexOpC(e *expr, ct ctype, a []string) string {
	o, xla := e.op, e.xlaMinMax
	t, f := ct.C(), ct.part()
	nz := func(v string) string { return "(" + v + ".re != 0 || " + v + ".im != 0)" }
	switch o {
	case backend.OpNeg:
		return t + "{-" + a[0] + ".re, -" + a[0] + ".im}"
	case backend.OpAbs:
		if e.scaledCAbs {
			s.h.add("cabs")
			return "ts_cabs_scaled(" + a[0] + ".re, " + a[0] + ".im)"
		}
		s.h.add("hypot")
		if ct == ctC64 {
			return "ts_hypotf(" + a[0] + ".re, " + a[0] + ".im)"
		}
		return "ts_hypot(" + a[0] + ".re, " + a[0] + ".im)"
	case backend.OpNot:
		return "(!" + nz(a[0]) + ")"
	case backend.OpIsNaN:
		return "(" + a[0] + ".re != " + a[0] + ".re || " + a[0] + ".im != " + a[0] + ".im)"
	case backend.OpIsInf:
		return "(ts_isinf(" + a[0] + ".re) || ts_isinf(" + a[0] + ".im))"
	case backend.OpAdd:
		return t + "{" + a[0] + ".re + " + a[1] + ".re, " + a[0] + ".im + " + a[1] + ".im}"
	case backend.OpSub:
		return t + "{" + a[0] + ".re - " + a[1] + ".re, " + a[0] + ".im - " + a[1] + ".im}"
	case backend.OpMul:
		s.h.add("cmul")
		return "ts_cmul<" + f + ">(" + a[0] + ", " + a[1] + ")"
	case backend.OpDiv:
		s.h.add("cdiv")
		return "ts_cdiv<" + f + ">(" + a[0] + ", " + a[1] + ")"
	case backend.OpEq:
		return "(" + a[0] + ".re == " + a[1] + ".re && " + a[0] + ".im == " + a[1] + ".im)"
	case backend.OpNe:
		return "(" + a[0] + ".re != " + a[1] + ".re || " + a[0] + ".im != " + a[1] + ".im)"
	case backend.OpLt, backend.OpLe, backend.OpGt, backend.OpGe:
		// NumPy's CLT, CLE, CGT, CGE (the CPU backend's cOrdered).
		s.h.add("cordered")
		return fmt.Sprintf("ts_cordered<%s, %d>(%s, %s)", f, map[backend.Op]int{backend.OpLt: 0, backend.OpLe: 1, backend.OpGt: 2, backend.OpGe: 3}[o], a[0], a[1])
	case backend.OpAnd:
		return "(" + nz(a[0]) + " && " + nz(a[1]) + ")"
	case backend.OpOr:
		return "(" + nz(a[0]) + " || " + nz(a[1]) + ")"
	case backend.OpMax, backend.OpMin:
		s.h.add("cminmax")
		return fmt.Sprintf("ts_cminmax<%s, %v, %v>(%s, %s)", f, o == backend.OpMax, xla, a[0], a[1])
	}
	return ""
}

// cpuOnly reports whether the elementwise node n is computed by the CPU
// backend (its arguments fetched, the result uploaded): the complex
// transcendental functions and complex powers, which use Go's math/cmplx.
func cpuOnly(n *backend.Node) bool {
	if len(n.Args) == 0 || !n.Args[0].DType.IsComplex() {
		return false
	}
	switch n.Op {
	case backend.OpExp, backend.OpLog, backend.OpLog1p, backend.OpSin, backend.OpCos, backend.OpTanh,
		backend.OpSqrt, backend.OpRsqrt, backend.OpPow,
		backend.OpTan, backend.OpSinh, backend.OpCosh, backend.OpLog2, backend.OpLog10, backend.OpExp2,
		backend.OpExpm1, backend.OpSquare, backend.OpReciprocal, backend.OpSign, backend.OpIsFinite:
		return true
	}
	return false
}
