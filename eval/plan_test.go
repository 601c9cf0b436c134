package eval

import (
	"context"
	"strings"
	"testing"

	"github.com/tensorsh/tensorsh/internal/format"
	"github.com/tensorsh/tensorsh/lang"
)

// cellsText runs each cell in s as the Jupyter kernel does (numbered, its
// last value recorded for _ and Out[n]) and returns every output's text
// (warnings included) and every error, one line each.
func cellsText(t *testing.T, s *Session, cells []string) []string {
	t.Helper()
	var lines []string
	for _, c := range cells {
		n := 1
		if s.results != nil {
			n += len(s.results.in)
		}
		s.SetInput(n, c)
		outs, err := s.Execute(context.Background(), "", c)
		if len(outs) > 0 {
			s.SetResult(n, outs[len(outs)-1].Value)
		}
		for _, o := range outs {
			lines = append(lines, c+" -> "+s.Text(o, format.Options{}))
		}
		if err != nil {
			lines = append(lines, c+" -> error: "+err.Error())
		}
	}
	return lines
}

// TestPlansGiveFreshResults runs sequences of cells that repeat
// statements between changes of what they read (a variable bound again to
// a value of the same or another dtype or shape, the policy, the
// generator, a name that becomes a variable) and checks that each output,
// warnings included, is the output of the same cells in a session that
// keeps no plan (every statement compiled afresh).
func TestPlansGiveFreshResults(t *testing.T) {
	for _, cells := range [][]string{
		{"x = f32([1, 2, 3])", "x * 2", "x * 2", "x = f32([4, 5, 6])", "x * 2", "x = i8([100, 120, 127])", "x * 2", "x = f64([[1], [2]])", "x * 2", "x * 2"},
		{"x = f16([1, 2]); k = i64([1, 2]); u = u8([200])", "x + k", ":policy jax", "x + k", "x + k", "u + 300", "u + 300",
			":policy numpy", "x + k", "u + 300", ":policy torch", "x + k", "x + k"},
		{"rand((3,))", "rand((3,))", "rand((3,)) + 1", "rand((3,)) + 1", "rand((2,), seed=1) * 1", "rand((2,), seed=1) * 1"},
		{"x = f16([1, 2])", "x + 1e6", "x + 1e6", "f32([1, 0]) / 0", "f32([1, 0]) / 0", "x + 1e6"},
		{"x = f32([1, 2])", "x * 2", "_ + 1", "_ + 1", "_ * 2", "x * 2", "Out[2] + 1", "Out[2] + 1", "_3 + 1", "_3 + 1"},
		{"x = f32([[1, 2], [3, 4]])", "transpose(x)", "transpose(x)", "x[0]", "x[0]", "reshape(x, (4,))", "reshape(x, (4,))", "arange(3)", "arange(3)", "f32([1, 2]) + 0", "f32([1, 2]) + 0"},
		{"x = f32([1, 2])", "y * x", "y = f32([3, 4])", "y * x", "y * x", "y = 2", "y * x"},
		{"x = f32([1, 2])", "x * 2", ":reset", "x * 2", "x = u8([1, 2])", "x * 2", "x * 2"},
		{"x = f32([1, 2])", "sum(x * 2)", "sum(x * 2)", "print(x * 2)", "print(x * 2)", "explain(x * 2)", "x * 2", "x * 2"},
		// Results of 1.2 MB, which the backend recycles once dropped,
		// beside a plan that holds a constant tensor of that size.
		{"sum(arange(300000) * 2)", "arange(300000) * 3", "sum(arange(300000) * 2)", "arange(300000) * 3",
			"f32(arange(300000)) + 1", "sum(arange(300000) * 2)", "arange(300000) * 3", "sum(arange(300000) * 2)"},
	} {
		fresh, err := New("numpy")
		if err != nil {
			t.Fatal(err)
		}
		var want []string
		for _, c := range cells {
			fresh.plans = nil // nothing kept from the cell before
			want = append(want, cellsText(t, fresh, []string{c})...)
		}
		s, err := New("numpy")
		if err != nil {
			t.Fatal(err)
		}
		got := cellsText(t, s, cells)
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("with plans kept:\n%s\nwant (compiled each time):\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
}

// TestPlansKept checks which statements keep a plan and that a kept one
// runs: a tensor expression of variables and literals does; random
// values, views of a variable, a constant tensor as it is, earlier
// results and warnings of compiling do not. Binding a name drops the
// plans that read it.
func TestPlansKept(t *testing.T) {
	s, err := New("numpy")
	if err != nil {
		t.Fatal(err)
	}
	cellsText(t, s, []string{"x = f32([1, 2]); h = f16([1, 2]); y = 3"})
	for _, tc := range []struct {
		src  string
		kept bool
	}{
		{"x * 2", true},
		{"exp(x) + y", true},
		{"sum(x, axis=0)", true},
		{"f32([1, 2]) + x", true},
		{"rand((2,)) + x", false},
		{"transpose(x)", false},
		{"arange(2)", false},
		{"_ + x", false},
		{"h + 1e6", false}, // RuntimeWarning: overflow encountered in cast, when compiling
		{"y + 1", false},   // a Python int, not a tensor
	} {
		s.plans = nil
		cellsText(t, s, []string{tc.src})
		if got := len(s.plans) == 1; got != tc.kept {
			t.Errorf("%s: kept %v, want %v", tc.src, got, tc.kept)
		}
		if !tc.kept {
			continue
		}
		var p *plan
		for _, p = range s.plans {
		}
		again := cellsText(t, s, []string{tc.src})
		if len(s.plans) != 1 || s.plans[planKey(t, s, tc.src)] != p {
			t.Errorf("%s: the second run did not take the kept plan (%v)", tc.src, again)
		}
	}
	s.plans = nil
	cellsText(t, s, []string{"x * 2", "exp(h)"})
	cellsText(t, s, []string{"x = f32([5, 6])"})
	if len(s.plans) != 1 {
		t.Errorf("after x = …: %d plans, want 1 (exp(h)'s)", len(s.plans))
	}
}

// planKey returns the syntax tree of the expression the session's parse
// cache holds for the one-statement cell src.
func planKey(t *testing.T, s *Session, src string) lang.Expr {
	t.Helper()
	f, err := s.parse("", src)
	if err != nil || len(f.Stmts) != 1 {
		t.Fatalf("%s: %v", src, err)
	}
	switch st := f.Stmts[0].(type) {
	case *lang.ExprStmt:
		return st.X
	case *lang.AssignStmt:
		return st.RHS
	}
	t.Fatalf("%s: not an expression", src)
	return nil
}
