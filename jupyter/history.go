package jupyter

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io/fs"
	"log"
	"os"
	"path/filepath"
	"strings"
)

// History bounds. ipykernel keeps every session in an SQLite file
// (IPython/core/history.py, HistoryManager); tensorsh keeps the last
// maxHistory cells of all sessions in a JSON-lines file, each output cut
// to maxHistoryOutput bytes.
const (
	maxHistory       = 10000
	maxHistoryOutput = 4096
	// maxHistoryFile is the largest history file read at start; a larger
	// one is set aside (renamed with ".bad") and a new one begun.
	maxHistoryFile = 64 << 20
	// maxSession bounds a session number read from the file, so that the
	// next one cannot overflow.
	maxSession = 1 << 40
)

// A history records the cells that stored history, for history_request
// and %history: this kernel's session and, when it has a file, the
// sessions of earlier kernels.
type history struct {
	session int // this kernel's session number: one more than the file's last
	entries []histEntry
	file    string // "" keeps the history in memory only
	log     *log.Logger
}

type histEntry struct {
	Session   int    `json:"session"`
	Line      int    `json:"line"` // execution count
	Input     string `json:"input"`
	Output    string `json:"output,omitempty"` // text/plain of the result
	HasOutput bool   `json:"has_output,omitempty"`
}

// DefaultHistoryFile is where a kernel keeps its history: tensorsh/history.jsonl
// in Jupyter's data directory ($JUPYTER_DATA_DIR, else $XDG_DATA_HOME/jupyter,
// else ~/.local/share/jupyter, as jupyter_core.paths.jupyter_data_dir finds
// it on Linux). It is "" when there is no home directory.
func DefaultHistoryFile() string {
	dir := os.Getenv("JUPYTER_DATA_DIR")
	if dir == "" {
		if x := os.Getenv("XDG_DATA_HOME"); x != "" {
			dir = filepath.Join(x, "jupyter")
		} else if home, err := os.UserHomeDir(); err == nil && home != "" {
			dir = filepath.Join(home, ".local", "share", "jupyter")
		} else {
			return ""
		}
	}
	return filepath.Join(dir, "tensorsh", "history.jsonl")
}

// openHistory reads the history file (none yet is an empty history) and
// starts a new session after the last one in it. Lines it cannot read are
// skipped; when it holds more than maxHistory cells, or bad lines, it is
// rewritten with the last maxHistory good ones.
func openHistory(file string, logger *log.Logger) *history {
	h := &history{session: 1, file: file, log: logger}
	if file == "" {
		return h
	}
	data, err := readHistoryFile(file)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			logger.Printf("history: %v; keeping this session's history in memory only", err)
			h.file = ""
		}
		return h
	}
	bad := 0
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, maxHistoryFile)
	for sc.Scan() {
		var e histEntry
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil || e.Session <= 0 || e.Session > maxSession {
			bad++
			continue
		}
		h.entries = append(h.entries, e)
		h.session = max(h.session, e.Session+1)
	}
	if bad > 0 {
		logger.Printf("history: %s: skipped %d unreadable lines", file, bad)
	}
	if len(h.entries) > maxHistory || bad > 0 {
		h.entries = h.entries[max(0, len(h.entries)-maxHistory):]
		h.rewrite()
	}
	return h
}

func readHistoryFile(file string) ([]byte, error) {
	fi, err := os.Stat(file)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, errors.New(file + " is not a regular file")
	}
	if fi.Size() > maxHistoryFile {
		if err := os.Rename(file, file+".bad"); err != nil {
			return nil, err
		}
		return nil, fs.ErrNotExist
	}
	return os.ReadFile(file)
}

// rewrite replaces the file with the entries in memory.
func (h *history) rewrite() {
	var b bytes.Buffer
	for _, e := range h.entries {
		line, _ := json.Marshal(e)
		b.Write(append(line, '\n'))
	}
	tmp := h.file + ".tmp"
	if err := os.WriteFile(tmp, b.Bytes(), 0o600); err != nil {
		h.log.Printf("history: %v", err)
		return
	}
	if err := os.Rename(tmp, h.file); err != nil {
		h.log.Printf("history: %v", err)
	}
}

// add records a cell of this session, in memory and in the file.
func (h *history) add(line int, input, output string, hasOutput bool) {
	if len(output) > maxHistoryOutput {
		output = strings.ToValidUTF8(output[:maxHistoryOutput], "") + "…"
	}
	e := histEntry{Session: h.session, Line: line, Input: input, Output: output, HasOutput: hasOutput}
	h.entries = append(h.entries, e)
	if len(h.entries) > 2*maxHistory {
		h.entries = append([]histEntry(nil), h.entries[len(h.entries)-maxHistory:]...)
	}
	if h.file == "" {
		return
	}
	data, _ := json.Marshal(e)
	if err := os.MkdirAll(filepath.Dir(h.file), 0o700); err != nil {
		h.log.Printf("history: %v", err)
		return
	}
	f, err := os.OpenFile(h.file, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		h.log.Printf("history: %v", err)
		return
	}
	if _, err := f.Write(append(data, '\n')); err != nil {
		h.log.Printf("history: %v", err)
	}
	f.Close()
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

// query answers a history request as ipykernel does (ipykernel/kernelbase.py,
// Kernel.history_request, over IPython's HistoryManager): tail (the last n
// cells of every session), range (lines start up to stop of a session;
// session 0 is this one and a negative session counts back from it) or
// search (the last n cells of every session whose input matches a glob
// pattern).
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
		session := req.Session
		if session <= 0 {
			session += h.session
		}
		for _, e := range h.entries {
			if e.Session == session && e.Line >= req.Start && (req.Stop == nil || e.Line < *req.Stop) {
				sel = append(sel, e)
			}
		}
	case "search":
		pattern := req.Pattern
		if pattern == "" {
			pattern = "*"
		}
		for _, e := range h.entries {
			if globMatch(pattern, e.Input) {
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
			if e.HasOutput {
				o = e.Output
			}
			out = append(out, []any{e.Session, e.Line, []any{e.Input, o}})
		} else {
			out = append(out, []any{e.Session, e.Line, e.Input})
		}
	}
	return out
}

// unique keeps the last entry of each input, in order.
func unique(es []histEntry) []histEntry {
	seen := map[string]bool{}
	var out []histEntry
	for i := len(es) - 1; i >= 0; i-- {
		if !seen[es[i].Input] {
			seen[es[i].Input] = true
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
