package promote

import (
	"testing"

	"github.com/tensorsh/tensorsh/dtypes"
)

// TestIntDivRules pins what each policy says integer // and % (and / where
// it divides integers) give at a zero divisor and at MIN // -1; the
// backends compute each rule (backend/cpu TestIntegerDivisionRules).
//
//   - numpy, numpy1: 0 for x // 0 and x % 0, signed and unsigned, with
//     NumPy's RuntimeWarning "divide by zero encountered in floor_divide"
//     (numpy/_core/src/umath/loops_arithmetic.dispatch: floor_divide's
//     set_float_status(overflow, divbyzero) after a zero divisor gives 0,
//     MIN // -1 gives MIN with an overflow warning; loops_modulo.dispatch:
//     remainder by zero gives 0 with the same divide-by-zero warning):
//     IntDivNumPy with WarnIntDiv; the backends report the warnings.
//   - jax, jax64: jax/_src/numpy/ufuncs.py floor_divide on XLA's Div
//     (xla/service/elemental_ir_emitter.cc: "X / 0 == -1, INT_SMIN /s -1 =
//     INT_SMIN") plus its sign correction; remainder swaps a zero divisor
//     for 1. IntDivJNP.
//   - torch: ZeroDivisionError for integer tensors (aten's div_floor and
//     remainder kernels raise "ZeroDivisionError"; ZeroDivError).
//   - anvil: / on integers is stablehlo.divide (XLA's Div), %% is nv_mod,
//     remainder(remainder(x, y) + y, y) on XLA's Rem (r-xla/anvil,
//     R/api.R nv_mod). There is no %/% on arrays.
//   - max, max-graph: 0, as Mojo's Int.__floordiv__ and __mod__ give
//     (stdlib builtin/int.mojo: "return select(rhs == 0, 0, res)").
//   - triton: tensors divide like C (LLVM sdiv/srem, PTX div/rem), whose
//     result at a zero divisor is undefined; tensorsh gives 0 there.
//   - array-api: the standard leaves integer division by zero
//     unspecified ("implementation-defined"); tensorsh gives NumPy's 0, as
//     array-api-strict (built on NumPy) does.
func TestIntDivRules(t *testing.T) {
	i32, u8, f32 := dtypes.I32, dtypes.U8, dtypes.F32
	for _, c := range []struct {
		policy string
		op     BinaryOp
		d      dtypes.DType
		rule   IntDivRule
		err    bool // ZeroDivError
		cdiv   bool
	}{
		{"numpy", FloorDiv, i32, IntDivNumPy, false, false},
		{"numpy", Mod, u8, IntDivNumPy, false, false},
		{"numpy1", FloorDiv, i32, IntDivNumPy, false, false},
		{"array-api", FloorDiv, i32, IntDivNumPy, false, false},
		{"jax", FloorDiv, i32, IntDivJNP, false, false},
		{"jax", Mod, i32, IntDivJNP, false, false},
		{"jax", FloorDiv, u8, IntDivJNP, false, false},
		{"jax64", FloorDiv, i32, IntDivJNP, false, false},
		{"jax", FloorDiv, f32, IntDivNumPy, false, false}, // floats: IEEE, no rule
		{"torch", FloorDiv, i32, IntDivNumPy, true, false},
		{"torch", Mod, u8, IntDivNumPy, true, false},
		{"anvil", TrueDiv, i32, IntDivXLA, false, true},
		{"anvil", Mod, i32, IntDivNvMod, false, false},
		{"anvil", Mod, f32, IntDivNumPy, false, false},
		{"max", FloorDiv, i32, IntDivNumPy, false, false},
		{"max-graph", Mod, i32, IntDivNumPy, false, false},
		{"triton", FloorDiv, i32, IntDivNumPy, false, true},
	} {
		p := refsMust(t, c.policy)
		r, err := p.Binary(c.op, mineArr(c.d), mineArr(c.d))
		if err != nil {
			t.Errorf("%s: %s %s %s: %v", c.policy, c.d, c.op, c.d, err)
			continue
		}
		warn := (c.policy == "numpy" || c.policy == "numpy1") && c.d.IsInt()
		if r.WarnIntDiv != warn {
			t.Errorf("%s: %s %s %s: WarnIntDiv %v, want %v", c.policy, c.d, c.op, c.d, r.WarnIntDiv, warn)
		}
		if r.IntDiv != c.rule || r.ZeroDivError != c.err || r.CDiv != c.cdiv {
			t.Errorf("%s: %s %s %s: IntDiv %d ZeroDivError %v CDiv %v; want %d %v %v", c.policy, c.d, c.op, c.d, r.IntDiv, r.ZeroDivError, r.CDiv, c.rule, c.err, c.cdiv)
		}
	}
}
