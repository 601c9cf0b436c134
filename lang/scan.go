package lang

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// bailout is the panic value that carries a syntax error from deep inside
// the scanner or parser to the API entry point, where it is recovered.
type bailout struct{ err error }

// A token is one scanned token with its extent and text.
type token struct {
	tok      Token
	pos, end Position
	raw      string // source text of IDENT, INT, FLOAT, IMAG, STRING

	// For DIRECTIVE: the word after the ':' and the trimmed rest of the line.
	name, arg       string
	namePos, argPos Position
}

// An openBracket is a '(' or '[' that is not closed yet.
type openBracket struct {
	tok Token
	pos Position
}

// A scanner splits a source text into tokens. It is driven by the parser,
// one token at a time, and panics with a bailout on a lexical error.
//
// Newlines are significant only at bracket depth 0 and not right after an
// operator or '=' (such a line continues on the next one). A line whose
// first non-blank character is ':' or '%' is a directive line when
// directives are enabled.
type scanner struct {
	filename   string
	src        string
	i          int      // byte index in src of the next unread character
	pos        Position // position of src[i]
	open       []openBracket
	last       Token // the last token returned; ILLEGAL before the first
	lineStart  bool  // nothing but blanks and comments since the last newline
	directives bool  // recognise directive lines
}

// newScanner returns a scanner of src whose first character is at start
// (the zero Position means offset 0, line 1, column 1).
func newScanner(filename, src string, start Position, directives bool) *scanner {
	if !start.IsValid() {
		start = Position{Offset: 0, Line: 1, Col: 1}
	}
	s := &scanner{
		filename:   filename,
		src:        src,
		pos:        start,
		lineStart:  true,
		directives: directives,
	}
	if strings.HasPrefix(src, "\uFEFF") { // a byte order mark takes no column
		s.advance()
		s.pos.Col = start.Col
	}
	return s
}

// errorf stops scanning with a syntax error at pos.
func (s *scanner) errorf(pos Position, format string, args ...any) {
	panic(bailout{&Error{Filename: s.filename, Pos: pos, Msg: fmt.Sprintf(format, args...)}})
}

// incomplete stops scanning with an IncompleteError.
func (s *scanner) incomplete(pos Position, open, want string) {
	panic(bailout{&IncompleteError{Filename: s.filename, Pos: pos, Open: open, Want: want, depth: len(s.open)}})
}

// eof reports whether all of src has been read.
func (s *scanner) eof() bool { return s.i >= len(s.src) }

// peek returns the next unread rune, or -1 at the end of the input.
// It stops with an error on invalid UTF-8.
func (s *scanner) peek() rune {
	if s.i >= len(s.src) {
		return -1
	}
	c := s.src[s.i]
	if c < utf8.RuneSelf {
		return rune(c)
	}
	r, w := utf8.DecodeRuneInString(s.src[s.i:])
	if r == utf8.RuneError && w == 1 {
		s.errorf(s.pos, "invalid UTF-8 encoding")
	}
	return r
}

// peekByte returns the byte k bytes ahead of the next unread one, or 0.
func (s *scanner) peekByte(k int) byte {
	if s.i+k < len(s.src) {
		return s.src[s.i+k]
	}
	return 0
}

// advance consumes one rune.
func (s *scanner) advance() {
	if s.i >= len(s.src) {
		return
	}
	c := s.src[s.i]
	w := 1
	if c >= utf8.RuneSelf {
		_, w = utf8.DecodeRuneInString(s.src[s.i:])
	}
	s.i += w
	s.pos.Offset += w
	if c == '\n' {
		s.pos.Line++
		s.pos.Col = 1
	} else {
		s.pos.Col++
	}
}

func isLetter(r rune) bool {
	return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || r == '_' ||
		r >= utf8.RuneSelf && unicode.IsLetter(r)
}

func isDigit(r rune) bool { return '0' <= r && r <= '9' }

func isIdentChar(r rune) bool {
	return isLetter(r) || isDigit(r) || r >= utf8.RuneSelf && unicode.IsDigit(r)
}

// next scans and returns the next token.
func (s *scanner) next() token {
	t := s.scan()
	s.last = t.tok
	if t.tok != NEWLINE {
		s.lineStart = false
	}
	return t
}

