package lang

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// dump returns a one-line tree dump of n, such as (Binary + x (Binary * y z)).
func dump(n Node) string {
	var b strings.Builder
	var d func(n Node)
	list := func(head string, xs []Expr) {
		b.WriteString("(" + head)
		for _, x := range xs {
			b.WriteByte(' ')
			d(x)
		}
		b.WriteByte(')')
	}
	d = func(n Node) {
		switch n := n.(type) {
		case nil:
			b.WriteString("_")
		case *File:
			for i, s := range n.Stmts {
				if i > 0 {
					b.WriteByte(' ')
				}
				d(s)
			}
		case *AssignStmt:
			fmt.Fprintf(&b, "(Assign %s ", n.LHS.Name)
			d(n.RHS)
			b.WriteByte(')')
		case *ExprStmt:
			d(n.X)
		case *Directive:
			fmt.Fprintf(&b, "(Directive %s %q)", n.Name, n.Arg)
		case *Ident:
			b.WriteString(n.Name)
		case *BasicLit:
			b.WriteString(n.Raw)
		case *Ellipsis:
			b.WriteString("...")
		case *ListExpr:
			list("List", n.Elems)
		case *TupleExpr:
			list("Tuple", n.Elems)
		case *ParenExpr:
			b.WriteString("(Paren ")
			d(n.X)
			b.WriteByte(')')
		case *UnaryExpr:
			fmt.Fprintf(&b, "(Unary %s ", n.Op)
			d(n.X)
			b.WriteByte(')')
		case *BinaryExpr:
			fmt.Fprintf(&b, "(Binary %s ", n.Op)
			d(n.X)
			b.WriteByte(' ')
			d(n.Y)
			b.WriteByte(')')
		case *CallExpr:
			b.WriteString("(Call ")
			d(n.Fun)
			for _, x := range n.Args {
				b.WriteByte(' ')
				d(x)
			}
			for _, k := range n.Keywords {
				b.WriteByte(' ')
				d(k)
			}
			b.WriteByte(')')
		case *Keyword:
			fmt.Fprintf(&b, "(Kw %s ", n.Name.Name)
			d(n.Value)
			b.WriteByte(')')
		case *IndexExpr:
			b.WriteString("(Index ")
			d(n.X)
			for _, x := range n.Indices {
				b.WriteByte(' ')
				d(x)
			}
			b.WriteByte(')')
		case *SelectorExpr:
			b.WriteString("(Sel ")
			d(n.X)
			b.WriteString(" " + n.Sel.Name + ")")
		case *SliceExpr:
			b.WriteString("(Slice ")
			d(n.Lo)
			b.WriteByte(' ')
			d(n.Hi)
			b.WriteByte(' ')
			d(n.Step)
			b.WriteByte(')')
		default:
			fmt.Fprintf(&b, "<%T>", n)
		}
	}
	d(n)
	return b.String()
}

