package main

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the examples' golden .out files")

// TestExamples runs every examples/*.tsh as `tensorsh FILE` and compares
// its output with the .out file beside it.
func TestExamples(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", "examples", "*.tsh"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no examples: %v", err)
	}
	// Examples name files relative to the project root, where users run them.
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	for i, f := range files {
		files[i], _ = filepath.Rel(root, mustAbs(t, f))
	}
	t.Chdir(root)
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			code, stdout, stderr := tensorsh("--no-color", f)
			if code != 0 {
				t.Fatalf("exit %d:\n%s%s", code, stdout, stderr)
			}
			got := stdout + stderr
			golden := strings.TrimSuffix(f, ".tsh") + ".out"
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (go test ./cmd/tensorsh -update creates it)", err)
			}
			if got != string(want) {
				t.Errorf("output of %s differs from %s:\n--- got\n%s--- want\n%s", f, golden, got, want)
			}
		})
	}
}

func mustAbs(t *testing.T, p string) string {
	a, err := filepath.Abs(p)
	if err != nil {
		t.Fatal(err)
	}
	return a
}
