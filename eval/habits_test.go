package eval

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/tensorsh/tensorsh/internal/format"
	"github.com/tensorsh/tensorsh/promote"
)

// run executes src in s and returns the text of its last output, or the
// error's name and message.
func run(t *testing.T, s *Session, src string) string {
	t.Helper()
	outs, err := s.Execute(context.Background(), "", src)
	if err != nil {
		var e *Error
		if !errors.As(err, &e) {
			t.Fatalf("%q: error %T %v, want *Error", src, err, err)
		}
		return e.Name + ": " + e.Msg
	}
	if len(outs) == 0 {
		return ""
	}
	return s.Text(outs[len(outs)-1], format.Options{})
}

// TestMethodsAreFunctions checks that each attribute and method means
// what its function means, under every policy and for several dtypes:
// the same value, dtype and shape, or the same error.
//
// The methods and the order of their positional arguments are NumPy's
// (https://numpy.org/doc/stable/reference/generated/numpy.ndarray.html):
// ndarray.sum(axis=None, dtype=None, out=None, keepdims=False) and the
// other reductions take the axis first; ndarray.reshape "allows the
// elements of the shape parameter to be passed in as separate arguments",
// a.reshape(10, 11) being a.reshape((10, 11)), and ndarray.transpose(*axes)
// likewise; ndarray.T is "the same as self.transpose()"; ndarray.astype
// is a cast; ndarray.ndim and ndarray.size are Python ints. jax.Array has
// the same methods with the same meaning (jax/_src/numpy/array_methods.py,
// _array_methods and _array_properties).
func TestMethodsAreFunctions(t *testing.T) {
	pairs := []struct{ method, function string }{
		{"x.shape", "shape(x)"},
		{"x.dtype", "dtype(x)"},
		{"x.T", "transpose(x)"},
		{"x.T.shape", "shape(transpose(x))"},
		{"x.ndim", "2"},
		{"x.size", "6"},
		{"x.astype(f16)", "cast(x, f16)"},
		{"x.astype(i8)", "cast(x, i8)"},
		{"x.astype(dtype=i8)", "cast(x, i8)"}, // an error: cast takes no keyword
		{"x.reshape(3, 2)", "reshape(x, (3, 2))"},
		{"x.reshape((3, 2))", "reshape(x, (3, 2))"},
		{"x.reshape(-1)", "reshape(x, -1)"},
		{"x.ravel()", "reshape(x, -1)"},
		{"x.flatten()", "reshape(x, -1)"},
		{"x.copy()", "x"},
		// Weak under JAX's policies, and kept weak: x.copy() is
		// jnp.array(x, copy=True), whose weak_type is "dtype is None and
		// dtypes.is_weakly_typed(object)" (jax/_src/numpy/lax_numpy.py).
		{"(x * 1.5).copy()", "x * 1.5"},
		{"x.copy().T", "transpose(x)"},
		{"x.transpose()", "transpose(x)"},
		{"x.transpose(1, 0)", "transpose(x, (1, 0))"},
		{"x.transpose((1, 0))", "transpose(x, (1, 0))"},
		{"x.sum()", "sum(x)"},
		{"x.sum(axis=0)", "sum(x, axis=0)"},
		{"x.sum(0)", "sum(x, axis=0)"},
		{"x.sum(axis=(0, 1), keepdims=true)", "sum(x, axis=(0, 1), keepdims=true)"},
		{"x.mean()", "mean(x)"},
		{"x.mean(1)", "mean(x, axis=1)"},
		{"x.max()", "max(x)"},
		{"x.max(0)", "max(x, axis=0)"}, // the axis, not max's second operand
		{"x.min(1)", "min(x, axis=1)"},
		{"x.min(axis=-1, keepdims=true)", "min(x, axis=-1, keepdims=true)"},
		{"x.argmax()", "argmax(x)"},
		{"x.argmin(axis=1)", "argmin(x, axis=1)"},
		{"x.prod()", "prod(x)"},
		{"x.prod(0)", "prod(x, axis=0)"},
		{"x.any()", "any(x)"},
		{"x.all(keepdims=true)", "all(x, keepdims=true)"},
		{"x.squeeze()", "squeeze(x)"},
		{"x[None].squeeze(0)", "squeeze(x[None], axis=0)"},
		{"x.clip(1, 4)", "clip(x, 1, 4)"},
		// ndarray.diagonal(offset=0, axis1=0, axis2=1), ndarray.trace(offset=0,
		// axis1=0, axis2=1, …), ndarray.repeat(repeats, axis=None).
		{"x.diagonal()", "diagonal(x)"},
		{"x.diagonal(1)", "diagonal(x, 1)"},
		{"x.diagonal(0, 1, 0)", "diagonal(x, 0, 1, 0)"},
		{"x.trace()", "trace(x)"},
		{"x.trace(-1)", "trace(x, -1)"},
		{"x.repeat(2)", "repeat(x, 2)"},
		{"x.repeat(2, 1)", "repeat(x, 2, 1)"},
		{"x.repeat(3, axis=0)", "repeat(x, 3, axis=0)"},
		// ndarray.round(decimals=0) is np.round, halves to even.
		{"(x / 4).round()", "around(x / 4)"},
		{"(x / 3).round(2)", "around(x / 3, 2)"},
		{"(x + 1.5).sum(0)", "sum(x + 1.5, axis=0)"},
		{"x.sum(0) + 1", "sum(x, axis=0) + 1"},
		{"-x.T", "-transpose(x)"},
		{"x.T[0]", "transpose(x)[0]"},
		{"arange(12).reshape((3, 4)).T.shape", "shape(transpose(reshape(arange(12), (3, 4))))"},
		{"explain(x.sum(0))", "explain(sum(x, axis=0))"},
	}
	// explain shows the source it was given: compare the steps only.
	steps := func(s string) string {
		if i := strings.IndexByte(s, '\n'); i >= 0 && strings.HasPrefix(s, "explain ") {
			return s[i:]
		}
		return s
	}
	for _, policy := range promote.Names() {
		for _, def := range []string{"i16([[1, 2, 3], [4, 5, 6]])", "u8([[0, 200, 3], [4, 5, 255]])", "f16([[0.5, -1, 2], [3, 4.25, 5]])", "[[true, false, true], [true, true, true]]"} {
			s, err := New(policy)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := s.Execute(context.Background(), "", "x = "+def); err != nil {
				continue // a dtype the policy lacks (anvil has no f16)
			}
			for _, p := range pairs {
				got, want := steps(run(t, s, p.method)), steps(run(t, s, p.function))
				if strings.Contains(p.method, "dtype=") {
					if !strings.HasPrefix(got, "TypeError:") {
						t.Errorf("%s, x = %s: %s = %q, want a TypeError", policy, def, p.method, got)
					}
					continue
				}
				if got != want {
					t.Errorf("%s, x = %s:\n%s = %q\n%s = %q", policy, def, p.method, got, p.function, want)
				}
			}
		}
	}
}

