package jupyter

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-zeromq/zmq4"
)

// This file holds the test harness: a Go client that speaks real ZMQ to a
// kernel running in the test process, and a toy engine.

// wait is how long a test waits for a message that must come. It only
// bounds a failing test; passing tests never wait for it.
const wait = 20 * time.Second

// quiet is how long a test listens to show that a message does not come.
const quiet = 300 * time.Millisecond

// A testClient is a Jupyter client: DEALER sockets on shell and control,
// SUB on iopub, REQ on the heartbeat.
type testClient struct {
	t       testing.TB
	conn    ConnectionInfo
	signer  *signer
	session string

	shell, control, stdin, iopub, hb zmq4.Socket
	shellCh, controlCh, iopubCh      chan *message
}

func dialClient(t testing.TB, conn ConnectionInfo) *testClient {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	c := &testClient{
		t:         t,
		conn:      conn,
		signer:    newSigner(conn.Key),
		session:   newID(),
		shellCh:   make(chan *message, 100),
		controlCh: make(chan *message, 100),
		iopubCh:   make(chan *message, 1000),
	}
	id := zmq4.WithID(zmq4.SocketIdentity(c.session))
	c.shell = zmq4.NewDealer(ctx, id)
	c.control = zmq4.NewDealer(ctx, id)
	c.stdin = zmq4.NewDealer(ctx, id)
	c.iopub = zmq4.NewSub(ctx)
	c.hb = zmq4.NewReq(ctx)
	for _, d := range []struct {
		s    zmq4.Socket
		port int
	}{{c.shell, conn.ShellPort}, {c.control, conn.ControlPort}, {c.stdin, conn.StdinPort}, {c.iopub, conn.IOPubPort}, {c.hb, conn.HBPort}} {
		if err := d.s.Dial(conn.endpoint(d.port)); err != nil {
			t.Fatalf("dial %s: %v", conn.endpoint(d.port), err)
		}
	}
	if err := c.iopub.SetOption(zmq4.OptionSubscribe, ""); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for _, r := range []struct {
		s  zmq4.Socket
		ch chan *message
	}{{c.shell, c.shellCh}, {c.control, c.controlCh}, {c.iopub, c.iopubCh}} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				zm, err := r.s.Recv()
				if err != nil {
					return
				}
				m, err := c.signer.decode(zm.Frames)
				if err != nil {
					t.Errorf("client: kernel sent a bad message: %v", err)
					continue
				}
				r.ch <- m
			}
		}()
	}
	t.Cleanup(func() {
		cancel()
		for _, s := range []zmq4.Socket{c.shell, c.control, c.stdin, c.iopub, c.hb} {
			s.Close()
		}
		wg.Wait()
	})
	c.waitForReady()
	return c
}

// waitForReady sends kernel_info requests until IOPub delivers, as
// jupyter_client's wait_for_ready does: a SUB socket misses what is
// published before its subscription reaches the kernel.
func (c *testClient) waitForReady() {
	deadline := time.Now().Add(wait)
	for time.Now().Before(deadline) {
		id := c.send(c.shell, "kernel_info_request", map[string]any{})
		c.reply(c.shellCh, id)
		select {
		case m := <-c.iopubCh:
			// Subscribed: wait for the idle that ends this request (its
			// busy may have been missed), then forget the rest.
			if parentID(m) != id || m.Header.MsgType != "status" || field(c.t, m, "execution_state") != "idle" {
				c.iopubFor(id)
			}
			c.drain()
			return
		case <-time.After(100 * time.Millisecond):
		}
	}
	c.t.Fatal("iopub never delivered a message")
}

// drain empties the receive channels.
func (c *testClient) drain() {
	for {
		select {
		case <-c.iopubCh:
		case <-c.shellCh:
		case <-c.controlCh:
		default:
			return
		}
	}
}

// frames encodes a request signed with the client's key.
func (c *testClient) frames(msgType string, content any) ([][]byte, string) {
	h := Header{MsgID: newID(), Session: c.session, Username: "test", Date: timestamp(time.Now()),
		MsgType: msgType, Version: ProtocolVersion}
	frames, err := c.signer.encode(nil, h, nil, content)
	if err != nil {
		c.t.Fatal(err)
	}
	return frames, h.MsgID
}

// send sends a request on sock and returns its msg_id.
func (c *testClient) send(sock zmq4.Socket, msgType string, content any) string {
	frames, id := c.frames(msgType, content)
	c.sendFrames(sock, frames)
	return id
}

