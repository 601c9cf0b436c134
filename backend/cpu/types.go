package cpu

import (
	"fmt"
	"math"
	"sync"
	"unsafe"

	"github.com/tensorsh/tensorsh/backend"
	"github.com/tensorsh/tensorsh/dtypes"
)

// Type constraints for the typed loops.
type (
	signed interface {
		~int8 | ~int16 | ~int32 | ~int64
	}
	unsigned interface {
		~uint8 | ~uint16 | ~uint32 | ~uint64
	}
	integer interface{ signed | unsigned }
	float   interface{ ~float32 | ~float64 }
	realNum interface{ integer | float }
	cplx    interface{ ~complex64 | ~complex128 }
	number  interface{ integer | float | cplx }
)

// A ctype is the type a dtype is computed in (see backend.CType); the Go
// types of the compute buffers follow it.
type ctype = backend.CType

// The compute types, under this package's short names.
const (
	ctBool = backend.CBool
	ctI8   = backend.CI8
	ctI16  = backend.CI16
	ctI32  = backend.CI32
	ctI64  = backend.CI64
	ctU8   = backend.CU8
	ctU16  = backend.CU16
	ctU32  = backend.CU32
	ctU64  = backend.CU64
	ctF32  = backend.CF32
	ctF64  = backend.CF64
	ctC64  = backend.CC64
	ctC128 = backend.CC128
)

// computeOf returns the compute type of d.
func computeOf(d dtypes.DType) ctype { return backend.ComputeOf(d) }

// narrow reports whether results of d must be rounded back to d after
// every operation (see backend.Narrow).
func narrow(d dtypes.DType) bool { return backend.Narrow(d) }

// identityStorage reports whether d is stored in its compute type, so that
// contiguous data can be used as a compute buffer without conversion.
func identityStorage(d dtypes.DType) bool {
	switch d {
	case dtypes.F16, dtypes.BF16, dtypes.F8E4M3, dtypes.F8E5M2, dtypes.C32:
		return false
	}
	return true
}

// newBuf returns a compute buffer of n elements of type ct.
func newBuf(ct ctype, n int) any {
	switch ct {
	case ctBool:
		return make([]bool, n)
	case ctI8:
		return make([]int8, n)
	case ctI16:
		return make([]int16, n)
	case ctI32:
		return make([]int32, n)
	case ctI64:
		return make([]int64, n)
	case ctU8:
		return make([]uint8, n)
	case ctU16:
		return make([]uint16, n)
	case ctU32:
		return make([]uint32, n)
	case ctU64:
		return make([]uint64, n)
	case ctF32:
		return make([]float32, n)
	case ctF64:
		return make([]float64, n)
	case ctC64:
		return make([]complex64, n)
	case ctC128:
		return make([]complex128, n)
	}
	panic("cpu: bad ctype")
}

// sliceBuf returns buf[lo:hi] for a compute buffer or storage slice.
func sliceBuf(buf any, lo, hi int) any {
	switch b := buf.(type) {
	case []bool:
		return b[lo:hi]
	case []int8:
		return b[lo:hi]
	case []int16:
		return b[lo:hi]
	case []int32:
		return b[lo:hi]
	case []int64:
		return b[lo:hi]
	case []uint8:
		return b[lo:hi]
	case []uint16:
		return b[lo:hi]
	case []uint32:
		return b[lo:hi]
	case []uint64:
		return b[lo:hi]
	case []float32:
		return b[lo:hi]
	case []float64:
		return b[lo:hi]
	case []complex64:
		return b[lo:hi]
	case []complex128:
		return b[lo:hi]
	}
	panic(fmt.Sprintf("cpu: bad buffer %T", buf))
}

// bufLen returns the length of a compute buffer or storage slice.
func bufLen(buf any) int {
	switch b := buf.(type) {
	case []bool:
		return len(b)
	case []int8:
		return len(b)
	case []int16:
		return len(b)
	case []int32:
		return len(b)
	case []int64:
		return len(b)
	case []uint8:
		return len(b)
	case []uint16:
		return len(b)
	case []uint32:
		return len(b)
	case []uint64:
		return len(b)
	case []float32:
		return len(b)
	case []float64:
		return len(b)
	case []complex64:
		return len(b)
	case []complex128:
		return len(b)
	}
	return -1
}

// Decoding tables for the narrow floats: the float32 value of every bit
// pattern (all are exact in float32).
var (
	tablesOnce sync.Once
	f16Table   []float32 // 65536 entries
	e4m3Table  [256]float32
	e5m2Table  [256]float32
)

