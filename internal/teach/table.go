// Package teach renders the teaching tools' data: promotion tables and their
// differences (promote.Table, promote.Diff) as aligned text and HTML, and
// promotion graphs (promote.Graph) as box-drawing text and SVG, laid out
// here (layered, with crossings reduced), with no external programs.
//
// Text has no colour: the front end colours it. In text, an error cell is
// "×" and a weak type keeps its "?"; HTML marks them with the classes
// "error" and "weak", and a diff's differing cells with "differ". A table
// cell whose values give another dtype (JAX with x64 off, where the table
// is jnp.promote_types) is marked "↓" in text and "narrowed" in HTML.
package teach

import (
	"fmt"
	"html"
	"strings"
	"unicode/utf8"

	"github.com/tensorsh/tensorsh/promote"
)

// Options control text rendering.
type Options struct {
	// Width is the number of terminal columns; 0 means 80. Tables wider
	// than this are cut into blocks of columns; graphs wider than this are
	// listed layer by layer.
	Width int
}

func (o Options) width() int {
	if o.Width <= 0 {
		return 80
	}
	return o.Width
}

// errMark is how text shows a cell the policy refuses.
const errMark = "×"

// narrowMark follows a table cell whose values give another dtype than
// the cell (promote.Cell.Arrays: JAX with x64 off makes them 32-bit).
const narrowMark = "↓"

func cellText(c promote.Cell) string {
	if c.Err != nil {
		return errMark
	}
	return c.Result.Type.String()
}

func runeLen(s string) int { return utf8.RuneCountInString(s) }

func pad(s string, w int) string {
	if n := runeLen(s); n < w {
		return s + strings.Repeat(" ", w-n)
	}
	return s
}

// literalNames are the sample literals as tensorsh writes them.
func literalName(h promote.Header) string {
	switch h.Literal.Kind {
	case promote.BoolScalar:
		return "true"
	case promote.ComplexScalar:
		return "1j"
	}
	return h.Literal.String()
}

// tableTitle is the first line of a table: "jax: row + column (JAX, x64 off)".
func tableTitle(t *promote.Table) string {
	return fmt.Sprintf("%s: %s (%s)", t.Policy.Name(), promote.OpExpr(t.Op, "row", "column"), t.Policy.Title())
}

// TableText renders t as aligned columns: a header row of dtypes, then one
// row per dtype. Literal rows and columns come last, after a rule, labelled
// with the type the policy gives the literal. A table wider than
// opts.Width is cut into blocks of columns.
func TableText(t *promote.Table, opts Options) string {
	var b strings.Builder
	b.WriteString(Wrap(tableTitle(t), opts.width(), ""))
	b.WriteByte('\n')
	labels := make([]string, len(t.Headers))
	for i, h := range t.Headers {
		labels[i] = h.String()
		if h.Note != "" {
			labels[i] += "*"
		}
	}
	cells := make([][]string, len(t.Headers))
	for i := range t.Headers {
		cells[i] = make([]string, len(t.Headers))
		for j := range t.Headers {
			cells[i][j] = cellText(t.Cells[i][j])
			if t.Cells[i][j].Arrays != nil {
				cells[i][j] += narrowMark
			}
		}
	}
	writeGrid(&b, labels, cells, t.Headers, opts.width())
	writeLegend(&b, t, opts.width())
	return strings.TrimRight(b.String(), "\n")
}

