package cuda

import (
	"fmt"

	"github.com/tensorsh/tensorsh/backend"
	"github.com/tensorsh/tensorsh/dtypes"
)

// Matrix products and softmax, with simple kernels that give the CPU
// backend's results: one thread per output element of a product (the sum
// over p in order, or in lanes for a long dot of vectors as
// backend.MatMulPlan.InLanes defines it, floats accumulated in double and rounded once, those
// narrower than float32 in float32 as the CPU backend sums them, complex
// numbers in complex128, integers wrapping, bool an OR of ANDs), and one
// thread per row of a softmax (computed in double, the maximum subtracted
// first, rounded once).

// MatMul computes the product n of av and bv that p plans.
func (r *runner) MatMul(n *backend.Node, av, bv *dview, p *backend.MatMulPlan, size int) (*dview, error) {
	dt := av.dtype
	rows, k, cols := p.Rows, p.K, p.Cols
	a, b := p.Operand(av.Layout(), true), p.Operand(bv.Layout(), false)
	batch, sa, sb := p.Batch, a.Batch, b.Batch
	nb := len(batch)
	out, err := r.Alloc(n.DType, n.Shape, size)
	if err != nil || size == 0 {
		return out, err
	}
	elems := max(av.buf.bytes/backend.ElemSize(dt), bv.buf.bytes/backend.ElemSize(dt))
	s := newSource(wideFor(size, elems, nb+2))
	tw, rw, cw, kw := s.word(uint64(size)), s.word(uint64(rows)), s.word(uint64(cols)), s.word(uint64(k))
	ow, aw, bw := s.word(uint64(out.buf.ptr)), s.word(uint64(av.ptr())), s.word(uint64(bv.ptr()))
	st := storageC(dt)
	body := &s.body
	s.names = append(s.names, "mm")
	fmt.Fprintf(body, "KERNEL void mm(const P p) {\n\tconst IDX rows = %s, cols = %s, K = %s;\n", s.w(rw), s.w(cw), s.w(kw))
	fmt.Fprintf(body, "\t%s* __restrict__ out = (%s*)p.w[%d];\n", storageC(n.DType), storageC(n.DType), ow)
	fmt.Fprintf(body, "\tconst %s* __restrict__ A = (const %s*)p.w[%d];\n\tconst %s* __restrict__ B = (const %s*)p.w[%d];\n", st, st, aw, st, st, bw)
	fmt.Fprintf(body, "\t"+gridStride+" {\n", s.w(tw))
	body.WriteString("\t\tIDX t = i;\n\t\tconst IDX jj = t % cols; t /= cols;\n\t\tconst IDX ii = t % rows; t /= rows;\n\t\tIDX oa = 0, ob = 0;\n")
	for d := nb - 1; d >= 0; d-- {
		dw := s.word(uint64(batch[d]))
		fmt.Fprintf(body, "\t\t{ const IDX c = t %% %s; t /= %s; oa += c * %s; ob += c * %s; }\n", s.w(dw), s.w(dw),
			s.w(s.word(uint64(int64(sa[d])))), s.w(s.word(uint64(int64(sb[d])))))
	}
	fmt.Fprintf(body, "\t\tconst %s* a = A + oa + ii * %s;\n\t\tconst %s* b = B + ob + jj * %s;\n", st, s.w(s.word(uint64(int64(a.RowStride)))), st, s.w(s.word(uint64(int64(b.ColStride)))))
	acs, brs := s.w(s.word(uint64(int64(a.ColStride)))), s.w(s.word(uint64(int64(b.RowStride))))
	x, y := loadC(&s.h, dt, "a", "q * "+acs), loadC(&s.h, dt, "b", "q * "+brs)
	ct := computeOf(dt)
	if p.InLanes(dt) {
		// A long dot of float32 or float64 vectors: the sums of
		// backend.DotLanes lanes in order of p, one fused multiply-add
		// of the dtype a step, then pairwise (backend.MatMulPlan.InLanes,
		// backend/cpu/fma.go's dotLanes): the CPU backend's bits.
		fma := map[bool]string{true: "fmaf", false: "fma"}[dt == dtypes.F32]
		fmt.Fprintf(body, "\t\t%s s[%d];\n#pragma unroll\n\t\tfor (int l = 0; l < %d; l++) s[l] = 0;\n", ct.C(), backend.DotLanes, backend.DotLanes)
		fmt.Fprintf(body, "\t\tfor (IDX q0 = 0; q0 < K; q0 += %d) {\n#pragma unroll\n\t\t\tfor (int l = 0; l < %d; l++) {\n", backend.DotLanes, backend.DotLanes)
		fmt.Fprintf(body, "\t\t\t\tconst IDX q = q0 + l;\n\t\t\t\tif (q < K) s[l] = %s(%s, %s, s[l]);\n\t\t\t}\n\t\t}\n", fma, x, y)
		fmt.Fprintf(body, "#pragma unroll\n\t\tfor (int h = %d; h > 0; h /= 2) {\n#pragma unroll\n\t\t\tfor (int l = 0; l < h; l++) s[l] += s[l + h];\n\t\t}\n", backend.DotLanes/2)
		fmt.Fprintf(body, "\t\tout[i] = %s;\n\t}\n}\n", storeC(&s.h, n.DType, castC(&s.h, dt, n.DType, "s[0]")))
		return out, r.launch(s, "mm", size, 1)
	}
	var acc, step, res string
	switch {
	case ct == ctBool:
		acc, step, res = "bool acc = false;", "acc = acc || (x && y);", "acc"
	case ct.isInt():
		u := ct.wrapType()
		acc = ct.C() + " acc = 0;"
		step = fmt.Sprintf("acc = (%s)((%s)acc + (%s)x * (%s)y);", ct.C(), u, u, u)
		res = "acc"
	case ct.isFloat() && ct == ctF32 && dt != dtypes.F32:
		// Floats narrower than float32: float32 sums of their products,
		// exact in float32 (so a fused multiply-add, where the compiler
		// makes one, rounds alike), rounded once, as the CPU backend
		// and NumPy's float16 loop compute them: the same bits.
		acc, step, res = "float acc = 0;", "acc = acc + x * y;", round64C(&s.h, dt, "(double)acc")
	case ct.isFloat():
		// One fused multiply-add a step, as the CPU backend's kernels
		// (backend/cpu/matmul.go): for float64 the same bits.
		acc, step, res = "double acc = 0;", "acc = fma((double)x, (double)y, acc);", "acc"
		if ct == ctF32 {
			res = round64C(&s.h, dt, "acc")
		}
	default:
		s.h.add("cmul")
		acc = "c128 acc = c128{0, 0};"
		step = "const c128 pr = ts_cmul<double>(c128{(double)x.re, (double)x.im}, c128{(double)y.re, (double)y.im}); acc.re += pr.re; acc.im += pr.im;"
		res = "acc"
		if ct == ctC64 {
			res = "c64{(float)acc.re, (float)acc.im}"
		}
	}
	fmt.Fprintf(body, "\t\t%s\n\t\tfor (IDX q = 0; q < K; q++) {\n\t\t\tconst %s x = %s, y = %s;\n\t\t\t%s\n\t\t}\n", acc, ct.C(), x, y, step)
	body.WriteString("\t\tconst " + ct.C() + " res = " + res + ";\n")
	fmt.Fprintf(body, "\t\tout[i] = %s;\n\t}\n}\n", storeC(&s.h, n.DType, castC(&s.h, dt, n.DType, "res")))
	return out, r.launch(s, "mm", size, 1)
}

