// Package lang holds the syntax of the tensorsh language: its tokens,
// scanner, syntax tree, parser and printer. It imports nothing of
// tensorsh; the evaluator gives the tree its meaning.
//
// # Overview
//
// [Parse] turns a source text into a [*File] of statements; [ParseExpr] and
// [ParseExprAt] parse one expression. Every node has a [Position] span
// (1-based line and column, 0-based byte offset). [Format] prints a node
// back as canonical source and [Walk] visits a tree.
//
// Syntax errors are [*Error] values that print as "file:line:col: msg".
// When the text ends inside an unfinished construct, the error is an
// [*IncompleteError] instead: a REPL or a Jupyter kernel asks for another
// line ([IsIncomplete], [Check]) rather than reporting it.
//
// # Lexical elements
//
// Statements are separated by newlines or ';'. A '#' starts a comment that
// runs to the end of the line. Newlines are ignored inside () and [], after
// a binary or unary operator or '=' (so "x = 1 +" continues on the next
// line), and after a '\' at the end of a line.
//
// Names are letters, digits and '_', not starting with a digit; a '?'
// directly after a name is part of it, so f32? is one name (a weak dtype).
// The keywords are and, or, not. The names true, false, inf, nan and None
// are ordinary names given meaning by the evaluator.
//
// Literals, kept as written in a [BasicLit]:
//
//	int     42  1_000  0x_ff  0o17  0b101     (any size; see BasicLit.BigInt)
//	float   1.5  1.  .5  1e-3  1E+3  1_0.5
//	imag    2j  1.5j  1e3j
//	string  "a\n"  'b'  """multi-line"""  '''also'''
//
// A decimal integer other than zero may not start with 0. Strings accept
// the escapes \\ \' \" \a \b \f \n \r \t \v \ooo \xhh \uhhhh \Uhhhhhhhh
// and '\' before a newline; any other escape is an error.
//
// # Grammar
//
// In EBNF, lowest precedence first (Python's order):
//
//	file       = {[stmt] (NEWLINE | ';')} [stmt] EOF .
//	stmt       = directive | IDENT '=' test | test .
//	directive  = (':' | '%') NAME {any character but newline} .
//	test       = and_expr {'or' and_expr} .
//	and_expr   = not_expr {'and' not_expr} .
//	not_expr   = 'not' not_expr | comparison .
//	comparison = bitor [('==' | '!=' | '<' | '<=' | '>' | '>=') bitor] .
//	bitor      = bitxor {'|' bitxor} .
//	bitxor     = bitand {'^' bitand} .
//	bitand     = shift {'&' shift} .
//	shift      = arith {('<<' | '>>') arith} .
//	arith      = term {('+' | '-') term} .
//	term       = unary {('*' | '@' | '/' | '//' | '%') unary} .
//	unary      = ('+' | '-' | '~') unary | power .
//	power      = primary ['**' unary] .
//	primary    = operand {call | index | selector} .
//	operand    = IDENT | INT | FLOAT | IMAG | STRING | '...' | list
//	           | '(' ')' | '(' test ')' | '(' test ',' [test {',' test} [',']] ')' .
//	list       = '[' [test {',' test} [',']] ']' .
//	call       = '(' [arg {',' arg} [',']] ')' .
//	arg        = test | IDENT '=' test .
//	index      = '[' subscript {',' subscript} [','] ']' .
//	subscript  = test | [test] ':' [test] [':' [test]] .
//	selector   = '.' IDENT .
//
// So -2**2 is -(2**2), 2**-1 is allowed, and not a == b is not (a == b).
// A chain of comparisons such as a < b < c is an error (write
// (a < b) and (b < c)). In a call, positional arguments come before
// keyword arguments, and a keyword may not repeat. A parenthesised
// expression without a comma is not a tuple. x.shape is an attribute and
// x.sum(axis=0) a method call (a call whose callee is a selector); the
// evaluator gives them their meaning.
//
// # Directives
//
// A line whose first non-blank character is ':' (or '%', as in a Jupyter
// magic) is a [*Directive]: its Name is the word after the ':' and its Arg
// the raw rest of the line, trimmed, never split at ';':
//
//	:policy numpy
//	:time sum(x)
//	:policy load my.go
//
// Only a line that starts a statement can be a directive: inside brackets
// or after an operator, ':' is the slice colon and '%' the operator.
package lang
