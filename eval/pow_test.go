package eval

import (
	"context"
	"fmt"
	"math/bits"
	"strings"
	"testing"

	"github.com/tensorsh/tensorsh/backend"
	"github.com/tensorsh/tensorsh/dtypes"
	"github.com/tensorsh/tensorsh/internal/format"
)

// TestSquareIsPow checks that x ** 2, compiled as x * x, gives the bits
// the pow kernel gives for an exponent array of 2s, for the real dtypes
// (integers wrap alike; a float square is exact before its one rounding;
// NaN, inf, subnormals, overflow included). For complex x, x ** 2 is x * x
// as NumPy (npy_cpow's n == 2 case), jax.numpy (integer_pow) and PyTorch
// (pow_tensor_scalar_optimized_kernel) compute it.
func TestSquareIsPow(t *testing.T) {
	s, err := New("numpy")
	if err != nil {
		t.Fatal(err)
	}
	check := func(what, src string) {
		t.Helper()
		outs, err := s.Execute(context.Background(), "", src)
		if err != nil {
			t.Errorf("%s: %v", what, err)
			return
		}
		if got := s.Text(outs[len(outs)-1], format.Options{}); got != "bool True" && got != "bool true" && !strings.HasSuffix(got, "True") {
			t.Errorf("%s: x ** 2 and the pow kernel differ: %s", what, got)
		}
	}
	const floats = "[0, 1, -1, 3, 100, -127, 1e3, 3.5e18, 1e-30, 1e200, -2.5, nan, inf, -inf, 1e-310, 65504, 1.7976931348623157e308]"
	const ints = "[0, 1, 3, 100, 127, 15, 16, 255, 181, 46341, 3037000499, -1, -128, -46341]"
	for _, d := range []string{"i8", "u8", "i16", "u16", "i32", "u32", "i64", "u64"} {
		check(d, "x = cast(i64("+ints+"), "+d+")\nall(x ** 2 == x ** full(shape(x), 2, dtype="+d+"))")
	}
	for _, d := range []string{"f16", "bf16", "f32", "f64"} {
		check(d, "x = cast(f64("+floats+"), "+d+")\ny = x ** full(shape(x), 2, dtype="+d+")\nall((x ** 2 == y) | (is_nan(x ** 2) & is_nan(y)))")
	}
	for _, d := range []string{"c64", "c128"} {
		check(d, "x = "+d+"([1+2j, -3.5+0.25j, 1e10+1e10j, 1e-20j, 0j])\nall(x ** 2 == x * x)")
	}
}

// TestSquareOfComputedBase checks (x - y) ** 2, whose base is computed
// in the statement (compiled as square(x - y) for the integers, float32
// and float64, as x * x otherwise: squareAsMul), against the pow kernel
// on the stored difference, alone and summed, for every real dtype.
func TestSquareOfComputedBase(t *testing.T) {
	s, err := New("numpy")
	if err != nil {
		t.Fatal(err)
	}
	const vals = "[0, 1, -1, 3, 100, -127, 15, 16, 181, 46341, -46341, 2.5, 1e-30, 1e200, nan, inf, -inf, 1e-310]"
	for _, d := range []string{"i8", "u8", "i16", "u16", "i32", "u32", "i64", "u64", "f16", "bf16", "f32", "f64"} {
		src := "x = cast(f64(" + vals + "), " + d + ")\ny = cast(f64(" + vals + ")[::-1] / 3, " + d + ")\nz = x - y\n" +
			"p = z ** full(shape(z), 2, dtype=" + d + ")\nq = (x - y) ** 2\nsq = sum((x - y) ** 2)\nsp = sum(p)\n" +
			"all((q == p) | (q != q) & (p != p)) & ((sq == sp) | (sq != sq) & (sp != sp))"
		outs, err := s.Execute(context.Background(), "", src)
		if err != nil {
			t.Errorf("%s: %v", d, err)
			continue
		}
		if got := s.Text(outs[len(outs)-1], format.Options{}); got != "bool true" {
			t.Errorf("%s: (x - y) ** 2 differs from pow on x - y: %s", d, got)
		}
	}
}

// TestIntPowerIsPow checks that integer x ** k for k from 3 to 16,
// compiled as products by squaring (intPower), gives the bits the pow
// kernel gives for an exponent array of ks: every integer dtype, values
// that wrap, each policy that has the dtype; and that x ** 17, x ** 2.0 and
// a negative power are left to pow (NumPy: "Integers to negative integer
// powers are not allowed").
func TestIntPowerIsPow(t *testing.T) {
	const ints = "[0, 1, 2, 3, 7, 100, 127, 15, 16, 255, 181, 46341, 3037000499, -1, -2, -3, -128, -46341, 12345678901]"
	for _, policy := range []string{"numpy", "jax64", "torch"} {
		s, err := New(policy)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range []string{"i8", "u8", "i16", "u16", "i32", "u32", "i64", "u64"} {
			if _, err := s.Execute(context.Background(), "", "x = cast(i64("+ints+"), "+d+")"); err != nil {
				if strings.Contains(err.Error(), "dtype") {
					continue // a dtype the policy lacks (torch's u16, u32, u64)
				}
				t.Fatalf("%s %s: %v", policy, d, err)
			}
			for k := 3; k <= 17; k++ {
				src := fmt.Sprintf("all(x ** %d == x ** full(shape(x), %d, dtype=%s))", k, k, d)
				outs, err := s.Execute(context.Background(), "", src)
				if err != nil {
					t.Fatalf("%s %s: %s: %v", policy, d, src, err)
				}
				if got := s.Text(outs[len(outs)-1], format.Options{}); !strings.HasSuffix(strings.ToLower(got), "true") {
					t.Errorf("%s %s: x ** %d and the pow kernel differ: %s", policy, d, k, got)
				}
			}
		}
	}
	s, _ := New("numpy")
	if _, err := s.Execute(context.Background(), "", "i32([2, 3]) ** -3"); err == nil || !strings.Contains(err.Error(), "negative") {
		t.Errorf("i32 ** -3: err = %v, want the negative-power error", err)
	}
}

// TestIntPowerTree checks intPower's products: the exponents of x in the
// tree add up to k, with at most 2·log2(k) multiplications, and the
// result node keeps its dtype and shape.
func TestIntPowerTree(t *testing.T) {
	x := &backend.Node{Op: backend.OpInput, DType: dtypes.I32, Shape: []int{4}}
	y := &backend.Node{Op: backend.OpInput, DType: dtypes.I32}
	seen := map[*backend.Node]bool{} // the distinct products
	var power func(n *backend.Node) int
	power = func(n *backend.Node) int {
		switch n {
		case x:
			return 1
		case y:
			t.Fatal("the exponent is still an operand")
		}
		if n.Op != backend.OpMul || len(n.Args) != 2 || n.DType != dtypes.I32 || len(n.Shape) != 1 {
			t.Fatalf("node %v %v %v", n.Op, n.DType, n.Shape)
		}
		seen[n] = true
		return power(n.Args[0]) + power(n.Args[1])
	}
	for k := 3; k <= 16; k++ {
		n := &backend.Node{Op: backend.OpPow, DType: dtypes.I32, Shape: []int{4}, Args: []*backend.Node{x, y}}
		intPower(n, k)
		clear(seen)
		e := power(n)
		if muls := len(seen); e != k || muls > 2*bits.Len(uint(k)) {
			t.Errorf("x ** %d: the tree is x ** %d in %d multiplications", k, e, muls)
		}
	}
}
