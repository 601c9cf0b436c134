package lang

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
)

// A Node is a node of the syntax tree: a [*File], a [Stmt], an [Expr] or a
// [*Keyword].
type Node interface {
	// Span returns the position of the node's first character and the
	// position just after its last one.
	Span() (start, end Position)
}

// An Expr is an expression node. The family is sealed: its members are
// the expression types of this package.
type Expr interface {
	Node
	exprNode()
}

// A Stmt is a statement node: [*AssignStmt], [*ExprStmt] or [*Directive].
type Stmt interface {
	Node
	stmtNode()
}

// A File is a parsed source text: a sequence of statements.
type File struct {
	Stmts []Stmt
}

// Span returns the extent of the statements (zero Positions if none).
func (f *File) Span() (start, end Position) {
	if len(f.Stmts) == 0 {
		return Position{}, Position{}
	}
	start, _ = f.Stmts[0].Span()
	_, end = f.Stmts[len(f.Stmts)-1].Span()
	return start, end
}

// Statements.
type (
	// An AssignStmt binds a name to the value of an expression:
	//
	//	x = i16([1, 2, 3])
	AssignStmt struct {
		LHS   *Ident
		EqPos Position // position of '='
		RHS   Expr
	}

	// An ExprStmt is an expression whose value is printed:
	//
	//	x + 1.5
	ExprStmt struct {
		X Expr
	}

	// A Directive is a line whose first non-blank character is ':' (or
	// '%', as in a Jupyter magic). Its argument is the raw rest of the line,
	// trimmed, never split at ';' and never parsed here:
	//
	//	:policy numpy
	//	:time sum(x)
	//	:policy load my.go
	Directive struct {
		Colon   Position // position of the ':' or '%'
		Name    string   // the word after ':', e.g. "policy"
		NamePos Position
		Arg     string   // the rest of the line, trimmed; may be empty
		ArgPos  Position // position of Arg, or just after Name if Arg is empty
	}
)

func (*AssignStmt) stmtNode() {}
func (*ExprStmt) stmtNode()   {}
func (*Directive) stmtNode()  {}

// Span returns the extent from the name to the end of the value.
func (s *AssignStmt) Span() (start, end Position) {
	start, _ = s.LHS.Span()
	_, end = s.RHS.Span()
	return start, end
}

// Span returns the extent of the expression.
func (s *ExprStmt) Span() (start, end Position) { return s.X.Span() }

// Span returns the extent from the ':' to the end of the argument.
func (d *Directive) Span() (start, end Position) {
	if d.Arg == "" {
		return d.Colon, d.NamePos.add(d.Name)
	}
	return d.Colon, d.ArgPos.add(d.Arg)
}

