package backend

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tensorsh/tensorsh/dtypes"
)

// TestStorage checks NewStorage and CheckStorage against the table of the
// CPU form at Tensor. complex32 is c10::complex<c10::Half> (PyTorch's
// c10/util/complex.h: the real part, then the imaginary part, each a
// float16), so 32 bits an element.
func TestStorage(t *testing.T) {
	want := map[dtypes.DType]string{
		dtypes.Bool: "[]bool",
		dtypes.I8:   "[]int8", dtypes.I16: "[]int16", dtypes.I32: "[]int32", dtypes.I64: "[]int64",
		dtypes.U8: "[]uint8", dtypes.U16: "[]uint16", dtypes.U32: "[]uint32", dtypes.U64: "[]uint64",
		dtypes.Index: "[]uint64", dtypes.Address: "[]uint64",
		dtypes.F16: "[]uint16", dtypes.BF16: "[]uint16", dtypes.F8E4M3: "[]uint8", dtypes.F8E5M2: "[]uint8",
		dtypes.F32: "[]float32", dtypes.TF32: "[]float32", dtypes.F64: "[]float64",
		dtypes.C32: "[]uint32", dtypes.C64: "[]complex64", dtypes.C128: "[]complex128",
	}
	for _, d := range dtypes.All {
		s := NewStorage(d, 3)
		if got := fmt.Sprintf("%T", s); got != want[d] {
			t.Errorf("NewStorage(%v) is %s, want %s", d, got, want[d])
		}
		if err := CheckStorage(d, s, 3); err != nil {
			t.Errorf("%v: %v", d, err)
		}
		if err := CheckStorage(d, s, 2); err == nil || err.Error() != "tensor of 2 elements holds 3" {
			t.Errorf("%v with 2 elements: %v", d, err)
		}
		for _, o := range dtypes.All {
			if want[o] == want[d] {
				continue
			}
			if err := CheckStorage(d, NewStorage(o, 3), 3); err == nil || !strings.HasPrefix(err.Error(), "tensor of dtype "+d.String()+" holds") {
				t.Errorf("%v storage passes for %v: %v", o, d, err)
			}
		}
	}
	if err := CheckStorage(dtypes.Invalid, []bool{}, 0); err == nil {
		t.Errorf("invalid dtype accepted")
	}
}
