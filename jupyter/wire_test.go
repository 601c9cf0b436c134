package jupyter

import (
	"bytes"
	"encoding/hex"
	"errors"
	"regexp"
	"testing"
	"time"
)

func TestSignKnownValue(t *testing.T) {
	// HMAC-SHA256("key", "abc"), split over frames: signing covers the
	// concatenation of the four JSON frames.
	s := newSigner("key")
	got := s.sign([][]byte{[]byte("a"), []byte(""), []byte("b"), []byte("c")})
	const want = "9c196e32dc0175f86f4b1cb89289d6619de6bee699e4c378e68309ed97a1a6ab"
	if string(got) != want {
		t.Errorf("sign = %s, want %s", got, want)
	}
}

func TestDecodeRoundTrip(t *testing.T) {
	s, r := newSigner("k"), newSigner("k")
	h := Header{MsgID: "m1", Session: "s", MsgType: "execute_request", Version: ProtocolVersion}
	frames, err := s.encode([][]byte{[]byte("id1"), []byte("id2")}, h, nil, map[string]any{"code": "1"})
	if err != nil {
		t.Fatal(err)
	}
	frames = append(frames, []byte("buffer"))
	m, err := r.decode(frames)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Identities) != 2 || string(m.Identities[1]) != "id2" || m.Header != h ||
		string(m.Parent) != "{}" || string(m.Content) != `{"code":"1"}` || len(m.Buffers) != 1 {
		t.Errorf("decoded %+v", m)
	}
	// Uppercase hex is the same signature.
	frames[5] = []byte(`{"x":1}`) // a different message, re-signed
	body := frames[4:8]
	frames[3] = bytes.ToUpper(s.sign(body))
	if _, err := r.decode(frames); err != nil {
		t.Errorf("uppercase signature: %v", err)
	}
}

func TestDecodeErrors(t *testing.T) {
	s := newSigner("k")
	good, _ := s.encode(nil, Header{MsgID: "a", MsgType: "x"}, nil, map[string]any{})
	for _, tc := range []struct {
		frames [][]byte
		want   error
	}{
		{nil, errNoDelimiter},
		{[][]byte{[]byte("id")}, errNoDelimiter},
		{good[:5], errTooFewFrames},
		{append([][]byte{good[0], []byte("zz")}, good[2:]...), errSignature},
		{append([][]byte{good[0], []byte(hex.EncodeToString(make([]byte, 32)))}, good[2:]...), errSignature},
		{append([][]byte{good[0], good[1][:10]}, good[2:]...), errSignature},
	} {
		if _, err := s.decode(tc.frames); !errors.Is(err, tc.want) {
			t.Errorf("decode(%q) = %v, want %v", tc.frames, err, tc.want)
		}
	}
	if _, err := s.decode(good); err != nil {
		t.Fatal(err)
	}
	if _, err := s.decode(good); !errors.Is(err, errReplayed) {
		t.Errorf("replay: %v", err)
	}
}

// TestReplayMemoryBounded: the kernel remembers the last maxSeen
// signatures, as many as jupyter_client's Session keeps at most
// (digest_history_size = 2**16, jupyter_client/session.py), and no more.
func TestReplayMemoryBounded(t *testing.T) {
	if maxSeen < 1<<16 {
		t.Errorf("maxSeen = %d: fewer than ipykernel's 2**16", maxSeen)
	}
	s := newSigner("k")
	var msgs [][][]byte
	for i := 0; i < maxSeen+10; i++ {
		f, _ := s.encode(nil, Header{MsgID: newID(), MsgType: "x"}, nil, nil)
		if _, err := s.decode(f); err != nil {
			t.Fatal(err)
		}
		if i < 11 || i >= maxSeen+9 {
			msgs = append(msgs, f)
		}
	}
	if len(s.seen) != maxSeen || len(s.ring) != maxSeen {
		t.Errorf("remembered %d/%d signatures", len(s.seen), len(s.ring))
	}
	// The newest and the oldest remembered are refused; the ten before
	// are forgotten.
	for _, f := range [][][]byte{msgs[len(msgs)-1], msgs[10]} {
		if _, err := s.decode(f); !errors.Is(err, errReplayed) {
			t.Errorf("replay of a remembered message: %v", err)
		}
	}
	if _, err := s.decode(msgs[0]); err != nil {
		t.Errorf("a message older than the last %d: %v (the limit moved?)", maxSeen, err)
	}
}