// Expressions.
type (
	// An Ident is a name: x, sqrt, i16, true, None. A weak dtype name
	// carries its '?' (f32?).
	Ident struct {
		NamePos Position
		Name    string
	}

	// A BasicLit is a number or string literal, kept as written. Use
	// [BasicLit.BigInt], [BasicLit.Float], [BasicLit.Imag] and
	// [BasicLit.Str] for its value.
	//
	//	42  0x_ff  0o17  0b101  1_000
	//	1.5  1.  .5  1e-3  1E+3
	//	2j  1.5j  1e3j
	//	"a\n"  'b'  """c"""
	BasicLit struct {
		ValuePos Position
		Kind     Token  // INT, FLOAT, IMAG or STRING
		Raw      string // the source text
	}

	// An Ellipsis is '...' (used in indexing: x[..., 1]).
	Ellipsis struct {
		Pos Position
	}

	// A ListExpr is a bracketed list (a trailing comma is allowed):
	//
	//	[1, 2]  [[1, 2], [3, 4]]  []
	ListExpr struct {
		Lbrack Position
		Elems  []Expr
		Rbrack Position
	}

	// A TupleExpr is a parenthesised tuple. One element needs a comma; a
	// parenthesised expression without a comma is a [ParenExpr].
	//
	//	(3, 1)  (4,)  ()
	TupleExpr struct {
		Lparen Position
		Elems  []Expr
		Rparen Position
	}

	// A ParenExpr is a parenthesised expression: (1 + 2).
	ParenExpr struct {
		Lparen Position
		X      Expr
		Rparen Position
	}

	// A UnaryExpr is a prefix operation: -x, +x, ~x, not x.
	UnaryExpr struct {
		OpPos Position
		Op    Token // MINUS, PLUS, TILDE or NOT
		X     Expr
	}

	// A BinaryExpr is an infix operation: x + y, x ** y, x < y, x and y.
	BinaryExpr struct {
		X     Expr
		OpPos Position
		Op    Token // an arithmetic, bitwise, comparison or logical operator
		Y     Expr

		start Position // start of X, recorded by the parser (see Span)
	}

	// A CallExpr is a call: positional arguments, then keyword arguments.
	//
	//	f(a, b, axis=-1, keepdims=true)
	CallExpr struct {
		Fun      Expr
		Lparen   Position
		Args     []Expr     // positional arguments
		Keywords []*Keyword // keyword arguments, in source order
		Rparen   Position

		start Position // start of Fun, recorded by the parser (see Span)
	}

	// An IndexExpr is an indexing or slicing operation. Each element of
	// Indices is an expression, a [*SliceExpr] or an [*Ellipsis]; x[a, b]
	// has two indices.
	//
	//	x[0]  x[1:3]  x[::2]  x[:, 0]  x[..., 1]  x[None]
	IndexExpr struct {
		X       Expr
		Lbrack  Position
		Indices []Expr
		Rbrack  Position

		start Position // start of X, recorded by the parser (see Span)
	}

	// A SelectorExpr is an attribute or method of a value, as NumPy and
	// JAX arrays have them; a method call is a [*CallExpr] whose Fun is a
	// SelectorExpr.
	//
	//	x.shape  x.T  x.astype(f16)  arange(12).reshape(3, 4).T
	SelectorExpr struct {
		X   Expr
		Dot Position // position of '.'
		Sel *Ident

		start Position // start of X, recorded by the parser (see Span)
	}

	// A SliceExpr is lo:hi:step inside an index; each part is optional
	// (nil when omitted).
	//
	//	1:3  :  ::2  1:
	SliceExpr struct {
		Lo     Expr
		Colon  Position // position of the first ':'
		Hi     Expr
		Colon2 Position // position of the second ':', if any (else zero)
		Step   Expr
	}
)

// A Keyword is a keyword argument of a call: axis=-1. It is a Node but
// not an Expr.
type Keyword struct {
	Name  *Ident
	EqPos Position // position of '='
	Value Expr
}

func (*Ident) exprNode()        {}
func (*BasicLit) exprNode()     {}
func (*Ellipsis) exprNode()     {}
func (*ListExpr) exprNode()     {}
func (*TupleExpr) exprNode()    {}
func (*ParenExpr) exprNode()    {}
func (*UnaryExpr) exprNode()    {}
func (*BinaryExpr) exprNode()   {}
func (*CallExpr) exprNode()     {}
func (*IndexExpr) exprNode()    {}
func (*SelectorExpr) exprNode() {}
func (*SliceExpr) exprNode()    {}

// Span returns the extent of the name.
func (x *Ident) Span() (start, end Position) { return x.NamePos, x.NamePos.add(x.Name) }

// Span returns the extent of the literal.
func (x *BasicLit) Span() (start, end Position) { return x.ValuePos, x.ValuePos.add(x.Raw) }

// Span returns the extent of the '...'.
func (x *Ellipsis) Span() (start, end Position) { return x.Pos, x.Pos.add("...") }

// Span returns the extent from '[' to ']'.
func (x *ListExpr) Span() (start, end Position) { return x.Lbrack, x.Rbrack.add("]") }

// Span returns the extent from '(' to ')'.
func (x *TupleExpr) Span() (start, end Position) { return x.Lparen, x.Rparen.add(")") }

// Span returns the extent from '(' to ')'.
func (x *ParenExpr) Span() (start, end Position) { return x.Lparen, x.Rparen.add(")") }

// Span returns the extent from the operator to the end of the operand.
func (x *UnaryExpr) Span() (start, end Position) {
	_, end = x.X.Span()
	return x.OpPos, end
}

// Span returns the extent from the left operand to the right one.
//
// Left operands nest without bound (1 + 1 + … is a left-leaning tree as
// deep as the line is long), so the parser records where X starts: Span
// then takes constant time on parsed trees instead of walking down the
// left spine, and compiling an n-term line stays linear in n.
func (x *BinaryExpr) Span() (start, end Position) {
	start = x.start
	if !start.IsValid() {
		start, _ = x.X.Span()
	}
	_, end = x.Y.Span()
	return start, end
}

// Span returns the extent from the callee to ')'.
func (x *CallExpr) Span() (start, end Position) {
	start = x.start
	if !start.IsValid() {
		start, _ = x.Fun.Span()
	}
	return start, x.Rparen.add(")")
}

