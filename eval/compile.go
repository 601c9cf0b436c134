package eval

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/tensorsh/tensorsh/backend"
	"github.com/tensorsh/tensorsh/dtypes"
	"github.com/tensorsh/tensorsh/lang"
	"github.com/tensorsh/tensorsh/promote"
)

// spanOf returns the source span of a node.
func spanOf(n lang.Node) span {
	start, end := n.Span()
	return span{start, end}
}

// at sets o's span to sp and returns o.
func at(o *operand, sp span) *operand {
	o.start, o.end = sp.start, sp.end
	return o
}

// expr compiles an expression to an operand: a plan, a literal, or a
// non-tensor value. Nothing is computed except 0-d values a policy must see.
func (c *compiler) expr(e lang.Expr) (*operand, error) {
	if err := c.ctx.Err(); err != nil {
		return nil, &Error{Name: "KeyboardInterrupt", Msg: "interrupted", File: c.file}
	}
	sp := spanOf(e)
	switch e := e.(type) {
	case *lang.Ident:
		return c.ident(e)
	case *lang.BasicLit:
		return c.basicLit(e)
	case *lang.ParenExpr:
		o, err := c.expr(e.X)
		if err != nil {
			return nil, err
		}
		if o.kind == tupleKind { // (a, b) is parsed as a tuple inside parens
			return o, nil
		}
		cp := *o
		return at(&cp, sp), nil
	case *lang.ListExpr:
		elems, err := c.exprs(e.Elems)
		if err != nil {
			return nil, err
		}
		return &operand{kind: listKind, elems: elems, start: sp.start, end: sp.end}, nil
	case *lang.TupleExpr:
		elems, err := c.exprs(e.Elems)
		if err != nil {
			return nil, err
		}
		return &operand{kind: tupleKind, elems: elems, start: sp.start, end: sp.end}, nil
	case *lang.UnaryExpr:
		x, err := c.expr(e.X)
		if err != nil {
			return nil, err
		}
		if x, err = c.tensorize(x); err != nil {
			return nil, err
		}
		op := unaryTokens[e.Op]
		opSpan := span{e.OpPos, e.OpPos}
		opSpan.end.Col += len(e.Op.String())
		opSpan.end.Offset += len(e.Op.String())
		o, err := c.unary(op, x, opSpan, 0)
		if err != nil {
			return nil, err
		}
		return at(o, sp), nil
	case *lang.BinaryExpr:
		return c.binaryExpr(e)
	case *lang.CallExpr:
		return c.call(e)
	case *lang.IndexExpr:
		return c.index(e)
	case *lang.SelectorExpr:
		return c.attribute(e)
	case *lang.Ellipsis:
		return nil, c.errorf(sp, "SyntaxError", "... is only allowed inside an index, as in x[..., 0]")
	case *lang.SliceExpr:
		return nil, c.errorf(sp, "SyntaxError", "a slice a:b is only allowed inside an index, as in x[1:3]")
	}
	return nil, c.errorf(sp, "SyntaxError", "unsupported expression %T", e)
}

func (c *compiler) exprs(es []lang.Expr) ([]*operand, error) {
	out := make([]*operand, len(es))
	for i, e := range es {
		o, err := c.expr(e)
		if err != nil {
			return nil, err
		}
		out[i] = o
	}
	return out, nil
}

// tensorize turns a bracket literal into a tensor; other operands pass.
func (c *compiler) tensorize(o *operand) (*operand, error) {
	if o.kind == listKind {
		return c.listTensor(o, nil, o.span())
	}
	if o.kind == tupleKind {
		return nil, c.errorf(o.span(), "TypeError", "a tuple is not a tensor (tuples are shapes and axes; write a list [a, b] for a tensor)")
	}
	if o.kind == noneKind {
		return nil, c.errorf(o.span(), "TypeError", "%s", noneHint)
	}
	return o, nil
}

// pythonNaN is the bits of CPython's NaN (Py_NAN).
const pythonNaN = 0x7ff8000000000000

