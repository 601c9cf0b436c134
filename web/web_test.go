package web

import (
	"bytes"
	"compress/gzip"
	"context"
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
	_, embedded := fs.Stat(static, "static/tensorsh.wasm")
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

// TestPlayground runs cells as the page does. The promotion results are
// the libraries' (pinned cell by cell in promote/refs_test.go):
//   - JAX: int16 array + Python float is weak float32 with x64 off
//     (https://docs.jax.dev/en/latest/type_promotion.html, i16 ∨ f* = f32,
//     weak_type=True);
//   - NumPy 2: the same is float64, and int8 + 200 raises (NEP 50,
//     https://numpy.org/neps/nep-0050-scalar-promotion.html);
//   - C (examples/cpolicy.go, C11 §6.3.1.8): int8 + int8 is int.
func TestPlayground(t *testing.T) {
	p, err := NewPlayground("jax")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, tc := range []struct {
		code   string
		kinds  string // the items' kinds, space-separated
		text   string // in the last item's text
		html   string // in the last item's HTML
		svg    bool
		policy string
	}{
		{"x = i16([1, 2, 3])", "", "", "", false, "jax"},
		{"x + 1.5", "value", "f32?[3] cpu", `<span class="tsh-weak"`, false, "jax"},
		{"1 + 2", "value", "i32? 3", "policy jax", false, "jax"},
		{"compare(i8([100]) + 1.5)", "value", "numpy       f64[1]", "<table>", false, "jax"},
		{"lattice()", "value", "lattice", "", true, "jax"},
		{":policy numpy", "text", "policy numpy", "", false, "numpy"},
		{"x + 1.5", "value", "f64[3] cpu", "policy numpy", false, "numpy"},
		{"x + 1\ni8([1]) + 200", "value error", "  i8([1]) + 200\n            ^^^", "", false, "numpy"},
		{":policy load examples/cpolicy.go", "text", "loaded from examples/cpolicy.go", "", false, "c"},
		{"i8([100]) + i8([100])", "value", "i32[1] cpu", "policy c", false, "c"},
		{":load examples/nope.tsh", "error", "examples/nope.tsh: no such file in the page", "", false, "c"},
		{":help", "text", "topics:", "", false, "c"},
	} {
		res := p.Run(ctx, tc.code)
		var kinds []string
		for _, it := range res.Items {
			kinds = append(kinds, it.Kind)
		}
		if got := strings.Join(kinds, " "); got != tc.kinds {
			t.Errorf("%q: items %q, want %q (%+v)", tc.code, got, tc.kinds, res.Items)
			continue
		}
		if res.Policy != tc.policy {
			t.Errorf("%q: policy after %q, want %q", tc.code, res.Policy, tc.policy)
		}
		if len(res.Items) == 0 {
			continue
		}
		last := res.Items[len(res.Items)-1]
		if !strings.Contains(last.Text, tc.text) {
			t.Errorf("%q: text %q lacks %q", tc.code, last.Text, tc.text)
		}
		if !strings.Contains(last.HTML, tc.html) {
			t.Errorf("%q: HTML %q lacks %q", tc.code, last.HTML, tc.html)
		}
		if (last.SVG != "") != tc.svg || tc.svg && !strings.HasPrefix(last.SVG, "<svg") {
			t.Errorf("%q: SVG %.40q, want one: %v", tc.code, last.SVG, tc.svg)
		}
		if tc.svg && last.HTML != "" {
			t.Errorf("%q: a picture with HTML too (the kernel sends only the SVG)", tc.code)
		}
	}
	if it := p.Run(ctx, ":policy numpy\ni8([1]) + 200").Items; it[len(it)-1].Name != "PromotionError" {
		t.Errorf("error name %q, want PromotionError", it[len(it)-1].Name)
	}
	p.Run(ctx, ":policy c")

	// A file the user adds can be loaded.
	p.AddFile("./mine.tsh", []byte("y = u8([250]) + 10\ny\n"))
	// C's integer promotions make u8 + int an int: 260, not 4.
	if res := p.Run(ctx, ":load mine.tsh"); len(res.Items) != 1 || res.Items[0].Text != "[260]\ni32[1] cpu" {
		t.Errorf(":load mine.tsh: %+v", res.Items)
	}

	// Reset forgets the variables and takes the policy.
	if err := p.Reset("torch"); err != nil {
		t.Fatal(err)
	}
	if res := p.Run(ctx, "x"); res.Policy != "torch" || len(res.Items) != 1 || res.Items[0].Kind != "error" {
		t.Errorf("after Reset: %+v", res)
	}
	if err := p.Reset("tensorflow"); err == nil || !strings.Contains(err.Error(), "no policy \"tensorflow\"") {
		t.Errorf("Reset(tensorflow): %v", err)
	}
	if _, err := NewPlayground("tensorflow"); err == nil {
		t.Error("NewPlayground(tensorflow) succeeded")
	}
}

func TestPlaygroundState(t *testing.T) {
	p, err := NewPlayground("max")
	if err != nil {
		t.Fatal(err)
	}
	st := p.State()
	if st.Policy != "max" || st.Version == "" {
		t.Errorf("state %+v", st)
	}
	names := map[string]string{}
	for _, pol := range st.Policies {
		names[pol.Name] = pol.Title
	}
	for _, n := range []string{"jax", "jax64", "numpy", "torch", "triton", "max", "anvil", "array-api"} {
		if names[n] == "" {
			t.Errorf("no policy %s in %v", n, st.Policies)
		}
	}
	lessons := map[string]Lesson{}
	for _, l := range st.Lessons {
		lessons[l.Name] = l
	}
	wl := lessons["weak-literals"]
	if wl.Title != "Weak literals: a Python scalar gives way to the tensor it meets." || len(wl.Cells) < 3 {
		t.Errorf("lesson weak-literals: %+v", wl)
	}
	// Every lesson runs without an error in the page, as examples/*.out
	// show from the command line.
	for _, l := range st.Lessons {
		p.Reset("jax")
		for _, c := range l.Cells {
			for _, it := range p.Run(context.Background(), c).Items {
				if it.Kind == "error" {
					t.Errorf("lesson %s, cell %q: %s", l.Name, c, it.Text)
				}
			}
		}
	}
}

func TestCells(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want []string
	}{
		{"", nil},
		{"1 + 2", []string{"1 + 2"}},
		{"x = 1\nx", []string{"x = 1", "x"}},
		{"# a comment\nx = 1\n\n# another\nx + 1\n", []string{"# a comment\nx = 1", "\n# another\nx + 1"}},
		{"zeros((2,\n3))\n1", []string{"zeros((2,\n3))", "1"}},
		{"x = 1\n# trailing comment", []string{"x = 1", "# trailing comment"}},
		{"zeros((2,", []string{"zeros((2,"}}, // incomplete: one cell, whose error the user sees
	} {
		got := Cells(tc.src)
		if strings.Join(got, "|") != strings.Join(tc.want, "|") || len(got) != len(tc.want) {
			t.Errorf("Cells(%q) = %q, want %q", tc.src, got, tc.want)
		}
	}
}

