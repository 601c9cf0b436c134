package eval

import (
	"math"
	"strings"

	"github.com/tensorsh/tensorsh/backend"
	"github.com/tensorsh/tensorsh/dtypes"
	"github.com/tensorsh/tensorsh/promote"
)

// quantile(x, q, axis=None, keepdims=false, method="linear") and
// percentile (q in [0, 100]): the q-th quantile of x along axis, from
// the places of x sorted around the rank q·(n-1), as the policy's
// library computes it. The places are slices of a sort along the axis,
// which the CPU backend selects rather than sorts (backend.Selector), so
// a quantile of 10^6 elements reads them a few times; for more than three
// places the sort is made whole, once.
//
//   - NumPy (numpy/lib/function_base.py, _quantile and _lerp): the rank
//     v = (n-1)·q in q's dtype; method linear interpolates between the
//     places floor(v) and floor(v)+1 (the last place from v ≥ n-1) with
//     gamma = v - floor(v) as _lerp does (a + (b-a)·t, or b - (b-a)·(1-t)
//     from t = 0.5), b - a in x's dtype; lower, higher and nearest take
//     the place floor(v), ceil(v) or around(v) (halves to even) in x's
//     dtype; midpoint interpolates at 0.5 (0 where v is whole). A line
//     holding a NaN gives NaN. NumPy 1.24 (numpy1) computes q as a float64
//     (a Python int q of quantile as an int64: the place itself), so an
//     interpolation is float64; NumPy 2 keeps a Python q in x's float
//     dtype (np.quantile's "use dtype of array if possible"), so the
//     quantile of float32 data is float32 there, and a NaN line gives the
//     line's last element (its NaN) rather than a new NaN.
//   - JAX (jax/_src/numpy/reductions.py, _quantile): x made inexact; in
//     q's dtype (a Python float weak: float32, float64 under jax64), the
//     rank q·(n-1) between the places floor and ceil (clamped), linear as
//     low·(1-w) + high·w, nearest the lower place where w ≤ 0.5, midpoint
//     (low + high)·0.5 in x's dtype; NaN where the line holds one.
//   - PyTorch (aten Sorting.cpp, quantile_compute): float32 or float64
//     only, q in x's dtype, the rank q·(n-1) rounded by floor, ceil or
//     round (halves to even) for lower, higher and nearest, linear and
//     midpoint by torch.lerp (w < 0.5: low + w·(high - low), else high -
//     (high - low)·(1 - w)); a line holding a NaN gives its NaN.
//
// The result has q's axis first (when q is a list), then x's axes other
// than axis (or kept as 1 with keepdims). Methods other than these five,
// and complex x, are refused. Where NumPy's result dtype depends on the
// values (a 0-d NaN result of NumPy 1.24's interpolation is a NaN of x's
// dtype), tensorsh keeps the dtype the formula gives.
func quantileFn(pct bool) builtinFunc {
	return func(c *compiler, k *call) (*operand, error) {
		return c.quantile(k, pct)
	}
}

// A quantSpec is what a policy's quantile computes with.
type quantSpec struct {
	fam    string // numpy, jax or torch
	numpy2 bool
	method string
	xd     dtypes.DType // x's dtype once made inexact (JAX) or as given
	qd     dtypes.DType // the dtype of q and of the rank
	intQ   bool         // NumPy: an integer q, whose rank is a place
	// weakT: NumPy 2, a Python q and float x: the rank and gamma are
	// float64, and gamma meets x's elements as a Python float does
	// (weak): t and 1 - t (taken in float64) round to x's dtype.
	weakT bool
	// jaxPct: jnp.percentile, whose q stays in percent (see plan).
	jaxPct bool
	n      int
}