// ident compiles a name.
func (c *compiler) ident(id *lang.Ident) (*operand, error) {
	sp := spanOf(id)
	switch id.Name {
	case "true", "false":
		return c.literal(promote.BoolValue(id.Name == "true"), sp, nil)
	case "inf":
		return c.literal(promote.FloatValue(math.Inf(1)), sp, nil)
	case "nan":
		// Python's float('nan') and np.nan: the quiet NaN with no
		// payload (Go's math.NaN sets the lowest bit).
		return c.literal(promote.FloatValue(math.Float64frombits(pythonNaN)), sp, nil)
	case "None":
		return &operand{kind: noneKind, start: sp.start, end: sp.end}, nil
	}
	if v, ok := c.s.vars[id.Name]; ok {
		return c.varOperand(v, sp)
	}
	if v, ok, err := c.s.resultVar(id.Name); ok {
		if err != nil {
			return nil, c.errorf(sp, "NameError", "%v", err)
		}
		return c.varOperand(v, sp)
	}
	if t, err := dtypes.ParseType(id.Name); err == nil {
		return &operand{kind: DTypeValue, typ: t, start: sp.start, end: sp.end}, nil
	} else if _, isFn := builtins[id.Name]; !isFn && !strings.ContainsAny(id.Name, "?") && looksLikeDType(id.Name) {
		return nil, c.errorf(sp, "NameError", "%v", err)
	}
	if _, ok := builtins[id.Name]; ok {
		return nil, c.errorf(sp, "TypeError", "%s is a function; call it: %s", id.Name, builtins[id.Name].sig)
	}
	if sf, ok := specialForms[id.Name]; ok {
		return nil, c.errorf(sp, "TypeError", "%s is a function; call it: %s", id.Name, sf.sig)
	}
	if err := c.pythonHint(id, false); err != nil {
		return nil, err
	}
	msg := fmt.Sprintf("name %q is not defined", id.Name)
	if s := c.suggest(id.Name); s != "" {
		msg += fmt.Sprintf("; did you mean %q?", s)
	}
	return nil, c.errorf(sp, "NameError", "%s", msg)
}

// looksLikeDType reports whether name is a rejected dtype name (float, int,
// f8) whose parse error explains itself better than "not defined".
func looksLikeDType(name string) bool {
	switch name {
	case "float", "int", "f8", "complex", "uint", "fp8", "float8", "double", "long", "short":
		return true
	}
	return false
}

// notTypos are NumPy functions tensorsh lacks whose names lie near one of
// its own: np.sort is not a misspelt sqrt, nor np.sinc sin or np.cbrt sqrt.
// suggest offers nothing for them, so that the error says tensorsh has no
// such function rather than pointing at an unrelated one.
var notTypos = map[string]bool{
	"sinc": true, "cbrt": true, "fmod": true,
	"real": true, "imag": true, "conj": true, "angle": true,
	"unique": true,
	"inner":  true, "nonzero": true, "take": true,
}

// suggest returns the known name closest to name, or "".
func (c *compiler) suggest(name string) string {
	if notTypos[name] {
		return ""
	}
	var cands []string
	for n := range c.s.vars {
		cands = append(cands, n)
	}
	cands = append(cands, Functions()...)
	for n := range specialForms {
		cands = append(cands, n)
	}
	cands = append(cands, dtypes.Names()...)
	sort.Strings(cands)
	best, bestD := "", 3
	if len(name) <= 3 {
		bestD = 2
	}
	for _, cand := range cands {
		if d := editDistance(name, cand); d < bestD {
			best, bestD = cand, d
		}
	}
	return best
}