var parseTests = []struct{ src, want string }{
	// Attributes and methods, as NumPy's and JAX's arrays have them
	// (Python's grammar: primary "." NAME, binding tighter than any
	// operator; https://docs.python.org/3/reference/expressions.html#attribute-references).
	{`x.shape`, `(Sel x shape)`},
	{`x . T`, `(Sel x T)`},
	{`x.astype(f16)`, `(Call (Sel x astype) f16)`},
	{`x.sum(axis=0)`, `(Call (Sel x sum) (Kw axis 0))`},
	{`arange(12).reshape((3, 4)).T.shape`, `(Sel (Sel (Call (Sel (Call arange 12) reshape) (Tuple 3 4)) T) shape)`},
	{`-x.T ** 2`, `(Unary - (Binary ** (Sel x T) 2))`},
	{`x.T[0].shape`, `(Sel (Index (Sel x T) 0) shape)`},
	{`(1).real`, `(Sel (Paren 1) real)`},
	{`f32?.x`, `(Sel f32? x)`},
	{"(x.\n  T)", `(Paren (Sel x T))`},
	{``, ``},
	{"\n;;\n  ; # c\n", ``},
	{`x`, `x`},
	{`x = 1`, `(Assign x 1)`},
	{"\uFEFFx = 1", `(Assign x 1)`},
	{`x = 1; y = x`, `(Assign x 1) (Assign y x)`},
	{"x = 1\ny = 2\n\nx + y\n", `(Assign x 1) (Assign y 2) (Binary + x y)`},
	{`1 + 2 * 3`, `(Binary + 1 (Binary * 2 3))`},
	{`(1 + 2) * 3`, `(Binary * (Paren (Binary + 1 2)) 3)`},
	{`1 - 2 - 3`, `(Binary - (Binary - 1 2) 3)`},
	{`a / b // c % d @ e * f`, `(Binary * (Binary @ (Binary % (Binary // (Binary / a b) c) d) e) f)`},
	{`2 ** 3 ** 4`, `(Binary ** 2 (Binary ** 3 4))`},
	{`-2 ** 2`, `(Unary - (Binary ** 2 2))`},
	{`(-2) ** 2`, `(Binary ** (Paren (Unary - 2)) 2)`},
	{`2 ** -1`, `(Binary ** 2 (Unary - 1))`},
	{`2 ** -x ** 2`, `(Binary ** 2 (Unary - (Binary ** x 2)))`},
	{`-x[0]`, `(Unary - (Index x 0))`},
	{`- + ~x`, `(Unary - (Unary + (Unary ~ x)))`},
	{`--2`, `(Unary - (Unary - 2))`},
	{`a | b ^ c & d << e + f`, `(Binary | a (Binary ^ b (Binary & c (Binary << d (Binary + e f)))))`},
	{`a >> b << c`, `(Binary << (Binary >> a b) c)`},
	{`a + b == c | d`, `(Binary == (Binary + a b) (Binary | c d))`},
	{`a < b`, `(Binary < a b)`},
	{`(a < b) < c`, `(Binary < (Paren (Binary < a b)) c)`},
	{`a < (b < c)`, `(Binary < a (Paren (Binary < b c)))`},
	{`a == b != c or d`, `error`}, // chain
	{`not a == b`, `(Unary not (Binary == a b))`},
	{`not not x`, `(Unary not (Unary not x))`},
	{`a or b and not c`, `(Binary or a (Binary and b (Unary not c)))`},
	{`a and b or c and d`, `(Binary or (Binary and a b) (Binary and c d))`},
	{`a or b or c`, `(Binary or (Binary or a b) c)`},
	{`true and false`, `(Binary and true false)`},
	// Literals.
	{`[1, 2]`, `(List 1 2)`},
	{`[[1, 2], [3, 4],]`, `(List (List 1 2) (List 3 4))`},
	{`[]`, `(List)`},
	{`[x]`, `(List x)`},
	{`(3, 1)`, `(Tuple 3 1)`},
	{`(4,)`, `(Tuple 4)`},
	{`()`, `(Tuple)`},
	{`(4)`, `(Paren 4)`},
	{`((4))`, `(Paren (Paren 4))`},
	{`((), ((),))`, `(Tuple (Tuple) (Tuple (Tuple)))`},
	{`"a" + 'b'`, `(Binary + "a" 'b')`},
	{`1 + 2j`, `(Binary + 1 2j)`},
	{`0x_ff + 1e-3 + .5 + 1.`, `(Binary + (Binary + (Binary + 0x_ff 1e-3) .5) 1.)`},
	{`18446744073709551615`, `18446744073709551615`},
	{`inf, nan`, `error`},
	{`...`, `...`},
	{`None`, `None`},
	// Names.
	{`promote(i16, f32?)`, `(Call promote i16 f32?)`},
	{`f32? == f32`, `(Binary == f32? f32)`},
	{`i16([1, 2, 3]) + 1.5`, `(Binary + (Call i16 (List 1 2 3)) 1.5)`},
	// Calls.
	{`f()`, `(Call f)`},
	{`f(a, b, axis=-1, keepdims=true)`, `(Call f a b (Kw axis (Unary - 1)) (Kw keepdims true))`},
	{`f(a,)`, `(Call f a)`},
	{`f(x=1,)`, `(Call f (Kw x 1))`},
	{`f(a == b)`, `(Call f (Binary == a b))`},
	{`f(a)(b)`, `(Call (Call f a) b)`},
	{`(f)(x)`, `(Call (Paren f) x)`},
	{`f(x)[0]`, `(Index (Call f x) 0)`},
	{"sum(x,\n    axis=0,\n)", `(Call sum x (Kw axis 0))`},
	// Indexing.
	{`x[0]`, `(Index x 0)`},
	{`x[-1]`, `(Index x (Unary - 1))`},
	{`x[1:3]`, `(Index x (Slice 1 3 _))`},
	{`x[::2]`, `(Index x (Slice _ _ 2))`},
	{`x[:]`, `(Index x (Slice _ _ _))`},
	{`x[::]`, `(Index x (Slice _ _ _))`},
	{`x[1:]`, `(Index x (Slice 1 _ _))`},
	{`x[:2]`, `(Index x (Slice _ 2 _))`},
	{`x[1:2:3]`, `(Index x (Slice 1 2 3))`},
	{`x[1::3]`, `(Index x (Slice 1 _ 3))`},
	{`x[:, 0]`, `(Index x (Slice _ _ _) 0)`},
	{`x[..., 1]`, `(Index x ... 1)`},
	{`x[None]`, `(Index x None)`},
	{`x[0,]`, `(Index x 0)`},
	{`x[(1, 2)]`, `(Index x (Tuple 1 2))`},
	{`x[i + 1 : n - 1, ::-1]`, `(Index x (Slice (Binary + i 1) (Binary - n 1) _) (Slice _ _ (Unary - 1)))`},
	{`x[0][1]`, `(Index (Index x 0) 1)`},
	// Directives.
	{`:policy numpy`, `(Directive policy "numpy")`},
	{":policy numpy\nx = 1\n:time sum(x)", `(Directive policy "numpy") (Assign x 1) (Directive time "sum(x)")`},
	{`:help`, `(Directive help "")`},
	{`:policy load my.go`, `(Directive policy "load my.go")`},
	{`%policy jax`, `(Directive policy "jax")`},
	{"  :reset  ", `(Directive reset "")`},
	// Line joining.
	{"x = (1 +\n 2)", `(Assign x (Paren (Binary + 1 2)))`},
	{"x = 1 +\n 2", `(Assign x (Binary + 1 2))`},
	{"x =\n 2", `(Assign x 2)`},
	{"[1,\n 2]\n3", `(List 1 2) 3`},
}