// Span returns the extent from the indexed expression to ']'.
//
// Like BinaryExpr, an index chain x[0][0]… nests to the left without bound:
// the parser records where X starts.
func (x *IndexExpr) Span() (start, end Position) {
	start = x.start
	if !start.IsValid() {
		start, _ = x.X.Span()
	}
	return start, x.Rbrack.add("]")
}

// Span returns the extent from the selected expression to the name.
//
// Like BinaryExpr, a chain x.T.T… nests to the left without bound: the
// parser records where X starts.
func (x *SelectorExpr) Span() (start, end Position) {
	start = x.start
	if !start.IsValid() {
		start, _ = x.X.Span()
	}
	_, end = x.Sel.Span()
	return start, end
}

// Span returns the extent from the first part present to the last.
func (x *SliceExpr) Span() (start, end Position) {
	start = x.Colon
	if x.Lo != nil {
		start, _ = x.Lo.Span()
	}
	switch {
	case x.Step != nil:
		_, end = x.Step.Span()
	case x.Colon2.IsValid():
		end = x.Colon2.add(":")
	case x.Hi != nil:
		_, end = x.Hi.Span()
	default:
		end = x.Colon.add(":")
	}
	return start, end
}

// Span returns the extent from the name to the end of the value.
func (k *Keyword) Span() (start, end Position) {
	start, _ = k.Name.Span()
	_, end = k.Value.Span()
	return start, end
}

// Unparen returns x with any enclosing parentheses removed.
func Unparen(x Expr) Expr {
	for {
		p, ok := x.(*ParenExpr)
		if !ok {
			return x
		}
		x = p.X
	}
}

// BigInt returns the value of an INT literal, which may have any size.
func (x *BasicLit) BigInt() (*big.Int, error) {
	if x.Kind != INT {
		return nil, fmt.Errorf("%s is not an integer literal", x.Raw)
	}
	if v, ok := smallDecimal(x.Raw); ok {
		return new(big.Int).SetInt64(v), nil
	}
	s := strings.ReplaceAll(x.Raw, "_", "")
	base := 10
	if len(s) > 2 && s[0] == '0' {
		switch s[1] | 0x20 {
		case 'x':
			base = 16
		case 'o':
			base = 8
		case 'b':
			base = 2
		}
		if base != 10 {
			s = s[2:]
		}
	}
	z, ok := new(big.Int).SetString(s, base)
	if !ok {
		return nil, fmt.Errorf("malformed integer literal %s", x.Raw)
	}
	return z, nil
}

// smallDecimal returns the value of s when it is up to 18 decimal digits
// (no sign, no underscores), which an int64 always holds: the literals of
// nearly every statement, read without big.Int's general parser.
func smallDecimal(s string) (int64, bool) {
	if len(s) == 0 || len(s) > 18 {
		return 0, false
	}
	var v int64
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + int64(c-'0')
	}
	return v, true
}

// Float returns the value of a FLOAT literal, or the imaginary part of an
// IMAG literal, rounded to the nearest float64 as Python does. A value too
// large for float64 is ±Inf with a nil error (Python's 1e400 is inf).
func (x *BasicLit) Float() (float64, error) {
	s := x.Raw
	switch x.Kind {
	case FLOAT:
	case IMAG:
		s = s[:len(s)-1]
	default:
		return 0, fmt.Errorf("%s is not a float literal", x.Raw)
	}
	s = strings.ReplaceAll(s, "_", "")
	if strings.ContainsAny(s, "xXpPnN") { // hex floats, inf, nan: not literals
		return 0, fmt.Errorf("malformed float literal %s", x.Raw)
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil && !(math.IsInf(f, 0) && errors.Is(err, strconv.ErrRange)) {
		return 0, fmt.Errorf("malformed float literal %s", x.Raw)
	}
	return f, nil
}

// Imag returns the imaginary part of an IMAG literal (2.0 for 2j).
func (x *BasicLit) Imag() (float64, error) {
	if x.Kind != IMAG {
		return 0, fmt.Errorf("%s is not an imaginary literal", x.Raw)
	}
	return x.Float()
}

// Str returns the decoded value of a STRING literal.
func (x *BasicLit) Str() (string, error) {
	if x.Kind != STRING {
		return "", fmt.Errorf("%s is not a string literal", x.Raw)
	}
	v, _, msg := unquote(x.Raw)
	if msg != "" {
		return "", fmt.Errorf("%s", msg)
	}
	return v, nil
}
