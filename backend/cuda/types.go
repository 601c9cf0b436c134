package cuda

import (
	"unsafe"

	"github.com/tensorsh/tensorsh/backend"
	"github.com/tensorsh/tensorsh/dtypes"
)

// A ctype is a compute type (backend.CType) with the names the generated
// C code gives it.
type ctype backend.CType

const (
	ctBool = ctype(backend.CBool)
	ctI8   = ctype(backend.CI8)
	ctI16  = ctype(backend.CI16)
	ctI32  = ctype(backend.CI32)
	ctI64  = ctype(backend.CI64)
	ctU8   = ctype(backend.CU8)
	ctU16  = ctype(backend.CU16)
	ctU32  = ctype(backend.CU32)
	ctU64  = ctype(backend.CU64)
	ctF32  = ctype(backend.CF32)
	ctF64  = ctype(backend.CF64)
	ctC64  = ctype(backend.CC64)
	ctC128 = ctype(backend.CC128)
)

// computeOf returns the compute type of d (d must be valid).
func computeOf(d dtypes.DType) ctype { return ctype(backend.ComputeOf(d)) }

func (c ctype) isInt() bool     { return backend.CType(c).IsInt() }
func (c ctype) isSigned() bool  { return backend.CType(c).IsSigned() }
func (c ctype) isFloat() bool   { return backend.CType(c).IsFloat() }
func (c ctype) isComplex() bool { return backend.CType(c).IsComplex() }

var ctNames = [...]string{
	ctBool: "bool", ctI8: "i8", ctI16: "i16", ctI32: "i32", ctI64: "i64",
	ctU8: "u8", ctU16: "u16", ctU32: "u32", ctU64: "u64",
	ctF32: "float", ctF64: "double", ctC64: "c64", ctC128: "c128",
}

// C returns the C name of the compute type.
func (c ctype) C() string { return ctNames[c] }

// part returns the C type of a complex number's parts (or of a float).
func (c ctype) part() string {
	if c == ctC64 || c == ctF32 {
		return "float"
	}
	return "double"
}

// wrapType returns the unsigned C type integer arithmetic of c wraps in:
// at least 32 bits, so that C's promotions never make it signed.
func (c ctype) wrapType() string {
	if c == ctI64 || c == ctU64 {
		return "u64"
	}
	return "u32"
}

// storageC returns the C type of d's storage.
func storageC(d dtypes.DType) string {
	switch d {
	case dtypes.Bool, dtypes.F8E4M3, dtypes.F8E5M2:
		return "u8"
	case dtypes.F16, dtypes.BF16:
		return "u16"
	}
	return computeOf(d).C()
}

// loadC returns the C expression reading storage element idx of ptr (a
// pointer to d's storage) as d's compute type.
// With ptr empty, idx is the storage value itself.
func loadC(h *helperSet, d dtypes.DType, ptr, idx string) string {
	x := ptr + "[" + idx + "]"
	if ptr == "" {
		x = idx
	}
	switch d {
	case dtypes.Bool:
		return "(" + x + " != 0)"
	case dtypes.F16:
		h.add("f16dec")
		return "ts_f16_dec(" + x + ")"
	case dtypes.BF16:
		h.add("bf16")
		return "ts_bf16_dec(" + x + ")"
	case dtypes.F8E4M3:
		h.add("e4m3")
		return "ts_e4m3_dec(" + x + ")"
	case dtypes.F8E5M2:
		h.add("e5m2")
		return "ts_e5m2_dec(" + x + ")"
	}
	return x
}

// storeC returns the C expression turning v (d's compute type, holding a
// value of d) into d's storage.
func storeC(h *helperSet, d dtypes.DType, v string) string {
	switch d {
	case dtypes.Bool:
		return "(u8)(" + v + ")"
	case dtypes.F16:
		h.add("f16enc")
		return "ts_f16_enc(" + v + ")"
	case dtypes.BF16:
		h.add("bf16")
		return "ts_bf16_enc(" + v + ")"
	case dtypes.F8E4M3:
		h.add("e4m3")
		return "ts_e4m3_enc(" + v + ")"
	case dtypes.F8E5M2:
		h.add("e5m2")
		return "ts_e5m2_enc(" + v + ")"
	}
	return v
}

// roundF32C returns v (a float) rounded to the narrow dtype d.
func roundF32C(h *helperSet, d dtypes.DType, v string) string {
	switch d {
	case dtypes.F16:
		h.add("f16dec")
		h.add("f16enc")
		return "ts_f16_dec(ts_f16_enc(" + v + "))"
	case dtypes.BF16:
		h.add("bf16")
		return "ts_bf16_dec(ts_bf16_enc(" + v + "))"
	case dtypes.TF32:
		h.add("tf32")
		return "ts_tf32_round(" + v + ")"
	case dtypes.F8E4M3:
		h.add("e4m3")
		return "ts_e4m3_dec(ts_e4m3_enc(" + v + "))"
	case dtypes.F8E5M2:
		h.add("e5m2")
		return "ts_e5m2_dec(ts_e5m2_enc(" + v + "))"
	}
	return v
}

