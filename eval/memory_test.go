package eval

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/tensorsh/tensorsh/internal/sysmem"
)

// TestLargeTensor evaluates a statement over 10^8 elements: the fused
// backend makes no full-size temporaries, so it needs the input (400 MB)
// and nothing else of that size.
func TestLargeTensor(t *testing.T) {
	if testing.Short() {
		t.Skip("allocates 400 MB")
	}
	if sysmem.Available() < 2e9 {
		t.Skipf("only %.1f GB available", sysmem.Available()/1e9)
	}
	s, _ := New("jax")
	ctx := context.Background()
	if _, err := s.Execute(ctx, "", "x = ones(10**8)"); err != nil {
		t.Fatal(err)
	}
	outs, err := s.Execute(ctx, "", "sum(x * 2 + 1, keepdims=false) == 3 * 10**8")
	if err != nil {
		t.Fatal(err)
	}
	if got := s.Text(outs[0], formatOff); got != "bool true" {
		t.Errorf("sum over 10^8 elements: %s", got)
	}
}

// TestBeyondMemory asks for more than the machine has: a clear error, and
// the session goes on.
func TestBeyondMemory(t *testing.T) {
	s, _ := New("jax")
	ctx := context.Background()
	for _, src := range []string{"zeros(10**12)", "x = rand((10**6, 10**6))", "full((10**7, 10**7), 1.5)"} {
		_, err := s.Execute(ctx, "", src)
		var e *Error
		if !errors.As(err, &e) || !strings.Contains(e.Msg, "out of memory") {
			t.Errorf("%s: %v, want an out of memory error", src, err)
		}
	}
	outs, err := s.Execute(ctx, "", "1 + 1")
	if err != nil || s.Text(outs[0], formatOff) != "i32? 2" {
		t.Errorf("session after out of memory: %v %v", outs, err)
	}
}
