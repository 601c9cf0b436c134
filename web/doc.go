// Package web is the tensorsh playground: the evaluator compiled to
// WebAssembly (web/wasm) running in a static page (web/static), so that a
// student needs nothing but a browser. [Playground] is the state behind
// a page; [Handler] serves the page (tensorsh serve).
//
// The page's files are embedded. tensorsh.wasm.gz and wasm_exec.js (the
// Go runtime's JavaScript half, from $(go env GOROOT)/lib/wasm) are
// generated into web/static by go generate (make build runs it) and are
// not checked in: the wasm is 18 MB, 3.9 MB gzipped, and it is embedded
// and sent gzipped. A binary built without them (go install) serves the
// page only with --wasm FILE.
package web
