//go:build !(js && wasm)

// The server half: the page's files, embedded, for tensorsh serve. It is
// left out of the wasm build, which has no use for net/http (2 MB).

package web

//go:generate go run mkwasm.go -o static

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"errors"
	"fmt"
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
var ErrNoWasm = errors.New("this tensorsh was built without the playground's WebAssembly (web/static/tensorsh.wasm, made by make build or go generate ./web).\n" +
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

// A file is one page file. Its gzip form is made on the first request
// that accepts it (the wasm takes a second or two).
type file struct {
	data  []byte
	ctype string
	etag  string

	once sync.Once
	gz   []byte
}

func (f *file) gzipped() []byte {
	f.once.Do(func() {
		var buf bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
		zw.Write(f.data)
		zw.Close()
		f.gz = buf.Bytes()
	})
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
		files[name] = newFile(name, data)
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
	// Compress the wasm now, in the background, so that the first page
	// load does not wait for it.
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
		body := f.data
		if acceptsGzip(r.Header.Get("Accept-Encoding")) {
			h.Set("Content-Encoding", "gzip")
			body = f.gzipped()
		}
		h.Set("Content-Length", fmt.Sprint(len(body)))
		if r.Method == http.MethodHead {
			return
		}
		w.Write(body)
	}), nil
}

func newFile(name string, data []byte) *file {
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
	return &file{data: data, ctype: ctype, etag: `"` + hex.EncodeToString(sum[:8]) + `"`}
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
