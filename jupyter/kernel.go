package jupyter

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"os"
	"strconv"
	"sync"
	"time"

	"github.com/go-zeromq/zmq4"
)

// A Kernel serves one [Engine] over the Jupyter messaging protocol.
//
// It binds the five sockets of a connection file: shell, control and
// stdin (ROUTER), iopub (PUB) and heartbeat (REP). Shell requests run one
// at a time on one goroutine; control requests (interrupt, shutdown) have
// a goroutine of their own so that they are answered while a cell runs.
type Kernel struct {
	conn    ConnectionInfo
	engine  Engine
	log     *log.Logger
	signer  *signer
	session string // the kernel's own session id
	user    string

	ctx    context.Context
	cancel context.CancelFunc

	shell, control, stdin, iopub, hb zmq4.Socket
	shellQ                           chan *message
	limits                           peerLimits
	iopubSubs                        *subscribers // IOPub peers yet to subscribe

	sendMu  sync.Mutex // serialises sends on every socket
	history *history
	count   int // execution count of the last stored cell

	mu        sync.Mutex
	running   context.CancelFunc // cancels the running cell, if any
	stopped   bool               // an interrupt or shutdown cancelled it
	restart   bool
	shutdown  chan struct{} // closed by a shutdown request
	closeOnce sync.Once
}

// Options configure a Kernel.
type Options struct {
	// Log receives the kernel's log (dropped messages, errors); nil
	// discards it. A kernel never writes to stdout.
	Log *log.Logger
	// HistoryFile keeps the history of the kernel's cells across kernel
	// sessions ([DefaultHistoryFile]); "" keeps it in memory only.
	HistoryFile string
}

// shellQueue is how many shell requests may wait while a cell runs.
const shellQueue = 256

// NewKernel binds the sockets of conn and returns a kernel ready to
// [Kernel.Run]. A port of 0 picks a free port (tcp) or a free file name
// (ipc); [Kernel.Connection] tells which.
func NewKernel(conn ConnectionInfo, engine Engine, opts Options) (*Kernel, error) {
	return newKernel(conn, engine, opts, defaultLimits)
}

// newKernel is NewKernel with the limits on peers given.
func newKernel(conn ConnectionInfo, engine Engine, opts Options, lim peerLimits) (*Kernel, error) {
	if err := conn.check(); err != nil {
		return nil, err
	}
	logger := opts.Log
	if logger == nil {
		logger = log.New(io.Discard, "", 0)
	}
	user := os.Getenv("USER")
	if user == "" {
		user = "kernel"
	}
	ctx, cancel := context.WithCancel(context.Background())
	k := &Kernel{
		conn:     conn,
		engine:   engine,
		log:      logger,
		signer:   newSigner(conn.Key),
		session:  newID(),
		user:     user,
		ctx:      ctx,
		cancel:   cancel,
		shellQ:   make(chan *message, shellQueue),
		shutdown: make(chan struct{}),
		limits:   lim,
	}
	k.history = openHistory(opts.HistoryFile, logger)
	// As ipykernel (jupyter_client's Session warns when its key is
	// empty), and for a bind that any host can reach.
	if conn.Key == "" {
		logger.Printf("warning: the connection file has no key: message signing is off, and anyone who can reach the kernel's ports can run code in it")
	}
	if conn.Transport == "tcp" && everyInterface(conn.IP) {
		logger.Printf("warning: ip %q binds every network interface: other hosts can reach the kernel's ports", conn.IP)
	}
	// Replies must reach a client even when it is slow to read, but a
	// client that went away must not block the kernel for ever.
	zopts := []zmq4.Option{zmq4.WithTimeout(10 * time.Second), zmq4.WithLogger(logger)}
	k.shell = zmq4.NewRouter(ctx, zopts...)
	k.control = zmq4.NewRouter(ctx, zopts...)
	k.stdin = zmq4.NewRouter(ctx, zopts...)
	k.iopub = zmq4.NewPub(ctx, zopts...)
	k.hb = zmq4.NewRep(ctx, zopts...)
	for _, b := range []struct {
		sock zmq4.Socket
		port *int
		name string
	}{
		{k.shell, &k.conn.ShellPort, "shell"},
		{k.control, &k.conn.ControlPort, "control"},
		{k.stdin, &k.conn.StdinPort, "stdin"},
		{k.iopub, &k.conn.IOPubPort, "iopub"},
		{k.hb, &k.conn.HBPort, "heartbeat"},
	} {
		if err := k.bind(b.sock, b.port, b.name); err != nil {
			k.closeSockets()
			cancel()
			return nil, fmt.Errorf("%s socket: %v", b.name, err)
		}
	}
	return k, nil
}

