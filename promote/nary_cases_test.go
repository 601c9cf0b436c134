package promote

import (
	"fmt"
	"testing"

	"github.com/tensorsh/tensorsh/dtypes"
)

// A naryCase is an n-ary promotion case: operands, and the expected type
// in every order ("error@N: text" as in mineExpect; N indexes the operands
// as given, so error cases are checked in the given order only).
type naryCase struct {
	xs   []Operand
	want string
	fold string // the left fold's answer, when the case shows it differs
}

func naryRun(t *testing.T, p Policy, f func(Policy, ...Operand) (Result, error), cases []naryCase) {
	t.Helper()
	for _, c := range cases {
		orders := [][]int{identity(len(c.xs))}
		if len(c.xs) == 3 && len(c.want) > 0 && c.want[0] != 'e' {
			orders = orders[:0]
			for _, o := range permutations3 {
				orders = append(orders, o[:])
			}
		}
		for _, o := range orders {
			ys := make([]Operand, len(o))
			for i, j := range o {
				ys[i] = c.xs[j]
			}
			r, err := f(p, ys...)
			mineExpect(t, fmt.Sprintf("%s: (%s)", p.Name(), describeOps(ys)), r, err, c.want, 0)
		}
		if c.fold != "" {
			r, err := Fold(p, Where, c.xs...)
			mineExpect(t, fmt.Sprintf("%s: fold(%s)", p.Name(), describeOps(c.xs)), r, err, c.fold, 0)
		}
	}
}

func identity(n int) []int {
	o := make([]int, n)
	for i := range o {
		o[i] = i
	}
	return o
}

func naryWhere(p Policy, xs ...Operand) (Result, error) { return Nary(p, Where, xs...) }

