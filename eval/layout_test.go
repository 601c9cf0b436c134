package eval

import (
	"bytes"
	"context"
	"slices"
	"testing"

	"github.com/tensorsh/tensorsh/backend"
	"github.com/tensorsh/tensorsh/backend/cpu"
	"github.com/tensorsh/tensorsh/internal/format"
)

// layoutScript makes values that keep their operands' order (results of
// elementwise operations on transposes) and reads them every way a user
// can: shown, described, reshaped, reduced, sliced, multiplied, combined,
// kept in variables, reassigned, compared under other policies.
const layoutScript = `x = reshape(arange(24), (4, 6))
c = reshape(arange(24), (2, 3, 4))
y = transpose(x) * 2
y
y + 1
shape(y)
y[1]
y[:, 2]
y[::2, ::-3]
reshape(y, (24,))
reshape(y, (3, 8))
sum(y, axis=0)
sum(y, axis=1)
argmax(y, axis=0)
cumsum(y, axis=1)
y @ x
x @ y
concat([y, y], axis=1)
stack([y, y])
transpose(y)
transpose(y) + 1
z = transpose(x)
x = x + 100
z
y
e = exp(transpose(f32(x)) / 50)
e
b = transpose(x) > 110
b
where(b, y, -1)
where(transpose(x) > 110, transpose(x), 0)
q = transpose(c, (2, 0, 1)) - 1
q
shape(q)
transpose(c, (0, 2, 1)) * 3
sum(transpose(c, (1, 2, 0)) + 0, axis=2)
transpose(transpose(c) + 1)
r = abs(transpose(i8(x)) - 110)
r
:whos
compare(transpose(i8([[1, 2], [3, 4]])) + 1.5)
transpose(reshape(arange(6), (1, 6))) + 1
transpose(zeros((0, 3))) + 1
softmax(transpose(f32(x)), axis=0)
y[-1, 1:3]
y.T
y.T + 1
transpose(x)
transpose(x) - x[:, 0]
r = transpose(x) * reshape(arange(6), (6, 1)) + x[:, 1]
r
r + r
sum(r, axis=1)
transpose(c, (2, 0, 1)) - c[0, :, 0]
transpose(c, (1, 2, 0)) * reshape(arange(4), (4, 1)) + reshape(arange(2), (1, 1, 2))
where(transpose(x) > 110, transpose(x), x[:, 1])
transpose(f32(x)) / x[0, :4]
`

// TestResultsKeepOrder checks that a value stored in its operands' order
// reads as the row-major value would: the same script with every result
// row-major (unpermute replaced by the identity) must print the same.
func TestResultsKeepOrder(t *testing.T) {
	run := func(keep bool, device string) string {
		if !keep {
			saved := unpermute
			unpermute = func(n *backend.Node) (*backend.Node, []int, bool) { return n, nil, false }
			defer func() { unpermute = saved }()
		}
		s, err := New("jax")
		if err != nil {
			t.Fatal(err)
		}
		if device != "" {
			// A backend other than the CPU's: shown values are made
			// row-major there, fetched, and the copy freed.
			cb := &countingBackend{Backend: cpu.New(), freed: map[*backend.Tensor]int{}}
			s.RegisterBackend(device, func() (backend.Backend, error) { return cb, nil })
			if _, err := s.Execute(context.Background(), "", ":backend "+device); err != nil {
				t.Fatal(err)
			}
			defer func() {
				if n := len(cb.freed); keep && n == 0 {
					t.Errorf("%s: no row-major copy was freed", device)
				}
			}()
		}
		return transcript(t, s, layoutScript)
	}
	for _, device := range []string{"", "counting"} {
		want, got := run(false, device), run(true, device)
		if got != want {
			t.Errorf("%s: results in their operands' order read differently:\n%s", device, lineDiff(want, got))
		}
	}

	// The script must exercise the permuted form.
	s, _ := New("jax")
	if _, err := s.Execute(context.Background(), "", "x = reshape(arange(6), (2, 3))\ny = exp(transpose(f32(x)))\nz = transpose(x)"); err != nil {
		t.Fatal(err)
	}
	y, _ := s.Var("y")
	if !slices.Equal(y.Perm, []int{1, 0}) || !slices.Equal(y.Tensor.Shape, []int{2, 3}) || !slices.Equal(y.Dims(), []int{3, 2}) {
		t.Fatalf("exp(transpose(x)): perm %v, storage %v, dims %v; want [1 0], [2 3], [3 2]", y.Perm, y.Tensor.Shape, y.Dims())
	}
	x, _ := s.Var("x")
	if z, _ := s.Var("z"); z.Tensor != x.Tensor || z.Perm == nil {
		t.Fatalf("transpose(x) copied x (perm %v)", z.Perm)
	}
	if _, err := s.Execute(context.Background(), "", "w = transpose(x) - x[:, 0] * 2"); err != nil {
		t.Fatal(err)
	}
	if w, _ := s.Var("w"); w.Perm == nil {
		t.Fatalf("transpose(x) - x[:, 0] * 2: row-major; want x's order (a broadcast row does not change it)")
	}

	// The rich forms read the row-major value too.
	f, err := s.fetch(y)
	if err != nil {
		t.Fatal(err)
	}
	if f.Perm != nil || !slices.Equal(f.Tensor.Shape, []int{3, 2}) {
		t.Fatalf("fetch: perm %v, shape %v", f.Perm, f.Tensor.Shape)
	}
	plain := &Value{Kind: TensorValue, Type: y.Type, Tensor: f.Tensor, Device: y.Device}
	for _, form := range []struct {
		name string
		of   func(*Value) string
	}{
		{"text", func(v *Value) string { return s.Text(Output{Value: v}, format.Options{}) }},
		{"html", func(v *Value) string { return s.HTML(Output{Value: v}) }},
		{"json", func(v *Value) string {
			b, err := s.JSON(Output{Value: v})
			if err != nil {
				t.Fatal(err)
			}
			return string(b)
		}},
		{"json stream", func(v *Value) string {
			var b bytes.Buffer
			if err := s.WriteJSON(&b, Output{Value: v}); err != nil {
				t.Fatal(err)
			}
			return b.String()
		}},
	} {
		if got, want := form.of(y), form.of(plain); got != want {
			t.Errorf("%s of a permuted value:\n%s\nwant\n%s", form.name, got, want)
		}
	}
}
