package cuda

// Cumulative sums and products along one axis.

import (
	"fmt"

	"github.com/tensorsh/tensorsh/backend"
)

// Scan evaluates OpCumSum and OpCumProd along Axes[0] as the CPU backend
// does (backend/cpu scan.go): one thread per scan, the first element
// copied and each later one the previous result combined with the next
// input in the reduction's arithmetic (reduceOp's fold: integers wrap,
// narrow floats are rounded after every step, complex products use
// NumPy's formula), so the results are the CPU backend's bit for bit.
func (r *runner) Scan(n *backend.Node, size int) (*dview, error) {
	argNode := n.Args[0]
	red := backend.OpSum
	if n.Op == backend.OpCumProd {
		red = backend.OpProd
	}
	op, err := reduceOp(red, n.DType)
	if err != nil {
		return nil, err
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
	for _, h := range op.helpers {
		s.h.add(h)
	}
	if op.cplx && red == backend.OpSum {
		s.h.add("pairwise") // defines cx's operator+, which the fold uses
	}
	if _, err := s.exprFunc("ev", e, shape); err != nil {
		return nil, err
	}
	rw, iw, mw, ow := s.word(uint64(outer*inner)), s.word(uint64(inner)), s.word(uint64(m)), s.word(uint64(buf.ptr))
	st := storageC(n.DType)
	b := &s.body
	s.names = append(s.names, "scan")
	fmt.Fprintf(b, "KERNEL void scan(const P p) {\n\tconst IDX inner = %s, M = %s;\n\t%s* __restrict__ out = (%s*)p.w[%d];\n", s.w(iw), s.w(mw), st, st, ow)
	fmt.Fprintf(b, "\t"+gridStride+" {\n", s.w(rw))
	b.WriteString("\t\tconst IDX base = (i / inner) * M * inner + i % inner;\n")
	fmt.Fprintf(b, "\t\t%s acc = ev(p, base);\n\t\tout[base] = %s;\n", op.acc, storeC(&s.h, n.DType, "acc"))
	fmt.Fprintf(b, "\t\tfor (IDX q = 1; q < M; q++) {\n\t\t\tacc = %s;\n", fmt.Sprintf(op.fold, "acc", "ev(p, base + q * inner)"))
	if op.round.IsValid() {
		fmt.Fprintf(b, "\t\t\tacc = %s;\n", roundF32C(&s.h, op.round, "acc"))
	}
	fmt.Fprintf(b, "\t\t\tout[base + q * inner] = %s;\n\t\t}\n\t}\n}\n", storeC(&s.h, n.DType, "acc"))
	return out, r.launch(s, "scan", outer*inner, 1)
}
