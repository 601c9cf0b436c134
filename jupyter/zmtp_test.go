package jupyter

import (
	"bytes"
	"encoding/binary"
	"io"
	"log"
	"net"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Frames as RFC 23/ZMTP lays them out: flags (more 0x01, long 0x02,
// command 0x04), a 1-byte size, or an 8-byte big-endian size with the
// long flag, then the body.

// filterAll feeds b to a new filter in chunks of n bytes and returns what
// it passed and its error.
func filterAll(lim peerLimits, subscriber bool, b []byte, n int) ([]byte, error) {
	f := frameFilter{lim: &lim, subscriber: subscriber}
	var out bytes.Buffer
	for len(b) > 0 {
		k := min(n, len(b))
		if err := f.feed(b[:k], func(p []byte) { out.Write(p) }); err != nil {
			return out.Bytes(), err
		}
		b = b[k:]
	}
	return out.Bytes(), nil
}

func cat(parts ...[]byte) []byte { return bytes.Join(parts, nil) }

func TestFrameFilter(t *testing.T) {
	lim := defaultLimits
	lim.maxMessage = 1000
	lim.maxSubscriptions = 300
	long := func(flags byte, size uint64) []byte {
		b := []byte{flags | 0x02, 0, 0, 0, 0, 0, 0, 0, 0}
		binary.BigEndian.PutUint64(b[1:], size)
		return b
	}
	msg := cat(rawFrame(0x01, []byte("id")), rawFrame(0x01, nil), rawFrame(0, []byte("body")))
	big := rawFrame(0, make([]byte, 900))
	for _, tc := range []struct {
		name       string
		subscriber bool
		in, out    []byte
		err        string
	}{
		{"message", false, msg, msg, ""},
		{"long frame", false, big, big, ""},
		{"long form of a short frame", false, cat(long(0, 3), []byte("abc")), cat(long(0, 3), []byte("abc")), ""},
		{"PING is dropped", false, cat(rawFrame(0x04, []byte("\x04PING\x00\x00")), msg), msg, ""},
		{"incomplete frame held", false, cat(msg, rawFrame(0, []byte("abc"))[:4]), msg, ""},
		{"huge frame", false, cat(msg, long(0, 1<<36)), msg, "frame of 68719476736 bytes (limit 1000)"},
		{"2^63 frame", false, long(0, 1<<63), nil, "frame of 9223372036854775808 bytes"},
		{"frame over the limit", false, long(0, 1001), nil, "frame of 1001 bytes (limit 1000)"},
		{"message over the limit", false, cat(rawFrame(0x01, make([]byte, 600)), rawFrame(0, make([]byte, 600))), rawFrame(0x01, make([]byte, 600)), "message of more than 1000 bytes"},
		{"empty frames count", false, bytes.Repeat([]byte{0x01, 0}, 16), bytes.Repeat([]byte{0x01, 0}, 15), "message of more than 1000 bytes"},
		{"limit is per message", false, bytes.Repeat(rawFrame(0, make([]byte, 600)), 3), bytes.Repeat(rawFrame(0, make([]byte, 600)), 3), ""},
		{"command with more", false, rawFrame(0x05, []byte("\x04PING")), nil, "a command inside a message"},
		{"command inside a message", false, cat(rawFrame(0x01, []byte("a")), rawFrame(0x04, []byte("\x04PING"))), rawFrame(0x01, []byte("a")), "a command inside a message"},
		{"subscribe", true, cat(rawFrame(0, []byte("\x01topic")), rawFrame(0, []byte("\x00topic"))), cat(rawFrame(0, []byte("\x01topic")), rawFrame(0, []byte("\x00topic"))), ""},
		{"subscribe to all", true, rawFrame(0, []byte{1}), rawFrame(0, []byte{1}), ""},
		{"not a subscription", true, rawFrame(0, []byte("\x02x")), nil, "something other than a subscription"},
		{"empty frame to PUB", true, rawFrame(0, nil), nil, "something other than a subscription"},
		{"multipart to PUB", true, rawFrame(1, []byte{1}), nil, "something other than a subscription"},
		{"too many subscriptions", true, bytes.Repeat(rawFrame(0, make([]byte, 100)), 3), rawFrame(0, make([]byte, 100)), "bytes of subscriptions"},
		{"PING to PUB is dropped", true, cat(rawFrame(0x04, []byte("\x04PING")), rawFrame(0, []byte{1})), rawFrame(0, []byte{1}), ""},
	} {
		for _, n := range []int{1, 3, 1 << 20} {
			out, err := filterAll(lim, tc.subscriber, tc.in, n)
			if !bytes.Equal(out, tc.out) {
				t.Errorf("%s (chunks of %d): passed % x\nwant % x", tc.name, n, head(out), head(tc.out))
			}
			if tc.err == "" && err != nil || tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)) {
				t.Errorf("%s (chunks of %d): error %v, want %q", tc.name, n, err, tc.err)
			}
		}
	}
}

func head(b []byte) []byte { return b[:min(len(b), 24)] }

// splitFrames splits b into whole frames (header and body), trusting
// nothing, and returns them with whether each is a command.
func splitFrames(b []byte) (frames [][]byte, commands []bool) {
	for len(b) >= 2 {
		n, size := 2, uint64(b[1])
		if b[0]&flagLong != 0 {
			if len(b) < 9 {
				break
			}
			n, size = 9, binary.BigEndian.Uint64(b[1:9])
		}
		if size > uint64(len(b)-n) {
			break
		}
		frames = append(frames, b[:n+int(size)])
		commands = append(commands, b[0]&flagCommand != 0)
		b = b[n+int(size):]
	}
	return frames, commands
}

