package teach

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/tensorsh/tensorsh/promote"
)

// graphTitle is the first line of a graph: "max: Mojo MAX graph lattice (2024)".
func graphTitle(g *promote.Graph) string {
	return fmt.Sprintf("%s: %s", g.Policy.Name(), g.Policy.Title())
}

// LatticeText draws g with box-drawing characters: one row of boxes per
// layer, greatest dtypes on top, and each edge a line from the top of the
// promoted dtype's box up to an arrowhead ▲ under its promotion's box.
// A graph too wide for opts.Width is listed instead: the layers, then the
// edges.
func LatticeText(g *promote.Graph, opts Options) string {
	width := opts.width()
	var b strings.Builder
	b.WriteString(graphTitle(g) + "\n")
	b.WriteString(Wrap(upperFirst(g.Describe())+".", width, "") + "\n")
	if len(g.Nodes) == 0 {
		b.WriteString("\n(no dtypes)")
		return b.String()
	}
	if pic, ok := drawText(g, width); ok {
		b.WriteString("\n" + pic)
	} else {
		b.WriteString("\n" + listText(g, width))
	}
	return strings.TrimRight(b.String(), "\n")
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// textLayout lays g out in character cells: a box is wide enough for its
// label and for a column per edge on each side.
func textLayout(g *promote.Graph) *layout {
	in, out := make([]int, len(g.Nodes)), make([]int, len(g.Nodes))
	for _, e := range g.Edges {
		out[e.From]++
		in[e.To]++
	}
	return newLayout(len(g.Nodes), func(i int) float64 {
		return float64(max(runeLen(g.Nodes[i].String())+4, max(in[i], out[i])+2))
	}, g.Edges, 2, 1)
}

// listText lists the layers, top first, and the edges of each node.
func listText(g *promote.Graph, width int) string {
	l := textLayout(g)
	var b strings.Builder
	for y := len(l.layers) - 1; y >= 0; y-- {
		var names []string
		for _, id := range l.layers[y] {
			if n := l.nodes[id]; !n.dummy() {
				names = append(names, g.Nodes[n.graph].String())
			}
		}
		b.WriteString(Wrap(fmt.Sprintf("%2d  %s", y, strings.Join(names, "  ")), width, "    ") + "\n")
	}
	if len(g.Edges) == 0 {
		b.WriteString("\nno edges: no dtype promotes to another\n")
		return b.String()
	}
	b.WriteString("\nedges (a → b: a promotes to b):\n")
	for i := range g.Nodes {
		var to []string
		for _, j := range g.Succ(i) {
			to = append(to, g.Nodes[j].String())
		}
		if len(to) > 0 {
			b.WriteString(Wrap("  "+g.Nodes[i].String()+" → "+strings.Join(to, ", "), width, "      ") + "\n")
		}
	}
	return b.String()
}

// Line bits of a canvas cell.
const (
	lineUp uint8 = 1 << iota
	lineDown
	lineLeft
	lineRight
)

var lineGlyphs = map[uint8]rune{
	lineUp: '╵', lineDown: '╷', lineLeft: '╴', lineRight: '╶',
	lineUp | lineDown: '│', lineLeft | lineRight: '─',
	lineDown | lineRight: '┌', lineDown | lineLeft: '┐', lineUp | lineRight: '└', lineUp | lineLeft: '┘',
	lineUp | lineDown | lineRight: '├', lineUp | lineDown | lineLeft: '┤',
	lineDown | lineLeft | lineRight: '┬', lineUp | lineLeft | lineRight: '┴',
	lineUp | lineDown | lineLeft | lineRight: '┼',
}

// A canvas is a grid of characters where lines merge into box-drawing
// junctions.
type canvas struct {
	glyph [][]rune
	bits  [][]uint8
}

func newCanvas(h, w int) *canvas {
	c := &canvas{glyph: make([][]rune, h), bits: make([][]uint8, h)}
	for y := range h {
		c.glyph[y] = make([]rune, w)
		c.bits[y] = make([]uint8, w)
	}
	return c
}

func (c *canvas) text(y, x int, s string) {
	for _, r := range s {
		c.glyph[y][x] = r
		x++
	}
}

func (c *canvas) line(y, x int, b uint8) { c.bits[y][x] |= b }

// vline draws a vertical line through rows y0..y1 (inclusive) at x;
// nothing when y0 > y1.
func (c *canvas) vline(x, y0, y1 int) {
	for y := y0; y <= y1; y++ {
		c.line(y, x, lineUp|lineDown)
	}
}

func (c *canvas) String() string {
	var b strings.Builder
	for y := range c.glyph {
		var l strings.Builder
		for x, r := range c.glyph[y] {
			switch {
			case r != 0:
				l.WriteRune(r)
			case c.bits[y][x] != 0:
				l.WriteRune(lineGlyphs[c.bits[y][x]])
			default:
				l.WriteByte(' ')
			}
		}
		b.WriteString(strings.TrimRight(l.String(), " ") + "\n")
	}
	return b.String()
}

// A tseg is one piece of an edge between two adjacent layers, in text
// columns: from port c on the lower node's top to port p on the upper
// node's bottom.
type tseg struct {
	c, p       int
	lower, upr int // layout node ids
	arrowUp    bool
	arrowDown  bool
	row        int // routing row, 1-based; 0 when straight
}

// drawText draws g on a canvas; false when it is wider than width.
func drawText(g *promote.Graph, width int) (string, bool) {
	l := textLayout(g)
	// Integer columns: the left edge of each node.
	left := make([]int, len(l.nodes))
	right := 0
	for _, ids := range l.layers {
		prev := math.MinInt
		for _, id := range ids {
			n := l.nodes[id]
			x := int(math.Round(n.x - n.w/2))
			if prev != math.MinInt {
				x = max(x, prev+1)
			}
			left[id] = x
			prev = x + int(n.w)
			right = max(right, prev)
		}
	}
	if right > width {
		return "", false
	}
	wOf := func(id int) int { return int(l.nodes[id].w) }

	// Ports: where each piece of an edge meets a box, by node and slot
	// (the index in its up or down list).
	portsUp := map[[2]int]int{}   // (lower, slot in its up list) → column on its top
	portsDown := map[[2]int]int{} // (upper, slot in its down list) → column on its bottom
	spread := func(id int, others []int, put func(slot, col int)) {
		if l.nodes[id].dummy() {
			for i := range others {
				put(i, left[id])
			}
			return
		}
		order := make([]int, len(others))
		for i := range order {
			order[i] = i
		}
		sort.SliceStable(order, func(i, j int) bool { return left[others[order[i]]] < left[others[order[j]]] })
		lo, hi := left[id]+1, left[id]+wOf(id)-2
		if hi-lo+1 >= len(order)+2 {
			lo, hi = lo+1, hi-1
		}
		for i, slot := range order {
			col := left[id] + (wOf(id)-1)/2
			if len(order) > 1 {
				col = lo + int(math.Round(float64(i*(hi-lo))/float64(len(order)-1)))
			}
			put(slot, col)
		}
	}
	for id := range l.nodes {
		spread(id, l.nodes[id].up, func(slot, col int) { portsUp[[2]int{id, slot}] = col })
		spread(id, l.nodes[id].down, func(slot, col int) { portsDown[[2]int{id, slot}] = col })
	}
	// A node with one edge on a side takes the column of the edge's other
	// end when that is over its box, so the edge runs straight.
	inner := func(id, col int) bool {
		if l.nodes[id].dummy() {
			return col == left[id]
		}
		return col > left[id] && col < left[id]+wOf(id)-1
	}
	for id := range l.nodes {
		n := l.nodes[id]
		if len(n.up) == 1 {
			ku, kd := [2]int{id, 0}, [2]int{n.up[0], n.upPeer[0]}
			if p := portsDown[kd]; inner(id, p) {
				portsUp[ku] = p
			} else if len(l.nodes[n.up[0]].down) == 1 && inner(n.up[0], portsUp[ku]) {
				portsDown[kd] = portsUp[ku]
			}
		}
		if len(n.down) == 1 {
			kd, ku := [2]int{id, 0}, [2]int{n.down[0], n.downPeer[0]}
			if c := portsUp[ku]; inner(id, c) {
				portsDown[kd] = c
			} else if len(l.nodes[n.down[0]].up) == 1 && inner(n.down[0], portsDown[kd]) {
				portsUp[ku] = portsDown[kd]
			}
		}
	}

	// The pieces of edges in each channel (between layer y and y+1), and
	// where the arrowheads go.
	chans := make([][]*tseg, len(l.layers))
	for e, path := range l.paths {
		for k := 0; k+1 < len(path); k++ {
			u, v := path[k], path[k+1]
			iu := l.slots[e][k]
			iv := l.nodes[u].upPeer[iu]
			s := &tseg{c: portsUp[[2]int{u, iu}], p: portsDown[[2]int{v, iv}], lower: u, upr: v}
			s.arrowUp = !l.flipped[e] && k+2 == len(path)
			s.arrowDown = l.flipped[e] && k == 0
			chans[l.nodes[u].layer] = append(chans[l.nodes[u].layer], s)
		}
	}
	// Routing rows: each bending piece runs horizontally in one row of
	// the channel. Pieces in one row must not touch; a piece whose lower
	// vertical is another's upper vertical column runs below it.
	rows := make([]int, len(l.layers))
	for y, segs := range chans {
		rows[y] = route(segs)
	}

	// Rows of the canvas: for each layer, top first, 3 rows of boxes; under
	// it, the channel to the layer below: an arrow row and routing rows.
	top := len(l.layers) - 1
	bandY := make([]int, len(l.layers))
	h := 0
	for y := top; y >= 0; y-- {
		bandY[y] = h
		h += 3
		if y > 0 {
			h += 1 + rows[y-1]
		}
	}
	c := newCanvas(h, right)
	for y := top; y >= 0; y-- {
		for _, id := range l.layers[y] {
			n := l.nodes[id]
			x, w, by := left[id], wOf(id), bandY[y]
			if n.dummy() {
				c.vline(x, by, by+2)
				continue
			}
			c.text(by, x, "┌"+strings.Repeat("─", w-2)+"┐")
			label := g.Nodes[n.graph].String()
			lpad := (w - 2 - runeLen(label)) / 2
			c.text(by+1, x, "│"+pad(strings.Repeat(" ", lpad)+label, w-2)+"│")
			c.text(by+2, x, "└"+strings.Repeat("─", w-2)+"┘")
		}
	}
	for y := 0; y < top; y++ {
		arrowRow := bandY[y+1] + 3
		lowTop := bandY[y]
		for _, s := range chans[y] {
			// The lower end: a junction on the box's top border, or an
			// arrowhead pointing down into it.
			if !l.nodes[s.lower].dummy() {
				if s.arrowDown {
					c.glyph[lowTop][s.c] = '▼'
				} else {
					c.glyph[lowTop][s.c] = '┴'
				}
			}
			bend := arrowRow + s.row
			if s.row == 0 {
				c.vline(s.c, arrowRow, lowTop-1)
			} else {
				c.vline(s.c, bend+1, lowTop-1)
				c.line(bend, s.c, lineDown)
				c.line(bend, s.p, lineUp)
				lo, hi := min(s.c, s.p), max(s.c, s.p)
				c.line(bend, lo, lineRight)
				c.line(bend, hi, lineLeft)
				for x := lo + 1; x < hi; x++ {
					c.line(bend, x, lineLeft|lineRight)
				}
				c.vline(s.p, arrowRow, bend-1)
			}
			if s.arrowUp {
				c.glyph[arrowRow][s.p] = '▲'
			}
		}
	}
	return c.String(), true
}

// route gives each bending piece of a channel a routing row (from 1) and
// returns the number of rows used.
func route(segs []*tseg) int {
	var bend []*tseg
	for _, s := range segs {
		if s.c != s.p {
			bend = append(bend, s)
		}
	}
	// below[i] lists the pieces that must run below piece i: those whose
	// lower vertical is in i's upper vertical column.
	n := len(bend)
	above := make([][]int, n) // above[j]: pieces that must run above j
	indeg := make([]int, n)
	for i, a := range bend {
		for j, b := range bend {
			if i != j && b.c == a.p && a.c != b.c && a.p != b.p {
				above[j] = append(above[j], i)
				indeg[j]++
			}
		}
	}
	// Topological order (pieces that must be above first); on a cycle, the
	// rest in order. Among the pieces free to go, those running right are
	// placed first, the one from the rightmost upper port highest, then
	// those running left, the one from the leftmost upper port highest:
	// pieces fanning out from one box then do not cross.
	key := func(i int) (int, int) {
		if s := bend[i]; s.c > s.p {
			return 0, -s.p
		}
		return 1, bend[i].p
	}
	less := func(i, j int) bool {
		a1, a2 := key(i)
		b1, b2 := key(j)
		return a1 < b1 || a1 == b1 && a2 < b2
	}
	var order []int
	done := make([]bool, n)
	for len(order) < n {
		next := -1
		for i := range n {
			if !done[i] && indeg[i] == 0 && (next < 0 || less(i, next)) {
				next = i
			}
		}
		if next < 0 { // a cycle
			for i := range n {
				if !done[i] && (next < 0 || less(i, next)) {
					next = i
				}
			}
		}
		done[next] = true
		order = append(order, next)
		for j := range n {
			for _, k := range above[j] {
				if k == next {
					indeg[j]--
				}
			}
		}
	}
	type span struct{ lo, hi int }
	var used [][]span
	rows := 0
	for _, i := range order {
		s := bend[i]
		r := 1
		for _, k := range above[i] {
			if bend[k].row >= r {
				r = bend[k].row + 1
			}
		}
		lo, hi := min(s.c, s.p), max(s.c, s.p)
		for ; ; r++ {
			for len(used) < r {
				used = append(used, nil)
			}
			free := true
			for _, u := range used[r-1] {
				if lo <= u.hi+1 && u.lo <= hi+1 {
					free = false
					break
				}
			}
			if free {
				break
			}
		}
		used[r-1] = append(used[r-1], span{lo, hi})
		s.row = r
		rows = max(rows, r)
	}
	return rows
}
