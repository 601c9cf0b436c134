package teach

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/tensorsh/tensorsh/dtypes"
	"github.com/tensorsh/tensorsh/promote"
)

// SVG geometry, in pixels. Labels are set in a monospace font so that their
// width is known without measuring text.
const (
	svgFont     = 13.0 // label font size
	svgCharW    = 0.6 * svgFont
	svgPadX     = 10.0
	svgNodeH    = 26.0
	svgLayerGap = 58.0 // vertical space between layers
	svgGap      = 26.0 // horizontal space between nodes
	svgDummyW   = 8.0
	svgMargin   = 16.0
	svgPortGap  = 10.0 // between edge ends on a box
)

// svgKinds colour the nodes by kind.
var svgKinds = []struct {
	kind       dtypes.Kind
	name       string
	fill, line string
}{
	{dtypes.KindBool, "bool", "#eeeeee", "#777777"},
	{dtypes.KindUint, "unsigned", "#dbeafe", "#3b6fb6"},
	{dtypes.KindInt, "signed", "#dcfce7", "#2f8a4c"},
	{dtypes.KindFloat, "float", "#ffedd5", "#c2641a"},
	{dtypes.KindComplex, "complex", "#f3e8ff", "#8b4fc4"},
}

func svgKind(k dtypes.Kind) (fill, line string) {
	for _, s := range svgKinds {
		if s.kind == k {
			return s.fill, s.line
		}
	}
	return "#ffffff", "#555555"
}