func (c *compiler) quantile(k *call, pct bool) (*operand, error) {
	if err := k.nargs(c, 2, 3); err != nil {
		return nil, err
	}
	pol := c.policy.Name()
	sp := quantSpec{fam: closeFamily(pol), method: "linear"}
	sp.numpy2 = sp.fam == "numpy" && pol != "numpy1"
	switch {
	case sp.fam == "":
		return nil, c.errorf(k.fnSpan, "NameError", "%s: %s has no %s (NumPy's, JAX's and PyTorch's are under :policy numpy, jax and torch)", pol, pol, k.name)
	case sp.fam == "torch" && pct:
		return nil, c.errorf(k.fnSpan, "NameError", "torch: torch has no percentile (torch.quantile takes q in [0, 1])")
	}
	for _, name := range []string{"method", "interpolation"} {
		o, ok := k.kw[name]
		if !ok {
			continue
		}
		if o.kind != StringValue {
			return nil, c.errorf(o.span(), "TypeError", "%s must be a string such as \"linear\"", name)
		}
		sp.method = o.str
	}
	switch sp.method {
	case "linear", "lower", "higher", "midpoint", "nearest":
	default:
		msg := map[string]string{
			"numpy": "ValueError: %q: tensorsh computes NumPy's methods linear, lower, higher, midpoint and nearest",
			"jax":   "ValueError: method can only be 'linear', 'lower', 'higher', 'midpoint', or 'nearest' (%q given)",
			"torch": "RuntimeError: quantile() interpolation must be one of linear, lower, higher, midpoint or nearest. Got %s",
		}[sp.fam]
		return nil, c.libError(k.sp, msg, pol, sp.method)
	}
	x, err := c.arrayArg(k, 0, "a")
	if err != nil {
		return nil, err
	}
	d := x.typ.DType
	switch {
	case d.IsComplex() && sp.fam == "jax":
		return nil, c.errorf(k.sp, "ValueError", "jax: quantile does not support complex input, as the operation is poorly defined.")
	case d.IsComplex() && sp.fam == "numpy":
		return nil, c.errorf(k.sp, "TypeError", "%s: a must be an array of real numbers", pol)
	case sp.fam == "torch" && d != dtypes.F32 && d != dtypes.F64:
		return nil, c.errorf(k.sp, "RuntimeError", "torch: quantile() input tensor must be either float or double dtype (%s given)", d.FullName())
	case sp.fam == "numpy" && d == dtypes.Bool && (sp.method == "linear" || sp.method == "midpoint"):
		return nil, c.errorf(k.sp, "TypeError", "%s: numpy boolean subtract, the `-` operator, is not supported (%s interpolates with b - a)", pol, k.name)
	}
	if sp.fam == "jax" {
		if x, err = c.inexact(x, k); err != nil {
			return nil, err
		}
	}
	sp.xd = x.typ.DType
	qs, err := c.quantileQ(k, &sp, pct)
	if err != nil {
		return nil, err
	}
	x, ax, outShape, err := c.lineArgs(k, x, 2)
	if err != nil {
		return nil, err
	}
	sp.n = x.shape[ax]
	if sp.n == 0 {
		msg := map[string]string{
			"numpy": "IndexError: cannot do a non-empty take from an empty axes.",
			"jax":   "ValueError: quantile of an empty axis",
			"torch": "RuntimeError: quantile() input tensor must be non-empty",
		}[sp.fam]
		return nil, c.libError(k.sp, msg, pol)
	}
	// The places each q needs, and the last (whose NaN marks a line
	// holding one).
	plans := make([]quantPlan, len(qs.vals))
	places := map[int]bool{}
	for i, q := range qs.vals {
		plans[i] = sp.plan(q)
		places[plans[i].lo], places[plans[i].hi] = true, true
	}
	if sp.xd.IsFloat() {
		places[sp.n-1] = true
	}
	sorted := &backend.Node{Op: backend.OpSort, DType: sp.xd, Shape: x.shape, Args: []*backend.Node{x.node}, Axes: []int{ax}}
	src := &operand{kind: TensorValue, typ: x.typ, shape: x.shape, node: sorted}
	if len(places) > 3 {
		// Sorted whole once: every place a slice of one full slice,
		// which the evaluation keeps, not a selection each.
		src = c.sliceAlong(src, ax, 0, sp.n, k)
	}
	valueAt := map[int]*backend.Node{}
	value := func(p int) *backend.Node {
		if v, ok := valueAt[p]; ok {
			return v
		}
		v := c.structural(backend.OpReshape, c.sliceAlong(src, ax, p, p+1, k), outShape, nil, k).node
		valueAt[p] = v
		return v
	}
	for _, pl := range plans {
		if _, ok := valueAt[pl.lo]; pl.hi == pl.lo+1 && !ok {
			// Two places side by side: one selection of both.
			pair := c.sliceAlong(src, ax, pl.lo, pl.hi+1, k)
			for i := range 2 {
				valueAt[pl.lo+i] = c.structural(backend.OpReshape, c.sliceAlong(pair, ax, i, i+1, k), outShape, nil, k).node
			}
		}
	}
	var results []*backend.Node
	rd := dtypes.Invalid
	for _, pl := range plans {
		r, err := c.quantileOf(&sp, pl, value(pl.lo), value(pl.hi), outShape, k)
		if err != nil {
			return nil, err
		}
		if sp.xd.IsFloat() {
			last := value(sp.n - 1)
			nan := &backend.Node{Op: backend.OpIsNaN, DType: dtypes.Bool, Shape: outShape, Args: []*backend.Node{last}}
			fill := constNode(promote.FloatValue(math.Float64frombits(pythonNaN)), r.DType) // np.nan
			if sp.fam == "torch" || sp.numpy2 {
				fill = castNode(last, r.DType) // the line's NaN itself
			}
			r = &backend.Node{Op: backend.OpWhere, DType: r.DType, Shape: outShape, Args: []*backend.Node{nan, fill, r}}
		}
		rd = r.DType
		results = append(results, r)
	}
	if !qs.list {
		return &operand{kind: TensorValue, typ: dtypes.Strong(rd), shape: outShape, node: results[0], start: k.sp.start, end: k.sp.end}, nil
	}
	shape := append([]int{len(results)}, outShape...)
	if len(results) == 0 {
		if rd == dtypes.Invalid {
			rd = sp.emptyDType()
		}
		return c.filled(shape, dtypes.Strong(rd), promote.FloatValue(0), k.sp)
	}
	one := append([]int{1}, outShape...)
	args := make([]*backend.Node, len(results))
	for i, r := range results {
		args[i] = &backend.Node{Op: backend.OpReshape, DType: rd, Shape: one, Args: []*backend.Node{r}}
	}
	node := &backend.Node{Op: backend.OpConcat, DType: rd, Shape: shape, Args: args, Axes: []int{0}}
	return &operand{kind: TensorValue, typ: dtypes.Strong(rd), shape: shape, node: node, start: k.sp.start, end: k.sp.end}, nil
}

