package cpu

import (
	"testing"

	"github.com/tensorsh/tensorsh/dtypes"
)

// TestCastInt8ToNarrowExact checks the unrounded conversion of 8-bit
// integers to float16 and bfloat16 against the rounding one, on every
// value: each is exact (NumPy's int8/uint8 → float16 casts,
// numpy/_core/src/multiarray/lowlevel_strided_loops.c.src, and
// ml_dtypes' bfloat16 conversions round, and here have nothing to round).
func TestCastInt8ToNarrowExact(t *testing.T) {
	initTables() // the float16 table the expected values are read through (run alone, no other test made it)
	for _, to := range []dtypes.DType{dtypes.F16, dtypes.BF16} {
		i8 := make([]int8, 256)
		u8 := make([]uint8, 256)
		for i := range 256 {
			i8[i], u8[i] = int8(i-128), uint8(i)
		}
		for _, tc := range []struct {
			name string
			k    kfn
			in   any
			at   func(i int) float64
		}{
			{"i8", fromInt[int8](to), i8, func(i int) float64 { return float64(i8[i]) }},
			{"u8", fromInt[uint8](to), u8, func(i int) float64 { return float64(u8[i]) }},
		} {
			d := make([]float32, 256)
			if err := tc.k(d, []any{tc.in}); err != nil {
				t.Fatal(err)
			}
			for i, got := range d {
				if want := roundTo64(to, tc.at(i)); got != want || float64(got) != tc.at(i) {
					t.Errorf("%s %v → %v: %v, want %v", tc.name, tc.at(i), to, got, want)
				}
			}
		}
	}
}
