package main

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestCasesComplete checks that the matrix holds what issue 17 asks for:
// every elementwise op on every dtype it applies to in every layout, the
// reductions along every axis of 2-d and 3-d inputs, softmax and
// logsoftmax along both ends, the products, every ordered pair of float
// formats, concatenation and counts; and that names are unique and cases
// sharing a setup share its inputs.
func TestCasesComplete(t *testing.T) {
	cs := Cases(Full)
	names := map[string]bool{}
	setups := map[string]string{}
	for _, c := range cs {
		if names[c.Name] {
			t.Errorf("duplicate case %s", c.Name)
		}
		names[c.Name] = true
		in := fmt.Sprint(c.Inputs)
		if prev, ok := setups[c.Setup]; ok && prev != in {
			t.Errorf("%s: setup %s with other inputs than before", c.Name, c.Setup)
		}
		setups[c.Setup] = in
		if c.Expr == "" || c.NumPy == "" {
			t.Errorf("%s: an empty side", c.Name)
		}
	}
	var want []string
	for _, d := range eltDTypes {
		for _, l := range layouts {
			for _, op := range binops {
				if op.classes&class(d) != 0 {
					want = append(want, "binary/"+op.name+"/"+d+"/"+l.name)
				}
			}
			for _, op := range unops {
				if op.classes&class(d) != 0 && l.unary {
					want = append(want, "unary/"+op.name+"/"+d+"/"+l.name)
				}
			}
		}
	}
	for _, d := range []string{"bool", "i8", "i32", "i64", "f16", "f32", "f64"} {
		for _, r := range []string{"sum", "mean", "prod", "max", "min", "argmax", "any", "all"} {
			want = append(want, "reduce/"+r+"/"+d+"/2d/all", "reduce/"+r+"/"+d+"/2d/0", "reduce/"+r+"/"+d+"/2d/1",
				"reduce/"+r+"/"+d+"/3d/0", "reduce/"+r+"/"+d+"/3d/1", "reduce/"+r+"/"+d+"/3d/2")
		}
	}
	for _, d := range []string{"f16", "f32", "f64"} {
		want = append(want, "softmax/softmax/"+d+"/axis0", "softmax/softmax/"+d+"/axis-1",
			"softmax/logsoftmax/"+d+"/axis0", "softmax/logsoftmax/"+d+"/axis-1", "count/gt/"+d)
	}
	for _, a := range floatFormats {
		for _, b := range floatFormats {
			if a != b {
				want = append(want, "cast/"+a+"->"+b)
			}
		}
	}
	for _, n := range []int{64, 256, 1000, 2000} {
		want = append(want, fmt.Sprintf("matmul/f32/%d", n), fmt.Sprintf("matmul/f64/%d", n))
	}
	want = append(want, "matmul/f16/256", "matmul/i32/256", "matmul/f32/mv2000", "matmul/f32/vm2000",
		"matmul/f32/batch256x64", "concat/concat0/f32", "concat/stack0/f32", "mixed/add/i8+u8",
		"binary/pow/f32/contig", "binary/pow2/i32/contig", "binary/pow0.5/f64/contig", "binary/where/bool/contig",
		"binary/lt/u8/strided", "binary/eq/c64/bcast3")
	for _, w := range want {
		if !names[w] {
			t.Errorf("missing case %s", w)
		}
	}
	if len(cs) < 1500 {
		t.Errorf("%d cases, want the whole matrix (≥ 1500)", len(cs))
	}
}

// TestDryRun runs every case on a few elements through eval.Session: each
// must parse and run. The dtypes of a few results are NumPy's own (the
// policy the matrix runs under): NumPy 2's promotion table
// (https://numpy.org/doc/stable/reference/arrays.promotion.html: int8 with
// uint8 gives int16; integer true division gives float64), and
// numpy/_core/_methods.py _mean (an integer or bool mean is float64) and
// _sum of bools (the default integer, int64 here).
func TestDryRun(t *testing.T) {
	wantDType := map[string]string{
		"mixed/add/i8+u8":        "i16",
		"binary/div/i32/contig":  "f64",
		"reduce/mean/i32/2d/0":   "f64",
		"reduce/sum/bool/3d/1":   "i64",
		"count/gt/f32":           "i64",
		"binary/pow0.5/i8/trans": "f64",
		"cast/f32->f8e5m2":       "f8e5m2",
		"reduce/argmax/f16/2d/1": "i64",
	}
	r := newRunner()
	seen := 0
	for _, c := range Cases(Dry) {
		res := r.run(&c, 0, 1)
		if res.Err != "" {
			t.Errorf("%s: %s: %s", c.Name, c.Expr, res.Err)
			continue
		}
		if res.Ms < 0 || res.Runs != 1 {
			t.Errorf("%s: %v ms in %d runs", c.Name, res.Ms, res.Runs)
		}
		if w, ok := wantDType[c.Name]; ok {
			seen++
			if res.DType != w {
				t.Errorf("%s: dtype %s, NumPy gives %s", c.Name, res.DType, w)
			}
		}
		if strings.HasPrefix(c.Name, "reduce/") && strings.HasSuffix(c.Name, "/2d/all") && len(res.Shape) != 0 {
			t.Errorf("%s: shape %v, want a 0-d result", c.Name, res.Shape)
		}
	}
	if seen != len(wantDType) {
		t.Errorf("checked %d of the %d dtypes: a case was renamed", seen, len(wantDType))
	}
}

func TestSelectCases(t *testing.T) {
	cs := Cases(Dry)
	got, err := selectCases(cs, `^matmul/f32/`)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) == 0 || !slices.ContainsFunc(got, func(c Case) bool { return c.Name == "matmul/f32/5" }) {
		t.Errorf("filter ^matmul/f32/: %d cases", len(got))
	}
	for _, c := range got {
		if !strings.HasPrefix(c.Name, "matmul/f32/") {
			t.Errorf("filter let %s through", c.Name)
		}
	}
	if _, err := selectCases(cs, "("); err == nil || !strings.Contains(err.Error(), "-filter") {
		t.Errorf("bad regexp: err = %v", err)
	}
}
