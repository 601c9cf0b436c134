package teach

import (
	"encoding/xml"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/tensorsh/tensorsh/dtypes"
	"github.com/tensorsh/tensorsh/promote"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from the golden file (go test -update rewrites it)\n--- got\n%s\n--- want\n%s", name, got, want)
	}
}

func lookup(t *testing.T, name string) promote.Policy {
	t.Helper()
	p, err := promote.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

var goldenPolicies = []string{"jax", "numpy", "max", "anvil", "triton"}

func TestTableTextGolden(t *testing.T) {
	for _, name := range goldenPolicies {
		tb := promote.NewTable(lookup(t, name), promote.Add)
		golden(t, "table-"+name+".txt", TableText(tb, Options{Width: 80})+"\n")
	}
	// One wide terminal: the whole table in one block.
	golden(t, "table-jax-wide.txt", TableText(promote.NewTable(lookup(t, "jax"), promote.Add), Options{Width: 200})+"\n")
}

func TestTableTextWidth(t *testing.T) {
	for _, name := range promote.Names() {
		tb := promote.NewTable(lookup(t, name), promote.Add)
		for _, w := range []int{60, 80, 120} {
			s := TableText(tb, Options{Width: w})
			for i, line := range strings.Split(s, "\n") {
				if runeLen(line) > w {
					t.Errorf("%s width %d: line %d is %d wide: %q", name, w, i+1, runeLen(line), line)
				}
			}
			// Every column is in one block: the header lines (those
			// starting with a space) name each column once.
			// The legend follows, when there is one: a policy that
			// answers every cell with a strong type has none, and its last
			// paragraph is a block, which starts with its header.
			cols := 0
			grid := s
			if i := strings.LastIndex(s, "\n\n"); i >= 0 && !strings.HasPrefix(s[i+2:], " ") {
				grid = s[:i]
			}
			for _, line := range strings.Split(grid, "\n") {
				if strings.HasPrefix(line, " ") {
					for _, f := range strings.Fields(line) {
						if f != "│" {
							cols++
						}
					}
				}
			}
			if cols != len(tb.Headers) {
				t.Errorf("%s width %d: %d column headers for %d columns", name, w, cols, len(tb.Headers))
			}
		}
	}
}

func TestTableTextMarks(t *testing.T) {
	s := TableText(promote.NewTable(lookup(t, "jax"), promote.Add), Options{Width: 200})
	for _, want := range []string{
		"jax: row + column (JAX, x64 off)",
		"× error (the policy refuses)",
		"i32? is the literal 1, f32? is the literal 1.5, c64? is the literal 1j",
		"* i64: Explicitly requested dtype int64 is not available",
		"│ i32?", // the rule between dtype and literal columns
		"┼",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("jax table lacks %q", want)
		}
	}
	if strings.Contains(s, "\x1b") {
		t.Error("the table has an escape sequence; colour is the front end's business")
	}
	// A policy without errors or literals has neither legend entry.
	toy := promote.NewTable(lookup(t, "anvil"), promote.Add)
	if s := TableText(toy, Options{}); strings.Contains(s, "× error") {
		t.Errorf("anvil's table has no error cells but its legend explains ×:\n%s", s)
	}
}

// xmlNode is a generic XML element.
type xmlNode struct {
	XMLName xml.Name
	Attrs   []xml.Attr `xml:",any,attr"`
	Nodes   []xmlNode  `xml:",any"`
	Text    string     `xml:",chardata"`
}

func (n *xmlNode) attr(name string) string {
	for _, a := range n.Attrs {
		if a.Name.Local == name {
			return a.Value
		}
	}
	return ""
}

func (n *xmlNode) walk(f func(*xmlNode)) {
	f(n)
	for i := range n.Nodes {
		n.Nodes[i].walk(f)
	}
}

// text returns the character data of n and its children.
func (n *xmlNode) text() string {
	s := n.Text
	for i := range n.Nodes {
		s += n.Nodes[i].text()
	}
	return s
}

func parseXML(t *testing.T, s string) *xmlNode {
	t.Helper()
	var root xmlNode
	if err := xml.Unmarshal([]byte(s), &root); err != nil {
		t.Fatalf("not well-formed XML: %v\n%s", err, s)
	}
	return &root
}

