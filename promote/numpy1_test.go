package promote

import "testing"

// numpy1Refs checks the numpy1 policy against every cell of
// refs/numpy1.json: pairs of arrays, arrays meeting Python scalars, and
// arrays meeting 0-d arrays (scalar_scalar_arrays; the 0-d array holds one,
// which the cells pin: uint8 with a 0-d int8 stays uint8, so the value is
// non-negative, and int8 with a 0-d int64 stays int8, so it is small).
func numpy1Refs(t testing.TB, report func(string, ...any)) refsTally {
	p := refsMust(t, "numpy1")
	var n refsTally
	n.Add(refsCheck(t, report, p, "numpy1", "pairs", refsAsArray(p, false), refsAsArray(p, false), nil))
	n.Add(refsCheck(t, report, p, "numpy1", "array_scalar", refsAsArray(p, false), refsAsLiteral(p), nil))
	n.Add(refsCheck(t, report, p, "numpy1", "scalar_scalar_arrays", refsAsArray(p, false), refsAsZeroDim, nil))
	return n
}

func TestNumPy1Refs(t *testing.T) {
	n := numpy1Refs(t, t.Errorf)
	t.Logf("numpy1: %d cells checked, %d mismatches", n.Checked, n.Mismatches)
	if n.Checked != 196+140+196 {
		t.Errorf("numpy1: checked %d cells, want %d", n.Checked, 196+140+196)
	}
}
