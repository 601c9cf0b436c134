package jupyter

import (
	"encoding/json"
)

// historySession is the session number of the kernel's history. The
// history lives as long as the kernel process, one session.
const historySession = 1

// A history records the cells that stored history, for history_request.
type history struct {
	entries []histEntry
}

type histEntry struct {
	line      int // execution count
	input     string
	output    string // text/plain of the result
	hasOutput bool
}

func (h *history) add(line int, input, output string, hasOutput bool) {
	h.entries = append(h.entries, histEntry{line, input, output, hasOutput})
}

type historyRequest struct {
	Output         bool   `json:"output"`
	Raw            bool   `json:"raw"`
	HistAccessType string `json:"hist_access_type"`
	Session        int    `json:"session"`
	Start          int    `json:"start"`
	Stop           *int   `json:"stop"`
	N              *int   `json:"n"`
	Pattern        string `json:"pattern"`
	Unique         bool   `json:"unique"`
}

// query answers a history request: tail (the last n cells), range (lines
// start up to stop of a session; 0 and negative sessions count back from
// this one) or search (cells matching a glob pattern, the last n).
func (h *history) query(req historyRequest) []any {
	var sel []histEntry
	switch req.HistAccessType {
	case "tail":
		sel = h.entries
		if req.Unique {
			sel = unique(sel)
		}
		sel = last(sel, req.N)
	case "range":
		if req.Session > 0 && req.Session != historySession || req.Session < 0 {
			return []any{}
		}
		for _, e := range h.entries {
			if e.line >= req.Start && (req.Stop == nil || e.line < *req.Stop) {
				sel = append(sel, e)
			}
		}
	case "search":
		pattern := req.Pattern
		if pattern == "" {
			pattern = "*"
		}
		for _, e := range h.entries {
			if globMatch(pattern, e.input) {
				sel = append(sel, e)
			}
		}
		if req.Unique {
			sel = unique(sel)
		}
		sel = last(sel, req.N)
	}
	out := make([]any, 0, len(sel))
	for _, e := range sel {
		if req.Output {
			var o any // JSON null when the cell had no result
			if e.hasOutput {
				o = e.output
			}
			out = append(out, []any{historySession, e.line, []any{e.input, o}})
		} else {
			out = append(out, []any{historySession, e.line, e.input})
		}
	}
	return out
}

// unique keeps the last entry of each input, in order.
func unique(es []histEntry) []histEntry {
	seen := map[string]bool{}
	var out []histEntry
	for i := len(es) - 1; i >= 0; i-- {
		if !seen[es[i].input] {
			seen[es[i].input] = true
			out = append(out, es[i])
		}
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}

// last returns the last n entries (all when n is nil).
func last(es []histEntry, n *int) []histEntry {
	if n != nil && *n >= 0 && *n < len(es) {
		return es[len(es)-*n:]
	}
	return es
}

// globMatch reports whether s matches pattern as a whole, the way
// IPython's history search (SQLite GLOB) does: '*' is any text, newlines
// included, '?' any one character, and everything else itself.
func globMatch(pattern, s string) bool {
	p, t := []rune(pattern), []rune(s)
	// Iterative matching with one backtrack point for the last '*'.
	pi, ti, star, mark := 0, 0, -1, 0
	for ti < len(t) {
		switch {
		case pi < len(p) && (p[pi] == '?' || p[pi] == t[ti]):
			pi++
			ti++
		case pi < len(p) && p[pi] == '*':
			star, mark = pi, ti
			pi++
		case star >= 0:
			mark++
			pi, ti = star+1, mark
		default:
			return false
		}
	}
	for pi < len(p) && p[pi] == '*' {
		pi++
	}
	return pi == len(p)
}

func (k *Kernel) historyRequest(m *message) {
	var req historyRequest
	if err := json.Unmarshal(m.Content, &req); err != nil {
		k.replyError(m, "history_reply", err)
		return
	}
	k.reply(k.shell, m, "history_reply", map[string]any{"status": "ok", "history": k.history.query(req)})
}
