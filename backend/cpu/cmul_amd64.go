//go:build amd64 && !purego

package cpu

//go:generate go run gen_cdiv.go

//go:noescape
func cmulC64AVX2(d, a, b []complex64) (nan bool)

//go:noescape
func cmulC128AVX2(d, a, b []complex128) (nan bool)

//go:noescape
func cmulC64AVX512(d, a, b []complex64) (nan bool)

//go:noescape
func cmulC128AVX512(d, a, b []complex128) (nan bool)

//go:noescape
func cdivC64AVX2(d, a, b []complex64) (nan bool)

//go:noescape
func cdivC128AVX2(d, a, b []complex128) (nan bool)

//go:noescape
func crecipC64AVX2(d, a []complex64) (nan bool)

//go:noescape
func crecipC128AVX2(d, a []complex128) (nan bool)

// cmulC64 sets d[i] = a[i]·b[i] as cmulParts computes it, four a time
// with AVX2, eight with AVX-512 (cmul_amd64.s; the loop on 10^4
// complex64: 2.6 → 2.0 µs).
func cmulC64(d, a, b []complex64) {
	if cmulAVX512 {
		cmulVec(d, a, b, 8, cmulC64AVX512, cmulGo)
		return
	}
	cmulVec(d, a, b, 4, cmulC64AVX2, cmulGo)
}

// cmulC128 is cmulC64 for complex128, two a time (four with AVX-512).
func cmulC128(d, a, b []complex128) {
	if cmulAVX512 {
		cmulVec(d, a, b, 4, cmulC128AVX512, cmulGo128)
		return
	}
	cmulVec(d, a, b, 2, cmulC128AVX2, cmulGo128)
}

// cmulAVX512 reports whether the complex products take their AVX-512
// loops (tests turn it off to check the AVX2 ones).
var cmulAVX512 = cmulHasAVX512

// cmulHasAVX512 reports whether the CPU has the AVX-512 product loops.
var cmulHasAVX512 = haveAVX512

// cdivC64 sets d[i] = a[i]/b[i] as cdivParts computes it, four a time
// with AVX2 (cmul_amd64.s): no branch per element, where the reference
// loop's branch on |br| >= |bi| mispredicts on mixed operands (complex64
// x / y of 10^6 took 3.9 ms on two cores, NumPy's 2.8 on one; now 0.95).
func cdivC64(d, a, b []complex64) { cmulVec(d, a, b, 4, cdivC64AVX2, cdivGo) }

// cdivC128 is cdivC64 for complex128, two a time.
func cdivC128(d, a, b []complex128) { cmulVec(d, a, b, 2, cdivC128AVX2, cdivGo128) }

// crecipC64 sets d[i] = 1/a[i] as crecipParts computes it, four a time.
func crecipC64(d, a []complex64) { cunVec(d, a, 4, crecipC64AVX2, crecipGo) }

// crecipC128 is crecipC64 for complex128, two a time.
func crecipC128(d, a []complex128) { cunVec(d, a, 2, crecipC128AVX2, crecipGo128) }

// cunVec is cmulVec for an operation of one operand.
func cunVec[C complex64 | complex128](d, a []C, lanes int, vec func(d, a []C) bool, ref func(d, a []C)) {
	a = a[:len(d)]
	if n := len(d) &^ (lanes - 1); haveAVX2 && n > 0 {
		if vec(d[:n], a[:n]) {
			for i, z := range d[:n] {
				if hasNaN(z) {
					ref(d[i:i+1], a[i:i+1])
				}
			}
		}
		d, a = d[n:], a[n:]
	}
	ref(d, a)
}

// cmulVec sets d[i] = a[i]·b[i] (or a[i]/b[i]: the operation of vec and
// ref): the vector loop vec over the first len(d) - len(d)%lanes
// elements, the reference loop ref over the rest and again over each
// element with a NaN part, for its NaN's payload.
func cmulVec[C complex64 | complex128](d, a, b []C, lanes int, vec func(d, a, b []C) bool, ref func(d, a, b []C)) {
	a, b = a[:len(d)], b[:len(d)]
	if n := len(d) &^ (lanes - 1); haveAVX2 && n > 0 {
		if vec(d[:n], a[:n], b[:n]) {
			for i, z := range d[:n] {
				if hasNaN(z) {
					ref(d[i:i+1], a[i:i+1], b[i:i+1])
				}
			}
		}
		d, a, b = d[n:], a[n:], b[n:]
	}
	ref(d, a, b)
}
