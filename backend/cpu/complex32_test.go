package cpu

import (
	"math"
	"testing"

	"github.com/tensorsh/tensorsh/backend"
	"github.com/tensorsh/tensorsh/dtypes"
)

// TestComplex32 pins complex32 values: each part is a float16, rounded once
// to nearest even like dtypes.F16FromFloat64; arithmetic is PyTorch's CPU
// ComplexHalf arithmetic (c10::complex<float> on the parts, then each part
// stored as Half: aten/src/ATen/native/cpu/BinaryOpsKernel.cpp mul_kernel,
// aten/src/ATen/native/ufunc/add.h, UnaryOpsKernel.cpp abs_kernel).
func TestComplex32(t *testing.T) {
	inf, nan := math.Inf(1), math.NaN()
	c32 := func(v ...complex128) *backend.Node {
		s := make([]uint32, len(v))
		for i, x := range v {
			s[i] = dtypes.C32FromComplex128(x)
		}
		return in(raw(dtypes.C32, []int{len(v)}, s))
	}
	get := func(n *backend.Node) []complex128 {
		tt := run(t, n)
		var out []complex128
		for _, b := range tt.Data.([]uint32) {
			out = append(out, dtypes.C32ToComplex128(b))
		}
		return out
	}
	sameC := func(a, b complex128) bool {
		return same(real(a), real(b)) && same(imag(a), imag(b))
	}
	check := func(name string, got []complex128, want ...complex128) {
		t.Helper()
		for i := range want {
			if i >= len(got) || !sameC(got[i], want[i]) {
				t.Errorf("%s: got %v, want %v", name, got, want)
				return
			}
		}
	}
	bin := func(op backend.Op, a, b *backend.Node) *backend.Node {
		return &backend.Node{Op: op, DType: dtypes.C32, Shape: a.Shape, Args: []*backend.Node{a, b}}
	}
	castTo := func(d dtypes.DType, a *backend.Node) *backend.Node {
		return &backend.Node{Op: backend.OpCast, DType: d, Shape: a.Shape, Args: []*backend.Node{a}}
	}
	// Each part rounds on its own: 0.1 is 0.0999755859375 in float16;
	// 1+2^-11 is a tie and rounds to even (1); 65520 overflows to inf;
	// 2^-25 underflows to 0 and 3·2^-26 to the smallest subnormal 2^-24.
	f := complex(1+math.Ldexp(1, -11), 65520)
	x := c32(complex(0.1, -0.1), f, complex(math.Ldexp(1, -25), 3*math.Ldexp(1, -26)), complex(nan, -inf))
	check("store", get(x), complex(0.0999755859375, -0.0999755859375), complex(1, inf), complex(0, math.Ldexp(1, -24)), complex(nan, -inf))
	// complex128 → complex32 rounds each part directly (no double rounding
	// through float32): 1 + 2^-11 + 2^-40 is above the tie, so it rounds up,
	// where float32 first would make it the tie 1 + 2^-11 and then 1.
	w := in(raw(dtypes.C128, []int{1}, []complex128{complex(1+math.Ldexp(1, -11)+math.Ldexp(1, -40), 0)}))
	check("from c128", get(castTo(dtypes.C32, w)), complex(1+math.Ldexp(1, -10), 0))
	// Sums and products round each part to float16: 2049 is not a float16.
	a := c32(complex(2048, 1), complex(60000, 0), complex(3, 4))
	b := c32(complex(1, 0), complex(10000, 0), complex(3, -4))
	check("add", get(bin(backend.OpAdd, a, b)), complex(2048, 1), complex(inf, 0), complex(6, 0))
	// 60000 − 10000 = 50000 lies halfway between the float16 values 49984
	// and 50016 and rounds to even.
	check("sub", get(bin(backend.OpSub, a, b)), complex(2047, 1), complex(49984, 0), complex(0, 8))
	check("mul", get(bin(backend.OpMul, a, b)), complex(2048, 1), complex(inf, 0), complex(25, 0))
	// add is self + alpha·other with alpha = 1+0i: an infinite part of
	// other makes the other part 0·inf = NaN.
	check("add inf", get(bin(backend.OpAdd, c32(1), c32(complex(0, inf)))), complex(nan, inf))
	// abs: hypot in float32, then float16; no overflow in between.
	ab := run(t, &backend.Node{Op: backend.OpAbs, DType: dtypes.F16, Shape: []int{4}, Args: []*backend.Node{c32(complex(3, 4), complex(40000, 40000), complex(50000, 50000), complex(inf, nan))}})
	for i, want := range []float64{5, 56576, inf, inf} {
		if got := dtypes.F16ToFloat64(ab.Data.([]uint16)[i]); !same(got, want) {
			t.Errorf("abs[%d] = %v, want %v", i, got, want)
		}
	}
	// Operations PyTorch has no CPU ComplexHalf kernel for are refused.
	if _, err := New().Run(t.Context(), bin(backend.OpDiv, a, b)); err == nil {
		t.Errorf("c32 / c32 runs, want an error")
	}
}
