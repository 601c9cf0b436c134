//go:build !amd64 || purego

package cpu

// tileKernel returns nil: transposes use transposeGo.
func tileKernel(es int) (k func(dst *byte, ldd int, src *byte, lds int, n int), rows, cols int) {
	return nil, 0, 0
}
