//go:build !(js && wasm)

package web

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fakeWasm writes a minimal WebAssembly module (the magic and version of
// an empty module) and a wasm_exec.js beside it.
func fakeWasm(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	wasm := filepath.Join(dir, "tensorsh.wasm")
	if err := os.WriteFile(wasm, append([]byte("\x00asm\x01\x00\x00\x00"), bytes.Repeat([]byte{0}, 4096)...), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "wasm_exec.js"), []byte("// go runtime\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return wasm
}

func TestHandler(t *testing.T) {
	wasm := fakeWasm(t)
	h, err := Handler(Options{Wasm: wasm})
	if err != nil {
		t.Fatal(err)
	}
	want, _ := os.ReadFile(wasm)
	for _, tc := range []struct {
		method, path, encoding string
		status                 int
		ctype, body            string
	}{
		{"GET", "/", "", 200, "text/html; charset=utf-8", "<title>tensorsh playground</title>"},
		{"GET", "/index.html", "gzip", 200, "text/html; charset=utf-8", "<script src=\"app.js\">"},
		{"GET", "/app.js", "br, gzip;q=0.8", 200, "text/javascript; charset=utf-8", "tensorshPage"},
		{"GET", "/style.css", "", 200, "text/css; charset=utf-8", "#input"},
		{"GET", "/wasm_exec.js", "", 200, "text/javascript; charset=utf-8", "// go runtime"},
		{"GET", "/tensorsh.wasm", "gzip", 200, "application/wasm", string(want)},
		{"GET", "/tensorsh.wasm", "gzip;q=0", 200, "application/wasm", string(want)},
		{"HEAD", "/tensorsh.wasm", "", 200, "application/wasm", ""},
		{"GET", "/../go.mod", "", 404, "", ""},
		{"GET", "/static/index.html", "", 404, "", ""},
		{"POST", "/", "", 405, "", ""},
	} {
		r := httptest.NewRequest(tc.method, tc.path, nil)
		if tc.encoding != "" {
			r.Header.Set("Accept-Encoding", tc.encoding)
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		res := w.Result()
		if res.StatusCode != tc.status {
			t.Errorf("%s %s: status %d, want %d", tc.method, tc.path, res.StatusCode, tc.status)
			continue
		}
		if tc.status != 200 {
			continue
		}
		if ct := res.Header.Get("Content-Type"); ct != tc.ctype {
			t.Errorf("%s %s: Content-Type %q, want %q", tc.method, tc.path, ct, tc.ctype)
		}
		body := io.Reader(res.Body)
		gz := acceptsGzip(tc.encoding)
		if got := res.Header.Get("Content-Encoding") == "gzip"; got != gz {
			t.Errorf("%s %s (Accept-Encoding %q): gzip %v, want %v", tc.method, tc.path, tc.encoding, got, gz)
		}
		if gz {
			zr, err := gzip.NewReader(res.Body)
			if err != nil {
				t.Fatalf("%s: %v", tc.path, err)
			}
			body = zr
		}
		data, err := io.ReadAll(body)
		if err != nil {
			t.Fatal(err)
		}
		if tc.method == "HEAD" {
			if len(data) != 0 {
				t.Errorf("HEAD %s: a body of %d bytes", tc.path, len(data))
			}
			continue
		}
		if !strings.Contains(string(data), tc.body) {
			t.Errorf("%s %s: body lacks %q", tc.method, tc.path, tc.body)
		}
	}

	// A second request with the ETag is answered 304.
	r := httptest.NewRequest("GET", "/tensorsh.wasm", nil)
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	r = httptest.NewRequest("GET", "/tensorsh.wasm", nil)
	r.Header.Set("If-None-Match", w.Result().Header.Get("ETag"))
	w = httptest.NewRecorder()
	h.ServeHTTP(w, r)
	if w.Code != http.StatusNotModified {
		t.Errorf("If-None-Match: status %d, want 304", w.Code)
	}
}

func TestHandlerErrors(t *testing.T) {
	notWasm := filepath.Join(t.TempDir(), "x.wasm")
	os.WriteFile(notWasm, []byte("<html>"), 0o644)
	if _, err := Handler(Options{Wasm: notWasm}); err == nil || !strings.Contains(err.Error(), "not a WebAssembly module") {
		t.Errorf("--wasm of an HTML file: %v", err)
	}
	if _, err := Handler(Options{Wasm: filepath.Join(t.TempDir(), "missing.wasm")}); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("--wasm of a missing file: %v", err)
	}
	// Without --wasm the embedded evaluator is served, or, in a binary
	// built without go generate (go install), the error says what to do.
	_, embedded := fs.Stat(static, "static/tensorsh.wasm.gz")
	_, err := Handler(Options{})
	if embedded == nil && err != nil {
		t.Errorf("with web/static/tensorsh.wasm embedded: %v", err)
	}
	if embedded != nil && !errors.Is(err, ErrNoWasm) {
		t.Errorf("with no wasm embedded: %v, want ErrNoWasm", err)
	}
	if !strings.Contains(ErrNoWasm.Error(), "tensorsh serve --wasm tensorsh.wasm") {
		t.Errorf("ErrNoWasm does not say how to serve: %v", ErrNoWasm)
	}
}

func TestAcceptsGzip(t *testing.T) {
	// RFC 9110 §12.5.3: codings with q=0 are "not acceptable"; "*"
	// matches any coding not listed.
	for _, tc := range []struct {
		header string
		want   bool
	}{
		{"", false},
		{"gzip", true},
		{"gzip, deflate, br, zstd", true},
		{"br;q=1.0, gzip;q=0.8", true},
		{"gzip;q=0", false},
		{"gzip; q=0", false},
		{"identity", false},
		{"*", true},
		{"br", false},
	} {
		if got := acceptsGzip(tc.header); got != tc.want {
			t.Errorf("acceptsGzip(%q) = %v, want %v", tc.header, got, tc.want)
		}
	}
}

// TestFileForms checks that a file stored plain or gzipped (the embedded
// wasm, tensorsh.wasm.gz) is served in both forms.
func TestFileForms(t *testing.T) {
	data := bytes.Repeat([]byte("\x00asm tensorsh "), 1000)
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(data)
	zw.Close()
	gunzip := func(b []byte) []byte {
		zr, err := gzip.NewReader(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		out, err := io.ReadAll(zr)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	stored := newFile("tensorsh.wasm.gz", buf.Bytes())
	if stored.ctype != "application/wasm" {
		t.Errorf("tensorsh.wasm.gz serves as %q", stored.ctype)
	}
	if !bytes.Equal(stored.plain(), data) || !bytes.Equal(stored.gzipped(), buf.Bytes()) {
		t.Error("a gzipped file's plain form is not its content")
	}
	plain := newFile("tensorsh.wasm", data)
	if !bytes.Equal(gunzip(plain.gzipped()), data) || !bytes.Equal(plain.plain(), data) {
		t.Error("a plain file's gzip form does not gunzip to it")
	}
}