func TestParse(t *testing.T) {
	for _, tt := range parseTests {
		f, err := Parse("x.tsh", tt.src)
		got := ""
		if err != nil {
			got = "error"
		} else {
			got = dump(f)
		}
		if got != tt.want {
			t.Errorf("Parse(%q) = %s (err %v)\nwant %s", tt.src, got, err, tt.want)
		}
	}
}

var formatTests = []struct{ src, want string }{
	{`1+2*3`, `1 + 2 * 3`},
	{`(1+2)*3`, `(1 + 2) * 3`},
	{`((x))`, `x`},
	{`-2**2`, `-2 ** 2`},
	{`(-2)**2`, `(-2) ** 2`},
	{`-(2**2)`, `-2 ** 2`},
	{`2**-1`, `2 ** -1`},
	{`(2**3)**4`, `(2 ** 3) ** 4`},
	{`2**(3**4)`, `2 ** 3 ** 4`},
	{`2**(-1)`, `2 ** -1`},
	{`(a*b)**c`, `(a * b) ** c`},
	{`a**(b*c)`, `a ** (b * c)`},
	{`1-(2-3)`, `1 - (2 - 3)`},
	{`(1-2)-3`, `1 - 2 - 3`},
	{`a/(b*c)`, `a / (b * c)`},
	{`-(-x)`, `--x`},
	{`-(a+b)`, `-(a + b)`},
	{`(-a)+b`, `-a + b`},
	{`~(a&b)`, `~(a & b)`},
	{`(a<b)<c`, `(a < b) < c`},
	{`a<(b<c)`, `a < (b < c)`},
	{`(a+b)<c`, `a + b < c`},
	{`not(a==b)`, `not a == b`},
	{`(not a)==b`, `(not a) == b`},
	{`-(not a)`, `-(not a)`},
	{`not(a and b)`, `not (a and b)`},
	{`(not a) and b`, `not a and b`},
	{`a or (b or c)`, `a or (b or c)`},
	{`(a or b) and c`, `(a or b) and c`},
	{`a | (b ^ c)`, `a | b ^ c`},
	{`(a | b) ^ c`, `(a | b) ^ c`},
	{`(a+b)(c)`, `(a + b)(c)`},
	{`x .shape`, `x.shape`},
	{`(x).T`, `x.T`},
	{`(-x).T`, `(-x).T`},
	{`(x + y).sum( axis = 0 )`, `(x + y).sum(axis=0)`},
	{`(1).real`, `(1).real`},
	{`(1.5).real`, `(1.5).real`},
	{`"a".upper`, `"a".upper`},
	{`x.T.T[0].shape`, `x.T.T[0].shape`},
	{`-(x.T)`, `-x.T`},
	{`(x ** 2).T`, `(x ** 2).T`},
	{`(-x)[0]`, `(-x)[0]`},
	{`(x)[0]`, `x[0]`},
	{`(f)(x)`, `f(x)`},
	{`f( a,b , axis = -1,keepdims=true, )`, `f(a, b, axis=-1, keepdims=true)`},
	{`f(x=(1))`, `f(x=1)`},
	{`[1,2,]`, `[1, 2]`},
	{`( 4 , )`, `(4,)`},
	{`(3,1)`, `(3, 1)`},
	{`((1,2))`, `(1, 2)`},
	{`( )`, `()`},
	{`x[ 1 : 3 , :: 2 , ... ]`, `x[1:3, ::2, ...]`},
	{`x[::]`, `x[:]`},
	{`x[(1):(2)]`, `x[1:2]`},
	{`x[1,]`, `x[1]`},
	{`x=1;y=2`, "x = 1\ny = 2"},
	{"  :policy   numpy  \n:vars", ":policy numpy\n:vars"},
	{`%policy jax`, `:policy jax`},
	{`0X_FF+1E+3+.5j`, `0X_FF + 1E+3 + .5j`},
	{`"a\n"+'b'`, `"a\n" + 'b'`},
	{`promote(i16,f32?)`, `promote(i16, f32?)`},
	{"x = [1,\n  2]  # comment", `x = [1, 2]`},
}

