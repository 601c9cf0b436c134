package jupyter

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/go-zeromq/zmq4"
)

// These tests run a kernel with the toy engine in the test process and
// speak real ZMQ to it.

func TestKernelInfo(t *testing.T) {
	_, c := startKernel(t, tcpConn("secret"))
	id := c.send(c.shell, "kernel_info_request", map[string]any{})
	r := c.reply(c.shellCh, id)
	if got := types(c.iopubFor(id)); got != "busy idle" {
		t.Errorf("iopub: %s, want busy idle", got)
	}
	if r.Header.MsgType != "kernel_info_reply" || r.Header.Version != ProtocolVersion {
		t.Errorf("header %+v", r.Header)
	}
	if r.Header.Session == c.session || r.Header.Session == "" {
		t.Errorf("reply session %q: want the kernel's own", r.Header.Session)
	}
	var info struct {
		Status          string
		ProtocolVersion string `json:"protocol_version"`
		Implementation  string
		HelpLinks       []HelpLink     `json:"help_links"`
		LanguageInfo    map[string]any `json:"language_info"`
	}
	if err := json.Unmarshal(r.Content, &info); err != nil {
		t.Fatal(err)
	}
	li := info.LanguageInfo
	if info.Status != "ok" || info.ProtocolVersion != "5.3" || info.Implementation != "toy" ||
		len(info.HelpLinks) != 1 || li["name"] != "tensorsh" || li["file_extension"] != ".tsh" ||
		li["pygments_lexer"] != "r" || fmt.Sprint(li["codemirror_mode"]) != "map[mime:text/x-rsrc name:tensorsh]" ||
		li["version"] != "0.1" || li["mimetype"] != "text/x-tensorsh" {
		t.Errorf("kernel_info_reply %s", r.Content)
	}
}

func TestParentHeaderCopied(t *testing.T) {
	_, c := startKernel(t, tcpConn("k"))
	frames, id := c.frames("kernel_info_request", map[string]any{})
	c.sendFrames(c.shell, frames)
	r := c.reply(c.shellCh, id)
	// frames: delimiter, signature, header…: the header is frames[2].
	if string(r.Parent) != string(frames[2]) {
		t.Errorf("parent_header %s\nwant the request header %s", r.Parent, frames[2])
	}
	for _, m := range c.iopubFor(id) {
		if string(m.Parent) != string(frames[2]) {
			t.Errorf("iopub %s parent %s", m.Header.MsgType, m.Parent)
		}
	}
}

func TestExecuteOrder(t *testing.T) {
	_, c := startKernel(t, tcpConn("k"))
	code := "print hello, world\nwarn careful\nshow shown\n42"
	r, io := c.execute(code)
	if got, want := types(io), "busy execute_input stream stream display_data execute_result idle"; got != want {
		t.Errorf("iopub: %s\nwant %s", got, want)
	}
	if field(t, io[1], "code") != code || field(t, io[1], "execution_count") != "1" {
		t.Errorf("execute_input %s", io[1].Content)
	}
	if field(t, io[2], "name") != "stdout" || field(t, io[2], "text") != "hello, world\n" {
		t.Errorf("stdout %s", io[2].Content)
	}
	if field(t, io[3], "name") != "stderr" {
		t.Errorf("stderr %s", io[3].Content)
	}
	if field(t, io[4], "data") != `{"text/html":"\u003cb\u003eshown\u003c/b\u003e","text/plain":"shown"}` {
		t.Errorf("display_data %s", io[4].Content)
	}
	if field(t, io[5], "execution_count") != "1" || field(t, io[5], "data") != `{"text/html":"\u003ci\u003e42\u003c/i\u003e","text/plain":"42"}` {
		t.Errorf("execute_result %s", io[5].Content)
	}
	if r.Header.MsgType != "execute_reply" || field(t, r, "status") != "ok" ||
		field(t, r, "execution_count") != "1" || field(t, r, "payload") != "[]" || field(t, r, "user_expressions") != "{}" {
		t.Errorf("execute_reply %s", r.Content)
	}
	r, _ = c.execute("7")
	if field(t, r, "execution_count") != "2" {
		t.Errorf("second cell: %s", r.Content)
	}
}

