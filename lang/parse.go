package lang

import (
	"fmt"
	"strings"
)

// maxDepth bounds the nesting of expressions, so that no input can
// exhaust the stack.
const maxDepth = 500

// Parse parses a tensorsh source text: statements separated by newlines
// or ';'. The filename is used only in error messages and may be empty.
//
// On a syntax error Parse returns a nil *File and an error that is either
// an [*Error] or, when the text ends inside an unfinished construct and
// more input could complete it, an [*IncompleteError] (see [IsIncomplete]).
func Parse(filename, src string) (f *File, err error) {
	p := &parser{sc: newScanner(filename, src, Position{}, true)}
	defer p.recover(&err)
	p.next()
	return p.parseFile(), nil
}

// ParseExpr parses a single expression, with positions starting at 1:1.
// Surrounding blanks, newlines and comments are allowed; directives and
// assignments are not.
func ParseExpr(src string) (Expr, error) { return ParseExprAt("", src, Position{}) }

// ParseExprAt is like [ParseExpr], but src is taken to start at position at
// of a larger text named filename, so that node positions and errors point
// into that text. It is meant for directive arguments: for a [*Directive]
// d, ParseExprAt(filename, d.Arg, d.ArgPos) parses the sum(x) of
// ":time sum(x)". The zero Position means 1:1. On error the Expr is nil.
func ParseExprAt(filename, src string, at Position) (x Expr, err error) {
	p := &parser{sc: newScanner(filename, src, at, false)}
	defer p.recover(&err)
	p.next()
	if p.tok.tok == EOF {
		p.errorf(p.tok.pos, "expected expression, found end of input")
	}
	e := p.parseTest()
	for p.tok.tok == NEWLINE {
		p.next()
	}
	if p.tok.tok != EOF {
		p.unexpected()
	}
	return e, nil
}

// A parser is a recursive-descent parser with one token of look-ahead.
type parser struct {
	sc    *scanner
	tok   token // the current token
	prev  token // the token before it
	depth int   // expression nesting
}

// recover turns a bailout into *err. Other panics are bugs and propagate.
func (p *parser) recover(err *error) {
	if r := recover(); r != nil {
		b, ok := r.(bailout)
		if !ok {
			panic(r)
		}
		*err = b.err
	}
}

// next advances to the next token.
func (p *parser) next() {
	p.prev = p.tok
	p.tok = p.sc.next()
}

// errorf stops parsing with a syntax error at pos.
func (p *parser) errorf(pos Position, format string, args ...any) {
	p.sc.errorf(pos, format, args...)
}

// incompleteAtEOF stops parsing with an IncompleteError describing what
// the end of the input left unfinished: the innermost open bracket, or
// else the operator (or '=') that wants an operand.
func (p *parser) incompleteAtEOF() {
	if n := len(p.sc.open); n > 0 {
		ob := p.sc.open[n-1]
		closer := "')'"
		if ob.tok == LBRACK {
			closer = "']'"
		}
		p.sc.incomplete(ob.pos, ob.tok.String(), closer)
	}
	if needsOperand(p.prev.tok) {
		p.sc.incomplete(p.prev.pos, p.prev.tok.String(), "an expression")
	}
	p.sc.incomplete(p.tok.pos, "", "more input")
}

// describe returns a description of t for error messages.
func describe(t token) string {
	switch t.tok {
	case IDENT:
		return fmt.Sprintf("name %s", t.raw)
	case INT, FLOAT, IMAG:
		return fmt.Sprintf("number %s", t.raw)
	case STRING:
		s := t.raw
		if i := strings.IndexByte(s, '\n'); i >= 0 {
			s = s[:i] + "..."
		}
		if n := runeCount(s); n > 20 {
			s = string([]rune(s)[:17]) + "..."
		}
		return "string " + s
	case DIRECTIVE:
		return "directive ':" + t.name + "'"
	}
	if t.tok.isOperator() {
		return "'" + t.tok.String() + "'"
	}
	return t.tok.String()
}

