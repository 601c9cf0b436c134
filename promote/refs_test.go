package promote

// Shared loader for the reference tables in testdata/refs (produced by the
// real libraries). It knows nothing about any one policy: refsTable reads
// any table of any file, and refsExpect compares a policy's answer with a
// cell.
//
// A file is a JSON object whose tables are objects keyed "lhs,rhs". A cell
// is either a string (a dtype name, or "error: …") or an object
// {"dtype": …, "weak": …, "value": …}. Dtype names are NumPy's; weak
// operands are written "int?", "float?", "complex?", "bool?"; scalar
// operands "int_300", "float_1e300", "complex_1j", "bool_true", "int_neg1",
// "int_2p63" (2**63).

import (
	"encoding/json"
	"errors"
	"math/big"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/tensorsh/tensorsh/dtypes"
)

// A refsCell is one cell of a reference table.
type refsCell struct {
	Key      string // "int8,float16"
	LHS, RHS string
	DType    string // the result dtype name; "" for an error cell
	Weak     *bool  // the result's weakness, when the table gives it
	Value    string // the result value, when the table gives it
	Err      string // the error text (without "error: "); "" when not an error
}

// refsLoad reads testdata/refs/NAME.json as raw tables and scalars.
func refsLoad(t testing.TB, name string) map[string]json.RawMessage {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "testdata", "refs", name+".json"))
	if err != nil {
		t.Fatalf("reading reference %s: %v", name, err)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("parsing reference %s: %v", name, err)
	}
	return m
}

// refsTable returns the cells of table in reference file name, sorted by
// key. It fails the test when the table is missing or empty.
func refsTable(t testing.TB, name, table string) []refsCell {
	t.Helper()
	raw, ok := refsLoad(t, name)[table]
	if !ok {
		t.Fatalf("reference %s has no table %q", name, table)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatalf("reference %s table %s: %v", name, table, err)
	}
	if len(m) == 0 {
		t.Fatalf("reference %s table %s is empty", name, table)
	}
	cells := make([]refsCell, 0, len(m))
	for k, v := range m {
		lhs, rhs, ok := strings.Cut(k, ",")
		if !ok {
			t.Fatalf("reference %s table %s: bad key %q", name, table, k)
		}
		c := refsCell{Key: k, LHS: lhs, RHS: rhs}
		var s string
		if err := json.Unmarshal(v, &s); err == nil {
			c.DType = s
		} else {
			var o struct {
				DType string `json:"dtype"`
				Weak  *bool  `json:"weak"`
				Value string `json:"value"`
				Error string `json:"error"`
			}
			if err := json.Unmarshal(v, &o); err != nil {
				t.Fatalf("reference %s table %s cell %s: %v", name, table, k, err)
			}
			c.DType, c.Weak, c.Value = o.DType, o.Weak, o.Value
			if o.Error != "" {
				c.DType = "error: " + o.Error
			}
		}
		if e, ok := strings.CutPrefix(c.DType, "error:"); ok {
			c.DType, c.Err = "", strings.TrimSpace(e)
			if c.Err == "" {
				c.Err = "error"
			}
		}
		cells = append(cells, c)
	}
	sort.Slice(cells, func(i, j int) bool { return cells[i].Key < cells[j].Key })
	return cells
}

// refsDType parses a NumPy dtype name of a reference table ("int8",
// "float8_e4m3fn", PyTorch's "complex32"). It reports false for names
// tensorsh has no dtype for.
func refsDType(name string) (dtypes.DType, bool) {
	d, err := dtypes.Parse(name)
	return d, err == nil
}

// refsWeakKind parses a weak operand name ("int?") to its Python kind.
func refsWeakKind(name string) (ScalarKind, bool) {
	for k, n := range scalarKindNames {
		if name == n+"?" {
			return ScalarKind(k), true
		}
	}
	return 0, false
}