// quantQ is q as the library holds it: its values (q/100 for percentile,
// already in spec.qd) and whether it is a list (a 1-d q).
type quantQ struct {
	vals []float64
	list bool
}

// quantileQ reads q: a number, a list of numbers or a tensor of at most
// one dimension, whose values the places depend on. It sets spec.qd, the
// dtype the library computes the rank in, and checks the range.
func (c *compiler) quantileQ(k *call, sp *quantSpec, pct bool) (quantQ, error) {
	var qs quantQ
	o := k.args[1]
	pol := c.policy.Name()
	python := o.kind == LiteralValue // a Python number
	var qd dtypes.DType
	if python {
		if err := c.requireNumeric(o, k.name, "() q"); err != nil {
			return qs, err
		}
		qs.vals = []float64{scalarFloat(o.lit)}
		qd = dtypes.F64
		if o.lit.Kind <= promote.IntScalar {
			qd = dtypes.I64
		}
	} else {
		t, err := c.tensorArg(k, 1, "q")
		if err != nil {
			return qs, err
		}
		if len(t.shape) > 1 {
			return qs, c.errorf(t.span(), "ValueError", "%s: q must be a scalar or 1d (shape %v given)", pol, t.shape)
		}
		qs.list = len(t.shape) == 1
		vals, err := c.hostFloats(t)
		if err != nil {
			return qs, err
		}
		qs.vals = vals
		qd = t.typ.DType
		if qd.IsComplex() {
			return qs, c.errorf(t.span(), "TypeError", "%s: q must be real", pol)
		}
		if qd == dtypes.Bool || qd.IsInt() {
			qd = dtypes.I64
		}
	}
	xd := sp.xd
	switch sp.fam {
	case "numpy":
		switch {
		case sp.numpy2 && python && xd.IsFloat():
			// NumPy 2.5.2, run: the rank and gamma of a Python q come
			// out of float64 arithmetic (percentile's q/100 too), and
			// the interpolation is in x's dtype, gamma and 1 - gamma
			// rounded to it, as a Python float's would be. (Its source
			// at 2.0 converted q to x's dtype first, "use dtype of
			// array if possible"; 65 cases run in NumPy 2.5.2 — every
			// method, float16/32/64, axes, percentile — agree with
			// float64 ranks and disagree, by an ULP, with x's.)
			sp.weakT, qd = true, dtypes.F64
		case pct && qd == dtypes.I64:
			qd = dtypes.F64 // np.true_divide
		}
		// An integer q makes an integer rank, the place itself, except
		// for midpoint (0.5 * (floor + ceil) is a float).
		sp.intQ = qd == dtypes.I64 && !pct && sp.method != "midpoint"
	case "jax":
		if python {
			qd = dtypes.F64
			if !strings.HasSuffix(pol, "64") {
				qd = dtypes.F32 // a weak Python float
			}
		} else if qd == dtypes.I64 {
			qd = dtypes.F32 // promote_dtypes_inexact
			if strings.HasSuffix(pol, "64") {
				qd = dtypes.F64
			}
		}
	case "torch":
		if !python && qd != xd {
			return qs, c.errorf(k.args[1].span(), "RuntimeError", "torch: quantile() q tensor must be same dtype as the input tensor (%s and %s)", qd.FullName(), xd.FullName())
		}
		qd = xd
	}
	sp.qd = qd
	sp.jaxPct = pct && sp.fam == "jax"
	for i, v := range qs.vals {
		if qd.IsFloat() {
			v = dtypes.FloatFromFloat64(qd, v)
			if pct && sp.fam != "jax" {
				v = dtypes.FloatFromFloat64(qd, v/100)
			}
		}
		qs.vals[i] = v
		if sp.fam != "jax" && !(v >= 0 && v <= 1) {
			msg := map[string]string{
				"numpy": "ValueError: Quantiles must be in the range [0, 1]",
				"torch": "RuntimeError: quantile() q values must be in the range [0, 1]",
			}[sp.fam]
			if pct {
				msg = "ValueError: Percentiles must be in the range [0, 100]"
			}
			return qs, c.libError(k.args[1].span(), msg, pol)
		}
		if v != v {
			return qs, c.errorf(k.args[1].span(), "ValueError", "%s: q is NaN", pol)
		}
	}
	return qs, nil
}