func (c *testClient) sendFrames(sock zmq4.Socket, frames [][]byte) {
	if err := sock.SendMulti(zmq4.NewMsgFrom(frames...)); err != nil {
		c.t.Fatal(err)
	}
}

// reply waits for the reply to msgID on ch.
func (c *testClient) reply(ch chan *message, msgID string) *message {
	c.t.Helper()
	timeout := time.After(wait)
	for {
		select {
		case m := <-ch:
			if parentID(m) == msgID {
				return m
			}
		case <-timeout:
			c.t.Fatalf("no reply to %s", msgID)
		}
	}
}

// next returns the next message on ch.
func (c *testClient) next(ch chan *message) *message {
	c.t.Helper()
	select {
	case m := <-ch:
		return m
	case <-time.After(wait):
		c.t.Fatal("no message")
	}
	return nil
}

// iopubFor returns the IOPub messages whose parent is msgID, from busy to
// idle.
func (c *testClient) iopubFor(msgID string) []*message {
	c.t.Helper()
	var ms []*message
	timeout := time.After(wait)
	for {
		select {
		case m := <-c.iopubCh:
			if parentID(m) != msgID {
				continue
			}
			ms = append(ms, m)
			if m.Header.MsgType == "status" && field(c.t, m, "execution_state") == "idle" {
				return ms
			}
		case <-timeout:
			c.t.Fatalf("no idle for %s; got %s", msgID, types(ms))
		}
	}
}

// request sends a shell request and returns its reply and IOPub messages.
func (c *testClient) request(msgType string, content any) (*message, []*message) {
	c.t.Helper()
	id := c.send(c.shell, msgType, content)
	return c.reply(c.shellCh, id), c.iopubFor(id)
}

// execute runs code and returns the reply and IOPub messages.
func (c *testClient) execute(code string) (*message, []*message) {
	c.t.Helper()
	return c.request("execute_request", executeContent(code))
}

func executeContent(code string) map[string]any {
	return map[string]any{"code": code, "silent": false, "store_history": true,
		"user_expressions": map[string]any{}, "allow_stdin": false, "stop_on_error": true}
}

// none fails if a message arrives on ch within the quiet period.
func (c *testClient) none(ch chan *message, what string) {
	c.t.Helper()
	select {
	case m := <-ch:
		c.t.Fatalf("%s: unexpected %s", what, m.Header.MsgType)
	case <-time.After(quiet):
	}
}

func parentID(m *message) string {
	var p Header
	json.Unmarshal(m.Parent, &p)
	return p.MsgID
}

// content decodes a message's content.
func content(t testing.TB, m *message) map[string]any {
	t.Helper()
	var c map[string]any
	if err := json.Unmarshal(m.Content, &c); err != nil {
		t.Fatal(err)
	}
	return c
}

// field returns one content field as a string (JSON for non-strings).
func field(t testing.TB, m *message, key string) string {
	t.Helper()
	v, ok := content(t, m)[key]
	if !ok {
		t.Fatalf("%s has no %q: %s", m.Header.MsgType, key, m.Content)
	}
	if s, ok := v.(string); ok {
		return s
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// types lists the message types of ms, with the state of status
// messages: "busy execute_input stream idle".
func types(ms []*message) string {
	var parts []string
	for _, m := range ms {
		t := m.Header.MsgType
		if t == "status" {
			var c struct {
				State string `json:"execution_state"`
			}
			json.Unmarshal(m.Content, &c)
			t = c.State
		}
		parts = append(parts, t)
	}
	return strings.Join(parts, " ")
}

// A syncBuffer is a log destination safe for concurrent use.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// A testKernel is a kernel running in the test process.
type testKernel struct {
	*Kernel
	engine *toyEngine
	log    *syncBuffer
	done   chan struct{}
	ret    struct {
		restart bool
		err     error
	}
}

// startKernel runs a kernel on free ports with the toy engine.
func startKernel(t *testing.T, conn ConnectionInfo) (*testKernel, *testClient) {
	t.Helper()
	return startLimitedKernel(t, conn, defaultLimits)
}

// startLimitedKernel is startKernel with the limits on peers given.
func startLimitedKernel(t *testing.T, conn ConnectionInfo, lim peerLimits) (*testKernel, *testClient) {
	t.Helper()
	tk := &testKernel{engine: newToyEngine(), log: &syncBuffer{}, done: make(chan struct{})}
	k, err := newKernel(conn, tk.engine, Options{Log: log.New(tk.log, "", 0)}, lim)
	if err != nil {
		t.Fatal(err)
	}
	tk.Kernel = k
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		defer close(tk.done)
		tk.ret.restart, tk.ret.err = k.Run(ctx)
	}()
	t.Cleanup(func() {
		cancel()
		<-tk.done
		if t.Failed() {
			t.Logf("kernel log:\n%s", tk.log)
		}
	})
	return tk, dialClient(t, k.Connection())
}

func tcpConn(key string) ConnectionInfo {
	scheme := "hmac-sha256"
	if key == "" {
		scheme = ""
	}
	return ConnectionInfo{Transport: "tcp", IP: "127.0.0.1", Key: key, SignatureScheme: scheme}
}

// A toyEngine runs a toy language, one command per line:
//
//	print TEXT    TEXT on stdout        warn TEXT   TEXT on stderr
//	show TEXT     a display_data        page TEXT   TEXT in the pager
//	clear         clear_output          fail        a ValueError
//	block         wait for an interrupt gate        wait for the test, then fail
//	panic         a Go panic            NUMBER      the cell's result
type toyEngine struct {
	mu   sync.Mutex
	ran  []string      // cells executed, in order
	gate chan struct{} // released by the test for "gate"
}

func newToyEngine() *toyEngine { return &toyEngine{gate: make(chan struct{})} }

func (e *toyEngine) executed() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]string(nil), e.ran...)
}

