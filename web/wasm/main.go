//go:build js && wasm

// Command wasm is the tensorsh playground's evaluator, compiled to
// WebAssembly (GOOS=js GOARCH=wasm; make web builds it). It runs a
// [web.Playground] in the page and gives JavaScript one object,
// globalThis.tensorsh, whose methods take and return JSON strings:
//
//	run(code)                 → Promise of a web.Result
//	complete(code, cursor)    → web.Completion (cursor in UTF-16 units)
//	isComplete(code)          → {status, indent}
//	state()                   → web.State (policies, lessons)
//	reset(policy)             → "" or an error message
//	cells(code)               → code cut into cells, one statement each
//	addFile(name, text)       → makes a file :load-able
//
// The CPU backend runs its portable Go kernels here: there is no
// assembly, cgo or CUDA in a wasm build.
package main

import (
	"context"
	"encoding/json"
	"syscall/js"

	"github.com/tensorsh/tensorsh/web"
)

func main() {
	policy := "jax"
	if v := js.Global().Get("tensorshPolicy"); v.Type() == js.TypeString {
		policy = v.String()
	}
	p, err := web.NewPlayground(policy)
	if err != nil {
		p, _ = web.NewPlayground("jax")
	}
	api := map[string]any{
		"run": js.FuncOf(func(this js.Value, args []js.Value) any {
			code := args[0].String()
			// Evaluation may wait on goroutines; a js.Func must not
			// block, so it answers a Promise resolved from a goroutine.
			handler := js.FuncOf(func(this js.Value, pargs []js.Value) any {
				resolve := pargs[0]
				go func() {
					resolve.Invoke(jsonString(p.Run(context.Background(), code)))
				}()
				return nil
			})
			defer handler.Release()
			return js.Global().Get("Promise").New(handler)
		}),
		"complete": js.FuncOf(func(this js.Value, args []js.Value) any {
			return jsonString(p.Complete(args[0].String(), args[1].Int()))
		}),
		"isComplete": js.FuncOf(func(this js.Value, args []js.Value) any {
			status, indent := p.IsComplete(args[0].String())
			return jsonString(map[string]string{"status": status, "indent": indent})
		}),
		"state": js.FuncOf(func(this js.Value, args []js.Value) any {
			return jsonString(p.State())
		}),
		"reset": js.FuncOf(func(this js.Value, args []js.Value) any {
			if err := p.Reset(args[0].String()); err != nil {
				return err.Error()
			}
			return ""
		}),
		"cells": js.FuncOf(func(this js.Value, args []js.Value) any {
			return jsonString(web.Cells(args[0].String()))
		}),
		"addFile": js.FuncOf(func(this js.Value, args []js.Value) any {
			p.AddFile(args[0].String(), []byte(args[1].String()))
			return nil
		}),
	}
	if err != nil {
		api["startError"] = err.Error()
	}
	js.Global().Set("tensorsh", js.ValueOf(api))
	if ready := js.Global().Get("tensorshReady"); ready.Type() == js.TypeFunction {
		ready.Invoke()
	}
	select {} // serve calls until the page goes away
}

func jsonString(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return `{"error":` + string(mustQuote(err.Error())) + `}`
	}
	return string(b)
}

func mustQuote(s string) []byte {
	b, _ := json.Marshal(s)
	return b
}
