package format

import (
	"math"
	"strconv"
	"strings"

	"github.com/tensorsh/tensorsh/backend"
	"github.com/tensorsh/tensorsh/dtypes"
)

// Options control the text layout of Values.
type Options struct {
	// Width is the number of columns a line may use, like numpy's
	// linewidth. Zero means DefaultWidth.
	Width int
	// Threshold is the number of elements above which the values are
	// elided (only EdgeItems at each edge of every dimension are shown).
	// Zero means DefaultThreshold; use math.MaxInt never to elide.
	Threshold int
	// EdgeItems is the number of items shown at each edge of an elided
	// dimension. Zero means DefaultEdgeItems.
	EdgeItems int
	// Color adds ANSI colours to the type line.
	Color bool
}

// The defaults of Options. DefaultThreshold and DefaultEdgeItems are
// numpy's; numpy's linewidth is 75.
const (
	DefaultWidth     = 80
	DefaultThreshold = 1000
	DefaultEdgeItems = 3
)

// precision is numpy's default print precision: at most 8 digits after the
// point in arrays (scalars print all the digits they need).
const precision = 8

func (o Options) withDefaults() Options {
	if o.Width <= 0 {
		o.Width = DefaultWidth
	}
	if o.Threshold <= 0 {
		o.Threshold = DefaultThreshold
	}
	if o.EdgeItems <= 0 {
		o.EdgeItems = DefaultEdgeItems
	}
	return o
}

// Values returns the values of t laid out as numpy's str(array) does, with
// no type line: "[2.5 3.5 4.5]", rows of a matrix on their own lines,
// columns right-aligned to one width, floats in their shortest
// round-tripping form (at most 8 digits after the point) or in scientific
// notation for the whole array when numpy would use it, "..." in place of
// elided items, and lines wrapped at o.Width. Bools print as true and
// false. A 0-d tensor prints as Scalar; a tensor with no elements as "[]".
// A tensor that fails Check prints as its error in angle brackets.
func Values(t *backend.Tensor, o Options) string {
	if err := Check(t); err != nil {
		return "<" + err.Error() + ">"
	}
	o = o.withDefaults()
	if len(t.Shape) == 0 {
		return newElems(t).repr(0)
	}
	if t.Len() == 0 {
		return "[]"
	}
	g := newGrid(t, o)
	cell := newCellFormat(newElems(t), g.shown(), len(t.Shape))
	return g.layout(cell, o.Width)
}

// Scalar returns the first element of t as numpy prints a scalar of its
// dtype: "2.5", "1.0", "-4", "nan", "-inf", "1e+16", "(1+2j)", and "true" or
// "false" for bools. It is what Values prints for a 0-d tensor.
func Scalar(t *backend.Tensor) string {
	if err := Check(t); err != nil {
		return "<" + err.Error() + ">"
	}
	if t.Len() == 0 {
		return "<format: no element>"
	}
	return newElems(t).repr(0)
}

// ANSI escape sequences of the type line.
const (
	ansiDType  = "\x1b[36m"   // cyan
	ansiWeak   = "\x1b[1;33m" // bold yellow
	ansiDevice = "\x1b[2m"    // dim
	ansiReset  = "\x1b[0m"
)

// TypeLine returns the line that follows the values of a tensor: the
// dtype with '?' when weak, the shape in brackets unless the value is 0-d,
// then the device when not empty: "f32?[3] cpu", "i16[2,3] cpu", "i32? cpu".
// With o.Color the dtype, the '?' and the device are coloured.
func TypeLine(typ dtypes.Type, shape []int, device string, o Options) string {
	var b strings.Builder
	if o.Color {
		b.WriteString(ansiDType + typ.DType.String() + ansiReset)
		if typ.Weak {
			b.WriteString(ansiWeak + "?" + ansiReset)
		}
	} else {
		b.WriteString(typ.String())
	}
	if len(shape) > 0 {
		b.WriteString(ShapeString(shape))
	}
	if device != "" {
		b.WriteByte(' ')
		if o.Color {
			b.WriteString(ansiDevice + device + ansiReset)
		} else {
			b.WriteString(device)
		}
	}
	return b.String()
}

// ShapeString returns shape in brackets with no spaces: "[2,3]", "[]" for
// a 0-d shape.
func ShapeString(shape []int) string {
	var b strings.Builder
	b.WriteByte('[')
	for i, d := range shape {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(d))
	}
	b.WriteByte(']')
	return b.String()
}

// A grid is the index structure of a non-empty tensor with at least one
// dimension, and which of its items are shown.
type grid struct {
	shape     []int
	strides   []int
	summarize bool
	edge      int
}

