package eval

import (
	"fmt"
	"sort"
	"strings"

	"github.com/tensorsh/tensorsh/backend"
	"github.com/tensorsh/tensorsh/dtypes"
	"github.com/tensorsh/tensorsh/lang"
	"github.com/tensorsh/tensorsh/promote"
)

// Attributes and methods: what a NumPy or JAX user types by habit. Each is
// a builtin under another spelling, so it means exactly what the function
// means under the active policy: x.sum(axis=0) is sum(x, axis=0), x.T is
// transpose(x), x.astype(f16) is cast(x, f16). The names and the order of
// the positional arguments are those of numpy.ndarray's methods
// (https://numpy.org/doc/stable/reference/generated/numpy.ndarray.html),
// which jax.Array follows (jax/_src/numpy/array_methods.py).

// An attr is an attribute or method of a tensor.
type attr struct {
	fn     string // the builtin it stands for
	method bool   // called, x.sum(…), rather than read, x.shape
	// pos names, in order, the keyword arguments of the builtin that the
	// method takes positionally after x: ndarray.sum(axis, …) takes the
	// axis first, where the builtin max(x, y) would read a second
	// positional argument as another operand.
	pos []string
	// spread: the method takes its ints one by one as well as in a tuple
	// (x.reshape(3, 4), x.transpose(1, 0)), passed on as one tuple.
	spread bool
	doc    string
}

var attrs = map[string]attr{
	"shape": {fn: "shape", doc: "the shape, as shape(x)"},
	"dtype": {fn: "dtype", doc: "the dtype (with ? if weak), as dtype(x)"},
	"ndim":  {doc: "the number of axes, a Python int"},
	"size":  {doc: "the number of elements, a Python int"},
	"T":     {fn: "transpose", doc: "the axes reversed, as transpose(x)"},

	"astype":    {fn: "cast", method: true, doc: "x.astype(dtype) is cast(x, dtype)"},
	"reshape":   {fn: "reshape", method: true, spread: true, doc: "x.reshape(3, 4) or x.reshape((3, 4)) is reshape(x, (3, 4))"},
	"transpose": {fn: "transpose", method: true, spread: true, doc: "x.transpose(1, 0) or x.transpose((1, 0)) is transpose(x, (1, 0))"},
	"squeeze":   {fn: "squeeze", method: true, pos: []string{"axis"}, doc: "x.squeeze(axis) is squeeze(x, axis=axis)"},
	"clip":      {fn: "clip", method: true, doc: "x.clip(lo, hi) is clip(x, lo, hi)"},
	"item":      {method: true, doc: "the single element as a Python scalar (a weak literal)"},
	"ravel":     {fn: "reshape", method: true, doc: "x.ravel() is reshape(x, -1)"},
	"flatten":   {fn: "reshape", method: true, doc: "x.flatten() is reshape(x, -1)"},
	"copy":      {method: true, doc: "x.copy() is x (a value never changes in place: x[0] = 1 and x += 1 make new values)"},
	"diagonal":  {fn: "diagonal", method: true, doc: "x.diagonal(offset, axis1, axis2) is diagonal(x, offset, axis1, axis2)"},
	"trace":     {fn: "trace", method: true, doc: "x.trace(offset, axis1, axis2) is trace(x, offset, axis1, axis2)"},
	"repeat":    {fn: "repeat", method: true, doc: "x.repeat(repeats, axis) is repeat(x, repeats, axis)"},
	"round":     {fn: "around", method: true, doc: "x.round(decimals) is around(x, decimals), NumPy's round (halves to even)"},
}

// reductionMethods take the axis first and keepdims by keyword, as
// ndarray.sum(axis=None, dtype=None, out=None, keepdims=False) does.
var reductionMethods = []string{"all", "any", "argmax", "argmin", "max", "mean", "min", "prod", "sum",
	// Defined by the builtins when they are: ndarray's cumsum, cumprod,
	// var and std also take the axis first.
	"cumsum", "cumprod", "var", "std"}

func init() {
	for _, name := range reductionMethods {
		attrs[name] = attr{fn: name, method: true, pos: []string{"axis"}, doc: "x." + name + "(axis) is " + name + "(x, axis=axis)"}
	}
	attrs["dot"] = attr{fn: "dot", method: true, doc: "x.dot(y) is dot(x, y)"}
}

