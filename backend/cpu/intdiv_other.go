//go:build !amd64 || purego

package cpu

import "unsafe"

// Without the assembly loops integer division and modulo are the Go loops.

const haveIntDiv512 = false

var (
	intDivAsms, intDivAsms512, intDivAsmsAVX2 map[intDivKey]intDivAsm
	intDivScans                               map[uintptr]func(a, b unsafe.Pointer, n int) uint8
)
