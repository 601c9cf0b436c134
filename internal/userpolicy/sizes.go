//lint:file-ignore SA1019 go/ast.Object: the parser still resolves identifiers in one file, which is all a policy is; go/types would check far more than sizes need.

package userpolicy

import (
	"go/ast"
	"go/constant"
	"go/token"
	"strconv"
)

// Arrays and structs are allocated whole: var a [1 << 40]byte is one
// allocation that no check at run time can refuse, and running out of
// memory ends the process. So the sizes of the array and struct types a
// policy writes are computed from its source before anything runs, and a
// type larger than allocLimit is refused, as is an array whose length is
// not a constant tensorsh can evaluate.

// sizeCap is past every limit; sizes saturate at it.
const sizeCap = int64(1) << 62

// typeSize is the size in bytes of the type e, at most sizeCap. It
// reports false when e's size depends on an array length it cannot
// evaluate. Named types of the file count as their definitions; seen
// guards recursive ones.
func typeSize(e ast.Expr, seen map[*ast.Object]bool) (int64, bool) {
	switch e := e.(type) {
	case *ast.ParenExpr:
		return typeSize(e.X, seen)
	case *ast.ArrayType:
		if e.Len == nil {
			return 24, true // a slice
		}
		if _, ok := e.Len.(*ast.Ellipsis); ok {
			return 8, true // [...]T{…}: as long as its literal, which the source holds
		}
		n, ok := constInt(e.Len, 0)
		if !ok {
			return 0, false
		}
		elem, ok := typeSize(e.Elt, seen)
		if !ok {
			return 0, false
		}
		return mulSat(max(n, 0), elem), true
	case *ast.StructType:
		total := int64(0)
		for _, f := range e.Fields.List {
			sz, ok := typeSize(f.Type, seen)
			if !ok {
				return 0, false
			}
			total = addSat(total, mulSat(int64(max(len(f.Names), 1)), sz))
		}
		return total, true
	case *ast.Ident:
		if e.Obj == nil {
			switch e.Name {
			case "bool", "int8", "uint8", "byte":
				return 1, true
			case "int16", "uint16":
				return 2, true
			case "int32", "uint32", "rune", "float32":
				return 4, true
			case "complex128", "string", "any", "error":
				return 16, true
			}
			return 8, true
		}
		spec, ok := e.Obj.Decl.(*ast.TypeSpec)
		if !ok || e.Obj.Kind != ast.Typ || seen[e.Obj] {
			return 8, true // a type parameter, or a type through itself
		}
		seen[e.Obj] = true
		defer delete(seen, e.Obj)
		return typeSize(spec.Type, seen)
	}
	return 64, true // pointers, maps, functions, interfaces, other packages' types
}

func mulSat(a, b int64) int64 {
	if a != 0 && b > sizeCap/a {
		return sizeCap
	}
	return min(a*b, sizeCap)
}

func addSat(a, b int64) int64 { return min(a+b, sizeCap) }

// constInt evaluates an array length: an integer constant expression of
// literals, the file's constants, len of a string constant and
// conversions to integer types.
func constInt(e ast.Expr, depth int) (int64, bool) {
	v, ok := constValue(e, depth)
	if !ok {
		return 0, false
	}
	v = constant.ToInt(v)
	if v.Kind() != constant.Int {
		return 0, false
	}
	if n, exact := constant.Int64Val(v); exact {
		return n, true
	}
	if constant.Sign(v) > 0 {
		return sizeCap, true
	}
	return -1, true
}

