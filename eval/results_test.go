package eval

import (
	"context"
	"strings"
	"testing"
)

// TestResults checks _, __, ___, _N and Out[N], the earlier results a
// front end records with SetResult. They follow IPython's output cache
// (IPython/core/displayhook.py, DisplayHook.update_user_ns: "_" is the
// last result, "__" the one before and "___" the one before that, and
// Out[n] and _n are cell n's result; https://ipython.readthedocs.io/en/stable/interactive/reference.html#output-caching-system).
func TestResults(t *testing.T) {
	s, err := New("numpy")
	if err != nil {
		t.Fatal(err)
	}
	if got := run(t, s, "_"); !strings.HasPrefix(got, "NameError: _ is the result of the last cell") {
		t.Errorf("_ before any result: %s", got)
	}
	// cell: the value of src, recorded as cell n's result.
	cell := func(n int, src string) {
		t.Helper()
		outs, err := s.Execute(context.Background(), "", src)
		if err != nil || len(outs) == 0 || outs[len(outs)-1].Value == nil {
			t.Fatalf("%s: %v %v", src, outs, err)
		}
		s.SetResult(n, outs[len(outs)-1].Value)
	}
	cell(1, "i8([1, 2])")
	cell(2, "u8(200)")
	cell(3, "f32")
	for _, tc := range []struct{ src, want string }{
		{"_", "f32"},
		{"__", "u8 200"},
		{"___", "[1 2]\ni8[2]"},
		{"Out[1] + 1", "[2 3]\ni8[2]"},
		{"Out[2]", "u8 200"},
		{"_1 * 2", "[2 4]\ni8[2]"},
		{"_2", "u8 200"},
		{"Out[1][0]", "i8 1"},
		{"Out[7]", "KeyError: Out[7]: cell 7 has no result"},
		{"_7", "NameError: _7: cell 7 has no result"},
		{"Out[x]", "TypeError: Out[n] takes a cell number written as an integer"},
		{"_x = 3\n_x", "i64? 3"}, // other names starting with _ are ordinary
	} {
		if got := run(t, s, tc.src); !strings.HasPrefix(got, tc.want) {
			t.Errorf("%s = %q, want %q…", tc.src, got, tc.want)
		}
	}
	// A variable hides the result of the same name, as in Python.
	if got := run(t, s, "_ = 5\n_"); got != "i64? 5" {
		t.Errorf("_ assigned: %s", got)
	}
	if got := run(t, s, "Out = i8([7, 8])\nOut[1]"); got != "i8 8" {
		t.Errorf("Out assigned: %s", got)
	}
	// :reset forgets the results, as IPython's %reset clears Out.
	run(t, s, ":reset")
	if got := run(t, s, "Out[1]"); !strings.HasPrefix(got, "KeyError") {
		t.Errorf("Out[1] after :reset: %s", got)
	}
}

// TestResultsBounded checks that only the last maxResults results are
// kept, with a message naming the bound for older ones.
func TestResultsBounded(t *testing.T) {
	s, err := New("jax")
	if err != nil {
		t.Fatal(err)
	}
	v := &Value{Kind: StringValue, Str: "x"}
	for n := 1; n <= maxResults+5; n++ {
		s.SetResult(n, v)
	}
	if got := run(t, s, "Out[3]"); !strings.Contains(got, "no longer kept") {
		t.Errorf("Out[3]: %s", got)
	}
	if got := run(t, s, "Out[6]"); strings.HasPrefix(got, "KeyError") {
		t.Errorf("Out[6]: %s", got)
	}
}

// TestInputs checks In[n], _iN, _i, _ii and _iii, the cells' sources a
// front end records with SetInput. They follow IPython's input history
// (IPython/core/history.py, HistoryManager.store_inputs: the running
// cell's source is stored before it runs; _i is the cell before it, _ii
// and _iii the ones before that, all "" at first; _iN and In[N] are cell
// N's source; https://ipython.readthedocs.io/en/stable/interactive/reference.html#input-caching-system).
func TestInputs(t *testing.T) {
	s, err := New("numpy")
	if err != nil {
		t.Fatal(err)
	}
	if got := run(t, s, "_i"); !strings.HasPrefix(got, "NameError: _i is the source of a cell before this one, which only a front end that numbers its cells") {
		t.Errorf("_i without a front end: %s", got)
	}
	// cell runs src as cell n and returns what it shows.
	cell := func(n int, src string) string {
		t.Helper()
		s.SetInput(n, src)
		return run(t, s, src)
	}
	for _, tc := range []struct {
		n         int
		src, want string
	}{
		{1, "_i", `""`}, // IPython's _i, _ii and _iii start as ""
		{2, "i8([1, 2])", "[1 2]\ni8[2]"},
		{3, "_i", `"i8([1, 2])"`},
		{4, "_ii", `"i8([1, 2])"`},
		{5, "_iii", `"i8([1, 2])"`},
		{6, "_iii", `"_i"`},
		{7, "In[2]", `"i8([1, 2])"`},
		{8, "_i2", `"i8([1, 2])"`},
		{9, "In[9]", `"In[9]"`}, // the running cell is stored before it runs
		{10, "In[11]", "KeyError: In[11]: no cell 11 has run in this session"},
		{11, "_i12", "NameError: _i12: no cell 12 has run in this session"},
		{12, "In[x]", "TypeError: In[n] takes a cell number written as an integer, as in In[3]"},
		{13, "In[1, 2]", "TypeError: In[n] takes one cell number"},
		{14, "_ix = 3\n_ix", "i64? 3"}, // other names starting with _i are ordinary
	} {
		if got := cell(tc.n, tc.src); !strings.HasPrefix(got, tc.want) {
			t.Errorf("cell %d %s = %q, want %q…", tc.n, tc.src, got, tc.want)
		}
	}
	// A variable hides In, as in Python.
	if got := cell(15, "In = i8([7, 8])\nIn[1]"); got != "i8 8" {
		t.Errorf("In assigned: %s", got)
	}
	// :reset forgets the sources, as IPython's %reset clears In.
	run(t, s, ":reset")
	if got := run(t, s, "In[2]"); !strings.HasPrefix(got, "KeyError: In[2]: no cell 2") {
		t.Errorf("In[2] after :reset: %s", got)
	}
}
