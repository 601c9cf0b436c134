package main

import (
	"strings"
	"testing"
)

// TestJSONExactValues checks that --json writes the exact stored values,
// each as the shortest decimal that reads back as the same float64: what
// json.dumps(np.asarray(x).tolist()) writes, since tolist() converts every
// float16/float32 (and ml_dtypes bfloat16/float8) element to a Python
// float exactly. The terminal display keeps NumPy's shorter per-dtype form.
func TestJSONExactValues(t *testing.T) {
	tests := []struct{ expr, want string }{
		// float8_e4m3fn 448 is the format's largest value; its shortest
		// per-dtype form "450" reads back as 448 only in float8.
		{"f8e4m3([448])", `{"dtype":"float8_e4m3fn","weak":false,"shape":[1],"values":[448.0]}`},
		{"bf16(0.150390625)", `{"dtype":"bfloat16","weak":false,"shape":[],"values":0.150390625}`},
		{"f32(1) / 3", `{"dtype":"float32","weak":false,"shape":[],"values":0.3333333432674408}`},
		{"f32(9007199254740992)", `{"dtype":"float32","weak":false,"shape":[],"values":9007199254740992.0}`},
		{"f16([0.1, 65504])", `{"dtype":"float16","weak":false,"shape":[2],"values":[0.0999755859375,65504.0]}`},
		{"c64(0.1 + 0.2j)", `{"dtype":"complex64","weak":false,"shape":[],"values":[0.10000000149011612,0.20000000298023224]}`},
		{"f64(0.1)", `{"dtype":"float64","weak":false,"shape":[],"values":0.1}`},
	}
	for _, tc := range tests {
		code, out, errOut := tensorsh("--policy", "numpy", "--json", "-e", tc.expr)
		if code != 0 {
			t.Errorf("%s: exit %d: %s", tc.expr, code, errOut)
			continue
		}
		if got := strings.TrimSpace(out); got != tc.want {
			t.Errorf("%s:\ngot  %s\nwant %s", tc.expr, got, tc.want)
		}
	}
}
