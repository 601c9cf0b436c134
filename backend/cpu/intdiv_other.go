//go:build !amd64 || purego

package cpu

import "unsafe"

// Without the assembly loops integer division and modulo are the Go loops.

const haveIntDivSIMD = false

var (
	intDivAsms  map[intDivKey]func(d, a, b unsafe.Pointer, n int) int
	intDivScans map[uintptr]func(a, b unsafe.Pointer, n int) uint8
)
