package promote

import (
	"strings"
	"testing"

	"github.com/tensorsh/tensorsh/dtypes"
)

// The TensorFlow and Keras references (refs/tf.json, tf_numpy.json,
// tf_numpy_safe.json, keras.json) are derived from the libraries' source
// by testdata/refs/derive/tf_keras.py; see testdata/refs/README.md.

// tfRefs checks the tf policy against refs/tf.json: tensors of two dtypes
// under + (pairs) and / (truediv, math_ops._TRUEDIV_TABLE), and tensors
// meeting Python scalars (tensor_scalar: the eager converter of
// tensorflow/python/lib/core/py_seq_tensor.cc PySeqToTFE_TensorHandle and
// pywrap_tensor.cc IsCompatible).
func tfRefs(t testing.TB, report func(string, ...any)) refsTally {
	p := refsMust(t, "tf")
	var n refsTally
	n.Add(refsCheck(t, report, p, "tf", "pairs", refsAsArray(p, false), refsAsArray(p, false), nil))
	n.Add(refsCheckOp(t, report, p, TrueDiv, "tf", "truediv", refsAsArray(p, false), refsAsArray(p, false), nil))
	n.Add(refsCheck(t, report, p, "tf", "tensor_scalar", refsAsArray(p, false), refsAsLiteral(p), nil))
	return n
}

func TestTFRefs(t *testing.T) {
	n := tfRefs(t, t.Errorf)
	t.Logf("tf: %d cells checked, %d mismatches", n.Checked, n.Mismatches)
	if want := 225 + 225 + 15*11; n.Checked != want {
		t.Errorf("tf: checked %d cells, want %d", n.Checked, want)
	}
}

// tfnAs maps a node name of tf_numpy.json ("int8", or a weak type
// "float64?") to an operand: a tensor, or a WeakTensor.
func tfnAs(name string) (Operand, bool) {
	base, weak := strings.CutSuffix(name, "?")
	d, ok := refsDType(base)
	if !ok {
		return Operand{}, false
	}
	if weak {
		return Operand{Type: dtypes.Weak(d), Rank: 0}, true
	}
	return Operand{Type: dtypes.Strong(d), Rank: 1}, true
}

// tfNumPyRefs checks tf-numpy (or tf-numpy-safe) against the whole table
// of flexible_dtypes.py (tensorflow/python/framework/flexible_dtypes.py
// _BINARY_DTYPE_RES_HALF, 20 × 20 inputs with the result's weakness) and
// tensors meeting Python scalars (_get_dtype_and_weakness).
func tfNumPyRefs(t testing.TB, report func(string, ...any), name string) refsTally {
	p := refsMust(t, name)
	file := strings.ReplaceAll(name, "-", "_")
	var n refsTally
	n.Add(refsCheckOp(t, report, p, Where, file, "pairs", tfnAs, tfnAs, nil))
	n.Add(refsCheckOp(t, report, p, Where, file, "array_scalar", refsAsArray(p, false), refsAsLiteral(p), nil))
	return n
}

func TestTFNumPyRefs(t *testing.T) {
	for _, name := range []string{"tf-numpy", "tf-numpy-safe"} {
		n := tfNumPyRefs(t, t.Errorf, name)
		t.Logf("%s: %d cells checked, %d mismatches", name, n.Checked, n.Mismatches)
		if want := 400 + 15*8; n.Checked != want {
			t.Errorf("%s: checked %d cells, want %d", name, n.Checked, want)
		}
	}
}

// kerasRefs checks keras against refs/keras.json: result_type of two
// dtypes (pairs), of two dtypes and float (truediv: keras.ops.divide), and
// of a dtype with the Python types int, float, bool and complex.
func kerasRefs(t testing.TB, report func(string, ...any)) refsTally {
	p := refsMust(t, "keras")
	var n refsTally
	n.Add(refsCheck(t, report, p, "keras", "pairs", refsAsArray(p, false), refsAsArray(p, false), nil))
	n.Add(refsCheckOp(t, report, p, TrueDiv, "keras", "truediv", refsAsArray(p, false), refsAsArray(p, false), nil))
	n.Add(refsCheck(t, report, p, "keras", "array_scalar", refsAsArray(p, false), refsAsLiteral(p), nil))
	return n
}

