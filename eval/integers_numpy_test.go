package eval

import (
	"context"
	"testing"
)

// TestIntegersNumPy runs integer, bool and mixed-dtype expressions in the
// installed NumPy and in tensorsh on the same operands, and compares the
// dtype and the bits of every element, or that both refuse: shifts by
// counts past the width (0, or -1 for a negative signed value shifted
// right) and by an array of counts, the bitwise operators, negation and
// abs that wrap (abs(int8(-128)) is -128), integer powers, division and
// modulo by zero (0, as NumPy's loops give with a warning), products that
// wrap, every pair of array dtypes among the integers, bool and the
// floats under +, <, * and / (uint64 with a signed integer is float64,
// bool + bool is a logical or), bool arithmetic (NumPy refuses bool -
// bool and ~ is not), float % and // across three widths, and integer
// and bool matrix products, whose sums wrap in the operands' dtype
// (NumPy's matmul loops for non-BLAS dtypes). Float powers other than
// 2, 0.5 and -1 are left out (NumPy 1.24 computes them with SVML on an
// AVX-512 CPU, not correctly rounded; see elementwiseExprs), and so are
// products with a float32 operand (OpenBLAS's sgemm, in its blocking's
// order; tensorsh adds in order of the inner index).
func TestIntegersNumPy(t *testing.T) {
	s, err := New(needNumPy(t))
	if err != nil {
		t.Fatal(err)
	}
	setup := `i = cast(floor(rand((600,), seed=7) * 256) - 128, i8)
j = cast(floor(rand((600,), seed=8) * 12) - 2, i8)
u = cast(floor(rand((600,), seed=9) * 256), u8)
v = cast(floor(rand((600,), seed=10) * 12), u8)
p = cast(floor(rand((600,), seed=11) * 65536) - 32768, i16)
q = cast(floor(rand((600,), seed=12) * 65536), u16)
k = cast(floor(rand((600,), seed=13) * 4000000000) - 2000000000, i32)
m = cast(floor(rand((600,), seed=14) * 4000000000), u32)
n = cast(floor(rand((600,), seed=15) * 2e18) - 1e18, i64)
r = cast(floor(rand((600,), seed=16) * 1e19), u64)
b = rand((600,), seed=17) < 0.5
c = rand((600,), seed=18) < 0.5
f = cast(rand((600,), seed=19) * 200 - 100, f32)
h = cast(rand((600,), seed=20) * 20 - 10, f16)
d = rand((600,), seed=21) * 200 - 100
sh = cast(floor(rand((600,), seed=22) * 70), i8)
i8m = cast(floor(rand((40, 50), seed=30) * 256) - 128, i8)
i8n = cast(floor(rand((50, 30), seed=31) * 256) - 128, i8)
u8m = cast(floor(rand((40, 50), seed=32) * 256), u8)
u8n = cast(floor(rand((50, 30), seed=33) * 256), u8)
bm = rand((40, 50), seed=34) < 0.1
bn = rand((50, 30), seed=35) < 0.1
k32m = cast(floor(rand((40, 50), seed=36) * 4000000000) - 2000000000, i32)
k32n = cast(floor(rand((50, 30), seed=37) * 4000000000) - 2000000000, i32)
n64m = cast(floor(rand((40, 50), seed=38) * 2e18) - 1e18, i64)
n64n = cast(floor(rand((50, 30), seed=39) * 2e18) - 1e18, i64)
f16m = cast(rand((40, 50), seed=41) * 2 - 1, f16)`
	if _, err := s.Execute(context.Background(), "", setup); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	names := map[string]string{"i": "int8", "j": "int8", "u": "uint8", "v": "uint8", "p": "int16", "q": "uint16",
		"k": "int32", "m": "uint32", "n": "int64", "r": "uint64", "b": "bool", "c": "bool", "f": "float32",
		"h": "float16", "d": "float64", "sh": "int8"}
	for _, nm := range []string{"i8m", "i8n", "u8m", "u8n", "bm", "bn", "k32m", "k32n", "n64m", "n64n", "f16m"} {
		names[nm] = map[byte]string{'i': "int8", 'u': "uint8", 'b': "bool", 'k': "int32", 'n': "int64", 'f': "float16"}[nm[0]]
	}
	ops := numpyOperands(t, s, dir, names)
	var ts, py []string
	add := func(e string) { ts, py = append(ts, e), append(py, e) }
	addp := func(e, p string) { ts, py = append(ts, e), append(py, p) }
	ints := []string{"i", "u", "p", "q", "k", "m", "n", "r"}
	for _, x := range ints {
		for _, c := range []string{"0", "1", "3", "7", "8", "9", "15", "16", "17", "31", "32", "33", "63", "64", "65"} {
			add(x + " << " + c)
			add(x + " >> " + c)
		}
		add(x + " << v")
		add(x + " >> v")
		add(x + " << sh") // counts 0…69, past every width
		add(x + " >> sh")
		add(x + " & " + x + "[::-1]")
		add(x + " | " + x + "[::-1]")
		add(x + " ^ " + x + "[::-1]")
		addp("~"+x, "~"+x)
		addp("-"+x, "-"+x)
		addp("abs("+x+")", "np.abs("+x+")")
		add(x + " ** 2")
		add(x + " ** 3")
		add(x + " // 0")
		add(x + " % 0")
		add(x + " // " + x + "[::-1]")
		add(x + " % " + x + "[::-1]")
		add(x + " * " + x + "[::-1]")
		add(x + " ** v")
		for _, y := range append(ints, "b", "f", "h", "d") {
			add(x + " + " + y)
			add(x + " < " + y)
			add(x + " * " + y)
			add(x + " / " + y)
		}
	}
	for _, x := range []string{"b"} {
		add(x + " + c")
		add(x + " * c")
		add(x + " & c")
		add(x + " | c")
		add(x + " ^ c")
		addp("~"+x, "~"+x)
		add(x + " < c")
		add(x + " + 1")
		add(x + " + 1.5")
		add(x + " / c")
		add(x + " // c")
	}
	for _, x := range []string{"f", "h", "d"} {
		for _, y := range []string{"f", "h", "d"} {
			add(x + " + " + y)
			add(x + " * " + y)
			add(x + " / " + y)
			add(x + " % " + y)
			add(x + " // " + y)
		}
		add(x + " ** -1")
		add(x + " ** 2")
	}
	for _, e := range []string{"i8m @ i8n", "u8m @ u8n", "bm @ bn", "k32m @ k32n", "n64m @ n64n", "u8m @ i8n",
		"bm @ i8n", "i8m @ i8n[:, 0]", "i8m[0] @ i8n", "bm[0] @ bn", "f16m @ i8n"} {
		add(e)
	}
	addp("sum(i8m @ i8n)", "np.sum(i8m @ i8n)")
	addp("transpose(i8m) @ i8m", "i8m.T @ i8m")
	addp("k32m @ transpose(k32m)", "k32m @ k32m.T")
	checkNumPyBits(t, s, ts, py, numpyValues(t, dir, ops, py))
}
