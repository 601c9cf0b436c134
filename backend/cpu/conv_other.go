//go:build !amd64 || purego

package cpu

// vecConvKernel: no vector conversion kernels here (conv_amd64.go).
func vecConvKernel(cf, ct ctype) kfn { return nil }
