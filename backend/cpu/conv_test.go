package cpu

import (
	"bytes"
	"math"
	"math/rand"
	"testing"

	"github.com/tensorsh/tensorsh/dtypes"
)

// convTypes are the real compute types, with the dtype each computes.
var convTypes = []struct {
	ct ctype
	dt dtypes.DType
}{
	{ctBool, dtypes.Bool}, {ctI8, dtypes.I8}, {ctI16, dtypes.I16}, {ctI32, dtypes.I32}, {ctI64, dtypes.I64},
	{ctU8, dtypes.U8}, {ctU16, dtypes.U16}, {ctU32, dtypes.U32}, {ctU64, dtypes.U64},
	{ctF32, dtypes.F32}, {ctF64, dtypes.F64},
}

// refConvKernel is the Go conversion loop castKernel used before
// vecConvKernel (cast.go: toBoolKernel, fromBoolKernel, fromInt,
// fromFloat).
func refConvKernel(cf ctype, to dtypes.DType) kfn {
	if to == dtypes.Bool {
		return toBoolKernel(cf)
	}
	switch cf {
	case ctBool:
		return fromBoolKernel(computeOf(to))
	case ctI8:
		return fromInt[int8](to)
	case ctI16:
		return fromInt[int16](to)
	case ctI32:
		return fromInt[int32](to)
	case ctI64:
		return fromInt[int64](to)
	case ctU8:
		return fromInt[uint8](to)
	case ctU16:
		return fromInt[uint16](to)
	case ctU32:
		return fromInt[uint32](to)
	case ctU64:
		return fromInt[uint64](to)
	case ctF32:
		return fromFloat[float32](to)
	}
	return fromFloat[float64](to)
}

// convSource returns n random elements of ct with its edge values planted
// throughout: integer extremes and wrap-around values; for floats ±0,
// ±Inf, NaNs with payloads (signaling and quiet, both signs), subnormals,
// the int32 limits and their neighbours, and integers float32 cannot hold.
func convSource(rng *rand.Rand, ct ctype, n int) any {
	buf := newBuf(ct, n)
	raw := bufBytes(buf)
	rng.Read(raw)
	switch b := buf.(type) {
	case []bool:
		for i := range raw {
			raw[i] &= 1
		}
	case []float32:
		edges := []float32{0, float32(math.Copysign(0, -1)), float32(math.Inf(1)), float32(math.Inf(-1)),
			math.Float32frombits(0x7F800001), math.Float32frombits(0xFFA00001), math.Float32frombits(0x7FC12345),
			math.Float32frombits(0xFFFFFFFF), math.Float32frombits(1), math.Float32frombits(0x807FFFFF),
			2147483648, -2147483648, 2147483520, -2147483520, 2147483904, 0.5, -0.99, 1e30, -1e30, 16777217,
			0x1p63, -0x1p63, 0x1.fffffep62, -0x1.fffffep62}
		for i := range b {
			switch i % 3 {
			case 0:
				b[i] = edges[rng.Intn(len(edges))]
			case 1:
				b[i] = float32(rng.NormFloat64() * 1e4)
			}
		}
	case []float64:
		edges := []float64{0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1),
			math.Float64frombits(0x7FF0000000000001), math.Float64frombits(0xFFF4000000000001),
			math.Float64frombits(0x7FF8000012345678), math.Float64frombits(0xFFFFFFFFFFFFFFFF),
			math.Float64frombits(1), math.Float64frombits(0x800FFFFFFFFFFFFF), math.MaxFloat64,
			2147483648, -2147483648, 2147483647.9, -2147483648.9, -2147483649, 2147483647,
			0x1p63, -0x1p63, 0x1.fffffffffffffp62, -0x1.fffffffffffffp62, 0x1p64, -9.3e18,
			0x1p-149, 0x1p-150, 0x1.8p-150, 3.4028235677973366e38, 3.4028235677973362e38, 1 + 0x1p-24, 1 + 0x1p-24 + 0x1p-52}
		for i := range b {
			switch i % 3 {
			case 0:
				b[i] = edges[rng.Intn(len(edges))]
			case 1:
				b[i] = rng.NormFloat64() * 1e6
			}
		}
	case []int32:
		edges := []int32{math.MinInt32, math.MaxInt32, -1, 0, 1, 16777217, -16777217, 1<<24 + 3}
		for i := 0; i < len(b); i += 3 {
			b[i] = edges[rng.Intn(len(edges))]
		}
	case []int64:
		edges := []int64{math.MinInt64, math.MaxInt64, -1, 0, 1, 1<<53 + 1, -(1<<53 + 1), 1<<24 + 1, 1<<62 + 1<<39 + 1, 1<<62 + 1<<38}
		for i := 0; i < len(b); i += 2 {
			b[i] = edges[rng.Intn(len(edges))] >> (rng.Intn(2) * rng.Intn(40))
		}
	case []uint32:
		edges := []uint32{0, 1, math.MaxUint32, 1 << 31, 1<<31 + 1, 1<<24 + 1, 1<<31 + 1<<7, 1<<31 + 1<<8 + 1}
		for i := 0; i < len(b); i += 2 {
			b[i] = edges[rng.Intn(len(edges))] >> (rng.Intn(2) * rng.Intn(20))
		}
	case []uint64:
		edges := []uint64{0, 1, math.MaxUint64, 1 << 63, 1<<63 + 1, 1<<53 + 1, 1<<63 + 1<<10, 1<<63 + 1<<11 + 1, 1<<64 - 1<<11}
		for i := 0; i < len(b); i += 2 {
			b[i] = edges[rng.Intn(len(edges))] >> (rng.Intn(2) * rng.Intn(40))
		}
	case []int8:
		for i := 0; i < len(b); i += 5 {
			b[i] = []int8{math.MinInt8, math.MaxInt8, -1}[rng.Intn(3)]
		}
	case []int16:
		for i := 0; i < len(b); i += 5 {
			b[i] = []int16{math.MinInt16, math.MaxInt16, -1}[rng.Intn(3)]
		}
	}
	return buf
}

