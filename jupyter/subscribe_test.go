package jupyter

import (
	"context"
	"encoding/binary"
	"io"
	"log"
	"testing"
	"time"

	"github.com/go-zeromq/zmq4"
)

// readMsg reads the next message (its frames) that the kernel sends p,
// skipping commands; it fails the test after limit.
func (p *rawPeer) readMsg(limit time.Duration) [][]byte {
	p.t.Helper()
	p.conn.SetReadDeadline(time.Now().Add(limit))
	defer p.conn.SetReadDeadline(time.Time{})
	var frames [][]byte
	for {
		var h [9]byte
		if _, err := io.ReadFull(p.conn, h[:2]); err != nil {
			p.t.Fatalf("read: %v", err)
		}
		size := uint64(h[1])
		if h[0]&0x02 != 0 {
			if _, err := io.ReadFull(p.conn, h[2:]); err != nil {
				p.t.Fatalf("read: %v", err)
			}
			size = binary.BigEndian.Uint64(h[1:])
		}
		body := make([]byte, size)
		if _, err := io.ReadFull(p.conn, body); err != nil {
			p.t.Fatalf("read: %v", err)
		}
		if h[0]&0x04 != 0 { // a command
			continue
		}
		frames = append(frames, body)
		if h[0]&0x01 == 0 {
			return frames
		}
	}
}

// TestLateSubscriberGetsStatus connects an IOPub peer whose subscription
// arrives after a request on shell, as on a loaded machine the SUB socket
// of jupyter console can: the console connects its channels, waits for
// kernel_info_reply on shell alone (jupyter_console/ptshell.py,
// ZMQTerminalInteractiveShell.init_kernel_info), sends its first cell at
// once, then waits with no limit for status idle on IOPub (run_cell:
// "while self._execution_state != 'idle' and self.client.is_alive()").
// A PUB socket drops what it publishes before a peer's subscription
// arrives (zmq_socket(3), ZMQ_SUB: "a newly created ZMQ_SUB socket shall
// filter out all incoming messages"; libzmq's dist.cpp and zmq4's
// pubMWriter.sendMsg send only to matching subscribers), so the cell's
// busy and idle went to no one and the console hung (TestJupyterConsole
// under load). The kernel must hold the request until the peer has
// subscribed, and, for a peer that never subscribes, only for
// peerLimits.subscribe.
func TestLateSubscriberGetsStatus(t *testing.T) {
	lim := testLimits()
	lim.subscribe = 5 * time.Second
	lim.handshake = 5 * time.Second
	for _, tc := range []struct {
		name  string
		greet bool // whether the handshake is done before the request
	}{
		{"subscription late", true},
		{"handshake late", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tk, c := startLimitedKernel(t, tcpConn("k"), lim)
			var p *rawPeer
			if tc.greet {
				p = handshake(t, tk.Connection(), tk.Connection().IOPubPort, "SUB")
			} else {
				p = dialRaw(t, tk.Connection(), tk.Connection().IOPubPort)
			}
			time.Sleep(50 * time.Millisecond) // let the kernel accept it
			id := c.send(c.shell, "execute_request", executeContent("1"))
			time.Sleep(300 * time.Millisecond) // the request waits meanwhile
			if !tc.greet {
				p.write(rawGreeting())
				p.write(rawReady("SUB"))
				if _, err := io.ReadFull(p.conn, make([]byte, 64)); err != nil { // the kernel's greeting
					t.Fatal(err)
				}
			}
			p.write(rawFrame(0, []byte{1})) // subscribe to everything
			sg := newSigner("k")            // c's signer has seen these messages
			var states []string
			for len(states) < 2 {
				m, err := sg.decode(p.readMsg(wait))
				if err != nil {
					t.Fatal(err)
				}
				if parentID(m) == id && m.Header.MsgType == "status" {
					states = append(states, field(t, m, "execution_state"))
				}
			}
			if states[0] != "busy" || states[1] != "idle" {
				t.Errorf("status of the request on the late subscriber: %v, want [busy idle]", states)
			}
			if r := c.reply(c.shellCh, id); field(t, r, "status") != "ok" {
				t.Errorf("execute_reply: %s", r.Content)
			}
		})
	}
}

