package jupyter

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"log"
	"net"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/go-zeromq/zmq4"
)

// These tests attack every port of a running kernel from raw TCP
// connections, before any key is checked, as issue 14 describes: a frame
// header claiming a huge size, a handshake that never finishes, a peer
// that never reads. Each must cost the attacking connection only: the
// kernel keeps serving a real client. Every attack is bounded in time and
// in the number of connections and messages.

// A rawPeer is a ZMTP 3.0 peer written by hand (RFC 23/ZMTP).
type rawPeer struct {
	t    *testing.T
	conn net.Conn
}

// rawGreeting is the 64-byte ZMTP 3.0 greeting with the NULL mechanism.
func rawGreeting() []byte {
	g := make([]byte, 64)
	g[0], g[9], g[10], g[11] = 0xff, 0x7f, 3, 0
	copy(g[12:], "NULL")
	return g
}

// rawFrame encodes one frame: flags (more 0x01, command 0x04) and body,
// with the long form (0x02) when the body needs it.
func rawFrame(flags byte, body []byte) []byte {
	if len(body) > 255 {
		b := []byte{flags | 0x02, 0, 0, 0, 0, 0, 0, 0, 0}
		binary.BigEndian.PutUint64(b[1:], uint64(len(body)))
		return append(b, body...)
	}
	return append([]byte{flags, byte(len(body))}, body...)
}

// rawReady is a READY command declaring socketType.
func rawReady(socketType string) []byte {
	body := []byte("\x05READY\x0bSocket-Type")
	body = binary.BigEndian.AppendUint32(body, uint32(len(socketType)))
	return rawFrame(0x04, append(body, socketType...))
}

// dialRaw opens a TCP connection to port without a handshake.
func dialRaw(t *testing.T, conn ConnectionInfo, port int) *rawPeer {
	t.Helper()
	c, err := net.DialTimeout("tcp", net.JoinHostPort(conn.IP, strconv.Itoa(port)), wait)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return &rawPeer{t: t, conn: c}
}

// handshake dials port and completes the greeting and READY exchange as
// a socketType peer.
func handshake(t *testing.T, conn ConnectionInfo, port int, socketType string) *rawPeer {
	t.Helper()
	p := dialRaw(t, conn, port)
	p.write(rawGreeting())
	var g [64]byte
	p.conn.SetReadDeadline(time.Now().Add(wait))
	if _, err := io.ReadFull(p.conn, g[:]); err != nil {
		t.Fatalf("greeting: %v", err)
	}
	p.write(rawReady(socketType))
	var h [2]byte
	if _, err := io.ReadFull(p.conn, h[:]); err != nil || h[0] != 0x04 {
		t.Fatalf("READY: % x %v", h, err)
	}
	if _, err := io.ReadFull(p.conn, make([]byte, h[1])); err != nil {
		t.Fatalf("READY: %v", err)
	}
	p.conn.SetReadDeadline(time.Time{})
	return p
}

func (p *rawPeer) write(b []byte) {
	p.t.Helper()
	p.conn.SetWriteDeadline(time.Now().Add(wait))
	if _, err := p.conn.Write(b); err != nil {
		p.t.Fatalf("write: %v", err)
	}
}

// dropped reports whether the kernel closes the connection within limit;
// what the kernel sends meanwhile is read and discarded.
func (p *rawPeer) dropped(limit time.Duration) bool {
	p.conn.SetReadDeadline(time.Now().Add(limit))
	_, err := io.Copy(io.Discard, p.conn)
	var ne net.Error
	return !(errors.As(err, &ne) && ne.Timeout())
}

// ports lists the kernel's five ports with the socket type a client uses
// on each.
func ports(conn ConnectionInfo) []struct {
	name, peer string
	port       int
} {
	return []struct {
		name, peer string
		port       int
	}{
		{"shell", "DEALER", conn.ShellPort},
		{"control", "DEALER", conn.ControlPort},
		{"stdin", "DEALER", conn.StdinPort},
		{"iopub", "SUB", conn.IOPubPort},
		{"heartbeat", "REQ", conn.HBPort},
	}
}

// alive checks that the kernel still serves c: a cell runs with its
// output and the heartbeat answers.
func alive(t *testing.T, c *testClient) {
	t.Helper()
	if r, io := c.execute("print still here\n1"); field(t, r, "status") != "ok" || len(io) != 5 {
		t.Fatalf("after the attack: %s %s", r.Content, types(io))
	}
	heartbeat(t, c.hb, time.Second)
}

