package cpu

import (
	"context"
	"fmt"
	"math/rand"
	"runtime"
	"syscall"
	"testing"
)

func cpuNow() float64 {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_THREAD, &ru)
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}


func benchKern[T float32 | float64](b *testing.B, kern gemmKernel[T]) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	k := 256
	a := make([]T, kern.mr*k)
	bb := make([]T, kern.nr*k)
	c := make([]T, kern.mr*kern.nr)
	for i := range a {
		a[i] = 1
	}
	t0 := cpuNow()
	n := 0
	for b.Loop() {
		n++
		kern.tile(k, a, bb, c, kern.nr, false)
	}
	b.ReportMetric(float64(2*kern.mr*kern.nr*k)*float64(n)/(cpuNow()-t0)/1e9, "cpuGFLOPS")
	b.ReportMetric(float64(2*kern.mr*kern.nr*k)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOPS")
}

func BenchmarkKernF32(b *testing.B) { benchKern(b, gemmF32) }
func BenchmarkKernF64(b *testing.B) { benchKern(b, gemmF64) }

func BenchmarkTuneF32(b *testing.B) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	n := 1000
	rng := rand.New(rand.NewSource(1))
	x, y := randFloats[float32](rng, n*n), randFloats[float32](rng, n*n)
	out := make([]float32, n*n)
	r := &runner{b: New(Workers(1)), ctx: context.Background()}
	g := mmGeom{rows: n, k: n, cols: n, nbatch: 1, offA: []int{0}, offB: []int{0}}
	for _, kc := range []int{128, 192, 256, 384} {
		b.Run(fmt.Sprint(kc), func(b *testing.B) {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			kern := gemmF32
			kern.kc = kc
			t0 := cpuNow()
			n2 := 0
			for b.Loop() {
				n2++
				gemmRun(r, kern, g, x, y, out)
			}
			b.ReportMetric(2e-9*float64(n*n*n)*float64(n2)/(cpuNow()-t0), "cpuGFLOPS")
		})
	}
}
