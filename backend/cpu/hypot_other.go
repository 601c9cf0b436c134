//go:build !amd64 || purego

package cpu

func absC64(d []float32, a []complex64) { absC64Go(d, a) }
