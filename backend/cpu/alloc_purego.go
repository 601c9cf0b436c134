//go:build purego

package cpu

import "unsafe"

// rawBytes returns n bytes of zeroed memory (see alloc_raw.go).
func rawBytes(n int) unsafe.Pointer {
	b := make([]uint64, (n+7)/8)
	return unsafe.Pointer(unsafe.SliceData(b))
}