func TestExecuteSilentAndNoHistory(t *testing.T) {
	_, c := startKernel(t, tcpConn("k"))
	req := executeContent("print quiet\n1")
	req["silent"] = true
	r, io := c.request("execute_request", req)
	if got := types(io); got != "busy idle" {
		t.Errorf("silent cell published %s", got)
	}
	if field(t, r, "status") != "ok" || field(t, r, "execution_count") != "0" {
		t.Errorf("silent reply %s", r.Content)
	}
	req = executeContent("2")
	req["store_history"] = false
	r, io = c.request("execute_request", req)
	if field(t, r, "execution_count") != "0" || types(io) != "busy execute_input execute_result idle" {
		t.Errorf("store_history=false: %s, %s", r.Content, types(io))
	}
	r, _ = c.execute("3")
	if field(t, r, "execution_count") != "1" {
		t.Errorf("first stored cell: %s", r.Content)
	}
	// Neither unstored cell is in the history.
	h, _ := c.request("history_request", map[string]any{"hist_access_type": "tail", "n": 10, "output": false, "raw": true})
	if got := field(t, h, "history"); got != `[[1,1,"3"]]` {
		t.Errorf("history %s", got)
	}
}

func TestExecuteError(t *testing.T) {
	_, c := startKernel(t, tcpConn("k"))
	r, io := c.execute("print before\nfail")
	if got := types(io); got != "busy execute_input stream error idle" {
		t.Errorf("iopub: %s", got)
	}
	e := io[3]
	if field(t, e, "ename") != "ValueError" || field(t, e, "evalue") != "failed on purpose" ||
		field(t, e, "traceback") != `["\u003ccell 1\u003e:2:1: error: failed on purpose","  fail","  ^"]` {
		t.Errorf("error %s", e.Content)
	}
	if field(t, r, "status") != "error" || field(t, r, "ename") != "ValueError" ||
		field(t, r, "execution_count") != "1" || field(t, r, "traceback") != field(t, e, "traceback") {
		t.Errorf("execute_reply %s", r.Content)
	}
	// A plain error (not an *Error) is reported by its message.
	r, _ = c.execute("nosuch")
	if field(t, r, "ename") != "NameError" || !strings.Contains(field(t, r, "traceback"), "nosuch") {
		t.Errorf("reply %s", r.Content)
	}
}

func TestEnginePanic(t *testing.T) {
	_, c := startKernel(t, tcpConn("k"))
	r, io := c.execute("panic")
	if field(t, r, "ename") != "InternalError" || types(io) != "busy execute_input error idle" {
		t.Errorf("reply %s; iopub %s", r.Content, types(io))
	}
	if r, _ := c.execute("5"); field(t, r, "status") != "ok" {
		t.Errorf("after a panic: %s", r.Content)
	}
}

func TestStopOnErrorAbortsQueued(t *testing.T) {
	tk, c := startKernel(t, tcpConn("k"))
	first := c.send(c.shell, "execute_request", executeContent("gate"))
	waitFor(t, "the first cell to run", func() bool { return len(tk.engine.executed()) == 1 })
	queued := []string{
		c.send(c.shell, "execute_request", executeContent("print one")),
		c.send(c.shell, "complete_request", map[string]any{"code": "pr", "cursor_pos": 2}),
		c.send(c.shell, "execute_request", executeContent("print two")),
	}
	waitFor(t, "three queued requests", func() bool { return len(tk.shellQ) == 3 })
	close(tk.engine.gate)
	if r := c.reply(c.shellCh, first); field(t, r, "status") != "error" {
		t.Fatalf("first: %s", r.Content)
	}
	for i, want := range []string{"aborted", "ok", "aborted"} {
		r := c.reply(c.shellCh, queued[i])
		if field(t, r, "status") != want {
			t.Errorf("queued %d: %s, want %s", i, r.Content, want)
		}
		if io := types(c.iopubFor(queued[i])); io != "busy idle" {
			t.Errorf("queued %d: iopub %s", i, io)
		}
	}
	// Requests sent after the abort run again.
	if r, _ := c.execute("print three"); field(t, r, "status") != "ok" {
		t.Errorf("after abort: %s", r.Content)
	}
	if got, want := tk.engine.executed(), []string{"gate", "print three"}; !reflect.DeepEqual(got, want) {
		t.Errorf("executed %q, want %q", got, want)
	}
}

