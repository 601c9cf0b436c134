package promote

import (
	"fmt"
	"math/big"

	"github.com/tensorsh/tensorsh/dtypes"
)

// Promotion tables for the teaching tools table() and diff(): a policy's
// answer for one binary operation over all pairs of its dtypes, and the
// cells where two policies answer differently. They are pure data;
// internal/teach renders them.

// A Header is a row (and the column of the same index) of a Table: a dtype,
// or the weak type a policy gives a literal.
type Header struct {
	// Type is the dtype (strong), or the literal's weak type ("i32?" for
	// the int literal under jax).
	Type dtypes.Type
	// Literal is the sample value of a literal row, nil for a dtype row.
	Literal *Scalar
	// Note is the policy's warning for values of this dtype (jax with x64
	// off: "int64 is not available with x64 off: using int32"). The table
	// shows the dtype's promotions as the policy defines them (as
	// jnp.promote_types does); the note says that values of it are made
	// in another dtype.
	Note string
	// Label, when set, is the row's name instead of its type (a node of a
	// documented lattice that is no dtype: JAX's "f*", Python's float).
	Label string
}

// sampleLiterals are the values that stand for each literal kind in a
// table: the weak rows are what a policy does with `x + 1`, `x + 1.5`,
// `x + 1j` and `x + true`. Policies that decide by value (numpy1's
// value-based casting, the NEP 50 range check) answer for these values.
var sampleLiterals = []Scalar{
	IntValue(big.NewInt(1)),
	FloatValue(1.5),
	ComplexValue(1i),
	BoolValue(true),
}

// IsLiteral reports whether h is a literal row.
func (h Header) IsLiteral() bool { return h.Literal != nil }

// String returns the row's label: the dtype ("i8") or the literal's weak
// type ("i32?").
func (h Header) String() string {
	if h.Label != "" {
		return h.Label
	}
	return h.Type.String()
}

// KindLabel returns the label a literal row has in a Diff, where the two
// policies may give the literal different types: "int?", "float?",
// "complex?" or "bool?". For a dtype row it is the dtype's name.
func (h Header) KindLabel() string {
	if h.Literal == nil {
		return h.Type.String()
	}
	return h.Literal.Kind.String() + "?"
}

// Operand returns the operand the row stands for: a rank-1 tensor of the
// dtype, or the sample literal.
func (h Header) Operand() Operand {
	if h.Literal == nil {
		return Operand{Type: h.Type, Rank: 1}
	}
	v := *h.Literal
	return Operand{Type: h.Type, Literal: true, Value: &v}
}

// A Cell is one answer of a policy: a result or an error.
type Cell struct {
	Result Result
	Err    error
	// Arrays, when set, is the type that values of the row's and the
	// column's dtypes actually give, where it is another dtype than Result:
	// under JAX with x64 off the table shows jnp.promote_types, 64-bit
	// dtypes included, but arrays are made 32-bit (Check), and so is what
	// they give.
	Arrays *dtypes.Type
}

// String returns the result type ("f32?"), or "error".
func (c Cell) String() string {
	if c.Err != nil {
		return "error"
	}
	return c.Result.Type.String()
}

// Equal reports whether c and d give the same answer: both errors, or the
// same result dtype and weakness. Rules and messages are not compared.
func (c Cell) Equal(d Cell) bool {
	if (c.Err != nil) != (d.Err != nil) {
		return false
	}
	return c.Err != nil || c.Result.Type == d.Result.Type
}

// A Table is a policy's promotion table for one binary operation: Cells[i][j]
// is Headers[i] op Headers[j] (row on the left).
type Table struct {
	Policy  Policy
	Op      BinaryOp
	Headers []Header
	Cells   [][]Cell
	// Note says how the table relates to the library's documented one,
	// when the policy has its own promote_types (TypesPolicy).
	Note string
}

