package promote

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/tensorsh/tensorsh/dtypes"
)

// edgeList writes a graph's edges as "a→b" in a sorted, space-separated
// list.
func edgeList(g *Graph) string {
	var s []string
	for _, e := range g.Edges {
		s = append(s, g.Nodes[e.From].String()+"→"+g.Nodes[e.To].String())
	}
	sort.Strings(s)
	return strings.Join(s, " ")
}

// TestMAXHasse checks that the Hasse diagram of the MAX join is the
// lattice's coded edges (research/max.md §1.1) less the two that longer
// paths imply: f16 → f32 (through bf16) and f32 → f64 (through tf32).
func TestMAXHasse(t *testing.T) {
	g := NewGraph(mustLookup(t, "max"), Where, false)
	if g.Kind != Semilattice || !g.Reduced || g.Why != "" {
		t.Fatalf("max: kind %v reduced %v why %q, want a semilattice", g.Kind, g.Reduced, g.Why)
	}
	if g.Lattice {
		t.Error("max has three minimal dtypes (bool, index, address), so no least element; Lattice is true")
	}
	var want []string
	for from, tos := range maxEdges {
		for _, to := range tos {
			if (from == dtypes.F16 && to == dtypes.F32) || (from == dtypes.F32 && to == dtypes.F64) {
				continue
			}
			want = append(want, from.String()+"→"+to.String())
		}
	}
	sort.Strings(want)
	if got := edgeList(g); got != strings.Join(want, " ") {
		t.Errorf("max Hasse diagram:\n got %s\nwant %s", got, strings.Join(want, " "))
	}
	var min []string
	for _, i := range g.Minimal {
		min = append(min, g.Nodes[i].String())
	}
	if strings.Join(min, " ") != "bool index address" {
		t.Errorf("max minimal elements %v", min)
	}
	if d := g.Describe(); !strings.Contains(d, "join-semilattice with minimal elements bool, index, address") {
		t.Errorf("Describe() = %q", d)
	}
	if got := fmt.Sprint(g.Succ(0)); got != "[1 5]" { // bool → i8, u8
		t.Errorf("Succ(bool) = %s", got)
	}
}

// TestAnvilHasse checks anvil's known × known table (research/anvil.md §1),
// which is a lattice with least element bool; its literal types join in
// too.
func TestAnvilHasse(t *testing.T) {
	g := NewGraph(mustLookup(t, "anvil"), Where, false)
	want := "bool→i8 bool→u8 f32→f64 i16→i32 i32→i64 i64→f32 i8→i16 u16→i32 u16→u32 u32→u64 u64→i64 u8→i16 u8→u16"
	if g.Kind != Semilattice || !g.Lattice {
		t.Fatalf("anvil: kind %v lattice %v (%s)", g.Kind, g.Lattice, g.Why)
	}
	if got := edgeList(g); got != want {
		t.Errorf("anvil Hasse diagram:\n got %s\nwant %s", got, want)
	}
	if !strings.Contains(g.Describe(), "a lattice with least element bool") {
		t.Errorf("Describe() = %q", g.Describe())
	}
	// With the literals: an ambiguous int gives way to every known dtype
	// but bool, and an ambiguous float sits above every integer and below
	// f32.
	gl := NewGraph(mustLookup(t, "anvil"), Where, true)
	if gl.Kind != Semilattice {
		t.Fatalf("anvil with literals: %s", gl.Why)
	}
	got := edgeList(gl)
	for _, e := range []string{"bool→i32?", "i32?→i8", "i32?→u8", "i64→f32?", "f32?→f32"} {
		if !strings.Contains(" "+got+" ", " "+e+" ") {
			t.Errorf("anvil with literals lacks %s: %s", e, got)
		}
	}
}

