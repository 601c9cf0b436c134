package eval

import (
	"context"
	"testing"
)

// BenchmarkScalarStatement measures a whole statement on literals: parse,
// compile, fold, no backend work. Target: under 5 µs.
func BenchmarkScalarStatement(b *testing.B) {
	s, _ := New("jax")
	ctx := context.Background()
	for b.Loop() {
		if _, err := s.Execute(ctx, "", "1 + 2"); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSmallTensorStatement measures a statement on a 3-element tensor:
// the fixed cost of planning and running on the CPU backend.
func BenchmarkSmallTensorStatement(b *testing.B) {
	s, _ := New("jax")
	ctx := context.Background()
	if _, err := s.Execute(ctx, "", "x = i16([1, 2, 3])"); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := s.Execute(ctx, "", "x + 1.5"); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFusedStatement measures a*b+c over 10^7 float32 through the
// whole evaluator (compare with backend/cpu's benchmark of the bare plan).
func BenchmarkFusedStatement(b *testing.B) {
	s, _ := New("jax")
	ctx := context.Background()
	if _, err := s.Execute(ctx, "", "a = rand(10**7)\nb = rand(10**7)\nc = rand(10**7)"); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(4 * 4e7)
	for b.Loop() {
		if _, err := s.Execute(ctx, "", "a*b+c"); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkBroadcast3Statement is bench/matrix's binary/mul2/i32/bcast3
// (numpy policy, p a (100,100,1) int32, p * 2): 10^4 elements, where the
// fixed cost of a statement (parse, compile, plan) is most of the time.
func BenchmarkBroadcast3Statement(b *testing.B) {
	for _, expr := range []string{"p * 2", "p << 3", "p + q", "-p"} {
		b.Run(expr, func(b *testing.B) {
			s, _ := New("numpy")
			ctx := context.Background()
			if _, err := s.Execute(ctx, "setup", "p = cast(floor(rand((100, 100, 1), dtype=f64) * 100) + 1, i32)\nq = cast(floor(rand((1, 100, 100), dtype=f64) * 100) + 1, i32)"); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			cpu0 := cpuTime()
			for b.Loop() {
				if _, err := s.Execute(ctx, "binary/mul2/i32/bcast3", expr); err != nil {
					b.Fatal(err)
				}
			}
			// CPU time, which a busy machine disturbs less than ns/op.
			b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N), "cpu-ns/op")
		})
	}
}