func TestKerasRefs(t *testing.T) {
	n := kerasRefs(t, t.Errorf)
	t.Logf("keras: %d cells checked, %d mismatches", n.Checked, n.Mismatches)
	if want := 289 + 289 + 17*4; n.Checked != want {
		t.Errorf("keras: checked %d cells, want %d", n.Checked, want)
	}
}

func TestTFBinary(t *testing.T) {
	p := refsMust(t, "tf")
	const (
		b, i8, i32, i64, u8, u64 = dtypes.Bool, dtypes.I8, dtypes.I32, dtypes.I64, dtypes.U8, dtypes.U64
		f16, bf16, f32, f64, c64 = dtypes.F16, dtypes.BF16, dtypes.F32, dtypes.F64, dtypes.C64
	)
	mineBinary(t, p, []mineBin{
		// Kernels take one dtype T (AddV2's op def); the eager executor's
		// message names the input that differs.
		{mineArr(i8), Add, mineArr(u8), "error@1: was expected to be a int8 tensor but is a uint8 tensor", 0},
		{mineArr(i32), Mul, mineArr(f32), "error@1: cannot compute Mul as input #1(zero-based) was expected to be a int32 tensor but is a float tensor", 0},
		// math_ops._truediv_python3 checks the dtypes before the kernel.
		{mineArr(f16), TrueDiv, mineArr(f32), "error@1: `x` and `y` must have the same dtype, got tf.float16 != tf.float32", 0},
		// _TRUEDIV_TABLE: 8- and 16-bit ints to float32, wider to float64.
		{mineArr(i8), TrueDiv, mineArr(i8), "f32", f32},
		{mineArr(u64), TrueDiv, mineArr(u64), "f64", f64},
		{mineArr(b), TrueDiv, mineArr(b), "error@-1: Invalid dtype tf.bool in __truediv__", 0},
		{mineArr(i8), TrueDiv, mineLit(p, 2), "f32", f32},
		// Python scalars take the tensor's dtype (py_seq_tensor.cc: an int
		// goes through int64 and a wrapping Cast).
		{mineArr(i8), Add, mineLit(p, 300), "i8", i8},
		{mineLit(p, -1), Add, mineArr(u8), "u8", u8},
		{mineArr(i8), Sub, mineLit(p, 1.5), "error@1: Cannot convert 1.5 to EagerTensor of dtype int8", 0},
		// _add_dispatch retries without a dtype: AddV2 then sees a float.
		{mineArr(i32), Add, mineLit(p, 1.5), "error@1: was expected to be a int32 tensor but is a float tensor", 0},
		{mineArr(i64), Add, mineLit(p, minePow2(63)), "error@1: out-of-range integer", 0},
		{mineArr(u64), Add, mineLit(p, minePow2(63)), "u64", u64},
		{mineArr(u64), Sub, mineLit(p, -1), "error@1: can't convert negative int to unsigned", 0},
		{mineArr(f16), Add, mineLit(p, 1e300), "f16", f16},
		{mineArr(bf16), Add, mineLit(p, true), "error@1: was expected to be a bfloat16 tensor but is a bool tensor", 0},
		{mineArr(f32), Add, mineLit(p, true), "f32", f32},
		{mineArr(f32), Add, mineLit(p, 1i), "error@1: was expected to be a float tensor but is a complex128 tensor", 0},
		{mineArr(c64), Add, mineLit(p, 1i), "c64", c64},
		// FloorDiv and FloorMod: integer division by zero is an error.
		{mineArr(i32), FloorDiv, mineArr(i32), "i32", i32},
		{mineArr(c64), Mod, mineArr(c64), "error@-1: FloorMod", 0},
		{mineArr(b), Add, mineArr(b), "error@-1: Value for attr 'T' of bool", 0},
		{mineArr(b), BitAnd, mineArr(b), "bool", b},
		{mineArr(f32), Lt, mineArr(f32), "bool", f32},
		{mineArr(f32), BitOr, mineArr(f32), "error@-1: BitwiseOr", 0},
		// math_ops.xor_ is logical_xor on bool tensors; no shift operator
		// is overridden on Tensor.
		{mineArr(b), BitXor, mineArr(b), "bool", b},
		{mineArr(i32), Shl, mineArr(i32), "error@-1: has no << operator", 0},
	})
	r, _ := p.Binary(FloorDiv, mineArr(i32), mineArr(i32))
	if !r.ZeroDivError || r.CDiv {
		t.Errorf("tf: i32 // i32: ZeroDivError %v CDiv %v, want an error at zero and flooring", r.ZeroDivError, r.CDiv)
	}
	// An int meeting float32 goes through a double (PyLong_AsDouble);
	// bfloat16 through float (Eigen's bfloat16 from an int64).
	for _, c := range []struct {
		d, via dtypes.DType
	}{{f32, f64}, {bf16, f32}, {f64, dtypes.Invalid}} {
		r, err := p.Binary(Add, mineArr(c.d), mineLit(p, 16777217))
		if err != nil || r.IntVia != c.via {
			t.Errorf("tf: %s + 16777217: IntVia %v, %v; want %v", c.d, r.IntVia, err, c.via)
		}
	}
}