func TestNewIDAndTimestamp(t *testing.T) {
	re := regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)
	if id := newID(); !re.MatchString(id) || id == newID() {
		t.Errorf("newID = %s", id)
	}
	ts := timestamp(time.Date(2026, 1, 2, 3, 4, 5, 6789000, time.FixedZone("x", 3600)))
	if ts != "2026-01-02T02:04:05.006789Z" {
		t.Errorf("timestamp = %s", ts)
	}
}

func TestOffsets(t *testing.T) {
	s := "aé😀b"
	for _, tc := range []struct{ runes, bytes int }{{0, 0}, {1, 1}, {2, 3}, {3, 7}, {4, 8}, {9, 8}, {-1, 0}} {
		if got := byteOffset(s, tc.runes); got != tc.bytes {
			t.Errorf("byteOffset(%d) = %d, want %d", tc.runes, got, tc.bytes)
		}
		if tc.runes >= 0 && tc.runes <= 4 {
			if got := runeOffset(s, tc.bytes); got != tc.runes {
				t.Errorf("runeOffset(%d) = %d, want %d", tc.bytes, got, tc.runes)
			}
		}
	}
}

func TestWordAt(t *testing.T) {
	for _, tc := range []struct {
		code          string
		cursor        int
		word, through string
	}{
		{"x + sqr", 7, "sqr", "sqr"},
		{"promote(f32?, i1", 12, "f32?", "f32?"},
		{"abc def", 1, "a", "abc"},
		{"", 5, "", ""},
		{"a(b)", 2, "", "b"},
	} {
		s, e := WordAt(tc.code, tc.cursor)
		c := tc.cursor
		if c > len(tc.code) {
			c = len(tc.code)
		}
		if tc.code[s:c] != tc.word || tc.code[s:e] != tc.through {
			t.Errorf("WordAt(%q, %d) = %q/%q", tc.code, tc.cursor, tc.code[s:c], tc.code[s:e])
		}
	}
}

func TestGlob(t *testing.T) {
	for _, tc := range []struct {
		pattern, s string
		want       bool
	}{
		{"*", "", true}, {"*", "anything\nat all", true}, {"i16*", "i16([1])", true},
		{"i16*", "x = i16(1)", false}, {"*i16*", "x = i16(1)", true}, {"?", "é", true},
		{"a?c", "abc", true}, {"a?c", "ac", false}, {"a*b*c", "aXbYbZc", true}, {"a*b*c", "aXbYbZ", false},
		{"", "", true}, {"", "a", false}, {"**", "a", true},
	} {
		if got := globMatch(tc.pattern, tc.s); got != tc.want {
			t.Errorf("globMatch(%q, %q) = %v", tc.pattern, tc.s, got)
		}
	}
}

func TestConnectionCheck(t *testing.T) {
	for _, tc := range []struct {
		c    ConnectionInfo
		want string
	}{
		{ConnectionInfo{Transport: "udp"}, "unsupported transport"},
		{ConnectionInfo{Transport: "ipc"}, "ipc transport needs ip"},
		{ConnectionInfo{Key: "k"}, "key given without signature_scheme"},
		{ConnectionInfo{Key: "k", SignatureScheme: "hmac-md5"}, "unsupported signature_scheme"},
		{ConnectionInfo{ShellPort: 70000}, "out of range"},
		{ConnectionInfo{}, ""},
	} {
		err := tc.c.check()
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || !bytes.Contains([]byte(err.Error()), []byte(tc.want))) {
			t.Errorf("%+v: %v, want %q", tc.c, err, tc.want)
		}
	}
	c := ConnectionInfo{IP: "::1"}
	c.check()
	if got := c.endpoint(5); got != "tcp://[::1]:5" {
		t.Errorf("endpoint %s", got)
	}
}

// FuzzDecode checks that no frames make decode panic, and that what
// decodes re-encodes to frames that decode to the same message.
func FuzzDecode(f *testing.F) {
	s := newSigner("")
	good, _ := s.encode([][]byte{[]byte("id")}, Header{MsgID: "a", MsgType: "x"}, nil, map[string]any{"code": "1"})
	f.Add(bytes.Join(good, []byte{0}))
	f.Add([]byte("<IDS|MSG>\x00\x00{}\x00{}\x00{}\x00{}"))
	f.Add([]byte("\x00\x00\x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		frames := bytes.Split(data, []byte{0})
		m, err := newSigner("").decode(frames)
		if err != nil {
			return
		}
		again, err := s.encode(m.Identities, m.Header, m.Parent, m.Content)
		if err != nil {
			t.Fatal(err)
		}
		m2, err := newSigner("").decode(again)
		if err != nil || m2.Header != m.Header || !bytes.Equal(m2.Content, m.Content) {
			t.Fatalf("round trip: %v %+v %+v", err, m2, m)
		}
	})
}
