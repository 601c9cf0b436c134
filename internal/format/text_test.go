package format

import (
	"math"
	"strings"
	"testing"

	"github.com/tensorsh/tensorsh/backend"
	"github.com/tensorsh/tensorsh/dtypes"
)

// TestValuesTensorsh covers what numpy cannot print: the formats numpy has
// no float type for (their digits are the shortest that round-trip in the
// format itself), MAX's index and address, bools as true/false, and the
// Options.
func TestValuesTensorsh(t *testing.T) {
	tests := []struct {
		name string
		t    *backend.Tensor
		o    Options
		want string
	}{
		// bfloat16 0.1 is 0.10009765625: its shortest form is 0.1.
		{"bf16", bf16(sh(2), 0.1, 1.5), Options{}, "[0.1 1.5]"},
		{"bf16 pi", bf16(sh(1), math.Pi), Options{}, "[3.14]"},
		{"bf16 -0", bf16(sh(2), negZero, 2), Options{}, "[-0.  2.]"},
		// bfloat16 has 2 decimal digits of precision, so 100 and up go
		// scientific (numpy's rule: 10**min(8, precision)).
		{"bf16 cutoff", bf16(sh(2), 1, 100), Options{}, "[1.e+00 1.e+02]"},
		{"bf16 below cutoff", bf16(sh(2), 1, 99), Options{}, "[ 1. 99.]"},
		// float8_e4m3fn 448 is the largest value; its shortest form is 450
		// (448 is the closest e4m3 value to 450).
		{"e4m3", e4m3(sh(3), 0.1, 448, math.NaN()), Options{}, "[1.0e-01 4.5e+02     nan]"},
		{"e4m3 small", e4m3(sh(3), 1, 2, 3.5), Options{}, "[1.  2.  3.5]"},
		{"e5m2", e5m2(sh(3), 0.1, -2, inf), Options{}, "[ 0.09 -2.     inf]"},
		{"tf32", tf32(sh(2), 0.1, 1.0/3), Options{}, "[0.1    0.3333]"},
		{"tf32 large", tf32(sh(2), 1e30, -1e-30), Options{}, "[ 1.e+30 -1.e-30]"},
		{"index", ints(dtypes.Index, sh(2), 0, -1), Options{}, "[                   0 18446744073709551615]"},
		{"address", ints(dtypes.Address, sh(2, 2), 4096, 8, 16, 32), Options{}, "[[4096    8]\n [  16   32]]"},
		{"u8", ints(dtypes.U8, sh(3), 0, 255, 7), Options{}, "[  0 255   7]"},
		{"u16", ints(dtypes.U16, sh(2), 65535, 1), Options{}, "[65535     1]"},
		{"u32", ints(dtypes.U32, sh(2), 4294967295, 1), Options{}, "[4294967295          1]"},
		{"i16 2x3", ints(dtypes.I16, sh(2, 3), 1, 2, 3, 4, 5, 6), Options{}, "[[1 2 3]\n [4 5 6]]"},
		{"bool vector", bools(sh(2), true, false), Options{}, "[true false]"},
		{"bool all true", bools(sh(3), true, true, true), Options{}, "[true true true]"},
		{"bool matrix", bools(sh(2, 2), true, false, false, true), Options{}, "[[ true false]\n [false  true]]"},
		{"bool 0-d", bools(nil, true), Options{}, "true"},
		{"bool empty", bools(sh(0)), Options{}, "[]"},
		{"empty", f32(sh(0)), Options{}, "[]"},
		{"empty 3-D", ints(dtypes.I8, sh(2, 0, 3)), Options{}, "[]"},
		{"f32 0-d weak literal", f32(nil, 2.5), Options{}, "2.5"},
		{"f16 0-d", f16(nil, 65504), Options{}, "65500.0"},
		{"bf16 0-d", bf16(nil, 0.1), Options{}, "0.1"},
		{"e4m3 0-d nan", e4m3(nil, math.NaN()), Options{}, "nan"},
		{"c64 0-d", c64(nil, 1.5-2i), Options{}, "(1.5-2j)"},
		{"c128 0-d imaginary", c128(nil, 2i), Options{}, "2j"},
		{"c128 0-d nan", c128(nil, complex(nan, inf)), Options{}, "(nan+infj)"},
		{"i32 0-d", ints(dtypes.I32, nil, -4), Options{}, "-4"},
		{"size-1 dims", f64(sh(1, 1, 1), 7), Options{}, "[[[7.]]]"},
		// Options: elision threshold and edge items, never eliding, width.
		{"threshold", ints(dtypes.I64, sh(6), arangeInt(6)...), Options{Threshold: 5, EdgeItems: 1}, "[0 ... 5]"},
		{"threshold 2-D", ints(dtypes.I64, sh(3, 4), arangeInt(12)...), Options{Threshold: 5, EdgeItems: 1}, "[[ 0 ...  3]\n ...\n [ 8 ... 11]]"},
		{"at threshold", ints(dtypes.I64, sh(5), arangeInt(5)...), Options{Threshold: 5, EdgeItems: 1}, "[0 1 2 3 4]"},
		{"default width 80", ints(dtypes.I64, sh(30), arangeInt(30)...), Options{},
			"[ 0  1  2  3  4  5  6  7  8  9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25\n 26 27 28 29]"},
		{"narrow", ints(dtypes.I64, sh(5), 10, 20, 30, 40, 50), Options{Width: 8}, "[10 20\n 30 40\n 50]"},
		{"too narrow for one item", ints(dtypes.I64, sh(2), 12345, 67890), Options{Width: 3}, "[12345\n 67890]"},
	}
	for _, tc := range tests {
		if got := Values(tc.t, tc.o); got != tc.want {
			t.Errorf("%s:\ngot:\n%s\nwant:\n%s", tc.name, got, tc.want)
		}
	}
}

