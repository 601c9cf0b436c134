package cuda

import (
	"fmt"
	"math/bits"
	"strings"

	"github.com/tensorsh/tensorsh/backend"
	"github.com/tensorsh/tensorsh/dtypes"
)

// Reductions.
//
// The results are the CPU backend's bit for bit: the kernels perform the
// same operations in the same order (backend/cpu reduce.go). For every
// output element o the reduced elements are visited as the CPU backend
// visits them: the outer reduced axes in memory order ("chunks" j), and
// within a chunk C contiguous elements (C = 1 when the last axis is kept).
// Sums of floats add NumPy's pairwise sum of every piece of a chunk (of at
// most backend.SumPiece elements) to the running result; every other
// reduction folds the elements one by one; narrow floats are rounded after
// every piece (or chunk).
//
// One thread computes one output element. When there are few outputs and
// many elements, the work is split without changing the result:
//
//   - Pairwise sums are split along their own tree: the subtrees at depth D
//     of every chunk's pairwise tree are summed by separate threads, and
//     the top D levels are then added as the tree says.
//   - Folds whose result does not depend on the grouping (integer and bool
//     reductions, which wrap; float max and min, which keep the first of
//     equal elements and the first NaN; argmax and argmin, which keep the
//     first index) are split into segments whose results are folded in
//     order.
//   - Float and complex products are sequential in NumPy; they run one
//     thread per output, or on the CPU when that would be slow (few
//     outputs of many elements).

// A redPlan describes the walk of a reduction (see the CPU backend's).
type redPlan struct {
	outShape []int
	keptSize []int // coalesced kept groups
	keptStr  []int
	redSize  []int // outer reduced groups (the chunks), row-major
	redStr   []int
	chunk    int // elements per chunk (contiguous)
	m, l     int // outputs, reduced elements per output
	nchunks  int
}

func planReduce(shape, axes []int, keep bool) (*redPlan, error) {
	bp, err := backend.PlanReduce(shape, axes, keep)
	if err != nil {
		return nil, err
	}
	return newRedPlan(bp), nil
}

// newRedPlan returns the walk bp plans.
func newRedPlan(bp *backend.ReducePlan) *redPlan {
	p := &redPlan{outShape: bp.OutShape, keptSize: bp.KeptSize, keptStr: bp.KeptStr,
		redSize: bp.RedSize, redStr: bp.RedStr, chunk: bp.Chunk, m: bp.M, l: bp.L}
	if p.m > 0 && p.l > 0 {
		p.nchunks = p.l / p.chunk
	}
	return p
}

// pieces returns the number of pairwise sums of each chunk: pieces of
// backend.SumPiece elements (the last shorter), as NumPy sums them.
func (p *redPlan) pieces() int { return (p.chunk + backend.SumPiece - 1) / backend.SumPiece }

// A redKind is the family of a reduction's kernel.
type redKind uint8

const (
	redFold     redKind = iota // order-free fold (split into segments)
	redSeq                     // sequential fold (float and complex products)
	redPairwise                // pairwise sums of chunks
	redArg                     // argmax, argmin
)

// A redOp holds the C pieces of one reduction.
type redOp struct {
	kind    redKind
	acc     string // the accumulator's C type
	init    string // the identity ("" for first-element reductions)
	fold    string // fmt template of acc ⊕ x, with %[1]s acc and %[2]s x
	round   dtypes.DType
	cplx    bool
	helpers []string // C helpers the fold uses
	better  string   // redArg: template of "v replaces best" (%[1]s v, %[2]s best)
	stop    string   // redArg: template of "best is final" (%[1]s best), or ""
}

