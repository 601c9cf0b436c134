package jupyter

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/go-zeromq/zmq4"
	"github.com/go-zeromq/zmq4/transport"
)

// This file guards the kernel's sockets against their peers. Anyone who
// can reach a port can talk ZMTP (RFC 23) to it before any key is
// checked, and go-zeromq/zmq4 v0.17.0 trusts the peer: it allocates
// whatever size a frame header claims, runs each handshake inside its
// accept loop with no deadline, and writes to each peer in turn with no
// deadline, so one peer can kill the process or stall every other client.
//
// The kernel therefore binds through its own zmq4 transport: a
// [guardListener] accepts the connections, runs the ZMTP greeting and
// READY exchange itself (concurrently, under a deadline, checking what
// zmq4 would trip on), and hands zmq4 a [guardConn] that replays the
// handshake. A guardConn reads the peer's frames itself and passes zmq4
// only frames within the limits, whole; it queues what zmq4 writes and
// sends it from a goroutine of its own, so writing never blocks zmq4. A
// peer that breaks a limit is dropped: its connection fails with a
// non-timeout net.Error, on which zmq4 removes that connection (and only
// that one) from the socket (Conn.checkIO, socket.scheduleRmConn).

// peerLimits bound what one peer can make the kernel do.
type peerLimits struct {
	// maxMessage bounds one message from a peer: its frames' sizes plus
	// frameCost for each. libzmq's ZMQ_MAXMSGSIZE does the same per
	// message, unlimited by default; an unlimited zmq4 allocates what a
	// header claims. Jupyter Server caps a browser's message at 10 MiB
	// (tornado's websocket_max_message_size default); 32 MiB leaves room
	// for direct clients.
	maxMessage int64
	// maxSubscriptions bounds the bytes of subscriptions one peer sends
	// to the PUB socket (zmq4 keeps each topic in a map).
	maxSubscriptions int64
	// handshake bounds the greeting and READY exchange: libzmq's
	// ZMQ_HANDSHAKE_IVL, 30 s by default.
	handshake time.Duration
	// stall bounds how long a peer may take no byte while output waits
	// for it; then it is dropped.
	stall time.Duration
	// hwm and maxQueued bound what waits for one peer, in messages
	// (libzmq's ZMQ_SNDHWM, 1000 by default) and bytes; past either,
	// new messages to that peer are dropped, as libzmq drops them.
	hwm       int
	maxQueued int64
	// maxPeers bounds the connections of one socket, handshakes
	// included; further ones are closed at once.
	maxPeers int
	// subscribe bounds how long a shell request waits for a new IOPub
	// peer's first subscription (see [subscribers]): a peer that never
	// subscribes delays requests by at most this, once.
	subscribe time.Duration
}

var defaultLimits = peerLimits{
	maxMessage:       32 << 20,
	maxSubscriptions: 1 << 20,
	handshake:        30 * time.Second,
	stall:            30 * time.Second,
	hwm:              1000,
	maxQueued:        64 << 20,
	maxPeers:         256,
	subscribe:        5 * time.Second,
}

const (
	// frameCost is what a frame costs zmq4 beyond its bytes (a slice
	// header and allocation rounding), so that empty frames count.
	frameCost = 64
	// maxReady bounds the peer's READY command (its socket type and
	// identity, at most 255 bytes, plus any metadata).
	maxReady = 64 << 10
	// linger is how long closing a connection waits for queued output,
	// as ipykernel sets ZMQ_LINGER to 1000 ms.
	linger = time.Second

	flagMore    = 0x01
	flagLong    = 0x02
	flagCommand = 0x04
)

// zmtpGreeting is the greeting zmq4 v0.17.0 sends (Conn.greet): ZMTP 3.0,
// mechanism NULL, as-server 0. The listener sends it first, because
// libzmq waits for the peer's signature before it completes its own.
var zmtpGreeting = func() []byte {
	g := make([]byte, 64)
	g[0], g[9], g[10], g[11] = 0xff, 0x7f, 3, 0
	copy(g[12:32], "NULL")
	return g
}()

// A peerError ends one connection. It is a net.Error that is not a
// timeout, so zmq4 marks the connection closed and removes it.
type peerError struct{ err error }

func (e *peerError) Error() string   { return e.err.Error() }
func (e *peerError) Unwrap() error   { return e.err }
func (e *peerError) Timeout() bool   { return false }
func (e *peerError) Temporary() bool { return false }

