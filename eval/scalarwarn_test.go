package eval

import (
	"context"
	"encoding/json"
	"os/exec"
	"strings"
	"testing"

	"github.com/tensorsh/tensorsh/internal/format"
	"github.com/tensorsh/tensorsh/internal/testenv"
)

// scalarWarnCases are integer arithmetic on scalars and arrays under
// NumPy's policies, with the warning NumPy gives. The rules are those of
// numpy/_core/src/umath/scalarmath.c.src (NumPy 2; NumPy 1.24's
// numpy/core/src/umath/scalarmath.c.src is the same): @name@_ctype_add,
// _subtract and _multiply report NPY_FPE_OVERFLOW when the result wraps,
// _negative for a nonzero unsigned or the minimum signed scalar,
// _absolute for the minimum signed one, _divide (floor_divide) and
// _remainder divide by zero for a zero divisor and _divide overflow for
// MIN // -1; _power and the shifts never warn. The warning names the
// ufunc after "scalar" (PyUFunc_GiveFloatingpointErrors("scalar add", …)).
// Arrays (and 0-d arrays, which tensorsh has not apart from scalars) go
// through the ufunc loops, which wrap silently. NEP 50 shows the Python
// int case: np.uint8(100) + 200 is uint8(44) with "overflow encountered in
// scalar add" (https://numpy.org/neps/nep-0050-scalar-promotion.html).
var scalarWarnCases = []struct {
	src, py string
	numpy   string // "warning | value" under numpy (NumPy 2)
	numpy1  string // under numpy1 (NumPy 1.24)
}{
	{"u8(200) + u8(100)", "np.uint8(200) + np.uint8(100)", "overflow encountered in scalar add | u8 44", "overflow encountered in scalar add | u8 44"},
	{"u8(200) + 100", "np.uint8(200) + 100", "overflow encountered in scalar add | u8 44", " | i64 300"},
	{"u8([200]) + u8([100])", "np.array([200], np.uint8) + np.array([100], np.uint8)", " | [44]\nu8[1] cpu", " | [44]\nu8[1] cpu"},
	{"u8(1) - u8(2)", "np.uint8(1) - np.uint8(2)", "overflow encountered in scalar subtract | u8 255", "overflow encountered in scalar subtract | u8 255"},
	{"i8(100) * i8(2)", "np.int8(100) * np.int8(2)", "overflow encountered in scalar multiply | i8 -56", "overflow encountered in scalar multiply | i8 -56"},
	{"i64(2**62) * i64(4)", "np.int64(2**62) * np.int64(4)", "overflow encountered in scalar multiply | i64 0", "overflow encountered in scalar multiply | i64 0"},
	{"i8(100) + i8(27)", "np.int8(100) + np.int8(27)", " | i8 127", " | i8 127"},
	{"u8(200) + i8(100)", "np.uint8(200) + np.int8(100)", " | i16 300", " | i16 300"},
	{"i8(2) ** i8(10)", "np.int8(2) ** np.int8(10)", " | i8 0", " | i8 0"},
	{"i8(1) << i8(10)", "np.int8(1) << np.int8(10)", " | i8 0", " | i8 0"},
	{"-u8(1)", "-np.uint8(1)", "overflow encountered in scalar negative | u8 255", "overflow encountered in scalar negative | u8 255"},
	{"-u8(0)", "-np.uint8(0)", " | u8 0", " | u8 0"},
	{"-i8(-128)", "-np.int8(-128)", "overflow encountered in scalar negative | i8 -128", "overflow encountered in scalar negative | i8 -128"},
	{"abs(i8(-128))", "abs(np.int8(-128))", "overflow encountered in scalar absolute | i8 -128", "overflow encountered in scalar absolute | i8 -128"},
	{"abs(i8(-127))", "abs(np.int8(-127))", " | i8 127", " | i8 127"},
	{"i8(-128) // i8(-1)", "np.int8(-128) // np.int8(-1)", "overflow encountered in scalar floor_divide | i8 -128", "overflow encountered in scalar floor_divide | i8 -128"},
	{"i8(1) // i8(0)", "np.int8(1) // np.int8(0)", "divide by zero encountered in scalar floor_divide | i8 0", "divide by zero encountered in scalar floor_divide | i8 0"},
	{"i8(1) % i8(0)", "np.int8(1) % np.int8(0)", "divide by zero encountered in scalar remainder | i8 0", "divide by zero encountered in scalar remainder | i8 0"},
	{"i8(-128) % i8(-1)", "np.int8(-128) % np.int8(-1)", " | i8 0", " | i8 0"},
	{"i8([1]) // i8([0])", "np.array([1], np.int8) // np.array([0], np.int8)", "divide by zero encountered in floor_divide | [0]\ni8[1] cpu", "divide by zero encountered in floor_divide | [0]\ni8[1] cpu"},
}