func TestValuesNeverElide(t *testing.T) {
	got := Values(ints(dtypes.I64, sh(2000), arangeInt(2000)...), Options{Threshold: math.MaxInt, Width: 1 << 20})
	if strings.Contains(got, "...") || !strings.HasSuffix(got, " 1998 1999]") || len(strings.Fields(got)) != 2001 {
		t.Errorf("Threshold MaxInt elided or lost items: %.80s…", got)
	}
}

// TestValuesLineWidth checks that no line passes the width when the items
// fit.
func TestValuesLineWidth(t *testing.T) {
	for _, w := range []int{20, 40, 75, 80, 120} {
		for _, tt := range []*backend.Tensor{
			f64(sh(200), arange(200, 0.37)...),
			ints(dtypes.I64, sh(7, 50), arangeInt(350)...),
			c128(sh(30), make([]complex128, 30)...),
		} {
			for _, line := range strings.Split(Values(tt, Options{Width: w}), "\n") {
				if len(line) > w {
					t.Errorf("width %d: line of %d columns: %q", w, len(line), line)
				}
			}
		}
	}
}

func TestTypeLine(t *testing.T) {
	tests := []struct {
		typ    dtypes.Type
		shape  []int
		device string
		color  bool
		want   string
	}{
		{dtypes.Weak(dtypes.F32), sh(3), "cpu", false, "f32?[3] cpu"},
		{dtypes.Strong(dtypes.I16), sh(2, 3), "cpu", false, "i16[2,3] cpu"},
		{dtypes.Weak(dtypes.I32), nil, "cpu", false, "i32? cpu"},
		{dtypes.Weak(dtypes.F32), sh(), "", false, "f32?"},
		{dtypes.Strong(dtypes.F8E4M3), sh(0), "cuda", false, "f8e4m3[0] cuda"},
		{dtypes.Strong(dtypes.Bool), sh(1, 1, 1), "cpu", false, "bool[1,1,1] cpu"},
		{dtypes.Weak(dtypes.F32), sh(3), "cpu", true, "\x1b[36mf32\x1b[0m\x1b[1;33m?\x1b[0m[3] \x1b[2mcpu\x1b[0m"},
		{dtypes.Strong(dtypes.I64), nil, "", true, "\x1b[36mi64\x1b[0m"},
	}
	for _, tc := range tests {
		got := TypeLine(tc.typ, tc.shape, tc.device, Options{Color: tc.color})
		if got != tc.want {
			t.Errorf("TypeLine(%v, %v, %q, color %v) = %q, want %q", tc.typ, tc.shape, tc.device, tc.color, got, tc.want)
		}
		if !tc.color && strings.Contains(got, "\x1b") {
			t.Errorf("TypeLine without colour has an escape: %q", got)
		}
	}
}

