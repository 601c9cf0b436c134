//go:build amd64 && !purego

package cpu

import (
	"math"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/tensorsh/tensorsh/backend"
)

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
func log1prF32AVX2(d, a []float32) int

//go:noescape
func log1pF64AVX2(d, a []float64) int

//go:noescape
func tanhF64AVX2(d, a []float64) int

//go:noescape
func exp2F32AVX2(d, a []float32) int

//go:noescape
func exp2F32AVX512(d, a []float32) int

//go:noescape
func exp2F64AVX2(d, a []float64) int

//go:noescape
func exp2F64AVX512(d, a []float64) int

//go:noescape
func atanF32AVX2(d, a []float32) int

//go:noescape
func atanF32AVX512(d, a []float32) int

//go:noescape
func atanF64AVX2(d, a []float64) int

//go:noescape
func atanF64AVX512(d, a []float64) int

//go:noescape
func tanF32AVX2(d, a []float32) int

//go:noescape
func tanF32AVX512(d, a []float32) int

//go:noescape
func tanF64AVX2(d, a []float64) int

//go:noescape
func tanF64AVX512(d, a []float64) int

//go:noescape
func expm1F32AVX2(d, a []float32) int

//go:noescape
func expm1F32AVX512(d, a []float32) int

//go:noescape
func expm1F64AVX2(d, a []float64) int

//go:noescape
func expm1F64AVX512(d, a []float64) int

//go:noescape
func asinF32AVX2(d, a []float32) int

//go:noescape
func asinF32AVX512(d, a []float32) int

//go:noescape
func asinF64AVX2(d, a []float64) int

//go:noescape
func asinF64AVX512(d, a []float64) int

//go:noescape
func acosF32AVX2(d, a []float32) int

//go:noescape
func acosF32AVX512(d, a []float32) int

//go:noescape
func acosF64AVX2(d, a []float64) int

//go:noescape
func acosF64AVX512(d, a []float64) int

//go:noescape
func atan2F32AVX2(d, a, b []float32) int

//go:noescape
func atan2F32AVX512(d, a, b []float32) int

//go:noescape
func atan2F64AVX2(d, a, b []float64) int

//go:noescape
func atan2F64AVX512(d, a, b []float64) int

//go:noescape
func log10F32AVX2(d, a []float32) int

//go:noescape
func log10F32AVX512(d, a []float32) int

//go:noescape
func log10F64AVX2(d, a []float64) int

//go:noescape
func log10F64AVX512(d, a []float64) int

//go:noescape
func coshF32AVX2(d, a []float32) int

//go:noescape
func coshF32AVX512(d, a []float32) int

//go:noescape
func coshF64AVX2(d, a []float64) int

//go:noescape
func coshF64AVX512(d, a []float64) int

//go:noescape
func sinhF32AVX2(d, a []float32) int

//go:noescape
func sinhF32AVX512(d, a []float32) int

//go:noescape
func sinhF64AVX2(d, a []float64) int

//go:noescape
func sinhF64AVX512(d, a []float64) int

//go:noescape
func atanhF32AVX2(d, a []float32) int

//go:noescape
func atanhF32AVX512(d, a []float32) int

//go:noescape
func atanhF64AVX2(d, a []float64) int

//go:noescape
func atanhF64AVX512(d, a []float64) int

//go:noescape
func log2rF32AVX2(d, a []float32) int

//go:noescape
func log2rF32AVX512(d, a []float32) int

//go:noescape
func log2F64AVX2(d, a []float64) int

//go:noescape
func log2F64AVX512(d, a []float64) int

//go:noescape
func asinhF32AVX2(d, a []float32) int

//go:noescape
func asinhF32AVX512(d, a []float32) int

//go:noescape
func asinhF64AVX2(d, a []float64) int

//go:noescape
func asinhF64AVX512(d, a []float64) int

//go:noescape
func acoshF32AVX2(d, a []float32) int

//go:noescape
func acoshF32AVX512(d, a []float32) int

//go:noescape
func acoshF64AVX2(d, a []float64) int

//go:noescape
func acoshF64AVX512(d, a []float64) int

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
func log1prF32AVX512(d, a []float32) int

//go:noescape
func log1pF64AVX512(d, a []float64) int

//go:noescape
func tanhF64AVX512(d, a []float64) int

