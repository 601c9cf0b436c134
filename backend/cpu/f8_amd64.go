//go:build amd64 && !purego

package cpu

//go:noescape
func f32sToE4M3AVX2(d []uint8, a []float32)

//go:noescape
func f32sToE5M2AVX2(d []uint8, a []float32)

// f32sToE4M3 sets d[i] = f32ToE4M3(a[i]), 8 at a time with AVX2
// (f8_amd64.s).
func f32sToE4M3(d []uint8, a []float32) {
	a = a[:len(d)]
	if n := len(d) &^ 7; haveAVX2 && n > 0 {
		f32sToE4M3AVX2(d[:n], a[:n])
		d, a = d[n:], a[n:]
	}
	f32sToE4M3Go(d, a)
}

// f32sToE5M2 sets d[i] = f32ToE5M2(a[i]).
func f32sToE5M2(d []uint8, a []float32) {
	a = a[:len(d)]
	if n := len(d) &^ 7; haveAVX2 && n > 0 {
		f32sToE5M2AVX2(d[:n], a[:n])
		d, a = d[n:], a[n:]
	}
	f32sToE5M2Go(d, a)
}
