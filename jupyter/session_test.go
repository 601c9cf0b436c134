package jupyter

import (
	"context"
	"encoding/json"
	"log"
	"regexp"
	"strings"
	"testing"

	"github.com/tensorsh/tensorsh/eval"
)

// These tests run the tensorsh evaluator behind a kernel in the test
// process and speak real ZMQ to it.

func newSession(policy string) (Engine, error) {
	if policy == "" {
		policy = "jax"
	}
	s, err := eval.New(policy)
	if err != nil {
		return nil, err
	}
	return NewSessionEngine(s), nil
}

// startSession runs a kernel over a fresh tensorsh session.
func startSession(t *testing.T) (*Kernel, *testClient, *syncBuffer) {
	t.Helper()
	e, err := newSession("")
	if err != nil {
		t.Fatal(err)
	}
	logs := &syncBuffer{}
	k, err := NewKernel(tcpConn("key"), e, Options{Log: log.New(logs, "", 0)})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); k.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		<-done
		if t.Failed() {
			t.Logf("kernel log:\n%s", logs)
		}
	})
	return k, dialClient(t, k.Connection()), logs
}

// data returns the MIME bundle of a display_data or execute_result.
func data(t *testing.T, m *message) map[string]string {
	t.Helper()
	var c struct {
		Data map[string]string `json:"data"`
	}
	if err := json.Unmarshal(m.Content, &c); err != nil {
		t.Fatal(err)
	}
	return c.Data
}

func TestSessionValues(t *testing.T) {
	_, c, _ := startSession(t)
	r, io := c.execute("i16([1, 2, 3]) + 1.5")
	if types(io) != "busy execute_input execute_result idle" || field(t, r, "status") != "ok" {
		t.Fatalf("%s %s", r.Content, types(io))
	}
	d := data(t, io[2])
	if d["text/plain"] != "[2.5 3.5 4.5]\nf32?[3] cpu" {
		t.Errorf("text/plain %q", d["text/plain"])
	}
	if h := d["text/html"]; !strings.Contains(h, "<table") || !strings.Contains(h, "policy jax") {
		t.Errorf("text/html %q", h)
	}
	// Several values: the last is the result, the others display_data;
	// directive output is stdout, in order.
	r, io = c.execute("x = u8([1, 2])\nx\n%policy numpy\nx + 1")
	if got, want := types(io), "busy execute_input display_data stream execute_result idle"; got != want {
		t.Fatalf("iopub %s, want %s (reply %s)", got, want, r.Content)
	}
	if data(t, io[2])["text/plain"] != "[1 2]\nu8[2] cpu" || !strings.HasPrefix(field(t, io[3], "text"), "policy numpy") ||
		data(t, io[4])["text/plain"] != "[2 3]\nu8[2] cpu" || !strings.Contains(data(t, io[4])["text/html"], "policy numpy") {
		t.Errorf("outputs:\n%s\n%s\n%s", io[2].Content, io[3].Content, io[4].Content)
	}
	// State persists across cells.
	_, io = c.execute("dtype(x)")
	if data(t, io[2])["text/plain"] != "u8" {
		t.Errorf("dtype(x): %s", io[2].Content)
	}
}

func TestSessionWarningOnStderr(t *testing.T) {
	_, c, _ := startSession(t)
	_, io := c.execute("i64(3)")
	if types(io) != "busy execute_input stream execute_result idle" || field(t, io[2], "name") != "stderr" ||
		!strings.Contains(field(t, io[2], "text"), "truncated to dtype int32") {
		t.Errorf("%s: %s", types(io), io[2].Content)
	}
}

