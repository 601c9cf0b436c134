package repl

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/tensorsh/tensorsh/eval"
)

func newLoop(t *testing.T, policy string) *loop {
	t.Helper()
	s, err := eval.New(policy)
	if err != nil {
		t.Fatal(err)
	}
	return &loop{s: s, width: func() int { return 0 }}
}

func TestComplete(t *testing.T) {
	l := newLoop(t, "jax")
	if _, err := l.s.Execute(context.Background(), "", "myvar = i16([1, 2]); mytensor = ones(3)"); err != nil {
		t.Fatal(err)
	}
	c := &completer{l: l}
	tests := []struct {
		pending, line string
		pos           int // -1: end of line
		want          []string
		length        int
	}{
		{"", "sqr", -1, []string{"t"}, 3},
		{"", "x = my", -1, []string{"tensor", "var"}, 2},
		{"", "myv + 1", 3, []string{"ar"}, 3},
		{"", "bf", -1, []string{"16", "loat16"}, 2},
		{"", ":pol", -1, []string{"icy"}, 3},
		{"", ":policy num", -1, []string{"py", "py1"}, 3},
		{"", ":policy an", -1, []string{"vil"}, 2},
		{"", ":q", -1, []string{"uit"}, 1},
		{"", ":e", -1, []string{"xit"}, 1},
		{"", "sum(myvar, ax", -1, []string{"is="}, 2},
		{"", "sum(myvar, keep", -1, []string{"dims="}, 4},
		// A call opened on an earlier line of the statement.
		{"sum(myvar,\n", "    ax", -1, []string{"is="}, 2},
		// Indenting a continuation line.
		{"sum(myvar,\n", "", -1, []string{"    "}, 0},
		{"", "zzz", -1, nil, 3},
		// Attributes and methods after a '.'.
		{"", "myvar.su", -1, []string{"m"}, 2},
		{"", "myvar.T.sh", -1, []string{"ape"}, 2},
		{"", "myvar.astype(f1", -1, []string{"6"}, 2},
		// Non-ASCII text before the word: lengths count runes.
		{"", `"é" ; sqr`, -1, []string{"t"}, 3},
	}
	for _, tt := range tests {
		l.pending = tt.pending
		line := []rune(tt.line)
		pos := tt.pos
		if pos < 0 {
			pos = len(line)
		}
		got, length := c.Do(line, pos)
		var gs []string
		for _, g := range got {
			gs = append(gs, string(g))
		}
		if !slices.Equal(gs, tt.want) || length != tt.length && len(tt.want) > 0 {
			t.Errorf("Do(%q+%q, %d) = %q, %d; want %q, %d", tt.pending, tt.line, pos, gs, length, tt.want, tt.length)
		}
	}
	l.pending = ""
	if got, _ := c.Do([]rune("x"), 5); got != nil {
		t.Errorf("Do with a cursor past the end = %q, want nothing", got)
	}
}

var ansi = regexp.MustCompile("\x1b\\[[0-9;]*m")

// TestReportColor checks that the coloured error is the plain report with
// colours added, and that colour marks "error:" and the caret.
func TestReportColor(t *testing.T) {
	l := newLoop(t, "numpy")
	cases := []string{"i8([1]) + 200", "nosuch", ":policy nosuch", "x = = 1", "[1, 2) + 1"}
	for _, src := range cases {
		_, err := l.s.Execute(context.Background(), "", src)
		var e *eval.Error
		if !errors.As(err, &e) {
			t.Fatalf("%s: err = %v, want an *eval.Error", src, err)
		}
		l.color = false
		plain := l.report(err)
		if plain != e.Report() {
			t.Errorf("%s: plain report %q, want %q", src, plain, e.Report())
		}
		l.color = true
		colored := l.report(err)
		if got := ansi.ReplaceAllString(colored, ""); got != plain {
			t.Errorf("%s: coloured report without colours is\n%s\nwant\n%s", src, got, plain)
		}
		if !strings.Contains(colored, red+"error:"+reset) {
			t.Errorf("%s: %q has no red error:", src, colored)
		}
		if e.Caret() != "" && !strings.Contains(colored, red+"^") {
			t.Errorf("%s: %q has no red caret", src, colored)
		}
	}
	l.color = true
	if got := l.report(errors.New("boom")); got != red+"error:"+reset+" boom" {
		t.Errorf("report(plain error) = %q", got)
	}
}