//go:noescape
func pow15F32AVX2(d, a []float32) int

//go:noescape
func pow15F32AVX512(d, a []float32) int

//go:noescape
func expm1rF32AVX2(d, a []float32) int

//go:noescape
func expm1rF32AVX512(d, a []float32) int

//go:noescape
func asinhrF32AVX2(d, a []float32) int

//go:noescape
func asinhrF32AVX512(d, a []float32) int

//go:noescape
func acoshrF32AVX2(d, a []float32) int

//go:noescape
func acoshrF32AVX512(d, a []float32) int

//go:noescape
func atanhrF32AVX2(d, a []float32) int

//go:noescape
func atanhrF32AVX512(d, a []float32) int

//go:noescape
func log2tF32AVX512(d, a []float32) int

//go:noescape
func logtF32AVX512(d, a []float32) int

//go:noescape
func log10tF32AVX512(d, a []float32) int

//go:noescape
func exp2tF32AVX512(d, a []float32) int

//go:noescape
func exptF32AVX512(d, a []float32) int

//go:noescape
func expm1tF32AVX512(d, a []float32) int

//go:noescape
func coshtF32AVX512(d, a []float32) int

//go:noescape
func sinhtF32AVX512(d, a []float32) int

//go:noescape
func tanhtF32AVX512(d, a []float32) int

//go:noescape
func asinhtF32AVX512(d, a []float32) int

//go:noescape
func acoshtF32AVX512(d, a []float32) int

//go:noescape
func atanhtF32AVX512(d, a []float32) int

//go:noescape
func powtF32AVX512(d, a, b []float32) int

//go:noescape
func tanhtPFF32AVX512(d, a []float32, pf []byte) int

//go:noescape
func rsqrttF32AVX512(d, a []float32) int

//go:noescape
func sintF32AVX512(d, a []float32) int

//go:noescape
func costF32AVX512(d, a []float32) int

//go:noescape
func tantF32AVX512(d, a []float32) int

//go:noescape
func atan2tF32AVX512(d, a, b []float32) int

//go:noescape
func atantF32AVX512(d, a []float32) int

//go:noescape
func asinpF32AVX512(d, a []float32) int

//go:noescape
func acospF32AVX512(d, a []float32) int

//go:noescape
func log1ptF32AVX512(d, a []float32) int

// chained returns a loop like fast and exact (the vector loops of one
// function, which compute groups of libmGroup elements and stop before
// a group they leave): fast, and exact on each group fast leaves; it
// stops where exact does.
func chained(fast, exact func(d, a []float32) int) func(d, a []float32) int {
	return func(d, a []float32) int {
		g := libmGroup()
		a = a[:len(d)]
		i := 0
		for {
			i += fast(d[i:], a[i:])
			j := i + g
			if j > len(d) {
				return i
			}
			if exact(d[i:j], a[i:j]) < g {
				return i
			}
			i = j
		}
	}
}

// chained2 is chained for loops of two operands.
func chained2(fast, exact func(d, a, b []float32) int) func(d, a, b []float32) int {
	return func(d, a, b []float32) int {
		g := libmGroup()
		a, b = a[:len(d)], b[:len(d)]
		i := 0
		for {
			i += fast(d[i:], a[i:], b[i:])
			j := i + g
			if j > len(d) {
				return i
			}
			if exact(d[i:j], a[i:j], b[i:j]) < g {
				return i
			}
			i = j
		}
	}
}

//go:noescape
func pow4F32AVX2(d, a []float32) int

//go:noescape
func pow4F32AVX512(d, a []float32) int

//go:noescape
func powm2F32AVX2(d, a []float32) int

//go:noescape
func powm2F32AVX512(d, a []float32) int

//go:noescape
func recipF64AVX2(d, a []float64) int

//go:noescape
func recipF64AVX512(d, a []float64) int

//go:noescape
func pow15dF64AVX2(d, a []float64) int

//go:noescape
func pow15dF64AVX512(d, a []float64) int

//go:noescape
func powmhF64AVX2(d, a []float64) int

//go:noescape
func powmhF64AVX512(d, a []float64) int

//go:noescape
func powhF32AVX2(d, a, b []float32) int

//go:noescape
func powhF64AVX2(d, a, b []float64) int

//go:noescape
func powhF32AVX512(d, a, b []float32) int