func TestFormat(t *testing.T) {
	for _, tt := range formatTests {
		f, err := Parse("x.tsh", tt.src)
		if err != nil {
			t.Errorf("Parse(%q): %v", tt.src, err)
			continue
		}
		got := Format(f)
		if got != tt.want {
			t.Errorf("Format(Parse(%q)) = %q, want %q", tt.src, got, tt.want)
		}
		checkRoundTrip(t, tt.src)
	}
	if got := Format(nil); got != "" {
		t.Errorf("Format(nil) = %q", got)
	}
}

// checkRoundTrip checks that the formatted text parses to a tree that
// formats the same (and that has no redundant ParenExpr).
func checkRoundTrip(t *testing.T, src string) {
	t.Helper()
	f, err := Parse("x.tsh", src)
	if err != nil {
		return
	}
	out := Format(f)
	g, err := Parse("x.tsh", out)
	if err != nil {
		t.Errorf("Format(Parse(%q)) = %q does not parse: %v", src, out, err)
		return
	}
	if out2 := Format(g); out2 != out {
		t.Errorf("round trip of %q: %q, then %q", src, out, out2)
	}
	if d1, d2 := dump(stripParens(f)), dump(stripParens(g)); d1 != d2 {
		t.Errorf("round trip of %q changes the tree:\n%s\n%s", src, d1, d2)
	}
}

// stripParens removes the ParenExpr nodes of a tree, in place.
func stripParens(f *File) *File {
	strip := Unparen
	Walk(f, func(n Node) bool {
		switch n := n.(type) {
		case *AssignStmt:
			n.RHS = strip(n.RHS)
		case *ExprStmt:
			n.X = strip(n.X)
		case *Keyword:
			n.Value = strip(n.Value)
		case *ListExpr:
			for i := range n.Elems {
				n.Elems[i] = strip(n.Elems[i])
			}
		case *TupleExpr:
			for i := range n.Elems {
				n.Elems[i] = strip(n.Elems[i])
			}
		case *UnaryExpr:
			n.X = strip(n.X)
		case *BinaryExpr:
			n.X, n.Y = strip(n.X), strip(n.Y)
		case *CallExpr:
			n.Fun = strip(n.Fun)
			for i := range n.Args {
				n.Args[i] = strip(n.Args[i])
			}
		case *IndexExpr:
			n.X = strip(n.X)
			for i := range n.Indices {
				n.Indices[i] = strip(n.Indices[i])
			}
		case *SelectorExpr:
			n.X = strip(n.X)
		case *SliceExpr:
			if n.Lo != nil {
				n.Lo = strip(n.Lo)
			}
			if n.Hi != nil {
				n.Hi = strip(n.Hi)
			}
			if n.Step != nil {
				n.Step = strip(n.Step)
			}
		}
		return true
	})
	return f
}

