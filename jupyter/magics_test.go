package jupyter

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSessionLoadMagic checks %load FILE: the execute_reply carries the
// file, after a "# %load FILE" line, in a set_next_input payload that
// replaces the cell, as IPython's %load does (IPython/core/magics/code.py,
// CodeMagics.load: set_next_input(contents, replace=True); ipykernel's
// ZMQInteractiveShell.set_next_input sends {"source": "set_next_input",
// "text", "replace"}). %run FILE and :load FILE run the file instead.
func TestSessionLoadMagic(t *testing.T) {
	_, c, _ := startSession(t)
	file := filepath.Join(t.TempDir(), "lesson.tsh")
	if err := os.WriteFile(file, []byte("x = i8([1, 2])\nx + 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r, io := c.execute("%load " + file)
	var reply struct {
		Status  string           `json:"status"`
		Payload []map[string]any `json:"payload"`
	}
	if err := json.Unmarshal(r.Content, &reply); err != nil {
		t.Fatal(err)
	}
	want := "# %load " + file + "\nx = i8([1, 2])\nx + 1\n"
	if reply.Status != "ok" || len(reply.Payload) != 1 || reply.Payload[0]["source"] != "set_next_input" ||
		reply.Payload[0]["text"] != want || reply.Payload[0]["replace"] != true {
		t.Errorf("%%load reply %s", r.Content)
	}
	if got := types(io); got != "busy execute_input idle" {
		t.Errorf("%%load iopub %s", got)
	}
	// %load did not run the file: x is not defined yet.
	if r, _ := c.execute("x"); field(t, r, "ename") != "NameError" {
		t.Errorf("x after %%load: %s", r.Content)
	}
	// The notebook then runs the loaded cell; "# %load" is a comment.
	if _, io := c.execute(want); len(io) < 3 || data(t, io[2])["text/plain"] != "[2 3]\ni8[2] cpu" {
		t.Errorf("the loaded cell: %s", types(io))
	}
	for _, tc := range []struct{ code, ename, msg string }{
		{"%load", "UsageError", "%load needs a file name"},
		{"%load " + file + ".missing", "UsageError", "%load " + file + ".missing: "},
		{"y = 1\n%load " + file, "UsageError", "put it alone in a cell"},
	} {
		r, _ := c.execute(tc.code)
		if field(t, r, "ename") != tc.ename || !strings.Contains(field(t, r, "evalue"), tc.msg) {
			t.Errorf("%q: %s", tc.code, r.Content)
		}
	}
	// %run and :load run the file.
	for _, code := range []string{"%run " + file, ":load " + file} {
		if _, io := c.execute(code); len(io) < 3 || data(t, io[2])["text/plain"] != "[2 3]\ni8[2] cpu" {
			t.Errorf("%s: %s", code, types(io))
		}
	}
	// %lsmagic lists the kernel's own magics with the language's.
	if _, io := c.execute("%lsmagic"); len(io) < 3 || !strings.Contains(field(t, io[2], "text"), "%history  %load  %lsmagic") {
		t.Errorf("%%lsmagic: %s", types(io))
	}
}

// TestSessionResults checks that the kernel records each cell's result
// for _ and Out[n], with its execution count (IPython's output cache,
// IPython/core/displayhook.py, DisplayHook.update_user_ns).
func TestSessionResults(t *testing.T) {
	_, c, _ := startSession(t)
	c.execute("u8(7)")           // Out[1]
	c.execute("x = 2")           // no result
	c.execute("i16([1, 2]) * 3") // Out[3]
	for _, tc := range []struct{ code, want string }{
		{"_", "[3 6]\ni16[2] cpu"},  // Out[4]
		{"__", "[3 6]\ni16[2] cpu"}, // Out[5]: __ was Out[3] before Out[4]
		{"Out[1] + 1", "u8 8"},
		{"_1", "u8 7"},
		{"Out[3][1]", "i16 6"},
	} {
		_, io := c.execute(tc.code)
		if len(io) < 3 || data(t, io[2])["text/plain"] != tc.want {
			t.Errorf("%s: %s", tc.code, types(io))
		}
	}
	if r, _ := c.execute("Out[2]"); field(t, r, "ename") != "KeyError" {
		t.Errorf("Out[2]: %s", r.Content)
	}
}
