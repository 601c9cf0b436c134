package eval

import (
	"strings"
	"testing"
)

// TestScalarPromotionNumPy compares the dtype of an array of every NumPy
// dtype combined with Python scalars of every kind and of values at the
// edges of the integer and float dtypes (inf and nan included) by the
// operators, under the policy of the installed NumPy's version (numpy1
// for 1.x, numpy for 2.x), with the dtype NumPy gives, or its error.
func TestScalarPromotionNumPy(t *testing.T) {
	policy := needNumPy(t)
	names := map[string]string{"bool": "bool", "i8": "int8", "i16": "int16", "i32": "int32", "i64": "int64",
		"u8": "uint8", "u16": "uint16", "u32": "uint32", "u64": "uint64", "f16": "float16", "f32": "float32",
		"f64": "float64", "c64": "complex64", "c128": "complex128"}
	lits := []string{"0", "1", "127", "128", "255", "256", "-1", "-129", "65536", "2**31", "2**32", "2**63", "-2**63",
		"0.5", "1e5", "70000.0", "1e40", "-0.0", "inf", "nan", "1j", "1e40j", "true"}
	ops := []string{"+", "*", "/", "//", "%", "**", "<", "==", "&", "|", "<<"}
	var ts, py []string
	for d, np := range names {
		for _, l := range lits {
			p := strings.NewReplacer("true", "True", "inf", "float('inf')", "nan", "float('nan')").Replace(l)
			for _, op := range ops {
				ts = append(ts, "dtype(cast(ones((2,)), "+d+") "+op+" "+l+")")
				py = append(py, "(np.ones(2, np.dtype('"+np+"')) "+op+" "+p+").dtype.name")
			}
		}
	}
	var want []string
	runNumPy(t, `
out = []
for e in a["exprs"]:
    try:
        out.append(eval(e))
    except Exception:
        out.append("error")
print(json.dumps(out))
`, map[string]any{"exprs": py}, &want)
	short := map[string]string{}
	for k, v := range names {
		short[v] = k
	}
	s, err := New(policy)
	if err != nil {
		t.Fatal(err)
	}
	bad := 0
	for i, src := range ts {
		got := run(t, s, src)
		g := strings.TrimSuffix(strings.TrimPrefix(got, "dtype "), "?")
		if strings.Contains(got, "Error") {
			g = "error"
		}
		w := want[i]
		if w != "error" {
			w = short[w]
		}
		if g != w {
			if bad++; bad <= 20 {
				t.Errorf("%s: %s, NumPy %s", src, got, want[i])
			}
		}
	}
	if bad > 20 {
		t.Errorf("%d of %d differ", bad, len(ts))
	}
}