// torchAttrs are PyTorch's spellings of NumPy's attributes
// (https://pytorch.org/docs/stable/tensors.html): Tensor.to(dtype),
// Tensor.dim(), Tensor.numel(), Tensor.view(*shape), Tensor.permute(*dims)
// and the dtype shorthands such as Tensor.float().
var torchAttrs = map[string]string{
	"to": "x.astype(f16)", "type": "x.astype(f16)", "dim": "x.ndim", "numel": "x.size", "nelement": "x.size",
	"view": "x.reshape(…)", "permute": "x.transpose(…)", "float": "x.astype(f32)", "double": "x.astype(f64)",
	"half": "x.astype(f16)", "bfloat16": "x.astype(bf16)", "int": "x.astype(i32)", "long": "x.astype(i64)",
	"short": "x.astype(i16)", "byte": "x.astype(u8)", "char": "x.astype(i8)", "bool": "x.astype(bool)",
	"mT": "x.T (for a matrix)", "amax": "x.max(…)", "amin": "x.min(…)",
}

// lookupAttr returns the attribute name if tensorsh has it: its builtin
// exists (cumsum only once the builtin does).
func lookupAttr(name string) (attr, bool) {
	a, ok := attrs[name]
	if !ok || a.fn != "" && builtins[a.fn] == nil {
		return attr{}, false
	}
	return a, true
}