func TestPrompts(t *testing.T) {
	tests := []struct{ policy, prompt, cont string }{
		{"jax", "jax> ", "...> "},
		{"numpy", "numpy> ", "  ...> "},
		{"max-graph", "max-graph> ", "      ...> "},
		{"max", "max> ", "...> "},
	}
	for _, tt := range tests {
		l := newLoop(t, tt.policy)
		if got := l.prompt(); got != tt.prompt {
			t.Errorf("%s: prompt %q, want %q", tt.policy, got, tt.prompt)
		}
		if got := l.continuation(); got != tt.cont {
			t.Errorf("%s: continuation %q, want %q", tt.policy, got, tt.cont)
		}
		l.color = true
		if got := ansi.ReplaceAllString(l.prompt(), ""); got != tt.prompt {
			t.Errorf("%s: coloured prompt %q", tt.policy, got)
		}
	}
}

func TestQuits(t *testing.T) {
	l := newLoop(t, "jax")
	// quit() and exit() leave Python's REPL too (Lib/_sitebuiltins.py,
	// Quitter.__call__ raises SystemExit).
	for _, src := range []string{":quit", ":exit", " :q ", "quit", "exit", "quit()", " exit() "} {
		if !l.quits(src) {
			t.Errorf("quits(%q) = false", src)
		}
	}
	for _, src := range []string{"", "x", ":vars", "quit(1)", "exit + 1", "exit()()"} {
		if l.quits(src) {
			t.Errorf("quits(%q) = true", src)
		}
	}
	if _, err := l.s.Execute(context.Background(), "", "exit = 1"); err != nil {
		t.Fatal(err)
	}
	if l.quits("exit") || l.quits("exit()") {
		t.Error("quits(exit) with a variable exit = true")
	}
}

func TestHistoryPath(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("HOME", filepath.Join(dir, "home"))

	t.Setenv("XDG_DATA_HOME", filepath.Join(dir, "data"))
	got, err := historyPath("")
	if want := filepath.Join(dir, "data", "tensorsh", "history"); err != nil || got != want {
		t.Errorf("historyPath with XDG_DATA_HOME = %q, %v; want %q", got, err, want)
	}
	if fi, err := os.Stat(filepath.Dir(got)); err != nil || !fi.IsDir() || fi.Mode().Perm() != 0o700 {
		t.Errorf("history directory: %v, %v", fi, err)
	}

	for _, xdg := range []string{"", "relative/dir"} { // unset, or not absolute: ignored
		t.Setenv("XDG_DATA_HOME", xdg)
		got, err = historyPath("")
		if want := filepath.Join(dir, "home", ".local", "share", "tensorsh", "history"); err != nil || got != want {
			t.Errorf("historyPath with XDG_DATA_HOME=%q = %q, %v; want %q", xdg, got, err, want)
		}
	}

	file := filepath.Join(dir, "elsewhere", "h")
	if got, err = historyPath(file); err != nil || got != file {
		t.Errorf("historyPath(%q) = %q, %v", file, got, err)
	}

	blocker := filepath.Join(dir, "file")
	if err := os.WriteFile(blocker, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if got, err = historyPath(filepath.Join(blocker, "h")); err == nil || got != "" {
		t.Errorf("historyPath under a file = %q, %v; want an error", got, err)
	}
}

func TestUseColor(t *testing.T) {
	t.Setenv("NO_COLOR", "")
	var b strings.Builder
	if useColor(false, &b) {
		t.Error("colour on a strings.Builder")
	}
	f, err := os.CreateTemp(t.TempDir(), "out")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if useColor(false, f) {
		t.Error("colour on a regular file")
	}
	if termWidth(f) != 0 || termWidth(&b) != 0 {
		t.Error("a terminal width for a file")
	}
	// A terminal is needed for the positive case; it is checked in the
	// tmux test. NO_COLOR and noColor win over a terminal:
	if tty, err := os.OpenFile("/dev/tty", os.O_WRONLY, 0); err == nil {
		defer tty.Close()
		if !useColor(false, tty) {
			t.Error("no colour on /dev/tty")
		}
		if useColor(true, tty) {
			t.Error("colour with noColor")
		}
		t.Setenv("NO_COLOR", "1")
		if useColor(false, tty) {
			t.Error("colour with NO_COLOR=1")
		}
	}
}

// TestHelpKeys checks that :help (whose topics the session lists) ends
// with the REPL's keys, and that :help NAME does not.
func TestHelpKeys(t *testing.T) {
	out := transcript(t, "jax", ":help\n:help sqrt\n")
	help, rest, ok := strings.Cut(out, "jax> :help sqrt\n")
	if !ok {
		t.Fatalf("transcript:\n%s", out)
	}
	if !strings.HasSuffix(help, "\n\n"+keysHelp+"\n") || !strings.Contains(help, eval.Help("")) {
		t.Errorf(":help shows\n%s", help)
	}
	if strings.Contains(rest, "keys:") || !strings.Contains(rest, "sqrt(x)") {
		t.Errorf(":help sqrt shows\n%s", rest)
	}
}
