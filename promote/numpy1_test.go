package promote

import (
	"math"
	"strings"
	"testing"

	"github.com/tensorsh/tensorsh/dtypes"
)

// numpy1Refs checks the numpy1 policy against every cell of
// refs/numpy1.json: pairs of arrays, arrays meeting Python scalars, and
// arrays meeting 0-d arrays (scalar_scalar_arrays; the 0-d array holds one,
// which the cells pin: uint8 with a 0-d int8 stays uint8, so the value is
// non-negative, and int8 with a 0-d int64 stays int8, so it is small).
func numpy1Refs(t testing.TB, report func(string, ...any)) refsTally {
	p := refsMust(t, "numpy1")
	var n refsTally
	n.Add(refsCheck(t, report, p, "numpy1", "pairs", refsAsArray(p, false), refsAsArray(p, false), nil))
	n.Add(refsCheck(t, report, p, "numpy1", "array_scalar", refsAsArray(p, false), refsAsLiteral(p), nil))
	n.Add(refsCheck(t, report, p, "numpy1", "scalar_scalar_arrays", refsAsArray(p, false), refsAsZeroDim, nil))
	return n
}

func TestNumPy1Refs(t *testing.T) {
	n := numpy1Refs(t, t.Errorf)
	t.Logf("numpy1: %d cells checked, %d mismatches", n.Checked, n.Mismatches)
	if n.Checked != 196+140+196 {
		t.Errorf("numpy1: checked %d cells, want %d", n.Checked, 196+140+196)
	}
}

func TestNumPy1Binary(t *testing.T) {
	p := refsMust(t, "numpy1")
	const (
		b, i8, i16, i64, u8, u16 = dtypes.Bool, dtypes.I8, dtypes.I16, dtypes.I64, dtypes.U8, dtypes.U16
		f16, f32, f64, c64       = dtypes.F16, dtypes.F32, dtypes.F64, dtypes.C64
	)
	one, big300 := Int64Value(1), Int64Value(300)
	half := FloatValue(0.5)
	mineBinary(t, p, []mineBin{
		{mineArr(u8), Add, mineLit(p, 300), "u16", u16},
		{mineArr(f32), Add, mineLit(p, 1e300), "f64", 0},
		{mineArr(f32), Add, mineLit(p, 1e30), "f32", 0},
		// min_scalar_type of a float that is not finite is float16
		// (convert_datatype.c, min_scalar_type_num: "|| !npy_isfinite"):
		// np.ones(2, np.float32) + np.inf is float32.
		{mineArr(f32), Add, mineLit(p, math.Inf(1)), "f32", 0},
		{mineArr(f16), Mul, mineLit(p, math.NaN()), "f16", 0},
		{mineArr(f16), Add, mineLit(p, math.Inf(-1)), "f16", 0},
		// floor_divide, remainder, power and the bitwise operations take
		// the first loop of their list that both operands cast to (the
		// scalar by its value, PyUFunc_DefaultTypeResolver's linear
		// search): a positive scalar wider than an unsigned array that
		// also fits the signed type of its width takes that signed loop,
		// where result_type (add) takes the unsigned one. NumPy 1.24:
		// np.ones(2, np.uint8) // 256 is int16, + 256 is uint16.
		{mineArr(u8), FloorDiv, mineLit(p, 256), "i16", 0},
		{mineArr(u8), Add, mineLit(p, 256), "u16", 0},
		{mineArr(u16), Mod, mineLit(p, 65536), "i32", 0},
		{mineArr(u16), BitAnd, mineLit(p, 1<<32), "i64", 0},
		{mineArr(dtypes.U32), Pow, mineLit(p, 1<<32), "i64", 0},
		{mineArr(dtypes.U32), Shl, mineLit(p, 65536), "u32", 0},
		{mineArr(u8), BitOr, mineLit(p, 255), "u8", 0},
		{mineArr(i8), Add, mineZero(i64, &one), "i8", 0},
		{mineArr(i8), Add, mineZero(i64, &big300), "i16", 0},
		{mineArr(i8), Add, mineZero(i64, nil), "i64", 0},
		{mineArr(f16), Add, mineZero(f64, &half), "f16", 0},
		{mineArr(u8), Add, mineLit(p, -1), "i16", 0},
		{mineArr(u8), Add, mineLit(p, 1), "u8", 0},
		{mineArr(i8), Add, mineLit(p, 1.5), "f64", 0},
		{mineArr(f32), Add, mineLit(p, 1i), "c64", 0},
		{mineArr(b), Add, mineLit(p, 1), "i64", 0},
		{mineArr(b), Add, mineLit(p, minePow2(63)), "u64", 0},
		{mineArr(b), Add, mineLit(p, minePow2(64)), "error@1: does not fit any dtype", 0},
		{mineArr(f16), Add, mineLit(p, 300), "f32", 0},
		{mineZero(i8, &one), Add, mineLit(p, 300), "i64", 0},
		{mineLit(p, 1), Add, mineLit(p, 300), "i64?", 0},
		{mineZero(i16, &one), Add, mineZero(i8, &one), "i16", 0},
		{mineArr(i8), TrueDiv, mineArr(i8), "f64", f64},
		{mineArr(b), Sub, mineArr(b), "error@-1: boolean subtract", 0},
		{mineArr(i16), Lt, mineLit(p, 1.5), "bool", f64},
		{mineArr(c64), Mod, mineArr(c64), "error@-1: not supported for complex", 0},
		{mineArr(dtypes.BF16), Add, mineArr(f32), "error@0: no dtype bf16", 0},
		{mineArr(i16), Pow, mineLit(p, -2), "error@1: negative integer powers", 0},
	})
}

func TestNumPy1Unary(t *testing.T) {
	p := refsMust(t, "numpy1")
	const b, i8, i32, u8, f16, f64 = dtypes.Bool, dtypes.I8, dtypes.I32, dtypes.U8, dtypes.F16, dtypes.F64
	mineUnary(t, p, []mineUn{
		{Floor, mineArr(i8), "f16", f16},
		{Ceil, mineArr(i32), "f64", 0},
		{Trunc, mineArr(b), "f16", 0},
		{Round, mineArr(i8), "i8", 0},
		{Exp, mineArr(u8), "f16", 0},
		{Mean, mineArr(i8), "f64", f64},
		{Sum, mineArr(u8), "u64", 0},
		{ArgMax, mineArr(u8), "i64", 0},
	})
}

func TestNumPy1CheckLiteralConvert(t *testing.T) {
	p := refsMust(t, "numpy1")
	if len(p.DTypes()) != 14 {
		t.Errorf("numpy1 has %d dtypes, want 14", len(p.DTypes()))
	}
	for _, d := range []dtypes.DType{dtypes.BF16, dtypes.F8E4M3, dtypes.TF32} {
		if _, _, err := p.Check(d); err == nil || !strings.HasPrefix(err.Error(), "numpy1: no dtype") {
			t.Errorf("numpy1.Check(%s) = %v, want an error naming numpy1", d, err)
		}
	}
	if got, err := p.Literal(Int64Value(300)); err != nil || got != dtypes.Weak(dtypes.I64) {
		t.Errorf("numpy1.Literal(300) = %s, %v", got, err)
	}
	mineConvert(t, p, []mineConv{
		{Int64Value(300), dtypes.I8, ""},
		{FloatValue(1e300), dtypes.F16, ""},
		{IntValue(minePow2(70)), dtypes.I8, "too large"},
		{ComplexValue(1i), dtypes.F32, "cannot convert complex"},
	})
}