// TestItem checks x.item(): the single element as a Python scalar, which
// is a weak literal here (numpy/_core/src/multiarray/methods.c,
// array_toscalar: ValueError "can only convert an array of size 1 to a
// Python scalar"; jax.Array.item does the same).
func TestItem(t *testing.T) {
	tests := []struct{ policy, src, want string }{
		{"jax", "i16([[1, 2], [3, 4]])[1, 0].item()", "i32? 3"},
		{"jax", "i16([[7]]).item()", "i32? 7"},
		{"numpy", "i16([[7]]).item()", "i64? 7"},
		{"jax", "f16([0.1]).item()", "f32? 0.0999755859375"}, // the float16 value, exactly
		{"numpy", "f16([0.1]).item()", "f64? 0.0999755859375"},
		{"jax", "u8([200]).item() + 1.5", "f32? 201.5"},
		{"jax", "[true].item()", "AttributeError: a list [...] has no attribute \"item\": make it a tensor first, as in f32([true]).item(…)"},
		{"jax", "bool([true]).item()", "bool true"},
		{"jax", "i8([1, 2]).item()", "ValueError: can only convert an array of size 1 to a Python scalar (this one has shape (2,))"},
		{"jax", "zeros((0,)).item()", "ValueError: can only convert an array of size 1 to a Python scalar (this one has shape (0,))"},
		{"jax", "i8([1]).item(0)", "TypeError: x.item() takes at most 0 positional arguments (1 given); usage: x.item()"},
	}
	for _, tt := range tests {
		s, err := New(tt.policy)
		if err != nil {
			t.Fatal(err)
		}
		if got := run(t, s, tt.src); got != tt.want {
			t.Errorf("%s: %s = %q, want %q", tt.policy, tt.src, got, tt.want)
		}
	}
}