func TestTFUnary(t *testing.T) {
	p := refsMust(t, "tf")
	const (
		b, i8, i32, u8, f16, f32, c64 = dtypes.Bool, dtypes.I8, dtypes.I32, dtypes.U8, dtypes.F16, dtypes.F32, dtypes.C64
	)
	mineUnary(t, p, []mineUn{
		// Exp and the other float functions have float and complex kernels
		// only; ints are not converted.
		{Exp, mineArr(i32), "error@0: Value for attr 'T' of int32 is not in the list of allowed values for Exp", 0},
		{Exp, mineArr(f16), "f16", f16},
		{Abs, mineArr(c64), "f32", c64},
		{Invert, mineArr(b), "bool", b},
		{Invert, mineArr(f32), "error@0: Invert", 0},
		// reduce_sum and reduce_mean keep the dtype (wrapping; an integer
		// mean); argmax's output_type defaults to int64.
		{Sum, mineArr(i8), "i8", i8},
		{Mean, mineArr(u8), "u8", u8},
		{ArgMax, mineArr(f32), "i64", f32},
		{Any, mineArr(i32), "error@0: Any", 0},
		{Round, mineArr(f32), "error@0: half to even", 0},
		{RoundEven, mineArr(f32), "f32", f32},
	})
}

func TestTFNumPyBinary(t *testing.T) {
	all, safe := refsMust(t, "tf-numpy"), refsMust(t, "tf-numpy-safe")
	const (
		i8, i32, u8, f32, f64, c64 = dtypes.I8, dtypes.I32, dtypes.U8, dtypes.F32, dtypes.F64, dtypes.C64
	)
	// flexible_dtypes.py _BINARY_DTYPE_RES_HALF: uint8 with a Python float
	// is (float64, weak) in mode ALL; bfloat16/float16/float32 with a
	// Python complex is complex64 (ALL).
	mineBinary(t, all, []mineBin{
		{mineArr(u8), Add, mineLit(all, 1.5), "f64?", f64},
		{mineArr(i8), Add, mineLit(all, 300), "i8", i8},
		{mineArr(f32), Add, mineLit(all, 1i), "c64", c64},
		{mineLit(all, 1), Add, mineLit(all, 1.5), "f32?", f32},
		{mineArr(i8), Add, mineLit(all, minePow2(31)), "error@1: too large to convert to np.int32", 0},
		// _TRUEDIV_TABLE after promotion: int32 / int32 is float64.
		{mineArr(i32), TrueDiv, mineArr(i32), "f64", f64},
	})
	mineBinary(t, safe, []mineBin{
		{mineArr(u8), Add, mineLit(safe, 1.5), "error@-1: In promotion mode PromoMode.SAFE", 0},
		{mineArr(u8), Add, mineArr(i8), "error@-1: (<dtype: 'uint8'>, weak=False) and (<dtype: 'int8'>, weak=False)", 0},
		{mineArr(u8), Add, mineLit(safe, 1), "u8", u8},
		{mineArr(f32), Add, mineLit(safe, 1.5), "f32", f32},
	})
}