var errClosed = errors.New("connection closed")

// guardScheme is the zmq4 transport through which the kernel binds: an
// endpoint "tensorsh-guarded://TOKEN" takes the listener registered
// under TOKEN.
const guardScheme = "tensorsh-guarded"

var (
	registerOnce sync.Once
	registerErr  error
	pendingMu    sync.Mutex
	pending      = map[string]*guardListener{}
)

type guardTransport struct{}

func (guardTransport) Dial(context.Context, transport.Dialer, string) (net.Conn, error) {
	return nil, errors.New(guardScheme + ": listen only")
}

func (guardTransport) Listen(_ context.Context, token string) (net.Listener, error) {
	pendingMu.Lock()
	defer pendingMu.Unlock()
	l, ok := pending[token]
	if !ok {
		return nil, fmt.Errorf("%s: no listener %q", guardScheme, token)
	}
	delete(pending, token)
	return l, nil
}

func (guardTransport) Addr(ep string) (string, error) { return ep, nil }

// listenGuarded makes sock accept the connections of l through a
// guardListener; name ("shell") is for the log.
func listenGuarded(sock zmq4.Socket, l net.Listener, name string, lim peerLimits, logger *log.Logger) (*guardListener, error) {
	registerOnce.Do(func() { registerErr = zmq4.RegisterTransport(guardScheme, guardTransport{}) })
	if registerErr != nil {
		l.Close()
		return nil, registerErr
	}
	g := newGuardListener(l, name, string(sock.Type()), lim, logger)
	token := newID()
	pendingMu.Lock()
	pending[token] = g
	pendingMu.Unlock()
	if err := sock.Listen(guardScheme + "://" + token); err != nil {
		pendingMu.Lock()
		delete(pending, token)
		pendingMu.Unlock()
		g.Close()
		return nil, err
	}
	return g, nil
}

// A guardListener accepts connections, runs their handshakes
// concurrently under a deadline, and gives zmq4 those that complete.
type guardListener struct {
	inner net.Listener
	name  string // "shell"
	ours  string // zmq4 socket type: ROUTER, PUB or REP
	lim   peerLimits
	log   *ratedLog

	ready     chan *guardConn
	done      chan struct{}
	closeOnce sync.Once
	peers     atomic.Int64 // connections open, handshakes included
	subs      subscribers  // on a PUB socket, peers not yet subscribed
}

func newGuardListener(inner net.Listener, name, ours string, lim peerLimits, logger *log.Logger) *guardListener {
	l := &guardListener{
		inner: inner,
		name:  name,
		ours:  ours,
		lim:   lim,
		log:   &ratedLog{log: logger},
		ready: make(chan *guardConn),
		done:  make(chan struct{}),
	}
	l.subs.changed = make(chan struct{})
	if ours == "PUB" {
		l.subs.first = time.Now().Add(lim.subscribe)
	}
	go l.run()
	return l
}

// Accept returns the next connection whose handshake completed.
func (l *guardListener) Accept() (net.Conn, error) {
	select {
	case c := <-l.ready:
		return c, nil
	case <-l.done:
		return nil, net.ErrClosed
	}
}

func (l *guardListener) Close() error {
	l.closeOnce.Do(func() { close(l.done) })
	return l.inner.Close()
}

func (l *guardListener) Addr() net.Addr { return l.inner.Addr() }

func (l *guardListener) run() {
	var delay time.Duration
	for {
		c, err := l.inner.Accept()
		if err != nil {
			select {
			case <-l.done:
				return
			default:
			}
			// Out of file descriptors, say: back off as net/http does.
			delay = min(max(2*delay, 5*time.Millisecond), time.Second)
			l.log.printf("%s: accept: %v", l.name, err)
			select {
			case <-l.done:
				return
			case <-time.After(delay):
			}
			continue
		}
		delay = 0
		if l.peers.Add(1) > int64(l.lim.maxPeers) {
			l.peers.Add(-1)
			c.Close()
			l.log.printf("%s: refused %s: already %d connections", l.name, c.RemoteAddr(), l.lim.maxPeers)
			continue
		}
		if l.ours == "PUB" {
			l.subs.add(c, time.Now().Add(l.lim.subscribe))
		}
		go l.handshake(c)
	}
}

