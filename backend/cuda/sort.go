package cuda

// Sorting along one axis.

import (
	"fmt"

	"github.com/tensorsh/tensorsh/backend"
	"github.com/tensorsh/tensorsh/dtypes"
)

// Sort evaluates OpSort along Axes[0] as the CPU backend does (backend/cpu
// sort.go): each line in ascending order, stably, in NumPy's order (NaN
// after every number; complex numbers by npysort's CLT; false before
// true), so that the results are the CPU backend's bit for bit. One
// thread sorts a line: it copies the line into the result, then merges
// runs of 1, 2, 4, … elements between the result and a scratch buffer
// (a bottom-up merge sort, which takes the left run's element on ties),
// moving storage elements without converting them.
func (r *runner) Sort(n *backend.Node, size int) (*dview, error) {
	argNode := n.Args[0]
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
	tmp, err := r.alloc(n.DType, size)
	if err != nil {
		return nil, err
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
	less, err := sortLessC(n.DType)
	if err != nil {
		return nil, err
	}
	rw, iw, mw := s.word(uint64(outer*inner)), s.word(uint64(inner)), s.word(uint64(m))
	ow, tw := s.word(uint64(buf.ptr)), s.word(uint64(tmp.ptr))
	st, ct := storageC(n.DType), computeOf(n.DType).C()
	load := func(ptr, idx string) string { return loadC(&s.h, n.DType, ptr, idx) }
	b := &s.body
	s.names = append(s.names, "sort")
	fmt.Fprintf(b, "__device__ __forceinline__ bool ts_sort_less(const %s a, const %s b) { return %s; }\n", ct, ct, less)
	fmt.Fprintf(b, "KERNEL void sort(const P p) {\n\tconst IDX inner = %s, M = %s;\n", s.w(iw), s.w(mw))
	fmt.Fprintf(b, "\t%s* __restrict__ out = (%s*)p.w[%d];\n\t%s* __restrict__ tmp = (%s*)p.w[%d];\n", st, st, ow, st, st, tw)
	fmt.Fprintf(b, "\t"+gridStride+" {\n", s.w(rw))
	b.WriteString("\t\tconst IDX base = (i / inner) * M * inner + i % inner;\n")
	fmt.Fprintf(b, "\t\tfor (IDX q = 0; q < M; q++) out[base + q * inner] = %s;\n", storeC(&s.h, n.DType, "ev(p, base + q * inner)"))
	b.WriteString("\t\t" + st + "* src = out;\n\t\t" + st + "* dst = tmp;\n")
	b.WriteString("\t\tfor (IDX w = 1; w < M; w *= 2) {\n")
	b.WriteString("\t\t\tfor (IDX lo = 0; lo < M; lo += 2 * w) {\n")
	b.WriteString("\t\t\t\tconst IDX mid = lo + w < M ? lo + w : M, hi = lo + 2 * w < M ? lo + 2 * w : M;\n")
	b.WriteString("\t\t\t\tIDX a = lo, c = mid;\n")
	b.WriteString("\t\t\t\tfor (IDX q = lo; q < hi; q++) {\n")
	fmt.Fprintf(b, "\t\t\t\t\tif (c < hi && (a >= mid || ts_sort_less(%s, %s))) {\n", load("src", "base + c * inner"), load("src", "base + a * inner"))
	b.WriteString("\t\t\t\t\t\tdst[base + q * inner] = src[base + c * inner];\n\t\t\t\t\t\tc++;\n")
	b.WriteString("\t\t\t\t\t} else {\n\t\t\t\t\t\tdst[base + q * inner] = src[base + a * inner];\n\t\t\t\t\t\ta++;\n\t\t\t\t\t}\n")
	b.WriteString("\t\t\t\t}\n\t\t\t}\n")
	b.WriteString("\t\t\t" + st + "* t = src;\n\t\t\tsrc = dst;\n\t\t\tdst = t;\n\t\t}\n")
	b.WriteString("\t\tif (src != out) for (IDX q = 0; q < M; q++) out[base + q * inner] = src[base + q * inner];\n")
	b.WriteString("\t}\n}\n")
	return out, r.launch(s, "sort", outer*inner, 1)
}

// sortLessC returns the C expression of a < b in NumPy's sort order for
// compute values a and b of d.
func sortLessC(d dtypes.DType) (string, error) {
	c := computeOf(d)
	switch {
	case c == ctBool:
		return "!a && b", nil
	case c.isInt():
		return "a < b", nil
	case c.isFloat():
		return "a < b || (b != b && a == a)", nil
	case c.isComplex():
		// npysort_common.h, CLT.
		return "a.re < b.re ? (a.im == a.im || b.im != b.im) : " +
			"a.re > b.re ? (b.im != b.im && a.im == a.im) : " +
			"(a.re == b.re || (a.re != a.re && b.re != b.re)) ? (a.im < b.im || (b.im != b.im && a.im == a.im)) : " +
			"b.re != b.re", nil
	}
	return "", fmt.Errorf("cuda: sort of %v is not supported", d)
}