func TestTableHTML(t *testing.T) {
	for _, name := range goldenPolicies {
		tb := promote.NewTable(lookup(t, name), promote.Add)
		h := TableHTML(tb)
		root := parseXML(t, "<div>"+h+"</div>")
		var rows, tds, errs, weak, lits int
		root.walk(func(n *xmlNode) {
			switch n.XMLName.Local {
			case "tr":
				rows++
			case "td":
				tds++
				if n.attr("class") == "error" {
					errs++
					if n.attr("title") == "" {
						t.Errorf("%s: an error cell has no message", name)
					}
				}
			case "span":
				if n.attr("class") == "weak" && n.text() == "?" {
					weak++
				}
			case "th":
				if n.attr("class") == "literal" {
					lits++
				}
			}
		})
		n := len(tb.Headers)
		if rows != n+1 || tds != n*n {
			t.Errorf("%s: %d rows and %d cells, want %d and %d", name, rows, tds, n+1, n*n)
		}
		if errs != tb.Errors() {
			t.Errorf("%s: %d error cells, the table has %d", name, errs, tb.Errors())
		}
		if lits != 2*tb.Literals() {
			t.Errorf("%s: %d literal headers, want %d", name, lits, 2*tb.Literals())
		}
		if tb.Literals() > 0 && weak == 0 {
			t.Errorf("%s: weak marks are not in spans", name)
		}
	}
}

var goldenDiffs = [][2]string{{"jax", "numpy"}, {"jax", "jax64"}, {"numpy", "triton"}, {"max", "anvil"}}

func TestDiffTextGolden(t *testing.T) {
	for _, pq := range goldenDiffs {
		d := promote.NewDiff(lookup(t, pq[0]), lookup(t, pq[1]), promote.Add)
		golden(t, "diff-"+pq[0]+"-"+pq[1]+".txt", DiffText(d, Options{Width: 80})+"\n")
	}
}

func TestDiffText(t *testing.T) {
	d := promote.NewDiff(lookup(t, "jax"), lookup(t, "numpy"), promote.Add)
	s := DiffText(d, Options{})
	if want := fmt.Sprintf("diff jax numpy: row + column — %d of 400 cells differ", d.Count()); !strings.HasPrefix(s, want) {
		t.Errorf("first line: %q, want %q", strings.SplitN(s, "\n", 2)[0], want)
	}
	if !strings.Contains(s, "only in numpy: bool?") {
		t.Error("the diff does not say numpy's bool literal row was left out")
	}
	// Each differing cell is on a line, once: a cell alone, or with its
	// mirror image on a "both orders" line.
	lines := 0
	both := 0
	types, _, _ := strings.Cut(s, "\nValues: ") // the value cells come after
	for _, l := range strings.Split(types, "\n") {
		if strings.HasPrefix(l, "  ") && !strings.HasPrefix(l, "  cell") {
			lines++
			if strings.HasSuffix(l, "(both orders)") {
				both++
			}
		}
	}
	if lines+both != d.Count() {
		t.Errorf("%d lines (%d for both orders) for %d differing cells", lines, both, d.Count())
	}
	// jnp.promote_types(int16, float16) is float16, numpy's float32.
	if !regexp.MustCompile(`(?m)^  f16 \+ i16 +f16 +f32 +\(both orders\)$`).MatchString(s) &&
		!regexp.MustCompile(`(?m)^  i16 \+ f16 +f16 +f32 +\(both orders\)$`).MatchString(s) {
		t.Errorf("no line for i16 + f16 (f16 against f32):\n%s", s)
	}
	same := DiffText(promote.NewDiff(lookup(t, "jax"), lookup(t, "jax"), promote.Add), Options{})
	if !strings.Contains(same, "0 of 400 cells differ") || strings.Contains(same, "cell ") {
		t.Errorf("jax against itself:\n%s", same)
	}
}