func TestStopOnErrorFalse(t *testing.T) {
	tk, c := startKernel(t, tcpConn("k"))
	req := executeContent("gate")
	req["stop_on_error"] = false
	first := c.send(c.shell, "execute_request", req)
	waitFor(t, "the first cell to run", func() bool { return len(tk.engine.executed()) == 1 })
	second := c.send(c.shell, "execute_request", executeContent("print after"))
	waitFor(t, "one queued request", func() bool { return len(tk.shellQ) == 1 })
	close(tk.engine.gate)
	c.reply(c.shellCh, first)
	if r := c.reply(c.shellCh, second); field(t, r, "status") != "ok" {
		t.Errorf("second: %s", r.Content)
	}
}

func TestInterruptRequest(t *testing.T) {
	_, c := startKernel(t, tcpConn("k"))
	id := c.send(c.shell, "execute_request", executeContent("print start\nblock"))
	waitIOPub(t, c, id, "stream")
	ir := c.reply(c.controlCh, c.send(c.control, "interrupt_request", map[string]any{}))
	if ir.Header.MsgType != "interrupt_reply" || field(t, ir, "status") != "ok" {
		t.Errorf("interrupt_reply %s", ir.Content)
	}
	r := c.reply(c.shellCh, id)
	if field(t, r, "status") != "error" || field(t, r, "ename") != "KeyboardInterrupt" {
		t.Errorf("interrupted cell: %s", r.Content)
	}
	// The kernel and its count go on.
	if r, _ := c.execute("1"); field(t, r, "status") != "ok" || field(t, r, "execution_count") != "2" {
		t.Errorf("after interrupt: %s", r.Content)
	}
	// An interrupt with nothing running changes nothing.
	c.reply(c.controlCh, c.send(c.control, "interrupt_request", map[string]any{}))
	if r, _ := c.execute("2"); field(t, r, "status") != "ok" {
		t.Errorf("after idle interrupt: %s", r.Content)
	}
}

func TestInterruptMethod(t *testing.T) {
	tk, c := startKernel(t, tcpConn("k"))
	id := c.send(c.shell, "execute_request", executeContent("print start\nblock"))
	waitIOPub(t, c, id, "stream")
	tk.Interrupt() // what SIGINT does
	if r := c.reply(c.shellCh, id); field(t, r, "ename") != "KeyboardInterrupt" {
		t.Errorf("interrupted cell: %s", r.Content)
	}
}

// waitIOPub waits for an IOPub message of type msgType with parent id.
func waitIOPub(t *testing.T, c *testClient, id, msgType string) {
	t.Helper()
	timeout := time.After(wait)
	for {
		select {
		case m := <-c.iopubCh:
			if parentID(m) == id && m.Header.MsgType == msgType {
				return
			}
		case <-timeout:
			t.Fatalf("no %s for %s", msgType, id)
		}
	}
}

// waitFor polls cond until it holds; the limit only bounds a failing test.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(wait); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatalf("timed out waiting for %s", what)
}

func TestPageAndClear(t *testing.T) {
	_, c := startKernel(t, tcpConn("k"))
	r, io := c.execute("print a\nclear\npage some help")
	if got := types(io); got != "busy execute_input stream clear_output idle" {
		t.Errorf("iopub %s", got)
	}
	if field(t, io[3], "wait") != "true" {
		t.Errorf("clear_output %s", io[3].Content)
	}
	if got := field(t, r, "payload"); got != `[{"data":{"text/plain":"some help"},"source":"page","start":0}]` {
		t.Errorf("payload %s", got)
	}
}

func TestUserExpressions(t *testing.T) {
	tk, c := startKernel(t, tcpConn("k"))
	req := executeContent("1")
	req["user_expressions"] = map[string]any{"a": "42", "b": "fail"}
	r, _ := c.request("execute_request", req)
	var got struct {
		UE map[string]map[string]any `json:"user_expressions"`
	}
	json.Unmarshal(r.Content, &got)
	if got.UE["a"]["status"] != "ok" || !reflect.DeepEqual(got.UE["a"]["data"], map[string]any{"text/plain": "42", "text/html": "<i>42</i>"}) {
		t.Errorf("a: %v", got.UE["a"])
	}
	if got.UE["b"]["status"] != "error" || got.UE["b"]["ename"] != "ValueError" {
		t.Errorf("b: %v", got.UE["b"])
	}
	if n := len(tk.engine.executed()); n != 3 {
		t.Errorf("%d cells ran, want 3", n)
	}
}