// Softmax evaluates softmax and log-softmax along Axes[0].
func (r *runner) Softmax(n *backend.Node, size int) (*dview, error) {
	argNode := n.Args[0]
	f := &fusion{r: r, root: argNode}
	e, err := f.leafOf(argNode)
	if err != nil {
		return nil, err
	}
	out, err := r.Alloc(n.DType, n.Shape, size)
	if err != nil || size == 0 {
		return out, err
	}
	ax := n.Axes[0]
	outer, m, inner := backend.Size(n.Shape[:ax]), n.Shape[ax], backend.Size(n.Shape[ax+1:])
	shape, wide := f.layout(size)
	s := newSource(wide)
	if _, err := s.exprFunc("ev", e, shape); err != nil {
		return nil, err
	}
	rw, iw, mw, ow := s.word(uint64(outer*inner)), s.word(uint64(inner)), s.word(uint64(m)), s.word(uint64(out.buf.ptr))
	st := storageC(n.DType)
	y := "y"
	if n.DType != dtypes.F64 {
		y = round64C(&s.h, n.DType, "y")
	}
	val := "(" + y + ")"
	if n.DType != dtypes.F64 {
		val = y
	}
	res := "exp(x(q) - mx) / s"
	if n.Op == backend.OpLogSoftmax {
		res = "x(q) - mx - ls"
	}
	b := &s.body
	s.names = append(s.names, "softmax")
	fmt.Fprintf(b, "KERNEL void softmax(const P p) {\n\tconst IDX inner = %s, M = %s;\n\t%s* __restrict__ out = (%s*)p.w[%d];\n", s.w(iw), s.w(mw), st, st, ow)
	fmt.Fprintf(b, "\t"+gridStride+" {\n", s.w(rw))
	b.WriteString("\t\tconst IDX base = (i / inner) * M * inner + i % inner;\n")
	b.WriteString("#define x(q) ((double)ev(p, base + (q) * inner))\n")
	b.WriteString("\t\tdouble mx = -ts_inf();\n")
	b.WriteString("\t\tfor (IDX q = 0; q < M; q++) {\n\t\t\tconst double v = x(q);\n\t\t\tif (v > mx || v != v) {\n\t\t\t\tmx = v;\n\t\t\t\tif (v != v) break;\n\t\t\t}\n\t\t}\n")
	b.WriteString("\t\tdouble s = 0;\n\t\tfor (IDX q = 0; q < M; q++) s += exp(x(q) - mx);\n\t\tconst double ls = log(s);\n")
	fmt.Fprintf(b, "\t\tfor (IDX q = 0; q < M; q++) {\n\t\t\tconst double y = %s;\n\t\t\tout[base + q * inner] = %s;\n\t\t}\n", res, storeC(&s.h, n.DType, val))
	b.WriteString("#undef x\n\t}\n}\n")
	return out, r.launch(s, "softmax", outer*inner, 1)
}