func reduceOp(o backend.Op, at dtypes.DType) (*redOp, error) {
	ct := computeOf(at)
	t := ct.C()
	if o == backend.OpArgMax || o == backend.OpArgMin {
		op := &redOp{kind: redArg, acc: t}
		isMax := o == backend.OpArgMax
		switch {
		case ct == ctBool && isMax:
			op.better = "(%[1]s && !%[2]s)"
		case ct == ctBool:
			op.better = "(!%[1]s && %[2]s)"
		case ct.isInt() && isMax:
			op.better = "(%[1]s > %[2]s)"
		case ct.isInt():
			op.better = "(%[1]s < %[2]s)"
		case ct.isFloat() && isMax:
			op.better, op.stop = "!(%[1]s <= %[2]s)", "(%[1]s != %[1]s)"
		case ct.isFloat():
			op.better, op.stop = "!(%[1]s >= %[2]s)", "(%[1]s != %[1]s)"
		default:
			// NumPy's complex argmax and argmin (cpu argComplex).
			op.better = fmt.Sprintf("ts_cbetter<%s, %v>(%%[1]s, %%[2]s)", ct.part(), isMax)
			op.stop = "(%[1]s.re != %[1]s.re || %[1]s.im != %[1]s.im)"
			op.helpers = []string{"cminmax"}
		}
		return op, nil
	}
	op := &redOp{acc: t}
	switch {
	case ct == ctBool:
		switch o {
		case backend.OpAny, backend.OpReduceMax, backend.OpSum:
			op.init, op.fold = "false", "(%[1]s || %[2]s)"
		case backend.OpAll, backend.OpReduceMin, backend.OpProd:
			op.init, op.fold = "true", "(%[1]s && %[2]s)"
		default:
			return nil, fmt.Errorf("cuda: %v of bool is not supported", o)
		}
	case ct.isInt():
		u := ct.wrapType()
		switch o {
		case backend.OpSum, backend.OpMean:
			op.init, op.fold = "0", "("+t+")(("+u+")%[1]s + ("+u+")%[2]s)"
		case backend.OpProd:
			op.init, op.fold = "1", "("+t+")(("+u+")%[1]s * ("+u+")%[2]s)"
		case backend.OpReduceMax:
			op.fold = "(%[1]s > %[2]s ? %[1]s : %[2]s)"
		case backend.OpReduceMin:
			op.fold = "(%[1]s < %[2]s ? %[1]s : %[2]s)"
		default:
			return nil, fmt.Errorf("cuda: %v of integers is not supported", o)
		}
	case ct.isFloat():
		switch o {
		case backend.OpSum, backend.OpMean:
			op.kind, op.init, op.fold = redPairwise, "0", "(%[1]s + %[2]s)"
		case backend.OpProd:
			op.kind, op.init, op.fold = redSeq, "1", "(%[1]s * %[2]s)"
		case backend.OpReduceMax:
			op.fold = "((%[1]s >= %[2]s || %[1]s != %[1]s) ? %[1]s : %[2]s)"
		case backend.OpReduceMin:
			op.fold = "((%[1]s <= %[2]s || %[1]s != %[1]s) ? %[1]s : %[2]s)"
		default:
			return nil, fmt.Errorf("cuda: %v of floats is not supported", o)
		}
		if backend.Narrow(at) && (o == backend.OpSum || o == backend.OpMean || o == backend.OpProd) {
			op.round = at
		}
	default:
		f := ct.part()
		op.cplx = true
		switch o {
		case backend.OpSum, backend.OpMean:
			op.kind, op.init, op.fold = redPairwise, t+"{0, 0}", "(%[1]s + %[2]s)"
		case backend.OpProd:
			op.kind, op.init, op.fold = redSeq, t+"{1, 0}", "ts_cmul<"+f+">(%[1]s, %[2]s)"
			op.helpers = []string{"cmul"}
		case backend.OpReduceMax, backend.OpReduceMin:
			// NumPy's maximum.reduce: the complex loop folded in order
			// (segments combine in order; the first NaN wins).
			op.fold = fmt.Sprintf("ts_cminmax<%s, %v, false>(%%[1]s, %%[2]s)", f, o == backend.OpReduceMax)
			op.helpers = []string{"cminmax"}
		default:
			return nil, fmt.Errorf("cuda: %v of complex numbers is not supported", o)
		}
	}
	return op, nil
}

