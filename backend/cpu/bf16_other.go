//go:build !amd64 || purego

package cpu

func f32sToBF16(d []uint16, a []float32) { f32sToBF16Go(d, a) }

func roundBF16(d []float32) { roundBF16Go(d) }

func bf16sToF32(d []float32, a []uint16) { bf16sToF32Go(d, a) }
