package eval

import (
	"reflect"
	"testing"

	"github.com/tensorsh/tensorsh/dtypes"
	"github.com/tensorsh/tensorsh/promote"
)

// TestFillRange checks arange's typed loops against the element-by-element
// setScalar they replace, on every dtype they take, for integer and float
// ranges with wrap-around, rounding to float32 and large starts.
func TestFillRange(t *testing.T) {
	for _, c := range []struct {
		ints        bool
		start, step float64
		n           int
	}{
		{true, 0, 1, 1000}, {true, -5, 3, 200}, {true, 100, -7, 300}, {true, 1 << 40, 1 << 20, 50},
		{true, 16777215, 1, 10}, {true, -1 << 62, 1 << 61, 8},
		{false, 0.1, 0.1, 999}, {false, 1e8, 1.1, 500}, {false, -3.5, 0.25, 100}, {false, 1.5, 1.3, 1000},
		// Several chunks, filled in parallel (chunked).
		{true, -7, 3, 200003}, {true, 1 << 62, 1 << 60, 140000}, {false, 0.1, 0.1, 200003},
	} {
		for _, d := range []dtypes.DType{dtypes.I64, dtypes.I32, dtypes.I16, dtypes.I8, dtypes.U8, dtypes.F64, dtypes.F32, dtypes.F16, dtypes.U32} {
			got := newTensor(d, []int{c.n})
			// Floats into integers (truncation, NaN rules) and the
			// dtypes without a typed loop go through setScalar.
			declines := d == dtypes.F16 || d == dtypes.U32 || !c.ints && !d.IsFloat()
			if ok := fillRange(got, c.ints, c.start, c.step); ok == declines {
				t.Errorf("fillRange(%v, ints %v) = %v, want %v", d, c.ints, ok, !declines)
				continue
			} else if !ok {
				continue
			}
			want := newTensor(d, []int{c.n})
			for i := range c.n {
				if c.ints {
					setScalar(want, i, promote.Int64Value(int64(c.start)+int64(i)*int64(c.step)))
				} else {
					setScalar(want, i, promote.FloatValue(c.start+float64(i)*c.step))
				}
			}
			if !reflect.DeepEqual(got.Data, want.Data) {
				t.Errorf("fillRange(%v, %+v) differs from setScalar", d, c)
			}
		}
	}
	// The float32 rounding of an integer above 2^24 is the direct one.
	tt := newTensor(dtypes.F32, []int{1})
	fillRange(tt, true, 1<<24+1, 1)
	if v := tt.Data.([]float32)[0]; v != 1<<24 {
		t.Errorf("float32(2^24+1) = %v, want 2^24 (to even)", v)
	}
}

// TestFillNumPyRangeChunks checks NumPy's arange fill over several chunks
// (filled in parallel) against its formula element by element: b0 +
// i·delta in the dtype's arithmetic.
func TestFillNumPyRangeChunks(t *testing.T) {
	const n = 300001
	for _, d := range []dtypes.DType{dtypes.F64, dtypes.F32, dtypes.F16} {
		tt := newTensor(d, []int{n})
		if !fillNumPyRange(tt, promote.FloatValue(0.5), promote.FloatValue(0.1)) {
			t.Fatalf("%v: not filled", d)
		}
		switch x := tt.Data.(type) {
		case []float64:
			b0, delta := x[0], x[1]-x[0]
			for i := 2; i < n; i++ {
				if w := b0 + float64(float64(i)*delta); x[i] != w {
					t.Fatalf("float64 [%d] = %v, want %v", i, x[i], w)
				}
			}
		case []float32:
			b0, delta := x[0], x[1]-x[0]
			for i := 2; i < n; i++ {
				if w := b0 + float32(float32(i)*delta); x[i] != w {
					t.Fatalf("float32 [%d] = %v, want %v", i, x[i], w)
				}
			}
		case []uint16:
			b0 := float32(dtypes.F16ToFloat64(x[0]))
			delta := float32(dtypes.F16ToFloat64(x[1])) - b0
			for i := 2; i < n; i++ {
				if w := dtypes.F16FromFloat64(float64(b0 + float32(float32(i)*delta))); x[i] != w {
					t.Fatalf("float16 [%d] = %#x, want %#x", i, x[i], w)
				}
			}
		}
	}
}

// TestAffineF32Past2p24 checks affineF32 across 2^24, where its float32
// count of indices stops being exact and it converts each index: every
// element is b + float32(float32(i)·s), i rounded to float32 first (as
// NumPy's fill converts it).
func TestAffineF32Past2p24(t *testing.T) {
	const lo, hi = 1<<24 - 9, 1<<24 + 11
	d := make([]float32, hi)
	b, s := float32(0.5), float32(0.1)
	affineF32(d, lo, b, s)
	for i := lo; i < hi; i++ {
		if w := b + float32(float32(i)*s); d[i] != w {
			t.Errorf("[%d] = %v, want %v", i, d[i], w)
		}
	}
	// Past 2^24 float32(i) rounds to even: i and i+1 share a value.
	if d[1<<24+1] != d[1<<24] {
		t.Errorf("[2^24+1] = %v, want [2^24]'s %v", d[1<<24+1], d[1<<24])
	}
}