//go:noescape
func powhF64AVX512(d, a, b []float64) int

// powhAsm returns the loop of x ** y for half-integer y (powhBody in
// gen_libm.go) on T, or nil without AVX2.
func powhAsm[T float32 | float64]() func(d, a, b []T) int {
	if !haveAVX2 {
		return nil
	}
	f32, f64 := powhF32AVX2, powhF64AVX2
	if libmAVX512 {
		f32, f64 = powhF32AVX512, powhF64AVX512
	}
	if _, ok := any(T(0)).(float32); ok {
		return any(f32).(func(d, a, b []T) int)
	}
	return any(f64).(func(d, a, b []T) int)
}

// constPowAsm returns the loop of x ** y on T for the constant exponents
// constPowKernel gives loops (see their bodies in gen_libm.go): float32
// 1.5 (x·√x in float64, checked to round as powF64 does), 4 and -2;
// float64 -1, 1.5 and -0.5 (double-double forms checked to round as
// powF64 does). It returns nil for the others, and without AVX2.
func constPowAsm[T float32 | float64](y float64) func(d, a []T) int {
	if !haveAVX2 {
		return nil
	}
	var f32 [2]func(d, a []float32) int
	var f64 [2]func(d, a []float64) int
	switch y {
	case 1.5:
		f32 = [2]func(d, a []float32) int{pow15F32AVX2, pow15F32AVX512}
		f64 = [2]func(d, a []float64) int{pow15dF64AVX2, pow15dF64AVX512}
	case -0.5:
		f64 = [2]func(d, a []float64) int{powmhF64AVX2, powmhF64AVX512}
	case 4:
		f32 = [2]func(d, a []float32) int{pow4F32AVX2, pow4F32AVX512}
	case -2:
		f32 = [2]func(d, a []float32) int{powm2F32AVX2, powm2F32AVX512}
	case -1:
		f64 = [2]func(d, a []float64) int{recipF64AVX2, recipF64AVX512}
	}
	w := 0
	if libmAVX512 {
		w = 1
	}
	if _, ok := any(T(0)).(float32); ok {
		if f32[w] == nil {
			return nil
		}
		return any(f32[w]).(func(d, a []T) int)
	}
	if f64[w] == nil {
		return nil
	}
	return any(f64[w]).(func(d, a []T) int)
}

//go:noescape
func powF32AVX512(d, a, b []float32) int

//go:noescape
func powF64AVX512(d, a, b []float64) int

// libmAVX512 reports whether libmAsm and binAsm give the AVX-512 loops
// (sixteen elements per group) rather than the AVX2 ones (four); tests
// turn it off to check the AVX2 loops too.
var libmAVX512 = haveAVX512DQVL

// libmGroup returns how many elements the loops of libmAsm and binAsm
// compute at a time.
func libmGroup() int {
	if libmAVX512 {
		return 16
	}
	return 4
}

