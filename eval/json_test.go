package eval

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"
)

// TestJSONMemory checks that JSON counts what the JSON of a tensor needs
// against the memory limit before building it, and that WriteJSON (what
// --json uses) streams the same bytes without building them: --json of
// zeros(12*10**8, dtype=bool) was SIGKILLed at 24 GB.
func TestJSONMemory(t *testing.T) {
	t.Setenv("TENSORSH_MEMORY_LIMIT", "2e6")
	s, err := New("numpy")
	if err != nil {
		t.Fatal(err)
	}
	outs, err := s.Execute(context.Background(), "", "zeros(5*10**5, dtype=bool)")
	if err != nil || len(outs) != 1 {
		t.Fatalf("zeros: %v %v", outs, err)
	}
	if _, err := s.JSON(outs[0]); err == nil || !strings.Contains(err.Error(), "out of memory: the JSON of 500000 elements") {
		t.Errorf("JSON of 3 MB with 2 MB available: err = %v", err)
	}
	n, err := io.Copy(io.Discard, writerTo(func(w io.Writer) error { return s.WriteJSON(w, outs[0]) }))
	if err != nil || n != int64(len(`{"dtype":"bool","weak":false,"shape":[500000],"values":[]}`)+500000*6-1) {
		t.Errorf("WriteJSON wrote %d bytes, %v", n, err)
	}
	small, err := s.Execute(context.Background(), "", "f32([1.5, 0.1])")
	if err != nil {
		t.Fatal(err)
	}
	b, err := s.JSON(small[0])
	var buf bytes.Buffer
	if err2 := s.WriteJSON(&buf, small[0]); err != nil || err2 != nil || buf.String() != string(b) {
		t.Errorf("WriteJSON %q %v, JSON %q %v", buf.String(), err2, b, err)
	}
}

// writerTo adapts a function that writes to an io.Reader, through a pipe.
func writerTo(f func(io.Writer) error) io.Reader {
	r, w := io.Pipe()
	go func() { w.CloseWithError(f(w)) }()
	return r
}
