package teach

import (
	"math"
	"sort"

	"github.com/tensorsh/tensorsh/promote"
)

// A layered drawing of a directed graph (Sugiyama's method, kept small):
//
//  1. Cycles are broken by reversing the edges a depth-first search finds
//     going back (only graphs of odd policies have cycles).
//  2. Layers by longest path: a node sits one layer above the highest node
//     that promotes to it; a node nothing promotes to is moved up under its
//     lowest successor, so its edges stay short.
//  3. Edges that span several layers get a dummy node in each layer they
//     cross, so that every edge joins adjacent layers.
//  4. The order within each layer is improved by barycenter sweeps (each
//     node moves to the mean position of its neighbours in the layer just
//     swept), then by swapping neighbours, keeping the order with the
//     fewest crossings.
//  5. Coordinates by the priority method (see place).
//
// Layer 0 is the bottom; edges point up, from the promoted dtype to its
// promotion.

// A layout is a graph placed in layers.
type layout struct {
	nodes  []lnode
	layers [][]int // node ids per layer, left to right; layer 0 is the bottom
	// paths[e] are the node ids of graph edge e from its lower end to its
	// upper end, dummies in between.
	paths [][]int
	// slots[e][k] is the index, in the up list of paths[e][k], of the
	// piece of edge e from paths[e][k] to paths[e][k+1]. (Two edges may
	// join the same two nodes, a → b and b → a, so pieces are told apart
	// by slot, not by their ends.)
	slots [][]int
	// flipped[e] reports that edge e points down: its From is drawn above
	// its To, to break a cycle.
	flipped []bool
}

// An lnode is a node of a layout: a node of the graph, or a dummy point on
// a long edge.
type lnode struct {
	graph int // index in promote.Graph.Nodes, -1 for a dummy
	layer int
	w     float64 // width
	x     float64 // centre
	pos   int     // index in its layer
	up    []int   // neighbours in the layer above, one per edge piece
	down  []int   // neighbours in the layer below, one per edge piece
	// upPeer[i] is the index of this node in the down list of up[i];
	// downPeer[i] that in the up list of down[i].
	upPeer, downPeer []int
}

func (n *lnode) dummy() bool { return n.graph < 0 }

// newLayout places n nodes of the given widths and the edges (From below
// To), with at least gap between neighbours; dummies are dummyW wide.
func newLayout(n int, width func(int) float64, edges []promote.Edge, gap, dummyW float64) *layout {
	l := &layout{flipped: make([]bool, len(edges))}
	// 1. Break cycles.
	out := make([][]int, n) // edge indices by From
	for i, e := range edges {
		out[e.From] = append(out[e.From], i)
	}
	state := make([]uint8, n) // 0 new, 1 on the stack, 2 done
	var dfs func(v int)
	dfs = func(v int) {
		state[v] = 1
		for _, i := range out[v] {
			switch w := edges[i].To; state[w] {
			case 0:
				dfs(w)
			case 1:
				l.flipped[i] = true
			}
		}
		state[v] = 2
	}
	for v := range n {
		if state[v] == 0 {
			dfs(v)
		}
	}
	lo := func(i int) (int, int) { // lower and upper end of edge i
		if l.flipped[i] {
			return edges[i].To, edges[i].From
		}
		return edges[i].From, edges[i].To
	}

	// 2. Longest-path layers, in topological order.
	succ := make([][]int, n)
	pred := make([][]int, n)
	indeg := make([]int, n)
	for i := range edges {
		a, b := lo(i)
		succ[a] = append(succ[a], b)
		pred[b] = append(pred[b], a)
		indeg[b]++
	}
	var order []int
	for v := range n {
		if indeg[v] == 0 {
			order = append(order, v)
		}
	}
	for k := 0; k < len(order); k++ {
		for _, w := range succ[order[k]] {
			if indeg[w]--; indeg[w] == 0 {
				order = append(order, w)
			}
		}
	}
	layer := make([]int, n)
	for _, v := range order {
		for _, w := range succ[v] {
			layer[w] = max(layer[w], layer[v]+1)
		}
	}
	for v := range n {
		if len(pred[v]) == 0 && len(succ[v]) > 0 {
			m := math.MaxInt
			for _, w := range succ[v] {
				m = min(m, layer[w])
			}
			layer[v] = m - 1
		}
	}
	top := 0
	for v := range n {
		top = max(top, layer[v])
	}
	l.layers = make([][]int, top+1)
	for v := range n {
		l.nodes = append(l.nodes, lnode{graph: v, layer: layer[v], w: width(v)})
		l.layers[layer[v]] = append(l.layers[layer[v]], v)
	}

	// 3. Dummies on long edges.
	l.paths = make([][]int, len(edges))
	l.slots = make([][]int, len(edges))
	for i := range edges {
		a, b := lo(i)
		path := []int{a}
		for y := layer[a] + 1; y < layer[b]; y++ {
			d := len(l.nodes)
			l.nodes = append(l.nodes, lnode{graph: -1, layer: y, w: dummyW})
			l.layers[y] = append(l.layers[y], d)
			path = append(path, d)
		}
		path = append(path, b)
		for k := 0; k+1 < len(path); k++ {
			u, v := path[k], path[k+1]
			nu, nv := &l.nodes[u], &l.nodes[v]
			iu, iv := len(nu.up), len(nv.down)
			nu.up, nu.upPeer = append(nu.up, v), append(nu.upPeer, iv)
			nv.down, nv.downPeer = append(nv.down, u), append(nv.downPeer, iu)
			l.slots[i] = append(l.slots[i], iu)
		}
		l.paths[i] = path
	}

	// 4. Order within layers.
	l.renumber()
	l.order()

	// 5. Coordinates.
	l.place(gap)
	return l
}