// writeGrid writes a square grid with row and column labels, cut into
// blocks of columns that fit width. A rule sets literal rows and columns
// apart.
func writeGrid(b *strings.Builder, labels []string, cells [][]string, hs []promote.Header, width int) {
	n := len(labels)
	lw := 0
	for _, l := range labels {
		lw = max(lw, runeLen(l))
	}
	cw := make([]int, n)
	for j := range n {
		cw[j] = runeLen(labels[j])
		for i := range n {
			cw[j] = max(cw[j], runeLen(cells[i][j]))
		}
	}
	firstLit := n
	for i, h := range hs {
		if h.IsLiteral() {
			firstLit = i
			break
		}
	}
	// sep is what precedes column j: two spaces, or " │ " before the
	// first literal column.
	sep := func(j int) string {
		if j == firstLit && j > 0 {
			return " │ "
		}
		return "  "
	}
	// fits reports whether columns [start, end) fit the width.
	fits := func(start, end int) bool {
		w := lw
		for j := start; j < end; j++ {
			w += runeLen(sep(j)) + cw[j]
		}
		return w <= width || end-start == 1
	}
	// Cut greedily to learn how many blocks are needed, then cut again into
	// that many blocks of nearly equal size, when they fit.
	var cuts []int
	for start := 0; start < n; {
		end := start + 1
		for end < n && fits(start, end+1) {
			end++
		}
		cuts = append(cuts, end)
		start = end
	}
	if k := len(cuts); k > 1 {
		even := make([]int, k)
		ok := true
		for i := range k {
			even[i] = (i + 1) * n / k
			from := 0
			if i > 0 {
				from = even[i-1]
			}
			ok = ok && fits(from, even[i])
		}
		if ok {
			cuts = even
		}
	}
	for bi, end := range cuts {
		start := 0
		if bi > 0 {
			start = cuts[bi-1]
		}
		if start > 0 {
			b.WriteByte('\n')
		}
		line := func(label string, row []string) {
			var l strings.Builder
			l.WriteString(pad(label, lw))
			for j := start; j < end; j++ {
				s := sep(j)
				if j == start && j != firstLit {
					s = "  "
				}
				l.WriteString(s)
				l.WriteString(pad(row[j], cw[j]))
			}
			b.WriteString(strings.TrimRight(l.String(), " "))
			b.WriteByte('\n')
		}
		line("", labels)
		for i := range n {
			if i == firstLit && i > 0 {
				var l strings.Builder
				l.WriteString(strings.Repeat("─", lw))
				for j := start; j < end; j++ {
					if j == firstLit && j > 0 {
						l.WriteString("─┼─")
					} else {
						l.WriteString("──")
					}
					l.WriteString(strings.Repeat("─", cw[j]))
				}
				b.WriteString(l.String())
				b.WriteByte('\n')
			}
			line(labels[i], cells[i])
		}
	}
}

// writeLegend explains the marks a table uses.
func writeLegend(b *strings.Builder, t *promote.Table, width int) {
	var parts []string
	if t.Errors() > 0 {
		parts = append(parts, errMark+" error (the policy refuses)")
	}
	if tableHasWeak(t) {
		parts = append(parts, "? weak")
	}
	var lits []string
	for _, h := range t.Headers {
		if h.IsLiteral() {
			lits = append(lits, h.String()+" is the literal "+literalName(h))
		}
	}
	if len(lits) > 0 {
		parts = append(parts, strings.Join(lits, ", "))
	}
	if n := t.Narrowed(); n > 0 {
		parts = append(parts, fmt.Sprintf("%s in %d cells values are made 32-bit (x64 off) and give a 32-bit dtype instead: see result_type(row, column)", narrowMark, n))
	}
	if t.Note != "" {
		parts = append(parts, t.Note)
	}
	if len(parts) > 0 {
		b.WriteByte('\n')
		b.WriteString(Wrap(strings.Join(parts, " · "), width, ""))
		b.WriteByte('\n')
	}
	for _, h := range t.Headers {
		if h.Note != "" {
			b.WriteString(Wrap("* "+h.String()+": "+h.Note, width, "  "))
			b.WriteByte('\n')
		}
	}
}

// tableHasWeak reports whether a weak type appears in t.
func tableHasWeak(t *promote.Table) bool {
	for i, h := range t.Headers {
		if h.Type.Weak {
			return true
		}
		for _, c := range t.Cells[i] {
			if c.Err == nil && c.Result.Type.Weak {
				return true
			}
		}
	}
	return false
}

// Wrap breaks s into lines of at most width runes at spaces; lines after
// the first start with indent. Leading spaces are kept; runs of spaces
// inside become one.
func Wrap(s string, width int, indent string) string {
	lead := s[:len(s)-len(strings.TrimLeft(s, " "))]
	words := strings.Fields(s)
	var b strings.Builder
	b.WriteString(lead)
	col := len(lead)
	for i, w := range words {
		if i > 0 {
			if col+1+runeLen(w) > width {
				b.WriteString("\n" + indent)
				col = runeLen(indent)
			} else {
				b.WriteByte(' ')
				col++
			}
		}
		b.WriteString(w)
		col += runeLen(w)
	}
	return b.String()
}