func (s *scanner) scan() token {
	// Skip blanks, comments, continuations and insignificant newlines.
	for {
		c := s.peek()
		switch c {
		case ' ', '\t', '\r', '\f', '\v':
			s.advance()
			continue
		case '#':
			for !s.eof() && s.peek() != '\n' {
				s.advance()
			}
			continue
		case '\\':
			start := s.pos
			s.advance()
			if s.peek() == '\r' && s.peekByte(1) == '\n' {
				s.advance()
			}
			switch s.peek() {
			case -1:
				s.incomplete(start, `\`, "another line")
			case '\n':
				s.advance()
				if s.eof() {
					s.incomplete(start, `\`, "another line")
				}
				continue
			}
			s.errorf(start, "unexpected character after line continuation '\\'")
		case '\n':
			if len(s.open) > 0 || needsOperand(s.last) {
				s.advance()
				continue
			}
			if s.last == ILLEGAL || s.last == NEWLINE {
				s.advance()
				s.lineStart = true
				continue
			}
			pos := s.pos
			s.advance()
			s.lineStart = true
			return token{tok: NEWLINE, pos: pos, end: s.pos}
		}
		break
	}

	pos := s.pos
	c := s.peek()
	if c == -1 {
		return token{tok: EOF, pos: pos, end: pos}
	}
	if s.lineStart && s.directives && (c == ':' || c == '%') {
		return s.scanDirective()
	}
	if isLetter(c) {
		return s.scanIdent()
	}
	if isDigit(c) || c == '.' && isDigit(rune(s.peekByte(1))) {
		return s.scanNumber()
	}
	if c == '"' || c == '\'' {
		return s.scanString()
	}

	// Operators and punctuation.
	s.advance()
	tok := ILLEGAL
	two := func(next byte, long, short Token) Token {
		if s.peekByte(0) == next {
			s.advance()
			return long
		}
		return short
	}
	switch c {
	case '+':
		tok = PLUS
	case '-':
		tok = MINUS
	case '*':
		tok = two('*', STARSTAR, STAR)
	case '/':
		tok = two('/', SLASHSLASH, SLASH)
	case '%':
		tok = PERCENT
	case '@':
		tok = AT
	case '~':
		tok = TILDE
	case '&':
		tok = AMP
	case '|':
		tok = PIPE
	case '^':
		tok = CIRCUMFLEX
	case '<':
		if s.peekByte(0) == '<' {
			s.advance()
			tok = LTLT
		} else {
			tok = two('=', LE, LT)
		}
	case '>':
		if s.peekByte(0) == '>' {
			s.advance()
			tok = GTGT
		} else {
			tok = two('=', GE, GT)
		}
	case '=':
		tok = two('=', EQL, EQ)
	case '!':
		if s.peekByte(0) != '=' {
			s.errorf(pos, "invalid character '!'; use 'not' for logical negation")
		}
		s.advance()
		tok = NEQ
	case '(':
		tok = LPAREN
		s.open = append(s.open, openBracket{LPAREN, pos})
	case '[':
		tok = LBRACK
		s.open = append(s.open, openBracket{LBRACK, pos})
	case ')', ']':
		tok = RPAREN
		if c == ']' {
			tok = RBRACK
		}
		if n := len(s.open); n > 0 {
			s.open = s.open[:n-1]
		}
	case ',':
		tok = COMMA
	case ':':
		tok = COLON
	case ';':
		tok = SEMI
	case '.':
		if s.peekByte(0) == '.' && s.peekByte(1) == '.' {
			s.advance()
			s.advance()
			tok = ELLIPSIS
			break
		}
		tok = DOT
	case '?':
		s.errorf(pos, "invalid character '?': a '?' must directly follow a name, as in f32?")
	default:
		if unicode.IsPrint(c) {
			s.errorf(pos, "invalid character %q", c)
		}
		s.errorf(pos, "invalid character %U", c)
	}
	return token{tok: tok, pos: pos, end: s.pos}
}

// scanIdent scans a name or keyword. A '?' right after a name belongs to
// it (f32? is one name), but not after a keyword.
func (s *scanner) scanIdent() token {
	pos, start := s.pos, s.i
	for isIdentChar(s.peek()) {
		s.advance()
	}
	word := s.src[start:s.i]
	if tok, ok := keywords[word]; ok {
		return token{tok: tok, pos: pos, end: s.pos, raw: word}
	}
	if s.peekByte(0) == '?' {
		s.advance()
		word = s.src[start:s.i]
	}
	return token{tok: IDENT, pos: pos, end: s.pos, raw: word}
}

// scanDirective scans a directive line: ':' (or '%'), a name, and the rest
// of the line up to (not including) the newline.
func (s *scanner) scanDirective() token {
	pos := s.pos
	mark := s.peek()
	s.advance()
	namePos, start := s.pos, s.i
	for isIdentChar(s.peek()) {
		s.advance()
	}
	name := s.src[start:s.i]
	if name == "" {
		s.errorf(pos, "expected directive name after '%c'", mark)
	}
	argPos := s.pos
	for c := s.peek(); c == ' ' || c == '\t'; c = s.peek() {
		s.advance()
	}
	if c := s.peek(); c != '\n' && c != '\r' && c != -1 {
		argPos = s.pos
	}
	start = s.i
	for !s.eof() && s.peek() != '\n' {
		s.advance()
	}
	arg := strings.TrimRight(s.src[start:s.i], " \t\r\f\v")
	return token{tok: DIRECTIVE, pos: pos, end: s.pos, name: name, namePos: namePos, arg: arg, argPos: argPos}
}

// scanDigits consumes decimal digits with single '_' separators between
// them and reports whether there were any digits.
func (s *scanner) scanDigits() bool {
	digits, under := false, false
	var underPos Position
	for {
		c := s.peek()
		switch {
		case isDigit(c):
			digits, under = true, false
		case c == '_':
			if !digits || under {
				s.errorf(s.pos, "'_' must separate successive digits")
			}
			under, underPos = true, s.pos
		default:
			if under {
				s.errorf(underPos, "'_' must separate successive digits")
			}
			return digits
		}
		s.advance()
	}
}

var baseNames = map[byte]string{'x': "hexadecimal", 'o': "octal", 'b': "binary"}

// scanNumber scans an INT, FLOAT or IMAG literal.
func (s *scanner) scanNumber() token {
	pos, start := s.pos, s.i
	done := func(tok Token) token {
		if c := s.peek(); isIdentChar(c) {
			s.errorf(s.pos, "invalid character %q in numeric literal", c)
		}
		return token{tok: tok, pos: pos, end: s.pos, raw: s.src[start:s.i]}
	}

	// Prefixed integers: 0x, 0o, 0b.
	if s.peekByte(0) == '0' {
		if name, ok := baseNames[s.peekByte(1)|0x20]; ok {
			base := map[string]int{"hexadecimal": 16, "octal": 8, "binary": 2}[name]
			s.advance()
			s.advance()
			digits, under := false, false
			var underPos Position
			for c := s.peek(); isIdentChar(c); c = s.peek() {
				if c == '_' {
					if under {
						s.errorf(s.pos, "'_' must separate successive digits")
					}
					under, underPos = true, s.pos
				} else {
					if digitVal(c) >= base {
						s.errorf(s.pos, "invalid digit %q in %s literal", c, name)
					}
					digits, under = true, false
				}
				s.advance()
			}
			if !digits {
				s.errorf(pos, "%s literal has no digits", name)
			}
			if under {
				s.errorf(underPos, "'_' must separate successive digits")
			}
			if s.peek() == '.' {
				s.errorf(s.pos, "invalid '.' in %s literal", name)
			}
			return done(INT)
		}
	}

	tok := INT
	if s.peek() != '.' {
		s.scanDigits()
	}
	if s.peek() == '.' {
		tok = FLOAT
		s.advance()
		if s.peek() == '_' {
			s.errorf(s.pos, "'_' must separate successive digits")
		}
		s.scanDigits()
	}
	if c := s.peek(); c == 'e' || c == 'E' {
		tok = FLOAT
		s.advance()
		if c := s.peek(); c == '+' || c == '-' {
			s.advance()
		}
		if s.peek() == '_' {
			s.errorf(s.pos, "'_' must separate successive digits")
		}
		if !s.scanDigits() {
			s.errorf(pos, "exponent has no digits")
		}
	}
	if c := s.peek(); c == 'j' || c == 'J' {
		s.advance()
		return done(IMAG)
	}
	if tok == INT {
		lit := s.src[start:s.i]
		if len(lit) > 1 && lit[0] == '0' && strings.Trim(lit, "0_") != "" {
			s.errorf(pos, "leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers")
		}
	}
	return done(tok)
}

// digitVal returns the value of a digit in bases up to 16, or 16.
func digitVal(c rune) int {
	switch {
	case '0' <= c && c <= '9':
		return int(c - '0')
	case 'a' <= c && c <= 'f':
		return int(c-'a') + 10
	case 'A' <= c && c <= 'F':
		return int(c-'A') + 10
	}
	return 16
}

// scanString scans a string literal in single or double quotes, or in
// tripled ones.
// Only triple-quoted strings may contain newlines (and a '\' before a
// newline joins lines in any string).
func (s *scanner) scanString() token {
	pos, start := s.pos, s.i
	quote := s.src[s.i]
	triple := s.peekByte(1) == quote && s.peekByte(2) == quote
	n := 1
	if triple {
		n = 3
	}
	for range n {
		s.advance()
	}
	delim := s.src[start : start+n]
	for {
		c := s.peek()
		switch {
		case c == -1:
			if triple {
				s.incomplete(pos, delim, "closing "+delim)
			}
			s.errorf(pos, "unterminated string")
		case c == '\n' && !triple:
			s.errorf(pos, "unterminated string")
		case c == '\\':
			s.advance()
			if s.peek() == '\r' && s.peekByte(1) == '\n' {
				s.advance()
			}
			if s.eof() || s.peek() == '\n' && s.i+1 == len(s.src) {
				s.incomplete(pos, delim, "closing "+delim)
			}
			if !s.eof() {
				s.advance()
			}
			continue
		case c == rune(quote) && (!triple || s.peekByte(1) == quote && s.peekByte(2) == quote):
			for range n {
				s.advance()
			}
			raw := s.src[start:s.i]
			if _, off, msg := unquote(raw); msg != "" {
				s.errorf(pos.add(raw[:off]), "%s", msg)
			}
			return token{tok: STRING, pos: pos, end: s.pos, raw: raw}
		}
		s.advance()
	}
}

// unquote decodes the raw text of a string literal, quotes included. On an
// invalid escape it returns the byte offset in raw of the '\' and a message.
func unquote(raw string) (value string, errOff int, errMsg string) {
	n := 1
	if len(raw) >= 6 && (strings.HasPrefix(raw, `"""`) || strings.HasPrefix(raw, `'''`)) {
		n = 3
	}
	if len(raw) < 2*n || raw[0] != raw[len(raw)-1] || (raw[0] != '"' && raw[0] != '\'') {
		return "", 0, "malformed string literal"
	}
	body := raw[n : len(raw)-n]
	var b strings.Builder
	for i := 0; i < len(body); {
		c := body[i]
		if c != '\\' {
			b.WriteByte(c)
			i++
			continue
		}
		off := n + i
		if i+1 >= len(body) {
			return "", off, "invalid escape sequence at end of string"
		}
		e := body[i+1]
		i += 2
		switch e {
		case '\n':
		case '\r':
			if i < len(body) && body[i] == '\n' {
				i++
			}
		case '\\', '\'', '"':
			b.WriteByte(e)
		case 'a':
			b.WriteByte('\a')
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'v':
			b.WriteByte('\v')
		case '0', '1', '2', '3', '4', '5', '6', '7':
			v := int(e - '0')
			for k := 0; k < 2 && i < len(body) && '0' <= body[i] && body[i] <= '7'; k++ {
				v = v*8 + int(body[i]-'0')
				i++
			}
			b.WriteRune(rune(v))
		case 'x', 'u', 'U':
			width := map[byte]int{'x': 2, 'u': 4, 'U': 8}[e]
			v := int64(0)
			for k := range width {
				if i+k >= len(body) || digitVal(rune(body[i+k])) >= 16 {
					return "", off, fmt.Sprintf("invalid escape sequence '\\%c': want %d hex digits", e, width)
				}
				v = v*16 + int64(digitVal(rune(body[i+k])))
			}
			i += width
			if v > unicode.MaxRune || 0xD800 <= v && v < 0xE000 {
				return "", off, fmt.Sprintf("invalid Unicode code point U+%04X in escape sequence", v)
			}
			b.WriteRune(rune(v))
		default:
			r, _ := utf8.DecodeRuneInString(body[i-1:])
			if unicode.IsPrint(r) {
				return "", off, fmt.Sprintf("invalid escape sequence '\\%c'", r)
			}
			return "", off, fmt.Sprintf("invalid escape sequence '\\' followed by %U", r)
		}
	}
	return b.String(), 0, ""
}
