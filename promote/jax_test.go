package promote

import (
	"fmt"
	"testing"

	"github.com/tensorsh/tensorsh/dtypes"
)

// jaxRefs checks policy name ("jax" or "jax64") against every cell of its
// reference file: pairs are jnp.promote_types of two dtypes; array_scalar
// and weak_array are arrays (created through Check, so 64-bit dtypes are
// truncated with x64 off) meeting Python scalars and weak values;
// weak_pairs are two weak values.
func jaxRefs(t testing.TB, report func(string, ...any), name string) refsTally {
	p := refsMust(t, name)
	file := map[string]string{"jax": "jax_x32", "jax64": "jax_x64"}[name]
	literalBlamed := func(c refsCell, r Result, err error) string {
		if err != nil && refsBlame(err) != 1 {
			return fmt.Sprintf("error %q blames operand %d, want the literal (1)", err, refsBlame(err))
		}
		return ""
	}
	var n refsTally
	n.Add(refsCheck(t, report, p, file, "pairs", refsAsArray(p, false), refsAsArray(p, false), nil))
	n.Add(refsCheck(t, report, p, file, "array_scalar", refsAsArray(p, true), refsAsLiteral(p), literalBlamed))
	n.Add(refsCheck(t, report, p, file, "weak_array", refsAsArray(p, true), refsAsWeak(p), nil))
	n.Add(refsCheck(t, report, p, file, "weak_pairs", refsAsWeak(p), refsAsWeak(p), nil))
	return n
}

func TestJAXRefs(t *testing.T) {
	for _, name := range []string{"jax", "jax64"} {
		n := jaxRefs(t, t.Errorf, name)
		t.Logf("%s: %d cells checked, %d mismatches", name, n.Checked, n.Mismatches)
		if n.Checked != 289+170+68+16 {
			t.Errorf("%s: checked %d cells, want %d", name, n.Checked, 289+170+68+16)
		}
	}
}

var _ = dtypes.Bool
