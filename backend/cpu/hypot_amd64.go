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
