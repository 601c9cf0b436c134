package eval

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/tensorsh/tensorsh/backend"
	"github.com/tensorsh/tensorsh/backend/cpu"
)

// countingBackend is the CPU backend with a Free method that counts, to
// check when the session releases device memory.
type countingBackend struct {
	backend.Backend
	freed map[*backend.Tensor]int
}

func (b *countingBackend) Name() string           { return "counting" }
func (b *countingBackend) Free(t *backend.Tensor) { b.freed[t]++ }

func TestBackendMemoryRelease(t *testing.T) {
	s, _ := New("jax")
	cb := &countingBackend{Backend: cpu.New(), freed: map[*backend.Tensor]int{}}
	s.RegisterBackend("counting", func() (backend.Backend, error) { return cb, nil })
	ctx := context.Background()
	run := func(src string) {
		t.Helper()
		if _, err := s.Execute(ctx, "", src); err != nil {
			t.Fatalf("%s: %v", src, err)
		}
	}
	run("x = ones(3)\ny = x")
	run(":backend counting")
	x, _ := s.Var("x")
	y, _ := s.Var("y")
	if x.Device != "counting" || x.Tensor != y.Tensor {
		t.Fatalf("after :backend, x on %s, shared with y: %v", x.Device, x.Tensor == y.Tensor)
	}
	shared := x.Tensor
	run("x = ones(2)")
	if cb.freed[shared] != 0 {
		t.Fatalf("freed a tensor y still holds")
	}
	run("y = 1")
	if cb.freed[shared] != 1 {
		t.Fatalf("dropping the last variable freed the tensor %d times, want 1", cb.freed[shared])
	}
	x, _ = s.Var("x")
	run("z = x")
	run(":reset")
	if cb.freed[x.Tensor] != 1 {
		t.Fatalf(":reset freed a shared tensor %d times, want 1", cb.freed[x.Tensor])
	}
}

// panickyBackend panics in Run, as a backend bug would.
type panickyBackend struct{ backend.Backend }

func (panickyBackend) Name() string { return "panicky" }
func (panickyBackend) Run(context.Context, *backend.Node) (*backend.Tensor, error) {
	panic("backend bug")
}

func TestPanicBecomesError(t *testing.T) {
	s, _ := New("jax")
	s.RegisterBackend("panicky", func() (backend.Backend, error) { return panickyBackend{cpu.New()}, nil })
	ctx := context.Background()
	if _, err := s.Execute(ctx, "", "x = i8([1, 2])\n:backend panicky"); err != nil {
		t.Fatal(err)
	}
	_, err := s.Execute(ctx, "", "x + 1")
	var e *Error
	if !errors.As(err, &e) || e.Name != "InternalError" || !strings.Contains(e.Msg, "backend bug") {
		t.Fatalf("a panicking backend gave %v, want an InternalError", err)
	}
	if _, err := s.Execute(ctx, "", ":backend cpu"); err != nil {
		t.Fatal(err)
	}
	outs, err := s.Execute(ctx, "", "x + 1")
	if err != nil || s.Text(outs[0], formatOff) != "[2 3]\ni8[2] cpu" {
		t.Errorf("after the panic: %v %v", outs, err)
	}
}