// unexpected stops parsing at the current token, which is out of place.
func (p *parser) unexpected() {
	switch p.tok.tok {
	case EOF:
		p.incompleteAtEOF()
	case COMMA:
		p.errorf(p.tok.pos, "unexpected ','; write (a, b) for a tuple")
	}
	p.errorf(p.tok.pos, "unexpected %s", describe(p.tok))
}

// expect consumes a token of kind tok and returns its position; what
// describes the tokens acceptable here, for the error message.
func (p *parser) expect(tok Token, what string) Position {
	if p.tok.tok != tok {
		if p.tok.tok == EOF {
			p.incompleteAtEOF()
		}
		p.errorf(p.tok.pos, "expected %s, found %s", what, describe(p.tok))
	}
	pos := p.tok.pos
	p.next()
	return pos
}

// enter and leave bracket a nested parse, bounding the depth.
func (p *parser) enter() {
	p.depth++
	if p.depth > maxDepth {
		p.errorf(p.tok.pos, "expression nested too deeply")
	}
}

func (p *parser) leave() { p.depth-- }

// parseFile parses
//
//	file = {[stmt] (NEWLINE | ';')} [stmt] EOF .
func (p *parser) parseFile() *File {
	f := &File{}
	for {
		switch p.tok.tok {
		case EOF:
			return f
		case NEWLINE, SEMI:
			p.next()
			continue
		}
		f.Stmts = append(f.Stmts, p.parseStmt())
		switch p.tok.tok {
		case EOF:
		case NEWLINE, SEMI:
			p.next()
		default:
			p.unexpected()
		}
	}
}

// parseStmt parses
//
//	stmt = directive | IDENT '=' test | test .
func (p *parser) parseStmt() Stmt {
	if t := p.tok; t.tok == DIRECTIVE {
		p.next()
		return &Directive{Colon: t.pos, Name: t.name, NamePos: t.namePos, Arg: t.arg, ArgPos: t.argPos}
	}
	x := p.parseTest()
	if p.tok.tok != EQ {
		return &ExprStmt{X: x}
	}
	id, ok := x.(*Ident)
	if !ok {
		start, _ := x.Span()
		p.errorf(start, "cannot assign to %s: only a name can be assigned (did you mean '=='?)", Format(x))
	}
	if isWeakName(id.Name) {
		p.errorf(id.NamePos, "cannot assign to %s: a name ending in '?' is a weak dtype", id.Name)
	}
	eq := p.tok.pos
	p.next()
	return &AssignStmt{LHS: id, EqPos: eq, RHS: p.parseTest()}
}

func isWeakName(name string) bool { return len(name) > 0 && name[len(name)-1] == '?' }

// parseTest parses
//
//	test     = or_expr .
//	or_expr  = and_expr {'or' and_expr} .
//	and_expr = not_expr {'and' not_expr} .
func (p *parser) parseTest() Expr {
	p.enter()
	defer p.leave()
	x := p.parseAnd()
	for p.tok.tok == OR {
		pos := p.tok.pos
		p.next()
		x = &BinaryExpr{X: x, OpPos: pos, Op: OR, Y: p.parseAnd(), start: startOf(x)}
	}
	return x
}

func (p *parser) parseAnd() Expr {
	x := p.parseNot()
	for p.tok.tok == AND {
		pos := p.tok.pos
		p.next()
		x = &BinaryExpr{X: x, OpPos: pos, Op: AND, Y: p.parseNot(), start: startOf(x)}
	}
	return x
}

// parseNot parses
//
//	not_expr = 'not' not_expr | comparison .
func (p *parser) parseNot() Expr {
	if p.tok.tok != NOT {
		return p.parseBinary(precCmp)
	}
	pos := p.tok.pos
	p.next()
	p.enter()
	defer p.leave()
	return &UnaryExpr{OpPos: pos, Op: NOT, X: p.parseNot()}
}

