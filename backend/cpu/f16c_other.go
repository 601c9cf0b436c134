//go:build !amd64 || purego

package cpu

const haveF16C = false

func f32sToF16(d []uint16, a []float32) { f32sToF16Go(d, a) }

func f16sToF32(d []float32, a []uint16) { f16sToF32Go(d, a) }

func roundF16(d []float32) { roundF16Go(d) }

func f64sToF16Vals(d []float32, a []float64) {
	for i, x := range a[:len(d)] {
		d[i] = f16Table[f64ToF16(x)]
	}
}
