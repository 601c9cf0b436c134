package eval

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestLoadHostileFiles checks that :load and :policy load end quickly with
// a clear error, and the session goes on, for files that used to crash or
// hang the process: a script that loads itself (a stack overflow after 21 s
// and 1 GB), two scripts loading each other, /dev/zero (unbounded growth),
// a FIFO nobody writes (a hang the interrupt did not end), and
// /proc/self/environ (whose first line an error used to echo).
func TestLoadHostileFiles(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	self := filepath.Join(dir, "self.tsh")
	write("self.tsh", ":load "+self+"\n")
	a, b := filepath.Join(dir, "a.tsh"), filepath.Join(dir, "b.tsh")
	write("a.tsh", "x = 1\n:load "+b+"\n")
	write("b.tsh", ":load "+a+"\n")
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct{ src, want string }{
		{":load " + self, ":load cycle: " + self + " → " + self},
		{":load " + a, ":load cycle: " + a + " → " + b + " → " + a},
		{":load /dev/zero", "not a regular file (a character device)"},
		{":load " + fifo, "not a regular file (a named pipe)"},
		{":policy load " + fifo, "not a regular file (a named pipe)"},
		{":load " + dir, "not a regular file (a directory)"},
		{":load " + write("big.tsh", strings.Repeat("# padding\n", 2<<20)), "too large"},
	}
	if _, err := os.Stat("/proc/self/environ"); err == nil && len(os.Environ()) > 0 {
		tests = append(tests, struct{ src, want string }{":load /proc/self/environ", "not a text file"})
	}
	s, err := New("jax")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range tests {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		_, err := s.Execute(ctx, "", tc.src)
		cancel()
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want %q", tc.src, err, tc.want)
		}
		if e, ok := err.(*Error); ok && strings.Contains(e.Report(), "PATH=") {
			t.Errorf("%s: the error quotes the environment", tc.src)
		}
	}
	// The session goes on, and the loads that did run kept their effect.
	outs, err := s.Execute(context.Background(), "", "x + 1")
	if err != nil || len(outs) != 1 || outs[0].Value == nil || !strings.Contains(outs[0].Value.Describe(), "i32") {
		t.Errorf("after the attacks: %v %v", outs, err)
	}
	// A chain of distinct scripts may nest, up to a limit.
	prev := ""
	for i := 0; i < maxLoadDepth+2; i++ {
		body := "y = 1\n"
		if prev != "" {
			body = ":load " + prev + "\n"
		}
		prev = write(strings.Repeat("n", 1)+string(rune('a'+i%26))+strings.Repeat("z", i/26)+".tsh", body)
	}
	if _, err := s.Execute(context.Background(), "", ":load "+prev); err == nil || !strings.Contains(err.Error(), "nested more than") {
		t.Errorf("deep chain: err = %v", err)
	}
}