func initTables() {
	tablesOnce.Do(func() {
		t := make([]float32, 1<<16)
		for i := range t {
			t[i] = float32(dtypes.F16ToFloat64(uint16(i)))
		}
		f16Table = t
		for i := range 256 {
			e4m3Table[i] = float32(dtypes.F8E4M3ToFloat64(uint8(i)))
			e5m2Table[i] = float32(dtypes.F8E5M2ToFloat64(uint8(i)))
		}
	})
}

// bf16Value returns the float32 value of the bfloat16 bits b.
func bf16Value(b uint16) float32 { return math.Float32frombits(uint32(b) << 16) }

// bf16sToF32Go sets d[i] = bf16Value(a[i]).
func bf16sToF32Go(d []float32, a []uint16) {
	a = a[:len(d)]
	for i, b := range a {
		d[i] = bf16Value(b)
	}
}

// f16Bits rounds x to binary16 once (x is exact in float64).
func f16Bits(x float32) uint16 { return f32ToF16(x) }

// roundFloat32 rounds the float32 values of buf to the narrow dtype d in
// place (RNE), so that they hold exactly the values a tensor of d can.
func roundFloat32(d dtypes.DType, buf []float32) {
	switch d {
	case dtypes.F16:
		roundF16(buf)
	case dtypes.BF16:
		roundBF16(buf)
	case dtypes.TF32:
		for i, x := range buf {
			buf[i] = tf32Round(x)
		}
	case dtypes.F8E4M3:
		roundF8(buf, false)
	case dtypes.F8E5M2:
		roundF8(buf, true)
	}
}

// roundComplex32 rounds each part of the complex64 values of buf to
// float16 in place (RNE), as c10::complex<c10::Half> stores a
// complex<float> result.
func roundComplex32(buf []complex64) {
	for i, z := range buf {
		buf[i] = complex(f16Table[f16Bits(real(z))], f16Table[f16Bits(imag(z))])
	}
}

// roundBuf rounds the compute buffer buf (float32, or complex64 for
// complex32) to the narrow dtype d in place.
func roundBuf(d dtypes.DType, buf any) {
	if d == dtypes.C32 {
		roundComplex32(buf.([]complex64))
		return
	}
	roundFloat32(d, buf.([]float32))
}

// c32Value returns the complex64 value of the complex32 bits b.
func c32Value(b uint32) complex64 {
	return complex(f16Table[uint16(b)], f16Table[uint16(b>>16)])
}

// c32Bits returns the complex32 bits of z, whose parts are float16 values
// (or are rounded to them).
func c32Bits(z complex64) uint32 {
	return uint32(f16Bits(real(z))) | uint32(f16Bits(imag(z)))<<16
}

// roundTo64 returns x rounded to the float dtype d, as a float32 holding the
// exact value (d is computed in float32). Every rounding is a single one
// from x, except bf16, which rounds through float32 like the reference
// libraries (see dtypes.BF16FromFloat64).
func roundTo64(d dtypes.DType, x float64) float32 {
	switch d {
	case dtypes.F16:
		return f16Table[f64ToF16(x)]
	case dtypes.BF16:
		return bf16Value(f64ToBF16(x))
	case dtypes.TF32:
		return float32(dtypes.FloatFromFloat64(dtypes.TF32, x))
	case dtypes.F8E4M3:
		return e4m3Table[f64ToE4M3(x)]
	case dtypes.F8E5M2:
		return e5m2Table[f64ToE5M2(x)]
	}
	return float32(x)
}