// binAsm returns the assembly loop of o (backend.OpPow, backend.OpAtan2)
// on T, or nil.
func binAsm[T float32 | float64](o backend.Op) func(d, a, b []T) int {
	if !haveAVX2 {
		return nil
	}
	var f32 func(d, a, b []float32) int
	var f64 func(d, a, b []float64) int
	switch o {
	case backend.OpPow:
		f32, f64 = powF32AVX2, powF64AVX2
		if libmAVX512 {
			// float32: 2^(y·log2 x) through gen_libm.go's tables
			// (powtBody), checked to round as powF64, before pow's
			// own loop.
			f32, f64 = chained2(powtF32AVX512, powF32AVX512), powF64AVX512
		}
	case backend.OpAtan2:
		f32, f64 = atan2F32AVX2, atan2F64AVX2
		if libmAVX512 {
			f32, f64 = chained2(atan2tF32AVX512, atan2F32AVX512), atan2F64AVX512
		}
	default:
		return nil
	}
	if _, ok := any(T(0)).(float32); ok {
		return any(f32).(func(d, a, b []T) int)
	}
	return any(f64).(func(d, a, b []T) int)
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
			// float32: expTable's loop (gen_libm.go), checked to round
			// as math.Exp, before exp's own.
			f32, f64 = chained(exptF32AVX512, expF32AVX512), expF64AVX512
		}
	case backend.OpLog:
		f32, f64 = logF32AVX2, logF64AVX2
		if libmAVX512 {
			// float32: log2Table's loop (gen_libm.go), checked to
			// round as logF64, before log's own.
			f32, f64 = chained(logtF32AVX512, logF32AVX512), logF64AVX512
		}
	case backend.OpSin:
		f32, f64 = sinF32AVX2, sinF64AVX2
		if libmAVX512 {
			f32, f64 = chained(sintF32AVX512, sinF32AVX512), sinF64AVX512
		}
	case backend.OpCos:
		f32, f64 = cosF32AVX2, cosF64AVX2
		if libmAVX512 {
			f32, f64 = chained(costF32AVX512, cosF32AVX512), cosF64AVX512
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
		// float32: Log(1 + x), checked to round as Log1p (log1pr32Body).
		f32, f64 = log1prF32AVX2, log1pF64AVX2
		if libmAVX512 {
			f32, f64 = chained(log1ptF32AVX512, log1prF32AVX512), log1pF64AVX512
		}
	case backend.OpExp2:
		f32, f64 = exp2F32AVX2, exp2F64AVX2
		if libmAVX512 {
			f32, f64 = chained(exp2tF32AVX512, exp2F32AVX512), exp2F64AVX512
		}
	case backend.OpAtan:
		f32, f64 = atanF32AVX2, atanF64AVX2
		if libmAVX512 {
			f32, f64 = chained(atantF32AVX512, atanF32AVX512), atanF64AVX512
		}
	case backend.OpTan:
		f32, f64 = tanF32AVX2, tanF64AVX2
		if libmAVX512 {
			f32, f64 = chained(tantF32AVX512, tanF32AVX512), tanF64AVX512
		}
	case backend.OpExpm1:
		// float32: Exp(x) - 1, checked to round as Expm1
		// (expm1r32Body), where |x| >= 2^-7; expm1's own loop on the
		// groups with a smaller |x|.
		f32, f64 = chained(expm1rF32AVX2, expm1F32AVX2), expm1F64AVX2
		if libmAVX512 {
			f32, f64 = chained(expm1tF32AVX512, chained(expm1rF32AVX512, expm1F32AVX512)), expm1F64AVX512
		}
	case backend.OpAsin:
		f32, f64 = asinF32AVX2, asinF64AVX2
		if libmAVX512 {
			f32, f64 = chained(asinpF32AVX512, asinF32AVX512), asinF64AVX512
		}
	case backend.OpAcos:
		f32, f64 = acosF32AVX2, acosF64AVX2
		if libmAVX512 {
			f32, f64 = chained(acospF32AVX512, acosF32AVX512), acosF64AVX512
		}
	case backend.OpLog10:
		f32, f64 = log10F32AVX2, log10F64AVX2
		if libmAVX512 {
			f32, f64 = chained(log10tF32AVX512, log10F32AVX512), log10F64AVX512
		}
	case backend.OpCosh:
		f32, f64 = coshF32AVX2, coshF64AVX2
		if libmAVX512 {
			f32, f64 = chained(coshtF32AVX512, coshF32AVX512), coshF64AVX512
		}
	case backend.OpSinh:
		f32, f64 = sinhF32AVX2, sinhF64AVX2
		if libmAVX512 {
			f32, f64 = chained(sinhtF32AVX512, sinhF32AVX512), sinhF64AVX512
		}
	case backend.OpAtanh:
		// float32: through log's loop, checked to round as the
		// scalar code (atanhr32Body), where the argument allows.
		f32, f64 = chained(atanhrF32AVX2, atanhF32AVX2), atanhF64AVX2
		if libmAVX512 {
			f32, f64 = chained(atanhtF32AVX512, atanhF32AVX512), atanhF64AVX512
		}
	case backend.OpLog2:
		// float32: Log(x)·(1/Ln2), checked to round as log2F64
		// (log2r32Body).
		f32, f64 = log2rF32AVX2, log2F64AVX2
		if libmAVX512 {
			f32, f64 = chained(log2tF32AVX512, log2rF32AVX512), log2F64AVX512
		}
	case backend.OpAsinh:
		// float32: through log's loop, checked to round as the
		// scalar code (asinhr32Body), where the argument allows.
		f32, f64 = chained(asinhrF32AVX2, asinhF32AVX2), asinhF64AVX2
		if libmAVX512 {
			f32, f64 = chained(asinhtF32AVX512, asinhF32AVX512), asinhF64AVX512
		}
	case backend.OpAcosh:
		// float32: through log's loop, checked to round as the
		// scalar code (acoshr32Body), where the argument allows.
		f32, f64 = chained(acoshrF32AVX2, acoshF32AVX2), acoshF64AVX2
		if libmAVX512 {
			f32, f64 = chained(acoshtF32AVX512, acoshF32AVX512), acoshF64AVX512
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

//go:noescape
func f16LookupAVX512(d, a []float32, tab *float32) int

//go:noescape
func lookup16AVX512(d, a []uint16, tab *[1 << 16]uint16) int

// gatherLookups reports whether lookup16 gathers (AVX-512).
func gatherLookups() bool { return libmAVX512 }

// lookup16 sets d[i] = tab[a[i]] for the first groups of sixteen elements
// (lookup16AVX512) and returns how many it set: none without AVX-512.
func lookup16(d, a []uint16, tab *[1 << 16]uint16) int {
	if !libmAVX512 {
		return 0
	}
	return lookup16AVX512(d, a, tab)
}

// f16Tab is the table of one operation's float32 kernel on the float16
// values (libmF16), made once.
type f16Tab struct {
	once sync.Once
	t    atomic.Pointer[[1 << 16]float32]
}

// f16Tabs holds the *f16Tab of each operation (backend.Op).
var f16Tabs sync.Map

// libmF16 returns loop, the kernel of o on float32, with a table for the
// float32 values that are float16 values (as a float16 tensor's are: it
// is computed in float32): the table holds loop's result for each of the
// 65536 float16 values (256 KiB, made the first time one of o's kernels
// gets an input that starts with sixteen of them), and the loop of
// f16LookupAVX512 looks them up sixteen at a time, far faster than the
// function's own loop computes them. Each entry is what loop gives on
// that input, so the bits are loop's. It returns loop unchanged without
// AVX-512 (and for float64).
func libmF16[T float32 | float64](o backend.Op, loop func(d, a []T)) func(d, a []T) {
	if _, ok := any(T(0)).(float32); !ok || !libmAVX512 {
		return loop
	}
	f := any(loop).(func(d, a []float32))
	v, _ := f16Tabs.LoadOrStore(o, new(f16Tab))
	tab := v.(*f16Tab)
	build := func() {
		initTables()
		x, t := make([]float32, 1<<16), new([1 << 16]float32)
		h := make([]uint16, 1<<16)
		for i := range h {
			h[i] = uint16(i)
		}
		f16sToF32(x, h) // VCVTPH2PS: the values f16LookupAVX512 accepts
		f(t[:], x)
		tab.t.Store(t)
	}
	g := func(d, a []float32) {
		a = a[:len(d)]
		t := tab.t.Load()
		if t == nil && len(d) >= 16 && f16Values(a[:16]) {
			tab.once.Do(build)
			t = tab.t.Load()
		}
		i := 0
		if t != nil {
			i = f16LookupAVX512(d, a, &t[0])
		}
		f(d[i:], a[i:])
	}
	return any(g).(func(d, a []T))
}

// f16Values reports whether every value of a is a float16 value (with
// the bits VCVTPS2PH and VCVTPH2PS give back).
func f16Values(a []float32) bool {
	initTables() // for the conversions' Go tails
	var h [16]uint16
	var x [16]float32
	for len(a) > 0 {
		n := copy(x[:], a)
		f32sToF16(h[:n], x[:n])
		f16sToF32(x[:n], h[:n])
		for i := range n {
			if math.Float32bits(x[i]) != math.Float32bits(a[i]) {
				return false
			}
		}
		a = a[n:]
	}
	return true
}

// libmTabs points at a copy of libmTabSrc that starts on a cache line,
// which the AVX-512 loops read their lookup tables from (R12, see
// alignTables in gen_libm.go).
var libmTabs = alignedTabs()

func alignedTabs() unsafe.Pointer {
	m := make([]uint64, len(libmTabSrc)+8)
	i := 0
	for uintptr(unsafe.Pointer(&m[i]))%64 != 0 {
		i++
	}
	copy(m[i:], libmTabSrc[:])
	return unsafe.Pointer(&m[i])
}
