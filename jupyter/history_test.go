package jupyter

import (
	"context"
	"log"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// startHistoryKernel runs a kernel over a fresh tensorsh session that
// keeps its history in file; stop ends it (the test's cleanup does too).
func startHistoryKernel(t *testing.T, file string) (c *testClient, stop func()) {
	t.Helper()
	e, err := newSession("")
	if err != nil {
		t.Fatal(err)
	}
	logs := &syncBuffer{}
	k, err := NewKernel(tcpConn("key"), e, Options{Log: log.New(logs, "", 0), HistoryFile: file})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); k.Run(ctx) }()
	stopped := false
	stop = func() {
		if !stopped {
			stopped = true
			cancel()
			<-done
		}
	}
	t.Cleanup(func() {
		stop()
		if t.Failed() {
			t.Logf("kernel log:\n%s", logs)
		}
	})
	return dialClient(t, k.Connection()), stop
}

// TestHistoryAcrossSessions checks that history_request answers from the
// cells of earlier kernels, as ipykernel's does from IPython's history
// database (ipykernel/kernelbase.py, Kernel.history_request;
// IPython/core/history.py, HistoryManager.get_tail, get_range and search:
// tail and search cover every session, range one session, where 0 is
// the current one and a negative number counts back from it; each item
// is [session, line, input]). %history prints them as IPython's
// HistoryMagics.history does.
func TestHistoryAcrossSessions(t *testing.T) {
	file := filepath.Join(t.TempDir(), "tensorsh", "history.jsonl")
	c, stop := startHistoryKernel(t, file)
	c.execute("x = i16([1, 2])")
	c.execute("x + 1")
	stop()

	c, _ = startHistoryKernel(t, file)
	c.execute("y = u8(3)")
	for _, tc := range []struct {
		req  map[string]any
		want string
	}{
		{map[string]any{"hist_access_type": "tail", "n": 10}, `[[1,1,"x = i16([1, 2])"],[1,2,"x + 1"],[2,1,"y = u8(3)"]]`},
		{map[string]any{"hist_access_type": "tail", "n": 2, "output": true}, `[[1,2,["x + 1","[2 3]\ni16[2] cpu"]],[2,1,["y = u8(3)",null]]]`},
		{map[string]any{"hist_access_type": "range", "session": 0, "start": 1}, `[[2,1,"y = u8(3)"]]`},
		{map[string]any{"hist_access_type": "range", "session": -1, "start": 2}, `[[1,2,"x + 1"]]`},
		{map[string]any{"hist_access_type": "range", "session": 1, "start": 1, "stop": 2}, `[[1,1,"x = i16([1, 2])"]]`},
		{map[string]any{"hist_access_type": "search", "pattern": "x*"}, `[[1,1,"x = i16([1, 2])"],[1,2,"x + 1"]]`},
	} {
		r, _ := c.request("history_request", tc.req)
		if got := field(t, r, "history"); got != tc.want {
			t.Errorf("%v: %s\nwant %s", tc.req, got, tc.want)
		}
	}
	for _, tc := range []struct{ code, want string }{
		{"%history", "y = u8(3)\n"},
		{"%history -n", "   1: y = u8(3)\n   2: %history\n"},
		{"%history -n -l 4", "1/2: x + 1\n   1: y = u8(3)\n   2: %history\n   3: %history -n\n"},
		{"%history -g i16", "1/1: x = i16([1, 2])\n"},
		{"%history 2-3", "%history\n%history -n\n"},
	} {
		_, io := c.execute(tc.code)
		if len(io) < 3 || field(t, io[2], "text") != tc.want {
			t.Errorf("%s: %s %v", tc.code, types(io), io)
		}
	}
	if r, _ := c.execute("%history -x"); field(t, r, "ename") != "UsageError" {
		t.Errorf("%%history -x: %s", r.Content)
	}
	// The file is private to the user.
	if fi, err := os.Stat(file); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("history file: %v %v", fi, err)
	}
}

// TestHistoryFileDamaged checks that unreadable lines are skipped and
// the file is rewritten without them, and that a file too large to read
// is set aside.
func TestHistoryFileDamaged(t *testing.T) {
	file := filepath.Join(t.TempDir(), "history.jsonl")
	os.WriteFile(file, []byte(`{"session":3,"line":1,"input":"a"}`+"\nnot json\n"+`{"session":0,"line":1,"input":"b"}`+"\n"+`{"session":9223372036854775807,"line":1,"input":"c"}`+"\n"), 0o600)
	h := openHistory(file, log.New(&syncBuffer{}, "", 0))
	if h.session != 4 || len(h.entries) != 1 {
		t.Fatalf("session %d, entries %v", h.session, h.entries)
	}
	if data, _ := os.ReadFile(file); string(data) != `{"session":3,"line":1,"input":"a"}`+"\n" {
		t.Errorf("rewritten file %q", data)
	}
	h.add(1, "b", strings.Repeat("x", maxHistoryOutput+10), true)
	h2 := openHistory(file, log.New(&syncBuffer{}, "", 0))
	if h2.session != 5 || len(h2.entries) != 2 || len(h2.entries[1].Output) > maxHistoryOutput+4 {
		t.Errorf("after add: session %d, %d entries", h2.session, len(h2.entries))
	}
	// No file keeps the history in memory.
	if h := openHistory("", nil); h.session != 1 || h.file != "" {
		t.Errorf("no file: %+v", h)
	}
}