// Reduce evaluates sum, prod, mean, max, min, argmax, argmin, any, all
// of argNode (see backend.Exec).
func (r *runner) Reduce(n, argNode *backend.Node, bp *backend.ReducePlan, size int) (*dview, error) {
	at := argNode.DType
	argSize := bp.M * bp.L
	p := newRedPlan(bp)
	isArg := n.Op == backend.OpArgMax || n.Op == backend.OpArgMin
	op, err := reduceOp(n.Op, at)
	if err != nil {
		return nil, err
	}
	resDT := at
	if isArg {
		resDT = dtypes.I64
	}
	if n.Op == backend.OpMean && at.IsInt() && p.l > 0 && p.m > 0 && wrapInt(at, p.l) == 0 {
		return nil, fmt.Errorf("cuda: mean: integer divide by zero (%d elements wrap to 0 in %v)", p.l, at)
	}
	if op.kind == redSeq && p.m < 256 && p.l > 1<<16 {
		// A long sequential product: faster on the CPU.
		return r.fallback(n)
	}

	// The input: a fused elementwise tree, or a materialised view.
	f := &fusion{r: r, root: argNode}
	var e *expr
	if r.x.Fusible(argNode, argNode) && !cpuOnly(argNode) && argSize > 0 {
		if e, err = f.build(argNode); err != nil {
			return nil, err
		}
	} else {
		if e, err = f.leafOf(argNode); err != nil {
			return nil, err
		}
	}
	if e.dt != at {
		return nil, fmt.Errorf("cuda: internal error: reduction input is %v, want %v", e.dt, at)
	}
	out, err := r.Alloc(n.DType, n.Shape, size)
	if err != nil {
		return nil, err
	}
	if p.m == 0 {
		return out, nil
	}
	shape, wide := f.layout(argSize)
	wide = wide || wideFor(p.m*max(p.l, 1), 0, 1)
	g := &redGen{s: newSource(wide), p: p, op: op, n: n, at: at, resDT: resDT}
	for _, h := range op.helpers {
		g.s.h.add(h)
	}
	if p.l > 0 {
		if _, err := g.s.exprFunc("ev", e, shape); err != nil {
			return nil, err
		}
	}
	return out, g.run(r, out.buf.ptr)
}

// wrapInt returns v converted to the integer dtype d (wrapping).
func wrapInt(d dtypes.DType, v int) int64 {
	bits := uint(d.Bits())
	if bits >= 64 {
		return int64(v)
	}
	x := uint64(v) & (1<<bits - 1)
	if d.IsSigned() && x >= 1<<(bits-1) {
		return int64(x) - 1<<bits
	}
	return int64(x)
}

// A redGen generates and launches the kernels of one reduction.
type redGen struct {
	s     *source
	p     *redPlan
	op    *redOp
	n     *backend.Node
	at    dtypes.DType
	resDT dtypes.DType

	mw, jw, cw, lw int // words: outputs, chunks, chunk length, reduced elements
	segw, dw       int // words: segments of a split fold, depth of a split sum
}

func (g *redGen) fold(acc, x string) string { return fmt.Sprintf(g.op.fold, acc, x) }

// Split sizes.
const (
	redThreads    = 65536 // threads to aim for when splitting
	redMinSegment = 2048  // elements per thread at least
)

// redManyOutputs is the number of outputs (or of pairwise sums) for which
// one thread each is enough; a variable for the tests.
var redManyOutputs = 4096

func (g *redGen) run(r *runner, out uintptr) error {
	p, s := g.p, g.s
	g.mw, g.jw, g.cw, g.lw = s.word(uint64(p.m)), s.word(uint64(p.nchunks)), s.word(uint64(p.chunk)), s.word(uint64(p.l))
	g.emitWalk()
	var stage1 string
	var parts []uintptr
	var work int
	switch {
	case p.l == 0:
	case g.op.kind == redPairwise && p.m*p.nchunks*p.pieces() < redManyOutputs && min(p.chunk, backend.SumPiece) >= 2*redMinSegment:
		sums := p.m * p.nchunks * p.pieces()
		d := min(20, bits.Len(uint(min(p.chunk, backend.SumPiece)/redMinSegment))-1, bits.Len(uint(redThreads/sums))-1)
		if d > 0 {
			work = sums << d
			buf, err := r.allocBytes(work * g.accSize())
			if err != nil {
				return err
			}
			parts = []uintptr{buf.ptr}
			stage1 = g.emitPairwiseStage1(d, buf.ptr)
		}
	case (g.op.kind == redFold || g.op.kind == redArg) && p.m < redManyOutputs && p.l >= 4*redMinSegment:
		segs := min(p.l/redMinSegment, (redThreads+p.m-1)/p.m)
		if segs > 1 {
			work = p.m * segs
			buf, err := r.allocBytes(work * g.accSize())
			if err != nil {
				return err
			}
			parts = []uintptr{buf.ptr}
			if g.op.kind == redArg {
				ib, err := r.allocBytes(work * 8)
				if err != nil {
					return err
				}
				parts = append(parts, ib.ptr)
			}
			stage1 = g.emitSegmentStage1(segs, parts)
		}
	}
	g.emitFinal(out, stage1 != "", parts)
	if stage1 != "" {
		if err := r.launch(s, stage1, work, 1); err != nil {
			return err
		}
	}
	return r.launch(s, "red", p.m, 1)
}