// constValue evaluates a constant expression; depth bounds how many
// constants it goes through.
func constValue(e ast.Expr, depth int) (constant.Value, bool) {
	if depth > 64 {
		return nil, false
	}
	switch e := e.(type) {
	case *ast.BasicLit:
		v := constant.MakeFromLiteral(e.Value, e.Kind, 0)
		return v, v.Kind() != constant.Unknown
	case *ast.ParenExpr:
		return constValue(e.X, depth)
	case *ast.UnaryExpr:
		x, ok := constValue(e.X, depth)
		if !ok || (e.Op != token.ADD && e.Op != token.SUB && e.Op != token.XOR && e.Op != token.NOT) {
			return nil, false
		}
		if e.Op == token.XOR && x.Kind() != constant.Int {
			return nil, false
		}
		return safeConst(func() constant.Value { return constant.UnaryOp(e.Op, x, 0) })
	case *ast.BinaryExpr:
		x, ok := constValue(e.X, depth)
		if !ok {
			return nil, false
		}
		y, ok := constValue(e.Y, depth)
		if !ok {
			return nil, false
		}
		switch e.Op {
		case token.SHL, token.SHR:
			s, exact := constant.Uint64Val(constant.ToInt(y))
			if !exact || s > 1000 {
				return nil, false
			}
			if x = constant.ToInt(x); x.Kind() != constant.Int {
				return nil, false
			}
			return constant.Shift(x, e.Op, uint(s)), true
		case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
			return safeConst(func() constant.Value { return constant.MakeBool(constant.Compare(x, e.Op, y)) })
		}
		op := e.Op
		if op == token.QUO && x.Kind() == constant.Int && y.Kind() == constant.Int {
			op = token.QUO_ASSIGN // integer division
		}
		if (op == token.QUO || op == token.QUO_ASSIGN || op == token.REM) && constant.Sign(y) == 0 {
			return nil, false
		}
		if op == token.MUL && constant.BitLen(constant.ToInt(x))+constant.BitLen(constant.ToInt(y)) > 4000 {
			return nil, false
		}
		return safeConst(func() constant.Value { return constant.BinaryOp(x, op, y) })
	case *ast.Ident:
		if e.Obj == nil || e.Obj.Kind != ast.Con {
			return nil, false
		}
		spec, ok := e.Obj.Decl.(*ast.ValueSpec)
		if !ok {
			return nil, false
		}
		for i, n := range spec.Names {
			if n.Name == e.Name && i < len(spec.Values) {
				v := spec.Values[i]
				if iota, ok := e.Obj.Data.(int); ok && usesIota(v) {
					v = withIota(v, iota)
				}
				return constValue(v, depth+1)
			}
		}
		return nil, false
	case *ast.CallExpr:
		fun, ok := ast.Unparen(e.Fun).(*ast.Ident)
		if !ok || fun.Obj != nil || len(e.Args) != 1 {
			return nil, false
		}
		x, ok := constValue(e.Args[0], depth)
		if !ok {
			return nil, false
		}
		switch fun.Name {
		case "len":
			if x.Kind() != constant.String {
				return nil, false
			}
			return constant.MakeInt64(int64(len(constant.StringVal(x)))), true
		case "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64", "uintptr", "byte", "rune":
			return constant.ToInt(x), constant.ToInt(x).Kind() == constant.Int
		}
	}
	return nil, false
}

// safeConst runs a go/constant operation, which panics on operands of
// the wrong kinds.
func safeConst(f func() constant.Value) (v constant.Value, ok bool) {
	defer func() {
		if recover() != nil {
			v, ok = nil, false
		}
	}()
	v = f()
	return v, v != nil && v.Kind() != constant.Unknown
}

// withIota is a copy of e with iota replaced by its value.
func withIota(e ast.Expr, iota int) ast.Expr {
	lit := &ast.BasicLit{ValuePos: e.Pos(), Kind: token.INT, Value: strconv.Itoa(iota)}
	var sub func(e ast.Expr) ast.Expr
	sub = func(e ast.Expr) ast.Expr {
		switch e := e.(type) {
		case *ast.Ident:
			if e.Name == "iota" && e.Obj == nil {
				return lit
			}
		case *ast.ParenExpr:
			return &ast.ParenExpr{X: sub(e.X)}
		case *ast.UnaryExpr:
			return &ast.UnaryExpr{Op: e.Op, X: sub(e.X)}
		case *ast.BinaryExpr:
			return &ast.BinaryExpr{X: sub(e.X), Op: e.Op, Y: sub(e.Y)}
		case *ast.CallExpr:
			args := make([]ast.Expr, len(e.Args))
			for i, a := range e.Args {
				args[i] = sub(a)
			}
			return &ast.CallExpr{Fun: e.Fun, Args: args}
		}
		return e
	}
	return sub(e)
}

// usesIota reports whether e mentions iota.
func usesIota(e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && id.Name == "iota" && id.Obj == nil {
			found = true
		}
		return !found
	})
	return found
}

// checkSizes refuses array and struct types larger than allocLimit, and
// arrays whose length tensorsh cannot evaluate.
func checkSizes(n ast.Node, refuse func(token.Pos, string, ...any)) {
	switch n := n.(type) {
	case *ast.ArrayType:
		if n.Len == nil {
			return
		}
		if _, ok := n.Len.(*ast.Ellipsis); ok {
			return
		}
		if _, ok := constInt(n.Len, 0); !ok {
			refuse(n.Len.Pos(), "the length of an array in a user policy must be a constant tensorsh can evaluate (numbers, operators, the file's constants)")
			return
		}
	case *ast.StructType:
	case *ast.CompositeLit:
		// []T{1 << 30: x} has 1<<30 + 1 elements.
		elem := int64(64)
		switch t := n.Type.(type) {
		case *ast.MapType:
			return
		case *ast.ArrayType:
			if z, ok := typeSize(t.Elt, map[*ast.Object]bool{}); ok {
				elem = max(z, 1)
			}
		case *ast.Ident:
			if t.Obj != nil {
				if spec, ok := t.Obj.Decl.(*ast.TypeSpec); ok {
					if _, isMap := spec.Type.(*ast.MapType); isMap {
						return
					}
				}
			}
		}
		for _, e := range n.Elts {
			kv, ok := e.(*ast.KeyValueExpr)
			if !ok {
				continue
			}
			if k, ok := constInt(kv.Key, 0); ok && !mulFits(addSat(k, 1), elem) {
				refuse(kv.Key.Pos(), "%s", tooBig("a composite literal", addSat(k, 1), elem))
			}
		}
		return
	default:
		return
	}
	if sz, ok := typeSize(n.(ast.Expr), map[*ast.Object]bool{}); ok && sz > allocLimit {
		what := strconv.FormatInt(sz, 10) + " bytes"
		if sz == sizeCap {
			what = "more than " + what
		}
		refuse(n.Pos(), "a type of %s is more than a user policy may allocate (%s)", what, bytesString(allocLimit))
	}
}

