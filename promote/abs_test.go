package promote

import (
	"testing"

	"github.com/tensorsh/tensorsh/dtypes"
)

// TestAbsComplex pins abs of a complex operand: the real dtype of its
// precision, computed on the complex operand, in every policy that has
// complex dtypes.
//
//   - NumPy: np.absolute's complex loops are F->f and D->d
//     (numpy/_core/code_generators/generate_umath.py, 'absolute':
//     TD(cmplx, out=('f', 'd', 'g'))); NumPy 1 the same.
//   - JAX: lax.abs_p = unop(_complex_basetype, …) (jax/_src/lax/lax.py);
//     weak types are kept by unops.
//   - PyTorch: at::abs is unary_op_impl_with_complex_to_float
//     (aten/src/ATen/native/UnaryOps.cpp): toRealValueType, so complex32
//     gives float16.
//   - Array API: abs(x) "must have a real-valued floating-point data type
//     whose precision matches the precision of x"
//     (https://data-apis.org/array-api/latest/API_specification/generated/array_api.abs.html).
func TestAbsComplex(t *testing.T) {
	const (
		f16, f32, f64  = dtypes.F16, dtypes.F32, dtypes.F64
		c32, c64, c128 = dtypes.C32, dtypes.C64, dtypes.C128
		i8, bf16       = dtypes.I8, dtypes.BF16
	)
	for _, name := range []string{"numpy", "numpy1", "jax64", "torch", "array-api"} {
		p := refsMust(t, name)
		mineUnary(t, p, []mineUn{
			{Abs, mineArr(c64), "f32", c64},
			{Abs, mineArr(c128), "f64", c128},
			{Abs, mineWeak(c128), "f64?", c128},
			{Abs, mineArr(f32), "f32", f32},
			{Abs, mineArr(i8), "i8", i8},
			{Neg, mineArr(c64), "c64", c64},
		})
	}
	mineUnary(t, refsMust(t, "jax"), []mineUn{
		{Abs, mineArr(c64), "f32", c64},
		{Abs, mineWeak(c64), "f32?", c64},
		{Abs, mineArr(bf16), "bf16", bf16},
	})
	mineUnary(t, refsMust(t, "torch"), []mineUn{
		{Abs, mineArr(c32), "f16", c32},
		{Abs, mineArr(f16), "f16", f16},
	})
}

// TestComplex32OnlyTorch checks that complex32 is in torch's dtype set and
// that every other policy refuses it with an error naming itself.
func TestComplex32OnlyTorch(t *testing.T) {
	for _, name := range Names() {
		p := refsMust(t, name)
		d, _, err := p.Check(dtypes.C32)
		if name == "torch" {
			if err != nil || d != dtypes.C32 || !numpyHas(p.DTypes(), dtypes.C32) {
				t.Errorf("torch: Check(c32) = %v, %v; want c32 in the set", d, err)
			}
			continue
		}
		if err == nil {
			t.Errorf("%s: Check(c32) = %v, want an error", name, d)
			continue
		}
		if e, ok := err.(*Error); !ok || e.Policy != name {
			t.Errorf("%s: Check(c32) error %v does not name the policy", name, err)
		}
		if numpyHas(p.DTypes(), dtypes.C32) {
			t.Errorf("%s lists c32 among its dtypes", name)
		}
		if _, err := p.Binary(Add, mineArr(dtypes.C32), mineArr(dtypes.C32)); err == nil {
			t.Errorf("%s: c32 + c32 answers, want an error", name)
		}
	}
}

// TestScaledCAbs pins which policies compute abs of a complex operand as
// NumPy's SIMD loop does (Result.ScaledCAbs): NumPy's, whose
// CFLOAT_absolute and CDOUBLE_absolute take simd_cabsolute wherever
// NumPy has SIMD loops (numpy/_core/src/umath/loops_unary_complex.dispatch.c.src:
// baseline SSE2, AVX2 with FMA3, AVX-512F, NEON, ASIMD, VSX, VX; NumPy
// 1.24 on AVX-512 CPUs, as eval's NumPy-run test checks against the
// installed NumPy), and no other: jax.numpy's abs lowers to XLA's abs,
// PyTorch's is std::abs of c10::complex (hypot), the Array API leaves the
// algorithm to the library. Other operations and real operands never
// set it.
func TestScaledCAbs(t *testing.T) {
	for _, name := range []string{"numpy", "numpy1", "jax", "jax64", "torch", "array-api"} {
		p := refsMust(t, name)
		for _, d := range []dtypes.DType{dtypes.C64, dtypes.C128} {
			r, err := p.Unary(Abs, mineArr(d))
			if err != nil {
				t.Fatalf("%s: abs(%v): %v", name, d, err)
			}
			if want := name == "numpy" || name == "numpy1"; r.ScaledCAbs != want {
				t.Errorf("%s: abs(%v).ScaledCAbs = %v, want %v", name, d, r.ScaledCAbs, want)
			}
			if r, _ := p.Unary(Neg, mineArr(d)); r.ScaledCAbs {
				t.Errorf("%s: -%v sets ScaledCAbs", name, d)
			}
		}
		if r, _ := p.Unary(Abs, mineArr(dtypes.F32)); r.ScaledCAbs {
			t.Errorf("%s: abs(f32) sets ScaledCAbs", name)
		}
	}
}