// accSize returns the size of one accumulator in bytes.
func (g *redGen) accSize() int { return backend.ComputeOf(g.at).Size() }

// emitWalk emits kbase (the input offset of output o) and roff (the
// offset of chunk j).
func (g *redGen) emitWalk() {
	s, p := g.s, g.p
	b := &s.body
	b.WriteString("DEV IDX kbase(const P& p, IDX o) {\n\tIDX b = 0;\n")
	for i := len(p.keptSize) - 1; i >= 0; i-- {
		sw, tw := s.word(uint64(p.keptSize[i])), s.word(uint64(p.keptStr[i]))
		fmt.Fprintf(b, "\tb += (o %% %s) * %s; o /= %s;\n", s.w(sw), s.w(tw), s.w(sw))
	}
	b.WriteString("\treturn b;\n}\n")
	b.WriteString("DEV IDX roff(const P& p, IDX j) {\n\tIDX b = 0;\n")
	for i := len(p.redSize) - 1; i >= 0; i-- {
		sw, tw := s.word(uint64(p.redSize[i])), s.word(uint64(p.redStr[i]))
		fmt.Fprintf(b, "\tb += (j %% %s) * %s; j /= %s;\n", s.w(sw), s.w(tw), s.w(sw))
	}
	b.WriteString("\treturn b;\n}\n")
}

// emitPairwise emits the pairwise summation machinery: pwleaf (NumPy's
// unrolled sum of a short run) and, through the helper ts_pairwise, the
// sum of a chunk.
func (g *redGen) emitPairwise() {
	s, acc := g.s, g.op.acc
	s.h.add("pairwise")
	b := &s.body
	k := 8
	if g.op.cplx {
		k = 4
	}
	zero := "(" + acc + ")-0.0"
	if g.op.cplx {
		zero = acc + "{-0.0, -0.0}"
	}
	fmt.Fprintf(b, "DEV %s pwleaf(const P& p, IDX b, IDX n) {\n", acc)
	fmt.Fprintf(b, "\tif (n < %d) {\n\t\t%s res = %s;\n\t\tfor (IDX i = 0; i < n; i++) res = res + ev(p, b + i);\n\t\treturn res;\n\t}\n", k, acc, zero)
	var decl, add []string
	for i := range k {
		decl = append(decl, fmt.Sprintf("r%d = ev(p, b + %d)", i, i))
		add = append(add, fmt.Sprintf("r%d = r%d + ev(p, b + i + %d);", i, i, i))
	}
	fmt.Fprintf(b, "\t%s %s;\n\tIDX i = %d;\n", acc, strings.Join(decl, ", "), k)
	fmt.Fprintf(b, "\tfor (; i < n - n %% %d; i += %d) {\n\t\t%s\n\t}\n", k, k, strings.Join(add, "\n\t\t"))
	if k == 8 {
		b.WriteString("\t" + acc + " res = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7));\n")
	} else {
		b.WriteString("\t" + acc + " res = (r0 + r1) + (r2 + r3);\n")
	}
	b.WriteString("\tfor (; i < n; i++) res = res + ev(p, b + i);\n\treturn res;\n}\n")
	fmt.Fprintf(b, "struct PwLeaf {\n\tconst P& p;\n\tIDX b;\n\tDEVM %s operator()(IDX lo, IDX n, IDX, int) const { return pwleaf(p, b + lo, n); }\n};\n", acc)
	fmt.Fprintf(b, "DEV %s pwsum(const P& p, IDX b, IDX n) { return ts_pairwise<%s, %v>(n, 1000, PwLeaf{p, b}); }\n", acc, acc, g.op.cplx)
}