// heartbeat fails unless a ping on hb is echoed within limit.
func heartbeat(t *testing.T, hb zmq4.Socket, limit time.Duration) {
	t.Helper()
	got := make(chan error, 1)
	go func() {
		if err := hb.Send(zmq4.NewMsgString("ping")); err != nil {
			got <- err
			return
		}
		m, err := hb.Recv()
		if err == nil && string(m.Bytes()) != "ping" {
			err = errors.New("echo " + strconv.Quote(string(m.Bytes())))
		}
		got <- err
	}()
	select {
	case err := <-got:
		if err != nil {
			t.Fatalf("heartbeat: %v", err)
		}
	case <-time.After(limit):
		t.Fatalf("no heartbeat within %v", limit)
	}
}

// testLimits are the kernel's limits with short timeouts and a small
// message limit, so that the tests run quickly.
func testLimits() peerLimits {
	l := defaultLimits
	l.maxMessage = 1 << 20
	l.handshake = 500 * time.Millisecond
	l.stall = 500 * time.Millisecond
	return l
}

// TestHugeFrameDropsPeer sends, after a correct handshake, one frame
// header claiming 2^36 or 2^50 bytes, or one byte more than the limit, on
// every port. zmq4 v0.17.0 allocates the claimed size at once
// (Conn.read: make([]byte, size)): "fatal error: runtime: out of memory",
// or a makeslice panic. libzmq drops such a peer (ZMQ_MAXMSGSIZE,
// zmq_setsockopt(3): "If a peer sends a message larger than
// ZMQ_MAXMSGSIZE it is disconnected").
func TestHugeFrameDropsPeer(t *testing.T) {
	tk, c := startLimitedKernel(t, tcpConn("k"), testLimits())
	for _, size := range []uint64{1 << 36, 1 << 50, 1<<63 + 5, uint64(testLimits().maxMessage) + 1} {
		for _, pt := range ports(tk.Connection()) {
			p := handshake(t, tk.Connection(), pt.port, pt.peer)
			hdr := []byte{0x02, 0, 0, 0, 0, 0, 0, 0, 0}
			binary.BigEndian.PutUint64(hdr[1:], size)
			p.write(hdr)
			if !p.dropped(wait) {
				t.Errorf("%s: a frame of %d bytes: the peer was not dropped", pt.name, size)
			}
		}
	}
	alive(t, c)
	if !strings.Contains(tk.log.String(), "dropped peer") {
		t.Errorf("log:\n%s", tk.log)
	}
}

// TestLongMessageDropsPeer sends a message of many small frames, each
// within the limit, whose total passes it: zmq4 collects every frame of
// a message in memory, so the limit must hold for the whole message.
func TestLongMessageDropsPeer(t *testing.T) {
	lim := testLimits()
	tk, c := startLimitedKernel(t, tcpConn("k"), lim)
	for _, pt := range ports(tk.Connection()) {
		if pt.peer == "SUB" {
			continue // a subscription is one frame (TestIOPubTakesSubscriptionsOnly)
		}
		p := handshake(t, tk.Connection(), pt.port, pt.peer)
		frame := rawFrame(0x01, make([]byte, 4096))
		var buf bytes.Buffer
		for buf.Len() < int(lim.maxMessage)*2 {
			buf.Write(frame)
		}
		go p.conn.Write(buf.Bytes()) // the kernel may close before it is all sent
		if !p.dropped(wait) {
			t.Errorf("%s: a message of %d bytes: the peer was not dropped", pt.name, buf.Len())
		}
		// Empty frames count too: each costs zmq4 a slice header.
		p = handshake(t, tk.Connection(), pt.port, pt.peer)
		go p.conn.Write(bytes.Repeat([]byte{0x01, 0}, int(lim.maxMessage)))
		if !p.dropped(wait) {
			t.Errorf("%s: %d empty frames: the peer was not dropped", pt.name, lim.maxMessage/2)
		}
	}
	alive(t, c)
}

// TestMalformedHandshakeDropsPeer sends handshakes that zmq4 v0.17.0
// mishandles: metadata whose property runs past the end of READY makes
// zmq4 panic (Property.Write slices past the end) in the goroutine that
// accepts connections.
func TestMalformedHandshakeDropsPeer(t *testing.T) {
	tk, c := startLimitedKernel(t, tcpConn("k"), testLimits())
	greeting := rawGreeting()
	v2 := rawGreeting()
	v2[10] = 2
	plain := rawGreeting()
	copy(plain[12:], "PLAIN")
	for _, tc := range []struct {
		name     string
		greeting []byte
		ready    []byte
	}{
		{"property past the end", greeting, rawFrame(0x04, []byte("\x05READY\x02ab"))},
		{"value past the end", greeting, rawFrame(0x04, []byte("\x05READY\x01a\x00\x00\x01\x00x"))},
		{"no READY", greeting, rawFrame(0x04, []byte("\x05HELLO"))},
		{"not a command", greeting, rawFrame(0, []byte("\x05READY"))},
		{"command name past the end", greeting, rawFrame(0x04, []byte("\x09READY"))},
		{"huge READY", greeting, []byte{0x06, 0, 0, 0x10, 0, 0, 0, 0, 0}},
		{"wrong socket type", greeting, rawReady("PUSH")},
		{"ZMTP 2", v2, rawReady("DEALER")},
		{"PLAIN mechanism", plain, rawReady("DEALER")},
	} {
		for _, pt := range ports(tk.Connection()) {
			p := dialRaw(t, tk.Connection(), pt.port)
			p.write(append(append([]byte(nil), tc.greeting...), tc.ready...))
			if !p.dropped(wait) {
				t.Errorf("%s: %s: the peer was not dropped", pt.name, tc.name)
			}
		}
	}
	alive(t, c)
}

