package format

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/tensorsh/tensorsh/backend"
	"github.com/tensorsh/tensorsh/dtypes"
)

func TestJSON(t *testing.T) {
	tests := []struct {
		name string
		t    *backend.Tensor
		weak bool
		want string
	}{
		{"spec example", f32(sh(3), 2.5, 3.5, 4.5), true,
			`{"dtype":"float32","weak":true,"shape":[3],"values":[2.5,3.5,4.5]}`},
		{"f32 0.1", f32(sh(2), 0.1, 1), false,
			`{"dtype":"float32","weak":false,"shape":[2],"values":[0.1,1.0]}`},
		{"f16 0.1", f16(sh(1), 0.1), false,
			`{"dtype":"float16","weak":false,"shape":[1],"values":[0.1]}`},
		{"f64 0.1", f64(sh(1), 0.1), false,
			`{"dtype":"float64","weak":false,"shape":[1],"values":[0.1]}`},
		{"bf16", bf16(sh(2), 0.1, -3), false,
			`{"dtype":"bfloat16","weak":false,"shape":[2],"values":[0.1,-3.0]}`},
		{"e4m3", e4m3(sh(3), 0.1, 448, math.NaN()), false,
			`{"dtype":"float8_e4m3fn","weak":false,"shape":[3],"values":[0.1,450.0,"nan"]}`},
		{"e5m2", e5m2(sh(2), -inf, 57344), false,
			`{"dtype":"float8_e5m2","weak":false,"shape":[2],"values":["-inf",60000.0]}`},
		{"tf32", tf32(sh(1), 0.1), true,
			`{"dtype":"tensor_float32","weak":true,"shape":[1],"values":[0.1]}`},
		{"non-finite", f64(sh(4), nan, inf, -inf, negZero), false,
			`{"dtype":"float64","weak":false,"shape":[4],"values":["nan","inf","-inf",-0.0]}`},
		{"large and small", f64(sh(3), 1e16, 2.5e-5, 1e23), false,
			`{"dtype":"float64","weak":false,"shape":[3],"values":[1e+16,2.5e-05,1e+23]}`},
		{"0-d", f32(nil, 2.5), true,
			`{"dtype":"float32","weak":true,"shape":[],"values":2.5}`},
		{"0-d int", ints(dtypes.I32, nil, -4), true,
			`{"dtype":"int32","weak":true,"shape":[],"values":-4}`},
		{"2-D", ints(dtypes.I16, sh(2, 3), 1, 2, 3, 4, 5, 6), false,
			`{"dtype":"int16","weak":false,"shape":[2,3],"values":[[1,2,3],[4,5,6]]}`},
		{"3-D", ints(dtypes.U8, sh(2, 1, 2), 1, 2, 3, 4), false,
			`{"dtype":"uint8","weak":false,"shape":[2,1,2],"values":[[[1,2]],[[3,4]]]}`},
		{"empty", f32(sh(0)), false,
			`{"dtype":"float32","weak":false,"shape":[0],"values":[]}`},
		{"empty rows", f32(sh(2, 0)), false,
			`{"dtype":"float32","weak":false,"shape":[2,0],"values":[[],[]]}`},
		{"empty outer", f32(sh(0, 2)), false,
			`{"dtype":"float32","weak":false,"shape":[0,2],"values":[]}`},
		{"u64 max", u64(sh(2), math.MaxUint64, 0), false,
			`{"dtype":"uint64","weak":false,"shape":[2],"values":[18446744073709551615,0]}`},
		{"i64 min", ints(dtypes.I64, sh(1), math.MinInt64), false,
			`{"dtype":"int64","weak":false,"shape":[1],"values":[-9223372036854775808]}`},
		{"index", ints(dtypes.Index, sh(1), 7), false,
			`{"dtype":"index","weak":false,"shape":[1],"values":[7]}`},
		{"address", ints(dtypes.Address, sh(1), 4096), false,
			`{"dtype":"address","weak":false,"shape":[1],"values":[4096]}`},
		{"bool", bools(sh(2), true, false), true,
			`{"dtype":"bool","weak":true,"shape":[2],"values":[true,false]}`},
		{"c64", c64(sh(2), 1+2i, complex(0.1, nan)), false,
			`{"dtype":"complex64","weak":false,"shape":[2],"values":[[1.0,2.0],[0.1,"nan"]]}`},
		{"c128 0-d", c128(nil, complex(negZero, -inf)), true,
			`{"dtype":"complex128","weak":true,"shape":[],"values":[-0.0,"-inf"]}`},
	}
	for _, tc := range tests {
		got, err := JSON(tc.t, dtypes.Type{DType: tc.t.DType, Weak: tc.weak})
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if string(got) != tc.want {
			t.Errorf("%s:\ngot  %s\nwant %s", tc.name, got, tc.want)
		}
		if !json.Valid(got) {
			t.Errorf("%s: invalid JSON %s", tc.name, got)
		}
	}
}