// emitPairwiseStage1 emits the kernel summing the depth-d subtrees of
// every chunk into parts.
func (g *redGen) emitPairwiseStage1(d int, parts uintptr) string {
	s, acc := g.s, g.op.acc
	g.emitPairwise()
	dw, pw := s.word(uint64(d)), s.word(uint64(parts))
	g.dw = dw
	b := &s.body
	s.names = append(s.names, "red_pw")
	fmt.Fprintf(b, "KERNEL void red_pw(const P p) {\n\tconst IDX m = %s, J = %s, C = %s;\n\tconst int D = (int)p.w[%d];\n\t%s* __restrict__ part = (%s*)p.w[%d];\n",
		s.w(g.mw), s.w(g.jw), s.w(g.cw), dw, acc, acc, pw)
	fmt.Fprintf(b, "\tconst IDX Q = (C + %[1]d - 1) / %[1]d;\n", backend.SumPiece)
	fmt.Fprintf(b, "\t"+gridStride+" {\n", "m * J * Q << D")
	b.WriteString("\t\tconst IDX S = (IDX)1 << D, s = i % S, k = (i / S) % (J * Q), j = k / Q, q = k % Q, o = i / S / (J * Q);\n")
	fmt.Fprintf(b, "\t\tconst IDX n = C - q * %[1]d < %[1]d ? C - q * %[1]d : %[1]d;\n", backend.SumPiece)
	fmt.Fprintf(b, "\t\tIDX lo, len;\n\t\tif (ts_subtree<%v>(n, D, s, &lo, &len)) part[i] = pwsum(p, kbase(p, o) + roff(p, j) + q * %d + lo, len);\n\t}\n}\n", g.op.cplx, backend.SumPiece)
	// The final kernel reads the subtrees back through PwPart.
	fmt.Fprintf(b, "struct PwPart {\n\tconst %s* part;\n\tint D;\n\tDEVM %s operator()(IDX, IDX, IDX path, int depth) const { return part[path << (D - depth)]; }\n};\n", acc, acc)
	return "red_pw"
}

// emitSegmentStage1 emits the kernel folding segs segments of every
// output's reduced elements into parts (and, for argmax and argmin, their
// indices).
func (g *redGen) emitSegmentStage1(segs int, parts []uintptr) string {
	s, op := g.s, g.op
	sw, pw := s.word(uint64(segs)), s.word(uint64(parts[0]))
	g.segw = sw
	b := &s.body
	s.names = append(s.names, "red_seg")
	fmt.Fprintf(b, "KERNEL void red_seg(const P p) {\n\tconst IDX m = %s, C = %s, L = %s, S = %s;\n\t%s* __restrict__ part = (%s*)p.w[%d];\n",
		s.w(g.mw), s.w(g.cw), s.w(g.lw), s.w(sw), op.acc, op.acc, pw)
	if op.kind == redArg {
		fmt.Fprintf(b, "\ti64* __restrict__ pidx = (i64*)p.w[%d];\n", s.word(uint64(parts[1])))
	}
	fmt.Fprintf(b, "\t"+gridStride+" {\n", "m * S")
	b.WriteString("\t\tconst IDX o = i / S, sg = i % S;\n")
	b.WriteString("\t\tconst IDX e0 = (IDX)((i64)sg * L / S), e1 = (IDX)((i64)(sg + 1) * L / S);\n")
	b.WriteString("\t\tconst IDX base = kbase(p, o);\n\t\tIDX j = e0 / C, c = e0 % C, bj = base + roff(p, j);\n")
	if op.kind == redArg {
		fmt.Fprintf(b, "\t\t%s best = ev(p, bj + c);\n\t\ti64 bi = e0;\n", op.acc)
		fmt.Fprintf(b, "\t\tfor (IDX e = e0; e < e1; e++) {\n")
		if op.stop != "" {
			fmt.Fprintf(b, "\t\t\tif %s break;\n", fmt.Sprintf(op.stop, "best"))
		}
		fmt.Fprintf(b, "\t\t\tconst %s v = ev(p, bj + c);\n\t\t\tif (%s) { best = v; bi = e; }\n", op.acc, fmt.Sprintf(op.better, "v", "best"))
		b.WriteString("\t\t\tif (++c == C) { c = 0; j++; bj = base + roff(p, j); }\n\t\t}\n")
		b.WriteString("\t\tpart[i] = best;\n\t\tpidx[i] = bi;\n\t}\n}\n")
		return "red_seg"
	}
	init := op.init
	if init == "" {
		init = "ev(p, bj + c)"
	}
	fmt.Fprintf(b, "\t\t%s acc = %s;\n", op.acc, init)
	fmt.Fprintf(b, "\t\tfor (IDX e = e0; e < e1; e++) {\n\t\t\tacc = %s;\n", g.fold("acc", "ev(p, bj + c)"))
	b.WriteString("\t\t\tif (++c == C) { c = 0; j++; bj = base + roff(p, j); }\n\t\t}\n\t\tpart[i] = acc;\n\t}\n}\n")
	return "red_seg"
}