// round64C returns x (a double) rounded once to the float dtype d (f32
// or narrower) as a float, like the CPU backend's roundTo64.
func round64C(h *helperSet, d dtypes.DType, x string) string {
	switch d {
	case dtypes.F16:
		h.add("f16from64")
		return "ts_f16_from64(" + x + ")"
	case dtypes.BF16:
		h.add("bf16from64")
		return "ts_bf16_from64(" + x + ")"
	case dtypes.TF32:
		h.add("tf32from64")
		return "ts_tf32_from64(" + x + ")"
	case dtypes.F8E4M3:
		h.add("e4m3from64")
		return "ts_e4m3_from64(" + x + ")"
	case dtypes.F8E5M2:
		h.add("e5m2from64")
		return "ts_e5m2_from64(" + x + ")"
	}
	return "(float)(" + x + ")"
}

// castC returns the C expression converting v (a variable or a
// parenthesised expression of from's compute type) to dtype to, with the
// CPU backend's rules (backend/cpu cast.go castKernel).
func castC(h *helperSet, from, to dtypes.DType, v string) string {
	cf, ct := computeOf(from), computeOf(to)
	if cf == ct && (!backend.Narrow(to) || from == to) {
		return v
	}
	switch {
	case ct == ctBool:
		if cf.isComplex() {
			return "(" + v + ".re != 0 || " + v + ".im != 0)"
		}
		return "(" + v + " != 0)"
	case cf == ctBool:
		if ct.isComplex() {
			return ct.C() + "{(" + ct.part() + ")(" + v + " ? 1 : 0), (" + ct.part() + ")0}"
		}
		return "(" + ct.C() + ")(" + v + " ? 1 : 0)"
	case cf.isComplex():
		if ct.isComplex() {
			return ct.C() + "{(" + ct.part() + ")" + v + ".re, (" + ct.part() + ")" + v + ".im}"
		}
		return castC(h, from.Real(), to, v+".re")
	case ct.isComplex():
		return ct.C() + "{" + castC(h, from, to.Real(), v) + ", (" + ct.part() + ")0}"
	case cf.isInt():
		if backend.Narrow(to) {
			h.add("odd")
			if cf.isSigned() {
				return round64C(h, to, "ts_i64_odd((i64)"+v+")")
			}
			return round64C(h, to, "ts_u64_odd((u64)"+v+")")
		}
		return "(" + ct.C() + ")" + v
	}
	// From a float computed in float or double.
	if backend.Narrow(to) {
		if cf == ctF32 {
			return roundF32C(h, to, v)
		}
		return round64C(h, to, v)
	}
	if ct.isInt() {
		h.add("cvtt")
		x := "(double)" + v
		switch ct {
		case ctI8, ctI16, ctU8, ctU16:
			return "(" + ct.C() + ")ts_cvtt32(" + x + ")"
		case ctI32:
			return "ts_cvtt32(" + x + ")"
		case ctU32:
			return "(u32)ts_cvtt64(" + x + ")"
		case ctI64:
			return "ts_cvtt64(" + x + ")"
		}
		return "ts_cvttu64(" + x + ")"
	}
	return "(" + ct.C() + ")" + v
}

// Host storage.

// hostBytes returns the bytes of a CPU-form storage slice for dtype d and
// n elements, or an error when data is not such a slice.
func hostBytes(d dtypes.DType, data any, n int) ([]byte, error) {
	if err := backend.CheckStorage(d, data, n); err != nil {
		return nil, err
	}
	size := n * backend.ElemSize(d)
	if size == 0 {
		return nil, nil
	}
	var p unsafe.Pointer
	switch s := data.(type) {
	case []bool:
		p = unsafe.Pointer(unsafe.SliceData(s))
	case []int8:
		p = unsafe.Pointer(unsafe.SliceData(s))
	case []int16:
		p = unsafe.Pointer(unsafe.SliceData(s))
	case []int32:
		p = unsafe.Pointer(unsafe.SliceData(s))
	case []int64:
		p = unsafe.Pointer(unsafe.SliceData(s))
	case []uint8:
		p = unsafe.Pointer(unsafe.SliceData(s))
	case []uint16:
		p = unsafe.Pointer(unsafe.SliceData(s))
	case []uint32:
		p = unsafe.Pointer(unsafe.SliceData(s))
	case []uint64:
		p = unsafe.Pointer(unsafe.SliceData(s))
	case []float32:
		p = unsafe.Pointer(unsafe.SliceData(s))
	case []float64:
		p = unsafe.Pointer(unsafe.SliceData(s))
	case []complex64:
		p = unsafe.Pointer(unsafe.SliceData(s))
	case []complex128:
		p = unsafe.Pointer(unsafe.SliceData(s))
	}
	return unsafe.Slice((*byte)(p), size), nil
}