// parseBinary parses the left-associative binary operators whose
// precedence is at least minPrec, up to the multiplicative ones:
//
//	comparison = bitor [cmp_op bitor] .   (no chains)
//	bitor      = bitxor {'|' bitxor} .
//	bitxor     = bitand {'^' bitand} .
//	bitand     = shift {'&' shift} .
//	shift      = arith {('<<' | '>>') arith} .
//	arith      = term {('+' | '-') term} .
//	term       = unary {('*' | '@' | '/' | '//' | '%') unary} .
func (p *parser) parseBinary(minPrec int) Expr {
	x := p.parseUnary()
	for {
		op := p.tok
		prec := binaryPrec(op.tok)
		if prec < minPrec || prec > precMul {
			return x
		}
		p.next()
		y := p.parseBinary(prec + 1)
		if prec == precCmp && binaryPrec(p.tok.tok) == precCmp {
			p.errorf(p.tok.pos, "chained comparisons such as a < b < c are not supported; write (a < b) and (b < c)")
		}
		x = &BinaryExpr{X: x, OpPos: op.pos, Op: op.tok, Y: y, start: startOf(x)}
	}
}

// parseUnary parses
//
//	unary = ('+' | '-' | '~') unary | power .
//	power = primary ['**' unary] .
func (p *parser) parseUnary() Expr {
	switch p.tok.tok {
	case PLUS, MINUS, TILDE:
		op := p.tok
		p.next()
		p.enter()
		defer p.leave()
		return &UnaryExpr{OpPos: op.pos, Op: op.tok, X: p.parseUnary()}
	}
	x := p.parsePrimary()
	if p.tok.tok != STARSTAR {
		return x
	}
	pos := p.tok.pos
	p.next()
	p.enter()
	defer p.leave()
	return &BinaryExpr{X: x, OpPos: pos, Op: STARSTAR, Y: p.parseUnary(), start: startOf(x)}
}

// startOf returns where x starts. On the trees the parser builds it takes
// constant time: every left-nesting node records its start.
func startOf(x Expr) Position {
	start, _ := x.Span()
	return start
}

// parsePrimary parses
//
//	primary = operand {call_suffix | index_suffix | selector} .
//	selector = '.' IDENT .
func (p *parser) parsePrimary() Expr {
	x := p.parseOperand()
	for {
		switch p.tok.tok {
		case LPAREN:
			x = p.parseCall(x)
		case LBRACK:
			x = p.parseIndex(x)
		case DOT:
			x = p.parseSelector(x)
		default:
			return x
		}
	}
}

// parseOperand parses
//
//	operand = IDENT | INT | FLOAT | IMAG | STRING | '...' | list | '(' ')'
//	        | '(' test ')' | '(' test ',' [test {',' test} [',']] ')' .
//	list    = '[' [test {',' test} [',']] ']' .
func (p *parser) parseOperand() Expr {
	t := p.tok
	switch t.tok {
	case IDENT:
		p.next()
		return &Ident{NamePos: t.pos, Name: t.raw}
	case INT, FLOAT, IMAG, STRING:
		p.next()
		return &BasicLit{ValuePos: t.pos, Kind: t.tok, Raw: t.raw}
	case ELLIPSIS:
		p.next()
		return &Ellipsis{Pos: t.pos}
	case LBRACK:
		p.next()
		l := &ListExpr{Lbrack: t.pos}
		for p.tok.tok != RBRACK {
			l.Elems = append(l.Elems, p.parseTest())
			if p.tok.tok != COMMA {
				break
			}
			p.next()
		}
		l.Rbrack = p.expect(RBRACK, "',' or ']'")
		return l
	case LPAREN:
		p.next()
		if p.tok.tok == RPAREN {
			rp := p.tok.pos
			p.next()
			return &TupleExpr{Lparen: t.pos, Rparen: rp}
		}
		x := p.parseTest()
		if p.tok.tok != COMMA {
			return &ParenExpr{Lparen: t.pos, X: x, Rparen: p.expect(RPAREN, "')'")}
		}
		tup := &TupleExpr{Lparen: t.pos, Elems: []Expr{x}}
		for p.tok.tok == COMMA {
			p.next()
			if p.tok.tok == RPAREN {
				break
			}
			tup.Elems = append(tup.Elems, p.parseTest())
		}
		tup.Rparen = p.expect(RPAREN, "',' or ')'")
		return tup
	}
	p.expectedOperand()
	panic("unreachable")
}

