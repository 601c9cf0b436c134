package main

import (
	"fmt"
	"strings"
)

// A Scale sets the sizes of the matrix's inputs: Side×Side matrices (and a
// Side×2·Side one for strided slices), Cube×Cube×Cube 3-d inputs, square
// products of the sizes MatMul (MatMulSmall for the dtypes NumPy multiplies
// without BLAS), matrix-vector products of MatVec, and Batch products.
type Scale struct {
	Side, Cube  int
	MatMul      []int
	MatMulSmall []int
	MatVec      int
	Batch       [2]int // count, side
}

// Full is the benchmark's scale: 10^6-element operands.
var Full = Scale{Side: 1000, Cube: 100, MatMul: []int{64, 256, 1000, 2000}, MatMulSmall: []int{64, 256},
	MatVec: 2000, Batch: [2]int{256, 64}}

// Dry is the scale of a dry run: every case on a few elements.
var Dry = Scale{Side: 6, Cube: 3, MatMul: []int{2, 5}, MatMulSmall: []int{3}, MatVec: 7, Batch: [2]int{2, 3}}

// An Input is one operand a setup makes: random values of a dtype and shape
// (floats in [0.5, 1.5), integers in 1..100, bools true with probability ½).
type Input struct {
	Name  string `json:"name"`
	DType string `json:"dtype"` // tensorsh's name: f32, bf16, f8e4m3, …
	Shape []int  `json:"shape"`
}

// A Case is one expression of the matrix, in tensorsh and in NumPy.
type Case struct {
	Name   string  `json:"name"`   // group/…, unique
	Group  string  `json:"group"`  // binary, unary, mixed, cast, reduce, softmax, count, concat, matmul
	Setup  string  `json:"setup"`  // key: cases with the same key share their inputs
	Inputs []Input `json:"inputs"` // what the setup makes
	Expr   string  `json:"expr"`   // tensorsh
	NumPy  string  `json:"numpy"`  // NumPy (np, the inputs, softmax, logsoftmax in scope)
}

// setupSource returns the tensorsh statements that make c's inputs.
func setupSource(c *Case) string {
	var b strings.Builder
	for _, in := range c.Inputs {
		shape := "(" + strings.Trim(strings.Join(strings.Fields(fmt.Sprint(in.Shape)), ", "), "[]") + ",)"
		r := "rand(" + shape + ", dtype=f64)"
		switch {
		case in.DType == "bool":
			fmt.Fprintf(&b, "%s = %s < 0.5\n", in.Name, r)
		case in.DType[0] == 'i' || in.DType[0] == 'u':
			fmt.Fprintf(&b, "%s = cast(floor(%s * 100) + 1, %s)\n", in.Name, r, in.DType)
		default:
			fmt.Fprintf(&b, "%s = cast(%s + 0.5, %s)\n", in.Name, r, in.DType)
		}
	}
	return b.String()
}

// Dtype classes.
const (
	clsBool = 1 << iota
	clsInt
	clsFloat
	clsComplex
)

func class(d string) int {
	switch {
	case d == "bool":
		return clsBool
	case d[0] == 'i' || d[0] == 'u':
		return clsInt
	case d[0] == 'c':
		return clsComplex
	}
	return clsFloat
}

// The dtypes of the elementwise matrix.
var eltDTypes = []string{"bool", "i8", "u8", "i32", "i64", "f16", "bf16", "f32", "f64", "c64"}

// The float formats of the cast matrix (every ordered pair).
var floatFormats = []string{"f8e4m3", "f8e5m2", "f16", "bf16", "f32", "f64"}

// binop is an elementwise operation of two operands: Go and NumPy format
// strings with %[1]s and %[2]s for the operands.
type binop struct {
	name, tsh, np string
	classes       int
}

var (
	num  = clsInt | clsFloat
	arit = clsInt | clsFloat | clsComplex
	ord  = clsBool | clsInt | clsFloat
	bits = clsBool | clsInt
	all  = clsBool | clsInt | clsFloat | clsComplex
)

