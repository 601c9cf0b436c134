//go:build !amd64 || purego

package cpu

func cmulC64(d, a, b []complex64) { cmulGo(d, a, b) }

func cmulC128(d, a, b []complex128) { cmulGo128(d, a, b) }
