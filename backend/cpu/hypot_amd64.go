//go:build amd64 && !purego

package cpu

//go:noescape
func absC64AVX2(d []float32, a []complex64) (nan bool)

// absC64 sets d[i] = hypotF32(real(a[i]), imag(a[i])), four a time with
// AVX2 (hypot_amd64.s).
func absC64(d []float32, a []complex64) {
	a = a[:len(d)]
	if n := len(d) &^ 3; haveAVX2 && n > 0 {
		if absC64AVX2(d[:n], a[:n]) {
			for i, v := range d[:n] {
				if v != v {
					d[i] = hypotF32(real(a[i]), imag(a[i]))
				}
			}
		}
		d, a = d[n:], a[n:]
	}
	absC64Go(d, a)
}

//go:noescape
func scaledCAbsC64AVX2(d []float32, a []complex64)

// scaledCAbsC64 sets d[i] = scaledCAbs(real(a[i]), imag(a[i])), eight a
// time with AVX2 and FMA (hypot_amd64.s).
func scaledCAbsC64(d []float32, a []complex64) {
	a = a[:len(d)]
	if n := len(d) &^ 7; haveAVX2 && n > 0 {
		scaledCAbsC64AVX2(d[:n], a[:n])
		d, a = d[n:], a[n:]
	}
	scaledCAbsC64Go(d, a)
}

//go:noescape
func scaledCAbsC128AVX2(d []float64, a []complex128)

// scaledCAbsC128 sets d[i] = scaledCAbs(real(a[i]), imag(a[i])), four a
// time with AVX2 and FMA (hypot_amd64.s).
func scaledCAbsC128(d []float64, a []complex128) {
	a = a[:len(d)]
	if n := len(d) &^ 3; haveAVX2 && n > 0 {
		scaledCAbsC128AVX2(d[:n], a[:n])
		d, a = d[n:], a[n:]
	}
	scaledCAbsC128Go(d, a)
}