func TestNaryCases(t *testing.T) {
	const (
		b, i8, i16, i32, i64 = dtypes.Bool, dtypes.I8, dtypes.I16, dtypes.I32, dtypes.I64
		u8, u16, u32, u64    = dtypes.U8, dtypes.U16, dtypes.U32, dtypes.U64
		f16, bf16, f32, f64  = dtypes.F16, dtypes.BF16, dtypes.F32, dtypes.F64
		c64                  = dtypes.C64
	)
	numpy, numpy1, torch := refsMust(t, "numpy"), refsMust(t, "numpy1"), refsMust(t, "torch")
	jax, jax64 := refsMust(t, "jax"), refsMust(t, "jax64")

	// np.result_type (numpy/_core/src/multiarray/common_dtype.c,
	// PyArray_PromoteDTypeSequence): the most knowledgeable DType (float16,
	// numbered after all builtin dtypes) is promoted with each other one:
	// float16 ∨ int16 = float16 ∨ uint16 = float32, where the left fold
	// gives (int16 ∨ uint16 = int32) ∨ float16 = float64. Python scalars are
	// abstract DTypes (abstractdtypes.c: int_common_dtype,
	// float_common_dtype): a Python float with ints is float64, and NEP 50
	// then checks each Python scalar's value against the result.
	naryRun(t, numpy, naryWhere, []naryCase{
		{[]Operand{mineArr(i16), mineArr(u16), mineArr(f16)}, "f32", "f64"},
		{[]Operand{mineArr(i8), mineArr(u8), mineArr(f16)}, "f16", "f32"},
		{[]Operand{mineArr(i32), mineArr(u8), mineArr(f16)}, "f64", ""},
		{[]Operand{mineArr(u32), mineArr(i8), mineArr(f32)}, "f64", ""},
		{[]Operand{mineArr(i8), mineArr(u8), mineLit(numpy, 300)}, "i16", ""},
		{[]Operand{mineArr(i8), mineArr(i8), mineLit(numpy, 300)}, "error@2: 300", ""},
		{[]Operand{mineArr(i8), mineArr(u8), mineLit(numpy, 1.5)}, "f64", ""},
		{[]Operand{mineArr(f16), mineArr(i8), mineLit(numpy, 1.5)}, "f16", ""},
		{[]Operand{mineArr(f32), mineArr(i8), mineLit(numpy, 1i)}, "c64", ""},
		{[]Operand{mineArr(b), mineLit(numpy, 1), mineArr(b)}, "i64", ""},
		{[]Operand{mineLit(numpy, 1), mineLit(numpy, 2.5), mineLit(numpy, true)}, "f64?", ""},
		{[]Operand{mineArr(u64), mineArr(i8), mineArr(b)}, "f64", ""},
		{[]Operand{mineArr(i16)}, "i16", ""},
	})
	// NumPy 1.24: arrays alone promote all at once as in NumPy 2
	// (PyArray_ResultType); with a scalar acting by value
	// (PyArray_CheckLegacyResultType, should_use_min_scalar) the
	// min_scalar_types are promoted from the left.
	naryRun(t, numpy1, naryWhere, []naryCase{
		{[]Operand{mineArr(i16), mineArr(u16), mineArr(f16)}, "f32", "f64"},
		{[]Operand{mineArr(i8), mineArr(i8), mineLit(numpy1, 300)}, "i16", ""},
		{[]Operand{mineArr(u8), mineArr(i8), mineLit(numpy1, 1)}, "i16", ""},
		{[]Operand{mineArr(f16), mineArr(i8), mineLit(numpy1, 1.5)}, "f16", ""},
		// A float scalar with int arrays is of a higher kind: no value-based
		// casting, the dtypes promote all at once.
		{[]Operand{mineArr(i8), mineArr(u8), mineLit(numpy1, 1.5)}, "f64", ""},
	})
	// JAX (jax/_src/dtypes.py, lattice_result_type over all inputs, as
	// jnp's promote_dtypes applies it): one least upper bound of all
	// operands; when all are weak, the bound of their dtypes, weak.
	naryRun(t, jax, naryWhere, []naryCase{
		{[]Operand{mineArr(i8), mineArr(u8), mineArr(f16)}, "f16", ""},
		{[]Operand{mineArr(i16), mineArr(u16), mineArr(f16)}, "f16", ""},
		{[]Operand{mineArr(u32), mineArr(i8), mineArr(u8)}, "i32", ""},
		{[]Operand{mineArr(i8), mineLit(jax, 1), mineLit(jax, 1.5)}, "f32?", ""},
		{[]Operand{mineArr(i8), mineLit(jax, 1), mineArr(u8)}, "i16", ""},
		{[]Operand{mineWeak(i8), mineWeak(u8), mineWeak(f16)}, "f16?", ""},
		{[]Operand{mineWeak(i8), mineWeak(i8), mineWeak(i8)}, "i8?", ""},
		{[]Operand{mineArr(f16), mineArr(bf16), mineArr(i8)}, "f32", ""},
		{[]Operand{mineArr(dtypes.F8E4M3), mineArr(f16), mineArr(i8)}, "error@-1: 8-bit floats", ""},
	})
	naryRun(t, jax64, naryWhere, []naryCase{
		{[]Operand{mineArr(u32), mineArr(i8), mineArr(u8)}, "i64", ""},
		{[]Operand{mineArr(i8), mineLit(jax64, 1), mineLit(jax64, 1.5)}, "f64?", ""},
	})
	// torch (aten/src/ATen/native/TypeProperties.cpp, result_type over a
	// tensor list: update_result_type_state for each, then
	// combine_categories): tensors with dimensions, zero-dim tensors and
	// wrapped numbers each promote within their group, and a lower group
	// counts only when of a higher category.
	naryRun(t, torch, naryWhere, []naryCase{
		{[]Operand{mineArr(i8), mineArr(u8), mineArr(f16)}, "f16", ""},
		{[]Operand{mineArr(i8), mineZero(i64, nil), mineLit(torch, 1)}, "i8", ""},
		{[]Operand{mineArr(i8), mineZero(f64, nil), mineLit(torch, 1.5)}, "f64", ""},
		{[]Operand{mineArr(i8), mineZero(i32, nil), mineLit(torch, 1.5)}, "f32", ""},
		{[]Operand{mineArr(f16), mineArr(f16), mineLit(torch, 1i)}, "c32", ""},
		{[]Operand{mineArr(i32), mineArr(c64), mineArr(f64)}, "c128", ""},
	})
}

