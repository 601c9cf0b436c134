package eval

import (
	"strings"
	"testing"
)

// TestBuiltinTable checks each entry of the builtin table on its own: its
// name is its key, its signature starts with the name, it has a sentence
// of help, and its example runs under the default policy.
func TestBuiltinTable(t *testing.T) {
	for _, name := range Functions() {
		b := builtins[name]
		if b.name != name {
			t.Errorf("builtins[%q].name = %q", name, b.name)
		}
		if !strings.HasPrefix(b.sig, name+"(") {
			t.Errorf("%s: signature %q does not start with %s(", name, b.sig, name)
		}
		if b.doc == "" || b.example == "" || b.fn == nil {
			t.Errorf("%s: missing doc, example or function", name)
		}
		s, err := New("numpy")
		if err != nil {
			t.Fatal(err)
		}
		for _, src := range strings.Split(b.example, "; ") {
			if out := run(t, s, src); strings.Contains(out, "Error: ") {
				t.Errorf("%s: example %s: %s", name, src, out)
			}
		}
	}
}

// TestBuiltinFuncAlone calls a builtin's function directly, as the table
// lets a test do, with the wrong number of arguments: the error cites the
// signature from the table.
func TestBuiltinFuncAlone(t *testing.T) {
	s, err := New("numpy")
	if err != nil {
		t.Fatal(err)
	}
	c := &compiler{s: s, policy: s.policy}
	for _, tt := range []struct {
		fn   builtinFunc
		name string
		want string
	}{
		{zeros, "zeros", "zeros() needs a shape; usage: zeros(shape, dtype=None)"},
		{where, "where", "where() takes at least 3 arguments (0 given); usage: where(cond, a, b)"},
		{elementwise(0), "abs", "abs() takes at least 1 argument (0 given); usage: abs(x)"},
		{binaryFn(0), "add", "add() takes at least 2 arguments (0 given); usage: add(a, b)"},
	} {
		_, err := tt.fn(c, &call{name: tt.name})
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s(): got %v, want %q", tt.name, err, tt.want)
		}
	}
}
