//go:build amd64 && !purego

package cpu

import "github.com/tensorsh/tensorsh/backend"

// Loops of simd_libm_amd64.s (see simd_libm.go).

//go:noescape
func expF32AVX2(d, a []float32) int

//go:noescape
func expF64AVX2(d, a []float64) int

//go:noescape
func logF32AVX2(d, a []float32) int

//go:noescape
func logF64AVX2(d, a []float64) int

//go:noescape
func sinF32AVX2(d, a []float32) int

//go:noescape
func sinF64AVX2(d, a []float64) int

//go:noescape
func cosF32AVX2(d, a []float32) int

//go:noescape
func cosF64AVX2(d, a []float64) int

//go:noescape
func sigmoidF32AVX2(d, a []float32) int

//go:noescape
func sigmoidF64AVX2(d, a []float64) int

//go:noescape
func siluF32AVX2(d, a []float32) int

//go:noescape
func siluF64AVX2(d, a []float64) int

//go:noescape
func log1pF32AVX2(d, a []float32) int

//go:noescape
func log1pF64AVX2(d, a []float64) int

//go:noescape
func tanhF64AVX2(d, a []float64) int

//go:noescape
func powF32AVX2(d, a, b []float32) int

//go:noescape
func powF64AVX2(d, a, b []float64) int

//go:noescape
func expF32AVX512(d, a []float32) int

//go:noescape
func expF64AVX512(d, a []float64) int

//go:noescape
func logF32AVX512(d, a []float32) int

//go:noescape
func logF64AVX512(d, a []float64) int

//go:noescape
func sinF32AVX512(d, a []float32) int

//go:noescape
func sinF64AVX512(d, a []float64) int

//go:noescape
func cosF32AVX512(d, a []float32) int

//go:noescape
func cosF64AVX512(d, a []float64) int

//go:noescape
func sigmoidF32AVX512(d, a []float32) int

//go:noescape
func sigmoidF64AVX512(d, a []float64) int

//go:noescape
func siluF32AVX512(d, a []float32) int

//go:noescape
func siluF64AVX512(d, a []float64) int

//go:noescape
func log1pF32AVX512(d, a []float32) int

//go:noescape
func log1pF64AVX512(d, a []float64) int

//go:noescape
func tanhF64AVX512(d, a []float64) int

//go:noescape
func powF32AVX512(d, a, b []float32) int

//go:noescape
func powF64AVX512(d, a, b []float64) int

// libmAVX512 reports whether libmAsm and powAsm give the AVX-512 loops
// (sixteen elements per group) rather than the AVX2 ones (four); tests
// turn it off to check the AVX2 loops too.
var libmAVX512 = haveAVX512DQVL

// libmGroup returns how many elements the loops of libmAsm and powAsm
// compute at a time.
func libmGroup() int {
	if libmAVX512 {
		return 16
	}
	return 4
}

// powAsm returns the assembly loop of math.Pow on T, or nil.
func powAsm[T float32 | float64]() func(d, a, b []T) int {
	if !haveAVX2 {
		return nil
	}
	var v any = powF64AVX2
	if _, ok := any(T(0)).(float32); ok {
		v = powF32AVX2
		if libmAVX512 {
			v = powF32AVX512
		}
	} else if libmAVX512 {
		v = powF64AVX512
	}
	return v.(func(d, a, b []T) int)
}

// libmAsm returns the assembly loop of o on T, or nil.
func libmAsm[T float32 | float64](o backend.Op) func(d, a []T) int {
	if !haveAVX2 {
		return nil
	}
	var f32 func(d, a []float32) int
	var f64 func(d, a []float64) int
	switch o {
	case backend.OpExp:
		f32, f64 = expF32AVX2, expF64AVX2
		if libmAVX512 {
			f32, f64 = expF32AVX512, expF64AVX512
		}
	case backend.OpLog:
		f32, f64 = logF32AVX2, logF64AVX2
		if libmAVX512 {
			f32, f64 = logF32AVX512, logF64AVX512
		}
	case backend.OpSin:
		f32, f64 = sinF32AVX2, sinF64AVX2
		if libmAVX512 {
			f32, f64 = sinF32AVX512, sinF64AVX512
		}
	case backend.OpCos:
		f32, f64 = cosF32AVX2, cosF64AVX2
		if libmAVX512 {
			f32, f64 = cosF32AVX512, cosF64AVX512
		}
	case backend.OpSigmoid:
		f32, f64 = sigmoidF32AVX2, sigmoidF64AVX2
		if libmAVX512 {
			f32, f64 = sigmoidF32AVX512, sigmoidF64AVX512
		}
	case backend.OpSilu:
		f32, f64 = siluF32AVX2, siluF64AVX2
		if libmAVX512 {
			f32, f64 = siluF32AVX512, siluF64AVX512
		}
	case backend.OpLog1p:
		f32, f64 = log1pF32AVX2, log1pF64AVX2
		if libmAVX512 {
			f32, f64 = log1pF32AVX512, log1pF64AVX512
		}
	case backend.OpTanh:
		f64 = tanhF64AVX2 // float32: tanhF32
		if libmAVX512 {
			f64 = tanhF64AVX512
		}
	default:
		return nil
	}
	if _, ok := any(T(0)).(float32); ok {
		if f32 == nil {
			return nil
		}
		return any(f32).(func(d, a []T) int)
	}
	return any(f64).(func(d, a []T) int)
}
