package promote

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tensorsh/tensorsh/dtypes"
)

// naryOperands are the operands of the n-ary property test for p: an array
// of each of p's dtypes, and (withWeak) a weak value of each and the
// sample literals 1, 1.5, 1j and True.
func naryOperands(p Policy, withWeak bool) []Operand {
	var ops []Operand
	for _, d := range p.DTypes() {
		ops = append(ops, Operand{Type: dtypes.Strong(d), Rank: 1})
	}
	if !withWeak {
		return ops
	}
	for _, d := range p.DTypes() {
		ops = append(ops, Operand{Type: dtypes.Weak(d), Rank: 0})
	}
	for _, v := range sampleLiterals {
		ops = append(ops, refsLiteral(p, v))
	}
	return ops
}

// permutations3 lists the 6 orders of three things.
var permutations3 = [][3]int{{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}}

// naryAnswer is a comparable summary of one answer: the type, or "error".
func naryAnswer(r Result, err error) string {
	if err != nil {
		return "error"
	}
	return r.Type.String()
}

// naryOrderDependent reports the operand triples for which p's library is
// itself order-dependent, so that the property test does not ask p for
// invariance there. Each comes from the library's own source:
//   - numpy with an ml_dtypes type (bfloat16, float8): ml_dtypes' DTypes do
//     not implement common_dtype transitively with NumPy's, which
//     common_dtype.c (PyArray_PromoteDTypeSequence) says makes the result
//     order-dependent; tensorsh folds there.
//   - torch with uint16/uint32/uint64: promoteTypes refuses them with ints
//     but not with floats, and update_result_type_state promotes in turn,
//     so whether an error is raised depends on the order.
//   - numpy1 with scalars acting by value: PyArray_CheckLegacyResultType
//     promotes min_scalar_types pairwise from the left.
func naryOrderDependent(p Policy, xs []Operand) bool {
	switch p.Name() {
	case "numpy":
		for _, x := range xs {
			if numpyIsML(x.Type.DType) && !x.Literal {
				return true
			}
		}
	case "torch":
		for _, x := range xs {
			if torchBareUnsigned(x.Type.DType) && !x.Literal {
				return true
			}
		}
	case "numpy1":
		scalars, arrays := false, false
		maxS, maxA := -1, -1
		for _, x := range xs {
			k := numpy1KindOrder(x.Type.DType)
			if x.Rank == 0 || x.Literal {
				scalars, maxS = true, max(maxS, k)
			} else {
				arrays, maxA = true, max(maxA, k)
			}
		}
		return scalars && arrays && maxA >= maxS
	}
	return false
}

// TestNaryPermutations is the n-ary property test: for every policy and
// every triple of operands (arrays of each dtype; then also weak values
// and literals), promoting the three together (Nary, as promote(a, b, c),
// concat and stack do) gives the same answer in all 6 orders where the
// library's own n-ary promotion is order-independent (numpy:
// np.result_type; numpy1: its legacy result_type without value-based
// scalars; jax, jax64: jnp's lattice_result_type; torch: result_type over
// tensors), and equals the left fold of the binary rule for the policies
// whose library folds (triton, triton-doc, max, max-graph, anvil,
// array-api; user policies too).
func TestNaryPermutations(t *testing.T) {
	for _, name := range Names() {
		p := mustLookup(t, name)
		for _, withWeak := range []bool{false, true} {
			ops := naryOperands(p, withWeak)
			checked, skipped, foldFree := 0, 0, true
			for i := range ops {
				for j := range ops {
					for k := range ops {
						xs := []Operand{ops[i], ops[j], ops[k]}
						if !IsOrderFree(p) {
							r, err := Nary(p, Where, xs...)
							f, ferr := Fold(p, Where, xs...)
							if naryAnswer(r, err) != naryAnswer(f, ferr) {
								t.Errorf("%s: Nary(%s) = %s, the left fold gives %s", name, describeOps(xs), naryAnswer(r, err), naryAnswer(f, ferr))
							}
							if foldFree && !naryInvariant(p, xs, Fold) {
								foldFree = false
							}
							checked++
							continue
						}
						if naryOrderDependent(p, xs) {
							skipped++
							continue
						}
						if !naryInvariant(p, xs, Nary) {
							var got []string
							for _, o := range permutations3 {
								ys := []Operand{xs[o[0]], xs[o[1]], xs[o[2]]}
								r, err := Nary(p, Where, ys...)
								got = append(got, fmt.Sprintf("(%s) = %s", describeOps(ys), naryAnswer(r, err)))
							}
							t.Errorf("%s: promotion of three depends on their order: %s", name, strings.Join(got, ", "))
						}
						checked++
					}
				}
			}
			if checked == 0 {
				t.Errorf("%s: no triple checked", name)
			}
			if !IsOrderFree(p) {
				t.Logf("%s (weak %v): %d triples equal the left fold; the fold is order-independent: %v", name, withWeak, checked, foldFree)
			} else {
				t.Logf("%s (weak %v): %d triples order-independent, %d left out where the library depends on the order", name, withWeak, checked, skipped)
			}
		}
	}
}

// naryInvariant reports whether f gives the same answer for xs in all 6
// orders.
func naryInvariant(p Policy, xs []Operand, f func(Policy, BinaryOp, ...Operand) (Result, error)) bool {
	want := ""
	for n, o := range permutations3 {
		r, err := f(p, Where, xs[o[0]], xs[o[1]], xs[o[2]])
		got := naryAnswer(r, err)
		if n == 0 {
			want = got
		} else if got != want {
			return false
		}
	}
	return true
}

func describeOps(xs []Operand) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = mineOperandString(x)
	}
	return strings.Join(s, ", ")
}

// TestNaryTwoIsBinary checks that the n-ary rule of two operands is the
// binary one, for every policy and pair of operands.
func TestNaryTwoIsBinary(t *testing.T) {
	for _, name := range Names() {
		p := mustLookup(t, name)
		ops := naryOperands(p, true)
		for _, x := range ops {
			for _, y := range ops {
				r, err := Nary(p, Where, x, y)
				b, berr := p.Binary(Where, x, y)
				if naryAnswer(r, err) != naryAnswer(b, berr) {
					t.Errorf("%s: Nary(%s, %s) = %s, Binary gives %s", name, mineOperandString(x), mineOperandString(y), naryAnswer(r, err), naryAnswer(b, berr))
				}
			}
		}
	}
}
