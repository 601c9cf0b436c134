package eval

import (
	"context"
	"strings"
	"testing"

	"github.com/tensorsh/tensorsh/backend"
	"github.com/tensorsh/tensorsh/backend/cpu"
)

// devData is a tensor's storage held "on a device": what devBackend's Run
// returns, which only its Fetch turns back into host storage (as the CUDA
// backend's *cuda.Array).
type devData struct{ t *backend.Tensor }

// devBackend is the CPU backend seen as a device: its results are
// devData, and it takes devData or host tensors as inputs, as the CUDA
// backend does. It checks that the session never reads a device tensor's
// storage as if it were on the host.
type devBackend struct {
	cpu   backend.Backend
	freed int
}

func (b *devBackend) Name() string { return "devlike" }

func (b *devBackend) Run(ctx context.Context, n *backend.Node) (*backend.Tensor, error) {
	t, err := b.cpu.Run(ctx, onHost(n, map[*backend.Node]*backend.Node{}))
	if t == nil {
		return nil, err
	}
	return &backend.Tensor{DType: t.DType, Shape: t.Shape, Data: devData{t}}, err
}

func (b *devBackend) Fetch(t *backend.Tensor) (*backend.Tensor, error) {
	if d, ok := t.Data.(devData); ok {
		return d.t, nil
	}
	return t, nil
}

func (b *devBackend) Upload(t *backend.Tensor) (*backend.Tensor, error) {
	return &backend.Tensor{DType: t.DType, Shape: t.Shape, Data: devData{t}}, nil
}

func (b *devBackend) Free(*backend.Tensor) { b.freed++ }

// onHost copies plan n with its device inputs replaced by their host
// tensors.
func onHost(n *backend.Node, seen map[*backend.Node]*backend.Node) *backend.Node {
	if m, ok := seen[n]; ok {
		return m
	}
	m := *n
	if n.Tensor != nil {
		if d, ok := n.Tensor.Data.(devData); ok {
			m.Tensor = d.t
		}
	}
	m.Args = make([]*backend.Node, len(n.Args))
	for i, a := range n.Args {
		m.Args[i] = onHost(a, seen)
	}
	seen[n] = &m
	return &m
}

// TestDeviceBackendStatements runs, on a backend whose results live on a
// device, statements whose compiling computes a value first: a 0-d
// operand whose value the policy reads, allclose's Python bool, average's
// check of its weights, diag of a computed vector; compare's values,
// fetched from the device. Each gives the CPU backend's answer, none an
// internal error.
func TestDeviceBackendStatements(t *testing.T) {
	for _, policy := range []string{"numpy", "jax"} {
		ref, _ := New(policy)
		s, _ := New(policy)
		dev := &devBackend{cpu: cpu.New()}
		s.RegisterBackend("devlike", func() (backend.Backend, error) { return dev, nil })
		setup := "x = f32([1, 2, 4])\nv = i8([1, 2, 3])\nm = sum(x)"
		run(t, ref, setup)
		run(t, s, setup+"\n:backend devlike")
		for _, src := range []string{
			"x + sum(x)", "x * max(x)", "x - m", "(x - mean(x)) / std(x)", "full((2,), m)",
			"m.item()", "x[0] + 1", "count_nonzero(x)", "reshape(x, (cast(m, i8) - 4,))", "x ** sum(v)",
			"where(x > m / 3, x, 0)", "cast(m, i8)", "x[cast(m, i8) - 6]", "explain(x + m)", "eye(2)",
			"concat([x, m[None]])", "zeros_like(m)", "median(x) + m", "allclose(x, x + 1e-9)", "isclose(sum(x), 7.0)",
			"average(x, weights=x)", "diag(v * 2)", "diag(v)", "median(x)", "sort(x * -1)",
			"argsort(v * -1)", "trace(reshape(arange(9), (3, 3)))", "nanmax(x)", "ptp(v)",
			"isin(v, [2, 3])", "cross(x, f32([0, 1, 0]))", "around(x / 3, 2)", "tile(v, 2)",
			"compare(x + 1.5)", "compare(v // 0)",
		} {
			want := run(t, ref, src)
			got := strings.ReplaceAll(run(t, s, src), " devlike", " cpu")
			if got != want || strings.Contains(got, "Error") {
				t.Errorf("%s: %s on a device gives %q, on the CPU %q", policy, src, got, want)
			}
		}
	}
}

// TestBuiltinExamplesOnDevice runs every builtin's example under three
// policies on the device-like backend and on the CPU backend: the same
// output (compare's values too, fetched from the device).
func TestBuiltinExamplesOnDevice(t *testing.T) {
	for _, policy := range []string{"numpy", "jax", "torch"} {
		ref, _ := New(policy)
		s, _ := New(policy)
		s.RegisterBackend("devlike", func() (backend.Backend, error) { return &devBackend{cpu: cpu.New()}, nil })
		run(t, s, ":backend devlike")
		for _, name := range Functions() {
			for _, src := range strings.Split(builtins[name].example, "; ") {
				got, want := run(t, s, src), run(t, ref, src)
				if got = strings.ReplaceAll(got, " devlike", " cpu"); got != want {
					t.Errorf("%s: %s on a device gives %q, on the CPU %q", policy, src, got, want)
				}
			}
		}
	}
}