// AttrNames returns the attributes and methods of tensors, sorted, for
// completion after "x.".
func AttrNames() []string {
	var names []string
	for n := range attrs {
		if _, ok := lookupAttr(n); ok {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	return names
}

// moduleNames are the prefixes of Python's array libraries, which
// tensorsh's functions need not (np.sum(x) is sum(x)).
var moduleNames = map[string]string{
	"np": "numpy", "numpy": "numpy", "jnp": "jax", "jax": "jax", "lax": "jax",
	"torch": "torch", "tl": "triton", "triton": "triton", "xp": "array-api", "math": "",
}

// moduleHint is the error for np.sum(x) and the like, or nil when x is not
// a module prefix (or is a variable).
func (c *compiler) moduleHint(sel *lang.SelectorExpr, called bool) error {
	id, ok := sel.X.(*lang.Ident)
	if !ok {
		return nil
	}
	policy, isModule := moduleNames[id.Name]
	if _, isVar := c.s.vars[id.Name]; !isModule || isVar {
		return nil
	}
	name := sel.Sel.Name
	write := name
	if called {
		write += "(…)"
	}
	msg := fmt.Sprintf("there are no modules: write %s, not %s.%s", write, id.Name, name)
	_, isFn := builtins[name]
	_, isForm := specialForms[name]
	_, dtErr := dtypes.ParseType(name)
	if !isFn && !isForm && dtErr != nil {
		// Not one of ours under another prefix: say what is.
		msg = fmt.Sprintf("there are no modules, and tensorsh has no %s (:help lists the functions)", name)
		if h, ok := pythonHints[name]; ok && h.bare != "" {
			msg = fmt.Sprintf("there are no modules, and tensorsh has no %s: %s", name, h.bare)
		} else if s := c.suggest(name); s != "" && editDistance(name, s) <= 1 {
			msg = fmt.Sprintf("there are no modules: write %s, not %s.%s (tensorsh's nearest name)", s, id.Name, name)
		}
	}
	if policy != "" && !strings.HasPrefix(c.policy.Name(), policy) { // jax64 is jax's too
		msg += fmt.Sprintf("; the functions follow the active policy (%s): :policy %s gives %s's rules", c.policy.Name(), policy, policy)
	}
	return c.errorf(spanOf(sel), "NameError", "%s", msg)
}

// attribute compiles x.name, an attribute read without a call.
func (c *compiler) attribute(e *lang.SelectorExpr) (*operand, error) {
	if err := c.moduleHint(e, false); err != nil {
		return nil, err
	}
	x, a, err := c.receiver(e, false)
	if err != nil {
		return nil, err
	}
	name, sp := e.Sel.Name, spanOf(e)
	if a.method {
		return nil, c.errorf(spanOf(e.Sel), "TypeError", "%s.%s is a method: call it, as in %s", recvName(e), name, methodUsage(recvName(e), name, a))
	}
	switch name {
	case "ndim":
		return c.literal(promote.Int64Value(int64(len(x.shape))), sp, nil)
	case "size":
		n := int64(1)
		for _, d := range x.shape {
			n *= int64(d)
		}
		return c.literal(promote.Int64Value(n), sp, nil)
	}
	k := &call{name: a.fn, args: []*operand{x}, sp: sp, fnSpan: spanOf(e.Sel)}
	return c.runBuiltin(k)
}

// method compiles x.name(args…) as the builtin with x as its first
// argument.
func (c *compiler) method(e *lang.CallExpr, sel *lang.SelectorExpr) (*operand, error) {
	if err := c.moduleHint(sel, true); err != nil {
		return nil, err
	}
	x, a, err := c.receiver(sel, true)
	if err != nil {
		return nil, err
	}
	name, sp, fnSpan := sel.Sel.Name, spanOf(e), spanOf(sel.Sel)
	if !a.method {
		r := recvName(sel)
		msg := fmt.Sprintf("%s.%s is an attribute, not a method: write %s.%s", r, name, r, name)
		if name == "size" {
			msg += fmt.Sprintf(" (the number of elements, as in NumPy; %s.shape is the shape)", r)
		}
		return nil, c.errorf(span{e.Lparen, e.Rparen}, "TypeError", "%s", msg)
	}
	args, err := c.exprs(e.Args)
	if err != nil {
		return nil, err
	}
	k := &call{name: a.fn, args: []*operand{x}, sp: sp, fnSpan: fnSpan}
	var accepted []string
	if b := builtins[a.fn]; b != nil {
		accepted = b.kwargs
	}
	if name == "item" || name == "ravel" || name == "flatten" || name == "copy" {
		accepted = nil
	}
	for _, kw := range e.Keywords {
		kname := kw.Name.Name
		if !contains(accepted, kname) {
			want := ""
			if len(accepted) > 0 {
				want = " (it takes " + strings.Join(accepted, ", ") + ")"
			}
			return nil, c.errorf(spanOf(kw.Name), "TypeError", "%s.%s() got an unexpected keyword argument %q%s", recvName(sel), name, kname, want)
		}
		v, err := c.expr(kw.Value)
		if err != nil {
			return nil, err
		}
		k.setKw(kname, v)
	}
	tooMany := func(i int) error {
		return c.errorf(args[i].span(), "TypeError", "%s.%s() takes at most %d positional argument%s (%d given); usage: %s",
			recvName(sel), name, i, plural(i), len(args), methodUsage(recvName(sel), name, a))
	}
	switch {
	case name == "copy":
		if len(args) > 0 {
			return nil, tooMany(0)
		}
		return at(x, sp), nil
	case name == "item":
		if len(args) > 0 {
			return nil, tooMany(0)
		}
		return c.item(x, sp)
	case name == "ravel" || name == "flatten":
		if len(args) > 0 {
			return nil, tooMany(0)
		}
		minus1, err := c.literal(promote.Int64Value(-1), fnSpan, nil)
		if err != nil {
			return nil, err
		}
		k.args = append(k.args, minus1)
	case a.spread && len(args) > 1:
		// x.transpose(1, 0) is x.transpose((1, 0)); reshape takes both.
		k.args = append(k.args, &operand{kind: tupleKind, elems: args, start: args[0].start, end: args[len(args)-1].end})
	case a.pos != nil:
		if len(args) > len(a.pos) {
			return nil, tooMany(len(a.pos))
		}
		for i, o := range args {
			kname := a.pos[i]
			if _, dup := k.kw[kname]; dup {
				return nil, c.errorf(o.span(), "TypeError", "%s.%s() got multiple values for argument %q", recvName(sel), name, kname)
			}
			if contains(accepted, kname) {
				k.setKw(kname, o)
			} else { // a builtin that takes it only by position
				k.args = append(k.args, o)
			}
		}
	default:
		k.args = append(k.args, args...)
	}
	return c.runBuiltin(k)
}

// receiver compiles the x of x.name and looks name up: a tensor's
// attribute, or an error that says what x is and what name might be.
func (c *compiler) receiver(e *lang.SelectorExpr, called bool) (*operand, attr, error) {
	x, err := c.expr(e.X)
	if err != nil {
		return nil, attr{}, err
	}
	name, nameSpan := e.Sel.Name, spanOf(e.Sel)
	switch x.kind {
	case TensorValue:
	case listKind:
		use := name
		if called {
			use += "(…)"
		}
		return nil, attr{}, c.errorf(nameSpan, "AttributeError", "a list [...] has no attribute %q: make it a tensor first, as in f32(%s).%s", name, c.source(x.span(), "[…]"), use)
	default:
		return nil, attr{}, c.errorf(nameSpan, "AttributeError", "%s has no attribute %q (only tensors have attributes)", kindName(x), name)
	}
	a, ok := lookupAttr(name)
	if !ok {
		msg := fmt.Sprintf("a tensor has no attribute %q", name)
		if h, ok := torchAttrs[name]; ok {
			msg += "; write " + strings.ReplaceAll(h, "x.", recvName(e)+".") + " (NumPy's spelling)"
		} else if _, isFn := builtins[name]; isFn {
			msg += fmt.Sprintf("; write %s(x), a function, as in NumPy", name)
		} else if s := nearest(name, AttrNames()); s != "" {
			msg += fmt.Sprintf("; did you mean %q?", s)
		} else {
			msg += " (attributes: " + strings.Join(AttrNames(), " ") + ")"
		}
		return nil, attr{}, c.errorf(nameSpan, "AttributeError", "%s", msg)
	}
	return x, a, nil
}

// runBuiltin calls a builtin and gives its result the call's span.
func (c *compiler) runBuiltin(k *call) (*operand, error) {
	o, err := builtins[k.name].fn(c, k)
	if err != nil {
		return nil, err
	}
	return at(o, k.sp), nil
}

// item is x.item(): the one element of x as a Python scalar, which is a
// weak literal here (ndarray.item: "Copy an element of an array to a
// standard Python scalar"; a size other than 1 is NumPy's ValueError).
func (c *compiler) item(x *operand, sp span) (*operand, error) {
	n := 1
	for _, d := range x.shape {
		n *= d
	}
	if n != 1 {
		return nil, c.errorf(sp, "ValueError", "can only convert an array of size 1 to a Python scalar (this one has shape %s)", formatShape(x.shape))
	}
	if len(x.shape) > 0 {
		n := &backend.Node{Op: backend.OpReshape, DType: x.node.DType, Args: []*backend.Node{x.node}}
		x = &operand{kind: TensorValue, typ: x.typ, node: n, start: x.start, end: x.end}
	}
	if err := c.known(x); err != nil {
		return nil, err
	}
	return c.literal(*x.value, sp, nil)
}

// methodUsage is how name is called on recv, for error messages.
func methodUsage(recv, name string, a attr) string {
	m := recv + "." + name
	switch {
	case name == "astype":
		return m + "(f32)"
	case a.spread:
		return m + "(1, 0) or " + m + "((1, 0))"
	case a.pos != nil:
		return m + "(" + strings.Join(a.pos, ", ") + ")"
	case name == "clip":
		return m + "(lo, hi)"
	case name == "dot":
		return m + "(y)"
	}
	return m + "()"
}

// recvName is the receiver of sel in messages: its name if it is one,
// else x.
func recvName(sel *lang.SelectorExpr) string {
	if id, ok := lang.Unparen(sel.X).(*lang.Ident); ok {
		return id.Name
	}
	return "x"
}

// nearest returns the name in cands closest to name, or "".
func nearest(name string, cands []string) string {
	best, bestD := "", 3
	if len(name) <= 3 {
		bestD = 2
	}
	for _, cand := range cands {
		if d := editDistance(strings.ToLower(name), strings.ToLower(cand)); d < bestD {
			best, bestD = cand, d
		}
	}
	return best
}

// afterSelector reports whether the word starting at byte offset start of
// src follows a '.' that selects an attribute: x.|, f(x).|, x[0].|, but
// not the decimal point of 1.| or the '...' of an index.
func afterSelector(src string, start int) bool {
	if start < 2 || src[start-1] != '.' {
		return false
	}
	switch b := src[start-2]; {
	case b == ')' || b == ']':
		return true
	case b == '.' || !isWordByte(b):
		return false
	}
	i := start - 2
	for i > 0 && isWordByte(src[i-1]) {
		i--
	}
	return !('0' <= src[i] && src[i] <= '9') // 1. is a number
}

// attrDoc describes the attribute or method name of recv, for Inspect
// and help.
func attrDoc(recv, name string) (string, bool) {
	a, ok := lookupAttr(name)
	if !ok {
		return "", false
	}
	text := recv + "." + name + ": " + a.doc
	if a.method {
		text = methodUsage(recv, name, a) + "\n    " + a.doc
	}
	if sig, doc, _, ok := Doc(a.fn); ok {
		text += "\n" + sig + "\n    " + doc
	}
	return text, true
}

// receiverWord is the name before the '.' that ends just before byte
// offset start of src, or x when it is not a name (f(x).sum).
func receiverWord(src string, start int) string {
	i := start - 1
	for i > 0 && isWordByte(src[i-1]) {
		i--
	}
	if w := src[i : start-1]; isPlainName(w) {
		return w
	}
	return "x"
}
