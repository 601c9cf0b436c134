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