func TestSessionErrors(t *testing.T) {
	_, c, _ := startSession(t)
	c.execute("%policy numpy")
	r, io := c.execute("a = u8([1, 2])\nb = a + 300")
	if types(io) != "busy execute_input error idle" {
		t.Fatalf("iopub %s", types(io))
	}
	if field(t, r, "ename") != "PromotionError" || !strings.Contains(field(t, r, "evalue"), "out of bounds for uint8") {
		t.Errorf("reply %s", r.Content)
	}
	// Coloured as IPython colours a SyntaxError (IPython/core/ultratb.py,
	// SyntaxTB; colours from IPython/core/excolors.py): where, the source
	// line in red, the caret line, the error's name in red.
	var tb struct{ Traceback []string }
	json.Unmarshal(io[2].Content, &tb)
	want := []string{
		"\x1b[0;36mCell \x1b[0;32mIn[2], line 2, column 9\x1b[0m",
		"\x1b[0;31m  b = a + 300\x1b[0m",
		"          ^^^",
		"\x1b[0;31mPromotionError\x1b[0m: " + field(t, r, "evalue"),
	}
	if strings.Join(tb.Traceback, "\n") != strings.Join(want, "\n") {
		t.Errorf("traceback\n%q\nwant\n%q", tb.Traceback, want)
	}
	// Without the colours it reads as the terminal's report does.
	plain := regexp.MustCompile("\x1b\\[[0-9;]*m").ReplaceAllString(strings.Join(tb.Traceback, "\n"), "")
	if want := "Cell In[2], line 2, column 9\n  b = a + 300\n          ^^^\nPromotionError: " + field(t, r, "evalue"); plain != want {
		t.Errorf("traceback without colours\n%s\nwant\n%s", plain, want)
	}
	if _, e := c.execute("%load"); !strings.HasPrefix(field(t, e[2], "traceback"), `["\u001b[0;31mUsageError\u001b[0m: `) {
		t.Errorf("usage error %s", e[2].Content)
	}
	for code, ename := range map[string]string{
		"zeros((2, 3)) + zeros((4,))": "BroadcastError",
		"1 +* 2":                      "SyntaxError",
		"nosuchname + 1":              "NameError",
		"%policy nosuch":              "UsageError",
	} {
		if r, _ := c.execute(code); field(t, r, "ename") != ename {
			t.Errorf("%s: %s, want %s", code, r.Content, ename)
		}
	}
}

func TestSessionPagerAndTime(t *testing.T) {
	_, c, _ := startSession(t)
	for _, code := range []string{"?sqrt", "sqrt?", "??sqrt"} {
		r, io := c.execute(code)
		if types(io) != "busy execute_input idle" || !strings.Contains(field(t, r, "payload"), "Square root") {
			t.Errorf("%s: %s %s", code, r.Content, types(io))
		}
	}
	// A weak dtype name is a value, not a help query.
	if _, io := c.execute("f32?"); types(io) != "busy execute_input execute_result idle" || data(t, io[2])["text/plain"] != "f32?" {
		t.Errorf("f32?: %s", types(io))
	}
	_, io := c.execute("%timeit 1 + 1")
	if got := types(io); got != "busy execute_input stream clear_output stream idle" {
		t.Fatalf("iopub %s", got)
	}
	if !strings.Contains(field(t, io[4], "text"), "median of") {
		t.Errorf("timing %s", io[4].Content)
	}
	// %time runs once and shows the value as Out[n], as IPython's %time
	// does (https://ipython.readthedocs.io/en/stable/interactive/magics.html#magic-time).
	_, io = c.execute("%time 1 + 1")
	if got := types(io); got != "busy execute_input stream execute_result idle" {
		t.Fatalf("%%time iopub %s", got)
	}
	if !strings.HasPrefix(field(t, io[2], "text"), "Wall time: ") || data(t, io[3])["text/plain"] != "i32? 2" {
		t.Errorf("%%time: %s %s", io[2].Content, io[3].Content)
	}
}

func TestSessionInterrupt(t *testing.T) {
	_, c, _ := startSession(t)
	c.execute("x = 2")
	// :timeit repeats its expression for at least a second.
	id := c.send(c.shell, "execute_request", executeContent("%timeit sum(rand(10**7))"))
	waitIOPub(t, c, id, "stream")
	c.reply(c.controlCh, c.send(c.control, "interrupt_request", map[string]any{}))
	if r := c.reply(c.shellCh, id); field(t, r, "ename") != "KeyboardInterrupt" {
		t.Errorf("reply %s", r.Content)
	}
	// The session survives, variables included.
	if _, io := c.execute("x + 1"); len(io) < 3 || data(t, io[2])["text/plain"] != "i32? 3" {
		t.Errorf("after interrupt: %s", types(io))
	}
}

