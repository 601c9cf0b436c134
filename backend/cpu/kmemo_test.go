package cpu

import (
	"slices"
	"sync"
	"testing"

	"github.com/tensorsh/tensorsh/backend"
	"github.com/tensorsh/tensorsh/dtypes"
)

// TestKMemo checks that a memo makes its kernel once and keeps a nil
// kernel as made, and that the memoized kernels (vector, cast) are the
// ones made fresh: the same function for every statement, from many
// goroutines at once (run with -race).
func TestKMemo(t *testing.T) {
	var m kmemo
	made := 0
	mk := func() kfn { made++; return nil }
	for range 3 {
		if k := m.get(mk); k != nil {
			t.Fatal("a nil kernel came back non-nil")
		}
	}
	if made != 1 {
		t.Errorf("the nil kernel was made %d times, want 1", made)
	}

	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, o := range []backend.Op{backend.OpAdd, backend.OpMul, backend.OpExp, backend.OpTanh} {
				vectorF32Kernel(o)
				vectorF64Kernel(o)
				vectorIntKernel[int16](o)
			}
			if _, err := castKernel(dtypes.I16, dtypes.F32); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	d := make([]float32, 5)
	k, err := castKernel(dtypes.I16, dtypes.F32)
	if err != nil {
		t.Fatal(err)
	}
	if err := k(d, []any{[]int16{-3, 0, 1, 32767, -32768}}); err != nil {
		t.Fatal(err)
	}
	if want := []float32{-3, 0, 1, 32767, -32768}; !slices.Equal(d, want) {
		t.Errorf("memoized i16 → f32 cast gave %v, want %v", d, want)
	}
	if _, err := castKernel(dtypes.Invalid, dtypes.F32); err == nil {
		t.Error("a cast from an invalid dtype was not refused")
	}
}
