package repl

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tensorsh/tensorsh/internal/testenv"
)

// TestTerminal builds the real tensorsh binary and drives it in a pseudo
// terminal with tmux, the way a user would: Tab completion, the width of
// the terminal, colour and NO_COLOR, Ctrl-C at the prompt and during a
// long statement, Ctrl-D, and history recalled (↑ and Ctrl-R) in a second
// run with the same XDG_DATA_HOME.
func TestTerminal(t *testing.T) {
	if testing.Short() {
		t.Skip("builds tensorsh and drives it in tmux; skipped with -short")
	}
	if _, err := exec.LookPath("tmux"); err != nil {
		testenv.Missing(t, "tmux is not installed; the terminal test needs it (apt-get install tmux)")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		testenv.Missing(t, "no go command to build tensorsh with")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "tensorsh")
	build := exec.Command(goTool, "build", "-o", bin, "./cmd/tensorsh")
	build.Dir = ".."
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/tensorsh: %v\n%s", err, out)
	}
	data := filepath.Join(dir, "data")
	env := []string{"HOME=" + filepath.Join(dir, "home"), "XDG_DATA_HOME=" + data, "TERM=xterm-256color"}

	// First run: 60 columns, colour on.
	tm := startTerm(t, dir, "one", 60, bin, env)
	tm.waitPrompt("jax>")
	if !strings.HasPrefix(tm.screen(), "tensorsh ") || !strings.Contains(tm.screen(), "policy jax") {
		t.Fatalf("no banner:\n%s", tm.screen())
	}
	tm.run("jax>", "x = i16([1, 2, 3])", "jax>")
	tm.run("jax>", "myvariable = 7", "jax>")

	// Tab completes a variable, a function, a keyword argument, a policy.
	tm.complete("myvar", "jax> myvariable")
	tm.expect(tm.run("jax>", "myvariable * 2", "jax>"), "i32? 14")
	tm.complete("sqr", "jax> sqrt")
	tm.expect(tm.run("jax>", "sqrt(f32(4))", "jax>"), "f32 2.0")
	tm.complete("sum(x, ax", "jax> sum(x, axis=")
	tm.expect(tm.run("jax>", "sum(x, axis=0)", "jax>"), " 6")
	tm.complete(":policy an", "jax> :policy anvil")
	tm.run("jax>", ":policy anvil", "anvil>")
	tm.complete(":policy ja", "anvil> :policy jax")
	tm.run("anvil>", ":policy jax", "jax>")

	// The values wrap at the terminal's width (60 here, not the default 80),
	// and the type line is coloured.
	out := tm.run("jax>", "arange(40)", "jax>")
	lines := strings.Split(out, "\n")
	if len(lines) < 3 {
		t.Errorf("arange(40) in 60 columns should take several lines:\n%s", out)
	}
	for _, l := range lines {
		if len(l) > 60 {
			t.Errorf("line longer than the terminal (60): %q", l)
		}
	}
	if typeLine := tm.colorLine("[40] cpu"); !strings.Contains(typeLine, "\x1b[") {
		t.Errorf("type line not coloured: %q", typeLine)
	}

	// Ctrl-C at the prompt clears the line.
	tm.typ("garbage")
	tm.waitLast("jax> garbage")
	tm.key("C-c")
	tm.waitPrompt("jax>")
	tm.expect(tm.run("jax>", "x", "jax>"), "[1 2 3]\ni16[3] cpu")

	// An open bracket asks for more lines, indented; Ctrl-C there drops
	// the whole statement.
	tm.typ("v = [1,")
	tm.key("Enter")
	tm.waitFor("the continuation prompt", func(s string) bool { return strings.HasSuffix(s, "jax> v = [1,\n...>") })
	tm.typ("2]")
	tm.waitLast("...>     2]")
	tm.key("Enter")
	tm.waitPrompt("jax>")
	tm.expect(tm.run("jax>", "v", "jax>"), "[1 2]")
	tm.typ("w = (1 +")
	tm.key("Enter")
	tm.waitLast("...>")
	tm.key("C-c")
	tm.waitPrompt("jax>")
	tm.expect(tm.run("jax>", "w", "jax>"), `name "w" is not defined`)

	// Ctrl-C during a statement that would run for seconds cancels it; the
	// session and its variables survive.
	tm.typ(longRows)
	tm.key("Enter")
	// The line editor has given the statement up when the cursor stands
	// at the start of the line under it (the screen trims that blank
	// line); Ctrl-C goes again while the statement still runs, in case
	// the first came before it started.
	for deadline := time.Now().Add(time.Minute); tm.cursorX() != "0"; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("waiting for %s to run; the terminal shows:\n%s", longRows, tm.screen())
		}
	}
	t0 := time.Now()
	tm.key("C-c")
	for again := t0.Add(2 * time.Second); ; {
		s := tm.screen()
		_, after, _ := strings.Cut(s, "jax> "+longRows+"\n")
		if strings.Contains(after, "KeyboardInterrupt") && lastLine(s) == "jax>" {
			break
		}
		if strings.Contains(after, "jax>") && !strings.Contains(after, "KeyboardInterrupt") {
			t.Fatalf("%s finished instead of being interrupted:\n%s", longRows, s)
		}
		if time.Now().After(t0.Add(time.Minute)) {
			t.Fatalf("waiting for KeyboardInterrupt and the prompt; the terminal shows:\n%s", s)
		}
		if time.Now().After(again) && !strings.Contains(after, "KeyboardInterrupt") {
			tm.key("C-c")
			again = time.Now().Add(2 * time.Second)
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Logf("Ctrl-C during %s: the prompt came back after %v (tmux polling included)", longRows, time.Since(t0).Round(time.Millisecond))
	tm.expect(tm.run("jax>", "x", "jax>"), "[1 2 3]\ni16[3] cpu")
	tm.expect(tm.run("jax>", "s", "jax>"), `name "s" is not defined`)
	tm.expect(tm.run("jax>", "myvariable", "jax>"), "i32? 7")

	tm.run("jax>", "history_probe = 42", "jax>")
	tm.key("C-d")
	tm.waitFor("exit status", func(s string) bool { return strings.Contains(s, "[exited 0]") })
	hist, err := os.ReadFile(filepath.Join(data, "tensorsh", "history"))
	if err != nil || !strings.Contains(string(hist), "history_probe = 42\n") {
		t.Fatalf("history file: %v\n%s", err, hist)
	}

	// Second run, same data directory, NO_COLOR set: ↑ recalls the last
	// line of the first run, Ctrl-R finds an older one.
	tm = startTerm(t, dir, "two", 80, bin, append(env, "NO_COLOR=1"))
	tm.waitPrompt("jax>")
	tm.key("Up")
	tm.waitLast("jax> history_probe = 42")
	tm.key("C-u")
	tm.waitPrompt("jax>")
	tm.key("C-r")
	tm.typ("myvariable =")
	tm.waitFor("Ctrl-R to find myvariable = 7", func(s string) bool {
		// The line being edited shows the match, the search under it.
		lines := strings.Split(s, "\n")
		return len(lines) > 1 && lines[len(lines)-2] == "jax> myvariable = 7"
	})
	tm.key("Enter")
	tm.waitFor("the found line to run", func(s string) bool {
		return strings.Contains(s, "jax> myvariable = 7\n") && lastLine(s) == "jax>"
	})
	tm.expect(tm.run("jax>", "myvariable + 1", "jax>"), "i32? 8")
	tm.expect(tm.run("jax>", "x + 1.5", "jax>"), `name "x" is not defined`) // a new session
	if s := tm.capture("-e"); strings.Contains(s, "\x1b[") {
		t.Errorf("colour with NO_COLOR=1:\n%q", s)
	}
	tm.run("jax>", ":quit", "[exited 0]")
}

// longRows is a statement that takes seconds on the CPU backend (10⁹
// sines, about 10 s on two cores) in little memory.
const longRows = "s = sum(sin(ones((10**5, 10**4))), axis=1)"

// A term is one tmux session running a command in a pseudo terminal.
type term struct {
	t    *testing.T
	sock string
}

// startTerm runs bin with env in a new tmux server of its own, in a
// terminal of the given width. When bin exits the pane shows
// "[exited STATUS]".
func startTerm(t *testing.T, dir, name string, width int, bin string, env []string) *term {
	t.Helper()
	tm := &term{t: t, sock: filepath.Join(dir, name+".sock")}
	shell := fmt.Sprintf("env -u NO_COLOR %s %s; echo \"[exited $?]\"; sleep 600",
		strings.Join(quoteAll(env), " "), shellQuote(bin))
	tm.tmux("new-session", "-d", "-s", "t", "-x", fmt.Sprint(width), "-y", "50", shell)
	t.Cleanup(func() { exec.Command("tmux", "-S", tm.sock, "kill-server").Run() })
	return tm
}

func quoteAll(s []string) []string {
	q := make([]string, len(s))
	for i, x := range s {
		q[i] = shellQuote(x)
	}
	return q
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

func (tm *term) tmux(args ...string) string {
	tm.t.Helper()
	out, err := exec.Command("tmux", append([]string{"-S", tm.sock, "-f", "/dev/null"}, args...)...).CombinedOutput()
	if err != nil {
		tm.t.Fatalf("tmux %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// typ types text; key presses keys named as tmux names them (Enter, Tab,
// C-c, Up).
func (tm *term) typ(text string)    { tm.tmux("send-keys", "-t", "t", "-l", text) }
func (tm *term) key(keys ...string) { tm.tmux(append([]string{"send-keys", "-t", "t"}, keys...)...) }

// capture returns the whole pane, scrollback included, wrapped lines
// joined.
func (tm *term) capture(flags ...string) string {
	return tm.tmux(append([]string{"capture-pane", "-p", "-J", "-S", "-", "-t", "t"}, flags...)...)
}

// cursorX returns the column of the pane's cursor, "0" at the start of a
// line.
func (tm *term) cursorX() string {
	return strings.TrimSpace(tm.tmux("display-message", "-p", "-t", "t", "#{cursor_x}"))
}

// screen returns the pane's text with trailing spaces and blank lines
// removed.
func (tm *term) screen() string {
	lines := strings.Split(tm.capture(), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.TrimRight(strings.Join(lines, "\n"), "\n")
}

func lastLine(s string) string { return s[strings.LastIndexByte(s, '\n')+1:] }

// waitFor polls the screen until cond holds, failing after a minute.
func (tm *term) waitFor(what string, cond func(screen string) bool) string {
	tm.t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		s := tm.screen()
		if cond(s) {
			return s
		}
		if time.Now().After(deadline) {
			tm.t.Fatalf("waiting for %s; the terminal shows:\n%s", what, s)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func (tm *term) waitLast(line string) {
	tm.t.Helper()
	tm.waitFor(fmt.Sprintf("last line %q", line), func(s string) bool { return lastLine(s) == line })
}

func (tm *term) waitPrompt(prompt string) { tm.t.Helper(); tm.waitLast(prompt) }

// run types line at prompt, presses Enter, waits for next (the next
// prompt) and returns what was printed in between.
func (tm *term) run(prompt, line, next string) string {
	tm.t.Helper()
	typed := prompt + " " + line
	n := strings.Count(tm.screen()+"\n", typed+"\n")
	tm.typ(line)
	tm.key("Enter")
	var out string
	tm.waitFor(fmt.Sprintf("%q to run", line), func(s string) bool {
		if strings.Count(s+"\n", typed+"\n") <= n || lastLine(s) != next {
			return false
		}
		i := strings.LastIndex(s+"\n", typed+"\n") + len(typed) + 1
		out = strings.TrimSuffix(s[min(i, len(s)):len(s)-len(next)], "\n")
		return true
	})
	return out
}

// complete types text, presses Tab, checks that the line becomes want and
// clears it.
func (tm *term) complete(text, want string) {
	tm.t.Helper()
	tm.typ(text)
	tm.key("Tab")
	tm.waitLast(want)
	tm.key("C-u")
	tm.waitLast(want[:strings.IndexByte(want, '>')+1])
}

func (tm *term) expect(out, want string) {
	tm.t.Helper()
	if !strings.Contains(out, want) {
		tm.t.Errorf("output %q does not contain %q", out, want)
	}
}

// colorLine returns the last line of the pane, with its escape sequences,
// that contains text.
func (tm *term) colorLine(text string) string {
	var found string
	for _, l := range strings.Split(tm.capture("-e"), "\n") {
		if strings.Contains(l, text) || strings.Contains(stripANSI(l), text) {
			found = l
		}
	}
	return found
}

func stripANSI(s string) string { return ansi.ReplaceAllString(s, "") }