// handshake runs the greeting and READY exchange with a new peer and
// offers the connection to zmq4.
func (l *guardListener) handshake(raw net.Conn) {
	deadline := time.Now().Add(l.lim.handshake)
	raw.SetDeadline(deadline)
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		select {
		case <-l.done: // the socket is closing: stop waiting for the peer
			raw.Close()
		case <-stop:
		}
	}()
	replay, err := l.greet(raw)
	if err != nil {
		raw.Close()
		l.subs.remove(raw)
		l.peers.Add(-1)
		l.log.printf("%s: dropped peer %s in the handshake: %v", l.name, raw.RemoteAddr(), err)
		return
	}
	raw.SetDeadline(time.Time{})
	c := newGuardConn(raw, l, replay)
	t := time.NewTimer(time.Until(deadline))
	defer t.Stop()
	select {
	case l.ready <- c:
	case <-l.done:
		c.Close()
	case <-t.C:
		c.fail(errors.New("the socket did not take the connection"), true)
	}
}

// greet sends the greeting, then reads and checks the peer's greeting and
// READY command. It returns the bytes it read, for zmq4 to read again.
// What it checks is what zmq4's handshake (Conn.init) would fail or
// panic on, so that zmq4 never fails a connection it was given.
func (l *guardListener) greet(c net.Conn) ([]byte, error) {
	if _, err := c.Write(zmtpGreeting); err != nil {
		return nil, err
	}
	var g [64]byte
	if _, err := io.ReadFull(c, g[:]); err != nil {
		return nil, fmt.Errorf("greeting: %w", err)
	}
	switch {
	case g[0] != 0xff || g[9] != 0x7f:
		return nil, errors.New("not a ZMTP 3 greeting")
	case g[10] < 3:
		return nil, fmt.Errorf("ZMTP %d.%d (want 3.0 or later)", g[10], g[11])
	case string(bytes.TrimRight(g[12:32], "\x00")) != "NULL":
		return nil, fmt.Errorf("security mechanism %q (want NULL)", bytes.TrimRight(g[12:32], "\x00"))
	case g[32] > 1:
		return nil, fmt.Errorf("as-server flag %d", g[32])
	}
	var h [9]byte
	if _, err := io.ReadFull(c, h[:2]); err != nil {
		return nil, fmt.Errorf("READY: %w", err)
	}
	if h[0]&flagCommand == 0 || h[0]&flagMore != 0 {
		return nil, errors.New("the first frame is not a command")
	}
	n, size := 2, uint64(h[1])
	if h[0]&flagLong != 0 {
		n = 9
		if _, err := io.ReadFull(c, h[2:9]); err != nil {
			return nil, fmt.Errorf("READY: %w", err)
		}
		size = binary.BigEndian.Uint64(h[1:9])
	}
	if size > maxReady {
		return nil, fmt.Errorf("READY of %d bytes (limit %d)", size, maxReady)
	}
	body := make([]byte, size)
	if _, err := io.ReadFull(c, body); err != nil {
		return nil, fmt.Errorf("READY: %w", err)
	}
	peer, err := parseReady(body)
	if err != nil {
		return nil, err
	}
	if !compatible(l.ours, peer) {
		return nil, fmt.Errorf("a %s peer cannot talk to a %s socket", peer, l.ours)
	}
	replay := make([]byte, 0, len(g)+n+len(body))
	return append(append(append(replay, g[:]...), h[:n]...), body...), nil
}

// parseReady checks a READY command body, "\x05READY" then properties
// (name length, name, 4-byte value length, value), and returns the
// Socket-Type property.
func parseReady(b []byte) (string, error) {
	if len(b) < 6 || string(b[:6]) != "\x05READY" {
		return "", errors.New("the first command is not READY")
	}
	socketType := ""
	for i := 6; i < len(b); {
		k := int(b[i])
		i++
		if len(b)-i < k+4 {
			return "", errors.New("READY: a property runs past the end")
		}
		name := string(b[i : i+k])
		i += k
		v := binary.BigEndian.Uint32(b[i:])
		i += 4
		if uint64(len(b)-i) < uint64(v) {
			return "", errors.New("READY: a property value runs past the end")
		}
		// zmq4 title-cases each word of a name (protocol.go toTitle)
		// and looks for "Socket-Type".
		switch name {
		case "Socket-Type", "socket-Type", "Socket-type", "socket-type":
			socketType = string(b[i : i+int(v)])
		}
		i += int(v)
	}
	return socketType, nil
}

