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
// true), so that the results are the CPU backend's bit for bit. It is a
// bottom-up merge sort with a thread an element: sortload copies the
// argument into a buffer, then each sortpass merges the runs of w
// elements of every line into runs of 2w in the other buffer, each
// element finding its place by a binary search of the run it is merged
// with (after the elements less than it of a right run, after those not
// greater of a left one: ties keep their order). Elements move as
// storage, never converted; for OpArgSort each carries its index along
// the axis, and the indices are the result.
func (r *runner) Sort(n *backend.Node, size int) (*dview, error) {
	argNode := n.Args[0]
	vt := argNode.DType // the elements' dtype
	arg := n.Op == backend.OpArgSort
	f := &fusion{r: r, root: argNode}
	e, err := f.leafOf(argNode)
	if err != nil {
		return nil, err
	}
	buf, err := r.alloc(vt, size)
	if err != nil {
		return nil, err
	}
	if size == 0 {
		return contigView(n.DType, buf, n.Shape), nil
	}
	tmp, err := r.alloc(vt, size)
	if err != nil {
		return nil, err
	}
	// OpArgSort: each element's index along the axis moves with it.
	var ibuf, itmp *buffer
	if arg {
		if ibuf, err = r.alloc(n.DType, size); err != nil {
			return nil, err
		}
		if itmp, err = r.alloc(n.DType, size); err != nil {
			return nil, err
		}
	}
	ax := n.Axes[0]
	inner := 1
	for _, d := range n.Shape[ax+1:] {
		inner *= d
	}
	m := n.Shape[ax]
	shape, wide := f.layout(size)
	s := newSource(wide || m > 1<<29) // 2w, lo + 2w: past int32 for lines of 2^30
	if _, err := s.exprFunc("ev", e, shape); err != nil {
		return nil, err
	}
	less, err := sortLessC(vt)
	if err != nil {
		return nil, err
	}
	nw, iw, mw, ww := s.word(uint64(size)), s.word(uint64(inner)), s.word(uint64(m)), s.word(0)
	sw, dw := s.word(uint64(buf.ptr)), s.word(uint64(tmp.ptr))
	isw, idw := -1, -1
	if arg {
		isw, idw = s.word(uint64(ibuf.ptr)), s.word(uint64(itmp.ptr))
	}
	st, ct, it := storageC(vt), computeOf(vt).C(), storageC(n.DType)
	load := func(x string) string { return loadC(&s.h, vt, "", x) }
	b := &s.body
	s.names = append(s.names, "sortload", "sortpass")
	fmt.Fprintf(b, "__device__ __forceinline__ bool ts_sort_less(const %s a, const %s b) { return %s; }\n", ct, ct, less)
	fmt.Fprintf(b, "KERNEL void sortload(const P p) {\n\t%s* __restrict__ out = (%s*)p.w[%d];\n", st, st, sw)
	if arg {
		fmt.Fprintf(b, "\tconst IDX inner = %s, M = %s;\n\t%s* __restrict__ iout = (%s*)p.w[%d];\n", s.w(iw), s.w(mw), it, it, isw)
	}
	fmt.Fprintf(b, "\t"+gridStride+" {\n\t\tout[i] = %s;\n", s.w(nw), storeC(&s.h, vt, "ev(p, i)"))
	if arg {
		fmt.Fprintf(b, "\t\tiout[i] = (%s)((i / inner) %% M);\n", it)
	}
	b.WriteString("\t}\n}\n")
	fmt.Fprintf(b, "KERNEL void sortpass(const P p) {\n\tconst IDX inner = %s, M = %s, w = %s;\n", s.w(iw), s.w(mw), s.w(ww))
	fmt.Fprintf(b, "\tconst %s* __restrict__ src = (const %s*)p.w[%d];\n\t%s* __restrict__ dst = (%s*)p.w[%d];\n", st, st, sw, st, st, dw)
	if arg {
		fmt.Fprintf(b, "\tconst %s* __restrict__ isrc = (const %s*)p.w[%d];\n\t%s* __restrict__ idst = (%s*)p.w[%d];\n", it, it, isw, it, it, idw)
	}
	fmt.Fprintf(b, "\t"+gridStride+" {\n", s.w(nw))
	b.WriteString("\t\tconst IDX line = i / M, q = i % M;\n")
	b.WriteString("\t\tconst IDX base = (line / inner) * M * inner + line % inner;\n")
	b.WriteString("\t\tconst IDX lo = q / (2 * w) * (2 * w), mid = lo + w < M ? lo + w : M, hi = lo + 2 * w < M ? lo + 2 * w : M;\n")
	fmt.Fprintf(b, "\t\tconst %s v = src[base + q * inner];\n\t\tconst %s x = %s;\n", st, ct, load("v"))
	b.WriteString("\t\tIDX pos;\n")
	b.WriteString("\t\tif (q < mid) {\n\t\t\tIDX a = mid, c = hi;\n")
	fmt.Fprintf(b, "\t\t\twhile (a < c) { const IDX h = a + (c - a) / 2; if (ts_sort_less(%s, x)) a = h + 1; else c = h; }\n", load("src[base + h * inner]"))
	b.WriteString("\t\t\tpos = q + (a - mid);\n")
	b.WriteString("\t\t} else {\n\t\t\tIDX a = lo, c = mid;\n")
	fmt.Fprintf(b, "\t\t\twhile (a < c) { const IDX h = a + (c - a) / 2; if (!ts_sort_less(x, %s)) a = h + 1; else c = h; }\n", load("src[base + h * inner]"))
	b.WriteString("\t\t\tpos = lo + (q - mid) + (a - lo);\n\t\t}\n")
	b.WriteString("\t\tdst[base + pos * inner] = v;\n")
	if arg {
		b.WriteString("\t\tidst[base + pos * inner] = isrc[base + q * inner];\n")
	}
	b.WriteString("\t}\n}\n")
	if err := r.launch(s, "sortload", size, 1); err != nil {
		return nil, err
	}
	for w := 1; w < m; w *= 2 {
		s.words[ww] = uint64(w)
		if err := r.launch(s, "sortpass", size, 1); err != nil {
			return nil, err
		}
		s.words[sw], s.words[dw] = s.words[dw], s.words[sw]
		buf, tmp = tmp, buf
		if arg {
			s.words[isw], s.words[idw] = s.words[idw], s.words[isw]
			ibuf, itmp = itmp, ibuf
		}
	}
	if arg {
		return contigView(n.DType, ibuf, n.Shape), nil
	}
	return contigView(n.DType, buf, n.Shape), nil
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
