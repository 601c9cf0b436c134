//go:build amd64 && !purego

package cpu

//go:noescape
func cmulC64AVX2(d, a, b []complex64) (nan bool)

//go:noescape
func cmulC128AVX2(d, a, b []complex128) (nan bool)

// cmulC64 sets d[i] = a[i]·b[i] as cmulParts computes it, four a time
// with AVX2 (cmul_amd64.s); elements with a NaN part are computed again
// by cmulGo, for its NaN's payload.
func cmulC64(d, a, b []complex64) {
	a, b = a[:len(d)], b[:len(d)]
	if n := len(d) &^ 3; haveAVX2 && n > 0 {
		if cmulC64AVX2(d[:n], a[:n], b[:n]) {
			for i, z := range d[:n] {
				if real(z) != real(z) || imag(z) != imag(z) {
					cmulGo(d[i:i+1], a[i:i+1], b[i:i+1])
				}
			}
		}
		d, a, b = d[n:], a[n:], b[n:]
	}
	cmulGo(d, a, b)
}

// cmulC128 is cmulC64 for complex128, two a time.
func cmulC128(d, a, b []complex128) {
	a, b = a[:len(d)], b[:len(d)]
	if n := len(d) &^ 1; haveAVX2 && n > 0 {
		if cmulC128AVX2(d[:n], a[:n], b[:n]) {
			for i, z := range d[:n] {
				if real(z) != real(z) || imag(z) != imag(z) {
					cmulGo128(d[i:i+1], a[i:i+1], b[i:i+1])
				}
			}
		}
		d, a, b = d[n:], a[n:], b[n:]
	}
	cmulGo128(d, a, b)
}
