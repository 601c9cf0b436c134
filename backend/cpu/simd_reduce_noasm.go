//go:build !amd64 || purego

package cpu

// No assembly steps of reductions: the scalar loops do it all.
var (
	redVecAsm    map[string]func(acc, x []byte)
	redFoldAsm   map[string]int
	redFoldAsmF  map[string]int
	redHasAsm    map[string]func(x []byte) bool
	redFindAsm   map[string]func(x []byte, v uint64) int
	redRowsAsm   map[string]func(out, x []byte, l int)
	redRowsAsmF  map[string]func(out, x []byte, l int) int
	redVecsAsm   map[string]func(acc, x []byte, rows, stride int)
	redArgAsm    map[string]func(x []byte) (int, bool)
	redArgCols   map[string]func(bv, bi, x []byte, rows, stride, j int)
	redArgAsm512 map[string]func(x []byte) (int, bool)
)

func pairLeafF64(a []float64) float64 { return sum8Go(a) }

func cpairLeaf128(r *[4]complex128, a []complex128) bool { return false }

func cpairLeaf64(r *[4]complex64, a []complex64) bool { return false }

func redFold(int, *[128]byte, []byte) { panic("cpu: no reduction fold kernel") }

func redFoldF(int, *[128]byte, []byte) bool { panic("cpu: no reduction fold kernel") }
