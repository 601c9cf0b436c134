package repl

import (
	"bytes"
	"io"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/tensorsh/tensorsh/eval"
)

// syncBuffer is a bytes.Buffer safe for one writer and one reader.
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

// longStatement runs for many seconds on the CPU backend unless cancelled
// (about 10 s on two cores), in little memory: ones(10**9) is never
// materialised by the fused evaluation.
const longStatement = "s = sum(sin(ones(10**9)))"

// TestInterruptCancelsStatement sends the process a real SIGINT while
// Run computes a long statement: the statement stops with
// KeyboardInterrupt, nothing is assigned, and the session goes on with its
// variables intact.
func TestInterruptCancelsStatement(t *testing.T) {
	s, err := eval.New("jax")
	if err != nil {
		t.Fatal(err)
	}
	inR, inW := io.Pipe()
	var out syncBuffer
	ran := make(chan error, 1)
	go func() { ran <- Run(s, Options{Stdin: inR, Stdout: &out, Stderr: &out}) }()

	io.WriteString(inW, "x = i16([1, 2, 3])\n"+longStatement+"\n")
	// Run has installed its SIGINT handler before printing the banner, and
	// the echo of the statement comes just before it runs. Interrupt until
	// the statement reports it; an interrupt at the prompt is ignored.
	deadline := time.Now().Add(2 * time.Minute)
	for !strings.Contains(out.String(), "KeyboardInterrupt") {
		if strings.Contains(out.String(), "jax> "+longStatement+"\njax> ") {
			t.Fatalf("the statement finished instead of being interrupted:\n%s", out.String())
		}
		if time.Now().After(deadline) {
			t.Fatalf("no KeyboardInterrupt:\n%s", out.String())
		}
		if strings.Contains(out.String(), longStatement) {
			if err := syscall.Kill(syscall.Getpid(), syscall.SIGINT); err != nil {
				t.Fatal(err)
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	io.WriteString(inW, "x * 2\ns\n")
	inW.Close()
	if err := <-ran; err != nil {
		t.Fatalf("Run: %v", err)
	}
	want := `tensorsh 0.1 · policy jax (JAX, x64 off) · backend cpu · :help for help, Tab completes
jax> x = i16([1, 2, 3])
jax> ` + longStatement + `
KeyboardInterrupt
jax> x * 2
[2 4 6]
i16[3] cpu
jax> s
<stdin:4>:1:1: error: name "s" is not defined; did you mean "x"?
  s
  ^
jax> 
`
	if got := out.String(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}