func TestDiffHTML(t *testing.T) {
	for _, pq := range goldenDiffs {
		d := promote.NewDiff(lookup(t, pq[0]), lookup(t, pq[1]), promote.Add)
		root := parseXML(t, "<div>"+DiffHTML(d)+"</div>")
		differ, same := 0, 0
		root.walk(func(n *xmlNode) {
			if n.XMLName.Local != "td" {
				return
			}
			switch n.attr("class") {
			case "differ":
				differ++
				if !strings.Contains(n.text(), " / ") || !strings.Contains(n.attr("title"), pq[0]+": ") {
					t.Errorf("%v: a differing cell without both answers: %q", pq, n.text())
				}
			case "same":
				same++
			}
		})
		n := len(d.Headers)
		if differ != d.Count() || differ+same != n*n {
			t.Errorf("%v: %d differing and %d same cells, want %d of %d", pq, differ, same, d.Count(), n*n)
		}
	}
}

func TestLatticeTextGolden(t *testing.T) {
	for _, name := range goldenPolicies {
		g := promote.NewGraph(lookup(t, name), promote.Where, false)
		golden(t, "lattice-"+name+".txt", LatticeText(g, Options{Width: 80})+"\n")
	}
	g := promote.NewGraph(lookup(t, "jax"), promote.Where, true)
	golden(t, "lattice-jax-literals.txt", LatticeText(g, Options{Width: 80})+"\n")
}

func TestLatticeText(t *testing.T) {
	for _, name := range promote.Names() {
		for _, lits := range []bool{false, true} {
			g := promote.NewGraph(lookup(t, name), promote.Where, lits)
			s := LatticeText(g, Options{Width: 80})
			for i, line := range strings.Split(s, "\n") {
				if runeLen(line) > 80 {
					t.Errorf("%s: line %d is %d wide", name, i+1, runeLen(line))
				}
			}
			if strings.Contains(s, "edges (a → b") || strings.Contains(s, "\nno edges: ") {
				continue // listed: checked below
			}
			// One box per node, and one arrowhead per edge: the ports of a
			// box are distinct here (no box has more edges than room).
			for _, h := range g.Nodes {
				box := regexp.MustCompile(`│ +` + regexp.QuoteMeta(h.String()) + ` +│`)
				if n := len(box.FindAllString(s, -1)); n != 1 {
					t.Errorf("%s: %d boxes for %s", name, n, h)
				}
			}
			if got := strings.Count(s, "▲") + strings.Count(s, "▼"); got != len(g.Edges) {
				t.Errorf("%s (literals %v): %d arrowheads for %d edges\n%s", name, lits, got, len(g.Edges), s)
			}
		}
	}
}

func TestLatticeTextList(t *testing.T) {
	g := promote.NewGraph(lookup(t, "numpy"), promote.Where, true)
	s := LatticeText(g, Options{Width: 40})
	if !strings.Contains(s, "edges (a → b: a promotes to b):") {
		t.Fatalf("a graph wider than the terminal is not listed:\n%s", s)
	}
	// Each source's line (wrapped if long) is "a → b, c": an edge per
	// arrow and comma.
	_, list, _ := strings.Cut(s, "a promotes to b):\n")
	n := strings.Count(list, "→") + strings.Count(list, ",")
	if n != len(g.Edges) {
		t.Errorf("listed %d edges, the graph has %d:\n%s", n, len(g.Edges), s)
	}
}

var pathNum = regexp.MustCompile(`-?[0-9]+(\.[0-9]+)?`)

