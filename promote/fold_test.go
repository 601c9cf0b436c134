package promote

import (
	"math/big"
	"strings"
	"testing"
)

// TestTypedFold pins literal arithmetic in C's and Julia's own types.
// C17 §6.4.4.1 (2147483647 is an int, 4294967295 a long), §6.5.5 (integer
// / and % truncate), §6.5p5 and §6.5.7 (signed overflow and shifts past
// the width are undefined). Julia: Int64 arithmetic wraps (base/int.jl,
// checked only by Base.Checked), / of integers is Float64, ÷ and rem
// truncate and a zero divisor throws DivideError (base/int.jl div), ^
// wraps (power_by_squaring), shifts past the width give 0 or -1
// (base/int.jl <<, >>), Bool + Bool is Int64 (base/bool.jl).
func TestTypedFold(t *testing.T) {
	i := func(v int64) Scalar { return Int64Value(v) }
	for _, tc := range []struct {
		policy string
		x      Scalar
		op     BinaryOp
		y      Scalar
		want   string // the value, or "error: " and a part of its text
	}{
		{"c", i(7), TrueDiv, i(2), "3"},
		{"c", i(-7), FloorDiv, i(2), "-3"},
		{"c", i(-7), Mod, i(2), "-1"},
		{"c", i(2147483647), Add, i(1), "error: undefined behavior"},
		{"c", i(4294967295), Mul, i(2), "8589934590"},
		{"c", i(1), Shl, i(40), "error: undefined behavior"},
		{"c", i(1), Shl, i(30), "1073741824"},
		{"c", i(7), FloorDiv, i(0), "error: undefined behavior"},
		{"c", FloatValue(1), TrueDiv, i(0), "+Inf"},
		{"julia", i(9223372036854775807), Add, i(1), "-9223372036854775808"},
		{"julia", i(7), TrueDiv, i(2), "3.5"},
		{"julia", i(-7), FloorDiv, i(2), "-3"},
		{"julia", i(-7), Mod, i(2), "-1"},
		{"julia", i(2), Pow, i(64), "0"},
		{"julia", i(1), FloorDiv, i(0), "error: DivideError"},
		{"julia", BoolValue(true), Add, BoolValue(true), "2"},
		{"julia", BoolValue(true), Mul, BoolValue(true), "True"},
		{"julia", i(1), Shl, i(70), "0"},
		{"julia", i(-1), Shr, i(70), "-1"},
		{"julia", FloatValue(-7.5), FloorDiv, i(2), "-3"},
	} {
		f := refsMust(t, tc.policy).(LiteralFolder)
		v, handled, err := f.FoldBinary(tc.op, tc.x, tc.y)
		what := tc.policy + ": " + tc.x.String() + " " + tc.op.String() + " " + tc.y.String()
		if want, ok := strings.CutPrefix(tc.want, "error: "); ok {
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("%s = %v, %v; want an error with %q", what, v, err, want)
			}
			continue
		}
		got := v.String()
		if v.Kind == FloatScalar {
			got = big.NewFloat(v.Float).Text('g', -1)
			if v.Float > 1e308 {
				got = "+Inf"
			}
		}
		if err != nil || !handled || got != tc.want {
			t.Errorf("%s = %s (handled %v), %v; want %s", what, got, handled, err, tc.want)
		}
	}
	// Comparisons are left to the host.
	if _, handled, _ := refsMust(t, "c").(LiteralFolder).FoldBinary(Lt, i(1), i(2)); handled {
		t.Error("c folds 1 < 2 itself")
	}
}