// libError is the error msg ("Kind: text", a format whose first verb is
// the policy's name) with args.
func (c *compiler) libError(sp span, msg string, args ...any) error {
	kind, text, _ := strings.Cut(msg, ": ")
	return c.errorf(sp, kind, "%s: "+text, args...)
}

// hostFloats returns the elements of the tensor operand t as float64s.
func (c *compiler) hostFloats(t *operand) ([]float64, error) {
	n := t.node
	tt := n.Tensor
	if n.Op != backend.OpInput || !hostStorage(tt.Data) {
		var err error
		if tt, err = c.s.runOnHost(c.ctx, backend.InOrder(n)); err != nil {
			return nil, c.errorf(t.span(), "RuntimeError", "%w", err)
		}
	}
	out := make([]float64, backend.Size(tt.Shape))
	for i := range out {
		out[i] = scalarFloat(scalarAt(tt, i))
	}
	return out, nil
}

// scalarFloat is v as a float64 (an int too large for one: ±Inf).
func scalarFloat(v promote.Scalar) float64 {
	f, err := floatOf(v)
	if err != nil {
		return math.Inf(intOf(v).Sign())
	}
	return f
}

// A quantPlan is one q's places and weight.
type quantPlan struct {
	lo, hi int
	t      float64 // the weight of hi (NumPy's gamma, JAX's and PyTorch's w)
}