func TestKerasBinary(t *testing.T) {
	p := refsMust(t, "keras")
	const (
		b, i8, i32, i64, u8, u32, u64 = dtypes.Bool, dtypes.I8, dtypes.I32, dtypes.I64, dtypes.U8, dtypes.U32, dtypes.U64
		f16, f32, f64, c64, e4        = dtypes.F16, dtypes.F32, dtypes.F64, dtypes.C64, dtypes.F8E4M3
	)
	// keras/src/backend/common/dtypes.py: _type_promotion_lattice,
	// _lattice_result_type (weak int32/float32, BIT64_TO_BIT32_DTYPE),
	// result_type (float8 refused).
	mineBinary(t, p, []mineBin{
		{mineArr(i8), Add, mineArr(u8), "i16", dtypes.I16},
		{mineArr(i64), Add, mineArr(u64), "f32", f32},
		{mineArr(f64), Add, mineArr(f64), "f32", f32},
		{mineArr(u32), Add, mineArr(u32), "u32", u32},
		{mineArr(i8), Add, mineLit(p, 1.5), "f32", f32},
		{mineArr(f16), Add, mineLit(p, 1.5), "f16", f16},
		// result_type's docstring says result_type(complex64, int) is
		// "float64"; its code (i* is below c64 in _type_promotion_lattice)
		// gives complex64, and the policy follows the code.
		{mineArr(c64), Add, mineLit(p, 1), "c64", c64},
		{mineArr(i8), Add, mineLit(p, 1i), "c64", c64},
		{mineArr(b), Add, mineLit(p, 1), "i32", i32},
		{mineArr(e4), Add, mineArr(e4), "error@0: no implicit conversions from float8", 0},
		{mineArr(i8), Add, mineLit(p, minePow2(31)), "error@1: does not fit int32", 0},
		// keras.ops.divide is result_type(x1, x2, float).
		{mineArr(i8), TrueDiv, mineArr(i8), "f32", f32},
		{mineArr(i64), TrueDiv, mineArr(i64), "f32", f32},
		{mineArr(f16), TrueDiv, mineArr(f16), "f16", f16},
		{mineLit(p, 1), Add, mineLit(p, 2.5), "f32?", f32},
		{mineArr(b), Mod, mineArr(b), "i32", i32},
		{mineArr(f64), Lt, mineArr(f64), "bool", f32},
	})
}

func TestKerasUnary(t *testing.T) {
	p := refsMust(t, "keras")
	const (
		b, i8, i16, i32, u8, u16, u32 = dtypes.Bool, dtypes.I8, dtypes.I16, dtypes.I32, dtypes.U8, dtypes.U16, dtypes.U32
		f16, f32, c64                 = dtypes.F16, dtypes.F32, dtypes.C64
	)
	mineUnary(t, p, []mineUn{
		// Float functions are result_type(x.dtype, float).
		{Exp, mineArr(i8), "f32", f32},
		{Sqrt, mineArr(b), "f32", f32},
		{Exp, mineArr(f16), "f16", f16},
		{Exp, mineArr(c64), "c64", c64},
		// sum follows jnp.sum with x64 off (keras/src/ops/numpy.py
		// Sum.compute_output_spec: "follow jax's rule").
		{Sum, mineArr(b), "i32", i32},
		{Sum, mineArr(i16), "i32", i32},
		{Sum, mineArr(u16), "u32", u32},
		{Sum, mineArr(u8), "u32", u32},
		// mean computes in result_type(x, float32).
		{Mean, mineArr(i32), "f32", f32},
		{Mean, mineArr(f16), "f16", f32},
		{ArgMax, mineArr(f32), "i32", f32},
		// keras/src/backend/jax/numpy.py ceil (and floor) cast ints to
		// result_type(x.dtype, float) first.
		{Ceil, mineArr(i8), "f32", f32},
		{Floor, mineArr(f16), "f16", f16},
	})
}

// TestTFNumPyLattice checks that the lattice tf-numpy joins on is the
// relation of flexible_dtypes.py's table: a ≤ b exactly when a ⊕ b = b, in
// mode ALL, for the 20 inputs.
func TestTFNumPyLattice(t *testing.T) {
	p := refsMust(t, "tf-numpy").(tfNumPyPolicy)
	nodes, edges, _ := p.DocLattice()
	if len(nodes) != 20 {
		t.Fatalf("tf-numpy lattice: %d nodes, want 20", len(nodes))
	}
	below := make([][]bool, len(nodes))
	for i := range below {
		below[i] = make([]bool, len(nodes))
		below[i][i] = true
	}
	for _, e := range edges {
		below[e.From][e.To] = true
	}
	for k := range nodes {
		for i := range nodes {
			for j := range nodes {
				below[i][j] = below[i][j] || below[i][k] && below[k][j]
			}
		}
	}
	cell := map[string]refsCell{}
	for _, c := range refsTable(t, "tf_numpy", "pairs") {
		cell[c.Key] = c
	}
	name := func(h Header) string {
		if h.Type.Weak {
			return h.Type.DType.FullName() + "?"
		}
		return h.Type.DType.FullName()
	}
	for i, a := range nodes {
		for j, b := range nodes {
			c := cell[name(a)+","+name(b)]
			isB := c.DType == b.Type.DType.FullName() && c.Weak != nil && *c.Weak == b.Type.Weak
			if isB != below[i][j] {
				t.Errorf("tf-numpy lattice: %s ≤ %s is %v, but the table gives %s ⊕ %s = %s (weak %v)", name(a), name(b), below[i][j], name(a), name(b), c.DType, c.Weak != nil && *c.Weak)
			}
		}
	}
}