func (e *toyEngine) Info() Info {
	return Info{Implementation: "toy", ImplementationVersion: "1.0", LanguageVersion: "0.1",
		Banner: "toy engine", HelpLinks: []HelpLink{{Text: "toy", URL: "https://example.org/toy"}}}
}

func (e *toyEngine) Execute(ctx context.Context, cell Cell, emit func(Output)) error {
	e.mu.Lock()
	e.ran = append(e.ran, cell.Code)
	e.mu.Unlock()
	for i, line := range strings.Split(cell.Code, "\n") {
		cmd, arg, _ := strings.Cut(strings.TrimSpace(line), " ")
		switch cmd {
		case "":
		case "print":
			emit(Output{Stream: "stdout", Text: arg + "\n"})
		case "warn":
			emit(Output{Stream: "stderr", Text: arg + "\n"})
		case "show":
			emit(Output{Data: Bundle{"text/plain": arg, "text/html": "<b>" + arg + "</b>"}})
		case "page":
			emit(Output{Data: Bundle{"text/plain": arg}, Page: true})
		case "clear":
			emit(Output{Clear: true})
		case "fail":
			return &Error{Name: "ValueError", Value: "failed on purpose",
				Traceback: []string{fmt.Sprintf("<cell %d>:%d:1: error: failed on purpose", cell.Count, i+1), "  fail", "  ^"}}
		case "block":
			<-ctx.Done()
			return ctx.Err()
		case "gate":
			<-e.gate
			return &Error{Name: "ValueError", Value: "gate"}
		case "panic":
			panic("toy panic")
		default:
			var n int
			if _, err := fmt.Sscan(cmd, &n); err != nil {
				return &Error{Name: "NameError", Value: fmt.Sprintf("%q is not defined", cmd)}
			}
			emit(Output{Data: Bundle{"text/plain": cmd, "text/html": "<i>" + cmd + "</i>"}, Result: true})
		}
	}
	return nil
}

var toyWords = []string{"print", "warn", "show", "page", "clear", "fail", "block", "gate", "panic", "prêt"}

func (e *toyEngine) Complete(code string, cursor int) Completion {
	start, _ := WordAt(code, cursor)
	c := Completion{Start: start, End: cursor}
	for _, w := range toyWords {
		if strings.HasPrefix(w, code[start:cursor]) {
			c.Matches = append(c.Matches, Match{Text: w, Kind: "function", Signature: w + " TEXT"})
		}
	}
	return c
}

func (e *toyEngine) Inspect(code string, cursor, detail int) (Bundle, bool) {
	start, end := WordAt(code, cursor)
	w := code[start:end]
	for _, t := range toyWords {
		if t == w {
			doc := w + " TEXT: a toy command"
			if detail > 0 {
				doc += " (long form)"
			}
			return Bundle{"text/plain": doc}, true
		}
	}
	return nil, false
}

func (e *toyEngine) IsComplete(code string) (string, string) {
	switch {
	case strings.Contains(code, "$"):
		return "invalid", ""
	case strings.Count(code, "(") > strings.Count(code, ")"):
		return "incomplete", "    "
	}
	return "complete", ""
}