// scalarWarnRun returns the warnings src gives and its value, as
// "warning | value", or its error.
func scalarWarnRun(t *testing.T, policy, src string) string {
	t.Helper()
	s, err := New(policy)
	if err != nil {
		t.Fatal(err)
	}
	outs, err := s.Execute(context.Background(), "", src)
	if err != nil {
		return "error: " + err.Error()
	}
	var warns []string
	value := ""
	for _, o := range outs {
		if o.Warning != "" {
			warns = append(warns, strings.TrimPrefix(o.Warning, "RuntimeWarning: "))
		} else if o.Value != nil {
			value = s.Text(o, format.Options{})
		}
	}
	return strings.Join(warns, "; ") + " | " + value
}

func TestScalarOverflowWarnings(t *testing.T) {
	for _, tc := range scalarWarnCases {
		for policy, want := range map[string]string{"numpy": tc.numpy, "numpy1": tc.numpy1} {
			if got := scalarWarnRun(t, policy, tc.src); got != want {
				t.Errorf("%s: %s = %q, want %q", policy, tc.src, got, want)
			}
		}
		// explain computes nothing, so it does not warn.
		if got := scalarWarnRun(t, "numpy", "explain("+tc.src+")"); strings.Contains(got, "encountered") {
			t.Errorf("explain(%s) warns: %q", tc.src, got)
		}
		// Other systems have no such warnings.
		if got := scalarWarnRun(t, "torch", tc.src); strings.Contains(got, "encountered") {
			t.Errorf("torch: %s warns: %q", tc.src, got)
		}
	}
}

// TestScalarOverflowWarningsNumPy runs the cases in the installed NumPy
// and checks its warnings against the policy of its version (numpy1 for
// NumPy 1.x, numpy for 2.x).
func TestScalarOverflowWarningsNumPy(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: skipping a test that runs NumPy")
	}
	const python = "/usr/bin/python3"
	if err := exec.Command(python, "-c", "import numpy").Run(); err != nil {
		testenv.Missing(t, "%s cannot import numpy (apt-get install python3-numpy)", python)
	}
	var exprs []string
	for _, tc := range scalarWarnCases {
		exprs = append(exprs, tc.py)
	}
	js, _ := json.Marshal(exprs)
	script := `
import json, sys, warnings
import numpy as np
out = {"version": np.__version__, "warnings": []}
for e in json.loads(sys.argv[1]):
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        eval(e)
    out["warnings"].append("; ".join(str(x.message) for x in w))
print(json.dumps(out))
`
	b, err := exec.Command(python, "-c", script, string(js)).Output()
	if err != nil {
		t.Fatalf("numpy: %v", err)
	}
	var got struct {
		Version  string
		Warnings []string
	}
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
	for i, tc := range scalarWarnCases {
		want := tc.numpy
		if strings.HasPrefix(got.Version, "1.") {
			want = tc.numpy1
		}
		if w, _, _ := strings.Cut(want, " | "); w != got.Warnings[i] {
			t.Errorf("NumPy %s: %s warns %q; the table says %q", got.Version, tc.py, got.Warnings[i], w)
		}
	}
}