// errorTests lists invalid inputs with the whole error message. Inputs
// that are incomplete rather than invalid are in incompleteTests.
var errorTests = []struct{ src, want string }{
	{`x.`, `x.tsh:1:3: expected an attribute name after '.', found end of input`},
	{`x.1`, `x.tsh:1:2: unexpected number .1`},
	{`x.and`, `x.tsh:1:3: expected an attribute name after '.', found 'and'`},
	{`x.T?`, `x.tsh:1:3: expected an attribute name after '.', found name T?`},
	{"x.\nshape", `x.tsh:1:3: expected an attribute name after '.', found newline`},
	{`x . 1`, `x.tsh:1:5: expected an attribute name after '.', found number 1`},
	{`x.shape = 1`, `x.tsh:1:1: cannot assign to x.shape: only a name can be assigned (did you mean '=='?)`},
	{`)`, `x.tsh:1:1: unexpected ')'`},
	{`]`, `x.tsh:1:1: unexpected ']'`},
	{`1 +* 2`, `x.tsh:1:4: expected expression after '+', found '*'`},
	{`1 + )`, `x.tsh:1:5: expected expression after '+', found ')'`},
	{`x = = 1`, `x.tsh:1:5: expected expression after '=', found '='`},
	{`1 + not x`, `x.tsh:1:5: expected expression after '+', found 'not' (put 'not ...' in parentheses here)`},
	{`f(not)`, `x.tsh:1:6: expected expression after 'not', found ')'`},
	{`x = 1 2`, `x.tsh:1:7: unexpected number 2`},
	{`f(1 2)`, `x.tsh:1:5: expected ',' or ')', found number 2`},
	{`[1 2]`, `x.tsh:1:4: expected ',' or ']', found number 2`},
	{`(1 2)`, `x.tsh:1:4: expected ')', found number 2`},
	{`(1, 2 3)`, `x.tsh:1:7: expected ',' or ')', found number 3`},
	{`(1]`, `x.tsh:1:3: expected ')', found ']'`},
	{`[1)`, `x.tsh:1:3: expected ',' or ']', found ')'`},
	{`f(,)`, `x.tsh:1:3: unexpected ','; write (a, b) for a tuple`},
	{`[1, , 2]`, `x.tsh:1:5: unexpected ','; write (a, b) for a tuple`},
	{`1, 2`, `x.tsh:1:2: unexpected ','; write (a, b) for a tuple`},
	{`x y`, `x.tsh:1:3: unexpected name y`},
	{`x "s"`, `x.tsh:1:3: unexpected string "s"`},
	{`x "abcdefghijklmnopqrstuvwxyz"`, `x.tsh:1:3: unexpected string "abcdefghijklmnop...`},
	{"x '''a\nb'''", `x.tsh:1:3: unexpected string '''a...`},
	{`a < b < c`, `x.tsh:1:7: chained comparisons such as a < b < c are not supported; write (a < b) and (b < c)`},
	{`a == b != c`, `x.tsh:1:8: chained comparisons such as a < b < c are not supported; write (a < b) and (b < c)`},
	{`a < b | c < d`, `x.tsh:1:11: chained comparisons such as a < b < c are not supported; write (a < b) and (b < c)`},
	{`f(x) = 1`, `x.tsh:1:1: cannot assign to f(x): only a name can be assigned (did you mean '=='?)`},
	{`(x) = 1`, `x.tsh:1:1: cannot assign to x: only a name can be assigned (did you mean '=='?)`},
	{`x = y = 1`, `x.tsh:1:7: unexpected '='`},
	{`f32? = 1`, `x.tsh:1:1: cannot assign to f32?: a name ending in '?' is a weak dtype`},
	{`f(x=1, 2)`, `x.tsh:1:8: positional argument follows keyword argument`},
	{`f(x=1, 2`, `x.tsh:1:8: positional argument follows keyword argument`},
	{`f(x=1, x=2)`, `x.tsh:1:8: keyword argument x repeated`},
	{`f(1+1=2)`, `x.tsh:1:3: expected a name before '=' in keyword argument, found 1 + 1`},
	{`f(x?=2)`, `x.tsh:1:3: expected a name before '=' in keyword argument, found x?`},
	{`f(x=)`, `x.tsh:1:5: expected expression after '=', found ')'`},
	{`x[]`, `x.tsh:1:3: expected index expression before ']'`},
	{`x[1:2:3:4]`, `x.tsh:1:8: expected ',' or ']', found ':'`},
	{`[1:2]`, `x.tsh:1:3: expected ',' or ']', found ':'`},
	{`x; :policy jax`, `x.tsh:1:4: unexpected ':'`},
	{`x = :policy`, `x.tsh:1:5: expected expression after '=', found ':'`},
	{`*x`, `x.tsh:1:1: unexpected '*'`},
	{"x = 1\n  y = )", `x.tsh:2:7: expected expression after '=', found ')'`},
	{"\"\"\"\n\n\"\"\" + )", `x.tsh:3:7: expected expression after '+', found ')'`},
	{`é + 0o8`, `x.tsh:1:7: invalid digit '8' in octal literal`},
	{`x = 1 +` + "\n\n" + `)`, `x.tsh:3:1: expected expression after '+', found ')'`},
	{`'abc`, `x.tsh:1:1: unterminated string`},
	{"x = 'abc\n'", `x.tsh:1:5: unterminated string`},
	{`:`, `x.tsh:1:1: expected directive name after ':'`},
	{strings.Repeat("(", 600) + "1" + strings.Repeat(")", 600), `x.tsh:1:501: expression nested too deeply`},
	{strings.Repeat("-", 600) + "1", `x.tsh:1:501: expression nested too deeply`},
}

func TestErrors(t *testing.T) {
	for _, tt := range errorTests {
		_, err := Parse("x.tsh", tt.src)
		if err == nil {
			t.Errorf("Parse(%q) succeeded, want error %q", tt.src, tt.want)
			continue
		}
		if IsIncomplete(err) {
			t.Errorf("Parse(%q) = incomplete %q, want invalid", tt.src, err)
		}
		var e *Error
		if !errors.As(err, &e) {
			t.Errorf("Parse(%q) error is %T, want *Error", tt.src, err)
		}
		if got := err.Error(); got != tt.want {
			t.Errorf("Parse(%q):\n got %s\nwant %s", tt.src, got, tt.want)
		}
	}
}