func TestComplete(t *testing.T) {
	_, c := startKernel(t, tcpConn("k"))
	// Two-byte characters before the cursor: cursor_pos counts code points.
	code := "éé pr"
	r, io := c.request("complete_request", map[string]any{"code": code, "cursor_pos": 5})
	if types(io) != "busy idle" {
		t.Errorf("iopub %s", types(io))
	}
	if field(t, r, "status") != "ok" || field(t, r, "matches") != `["print","prêt"]` ||
		field(t, r, "cursor_start") != "3" || field(t, r, "cursor_end") != "5" {
		t.Errorf("complete_reply %s", r.Content)
	}
	var md struct {
		Metadata struct {
			Types []map[string]any `json:"_jupyter_types_experimental"`
		}
	}
	json.Unmarshal(r.Content, &md)
	if len(md.Metadata.Types) != 2 || md.Metadata.Types[0]["type"] != "function" || md.Metadata.Types[0]["signature"] != "print TEXT" {
		t.Errorf("types %v", md.Metadata.Types)
	}
	// Cursor in the middle of the text; a missing cursor means the end.
	r, _ = c.request("complete_request", map[string]any{"code": "pr + x", "cursor_pos": 2})
	if field(t, r, "cursor_start") != "0" || field(t, r, "cursor_end") != "2" {
		t.Errorf("mid: %s", r.Content)
	}
	r, _ = c.request("complete_request", map[string]any{"code": "x + bl"})
	if field(t, r, "matches") != `["block"]` || field(t, r, "cursor_start") != "4" {
		t.Errorf("no cursor: %s", r.Content)
	}
	// A cursor past the end is clamped.
	r, _ = c.request("complete_request", map[string]any{"code": "zz", "cursor_pos": 99})
	if field(t, r, "matches") != "[]" || field(t, r, "cursor_start") != "0" || field(t, r, "cursor_end") != "2" {
		t.Errorf("clamped: %s", r.Content)
	}
}

func TestInspect(t *testing.T) {
	_, c := startKernel(t, tcpConn("k"))
	r, _ := c.request("inspect_request", map[string]any{"code": "x + print y", "cursor_pos": 6, "detail_level": 0})
	if field(t, r, "status") != "ok" || field(t, r, "found") != "true" ||
		field(t, r, "data") != `{"text/plain":"print TEXT: a toy command"}` || field(t, r, "metadata") != "{}" {
		t.Errorf("inspect_reply %s", r.Content)
	}
	r, _ = c.request("inspect_request", map[string]any{"code": "print", "cursor_pos": 5, "detail_level": 1})
	if !strings.Contains(field(t, r, "data"), "long form") {
		t.Errorf("detail 1: %s", r.Content)
	}
	r, _ = c.request("inspect_request", map[string]any{"code": "nothing", "cursor_pos": 3, "detail_level": 0})
	if field(t, r, "status") != "ok" || field(t, r, "found") != "false" || field(t, r, "data") != "{}" {
		t.Errorf("not found: %s", r.Content)
	}
}

func TestIsComplete(t *testing.T) {
	_, c := startKernel(t, tcpConn("k"))
	for _, tc := range []struct{ code, want string }{
		{"print x", `{"status":"complete"}`},
		{"f(1,", `{"indent":"    ","status":"incomplete"}`},
		{"$", `{"status":"invalid"}`},
	} {
		r, io := c.request("is_complete_request", map[string]any{"code": tc.code})
		if string(r.Content) != tc.want || r.Header.MsgType != "is_complete_reply" || types(io) != "busy idle" {
			t.Errorf("%q: %s %s", tc.code, r.Content, types(io))
		}
	}
}

