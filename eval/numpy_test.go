package eval

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tensorsh/tensorsh/internal/testenv"
)

// The helpers of the tests that run the installed NumPy on the operands of
// a session and compare its results with tensorsh's, bit for bit
// (TestReduceOrderNumPy, TestElementwiseNumPy, TestScalarPromotionNumPy).

// numpyPython is the Python those tests run: Debian's, with python3-numpy.
const numpyPython = "/usr/bin/python3"

// needNumPy skips the test under -short and fails it (testenv.Missing)
// where numpyPython cannot import NumPy; it returns the policy of the
// installed NumPy's version, numpy1 for 1.x and numpy for 2.x.
func needNumPy(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: skipping a test that runs NumPy")
	}
	out, err := exec.Command(numpyPython, "-c", "import numpy; print(numpy.__version__)").Output()
	if err != nil {
		testenv.Missing(t, "%s cannot import numpy (apt-get install python3-numpy)", numpyPython)
	}
	if strings.HasPrefix(string(out), "1.") {
		return "numpy1"
	}
	return "numpy"
}

// numpyPrelude, run before a test's script, reads the request from
// standard input into a and the operands it names into env.
const numpyPrelude = `
import json, os, sys, warnings
import numpy as np
warnings.simplefilter("ignore")
a = json.load(sys.stdin)
env = {"np": np}
for o in a.get("operands", []):
    env[o["name"]] = np.fromfile(os.path.join(a["dir"], o["name"]), dtype=o["dtype"]).reshape(o["shape"])
`

// runNumPy runs numpyPrelude and script in numpyPython with request on its
// standard input, and decodes the JSON the script prints into out.
func runNumPy(t *testing.T, script string, request, out any) {
	t.Helper()
	js, err := json.Marshal(request)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(numpyPython, "-c", numpyPrelude+script)
	cmd.Stdin = bytes.NewReader(js)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	b, err := cmd.Output()
	if err != nil {
		t.Fatalf("numpy: %v: %s", err, stderr.String())
	}
	if err := json.Unmarshal(b, out); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
}

// A numpyOperand is a variable of the session as NumPy reads it.
type numpyOperand struct {
	Name  string `json:"name"`
	DType string `json:"dtype"`
	Shape []int  `json:"shape"`
}

// numpyOperands writes the named variables of s into dir, each as the
// little-endian bytes of its elements, and returns them with their NumPy
// dtypes (np.dtype names) for numpyPrelude.
func numpyOperands(t *testing.T, s *Session, dir string, names map[string]string) []numpyOperand {
	t.Helper()
	var ops []numpyOperand
	for name, dt := range names {
		v, ok := s.Var(name)
		if !ok {
			t.Fatalf("no %s", name)
		}
		b, err := valueBytes(s, v)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
		ops = append(ops, numpyOperand{name, dt, v.Dims()})
	}
	return ops
}

// valueBytes returns the little-endian bytes of the elements of the
// tensor value v in row-major order.
func valueBytes(s *Session, v *Value) ([]byte, error) {
	if v.Kind != TensorValue {
		return nil, fmt.Errorf("not a tensor: %s", v.Describe())
	}
	v, err := s.Fetch(v)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	if err := binary.Write(&b, binary.LittleEndian, v.Tensor.Data); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// lastValueBytes runs src in s and returns its last value, fetched in
// row-major order, and its bytes.
func lastValueBytes(s *Session, src string) (*Value, []byte, error) {
	outs, err := s.Execute(context.Background(), "", src)
	if err != nil {
		return nil, nil, err
	}
	if len(outs) == 0 || outs[len(outs)-1].Value == nil {
		return nil, nil, fmt.Errorf("%s: no value", src)
	}
	v, err := s.Fetch(outs[len(outs)-1].Value)
	if err != nil {
		return nil, nil, err
	}
	b, err := valueBytes(s, v)
	return v, b, err
}

// A numpyValue is a result of NumPy's: its dtype, shape, item size and
// the bytes of its elements in row-major order, in hexadecimal.
type numpyValue struct {
	DType string
	Shape []int
	Size  int
	Hex   string
	Err   string // the exception NumPy raised, where it refused the expression
}

// numpyValues evaluates the NumPy expressions exprs on the operands ops
// (written into dir by numpyOperands), with NumPy's warnings off.
func numpyValues(t *testing.T, dir string, ops []numpyOperand, exprs []string) []numpyValue {
	t.Helper()
	var out []numpyValue
	runNumPy(t, `
import warnings
warnings.simplefilter("ignore")
out = []
for e in a["exprs"]:
    try:
        v = np.asarray(eval(e, env))
    except Exception as ex:
        out.append({"err": "%s: %s" % (type(ex).__name__, ex)})
        continue
    out.append({"dtype": str(v.dtype), "shape": list(v.shape), "size": v.itemsize,
                "hex": np.ascontiguousarray(v).tobytes().hex()})
print(json.dumps(out))
`, map[string]any{"dir": dir, "operands": ops, "exprs": exprs}, &out)
	return out
}

// checkNumPyBits runs each tensorsh expression ts[i] in s and reports
// where its bytes differ from NumPy's result of py[i], and where one of
// the two refuses the expression and the other does not.
func checkNumPyBits(t *testing.T, s *Session, ts, py []string, want []numpyValue) {
	t.Helper()
	for i, src := range ts {
		v, got, err := lastValueBytes(s, src)
		switch w := want[i]; {
		case w.Err != "" && err == nil:
			t.Errorf("%s: %v%v, where NumPy refuses %s: %s", src, v.Type, v.Dims(), py[i], w.Err)
		case w.Err != "":
			// Both refuse.
		case err != nil:
			t.Errorf("%s: %v, where NumPy gives %s %v (%s)", src, err, w.DType, w.Shape, py[i])
		case hex.EncodeToString(got) != w.Hex:
			t.Errorf("%s: %v%v differs from NumPy's %s %v (%s)", src, v.Type, v.Dims(), w.DType, w.Shape, py[i])
		}
	}
}
