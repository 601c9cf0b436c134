package format

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/tensorsh/tensorsh/backend"
	"github.com/tensorsh/tensorsh/dtypes"
)

// randomTensor returns a tensor of dtype d with a random shape (up to 4-D,
// zero-sized dimensions included) and random bit patterns: every NaN,
// infinity, subnormal and extreme integer can turn up.
func randomTensor(r *rand.Rand, d dtypes.DType) *backend.Tensor {
	shape := make([]int, r.IntN(5))
	for i := range shape {
		shape[i] = r.IntN(6)
		if r.IntN(8) == 0 {
			shape[i] = 1 + r.IntN(40)
		}
	}
	n := backend.Size(shape)
	var data any
	switch d {
	case dtypes.Bool:
		s := make([]bool, n)
		for i := range s {
			s[i] = r.IntN(2) == 0
		}
		data = s
	case dtypes.I8:
		data = randSlice(r, n, func(u uint64) int8 { return int8(u) })
	case dtypes.I16:
		data = randSlice(r, n, func(u uint64) int16 { return int16(u) })
	case dtypes.I32:
		data = randSlice(r, n, func(u uint64) int32 { return int32(u) })
	case dtypes.I64:
		data = randSlice(r, n, func(u uint64) int64 { return int64(u) })
	case dtypes.U8, dtypes.F8E4M3, dtypes.F8E5M2:
		data = randSlice(r, n, func(u uint64) uint8 { return uint8(u) })
	case dtypes.U16, dtypes.F16, dtypes.BF16:
		data = randSlice(r, n, func(u uint64) uint16 { return uint16(u) })
	case dtypes.U32:
		data = randSlice(r, n, func(u uint64) uint32 { return uint32(u) })
	case dtypes.U64, dtypes.Index, dtypes.Address:
		data = randSlice(r, n, func(u uint64) uint64 { return u })
	case dtypes.F32:
		data = randSlice(r, n, func(u uint64) float32 { return randF32(u) })
	case dtypes.TF32:
		data = randSlice(r, n, func(u uint64) float32 { return dtypes.TF32Round(randF32(u)) })
	case dtypes.F64:
		data = randSlice(r, n, func(u uint64) float64 { return randF64(u) })
	case dtypes.C32:
		// Any bit pattern: two float16 parts.
		data = randSlice(r, n, func(u uint64) uint32 { return uint32(u) })
	case dtypes.C64:
		data = randSlice(r, n, func(u uint64) complex64 { return complex(randF32(u), randF32(u>>32|u<<32)) })
	case dtypes.C128:
		data = randSlice(r, n, func(u uint64) complex128 { return complex(randF64(u), randF64(u*0x9e3779b97f4a7c15)) })
	}
	return &backend.Tensor{DType: d, Shape: shape, Data: data}
}

func randSlice[T any](r *rand.Rand, n int, f func(uint64) T) []T {
	s := make([]T, n)
	for i := range s {
		s[i] = f(r.Uint64())
	}
	return s
}

// randF32 and randF64 mix raw bit patterns with ordinary values.
func randF32(u uint64) float32 {
	if u%3 == 0 {
		return float32(int64(u>>40)%2000) / 8
	}
	return math.Float32frombits(uint32(u))
}

func randF64(u uint64) float64 {
	if u%3 == 0 {
		return float64(int64(u>>40)%2000) / 8
	}
	return math.Float64frombits(u)
}

// TestRandomTensors formats random tensors of every dtype in every way and
// checks that nothing panics, JSON is valid with one value per element,
// HTML is well-formed and text lines keep to the width.
func TestRandomTensors(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 9))
	for iter := 0; iter < 400; iter++ {
		d := dtypes.All[r.IntN(len(dtypes.All))]
		tt := randomTensor(r, d)
		typ := dtypes.Type{DType: d, Weak: r.IntN(2) == 0}
		o := Options{Width: 20 + r.IntN(100), Threshold: 1 + r.IntN(300), EdgeItems: 1 + r.IntN(4)}
		text := Values(tt, o)
		if strings.HasPrefix(text, "<") {
			t.Fatalf("%v%v: %s", d, tt.Shape, text)
		}
		if tt.Len() > 0 {
			// Items wider than the line are the only reason to pass it.
			widest := 0
			for _, f := range strings.Fields(text) {
				widest = max(widest, len(f)+len(tt.Shape)+1)
			}
			for _, line := range strings.Split(text, "\n") {
				if len(line) > max(o.Width, widest+len(tt.Shape)) {
					t.Errorf("%v%v width %d: line %q", d, tt.Shape, o.Width, line)
				}
			}
		}
		b, err := JSON(tt, typ)
		if err != nil {
			t.Fatalf("%v%v: %v", d, tt.Shape, err)
		}
		var obj struct {
			DType  string          `json:"dtype"`
			Weak   bool            `json:"weak"`
			Shape  []int           `json:"shape"`
			Values json.RawMessage `json:"values"`
		}
		if err := json.Unmarshal(b, &obj); err != nil {
			t.Fatalf("%v%v: invalid JSON %s: %v", d, tt.Shape, b, err)
		}
		if obj.DType != d.FullName() || obj.Weak != typ.Weak || len(obj.Shape) != len(tt.Shape) {
			t.Errorf("%v%v: header %s %v %v", d, tt.Shape, obj.DType, obj.Weak, obj.Shape)
		}
		if got := countLeaves(t, obj.Values, len(tt.Shape)); got != tt.Len() {
			t.Errorf("%v%v: %d values in JSON, want %d", d, tt.Shape, got, tt.Len())
		}
		parseHTML(t, HTML(tt, typ, "cpu"))
		_ = TypeLine(typ, tt.Shape, "cpu", Options{Color: true})
	}
}

// countLeaves counts the elements of a JSON values field nested depth
// lists deep.
func countLeaves(t *testing.T, raw json.RawMessage, depth int) int {
	if depth == 0 {
		return 1
	}
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		t.Fatalf("values %s: %v", raw, err)
	}
	n := 0
	for _, it := range items {
		n += countLeaves(t, it, depth-1)
	}
	return n
}