func TestHistory(t *testing.T) {
	_, c := startKernel(t, tcpConn("k"))
	for _, code := range []string{"1", "print x", "2", "1"} {
		c.execute(code)
	}
	for _, tc := range []struct {
		req  map[string]any
		want string
	}{
		{map[string]any{"hist_access_type": "tail", "n": 2}, `[[1,3,"2"],[1,4,"1"]]`},
		{map[string]any{"hist_access_type": "tail", "n": 2, "output": true}, `[[1,3,["2","2"]],[1,4,["1","1"]]]`},
		{map[string]any{"hist_access_type": "tail", "n": 10, "output": true}, `[[1,1,["1","1"]],[1,2,["print x",null]],[1,3,["2","2"]],[1,4,["1","1"]]]`},
		{map[string]any{"hist_access_type": "tail", "n": 10, "unique": true}, `[[1,2,"print x"],[1,3,"2"],[1,4,"1"]]`},
		{map[string]any{"hist_access_type": "range", "session": 0, "start": 2, "stop": 4}, `[[1,2,"print x"],[1,3,"2"]]`},
		{map[string]any{"hist_access_type": "range", "session": 1, "start": 3}, `[[1,3,"2"],[1,4,"1"]]`},
		{map[string]any{"hist_access_type": "range", "session": 7, "start": 1}, `[]`},
		{map[string]any{"hist_access_type": "search", "pattern": "pr*"}, `[[1,2,"print x"]]`},
		{map[string]any{"hist_access_type": "search", "pattern": "?"}, `[[1,1,"1"],[1,3,"2"],[1,4,"1"]]`},
		{map[string]any{"hist_access_type": "search", "pattern": "?", "unique": true}, `[[1,3,"2"],[1,4,"1"]]`},
		{map[string]any{"hist_access_type": "search", "pattern": "*", "n": 1}, `[[1,4,"1"]]`},
	} {
		r, _ := c.request("history_request", tc.req)
		if got := field(t, r, "history"); got != tc.want || field(t, r, "status") != "ok" {
			t.Errorf("%v: %s\nwant %s", tc.req, got, tc.want)
		}
	}
}

func TestCommsAndUnknown(t *testing.T) {
	tk, c := startKernel(t, tcpConn("k"))
	r, _ := c.request("comm_info_request", map[string]any{})
	if string(r.Content) != `{"comms":{},"status":"ok"}` {
		t.Errorf("comm_info_reply %s", r.Content)
	}
	r, _ = c.request("comm_info_request", map[string]any{"target_name": "jupyter.widget"})
	if field(t, r, "comms") != "{}" {
		t.Errorf("comm_info_reply %s", r.Content)
	}
	id := c.send(c.shell, "comm_open", map[string]any{"comm_id": "c1", "target_name": "jupyter.widget", "data": map[string]any{}})
	io := c.iopubFor(id)
	if types(io) != "busy comm_close idle" || field(t, io[1], "comm_id") != "c1" {
		t.Errorf("comm_open: %s", types(io))
	}
	for _, typ := range []string{"comm_msg", "comm_close", "no_such_request", "debug_request"} {
		id := c.send(c.shell, typ, map[string]any{"comm_id": "c1", "data": map[string]any{}})
		if got := types(c.iopubFor(id)); got != "busy idle" {
			t.Errorf("%s: iopub %s", typ, got)
		}
	}
	c.none(c.shellCh, "unknown requests")
	if !strings.Contains(tk.log.String(), `unknown message type "no_such_request"`) {
		t.Errorf("log:\n%s", tk.log)
	}
	// Shell-only requests on control are refused, and nothing runs.
	id = c.send(c.control, "execute_request", executeContent("print x"))
	if got := types(c.iopubFor(id)); got != "busy idle" {
		t.Errorf("execute on control: %s", got)
	}
	if n := len(tk.engine.executed()); n != 0 {
		t.Errorf("execute on control ran")
	}
	// kernel_info on control is answered there (protocol 5.5).
	r = c.reply(c.controlCh, c.send(c.control, "kernel_info_request", map[string]any{}))
	if r.Header.MsgType != "kernel_info_reply" {
		t.Errorf("control kernel_info: %s", r.Header.MsgType)
	}
}