func TestPromotesTo(t *testing.T) {
	g := NewGraph(mustLookup(t, "numpy"), Where, false)
	if g.Kind != PromotesTo || !g.Reduced {
		t.Fatalf("numpy: kind %v reduced %v", g.Kind, g.Reduced)
	}
	// ml_dtypes gives int16 and bfloat16 no common dtype.
	if want := "promote(i16, bf16) is an error"; !strings.Contains(g.Why, want) {
		t.Errorf("numpy Why = %q, want it to contain %q", g.Why, want)
	}
	got := " " + edgeList(g) + " "
	for _, e := range []string{"bool→i8", "bool→u8", "u8→i16", "f16→f32", "bf16→f32", "f32→c64", "f64→c128"} {
		if !strings.Contains(got, " "+e+" ") {
			t.Errorf("numpy graph lacks %s:%s", e, got)
		}
	}
	// Reduced: bool → i16 follows from bool → i8 → i16.
	if strings.Contains(got, " bool→i16 ") {
		t.Errorf("numpy graph keeps the implied edge bool→i16:%s", got)
	}

	// The first law that fails is named.
	for _, tc := range []struct{ policy, why string }{
		{"numpy1", "not associative"},
		{"array-api", "promote(bool, i8) is an error: mixing bool and int8"},
	} {
		g := NewGraph(mustLookup(t, tc.policy), Where, false)
		if g.Kind != PromotesTo || !strings.Contains(g.Why, tc.why) {
			t.Errorf("%s: kind %v, Why %q, want %q", tc.policy, g.Kind, g.Why, tc.why)
		}
		if !strings.HasPrefix(g.Describe(), "not a lattice: the promotion is not a join (") {
			t.Errorf("%s: Describe() = %q", tc.policy, g.Describe())
		}
	}
}

// TestGraphMLXJuliaC draws the three relations of issue 18. C's usual
// arithmetic conversions are no join: _Float16 with __bf16 has no common
// type, and i8 + i8 is an int (C17 §6.3.1.1, the integer promotions). MLX's
// type_rules (mlx/dtype.cpp) are not associative: (i8 + u64) + f16 is f32
// but i8 + (u64 + f16) is f16. Julia's promote_type (base/int.jl,
// base/float.jl, base/bool.jl, base/complex.jl) is a lattice: the integers
// form a chain by width, unsigned above signed at each width, below the
// floats; its + is not idempotent (Bool + Bool is Int64).
func TestGraphMLXJuliaC(t *testing.T) {
	for _, tc := range []struct {
		policy string
		op     BinaryOp
		kind   GraphKind
		why    string
		edges  []string
	}{
		{"c", Where, PromotesTo, "promote(f16, bf16) is an error", []string{"i8→i32", "u16→i32", "i32→u32", "u32→i64", "i64→u64", "u64→f16", "u64→bf16", "f16→f32", "bf16→f32"}},
		{"c", Add, PromotesTo, "", nil},
		{"mlx", Where, PromotesTo, "not associative", []string{"bool→i8", "u64→f16", "u64→bf16", "f16→f32", "f32→f64", "f64→c64"}},
		{"julia", Where, Semilattice, "", []string{"bool→i8", "i8→u8", "u8→i16", "u32→i64", "i64→u64", "u64→f16", "f16→f32", "f32→c64", "f64→c128", "c64→c128"}},
		{"julia", Add, PromotesTo, "bool + bool = i64", nil},
	} {
		g := NewGraph(mustLookup(t, tc.policy), tc.op, false)
		if g.Kind != tc.kind || !strings.Contains(g.Why, tc.why) {
			t.Errorf("%s %s: kind %v, Why %q; want %v, %q", tc.policy, tc.op, g.Kind, g.Why, tc.kind, tc.why)
		}
		if tc.kind == PromotesTo && !strings.HasPrefix(g.Describe(), "not a lattice") {
			t.Errorf("%s %s: Describe() = %q does not say it is not a lattice", tc.policy, tc.op, g.Describe())
		}
		if tc.kind == Semilattice && !g.Lattice {
			t.Errorf("%s %s: a semilattice without a least element", tc.policy, tc.op)
		}
		got := " " + edgeList(g) + " "
		for _, e := range tc.edges {
			if !strings.Contains(got, " "+e+" ") {
				t.Errorf("%s %s graph lacks %s:%s", tc.policy, tc.op, e, got)
			}
		}
	}
}

