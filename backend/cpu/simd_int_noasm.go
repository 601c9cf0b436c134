//go:build !amd64 || purego

package cpu

// Without the assembly loops the integer and bool kernels are the Go loops.

const haveIntSIMD = false

var (
	intAsms  map[intAsmKey]intAsm
	boolAsms map[wordOp]intAsm
	// constShiftAsms: none either (see constShiftKernel).
	constShiftAsms map[intAsmKey]intAsm
	notBoolAsm     intAsm
)

// mul64Asm is the 64-bit multiply of the table (none here).
func mul64Asm(v intAsm) intAsm { return v }

// mul8Asm is the 8-bit multiply of the table (none here).
func mul8Asm(v intAsm) intAsm { return v }
