package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/tensorsh/tensorsh/dtypes"
)

// tensorsh runs the command in-process with args and returns its exit code
// and output.
func tensorsh(args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = run(args, os.Stdin, &out, &errb)
	return code, out.String(), errb.String()
}

// scalars spells the refs' scalar names in the tensorsh language.
var scalars = map[string]string{
	"bool_true": "true", "complex_1j": "1j", "float_1.5": "1.5", "float_1e300": "1e300",
	"int_1": "1", "int_2p31": "2147483648", "int_2p40": "1099511627776",
	"int_2p63": "9223372036854775808", "int_300": "300", "int_neg1": "-1",
}

// TestRefValues runs every array_scalar / tensor_scalar cell of the
// references through the whole command line path — tensorsh --policy P
// --json -e 'DT([0]) + SCALAR' — and checks the dtype, the weak flag where
// the reference records it, the value where it records one, and that error
// cells are errors (exit 1, {"error":…}).
func TestRefValues(t *testing.T) {
	for _, ref := range []struct{ file, policy, table string }{
		{"numpy.json", "numpy", "array_scalar"},
		{"numpy1.json", "numpy1", "array_scalar"},
		{"jax_x32.json", "jax", "array_scalar"},
		{"jax_x64.json", "jax64", "array_scalar"},
		{"torch.json", "torch", "tensor_scalar"},
	} {
		t.Run(ref.policy, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "refs", ref.file))
			if err != nil {
				t.Fatal(err)
			}
			var doc map[string]json.RawMessage
			if err := json.Unmarshal(data, &doc); err != nil {
				t.Fatal(err)
			}
			var cells map[string]json.RawMessage
			if err := json.Unmarshal(doc[ref.table], &cells); err != nil {
				t.Fatal(err)
			}
			keys := make([]string, 0, len(cells))
			for k := range cells {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			values := 0
			for _, key := range keys {
				values += checkRefCell(t, ref.policy, key, cells[key])
			}
			t.Logf("%s: %d cells through the command line, %d with values checked", ref.policy, len(keys), values)
		})
	}
}

// checkRefCell checks one cell; it returns 1 when a value was compared.
func checkRefCell(t *testing.T, policy, key string, raw json.RawMessage) int {
	t.Helper()
	lhs, rhs, _ := strings.Cut(key, ",")
	d, err := dtypes.Parse(lhs)
	if err != nil {
		t.Fatalf("%s: %v", key, err)
	}
	scalar, ok := scalars[rhs]
	if !ok {
		t.Fatalf("%s: unknown scalar %s", key, rhs)
	}
	expr := fmt.Sprintf("%s([0]) + %s", d, scalar)
	code, stdout, stderr := tensorsh("--policy", policy, "--json", "-e", expr)

	var want struct {
		DType string  `json:"dtype"`
		Value *string `json:"value"`
		Weak  *bool   `json:"weak"`
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		if w, ok := strings.CutPrefix(s, "error: "); ok && strings.HasPrefix(w, "RuntimeWarning:") {
			// The reference turned NumPy's warning into an error: NumPy
			// warns and goes on, and so must tensorsh (the converted
			// scalar overflowed to infinity).
			if code != 0 || !strings.Contains(stderr, "warning: "+w) || !strings.Contains(stdout, "inf") {
				t.Errorf("%s: %s gave exit %d %s %s, want a result with inf and the warning %q", policy, expr, code, stdout, stderr, w)
			}
			return 0
		}
		if strings.HasPrefix(s, "error") {
			if code != 1 || !strings.Contains(stdout, `"error"`) {
				t.Errorf("%s: %s gave exit %d %s, want an error (reference: %s)", policy, expr, code, stdout, s)
			}
			return 0
		}
		want.DType = s
	} else if err := json.Unmarshal(raw, &want); err != nil {
		t.Fatalf("%s: %v", key, err)
	}
	if code != 0 {
		t.Errorf("%s: %s failed (exit %d): %s%s; reference gives %s", policy, expr, code, stdout, stderr, want.DType)
		return 0
	}
	var got struct {
		DType  string            `json:"dtype"`
		Weak   bool              `json:"weak"`
		Shape  []int             `json:"shape"`
		Values []json.RawMessage `json:"values"`
	}
	if err := json.Unmarshal([]byte(stdout), &got); err != nil {
		t.Errorf("%s: %s: bad JSON %q: %v", policy, expr, stdout, err)
		return 0
	}
	wd, err := dtypes.Parse(want.DType)
	if err != nil {
		t.Fatalf("%s: %v", key, err)
	}
	if got.DType != wd.FullName() {
		t.Errorf("%s: %s gives dtype %s, reference %s", policy, expr, got.DType, want.DType)
		return 0
	}
	if want.Weak != nil && got.Weak != *want.Weak {
		t.Errorf("%s: %s gives weak=%v, reference weak=%v", policy, expr, got.Weak, *want.Weak)
	}
	if want.Value == nil {
		return 0
	}
	if len(got.Values) != 1 {
		t.Errorf("%s: %s: want one value, got %s", policy, expr, stdout)
		return 0
	}
	if msg := sameValue(wd, *want.Value, got.Values[0]); msg != "" {
		t.Errorf("%s: %s = %s, reference %s: %s", policy, expr, got.Values[0], *want.Value, msg)
	}
	return 1
}