// compatible reports whether a peer of socket type peer may connect to
// ours (RFC 23/ZMTP, as zmq4's SocketType.IsCompatible).
func compatible(ours, peer string) bool {
	switch ours {
	case "ROUTER":
		return peer == "DEALER" || peer == "REQ" || peer == "ROUTER"
	case "PUB":
		return peer == "SUB" || peer == "XSUB"
	case "REP":
		return peer == "REQ" || peer == "DEALER"
	}
	return false
}

// A guardConn is one peer's connection as zmq4 sees it.
type guardConn struct {
	net.Conn
	l       *guardListener
	replay  []byte // the peer's greeting and READY, for zmq4 to read
	swallow []byte // our greeting, sent already, which zmq4 writes again
	started atomic.Bool
	timer   *time.Timer

	// Reading: zmq4 reads from one goroutine at a time.
	raw    []byte
	in     frameFilter
	ready  [][]byte // frames passed, waiting for zmq4 to read them
	rerr   error
	queued int64 // bytes ever put in ready
	given  int64 // bytes ever given to zmq4 from ready
	subEnd int64 // on a PUB socket, where the first subscription ends in queued's count; 0 before it

	// Writing.
	mu       sync.Mutex
	cond     *sync.Cond
	out      frameCursor
	buf      []byte  // output waiting for the sender goroutine
	total    int64   // bytes ever queued
	sent     int64   // bytes ever sent
	ends     []int64 // where the queued messages end, in total's count
	dropping bool    // the message being written goes nowhere
	dropped  int     // messages dropped since the last log line
	err      error   // why the connection ended

	closeOnce sync.Once
}

func newGuardConn(raw net.Conn, l *guardListener, replay []byte) *guardConn {
	c := &guardConn{
		Conn:    raw,
		l:       l,
		replay:  replay,
		swallow: zmtpGreeting,
		raw:     make([]byte, 32<<10),
		in:      frameFilter{lim: &l.lim, subscriber: l.ours == "PUB"},
	}
	c.cond = sync.NewCond(&c.mu)
	// zmq4 reads past the handshake as soon as it adds the connection
	// to the socket; if it never does, its handshake failed and nothing
	// will close the connection but this.
	c.timer = time.AfterFunc(l.lim.handshake, func() {
		if !c.started.Load() {
			c.fail(errors.New("the socket did not take the connection"), true)
		}
	})
	go c.send()
	return c
}

// Read gives zmq4 the replayed handshake, then the frames the filter
// passes.
func (c *guardConn) Read(p []byte) (int, error) {
	if len(c.replay) > 0 {
		n := copy(p, c.replay)
		c.replay = c.replay[n:]
		return n, nil
	}
	c.started.Store(true)
	// zmq4 reads one message at a time, and handles it before it reads
	// again (pubQReader.listen): once it reads past the first
	// subscription, the subscription is in force.
	if c.subEnd > 0 && c.given >= c.subEnd {
		c.l.subs.subscribe(c.Conn)
		c.subEnd = -1
	}
	for len(c.ready) == 0 {
		if c.rerr != nil {
			return 0, c.rerr
		}
		n, err := c.Conn.Read(c.raw)
		if n > 0 {
			if ferr := c.in.feed(c.raw[:n], func(b []byte) {
				c.ready = append(c.ready, b)
				c.queued += int64(len(b))
			}); ferr != nil {
				c.rerr = c.fail(ferr, true)
			}
			if c.subEnd == 0 && c.in.subscribed {
				c.subEnd = c.queued
			}
		}
		if err != nil && c.rerr == nil {
			c.rerr = c.fail(err, false)
		}
	}
	n := copy(p, c.ready[0])
	c.given += int64(n)
	if c.ready[0] = c.ready[0][n:]; len(c.ready[0]) == 0 {
		c.ready[0] = nil
		c.ready = c.ready[1:]
	}
	return n, nil
}