// refsScalar parses a scalar operand name ("int_300", "int_2p63",
// "float_1e300", "complex_1j", "bool_true") to its value.
func refsScalar(name string) (Scalar, bool) {
	kind, text, ok := strings.Cut(name, "_")
	if !ok {
		return Scalar{}, false
	}
	switch kind {
	case "bool":
		switch text {
		case "true":
			return BoolValue(true), true
		case "false":
			return BoolValue(false), true
		}
	case "int":
		if e, ok := strings.CutPrefix(text, "2p"); ok {
			n, err := strconv.Atoi(e)
			if err != nil {
				return Scalar{}, false
			}
			return IntValue(new(big.Int).Lsh(big.NewInt(1), uint(n))), true
		}
		if s, ok := strings.CutPrefix(text, "neg"); ok {
			text = "-" + s
		}
		i, ok := new(big.Int).SetString(text, 10)
		if ok {
			return IntValue(i), true
		}
	case "float":
		f, err := strconv.ParseFloat(text, 64)
		if err == nil {
			return FloatValue(f), true
		}
	case "complex":
		im, err := strconv.ParseFloat(strings.TrimSuffix(text, "j"), 64)
		if err == nil && strings.HasSuffix(text, "j") {
			return ComplexValue(complex(0, im)), true
		}
	}
	return Scalar{}, false
}

// refsOne returns the value one of kind k (True for bool).
func refsOne(k ScalarKind) Scalar {
	switch k {
	case BoolScalar:
		return BoolValue(true)
	case IntScalar:
		return Int64Value(1)
	case FloatScalar:
		return FloatValue(1)
	}
	return ComplexValue(1)
}

// refsLiteral is the operand for a Python scalar v under policy p: the
// type p.Literal gives it (the weak default of its kind when p refuses the
// literal, so that Binary must refuse it too).
func refsLiteral(p Policy, v Scalar) Operand {
	t, err := p.Literal(v)
	if err != nil {
		t = dtypes.Weak(numpyDefault(v.Kind))
	}
	return Operand{Type: t, Rank: 0, Literal: true, Value: &v}
}

// A refsTally counts the cells checked against a reference and the
// mismatches among them.
type refsTally struct {
	Checked, Mismatches int
}

// Add adds the counts of u to the tally.
func (t *refsTally) Add(u refsTally) {
	t.Checked += u.Checked
	t.Mismatches += u.Mismatches
}

// refsExpect compares Binary's answer (r, err) under policy p with cell c
// and reports a mismatch through report. An error cell must be an error: a
// *Error naming p; a "RuntimeWarning: …" cell (the reference turns warnings
// into errors) must be a result carrying that warning. A "complex32" cell
// is PyTorch's ComplexHalf, tensorsh's c32. The result's weakness is
// compared when the cell gives it.
func refsExpect(tally *refsTally, report func(string, ...any), p Policy, what string, c refsCell, r Result, err error) {
	tally.Checked++
	bad := func(format string, args ...any) {
		tally.Mismatches++
		report("%s %s %s: "+format, append([]any{p.Name(), what, c.Key}, args...)...)
	}
	if err != nil {
		var e *Error
		if !errors.As(err, &e) || e.Policy != p.Name() {
			bad("error %v is not a *promote.Error naming %s", err, p.Name())
			return
		}
	}
	switch {
	case strings.HasPrefix(c.Err, "RuntimeWarning:"):
		// The reference was made with warnings as errors: the library
		// warns and goes on, and so must the policy, with the same warning.
		if err != nil || !strings.Contains(r.Warning, c.Err) {
			bad("got %s, %v (warning %q); want a result with the warning %q", r.Type, err, r.Warning, c.Err)
		}
	case c.Err != "":
		if err == nil {
			bad("got %s, want an error (%s)", r.Type, c.Err)
		}
	default:
		want, ok := refsDType(c.DType)
		if !ok {
			bad("unknown reference dtype %q", c.DType)
			return
		}
		if err != nil {
			bad("got error %v, want %s", err, c.DType)
			return
		}
		if r.Type.DType != want {
			bad("got %s, want %s", r.Type, c.DType)
			return
		}
		if c.Weak != nil && *c.Weak != r.Type.Weak {
			bad("got %s, want weak=%v", r.Type, *c.Weak)
		}
	}
}

func TestRefsLoader(t *testing.T) {
	cells := refsTable(t, "numpy", "pairs")
	if len(cells) != 17*17 {
		t.Fatalf("numpy pairs: %d cells, want %d", len(cells), 17*17)
	}
	var errs, names int
	for _, c := range cells {
		if c.Err != "" {
			errs++
		}
		if _, ok := refsDType(c.LHS); ok {
			names++
		}
	}
	if errs == 0 || names != len(cells) {
		t.Errorf("numpy pairs: %d error cells, %d parsed names of %d", errs, names, len(cells))
	}
	for _, tc := range []struct {
		in   string
		want string
	}{
		{"int_300", "300"}, {"int_neg1", "-1"}, {"int_2p63", "9223372036854775808"},
		{"float_1.5", "1.5"}, {"float_1e300", "1e+300"}, {"complex_1j", "1j"}, {"bool_true", "True"},
	} {
		v, ok := refsScalar(tc.in)
		if !ok || v.String() != tc.want {
			t.Errorf("refsScalar(%q) = %v, %v; want %s", tc.in, v, ok, tc.want)
		}
	}
	if k, ok := refsWeakKind("float?"); !ok || k != FloatScalar {
		t.Errorf("refsWeakKind(float?) = %v, %v", k, ok)
	}
	if _, ok := refsScalar("int_x"); ok {
		t.Error("refsScalar accepted int_x")
	}
}