// sameValue compares a value printed by Python (ref) with tensorsh's JSON
// value of dtype d; it returns "" when they are the same value of d.
func sameValue(d dtypes.DType, ref string, got json.RawMessage) string {
	switch {
	case d.IsBool():
		want := ref == "True" || ref == "1.0" || ref == "1"
		if string(got) != strconv.FormatBool(want) {
			return "bool differs"
		}
	case d.IsInt():
		w, ok := new(big.Int).SetString(ref, 10)
		g, ok2 := new(big.Int).SetString(string(got), 10)
		if !ok || !ok2 || w.Cmp(g) != 0 {
			return "integers differ"
		}
	case d.IsComplex():
		wr, wi, err := parsePyComplex(ref)
		if err != nil {
			return err.Error()
		}
		var parts []json.RawMessage
		if err := json.Unmarshal(got, &parts); err != nil || len(parts) != 2 {
			return "not a [re, im] pair"
		}
		if !sameFloat(d.Real(), wr, parts[0]) || !sameFloat(d.Real(), wi, parts[1]) {
			return "complex parts differ"
		}
	default:
		w, err := parsePyFloat(ref)
		if err != nil {
			return err.Error()
		}
		if !sameFloat(d, w, got) {
			return "floats differ"
		}
	}
	return ""
}

func sameFloat(d dtypes.DType, want float64, got json.RawMessage) bool {
	var g float64
	var s string
	if json.Unmarshal(got, &s) == nil {
		var err error
		if g, err = parsePyFloat(s); err != nil {
			return false
		}
	} else if json.Unmarshal(got, &g) != nil {
		return false
	}
	w := dtypes.FloatFromFloat64(d, want)
	g = dtypes.FloatFromFloat64(d, g)
	return w == g || math.IsNaN(w) && math.IsNaN(g)
}

func parsePyFloat(s string) (float64, error) {
	switch s {
	case "inf":
		return math.Inf(1), nil
	case "-inf":
		return math.Inf(-1), nil
	case "nan":
		return math.NaN(), nil
	}
	return strconv.ParseFloat(s, 64)
}

// parsePyComplex parses Python's repr of a complex: "1j", "(1+2j)",
// "(9.223372036854776e+18+0j)".
func parsePyComplex(s string) (re, im float64, err error) {
	s = strings.TrimSuffix(strings.TrimPrefix(s, "("), ")")
	if !strings.HasSuffix(s, "j") {
		return 0, 0, fmt.Errorf("not a complex: %q", s)
	}
	s = strings.TrimSuffix(s, "j")
	split := -1
	for i := len(s) - 1; i > 0; i-- {
		if (s[i] == '+' || s[i] == '-') && s[i-1] != 'e' && s[i-1] != 'E' {
			split = i
			break
		}
	}
	if split < 0 {
		im, err = parsePyFloat(s)
		return 0, im, err
	}
	if re, err = parsePyFloat(s[:split]); err != nil {
		return 0, 0, err
	}
	im, err = parsePyFloat(strings.TrimPrefix(s[split:], "+"))
	return re, im, err
}