// Write queues p for the sender goroutine and never blocks on the peer.
// A message that finds the peer's queue full is dropped whole.
func (c *guardConn) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.err != nil {
		return 0, c.err
	}
	n := len(p)
	if len(c.swallow) > 0 {
		k := min(len(p), len(c.swallow))
		if !bytes.Equal(p[:k], c.swallow[:k]) {
			c.mu.Unlock()
			err := c.fail(errors.New("zmq4 wrote an unexpected greeting"), true)
			c.mu.Lock()
			return 0, err
		}
		c.swallow, p = c.swallow[k:], p[k:]
	}
	for len(p) > 0 {
		if c.out.atMessageStart() {
			c.dropping = c.fullLocked()
			if c.dropping {
				c.dropped++
			}
		}
		k, end := c.out.advance(p)
		if !c.dropping {
			c.buf = append(c.buf, p[:k]...)
			c.total += int64(k)
			if end {
				c.ends = append(c.ends, c.total)
			}
		}
		p = p[k:]
	}
	c.cond.Signal()
	return n, nil
}

// fullLocked reports whether the peer's queue is at its limit.
func (c *guardConn) fullLocked() bool {
	i := 0
	for i < len(c.ends) && c.ends[i] <= c.sent {
		i++
	}
	c.ends = c.ends[i:]
	return len(c.ends) >= c.l.lim.hwm || c.total-c.sent >= c.l.lim.maxQueued
}

// send writes the queued output. A peer that takes no byte for the stall
// limit is dropped; one that takes some goes on.
func (c *guardConn) send() {
	var spare []byte
	for {
		c.mu.Lock()
		for len(c.buf) == 0 && c.err == nil {
			c.cond.Wait()
		}
		if c.err != nil {
			c.mu.Unlock()
			return
		}
		b := c.buf
		c.buf = spare[:0]
		if c.dropped > 0 {
			c.l.log.printf("%s: %s reads too slowly: dropped %d messages to it", c.l.name, c.RemoteAddr(), c.dropped)
			c.dropped = 0
		}
		c.mu.Unlock()
		for rest := b; len(rest) > 0; {
			c.Conn.SetWriteDeadline(time.Now().Add(c.l.lim.stall))
			n, err := c.Conn.Write(rest)
			rest = rest[n:]
			c.mu.Lock()
			c.sent += int64(n)
			c.cond.Broadcast()
			c.mu.Unlock()
			var ne net.Error
			switch {
			case err == nil:
			case errors.As(err, &ne) && ne.Timeout() && n > 0:
				// Slow, but reading: wait again.
			case errors.As(err, &ne) && ne.Timeout():
				c.fail(fmt.Errorf("read nothing for %v", c.l.lim.stall), true)
				return
			default:
				c.fail(err, false)
				return
			}
		}
		spare = nil
		if cap(b) <= 1<<20 {
			spare = b
		}
	}
}

// fail ends the connection for err (logged if it is the peer's fault)
// and returns the error zmq4 gets from now on.
func (c *guardConn) fail(err error, logIt bool) error {
	c.mu.Lock()
	first := c.err == nil
	if first {
		c.err = &peerError{err}
		c.cond.Broadcast()
	}
	e := c.err
	c.mu.Unlock()
	if first && logIt {
		c.l.log.printf("%s: dropped peer %s: %v", c.l.name, c.RemoteAddr(), err)
		// Reset the connection rather than leave the system sending
		// what is queued for a peer that does not read.
		if tcp, ok := c.Conn.(*net.TCPConn); ok {
			tcp.SetLinger(0)
		}
	}
	c.Close()
	return e
}

// Close waits up to linger for queued output, then closes the
// connection.
func (c *guardConn) Close() error {
	c.closeOnce.Do(func() {
		c.timer.Stop()
		c.mu.Lock()
		deadline := time.Now().Add(linger)
		for c.err == nil && c.sent < c.total && time.Now().Before(deadline) {
			c.mu.Unlock()
			time.Sleep(5 * time.Millisecond)
			c.mu.Lock()
		}
		if c.err == nil {
			c.err = &peerError{errClosed}
		}
		c.cond.Broadcast()
		c.mu.Unlock()
		c.Conn.Close()
		c.l.subs.remove(c.Conn)
		c.l.peers.Add(-1)
	})
	return nil
}

// A frameCursor follows the ZMTP frames of a byte stream: a flags byte
// (more 0x01, long 0x02, command 0x04), a size of 1 byte, or 8 bytes
// big-endian with the long flag, then the body.
type frameCursor struct {
	hdr   [9]byte
	hn    int    // header bytes seen
	left  uint64 // body bytes still to come, once the header is whole
	inMsg bool   // the last frame had the more flag
}

