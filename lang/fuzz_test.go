package lang

import (
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the testdata/*.golden files")

// TestGolden parses each testdata/*.tsh file and compares its Format with
// the .golden file beside it.
func TestGolden(t *testing.T) {
	files, err := filepath.Glob("testdata/*.tsh")
	if err != nil || len(files) == 0 {
		t.Fatalf("no testdata/*.tsh files: %v", err)
	}
	for _, name := range files {
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		f, err := Parse(name, string(src))
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		got := Format(f) + "\n"
		golden := strings.TrimSuffix(name, ".tsh") + ".golden"
		if *update {
			if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatal(err)
		}
		if got != string(want) {
			t.Errorf("Format(%s):\n%s\nwant (%s):\n%s", name, got, golden, want)
		}
		checkRoundTrip(t, string(src))
	}
}

// FuzzParse checks that no input makes the parser panic, that every error
// is an *Error or an *IncompleteError with a position inside the input,
// that spans lie inside the input, and that what parses formats to text
// that parses to the same tree and formats the same again.
func FuzzParse(f *testing.F) {
	for _, tt := range scanTests {
		f.Add(tt.src)
	}
	for _, tt := range parseTests {
		f.Add(tt.src)
	}
	for _, tt := range formatTests {
		f.Add(tt.src)
	}
	for _, tt := range errorTests {
		f.Add(tt.src)
	}
	for _, tt := range incompleteTests {
		f.Add(tt.src)
	}
	files, _ := filepath.Glob("testdata/*.tsh")
	for _, name := range files {
		if src, err := os.ReadFile(name); err == nil {
			f.Add(string(src))
		}
	}
	f.Fuzz(func(t *testing.T, src string) {
		file, err := Parse("f.tsh", src)
		status, _ := Check(src)
		if err != nil {
			var e *Error
			var ie *IncompleteError
			var pos Position
			switch {
			case errors.As(err, &ie):
				pos = ie.Pos
				if status != Incomplete {
					t.Errorf("Check(%q) = %v, want incomplete", src, status)
				}
				// A REPL adds a newline after each line: that keeps the
				// input incomplete, except after a '\' continuation (in a
				// one-line string or not), which the newline ends, as in
				// Python's codeop.
				continued := ie.Open == `\` || ie.Open == `"` || ie.Open == `'`
				if _, err2 := Parse("f.tsh", src+"\n"); !IsIncomplete(err2) && !continued {
					t.Errorf("%q is incomplete but with a newline: %v", src, err2)
				}
			case errors.As(err, &e):
				pos = e.Pos
				if status != Invalid {
					t.Errorf("Check(%q) = %v, want invalid", src, status)
				}
			default:
				t.Fatalf("Parse(%q) error %T: %v", src, err, err)
			}
			if !pos.IsValid() || pos.Offset > len(src) || pos != posOf(src, pos.Offset) {
				t.Errorf("Parse(%q): error position %+v is not in the input", src, pos)
			}
			return
		}
		if status != Complete {
			t.Errorf("Check(%q) = %v, want complete", src, status)
		}
		Walk(file, func(n Node) bool {
			if f, ok := n.(*File); ok && len(f.Stmts) == 0 {
				return false
			}
			start, end := n.Span()
			if !start.IsValid() || start.Offset > end.Offset || end.Offset > len(src) ||
				start != posOf(src, start.Offset) || end != posOf(src, end.Offset) {
				t.Errorf("%q: %T has span %+v..%+v", src, n, start, end)
			}
			return true
		})
		out := Format(file)
		file2, err := Parse("f.tsh", out)
		if err != nil {
			t.Fatalf("Format(Parse(%q)) = %q does not parse: %v", src, out, err)
		}
		if out2 := Format(file2); out2 != out {
			t.Fatalf("Format is not stable for %q: %q, then %q", src, out, out2)
		}
		if d1, d2 := dump(stripParens(file)), dump(stripParens(file2)); d1 != d2 {
			t.Fatalf("Format changes the tree of %q:\n%s\n%s", src, d1, d2)
		}
	})
}
