package eval
import ("context";"testing")
func BenchmarkTmpProf(b *testing.B) {
	s, _ := New("numpy")
	ctx := context.Background()
	s.Execute(ctx, "", "x = cast(rand((1000, 1000), dtype=f64) + 0.5, f32)\nv = cast(rand((1000000,), dtype=f64) + 0.5, f32)\nb = rand((1000, 1000), dtype=f64) < 0.5")
	for _, e := range []string{"dot(v, v)"} {
		b.Run(e, func(b *testing.B) {
			for b.Loop() { if _, err := s.Execute(ctx, "", e); err != nil { b.Fatal(err) } }
		})
	}
}