func TestTFPolicyChecks(t *testing.T) {
	for _, name := range []string{"tf", "tf-numpy", "tf-numpy-safe"} {
		p := refsMust(t, name)
		if _, _, err := p.Check(dtypes.F8E4M3); err == nil || !strings.Contains(err.Error(), name+": no dtype f8e4m3") {
			t.Errorf("%s: Check(f8e4m3) = %v, want an error naming the policy", name, err)
		}
	}
	k := refsMust(t, "keras")
	if d, warn, err := k.Check(dtypes.I64); err != nil || d != dtypes.I32 || warn == "" {
		t.Errorf("keras: Check(i64) = %v, %q, %v; want i32 with a warning", d, warn, err)
	}
	if _, _, err := k.Check(dtypes.TF32); err == nil || !strings.HasPrefix(err.Error(), "keras: no dtype") {
		t.Errorf("keras: Check(tf32) = %v, want an error naming keras", err)
	}
}

// TestTFKerasSymmetry checks that tf-numpy, tf-numpy-safe and keras give
// the same answer with the operands swapped (flexible_dtypes.py's table is
// symmetric by construction, _initialize; Keras' result_type joins a set),
// that an error blaming one operand blames the other after the swap, and
// that tf's kernels refuse mixed dtypes in both orders.
func TestTFKerasSymmetry(t *testing.T) {
	for _, name := range []string{"tf", "tf-numpy", "tf-numpy-safe", "keras"} {
		p := refsMust(t, name)
		ops := mineOperands(p)
		cases, bad := 0, 0
		for op := Add; op <= Clip; op++ {
			if op == MatMul {
				continue
			}
			for i, x := range ops {
				for _, y := range ops[i:] {
					r1, e1 := p.Binary(op, x, y)
					r2, e2 := p.Binary(op, y, x)
					cases++
					same := (e1 == nil) == (e2 == nil)
					if same && e1 == nil {
						same = r1.Type == r2.Type && r1.Compute == r2.Compute && r1.ZeroDivError == r2.ZeroDivError
					}
					if same && e1 != nil && name != "tf" {
						b1, b2 := refsBlame(e1), refsBlame(e2)
						same = b1 == -1 && b2 == -1 || b1 >= 0 && b2 == 1-b1 || b1 >= 0 && b2 >= 0 && mineBothAtFault(p, op, x, y)
					}
					if !same && bad < 10 {
						t.Errorf("%s: %s %s %s = %v, %v; swapped: %v, %v", name, mineOperandString(x), op, mineOperandString(y), r1.Type, e1, r2.Type, e2)
					}
					if !same {
						bad++
					}
				}
			}
		}
		t.Logf("%s: %d swapped pairs checked, %d asymmetric", name, cases, bad)
	}
}

// TestKerasNary checks that keras promotes n operands at once, as
// result_type does (_lattice_result_type joins the set of inputs and
// applies BIT64_TO_BIT32_DTYPE once, at the end).
func TestKerasNary(t *testing.T) {
	p := refsMust(t, "keras")
	u64, i8 := mineArr(dtypes.U64), mineArr(dtypes.I8)
	r, err := Nary(p, Where, u64, u64, i8)
	if err != nil || r.Type != dtypes.Strong(dtypes.F32) {
		t.Errorf("keras: promote(u64, u64, i8) = %v, %v; want f32 (a left fold would give i32)", r.Type, err)
	}
	r, err = Nary(p, Where, mineLit(p, 1), mineLit(p, 2.5))
	if err != nil || r.Type != dtypes.Weak(dtypes.F32) {
		t.Errorf("keras: promote(1, 2.5) = %v, %v; want f32? (Python scalars)", r.Type, err)
	}
	if _, err := Nary(p, Where, i8, mineArr(dtypes.F8E5M2), u64); refsBlame(err) != 1 {
		t.Errorf("keras: promote(i8, f8e5m2, u64) = %v; want an error blaming operand 1", err)
	}
}