// emitFinal emits the kernel computing every output element, from the
// input (split false) or from the first stage's parts.
func (g *redGen) emitFinal(out uintptr, split bool, parts []uintptr) {
	s, op, p := g.s, g.op, g.p
	b := &s.body
	ow := s.word(uint64(out))
	st := storageC(g.n.DType)
	s.names = append(s.names, "red")
	if !split && op.kind == redPairwise && p.l > 0 {
		g.emitPairwise()
	}
	fmt.Fprintf(b, "KERNEL void red(const P p) {\n\tconst IDX m = %s, J = %s, C = %s;\n\t%s* __restrict__ out = (%s*)p.w[%d];\n",
		s.w(g.mw), s.w(g.jw), s.w(g.cw), st, st, ow)
	if split {
		fmt.Fprintf(b, "\tconst %s* __restrict__ part = (const %s*)p.w[%d];\n", op.acc, op.acc, s.word(uint64(parts[0])))
		if op.kind == redArg {
			fmt.Fprintf(b, "\tconst i64* __restrict__ pidx = (const i64*)p.w[%d];\n", s.word(uint64(parts[1])))
		}
	}
	fmt.Fprintf(b, "\t"+gridStride+" {\n", "m")
	b.WriteString("\t\tconst IDX o = i;\n")
	var res string
	switch {
	case op.kind == redArg:
		res = "bi"
		g.finalArg(b, split)
	case split && op.kind == redPairwise:
		res = "acc"
		fmt.Fprintf(b, "\t\tconst int D = (int)p.w[%d];\n\t\t%s acc = %s;\n", g.dw, op.acc, op.init)
		fmt.Fprintf(b, "\t\tconst IDX Q = (C + %[1]d - 1) / %[1]d;\n", backend.SumPiece)
		b.WriteString("\t\tfor (IDX k = 0; k < J * Q; k++) {\n")
		fmt.Fprintf(b, "\t\t\tconst IDX q = k %% Q, n = C - q * %[1]d < %[1]d ? C - q * %[1]d : %[1]d;\n", backend.SumPiece)
		fmt.Fprintf(b, "\t\t\tconst %s* pk = part + ((i64)o * J * Q + k) * ((IDX)1 << D);\n", op.acc)
		fmt.Fprintf(b, "\t\t\tacc = %s;\n", g.fold("acc", fmt.Sprintf("ts_pairwise<%s, %v>(n, D, PwPart{pk, D})", op.acc, op.cplx)))
		g.roundAcc(b, "\t\t\t")
		b.WriteString("\t\t}\n")
	case split:
		res = "acc"
		fmt.Fprintf(b, "\t\tconst IDX S = %s;\n\t\t%s acc = part[o * S];\n", s.w(g.segw), op.acc)
		fmt.Fprintf(b, "\t\tfor (IDX k = 1; k < S; k++) acc = %s;\n", g.fold("acc", "part[o * S + k]"))
	case p.l == 0:
		res = "acc"
		fmt.Fprintf(b, "\t\t%s acc = %s;\n", op.acc, op.init)
	default:
		res = "acc"
		init := op.init
		if init == "" {
			init = "ev(p, base + roff(p, 0))"
		}
		b.WriteString("\t\tconst IDX base = kbase(p, o);\n")
		fmt.Fprintf(b, "\t\t%s acc = %s;\n", op.acc, init)
		b.WriteString("\t\tfor (IDX j = 0; j < J; j++) {\n\t\t\tconst IDX bj = base + roff(p, j);\n")
		if op.kind == redPairwise {
			leafMax := 128
			if op.cplx {
				leafMax = 64
			}
			fmt.Fprintf(b, "\t\t\tfor (IDX q = 0; q < C; q += %[1]d) {\n\t\t\t\tconst IDX n = C - q < %[1]d ? C - q : %[1]d;\n", backend.SumPiece)
			fmt.Fprintf(b, "\t\t\t\tacc = %s;\n", g.fold("acc", fmt.Sprintf("(n <= %d ? pwleaf(p, bj + q, n) : pwsum(p, bj + q, n))", leafMax)))
			g.roundAcc(b, "\t\t\t\t")
			b.WriteString("\t\t\t}\n")
		} else {
			fmt.Fprintf(b, "\t\t\tfor (IDX c = 0; c < C; c++) acc = %s;\n", g.fold("acc", "ev(p, bj + c)"))
			g.roundAcc(b, "\t\t\t")
		}
		b.WriteString("\t\t}\n")
	}
	if g.n.Op == backend.OpMean {
		g.mean(b)
	}
	fmt.Fprintf(b, "\t\tout[o] = %s;\n\t}\n}\n", storeC(&s.h, g.n.DType, castC(&s.h, g.resDT, g.n.DType, res)))
}

