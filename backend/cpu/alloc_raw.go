//go:build !purego

package cpu

import "unsafe"

// mallocgc is the runtime's allocator. It is an internal detail, but one
// the Go team keeps reachable by linkname for compatibility (see its
// comment in runtime/malloc.go); with a nil type the memory holds no
// pointers, and needzero false skips the clearing of reused memory.
//
//go:linkname mallocgc runtime.mallocgc
func mallocgc(size uintptr, typ unsafe.Pointer, needzero bool) unsafe.Pointer

// rawBytes returns n bytes of pointer-free memory that the caller will
// overwrite entirely: not cleared first (clearing a large result costs
// as much as writing it, on one core).
func rawBytes(n int) unsafe.Pointer { return mallocgc(uintptr(n), nil, false) }