func TestShapeString(t *testing.T) {
	for _, tc := range []struct {
		shape []int
		want  string
	}{{nil, "[]"}, {sh(3), "[3]"}, {sh(2, 0, 4), "[2,0,4]"}} {
		if got := ShapeString(tc.shape); got != tc.want {
			t.Errorf("ShapeString(%v) = %q, want %q", tc.shape, got, tc.want)
		}
	}
}

// TestCheck covers malformed tensors: every function reports them instead
// of panicking.
func TestCheck(t *testing.T) {
	tests := []struct {
		name string
		t    *backend.Tensor
		want string // substring of the error; "" for a valid tensor
	}{
		{"valid", f32(sh(2), 1, 2), ""},
		{"valid 0-d nil shape", &backend.Tensor{DType: dtypes.F64, Data: []float64{1}}, ""},
		{"valid f16 bits", tensor(dtypes.F16, sh(1), []uint16{0x3c00}), ""},
		{"valid index", tensor(dtypes.Index, sh(1), []uint64{1}), ""},
		{"nil", nil, "nil tensor"},
		{"invalid dtype", &backend.Tensor{DType: dtypes.Invalid, Data: []float64{1}}, "invalid dtype"},
		{"out of range dtype", &backend.Tensor{DType: dtypes.NumDTypes + 3, Data: []float64{1}}, "invalid dtype"},
		{"wrong slice type", tensor(dtypes.F16, sh(1), []float32{1}), "f16 tensor holds []float32"},
		{"nil data", tensor(dtypes.I32, sh(1), nil), "holds <nil>"},
		{"too few", tensor(dtypes.I32, sh(2, 2), []int32{1, 2, 3}), "has 3 elements, want 4"},
		{"0-d empty", tensor(dtypes.I32, nil, []int32{}), "has 0 elements, want 1"},
		{"negative dim", tensor(dtypes.I32, sh(-1), []int32{}), "negative dimension"},
		{"overflowing shape", tensor(dtypes.I32, sh(math.MaxInt/2, 3), []int32{}), "too large"},
	}
	for _, tc := range tests {
		err := Check(tc.t)
		if tc.want == "" {
			if err != nil {
				t.Errorf("%s: Check = %v", tc.name, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: Check = %v, want an error containing %q", tc.name, err, tc.want)
			continue
		}
		if got := Values(tc.t, Options{}); got != "<"+err.Error()+">" {
			t.Errorf("%s: Values = %q", tc.name, got)
		}
		if got := Scalar(tc.t); got != "<"+err.Error()+">" {
			t.Errorf("%s: Scalar = %q", tc.name, got)
		}
		if _, jerr := JSON(tc.t, dtypes.Strong(dtypes.I32)); jerr == nil {
			t.Errorf("%s: JSON gave no error", tc.name)
		}
		if h := HTML(tc.t, dtypes.Strong(dtypes.I32), "cpu"); !strings.Contains(h, "tsh-error") {
			t.Errorf("%s: HTML shows no error: %s", tc.name, h)
		}
	}
	if got := Scalar(f32(sh(0))); got != "<format: no element>" {
		t.Errorf("Scalar of an empty tensor = %q", got)
	}
}
