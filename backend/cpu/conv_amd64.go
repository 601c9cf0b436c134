//go:build amd64 && !purego

package cpu

import "unsafe"

//go:generate go run gen_conv.go

// haveAVX512DQVL reports whether the CPU (and the OS) support AVX-512 F
// and DQ with 256-bit (VL) forms, for the 64-bit and unsigned kernels.
var haveAVX512DQVL = cpuHasAVX512Features(1<<16 | 1<<17 | 1<<31)

// cpuHasAVX512Features reports whether CPUID.7:EBX has every bit of ebx
// (AVX512F is bit 16, DQ 17, BW 30, VL 31) and the OS saves the AVX-512
// state (cpufeat_amd64.s).
func cpuHasAVX512Features(ebx uint32) bool

// vecConvKernel returns an AVX2 conversion kernel from compute type cf to
// ct (conv_amd64.s, written by gen_conv.go), or nil where there is none.
// Each gives the bits of the Go loop it replaces (convL, boolToL,
// floatToIntL), which also converts the elements after the last whole
// vector step (TestVecConv).
func vecConvKernel(cf, ct ctype) kfn {
	if !haveAVX2 {
		return nil
	}
	if haveAVX512DQVL {
		if k := vecConvKernelZ(cf, ct); k != nil {
			return k
		}
	}
	// A bool is a byte holding 0 or 1, converted like a uint8; an integer
	// widens by its source's signedness whatever the destination's (Go's
	// rule), so a signed destination kernel serves the unsigned one.
	switch cf {
	case ctBool:
		switch ct {
		case ctI16:
			return vconv(cvtU8I16, cvtU8I16Per, boolToL[int16])
		case ctU16:
			return vconv(cvtU8I16, cvtU8I16Per, boolToL[uint16])
		case ctI32:
			return vconv(cvtU8I32, cvtU8I32Per, boolToL[int32])
		case ctU32:
			return vconv(cvtU8I32, cvtU8I32Per, boolToL[uint32])
		case ctI64:
			return vconv(cvtU8I64, cvtU8I64Per, boolToL[int64])
		case ctU64:
			return vconv(cvtU8I64, cvtU8I64Per, boolToL[uint64])
		case ctF32:
			return vconv(cvtU8F32, cvtU8F32Per, boolToL[float32])
		case ctF64:
			return vconv(cvtU8F64, cvtU8F64Per, boolToL[float64])
		}
	case ctI8:
		switch ct {
		case ctI16:
			return vconv(cvtI8I16, cvtI8I16Per, convL[int8, int16])
		case ctU16:
			return vconv(cvtI8I16, cvtI8I16Per, convL[int8, uint16])
		case ctI32:
			return vconv(cvtI8I32, cvtI8I32Per, convL[int8, int32])
		case ctU32:
			return vconv(cvtI8I32, cvtI8I32Per, convL[int8, uint32])
		case ctI64:
			return vconv(cvtI8I64, cvtI8I64Per, convL[int8, int64])
		case ctU64:
			return vconv(cvtI8I64, cvtI8I64Per, convL[int8, uint64])
		case ctF64:
			return vconv(cvtI8F64, cvtI8F64Per, convL[int8, float64])
		}
	case ctU8:
		switch ct {
		case ctI16:
			return vconv(cvtU8I16, cvtU8I16Per, convL[uint8, int16])
		case ctU16:
			return vconv(cvtU8I16, cvtU8I16Per, convL[uint8, uint16])
		case ctI32:
			return vconv(cvtU8I32, cvtU8I32Per, convL[uint8, int32])
		case ctU32:
			return vconv(cvtU8I32, cvtU8I32Per, convL[uint8, uint32])
		case ctI64:
			return vconv(cvtU8I64, cvtU8I64Per, convL[uint8, int64])
		case ctU64:
			return vconv(cvtU8I64, cvtU8I64Per, convL[uint8, uint64])
		case ctF32:
			return vconv(cvtU8F32, cvtU8F32Per, convL[uint8, float32])
		case ctF64:
			return vconv(cvtU8F64, cvtU8F64Per, convL[uint8, float64])
		}
	case ctI16:
		switch ct {
		case ctI32:
			return vconv(cvtI16I32, cvtI16I32Per, convL[int16, int32])
		case ctU32:
			return vconv(cvtI16I32, cvtI16I32Per, convL[int16, uint32])
		case ctI64:
			return vconv(cvtI16I64, cvtI16I64Per, convL[int16, int64])
		case ctU64:
			return vconv(cvtI16I64, cvtI16I64Per, convL[int16, uint64])
		case ctF32:
			return vconv(cvtI16F32, cvtI16F32Per, convL[int16, float32])
		case ctF64:
			return vconv(cvtI16F64, cvtI16F64Per, convL[int16, float64])
		}
	case ctU16:
		switch ct {
		case ctI32:
			return vconv(cvtU16I32, cvtU16I32Per, convL[uint16, int32])
		case ctU32:
			return vconv(cvtU16I32, cvtU16I32Per, convL[uint16, uint32])
		case ctI64:
			return vconv(cvtU16I64, cvtU16I64Per, convL[uint16, int64])
		case ctU64:
			return vconv(cvtU16I64, cvtU16I64Per, convL[uint16, uint64])
		case ctF32:
			return vconv(cvtU16F32, cvtU16F32Per, convL[uint16, float32])
		case ctF64:
			return vconv(cvtU16F64, cvtU16F64Per, convL[uint16, float64])
		}
	case ctI32:
		switch ct {
		case ctI64:
			return vconv(cvtI32I64, cvtI32I64Per, convL[int32, int64])
		case ctU64:
			return vconv(cvtI32I64, cvtI32I64Per, convL[int32, uint64])
		case ctF32:
			return vconv(cvtI32F32, cvtI32F32Per, convL[int32, float32])
		case ctF64:
			return vconv(cvtI32F64, cvtI32F64Per, convL[int32, float64])
		}
	case ctI64:
		switch {
		case ct == ctF64 && haveAVX512DQVL:
			return vconv(cvtI64F64, cvtI64F64Per, convL[int64, float64])
		case ct == ctF32 && haveAVX512DQVL:
			return vconv(cvtI64F32, cvtI64F32Per, convL[int64, float32])
		}
	case ctU32:
		switch {
		case ct == ctF32 && haveAVX512DQVL:
			return vconv(cvtU32F32, cvtU32F32Per, convL[uint32, float32])
		case ct == ctF64 && haveAVX512DQVL:
			return vconv(cvtU32F64, cvtU32F64Per, convL[uint32, float64])
		}
		switch ct {
		case ctI64:
			return vconv(cvtU32I64, cvtU32I64Per, convL[uint32, int64])
		case ctU64:
			return vconv(cvtU32I64, cvtU32I64Per, convL[uint32, uint64])
		}
	case ctU64:
		if ct == ctF64 && haveAVX512DQVL {
			return vconv(cvtU64F64, cvtU64F64Per, convL[uint64, float64])
		}
	case ctF32:
		if ct == ctI64 && haveAVX512DQVL {
			return vconv(cvttF32I64, cvttF32I64Per, floatToIntL[float32, int64])
		}
		switch ct {
		case ctF64:
			return vconv(cvtF32F64, cvtF32F64Per, convL[float32, float64])
		case ctI32:
			return vconv(cvttF32I32, cvttF32I32Per, floatToIntL[float32, int32])
		case ctI8:
			return vconvVia32(cvttF32I32, cvttF32I32Per, floatToIntL[float32, int8])
		case ctU8:
			return vconvVia32(cvttF32I32, cvttF32I32Per, floatToIntL[float32, uint8])
		case ctI16:
			return vconvVia32(cvttF32I32, cvttF32I32Per, floatToIntL[float32, int16])
		case ctU16:
			return vconvVia32(cvttF32I32, cvttF32I32Per, floatToIntL[float32, uint16])
		}
	case ctF64:
		if ct == ctI64 && haveAVX512DQVL {
			return vconv(cvttF64I64, cvttF64I64Per, floatToIntL[float64, int64])
		}
		switch ct {
		case ctF32:
			return vconv(cvtF64F32, cvtF64F32Per, convL[float64, float32])
		case ctI32:
			return vconv(cvttF64I32, cvttF64I32Per, floatToIntL[float64, int32])
		case ctI8:
			return vconvVia32(cvttF64I32, cvttF64I32Per, floatToIntL[float64, int8])
		case ctU8:
			return vconvVia32(cvttF64I32, cvttF64I32Per, floatToIntL[float64, uint8])
		case ctI16:
			return vconvVia32(cvttF64I32, cvttF64I32Per, floatToIntL[float64, int16])
		case ctU16:
			return vconvVia32(cvttF64I32, cvttF64I32Per, floatToIntL[float64, uint16])
		}
	}
	return nil
}

