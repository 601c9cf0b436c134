package promote

import (
	"fmt"
	"sort"
	"strings"

	"github.com/tensorsh/tensorsh/dtypes"
)

// The promotion graph of a policy, for the teaching tool lattice().
//
// A policy's promotion (written a + b here; the graph is built for any
// binary operation, normally Where, the plain promotion) is a join on its
// dtypes when it is total (every pair has an answer among the dtypes),
// idempotent, commutative and associative; the dtypes then form a
// join-semilattice, ordered by a ≤ b when a + b = b, and the graph is its
// Hasse diagram (a → b when b covers a). Otherwise the graph is the
// "promotes to" relation (a → b when a + b = b), with the edges implied by
// longer paths left out when the relation has no cycles, and Describe says
// it is not a lattice.

// A GraphKind says what a Graph's edges mean.
type GraphKind uint8

// The graph kinds.
const (
	// Semilattice: + is a join; the edges are the Hasse diagram of the
	// order a ≤ b ⇔ a + b = b.
	Semilattice GraphKind = iota
	// PromotesTo: + is not a join (Graph.Why says why); a → b when
	// a + b = b.
	PromotesTo
	// Documented: the lattice as the library documents it (LatticePolicy),
	// with nodes that are no dtypes; the edges are its covering relation.
	Documented
)

func (k GraphKind) String() string {
	switch k {
	case Semilattice:
		return "semilattice"
	case Documented:
		return "documented"
	}
	return "promotes-to"
}

// A LatticePolicy is a Policy whose library documents its promotion as a
// lattice that has nodes besides its dtypes (JAX: the weak types of
// Python's int, float and complex). lattice() draws that lattice rather
// than one derived from the policy's answers.
type LatticePolicy interface {
	Policy
	// DocLattice returns the lattice's nodes, its covering edges (From
	// immediately below To), and what it is, in a sentence or two.
	DocLattice() (nodes []Header, edges []Edge, doc string)
}

// An Edge of a Graph: Nodes[From] promotes to Nodes[To].
type Edge struct{ From, To int }

// A Graph is the promotion graph of a policy.
type Graph struct {
	Policy Policy
	Kind   GraphKind
	// Nodes are the dtypes (and, when asked for, the literals' weak types).
	Nodes []Header
	// Edges are sorted by From, then To.
	Edges []Edge
	// Lattice reports, for a Semilattice, that it has a least element,
	// which makes it a lattice (every pair also has a meet).
	Lattice bool
	// Minimal lists the minimal nodes (no edge into them).
	Minimal []int
	// Reduced reports that edges implied by longer paths were left out.
	// It is true for a Semilattice, and for a PromotesTo graph without
	// cycles.
	Reduced bool
	// Why says, for a PromotesTo graph, which law of a join + breaks,
	// with an example ("f8e4m3 + f16 is an error: …").
	Why string
	// Table holds the answers the graph was built from, over Nodes; for a
	// Documented graph, the policy's table over its dtypes.
	Table *Table
	// Doc says what a Documented graph is.
	Doc string
}

// NewGraph computes the promotion graph of p for op. Where is the plain
// promotion (what promote(a, b) answers); Add differs from it only where
// a policy refuses + on some dtype (array-api on bools). With literals, the
// weak types p gives literals are nodes too (JAX's lattice has them).
func NewGraph(p Policy, op BinaryOp, literals bool) *Graph {
	t := NewTable(p, op)
	if lp, ok := p.(LatticePolicy); ok && (op == Where || op == Add) {
		return docGraph(lp, t)
	}
	if !literals {
		t = t.sub(func(h Header) bool { return !h.IsLiteral() })
	}
	g := &Graph{Policy: p, Nodes: t.Headers, Table: t}
	n := len(g.Nodes)
	// join[i][j] is the node index of Nodes[i] + Nodes[j], or -1.
	join := make([][]int, n)
	index := map[dtypes.Type]int{}
	for i, h := range g.Nodes {
		index[h.Type] = i
	}
	for i := range n {
		join[i] = make([]int, n)
		for j := range n {
			join[i][j] = -1
			c := t.Cells[i][j]
			if c.Err != nil {
				continue
			}
			if k, ok := index[c.Result.Type]; ok {
				join[i][j] = k
			}
		}
	}
	g.Why = g.checkJoin(join)
	if g.Why == "" {
		g.Kind = Semilattice
	} else {
		g.Kind = PromotesTo
	}

	// The relation a → b ⇔ a + b = b, a ≠ b, and its transitive closure.
	rel := make([][]bool, n)
	for i := range n {
		rel[i] = make([]bool, n)
		for j := range n {
			rel[i][j] = i != j && join[i][j] == j
		}
	}
	reach := closure(rel)
	cyclic := false
	for i := range n {
		cyclic = cyclic || reach[i][i]
	}
	g.Reduced = !cyclic
	for i := range n {
		for j := range n {
			if !rel[i][j] {
				continue
			}
			if !cyclic && implied(rel, reach, i, j) {
				continue
			}
			g.Edges = append(g.Edges, Edge{From: i, To: j})
		}
	}
	for j := range n {
		in := false
		for i := range n {
			in = in || rel[i][j]
		}
		if !in {
			g.Minimal = append(g.Minimal, j)
		}
	}
	if g.Kind == Semilattice && len(g.Minimal) == 1 {
		g.Lattice = true
	}
	return g
}