var binops = []binop{
	{"add", "%[1]s + %[2]s", "%[1]s + %[2]s", arit},
	{"sub", "%[1]s - %[2]s", "%[1]s - %[2]s", arit},
	{"mul", "%[1]s * %[2]s", "%[1]s * %[2]s", arit},
	{"div", "%[1]s / %[2]s", "%[1]s / %[2]s", arit},
	{"floordiv", "%[1]s // %[2]s", "%[1]s // %[2]s", num},
	{"mod", "%[1]s %% %[2]s", "%[1]s %% %[2]s", num},
	{"pow", "%[1]s ** %[2]s", "%[1]s ** %[2]s", arit},
	{"maximum", "maximum(%[1]s, %[2]s)", "np.maximum(%[1]s, %[2]s)", ord},
	{"minimum", "minimum(%[1]s, %[2]s)", "np.minimum(%[1]s, %[2]s)", ord},
	{"lt", "%[1]s < %[2]s", "%[1]s < %[2]s", ord},
	{"le", "%[1]s <= %[2]s", "%[1]s <= %[2]s", ord},
	{"gt", "%[1]s > %[2]s", "%[1]s > %[2]s", ord},
	{"ge", "%[1]s >= %[2]s", "%[1]s >= %[2]s", ord},
	{"eq", "%[1]s == %[2]s", "%[1]s == %[2]s", all},
	{"ne", "%[1]s != %[2]s", "%[1]s != %[2]s", all},
	{"and", "%[1]s & %[2]s", "%[1]s & %[2]s", bits},
	{"or", "%[1]s | %[2]s", "%[1]s | %[2]s", bits},
	{"xor", "%[1]s ^ %[2]s", "%[1]s ^ %[2]s", bits},
	{"shl3", "%[1]s << 3", "%[1]s << 3", clsInt},
	{"shr3", "%[1]s >> 3", "%[1]s >> 3", clsInt},
	{"mul2", "%[1]s * 2", "%[1]s * 2", arit},
	{"pow2", "%[1]s ** 2", "%[1]s ** 2", arit},
	{"pow3", "%[1]s ** 3", "%[1]s ** 3", arit},
	{"pow0.5", "%[1]s ** 0.5", "%[1]s ** 0.5", arit},
	{"pow1.5", "%[1]s ** 1.5", "%[1]s ** 1.5", clsFloat | clsComplex},
	{"arctan2", "arctan2(%[1]s, %[2]s)", "np.arctan2(%[1]s, %[2]s)", clsFloat},
	{"hypot", "hypot(%[1]s, %[2]s)", "np.hypot(%[1]s, %[2]s)", clsFloat},
	{"where", "where(%[1]s > %[2]s, %[1]s, %[2]s)", "np.where(%[1]s > %[2]s, %[1]s, %[2]s)", num},
	{"where", "where(%[1]s, %[1]s, %[2]s)", "np.where(%[1]s, %[1]s, %[2]s)", clsBool},
	{"where", "where(%[1]s == %[2]s, %[1]s, %[2]s)", "np.where(%[1]s == %[2]s, %[1]s, %[2]s)", clsComplex},
}

// unop is an elementwise operation of one operand.
type unop struct {
	name, tsh, np string
	classes       int
}

var unops = []unop{
	{"neg", "-%s", "-%s", arit},
	{"abs", "abs(%s)", "np.abs(%s)", arit},
	{"exp", "exp(%s)", "np.exp(%s)", arit},
	{"log", "log(%s)", "np.log(%s)", clsFloat | clsComplex},
	{"sqrt", "sqrt(%s)", "np.sqrt(%s)", arit},
	{"sin", "sin(%s)", "np.sin(%s)", clsFloat},
	{"cos", "cos(%s)", "np.cos(%s)", clsFloat},
	{"tanh", "tanh(%s)", "np.tanh(%s)", clsFloat},
	{"log1p", "log1p(%s)", "np.log1p(%s)", clsFloat},
	{"floor", "floor(%s)", "np.floor(%s)", clsFloat},
	{"ceil", "ceil(%s)", "np.ceil(%s)", clsFloat},
	{"trunc", "trunc(%s)", "np.trunc(%s)", clsFloat},
	{"roundeven", "roundeven(%s)", "np.rint(%s)", clsFloat},
	{"sigmoid", "sigmoid(%s)", "1 / (1 + np.exp(-%s))", clsFloat},
	{"relu", "relu(%s)", "np.maximum(%s, 0)", clsFloat},
	{"rsqrt", "rsqrt(%s)", "1 / np.sqrt(%s)", clsFloat},
	{"isnan", "is_nan(%s)", "np.isnan(%s)", clsFloat},
	// The rest of the elementwise functions (on arguments inside their
	// domains: x - 1 in [-0.5, 0.5) for arcsin, arccos and arctanh, x +
	// 0.5 in [1, 2) for arccosh; the shift is part of both sides).
	{"tan", "tan(%s)", "np.tan(%s)", clsFloat},
	{"arcsin", "arcsin(%s - 1)", "np.arcsin(%s - 1)", clsFloat},
	{"arccos", "arccos(%s - 1)", "np.arccos(%s - 1)", clsFloat},
	{"arctan", "arctan(%s)", "np.arctan(%s)", clsFloat},
	{"sinh", "sinh(%s)", "np.sinh(%s)", clsFloat},
	{"cosh", "cosh(%s)", "np.cosh(%s)", clsFloat},
	{"arcsinh", "arcsinh(%s)", "np.arcsinh(%s)", clsFloat},
	{"arccosh", "arccosh(%s + 0.5)", "np.arccosh(%s + 0.5)", clsFloat},
	{"arctanh", "arctanh(%s - 1)", "np.arctanh(%s - 1)", clsFloat},
	{"log2", "log2(%s)", "np.log2(%s)", clsFloat},
	{"log10", "log10(%s)", "np.log10(%s)", clsFloat},
	{"exp2", "exp2(%s)", "np.exp2(%s)", clsFloat},
	{"expm1", "expm1(%s)", "np.expm1(%s)", clsFloat},
	{"silu", "silu(%s)", "%[1]s / (1 + np.exp(-%[1]s))", clsFloat},
	{"sign", "sign(%s)", "np.sign(%s)", num},
	{"square", "square(%s)", "np.square(%s)", arit},
	{"reciprocal", "reciprocal(%s)", "np.reciprocal(%s)", clsFloat | clsComplex},
	{"isinf", "is_inf(%s)", "np.isinf(%s)", clsFloat},
	{"isfinite", "isfinite(%s)", "np.isfinite(%s)", clsFloat},
	{"invert", "~%s", "~%s", bits},
	{"not", "logical_not(%s)", "np.logical_not(%s)", clsBool},
}