// TestIdleHandshakeDoesNotBlock leaves connections on every port that
// never finish the handshake (silent, or stopping inside the greeting or
// before READY). zmq4 v0.17.0 runs each handshake in its accept loop
// without a deadline, so one such connection stops every later client
// from connecting. A new client must connect at once, and the idle ones
// must be dropped after the handshake deadline (libzmq's
// ZMQ_HANDSHAKE_IVL).
func TestIdleHandshakeDoesNotBlock(t *testing.T) {
	tk, c := startLimitedKernel(t, tcpConn("k"), testLimits())
	var idle []*rawPeer
	for _, pt := range ports(tk.Connection()) {
		idle = append(idle, dialRaw(t, tk.Connection(), pt.port))
		p := dialRaw(t, tk.Connection(), pt.port)
		p.write(rawGreeting()[:10])
		idle = append(idle, p)
		p = dialRaw(t, tk.Connection(), pt.port)
		p.write(rawGreeting())
		idle = append(idle, p)
	}
	time.Sleep(50 * time.Millisecond) // let the kernel accept them
	done := make(chan *testClient, 1)
	go func() { done <- dialClient(t, tk.Connection()) }()
	select {
	case c2 := <-done:
		alive(t, c2)
	case <-time.After(5 * time.Second):
		t.Fatal("a new client could not connect while idle connections wait")
	}
	for i, p := range idle {
		if !p.dropped(wait) {
			t.Errorf("idle connection %d was not dropped", i)
		}
	}
	alive(t, c)
}

// TestStuckSubscriberDropped subscribes to IOPub from a peer that never
// reads while a real client runs cells with much output. With zmq4
// v0.17.0 the PUB writer blocks on the stuck peer once the TCP buffers
// fill (a few MB), and IOPub stops for everyone. The real client must
// get all its output, and the stuck peer must be dropped.
func TestStuckSubscriberDropped(t *testing.T) {
	if testing.Short() {
		t.Skip("fills TCP buffers and waits out the stall limit, seconds; skipped with -short (make test runs it)")
	}
	tk, c := startLimitedKernel(t, tcpConn("k"), testLimits())
	p := handshake(t, tk.Connection(), tk.Connection().IOPubPort, "SUB")
	if tcp, ok := p.conn.(*net.TCPConn); ok {
		tcp.SetReadBuffer(4096)
	}
	p.write(rawFrame(0, []byte{1})) // subscribe to everything
	time.Sleep(50 * time.Millisecond)
	line := "print " + strings.Repeat("x", 32<<10)
	code := strings.Repeat(line+"\n", 16) // 512 KiB of output per cell
	start := time.Now()
	for i := 0; i < 32; i++ {
		done := make(chan struct{})
		go func() {
			defer close(done)
			if r, io := c.execute(code); field(t, r, "status") != "ok" || len(io) != 19 {
				t.Errorf("cell %d: %s %s", i, r.Content, types(io))
			}
		}()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Fatalf("cell %d: IOPub stalled behind a subscriber that does not read", i)
		}
	}
	t.Logf("16 MB of output in %v", time.Since(start))
	time.Sleep(4 * testLimits().stall) // still not reading
	if !p.dropped(wait) {
		t.Error("the stuck subscriber was not dropped")
	}
	alive(t, c)
}

// TestStuckHeartbeatPeerDropped pings the heartbeat from a REQ peer that
// never reads the echoes. With zmq4 v0.17.0 the REP writer blocks on it
// once the TCP buffers fill, and the heartbeat stops for everyone.
func TestStuckHeartbeatPeerDropped(t *testing.T) {
	if testing.Short() {
		t.Skip("fills TCP buffers and waits out the stall limit, seconds; skipped with -short (make test runs it)")
	}
	tk, c := startLimitedKernel(t, tcpConn("k"), testLimits())
	p := handshake(t, tk.Connection(), tk.Connection().HBPort, "REQ")
	if tcp, ok := p.conn.(*net.TCPConn); ok {
		tcp.SetReadBuffer(4096)
	}
	ping := append(rawFrame(0x01, nil), rawFrame(0, make([]byte, 4096))...)
	pings := bytes.Repeat(ping, 4096) // 16 MB of pings
	go p.conn.Write(pings)
	time.Sleep(500 * time.Millisecond)
	for i := 0; i < 5; i++ {
		heartbeat(t, c.hb, 2*time.Second)
	}
	time.Sleep(4 * testLimits().stall) // still not reading
	if !p.dropped(wait) {
		t.Error("the heartbeat peer that does not read was not dropped")
	}
	alive(t, c)
}