// FuzzFrameFilter checks the kernel's frame reader on any bytes a peer
// may send after the handshake, cut anywhere: it never panics; what it
// passes is the peer's frames in order, commands left out, whole, within
// the limits (on a PUB socket: subscriptions only); and how the bytes
// arrive changes nothing.
func FuzzFrameFilter(f *testing.F) {
	f.Add([]byte("\x01\x02id\x01\x00\x00\x04body"), uint8(1), false)
	f.Add([]byte("\x04\x06\x04PING\x00\x01\x00"), uint8(2), false)
	f.Add([]byte("\x02\x00\x00\x00\x10\x00\x00\x00\x00"), uint8(3), false)
	f.Add([]byte("\x02\x00\x00\x00\x00\x00\x00\x00\x03abc"), uint8(5), false)
	f.Add([]byte("\x00\x01\x01\x00\x02\x00x\x00\x01\x05"), uint8(1), true)
	f.Add(bytes.Repeat([]byte{1, 0}, 40), uint8(7), false)
	lim := defaultLimits
	lim.maxMessage = 200
	lim.maxSubscriptions = 100
	f.Fuzz(func(t *testing.T, in []byte, chunk uint8, subscriber bool) {
		whole, werr := filterAll(lim, subscriber, in, len(in)+1)
		cut, cerr := filterAll(lim, subscriber, in, int(chunk)+1)
		if !bytes.Equal(whole, cut) || (werr == nil) != (cerr == nil) {
			t.Fatalf("in one piece: % x, %v\nin pieces of %d: % x, %v", whole, werr, int(chunk)+1, cut, cerr)
		}
		got, _ := splitFrames(whole)
		if n := 0; len(got) > 0 {
			for _, fr := range got {
				n += len(fr)
			}
			if n != len(whole) {
				t.Fatalf("passed a partial frame: % x", whole)
			}
		} else if len(whole) > 0 {
			t.Fatalf("passed a partial frame: % x", whole)
		}
		all, commands := splitFrames(in)
		var want [][]byte
		for i, fr := range all {
			if !commands[i] {
				want = append(want, fr)
			}
		}
		if len(got) > len(want) {
			t.Fatalf("passed %d frames, the peer sent %d", len(got), len(want))
		}
		var msg int64
		for i, fr := range got {
			if !bytes.Equal(fr, want[i]) {
				t.Fatalf("frame %d: passed % x, sent % x", i, fr, want[i])
			}
			body := fr[2:]
			if fr[0]&flagLong != 0 {
				body = fr[9:]
			}
			if msg += int64(len(body)) + frameCost; msg > lim.maxMessage {
				t.Fatalf("passed a message over the limit")
			}
			if fr[0]&flagMore == 0 {
				msg = 0
			}
			if subscriber && (fr[0]&flagMore != 0 || len(body) == 0 || body[0] > 1) {
				t.Fatalf("passed a PUB socket % x", fr)
			}
		}
	})
}

// TestWriteQueueDropsWholeMessages writes to a peer that does not read
// (a net.Pipe, which holds nothing): the writes never block; past the
// queue limit whole messages are dropped; what the peer finally reads
// is our READY and whole messages, never a part of one.
func TestWriteQueueDropsWholeMessages(t *testing.T) {
	lim := defaultLimits
	lim.hwm = 3
	lim.stall = time.Minute
	var logs syncBuffer
	l := &guardListener{name: "test", ours: "ROUTER", lim: lim, log: &ratedLog{log: log.New(&logs, "", 0)}}
	ours, peer := net.Pipe()
	defer peer.Close()
	c := newGuardConn(ours, l, nil)
	defer c.Close()
	c.started.Store(true)
	write := func(b []byte) {
		t.Helper()
		done := make(chan error, 1)
		go func() { _, err := c.Write(b); done <- err }()
		select {
		case err := <-done:
			if err != nil {
				t.Fatal(err)
			}
		case <-time.After(wait):
			t.Fatal("Write blocked on a peer that does not read")
		}
	}
	// zmq4 writes the greeting (already sent by the listener), READY,
	// then each frame's header and body apart.
	write(zmtpGreeting)
	ready := rawReady("ROUTER")
	write(ready)
	var sent [][]byte
	for i := 0; i < 10; i++ {
		m := cat(rawFrame(0x01, []byte{byte(i)}), rawFrame(0, bytes.Repeat([]byte{byte(i)}, 300)))
		sent = append(sent, m)
		for _, part := range [][]byte{m[:2], m[2:3], m[3:12], m[12:]} {
			write(part)
		}
	}
	var got bytes.Buffer
	peer.SetReadDeadline(time.Now().Add(quiet))
	io.Copy(&got, peer)
	want := cat(ready, sent[0], sent[1])
	// READY is the first message: with it, 3 are queued (the sender
	// holds the first until the peer reads).
	if !bytes.Equal(got.Bytes(), want) {
		t.Errorf("the peer read %d bytes, want %d (READY and the first two messages)", got.Len(), len(want))
	}
	c.Write(rawFrame(0, []byte("after"))) // the sender logs what it dropped
	drops := func() int {
		n := 0
		for _, m := range regexp.MustCompile(`dropped (\d+) messages`).FindAllStringSubmatch(logs.String(), -1) {
			k, _ := strconv.Atoi(m[1])
			n += k
		}
		return n
	}
	n := drops()
	for deadline := time.Now().Add(wait); n < 8 && time.Now().Before(deadline); n = drops() {
		time.Sleep(5 * time.Millisecond)
	}
	if n != 8 {
		t.Errorf("%d drops logged, want 8: %s", n, logs.String())
	}
}