func TestSessionComplete(t *testing.T) {
	_, c, _ := startSession(t)
	c.execute("sqrt_me = 1")
	for _, tc := range []struct {
		code  string
		want  string // "match:kind …"
		start int
	}{
		{"sq", "sqrt:function sqrt_me:variable square:function squeeze:function", 0},
		{"y = f3", "f32:dtype", 4},
		{"%pol", "policy:magic", 1},
		{"%his", "history:magic", 1}, // the kernel's own magic
		{"%l", "load:magic lsmagic:magic", 1},
		{":policy nu", "numpy:policy numpy1:policy", 8},
		{"sum(x, ke", "keepdims=:keyword", 7},
		{"é + tr", "trace:function transpose:function tril:function triu:function true:constant true_divide:function trunc:function", 4},
		// Attributes and methods after a '.', through Session.Complete.
		{"sqrt_me.sq", "squeeze:function", 8},
		{"(sqrt_me + 1).nd", "ndim:text", 14},
	} {
		r, _ := c.request("complete_request", map[string]any{"code": tc.code, "cursor_pos": len([]rune(tc.code))})
		var rep struct {
			Start    int `json:"cursor_start"`
			End      int `json:"cursor_end"`
			Metadata struct {
				Types []struct{ Text, Type string } `json:"_jupyter_types_experimental"`
			}
		}
		json.Unmarshal(r.Content, &rep)
		var got []string
		for _, m := range rep.Metadata.Types {
			got = append(got, m.Text+":"+m.Type)
		}
		if strings.Join(got, " ") != tc.want || rep.Start != tc.start || rep.End != len([]rune(tc.code)) {
			t.Errorf("%q: %q [%d,%d], want %q [%d,%d]", tc.code, got, rep.Start, rep.End, tc.want, tc.start, len([]rune(tc.code)))
		}
	}
}

func TestSessionInspect(t *testing.T) {
	_, c, _ := startSession(t)
	c.execute("w = f16([1, 2]) * 2")
	for _, tc := range []struct {
		code   string
		cursor int
		want   string
	}{
		{"sqrt(w)", 2, "Square root"},
		{"sqrt(w)", 5, "w: f16[2] on cpu"},
		{"w", 1, "policy jax"},
		{"bf16", 2, "bfloat16"},
		{"w.sum(0)", 3, "w.sum(axis)"},
	} {
		r, _ := c.request("inspect_request", map[string]any{"code": tc.code, "cursor_pos": tc.cursor, "detail_level": 0})
		if field(t, r, "found") != "true" || !strings.Contains(data(t, r)["text/plain"], tc.want) {
			t.Errorf("%q@%d: %s", tc.code, tc.cursor, r.Content)
		}
	}
	r, _ := c.request("inspect_request", map[string]any{"code": "nothing_here", "cursor_pos": 3, "detail_level": 0})
	if field(t, r, "found") != "false" {
		t.Errorf("unknown name: %s", r.Content)
	}
}

func TestSessionIsComplete(t *testing.T) {
	_, c, _ := startSession(t)
	for _, tc := range []struct{ code, want string }{
		{"i16([1, 2, 3]) + 1.5", `{"status":"complete"}`},
		{"%policy numpy", `{"status":"complete"}`},
		{"x = (1 +", `{"indent":"    ","status":"incomplete"}`},
		{"i16([1, 2", `{"indent":"        ","status":"incomplete"}`},
		{"1 +* 2", `{"status":"invalid"}`},
	} {
		r, _ := c.request("is_complete_request", map[string]any{"code": tc.code})
		if string(r.Content) != tc.want {
			t.Errorf("%q: %s, want %s", tc.code, r.Content, tc.want)
		}
	}
}

func TestSessionKernelInfo(t *testing.T) {
	_, c, _ := startSession(t)
	c.execute("%policy torch")
	r, _ := c.request("kernel_info_request", map[string]any{})
	if field(t, r, "implementation") != "tensorsh" || field(t, r, "implementation_version") != eval.Version ||
		!strings.Contains(field(t, r, "banner"), "policy torch") || !strings.Contains(field(t, r, "help_links"), "jax.readthedocs.io") {
		t.Errorf("kernel_info_reply %s", r.Content)
	}
}