// TableHTML renders t as an HTML table. A cell's title attribute holds the
// rule that fired, or the error; weak marks are <span class="weak">?</span>
// and literal headers have the class "literal".
func TableHTML(t *promote.Table) string {
	var b strings.Builder
	b.WriteString(tableStyle)
	b.WriteString(`<div class="tensorsh-scroll">`) // wide tables scroll in a notebook cell
	b.WriteString(`<table class="tensorsh-table">`)
	fmt.Fprintf(&b, "<caption><b>%s</b>: %s <small>(%s)</small>",
		esc(t.Policy.Name()), esc(promote.OpExpr(t.Op, "row", "column")), esc(t.Policy.Title()))
	if t.Note != "" {
		fmt.Fprintf(&b, "<br/><small>%s</small>", esc(t.Note))
	}
	if n := t.Narrowed(); n > 0 {
		fmt.Fprintf(&b, `<br/><small><span class="narrowed">%s</span> in %d cells values are made 32-bit (x64 off) and give a 32-bit dtype instead (hover for it; result_type(row, column))</small>`, narrowMark, n)
	}
	b.WriteString("</caption>")
	b.WriteString("<thead><tr><th></th>")
	for _, h := range t.Headers {
		b.WriteString(headerHTML("col", h))
	}
	b.WriteString("</tr></thead><tbody>")
	for i, h := range t.Headers {
		b.WriteString("<tr>")
		b.WriteString(headerHTML("row", h))
		for j := range t.Headers {
			c := t.Cells[i][j]
			cls, title, mark := "", c.Result.Rule, ""
			switch {
			case c.Err != nil:
				cls, title = ` class="error"`, c.Err.Error()
			case c.Arrays != nil:
				cls = ` class="narrowed"`
				title += fmt.Sprintf("; values of these dtypes are made 32-bit (x64 off) and give %s", c.Arrays)
				mark = `<span class="narrowed">` + narrowMark + `</span>`
			}
			fmt.Fprintf(&b, `<td%s title="%s">%s%s</td>`, cls, esc(title), cellHTML(c), mark)
		}
		b.WriteString("</tr>")
	}
	b.WriteString("</tbody></table></div>")
	return b.String()
}

const tableStyle = `<style>` +
	`.tensorsh-table{border-collapse:collapse;font-family:monospace;font-size:12px}` +
	`.tensorsh-table th,.tensorsh-table td{padding:1px 5px;text-align:left;border:1px solid #ddd}` +
	`.tensorsh-table caption{text-align:left;font-family:sans-serif;padding:2px 0}` +
	`.tensorsh-table .weak{color:#a0a}` +
	`.tensorsh-table .error{color:#b00}` +
	`.tensorsh-table th.literal{font-style:italic}` +
	`.tensorsh-table td.same{color:#999}` +
	`.tensorsh-table td.differ{background:#fff0a8}` +
	`.tensorsh-table td.narrowed{background:#eef4ff}` +
	`.tensorsh-table span.narrowed{color:#36c}` +
	`.tensorsh-scroll{overflow-x:auto;max-width:100%}` +
	`</style>`

func esc(s string) string { return html.EscapeString(s) }

// typeHTML writes a type name with its weak mark in a span.
func typeHTML(s string) string {
	if name, ok := strings.CutSuffix(s, "?"); ok {
		return esc(name) + `<span class="weak">?</span>`
	}
	return esc(s)
}

func cellHTML(c promote.Cell) string {
	if c.Err != nil {
		return errMark
	}
	return typeHTML(c.Result.Type.String())
}

func headerHTML(scope string, h promote.Header) string {
	attrs := fmt.Sprintf(` scope="%s"`, scope)
	var title []string
	if h.IsLiteral() {
		attrs += ` class="literal"`
		title = append(title, "the literal "+literalName(h))
	}
	if h.Note != "" {
		title = append(title, h.Note)
	}
	if len(title) > 0 {
		attrs += fmt.Sprintf(` title="%s"`, esc(strings.Join(title, "; ")))
	}
	return fmt.Sprintf("<th%s>%s</th>", attrs, typeHTML(h.String()))
}

