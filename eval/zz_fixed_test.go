package eval_test

import (
	"context"
	"syscall"
	"testing"

	"github.com/tensorsh/tensorsh/eval"
)

func BenchmarkFixed(b *testing.B) {
	ctx := context.Background()
	s, _ := eval.New("numpy")
	if _, err := s.Execute(ctx, "setup", "x = rand(1000, 1000) > 0.5\ny = rand(1000, 1000) > 0.5\nf = f32(rand(1000, 1000))\ng = f32(rand(1000,1000))\ns = f32(rand(10, 10))"); err != nil {
		b.Fatal(err)
	}
	for _, e := range []string{"x < y", "f + g", "-f", "f * 2"} {
		b.Run(e, func(b *testing.B) {
			var r0, r1 syscall.Rusage
			syscall.Getrusage(0, &r0)
			for b.Loop() {
				if _, err := s.Execute(ctx, "c", e); err != nil {
					b.Fatal(err)
				}
			}
			syscall.Getrusage(0, &r1)
			b.ReportMetric(float64(r1.Minflt-r0.Minflt)/float64(b.N), "faults/op")
		})
	}
}