func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// varOperand makes an operand of a variable's value.
func (c *compiler) varOperand(v *Value, sp span) (*operand, error) {
	switch v.Kind {
	case TensorValue:
		t := v.Tensor
		if v.Device != c.s.backend.Name() {
			cpuV, err := c.s.fetch(v)
			if err != nil {
				return nil, c.errorf(sp, "RuntimeError", "%v", err)
			}
			if t, err = c.s.backend.Upload(cpuV.Tensor); err != nil {
				return nil, c.errorf(sp, "RuntimeError", "%v", err)
			}
		}
		// The operand and its leaf are one allocation.
		m := new(struct {
			o operand
			n backend.Node
		})
		m.n = backend.Node{Op: backend.OpInput, DType: t.DType, Shape: t.Shape, Tensor: t}
		o := &m.o
		*o = operand{kind: TensorValue, typ: v.Type, shape: t.Shape, node: &m.n, start: sp.start, end: sp.end}
		if v.Perm != nil {
			o.shape = v.Dims()
			o.node = &backend.Node{Op: backend.OpTranspose, DType: t.DType, Shape: o.shape, Axes: v.Perm, Args: []*backend.Node{o.node}}
		}
		if len(t.Shape) == 0 && (v.Device == "cpu" || v.Device == "") {
			s := scalarAt(t, 0)
			o.value = &s
		}
		return o, nil
	case LiteralValue:
		// A literal keeps its exact value, but its type follows the
		// policy in force now.
		t, err := c.policy.Literal(v.Lit)
		o := &operand{kind: LiteralValue, typ: t, lit: v.Lit, start: sp.start, end: sp.end}
		if err != nil {
			// As for the literal itself: an error once it is a value.
			o.litErr = c.promoteError(err, sp)
		}
		return o, nil
	case DTypeValue:
		return &operand{kind: DTypeValue, typ: v.Type, start: sp.start, end: sp.end}, nil
	case StringValue:
		return &operand{kind: StringValue, str: v.Str, start: sp.start, end: sp.end}, nil
	case ShapeValue:
		return &operand{kind: ShapeValue, dims: v.Shape, start: sp.start, end: sp.end}, nil
	}
	return &operand{kind: TextValue, str: v.Str, html: v.HTML, svg: v.SVG, start: sp.start, end: sp.end}, nil
}

// basicLit compiles a number or string literal.
func (c *compiler) basicLit(x *lang.BasicLit) (*operand, error) {
	sp := spanOf(x)
	switch x.Kind {
	case lang.INT:
		i, err := x.BigInt()
		if err != nil {
			return nil, c.errorf(sp, "SyntaxError", "%v", err)
		}
		return c.literal(promote.IntValue(i), sp, nil)
	case lang.FLOAT:
		f, err := x.Float()
		if err != nil {
			return nil, c.errorf(sp, "SyntaxError", "%v", err)
		}
		return c.literal(promote.FloatValue(f), sp, nil)
	case lang.IMAG:
		f, err := x.Imag()
		if err != nil {
			return nil, c.errorf(sp, "SyntaxError", "%v", err)
		}
		return c.literal(promote.ComplexValue(complex(0, f)), sp, nil)
	case lang.STRING:
		s, err := x.Str()
		if err != nil {
			return nil, c.errorf(sp, "SyntaxError", "%v", err)
		}
		return &operand{kind: StringValue, str: s, start: sp.start, end: sp.end}, nil
	}
	return nil, c.errorf(sp, "SyntaxError", "unknown literal %s", x.Raw)
}

var unaryTokens = map[lang.Token]promote.UnaryOp{lang.MINUS: promote.Neg, lang.PLUS: promote.Pos, lang.TILDE: promote.Invert, lang.NOT: promote.Not}

var binaryTokens = map[lang.Token]promote.BinaryOp{
	lang.PLUS: promote.Add, lang.MINUS: promote.Sub, lang.STAR: promote.Mul, lang.SLASH: promote.TrueDiv,
	lang.SLASHSLASH: promote.FloorDiv, lang.PERCENT: promote.Mod, lang.STARSTAR: promote.Pow,
	lang.AT: promote.MatMul, lang.AMP: promote.BitAnd, lang.PIPE: promote.BitOr, lang.CIRCUMFLEX: promote.BitXor,
	lang.LTLT: promote.Shl, lang.GTGT: promote.Shr, lang.EQL: promote.Eq, lang.NEQ: promote.Ne,
	lang.LT: promote.Lt, lang.LE: promote.Le, lang.GT: promote.Gt, lang.GE: promote.Ge,
	lang.AND: promote.And, lang.OR: promote.Or,
}