// expectedOperand stops parsing where an operand was wanted.
func (p *parser) expectedOperand() {
	if p.tok.tok == EOF {
		p.incompleteAtEOF()
	}
	hint := ""
	if p.tok.tok == NOT {
		hint = " (put 'not ...' in parentheses here)"
	}
	if needsOperand(p.prev.tok) {
		p.errorf(p.tok.pos, "expected expression after '%s', found %s%s", p.prev.tok, describe(p.tok), hint)
	}
	if hint != "" {
		p.errorf(p.tok.pos, "unexpected 'not'%s", hint)
	}
	p.unexpected()
}

// parseSelector parses '.' IDENT after x. A dtype's weak name is not an
// attribute (x.T? is an error), and neither is a keyword.
func (p *parser) parseSelector(x Expr) Expr {
	dot := p.tok.pos
	p.next()
	t := p.tok
	if t.tok != IDENT || isWeakName(t.raw) {
		if t.tok == EOF && len(p.sc.open) > 0 {
			p.incompleteAtEOF()
		}
		p.errorf(t.pos, "expected an attribute name after '.', found %s", describe(t))
	}
	p.next()
	return &SelectorExpr{X: x, Dot: dot, Sel: &Ident{NamePos: t.pos, Name: t.raw}, start: startOf(x)}
}

// parseCall parses the arguments of a call:
//
//	call_suffix = '(' [arg {',' arg} [',']] ')' .
//	arg         = test | IDENT '=' test .
//
// Positional arguments come before keyword arguments.
func (p *parser) parseCall(fun Expr) Expr {
	call := &CallExpr{Fun: fun, Lparen: p.tok.pos, start: startOf(fun)}
	p.next()
	seen := map[string]bool{}
	for p.tok.tok != RPAREN {
		x := p.parseTest()
		if p.tok.tok == EQ {
			id, ok := x.(*Ident)
			if !ok || isWeakName(id.Name) {
				start, _ := x.Span()
				p.errorf(start, "expected a name before '=' in keyword argument, found %s", Format(x))
			}
			if seen[id.Name] {
				p.errorf(id.NamePos, "keyword argument %s repeated", id.Name)
			}
			seen[id.Name] = true
			eq := p.tok.pos
			p.next()
			call.Keywords = append(call.Keywords, &Keyword{Name: id, EqPos: eq, Value: p.parseTest()})
		} else {
			if len(call.Keywords) > 0 {
				start, _ := x.Span()
				p.errorf(start, "positional argument follows keyword argument")
			}
			call.Args = append(call.Args, x)
		}
		if p.tok.tok != COMMA {
			break
		}
		p.next()
	}
	call.Rparen = p.expect(RPAREN, "',' or ')'")
	return call
}

// parseIndex parses an index or slice:
//
//	index_suffix = '[' subscript {',' subscript} [','] ']' .
func (p *parser) parseIndex(x Expr) Expr {
	ix := &IndexExpr{X: x, Lbrack: p.tok.pos, start: startOf(x)}
	p.next()
	if p.tok.tok == RBRACK {
		p.errorf(p.tok.pos, "expected index expression before ']'")
	}
	for {
		ix.Indices = append(ix.Indices, p.parseSubscript())
		if p.tok.tok != COMMA {
			break
		}
		p.next()
		if p.tok.tok == RBRACK {
			break
		}
	}
	ix.Rbrack = p.expect(RBRACK, "',' or ']'")
	return ix
}

// parseSubscript parses
//
//	subscript = test | [test] ':' [test] [':' [test]] .
func (p *parser) parseSubscript() Expr {
	var lo Expr
	if p.tok.tok != COLON {
		lo = p.parseTest()
		if p.tok.tok != COLON {
			return lo
		}
	}
	s := &SliceExpr{Lo: lo, Colon: p.tok.pos}
	p.next()
	if t := p.tok.tok; t != COLON && t != COMMA && t != RBRACK {
		s.Hi = p.parseTest()
	}
	if p.tok.tok == COLON {
		s.Colon2 = p.tok.pos
		p.next()
		if t := p.tok.tok; t != COMMA && t != RBRACK {
			s.Step = p.parseTest()
		}
	}
	return s
}
