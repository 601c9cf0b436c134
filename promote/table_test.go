package promote

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tensorsh/tensorsh/dtypes"
)

func mustLookup(t testing.TB, name string) Policy {
	t.Helper()
	p, err := Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func headerNames(hs []Header) string {
	var s []string
	for _, h := range hs {
		s = append(s, h.String())
	}
	return strings.Join(s, " ")
}

func TestTableHeaders(t *testing.T) {
	for _, tc := range []struct{ policy, want string }{
		// jax: Python bools are strong, so no bool literal row.
		{"jax", "bool i8 i16 i32 i64 u8 u16 u32 u64 f16 bf16 f32 f64 c64 c128 f8e4m3 f8e5m2 i32? f32? c64?"},
		{"jax64", "bool i8 i16 i32 i64 u8 u16 u32 u64 f16 bf16 f32 f64 c64 c128 f8e4m3 f8e5m2 i64? f64? c128?"},
		{"numpy", "bool i8 i16 i32 i64 u8 u16 u32 u64 f16 bf16 f32 f64 c64 c128 f8e4m3 f8e5m2 i64? f64? c128? bool?"},
		// anvil has no complex, and TRUE is a known bool.
		{"anvil", "bool i8 i16 i32 i64 u8 u16 u32 u64 f32 f64 i32? f32?"},
		{"max", "bool i8 i16 i32 i64 u8 u16 u32 u64 index address f16 bf16 f32 tf32 f64 i64? f64? bool?"},
	} {
		tb := NewTable(mustLookup(t, tc.policy), Add)
		if got := headerNames(tb.Headers); got != tc.want {
			t.Errorf("%s headers:\n got %s\nwant %s", tc.policy, got, tc.want)
		}
		if len(tb.Cells) != len(tb.Headers) {
			t.Fatalf("%s: %d rows for %d headers", tc.policy, len(tb.Cells), len(tb.Headers))
		}
		for i, row := range tb.Cells {
			if len(row) != len(tb.Headers) {
				t.Fatalf("%s row %d: %d cells", tc.policy, i, len(row))
			}
		}
		lits := strings.Count(tc.want, "?")
		if tb.Literals() != lits {
			t.Errorf("%s: Literals() = %d, want %d", tc.policy, tb.Literals(), lits)
		}
	}
}

// refsTypeName turns a tensorsh type into the reference's dtype name.
func refsName(ty dtypes.Type) string { return ty.DType.FullName() }

// TestTableAgainstRefs checks tables against the libraries themselves:
// dtype × dtype cells of the promote table (Where) against the pair tables,
// dtype × literal cells of the + table
// against array + Python scalar (the sample literals 1, 1.5, 1j, True are
// values the references have).
func TestTableAgainstRefs(t *testing.T) {
	literalKey := map[ScalarKind]string{IntScalar: "int_1", FloatScalar: "float_1.5", ComplexScalar: "complex_1j", BoolScalar: "bool_true"}
	for _, tc := range []struct{ policy, file, pairs, scalars string }{
		{"jax", "jax_x32", "pairs", "array_scalar"},
		{"jax64", "jax_x64", "pairs", "array_scalar"},
		{"numpy", "numpy", "pairs", "array_scalar"},
		{"numpy1", "numpy1", "pairs", "array_scalar"},
		{"torch", "torch", "pairs", "tensor_scalar"},
		{"triton", "triton", "tensor_tensor", ""},
	} {
		p := mustLookup(t, tc.policy)
		tb := NewTable(p, Add)
		// The pair tables are the libraries' promote_types: tensorsh's
		// promote(a, b), the Where table. (NumPy's ufuncs search their
		// loops where promote_types fails for ml_dtypes' types, so a + b
		// may answer where promote_types raises.)
		pairs := NewTable(p, Where)
		if len(pairs.Headers) != len(tb.Headers) {
			t.Fatalf("%s: the Where and Add tables have different headers", tc.policy)
		}
		at := map[string]Cell{}
		notes := map[string]bool{}
		for i, r := range tb.Headers {
			if r.Note != "" {
				notes[refsName(r.Type)] = true
			}
			for j, c := range tb.Headers {
				if r.IsLiteral() {
					continue
				}
				if c.IsLiteral() {
					at[refsName(r.Type)+","+literalKey[c.Literal.Kind]] = tb.Cells[i][j]
				} else {
					at[refsName(r.Type)+","+refsName(c.Type)] = pairs.Cells[i][j]
				}
			}
		}
		check := func(table string, literal bool) {
			n := 0
			for _, ref := range refsTable(t, tc.file, table) {
				got, ok := at[ref.Key]
				if !ok {
					continue
				}
				if literal && notes[ref.LHS] {
					// jax with x64 off makes the array in 32 bits first,
					// which the table notes instead of applying.
					continue
				}
				n++
				var want dtypes.DType
				if ref.Err == "" {
					if want, ok = refsDType(ref.DType); !ok {
						t.Errorf("%s %s: unknown reference dtype %q", tc.policy, ref.Key, ref.DType)
						continue
					}
				}
				switch {
				case ref.Err != "" && got.Err == nil:
					t.Errorf("%s %s: table has %s, the library raises %s", tc.policy, ref.Key, got, ref.Err)
				case ref.Err == "" && got.Err != nil:
					t.Errorf("%s %s: table has error %v, the library gives %s", tc.policy, ref.Key, got.Err, ref.DType)
				case ref.Err == "" && got.Result.Type.DType != want:
					t.Errorf("%s %s: table has %s, the library gives %s", tc.policy, ref.Key, got, ref.DType)
				case ref.Err == "" && ref.Weak != nil && *ref.Weak != got.Result.Type.Weak:
					t.Errorf("%s %s: table has %s, the library gives weak=%v", tc.policy, ref.Key, got, *ref.Weak)
				}
			}
			// The reference tables were made over NumPy's dtypes: torch's
			// complex32 has no row or column there (its cells as a result
			// are compared).
			nd := len(p.DTypes())
			if numpyHas(p.DTypes(), dtypes.C32) {
				nd--
			}
			want := nd * nd
			if literal {
				want = nd * tb.Literals()
			}
			if literal {
				want -= len(notes) * tb.Literals()
			}
			if n != want {
				t.Errorf("%s: %d cells of %s compared, want %d", tc.policy, n, table, want)
			}
		}
		check(tc.pairs, false)
		if tc.scalars != "" {
			check(tc.scalars, true)
		}
	}
}

func TestTableCells(t *testing.T) {
	tb := NewTable(mustLookup(t, "jax"), Add)
	find := func(s string) int {
		for i, h := range tb.Headers {
			if h.String() == s {
				return i
			}
		}
		t.Fatalf("no header %s", s)
		return -1
	}
	for _, tc := range []struct{ a, b, want string }{
		{"i8", "u8", "i16"},
		{"i8", "i32?", "i8"},     // a weak int takes the known dtype
		{"i8", "f32?", "f32?"},   // a weak float meets a known int: weak f32
		{"i32?", "f32?", "f32?"}, // both weak
		{"f16", "bf16", "f32"},
		{"f8e4m3", "f16", "error"},
	} {
		if got := tb.Cells[find(tc.a)][find(tc.b)].String(); got != tc.want {
			t.Errorf("jax %s + %s = %s, want %s", tc.a, tc.b, got, tc.want)
		}
	}
	if tb.Errors() == 0 {
		t.Error("jax table has no error cells; float8 with float16 should be one")
	}
	// Where and + differ only where + refuses an operand type.
	aa := mustLookup(t, "array-api")
	if c := NewTable(aa, Add).Cells[0][0]; c.Err == nil {
		t.Errorf("array-api bool + bool = %s, want an error", c)
	}
	if c := NewTable(aa, Where).Cells[0][0]; c.String() != "bool" {
		t.Errorf("array-api promote(bool, bool) = %s, want bool", c)
	}
}

func TestCellEqual(t *testing.T) {
	e1, e2 := Cell{Err: fmt.Errorf("a")}, Cell{Err: fmt.Errorf("b")}
	f, fw := Cell{Result: Result{Type: dtypes.Strong(dtypes.F32)}}, Cell{Result: Result{Type: dtypes.Weak(dtypes.F32)}}
	f2 := Cell{Result: Result{Type: dtypes.Strong(dtypes.F32), Rule: "other words"}}
	for _, tc := range []struct {
		a, b Cell
		want bool
	}{
		{e1, e2, true}, {f, f2, true}, {f, fw, false}, {f, e1, false}, {e1, f, false},
	} {
		if got := tc.a.Equal(tc.b); got != tc.want {
			t.Errorf("%v.Equal(%v) = %v", tc.a, tc.b, got)
		}
	}
}

func TestOpExpr(t *testing.T) {
	for _, tc := range []struct {
		op   BinaryOp
		want string
	}{{Add, "a + b"}, {FloorDiv, "a // b"}, {Where, "promote(a, b)"}, {Maximum, "max(a, b)"}, {And, "a and b"}} {
		if got := OpExpr(tc.op, "a", "b"); got != tc.want {
			t.Errorf("OpExpr(%v) = %q, want %q", tc.op, got, tc.want)
		}
	}
}

func TestDiff(t *testing.T) {
	jax, numpy, anvil := mustLookup(t, "jax"), mustLookup(t, "numpy"), mustLookup(t, "anvil")
	if d := NewDiff(jax, jax, Add); d.Count() != 0 || len(d.OnlyP)+len(d.OnlyQ) != 0 {
		t.Errorf("jax against itself: %v, only %v / %v", d, d.OnlyP, d.OnlyQ)
	}

	d := NewDiff(jax, numpy, Add)
	// Shared rows: all 17 dtypes and the int, float and complex literals;
	// numpy's bool literal is weak, jax's is not.
	if got := len(d.Headers); got != 20 {
		t.Errorf("jax/numpy: %d shared rows, want 20", got)
	}
	if headerNames(d.OnlyQ) != "bool?" || len(d.OnlyP) != 0 {
		t.Errorf("jax/numpy left out %q / %q, want nothing / bool?", headerNames(d.OnlyP), headerNames(d.OnlyQ))
	}
	last := d.Headers[len(d.Headers)-1]
	if last.Label != "complex?" {
		t.Errorf("last shared row is %q, want complex?", last.Label)
	}
	// The count is the number of cells where the two answers differ,
	// computed here independently of the Diff's bookkeeping.
	tp, tq := d.P, d.Q
	n := 0
	for _, r := range d.Headers {
		for _, c := range d.Headers {
			a, b := tp.Cells[r.P][c.P], tq.Cells[r.Q][c.Q]
			if a.String() != b.String() {
				n++
			}
		}
	}
	if n != d.Count() || n == 0 {
		t.Errorf("jax/numpy: Count() = %d, cells differing by name: %d", d.Count(), n)
	}
	if back := NewDiff(numpy, jax, Add); back.Count() != d.Count() {
		t.Errorf("diff(numpy, jax) has %d cells, diff(jax, numpy) %d", back.Count(), d.Count())
	}
	// i16 + f16: jax float16 (jnp.promote_types, JAX's docs table), numpy
	// float32. And u64 + i8 is float64 in both (jnp.promote_types
	// gives np.dtype(float) for a join at the weak float), so it is not a
	// differing cell.
	found := false
	for _, c := range d.Cells {
		r, col := d.Headers[c.Row].Label, d.Headers[c.Col].Label
		if r == "u64" && col == "i8" {
			t.Errorf("u64 + i8 differs: jax %s numpy %s, want f64 in both", c.P, c.Q)
		}
		if r == "i16" && col == "f16" {
			found = true
			if c.P.String() != "f16" || c.Q.String() != "f32" {
				t.Errorf("i16 + f16: jax %s numpy %s, want f16 and f32", c.P, c.Q)
			}
			if !d.Differs(c.Row, c.Col) {
				t.Error("Differs is false on a differing cell")
			}
		}
	}
	if !found {
		t.Error("i16 + f16 is not among the differing cells of jax and numpy")
	}
	for _, c := range d.Cells {
		if p, q := d.At(c.Row, c.Col); !p.Equal(c.P) || !q.Equal(c.Q) {
			t.Fatalf("At(%d, %d) disagrees with the cell list", c.Row, c.Col)
		}
	}
	if !strings.HasPrefix(d.String(), "jax and numpy differ in ") {
		t.Errorf("String() = %q", d.String())
	}

	// anvil has fewer dtypes: the ones it lacks are left out, with jax's
	// complex literal.
	da := NewDiff(jax, anvil, Add)
	if got := headerNames(da.OnlyP); got != "f16 bf16 c64 c128 f8e4m3 f8e5m2 c64?" {
		t.Errorf("jax/anvil left out %q", got)
	}
}

// jaxDocsTable is JAX's type promotion table as its documentation gives it
// (https://docs.jax.dev/en/latest/type_promotion.html, "the result of
// jax.numpy.promote_types for each pair of types"; the product's seed 003),
// in JAX's short names: each row is a dtype, then its promotion with each
// column, the columns in the rows' order (b1 u1 u2 … c4 c8).
var jaxDocsTable = []string{
	"b1 b1 u1 u2 u4 u8 i1 i2 i4 i8 bf f2 f4 f8 c4 c8",
	"u1 u1 u1 u2 u4 u8 i2 i2 i4 i8 bf f2 f4 f8 c4 c8",
	"u2 u2 u2 u2 u4 u8 i4 i4 i4 i8 bf f2 f4 f8 c4 c8",
	"u4 u4 u4 u4 u4 u8 i8 i8 i8 i8 bf f2 f4 f8 c4 c8",
	"u8 u8 u8 u8 u8 u8 f8 f8 f8 f8 bf f2 f4 f8 c4 c8",
	"i1 i1 i2 i4 i8 f8 i1 i2 i4 i8 bf f2 f4 f8 c4 c8",
	"i2 i2 i2 i4 i8 f8 i2 i2 i4 i8 bf f2 f4 f8 c4 c8",
	"i4 i4 i4 i4 i8 f8 i4 i4 i4 i8 bf f2 f4 f8 c4 c8",
	"i8 i8 i8 i8 i8 f8 i8 i8 i8 i8 bf f2 f4 f8 c4 c8",
	"bf bf bf bf bf bf bf bf bf bf bf f4 f4 f8 c4 c8",
	"f2 f2 f2 f2 f2 f2 f2 f2 f2 f2 f4 f2 f4 f8 c4 c8",
	"f4 f4 f4 f4 f4 f4 f4 f4 f4 f4 f4 f4 f4 f8 c4 c8",
	"f8 f8 f8 f8 f8 f8 f8 f8 f8 f8 f8 f8 f8 f8 c8 c8",
	"c4 c4 c4 c4 c4 c4 c4 c4 c4 c4 c4 c4 c4 c8 c4 c8",
	"c8 c8 c8 c8 c8 c8 c8 c8 c8 c8 c8 c8 c8 c8 c8 c8",
}

// TestJAXTableIsTheDocsTable checks that table() under jax64 prints the
// docs' table cell for cell, and under jax (x64 off) too except the cells
// where jax 0.11.2's promote_types with x64 off has uint32 below int32
// (refs/jax_x32.json, pairs: uint32,int8 is int32), which are exactly the
// ones its Note names; the x64-off table marks (Arrays) the cells whose
// values are made 32-bit.
func TestJAXTableIsTheDocsTable(t *testing.T) {
	short := map[string]dtypes.DType{
		"b1": dtypes.Bool, "u1": dtypes.U8, "u2": dtypes.U16, "u4": dtypes.U32, "u8": dtypes.U64,
		"i1": dtypes.I8, "i2": dtypes.I16, "i4": dtypes.I32, "i8": dtypes.I64,
		"bf": dtypes.BF16, "f2": dtypes.F16, "f4": dtypes.F32, "f8": dtypes.F64, "c4": dtypes.C64, "c8": dtypes.C128,
	}
	cols := []string{"b1", "u1", "u2", "u4", "u8", "i1", "i2", "i4", "i8", "bf", "f2", "f4", "f8", "c4", "c8"}
	for _, name := range []string{"jax64", "jax"} {
		tb := NewTable(mustLookup(t, name), Add)
		at := map[[2]dtypes.DType]Cell{}
		for i, r := range tb.Headers {
			for j, c := range tb.Headers {
				if !r.IsLiteral() && !c.IsLiteral() {
					at[[2]dtypes.DType{r.Type.DType, c.Type.DType}] = tb.Cells[i][j]
				}
			}
		}
		differ := 0
		for _, row := range jaxDocsTable {
			f := strings.Fields(row)
			for j, want := range f[1:] {
				a, b := short[f[0]], short[cols[j]]
				c := at[[2]dtypes.DType{a, b}]
				got := c.String()
				if got == short[want].String() {
					continue
				}
				x32Lattice := name == "jax" && (a == dtypes.U32 && b.IsSigned() && b.Bits() <= 32 || b == dtypes.U32 && a.IsSigned() && a.Bits() <= 32)
				if x32Lattice && got == "i32" {
					differ++
					continue
				}
				t.Errorf("%s: table cell %s + %s = %s, JAX's docs say %s", name, a, b, got, short[want])
			}
		}
		if name == "jax" && (differ != 6 || !strings.Contains(tb.Note, "u32 with i8, i16 or i32 is i32")) {
			t.Errorf("jax: %d cells differ from the docs by the x64-off lattice, want 6; note %q", differ, tb.Note)
		}
		narrowed := tb.Narrowed()
		if name == "jax64" && narrowed != 0 || name == "jax" && narrowed == 0 {
			t.Errorf("%s: %d cells marked as made 32-bit", name, narrowed)
		}
	}
	// The marks say what values give: i8 with u64 is f64 in the table
	// (promote_types) and i32 for values (uint64 is made uint32).
	tb := NewTable(mustLookup(t, "jax"), Add)
	for i, r := range tb.Headers {
		for j, c := range tb.Headers {
			if r.String() == "i8" && c.String() == "u64" {
				cell := tb.Cells[i][j]
				if cell.String() != "f64" || cell.Arrays == nil || cell.Arrays.String() != "i32" {
					t.Errorf("jax: i8 + u64 cell %s, arrays %v; want f64 marked i32", cell, cell.Arrays)
				}
			}
		}
	}
}

// TestDiffValues checks the value cells of a diff: NEP 50 (numpy) against
// NumPy 1's value-based promotion (numpy1), whose dtype tables agree but
// whose answers for an array and a given value do not (refs/numpy1.json
// array_scalar: uint8 + 300 is uint16; refs/numpy.json: an error).
func TestDiffValues(t *testing.T) {
	np1, _ := Lookup("numpy1")
	np2, _ := Lookup("numpy")
	d := NewDiff(np1, np2, Add)
	if d.Count() != 0 {
		t.Errorf("numpy1 and numpy dtype tables differ in %d cells, want 0", d.Count())
	}
	if d.ValueCount == 0 || len(d.Values) == 0 {
		t.Fatalf("no value cells: %d compared, %d differ", d.ValueCount, len(d.Values))
	}
	found := map[string]ValueCell{}
	for _, c := range d.Values {
		found[c.Row.String()+" + "+c.Probe.String()] = c
	}
	u8300, ok := found["u8 + 300"]
	if !ok || u8300.P.Err != nil || u8300.P.Result.Type.DType != dtypes.U16 || u8300.Q.Err == nil || !u8300.PByValue {
		t.Errorf("u8 + 300: %+v (found %v), want numpy1 u16 by value, numpy an error", u8300, ok)
	}
	if c, ok := found["u8 + i64(1)"]; !ok || c.P.Result.Type.DType != dtypes.U8 || c.Q.Result.Type.DType != dtypes.I64 {
		t.Errorf("u8 + a 0-d int64: %+v (found %v), want numpy1 u8, numpy i64", c, ok)
	}
	if _, ok := found["u8 + 1"]; ok {
		t.Errorf("u8 + 1 is u8 in both, but it is listed")
	}
	// A policy against itself differs nowhere.
	if same := NewDiff(np2, np2, Add); len(same.Values) != 0 {
		t.Errorf("numpy against numpy: %d value cells differ", len(same.Values))
	}
}