// TestLatticeSVG checks the SVG of every policy: well-formed XML, one node
// per dtype and one edge per graph edge, boxes that do not overlap, and
// edges that start on the top of the promoted dtype's box and end on the
// bottom of its promotion's box.
func TestLatticeSVG(t *testing.T) {
	for _, name := range promote.Names() {
		for _, lits := range []bool{false, true} {
			g := promote.NewGraph(lookup(t, name), promote.Where, lits)
			svg := LatticeSVG(g)
			root := parseXML(t, svg)
			if root.XMLName.Local != "svg" || root.attr("viewBox") == "" {
				t.Fatalf("%s: root element %s", name, root.XMLName.Local)
			}
			type box struct{ x, y, w, h float64 }
			boxes := map[string]box{}
			var edges []*xmlNode
			f := func(s string) float64 {
				v, err := strconv.ParseFloat(s, 64)
				if err != nil {
					t.Fatalf("%s: bad number %q", name, s)
				}
				return v
			}
			titled := false
			root.walk(func(n *xmlNode) {
				if n.XMLName.Local == "title" && strings.HasPrefix(n.text(), name+": ") {
					titled = true
				}
				if n.XMLName.Local == "g" && n.attr("class") == "node" {
					var r, label *xmlNode
					for i := range n.Nodes {
						switch n.Nodes[i].XMLName.Local {
						case "rect":
							r = &n.Nodes[i]
						case "text":
							label = &n.Nodes[i]
						}
					}
					if r == nil || label == nil {
						t.Fatalf("%s: a node without a box or label", name)
					}
					boxes[label.text()] = box{f(r.attr("x")), f(r.attr("y")), f(r.attr("width")), f(r.attr("height"))}
				}
				if n.XMLName.Local == "path" && n.attr("class") == "edge" {
					edges = append(edges, n)
				}
			})
			if !titled {
				t.Errorf("%s: no title", name)
			}
			if len(boxes) != len(g.Nodes) {
				t.Errorf("%s: %d nodes drawn for %d", name, len(boxes), len(g.Nodes))
			}
			for _, h := range g.Nodes {
				if _, ok := boxes[h.String()]; !ok {
					t.Errorf("%s: no node for %s", name, h)
				}
			}
			for a, ba := range boxes {
				for b, bb := range boxes {
					if a < b && ba.x < bb.x+bb.w && bb.x < ba.x+ba.w && ba.y < bb.y+bb.h && bb.y < ba.y+ba.h {
						t.Errorf("%s: boxes %s and %s overlap", name, a, b)
					}
				}
			}
			if len(edges) != len(g.Edges) {
				t.Fatalf("%s: %d edges drawn for %d", name, len(edges), len(g.Edges))
			}
			for i, e := range g.Edges {
				p := edges[i]
				nums := pathNum.FindAllString(p.attr("d"), -1)
				x0, y0 := f(nums[0]), f(nums[1])
				x1, y1 := f(nums[len(nums)-2]), f(nums[len(nums)-1])
				from, to := boxes[g.Nodes[e.From].String()], boxes[g.Nodes[e.To].String()]
				onTop := func(b box, x, y float64) bool { return y == b.y && x >= b.x && x <= b.x+b.w }
				onBottom := func(b box, x, y float64) bool { return y == b.y+b.h && x >= b.x && x <= b.x+b.w }
				// An edge normally runs up from the top of From to the
				// bottom of To; on a cycle, one runs down instead.
				up := onTop(from, x0, y0) && onBottom(to, x1, y1)
				down := onBottom(from, x0, y0) && onTop(to, x1, y1)
				if !up && !down {
					t.Errorf("%s: edge %s → %s runs from (%v,%v) to (%v,%v), not between the boxes %v and %v",
						name, g.Nodes[e.From], g.Nodes[e.To], x0, y0, x1, y1, from, to)
				}
				if p.attr("marker-end") == "" {
					t.Errorf("%s: edge without an arrowhead", name)
				}
			}
		}
	}
}

func TestIsotonic(t *testing.T) {
	for _, tc := range []struct {
		want, sep, got []float64
	}{
		{[]float64{0, 10, 20}, []float64{0, 5, 10}, []float64{0, 10, 20}},   // already apart
		{[]float64{5, 5, 5}, []float64{0, 4, 8}, []float64{1, 5, 9}},        // pushed apart around the mean
		{[]float64{10, 0}, []float64{0, 2}, []float64{4, 6}},                // order kept
		{[]float64{0, 0, 100}, []float64{0, 10, 20}, []float64{-5, 5, 100}}, // only the violators pool
	} {
		got := isotonic(tc.want, tc.sep)
		if fmt.Sprint(got) != fmt.Sprint(tc.got) {
			t.Errorf("isotonic(%v, %v) = %v, want %v", tc.want, tc.sep, got, tc.got)
		}
	}
}

