package cpu

import (
	"context"
	"fmt"
	"math/rand"
	"testing"
)

// BenchmarkMatVecKernel times matrix-vector products through mvRun with
// this CPU's kernel ("kernel") and with the Go rows alone ("go"), in the
// same run: 64×256 (cache-resident), 1000×1000 and 2000×2000, on one
// worker and on two, also in elements of A per nanosecond of the
// process's CPU time.
func BenchmarkMatVecKernel(b *testing.B) {
	rng := rand.New(rand.NewSource(9))
	for _, s := range [][2]int{{64, 256}, {1000, 1000}, {2000, 2000}} {
		rows, k := s[0], s[1]
		for _, w := range []int{1, 2} {
			r := &runner{b: New(Workers(w)), ctx: context.Background()}
			g := mmGeom{rows: rows, k: k, cols: 1, nbatch: 1, offA: []int{0}, offB: []int{0}}
			a32, v32, d32 := randFloats[float32](rng, rows*k), randFloats[float32](rng, k), make([]float32, rows)
			a64, v64, d64 := randFloats[float64](rng, rows*k), randFloats[float64](rng, k), make([]float64, rows)
			for _, kern := range []string{"kernel", "go"} {
				k32, k64 := mvF32, mvF64
				if kern == "go" {
					k32, k64 = mvKernel[float32]{}, mvKernel[float64]{}
				}
				b.Run(fmt.Sprintf("f32/%dx%d/w%d/%s", rows, k, w, kern), func(b *testing.B) {
					b.SetBytes(int64(4 * rows * k))
					t0 := cpuTime()
					for range b.N {
						if err := mvRun(r, k32, g, a32, v32, d32); err != nil {
							b.Fatal(err)
						}
					}
					b.ReportMetric(float64(b.N*rows*k)/float64((cpuTime()-t0).Nanoseconds()), "elem/cpu-ns")
				})
				b.Run(fmt.Sprintf("f64/%dx%d/w%d/%s", rows, k, w, kern), func(b *testing.B) {
					b.SetBytes(int64(8 * rows * k))
					t0 := cpuTime()
					for range b.N {
						if err := mvRun(r, k64, g, a64, v64, d64); err != nil {
							b.Fatal(err)
						}
					}
					b.ReportMetric(float64(b.N*rows*k)/float64((cpuTime()-t0).Nanoseconds()), "elem/cpu-ns")
				})
			}
		}
	}
}

// BenchmarkGemmDirect times products through gemmRunPacked with whole
// panels read in place where setDirect allows (A always here, B for rows
// of at most 512 bytes: "direct"), every panel packed ("packed", as
// before), and read in place without the kernel's edge tiles ("noedge":
// the last partial panel of A packed and computed by the whole tile), in
// the same run: 64×64, 256×256 and a batch of 256 products of 64×64, on one
// worker and on two, also in multiply-adds per nanosecond of the
// process's CPU time.
func BenchmarkGemmDirect(b *testing.B) {
	rng := rand.New(rand.NewSource(10))
	for _, s := range [][2]int{{64, 1}, {256, 1}, {64, 256}} {
		n, nb := s[0], s[1]
		offs := make([]int, nb)
		for i := range offs {
			offs[i] = i * n * n
		}
		g := mmGeom{rows: n, k: n, cols: n, nbatch: nb, offA: offs, offB: offs}
		a32, b32, c32 := randFloats[float32](rng, nb*n*n), randFloats[float32](rng, nb*n*n), make([]float32, nb*n*n)
		a64, b64, c64 := randFloats[float64](rng, nb*n*n), randFloats[float64](rng, nb*n*n), make([]float64, nb*n*n)
		for _, w := range []int{1, 2} {
			r := &runner{b: New(Workers(w)), ctx: context.Background()}
			for _, mode := range []string{"direct", "packed", "noedge"} {
				packed := mode == "packed"
				k32, k64 := gemmF32, gemmF64
				if mode == "noedge" {
					k32.edge, k64.edge = nil, nil
				}
				b.Run(fmt.Sprintf("f32/%dx%d/w%d/%s", nb, n, w, mode), func(b *testing.B) {
					t0 := cpuTime()
					for range b.N {
						if err := gemmRunPacked(r, k32, g, a32, b32, c32, packed); err != nil {
							b.Fatal(err)
						}
					}
					b.ReportMetric(float64(b.N*nb*n*n*n)/float64((cpuTime()-t0).Nanoseconds()), "MAC/cpu-ns")
				})
				b.Run(fmt.Sprintf("f64/%dx%d/w%d/%s", nb, n, w, mode), func(b *testing.B) {
					t0 := cpuTime()
					for range b.N {
						if err := gemmRunPacked(r, k64, g, a64, b64, c64, packed); err != nil {
							b.Fatal(err)
						}
					}
					b.ReportMetric(float64(b.N*nb*n*n*n)/float64((cpuTime()-t0).Nanoseconds()), "MAC/cpu-ns")
				})
			}
		}
	}
}

