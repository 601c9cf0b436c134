package eval

import (
	"strings"
	"testing"

	"github.com/tensorsh/tensorsh/promote"
)

func TestHelpPoliciesListsEvery(t *testing.T) {
	h := Help("policies")
	for _, n := range promote.Names() {
		p, _ := promote.Lookup(n)
		var line string
		for _, l := range strings.Split(h, "\n") {
			if f := strings.Fields(l); len(f) > 0 && f[0] == n {
				line = l
			}
		}
		if line == "" {
			t.Errorf(":help policies has no line for %s", n)
			continue
		}
		if !strings.Contains(line, p.Title()) || !strings.Contains(line, " · ") {
			t.Errorf(":help policies: line %q lacks the title or the reference of %s", line, n)
		}
	}
}

// TestCompareGroups checks that compare gives one row to the policies that
// agree, in the order of their first policy, and keeps every policy: for
// i8([1]) + u8([1]) TensorFlow refuses (no implicit promotion) and so
// does tf-numpy-safe (flexible_dtypes.py marks the cell ALL), while
// tf-numpy and keras join at int16, as jax does.
func TestCompareGroups(t *testing.T) {
	s, err := New("jax")
	if err != nil {
		t.Fatal(err)
	}
	text := run(t, s, "compare(i8([1]) + u8([1]))")
	for _, n := range promote.Names() {
		if !strings.Contains(text, n) {
			t.Errorf("compare lacks policy %s:\n%s", n, text)
		}
	}
	lines := strings.Split(text, "\n")
	// The i16 row and its continuation lines.
	var group []string
	for i, l := range lines {
		if strings.Contains(l, "i16[1]") {
			if group != nil {
				t.Errorf("compare: two i16 rows:\n%s", text)
			}
			group = append(group, l)
			for _, c := range lines[i+1:] {
				if !strings.HasPrefix(c, "    ") {
					break
				}
				group = append(group, c)
			}
		}
	}
	members := strings.Join(group, " ")
	if !strings.HasPrefix(strings.TrimSpace(members), "jax, jax64,") {
		t.Errorf("compare: the i16 row should be led by jax, jax64:\n%s", text)
	}
	for _, n := range []string{"numpy,", "torch,", "tf-numpy,", "keras"} {
		if !strings.Contains(members, n) {
			t.Errorf("compare: %s should share the i16 row:\n%s", strings.TrimSuffix(n, ","), text)
		}
	}
	if strings.Contains(members, "tf-numpy-safe") {
		t.Errorf("compare: tf-numpy-safe refuses uint8 with int8 (an ALL cell of flexible_dtypes.py):\n%s", text)
	}
	var tf string
	for _, l := range lines {
		if f := strings.Fields(l); len(f) > 1 && f[0] == "tf" {
			tf = l
		}
	}
	if !strings.Contains(tf, "error") || !strings.Contains(tf, "was expected to be a int8 tensor but is a uint8 tensor") {
		t.Errorf("compare: tf row %q, want TensorFlow's error", tf)
	}
}