// A toyPolicy answers every binary operation with join; it is enough for
// tables and graphs.
type toyPolicy struct {
	name string
	set  []dtypes.DType
	join func(a, b dtypes.DType) (dtypes.DType, error)
}

func (p toyPolicy) Name() string                                       { return p.name }
func (p toyPolicy) Title() string                                      { return "toy " + p.name }
func (p toyPolicy) DTypes() []dtypes.DType                             { return p.set }
func (p toyPolicy) Check(d dtypes.DType) (dtypes.DType, string, error) { return d, "", nil }
func (p toyPolicy) Literal(v Scalar) (dtypes.Type, error)              { return dtypes.Strong(dtypes.I32), nil }
func (p toyPolicy) ArrayLiteral(k ScalarKind) (dtypes.Type, error) {
	return dtypes.Strong(dtypes.I32), nil
}
func (p toyPolicy) Convert(v Scalar, d dtypes.DType) error { return nil }
func (p toyPolicy) Binary(op BinaryOp, x, y Operand) (Result, error) {
	d, err := p.join(x.Type.DType, y.Type.DType)
	return Result{Type: dtypes.Strong(d), Compute: d}, err
}
func (p toyPolicy) Unary(op UnaryOp, x Operand) (Result, error) {
	return Result{Type: x.Type, Compute: x.Type.DType}, nil
}
func (p toyPolicy) Host() Host { return Python }

func TestGraphLaws(t *testing.T) {
	set := []dtypes.DType{dtypes.I8, dtypes.I16, dtypes.I32}
	rank := func(d dtypes.DType) int { return d.Bits() }
	for _, tc := range []struct {
		name  string
		join  func(a, b dtypes.DType) (dtypes.DType, error)
		kind  GraphKind
		why   string
		edges string
	}{
		{"chain", func(a, b dtypes.DType) (dtypes.DType, error) {
			if rank(a) > rank(b) {
				return a, nil
			}
			return b, nil
		}, Semilattice, "", "i16→i32 i8→i16"},
		{"right", func(a, b dtypes.DType) (dtypes.DType, error) { return b, nil },
			PromotesTo, "i8 + i16 = i16 but i16 + i8 = i8: not commutative",
			// Every pair promotes both ways: a cycle, so nothing is left out.
			"i16→i32 i16→i8 i32→i16 i32→i8 i8→i16 i8→i32"},
		{"c-like", func(a, b dtypes.DType) (dtypes.DType, error) { return dtypes.I32, nil },
			PromotesTo, "i8 + i8 = i32: not idempotent", "i16→i32 i8→i32"},
		{"partial", func(a, b dtypes.DType) (dtypes.DType, error) {
			if a != b && (a == dtypes.I8 || b == dtypes.I8) {
				return 0, errors.New("no")
			}
			if rank(a) > rank(b) {
				return a, nil
			}
			return b, nil
		}, PromotesTo, "i8 + i16 is an error: no", "i16→i32"},
		{"outside", func(a, b dtypes.DType) (dtypes.DType, error) {
			if a != b {
				return dtypes.F64, nil
			}
			return a, nil
		}, PromotesTo, "i8 + i16 = f64, which is not one of the nodes", ""},
	} {
		g := NewGraph(toyPolicy{tc.name, set, tc.join}, Add, false)
		if g.Kind != tc.kind || g.Why != tc.why {
			t.Errorf("%s: kind %v why %q, want %v %q", tc.name, g.Kind, g.Why, tc.kind, tc.why)
		}
		if got := edgeList(g); got != tc.edges {
			t.Errorf("%s: edges %q, want %q", tc.name, got, tc.edges)
		}
		if tc.name == "right" && (g.Reduced || !strings.Contains(g.Describe(), "cycles")) {
			t.Errorf("right: Reduced %v, Describe %q", g.Reduced, g.Describe())
		}
		if tc.name == "chain" && !g.Lattice {
			t.Error("chain: a chain with a least element is a lattice")
		}
	}
}