func (l *layout) renumber() {
	for _, ids := range l.layers {
		for p, id := range ids {
			l.nodes[id].pos = p
		}
	}
}

// crossings counts the pairs of edges that cross between layers y and y+1.
func (l *layout) crossings(y int) int {
	type seg struct{ a, b int }
	var segs []seg
	for _, u := range l.layers[y] {
		for _, v := range l.nodes[u].up {
			segs = append(segs, seg{l.nodes[u].pos, l.nodes[v].pos})
		}
	}
	c := 0
	for i := range segs {
		for j := i + 1; j < len(segs); j++ {
			if (segs[i].a-segs[j].a)*(segs[i].b-segs[j].b) < 0 {
				c++
			}
		}
	}
	return c
}

func (l *layout) totalCrossings() int {
	c := 0
	for y := 0; y+1 < len(l.layers); y++ {
		c += l.crossings(y)
	}
	return c
}

// order reduces crossings by barycenter sweeps and neighbour swaps.
func (l *layout) order() {
	save := func() [][]int {
		s := make([][]int, len(l.layers))
		for y, ids := range l.layers {
			s[y] = append([]int(nil), ids...)
		}
		return s
	}
	best, bestC := save(), l.totalCrossings()
	bary := func(y int, nb func(*lnode) []int) {
		ids := l.layers[y]
		key := make(map[int]float64, len(ids))
		for _, id := range ids {
			n := &l.nodes[id]
			ns := nb(n)
			if len(ns) == 0 {
				key[id] = float64(n.pos)
				continue
			}
			s := 0.0
			for _, m := range ns {
				s += float64(l.nodes[m].pos)
			}
			key[id] = s / float64(len(ns))
		}
		sort.SliceStable(ids, func(i, j int) bool { return key[ids[i]] < key[ids[j]] })
		for p, id := range ids {
			l.nodes[id].pos = p
		}
	}
	for it := 0; it < 16 && bestC > 0; it++ {
		if it%2 == 0 {
			for y := 1; y < len(l.layers); y++ {
				bary(y, func(n *lnode) []int { return n.down })
			}
		} else {
			for y := len(l.layers) - 2; y >= 0; y-- {
				bary(y, func(n *lnode) []int { return n.up })
			}
		}
		l.swaps()
		if c := l.totalCrossings(); c < bestC {
			best, bestC = save(), c
		}
	}
	l.layers = best
	l.renumber()
}

// swaps exchanges neighbours in a layer while that removes crossings.
func (l *layout) swaps() {
	local := func(y int) int {
		c := 0
		if y > 0 {
			c += l.crossings(y - 1)
		}
		if y+1 < len(l.layers) {
			c += l.crossings(y)
		}
		return c
	}
	for improved, rounds := true, 0; improved && rounds < 8; rounds++ {
		improved = false
		for y, ids := range l.layers {
			for p := 0; p+1 < len(ids); p++ {
				before := local(y)
				ids[p], ids[p+1] = ids[p+1], ids[p]
				l.nodes[ids[p]].pos, l.nodes[ids[p+1]].pos = p, p+1
				if local(y) < before {
					improved = true
					continue
				}
				ids[p], ids[p+1] = ids[p+1], ids[p]
				l.nodes[ids[p]].pos, l.nodes[ids[p+1]].pos = p, p+1
			}
		}
	}
}