// A refsMap maps an operand name of a reference table to an Operand.
type refsMap func(name string) (Operand, bool)

// refsAsArray maps a dtype name to a strong 1-d array. With check, the
// dtype first goes through p.Check, as creating the array does (JAX with
// x64 off truncates int64 to int32).
func refsAsArray(p Policy, check bool) refsMap {
	return func(name string) (Operand, bool) {
		d, ok := refsDType(name)
		if !ok {
			return Operand{}, false
		}
		if check {
			c, _, err := p.Check(d)
			if err != nil {
				return Operand{}, false
			}
			d = c
		}
		return Operand{Type: dtypes.Strong(d), Rank: 1}, true
	}
}

// refsAsLiteral maps a scalar name ("int_300") to a Python-scalar literal.
func refsAsLiteral(p Policy) refsMap {
	return func(name string) (Operand, bool) {
		v, ok := refsScalar(name)
		if !ok {
			return Operand{}, false
		}
		return refsLiteral(p, v), true
	}
}

// refsAsWeak maps a weak name ("float?") to a weak 0-d value of the
// policy's default dtype for that kind, its value unknown.
func refsAsWeak(p Policy) refsMap {
	return func(name string) (Operand, bool) {
		k, ok := refsWeakKind(name)
		if !ok {
			return Operand{}, false
		}
		t, err := p.Literal(refsOne(k))
		if err != nil {
			return Operand{}, false
		}
		return Operand{Type: dtypes.Weak(t.DType), Rank: 0}, true
	}
}

// refsAsZeroDim maps a dtype name to a strong 0-d array holding one.
func refsAsZeroDim(name string) (Operand, bool) {
	d, ok := refsDType(name)
	if !ok {
		return Operand{}, false
	}
	v := refsOne(numpyKindOf(d))
	return Operand{Type: dtypes.Strong(d), Rank: 0, Value: &v}, true
}

// refsCheck checks every cell of table in reference file against
// p.Binary(Add, lhs(cell.LHS), rhs(cell.RHS)), and returns the tally.
// check, when not nil, makes extra checks of each cell's answer: it returns
// "" or what is wrong, which counts as a mismatch.
func refsCheck(t testing.TB, report func(string, ...any), p Policy, file, table string, lhs, rhs refsMap, check func(refsCell, Result, error) string) refsTally {
	t.Helper()
	return refsCheckOp(t, report, p, Add, file, table, lhs, rhs, check)
}

// refsCheckOp is refsCheck for the operation op: Where for a table of
// promote_types (NumPy's "pairs"), Add for one of a + b.
func refsCheckOp(t testing.TB, report func(string, ...any), p Policy, op BinaryOp, file, table string, lhs, rhs refsMap, check func(refsCell, Result, error) string) refsTally {
	t.Helper()
	var tally refsTally
	for _, c := range refsTable(t, file, table) {
		x, ok1 := lhs(c.LHS)
		y, ok2 := rhs(c.RHS)
		if !ok1 || !ok2 {
			t.Fatalf("%s %s: cannot map operands of %s", file, table, c.Key)
		}
		r, err := p.Binary(op, x, y)
		before := tally.Mismatches
		refsExpect(&tally, report, p, file+" "+table, c, r, err)
		if check != nil && tally.Mismatches == before {
			if msg := check(c, r, err); msg != "" {
				tally.Mismatches++
				report("%s %s %s %s: %s", p.Name(), file, table, c.Key, msg)
			}
		}
	}
	return tally
}

// refsMust looks up a built-in policy.
func refsMust(t testing.TB, name string) Policy {
	t.Helper()
	p, err := Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// refsBlame returns the operand an error blames (-2 when err is not an
// *Error).
func refsBlame(err error) int {
	var e *Error
	if errors.As(err, &e) {
		return e.Operand
	}
	return -2
}
