package format

import (
	"fmt"
	"html"
	"strconv"
	"strings"

	"github.com/tensorsh/tensorsh/backend"
	"github.com/tensorsh/tensorsh/dtypes"
)

// Inline styles of the HTML output. Jupyter front ends keep inline styles,
// so the output looks the same without a stylesheet; the classes let a
// notebook restyle it.
const (
	styleTensor = "font-family:var(--jp-code-font-family,monospace);font-size:var(--jp-code-font-size,13px);line-height:1.4"
	styleBadge  = "display:inline-block;margin:0 0 4px 0;padding:0 6px;border:1px solid rgba(31,95,168,0.35);border-radius:4px;background:rgba(31,95,168,0.08)"
	styleDType  = "color:#1f5fa8;font-weight:bold"
	styleWeak   = "color:#c2410c;font-weight:bold"
	styleDevice = "color:#6b7280"
	styleTable  = "border-collapse:collapse;margin:0"
	styleCell   = "padding:1px 8px;text-align:right;white-space:pre;border:none"
	styleIndex  = "padding:1px 8px;text-align:right;color:#9ca3af;font-weight:normal;font-size:85%;border:none"
	styleGap    = "padding:1px 8px;text-align:center;color:#9ca3af;border:none"
	styleSlice  = "color:#6b7280;margin:6px 0 2px 0"
	styleError  = "color:#b91c1c;margin:0"
)

// weakTitle explains the '?' in the badge's tooltip.
const weakTitle = "weak (ambiguous) dtype: it came from a literal and gives way to a known operand"

// HTML returns t as an HTML fragment for Jupyter's text/html: a badge with
// the dtype (the '?' of a weak type highlighted in a span of class tsh-weak
// with an inline style), the shape and the device, then the values: a
// one-row table for a vector, a table with row and column indices for a
// matrix, one such table per leading index for more dimensions, "…", "⋮"
// and "⋱" cells where items are elided (as in Values with default
// Options), the value itself for a 0-d tensor and "[]" for an empty one.
// Cells hold the strings Values prints (without their left padding), so
// the notation matches the text output. All text is escaped and the fragment is well-formed XML.
func HTML(t *backend.Tensor, typ dtypes.Type, device string) string {
	var b strings.Builder
	b.WriteString(`<div class="tsh-tensor" style="` + styleTensor + `">`)
	err := Check(t)
	if err == nil && typ.DType != t.DType {
		err = fmt.Errorf("format: type %v does not match the tensor's dtype %v", typ, t.DType)
	}
	if err != nil {
		b.WriteString(`<pre class="tsh-error" style="` + styleError + `">` + html.EscapeString(err.Error()) + `</pre></div>`)
		return b.String()
	}
	writeBadge(&b, typ, t.Shape, device)
	switch {
	case len(t.Shape) == 0:
		b.WriteString(`<div><code class="tsh-scalar">` + html.EscapeString(Scalar(t)) + `</code></div>`)
	case t.Len() == 0:
		b.WriteString(`<div><code class="tsh-empty">[]</code></div>`)
	default:
		g := newGrid(t, Options{}.withDefaults())
		raw := newCellFormat(newElems(t), g.shown(), len(t.Shape))
		// Cells keep numpy's right padding: with right-aligned cells in a
		// monospace font the decimal points line up.
		cell := func(i int) string { return html.EscapeString(strings.TrimLeft(raw(i), " ")) }
		writeBlocks(&b, g, cell, 0, 0, nil)
	}
	b.WriteString(`</div>`)
	return b.String()
}

// writeBadge writes the dtype/shape/device badge.
func writeBadge(b *strings.Builder, typ dtypes.Type, shape []int, device string) {
	b.WriteString(`<div class="tsh-badge" style="` + styleBadge + `">`)
	b.WriteString(`<span class="tsh-dtype" style="` + styleDType + `">` + html.EscapeString(typ.DType.String()) + `</span>`)
	if typ.Weak {
		b.WriteString(`<span class="tsh-weak" style="` + styleWeak + `" title="` + html.EscapeString(weakTitle) + `">?</span>`)
	}
	if len(shape) > 0 {
		b.WriteString(`<span class="tsh-shape">` + ShapeString(shape) + `</span>`)
	}
	if device != "" {
		b.WriteString(` <span class="tsh-device" style="` + styleDevice + `">` + html.EscapeString(device) + `</span>`)
	}
	b.WriteString(`</div>`)
}

// writeBlocks writes one table per shown index of the dimensions before
// the last two, each under a caption such as "[0, 1, :, :]".
func writeBlocks(b *strings.Builder, g grid, cell func(int) string, axis, offset int, prefix []int) {
	nd := len(g.shape)
	if axis >= nd-2 {
		if nd > 2 {
			parts := make([]string, 0, nd)
			for _, i := range prefix {
				parts = append(parts, strconv.Itoa(i))
			}
			parts = append(parts, ":", ":")
			b.WriteString(`<div class="tsh-slice" style="` + styleSlice + `">[` + strings.Join(parts, ", ") + `]</div>`)
		}
		writeTable(b, g, cell, offset)
		return
	}
	idx := g.indices(axis)
	for k, i := range idx {
		if g.elided(axis) && k == g.edge {
			b.WriteString(`<div class="tsh-gap" style="` + styleSlice + `">⋮</div>`)
		}
		writeBlocks(b, g, cell, axis+1, offset+i*g.strides[axis], append(prefix[:len(prefix):len(prefix)], i))
	}
}

// writeTable writes the last one or two dimensions at offset as a table.
func writeTable(b *strings.Builder, g grid, cell func(int) string, offset int) {
	nd := len(g.shape)
	last := nd - 1
	cols := g.indices(last)
	colGap := g.elided(last)
	b.WriteString(`<table class="tsh-values" style="` + styleTable + `"><tbody>`)
	row := func(off int, label string) {
		b.WriteString(`<tr>`)
		if label != "" {
			b.WriteString(`<th style="` + styleIndex + `">` + label + `</th>`)
		}
		for k, j := range cols {
			if colGap && k == g.edge {
				b.WriteString(`<td class="tsh-gap" style="` + styleGap + `">…</td>`)
			}
			b.WriteString(`<td style="` + styleCell + `">` + cell(off+j*g.strides[last]) + `</td>`)
		}
		b.WriteString(`</tr>`)
	}
	if nd == 1 {
		row(offset, "")
		b.WriteString(`</tbody></table>`)
		return
	}
	// Column indices, then one row per shown row index.
	b.WriteString(`<tr><th style="` + styleIndex + `"></th>`)
	for k, j := range cols {
		if colGap && k == g.edge {
			b.WriteString(`<th style="` + styleIndex + `"></th>`)
		}
		b.WriteString(`<th style="` + styleIndex + `">` + strconv.Itoa(j) + `</th>`)
	}
	b.WriteString(`</tr>`)
	rowAxis := nd - 2
	for k, i := range g.indices(rowAxis) {
		if g.elided(rowAxis) && k == g.edge {
			b.WriteString(`<tr class="tsh-gap"><th style="` + styleIndex + `"></th>`)
			for c := range cols {
				if colGap && c == g.edge {
					b.WriteString(`<td style="` + styleGap + `">⋱</td>`)
				}
				b.WriteString(`<td style="` + styleGap + `">⋮</td>`)
			}
			b.WriteString(`</tr>`)
		}
		row(offset+i*g.strides[rowAxis], strconv.Itoa(i))
	}
	b.WriteString(`</tbody></table>`)
}