// docGraph is the Documented graph of p's lattice.
func docGraph(p LatticePolicy, t *Table) *Graph {
	nodes, edges, doc := p.DocLattice()
	g := &Graph{Policy: p, Kind: Documented, Nodes: nodes, Table: t, Doc: doc, Reduced: true}
	g.Edges = append([]Edge(nil), edges...)
	sort.Slice(g.Edges, func(i, j int) bool {
		a, b := g.Edges[i], g.Edges[j]
		return a.From < b.From || a.From == b.From && a.To < b.To
	})
	in := make([]bool, len(nodes))
	for _, e := range g.Edges {
		in[e.To] = true
	}
	for i := range nodes {
		if !in[i] {
			g.Minimal = append(g.Minimal, i)
		}
	}
	return g
}

// checkJoin returns "" when join is total, idempotent, commutative and
// associative, and otherwise the first law that fails, with an example.
func (g *Graph) checkJoin(join [][]int) string {
	n := len(join)
	name := func(i int) string { return g.Nodes[i].String() }
	op := g.Table.Op
	expr := func(a, b string) string { return OpExpr(op, a, b) }
	group := func(e string) string {
		if strings.HasSuffix(e, ")") {
			return e // promote(a, b), max(a, b)
		}
		return "(" + e + ")"
	}
	for i := range n {
		for j := range n {
			if c := g.Table.Cells[i][j]; c.Err != nil {
				return fmt.Sprintf("%s is an error: %s", expr(name(i), name(j)), strings.TrimPrefix(c.Err.Error(), g.Policy.Name()+": "))
			} else if join[i][j] < 0 {
				return fmt.Sprintf("%s = %s, which is not one of the nodes", expr(name(i), name(j)), c.Result.Type)
			}
		}
	}
	for i := range n {
		if join[i][i] != i {
			return fmt.Sprintf("%s = %s: not idempotent", expr(name(i), name(i)), name(join[i][i]))
		}
	}
	for i := range n {
		for j := i + 1; j < n; j++ {
			if join[i][j] != join[j][i] {
				return fmt.Sprintf("%s = %s but %s = %s: not commutative", expr(name(i), name(j)), name(join[i][j]), expr(name(j), name(i)), name(join[j][i]))
			}
		}
	}
	for i := range n {
		for j := range n {
			for k := range n {
				l, r := join[join[i][j]][k], join[i][join[j][k]]
				if l != r {
					return fmt.Sprintf("%s = %s but %s = %s: not associative",
						expr(group(expr(name(i), name(j))), name(k)), name(l), expr(name(i), group(expr(name(j), name(k)))), name(r))
				}
			}
		}
	}
	return ""
}

// closure returns the transitive closure of rel (paths of length ≥ 1).
func closure(rel [][]bool) [][]bool {
	n := len(rel)
	reach := make([][]bool, n)
	for i := range n {
		reach[i] = append([]bool(nil), rel[i]...)
	}
	for k := range n {
		for i := range n {
			if !reach[i][k] {
				continue
			}
			for j := range n {
				if reach[k][j] {
					reach[i][j] = true
				}
			}
		}
	}
	return reach
}

// implied reports whether the edge i → j of an acyclic relation is implied
// by a longer path i → k → … → j.
func implied(rel, reach [][]bool, i, j int) bool {
	for k := range rel {
		if k != j && rel[i][k] && reach[k][j] {
			return true
		}
	}
	return false
}

// sub returns the table restricted to the headers keep accepts.
func (t *Table) sub(keep func(Header) bool) *Table {
	var idx []int
	for i, h := range t.Headers {
		if keep(h) {
			idx = append(idx, i)
		}
	}
	s := &Table{Policy: t.Policy, Op: t.Op}
	for _, i := range idx {
		s.Headers = append(s.Headers, t.Headers[i])
		row := make([]Cell, len(idx))
		for c, j := range idx {
			row[c] = t.Cells[i][j]
		}
		s.Cells = append(s.Cells, row)
	}
	return s
}

// Succ returns the nodes that node i has edges to.
func (g *Graph) Succ(i int) []int {
	var out []int
	for _, e := range g.Edges {
		if e.From == i {
			out = append(out, e.To)
		}
	}
	return out
}

// Describe says in a sentence what the graph shows, e.g. "the Hasse diagram
// of the join, a lattice with least element bool; a → b: a promotes to b".
func (g *Graph) Describe() string {
	ab := OpExpr(g.Table.Op, "a", "b")
	var names []string
	for _, i := range g.Minimal {
		names = append(names, g.Nodes[i].String())
	}
	switch {
	case g.Kind == Documented:
		return g.Doc
	case g.Kind == Semilattice && g.Lattice:
		return fmt.Sprintf("the Hasse diagram of the join, a lattice with least element %s; a → b: a promotes to b", names[0])
	case g.Kind == Semilattice:
		return fmt.Sprintf("the Hasse diagram of the join, a join-semilattice with minimal elements %s; a → b: a promotes to b", strings.Join(names, ", "))
	case len(g.Edges) == 0 && len(g.Nodes) > 1:
		return fmt.Sprintf("no implicit promotion: %s has no dtype that promotes to another, since %s of two different dtypes is an error (%s); the graph has no edges", g.Policy.Name(), ab, g.Why)
	case g.Reduced:
		return fmt.Sprintf("not a lattice: the promotion is not a join (%s); a → b when %s = b, edges implied by longer paths left out", g.Why, ab)
	}
	return fmt.Sprintf("not a lattice: the promotion is not a join (%s); a → b when %s = b (the relation has cycles, so every edge is shown)", g.Why, ab)
}