// TestVecConv checks every vector conversion kernel (conv_amd64.s, from
// gen_conv.go) bit for bit against the Go loop it replaces, on random
// inputs with edge values, every length 0..70 at head offsets 0..3, and a
// long slice; nothing past the end may change. The Go loops follow Go's
// conversion rules (https://go.dev/ref/spec#Conversions: integers
// sign- or zero-extend by the source's type, int → float rounds to
// nearest even) and NumPy's x86-64 float → int32 (cvttss2si / cvttsd2si,
// castKernel's comment), which VCVTTPS2DQ and VCVTTPD2DQ also give.
func TestVecConv(t *testing.T) {
	rng := rand.New(rand.NewSource(11))
	found := 0
	for _, from := range convTypes {
		for _, to := range convTypes {
			vec := vecConvKernel(from.ct, to.ct)
			if vec == nil {
				continue
			}
			found++
			ref := refConvKernel(from.ct, to.dt)
			for _, n := range append(rangeInts(71), 1000, 4099) {
				for off := range 4 {
					src := sliceBuf(convSource(rng, from.ct, off+n), off, off+n)
					want := newBuf(to.ct, off+n+1)
					got := newBuf(to.ct, off+n+1)
					rng.Read(bufBytes(want))
					copy(bufBytes(got), bufBytes(want))
					if err := ref(sliceBuf(want, off, off+n), []any{src}); err != nil {
						t.Fatal(err)
					}
					if err := vec(sliceBuf(got, off, off+n), []any{src}); err != nil {
						t.Fatal(err)
					}
					if !bytes.Equal(bufBytes(got), bufBytes(want)) {
						for i := range n {
							g := bufBytes(sliceBuf(got, off+i, off+i+1))
							w := bufBytes(sliceBuf(want, off+i, off+i+1))
							if !bytes.Equal(g, w) {
								t.Fatalf("%v → %v, n %d off %d: element %d (%v) gives %x, want %x",
									from.dt, to.dt, n, off, i, sliceBuf(src, i, i+1), g, w)
							}
						}
						t.Fatalf("%v → %v, n %d off %d: elements outside the slice changed", from.dt, to.dt, n, off)
					}
				}
			}
		}
	}
	if haveAVX2 && found == 0 {
		t.Fatal("AVX2 but no vector conversion kernels")
	}
	t.Logf("%d conversions checked (AVX2 %v, AVX-512 DQ/VL %v)", found, haveAVX2, vecConvKernel(ctI64, ctF64) != nil)
}

func rangeInts(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}

// BenchmarkVecConv compares the vector conversion kernels with the Go
// loops on a cache-resident slice.
func BenchmarkVecConv(b *testing.B) {
	const n = 16384
	rng := rand.New(rand.NewSource(1))
	for _, c := range []struct{ from, to ctype }{
		{ctI8, ctI16}, {ctU8, ctI32}, {ctI32, ctI64}, {ctBool, ctI64}, {ctBool, ctF32},
		{ctU8, ctF32}, {ctI32, ctF64}, {ctF32, ctF64}, {ctF64, ctF32}, {ctF32, ctI32},
	} {
		vec := vecConvKernel(c.from, c.to)
		if vec == nil {
			continue
		}
		var from, to dtypes.DType
		for _, t := range convTypes {
			if t.ct == c.from {
				from = t.dt
			}
			if t.ct == c.to {
				to = t.dt
			}
		}
		src := []any{convSource(rng, c.from, n)}
		dst := newBuf(c.to, n)
		for _, k := range []struct {
			name string
			f    kfn
		}{{"go", refConvKernel(c.from, to)}, {"avx2", vec}} {
			b.Run(from.String()+"-"+to.String()+"/"+k.name, func(b *testing.B) {
				b.SetBytes(n)
				for range b.N {
					k.f(dst, src)
				}
			})
		}
	}
}