func TestCompleteOffsets(t *testing.T) {
	p, err := NewPlayground("jax")
	if err != nil {
		t.Fatal(err)
	}
	// Offsets are UTF-16 code units, as in JavaScript: "→" is one unit
	// and three bytes, "𝑥" two units and four bytes.
	for _, tc := range []struct {
		code         string
		cursor       int
		start, end   int
		wantContains string
	}{
		{"latt", 4, 0, 4, "lattice"},
		{"# → \nlatt", 9, 5, 9, "lattice"},
		{"# 𝑥\nlatt", 9, 5, 9, "lattice"},
		{"# 𝑥\nlatt + 1", 9, 5, 9, "lattice"},
	} {
		c := p.Complete(tc.code, tc.cursor)
		found := false
		for _, m := range c.Matches {
			found = found || m == tc.wantContains
		}
		if c.Start != tc.start || c.End != tc.end || !found {
			t.Errorf("Complete(%q, %d) = %+v, want [%d:%d] with %q", tc.code, tc.cursor, c, tc.start, tc.end, tc.wantContains)
		}
	}
	for _, tc := range []struct {
		s      string
		units  int
		bytes_ int
	}{
		{"abc", 2, 2},
		{"→x", 1, 3},
		{"𝑥x", 2, 4},
		{"𝑥x", 9, 5},
	} {
		if got := byteOffset(tc.s, tc.units); got != tc.bytes_ {
			t.Errorf("byteOffset(%q, %d) = %d, want %d", tc.s, tc.units, got, tc.bytes_)
		}
		if tc.units <= 3 {
			if got := utf16Offset(tc.s, tc.bytes_); got != tc.units {
				t.Errorf("utf16Offset(%q, %d) = %d, want %d", tc.s, tc.bytes_, got, tc.units)
			}
		}
	}
}