func (f *frameCursor) headerLen() int {
	if f.hn > 0 && f.hdr[0]&flagLong != 0 {
		return 9
	}
	return 2
}

func (f *frameCursor) size() uint64 {
	if f.hdr[0]&flagLong != 0 {
		return binary.BigEndian.Uint64(f.hdr[1:9])
	}
	return uint64(f.hdr[1])
}

func (f *frameCursor) atMessageStart() bool { return f.hn == 0 && !f.inMsg }

// advance consumes a prefix of p within one frame and returns its length
// and whether it ends a message. The writer is zmq4, so sizes are
// trusted.
func (f *frameCursor) advance(p []byte) (int, bool) {
	if f.hn < f.headerLen() {
		f.hdr[f.hn] = p[0]
		f.hn++
		if f.hn < f.headerLen() {
			return 1, false
		}
		f.left = f.size()
		return 1, f.left == 0 && f.frameDone()
	}
	k := int(min(f.left, uint64(len(p))))
	f.left -= uint64(k)
	return k, f.left == 0 && f.frameDone()
}

// frameDone starts the next frame and reports whether the message ended.
func (f *frameCursor) frameDone() bool {
	f.inMsg = f.hdr[0]&flagMore != 0
	f.hn = 0
	return !f.inMsg
}

// A frameFilter reads a peer's frames after the handshake and passes on
// only whole frames within the limits. Commands (PING, say) are dropped:
// zmq4's sockets would queue them as messages. On a PUB socket a peer
// may send subscriptions only: one frame starting with 1 (subscribe) or
// 0 (unsubscribe); zmq4 queues anything else for a reader that PUB never
// runs, so it would stay in memory for ever.
type frameFilter struct {
	lim        *peerLimits
	subscriber bool

	frameCursor
	body       []byte
	msgCost    int64 // of the message so far
	subCost    int64 // of all subscriptions
	subscribed bool  // a subscription has passed
}

// feed consumes p and calls emit with the header and body of each frame
// that passes. It returns an error, after emitting the frames before it,
// when the peer breaks a limit.
func (f *frameFilter) feed(p []byte, emit func([]byte)) error {
	for len(p) > 0 {
		if f.hn < f.headerLen() {
			f.hdr[f.hn] = p[0]
			f.hn++
			p = p[1:]
			if f.hn < f.headerLen() {
				continue
			}
			if err := f.checkHeader(); err != nil {
				return err
			}
			f.left = f.size()
			f.body = make([]byte, 0, min(f.left, 64<<10))
		} else {
			k := int(min(f.left, uint64(len(p))))
			f.body = append(f.body, p[:k]...)
			f.left -= uint64(k)
			p = p[k:]
		}
		if f.left > 0 {
			continue
		}
		if err := f.frame(emit); err != nil {
			return err
		}
	}
	return nil
}

// checkHeader checks a whole frame header against the limits.
func (f *frameFilter) checkHeader() error {
	flags, size := f.hdr[0], f.size()
	if size > uint64(f.lim.maxMessage) {
		return fmt.Errorf("frame of %d bytes (limit %d)", size, f.lim.maxMessage)
	}
	cost := int64(size) + frameCost
	if flags&flagCommand != 0 {
		if flags&flagMore != 0 || f.inMsg {
			return errors.New("a command inside a message")
		}
		if cost > f.lim.maxMessage {
			return fmt.Errorf("command of %d bytes (limit %d)", size, f.lim.maxMessage)
		}
		return nil
	}
	if f.msgCost += cost; f.msgCost > f.lim.maxMessage {
		return fmt.Errorf("message of more than %d bytes", f.lim.maxMessage)
	}
	if f.subscriber {
		if flags&flagMore != 0 || size == 0 {
			return errors.New("sent a PUB socket something other than a subscription")
		}
		if f.subCost += cost; f.subCost > f.lim.maxSubscriptions {
			return fmt.Errorf("more than %d bytes of subscriptions", f.lim.maxSubscriptions)
		}
	}
	return nil
}

