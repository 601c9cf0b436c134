package jupyter

import (
	"bytes"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"sync"
	"time"
)

// ProtocolVersion is the version of the Jupyter messaging protocol the
// kernel speaks, sent in every header.
const ProtocolVersion = "5.3"

// delimiter separates the routing identities of a message from its body.
var delimiter = []byte("<IDS|MSG>")

// A Header is a message header.
type Header struct {
	MsgID    string `json:"msg_id"`
	Session  string `json:"session"`
	Username string `json:"username"`
	Date     string `json:"date"`
	MsgType  string `json:"msg_type"`
	Version  string `json:"version"`
}

// A message is one decoded wire message. The JSON parts other than the
// header are kept as received, so a reply can copy the request's header
// into its parent_header byte for byte.
type message struct {
	Identities [][]byte
	Header     Header
	RawHeader  json.RawMessage
	Parent     json.RawMessage
	Metadata   json.RawMessage
	Content    json.RawMessage
	Buffers    [][]byte
}

// Errors from decoding a wire message.
var (
	errNoDelimiter  = errors.New("no <IDS|MSG> delimiter (truncated multipart message?)")
	errTooFewFrames = errors.New("fewer than 5 frames after <IDS|MSG>")
	errSignature    = errors.New("bad signature")
	errReplayed     = errors.New("signature seen before (replayed message)")
)

// A signer signs and verifies messages with HMAC-SHA256. With an empty key
// signing is off: outgoing signatures are empty and incoming ones are not
// checked.
type signer struct {
	key []byte

	mu   sync.Mutex
	mac  hash.Hash
	seen map[[sha256.Size]byte]struct{} // signatures already accepted, to refuse replays
	ring [][sha256.Size]byte            // the same, in the order accepted, to bound seen
	next int                            // where the ring is overwritten next, once full
}

// maxSeen bounds how many accepted signatures are remembered, in memory
// only: a message older than the last maxSeen can be replayed, and so
// can any message after the kernel restarts with the same key.
// jupyter_client's Session (which ipykernel uses) remembers 2**16
// (Session.digest_history_size, jupyter_client/session.py) and, past
// that, forgets a random tenth; this remembers exactly the last 2**16
// (about 6 MB at most).
const maxSeen = 1 << 16

func newSigner(key string) *signer {
	s := &signer{key: []byte(key)}
	if key != "" {
		s.mac = hmac.New(sha256.New, s.key)
		s.seen = make(map[[sha256.Size]byte]struct{})
	}
	return s
}

// sign returns the hex signature of the four JSON frames.
func (s *signer) sign(frames [][]byte) []byte {
	if s.mac == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return []byte(hex.EncodeToString(s.sum(frames)))
}

func (s *signer) sum(frames [][]byte) []byte {
	s.mac.Reset()
	for _, f := range frames {
		s.mac.Write(f)
	}
	return s.mac.Sum(nil)
}

// verify checks sig (hex) against the four JSON frames in constant time
// and refuses a signature it has accepted before.
func (s *signer) verify(sig []byte, frames [][]byte) error {
	if s.mac == nil {
		return nil
	}
	got := make([]byte, hex.DecodedLen(len(sig)))
	if _, err := hex.Decode(got, sig); err != nil || len(got) != sha256.Size {
		return errSignature
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if !hmac.Equal(got, s.sum(frames)) {
		return errSignature
	}
	k := [sha256.Size]byte(got)
	if _, ok := s.seen[k]; ok {
		return errReplayed
	}
	s.seen[k] = struct{}{}
	if len(s.ring) < maxSeen {
		s.ring = append(s.ring, k)
		return nil
	}
	delete(s.seen, s.ring[s.next])
	s.ring[s.next] = k
	s.next = (s.next + 1) % maxSeen
	return nil
}

// decode parses the frames of a wire message:
//
//	identities… "<IDS|MSG>" signature header parent_header metadata content buffers…
//
// It verifies the signature over the four JSON frames as received and
// checks that each is a JSON object.
func (s *signer) decode(frames [][]byte) (*message, error) {
	i := 0
	for i < len(frames) && !bytes.Equal(frames[i], delimiter) {
		i++
	}
	if i == len(frames) {
		return nil, errNoDelimiter
	}
	if len(frames)-i-1 < 5 {
		return nil, errTooFewFrames
	}
	body := frames[i+2 : i+6]
	if err := s.verify(frames[i+1], body); err != nil {
		return nil, err
	}
	m := &message{
		Identities: frames[:i],
		RawHeader:  body[0],
		Parent:     body[1],
		Metadata:   body[2],
		Content:    body[3],
		Buffers:    frames[i+6:],
	}
	names := [4]string{"header", "parent_header", "metadata", "content"}
	for j, f := range body {
		if !isJSONObject(f) {
			return nil, fmt.Errorf("%s is not a JSON object", names[j])
		}
	}
	if err := json.Unmarshal(m.RawHeader, &m.Header); err != nil {
		return nil, fmt.Errorf("header: %v", err)
	}
	if m.Header.MsgType == "" {
		return nil, errors.New("header has no msg_type")
	}
	return m, nil
}

func isJSONObject(b []byte) bool {
	var v map[string]json.RawMessage
	return json.Unmarshal(b, &v) == nil && v != nil
}

// encode returns the frames of a message: prefix (identities, or an IOPub
// topic), the delimiter, the signature and the four JSON frames.
func (s *signer) encode(prefix [][]byte, header Header, parent, content any) ([][]byte, error) {
	h, err := json.Marshal(header)
	if err != nil {
		return nil, err
	}
	p, err := marshalObject(parent)
	if err != nil {
		return nil, err
	}
	c, err := marshalObject(content)
	if err != nil {
		return nil, err
	}
	body := [][]byte{h, p, []byte("{}"), c}
	frames := make([][]byte, 0, len(prefix)+6)
	frames = append(frames, prefix...)
	frames = append(frames, delimiter, s.sign(body))
	return append(frames, body...), nil
}

// marshalObject marshals v, giving {} for nil or an empty raw message.
func marshalObject(v any) ([]byte, error) {
	switch v := v.(type) {
	case nil:
		return []byte("{}"), nil
	case json.RawMessage:
		if len(v) == 0 {
			return []byte("{}"), nil
		}
		return v, nil
	}
	return json.Marshal(v)
}

// newID returns a random (version 4) UUID.
func newID() string {
	var u [16]byte
	rand.Read(u[:]) // never fails (crypto/rand)
	u[6] = u[6]&0x0f | 0x40
	u[8] = u[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", u[0:4], u[4:6], u[6:8], u[8:10], u[10:])
}

// timestamp formats t as the protocol wants: ISO 8601 in UTC with
// microseconds.
func timestamp(t time.Time) string {
	return t.UTC().Format("2006-01-02T15:04:05.000000Z")
}
