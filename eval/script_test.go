package eval

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tensorsh/tensorsh/internal/format"
	"github.com/tensorsh/tensorsh/lang"
)

var update = flag.Bool("update", false, "rewrite the golden files of TestScripts")

// transcript runs src a statement at a time, as a REPL would, and returns
// what a user would see: each input after ">>> " (continuation lines after
// "... "), then its output or its error with the caret.
func transcript(t *testing.T, s *Session, src string) string {
	t.Helper()
	var out strings.Builder
	lines := strings.Split(strings.TrimRight(src, "\n"), "\n")
	for i := 0; i < len(lines); {
		chunk := lines[i]
		i++
		for {
			st, _ := IsComplete(chunk)
			if st != lang.Incomplete || i >= len(lines) {
				break
			}
			chunk += "\n" + lines[i]
			i++
		}
		if strings.TrimSpace(chunk) == "" {
			out.WriteString("\n")
			continue
		}
		if strings.HasPrefix(strings.TrimSpace(chunk), "#") {
			out.WriteString(chunk + "\n")
			continue
		}
		out.WriteString(">>> " + strings.ReplaceAll(chunk, "\n", "\n... ") + "\n")
		outs, err := s.Execute(context.Background(), "", chunk)
		for _, o := range outs {
			out.WriteString(s.Text(o, format.Options{}) + "\n")
		}
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Errorf("%q: error of type %T (%v), want *eval.Error", chunk, err, err)
				out.WriteString("error: " + err.Error() + "\n")
				continue
			}
			out.WriteString(e.Name + ": " + e.Report() + "\n")
		}
	}
	return out.String()
}

// TestScripts runs every testdata/scripts/*.tsh as a REPL transcript and
// compares it with the .golden file beside it (go test -update rewrites
// them; read the diff before committing).
func TestScripts(t *testing.T) {
	files, err := filepath.Glob("testdata/scripts/*.tsh")
	if err != nil || len(files) == 0 {
		t.Fatalf("no scripts: %v", err)
	}
	// Memory errors name the available memory: make it the same everywhere.
	t.Setenv("TENSORSH_MEMORY_LIMIT", "8e9")
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			s, err := New("jax")
			if err != nil {
				t.Fatal(err)
			}
			got := transcript(t, s, string(src))
			golden := strings.TrimSuffix(f, ".tsh") + ".golden"
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if got != string(want) {
				t.Errorf("transcript differs from %s:\n%s", golden, lineDiff(string(want), got))
			}
		})
	}
}

// lineDiff shows the first lines where want and got differ.
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var b strings.Builder
	shown := 0
	for i := 0; i < max(len(w), len(g)) && shown < 10; i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			fmt.Fprintf(&b, "line %d:\n  want: %s\n  got:  %s\n", i+1, wl, gl)
			shown++
		}
	}
	return b.String()
}

func TestIncompleteInput(t *testing.T) {
	for _, tc := range []struct {
		src    string
		status lang.Status
	}{
		{"x + (1", lang.Incomplete},
		{"x +", lang.Incomplete},
		{"[1, 2,\n 3", lang.Incomplete},
		{"1 + 2", lang.Complete},
		{"1 2", lang.Invalid},
		{"", lang.Complete},
	} {
		if got, _ := IsComplete(tc.src); got != tc.status {
			t.Errorf("IsComplete(%q) = %s, want %s", tc.src, got, tc.status)
		}
	}
	s, _ := New("jax")
	_, err := s.Execute(context.Background(), "", "x + (1")
	var e *Error
	if !errors.As(err, &e) || e.Name != "SyntaxError" || e.Line != 1 {
		t.Fatalf("Execute of unfinished input: %v, want a SyntaxError at line 1", err)
	}
}

var formatOff = format.Options{}

func TestCompleteKeywordAcrossLines(t *testing.T) {
	s, _ := New("jax")
	src := "sum(zeros((2, 3)),\n    ax"
	start, end, m := s.Complete(src, len(src))
	if len(m) == 0 || m[0] != (Match{"axis=", "keyword"}) || src[start:end] != "ax" {
		t.Errorf("Complete(%q) = %d %d %v, want axis= first", src, start, end, m)
	}
}

// TestCompleteKinds checks what Complete says each match names, as
// Jupyter's completer shows it.
func TestCompleteKinds(t *testing.T) {
	s, _ := New("jax")
	s.Magics = []string{"history", "load"}
	run(t, s, "sqrt_of = i8([1, 2])")
	for _, tc := range []struct{ src, want string }{
		{"sqrt", "sqrt:function sqrt_of:variable"},
		{"sum(sqrt_of, ke", "keepdims=:keyword"},
		{"bf", "bf16:dtype bfloat16:dtype"},
		{"tr", "trace:function transpose:function tril:function triu:function true:constant true_divide:function trunc:function"},
		{"sqrt_of.nd", "ndim:attribute"},
		{"sqrt_of.sq", "squeeze:method"},
		{"%hi", "history:directive"},
		{":hi", ""}, // the front end's magics are '%' ones
		{"%l", "load:directive lsmagic:directive"},
		{":policy nu", "numpy:policy numpy1:policy"},
		{":policy lo", "load:directive"},
		{":backend c", "cpu:backend"},
		{":help expl", "explain:function"},
		{":help polic", "policies:topic"},
		{":timeit sqrt", "sqrt:function sqrt_of:variable"},
	} {
		_, _, matches := s.Complete(tc.src, len(tc.src))
		var got []string
		for _, m := range matches {
			got = append(got, m.Text+":"+m.Kind)
		}
		if strings.Join(got, " ") != tc.want {
			t.Errorf("Complete(%q) = %q, want %q", tc.src, strings.Join(got, " "), tc.want)
		}
	}
}
