package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/tensorsh/tensorsh/backend"
	"github.com/tensorsh/tensorsh/backend/cuda"
	"github.com/tensorsh/tensorsh/eval"
	"github.com/tensorsh/tensorsh/internal/format"
)

// Tests of the whole program on a real GPU: the lessons and every
// builtin's example computed by the CUDA backend print what the CPU
// backend prints. On a machine without a GPU they skip, saying why (the
// CUDA backend's own suite, backend/cuda, runs there on the host).

var openGPU = sync.OnceValues(func() (*cuda.Backend, error) { return cuda.New() })

func needGPU(t *testing.T) *cuda.Backend {
	b, err := openGPU()
	if err != nil {
		t.Skipf("no GPU: %v", err)
	}
	return b
}

// onCPU spells a CUDA session's output as the CPU session's where it
// names the backend (:backend's answer, explain's).
func onCPU(s string) string { return strings.ReplaceAll(s, "cuda", "cpu") }

// lineDiff describes where got and want part, line by line, at most ten
// lines.
func lineDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	var b strings.Builder
	shown := 0
	for i := 0; i < max(len(g), len(w)) && shown < 10; i++ {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl {
			fmt.Fprintf(&b, "line %d:\n  gpu: %s\n  cpu: %s\n", i+1, gl, wl)
			shown++
		}
	}
	return b.String()
}

// TestExamplesOnGPU runs each lesson in examples/ with --backend cuda
// against its golden output (made on the CPU backend).
func TestExamplesOnGPU(t *testing.T) {
	needGPU(t)
	files, err := filepath.Glob(filepath.Join("..", "..", "examples", "*.tsh"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no examples: %v", err)
	}
	t.Chdir(filepath.Join("..", ".."))
	for _, f := range files {
		f = filepath.Join("examples", filepath.Base(f))
		t.Run(filepath.Base(f), func(t *testing.T) {
			code, stdout, stderr := tensorsh("--no-color", "--backend", "cuda", f)
			_, want, wantErr := tensorsh("--no-color", f)
			if code != 0 {
				t.Fatalf("exit %d:\n%s", code, lineDiff(stdout+stderr, want+wantErr))
			}
			if got := onCPU(stdout + stderr); got != want+wantErr {
				t.Errorf("%s on the GPU:\n%s", f, lineDiff(got, want+wantErr))
			}
		})
	}
}

// TestBuiltinExamplesOnGPU runs every builtin's example (:help's) under
// three policies on the GPU and on the CPU: the same text.
func TestBuiltinExamplesOnGPU(t *testing.T) {
	g := needGPU(t)
	ctx := context.Background()
	text := func(s *eval.Session, src string) string {
		outs, err := s.Execute(ctx, "", src)
		if err != nil {
			var e *eval.Error
			if !errors.As(err, &e) {
				return fmt.Sprintf("%T: %v", err, err)
			}
			return e.Name + ": " + e.Msg
		}
		if len(outs) == 0 {
			return ""
		}
		return s.Text(outs[len(outs)-1], format.Options{})
	}
	for _, policy := range []string{"numpy", "jax", "torch"} {
		ref, err := eval.New(policy)
		if err != nil {
			t.Fatal(err)
		}
		s, _ := eval.New(policy)
		s.RegisterBackend("cuda", func() (backend.Backend, error) { return g, nil })
		if err := s.SetBackend("cuda"); err != nil {
			t.Fatal(err)
		}
		for _, name := range eval.Functions() {
			_, _, example, _ := eval.Doc(name)
			for _, src := range strings.Split(example, "; ") {
				if src == "" {
					continue
				}
				if got, want := onCPU(text(s, src)), text(ref, src); got != want {
					t.Errorf("%s: %s on the GPU gives %q, on the CPU %q", policy, src, got, want)
				}
			}
		}
	}
}

// TestLibraryAnswersOnGPU runs the expressions of eval's library answers
// (eval/testdata/libs: quantiles, medians, NaN-skipping and signed-zero
// reductions) on the GPU and on the CPU: the same text (eval's
// TestLibraryAnswers holds the CPU's to the libraries').
func TestLibraryAnswersOnGPU(t *testing.T) {
	g := needGPU(t)
	files, err := filepath.Glob(filepath.Join("..", "..", "eval", "testdata", "libs", "*.jsonl"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no library answers: %v", err)
	}
	ctx := context.Background()
	text := func(s *eval.Session, src string) string {
		outs, err := s.Execute(ctx, "", src)
		if err != nil {
			return err.Error()
		}
		if len(outs) == 0 {
			return ""
		}
		return s.Text(outs[len(outs)-1], format.Options{})
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSpace(string(data)), "\n")
		var head struct{ Setup string }
		if err := json.Unmarshal([]byte(lines[0]), &head); err != nil {
			t.Fatal(err)
		}
		cpu, gpu := map[string]*eval.Session{}, map[string]*eval.Session{}
		for _, l := range lines[1:] {
			var a struct{ Policy, Expr string }
			if err := json.Unmarshal([]byte(l), &a); err != nil {
				t.Fatal(err)
			}
			if cpu[a.Policy] == nil {
				c, _ := eval.New(a.Policy)
				s, _ := eval.New(a.Policy)
				s.RegisterBackend("cuda", func() (backend.Backend, error) { return g, nil })
				if err := s.SetBackend("cuda"); err != nil {
					t.Fatal(err)
				}
				text(c, head.Setup)
				text(s, head.Setup)
				cpu[a.Policy], gpu[a.Policy] = c, s
			}
			if got, want := onCPU(text(gpu[a.Policy], a.Expr)), text(cpu[a.Policy], a.Expr); got != want {
				t.Errorf("%s: %s on the GPU gives %q, on the CPU %q", a.Policy, a.Expr, got, want)
			}
		}
	}
}
