//go:build !amd64 || purego

package cpu

// No assembly steps of reductions: the scalar loops do it all.
var (
	redVecAsm   map[string]func(acc, x []byte)
	redFoldAsm  map[string]func(acc *[128]byte, x []byte)
	redFoldAsmF map[string]func(acc *[128]byte, x []byte) bool
	redHasAsm   map[string]func(x []byte) bool
	roundF16Asm func(x []byte) int
	loadF16Asm  func(d []float32, a []uint16) int
)

func pairLeafF64(a []float64) float64 { return sum8Go(a) }