func TestBadSignatureDropped(t *testing.T) {
	tk, c := startKernel(t, tcpConn("right key"))
	forger := newSigner("wrong key")
	h := Header{MsgID: newID(), Session: c.session, MsgType: "execute_request", Version: ProtocolVersion}
	frames, _ := forger.encode(nil, h, nil, executeContent("print forged"))
	c.sendFrames(c.shell, frames)
	// The same message unsigned, and with the signature of other content.
	unsigned := append([][]byte(nil), frames...)
	unsigned[1] = nil
	c.sendFrames(c.shell, unsigned)
	good, _ := c.frames("execute_request", executeContent("print other"))
	spliced := append([][]byte(nil), good[:2]...)
	spliced = append(spliced, frames[2:]...)
	c.sendFrames(c.shell, spliced)
	c.none(c.shellCh, "forged requests")
	c.none(c.iopubCh, "forged requests")
	if r, _ := c.execute("1"); field(t, r, "status") != "ok" {
		t.Errorf("after forgery: %s", r.Content)
	}
	if got := tk.engine.executed(); !reflect.DeepEqual(got, []string{"1"}) {
		t.Errorf("executed %q", got)
	}
	if n := strings.Count(tk.log.String(), "dropped a message: bad signature"); n != 3 {
		t.Errorf("%d drops logged:\n%s", n, tk.log)
	}
}

func TestReplayDropped(t *testing.T) {
	tk, c := startKernel(t, tcpConn("k"))
	frames, id := c.frames("execute_request", executeContent("print once"))
	c.sendFrames(c.shell, frames)
	c.reply(c.shellCh, id)
	c.iopubFor(id)
	c.sendFrames(c.shell, frames)
	c.none(c.shellCh, "replayed request")
	if got := tk.engine.executed(); len(got) != 1 {
		t.Errorf("executed %q", got)
	}
	if !strings.Contains(tk.log.String(), "replayed") {
		t.Errorf("log:\n%s", tk.log)
	}
}

func TestMalformedSurvived(t *testing.T) {
	tk, c := startKernel(t, tcpConn("k"))
	good, _ := c.frames("execute_request", executeContent("print x"))
	body := func(h, p, m, ct string) [][]byte {
		f := [][]byte{[]byte(h), []byte(p), []byte(m), []byte(ct)}
		return append([][]byte{delimiter, c.signer.sign(f)}, f...)
	}
	hdr := string(good[2])
	for _, frames := range [][][]byte{
		{[]byte("no delimiter at all")},
		good[:3], // truncated after the header
		good[:1], // the delimiter alone
		body("{not json", "{}", "{}", "{}"),
		body(hdr, "{}", "{}", `"a string"`),
		body(hdr, "{}", "{}", `{"code": 5}`),
		body(hdr, "[]", "{}", "{}"),
		body(`{"msg_id": "x"}`, "{}", "{}", "{}"), // no msg_type
		body(strings.Replace(hdr, "execute_request", "complete_request", 1), "{}", "{}", `{"cursor_pos": "x"}`),
	} {
		c.sendFrames(c.shell, frames)
	}
	// Two that decode but cannot be read: both get an error reply.
	for i := 0; i < 2; i++ {
		r := c.next(c.shellCh)
		if field(t, r, "status") != "error" {
			t.Errorf("%s: %s", r.Header.MsgType, r.Content)
		}
	}
	c.none(c.shellCh, "malformed requests")
	if r, _ := c.execute("1"); field(t, r, "status") != "ok" {
		t.Errorf("after malformed: %s", r.Content)
	}
	if got := tk.engine.executed(); !reflect.DeepEqual(got, []string{"1"}) {
		t.Errorf("executed %q", got)
	}
	for _, want := range []string{"no <IDS|MSG> delimiter", "fewer than 5 frames", "header is not a JSON object",
		"content is not a JSON object", "parent_header is not a JSON object", "no msg_type"} {
		if !strings.Contains(tk.log.String(), want) {
			t.Errorf("log lacks %q:\n%s", want, tk.log)
		}
	}
}

func TestUnsignedKernel(t *testing.T) {
	_, c := startKernel(t, tcpConn(""))
	r, io := c.execute("print hi")
	if field(t, r, "status") != "ok" || len(io) != 4 {
		t.Errorf("%s %s", r.Content, types(io))
	}
	if c.signer.sign([][]byte{[]byte("{}")}) != nil {
		t.Error("empty key signs")
	}
}

