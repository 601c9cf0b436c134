package lang

// Walk traverses a syntax tree in depth-first order, children in source
// order. It calls f(n); if f returns true, Walk then walks each non-nil
// child of n. Unlike ast.Inspect it never calls f(nil).
func Walk(n Node, f func(Node) bool) {
	if n == nil || !f(n) {
		return
	}
	walk := func(n Node) {
		if n != nil {
			Walk(n, f)
		}
	}
	switch n := n.(type) {
	case *File:
		for _, s := range n.Stmts {
			walk(s)
		}
	case *AssignStmt:
		walk(n.LHS)
		walk(n.RHS)
	case *ExprStmt:
		walk(n.X)
	case *Keyword:
		walk(n.Name)
		walk(n.Value)
	case *ListExpr:
		walkExprs(n.Elems, f)
	case *TupleExpr:
		walkExprs(n.Elems, f)
	case *ParenExpr:
		walk(n.X)
	case *UnaryExpr:
		walk(n.X)
	case *BinaryExpr:
		walk(n.X)
		walk(n.Y)
	case *CallExpr:
		walk(n.Fun)
		walkExprs(n.Args, f)
		for _, k := range n.Keywords {
			walk(k)
		}
	case *IndexExpr:
		walk(n.X)
		walkExprs(n.Indices, f)
	case *SelectorExpr:
		walk(n.X)
		walk(n.Sel)
	case *SliceExpr:
		if n.Lo != nil {
			walk(n.Lo)
		}
		if n.Hi != nil {
			walk(n.Hi)
		}
		if n.Step != nil {
			walk(n.Step)
		}
	}
}

func walkExprs(list []Expr, f func(Node) bool) {
	for _, x := range list {
		if x != nil {
			Walk(x, f)
		}
	}
}