// DiffText renders d as a list of the differing cells, one line per cell
// (one line for both orders when the two orders differ alike), with both
// answers, under a line giving the count and the rows compared.
func DiffText(d *promote.Diff, opts Options) string {
	var b strings.Builder
	pn, qn := d.P.Policy.Name(), d.Q.Policy.Name()
	n := len(d.Headers)
	b.WriteString(Wrap(fmt.Sprintf("diff %s %s: %s — %d of %d cells differ", pn, qn, promote.OpExpr(d.P.Op, "row", "column"), d.Count(), n*n), opts.width(), "") + "\n")
	b.WriteString(Wrap(diffScope(d), opts.width(), ""))
	b.WriteByte('\n')
	if d.Count() == 0 {
		b.WriteString(valuesText(d, opts))
		return strings.TrimRight(b.String(), "\n")
	}
	type line struct{ expr, p, q, note string }
	var lines []line
	done := map[[2]int]bool{}
	for _, c := range d.Cells {
		if done[[2]int{c.Row, c.Col}] {
			continue
		}
		l := line{expr: promote.OpExpr(d.P.Op, d.Headers[c.Row].Label, d.Headers[c.Col].Label), p: cellText(c.P), q: cellText(c.Q)}
		if c.Row != c.Col {
			tp, tq := d.At(c.Col, c.Row)
			if tp.Equal(c.P) && tq.Equal(c.Q) {
				l.note = "both orders"
				done[[2]int{c.Col, c.Row}] = true
			}
		}
		lines = append(lines, l)
	}
	we, wp, wq := runeLen("cell"), runeLen(pn), runeLen(qn)
	for _, l := range lines {
		we, wp, wq = max(we, runeLen(l.expr)), max(wp, runeLen(l.p)), max(wq, runeLen(l.q))
	}
	b.WriteByte('\n')
	row := func(e, p, q, note string) {
		s := "  " + pad(e, we) + "  " + pad(p, wp) + "  " + pad(q, wq)
		if note != "" {
			s += "  (" + note + ")"
		}
		b.WriteString(strings.TrimRight(s, " ") + "\n")
	}
	row("cell", pn, qn, "")
	for _, l := range lines {
		row(l.expr, l.p, l.q, l.note)
	}
	b.WriteString(valuesText(d, opts))
	var legend []string
	if d.P.Errors()+d.Q.Errors() > 0 {
		legend = append(legend, errMark+" error (the policy refuses)")
	}
	if tableHasWeak(d.P) || tableHasWeak(d.Q) {
		legend = append(legend, "? weak")
	}
	if len(legend) > 0 {
		b.WriteString("\n" + strings.Join(legend, " · ") + "\n")
	}
	return strings.TrimRight(b.String(), "\n")
}

// diffScope says which rows a diff compares and which it leaves out.
func diffScope(d *promote.Diff) string {
	var dts, lits []string
	for _, h := range d.Headers {
		if strings.HasSuffix(h.Label, "?") {
			lits = append(lits, h.Label)
		} else {
			dts = append(dts, h.Label)
		}
	}
	s := fmt.Sprintf("Compared over the %d dtypes", len(dts))
	if len(lits) > 0 {
		s += " and the " + strings.Join(lits, ", ") + " literals"
	}
	s += " both policies have"
	var only []string
	for _, side := range []struct {
		name string
		hs   []promote.Header
	}{{d.P.Policy.Name(), d.OnlyP}, {d.Q.Policy.Name(), d.OnlyQ}} {
		if len(side.hs) == 0 {
			continue
		}
		var names []string
		for _, h := range side.hs {
			names = append(names, h.KindLabel())
		}
		only = append(only, "only in "+side.name+": "+strings.Join(names, " "))
	}
	if len(only) > 0 {
		s += "; " + strings.Join(only, "; ")
	}
	return s + "."
}

// valuesText renders the value cells of d: the arrays meeting a Python
// scalar or a 0-d array of a given value where the two policies differ,
// with a note where a policy's answer depends on the value.
func valuesText(d *promote.Diff, opts Options) string {
	if d.ValueCount == 0 {
		return ""
	}
	pn, qn := d.P.Policy.Name(), d.Q.Policy.Name()
	var b strings.Builder
	b.WriteString("\n" + Wrap(fmt.Sprintf("Values: of %d cells of an array and a Python scalar or a 0-d array of a given value (the values of refs/numpy1.json: 1, 300, -1, 2**31, 2**40, 2**63, 1.5, 1e300, 1j, true, and 0-d i64, f64, c128 arrays), %d differ where a value decides or a 0-d array takes part.", d.ValueCount, len(d.Values)), opts.width(), "") + "\n")
	if len(d.Values) == 0 {
		return b.String()
	}
	we, wp, wq := runeLen("cell"), runeLen(pn), runeLen(qn)
	type line struct{ expr, p, q, note string }
	var lines []line
	for _, c := range d.Values {
		l := line{expr: promote.OpExpr(d.P.Op, c.Row.String(), c.Probe.String()), p: cellText(c.P), q: cellText(c.Q)}
		var by []string
		if c.PByValue {
			by = append(by, pn)
		}
		if c.QByValue {
			by = append(by, qn)
		}
		if len(by) > 0 {
			l.note = "depends on the value: " + strings.Join(by, ", ")
		}
		lines = append(lines, l)
		we, wp, wq = max(we, runeLen(l.expr)), max(wp, runeLen(l.p)), max(wq, runeLen(l.q))
	}
	b.WriteByte('\n')
	row := func(e, p, q, note string) {
		s := "  " + pad(e, we) + "  " + pad(p, wp) + "  " + pad(q, wq)
		if note != "" {
			s += "  (" + note + ")"
		}
		b.WriteString(strings.TrimRight(s, " ") + "\n")
	}
	row("cell", pn, qn, "")
	for _, l := range lines {
		row(l.expr, l.p, l.q, l.note)
	}
	return b.String()
}

