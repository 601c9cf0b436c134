package eval

import (
	"context"
	"fmt"
	"testing"

	"github.com/tensorsh/tensorsh/backend"
)

// The CPU backend keeps the memory of a result the session has dropped
// for the next result of its size (cpu.Backend.Recycle), as NumPy's
// allocator does once an array's last reference goes. These tests pin
// both halves: dropped memory is reused, and memory anything still
// reaches is not.

// recycleSession returns a numpy session with x, a 1000×100 float32
// (400 kB: above the size from which the backend recycles).
func recycleSession(t *testing.T) *Session {
	t.Helper()
	s, err := New("numpy")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Execute(context.Background(), "", "x = f32(rand(1000, 100))"); err != nil {
		t.Fatal(err)
	}
	return s
}

func lastValue(t *testing.T, s *Session, src string) *Value {
	t.Helper()
	outs, err := s.Execute(context.Background(), "", src)
	if err != nil || len(outs) == 0 || outs[len(outs)-1].Value == nil {
		t.Fatalf("%s: %v %v", src, outs, err)
	}
	return outs[len(outs)-1].Value
}

func TestRecycleReusesDroppedResults(t *testing.T) {
	s := recycleSession(t)
	v1 := lastValue(t, s, "x + 1")
	p1, _, _ := backend.StorageSpan(v1.Tensor.Data)
	lastValue(t, s, "x + 2") // the cell ends: x + 1 is dropped
	v3 := lastValue(t, s, "x + 3")
	if p3, _, _ := backend.StorageSpan(v3.Tensor.Data); p3 != p1 {
		t.Errorf("the third result is at %p, want the first's memory %p", p3, p1)
	}
	s.setVar("r3", v3)
	if got := run(t, s, "bool(all(r3 == x + 3))"); got != "bool true" {
		t.Errorf("recycled memory holds the wrong values: %s", got)
	}
}

func TestRecycleKeepsHeldMemory(t *testing.T) {
	for _, tc := range []struct {
		name  string
		cells []string
		check string // must be True after the cells
	}{
		{"variable sharing a rebound one", []string{"y = x + 1", "y2 = y", "y = 0", "z = x * 7", "x * 9"}, "all(y2 == x + 1)"},
		{"reshaped", []string{"y = x + 1", "r = reshape(y, (100000,))", "y = 0", "z = x * 7", "x * 9"}, "all(r == reshape(x + 1, (100000,)))"},
		// Slices are copies today; this guards the day they become views.
		{"sliced", []string{"y = x + 1", "r = y[10:]", "y = 0", "z = x * 7", "x * 9"}, "all(r == (x + 1)[10:])"},
		{"last result a variable", []string{"y = x + 1", "y", "x * 9", "z = x * 7", "x * 5"}, "all(y == x + 1)"},
		{"timeit of a variable", []string{"y = x + 1", ":timeit y", "z = x * 7", "x * 9"}, "all(y == x + 1)"},
		{"timeit of a new value", []string{"y = x + 1", ":timeit x + 1", "z = x + 5", "x * 9"}, "all(y == x + 1)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := recycleSession(t)
			for _, c := range tc.cells {
				if _, err := s.Execute(context.Background(), "", c); err != nil {
					t.Fatalf("%s: %v", c, err)
				}
			}
			if got := run(t, s, "bool("+tc.check+")"); got != "bool true" {
				t.Errorf("%s: %s", tc.check, got)
			}
		})
	}
}

// TestRecycleKeepsResults checks the results a front end records
// (Out[n], _) and the values of one cell's several statements.
func TestRecycleKeepsResults(t *testing.T) {
	s := recycleSession(t)
	ctx := context.Background()
	for n, src := range []string{"x + 1", "x + 5", "x + 9", "x + 13"} {
		outs, err := s.Execute(ctx, "", src)
		if err != nil {
			t.Fatal(err)
		}
		s.SetResult(n+1, outs[len(outs)-1].Value)
	}
	if got := run(t, s, "bool(all(Out[1] == x + 1))"); got != "bool true" {
		t.Errorf("Out[1] after three more cells: %s", got)
	}
	outs, err := s.Execute(ctx, "", "x + 1\nx + 2\nx + 3\nx + 4")
	if err != nil {
		t.Fatal(err)
	}
	for i, o := range outs {
		s.setVar("o", o.Value)
		check := fmt.Sprintf("bool(all(o == x + %d))", i+1)
		if got := run(t, s, check); got != "bool true" {
			t.Errorf("statement %d of one cell: %s: %s", i+1, check, got)
		}
	}
}

// TestUnheldSeesVariables checks that unheld, which reads the spans of
// the variables' storage from a list it keeps between statements, sees
// every change to the variables: a new one holds its value's memory at
// once, a rebound one's old value is held no more, and Reset lets every
// value go.
func TestUnheldSeesVariables(t *testing.T) {
	s := recycleSession(t)
	ctx := context.Background()
	x := s.vars["x"]
	if s.unheld(x) {
		t.Fatal("x's own value is unheld")
	}
	if _, err := s.Execute(ctx, "", "c = x * 2"); err != nil {
		t.Fatal(err)
	}
	c := s.vars["c"]
	if s.unheld(c) {
		t.Error("a variable assigned after the list was made is not seen holding its value")
	}
	if _, err := s.Execute(ctx, "", "c = 0"); err != nil {
		t.Fatal(err)
	}
	if !s.unheld(c) {
		t.Error("the old value of a rebound variable is still held")
	}
	s.Reset()
	if !s.unheld(x) {
		t.Error("after Reset, x's old value is still held")
	}
}
