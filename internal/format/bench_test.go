package format

import (
	"math/rand/v2"
	"testing"
)

func BenchmarkValuesF64(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 1))
	v := make([]float64, 1000)
	for i := range v {
		v[i] = r.NormFloat64()
	}
	t := f64(sh(1000), v...)
	for b.Loop() {
		Values(t, Options{})
	}
}

func BenchmarkValuesF16(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 1))
	v := make([]float64, 1000)
	for i := range v {
		v[i] = r.NormFloat64()
	}
	t := f16(sh(1000), v...)
	for b.Loop() {
		Values(t, Options{})
	}
}