// place assigns x coordinates by the priority method: layers are swept
// down and up; in each, nodes move to the mean x of their neighbours in
// the layer just placed, the nodes with more such neighbours first, and a
// node may push aside only nodes of lower priority. Dummies come first, so
// long edges run straight.
func (l *layout) place(gap float64) {
	for _, ids := range l.layers {
		x := 0.0
		for _, id := range ids {
			n := &l.nodes[id]
			n.x = x + n.w/2
			x += n.w + gap
		}
		for _, id := range ids { // centre the layer on 0
			l.nodes[id].x -= (x - gap) / 2
		}
	}
	up := func(n *lnode) []int { return n.up }
	down := func(n *lnode) []int { return n.down }
	top := len(l.layers) - 1
	// End on an upward sweep: each node then sits over the nodes that
	// promote to it.
	for round := 0; round < 6; round++ {
		if round%2 == 0 {
			for y := top - 1; y >= 0; y-- {
				l.placeLayer(y, up, gap)
			}
		} else {
			for y := 1; y <= top; y++ {
				l.placeLayer(y, down, gap)
			}
		}
	}
	minX := math.Inf(1)
	for _, n := range l.nodes {
		minX = min(minX, n.x-n.w/2)
	}
	for i := range l.nodes {
		l.nodes[i].x -= minX
	}
}

// placeLayer moves the nodes of layer y towards their neighbours nb.
func (l *layout) placeLayer(y int, nb func(*lnode) []int, gap float64) {
	ids := l.layers[y]
	n := len(ids)
	x := make([]float64, n)
	want := make([]float64, n)
	prio := make([]int, n)
	for p, id := range ids {
		node := &l.nodes[id]
		x[p], want[p] = node.x, node.x
		ns := nb(node)
		switch {
		case len(ns) == 0:
			prio[p] = -1
		case node.dummy():
			prio[p] = math.MaxInt32
		default:
			prio[p] = len(ns)
		}
		if len(ns) > 0 {
			s := 0.0
			for _, m := range ns {
				s += l.nodes[m].x
			}
			want[p] = s / float64(len(ns))
		}
	}
	sep := func(p int) float64 { // between p-1 and p
		return (l.nodes[ids[p-1]].w+l.nodes[ids[p]].w)/2 + gap
	}
	order := make([]int, n)
	for p := range order {
		order[p] = p
	}
	// Among equals, the middle of the layer goes first, so that a group of
	// nodes wanting the same place spreads around it.
	mid := float64(n-1) / 2
	sort.SliceStable(order, func(i, j int) bool {
		a, b := order[i], order[j]
		if prio[a] != prio[b] {
			return prio[a] > prio[b]
		}
		return math.Abs(float64(a)-mid) < math.Abs(float64(b)-mid)
	})
	fixed := make([]bool, n)
	for _, p := range order {
		lo, hi := math.Inf(-1), math.Inf(1)
		d := 0.0
		for q := p - 1; q >= 0; q-- {
			d += sep(q + 1)
			if fixed[q] {
				lo = x[q] + d
				break
			}
		}
		d = 0
		for q := p + 1; q < n; q++ {
			d += sep(q)
			if fixed[q] {
				hi = x[q] - d
				break
			}
		}
		x[p] = math.Max(lo, math.Min(hi, want[p]))
		fixed[p] = true
		for q := p + 1; q < n && x[q] < x[q-1]+sep(q); q++ {
			x[q] = x[q-1] + sep(q)
		}
		for q := p - 1; q >= 0 && x[q] > x[q+1]-sep(q+1); q-- {
			x[q] = x[q+1] - sep(q+1)
		}
	}
	for p, id := range ids {
		l.nodes[id].x = x[p]
	}
}

// isotonic returns the x closest to want (least squares) with
// x[i+1]-x[i] ≥ sep[i+1]-sep[i]: pool-adjacent-violators on want-sep.
func isotonic(want, sep []float64) []float64 {
	type block struct {
		sum   float64
		n     int
		first int
	}
	var bs []block
	for i := range want {
		bs = append(bs, block{sum: want[i] - sep[i], n: 1, first: i})
		for len(bs) > 1 {
			a, b := bs[len(bs)-2], bs[len(bs)-1]
			if a.sum/float64(a.n) <= b.sum/float64(b.n) {
				break
			}
			bs = bs[:len(bs)-2]
			bs = append(bs, block{sum: a.sum + b.sum, n: a.n + b.n, first: a.first})
		}
	}
	xs := make([]float64, len(want))
	for _, b := range bs {
		for i := b.first; i < b.first+b.n; i++ {
			xs[i] = b.sum/float64(b.n) + sep[i]
		}
	}
	return xs
}

// width returns the width of the drawing.
func (l *layout) width() float64 {
	w := 0.0
	for _, n := range l.nodes {
		w = max(w, n.x+n.w/2)
	}
	return w
}