func TestJSONTypeMismatch(t *testing.T) {
	_, err := JSON(f32(sh(1), 1), dtypes.Weak(dtypes.F64))
	if err == nil || !strings.Contains(err.Error(), "does not match") {
		t.Errorf("JSON with the wrong dtype: err = %v", err)
	}
}

// TestJSONRoundTrip checks that every float JSON writes is valid JSON and
// reads back to the same value of its dtype, for random bit patterns of
// each float format.
func TestJSONRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	type gen struct {
		d    dtypes.DType
		make func() (*backend.Tensor, []float64)
	}
	const n = 3000
	gens := []gen{
		{dtypes.F16, func() (*backend.Tensor, []float64) {
			s, v := make([]uint16, n), make([]float64, n)
			for i := range s {
				s[i] = uint16(r.Uint32())
				v[i] = dtypes.F16ToFloat64(s[i])
			}
			return tensor(dtypes.F16, sh(n), s), v
		}},
		{dtypes.BF16, func() (*backend.Tensor, []float64) {
			s, v := make([]uint16, n), make([]float64, n)
			for i := range s {
				s[i] = uint16(r.Uint32())
				v[i] = dtypes.BF16ToFloat64(s[i])
			}
			return tensor(dtypes.BF16, sh(n), s), v
		}},
		{dtypes.F8E4M3, func() (*backend.Tensor, []float64) {
			s, v := make([]uint8, 256), make([]float64, 256)
			for i := range s {
				s[i] = uint8(i)
				v[i] = dtypes.F8E4M3ToFloat64(s[i])
			}
			return tensor(dtypes.F8E4M3, sh(256), s), v
		}},
		{dtypes.F8E5M2, func() (*backend.Tensor, []float64) {
			s, v := make([]uint8, 256), make([]float64, 256)
			for i := range s {
				s[i] = uint8(i)
				v[i] = dtypes.F8E5M2ToFloat64(s[i])
			}
			return tensor(dtypes.F8E5M2, sh(256), s), v
		}},
		{dtypes.TF32, func() (*backend.Tensor, []float64) {
			s, v := make([]float32, n), make([]float64, n)
			for i := range s {
				s[i] = dtypes.TF32Round(math.Float32frombits(r.Uint32()))
				v[i] = float64(s[i])
			}
			return tensor(dtypes.TF32, sh(n), s), v
		}},
		{dtypes.F32, func() (*backend.Tensor, []float64) {
			s, v := make([]float32, n), make([]float64, n)
			for i := range s {
				s[i] = math.Float32frombits(r.Uint32())
				v[i] = float64(s[i])
			}
			return tensor(dtypes.F32, sh(n), s), v
		}},
		{dtypes.F64, func() (*backend.Tensor, []float64) {
			s := make([]float64, n)
			for i := range s {
				s[i] = math.Float64frombits(r.Uint64())
			}
			return tensor(dtypes.F64, sh(n), s), s
		}},
	}
	for _, g := range gens {
		tt, want := g.make()
		b, err := JSON(tt, dtypes.Strong(g.d))
		if err != nil {
			t.Fatalf("%v: %v", g.d, err)
		}
		var obj struct {
			Values []json.RawMessage `json:"values"`
		}
		if err := json.Unmarshal(b, &obj); err != nil {
			t.Fatalf("%v: %v", g.d, err)
		}
		for i, raw := range obj.Values {
			w := want[i]
			s := string(raw)
			if math.IsNaN(w) || math.IsInf(w, 0) {
				if ws := strconv.Quote(floatRepr(w, floatFormatOf(g.d), false)); s != ws {
					t.Errorf("%v %v: got %s, want %s", g.d, w, s, ws)
				}
				continue
			}
			x, err := strconv.ParseFloat(s, 64)
			if err != nil {
				t.Errorf("%v %v: %s is not a number", g.d, w, s)
				continue
			}
			// Parse exactly, then round once to the format.
			back := roundTo(g.d, s, x)
			if back != w || math.Signbit(back) != math.Signbit(w) {
				t.Errorf("%v: %v printed as %s reads back as %v", g.d, w, s, back)
			}
		}
	}
}

