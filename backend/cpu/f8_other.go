//go:build !amd64 || purego

package cpu

func f32sToE4M3(d []uint8, a []float32) { f32sToE4M3Go(d, a) }

func f32sToE5M2(d []uint8, a []float32) { f32sToE5M2Go(d, a) }