// vecConvKernelZ returns an AVX-512 conversion kernel from cf to ct
// (the kernels of conv_amd64.s with names ending in Z), or nil where there
// is none: widening to float on 16 or 8 lanes, integer narrowing, float to
// 8- and 16-bit integers in one pass, and → bool. Each gives the bits of
// the Go loop it replaces (convL, boolToL, floatToIntL, nonzeroL).
func vecConvKernelZ(cf, ct ctype) kfn {
	switch cf {
	case ctBool:
		switch ct {
		case ctF32:
			return vconv(cvtU8F32Z, cvtU8F32ZPer, boolToL[float32])
		case ctF64:
			return vconv(cvtU8F64Z, cvtU8F64ZPer, boolToL[float64])
		}
	case ctI8:
		switch ct {
		case ctF32:
			return vconv(cvtI8F32Z, cvtI8F32ZPer, convL[int8, float32])
		case ctF64:
			return vconv(cvtI8F64Z, cvtI8F64ZPer, convL[int8, float64])
		}
	case ctU8:
		switch ct {
		case ctF32:
			return vconv(cvtU8F32Z, cvtU8F32ZPer, convL[uint8, float32])
		case ctF64:
			return vconv(cvtU8F64Z, cvtU8F64ZPer, convL[uint8, float64])
		}
	case ctI16:
		switch {
		case ct == ctF32:
			return vconv(cvtI16F32Z, cvtI16F32ZPer, convL[int16, float32])
		case ct == ctI8 && haveAVX512BW:
			return vconv(cvtI16I8Z, cvtI16I8ZPer, convL[int16, int8])
		case ct == ctU8 && haveAVX512BW:
			return vconv(cvtI16I8Z, cvtI16I8ZPer, convL[int16, uint8])
		}
	case ctU16:
		switch {
		case ct == ctF32:
			return vconv(cvtU16F32Z, cvtU16F32ZPer, convL[uint16, float32])
		case ct == ctI8 && haveAVX512BW:
			return vconv(cvtI16I8Z, cvtI16I8ZPer, convL[uint16, int8])
		case ct == ctU8 && haveAVX512BW:
			return vconv(cvtI16I8Z, cvtI16I8ZPer, convL[uint16, uint8])
		}
	case ctI32:
		switch ct {
		case ctF64:
			return vconv(cvtI32F64Z, cvtI32F64ZPer, convL[int32, float64])
		case ctI8:
			return vconv(cvtI32I8Z, cvtI32I8ZPer, convL[int32, int8])
		case ctU8:
			return vconv(cvtI32I8Z, cvtI32I8ZPer, convL[int32, uint8])
		case ctI16:
			return vconv(cvtI32I16Z, cvtI32I16ZPer, convL[int32, int16])
		case ctU16:
			return vconv(cvtI32I16Z, cvtI32I16ZPer, convL[int32, uint16])
		case ctBool:
			return vconv(cvtI32BoolZ, cvtI32BoolZPer, nonzeroL[int32])
		}
	case ctU32:
		switch ct {
		case ctI8:
			return vconv(cvtI32I8Z, cvtI32I8ZPer, convL[uint32, int8])
		case ctU8:
			return vconv(cvtI32I8Z, cvtI32I8ZPer, convL[uint32, uint8])
		case ctI16:
			return vconv(cvtI32I16Z, cvtI32I16ZPer, convL[uint32, int16])
		case ctU16:
			return vconv(cvtI32I16Z, cvtI32I16ZPer, convL[uint32, uint16])
		case ctBool:
			return vconv(cvtI32BoolZ, cvtI32BoolZPer, nonzeroL[uint32])
		}
	case ctI64:
		switch ct {
		case ctI8:
			return vconv(cvtI64I8Z, cvtI64I8ZPer, convL[int64, int8])
		case ctU8:
			return vconv(cvtI64I8Z, cvtI64I8ZPer, convL[int64, uint8])
		case ctI16:
			return vconv(cvtI64I16Z, cvtI64I16ZPer, convL[int64, int16])
		case ctU16:
			return vconv(cvtI64I16Z, cvtI64I16ZPer, convL[int64, uint16])
		case ctI32:
			return vconv(cvtI64I32Z, cvtI64I32ZPer, convL[int64, int32])
		case ctU32:
			return vconv(cvtI64I32Z, cvtI64I32ZPer, convL[int64, uint32])
		case ctBool:
			return vconv(cvtI64BoolZ, cvtI64BoolZPer, nonzeroL[int64])
		case ctF64:
			return vconv(cvtI64F64Z, cvtI64F64ZPer, convL[int64, float64])
		}
	case ctU64:
		switch ct {
		case ctI8:
			return vconv(cvtI64I8Z, cvtI64I8ZPer, convL[uint64, int8])
		case ctU8:
			return vconv(cvtI64I8Z, cvtI64I8ZPer, convL[uint64, uint8])
		case ctI16:
			return vconv(cvtI64I16Z, cvtI64I16ZPer, convL[uint64, int16])
		case ctU16:
			return vconv(cvtI64I16Z, cvtI64I16ZPer, convL[uint64, uint16])
		case ctI32:
			return vconv(cvtI64I32Z, cvtI64I32ZPer, convL[uint64, int32])
		case ctU32:
			return vconv(cvtI64I32Z, cvtI64I32ZPer, convL[uint64, uint32])
		case ctBool:
			return vconv(cvtI64BoolZ, cvtI64BoolZPer, nonzeroL[uint64])
		}
	case ctF32:
		switch ct {
		case ctF64:
			return vconv(cvtF32F64Z, cvtF32F64ZPer, convL[float32, float64])
		case ctI8:
			return vconv(cvttF32I8Z, cvttF32I8ZPer, floatToIntL[float32, int8])
		case ctU8:
			return vconv(cvttF32I8Z, cvttF32I8ZPer, floatToIntL[float32, uint8])
		case ctI16:
			return vconv(cvttF32I16Z, cvttF32I16ZPer, floatToIntL[float32, int16])
		case ctU16:
			return vconv(cvttF32I16Z, cvttF32I16ZPer, floatToIntL[float32, uint16])
		case ctBool:
			return vconv(cvtF32BoolZ, cvtF32BoolZPer, nonzeroL[float32])
		}
	case ctF64:
		switch ct {
		case ctI8:
			return vconv(cvttF64I8Z, cvttF64I8ZPer, floatToIntL[float64, int8])
		case ctU8:
			return vconv(cvttF64I8Z, cvttF64I8ZPer, floatToIntL[float64, uint8])
		case ctI16:
			return vconv(cvttF64I16Z, cvttF64I16ZPer, floatToIntL[float64, int16])
		case ctU16:
			return vconv(cvttF64I16Z, cvttF64I16ZPer, floatToIntL[float64, uint16])
		case ctBool:
			return vconv(cvtF64BoolZ, cvtF64BoolZPer, nonzeroL[float64])
		}
	}
	return nil
}

