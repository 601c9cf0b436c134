//go:build !(js && wasm)

// The server half: the page's files, embedded, for tensorsh serve. It is
// left out of the wasm build, which has no use for net/http (2 MB).

package web

//go:generate go run mkwasm.go -gzip -o static

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"mime"
	"net/http"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
	"sync"
)

//go:embed static
var static embed.FS

// ErrNoWasm says how to get a playground when this binary has none.
var ErrNoWasm = errors.New("this tensorsh was built without the playground's WebAssembly (web/static/tensorsh.wasm.gz, made by make build or go generate ./web).\n" +
	"Build tensorsh with make build, or build the evaluator and pass it:\n" +
	"  GOOS=js GOARCH=wasm go build -o tensorsh.wasm github.com/tensorsh/tensorsh/web/wasm\n" +
	"  tensorsh serve --wasm tensorsh.wasm")

// Options configure [Handler].
type Options struct {
	// Wasm, if set, is a tensorsh.wasm file served instead of the
	// embedded one. wasm_exec.js is taken from beside it, else the
	// embedded one, else the Go installation's.
	Wasm string
}

// A file is one page file, plain, gzipped or both: the form a request
// asks for is made from the other on first need (gzipping the wasm takes
// a second or two; the embedded wasm is stored gzipped).
type file struct {
	ctype string
	etag  string

	mu       sync.Mutex
	data, gz []byte
}

func (f *file) plain() []byte {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.data == nil {
		zr, err := gzip.NewReader(bytes.NewReader(f.gz))
		if err == nil {
			f.data, err = io.ReadAll(zr)
		}
		if err != nil {
			panic(fmt.Sprintf("web: an embedded file does not gunzip: %v", err)) // a build error
		}
	}
	return f.data
}

func (f *file) gzipped() []byte {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.gz == nil {
		var buf bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
		zw.Write(f.data)
		zw.Close()
		f.gz = buf.Bytes()
	}
	return f.gz
}

// Handler serves the playground: index.html, app.js, style.css,
// wasm_exec.js and tensorsh.wasm, gzip-compressed for clients that
// accept it (the wasm shrinks 18 → 4 MB). It fails with [ErrNoWasm] when
// there is no wasm to serve.
func Handler(opts Options) (http.Handler, error) {
	files := map[string]*file{}
	sub, _ := fs.Sub(static, "static")
	err := fs.WalkDir(sub, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(sub, name)
		if err != nil {
			return err
		}
		files[strings.TrimSuffix(name, ".gz")] = newFile(name, data)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if opts.Wasm != "" {
		data, err := os.ReadFile(opts.Wasm)
		if err != nil {
			return nil, err
		}
		if !bytes.HasPrefix(data, []byte("\x00asm")) {
			return nil, fmt.Errorf("%s is not a WebAssembly module", opts.Wasm)
		}
		files["tensorsh.wasm"] = newFile("tensorsh.wasm", data)
		if js, err := os.ReadFile(filepath.Join(filepath.Dir(opts.Wasm), "wasm_exec.js")); err == nil {
			files["wasm_exec.js"] = newFile("wasm_exec.js", js)
		} else if files["wasm_exec.js"] == nil {
			js, err := goWasmExec()
			if err != nil {
				return nil, fmt.Errorf("no wasm_exec.js beside %s, and %v", opts.Wasm, err)
			}
			files["wasm_exec.js"] = newFile("wasm_exec.js", js)
		}
	}
	if files["tensorsh.wasm"] == nil || files["wasm_exec.js"] == nil {
		return nil, ErrNoWasm
	}
	// Compress a --wasm file now, in the background, so that the first
	// page load does not wait for it.
	go files["tensorsh.wasm"].gzipped()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name := strings.TrimPrefix(path.Clean(r.URL.Path), "/")
		if name == "" {
			name = "index.html"
		}
		f := files[name]
		if f == nil {
			http.NotFound(w, r)
			return
		}
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		h := w.Header()
		h.Set("Content-Type", f.ctype)
		h.Set("Cache-Control", "no-cache")
		h.Set("ETag", f.etag)
		h.Set("Vary", "Accept-Encoding")
		h.Set("X-Content-Type-Options", "nosniff")
		if r.Header.Get("If-None-Match") == f.etag {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		body := f.gzipped
		if acceptsGzip(r.Header.Get("Accept-Encoding")) {
			h.Set("Content-Encoding", "gzip")
		} else {
			body = f.plain
		}
		data := body()
		h.Set("Content-Length", fmt.Sprint(len(data)))
		if r.Method == http.MethodHead {
			return
		}
		w.Write(data)
	}), nil
}

// newFile makes a file of its content; a name ending in .gz holds the
// gzipped content of the file named without it.
func newFile(name string, data []byte) *file {
	f := &file{data: data}
	if base, ok := strings.CutSuffix(name, ".gz"); ok {
		name, f.data, f.gz = base, nil, data
	}
	sum := sha256.Sum256(data)
	ctype := mime.TypeByExtension(path.Ext(name))
	switch path.Ext(name) {
	case ".wasm":
		ctype = "application/wasm" // instantiateStreaming needs it
	case ".js":
		ctype = "text/javascript; charset=utf-8"
	case "":
		ctype = "application/octet-stream"
	}
	f.ctype, f.etag = ctype, `"`+hex.EncodeToString(sum[:8])+`"`
	return f
}

// acceptsGzip reports whether an Accept-Encoding header admits gzip.
func acceptsGzip(ae string) bool {
	for _, part := range strings.Split(ae, ",") {
		coding, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		if strings.TrimSpace(coding) == "gzip" || strings.TrimSpace(coding) == "*" {
			return strings.ReplaceAll(strings.TrimSpace(params), " ", "") != "q=0"
		}
	}
	return false
}

// goWasmExec reads wasm_exec.js from the Go installation: lib/wasm since
// Go 1.24, misc/wasm before.
func goWasmExec() ([]byte, error) {
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		return nil, fmt.Errorf("no Go installation to take it from (go env GOROOT: %v)", err)
	}
	root := strings.TrimSpace(string(out))
	for _, dir := range []string{"lib/wasm", "misc/wasm"} {
		if js, err := os.ReadFile(filepath.Join(root, dir, "wasm_exec.js")); err == nil {
			return js, nil
		}
	}
	return nil, fmt.Errorf("no wasm_exec.js in %s/lib/wasm or misc/wasm", root)
}