// loadSeg converts n storage elements of dtype d, read from data at pos,
// pos+st, pos+2st, … into the compute buffer dst (of d's compute type).
func loadSeg(d dtypes.DType, dst, data any, pos, st, n int) {
	switch d {
	case dtypes.F16, dtypes.BF16, dtypes.F8E4M3, dtypes.F8E5M2:
		loadNarrow(d, dst.([]float32)[:n], data, pos, st)
		return
	case dtypes.C32:
		out, src := dst.([]complex64)[:n], data.([]uint32)
		for i := range out {
			out[i] = c32Value(src[pos])
			pos += st
		}
		return
	}
	switch src := data.(type) {
	case []bool:
		copySeg(dst.([]bool)[:n], src, pos, st)
	case []int8:
		copySeg(dst.([]int8)[:n], src, pos, st)
	case []int16:
		copySeg(dst.([]int16)[:n], src, pos, st)
	case []int32:
		copySeg(dst.([]int32)[:n], src, pos, st)
	case []int64:
		copySeg(dst.([]int64)[:n], src, pos, st)
	case []uint8:
		copySeg(dst.([]uint8)[:n], src, pos, st)
	case []uint16:
		copySeg(dst.([]uint16)[:n], src, pos, st)
	case []uint32:
		copySeg(dst.([]uint32)[:n], src, pos, st)
	case []uint64:
		copySeg(dst.([]uint64)[:n], src, pos, st)
	case []float32:
		copySeg(dst.([]float32)[:n], src, pos, st)
	case []float64:
		copySeg(dst.([]float64)[:n], src, pos, st)
	case []complex64:
		copySeg(dst.([]complex64)[:n], src, pos, st)
	case []complex128:
		copySeg(dst.([]complex128)[:n], src, pos, st)
	default:
		panic(fmt.Sprintf("cpu: bad storage %T", data))
	}
}

// copySeg copies src[pos], src[pos+st], … into dst.
func copySeg[T any](dst, src []T, pos, st int) {
	switch st {
	case 1:
		copy(dst, src[pos:pos+len(dst)])
	case 0:
		if len(dst) == 0 {
			return
		}
		dst[0] = src[pos]
		for f := 1; f < len(dst); f *= 2 {
			copy(dst[f:], dst[:f])
		}
	case 2:
		// Every second element (x[:, ::2]): vector loops where there
		// are some.
		n := copyEven(dst, src, pos)
		pos += 2 * n
		for i := n; i < len(dst); i++ {
			dst[i] = src[pos]
			pos += 2
		}
	default:
		for i := range dst {
			dst[i] = src[pos]
			pos += st
		}
	}
}

// loadNarrow is loadSeg for the float formats computed in float32
// (float16, bfloat16 and the 8-bit floats) into out, typed: a caller
// filling a buffer run by run passes no interface value of each run.
func loadNarrow(d dtypes.DType, out []float32, data any, pos, st int) {
	n := len(out)
	switch d {
	case dtypes.F16:
		if st == 1 {
			f16sToF32(out, data.([]uint16)[pos:pos+n])
			return
		}
		loadTable(out, data.([]uint16), pos, st, f16Table)
	case dtypes.BF16:
		src := data.([]uint16)
		if st == 1 {
			bf16sToF32(out, src[pos:pos+n])
			return
		}
		for i := range out {
			out[i] = bf16Value(src[pos])
			pos += st
		}
	case dtypes.F8E4M3:
		loadTable8(out, data.([]uint8), pos, st, &e4m3Table)
	case dtypes.F8E5M2:
		loadTable8(out, data.([]uint8), pos, st, &e5m2Table)
	default:
		panic(fmt.Sprintf("cpu: loadNarrow of %v", d))
	}
}

func loadTable(dst []float32, src []uint16, pos, st int, table []float32) {
	table = table[:1<<16]
	if st == 1 {
		src = src[pos : pos+len(dst)]
		for i, b := range src {
			dst[i] = table[b]
		}
		return
	}
	for i := range dst {
		dst[i] = table[src[pos]]
		pos += st
	}
}

func loadTable8(dst []float32, src []uint8, pos, st int, table *[256]float32) {
	if st == 1 {
		src = src[pos : pos+len(dst)]
		for i, b := range src {
			dst[i] = table[b]
		}
		return
	}
	for i := range dst {
		dst[i] = table[src[pos]]
		pos += st
	}
}