// maxConstBits is Go's bound on an untyped integer constant (go/types
// reports "constant overflow" past 512 bits). yaegi has none: it
// computes const c = 1 << 1000000000 (and c*c*c …) while it compiles,
// which cannot be stopped, until memory runs out. It is the same with
// string constants (const b = a + a; const c = b + b; …), which Go does
// not bound; a policy's are at most maxConstString bytes.
const (
	maxConstBits   = 512
	maxConstString = 1 << 20
)

// A constSize bounds the integer constants of a file (in bits) and its
// string constants (in bytes).
type constSize struct {
	n   int64
	str bool // a string
	ok  bool // a constant expression
}

// A constBits bounds the sizes of the constant expressions of a file,
// remembering what it worked out.
type constBits struct {
	exprs map[ast.Expr]constSize
	objs  map[*ast.Object]constSize
	busy  map[*ast.Object]bool
}

func newConstBits() *constBits {
	return &constBits{exprs: map[ast.Expr]constSize{}, objs: map[*ast.Object]constSize{}, busy: map[*ast.Object]bool{}}
}

// size bounds the size of e's value, if e is a constant expression.
func (c *constBits) size(e ast.Expr) constSize {
	if z, ok := c.exprs[e]; ok {
		return z
	}
	z := c.work(e)
	c.exprs[e] = z
	return z
}

var small = constSize{n: 64, ok: true}

func (c *constBits) work(e ast.Expr) constSize {
	switch e := e.(type) {
	case *ast.BasicLit:
		switch e.Kind {
		case token.STRING:
			v := constant.MakeFromLiteral(e.Value, e.Kind, 0)
			if v.Kind() == constant.String {
				return constSize{n: int64(len(constant.StringVal(v))), str: true, ok: true}
			}
		case token.INT:
			v := constant.MakeFromLiteral(e.Value, e.Kind, 0)
			if v.Kind() == constant.Int {
				return constSize{n: int64(constant.BitLen(v)), ok: true}
			}
		}
		return small // floats are bounded by go/constant (4096 bits, then big.Float)
	case *ast.ParenExpr:
		return c.size(e.X)
	case *ast.SelectorExpr: // another package's constant (or not a constant)
		return small
	case *ast.Ident:
		if e.Obj == nil {
			switch e.Name {
			case "true", "false", "iota":
				return small
			}
			return constSize{}
		}
		if e.Obj.Kind != ast.Con {
			return constSize{}
		}
		if z, ok := c.objs[e.Obj]; ok {
			return z
		}
		if c.busy[e.Obj] {
			return small // a cycle, which the interpreter reports
		}
		c.busy[e.Obj] = true
		z := small
		if spec, ok := e.Obj.Decl.(*ast.ValueSpec); ok {
			for i, name := range spec.Names {
				if name.Name == e.Name && i < len(spec.Values) {
					z = c.size(spec.Values[i])
					z.ok = true
				}
			}
		}
		c.objs[e.Obj] = z
		return z
	case *ast.CallExpr: // conversions and len of constants
		if fun, ok := ast.Unparen(e.Fun).(*ast.Ident); ok && fun.Obj == nil && len(e.Args) == 1 {
			if z := c.size(e.Args[0]); z.ok {
				switch fun.Name {
				case "len":
					return small
				case "string":
					return constSize{n: max(z.n, 4), str: true, ok: true}
				}
				return z
			}
		}
		return constSize{}
	case *ast.UnaryExpr:
		z := c.size(e.X)
		z.n = addSat(z.n, 1)
		return z
	case *ast.BinaryExpr:
		x, y := c.size(e.X), c.size(e.Y)
		if !x.ok || !y.ok {
			return constSize{}
		}
		n := addSat(max(x.n, y.n), 1)
		switch e.Op {
		case token.ADD:
			if x.str || y.str {
				return constSize{n: addSat(x.n, y.n), str: true, ok: true}
			}
		case token.MUL:
			n = addSat(x.n, y.n)
		case token.SHL:
			s, ok := constInt(e.Y, 0)
			if !ok || s < 0 {
				s = sizeCap
			}
			n = addSat(x.n, s)
		case token.QUO, token.REM, token.SHR:
			n = x.n
		case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ, token.LAND, token.LOR:
			n = 1
		}
		return constSize{n: n, ok: true}
	}
	return constSize{}
}

