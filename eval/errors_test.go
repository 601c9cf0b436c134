package eval

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// TestCaretLongLines checks that an error on a long line shows a window of
// at most maxCaretLine characters around the caret (with "…" where the
// line was cut) and that the caret stays under the offending text.
func TestCaretLongLines(t *testing.T) {
	long := strings.Repeat("1+", 1<<20) + "x" // a 2 MB line, the error at its end
	tests := []struct {
		name      string
		src       string
		col, w    int
		wantUnder string // the text the caret underlines
	}{
		{"short line", "i8([1]) + y", 11, 1, "y"},
		{"error at the end of a 2 MB line", long, len(long), 1, "x"},
		{"error at the start of a 2 MB line", "zz" + long, 1, 2, "zz"},
		{"error in the middle", strings.Repeat("a", 500) + "BAD" + strings.Repeat("b", 500), 501, 3, "BAD"},
		{"wide caret is clipped", strings.Repeat("c", 1000), 10, 900, strings.Repeat("c", 120-9)},
		{"multibyte", strings.Repeat("é", 300) + "Ω", 301, 1, "Ω"},
	}
	for _, tc := range tests {
		e := &Error{Name: "NameError", Msg: "m", File: "<stdin:1>", Line: 1, Col: tc.col, Width: tc.w, Source: tc.src}
		c := e.Caret()
		lines := strings.Split(c, "\n")
		if len(lines) != 2 {
			t.Fatalf("%s: %d lines", tc.name, len(lines))
		}
		src, caret := []rune(lines[0][2:]), lines[1][2:]
		if n := len(src); n > maxCaretLine+2 {
			t.Errorf("%s: shows %d characters of the line", tc.name, n)
		}
		start := strings.IndexByte(caret, '^')
		n := strings.Count(caret, "^")
		if start < 0 || start+n > len(src) {
			t.Fatalf("%s: caret %q beyond the line %q", tc.name, caret, string(src))
		}
		if got := string(src[start : start+n]); got != tc.wantUnder {
			t.Errorf("%s: caret underlines %q, want %q", tc.name, got, tc.wantUnder)
		}
		if utf8.RuneCountInString(tc.src) > maxCaretLine && !strings.Contains(lines[0], "…") {
			t.Errorf("%s: a cut line shows no …", tc.name)
		}
	}
}
