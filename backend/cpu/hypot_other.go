//go:build !amd64 || purego

package cpu

func absC64(d []float32, a []complex64) { absC64Go(d, a) }

func scaledCAbsC64(d []float32, a []complex64) { scaledCAbsC64Go(d, a) }

func scaledCAbsC128(d []float64, a []complex128) { scaledCAbsC128Go(d, a) }
