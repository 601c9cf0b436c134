//go:build !amd64 || purego

package cpu

// spinPause waits a moment in a spin loop: nothing here.
func spinPause() {}
