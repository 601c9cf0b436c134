package promote

import (
	"testing"

	"github.com/tensorsh/tensorsh/dtypes"
)

// TestComplexOrder pins which policies order complex numbers in maximum,
// minimum and the max, min, argmax and argmin reductions, and how.
//
//   - numpy, numpy1: lexicographic with NaN propagation, for the ufuncs
//     (numpy/_core/src/umath/loops.c.src, @TYPE@_maximum: CGE/CLE) and the
//     reductions (maximum.reduce; arraytypes.c.src @fname@_argmax).
//   - jax, jax64: jnp.maximum and jnp.minimum are lax.max and lax.min,
//     lowered for complex by jax/_src/interpreters/mlir.py _minmax_hlo
//     (lexicographic, strict comparisons). The reductions keep refusing
//     complex operands in tensorsh (their XLA reduction order is not
//     specified).
//   - torch refuses ("max is not supported for complex tensors"); the
//     Array API standard defines maximum, minimum, max and argmax for
//     real-valued dtypes only.
func TestComplexOrder(t *testing.T) {
	c64 := dtypes.C64
	for _, c := range []struct {
		policy string
		bin    ComplexOrder // maximum(c64, c64); ComplexUnordered with refused
		red    ComplexOrder // max(c64)
		arg    ComplexOrder // argmax(c64)
		refuse bool         // the policy itself refuses
	}{
		{"numpy", ComplexNumPy, ComplexNumPy, ComplexNumPy, false},
		{"numpy1", ComplexNumPy, ComplexNumPy, ComplexNumPy, false},
		{"jax", ComplexXLA, ComplexUnordered, ComplexUnordered, false},
		{"jax64", ComplexXLA, ComplexUnordered, ComplexUnordered, false},
		{"torch", ComplexUnordered, ComplexUnordered, ComplexUnordered, true},
		{"array-api", ComplexUnordered, ComplexUnordered, ComplexUnordered, true},
	} {
		p := refsMust(t, c.policy)
		for _, op := range []BinaryOp{Maximum, Minimum} {
			r, err := p.Binary(op, mineArr(c64), mineArr(c64))
			if (err != nil) != c.refuse || err == nil && r.ComplexOrder != c.bin {
				t.Errorf("%s: %s(c64, c64): order %d, error %v; want order %d, refused %v", c.policy, op, r.ComplexOrder, err, c.bin, c.refuse)
			}
		}
		for _, u := range []struct {
			op   UnaryOp
			want ComplexOrder
		}{{ReduceMax, c.red}, {ReduceMin, c.red}, {ArgMax, c.arg}, {ArgMin, c.arg}} {
			r, err := p.Unary(u.op, mineArr(c64))
			if (err != nil) != c.refuse || err == nil && r.ComplexOrder != u.want {
				t.Errorf("%s: %s(c64): order %d, error %v; want order %d, refused %v", c.policy, u.op, r.ComplexOrder, err, u.want, c.refuse)
			}
		}
	}
	// Real operands need no order.
	if r, _ := refsMust(t, "numpy").Binary(Maximum, mineArr(dtypes.F32), mineArr(dtypes.F32)); r.ComplexOrder != ComplexUnordered {
		t.Errorf("numpy: maximum(f32, f32) has complex order %d", r.ComplexOrder)
	}
}
