package eval

import (
	"context"
	"errors"
	"testing"

	"github.com/tensorsh/tensorsh/backend"
	"github.com/tensorsh/tensorsh/promote"
)

// TestErrorCauses checks that the Session API keeps an error's cause:
// errors.Is and errors.As see the backend's and the policy's errors
// through an *Error, whose message stays what it was.
func TestErrorCauses(t *testing.T) {
	s, err := New("torch")
	if err != nil {
		t.Fatal(err)
	}
	_, err = s.Execute(context.Background(), "", "i32([7]) // i32([0])")
	var e *Error
	if !errors.As(err, &e) || !errors.Is(err, backend.ErrDivideByZero) {
		t.Errorf("torch integer division by zero: %v (%T); want an *Error wrapping backend.ErrDivideByZero", err, err)
	}
	_, err = s.Execute(context.Background(), "", "u16([1]) + i64([1]) @ f32([1])")
	var pe *promote.Error
	if !errors.As(err, &pe) || pe.Policy != "torch" {
		t.Errorf("promotion error: %v; want an *Error wrapping a *promote.Error", err)
	}
	_, err = s.Execute(context.Background(), "", "1 // 0")
	if !errors.As(err, &e) || e.Name != "ZeroDivisionError" || !errors.Is(err, errZeroDiv) {
		t.Errorf("1 // 0: %v", err)
	}
	anvil, _ := New("anvil")
	_, err = anvil.Execute(context.Background(), "", "5 // 0")
	if !errors.As(err, &e) || e.Name != "ZeroDivisionError" {
		t.Errorf("anvil 5 // 0: %v", err)
	}
}