// storeSeg converts the compute buffer src (of d's compute type, holding
// values already rounded to d) into storage data[pos:pos+len(src)].
func storeSeg(d dtypes.DType, data any, pos int, src any) {
	switch d {
	case dtypes.F16:
		in := src.([]float32)
		f32sToF16(data.([]uint16)[pos:pos+len(in)], in)
		return
	case dtypes.BF16:
		in := src.([]float32)
		f32sToBF16(data.([]uint16)[pos:pos+len(in)], in)
		return
	case dtypes.F8E4M3:
		in := src.([]float32)
		f32sToE4M3(data.([]uint8)[pos:pos+len(in)], in)
		return
	case dtypes.F8E5M2:
		in := src.([]float32)
		f32sToE5M2(data.([]uint8)[pos:pos+len(in)], in)
		return
	case dtypes.C32:
		in := src.([]complex64)
		out := data.([]uint32)[pos : pos+len(in)]
		for i, z := range in {
			out[i] = c32Bits(z)
		}
		return
	}
	switch out := data.(type) {
	case []bool:
		copy(out[pos:], src.([]bool))
	case []int8:
		copy(out[pos:], src.([]int8))
	case []int16:
		copy(out[pos:], src.([]int16))
	case []int32:
		copy(out[pos:], src.([]int32))
	case []int64:
		copy(out[pos:], src.([]int64))
	case []uint8:
		copy(out[pos:], src.([]uint8))
	case []uint16:
		copy(out[pos:], src.([]uint16))
	case []uint32:
		copy(out[pos:], src.([]uint32))
	case []uint64:
		copy(out[pos:], src.([]uint64))
	case []float32:
		copy(out[pos:], src.([]float32))
	case []float64:
		copy(out[pos:], src.([]float64))
	case []complex64:
		copy(out[pos:], src.([]complex64))
	case []complex128:
		copy(out[pos:], src.([]complex128))
	default:
		panic(fmt.Sprintf("cpu: bad storage %T", data))
	}
}

// rawMin is the size in bytes from which newStorageFull does not clear
// the memory it returns (and may return recycled memory).
const rawMin = recycleMin

// newStorageFull is newStorage for storage the caller writes in full
// before anything reads it: large storage is not cleared first.
func newStorageFull(d dtypes.DType, n int) any {
	size := n * backend.ElemSize(d)
	if size < rawMin {
		return backend.NewStorage(d, n)
	}
	p := resultBytes(size)
	switch d {
	case dtypes.F16, dtypes.BF16:
		return unsafe.Slice((*uint16)(p), n)
	case dtypes.F8E4M3, dtypes.F8E5M2:
		return unsafe.Slice((*uint8)(p), n)
	case dtypes.C32:
		return unsafe.Slice((*uint32)(p), n)
	}
	return rawBuf(computeOf(d), p, n)
}

// newBufFull is newBuf for a buffer the caller writes in full (a matrix
// product's result, say): a recycled block when there is one.
func newBufFull(ct ctype, n int) any {
	size := n * ct.Size()
	if size < rawMin {
		return newBuf(ct, n)
	}
	return rawBuf(ct, resultBytes(size), n)
}

// rawBuf returns the memory at p as a buffer of n elements of type ct.
func rawBuf(ct ctype, p unsafe.Pointer, n int) any {
	switch ct {
	case ctBool:
		return unsafe.Slice((*bool)(p), n)
	case ctI8:
		return unsafe.Slice((*int8)(p), n)
	case ctI16:
		return unsafe.Slice((*int16)(p), n)
	case ctI32:
		return unsafe.Slice((*int32)(p), n)
	case ctI64:
		return unsafe.Slice((*int64)(p), n)
	case ctU8:
		return unsafe.Slice((*uint8)(p), n)
	case ctU16:
		return unsafe.Slice((*uint16)(p), n)
	case ctU32:
		return unsafe.Slice((*uint32)(p), n)
	case ctU64:
		return unsafe.Slice((*uint64)(p), n)
	case ctF32:
		return unsafe.Slice((*float32)(p), n)
	case ctF64:
		return unsafe.Slice((*float64)(p), n)
	case ctC64:
		return unsafe.Slice((*complex64)(p), n)
	case ctC128:
		return unsafe.Slice((*complex128)(p), n)
	}
	panic("cpu: bad ctype")
}

// bufBytes returns the memory of a compute buffer or storage slice as
// bytes.
func bufBytes(buf any) []byte {
	switch b := buf.(type) {
	case []bool:
		return asBytes(b)
	case []int8:
		return asBytes(b)
	case []int16:
		return asBytes(b)
	case []int32:
		return asBytes(b)
	case []int64:
		return asBytes(b)
	case []uint8:
		return b
	case []uint16:
		return asBytes(b)
	case []uint32:
		return asBytes(b)
	case []uint64:
		return asBytes(b)
	case []float32:
		return asBytes(b)
	case []float64:
		return asBytes(b)
	case []complex64:
		return asBytes(b)
	case []complex128:
		return asBytes(b)
	}
	panic(fmt.Sprintf("cpu: bad buffer %T", buf))
}

func asBytes[T any](s []T) []byte {
	if len(s) == 0 {
		return nil
	}
	var zero T
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s))), len(s)*int(unsafe.Sizeof(zero)))
}