// DiffHTML renders d as the full table of the rows both policies have,
// with the differing cells (class "differ") showing both answers, P's
// first, and the others the common answer (class "same").
func DiffHTML(d *promote.Diff) string {
	var b strings.Builder
	pn, qn := d.P.Policy.Name(), d.Q.Policy.Name()
	n := len(d.Headers)
	b.WriteString(tableStyle)
	b.WriteString(`<div class="tensorsh-scroll">`) // wide tables scroll in a notebook cell
	b.WriteString(`<table class="tensorsh-table tensorsh-diff">`)
	fmt.Fprintf(&b, "<caption><b>%s</b> vs <b>%s</b>: %s — %d of %d cells differ (shown as %s / %s)<br/><small>%s</small></caption>",
		esc(pn), esc(qn), esc(promote.OpExpr(d.P.Op, "row", "column")), d.Count(), n*n, esc(pn), esc(qn), esc(diffScope(d)))
	b.WriteString("<thead><tr><th></th>")
	for _, h := range d.Headers {
		fmt.Fprintf(&b, `<th scope="col">%s</th>`, typeHTML(h.Label))
	}
	b.WriteString("</tr></thead><tbody>")
	for i, h := range d.Headers {
		fmt.Fprintf(&b, `<tr><th scope="row">%s</th>`, typeHTML(h.Label))
		for j := range d.Headers {
			p, q := d.At(i, j)
			if p.Equal(q) {
				fmt.Fprintf(&b, `<td class="same">%s</td>`, cellHTML(p))
				continue
			}
			title := pn + ": " + cellTitle(p) + "\n" + qn + ": " + cellTitle(q)
			fmt.Fprintf(&b, `<td class="differ" title="%s">%s / %s</td>`, esc(title), cellHTML(p), cellHTML(q))
		}
		b.WriteString("</tr>")
	}
	b.WriteString("</tbody></table>")
	if len(d.Values) > 0 {
		fmt.Fprintf(&b, `<table class="tensorsh-table tensorsh-diff-values"><caption>Values: of %d cells of an array and a Python scalar or a 0-d array, %d differ where a value decides or a 0-d array takes part</caption><thead><tr><th>cell</th><th>%s</th><th>%s</th><th></th></tr></thead><tbody>`,
			d.ValueCount, len(d.Values), esc(pn), esc(qn))
		for _, c := range d.Values {
			var by []string
			if c.PByValue {
				by = append(by, pn)
			}
			if c.QByValue {
				by = append(by, qn)
			}
			note := ""
			if len(by) > 0 {
				note = "depends on the value: " + strings.Join(by, ", ")
			}
			fmt.Fprintf(&b, `<tr><td><code>%s</code></td><td class="value" title="%s">%s</td><td class="value" title="%s">%s</td><td>%s</td></tr>`,
				esc(promote.OpExpr(d.P.Op, c.Row.String(), c.Probe.String())), esc(cellTitle(c.P)), cellHTML(c.P), esc(cellTitle(c.Q)), cellHTML(c.Q), esc(note))
		}
		b.WriteString("</tbody></table>")
	}
	b.WriteString("</div>")
	return b.String()
}

func cellTitle(c promote.Cell) string {
	if c.Err != nil {
		return c.Err.Error()
	}
	if c.Result.Rule == "" {
		return c.Result.Type.String()
	}
	return c.Result.Type.String() + " (" + c.Result.Rule + ")"
}