// check refuses a constant expression past maxConstBits or
// maxConstString.
func (c *constBits) check(n ast.Node, refuse func(token.Pos, string, ...any)) {
	switch n.(type) {
	case *ast.BinaryExpr, *ast.UnaryExpr, *ast.BasicLit:
	default:
		return
	}
	switch z := c.size(n.(ast.Expr)); {
	case !z.ok:
	case z.str && z.n > maxConstString:
		refuse(n.Pos(), "a string constant of a user policy has at most %s", bytesString(maxConstString))
	case !z.str && z.n > maxConstBits:
		refuse(n.Pos(), "constant overflow: a constant of a user policy has at most %d bits, as in Go", maxConstBits)
	}
}

// maxTypeParts bounds the size of a type written out in full, the named
// types of the file replaced by their definitions. yaegi builds types
// that way (reflect has no named types of its own), so that
//
//	type P1 struct{ a, b *P0 }
//	type P2 struct{ a, b *P1 } // …
//
// (or func types, or interfaces embedding one twice) takes time
// exponential in the number of declarations to compile, which cannot be
// stopped. A type that refers to itself counts once.
const maxTypeParts = 10000

// A typeParts counts the parts of type expressions written out in full,
// remembering what it worked out.
type typeParts struct {
	exprs map[ast.Expr]int64
	named map[*ast.Object]int64
	busy  map[*ast.Object]bool
}

func newTypeParts() *typeParts {
	return &typeParts{exprs: map[ast.Expr]int64{}, named: map[*ast.Object]int64{}, busy: map[*ast.Object]bool{}}
}

func (c *typeParts) fields(l *ast.FieldList) int64 {
	n := int64(0)
	if l == nil {
		return 0
	}
	for _, f := range l.List {
		n = addSat(n, mulSat(int64(max(len(f.Names), 1)), c.parts(f.Type)))
	}
	return n
}

// parts counts the parts of e, an expression (of a type, or not).
func (c *typeParts) parts(e ast.Expr) int64 {
	if e == nil {
		return 0
	}
	if n, ok := c.exprs[e]; ok {
		return n
	}
	n := int64(1)
	switch e := e.(type) {
	case *ast.Ident:
		if e.Obj != nil && e.Obj.Kind == ast.Typ {
			if spec, ok := e.Obj.Decl.(*ast.TypeSpec); ok {
				if c.busy[e.Obj] {
					return 1 // not remembered: it is not the whole count
				}
				if m, ok := c.named[e.Obj]; ok {
					n = m
					break
				}
				c.busy[e.Obj] = true
				n = addSat(1, c.parts(spec.Type))
				delete(c.busy, e.Obj)
				c.named[e.Obj] = n
			}
		}
	case *ast.ParenExpr:
		n = c.parts(e.X)
	case *ast.StarExpr:
		n = addSat(1, c.parts(e.X))
	case *ast.ArrayType:
		n = addSat(1, c.parts(e.Elt))
	case *ast.Ellipsis:
		n = addSat(1, c.parts(e.Elt))
	case *ast.MapType:
		n = addSat(1, addSat(c.parts(e.Key), c.parts(e.Value)))
	case *ast.ChanType:
		n = addSat(1, c.parts(e.Value))
	case *ast.FuncType:
		n = addSat(1, addSat(c.fields(e.Params), c.fields(e.Results)))
	case *ast.StructType:
		n = addSat(1, c.fields(e.Fields))
	case *ast.InterfaceType:
		n = addSat(1, c.fields(e.Methods))
	}
	c.exprs[e] = n
	return n
}

// check refuses a type with more than maxTypeParts parts.
func (c *typeParts) check(n ast.Node, refuse func(token.Pos, string, ...any)) {
	var e ast.Expr
	switch n := n.(type) {
	case *ast.TypeSpec:
		e = n.Name
	case *ast.StructType, *ast.InterfaceType, *ast.FuncType, *ast.ArrayType, *ast.MapType:
		e = n.(ast.Expr)
	default:
		return
	}
	if p := c.parts(e); p > maxTypeParts {
		refuse(n.Pos(), "a type of a user policy has at most %d parts written out in full; this one has %d", maxTypeParts, p)
	}
}
