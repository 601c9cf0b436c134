//go:build ignore

// mkwasm builds the playground's evaluator: tensorsh.wasm (web/wasm built
// with GOOS=js GOARCH=wasm) and the wasm_exec.js of the same Go, into the
// directory -o. go generate ./web runs it for the embedded page (make
// build does), make web for a static site.
//
//	go run mkwasm.go [-gzip] -o DIR
//
// With -gzip the wasm is written gzipped, as tensorsh.wasm.gz (3.9 MB
// instead of 18: tensorsh serve embeds it so, and sends it so).
package main

import (
	"bytes"
	"compress/gzip"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

func main() {
	dir := flag.String("o", "static", "output `directory`")
	gz := flag.Bool("gzip", false, "write tensorsh.wasm.gz instead of tensorsh.wasm")
	flag.Parse()
	if err := build(*dir, *gz); err != nil {
		fmt.Fprintf(os.Stderr, "mkwasm: %v\n", err)
		os.Exit(1)
	}
}

func build(dir string, gz bool) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	out, err := filepath.Abs(filepath.Join(dir, "tensorsh.wasm"))
	if err != nil {
		return err
	}
	// -s -w drop the symbol table and DWARF (18 MB instead of 27);
	// -trimpath keeps local paths out of the file.
	cmd := exec.Command("go", "build", "-trimpath", "-ldflags=-s -w", "-o", out, "github.com/tensorsh/tensorsh/web/wasm")
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm", "CGO_ENABLED=0")
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("go build (GOOS=js GOARCH=wasm): %v", err)
	}
	root, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		return fmt.Errorf("go env GOROOT: %v", err)
	}
	if gz {
		if err := gzipFile(out); err != nil {
			return err
		}
	} else if err := os.Remove(out + ".gz"); err != nil && !os.IsNotExist(err) {
		return err // a stale one would be embedded too
	}
	for _, sub := range []string{"lib/wasm", "misc/wasm"} {
		js, err := os.ReadFile(filepath.Join(strings.TrimSpace(string(root)), sub, "wasm_exec.js"))
		if err == nil {
			return os.WriteFile(filepath.Join(dir, "wasm_exec.js"), js, 0o644)
		}
	}
	return fmt.Errorf("no wasm_exec.js in %s/lib/wasm or misc/wasm", strings.TrimSpace(string(root)))
}

// gzipFile replaces name by name.gz.
func gzipFile(name string) error {
	data, err := os.ReadFile(name)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	zw.Write(data)
	if err := zw.Close(); err != nil {
		return err
	}
	if err := os.WriteFile(name+".gz", buf.Bytes(), 0o644); err != nil {
		return err
	}
	return os.Remove(name)
}