// TestAttrErrors checks the errors of attributes: the unknown ones with
// the nearest known name, a method read without a call, an attribute
// called, and what has no attributes. NumPy's messages for the same
// mistakes: "'numpy.ndarray' object has no attribute 'shap'" (Python 3.10+
// adds "Did you mean: 'shape'?"), "'tuple' object is not callable" for
// x.shape().
func TestAttrErrors(t *testing.T) {
	tests := []struct{ src, want string }{
		{"x.shap", `AttributeError: a tensor has no attribute "shap"; did you mean "shape"?`},
		{"x.tranpose()", `AttributeError: a tensor has no attribute "tranpose"; did you mean "transpose"?`},
		{"x.sqrt()", `AttributeError: a tensor has no attribute "sqrt"; write sqrt(x), a function, as in NumPy`},
		{"x.zzzzzz", `AttributeError: a tensor has no attribute "zzzzzz" (attributes: `},
		// PyTorch's spellings (https://pytorch.org/docs/stable/tensors.html).
		{"x.to(f16)", `AttributeError: a tensor has no attribute "to"; write x.astype(f16) (NumPy's spelling)`},
		{"x.dim()", `AttributeError: a tensor has no attribute "dim"; write x.ndim (NumPy's spelling)`},
		{"x.float()", `AttributeError: a tensor has no attribute "float"; write x.astype(f32) (NumPy's spelling)`},
		{"(x + 1).view(3, 2)", `AttributeError: a tensor has no attribute "view"; write x.reshape(…) (NumPy's spelling)`},
		{"x.sum", `TypeError: x.sum is a method: call it, as in x.sum(axis)`},
		{"x.shape()", `TypeError: x.shape is an attribute, not a method: write x.shape`},
		{"x.size()", `TypeError: x.size is an attribute, not a method: write x.size (the number of elements, as in NumPy; x.shape is the shape)`},
		{"x.sum(0, 1)", `TypeError: x.sum() takes at most 1 positional argument (2 given); usage: x.sum(axis)`},
		{"x.sum(0, axis=1)", `TypeError: x.sum() got multiple values for argument "axis"`},
		{"x.sum(keep=true)", `TypeError: x.sum() got an unexpected keyword argument "keep" (it takes axis, keepdims)`},
		{"x.sum(axis=2)", `IndexError: axis 2 is out of bounds for a tensor of rank 2`},
		{"x.reshape(4, 2)", `ValueError: cannot reshape`},
		{"(1).real", `AttributeError: a literal number has no attribute "real" (only tensors have attributes)`},
		{"f32.shape", `AttributeError: a dtype has no attribute "shape" (only tensors have attributes)`},
		{"x.shape.ndim", `AttributeError: a shape has no attribute "ndim" (only tensors have attributes)`},
		{"y.shape", `NameError: name "y" is not defined`},
		// Builtins' arguments given twice, as Python refuses them.
		{"eye(3, 4, M=5)", `TypeError: eye() got multiple values for argument "M"`},
		{"eye(3, 4, m=5)", `TypeError: eye() got multiple values for argument "m"`},
		{"eye(3, m=4, M=5)", `TypeError: eye() got multiple values for argument "M" (M= and m=)`},
		{"eye(3, 4, 1, k=2)", `TypeError: eye() got multiple values for argument "k"`},
		{"linspace(0, 1, 5, num=3)", `TypeError: linspace() got multiple values for argument "num"`},
	}
	s, err := New("jax")
	if err != nil {
		t.Fatal(err)
	}
	run(t, s, "x = i16([[1, 2, 3], [4, 5, 6]])")
	for _, tt := range tests {
		if got := run(t, s, tt.src); !strings.HasPrefix(got, tt.want) {
			t.Errorf("%s = %q, want %q…", tt.src, got, tt.want)
		}
	}
}