// NewTable computes the promotion table of op under p over p's dtypes,
// followed by a row for each literal kind (int, float, complex, bool) to
// which p gives a weak type. Dtype rows are rank-1 tensors, so policies
// that treat 0-d values specially answer for arrays.
func NewTable(p Policy, op BinaryOp) *Table {
	t := &Table{Policy: p, Op: op}
	for _, d := range p.DTypes() {
		h := Header{Type: dtypes.Strong(d)}
		if _, warn, err := p.Check(d); err == nil {
			h.Note = warn
		}
		t.Headers = append(t.Headers, h)
	}
	for _, v := range sampleLiterals {
		ty, err := p.Literal(v)
		if err != nil || !ty.Weak {
			continue
		}
		v := v
		t.Headers = append(t.Headers, Header{Type: ty, Literal: &v})
	}
	// A library whose promote_types differs from what its arrays give
	// (TypesPolicy: JAX) has its promote_types in the dtype cells of the
	// plain promotion, as its documentation's table does, and each cell
	// notes what arrays give when that is another dtype.
	tp, types := p.(TypesPolicy)
	types = types && (op == Add || op == Where)
	if types {
		t.Note = tp.TypesNote()
	}
	t.Cells = make([][]Cell, len(t.Headers))
	for i, h := range t.Headers {
		t.Cells[i] = make([]Cell, len(t.Headers))
		for j, k := range t.Headers {
			var c Cell
			if types && !h.IsLiteral() && !k.IsLiteral() {
				c.Result, c.Err = tp.PromoteTypes([]Operand{h.Operand(), k.Operand()})
			} else {
				c.Result, c.Err = p.Binary(op, h.Operand(), k.Operand())
			}
			if types && c.Err == nil {
				c.Arrays = arraysType(p, op, h, k, c.Result.Type)
			}
			t.Cells[i][j] = c
		}
	}
	return t
}

// arraysType is the type that values of h's and k's types give when they
// are made through p.Check (truncated to 32 bits by JAX with x64 off), or
// nil when that is the dtype want already has.
func arraysType(p Policy, op BinaryOp, h, k Header, want dtypes.Type) *dtypes.Type {
	made := func(h Header) Operand {
		o := h.Operand()
		if !o.Literal {
			if d, _, err := p.Check(o.Type.DType); err == nil {
				o.Type.DType = d
			}
		}
		return o
	}
	a, b := made(h), made(k)
	var r Result
	var err error
	if a.Literal || b.Literal {
		r, err = p.Binary(op, a, b)
	} else {
		r, err = ResultType(p, a, b)
	}
	if err != nil || r.Type.DType == want.DType {
		return nil
	}
	return &r.Type
}

// Narrowed returns the number of cells with an Arrays type.
func (t *Table) Narrowed() int {
	n := 0
	for _, row := range t.Cells {
		for _, c := range row {
			if c.Arrays != nil {
				n++
			}
		}
	}
	return n
}

// Literals returns the number of literal rows (they come last).
func (t *Table) Literals() int {
	n := 0
	for _, h := range t.Headers {
		if h.IsLiteral() {
			n++
		}
	}
	return n
}

// Errors returns the number of cells that are errors.
func (t *Table) Errors() int {
	n := 0
	for _, row := range t.Cells {
		for _, c := range row {
			if c.Err != nil {
				n++
			}
		}
	}
	return n
}

// OpExpr writes op applied to a and b the way tensorsh's language does:
// "a + b", "max(a, b)", and "promote(a, b)" for Where, whose result is the
// plain promotion of its two value operands.
func OpExpr(op BinaryOp, a, b string) string {
	switch op {
	case Where:
		return "promote(" + a + ", " + b + ")"
	case Maximum, Minimum, Clip:
		return op.String() + "(" + a + ", " + b + ")"
	}
	return a + " " + op.String() + " " + b
}