// TestLayoutCrossings: two nodes in the wrong order under their
// successors are swapped, leaving no crossing.
func TestLayoutCrossings(t *testing.T) {
	// 0 → 3, 1 → 2: in index order the edges cross.
	edges := []promote.Edge{{From: 0, To: 3}, {From: 1, To: 2}}
	l := newLayout(4, func(int) float64 { return 5 }, edges, 2, 1)
	if c := l.totalCrossings(); c != 0 {
		t.Errorf("%d crossings left", c)
	}
	// A long edge gets dummies: 0 → 1 → 2 and 0 → 2.
	l = newLayout(3, func(int) float64 { return 5 }, []promote.Edge{{From: 0, To: 1}, {From: 1, To: 2}, {From: 0, To: 2}}, 2, 1)
	if len(l.nodes) != 4 || len(l.paths[2]) != 3 {
		t.Errorf("long edge: %d nodes, path %v", len(l.nodes), l.paths[2])
	}
	// A cycle is broken, not looped on.
	l = newLayout(2, func(int) float64 { return 5 }, []promote.Edge{{From: 0, To: 1}, {From: 1, To: 0}}, 2, 1)
	if l.flipped[0] == l.flipped[1] {
		t.Errorf("cycle: flipped %v", l.flipped)
	}
}

// rightWins is a toy policy whose a + b is b: every pair promotes both
// ways, so its graph has cycles, which the drawings break by drawing some
// edges downwards.
type rightWins struct{}

func (rightWins) Name() string  { return "right" }
func (rightWins) Title() string { return "the right operand wins" }
func (rightWins) DTypes() []dtypes.DType {
	return []dtypes.DType{dtypes.I8, dtypes.I16, dtypes.F32}
}
func (rightWins) Check(d dtypes.DType) (dtypes.DType, string, error) { return d, "", nil }
func (rightWins) Literal(v promote.Scalar) (dtypes.Type, error) {
	return dtypes.Strong(dtypes.I32), nil
}
func (rightWins) ArrayLiteral(k promote.ScalarKind) (dtypes.Type, error) {
	return dtypes.Strong(dtypes.I32), nil
}
func (rightWins) Convert(v promote.Scalar, d dtypes.DType) error { return nil }
func (rightWins) Binary(op promote.BinaryOp, x, y promote.Operand) (promote.Result, error) {
	return promote.Result{Type: y.Type, Compute: y.Type.DType}, nil
}
func (rightWins) Unary(op promote.UnaryOp, x promote.Operand) (promote.Result, error) {
	return promote.Result{Type: x.Type, Compute: x.Type.DType}, nil
}
func (rightWins) Host() promote.Host { return promote.Python }

func TestCyclicGraph(t *testing.T) {
	g := promote.NewGraph(rightWins{}, promote.Where, false)
	if len(g.Edges) != 6 || g.Reduced {
		t.Fatalf("right-wins graph: %d edges, reduced %v", len(g.Edges), g.Reduced)
	}
	s := LatticeText(g, Options{})
	up, down := strings.Count(s, "▲"), strings.Count(s, "▼")
	if up+down != 6 || down == 0 {
		t.Errorf("%d arrowheads up and %d down for 6 edges, some against the layers:\n%s", up, down, s)
	}
	if !strings.Contains(strings.Join(strings.Fields(s), " "), "the relation has cycles, so every edge is shown") {
		t.Errorf("the text does not say the graph has cycles:\n%s", s)
	}
	golden(t, "lattice-cycles.txt", s+"\n")
	root := parseXML(t, LatticeSVG(g))
	paths := 0
	root.walk(func(n *xmlNode) {
		if n.XMLName.Local == "path" && n.attr("class") == "edge" {
			paths++
		}
	})
	if paths != 6 {
		t.Errorf("%d edges drawn in the SVG, want 6", paths)
	}
	// No weak types and no errors: no legend line for them.
	if s := TableText(promote.NewTable(rightWins{}, promote.Add), Options{}); strings.Contains(s, "? weak") || strings.Contains(s, "× error") {
		t.Errorf("the legend explains marks the table does not use:\n%s", s)
	}
}
