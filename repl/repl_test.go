package repl

import (
	"bytes"
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tensorsh/tensorsh/eval"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden from the current output")

// TestTranscripts runs each testdata/NAME.in through Run (the lines are
// typed at the prompts) and compares the whole session, prompts and echoed
// input included, with testdata/NAME.golden.
func TestTranscripts(t *testing.T) {
	ins, err := filepath.Glob("testdata/*.in")
	if err != nil {
		t.Fatal(err)
	}
	if len(ins) == 0 {
		t.Fatal("no testdata/*.in")
	}
	for _, in := range ins {
		name := strings.TrimSuffix(filepath.Base(in), ".in")
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			got := transcript(t, "jax", string(src))
			golden := strings.TrimSuffix(in, ".in") + ".golden"
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test ./repl -run TestTranscripts -update)", err)
			}
			if got != string(want) {
				t.Errorf("transcript differs from %s (-update rewrites it):\n%s", golden, diffLines(string(want), got))
			}
		})
	}
}

// transcript runs a session on input with stdout and stderr going to one
// buffer, as on a terminal.
func transcript(t *testing.T, policy, input string) string {
	t.Helper()
	s, err := eval.New(policy)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	err = Run(s, Options{
		Stdin:  io.NopCloser(strings.NewReader(input)),
		Stdout: &out,
		Stderr: &out,
	})
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	return out.String()
}

// diffLines shows the first differing lines of want and got.
func diffLines(want, got string) string {
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
			b.WriteString("line " + itoa(i+1) + ":\n  want: " + wl + "\n  got:  " + gl + "\n")
			shown++
		}
	}
	return b.String()
}

func itoa(i int) string {
	var b [20]byte
	n := len(b)
	for {
		n--
		b[n] = byte('0' + i%10)
		i /= 10
		if i == 0 {
			return string(b[n:])
		}
	}
}
