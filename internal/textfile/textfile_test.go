package textfile

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func TestRead(t *testing.T) {
	dir := t.TempDir()
	write := func(name, data string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	ok := write("ok.tsh", "x = 1\nx + 2 # é\n")
	if got, err := Read(context.Background(), ok, 0); err != nil || string(got) != "x = 1\nx + 2 # é\n" {
		t.Errorf("Read(ok.tsh) = %q, %v", got, err)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	secret := "SECRET=hunter2"
	tests := []struct {
		name, path string
		limit      int64
		want       string
	}{
		{"a FIFO with no writer", fifo, 0, "not a regular file (a named pipe)"},
		{"/dev/zero", "/dev/zero", 0, "not a regular file (a character device)"},
		{"a directory", dir, 0, "not a regular file (a directory)"},
		{"over the limit", write("big.tsh", strings.Repeat("1\n", 100)), 10, "too large"},
		{"NUL bytes", write("env", secret+"\x00HOME=/root\x00"), 0, "not a text file"},
		{"invalid UTF-8", write("bin", "\xff\xfe"+secret), 0, "not a text file"},
		{"missing", filepath.Join(dir, "nope"), 0, "no such file"},
	}
	for _, tc := range tests {
		_, err := Read(context.Background(), tc.path, tc.limit)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want %q", tc.name, err, tc.want)
			continue
		}
		if strings.Contains(err.Error(), "hunter2") {
			t.Errorf("%s: the error quotes the file: %v", tc.name, err)
		}
	}
	// /proc files report size 0 but have contents, separated by NULs.
	if _, err := os.Stat("/proc/self/environ"); err == nil && len(os.Environ()) > 0 {
		if _, err := Read(context.Background(), "/proc/self/environ", 0); !errors.Is(err, ErrNotText) {
			t.Errorf("/proc/self/environ: err = %v, want ErrNotText", err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Read(ctx, ok, 0); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: err = %v", err)
	}
}