// LatticeSVG draws g as an SVG image: a title, the graph in layers with
// the greatest dtypes on top, nodes as rounded boxes coloured by kind
// (dashed for weak types), edges as curves with arrowheads pointing at the
// promotion, and a legend.
func LatticeSVG(g *promote.Graph) string {
	// A box is wide enough for its label and for its edges' arrowheads.
	in, out := make([]int, len(g.Nodes)), make([]int, len(g.Nodes))
	for _, e := range g.Edges {
		out[e.From]++
		in[e.To]++
	}
	l := newLayout(len(g.Nodes), func(i int) float64 {
		return math.Max(float64(runeLen(g.Nodes[i].String()))*svgCharW+2*svgPadX, float64(max(in[i], out[i]))*svgPortGap+12)
	}, g.Edges, svgGap, svgDummyW)

	present := map[dtypes.Kind]bool{}
	weak := false
	for _, h := range g.Nodes {
		present[h.Type.DType.Kind()] = true
		weak = weak || h.Type.Weak
	}
	legend, legendW := svgLegend(present, weak)

	graphW := l.width()
	inner := math.Max(math.Max(graphW, 420), legendW)
	titleLines := strings.Split(Wrap(graphTitle(g), int(inner/(0.6*15)), ""), "\n")
	descChars := int(inner / (0.55 * 12))
	desc := strings.Split(Wrap(upperFirst(g.Describe())+".", descChars, ""), "\n")
	titleH := 19 * float64(len(titleLines))
	headH := titleH + 3 + 16*float64(len(desc)) + 14
	width := inner + 2*svgMargin
	offX := svgMargin + (width-2*svgMargin-graphW)/2
	layers := len(l.layers)
	graphH := float64(layers)*svgNodeH + float64(max(layers-1, 0))*svgLayerGap
	legendY := svgMargin + headH + graphH + 24
	height := legendY + 20 + svgMargin

	// Node boxes: top-left corner.
	top := layers - 1
	boxX := func(id int) float64 { return offX + l.nodes[id].x - l.nodes[id].w/2 }
	boxY := func(id int) float64 {
		return svgMargin + headH + float64(top-l.nodes[id].layer)*(svgNodeH+svgLayerGap)
	}

	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%s" height="%s" viewBox="0 0 %s %s" font-family="sans-serif">`,
		num(width), num(height), num(width), num(height))
	fmt.Fprintf(&b, "\n<title>%s</title>", xmlEsc(graphTitle(g)))
	b.WriteString("\n" + `<defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#444"/></marker></defs>`)
	fmt.Fprintf(&b, "\n"+`<rect x="0" y="0" width="%s" height="%s" fill="#ffffff"/>`, num(width), num(height))
	for i, line := range titleLines {
		fmt.Fprintf(&b, "\n"+`<text x="%s" y="%s" font-size="15" font-weight="bold" fill="#222">%s</text>`, num(svgMargin), num(svgMargin+14+19*float64(i)), xmlEsc(line))
	}
	for i, line := range desc {
		fmt.Fprintf(&b, "\n"+`<text x="%s" y="%s" font-size="12" fill="#555">%s</text>`, num(svgMargin), num(svgMargin+titleH+15+16*float64(i)), xmlEsc(line))
	}

	// Ports: edge ends spread along the top and bottom of each box, in the
	// order of the other ends.
	portUp := map[[2]int]float64{}   // (lower, slot in its up list) → x
	portDown := map[[2]int]float64{} // (upper, slot in its down list) → x
	spread := func(id int, others []int, put func(slot int, x float64)) {
		order := make([]int, len(others))
		for i := range order {
			order[i] = i
		}
		sort.SliceStable(order, func(i, j int) bool { return l.nodes[others[order[i]]].x < l.nodes[others[order[j]]].x })
		n := l.nodes[id]
		for i, slot := range order {
			x := n.x
			if !n.dummy() && len(order) > 1 {
				span := math.Min(n.w-12, float64(len(order)-1)*svgPortGap)
				x = n.x - span/2 + span*float64(i)/float64(len(order)-1)
			}
			put(slot, offX+x)
		}
	}
	for id := range l.nodes {
		spread(id, l.nodes[id].up, func(slot int, x float64) { portUp[[2]int{id, slot}] = x })
		spread(id, l.nodes[id].down, func(slot int, x float64) { portDown[[2]int{id, slot}] = x })
	}
	// A box with one edge on a side meets it straight when the other end
	// is over the box.
	over := func(id int, x float64) bool {
		n := l.nodes[id]
		if n.dummy() {
			return math.Abs(offX+n.x-x) < 0.01
		}
		return math.Abs(offX+n.x-x) <= n.w/2-8
	}
	for id, n := range l.nodes {
		if len(n.up) == 1 {
			ku, kd := [2]int{id, 0}, [2]int{n.up[0], n.upPeer[0]}
			if over(id, portDown[kd]) {
				portUp[ku] = portDown[kd]
			} else if len(l.nodes[n.up[0]].down) == 1 && over(n.up[0], portUp[ku]) {
				portDown[kd] = portUp[ku]
			}
		}
		if len(n.down) == 1 {
			kd, ku := [2]int{id, 0}, [2]int{n.down[0], n.downPeer[0]}
			if over(id, portUp[ku]) {
				portDown[kd] = portUp[ku]
			} else if len(l.nodes[n.down[0]].up) == 1 && over(n.down[0], portDown[kd]) {
				portUp[ku] = portDown[kd]
			}
		}
	}

	b.WriteString("\n<g class=\"edges\" fill=\"none\" stroke=\"#444\" stroke-width=\"1.3\">")
	for e, path := range l.paths {
		type pt struct{ x, y float64 }
		var pts []pt
		for k := 0; k+1 < len(path); k++ {
			u, v := path[k], path[k+1]
			// From the top of the lower box (or dummy band) to the bottom
			// of the upper one.
			iu := l.slots[e][k]
			x0, y0 := portUp[[2]int{u, iu}], boxY(u)
			x1, y1 := portDown[[2]int{v, l.nodes[u].upPeer[iu]}], boxY(v)+svgNodeH
			pts = append(pts, pt{x0, y0}, pt{x1, y1})
		}
		if l.flipped[e] {
			for i, j := 0, len(pts)-1; i < j; i, j = i+1, j-1 {
				pts[i], pts[j] = pts[j], pts[i]
			}
		}
		var d strings.Builder
		fmt.Fprintf(&d, "M%s,%s", num(pts[0].x), num(pts[0].y))
		for i := 1; i < len(pts); i++ {
			p, q := pts[i-1], pts[i]
			if p.x == q.x {
				fmt.Fprintf(&d, " L%s,%s", num(q.x), num(q.y))
				continue
			}
			my := (p.y + q.y) / 2
			fmt.Fprintf(&d, " C%s,%s %s,%s %s,%s", num(p.x), num(my), num(q.x), num(my), num(q.x), num(q.y))
		}
		ge := g.Edges[e]
		fmt.Fprintf(&b, "\n"+`<path class="edge" d="%s" marker-end="url(#arrow)"><title>%s → %s</title></path>`,
			d.String(), xmlEsc(g.Nodes[ge.From].String()), xmlEsc(g.Nodes[ge.To].String()))
	}
	b.WriteString("\n</g>")

	for id, n := range l.nodes {
		if n.dummy() {
			continue
		}
		h := g.Nodes[n.graph]
		fill, line := svgKind(h.Type.DType.Kind())
		dash := ""
		what := h.Type.DType.FullName()
		if h.Type.Weak {
			dash = ` stroke-dasharray="4 2"`
			what = "weak " + what
			if h.IsLiteral() {
				what += ", the type of the literal " + literalName(h)
			}
		}
		x, y := boxX(id), boxY(id)
		fmt.Fprintf(&b, "\n"+`<g class="node"><title>%s</title><rect x="%s" y="%s" width="%s" height="%s" rx="6" fill="%s" stroke="%s" stroke-width="1.4"%s/>`,
			xmlEsc(what), num(x), num(y), num(n.w), num(svgNodeH), fill, line, dash)
		fmt.Fprintf(&b, `<text x="%s" y="%s" font-family="monospace" font-size="%s" text-anchor="middle" fill="#111">%s</text></g>`,
			num(x+n.w/2), num(y+svgNodeH/2+svgFont*0.35), num(svgFont), xmlEsc(h.String()))
	}

	fmt.Fprintf(&b, "\n"+`<g class="legend" font-size="11" fill="#444" transform="translate(%s,%s)">%s`, num(svgMargin), num(legendY), legend)
	b.WriteString("</g>\n</svg>\n")
	return b.String()
}