// bind listens on *port, choosing one when it is 0, and makes sock
// accept through a guardListener (zmtp.go).
func (k *Kernel) bind(sock zmq4.Socket, port *int, name string) error {
	var (
		l   net.Listener
		err error
	)
	if k.conn.Transport == "ipc" {
		if *port == 0 {
			for p := 1; ; p++ {
				if _, err := os.Stat(fmt.Sprintf("%s-%d", k.conn.IP, p)); errors.Is(err, os.ErrNotExist) {
					*port = p
					break
				}
			}
		}
		l, err = net.Listen("unix", fmt.Sprintf("%s-%d", k.conn.IP, *port))
	} else {
		host := k.conn.IP
		if host == "*" { // zmq's name for every interface
			host = "0.0.0.0"
		}
		l, err = net.Listen("tcp", net.JoinHostPort(host, strconv.Itoa(*port)))
		if err == nil && *port == 0 {
			*port = l.Addr().(*net.TCPAddr).Port
		}
	}
	if err != nil {
		return err
	}
	g, err := listenGuarded(sock, l, name, k.limits, k.log)
	if err == nil && sock == k.iopub {
		k.iopubSubs = &g.subs
	}
	return err
}

// everyInterface reports whether binding ip listens on every interface.
func everyInterface(ip string) bool {
	switch ip {
	case "*", "0.0.0.0", "::", "[::]", "":
		return true
	}
	return false
}

// Connection returns the connection info with the ports actually bound.
func (k *Kernel) Connection() ConnectionInfo { return k.conn }

// Run serves requests until a shutdown_request arrives or ctx is done,
// then closes the sockets. It reports whether the client asked for a
// restart (the client then starts a new kernel process).
func (k *Kernel) Run(ctx context.Context) (restart bool, err error) {
	var wg sync.WaitGroup
	start := func(f func()) {
		wg.Add(1)
		go func() { defer wg.Done(); f() }()
	}
	start(k.heartbeat)
	start(func() {
		k.receive(k.shell, "shell", func(m *message) {
			select {
			case k.shellQ <- m:
			case <-k.ctx.Done():
			}
		})
	})
	start(func() { k.receive(k.control, "control", func(m *message) { k.handle(k.control, m) }) })
	start(func() {
		k.receive(k.stdin, "stdin", func(m *message) {
			k.log.Printf("stdin: ignoring %s (no input was requested)", m.Header.MsgType)
		})
	})
	worker := make(chan struct{})
	go func() { defer close(worker); k.serveShell() }()

	k.publish(nil, "status", map[string]string{"execution_state": "starting"})
	select {
	case <-ctx.Done():
		err = ctx.Err()
		k.closeOnce.Do(func() { close(k.shutdown) })
	case <-k.shutdown:
	}
	k.Interrupt()
	// Let the running cell (just cancelled) finish, so that its reply
	// goes out, but never wait long on an engine that ignores ctx.
	select {
	case <-worker:
	case <-time.After(2 * time.Second):
		k.log.Printf("shutdown: the running cell did not stop")
	}
	// zmq4 sends on a PUB socket from a queue: give the last IOPub
	// messages (shutdown_reply, idle) a moment to leave, as ZMQ_LINGER
	// does.
	time.Sleep(50 * time.Millisecond)
	k.cancel()
	k.closeSockets()
	wg.Wait()
	k.mu.Lock()
	restart = k.restart
	k.mu.Unlock()
	return restart, err
}

func (k *Kernel) closeSockets() {
	for _, s := range []zmq4.Socket{k.shell, k.control, k.stdin, k.iopub, k.hb} {
		if s != nil {
			s.Close()
		}
	}
}

// Interrupt cancels the running cell, if any, as interrupt_request and
// SIGINT do. The cell fails with KeyboardInterrupt; the kernel goes on.
func (k *Kernel) Interrupt() {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.running != nil {
		k.stopped = true
		k.running()
	}
}