// BenchmarkGemmTile times this CPU's kernels on one tile in L1 (packed
// panels, k = 256), in multiply-adds per nanosecond of wall time and of
// the process's CPU time (which other work on a busy machine does not
// inflate).
func BenchmarkGemmTile(b *testing.B) {
	rng := rand.New(rand.NewSource(11))
	const k = 256
	b.Run("f32", func(b *testing.B) {
		kern := gemmF32
		a, p, c := randFloats[float32](rng, k*kern.mr), randFloats[float32](rng, k*kern.nr), make([]float32, kern.mr*kern.nr)
		t0 := cpuTime()
		for range b.N {
			kern.tile(k, a, 1, kern.mr, p, kern.nr, c, kern.nr, false)
		}
		macs := float64(b.N * k * kern.mr * kern.nr)
		b.ReportMetric(macs/float64(b.Elapsed().Nanoseconds()), "MAC/ns")
		if cpu := cpuTime() - t0; cpu > 0 {
			b.ReportMetric(macs/float64(cpu.Nanoseconds()), "MAC/cpu-ns")
		}
	})
	b.Run("f64", func(b *testing.B) {
		kern := gemmF64
		a, p, c := randFloats[float64](rng, k*kern.mr), randFloats[float64](rng, k*kern.nr), make([]float64, kern.mr*kern.nr)
		t0 := cpuTime()
		for range b.N {
			kern.tile(k, a, 1, kern.mr, p, kern.nr, c, kern.nr, false)
		}
		macs := float64(b.N * k * kern.mr * kern.nr)
		b.ReportMetric(macs/float64(b.Elapsed().Nanoseconds()), "MAC/ns")
		if cpu := cpuTime() - t0; cpu > 0 {
			b.ReportMetric(macs/float64(cpu.Nanoseconds()), "MAC/cpu-ns")
		}
	})
}

// BenchmarkGemmBlocking times 1000×1000 and 2000×2000 products with every
// panel packed under several blockings (kc, mc, nc) of this CPU's kernels,
// on two workers, in multiply-adds per nanosecond of the process's CPU
// time: how the blocking of gemm_amd64.go was chosen.
func BenchmarkGemmBlocking(b *testing.B) {
	rng := rand.New(rand.NewSource(12))
	blockings := [][3]int{{256, 240, 256}, {384, 240, 256}, {512, 240, 256}, {512, 480, 256}, {512, 240, 512}}
	for _, n := range []int{1000, 2000} {
		g := mmGeom{rows: n, k: n, cols: n, nbatch: 1, offA: []int{0}, offB: []int{0}}
		r := &runner{b: New(Workers(2)), ctx: context.Background()}
		a32, b32, c32 := randFloats[float32](rng, n*n), randFloats[float32](rng, n*n), make([]float32, n*n)
		a64, b64, c64 := randFloats[float64](rng, n*n), randFloats[float64](rng, n*n), make([]float64, n*n)
		for _, t := range blockings {
			k32, k64 := gemmF32, gemmF64
			k32.kc, k32.mc, k32.nc = t[0], t[1], t[2]
			k64.kc, k64.mc, k64.nc = t[0], t[1], t[2]
			name := fmt.Sprintf("%d/kc%d/mc%d/nc%d", n, t[0], t[1], t[2])
			b.Run("f32/"+name, func(b *testing.B) {
				t0 := cpuTime()
				for range b.N {
					if err := gemmRunPacked(r, k32, g, a32, b32, c32, true); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(b.N*n*n*n)/float64((cpuTime()-t0).Nanoseconds()), "MAC/cpu-ns")
			})
			b.Run("f64/"+name, func(b *testing.B) {
				t0 := cpuTime()
				for range b.N {
					if err := gemmRunPacked(r, k64, g, a64, b64, c64, true); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(b.N*n*n*n)/float64((cpuTime()-t0).Nanoseconds()), "MAC/cpu-ns")
			})
		}
	}
}
