package cpu

import (
	"math"
	"testing"
	"unsafe"
)

// TestFillValue checks fillValue on lengths around its block (fillBlock
// bytes) and values whose bytes are all zero or not: -0.0 and NaN
// payloads keep their bits (a float compare would take -0.0 for 0 and
// clear it to +0.0), over memory filled with another pattern first.
func TestFillValue(t *testing.T) {
	lengths := []int{1, 2, 3, 7, 511, 512, 513, 1023, 1024, 1025, 4096, 10001}
	checkFill(t, "float64", lengths, []float64{0, math.Copysign(0, -1), 1.5, math.Float64frombits(0x7FF8_0000_0000_0123)})
	checkFill(t, "float32", lengths, []float32{0, float32(math.Copysign(0, -1)), -2.25})
	checkFill(t, "int8", lengths, []int8{0, -1, 5})
	checkFill(t, "complex64", lengths, []complex64{0, complex(0, float32(math.Copysign(0, -1))), 1 + 2i})
	checkFill(t, "bool", lengths, []bool{false, true})
}

func checkFill[T any](t *testing.T, name string, lengths []int, values []T) {
	t.Helper()
	size := int(unsafe.Sizeof(values[0]))
	for _, n := range lengths {
		for _, v := range values {
			d := make([]T, n+2)
			raw := unsafe.Slice((*byte)(unsafe.Pointer(&d[0])), len(d)*size)
			for i := range raw {
				raw[i] = 0xA5
			}
			fillValue(d[1:n+1], v)
			want := unsafe.Slice((*byte)(unsafe.Pointer(&v)), size)
			for i := range n + 2 {
				got := raw[i*size : (i+1)*size]
				inside := i >= 1 && i <= n
				for j, b := range got {
					if inside && b != want[j] || !inside && b != 0xA5 {
						t.Fatalf("%s: fill of %d with %v: element %d has bytes %x", name, n, v, i-1, got)
					}
				}
			}
		}
	}
}