// TestCompleteAttrs checks completion after "x.": the attributes and
// methods, and nothing after a number's decimal point or "...".
func TestCompleteAttrs(t *testing.T) {
	s, err := New("jax")
	if err != nil {
		t.Fatal(err)
	}
	run(t, s, "x = i16([[1, 2, 3], [4, 5, 6]])")
	tests := []struct {
		src     string
		want    []string // all of these, in this order
		wantNot []string
	}{
		{"x.", []string{"T", "all", "argmax", "astype", "dtype", "item", "mean", "ndim", "reshape", "shape", "size", "sum", "transpose"}, []string{"x", "sqrt", "f32", "true"}},
		{"x.s", []string{"shape", "size", "squeeze", "sum"}, []string{"sqrt", "sin"}},
		{"x.T.sh", []string{"shape"}, nil},
		{"f(x).res", []string{"reshape"}, []string{"result_type"}},
		{"x[0].ast", []string{"astype"}, nil},
		{"1.", nil, []string{"T", "ndim", "item"}},
		{"x[...", nil, []string{"T", "ndim", "item"}},
	}
	for _, tt := range tests {
		_, _, matches := s.Complete(tt.src, len(tt.src))
		var got []string
		for _, m := range matches {
			got = append(got, m.Text)
		}
		i := 0
		for _, g := range got {
			if i < len(tt.want) && g == tt.want[i] {
				i++
			}
		}
		if i < len(tt.want) {
			t.Errorf("Complete(%q) = %q, want %q in order", tt.src, got, tt.want)
		}
		for _, n := range tt.wantNot {
			if slices.Contains(got, n) {
				t.Errorf("Complete(%q) offers %q: %q", tt.src, n, got)
			}
		}
	}
	if text, ok := s.Inspect("x.sum", 5); !ok || !strings.Contains(text, "sum(x, axis=None, keepdims=false)") {
		t.Errorf("Inspect(x.sum) = %q, %v", text, ok)
	}
	if text, ok := s.Inspect("x.T", 3); !ok || !strings.Contains(text, "transpose") {
		t.Errorf("Inspect(x.T) = %q, %v", text, ok)
	}
}

// TestPythonHints checks that Python's spellings get the tensorsh
// spelling. Python's names: True, False and None are its constants
// (https://docs.python.org/3/library/constants.html); len, type, range
// and help are builtins (https://docs.python.org/3/library/functions.html);
// quit and exit come from the site module (Lib/_sitebuiltins.py,
// Quitter); astype is a method of numpy.ndarray and jax.Array, not a
// function of numpy or jax.numpy (jax.numpy has astype since 0.4.x for
// the array API, but tensorsh spells it cast); NumPy's boolean-mask
// indexing x[x > 1] gives a shape that depends on the values, which JAX
// refuses under jit (NonConcreteBooleanIndexError,
// jax/_src/numpy/indexing.py).
func TestPythonHints(t *testing.T) {
	tests := []struct{ src, want string }{
		{"True", `NameError: name "True" is not defined: write true`},
		{"x = False", `NameError: name "False" is not defined: write false`},
		{"i8([1]) + True", `NameError: name "True" is not defined: write true`},
		{"None + 1", `TypeError: None is not a value: it is an index (x[None] adds an axis) or an argument (axis=None)`},
		{"x = None", `TypeError: None is not a value`},
		{"sum(None)", `TypeError: sum(): None is not a value`},
		{"astype(i8([1]), f32)", `NameError: function "astype" is not defined: astype is a method: write x.astype(f32), or cast(x, f32)`},
		{"len(i8([1]))", `NameError: function "len" is not defined: for the length of the first axis write x.shape[0], for the number of elements x.size`},
		{"type(1)", `NameError: function "type" is not defined: for the dtype of x write dtype(x) or x.dtype`},
		{"range(3)", `NameError: function "range" is not defined: write arange(n)`},
		{"array([1, 2])", `NameError: function "array" is not defined: a dtype call makes a tensor, f32([1, 2])`},
		{"quit()", `NameError: function "quit" is not defined: in the terminal, :quit or Ctrl-D leaves; in a notebook, use Kernel › Shut Down`},
		{"exit", `NameError: name "exit" is not defined: in the terminal, :quit or Ctrl-D leaves`},
		{"import numpy as np", `SyntaxError: there are no imports: tensorsh's functions are built in`},
		{"  import jax.numpy as jnp", `SyntaxError: there are no imports`},
		{"from jax import numpy as jnp", `SyntaxError: there are no imports`},
		{"np.sum(i8([1]))", `NameError: there are no modules: write sum(…), not np.sum; the functions follow the active policy (jax): :policy numpy gives numpy's rules`},
		{"jnp.sum(i8([1]))", `NameError: there are no modules: write sum(…), not jnp.sum`},
		{"np.float32(1)", `NameError: there are no modules: write float32(…), not np.float32`},
		{"np.pi", `NameError: there are no modules, and tensorsh has no pi: write 3.141592653589793 (the constants are inf and nan)`},
		{"torch.tensor([1])", `NameError: there are no modules, and tensorsh has no tensor: a dtype call makes a tensor, f32([1, 2])`},
		{"np.searchsorted(x, 1)", `NameError: there are no modules, and tensorsh has no searchsorted (:help lists the functions)`},
		{"np.unique(x)", `NameError: there are no modules, and tensorsh has no unique (:help lists the functions)`},
		{"sinc(x)", `NameError: unknown function "sinc" (:help lists the functions)`},
		{"np.tile(x, 2)", `NameError: there are no modules: write tile(…), not np.tile`},
		{"np.ones_like(x)", `NameError: there are no modules: write ones_like(…), not np.ones_like`},
		{"np.sqr(x)", `NameError: there are no modules: write sqrt, not np.sqr (tensorsh's nearest name)`},
		{"pi", `NameError: name "pi" is not defined: write 3.141592653589793`},
		{"x = i8([0, 2]); x[x > 1]", `IndexError: indexing with a boolean mask (x[x > 1]) is not supported: its shape would depend on the values; write where(x > 1, x, 0)`},
		{":polcy numpy", `UsageError: unknown directive :polcy; did you mean :policy?`},
		{":hepl", `UsageError: unknown directive :hepl; did you mean :help?`},
		{":zzzzzz", `UsageError: unknown directive :zzzzzz (directives: `},
		{":quit", `UsageError: unknown directive :quit: in the terminal, :quit or Ctrl-D leaves; in a notebook, use Kernel › Shut Down`},
	}
	for _, tt := range tests {
		s, err := New("jax")
		if err != nil {
			t.Fatal(err)
		}
		if got := run(t, s, tt.src); !strings.HasPrefix(got, tt.want) {
			t.Errorf("%s = %q, want %q…", tt.src, got, tt.want)
		}
	}
	// Under the prefix's own policy, or a variant of it, no policy hint.
	for _, policy := range []string{"jax64", "numpy1"} {
		s, _ := New(policy)
		prefix := map[string]string{"jax64": "jnp", "numpy1": "np"}[policy]
		if got := run(t, s, prefix+".sum(i8([1]))"); got != "NameError: there are no modules: write sum(…), not "+prefix+".sum" {
			t.Errorf("%s: %s.sum = %q", policy, prefix, got)
		}
	}
	// A variable of that name is the variable.
	s, _ := New("jax")
	for _, src := range []string{"np = i8([1, 2])", "len = 3", "True = 1"} {
		run(t, s, src)
	}
	if got := run(t, s, "np.sum()"); got != "i32 3" {
		t.Errorf("np.sum() with a variable np = %q", got)
	}
	if got := run(t, s, "len"); got != "i32? 3" {
		t.Errorf("len with a variable len = %q", got)
	}
}

