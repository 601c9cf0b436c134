//go:build !amd64 || purego

package cpu

func rowMaxF64(x []float64) float64 { return rowMaxF64Go(x) }
