package eval

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"
)

// TestLibraryAnswers compares tensorsh with the libraries' own answers
// in testdata/libs: NumPy 2.5.2, JAX 0.11.2 (on its CPU) and PyTorch
// 2.11.0 computed each expression on stop 39's device machine, the one
// place they could be installed (the first line of each file says what
// ran, and the setup both sides evaluate). The dtype, the shape and every
// value must be the library's, bit for bit as float64, the sign of a zero
// too; an error where the library raised one.
//
// knownDifferences are the answers tensorsh does not give yet, each with
// its cause; the test fails when one of them starts to agree (drop it
// from the list) or when another one differs.
func TestLibraryAnswers(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "libs", "*.jsonl"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no library answers: %v", err)
	}
	seen := map[string]bool{}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			checkLibraryAnswers(t, f, seen)
		})
	}
	for k := range knownDifferences {
		if !seen[k] {
			t.Errorf("known difference %q: no such case", k)
		}
	}
}

// A libAnswer is one line of a testdata/libs file: the expression under
// the policy, the library's own call, and what it gave.
type libAnswer struct {
	Policy, Expr, Lib string
	Error             string
	DType             string
	Shape             []int
	Values            any
}

func checkLibraryAnswers(t *testing.T, path string, seen map[string]bool) {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	var head struct {
		Setup    string
		Versions map[string]string
	}
	if !sc.Scan() || json.Unmarshal(sc.Bytes(), &head) != nil || head.Setup == "" {
		t.Fatalf("%s: no header line with the setup", path)
	}
	t.Logf("libraries: %v", head.Versions)
	sessions := map[string]*Session{}
	agree := 0
	for sc.Scan() {
		var a libAnswer
		if err := json.Unmarshal(sc.Bytes(), &a); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		s := sessions[a.Policy]
		if s == nil {
			if s, err = New(a.Policy); err != nil {
				t.Fatal(err)
			}
			run(t, s, head.Setup)
			sessions[a.Policy] = s
		}
		key := a.Policy + "\t" + a.Expr
		seen[key] = true
		diff := libDiff(s, a)
		reason, known := knownDifferences[key]
		switch {
		case diff == "" && known:
			t.Errorf("[%s] %s now agrees with %s: drop it from knownDifferences (%s)", a.Policy, a.Expr, a.Lib, reason)
		case diff != "" && !known:
			t.Errorf("[%s] %s: %s (the library: %s)", a.Policy, a.Expr, diff, a.Lib)
		case diff == "":
			agree++
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d answers agree", agree)
}

// libDiff runs a's expression in s and describes how its answer differs
// from the library's ("" when it does not).
func libDiff(s *Session, a libAnswer) string {
	outs, err := s.Execute(context.Background(), "", a.Expr)
	if err != nil || len(outs) == 0 {
		if a.Error != "" {
			return ""
		}
		return fmt.Sprintf("tensorsh fails with %v, the library gives %s%v", err, a.DType, a.Shape)
	}
	if a.Error != "" {
		return "tensorsh succeeds, the library fails with " + a.Error
	}
	b, err := s.JSON(outs[len(outs)-1])
	if err != nil {
		return err.Error()
	}
	var got struct {
		DType  string
		Shape  []int
		Values any
	}
	if err := json.Unmarshal(b, &got); err != nil {
		return err.Error()
	}
	gv, wv := flatValues(got.Values), flatValues(a.Values)
	same := got.DType == a.DType && fmt.Sprint(got.Shape) == fmt.Sprint(a.Shape) && len(gv) == len(wv)
	for i := 0; same && i < len(gv); i++ {
		same = sameValue(gv[i], wv[i])
	}
	if same {
		return ""
	}
	return fmt.Sprintf("tensorsh gives %s%v %v, the library %s%v %v", got.DType, got.Shape, gv, a.DType, a.Shape, wv)
}

// flatValues returns the elements of a JSON value (a number, "nan",
// "inf", "-inf", or nested lists of them) in order.
func flatValues(v any) []any {
	if l, ok := v.([]any); ok {
		var out []any
		for _, e := range l {
			out = append(out, flatValues(e)...)
		}
		return out
	}
	return []any{v}
}

// sameValue reports whether two JSON elements are the same float64, the
// sign of a zero included, or the same word (nan, inf, true).
func sameValue(a, b any) bool {
	x, ok1 := a.(float64)
	y, ok2 := b.(float64)
	if ok1 && ok2 {
		return math.Float64bits(x) == math.Float64bits(y)
	}
	return fmt.Sprint(a) == fmt.Sprint(b)
}

// knownDifferences (policy, tab, expression) are the library answers
// tensorsh does not give yet, and why.
var knownDifferences = func() map[string]string {
	m := map[string]string{}
	add := func(policy, reason string, exprs ...string) {
		for _, e := range exprs {
			m[policy+"\t"+e] = reason
		}
	}
	add("jax", "XLA's max and min order -0.0 below +0.0 (IEEE 754-2019 maximum); tensorsh keeps the first of equal elements",
		"nanmax(nanm, axis=1)", "nanmax(zm, axis=1)", "nanmax(zm, axis=0)", "nanmax(nanm, axis=1, keepdims=true)",
		"nanmin(zm, axis=0)", "max(zz, axis=0)", "max(zz, axis=1)", "max(zz.T, axis=0)", "max(zz.T, axis=1)",
		"min(zz, axis=0)", "min(zz, axis=1)", "min(zz.T, axis=0)", "min(zz.T, axis=1)",
		"maximum(zz[0], zz[1])", "minimum(zz[0], zz[1])", "max(z8)")
	add("numpy", "NumPy's float max and min reductions keep the last of equal elements here (its SIMD loop's maxps returns the second operand of a tie); tensorsh keeps the first",
		"max(zz, axis=0)", "max(zz, axis=1)", "max(zz.T, axis=0)", "max(zz.T, axis=1)",
		"min(zz, axis=0)", "min(zz, axis=1)", "min(zz.T, axis=0)", "min(zz.T, axis=1)")
	add("torch", "torch.maximum and torch.minimum return the first operand of a tie (-0.0 and +0.0); tensorsh, NumPy's second",
		"maximum(zz[0], zz[1])", "minimum(zz[0], zz[1])")
	return m
}()