// svgLegend draws the legend at the origin: the kinds present, the weak
// mark, and what an arrow means. It returns the legend and its width.
func svgLegend(present map[dtypes.Kind]bool, weak bool) (string, float64) {
	var b strings.Builder
	x := 0.0
	item := func(fill, line, dash, label string) {
		fmt.Fprintf(&b, `<rect x="%s" y="0" width="12" height="12" rx="3" fill="%s" stroke="%s"%s/><text x="%s" y="10">%s</text>`,
			num(x), fill, line, dash, num(x+16), xmlEsc(label))
		x += 16 + float64(runeLen(label))*6.2 + 14
	}
	for _, k := range svgKinds {
		if present[k.kind] {
			item(k.fill, k.line, "", k.name)
		}
	}
	if weak {
		item("#ffffff", "#555555", ` stroke-dasharray="3 2"`, "weak (?)")
	}
	const arrow = "a → b: a promotes to b"
	fmt.Fprintf(&b, `<text x="%s" y="10">%s</text>`, num(x), arrow)
	return b.String(), x + float64(runeLen(arrow))*6.2
}

// num formats a coordinate with at most one decimal.
func num(f float64) string {
	s := fmt.Sprintf("%.1f", f)
	return strings.TrimSuffix(s, ".0")
}

func xmlEsc(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch r {
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case '&':
			b.WriteString("&amp;")
		case '"':
			b.WriteString("&quot;")
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
