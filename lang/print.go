package lang

import "strings"

// Format returns the canonical source text of a node: operators spaced
// (1 + 2), no redundant parentheses, canonical separators, literals as
// written, statements of a File on separate lines (no final newline). The
// parentheses it prints are exactly those precedence requires, so
// (1+2)*3 prints as (1 + 2) * 3, ((x)) as x, -2**2 as -2 ** 2 and
// (-2)**2 as (-2) ** 2. Parsing the result gives the same tree, except
// for ParenExpr nodes, which Format drops or adds as needed. A nil node
// prints as "".
func Format(n Node) string {
	var p printer
	p.node(n)
	return p.String()
}

type printer struct{ strings.Builder }

func (p *printer) node(n Node) {
	switch n := n.(type) {
	case nil:
	case *File:
		for i, s := range n.Stmts {
			if i > 0 {
				p.WriteByte('\n')
			}
			p.node(s)
		}
	case *AssignStmt:
		p.expr(n.LHS, precNone)
		p.WriteString(" = ")
		p.expr(n.RHS, precNone)
	case *ExprStmt:
		p.expr(n.X, precNone)
	case *Directive:
		p.WriteString(":" + n.Name)
		if n.Arg != "" {
			p.WriteString(" " + n.Arg)
		}
	case *Keyword:
		p.expr(n.Name, precNone)
		p.WriteByte('=')
		p.expr(n.Value, precNone)
	case Expr:
		p.expr(n, precNone)
	}
}

// exprPrec returns the precedence of x as an operand: the loosest
// operator at its top, looking through parentheses.
func exprPrec(x Expr) int {
	switch x := x.(type) {
	case *ParenExpr:
		return exprPrec(Unparen(x))
	case *BinaryExpr:
		return binaryPrec(x.Op)
	case *UnaryExpr:
		if x.Op == NOT {
			return precNot
		}
		return precUnary
	}
	return precPrimary
}

// expr prints x, in parentheses if its precedence is below minPrec.
func (p *printer) expr(x Expr, minPrec int) {
	x = Unparen(x)
	if x == nil {
		return
	}
	if exprPrec(x) < minPrec {
		p.WriteByte('(')
		defer p.WriteByte(')')
	}
	switch x := x.(type) {
	case *Ident:
		p.WriteString(x.Name)
	case *BasicLit:
		p.WriteString(x.Raw)
	case *Ellipsis:
		p.WriteString("...")
	case *ListExpr:
		p.WriteByte('[')
		p.exprs(x.Elems)
		p.WriteByte(']')
	case *TupleExpr:
		p.WriteByte('(')
		p.exprs(x.Elems)
		if len(x.Elems) == 1 {
			p.WriteByte(',')
		}
		p.WriteByte(')')
	case *UnaryExpr:
		p.WriteString(x.Op.String())
		if x.Op == NOT {
			p.WriteByte(' ')
			p.expr(x.X, precNot)
		} else {
			p.expr(x.X, precUnary)
		}
	case *BinaryExpr:
		prec := binaryPrec(x.Op)
		left, right := prec, prec+1 // left-associative
		switch {
		case x.Op == STARSTAR: // right-associative; the right side is a unary
			left, right = precPrimary, precUnary
		case prec == precCmp: // comparisons do not chain
			left, right = precCmp+1, precCmp+1
		}
		p.expr(x.X, left)
		p.WriteString(" " + x.Op.String() + " ")
		p.expr(x.Y, right)
	case *CallExpr:
		p.expr(x.Fun, precPrimary)
		p.WriteByte('(')
		p.exprs(x.Args)
		for i, k := range x.Keywords {
			if i > 0 || len(x.Args) > 0 {
				p.WriteString(", ")
			}
			p.node(k)
		}
		p.WriteByte(')')
	case *IndexExpr:
		p.expr(x.X, precPrimary)
		p.WriteByte('[')
		p.exprs(x.Indices)
		p.WriteByte(']')
	case *SelectorExpr:
		// A number before '.' would take it as its decimal point (1.T):
		// Python writes (1).real, and so does Format.
		if lit, ok := Unparen(x.X).(*BasicLit); ok && lit.Kind != STRING {
			p.WriteByte('(')
			p.expr(x.X, precNone)
			p.WriteByte(')')
		} else {
			p.expr(x.X, precPrimary)
		}
		p.WriteString("." + x.Sel.Name)
	case *SliceExpr:
		p.expr(x.Lo, precNone)
		p.WriteByte(':')
		p.expr(x.Hi, precNone)
		if x.Step != nil {
			p.WriteByte(':')
			p.expr(x.Step, precNone)
		}
	}
}

func (p *printer) exprs(list []Expr) {
	for i, x := range list {
		if i > 0 {
			p.WriteString(", ")
		}
		p.expr(x, precNone)
	}
}
