package cuda

import (
	"fmt"
	"slices"

	"github.com/tensorsh/tensorsh/backend"
	"github.com/tensorsh/tensorsh/dtypes"
)

// Matrix products and softmax, with simple kernels that give the CPU
// backend's results: one thread per output element of a product (the sum
// over p in order, floats accumulated in double and rounded once, complex
// numbers in complex128, integers wrapping, bool an OR of ANDs), and one
// thread per row of a softmax (computed in double, the maximum subtracted
// first, rounded once).

func (r *runner) matmul(n *backend.Node, size int) (*dview, error) {
	av, err := r.eval(n.Args[0])
	if err != nil {
		return nil, err
	}
	bv, err := r.eval(n.Args[1])
	if err != nil {
		return nil, err
	}
	dt := av.dtype
	if bv.dtype != dt {
		return nil, fmt.Errorf("cuda: matmul: operands have dtypes %v and %v; the plan must cast them to one", av.dtype, bv.dtype)
	}
	as, bs := av.shape, bv.shape
	if len(as) == 0 || len(bs) == 0 {
		return nil, fmt.Errorf("matmul: input operand does not have enough dimensions (0-d arrays are not allowed)")
	}
	// Rows and columns of each operand with their strides (a 1-d first
	// operand is a row, a 1-d second operand a column).
	type mat struct {
		rows, cols, rs, cs int
		batch, bst         []int
	}
	split := func(v *dview, first bool) mat {
		nd := len(v.shape)
		if nd == 1 {
			if first {
				return mat{rows: 1, cols: v.shape[0], cs: v.strides[0]}
			}
			return mat{rows: v.shape[0], cols: 1, rs: v.strides[0]}
		}
		return mat{rows: v.shape[nd-2], cols: v.shape[nd-1], rs: v.strides[nd-2], cs: v.strides[nd-1],
			batch: v.shape[:nd-2], bst: v.strides[:nd-2]}
	}
	a, b := split(av, true), split(bv, false)
	rows, k, k2, cols := a.rows, a.cols, b.rows, b.cols
	if k != k2 {
		return nil, fmt.Errorf("matmul: mismatch in its core dimension: %v and %v (size %d is different from %d)", as, bs, k, k2)
	}
	nb := max(len(a.batch), len(b.batch))
	batch := make([]int, nb)
	sa, sb := make([]int, nb), make([]int, nb)
	for i := range nb {
		da, db := 1, 1
		if j := i - (nb - len(a.batch)); j >= 0 {
			da, sa[i] = a.batch[j], a.bst[j]
		}
		if j := i - (nb - len(b.batch)); j >= 0 {
			db, sb[i] = b.batch[j], b.bst[j]
		}
		switch {
		case da == db || db == 1:
			batch[i] = da
		case da == 1:
			batch[i] = db
		default:
			return nil, fmt.Errorf("matmul: batch dimensions of %v and %v cannot be broadcast", as, bs)
		}
		if da == 1 {
			sa[i] = 0
		}
		if db == 1 {
			sb[i] = 0
		}
	}
	outShape := append(cloneInts(batch), rows, cols)
	if len(as) == 1 {
		outShape = append(outShape[:len(outShape)-2], outShape[len(outShape)-1])
	}
	if len(bs) == 1 {
		outShape = outShape[:len(outShape)-1]
	}
	if !slices.Equal(outShape, n.Shape) {
		return nil, fmt.Errorf("cuda: matmul of %v and %v gives %v, plan says %v", as, bs, outShape, n.Shape)
	}
	buf, err := r.alloc(n.DType, size)
	if err != nil {
		return nil, err
	}
	out := contigView(n.DType, buf, n.Shape)
	if size == 0 {
		return out, nil
	}
	elems := max(av.buf.bytes/elemSize(dt), bv.buf.bytes/elemSize(dt))
	s := newSource(wideFor(size, elems, nb+2))
	tw, rw, cw, kw := s.word(uint64(size)), s.word(uint64(rows)), s.word(uint64(cols)), s.word(uint64(k))
	ow, aw, bw := s.word(uint64(buf.ptr)), s.word(uint64(av.ptr())), s.word(uint64(bv.ptr()))
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
	fmt.Fprintf(body, "\t\tconst %s* a = A + oa + ii * %s;\n\t\tconst %s* b = B + ob + jj * %s;\n", st, s.w(s.word(uint64(int64(a.rs)))), st, s.w(s.word(uint64(int64(b.cs)))))
	acs, brs := s.w(s.word(uint64(int64(a.cs)))), s.w(s.word(uint64(int64(b.rs))))
	x, y := loadC(&s.h, dt, "a", "q * "+acs), loadC(&s.h, dt, "b", "q * "+brs)
	ct := computeOf(dt)
	var acc, step, res string
	switch {
	case ct == ctBool:
		acc, step, res = "bool acc = false;", "acc = acc || (x && y);", "acc"
	case ct.isInt():
		u := ct.wrapType()
		acc = ct.C() + " acc = 0;"
		step = fmt.Sprintf("acc = (%s)((%s)acc + (%s)x * (%s)y);", ct.C(), u, u, u)
		res = "acc"
	case ct.isFloat():
		acc, step, res = "double acc = 0;", "acc += (double)x * (double)y;", "acc"
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

// softmax evaluates softmax and log-softmax along Axes[0].
func (r *runner) softmax(n *backend.Node, size int) (*dview, error) {
	argNode := n.Args[0]
	ad := argNode.DType
	if ad.IsComplex() || ad == dtypes.Bool || !n.DType.IsFloat() {
		return nil, fmt.Errorf("cuda: %v of %v to %v is not supported", n.Op, ad, n.DType)
	}
	if len(n.Axes) != 1 || n.Axes[0] < 0 || n.Axes[0] >= len(argNode.Shape) {
		return nil, fmt.Errorf("cuda: %v needs one axis within the %d dimensions", n.Op, len(argNode.Shape))
	}
	if !slices.Equal(argNode.Shape, n.Shape) {
		return nil, fmt.Errorf("cuda: %v keeps the shape %v, plan says %v", n.Op, argNode.Shape, n.Shape)
	}
	f := &fusion{r: r, root: argNode}
	e, err := f.leafOf(argNode)
	if err != nil {
		return nil, err
	}
	buf, err := r.alloc(n.DType, size)
	if err != nil {
		return nil, err
	}
	out := contigView(n.DType, buf, n.Shape)
	if size == 0 {
		return out, nil
	}
	ax := n.Axes[0]
	outer, inner := 1, 1
	for _, d := range n.Shape[:ax] {
		outer *= d
	}
	for _, d := range n.Shape[ax+1:] {
		inner *= d
	}
	m := n.Shape[ax]
	shape, wide := f.layout(size)
	s := newSource(wide)
	if _, err := s.exprFunc("ev", e, shape); err != nil {
		return nil, err
	}
	rw, iw, mw, ow := s.word(uint64(outer*inner)), s.word(uint64(inner)), s.word(uint64(m)), s.word(uint64(buf.ptr))
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
