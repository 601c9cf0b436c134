package jupyter

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime/debug"
	"unicode/utf8"

	"github.com/go-zeromq/zmq4"
)

// The language the kernel serves, for kernel_info_reply. Highlighting
// borrows Python's modes, the nearest existing ones: the operators,
// numbers, strings and comments are written the same.
const (
	LanguageName  = "tensorsh"
	FileExtension = ".tsh"
	MimeType      = "text/x-tensorsh"
)

// handle answers one request from sock (shell or control), between
// status busy and status idle on IOPub. A request the kernel does not
// know is logged and otherwise ignored.
func (k *Kernel) handle(sock zmq4.Socket, m *message) {
	onShell := sock == k.shell
	var aborted []*message
	k.busy(m, func() {
		defer func() {
			if r := recover(); r != nil {
				k.log.Printf("internal error handling %s: %v\n%s", m.Header.MsgType, r, debug.Stack())
			}
		}()
		switch t := m.Header.MsgType; {
		case t == "kernel_info_request":
			k.reply(sock, m, "kernel_info_reply", k.kernelInfo())
		case t == "shutdown_request":
			k.shutdownRequest(sock, m)
		case t == "interrupt_request":
			k.Interrupt()
			k.reply(sock, m, "interrupt_reply", map[string]string{"status": "ok"})
		case !onShell:
			k.log.Printf("control: ignoring %s (not a control request)", t)
		case t == "execute_request":
			aborted = k.execute(m)
		case t == "complete_request":
			k.complete(m)
		case t == "inspect_request":
			k.inspect(m)
		case t == "is_complete_request":
			k.isComplete(m)
		case t == "history_request":
			k.historyRequest(m)
		case t == "comm_info_request":
			k.reply(sock, m, "comm_info_reply", map[string]any{"status": "ok", "comms": map[string]any{}})
		case t == "comm_open":
			// No comm targets exist: close the comm at once, as
			// ipykernel does for an unknown target.
			var c struct {
				CommID     string `json:"comm_id"`
				TargetName string `json:"target_name"`
			}
			json.Unmarshal(m.Content, &c)
			k.log.Printf("comm_open: no comm target %q", c.TargetName)
			k.publish(m, "comm_close", map[string]any{"comm_id": c.CommID, "data": map[string]any{}})
		default:
			k.log.Printf("shell: ignoring unknown message type %q", t)
		}
	})
	k.abort(aborted)
}

// kernelInfo returns the content of kernel_info_reply.
func (k *Kernel) kernelInfo() map[string]any {
	info := k.engine.Info()
	links := info.HelpLinks
	if links == nil {
		links = []HelpLink{}
	}
	return map[string]any{
		"status":                 "ok",
		"protocol_version":       ProtocolVersion,
		"implementation":         info.Implementation,
		"implementation_version": info.ImplementationVersion,
		"banner":                 info.Banner,
		"help_links":             links,
		"debugger":               false,
		"language_info": map[string]any{
			"name":               LanguageName,
			"version":            info.LanguageVersion,
			"mimetype":           MimeType,
			"file_extension":     FileExtension,
			"pygments_lexer":     pygmentsLexer,
			"codemirror_mode":    codemirrorMode,
			"nbconvert_exporter": "script",
		},
	}
}

func (k *Kernel) shutdownRequest(sock zmq4.Socket, m *message) {
	var req struct {
		Restart bool `json:"restart"`
	}
	json.Unmarshal(m.Content, &req)
	content := map[string]any{"status": "ok", "restart": req.Restart}
	k.reply(sock, m, "shutdown_reply", content)
	k.publish(m, "shutdown_reply", content)
	k.stopShell(req.Restart)
}

type executeRequest struct {
	Code            string            `json:"code"`
	Silent          bool              `json:"silent"`
	StoreHistory    *bool             `json:"store_history"`
	UserExpressions map[string]string `json:"user_expressions"`
	AllowStdin      bool              `json:"allow_stdin"`
	StopOnError     *bool             `json:"stop_on_error"`
}

