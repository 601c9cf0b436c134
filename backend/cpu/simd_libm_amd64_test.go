//go:build amd64 && !purego

package cpu

import (
	"math"
	"testing"
)

// TestLibmF16Path checks that the table loop takes float16 values and
// stops at the first group with another value.
func TestLibmF16Path(t *testing.T) {
	if !libmAVX512 {
		t.Skip("no AVX-512")
	}
	x := make([]float32, 4096)
	for i := range x {
		x[i] = float32(i%1024)/1024 + 0.5
	}
	tab := new([1 << 16]float32)
	if got := f16LookupAVX512(make([]float32, len(x)), x, &tab[0]); got != len(x) {
		t.Errorf("the table loop stopped at %d of %d (x = %v)", got, len(x), x[got:got+16])
	}
	x[1000] = math.Nextafter32(x[1000], 2)
	if got := f16LookupAVX512(make([]float32, len(x)), x, &tab[0]); got != 992 {
		t.Errorf("the table loop stopped at %d, want 992", got)
	}
}