func TestErrorNoFilename(t *testing.T) {
	_, err := Parse("", "1 +* 2")
	if got, want := err.Error(), "1:4: expected expression after '+', found '*'"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	_, err = Parse("", "f(1,")
	if got, want := err.Error(), "1:2: unexpected end of input: '(' was never closed"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// incompleteTests lists inputs that end inside an unfinished construct:
// the position and text of that construct, what is awaited, and the
// indentation Check suggests.
var incompleteTests = []struct{ src, pos, open, want, indent string }{
	{`f(x.`, "1:2", "(", "')'", "    "},
	{`f(1,`, "1:2", "(", "')'", "    "},
	{`f(1, 2`, "1:2", "(", "')'", "    "},
	{`f(x=1,`, "1:2", "(", "')'", "    "},
	{`[1, 2`, "1:1", "[", "']'", "    "},
	{`1 +`, "1:3", "+", "an expression", "    "},
	{`x =`, "1:3", "=", "an expression", "    "},
	{`x = -`, "1:5", "-", "an expression", "    "},
	{`a and`, "1:3", "and", "an expression", "    "},
	{`not`, "1:1", "not", "an expression", "    "},
	{`a <`, "1:3", "<", "an expression", "    "},
	{`2 **`, "1:3", "**", "an expression", "    "},
	{"x = 1 +  # more to come\n\n", "1:7", "+", "an expression", "    "},
	{`(`, "1:1", "(", "')'", "    "},
	{`x = (`, "1:5", "(", "')'", "    "},
	{`(1, 2`, "1:1", "(", "')'", "    "},
	{`(1`, "1:1", "(", "')'", "    "},
	{`f(x=`, "1:2", "(", "')'", "    "},
	{`x[1:`, "1:2", "[", "']'", "    "},
	{`x[1:2:`, "1:2", "[", "']'", "    "},
	{`x[1, [2,`, "1:6", "[", "']'", "        "},
	{"f([1,\n  [2,", "2:3", "[", "']'", "            "},
	{"x = 1\ny = [", "2:5", "[", "']'", "    "},
	{`"""abc`, "1:1", `"""`, `closing """`, ""},
	{`'''`, "1:1", `'''`, `closing '''`, ""},
	{"x = 1 \\", "1:7", `\`, "another line", ""},
	{"x = 1 \\\n", "1:7", `\`, "another line", ""},
	{"'abc\\", "1:1", `'`, `closing '`, ""},
}

func TestIncomplete(t *testing.T) {
	for _, tt := range incompleteTests {
		_, err := Parse("x.tsh", tt.src)
		var ie *IncompleteError
		if !errors.As(err, &ie) {
			t.Errorf("Parse(%q) = %v, want incomplete", tt.src, err)
			continue
		}
		if !IsIncomplete(err) || !errors.Is(err, ErrIncomplete) || !IsIncomplete(fmt.Errorf("wrapped: %w", err)) {
			t.Errorf("Parse(%q): IsIncomplete/errors.Is disagree", tt.src)
		}
		if ie.Pos.String() != tt.pos || ie.Open != tt.open || ie.Want != tt.want || ie.Filename != "x.tsh" {
			t.Errorf("Parse(%q) = {%s %q %q %q}, want {%s %q %q}", tt.src, ie.Pos, ie.Open, ie.Want, ie.Filename, tt.pos, tt.open, tt.want)
		}
		if st, indent := Check(tt.src); st != Incomplete || indent != tt.indent {
			t.Errorf("Check(%q) = %v, %q; want incomplete, %q", tt.src, st, indent, tt.indent)
		}
	}
}

func TestIncompleteMessages(t *testing.T) {
	tests := []struct{ src, want string }{
		{`f(1,`, `x.tsh:1:2: unexpected end of input: '(' was never closed`},
		{`[1, 2`, `x.tsh:1:1: unexpected end of input: '[' was never closed`},
		{`1 +`, `x.tsh:1:3: unexpected end of input: expected expression after '+'`},
		{`x =`, `x.tsh:1:3: unexpected end of input: expected expression after '='`},
		{`"""abc`, `x.tsh:1:1: unexpected end of input: unterminated triple-quoted string`},
		{`x = 1 \`, `x.tsh:1:7: unexpected end of input after line continuation`},
		{`'abc\`, `x.tsh:1:1: unexpected end of input: unterminated string`},
	}
	for _, tt := range tests {
		_, err := Parse("x.tsh", tt.src)
		if err == nil || err.Error() != tt.want {
			t.Errorf("Parse(%q) = %v, want %s", tt.src, err, tt.want)
		}
	}
}

func TestCheck(t *testing.T) {
	tests := []struct {
		src  string
		want Status
	}{
		{``, Complete},
		{"\n\n", Complete},
		{`# comment`, Complete},
		{`x = 1`, Complete},
		{"f(1,\n2)", Complete},
		{`:policy numpy`, Complete},
		{`:time f(1,`, Complete}, // a directive ends at the newline
		{`f(1,`, Incomplete},
		{`1 +* 2`, Invalid},
		{`)`, Invalid},
		{`f(1 2`, Invalid},
		{`a < b <`, Invalid},
		{`'abc`, Invalid},
		{`0o9 + (`, Invalid},
		{`f(x=1, 2`, Invalid},
		{`x = 1 2 (`, Invalid},
	}
	for _, tt := range tests {
		if got, indent := Check(tt.src); got != tt.want || (got != Incomplete && indent != "") {
			t.Errorf("Check(%q) = %v, %q; want %v", tt.src, got, indent, tt.want)
		}
	}
	for s, want := range map[Status]string{Complete: "complete", Incomplete: "incomplete", Invalid: "invalid", Status(9): "Status(9)"} {
		if got := s.String(); got != want {
			t.Errorf("Status(%d).String() = %q, want %q", int(s), got, want)
		}
	}
}

func TestByteOrderMark(t *testing.T) {
	f, err := Parse("", "\uFEFFx = 1")
	if err != nil {
		t.Fatal(err)
	}
	if got := f.Stmts[0].(*AssignStmt).LHS.NamePos; got != (Position{Offset: 3, Line: 1, Col: 1}) {
		t.Errorf("x at %+v, want offset 3, 1:1", got)
	}
}

func TestParseExpr(t *testing.T) {
	tests := []struct{ src, want string }{
		{`1 + 2`, `(Binary + 1 2)`},
		{"  \n x[0]  # c\n\n", `(Index x 0)`},
		{`x = 1`, `error 1:3: unexpected '='`},
		{`:policy x`, `error 1:1: unexpected ':'`},
		{`1; 2`, `error 1:2: unexpected ';'`},
		{"1\n2", `error 2:1: unexpected number 2`},
		{``, `error 1:1: expected expression, found end of input`},
		{`f(`, `incomplete 1:2: unexpected end of input: '(' was never closed`},
	}
	for _, tt := range tests {
		x, err := ParseExpr(tt.src)
		if err != nil && x != nil {
			t.Errorf("ParseExpr(%q) returned %T with an error", tt.src, x)
		}
		got := ""
		switch {
		case IsIncomplete(err):
			got = "incomplete " + err.Error()
		case err != nil:
			got = "error " + err.Error()
		default:
			got = dump(x)
		}
		if got != tt.want {
			t.Errorf("ParseExpr(%q) = %s, want %s", tt.src, got, tt.want)
		}
	}
}

// TestParseExprAt parses a directive's argument with positions that point
// into the line that holds it.
func TestParseExprAt(t *testing.T) {
	f, err := Parse("<stdin:3>", "x = 1\n  :time sum(x, axis=0)  ")
	if err != nil {
		t.Fatal(err)
	}
	d := f.Stmts[1].(*Directive)
	if d.Name != "time" || d.Arg != "sum(x, axis=0)" || d.Colon.String() != "2:3" || d.NamePos.String() != "2:4" || d.ArgPos.String() != "2:9" || d.ArgPos.Offset != 14 {
		t.Fatalf("directive = %+v", d)
	}
	x, err := ParseExprAt("<stdin:3>", d.Arg, d.ArgPos)
	if err != nil {
		t.Fatal(err)
	}
	call := x.(*CallExpr)
	if got := call.Keywords[0].Name.NamePos; got != (Position{Offset: 21, Line: 2, Col: 16}) {
		t.Errorf("axis at %+v, want offset 21, 2:16", got)
	}
	if _, end := call.Span(); end != (Position{Offset: 28, Line: 2, Col: 23}) {
		t.Errorf("call ends at %+v", end)
	}
	_, err = ParseExprAt("<stdin:3>", "sum(x +* 1)", d.ArgPos)
	if got, want := fmt.Sprint(err), "<stdin:3>:2:16: expected expression after '+', found '*'"; got != want {
		t.Errorf("error %q, want %q", got, want)
	}
}

// TestSpans checks the span of every node of a statement against the
// source text it covers.
func TestSpans(t *testing.T) {
	tests := []struct {
		src   string
		spans []string // the source text of each node, in Walk order (an ExprStmt, then its X)
	}{
		{`x = -a ** 2 + f(b, axis=1)[0, 1:2, ...]`, []string{
			`x = -a ** 2 + f(b, axis=1)[0, 1:2, ...]`, `x`,
			`-a ** 2 + f(b, axis=1)[0, 1:2, ...]`, `-a ** 2`, `a ** 2`, `a`, `2`,
			`f(b, axis=1)[0, 1:2, ...]`, `f(b, axis=1)`, `f`, `b`, `axis=1`, `axis`, `1`,
			`0`, `1:2`, `1`, `2`, `...`,
		}},
		{"(1,\n  [2, 'é'])", []string{"(1,\n  [2, 'é'])", "(1,\n  [2, 'é'])", `1`, `[2, 'é']`, `2`, `'é'`}},
		{`((a))`, []string{`((a))`, `((a))`, `(a)`, `a`}},
		{`x[:] + x[::2] + x[1:] + x[::]`, []string{
			`x[:] + x[::2] + x[1:] + x[::]`, `x[:] + x[::2] + x[1:] + x[::]`, `x[:] + x[::2] + x[1:]`, `x[:] + x[::2]`,
			`x[:]`, `x`, `:`, `x[::2]`, `x`, `::2`, `2`, `x[1:]`, `x`, `1:`, `1`, `x[::]`, `x`, `::`,
		}},
		{`not f32?`, []string{`not f32?`, `not f32?`, `f32?`}},
		{`a.reshape(3, 4).T`, []string{`a.reshape(3, 4).T`, `a.reshape(3, 4).T`, `a.reshape(3, 4)`, `a.reshape`, `a`, `reshape`, `3`, `4`, `T`}},
		{`"""a` + "\n" + `b""" + ()`, []string{"\"\"\"a\nb\"\"\" + ()", "\"\"\"a\nb\"\"\" + ()", "\"\"\"a\nb\"\"\"", `()`}},
		{`:policy  load my.go  `, []string{`:policy  load my.go`}},
		{`:vars  `, []string{`:vars`}},
	}
	for _, tt := range tests {
		f, err := Parse("", tt.src)
		if err != nil {
			t.Errorf("Parse(%q): %v", tt.src, err)
			continue
		}
		var got []string
		Walk(f.Stmts[0], func(n Node) bool {
			start, end := n.Span()
			if start != posOf(tt.src, start.Offset) || end != posOf(tt.src, end.Offset) {
				t.Errorf("%q: %T span %+v..%+v has inconsistent line/col", tt.src, n, start, end)
			}
			got = append(got, tt.src[start.Offset:end.Offset])
			return true
		})
		if strings.Join(got, "|") != strings.Join(tt.spans, "|") {
			t.Errorf("spans of %q:\n got %q\nwant %q", tt.src, got, tt.spans)
		}
	}
}

// posOf returns the Position of byte offset off in src. A leading byte
// order mark takes no column.
func posOf(src string, off int) Position {
	if bom := "\uFEFF"; strings.HasPrefix(src, bom) && off >= len(bom) {
		return Position{Offset: len(bom), Line: 1, Col: 1}.add(src[len(bom):off])
	}
	return Position{Line: 1, Col: 1}.add(src[:off])
}

// TestLongLeftChains checks that the parser records where every
// left-nesting node starts, so that Span takes constant time on them and a
// compiler that asks each node for its span stays linear in the length of
// the line (a 200 KB "1+1+…" line took minutes when Span walked down the
// left spine from every node).
func TestLongLeftChains(t *testing.T) {
	const n = 20000
	for _, src := range []string{
		strings.Repeat("1+", n) + "1",
		"x" + strings.Repeat("[0]", n),
		"f" + strings.Repeat("(1)", n),
		"x" + strings.Repeat(".T", n),
		strings.Repeat("a and ", n) + "b",
		strings.Repeat("a or ", n) + "b",
	} {
		f, err := Parse("", src)
		if err != nil {
			t.Fatalf("%.20s…: %v", src, err)
		}
		nodes := 0
		Walk(f, func(nd Node) bool {
			var rec Position
			switch x := nd.(type) {
			case *BinaryExpr:
				rec = x.start
			case *IndexExpr:
				rec = x.start
			case *CallExpr:
				rec = x.start
			case *SelectorExpr:
				rec = x.start
			default:
				return true
			}
			nodes++
			if start, _ := nd.Span(); !rec.IsValid() || rec != start || start.Offset != 0 {
				t.Fatalf("%.20s…: a %T records start %v, its span starts at %v", src, nd, rec, start)
			}
			return true
		})
		if nodes < n {
			t.Errorf("%.20s…: walked %d nested nodes, want at least %d", src, nodes, n)
		}
	}
}