// execute runs an execute_request. When the cell fails and stop_on_error
// is set, it returns the shell requests that were queued before its reply
// went out, for [Kernel.abort]: a client cannot have sent them knowing of
// the error.
func (k *Kernel) execute(m *message) (queued []*message) {
	var req executeRequest
	if err := json.Unmarshal(m.Content, &req); err != nil {
		k.log.Printf("execute_request: %v", err)
		k.reply(k.shell, m, "execute_reply", errorContent(&Error{
			Name: "BadRequest", Value: err.Error(),
		}, k.count))
		return nil
	}
	store := req.StoreHistory == nil || *req.StoreHistory
	if req.Silent {
		store = false
	}
	stopOnError := req.StopOnError == nil || *req.StopOnError
	if store {
		k.count++
	}
	count := k.count
	if !req.Silent {
		k.publish(m, "execute_input", map[string]any{"code": req.Code, "execution_count": count})
	}

	var (
		result   string // text/plain of the result, for history
		payload  = []any{}
		haveRes  bool
		finished bool
	)
	emit := func(o Output) {
		switch {
		case finished:
			k.log.Printf("execute: output after the cell ended, dropped")
		case o.Page:
			payload = append(payload, map[string]any{"source": "page", "data": o.Data, "start": 0})
		case o.NextInput:
			// ipykernel's ZMQInteractiveShell.set_next_input.
			payload = append(payload, map[string]any{"source": "set_next_input", "text": o.Text, "replace": true})
		case req.Silent:
		case o.Clear:
			k.publish(m, "clear_output", map[string]any{"wait": true})
		case o.Stream != "":
			k.publish(m, "stream", map[string]any{"name": o.Stream, "text": o.Text})
		case o.Result && !haveRes:
			haveRes = true
			result = o.Data["text/plain"]
			k.publish(m, "execute_result", map[string]any{
				"execution_count": count, "data": o.Data, "metadata": map[string]any{},
			})
		default:
			k.publish(m, "display_data", map[string]any{
				"data": o.Data, "metadata": map[string]any{}, "transient": map[string]any{},
			})
		}
	}
	var err error
	if d, ok := magicLine(req.Code, "history"); ok {
		err = k.historyMagic(d, emit)
	} else {
		err = k.run(Cell{Code: req.Code, Count: count, Silent: req.Silent, StoreHistory: store}, emit)
	}
	finished = true
	if store {
		k.history.add(count, req.Code, result, haveRes)
	}
	if err != nil {
		e := asError(err)
		if !req.Silent {
			k.publish(m, "error", map[string]any{"ename": e.Name, "evalue": e.Value, "traceback": e.Traceback})
		}
		if stopOnError {
			queued = k.takeQueued()
		}
		k.reply(k.shell, m, "execute_reply", errorContent(e, count))
		return queued
	}
	k.reply(k.shell, m, "execute_reply", map[string]any{
		"status":           "ok",
		"execution_count":  count,
		"payload":          payload,
		"user_expressions": k.userExpressions(req.UserExpressions, count),
	})
	return nil
}

// run runs one cell on the engine, cancellable by Interrupt. A panic in
// the engine becomes an error; an interrupted cell fails with
// KeyboardInterrupt.
func (k *Kernel) run(cell Cell, emit func(Output)) (err error) {
	ctx, cancel := context.WithCancel(k.ctx)
	defer cancel()
	k.mu.Lock()
	k.running, k.stopped = cancel, false
	k.mu.Unlock()
	defer func() {
		k.mu.Lock()
		stopped := k.stopped
		k.running, k.stopped = nil, false
		k.mu.Unlock()
		if r := recover(); r != nil {
			k.log.Printf("engine panic: %v\n%s", r, debug.Stack())
			err = &Error{Name: "InternalError", Value: fmt.Sprintf("%v (this is a bug in tensorsh)", r)}
		}
		if err != nil && stopped {
			err = &Error{Name: "KeyboardInterrupt", Value: "the cell was interrupted"}
		}
	}()
	return k.engine.Execute(ctx, cell, emit)
}

// asError returns err as an *Error with a traceback: one without its
// own is the error's name in red and its message, as IPython ends a
// traceback.
func asError(err error) *Error {
	var e *Error
	if !errors.As(err, &e) {
		e = &Error{Name: "Error", Value: err.Error()}
	}
	if len(e.Traceback) == 0 {
		e = &Error{Name: e.Name, Value: e.Value, Traceback: plainTraceback(e.Name, e.Value)}
	}
	return e
}

func errorContent(e *Error, count int) map[string]any {
	tb := e.Traceback
	if tb == nil {
		tb = plainTraceback(e.Name, e.Value)
	}
	return map[string]any{
		"status":          "error",
		"ename":           e.Name,
		"evalue":          e.Value,
		"traceback":       tb,
		"execution_count": count,
	}
}

