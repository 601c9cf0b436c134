package promote

import (
	"fmt"
	"testing"
)

// numpyRefs checks the numpy policy against every cell of refs/numpy.json:
// pairs of arrays, and arrays meeting Python scalars (NEP 50).
func numpyRefs(t testing.TB, report func(string, ...any)) refsTally {
	p := refsMust(t, "numpy")
	literalBlamed := func(c refsCell, r Result, err error) string {
		if err != nil && refsBlame(err) != 1 {
			return fmt.Sprintf("error %q blames operand %d, want the Python scalar (1)", err, refsBlame(err))
		}
		return ""
	}
	var n refsTally
	n.Add(refsCheck(t, report, p, "numpy", "pairs", refsAsArray(p, false), refsAsArray(p, false), nil))
	n.Add(refsCheck(t, report, p, "numpy", "array_scalar", refsAsArray(p, false), refsAsLiteral(p), literalBlamed))
	return n
}

func TestNumPyRefs(t *testing.T) {
	n := numpyRefs(t, t.Errorf)
	t.Logf("numpy: %d cells checked, %d mismatches", n.Checked, n.Mismatches)
	if n.Checked != 289+170 {
		t.Errorf("numpy: checked %d cells, want %d", n.Checked, 289+170)
	}
}

// TestRefsSummary prints, for go test -v, the number of reference cells
// each of the jax, jax64, numpy, numpy1 and torch policies was checked
// against, and fails on any mismatch (the policy tests give the details).
func TestRefsSummary(t *testing.T) {
	quiet := func(string, ...any) {}
	for _, c := range []struct {
		name string
		run  func() refsTally
	}{
		{"jax", func() refsTally { return jaxRefs(t, quiet, "jax") }},
		{"jax64", func() refsTally { return jaxRefs(t, quiet, "jax64") }},
		{"numpy", func() refsTally { return numpyRefs(t, quiet) }},
		{"numpy1", func() refsTally { return numpy1Refs(t, quiet) }},
		{"torch", func() refsTally { return torchRefs(t, quiet) }},
	} {
		n := c.run()
		t.Logf("%-7s %4d cells checked, %d mismatches", c.name+":", n.Checked, n.Mismatches)
		if n.Mismatches != 0 {
			t.Errorf("%s: %d mismatches", c.name, n.Mismatches)
		}
	}
}