func (c *compiler) binaryExpr(e *lang.BinaryExpr) (*operand, error) {
	x, err := c.expr(e.X)
	if err != nil {
		return nil, err
	}
	y, err := c.expr(e.Y)
	if err != nil {
		return nil, err
	}
	if x, err = c.tensorize(x); err != nil {
		return nil, err
	}
	if y, err = c.tensorize(y); err != nil {
		return nil, err
	}
	op, ok := binaryTokens[e.Op]
	opSpan := span{e.OpPos, e.OpPos}
	opSpan.end.Col += len(e.Op.String())
	opSpan.end.Offset += len(e.Op.String())
	if !ok {
		return nil, c.errorf(opSpan, "SyntaxError", "unsupported operator %s", e.Op)
	}
	o, err := c.binary(op, x, y, opSpan)
	if err != nil {
		return nil, err
	}
	if op == promote.Pow {
		c.sqrtPower(o, x, y)
	}
	return at(o, spanOf(e)), nil
}

// call compiles f(args…): a dtype conversion, a builtin, or a special form.
func (c *compiler) call(e *lang.CallExpr) (*operand, error) {
	sp := spanOf(e)
	if sel, ok := e.Fun.(*lang.SelectorExpr); ok {
		return c.method(e, sel)
	}
	id, ok := e.Fun.(*lang.Ident)
	if !ok {
		return nil, c.errorf(spanOf(e.Fun), "TypeError", "only named functions can be called, as in sqrt(x)")
	}
	fnSpan := spanOf(id)
	if _, isVar := c.s.vars[id.Name]; isVar {
		return nil, c.errorf(fnSpan, "TypeError", "%s is a variable, not a function", id.Name)
	}
	if sf, ok := specialForms[id.Name]; ok {
		o, err := sf.fn(c, e)
		if err != nil {
			return nil, err
		}
		return at(o, sp), nil
	}
	b, isBuiltin := builtins[id.Name]
	var conv dtypes.Type
	if !isBuiltin {
		t, err := dtypes.ParseType(id.Name)
		if err != nil {
			if looksLikeDType(id.Name) {
				return nil, c.errorf(fnSpan, "NameError", "%v", err)
			}
			if err := c.pythonHint(id, true); err != nil {
				return nil, err
			}
			msg := fmt.Sprintf("unknown function %q", id.Name)
			if s := c.suggest(id.Name); s != "" {
				msg += fmt.Sprintf("; did you mean %q?", s)
			}
			return nil, c.errorf(fnSpan, "NameError", "%s (:help lists the functions)", msg)
		}
		conv = t
	}
	k := &call{name: id.Name, sp: sp, fnSpan: fnSpan}
	args, err := c.exprs(e.Args)
	if err != nil {
		return nil, err
	}
	k.args = args
	for _, kw := range e.Keywords {
		name := kw.Name.Name
		accepted := isBuiltin && contains(b.kwargs, name)
		if !accepted {
			var want string
			if isBuiltin && len(b.kwargs) > 0 {
				want = " (it takes " + strings.Join(b.kwargs, ", ") + ")"
			}
			return nil, c.errorf(spanOf(kw.Name), "TypeError", "%s() got an unexpected keyword argument %q%s", id.Name, name, want)
		}
		if _, dup := k.kw[name]; dup {
			return nil, c.errorf(spanOf(kw.Name), "SyntaxError", "keyword argument %q repeated", name)
		}
		v, err := c.expr(kw.Value)
		if err != nil {
			return nil, err
		}
		k.setKw(name, v)
	}
	if !isBuiltin {
		if len(args) != 1 {
			return nil, c.errorf(sp, "TypeError", "%s() takes exactly one argument (%d given), as in %s([1, 2])", id.Name, len(args), id.Name)
		}
		t, err := c.dtypeOf(&operand{kind: DTypeValue, typ: conv, start: fnSpan.start, end: fnSpan.end})
		if err != nil {
			return nil, err
		}
		o, err := c.convert(args[0], t, k, false)
		if err != nil {
			return nil, err
		}
		return at(o, sp), nil
	}
	o, err := b.fn(c, k)
	if err != nil {
		return nil, err
	}
	if o.start.Line == 0 {
		o = at(o, sp)
	}
	return o, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// index compiles x[…]: integers, slices, ... and None (new axis).
func (c *compiler) index(e *lang.IndexExpr) (*operand, error) {
	if o, ok, err := c.outIndex(e); ok {
		return o, err
	}
	sp := spanOf(e)
	x, err := c.expr(e.X)
	if err != nil {
		return nil, err
	}
	if x, err = c.tensorize(x); err != nil {
		return nil, err
	}
	if x.kind != TensorValue {
		if x.kind == ShapeValue && len(e.Indices) == 1 {
			return c.indexShape(x, e.Indices[0])
		}
		return nil, c.errorf(x.span(), "TypeError", "only tensors can be indexed (this is %s)", kindName(x))
	}
	rank := len(x.shape)
	// Compile the scalar indices once, and count the indices that consume
	// a dimension. A bool index (true, false, or a 0-d bool tensor) is a
	// mask, as in NumPy, JAX and PyTorch: it consumes none and adds an axis
	// of length 1 (true) or 0 (false), so arange(3)[true] is [[0 1 2]].
	type scalarIndex struct {
		o    *operand
		mask bool // a bool index
		keep bool // the mask's value
	}
	scalars := make([]scalarIndex, len(e.Indices))
	consume, ellipsis := 0, -1
	for i, ix := range e.Indices {
		switch ix := ix.(type) {
		case *lang.Ellipsis:
			if ellipsis >= 0 {
				return nil, c.errorf(spanOf(ix), "IndexError", "an index can only have a single ellipsis (...)")
			}
			ellipsis = i
			continue
		case *lang.SliceExpr:
			consume++
			continue
		case *lang.Ident:
			if ix.Name == "None" {
				continue
			}
		}
		o, err := c.expr(ix)
		if err != nil {
			return nil, err
		}
		if o.kind == TensorValue && len(o.shape) > 0 && o.typ.DType.IsBool() {
			return nil, c.errorf(o.span(), "IndexError", "%s", maskHint)
		}
		if o.kind == TensorValue && len(o.shape) > 0 || o.kind == listKind {
			return nil, c.errorf(o.span(), "IndexError", "indexing with a tensor (advanced indexing) is not supported; use integers, slices, ... and None")
		}
		si := scalarIndex{o: o}
		switch {
		case o.kind == LiteralValue && o.lit.Kind == promote.BoolScalar:
			si.mask, si.keep = true, o.lit.Bool
		case o.kind == TensorValue && o.typ.DType.IsBool():
			if err := c.known(o); err != nil {
				return nil, err
			}
			si.mask, si.keep = true, truth(*o.value)
		default:
			consume++
		}
		scalars[i] = si
	}
	if consume > rank {
		return nil, c.errorf(sp, "IndexError", "too many indices for a tensor of rank %d: %d were indexed", rank, consume)
	}
	slices := make([]backend.Slice, 0, rank)
	var newAxes []int // positions in the output shape of None and of masks
	var outShape []int
	empty := false // a false mask: the result has no elements
	dim := 0
	addFull := func(n int) {
		for j := 0; j < n; j++ {
			slices = append(slices, backend.Slice{Start: 0, Stop: x.shape[dim], Step: 1})
			outShape = append(outShape, x.shape[dim])
			dim++
		}
	}
	for k, ix := range e.Indices {
		switch ix := ix.(type) {
		case *lang.Ellipsis:
			addFull(rank - consume)
			continue
		case *lang.Ident:
			if ix.Name == "None" {
				newAxes = append(newAxes, len(outShape))
				outShape = append(outShape, 1)
				continue
			}
		case *lang.SliceExpr:
			s, n, err := c.slice(ix, x.shape[dim])
			if err != nil {
				return nil, err
			}
			slices = append(slices, s)
			outShape = append(outShape, n)
			dim++
			continue
		}
		si := scalars[k]
		if si.mask {
			newAxes = append(newAxes, len(outShape))
			if si.keep {
				outShape = append(outShape, 1)
			} else {
				outShape = append(outShape, 0)
				empty = true
			}
			continue
		}
		o := si.o
		i, err := c.intOf(o, "an index")
		if err != nil {
			return nil, err
		}
		n := x.shape[dim]
		if i < -n || i >= n {
			return nil, c.errorf(o.span(), "IndexError", "index %d is out of bounds for axis %d with size %d", i, dim, n)
		}
		if i < 0 {
			i += n
		}
		slices = append(slices, backend.Slice{Start: i, Stop: i + 1, Step: 1, Drop: true})
		dim++
	}
	addFull(rank - dim)
	if err := c.checkRank(len(outShape), sp); err != nil {
		return nil, err
	}
	var sliced []int
	for _, s := range slices {
		if !s.Drop {
			sliced = append(sliced, backend.SliceLen(s))
		}
	}
	n := &backend.Node{Op: backend.OpSlice, DType: x.node.DType, Shape: sliced, Args: []*backend.Node{x.node}, Slices: slices}
	if empty {
		// A false mask selects nothing: the result is empty whatever x holds.
		n = inputNode(newTensor(x.node.DType, outShape))
	} else if len(newAxes) > 0 {
		n = &backend.Node{Op: backend.OpReshape, DType: n.DType, Shape: outShape, Args: []*backend.Node{n}}
	}
	if len(outShape) == 0 {
		outShape = nil
	}
	n.Shape = outShape
	out := &operand{kind: TensorValue, typ: x.typ, shape: outShape, node: n, start: sp.start, end: sp.end}
	return out, nil
}

// slice normalises lo:hi:step for a dimension of size n as Python's
// slice.indices does.
func (c *compiler) slice(s *lang.SliceExpr, n int) (backend.Slice, int, error) {
	part := func(e lang.Expr, what string) (int, bool, error) {
		if e == nil {
			return 0, false, nil
		}
		if id, ok := e.(*lang.Ident); ok && id.Name == "None" {
			return 0, false, nil
		}
		o, err := c.expr(e)
		if err != nil {
			return 0, false, err
		}
		i, err := c.intOf(o, what)
		return i, true, err
	}
	step, hasStep, err := part(s.Step, "a slice step")
	if err != nil {
		return backend.Slice{}, 0, err
	}
	if !hasStep {
		step = 1
	}
	if step == 0 {
		return backend.Slice{}, 0, c.errorf(spanOf(s.Step), "ValueError", "slice step cannot be zero")
	}
	lo, hasLo, err := part(s.Lo, "a slice start")
	if err != nil {
		return backend.Slice{}, 0, err
	}
	hi, hasHi, err := part(s.Hi, "a slice stop")
	if err != nil {
		return backend.Slice{}, 0, err
	}
	clamp := func(i, lower, upper int) int {
		if i < 0 {
			i += n
			if i < lower {
				i = lower
			}
		} else if i > upper {
			i = upper
		}
		return i
	}
	var start, stop int
	if step > 0 {
		start, stop = 0, n
		if hasLo {
			start = clamp(lo, 0, n)
		}
		if hasHi {
			stop = clamp(hi, 0, n)
		}
	} else {
		start, stop = n-1, -1
		if hasLo {
			start = clamp(lo, -1, n-1)
		}
		if hasHi {
			stop = clamp(hi, -1, n-1)
		}
	}
	sl := backend.Slice{Start: start, Stop: stop, Step: step}
	return sl, backend.SliceLen(sl), nil
}

// indexShape indexes a shape value: shape(x)[0].
func (c *compiler) indexShape(x *operand, ix lang.Expr) (*operand, error) {
	o, err := c.expr(ix)
	if err != nil {
		return nil, err
	}
	i, err := c.intOf(o, "an index")
	if err != nil {
		return nil, err
	}
	n := len(x.dims)
	if i < -n || i >= n {
		return nil, c.errorf(o.span(), "IndexError", "index %d is out of range for a shape of rank %d", i, n)
	}
	if i < 0 {
		i += n
	}
	return c.literal(promote.Int64Value(int64(x.dims[i])), span{x.start, o.end}, nil)
}

func kindName(o *operand) string {
	switch o.kind {
	case LiteralValue:
		return "a literal number"
	case DTypeValue:
		return "a dtype"
	case StringValue:
		return "a string"
	case ShapeValue:
		return "a shape"
	case TextValue:
		return "text"
	case tupleKind:
		return "a tuple"
	case noneKind:
		return "None"
	}
	return "a tensor"
}

// source returns the source text of sp, or alt when it is not on one line.
func (c *compiler) source(sp span, alt string) string {
	if sp.start.Line == 0 || sp.start.Line != sp.end.Line || sp.end.Offset > len(c.src) || sp.start.Offset >= sp.end.Offset {
		return alt
	}
	return c.src[sp.start.Offset:sp.end.Offset]
}