// frame handles a whole frame.
func (f *frameFilter) frame(emit func([]byte)) error {
	flags, body := f.hdr[0], f.body
	hdr := append([]byte(nil), f.hdr[:f.hn]...)
	f.body = nil
	if flags&flagCommand != 0 {
		f.hn = 0
		return nil
	}
	if f.subscriber && body[0] > 1 {
		return errors.New("sent a PUB socket something other than a subscription")
	}
	if f.subscriber && body[0] == 1 {
		f.subscribed = true
	}
	if f.frameDone() {
		f.msgCost = 0
	}
	emit(hdr)
	if len(body) > 0 {
		emit(body)
	}
	return nil
}

// A ratedLog logs at most 10 lines a second, and says how many it left
// out, so that a flood of bad peers cannot flood the log.
type ratedLog struct {
	log     *log.Logger
	mu      sync.Mutex
	second  time.Time
	lines   int
	skipped int
}

func (r *ratedLog) printf(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	now := time.Now()
	if now.Sub(r.second) >= time.Second {
		if r.skipped > 0 {
			r.log.Printf("(%d similar lines left out)", r.skipped)
		}
		r.second, r.lines, r.skipped = now, 0, 0
	}
	if r.lines++; r.lines > 10 {
		r.skipped++
		return
	}
	r.log.Printf(format, args...)
}

// subscribers tracks the peers of a PUB socket that have connected but
// whose first subscription zmq4 has not applied yet.
//
// A SUB socket gets only what is published after its subscription
// reaches the publisher; before that, PUB drops messages for it (libzmq
// and zmq4 alike). jupyter console (ZMQTerminalInteractiveShell: after
// start_channels, init_kernel_info waits for kernel_info_reply on shell
// only, and run_cell then waits for status idle on IOPub with no limit)
// sends its first cell as soon as kernel_info is answered. When the
// IOPub connection's handshake and subscription lag behind the shell
// round trip (a loaded machine), the cell's busy and idle went to no one
// and the console waited for ever. So a shell request waits, before it
// publishes anything, until every IOPub peer that has connected has
// subscribed, or for at most peerLimits.subscribe from its connection.
//
// A connection the kernel has not accepted yet is not among them: under
// load the console's IOPub connection can still be in the listen backlog,
// or not yet made by its zmq I/O thread, when its first cell arrives on
// shell (one CI run of TestJupyterConsole waited 2 minutes at In [1]). So
// until some peer has subscribed, requests also wait for a first
// subscription, until peerLimits.subscribe after the kernel started
// listening: a client that never connects to IOPub has its requests of
// the kernel's first seconds delayed to then, once.
type subscribers struct {
	mu      sync.Mutex
	waiting map[net.Conn]time.Time // with the time after which no request waits for it
	changed chan struct{}          // closed, and replaced, when waiting shrinks or the first subscription comes
	// first is the time until which requests wait for a first
	// subscription; zero when none is awaited (not a PUB socket).
	first      time.Time
	subscribed bool // some peer has subscribed
}

func (s *subscribers) add(c net.Conn, until time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.waiting == nil {
		s.waiting = map[net.Conn]time.Time{}
	}
	s.waiting[c] = until
}

func (s *subscribers) remove(c net.Conn) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.waiting[c]; ok {
		delete(s.waiting, c)
		close(s.changed)
		s.changed = make(chan struct{})
	}
}

// subscribe records that c's first subscription is in force.
func (s *subscribers) subscribe(c net.Conn) {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, waiting := s.waiting[c]
	delete(s.waiting, c)
	if waiting || !s.subscribed {
		close(s.changed)
		s.changed = make(chan struct{})
	}
	s.subscribed = true
}

// wait returns once no peer that may still subscribe is waiting, or when
// ctx is done or stop is closed.
func (s *subscribers) wait(ctx context.Context, stop <-chan struct{}) {
	for {
		s.mu.Lock()
		now := time.Now()
		var first time.Time
		if !s.subscribed && s.first.After(now) {
			first = s.first // no subscription yet: wait for one
		}
		for c, until := range s.waiting {
			switch {
			case !until.After(now):
				delete(s.waiting, c) // waited for long enough
			case first.IsZero() || until.Before(first):
				first = until
			}
		}
		changed := s.changed
		s.mu.Unlock()
		if first.IsZero() {
			return
		}
		t := time.NewTimer(time.Until(first))
		select {
		case <-changed:
		case <-t.C:
		case <-ctx.Done():
		case <-stop:
		}
		t.Stop()
		if ctx.Err() != nil {
			return
		}
		select {
		case <-stop:
			return
		default:
		}
	}
}
