package backend

import (
	"fmt"
	"reflect"
	"unsafe"

	"github.com/tensorsh/tensorsh/dtypes"
)

// NewStorage returns zeroed storage in the CPU form (see Tensor) for n
// elements of d, which must be valid.
func NewStorage(d dtypes.DType, n int) any {
	switch d {
	case dtypes.Bool:
		return make([]bool, n)
	case dtypes.I8:
		return make([]int8, n)
	case dtypes.I16:
		return make([]int16, n)
	case dtypes.I32:
		return make([]int32, n)
	case dtypes.I64:
		return make([]int64, n)
	case dtypes.U8, dtypes.F8E4M3, dtypes.F8E5M2:
		return make([]uint8, n)
	case dtypes.U16, dtypes.F16, dtypes.BF16:
		return make([]uint16, n)
	case dtypes.U32, dtypes.C32:
		return make([]uint32, n)
	case dtypes.U64, dtypes.Index, dtypes.Address:
		return make([]uint64, n)
	case dtypes.F32, dtypes.TF32:
		return make([]float32, n)
	case dtypes.F64:
		return make([]float64, n)
	case dtypes.C64:
		return make([]complex64, n)
	case dtypes.C128:
		return make([]complex128, n)
	}
	panic(fmt.Sprintf("backend: no storage for %v", d))
}

// CheckStorage reports whether data is storage in the CPU form (see
// Tensor) for exactly n elements of d.
func CheckStorage(d dtypes.DType, data any, n int) error {
	if !d.IsValid() {
		return fmt.Errorf("invalid dtype %v", d)
	}
	ok, l := false, -1
	switch s := data.(type) {
	case []bool:
		ok, l = d == dtypes.Bool, len(s)
	case []int8:
		ok, l = d == dtypes.I8, len(s)
	case []int16:
		ok, l = d == dtypes.I16, len(s)
	case []int32:
		ok, l = d == dtypes.I32, len(s)
	case []int64:
		ok, l = d == dtypes.I64, len(s)
	case []uint8:
		ok, l = d == dtypes.U8 || d == dtypes.F8E4M3 || d == dtypes.F8E5M2, len(s)
	case []uint16:
		ok, l = d == dtypes.U16 || d == dtypes.F16 || d == dtypes.BF16, len(s)
	case []uint32:
		ok, l = d == dtypes.U32 || d == dtypes.C32, len(s)
	case []uint64:
		ok, l = d == dtypes.U64 || d == dtypes.Index || d == dtypes.Address, len(s)
	case []float32:
		ok, l = d == dtypes.F32 || d == dtypes.TF32, len(s)
	case []float64:
		ok, l = d == dtypes.F64, len(s)
	case []complex64:
		ok, l = d == dtypes.C64, len(s)
	case []complex128:
		ok, l = d == dtypes.C128, len(s)
	}
	if !ok {
		return fmt.Errorf("tensor of dtype %v holds %T", d, data)
	}
	if l != n {
		return fmt.Errorf("tensor of %d elements holds %d", n, l)
	}
	return nil
}

// StorageSpan returns the first byte and the length in bytes of the memory
// that storage in the CPU form (see Tensor) occupies; ok is false for
// anything else (a device's handle) and for empty storage.
func StorageSpan(data any) (p unsafe.Pointer, n uintptr, ok bool) {
	switch s := data.(type) {
	case []bool:
		return span(s)
	case []int8:
		return span(s)
	case []int16:
		return span(s)
	case []int32:
		return span(s)
	case []int64:
		return span(s)
	case []uint8:
		return span(s)
	case []uint16:
		return span(s)
	case []uint32:
		return span(s)
	case []uint64:
		return span(s)
	case []float32:
		return span(s)
	case []float64:
		return span(s)
	case []complex64:
		return span(s)
	case []complex128:
		return span(s)
	}
	return nil, 0, false
}

func span[T any](s []T) (unsafe.Pointer, uintptr, bool) {
	var zero T
	return unsafe.Pointer(unsafe.SliceData(s)), uintptr(len(s)) * unsafe.Sizeof(zero), true
}

// SharesMemory reports whether the storage of a and b (CPU form) overlaps,
// or, for storage in another form, whether a and b are the same value.
func SharesMemory(a, b any) bool {
	pa, na, oka := StorageSpan(a)
	pb, nb, okb := StorageSpan(b)
	switch {
	case oka && okb:
		lo, hi := uintptr(pa), uintptr(pb)
		return na > 0 && nb > 0 && lo < hi+nb && hi < lo+na
	case oka || okb || a == nil || !reflect.TypeOf(a).Comparable():
		return false
	}
	return a == b
}