// plan returns the places and the weight of q (in sp.qd) as the
// library computes them.
func (sp *quantSpec) plan(q float64) quantPlan {
	rnd := func(v float64) float64 { return dtypes.FloatFromFloat64(sp.qd, v) }
	n := sp.n
	last := float64(n - 1)
	clampPlace := func(v float64) int {
		switch {
		case v != v || v >= last:
			return n - 1 // NumPy's index -1 for a NaN rank
		case v <= 0:
			return 0
		}
		return int(v)
	}
	switch sp.fam {
	case "numpy":
		if sp.intQ {
			p := clampPlace(q * last) // q is 0 or 1
			return quantPlan{lo: p, hi: p}
		}
		v := rnd(rnd(last) * q) // (n - 1) * quantiles
		switch sp.method {
		case "lower":
			p := clampPlace(math.Floor(v))
			return quantPlan{lo: p, hi: p}
		case "higher":
			p := clampPlace(math.Ceil(v))
			return quantPlan{lo: p, hi: p}
		case "nearest":
			p := clampPlace(math.RoundToEven(v))
			return quantPlan{lo: p, hi: p}
		case "midpoint":
			v = rnd(0.5 * rnd(math.Floor(v)+math.Ceil(v)))
		}
		// _get_indexes: floor(v) and the place after it, the last one
		// (index -1) from v >= n - 1, the first below 0; gamma = v -
		// previous index (-1 for the last).
		prev, next := math.Floor(v), math.Floor(v)+1
		if v >= last || v != v {
			prev, next = -1, -1
		}
		if v < 0 {
			prev, next = 0, 0
		}
		place := func(i float64) int {
			if i < 0 {
				return n - 1
			}
			return int(i)
		}
		t := rnd(v - prev)
		if sp.method == "midpoint" {
			// fix_gamma: 0.5, or 0 where v is whole; NumPy 1.24 keeps
			// the float64 mask, NumPy 2 converts it to v's dtype.
			t = 0.5
			if math.Mod(v, 1) == 0 {
				t = 0
			}
		}
		return quantPlan{lo: place(prev), hi: place(next), t: t}
	case "jax":
		nq := rnd(float64(n))
		v := rnd(q * rnd(nq-1))
		if sp.jaxPct {
			// jnp.percentile is quantile(a, q / 100), whose rank
			// q / 100 · (n - 1) comes out as q · ((n - 1) / 100), the
			// constants divided first, as XLA folds them: for q = 30
			// and 12 elements 30 · 0.11 = 3.2999999523 in float32, not
			// 0.3 · 11 = 3.3000001907 (JAX 0.11.2, run: every case of
			// testdata/libs agrees; 30 · 11 / 100 would fit them too).
			v = rnd(q * rnd(rnd(nq-1)/100))
		}
		low, high := math.Floor(v), math.Ceil(v)
		hw := rnd(v - low)
		return quantPlan{lo: clampPlace(low), hi: clampPlace(high), t: hw}
	}
	// torch: ranks = q * last_index, adjusted by the method.
	r := rnd(q * last)
	switch sp.method {
	case "lower":
		r = math.Floor(r)
	case "higher":
		r = math.Ceil(r)
	case "nearest":
		r = math.RoundToEven(r)
	}
	below := math.Trunc(r)
	t := rnd(r - below)
	if sp.method == "midpoint" {
		t = 0.5
	}
	if sp.method == "linear" || sp.method == "midpoint" {
		return quantPlan{lo: clampPlace(below), hi: clampPlace(math.Ceil(r)), t: t}
	}
	return quantPlan{lo: clampPlace(below), hi: clampPlace(below)}
}

// emptyDType is the dtype of the quantiles of an empty list of q.
func (sp *quantSpec) emptyDType() dtypes.DType {
	if sp.method == "lower" || sp.method == "higher" || sp.method == "nearest" || sp.intQ {
		return sp.xd
	}
	switch sp.fam {
	case "numpy":
		if sp.numpy2 && (sp.qd == sp.xd || sp.weakT) {
			return sp.xd
		}
		return dtypes.F64
	}
	return sp.xd
}