func TestHeartbeat(t *testing.T) {
	_, c := startKernel(t, tcpConn("k"))
	for _, ping := range []string{"ping", "", "\x00binary\xff"} {
		if err := c.hb.Send(zmq4.NewMsgString(ping)); err != nil {
			t.Fatal(err)
		}
		m, err := c.hb.Recv()
		if err != nil || string(m.Bytes()) != ping {
			t.Errorf("heartbeat %q: %q %v", ping, m.Bytes(), err)
		}
	}
}

func TestShutdown(t *testing.T) {
	for _, restart := range []bool{false, true} {
		tk, c := startKernel(t, tcpConn("k"))
		id := c.send(c.control, "shutdown_request", map[string]any{"restart": restart})
		r := c.reply(c.controlCh, id)
		if r.Header.MsgType != "shutdown_reply" || field(t, r, "status") != "ok" || field(t, r, "restart") != jsonBool(restart) {
			t.Errorf("shutdown_reply %s", r.Content)
		}
		if io := types(c.iopubFor(id)); io != "busy shutdown_reply idle" {
			t.Errorf("iopub %s", io)
		}
		select {
		case <-tk.done:
		case <-time.After(wait):
			t.Fatal("Run did not return")
		}
		if tk.ret.restart != restart || tk.ret.err != nil {
			t.Errorf("Run returned %v, %v", tk.ret.restart, tk.ret.err)
		}
	}
}

func TestShutdownDuringCell(t *testing.T) {
	tk, c := startKernel(t, tcpConn("k"))
	cell := c.send(c.shell, "execute_request", executeContent("print start\nblock"))
	waitIOPub(t, c, cell, "stream")
	c.reply(c.controlCh, c.send(c.control, "shutdown_request", map[string]any{"restart": false}))
	if r := c.reply(c.shellCh, cell); field(t, r, "ename") != "KeyboardInterrupt" {
		t.Errorf("running cell: %s", r.Content)
	}
	<-tk.done
}

func TestShutdownOnShell(t *testing.T) {
	tk, c := startKernel(t, tcpConn("k"))
	r := c.reply(c.shellCh, c.send(c.shell, "shutdown_request", map[string]any{"restart": false}))
	if r.Header.MsgType != "shutdown_reply" {
		t.Errorf("reply %s", r.Header.MsgType)
	}
	<-tk.done
}

func jsonBool(b bool) string {
	if b {
		return "true"
	}
	return "false"
}

func TestIPCTransport(t *testing.T) {
	dir := t.TempDir()
	prefix := filepath.Join(dir, "kernel")
	// A taken name is skipped when ports are chosen.
	if err := os.WriteFile(prefix+"-1", nil, 0o600); err != nil {
		t.Fatal(err)
	}
	tk, c := startKernel(t, ConnectionInfo{Transport: "ipc", IP: prefix, Key: "k", SignatureScheme: "hmac-sha256"})
	if tk.Connection().ShellPort == 1 {
		t.Errorf("ports %+v", tk.Connection())
	}
	r, io := c.execute("print over ipc\n3")
	if field(t, r, "status") != "ok" || types(io) != "busy execute_input stream execute_result idle" {
		t.Errorf("%s %s", r.Content, types(io))
	}
	if _, err := os.Stat(tk.conn.endpoint(tk.Connection().ShellPort)[len("ipc://"):]); err != nil {
		t.Errorf("ipc socket file: %v", err)
	}
}

func TestManyClients(t *testing.T) {
	_, c := startKernel(t, tcpConn("k"))
	// Clients come and go; each gets its replies and IOPub output.
	for i := 0; i < 5; i++ {
		t.Run("", func(t *testing.T) {
			c2 := dialClient(t, c.conn)
			if r, io := c2.execute("print hi"); field(t, r, "status") != "ok" || len(io) != 4 {
				t.Errorf("client %d: %s %s", i, r.Content, types(io))
			}
		})
	}
	if r, _ := c.execute("print still"); field(t, r, "status") != "ok" {
		t.Errorf("first client: %s", r.Content)
	}
}
