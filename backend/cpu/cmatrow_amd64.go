//go:build amd64 && !purego

package cpu

//go:noescape
func cmatRowC128AVX2(acc, a, b *complex128, k, cols int)

// cmatRow sets acc (zero, cols numbers) to mmComplex's sums for a row a of
// k complex128 and b (k rows of cols), by cmatRowC128AVX2, and reports
// whether it did (not without AVX2). The bits are the Go loop's but for
// a NaN's payload, which neither pins (the compiler orders the operands
// of the loop's additions as it likes). z @ z[:, :10] of 1000×1000
// complex128 took 5.7 ms in the Go loop, NumPy (zgemm) 2.2.
func cmatRow(acc, a, b []complex128, k, cols int) bool {
	if !haveAVX2 || k == 0 || cols == 0 {
		return false
	}
	_, _, _ = acc[cols-1], a[k-1], b[k*cols-1]
	cmatRowC128AVX2(&acc[0], &a[0], &b[0], k, cols)
	return true
}

//go:noescape
func cmvPairC128AVX2(acc *[2]complex128, a0, a1, x *complex128, k int)

// cmvPair sets d[0] and d[1] to mmComplex's sums for the rows a0 and a1 of
// k complex128 times x (a matrix-vector product), by cmvPairC128AVX2, and
// reports whether it did (not without AVX2; the bits are mmComplex's but
// for a NaN's payload, as cmatRow's). z @ z[0] of 1000×1000 complex128
// took 1.95 ms a row at a time, NumPy (zgemv) 0.14.
func cmvPair(d, a0, a1, x []complex128, k int) bool {
	if !haveAVX2 || k == 0 {
		return false
	}
	_, _, _, _ = d[1], a0[k-1], a1[k-1], x[k-1]
	var acc [2]complex128
	cmvPairC128AVX2(&acc, &a0[0], &a1[0], &x[0], k)
	d[0], d[1] = acc[0], acc[1]
	return true
}

//go:noescape
func cmvPairC64AVX2(acc *[2]complex128, a0, a1 *complex64, x *complex128, k int)

// cmvPair64 is cmvPair for rows of complex64 (widened as they are read)
// and x widened to complex128, the sums left in complex128.
func cmvPair64(d []complex128, a0, a1 []complex64, x []complex128, k int) bool {
	if !haveAVX2 || k == 0 {
		return false
	}
	_, _, _, _ = d[1], a0[k-1], a1[k-1], x[k-1]
	var acc [2]complex128
	cmvPairC64AVX2(&acc, &a0[0], &a1[0], &x[0], k)
	d[0], d[1] = acc[0], acc[1]
	return true
}
