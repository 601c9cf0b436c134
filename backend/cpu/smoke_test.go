package cpu

import (
	"testing"

	"github.com/tensorsh/tensorsh/backend"
	"github.com/tensorsh/tensorsh/dtypes"
)

func TestSmoke(t *testing.T) {
	a := in(mk(dtypes.F32, []int{2, 3}, 1, 2, 3, 4, 5, 6))
	b := in(mk(dtypes.F32, []int{3}, 10, 20, 30))
	res := run(t, nb(backend.OpMul, nb(backend.OpAdd, a, b), b))
	got := vals(res)
	want := []float64{110, 440, 990, 140, 500, 1080}
	if !sameAll(got, want) {
		t.Fatalf("got %v want %v", got, want)
	}
}
