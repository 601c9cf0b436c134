//go:build !amd64 || purego

package cpu

import "github.com/tensorsh/tensorsh/backend"

// libmAsm returns nil: without assembly the kernels are the scalar ones.
func libmAsm[T float32 | float64](backend.Op) func(d, a []T) int { return nil }

// binAsm returns nil: without assembly the kernels are the scalar ones.
func binAsm[T float32 | float64](backend.Op) func(d, a, b []T) int { return nil }

// libmGroup returns 4 (no loops use it here).
func libmGroup() int { return 4 }

// libmF16 returns loop: without assembly there is no table loop.
func libmF16[T float32 | float64](_ backend.Op, loop func(d, a []T)) func(d, a []T) { return loop }

// libmAVX512 is false: there are no AVX-512 loops here.
var libmAVX512 = false

// lookup16 sets none: without assembly lookupF16's loop does it all.
func lookup16(_, _ []uint16, _ *[1 << 16]uint16) int { return 0 }

// constPowAsm returns nil: without assembly constPowKernel's Go forms
// serve.
func constPowAsm[T float32 | float64](float64) func(d, a []T) int { return nil }

// gatherLookups reports false: lookup16 sets none here.
func gatherLookups() bool { return false }

// powhAsm returns nil: without assembly half-integer powers take powF64.
func powhAsm[T float32 | float64]() func(d, a, b []T) int { return nil }