// heartbeat echoes every heartbeat message.
func (k *Kernel) heartbeat() {
	for {
		msg, err := k.hb.Recv()
		if err != nil {
			if k.ctx.Err() != nil {
				return
			}
			k.log.Printf("heartbeat: %v", err)
			continue
		}
		if err := k.hb.Send(msg); err != nil && k.ctx.Err() == nil {
			k.log.Printf("heartbeat: %v", err)
		}
	}
}

// receive reads messages from sock, drops (and logs) those that fail to
// decode or verify, and passes the others to deliver.
func (k *Kernel) receive(sock zmq4.Socket, name string, deliver func(*message)) {
	for {
		zm, err := sock.Recv()
		if err != nil {
			if k.ctx.Err() != nil {
				return
			}
			k.log.Printf("%s: receive: %v", name, err)
			continue
		}
		m, err := k.signer.decode(zm.Frames)
		if err != nil {
			k.log.Printf("%s: dropped a message: %v", name, err)
			continue
		}
		select {
		case <-k.ctx.Done():
			return
		default:
			deliver(m)
		}
	}
}

// serveShell handles shell requests in order.
func (k *Kernel) serveShell() {
	for {
		select {
		case <-k.ctx.Done():
			return
		case <-k.shutdown:
			return
		case m := <-k.shellQ:
			select {
			case <-k.shutdown: // both were ready: shutting down wins
				return
			default:
			}
			// What the request publishes (status busy first) must reach
			// the IOPub peers that connected before it came, such as the
			// SUB socket of the client that sent it (zmtp.go, subscribers).
			k.iopubSubs.wait(k.ctx, k.shutdown)
			k.handle(k.shell, m)
		}
	}
}

// takeQueued removes and returns the requests waiting on the shell
// socket.
func (k *Kernel) takeQueued() []*message {
	var ms []*message
	for {
		select {
		case m := <-k.shellQ:
			ms = append(ms, m)
		default:
			return ms
		}
	}
}

// abort answers the execute requests among queued with status "aborted",
// without running them, after a cell failed with stop_on_error (as
// ipykernel does), and handles the other requests as usual, in order.
func (k *Kernel) abort(queued []*message) {
	for _, m := range queued {
		if m.Header.MsgType != "execute_request" {
			k.handle(k.shell, m)
			continue
		}
		k.busy(m, func() {
			k.reply(k.shell, m, "execute_reply", map[string]any{
				"status":          "aborted",
				"execution_count": k.count,
			})
		})
	}
}

// newHeader returns a header for a new message of type msgType.
func (k *Kernel) newHeader(msgType string) Header {
	return Header{
		MsgID:    newID(),
		Session:  k.session,
		Username: k.user,
		Date:     timestamp(time.Now()),
		MsgType:  msgType,
		Version:  ProtocolVersion,
	}
}

// send encodes and sends one message on sock.
func (k *Kernel) send(sock zmq4.Socket, prefix [][]byte, msgType string, parent *message, content any) {
	var p any
	if parent != nil {
		p = parent.RawHeader
	}
	frames, err := k.signer.encode(prefix, k.newHeader(msgType), p, content)
	if err != nil {
		k.log.Printf("encode %s: %v", msgType, err)
		return
	}
	k.sendMu.Lock()
	defer k.sendMu.Unlock()
	if err := sock.SendMulti(zmq4.NewMsgFrom(frames...)); err != nil && k.ctx.Err() == nil {
		k.log.Printf("send %s: %v", msgType, err)
	}
}

// reply answers request m on the socket it came from.
func (k *Kernel) reply(sock zmq4.Socket, m *message, msgType string, content any) {
	k.send(sock, m.Identities, msgType, m, content)
}

// publish sends a message on IOPub, with parent as its parent (nil for
// none). The topic is "kernel.<session>.<msg_type>", as ipykernel's.
func (k *Kernel) publish(parent *message, msgType string, content any) {
	topic := []byte("kernel." + k.session + "." + msgType)
	k.send(k.iopub, [][]byte{topic}, msgType, parent, content)
}

// busy publishes status busy, runs f, then publishes status idle.
func (k *Kernel) busy(m *message, f func()) {
	k.publish(m, "status", map[string]string{"execution_state": "busy"})
	defer k.publish(m, "status", map[string]string{"execution_state": "idle"})
	f()
}

// stopShell ends Run after a shutdown request.
func (k *Kernel) stopShell(restart bool) {
	k.mu.Lock()
	k.restart = restart
	k.mu.Unlock()
	k.closeOnce.Do(func() { close(k.shutdown) })
}