func newGrid(t *backend.Tensor, o Options) grid {
	g := grid{shape: t.Shape, strides: make([]int, len(t.Shape)), summarize: t.Len() > o.Threshold, edge: o.EdgeItems}
	s := 1
	for i := len(t.Shape) - 1; i >= 0; i-- {
		g.strides[i] = s
		s *= t.Shape[i]
	}
	return g
}

// elided reports whether dimension axis is cut in the middle.
func (g grid) elided(axis int) bool { return g.summarize && 2*g.edge < g.shape[axis] }

// indices returns the shown positions along axis, in order.
func (g grid) indices(axis int) []int {
	n := g.shape[axis]
	var out []int
	if g.elided(axis) {
		for i := 0; i < g.edge; i++ {
			out = append(out, i)
		}
		for i := n - g.edge; i < n; i++ {
			out = append(out, i)
		}
		return out
	}
	for i := 0; i < n; i++ {
		out = append(out, i)
	}
	return out
}

// shown returns the flat indices of the shown items in row-major order.
func (g grid) shown() []int {
	out := []int{0}
	for axis := range g.shape {
		idx := g.indices(axis)
		next := make([]int, 0, len(out)*len(idx))
		for _, base := range out {
			for _, i := range idx {
				next = append(next, base+i*g.strides[axis])
			}
		}
		out = next
	}
	return out
}

// layout lays the cells out as numpy's _formatArray does (legacy=False,
// separator ' ').
func (g grid) layout(cell func(flat int) string, width int) string {
	var rec func(axis, offset int, hanging string, curWidth int) string
	rec = func(axis, offset int, hanging string, curWidth int) string {
		if axis == len(g.shape) {
			return cell(offset)
		}
		nextHanging := hanging + " "
		nextWidth := curWidth - 1 // room for the ']'
		n := g.shape[axis]
		leading, trailing := 0, n
		summary := g.elided(axis)
		if summary {
			leading, trailing = g.edge, g.edge
		}
		item := func(i int) string {
			return rec(axis+1, offset+i*g.strides[axis], nextHanging, nextWidth)
		}
		var s strings.Builder
		if axis == len(g.shape)-1 {
			elemWidth := curWidth - 1
			line := hanging
			for i := 0; i < leading; i++ {
				line = extendLine(&s, line, item(i), elemWidth, hanging) + " "
			}
			if summary {
				line = extendLine(&s, line, "...", elemWidth, hanging) + " "
			}
			for i := trailing; i > 1; i-- {
				line = extendLine(&s, line, item(n-i), elemWidth, hanging) + " "
			}
			line = extendLine(&s, line, item(n-1), elemWidth, hanging)
			s.WriteString(line)
		} else {
			sep := strings.Repeat("\n", len(g.shape)-axis-1)
			for i := 0; i < leading; i++ {
				s.WriteString(hanging + item(i) + sep)
			}
			if summary {
				s.WriteString(hanging + "..." + sep)
			}
			for i := trailing; i > 1; i-- {
				s.WriteString(hanging + item(n-i) + sep)
			}
			s.WriteString(hanging + item(n-1))
		}
		return "[" + s.String()[len(hanging):] + "]"
	}
	return rec(0, 0, " ", width)
}

// extendLine adds word to line, first moving line to s and starting a new
// one when word would pass width (unless the line holds only the prefix).
func extendLine(s *strings.Builder, line, word string, width int, prefix string) string {
	if len(line)+len(word) > width && len(line) > len(prefix) {
		s.WriteString(strings.TrimRight(line, " "))
		s.WriteByte('\n')
		line = prefix
	}
	return line + word
}

// newCellFormat returns the function that formats one item, padded to the
// common width that numpy's formatters work out from the shown items.
func newCellFormat(e elems, shown []int, ndim int) func(int) string {
	switch e.kind {
	case kindBool:
		// numpy pads " True" to the width of "False" so that columns
		// align; tensorsh keeps a vector unpadded ("[true false]") and
		// pads only when there are columns to align.
		t := "true"
		if ndim > 1 {
			t = " true"
		}
		return func(i int) string {
			if e.boolAt(i) {
				return t
			}
			return "false"
		}
	case kindInt, kindUint:
		str := func(i int) string {
			if e.kind == kindInt {
				return strconv.FormatInt(e.intAt(i), 10)
			}
			return strconv.FormatUint(e.uintAt(i), 10)
		}
		w := 0
		for _, i := range shown {
			w = max(w, len(str(i)))
		}
		return func(i int) string { return padLeft(str(i), w) }
	case kindFloat:
		vals := make([]float64, len(shown))
		for k, i := range shown {
			vals[k] = e.floatAt(i)
		}
		f := newFloatCells(vals, e.dtype, e.ff, false)
		return func(i int) string { return f.format(e.floatAt(i)) }
	default:
		re := make([]float64, len(shown))
		im := make([]float64, len(shown))
		for k, i := range shown {
			re[k], im[k] = e.complexAt(i)
		}
		fr := newFloatCells(re, e.dtype, e.ff, false)
		fi := newFloatCells(im, e.dtype, e.ff, true)
		return func(i int) string {
			r, m := e.complexAt(i)
			is := fi.format(m)
			// The 'j' goes before the imaginary part's padding.
			k := len(strings.TrimRight(is, " "))
			return fr.format(r) + is[:k] + "j" + is[k:]
		}
	}
}