// A Diff holds the cells where two policies' promotion tables differ.
// It compares the rows both tables have: the dtypes of both policies, and
// the literal kinds both give a weak type (matched by kind, as the two may
// give the literal different dtypes).
type Diff struct {
	P, Q *Table
	// Headers are the shared rows (and columns), in P's order.
	Headers []DiffHeader
	// Cells are the differing cells, row by row.
	Cells []DiffCell
	// OnlyP and OnlyQ are the rows of one table only, left out of the
	// comparison.
	OnlyP, OnlyQ []Header
	// Values are the cells, beyond the table, where a value decides: an
	// array of a shared dtype meeting a Python scalar or a 0-d array of
	// a given value (the probes of refs/numpy1.json: u8 + 300, f32 +
	// 1e300, i8 + a 0-d float64), kept where the policies differ and
	// the table does not show it already: a 0-d array, or a scalar whose
	// answer depends on its value under one of the policies. ValueCount
	// is how many were compared.
	Values     []ValueCell
	ValueCount int
}

// A ValueCell is an array of dtype Row meeting Probe, where the policies
// differ. PByValue (QByValue) reports that P's (Q's) answer for this row
// and kind of value changes with the value.
type ValueCell struct {
	Row                dtypes.DType
	Probe              ValueProbe
	P, Q               Cell
	PByValue, QByValue bool
}

// A ValueProbe is the right operand of a value cell: a Python scalar of
// Value, or a 0-d array of dtype ZeroDim holding Value when ZeroDim is
// not Invalid.
type ValueProbe struct {
	Value   Scalar
	ZeroDim dtypes.DType
}

// String returns the probe as tensorsh writes it: "300", "f64(1e+300)".
func (v ValueProbe) String() string {
	if v.ZeroDim == dtypes.Invalid {
		return v.Value.String()
	}
	return v.ZeroDim.String() + "(" + v.Value.String() + ")"
}

// operand returns the probe as a policy sees it (typed by p when it is a
// literal), or false when p has no type for it.
func (v ValueProbe) operand(p Policy) (Operand, bool) {
	val := v.Value
	if v.ZeroDim != dtypes.Invalid {
		return Operand{Type: dtypes.Strong(v.ZeroDim), Rank: 0, Value: &val}, true
	}
	t, err := p.Literal(val)
	if err != nil {
		return Operand{}, false
	}
	return Operand{Type: t, Literal: true, Value: &val}, true
}

// valueProbes are the values of refs/numpy1.json's array_scalar table
// (Python scalars whose value NumPy 1 looked at) and 0-d arrays of its
// scalar_scalar_arrays table, where NEP 50 changed the answers.
var valueProbes = func() []ValueProbe {
	i := func(s string) Scalar { v, _ := new(big.Int).SetString(s, 10); return IntValue(v) }
	return []ValueProbe{
		{Value: i("1")}, {Value: i("300")}, {Value: i("-1")}, {Value: i("2147483648")},
		{Value: i("1099511627776")}, {Value: i("9223372036854775808")},
		{Value: FloatValue(1.5)}, {Value: FloatValue(1e300)},
		{Value: ComplexValue(1i)}, {Value: BoolValue(true)},
		{Value: i("1"), ZeroDim: dtypes.I64}, {Value: FloatValue(1), ZeroDim: dtypes.F64},
		{Value: FloatValue(1e300), ZeroDim: dtypes.F64}, {Value: ComplexValue(1), ZeroDim: dtypes.C128},
	}
}()

// A DiffHeader is a row of a Diff: its label (a dtype, or "int?" for the
// int literal) and its index in each table.
type DiffHeader struct {
	Label string
	P, Q  int
}

// A DiffCell is a cell of a Diff where the two policies differ.
type DiffCell struct {
	// Row and Col index Diff.Headers.
	Row, Col int
	P, Q     Cell
}

// NewDiff compares the promotion tables of op under p and q, and the
// value cells (see Diff.Values).
func NewDiff(p, q Policy, op BinaryOp) *Diff {
	d := DiffTables(NewTable(p, op), NewTable(q, op))
	d.compareValues(op)
	return d
}

