package main

import (
	"bytes"
	"io"
	"strings"
	"testing"
)

// TestServeUsage checks tensorsh serve's flags and its refusals; the
// page itself is tested in a browser by web's TestBrowser.
func TestServeUsage(t *testing.T) {
	for _, tc := range []struct {
		args   []string
		code   int
		stderr string
	}{
		{[]string{"serve", "-h"}, 0, "usage: tensorsh serve [--addr 127.0.0.1:8080] [--wasm FILE]"},
		{[]string{"serve", "extra"}, 2, `unexpected argument "extra"`},
		{[]string{"serve", "--port", "80"}, 2, "flag provided but not defined: -port"},
		{[]string{"serve", "--wasm", "/nonexistent/tensorsh.wasm"}, 1, "tensorsh serve: open /nonexistent/tensorsh.wasm"},
		{[]string{"serve", "--wasm", "serve_test.go"}, 1, "serve_test.go is not a WebAssembly module"},
	} {
		var stdout, stderr bytes.Buffer
		code := run(tc.args, io.NopCloser(strings.NewReader("")), &stdout, &stderr)
		if code != tc.code || !strings.Contains(stderr.String(), tc.stderr) {
			t.Errorf("tensorsh %s: exit %d, stderr %q; want exit %d and %q", strings.Join(tc.args, " "), code, stderr.String(), tc.code, tc.stderr)
		}
	}
}