// vconv returns the kernel that converts with asm, a kernel on elements
// of the same sizes as D and S, and finishes with ref.
func vconv[D, S, KD, KS any](asm func(d []KD, a []KS), per int, ref func(d []D, a []S)) kfn {
	return un(func(d []D, a []S) {
		a = a[:len(d)]
		if n := len(d) - len(d)%per; n > 0 {
			asm(sameSize[KD](d[:n]), sameSize[KS](a[:n]))
			d, a = d[n:], a[n:]
		}
		ref(d, a)
	})
}

// vconvVia32 returns the kernel from floats to 8- or 16-bit integers that
// truncates to int32 with asm (the integer indefinite for NaN and values
// out of range, like cvtt32), then wraps, as floatToInt does; ref
// finishes.
func vconvVia32[D int8 | uint8 | int16 | uint16, S float32 | float64](asm func(d []int32, a []S), per int, ref func(d []D, a []S)) kfn {
	return un(func(d []D, a []S) {
		var tmp [512]int32 // a multiple of every per
		a = a[:len(d)]
		for len(d) >= per {
			k := min(len(d), len(tmp))
			k -= k % per
			asm(tmp[:k], a[:k])
			for i, v := range tmp[:k] {
				d[i] = D(v)
			}
			d, a = d[k:], a[k:]
		}
		ref(d, a)
	})
}

// sameSize returns s as a slice of U, an element type of the same size.
func sameSize[U, T any](s []T) []U {
	if unsafe.Sizeof(*new(U)) != unsafe.Sizeof(*new(T)) {
		panic("cpu: sameSize of different sizes")
	}
	return unsafe.Slice((*U)(unsafe.Pointer(unsafe.SliceData(s))), len(s))
}