// roundTo returns the decimal s rounded to the float dtype d. ParseFloat
// rounds s to float64 first; the double rounding is harmless here because
// the printed decimals lie strictly inside (or on a tie-to-even end of) the
// format's rounding interval, far from float64's own ties.
func roundTo(d dtypes.DType, s string, x float64) float64 {
	switch d {
	case dtypes.F32:
		y, _ := strconv.ParseFloat(s, 32)
		return float64(float32(y))
	case dtypes.F64:
		return x
	case dtypes.TF32:
		y, _ := strconv.ParseFloat(s, 32)
		return float64(dtypes.TF32Round(float32(y)))
	}
	return dtypes.FloatFromFloat64(d, x)
}

func TestDTypeJSON(t *testing.T) {
	tests := []struct {
		typ  dtypes.Type
		want string
	}{
		{dtypes.Strong(dtypes.I16), `{"kind":"dtype","dtype":"int16","weak":false}`},
		{dtypes.Weak(dtypes.F32), `{"kind":"dtype","dtype":"float32","weak":true}`},
		{dtypes.Strong(dtypes.F8E4M3), `{"kind":"dtype","dtype":"float8_e4m3fn","weak":false}`},
		{dtypes.Strong(dtypes.TF32), `{"kind":"dtype","dtype":"tensor_float32","weak":false}`},
		{dtypes.Weak(dtypes.Index), `{"kind":"dtype","dtype":"index","weak":true}`},
	}
	for _, tc := range tests {
		if got := string(DTypeJSON(tc.typ)); got != tc.want {
			t.Errorf("DTypeJSON(%v) = %s, want %s", tc.typ, got, tc.want)
		}
	}
}

func TestErrorJSON(t *testing.T) {
	tests := []struct {
		msg, pos, want string
	}{
		{"numpy: Python int 200 is out of bounds for int8", "1:11",
			`{"error":"numpy: Python int 200 is out of bounds for int8","pos":"1:11"}`},
		{`<stdin:3>: "quoted" & back\slash`, "1:9",
			`{"error":"<stdin:3>: \"quoted\" & back\\slash","pos":"1:9"}`},
		{"line one\nline two\ttab", "", `{"error":"line one\nline two\ttab"}`},
		{"cuda backend unavailable", "", `{"error":"cuda backend unavailable"}`},
	}
	for _, tc := range tests {
		got := ErrorJSON(tc.msg, tc.pos)
		if string(got) != tc.want {
			t.Errorf("ErrorJSON(%q, %q) = %s, want %s", tc.msg, tc.pos, got, tc.want)
		}
		var obj map[string]string
		if err := json.Unmarshal(got, &obj); err != nil || obj["error"] != tc.msg || obj["pos"] != tc.pos {
			t.Errorf("ErrorJSON(%q, %q) reads back as %v (%v)", tc.msg, tc.pos, obj, err)
		}
		if bytes.ContainsRune(got, '\n') {
			t.Errorf("ErrorJSON(%q) is not one line", tc.msg)
		}
	}
}