// TestIOPubTakesSubscriptionsOnly sends IOPub what a subscriber never
// sends: zmq4 v0.17.0 queues anything but a subscription for a reader
// that PUB never runs, so each such message stays in memory for ever and
// its connection's reader is stuck. The peer must be dropped.
func TestIOPubTakesSubscriptionsOnly(t *testing.T) {
	tk, c := startLimitedKernel(t, tcpConn("k"), testLimits())
	for _, tc := range []struct {
		name string
		msg  []byte
	}{
		{"empty frame", rawFrame(0, nil)},
		{"not a subscription", rawFrame(0, []byte("hello"))},
		{"multipart", append(rawFrame(1, []byte{1}), rawFrame(0, []byte{1})...)},
		{"too many subscriptions", bytes.Repeat(rawFrame(0, append([]byte{1}, make([]byte, 1000)...)), int(testLimits().maxSubscriptions/1000)+1)},
	} {
		p := handshake(t, tk.Connection(), tk.Connection().IOPubPort, "SUB")
		go p.conn.Write(bytes.Repeat(tc.msg, 20))
		if !p.dropped(wait) {
			t.Errorf("%s: the peer was not dropped", tc.name)
		}
	}
	alive(t, c)
}

// TestTooManyPeers opens more connections to one port than the kernel
// takes: the extra ones are closed at once, and once they go, clients
// connect again.
func TestTooManyPeers(t *testing.T) {
	lim := testLimits()
	lim.maxPeers = 8
	tk, _ := startLimitedKernel(t, tcpConn("k"), lim)
	conn := tk.Connection()
	var ps []*rawPeer
	for i := 1; i < lim.maxPeers; i++ { // the client has one
		ps = append(ps, handshake(t, conn, conn.ShellPort, "DEALER"))
	}
	if p := dialRaw(t, conn, conn.ShellPort); !p.dropped(wait) {
		t.Error("a connection past the limit was not closed")
	}
	for _, p := range ps {
		p.conn.Close()
	}
	waitFor(t, "a connection after the others left", func() bool {
		p := dialRaw(t, conn, conn.ShellPort)
		p.write(rawGreeting())
		p.conn.SetReadDeadline(time.Now().Add(quiet))
		_, err := io.ReadFull(p.conn, make([]byte, 64))
		return err == nil
	})
}

// TestStartWarnings: an empty key (signing off) and a bind on every
// interface are logged when the kernel starts. jupyter_client's Session
// warns "Message signing is disabled. This is insecure and not
// recommended!" for an empty key (Session.__init__,
// jupyter_client/session.py), which ipykernel logs at start.
func TestStartWarnings(t *testing.T) {
	for _, tc := range []struct {
		key, ip string
		want    []string
	}{
		{"k", "127.0.0.1", nil},
		{"", "127.0.0.1", []string{"no key: message signing is off"}},
		{"k", "0.0.0.0", []string{`ip "0.0.0.0" binds every network interface`}},
		{"", "*", []string{"no key", `ip "*" binds every network interface`}},
	} {
		var logs syncBuffer
		conn := tcpConn(tc.key)
		conn.IP = tc.ip
		k, err := NewKernel(conn, newToyEngine(), Options{Log: log.New(&logs, "", 0)})
		if err != nil {
			t.Fatalf("%+v: %v", tc, err)
		}
		k.cancel()
		k.closeSockets()
		got := logs.String()
		for _, w := range tc.want {
			if !strings.Contains(got, w) {
				t.Errorf("key %q ip %q: log lacks %q:\n%s", tc.key, tc.ip, w, got)
			}
		}
		if tc.want == nil && got != "" {
			t.Errorf("key %q ip %q: log %q", tc.key, tc.ip, got)
		}
	}
}

// TestLargeMessagesPass: the limits leave room for real use. With the
// default limits an 8 MiB cell (jupyter/research: 8 MB messages work
// with Debian's pyzmq clients) runs, and its 8 MiB of output comes back.
func TestLargeMessagesPass(t *testing.T) {
	_, c := startKernel(t, tcpConn("k"))
	text := strings.Repeat("x", 8<<20)
	r, io := c.execute("print " + text)
	if field(t, r, "status") != "ok" || types(io) != "busy execute_input stream idle" || field(t, io[2], "text") != text+"\n" {
		t.Errorf("an 8 MiB cell: %s %s", r.Content, types(io))
	}
}