// TestJAXPromoteTypes checks promote_types and result_type against JAX.
func TestJAXPromoteTypes(t *testing.T) {
	const (
		b, i8, i16, i32, i64 = dtypes.Bool, dtypes.I8, dtypes.I16, dtypes.I32, dtypes.I64
		u8, u32, u64         = dtypes.U8, dtypes.U32, dtypes.U64
		f16, bf16, f32, f64  = dtypes.F16, dtypes.BF16, dtypes.F32, dtypes.F64
		c128                 = dtypes.C128
	)
	jax, jax64 := refsMust(t, "jax"), refsMust(t, "jax64")
	pt := func(p Policy, xs ...Operand) (Result, error) { return PromoteTypes(p, xs...) }
	rt := func(p Policy, xs ...Operand) (Result, error) { return ResultType(p, xs...) }
	// jnp.promote_types (jax/_src/dtypes.py, promote_types and
	// _least_upper_bound): no canonicalisation; a join at a Python type is
	// np.dtype(int|float|complex); with x64 off the lattice has uint32 below
	// int32 (_type_promotion_lattice), as refs/jax_x32.json's pairs show.
	// Its docstring: promote_types('uint8', int) is uint8,
	// promote_types('float16', float) is float16.
	naryRun(t, jax, pt, []naryCase{
		{[]Operand{mineArr(i8), mineArr(i64)}, "i64", ""},
		{[]Operand{mineArr(u64), mineArr(i8)}, "f64", ""},
		{[]Operand{mineArr(u32), mineArr(i32)}, "i32", ""},
		{[]Operand{mineArr(u8), mineWeak(i32)}, "u8", ""},
		{[]Operand{mineArr(f16), mineWeak(f32)}, "f16", ""},
		{[]Operand{mineArr(i16), mineWeak(f32)}, "f64", ""},
		{[]Operand{mineWeak(i32), mineWeak(i32)}, "i64", ""},
		{[]Operand{mineArr(f64), mineArr(dtypes.C64)}, "c128", ""},
		{[]Operand{mineArr(i16), mineArr(dtypes.U16), mineArr(f16)}, "f16", ""},
		{[]Operand{mineArr(b), mineArr(b)}, "bool", ""},
	})
	naryRun(t, jax64, pt, []naryCase{
		{[]Operand{mineArr(u32), mineArr(i32)}, "i64", ""},
		{[]Operand{mineArr(u64), mineArr(i8)}, "f64", ""},
	})
	// jnp.result_type (jax/_src/dtypes.py, result_type): inputs and result
	// canonicalised; a weak result is the default dtype of its kind
	// (tests/dtypes_test.py testUnaryPromotion, the regression test of
	// jax issue 6051: result_type of a weak value is the canonical default
	// of its kind; bfloat16 and float8 count as float).
	naryRun(t, jax, rt, []naryCase{
		{[]Operand{mineArr(i8), mineArr(i64)}, "i32", ""},
		{[]Operand{mineArr(u64), mineArr(i8)}, "i32", ""},
		{[]Operand{mineArr(i16), mineWeak(f32)}, "f32?", ""},
		{[]Operand{mineWeak(i8)}, "i32?", ""},
		{[]Operand{mineWeak(u8)}, "u32?", ""},
		{[]Operand{mineWeak(bf16)}, "f32?", ""},
		{[]Operand{mineWeak(i8), mineWeak(i8)}, "i32?", ""},
		{[]Operand{mineArr(i8)}, "i8", ""},
		{[]Operand{mineArr(f64)}, "f32", ""},
		{[]Operand{mineArr(c128), mineArr(f32)}, "c64", ""},
		{[]Operand{mineArr(i8), mineLit(jax, 1.5)}, "f32?", ""},
	})
	naryRun(t, jax64, rt, []naryCase{
		{[]Operand{mineArr(i8), mineArr(i64)}, "i64", ""},
		{[]Operand{mineArr(u64), mineArr(i64)}, "f64?", ""},
		{[]Operand{mineWeak(i8)}, "i64?", ""},
		{[]Operand{mineWeak(f16), mineWeak(f16)}, "f64?", ""},
	})
	// Truncating a 64-bit input warns as JAX does.
	r, err := ResultType(jax, mineArr(i64), mineArr(i8))
	if err != nil || r.Warning == "" {
		t.Errorf("jax: result_type(i64, i8) = %v, %v; want a truncation warning", r, err)
	}
}

// TestJAXPromoteTypesRefs checks PromoteTypes against every cell of the
// pair tables of refs/jax_x32.json and refs/jax_x64.json, which are
// jnp.promote_types of jax 0.11.2 (no canonicalisation: int64 appears with
// x64 off).
func TestJAXPromoteTypesRefs(t *testing.T) {
	for _, tc := range []struct{ policy, file string }{{"jax", "jax_x32"}, {"jax64", "jax_x64"}} {
		p := refsMust(t, tc.policy)
		n := 0
		for _, c := range refsTable(t, tc.file, "pairs") {
			a, okA := refsDType(c.LHS)
			b, okB := refsDType(c.RHS)
			if !okA || !okB {
				continue
			}
			r, err := PromoteTypes(p, mineArr(a), mineArr(b))
			n++
			switch {
			case c.Err != "" && err == nil:
				t.Errorf("%s: promote_types(%s) = %s, want error %s", tc.policy, c.Key, r.Type, c.Err)
			case c.Err == "" && err != nil:
				t.Errorf("%s: promote_types(%s): %v, want %s", tc.policy, c.Key, err, c.DType)
			case c.Err == "" && (r.Type.DType.FullName() != c.DType || r.Type.Weak):
				t.Errorf("%s: promote_types(%s) = %s, want %s", tc.policy, c.Key, r.Type, c.DType)
			}
		}
		if n != 289 {
			t.Errorf("%s: checked %d cells, want 289", tc.policy, n)
		}
	}
}
