package cpu

import "testing"

func BenchmarkZZTanhL1(b *testing.B) {
	x := make([]float32, 4096)
	d := make([]float32, 4096)
	for i := range x {
		x[i] = float32(i)/1000 - 2
	}
	b.SetBytes(4096)
	for b.Loop() {
		tanhF32(d, x)
	}
}