func TestGraphKindString(t *testing.T) {
	if Semilattice.String() != "semilattice" || PromotesTo.String() != "promotes-to" {
		t.Errorf("kinds: %s, %s", Semilattice, PromotesTo)
	}
}

func TestGraphAssociativity(t *testing.T) {
	// Commutative and idempotent, but (i8 + i16) + i32 ≠ i8 + (i16 + i32).
	set := []dtypes.DType{dtypes.I8, dtypes.I16, dtypes.I32}
	tbl := map[[2]dtypes.DType]dtypes.DType{
		{dtypes.I8, dtypes.I16}: dtypes.I16, {dtypes.I16, dtypes.I32}: dtypes.I32, {dtypes.I8, dtypes.I32}: dtypes.I8,
	}
	join := func(a, b dtypes.DType) (dtypes.DType, error) {
		if a == b {
			return a, nil
		}
		if d, ok := tbl[[2]dtypes.DType{a, b}]; ok {
			return d, nil
		}
		return tbl[[2]dtypes.DType{b, a}], nil
	}
	g := NewGraph(toyPolicy{"rock", set, join}, Add, false)
	if !strings.HasSuffix(g.Why, "not associative") || !strings.HasPrefix(g.Why, "(i8 + i16) + i32 = i32 but i8 + (i16 + i32)") {
		t.Errorf("Why = %q", g.Why)
	}
	// i8 → i16 → i32 → i8 is a cycle.
	if g.Reduced {
		t.Error("a cyclic relation was reduced")
	}
}

// TestJAXDocLattice checks that lattice("jax") and lattice("jax64") draw
// JAX's documented lattice (jax/_src/dtypes.py, _type_promotion_lattice
// with x64 on; the diagram of JAX's type promotion docs,
// https://docs.jax.dev/en/latest/type_promotion.html: b1 → i* → u8, i8;
// u64, i64 → f*; f* → bf16, f16, c*), the same for both, with what x64 off
// changes stated beside it.
func TestJAXDocLattice(t *testing.T) {
	var edges [2]string
	for i, name := range []string{"jax", "jax64"} {
		for _, lits := range []bool{false, true} {
			g := NewGraph(mustLookup(t, name), Where, lits)
			if g.Kind != Documented || len(g.Minimal) != 1 || g.Nodes[g.Minimal[0]].String() != "bool" {
				t.Fatalf("%s: kind %v, minimal %v", name, g.Kind, g.Minimal)
			}
			edges[i] = " " + edgeList(g) + " "
		}
		for _, e := range []string{"bool→i*", "i*→i8", "i*→u8", "u8→i16", "u8→u16", "u32→i64", "u32→u64", "u64→f*", "i64→f*", "f*→bf16", "f*→f16", "f*→c*", "c*→c64", "bf16→f32", "f16→f32", "f32→c64", "f32→f64", "f64→c128", "c64→c128"} {
			if !strings.Contains(edges[i], " "+e+" ") {
				t.Errorf("%s lattice lacks %s:%s", name, e, edges[i])
			}
		}
		for _, e := range []string{"u32→i32", "bool→i8", "i8→i32"} {
			if strings.Contains(edges[i], " "+e+" ") {
				t.Errorf("%s lattice has %s:%s", name, e, edges[i])
			}
		}
		d := NewGraph(mustLookup(t, name), Where, false).Describe()
		if !strings.Contains(d, "uint32 sits below int32") || !strings.Contains(d, "x64 off") {
			t.Errorf("%s: the lattice does not state what x64 off changes: %q", name, d)
		}
	}
	if edges[0] != edges[1] {
		t.Errorf("jax and jax64 lattices differ:\n%s\n%s", edges[0], edges[1])
	}
}