// userExpressions evaluates the user_expressions of an execute_request,
// silently, after the cell.
func (k *Kernel) userExpressions(exprs map[string]string, count int) map[string]any {
	out := map[string]any{}
	for name, code := range exprs {
		var data Bundle
		err := k.run(Cell{Code: code, Count: count, Silent: true}, func(o Output) {
			if o.Result || (data == nil && o.Data != nil && !o.Page) {
				data = o.Data
			}
		})
		switch {
		case err != nil:
			out[name] = errorContent(asError(err), count)
		case data == nil:
			out[name] = map[string]any{"status": "ok", "data": Bundle{"text/plain": ""}, "metadata": map[string]any{}}
		default:
			out[name] = map[string]any{"status": "ok", "data": data, "metadata": map[string]any{}}
		}
	}
	return out
}

type cursorRequest struct {
	Code        string `json:"code"`
	CursorPos   *int   `json:"cursor_pos"`
	DetailLevel int    `json:"detail_level"`
}

// parseCursor decodes a complete or inspect request and returns the
// cursor as a byte offset. cursor_pos counts code points; a missing one
// means the end of the code.
func parseCursor(m *message) (req cursorRequest, cursor int, err error) {
	if err := json.Unmarshal(m.Content, &req); err != nil {
		return req, 0, err
	}
	if req.CursorPos == nil {
		return req, len(req.Code), nil
	}
	return req, byteOffset(req.Code, *req.CursorPos), nil
}

// byteOffset returns the byte offset of code point n of s, clamped to s.
func byteOffset(s string, n int) int {
	if n <= 0 {
		return 0
	}
	for i := range s {
		if n == 0 {
			return i
		}
		n--
	}
	return len(s)
}

// runeOffset returns the code point offset of byte offset b of s.
func runeOffset(s string, b int) int {
	if b < 0 {
		b = 0
	}
	if b > len(s) {
		b = len(s)
	}
	return utf8.RuneCountInString(s[:b])
}

func (k *Kernel) complete(m *message) {
	req, cursor, err := parseCursor(m)
	if err != nil {
		k.replyError(m, "complete_reply", err)
		return
	}
	c := k.engine.Complete(req.Code, cursor)
	start, end := clampRange(req.Code, c.Start, c.End, cursor)
	matches := make([]string, 0, len(c.Matches))
	types := make([]map[string]any, 0, len(c.Matches))
	rs, re := runeOffset(req.Code, start), runeOffset(req.Code, end)
	for _, mt := range c.Matches {
		matches = append(matches, mt.Text)
		types = append(types, map[string]any{
			"start": rs, "end": re, "text": mt.Text, "type": mt.Kind, "signature": mt.Signature,
		})
	}
	k.reply(k.shell, m, "complete_reply", map[string]any{
		"status":       "ok",
		"matches":      matches,
		"cursor_start": rs,
		"cursor_end":   re,
		"metadata":     map[string]any{"_jupyter_types_experimental": types},
	})
}

// clampRange keeps an engine's replacement range inside code.
func clampRange(code string, start, end, cursor int) (int, int) {
	if start < 0 || start > len(code) || end < start || end > len(code) {
		return cursor, cursor
	}
	return start, end
}

func (k *Kernel) inspect(m *message) {
	req, cursor, err := parseCursor(m)
	if err != nil {
		k.replyError(m, "inspect_reply", err)
		return
	}
	data, found := k.engine.Inspect(req.Code, cursor, req.DetailLevel)
	if !found || data == nil {
		data, found = Bundle{}, false
	}
	k.reply(k.shell, m, "inspect_reply", map[string]any{
		"status": "ok", "found": found, "data": data, "metadata": map[string]any{},
	})
}

func (k *Kernel) isComplete(m *message) {
	var req struct {
		Code string `json:"code"`
	}
	if err := json.Unmarshal(m.Content, &req); err != nil {
		k.replyError(m, "is_complete_reply", err)
		return
	}
	status, indent := k.engine.IsComplete(req.Code)
	content := map[string]any{"status": status}
	if status == "incomplete" {
		content["indent"] = indent
	}
	k.reply(k.shell, m, "is_complete_reply", content)
}

// replyError answers a request whose content could not be decoded.
func (k *Kernel) replyError(m *message, msgType string, err error) {
	k.log.Printf("%s: %v", m.Header.MsgType, err)
	k.reply(k.shell, m, msgType, map[string]any{
		"status": "error", "ename": "BadRequest", "evalue": err.Error(), "traceback": []string{},
	})
}
