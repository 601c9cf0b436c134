package cpu

import (
	"math/rand"
	"reflect"
	"testing"

	"github.com/tensorsh/tensorsh/backend"
	"github.com/tensorsh/tensorsh/dtypes"
)

// TestWidenBroadcast checks widenBroadcast (narrow float operands
// broadcast to four times their size or more, converted to float32 once)
// against the same trees on operands broadcast ahead into full arrays,
// which the fused blocks convert as they read them: every narrow float
// dtype, random bits (NaNs with payloads, zeros, infinities), the 3-d
// broadcast p (a×b×1) with q (1×b×c), a row operand, a column of a small
// operand (below widenMin, left alone) and an operand used twice.
// (p * p is p's shape: it is the root's operand that is broadcast.)
func TestWidenBroadcast(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	const a, b, c = 23, 30, 41
	full := []int{a, b, c}
	// expand copies x (of shape s, broadcast to full) into a full array.
	expand := func(d dtypes.DType, x any, s []int) any {
		src := reflect.ValueOf(x)
		out := reflect.ValueOf(backend.NewStorage(d, a*b*c))
		for i := range a {
			for j := range b {
				for k := range c {
					at := 0
					for ax, v := range []int{i, j, k} {
						at = at*s[ax] + v%s[ax]
					}
					out.Index((i*b+j)*c + k).Set(src.Index(at))
				}
			}
		}
		return out.Interface()
	}
	for _, d := range []dtypes.DType{dtypes.F16, dtypes.BF16, dtypes.F8E4M3, dtypes.F8E5M2} {
		shapes := [][]int{{a, b, 1}, {1, b, c}, {1, 1, c}, {a, 1, 1}}
		data := make([]any, len(shapes))
		for i, s := range shapes {
			data[i] = randomStorage(rng, d, backend.Size(s), 0)
		}
		trees := []struct {
			name string
			tree func(x []*backend.Node) *backend.Node
		}{
			{"p + q", func(x []*backend.Node) *backend.Node { return nb(backend.OpAdd, x[0], x[1]) }},
			{"p < q", func(x []*backend.Node) *backend.Node { return nb(backend.OpLt, x[0], x[1]) }},
			{"maximum(p, q) * r", func(x []*backend.Node) *backend.Node {
				return nb(backend.OpMul, nb(backend.OpMax, x[0], x[1]), x[2])
			}},
			{"p * p - r", func(x []*backend.Node) *backend.Node {
				return nb(backend.OpSub, nb(backend.OpMul, x[0], x[0]), x[2])
			}},
			{"s * q", func(x []*backend.Node) *backend.Node { return nb(backend.OpMul, x[3], x[1]) }},
		}
		for _, tr := range trees {
			bc, ex := make([]*backend.Node, len(shapes)), make([]*backend.Node, len(shapes))
			for i, s := range shapes {
				bc[i] = in(raw(d, s, data[i]))
				ex[i] = in(raw(d, full, expand(d, data[i], s)))
			}
			got, want := run(t, tr.tree(bc)), run(t, tr.tree(ex))
			if !reflect.DeepEqual(got.Data, want.Data) {
				g, w := reflect.ValueOf(got.Data), reflect.ValueOf(want.Data)
				for i := range g.Len() {
					if g.Index(i).Interface() != w.Index(i).Interface() {
						t.Errorf("%v %s: broadcast operands give %#v at %d, full ones %#v", d, tr.name, g.Index(i).Interface(), i, w.Index(i).Interface())
						break
					}
				}
			}
		}
	}
}