func padLeft(s string, w int) string {
	if len(s) >= w {
		return s
	}
	return strings.Repeat(" ", w-len(s)) + s
}

// floatCells is numpy's FloatingFormat (floatmode 'maxprec', precision 8,
// suppress off, legacy off) for the items of one array.
type floatCells struct {
	ff        floatFormat
	plus      bool // sign '+': used for imaginary parts
	exp       bool // scientific notation
	prec      int  // digits after the point at most
	minDigits int
	trim      byte
	padLeft   int
	padRight  int
	expSize   int
}

// newFloatCells works out the notation and the field sizes from the shown
// values vals of a float dtype d (or of the parts of a complex d).
func newFloatCells(vals []float64, d dtypes.DType, ff floatFormat, plus bool) *floatCells {
	c := &floatCells{ff: ff, plus: plus, prec: precision, trim: trimPoint, expSize: -1}
	// numpy 2 compares in the array's dtype (a Python float is weak), so
	// thresholds and the ratio are rounded to float16 or float32 first.
	inDType := func(x float64) float64 {
		switch d.Real() {
		case dtypes.F16, dtypes.F32:
			return dtypes.FloatFromFloat64(d.Real(), x)
		}
		return x
	}
	var finite []float64
	nonzero := false
	var maxV, minV float64
	for _, v := range vals {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			continue
		}
		finite = append(finite, v)
		if a := math.Abs(v); a != 0 {
			if !nonzero {
				maxV, minV, nonzero = a, a, true
			}
			maxV, minV = max(maxV, a), min(minV, a)
		}
	}
	if nonzero {
		cutoff := inDType(math.Pow(10, float64(min(8, ff.prec))))
		c.exp = maxV >= cutoff || minV < inDType(1e-4) || inDType(maxV/minV) > 1000
	}
	switch {
	case len(finite) == 0:
		c.padLeft, c.padRight = 0, 0
	case c.exp:
		maxFrac := 0
		for _, v := range finite {
			dd := digitsSig(math.Abs(v), ff, c.prec, 0)
			maxFrac = max(maxFrac, len(dd.digits)-1)
			c.padLeft = max(c.padLeft, len(signed(math.Signbit(v), plus))+1)
			e := dd.exp
			if e < 0 {
				e = -e
			}
			if dd.digits == "0" {
				e = 0
			}
			c.expSize = max(c.expSize, max(2, len(strconv.Itoa(e))))
		}
		c.prec, c.minDigits, c.trim = maxFrac, maxFrac, trimKeep
		c.padRight = c.expSize + 2 + c.prec
	default:
		for _, v := range finite {
			dd := digitsFrac(math.Abs(v), ff, c.prec, 0)
			intLen := 1
			if dd.exp > 0 {
				intLen = dd.exp + 1
			}
			c.padLeft = max(c.padLeft, len(signed(math.Signbit(v), plus))+intLen)
			c.padRight = max(c.padRight, dd.fracDigits())
		}
	}
	if len(finite) != len(vals) {
		negInf := plus
		for _, v := range vals {
			negInf = negInf || math.IsInf(v, -1)
		}
		infLen := 3
		if negInf {
			infLen++
		}
		offset := c.padRight + 1
		c.padLeft = max(c.padLeft, 3-offset, infLen-offset)
	}
	return c
}

func (c *floatCells) format(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return padLeft(floatRepr(v, c.ff, c.plus), c.padLeft+c.padRight+1)
	}
	neg, a := math.Signbit(v), math.Abs(v)
	if c.exp {
		return scientific(neg, digitsSig(a, c.ff, c.prec, c.minDigits), c.minDigits, c.trim, c.plus, c.padLeft, c.expSize)
	}
	return positional(neg, digitsFrac(a, c.ff, c.prec, c.minDigits), c.minDigits, c.trim, c.plus, c.padLeft, c.padRight)
}
