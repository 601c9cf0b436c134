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
			`{"dtype":"float32","weak":false,"shape":[2],"values":[0.10000000149011612,1.0]}`},
		{"f16 0.1", f16(sh(1), 0.1), false,
			`{"dtype":"float16","weak":false,"shape":[1],"values":[0.0999755859375]}`},
		{"f64 0.1", f64(sh(1), 0.1), false,
			`{"dtype":"float64","weak":false,"shape":[1],"values":[0.1]}`},
		{"bf16", bf16(sh(2), 0.1, -3), false,
			`{"dtype":"bfloat16","weak":false,"shape":[2],"values":[0.10009765625,-3.0]}`},
		{"e4m3", e4m3(sh(3), 0.1, 448, math.NaN()), false,
			`{"dtype":"float8_e4m3fn","weak":false,"shape":[3],"values":[0.1015625,448.0,"nan"]}`},
		{"e5m2", e5m2(sh(2), -inf, 57344), false,
			`{"dtype":"float8_e5m2","weak":false,"shape":[2],"values":["-inf",57344.0]}`},
		{"tf32", tf32(sh(1), 0.1), true,
			`{"dtype":"tensor_float32","weak":true,"shape":[1],"values":[0.0999755859375]}`},
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
			`{"dtype":"complex64","weak":false,"shape":[2],"values":[[1.0,2.0],[0.10000000149011612,"nan"]]}`},
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

// TestJSONRoundTrip checks that JSON writes each float's exact stored
// value: every number it writes parses (as float64, like json.loads or
// Go's encoding/json) to exactly float64(stored), for every bit pattern of
// the 8- and 16-bit formats and for random and edge bit patterns of the
// wider ones. NumPy's tolist() gives these float64 values, and json.dumps
// writes them with Python's repr.
func TestJSONRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	const n = 20000
	// Edge bit patterns of float32 (and so tf32 after rounding): zeros,
	// the smallest and largest subnormals and normals, the largest finite
	// value, 2^24 ± 1 ulp, 2^53 (9007199254740992), 1/3.
	edges32 := []uint32{0, 0x80000000, 1, 0x007fffff, 0x00800000, 0x7f7fffff, 0xff7fffff,
		0x4b800000, 0x4b800001, 0x4b7fffff, 0x5a000000, 0x3eaaaaab, 0x3dcccccd}
	edges64 := []uint64{0, 1 << 63, 1, 0x000fffffffffffff, 0x0010000000000000, 0x7fefffffffffffff,
		0x4340000000000000, 0x3fd5555555555555, 0x3fb999999999999a, 0x44b52d02c7e14af6}
	type gen struct {
		d    dtypes.DType
		make func() (*backend.Tensor, []float64)
	}
	gens := []gen{
		{dtypes.F16, func() (*backend.Tensor, []float64) {
			s, v := make([]uint16, 1<<16), make([]float64, 1<<16)
			for i := range s {
				s[i] = uint16(i)
				v[i] = dtypes.F16ToFloat64(s[i])
			}
			return tensor(dtypes.F16, sh(len(s)), s), v
		}},
		{dtypes.BF16, func() (*backend.Tensor, []float64) {
			s, v := make([]uint16, 1<<16), make([]float64, 1<<16)
			for i := range s {
				s[i] = uint16(i)
				v[i] = dtypes.BF16ToFloat64(s[i])
			}
			return tensor(dtypes.BF16, sh(len(s)), s), v
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
				b := r.Uint32()
				if i < len(edges32) {
					b = edges32[i]
				}
				s[i] = dtypes.TF32Round(math.Float32frombits(b))
				v[i] = float64(s[i])
			}
			return tensor(dtypes.TF32, sh(n), s), v
		}},
		{dtypes.F32, func() (*backend.Tensor, []float64) {
			s, v := make([]float32, n), make([]float64, n)
			for i := range s {
				b := r.Uint32()
				if i < len(edges32) {
					b = edges32[i]
				}
				s[i] = math.Float32frombits(b)
				v[i] = float64(s[i])
			}
			return tensor(dtypes.F32, sh(n), s), v
		}},
		{dtypes.F64, func() (*backend.Tensor, []float64) {
			s := make([]float64, n)
			for i := range s {
				b := r.Uint64()
				if i < len(edges64) {
					b = edges64[i]
				}
				s[i] = math.Float64frombits(b)
			}
			return tensor(dtypes.F64, sh(n), s), s
		}},
		{dtypes.C64, func() (*backend.Tensor, []float64) {
			s, v := make([]complex64, n/2), make([]float64, n)
			for i := range s {
				re, im := math.Float32frombits(r.Uint32()), math.Float32frombits(r.Uint32())
				s[i] = complex(re, im)
				v[2*i], v[2*i+1] = float64(re), float64(im)
			}
			return tensor(dtypes.C64, sh(n/2), s), v
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
		var got []json.RawMessage
		for _, raw := range obj.Values {
			if g.d.IsComplex() {
				var pair []json.RawMessage
				if err := json.Unmarshal(raw, &pair); err != nil || len(pair) != 2 {
					t.Fatalf("%v: %s is not a [re, im] pair", g.d, raw)
				}
				got = append(got, pair...)
				continue
			}
			got = append(got, raw)
		}
		if len(got) != len(want) {
			t.Fatalf("%v: %d numbers, want %d", g.d, len(got), len(want))
		}
		bad := 0
		for i, raw := range got {
			w := want[i]
			s := string(raw)
			if math.IsNaN(w) || math.IsInf(w, 0) {
				if ws := strconv.Quote(floatRepr(w, floatFormatOf(dtypes.F64), false)); s != ws {
					t.Errorf("%v %v: got %s, want %s", g.d, w, s, ws)
				}
				continue
			}
			var x float64
			if err := json.Unmarshal(raw, &x); err != nil {
				t.Errorf("%v %v: %s is not a number", g.d, w, s)
				continue
			}
			if x != w || math.Signbit(x) != math.Signbit(w) {
				if bad++; bad <= 10 {
					t.Errorf("%v: stored %v (float64 %s) printed as %s, which reads back as %v",
						g.d, w, strconv.FormatFloat(w, 'g', -1, 64), s, x)
				}
			}
			// Shortest: Go's 'g' -1 is the shortest float64 round trip; the
			// printed decimal must not carry more significant digits.
			if digits(s) > digits(strconv.FormatFloat(w, 'e', -1, 64)) {
				t.Errorf("%v: %s is longer than the shortest float64 form of %v", g.d, s, w)
			}
		}
	}
}

// digits counts the significant digits of a decimal number.
func digits(s string) int {
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		s = s[:i]
	}
	s = strings.TrimLeft(strings.ReplaceAll(strings.TrimLeft(s, "-"), ".", ""), "0")
	s = strings.TrimRight(s, "0")
	if s == "" {
		return 1
	}
	return len(s)
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
