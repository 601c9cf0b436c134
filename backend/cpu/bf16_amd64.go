//go:build amd64 && !purego

package cpu

//go:noescape
func f32sToBF16AVX2(d []uint16, a []float32)

//go:noescape
func roundBF16AVX2(d []float32)

//go:noescape
func bf16sToF32AVX2(d []float32, a []uint16)

// bf16sToF32 sets d[i] = bf16Value(a[i]), 16 at a time with AVX2.
func bf16sToF32(d []float32, a []uint16) {
	a = a[:len(d)]
	if n := len(d) &^ 15; haveAVX2 && n > 0 {
		bf16sToF32AVX2(d[:n], a[:n])
		d, a = d[n:], a[n:]
	}
	bf16sToF32Go(d, a)
}

// f32sToBF16 sets d[i] = f32ToBF16(a[i]), 16 at a time with AVX2
// (bf16_amd64.s).
func f32sToBF16(d []uint16, a []float32) {
	a = a[:len(d)]
	if n := len(d) &^ 15; haveAVX2 && n > 0 {
		f32sToBF16AVX2(d[:n], a[:n])
		d, a = d[n:], a[n:]
	}
	f32sToBF16Go(d, a)
}

// roundBF16 rounds the values of d to bfloat16 in place.
func roundBF16(d []float32) {
	if n := len(d) &^ 15; haveAVX2 && n > 0 {
		roundBF16AVX2(d[:n])
		d = d[n:]
	}
	roundBF16Go(d)
}