// TestHelp checks help(name), name? and ?name: the same text as the
// notebook's name? shows (Session.Inspect), in every front end, as
// IPython's help system does ("Typing object_name? will print all sorts
// of details about any object", https://ipython.readthedocs.io/en/stable/interactive/tutorial.html#exploring-your-objects).
func TestHelp(t *testing.T) {
	s, err := New("jax")
	if err != nil {
		t.Fatal(err)
	}
	run(t, s, "x = i16([1, 2])")
	tanh, _ := s.Inspect("tanh", 4)
	xdoc, _ := s.Inspect("x", 1)
	tests := []struct{ src, want string }{
		{"help(tanh)", tanh},
		{"tanh?", tanh},
		{"?tanh", tanh},
		{"??tanh", tanh},
		{" tanh?? ", tanh},
		{"help(x)", xdoc},
		{"x?", xdoc},
		{`help("literals")`, Help("literals")},
		{"help()", Help("")},
		{"help(x.sum)", "x.sum(axis)\n"},
		{"x.sum?", "x.sum(axis)\n"},
		{"?x.T", "x.T: the axes reversed"},
		{"x.zzz?", "SyntaxError: "},
		{"f32?", "f32?"}, // a weak dtype, not a query
		{"help(x + 1)", "TypeError: help() takes a name"},
		{"help(tanh, sin)", "TypeError: help() takes one name"},
		{"zzz?", `NameError: name "zzz?" is not defined`}, // no docs: not a query
	}
	for _, tt := range tests {
		if got := run(t, s, tt.src); !strings.HasPrefix(got, tt.want) {
			t.Errorf("%s = %q, want %q…", tt.src, got, tt.want)
		}
	}
}