// compareValues fills d.Values: every shared dtype row against every
// probe both policies can type.
func (d *Diff) compareValues(op BinaryOp) {
	p, q := d.P.Policy, d.Q.Policy
	for _, h := range d.Headers {
		row := d.P.Headers[h.P]
		if row.IsLiteral() {
			continue
		}
		x := Operand{Type: row.Type, Rank: 1}
		type answer struct{ p, q Cell }
		var cells []ValueCell
		byKind := map[ScalarKind][]answer{}
		for _, v := range valueProbes {
			yp, okp := v.operand(p)
			yq, okq := v.operand(q)
			if !okp || !okq || !inSet(p, v.ZeroDim) || !inSet(q, v.ZeroDim) {
				continue
			}
			var c ValueCell
			c.Row, c.Probe = row.Type.DType, v
			c.P.Result, c.P.Err = p.Binary(op, x, yp)
			c.Q.Result, c.Q.Err = q.Binary(op, x, yq)
			d.ValueCount++
			k := v.Value.Kind
			if v.ZeroDim != dtypes.Invalid {
				k += 10 // 0-d arrays are a kind of their own
			}
			byKind[k] = append(byKind[k], answer{c.P, c.Q})
			if !c.P.Equal(c.Q) {
				cells = append(cells, c)
			}
		}
		for _, c := range cells {
			k := c.Probe.Value.Kind
			if c.Probe.ZeroDim != dtypes.Invalid {
				k += 10
			}
			for _, a := range byKind[k] {
				c.PByValue = c.PByValue || !a.p.Equal(c.P)
				c.QByValue = c.QByValue || !a.q.Equal(c.Q)
			}
			// A Python scalar whose answer no value changes is the
			// literal row of the type table already.
			if c.PByValue || c.QByValue || c.Probe.ZeroDim != dtypes.Invalid {
				d.Values = append(d.Values, c)
			}
		}
	}
}

// inSet reports whether p has dtype d (true for Invalid: no 0-d array).
func inSet(p Policy, d dtypes.DType) bool {
	if d == dtypes.Invalid {
		return true
	}
	for _, e := range p.DTypes() {
		if e == d {
			return true
		}
	}
	return false
}

// DiffTables compares two tables of the same operation.
func DiffTables(tp, tq *Table) *Diff {
	d := &Diff{P: tp, Q: tq}
	key := func(h Header) string {
		if h.Literal != nil {
			return "literal " + h.Literal.Kind.String()
		}
		return h.Type.String()
	}
	inQ := map[string]int{}
	for j, h := range tq.Headers {
		inQ[key(h)] = j
	}
	inP := map[string]bool{}
	for i, h := range tp.Headers {
		inP[key(h)] = true
		j, ok := inQ[key(h)]
		if !ok {
			d.OnlyP = append(d.OnlyP, h)
			continue
		}
		d.Headers = append(d.Headers, DiffHeader{Label: h.KindLabel(), P: i, Q: j})
	}
	for _, h := range tq.Headers {
		if !inP[key(h)] {
			d.OnlyQ = append(d.OnlyQ, h)
		}
	}
	for r, hr := range d.Headers {
		for c, hc := range d.Headers {
			cp, cq := tp.Cells[hr.P][hc.P], tq.Cells[hr.Q][hc.Q]
			if !cp.Equal(cq) {
				d.Cells = append(d.Cells, DiffCell{Row: r, Col: c, P: cp, Q: cq})
			}
		}
	}
	return d
}

// At returns the two answers in row i, column j of d.Headers.
func (d *Diff) At(i, j int) (p, q Cell) {
	hi, hj := d.Headers[i], d.Headers[j]
	return d.P.Cells[hi.P][hj.P], d.Q.Cells[hi.Q][hj.Q]
}

// Differs reports whether the policies differ in row i, column j.
func (d *Diff) Differs(i, j int) bool {
	p, q := d.At(i, j)
	return !p.Equal(q)
}

// Count returns the number of differing cells.
func (d *Diff) Count() int { return len(d.Cells) }

// String summarises d in one line, e.g. "jax and numpy differ in 155 of
// 400 cells of a + b".
func (d *Diff) String() string {
	n := len(d.Headers)
	return fmt.Sprintf("%s and %s differ in %d of %d cells of %s", d.P.Policy.Name(), d.Q.Policy.Name(), len(d.Cells), n*n, OpExpr(d.P.Op, "a", "b"))
}
