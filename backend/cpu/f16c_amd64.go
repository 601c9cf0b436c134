//go:build amd64 && !purego

package cpu

// haveF16C reports whether the CPU (and the OS) support F16C.
var haveF16C = cpuHasF16C()

func cpuHasF16C() bool

// F16C kernels (f16c_amd64.s): they handle len(d) - len(d)%16 elements;
// the wrappers below finish with the Go reference.

//go:noescape
func f32sToF16F16C(d []uint16, a []float32)

//go:noescape
func f16sToF32F16C(d []float32, a []uint16)

//go:noescape
func roundF16F16C(d []float32)

// f32sToF16 sets d[i] = f32ToF16(a[i]).
func f32sToF16(d []uint16, a []float32) {
	a = a[:len(d)]
	if n := len(d) &^ 15; haveF16C && n > 0 {
		f32sToF16F16C(d[:n], a[:n])
		d, a = d[n:], a[n:]
	}
	f32sToF16Go(d, a)
}

// f16sToF32 sets d[i] to the float32 value of the float16 bits a[i]
// (f16Table[a[i]]).
func f16sToF32(d []float32, a []uint16) {
	a = a[:len(d)]
	if n := len(d) &^ 15; haveF16C && n > 0 {
		f16sToF32F16C(d[:n], a[:n])
		d, a = d[n:], a[n:]
	}
	f16sToF32Go(d, a)
}

// roundF16 rounds the values of d to float16 in place
// (f16Table[f32ToF16(x)]).
func roundF16(d []float32) {
	if n := len(d) &^ 15; haveF16C && n > 0 {
		roundF16F16C(d[:n])
		d = d[n:]
	}
	roundF16Go(d)
}

//go:noescape
func f64sToF16ValsAVX512(d []float32, a []float64)

// f64sToF16Vals sets d[i] = f16Table[f64ToF16(a[i])]: with AVX-512, eight
// at a time by f64sToF16ValsAVX512.
func f64sToF16Vals(d []float32, a []float64) {
	a = a[:len(d)]
	if n := len(d) &^ 7; libmAVX512 && n > 0 {
		f64sToF16ValsAVX512(d[:n], a[:n])
		d, a = d[n:], a[n:]
	}
	for i, x := range a {
		d[i] = f16Table[f64ToF16(x)]
	}
}