// quantileOf builds the quantile of one plan from the values lo and hi
// at its places (of x's dtype, outShape).
func (c *compiler) quantileOf(sp *quantSpec, pl quantPlan, lo, hi *backend.Node, shape []int, k *call) (*backend.Node, error) {
	bin := func(op backend.Op, d dtypes.DType, a, b *backend.Node) *backend.Node {
		return &backend.Node{Op: op, DType: d, Shape: shape, Args: []*backend.Node{castNode(a, d), castNode(b, d)}}
	}
	lit := func(v float64, d dtypes.DType) *backend.Node { return constNode(promote.FloatValue(v), d) }
	xd := sp.xd
	switch sp.fam {
	case "numpy":
		if sp.intQ || sp.method == "lower" || sp.method == "higher" || sp.method == "nearest" {
			return lo, nil
		}
		// _lerp(a, b, t): b - a in x's dtype, then in the dtype of it
		// and t (t is float64, or v's dtype under NumPy 2).
		td := sp.qd
		if sp.weakT {
			td = xd
		}
		if sp.method == "midpoint" && (!sp.numpy2 || td == dtypes.I64) {
			td = dtypes.F64 // _get_gamma_mask's np.full; an int q's rank is a float64
		}
		res, err := c.policy.Binary(promote.Mul, promote.Operand{Type: dtypes.Strong(xd), Rank: 1}, promote.Operand{Type: dtypes.Strong(td), Rank: 1})
		if err != nil {
			return nil, c.promoteError(err, k.fnSpan)
		}
		ld := res.Type.DType
		diff := &backend.Node{Op: backend.OpSub, DType: xd, Shape: shape, Args: []*backend.Node{hi, lo}}
		if pl.t >= 0.5 {
			w := dtypes.FloatFromFloat64(td, 1-pl.t)
			return bin(backend.OpSub, ld, hi, bin(backend.OpMul, ld, diff, lit(w, ld))), nil
		}
		return bin(backend.OpAdd, ld, lo, bin(backend.OpMul, ld, diff, lit(pl.t, ld))), nil
	case "jax":
		switch sp.method {
		case "lower":
			return lo, nil
		case "higher":
			return hi, nil
		case "nearest":
			if pl.t <= 0.5 {
				return lo, nil
			}
			return hi, nil
		case "midpoint":
			return bin(backend.OpMul, xd, bin(backend.OpAdd, xd, lo, hi), lit(0.5, xd)), nil
		}
		qd := sp.qd
		lw := dtypes.FloatFromFloat64(qd, 1-pl.t)
		if qd == dtypes.F32 || qd == dtypes.F64 {
			// XLA on the CPU contracts low·lw + high·hw into one
			// multiply-add, fma(low, lw, high·hw) (JAX 0.11.2, run).
			return castNode(fmaNode(qd, shape, castNode(lo, qd), lit(lw, qd), bin(backend.OpMul, qd, hi, lit(pl.t, qd))), xd), nil
		}
		r := bin(backend.OpAdd, qd, bin(backend.OpMul, qd, lo, lit(lw, qd)), bin(backend.OpMul, qd, hi, lit(pl.t, qd)))
		return castNode(r, xd), nil
	}
	// torch
	if sp.method != "linear" && sp.method != "midpoint" {
		return lo, nil
	}
	// torch.lerp's CPU kernel (ATen's lerp_vec): one multiply-add,
	// fmadd(w, end - start, start) where |w| < 0.5, else
	// fmadd(w - 1, end - start, end) (PyTorch 2.11, run).
	diff := &backend.Node{Op: backend.OpSub, DType: xd, Shape: shape, Args: []*backend.Node{hi, lo}}
	if math.Abs(pl.t) < 0.5 {
		return fmaNode(xd, shape, lit(pl.t, xd), diff, lo), nil
	}
	return fmaNode(xd, shape, lit(dtypes.FloatFromFloat64(xd, pl.t)-1, xd), diff, hi), nil
}

// fmaNode is a·b + c rounded once, in d (float32 or float64).
func fmaNode(d dtypes.DType, shape []int, a, b, c *backend.Node) *backend.Node {
	return &backend.Node{Op: backend.OpFMA, DType: d, Shape: shape, Args: []*backend.Node{a, b, c}}
}