// TestPythonInts checks that literal integer arithmetic is Python's: a
// Python int of any size, folded before the library sees it
// (https://docs.python.org/3/reference/lexical_analysis.html#integer-literals:
// "There is no limit for the length of integer literals"), an error only
// where it meets an array or a dtype call: JAX with x64 off parses a
// Python int as int32 and raises OverflowError beyond it
// (jax/_src/dtypes.py, _scalar_type_to_dtype: "Python int {value} too
// large to convert to {dtype}").
func TestPythonInts(t *testing.T) {
	tests := []struct{ policy, src, want string }{
		{"jax", "2 ** 40", "int 1099511627776"},
		{"jax", "x = 2 ** 40; x // 3", "int 366503875925"},
		{"jax", "x = 2 ** 40; x // 2 ** 20", "i32? 1048576"},
		{"jax", "2 ** 40 // 2 ** 20", "i32? 1048576"},
		{"jax", "2 ** 40 + 1.5", "f32? 1099511627777.5"}, // Python's repr: positional below 1e16
		{"jax", "-2 ** 63", "int -9223372036854775808"},
		{"jax", "2 ** 40 + i8([1])", "PromotionError: jax: Python int 1099511627776 does not fit int32"},
		{"jax", "x = 2 ** 40; x + i8([1])", "PromotionError: jax: Python int 1099511627776 does not fit int32"},
		{"jax", "i32(2 ** 40)", "PromotionError: jax: Python int 1099511627776 is out of bounds for int32"},
		{"jax64", "2 ** 40", "i64? 1099511627776"},
		{"jax64", "2 ** 64", "int 18446744073709551616"},
		{"numpy", "2 ** 40", "i64? 1099511627776"},
		{"numpy", "2 ** 70", "int 1180591620717411303424"},
		{"torch", "2 ** 70", "int 1180591620717411303424"},
		// Mojo's Int is 64-bit: not Python's int.
		{"max", "2 ** 70", "PromotionError: max: integer literal 1180591620717411303424 does not fit Mojo's Int"},
	}
	for _, tt := range tests {
		s, err := New(tt.policy)
		if err != nil {
			t.Fatal(err)
		}
		if got := run(t, s, tt.src); !strings.HasPrefix(got, tt.want) {
			t.Errorf("%s: %s = %q, want %q…", tt.policy, tt.src, got, tt.want)
		}
	}
	// :vars and the JSON name the type a Python int has: int.
	s, _ := New("jax")
	run(t, s, "big = 2 ** 40")
	if got := run(t, s, ":vars"); !strings.Contains(got, "int literal 1099511627776") {
		t.Errorf(":vars = %q", got)
	}
	outs, err := s.Execute(context.Background(), "", "big")
	if err != nil {
		t.Fatal(err)
	}
	js, err := s.JSON(outs[0])
	if err != nil || string(js) != `{"dtype":"int","weak":true,"shape":[],"values":1099511627776}` {
		t.Errorf("JSON = %s, %v", js, err)
	}
}

// TestLikeKeepsWeak checks zeros_like, ones_like and full_like under JAX's
// policy: x's type, weak or not, unless dtype= is given (jax.lax.full_like:
// weak_type = dtype is None and dtypes.is_weakly_typed(x)); NumPy's and
// PyTorch's policies have no weak tensors, and take x's dtype.
func TestLikeKeepsWeak(t *testing.T) {
	for _, policy := range []string{"jax", "numpy", "torch"} {
		s, err := New(policy)
		if err != nil {
			t.Fatal(err)
		}
		run(t, s, "w = arange(3) * 1.5\nx = i16([1, 2, 3])")
		for _, c := range []struct{ expr, want string }{
			{"dtype(zeros_like(w))", run(t, s, "dtype(w)")},
			{"dtype(ones_like(w))", run(t, s, "dtype(w)")},
			{"dtype(full_like(w, 7))", run(t, s, "dtype(w)")},
			{"dtype(zeros_like(x))", run(t, s, "dtype(x)")},
			{"dtype(full_like(w, 7, dtype=i32))", run(t, s, "dtype(i32([1]))")},
			{"shape(ones_like(x[None]))", run(t, s, "shape(x[None])")},
		} {
			if got := run(t, s, c.expr); got != c.want {
				t.Errorf("%s: %s = %s, want %s", policy, c.expr, got, c.want)
			}
		}
		if policy == "jax" && !strings.Contains(run(t, s, "dtype(zeros_like(w))"), "?") {
			t.Errorf("jax: zeros_like of a weak value is not weak: %s", run(t, s, "dtype(zeros_like(w))"))
		}
	}
}
