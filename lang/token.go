package lang

import (
	"fmt"
	"unicode/utf8"
)

// A Position is a place in a source text. Line and Col are 1-based; Col
// counts runes (characters), not bytes, so that a caret printed under the
// source lines up. Offset is the 0-based byte offset. The zero Position
// means "no position" (see [Position.IsValid]).
type Position struct {
	Offset int // byte offset, starting at 0
	Line   int // line number, starting at 1
	Col    int // column number in runes, starting at 1
}

// IsValid reports whether p is a real position (Line > 0).
func (p Position) IsValid() bool { return p.Line > 0 }

// String returns "line:col", or "-" for an invalid position.
func (p Position) String() string {
	if !p.IsValid() {
		return "-"
	}
	return fmt.Sprintf("%d:%d", p.Line, p.Col)
}

// add returns the position just after the text s, which starts at p.
func (p Position) add(s string) Position {
	p.Offset += len(s)
	for _, r := range s {
		if r == '\n' {
			p.Line++
			p.Col = 1
		} else {
			p.Col++
		}
	}
	return p
}

// runeCount is utf8.RuneCountInString, named for the reader.
func runeCount(s string) int { return utf8.RuneCountInString(s) }

// A Token is a lexical token of the tensorsh language.
type Token int8

// The tokens. Operator and keyword tokens print as their source text.
const (
	ILLEGAL Token = iota
	EOF
	NEWLINE   // end of a statement line
	DIRECTIVE // a whole ':name arg' line

	// Literal tokens.
	IDENT  // x, f32, f32?
	INT    // 1, 0x_ff, 0o17, 0b101
	FLOAT  // 1.5, 1., .5, 1e-3
	IMAG   // 2j, 1.5j, 1e3j
	STRING // "a", 'b', """c"""

	// Operators and punctuation.
	PLUS       // +
	MINUS      // -
	STAR       // *
	SLASH      // /
	SLASHSLASH // //
	PERCENT    // %
	STARSTAR   // **
	AT         // @
	TILDE      // ~
	AMP        // &
	PIPE       // |
	CIRCUMFLEX // ^
	LTLT       // <<
	GTGT       // >>
	EQL        // ==
	NEQ        // !=
	LT         // <
	LE         // <=
	GT         // >
	GE         // >=
	EQ         // =
	LPAREN     // (
	RPAREN     // )
	LBRACK     // [
	RBRACK     // ]
	COMMA      // ,
	COLON      // :
	SEMI       // ;
	ELLIPSIS   // ...
	DOT        // . (attribute selection: x.shape)

	// Keywords.
	AND // and
	OR  // or
	NOT // not

	numTokens
)

var tokenNames = [...]string{
	ILLEGAL:    "illegal token",
	EOF:        "end of input",
	NEWLINE:    "newline",
	DIRECTIVE:  "directive",
	IDENT:      "name",
	INT:        "integer literal",
	FLOAT:      "float literal",
	IMAG:       "imaginary literal",
	STRING:     "string literal",
	PLUS:       "+",
	MINUS:      "-",
	STAR:       "*",
	SLASH:      "/",
	SLASHSLASH: "//",
	PERCENT:    "%",
	STARSTAR:   "**",
	AT:         "@",
	TILDE:      "~",
	AMP:        "&",
	PIPE:       "|",
	CIRCUMFLEX: "^",
	LTLT:       "<<",
	GTGT:       ">>",
	EQL:        "==",
	NEQ:        "!=",
	LT:         "<",
	LE:         "<=",
	GT:         ">",
	GE:         ">=",
	EQ:         "=",
	LPAREN:     "(",
	RPAREN:     ")",
	LBRACK:     "[",
	RBRACK:     "]",
	COMMA:      ",",
	COLON:      ":",
	SEMI:       ";",
	ELLIPSIS:   "...",
	DOT:        ".",
	AND:        "and",
	OR:         "or",
	NOT:        "not",
}

// String returns the source text of an operator or keyword token ("+",
// "and") and a description of any other token ("name", "integer literal").
func (t Token) String() string {
	if 0 <= t && t < numTokens {
		return tokenNames[t]
	}
	return fmt.Sprintf("Token(%d)", int(t))
}

// isOperator reports whether t is an operator, punctuation or keyword token.
func (t Token) isOperator() bool { return PLUS <= t && t < numTokens }

// keywords maps each keyword to its token.
var keywords = map[string]Token{"and": AND, "or": OR, "not": NOT}

// Keywords returns the reserved words of the language: "and", "not", "or".
// Names such as true, false, inf, nan and None are ordinary identifiers
// that the evaluator gives meaning to.
func Keywords() []string { return []string{"and", "not", "or"} }

// Operators returns the operator tokens of the language, as written, from
// the lowest precedence to the highest.
func Operators() []string {
	return []string{
		"or", "and", "not",
		"==", "!=", "<", "<=", ">", ">=",
		"|", "^", "&", "<<", ">>", "+", "-",
		"*", "@", "/", "//", "%", "~", "**",
	}
}

// Operator precedence levels, lowest to highest (Python's).
const (
	precNone    = 0
	precOr      = 1  // or
	precAnd     = 2  // and
	precNot     = 3  // not x
	precCmp     = 4  // == != < <= > >=
	precBitOr   = 5  // |
	precBitXor  = 6  // ^
	precBitAnd  = 7  // &
	precShift   = 8  // << >>
	precAdd     = 9  // + -
	precMul     = 10 // * @ / // %
	precUnary   = 11 // +x -x ~x
	precPow     = 12 // **
	precPrimary = 13 // operands, calls, indexing
)

// binaryPrec returns the precedence of t as a binary operator, or precNone.
func binaryPrec(t Token) int {
	switch t {
	case OR:
		return precOr
	case AND:
		return precAnd
	case EQL, NEQ, LT, LE, GT, GE:
		return precCmp
	case PIPE:
		return precBitOr
	case CIRCUMFLEX:
		return precBitXor
	case AMP:
		return precBitAnd
	case LTLT, GTGT:
		return precShift
	case PLUS, MINUS:
		return precAdd
	case STAR, AT, SLASH, SLASHSLASH, PERCENT:
		return precMul
	case STARSTAR:
		return precPow
	}
	return precNone
}

// needsOperand reports whether a token must be followed by an operand, so
// that a line ending with it continues on the next line.
func needsOperand(t Token) bool {
	switch t {
	case PLUS, MINUS, STAR, SLASH, SLASHSLASH, PERCENT, STARSTAR, AT, TILDE,
		AMP, PIPE, CIRCUMFLEX, LTLT, GTGT, EQL, NEQ, LT, LE, GT, GE, EQ,
		AND, OR, NOT:
		return true
	}
	return false
}