func (g *redGen) roundAcc(b *strings.Builder, indent string) {
	if g.op.round != dtypes.Invalid {
		fmt.Fprintf(b, "%sacc = %s;\n", indent, roundF32C(&g.s.h, g.op.round, "acc"))
	}
}

// mean divides the sum by the number of reduced elements, as the CPU
// backend does for each kind.
func (g *redGen) mean(b *strings.Builder) {
	ct := computeOf(g.at)
	l := "(i64)p.w[" + fmt.Sprint(g.lw) + "]"
	switch {
	case ct.isInt():
		g.s.h.add("idiv")
		fmt.Fprintf(b, "\t\tacc = ts_idiv<%s, false, 0, 0>(acc, (%s)%s, (u32*)0);\n", ct.C(), ct.C(), l)
	case ct.isFloat():
		fmt.Fprintf(b, "\t\tacc = acc / (%s)%s;\n", ct.C(), l)
		g.roundAcc(b, "\t\t")
	default:
		g.s.h.add("cdiv")
		f := ct.part()
		fmt.Fprintf(b, "\t\tacc = ts_cdiv<%s>(acc, %s{(%s)(double)%s, (%s)0});\n", f, ct.C(), f, l, f)
	}
}

// finalArg emits the body of argmax and argmin: the first index of the
// extreme element (the first NaN for floats), counting the reduced
// elements in row-major order.
func (g *redGen) finalArg(b *strings.Builder, split bool) {
	op := g.op
	stop := func(v string) string {
		if op.stop == "" {
			return "false"
		}
		return fmt.Sprintf(op.stop, v)
	}
	if split {
		fmt.Fprintf(b, "\t\tconst IDX S = %s;\n\t\t%s best = part[o * S];\n\t\ti64 bi = pidx[o * S];\n", g.s.w(g.segw), op.acc)
		fmt.Fprintf(b, "\t\tfor (IDX k = 1; k < S; k++) {\n\t\t\tif (%s) break;\n", stop("best"))
		fmt.Fprintf(b, "\t\t\tconst %s v = part[o * S + k];\n\t\t\tif (%s) { best = v; bi = pidx[o * S + k]; }\n\t\t}\n", op.acc, fmt.Sprintf(op.better, "v", "best"))
		return
	}
	b.WriteString("\t\tconst IDX base = kbase(p, o);\n")
	fmt.Fprintf(b, "\t\t%s best = ev(p, base + roff(p, 0));\n\t\ti64 bi = 0, e = 0;\n\t\tbool done = false;\n", op.acc)
	b.WriteString("\t\tfor (IDX j = 0; j < J && !done; j++) {\n\t\t\tconst IDX bj = base + roff(p, j);\n")
	fmt.Fprintf(b, "\t\t\tfor (IDX c = 0; c < C; c++, e++) {\n\t\t\t\tif (%s) { done = true; break; }\n", stop("best"))
	fmt.Fprintf(b, "\t\t\t\tconst %s v = ev(p, bj + c);\n\t\t\t\tif (%s) { best = v; bi = e; }\n\t\t\t}\n\t\t}\n", op.acc, fmt.Sprintf(op.better, "v", "best"))
}
