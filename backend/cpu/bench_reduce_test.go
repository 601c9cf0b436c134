package cpu

import (
	"fmt"
	"math/rand"
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

// BenchmarkReduceKernels times reductions of the benchmark matrix's
// inputs (1000×1000 or 100×100×100: integers 1..100, floats in
// [0.5, 1.5), bools half true) with the vector kernels and with the scalar loops (fastReduce
// off), in one run: go test -bench ReduceKernels -count 5.
func BenchmarkReduceKernels(b *testing.B) {
	defer func(f bool) { fastReduce = f }(fastReduce)
	rng := rand.New(rand.NewSource(1))
	inputs := map[string]*backend.Node{}
	input := func(d dtypes.DType, shape []int) *backend.Node {
		key := fmt.Sprint(d, shape)
		if x, ok := inputs[key]; ok {
			return x
		}
		v := make([]float64, 1000000)
		for i := range v {
			switch {
			case d == dtypes.Bool:
				v[i] = float64(rng.Intn(2))
			case d.IsFloat():
				v[i] = 0.5 + rng.Float64()
			default:
				v[i] = float64(1 + rng.Intn(100))
			}
		}
		inputs[key] = in(mk(d, shape, v...))
		return inputs[key]
	}
	m3 := []int{100, 100, 100}
	for _, c := range []struct {
		op    backend.Op
		d     dtypes.DType
		axes  []int
		shape []int
	}{
		{backend.OpReduceMax, dtypes.I8, []int{2}, m3},
		{backend.OpArgMax, dtypes.I8, []int{2}, m3},
		{backend.OpArgMax, dtypes.F32, []int{2}, m3},
		{backend.OpSum, dtypes.I64, []int{2}, m3},
		{backend.OpReduceMin, dtypes.F64, []int{2}, m3},
		{backend.OpAll, dtypes.I32, []int{1}, m3},
		{backend.OpReduceMax, dtypes.Bool, nil, nil},
		{backend.OpAny, dtypes.Bool, []int{0}, nil},
		{backend.OpAll, dtypes.Bool, []int{1}, nil},
		{backend.OpArgMax, dtypes.Bool, []int{0}, nil},
		{backend.OpReduceMax, dtypes.I8, nil, nil},
		{backend.OpReduceMin, dtypes.I8, []int{0}, nil},
		{backend.OpReduceMax, dtypes.I8, []int{1}, nil},
		{backend.OpArgMax, dtypes.I8, []int{1}, nil},
		{backend.OpAll, dtypes.I8, nil, nil},
		{backend.OpReduceMax, dtypes.I32, nil, nil},
		{backend.OpArgMax, dtypes.I32, []int{0}, nil},
		{backend.OpAny, dtypes.I32, []int{1}, nil},
		{backend.OpSum, dtypes.I64, nil, nil},
		{backend.OpSum, dtypes.I64, []int{0}, nil},
		{backend.OpReduceMin, dtypes.I64, nil, nil},
		{backend.OpSum, dtypes.F16, []int{0}, nil},
		{backend.OpReduceMax, dtypes.F16, []int{1}, nil},
		{backend.OpReduceMax, dtypes.F32, nil, nil},
		{backend.OpReduceMin, dtypes.F32, []int{0}, nil},
		{backend.OpArgMax, dtypes.F32, []int{1}, nil},
		{backend.OpArgMax, dtypes.F32, []int{0}, nil},
		{backend.OpAll, dtypes.F32, nil, nil},
		{backend.OpSum, dtypes.F64, []int{0}, nil},
		{backend.OpReduceMax, dtypes.F64, []int{1}, nil},
		{backend.OpArgMax, dtypes.F64, nil, nil},
	} {
		shape := c.shape
		if shape == nil {
			shape = []int{1000, 1000}
		}
		x := input(c.d, shape)
		rd := c.d
		switch c.op {
		case backend.OpArgMax:
			rd = dtypes.I64
		case backend.OpAny, backend.OpAll:
			rd = dtypes.Bool
			if c.d != dtypes.Bool {
				x = cast(x, dtypes.Bool)
			}
		}
		n := red(c.op, rd, x, false, c.axes...)
		name := fmt.Sprintf("%v/%v/%dd%v", c.op, c.d, len(shape), c.axes)
		for _, fast := range []bool{false, true} {
			mode := "scalar"
			if fast {
				mode = "vector"
			}
			b.Run(name+"/"+mode, func(b *testing.B) {
				fastReduce = fast
				benchRun(b, n, 1000000)
			})
		}
	}
}

func BenchmarkReduceSumF32Axis0(b *testing.B) {
	x := in(mk(dtypes.F32, []int{1000, 1000}, seq(1000000, 0, 0.001)...))
	benchRun(b, red(backend.OpSum, dtypes.F32, x, false, 0), 1000000)
}