// A layout reads the first operand (and, for binary operations, the
// second) in a given way.
type layout struct {
	name     string
	a, b     string // tensorsh
	npA, npB string // NumPy
	unary    bool   // applies to unary operations too
}

var layouts = []layout{
	{"contig", "x", "y", "x", "y", true},
	{"trans", "transpose(x)", "y", "x.T", "y", true},
	{"strided", "w[:, ::2]", "y", "w[:, ::2]", "y", true},
	{"bcast", "x", "r", "x", "r", false},
	{"bcast3", "p", "q", "p", "q", false},
}

// Cases returns the benchmark matrix at scale s.
func Cases(s Scale) []Case {
	var cs []Case
	add := func(group, name, setup string, inputs []Input, expr, np string) {
		cs = append(cs, Case{Name: group + "/" + name, Group: group, Setup: setup, Inputs: inputs, Expr: expr, NumPy: np})
	}
	n, t := s.Side, s.Cube
	for _, d := range eltDTypes {
		inputs := []Input{
			{"x", d, []int{n, n}}, {"y", d, []int{n, n}}, {"w", d, []int{n, 2 * n}},
			{"r", d, []int{n}}, {"p", d, []int{t, t, 1}}, {"q", d, []int{1, t, t}},
			{"m3", d, []int{t, t, t}},
		}
		key := "elt/" + d
		cl := class(d)
		for _, l := range layouts {
			for _, op := range binops {
				if op.classes&cl != 0 {
					add("binary", op.name+"/"+d+"/"+l.name, key, inputs,
						fmt.Sprintf(op.tsh, l.a, l.b), fmt.Sprintf(op.np, l.npA, l.npB))
				}
			}
			if !l.unary {
				continue
			}
			for _, op := range unops {
				if op.classes&cl != 0 {
					add("unary", op.name+"/"+d+"/"+l.name, key, inputs,
						fmt.Sprintf(op.tsh, l.a), fmt.Sprintf(op.np, l.npA))
				}
			}
		}
		if cl == clsComplex || d == "u8" || d == "bf16" {
			continue // reductions, softmax, counts: the dtypes below
		}
		for _, r := range []string{"sum", "mean", "prod", "max", "min", "argmax", "any", "all"} {
			for _, ax := range []string{"all", "0", "1"} {
				kw, npkw := "", ""
				if ax != "all" {
					kw, npkw = ", axis="+ax, ", axis="+ax
				}
				add("reduce", r+"/"+d+"/2d/"+ax, key, inputs, r+"(x"+kw+")", "np."+r+"(x"+npkw+")")
			}
			for _, ax := range []string{"0", "1", "2"} {
				add("reduce", r+"/"+d+"/3d/"+ax, key, inputs, r+"(m3, axis="+ax+")", "np."+r+"(m3, axis="+ax+")")
			}
		}
		if cl == clsFloat {
			for _, f := range []string{"softmax", "logsoftmax"} {
				for _, ax := range []string{"0", "-1"} {
					add("softmax", f+"/"+d+"/axis"+ax, key, inputs,
						f+"(x, axis="+ax+")", f+"(x, axis="+ax+")")
				}
			}
		}
		if cl != clsBool {
			add("count", "gt/"+d, key, inputs, "sum(x > y)", "np.sum(x > y)")
			add("count", "gt-scalar/"+d, key, inputs, "sum(x > 1)", "np.sum(x > 1)")
			add("count", "eq/"+d, key, inputs, "sum(x == y)", "np.sum(x == y)")
		}
		if d == "i8" || d == "f32" || d == "f64" || d == "bool" {
			add("concat", "concat0/"+d, key, inputs, "concat([x, y], axis=0)", "np.concatenate((x, y), axis=0)")
			add("concat", "concat1/"+d, key, inputs, "concat([x, y], axis=1)", "np.concatenate((x, y), axis=1)")
			add("concat", "stack0/"+d, key, inputs, "stack([x, y], axis=0)", "np.stack((x, y), axis=0)")
			add("concat", "stack2/"+d, key, inputs, "stack([x, y], axis=2)", "np.stack((x, y), axis=2)")
		}
	}

	// Mixed dtypes: the promotion picks a third type, or converts one side.
	mixed := []Input{}
	for _, d := range []string{"bool", "i8", "u8", "i32", "i64", "f16", "f32", "f64"} {
		mixed = append(mixed, Input{"v_" + d, d, []int{n, n}})
	}
	for _, p := range [][2]string{{"i8", "u8"}, {"i8", "i32"}, {"i32", "i64"}, {"u8", "i32"}, {"i8", "f32"},
		{"u8", "f32"}, {"i32", "f32"}, {"i32", "f64"}, {"f16", "f32"}, {"f32", "f64"}, {"bool", "f32"}, {"bool", "i32"}} {
		a, b := "v_"+p[0], "v_"+p[1]
		add("mixed", "add/"+p[0]+"+"+p[1], "mixed", mixed, a+" + "+b, a+" + "+b)
		add("mixed", "mul/"+p[0]+"*"+p[1], "mixed", mixed, a+" * "+b, a+" * "+b)
		add("mixed", "lt/"+p[0]+"<"+p[1], "mixed", mixed, a+" < "+b, a+" < "+b)
	}

	// Casts: every ordered pair of float formats, and to and from integers.
	casts := []Input{}
	for _, d := range append(append([]string{}, floatFormats...), "bool", "i8", "u8", "i32", "i64") {
		casts = append(casts, Input{"c_" + d, d, []int{n, n}})
	}
	for _, from := range floatFormats {
		for _, to := range floatFormats {
			if from != to {
				add("cast", from+"->"+to, "cast", casts, "cast(c_"+from+", "+to+")", "c_"+from+".astype("+npDType(to)+")")
			}
		}
	}
	for _, p := range [][2]string{{"bool", "f32"}, {"i8", "f32"}, {"u8", "f32"}, {"i32", "f32"}, {"i64", "f64"},
		{"i32", "f64"}, {"f32", "i32"}, {"f64", "i64"}, {"f32", "i8"}, {"f32", "bool"}, {"i8", "i32"}, {"i32", "i8"},
		{"u8", "f16"}, {"f16", "i32"}} {
		add("cast", p[0]+"->"+p[1], "cast", casts, "cast(c_"+p[0]+", "+p[1]+")", "c_"+p[0]+".astype("+npDType(p[1])+")")
	}

	// Matrix products.
	for _, d := range []string{"f32", "f64", "f16", "i32"} {
		sizes := s.MatMul
		if d == "f16" || d == "i32" {
			sizes = s.MatMulSmall // NumPy multiplies these without BLAS: O(n³) loops
		}
		for _, k := range sizes {
			in := []Input{{"a", d, []int{k, k}}, {"b", d, []int{k, k}}}
			add("matmul", fmt.Sprintf("%s/%d", d, k), fmt.Sprintf("mm/%s/%d", d, k), in, "a @ b", "a @ b")
		}
		if d == "f16" || d == "i32" {
			continue
		}
		k := s.MatVec
		in := []Input{{"a", d, []int{k, k}}, {"v", d, []int{k}}}
		key := fmt.Sprintf("mv/%s/%d", d, k)
		add("matmul", fmt.Sprintf("%s/mv%d", d, k), key, in, "a @ v", "a @ v")
		add("matmul", fmt.Sprintf("%s/vm%d", d, k), key, in, "v @ a", "v @ a")
		bn, bs := s.Batch[0], s.Batch[1]
		in = []Input{{"a", d, []int{bn, bs, bs}}, {"b", d, []int{bn, bs, bs}}}
		add("matmul", fmt.Sprintf("%s/batch%dx%d", d, bn, bs), fmt.Sprintf("mmb/%s", d), in, "a @ b", "a @ b")
	}
	return cs
}

// npDType is the NumPy spelling of a tensorsh dtype (bf16 and the 8-bit
// floats are ml_dtypes' types).
func npDType(d string) string {
	return map[string]string{
		"bool": "np.bool_", "i8": "np.int8", "u8": "np.uint8", "i32": "np.int32", "i64": "np.int64",
		"f16": "np.float16", "bf16": "ml_dtypes.bfloat16", "f32": "np.float32", "f64": "np.float64",
		"c64": "np.complex64", "f8e4m3": "ml_dtypes.float8_e4m3fn", "f8e5m2": "ml_dtypes.float8_e5m2",
	}[d]
}
