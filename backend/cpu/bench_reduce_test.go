package cpu

import (
	"testing"

	"github.com/tensorsh/tensorsh/backend"
	"github.com/tensorsh/tensorsh/dtypes"
)

// Reductions other than sums, over 10^6 elements: a full reduction folds
// each run in order (redOps.fold); a reduction over axis 0 of a 1000×1000
// matrix combines rows element by element (redOps.vec).

func BenchmarkReduceMaxF32(b *testing.B) {
	x, _, _ := benchInputs(dtypes.F32, 1000000)
	benchRun(b, red(backend.OpReduceMax, dtypes.F32, x, false), 1000000)
}

func BenchmarkReduceMaxF32Axis0(b *testing.B) {
	x := in(mk(dtypes.F32, []int{1000, 1000}, seq(1000000, 0, 0.001)...))
	benchRun(b, red(backend.OpReduceMax, dtypes.F32, x, false, 0), 1000000)
}

func BenchmarkReduceMinI32(b *testing.B) {
	x, _, _ := benchInputs(dtypes.I32, 1000000)
	benchRun(b, red(backend.OpReduceMin, dtypes.I32, x, false), 1000000)
}

func BenchmarkReduceProdC64Axis0(b *testing.B) {
	x := in(mk(dtypes.C64, []int{1000, 1000}, seq(1000000, 0, 0.001)...))
	benchRun(b, red(backend.OpProd, dtypes.C64, x, false, 0), 1000000)
}

func BenchmarkReduceAllBool(b *testing.B) {
	x := in(mk(dtypes.Bool, []int{1000000}, seq(1000000, 1, 1)...))
	benchRun(b, red(backend.OpAll, dtypes.Bool, x, false), 1000000)
}