// TestSilentSubscriberBounded connects an IOPub peer that never
// subscribes (nor, in the second case, finishes its handshake): requests
// wait for it at most peerLimits.subscribe from its connection, then go
// on, and later requests do not wait for it again.
func TestSilentSubscriberBounded(t *testing.T) {
	lim := testLimits()
	lim.subscribe = 300 * time.Millisecond
	lim.handshake = 10 * time.Second
	for _, greet := range []bool{true, false} {
		tk, c := startLimitedKernel(t, tcpConn("k"), lim)
		if greet {
			handshake(t, tk.Connection(), tk.Connection().IOPubPort, "SUB")
		} else {
			dialRaw(t, tk.Connection(), tk.Connection().IOPubPort)
		}
		time.Sleep(50 * time.Millisecond) // let the kernel accept it
		start := time.Now()
		if r, _ := c.execute("1"); field(t, r, "status") != "ok" {
			t.Fatalf("execute_reply: %s", r.Content)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("greet %v: the request waited %v for a peer that does not subscribe", greet, d)
		}
		alive(t, c)
	}
}

// TestFirstSubscriberAwaited sends a request on shell before the only
// client's IOPub connection exists, as a loaded machine can order them:
// the kernel has not accepted that connection yet (it waits in the listen
// backlog, or the client's zmq I/O thread has not made it), so it is not
// among the peers a request waits for. One CI run of TestJupyterConsole
// hung so at its first cell. Until a first peer has subscribed, the
// request must wait for one (at most peerLimits.subscribe after the
// kernel started listening), and the late peer gets its busy and idle.
func TestFirstSubscriberAwaited(t *testing.T) {
	lim := testLimits()
	lim.subscribe = 10 * time.Second
	tk := &testKernel{engine: newToyEngine(), log: &syncBuffer{}, done: make(chan struct{})}
	k, err := newKernel(tcpConn("k"), tk.engine, Options{Log: log.New(tk.log, "", 0)}, lim)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		defer close(tk.done)
		k.Run(ctx)
	}()
	defer func() {
		cancel()
		<-tk.done
		if t.Failed() {
			t.Logf("kernel log:\n%s", tk.log)
		}
	}()
	// A client with a shell socket only, for now.
	c := &testClient{t: t, conn: k.Connection(), signer: newSigner("k"), session: newID()}
	c.shell = zmq4.NewDealer(ctx, zmq4.WithID(zmq4.SocketIdentity(c.session)))
	defer c.shell.Close()
	if err := c.shell.Dial(c.conn.endpoint(c.conn.ShellPort)); err != nil {
		t.Fatal(err)
	}
	id := c.send(c.shell, "execute_request", executeContent("1"))
	time.Sleep(300 * time.Millisecond) // the request waits meanwhile
	p := handshake(t, k.Connection(), k.Connection().IOPubPort, "SUB")
	p.write(rawFrame(0, []byte{1})) // subscribe to everything
	var states []string
	for len(states) < 2 {
		m, err := newSigner("k").decode(p.readMsg(wait))
		if err != nil {
			t.Fatal(err)
		}
		if parentID(m) == id && m.Header.MsgType == "status" {
			states = append(states, field(t, m, "execution_state"))
		}
	}
	if states[0] != "busy" || states[1] != "idle" {
		t.Errorf("status of the first request on the late peer: %v, want [busy idle]", states)
	}
	zm, err := c.shell.Recv()
	if err != nil {
		t.Fatal(err)
	}
	r, err := c.signer.decode(zm.Frames)
	if err != nil {
		t.Fatal(err)
	}
	if parentID(r) != id || field(t, r, "status") != "ok" {
		t.Errorf("execute_reply: %s", r.Content)
	}
}
