package eval

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/tensorsh/tensorsh/internal/format"
)

// cellText runs src and returns what a user sees: the outputs, then the
// error with its caret.
func cellText(t *testing.T, s *Session, src string) string {
	t.Helper()
	outs, err := s.Execute(context.Background(), "<cell>", src)
	var b strings.Builder
	for _, o := range outs {
		b.WriteString(s.Text(o, format.Options{}) + "\n")
	}
	if err != nil {
		var e *Error
		if !errors.As(err, &e) {
			t.Fatalf("%q: error %T %v, want *Error", src, err, err)
		}
		b.WriteString(e.Name + ": " + e.Report() + "\n")
	}
	return b.String()
}

// TestParseCache runs cells whose text repeats while what it means
// changes (a variable rebound to another dtype or shape, another policy,
// an error), in a session that reuses syntax trees and in one that parses
// every cell afresh: the two must show the same, and the first must have
// reused trees.
func TestParseCache(t *testing.T) {
	cells := []string{
		"x = i8([1, 2])",
		"x * 2", "x * 2",
		"x = f32([1.5, 2.5])",
		"x * 2",
		"x = i8([[100], [2]])",
		"x * 2", "x * 2",
		"x * 3",
		":policy jax",
		"x * 2",
		"x = 2",
		"x * 2",
		"x * 2.5",
		":policy numpy",
		"x * 2.5",
		"x ** 40", "x ** 40",
		"x = u8([200])",
		"x + 100", "x + 100",
		"x + nope", "x + nope",
		"x +", "x +",
		"y = x * 2\ny + 1", "y = x * 2\ny + 1",
		"1 +\n  x[0, 5]", "1 +\n  x[0, 5]",
		"x = i32(arange(6)).reshape(2, 3)",
		"1 +\n  x[0, 5]",
		"sum(x, axis=1)", "sum(x, axis=1)",
		"explain(x * 2)", "explain(x * 2)",
	}
	cached, err := New("numpy")
	if err != nil {
		t.Fatal(err)
	}
	fresh, _ := New("numpy")
	hits := 0
	for _, src := range cells {
		if _, ok := cached.parsed[src]; ok {
			hits++
		}
		got := cellText(t, cached, src)
		fresh.parsed = nil
		want := cellText(t, fresh, src)
		if got != want {
			t.Errorf("%q: with kept syntax trees\n%s\nparsed afresh\n%s", src, got, want)
		}
	}
	if hits < 10 {
		t.Errorf("%d cells reused a syntax tree, want at least 10", hits)
	}
	if _, ok := cached.parsed["x +"]; ok {
		t.Error("a source that does not parse was kept")
	}
}

// TestParseCacheBounded checks that the kept trees are bounded in number
// and that long sources are not kept.
func TestParseCacheBounded(t *testing.T) {
	s, _ := New("numpy")
	for i := range 3 * maxParsed {
		src := "1 + " + strings.Repeat("0+", i) + "1"
		if _, err := s.Execute(context.Background(), "", src); err != nil {
			t.Fatal(err)
		}
		if len(s.parsed) > maxParsed {
			t.Fatalf("%d trees kept, want at most %d", len(s.parsed), maxParsed)
		}
	}
	long := "1" + strings.Repeat(" + 1", maxParsedLen)
	if _, err := s.Execute(context.Background(), "", long); err != nil {
		t.Fatal(err)
	}
	if _, ok := s.parsed[long]; ok {
		t.Errorf("a source of %d bytes was kept", len(long))
	}
}
