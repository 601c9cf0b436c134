package lang

import (
	"errors"
	"strings"
	"testing"
)

// scanAll returns the tokens of src as a space-separated string, or the
// error that stopped the scanner.
func scanAll(src string) (dump string, err error) {
	s := newScanner("x.tsh", src, Position{}, true)
	defer func() {
		if r := recover(); r != nil {
			b, ok := r.(bailout)
			if !ok {
				panic(r)
			}
			err = b.err
		}
	}()
	var out []string
	for {
		t := s.next()
		switch t.tok {
		case EOF:
			return strings.Join(append(out, "EOF"), " "), nil
		case NEWLINE:
			out = append(out, "NL")
		case DIRECTIVE:
			out = append(out, ":"+t.name+"["+t.arg+"]")
		case IDENT, INT, FLOAT, IMAG, STRING:
			out = append(out, t.raw)
		default:
			out = append(out, t.tok.String())
		}
	}
}

var scanTests = []struct{ src, want string }{
	{``, `EOF`},
	{`   `, `EOF`},
	{"\n\n\n", `EOF`},
	{`# just a comment`, `EOF`},
	{`x`, `x EOF`},
	{`x = 1`, `x = 1 EOF`},
	{"x = 1\ny", `x = 1 NL y EOF`},
	{"x\n\n\n  # c\ny\n", `x NL y NL EOF`},
	{"x; y;z", `x ; y ; z EOF`},
	{`f32? i16 _x x1 énorme`, `f32? i16 _x x1 énorme EOF`},
	{`promote(i16,f32?)`, `promote ( i16 , f32? ) EOF`},
	{`not? and or not`, `error: x.tsh:1:4: invalid character '?': a '?' must directly follow a name, as in f32?`},
	{`a and b or not c`, `a and b or not c EOF`},
	{`true false inf nan None`, `true false inf nan None EOF`},
	// Operators, longest match first.
	{`+ - * / // % ** @ ~ & | ^ << >>`, `+ - * / // % ** @ ~ & | ^ << >> EOF`},
	{`== != < <= > >= = ( ) [ ] , : ; ...`, `== != < <= > >= = ( ) [ ] , : ; ... EOF`},
	{`a**-b//c<<d<=e==f`, `a ** - b // c << d <= e == f EOF`},
	{`x[...,1]`, `x [ ... , 1 ] EOF`},
	// Numbers.
	{`0 00 0_0 7 1_000 123456789012345678901234567890`, `0 00 0_0 7 1_000 123456789012345678901234567890 EOF`},
	{`0x_ff 0XFF 0o17 0O7 0b101 0B1_0`, `0x_ff 0XFF 0o17 0O7 0b101 0B1_0 EOF`},
	{`1.5 1. .5 1e-3 1E+3 1.e5 01.5 1_0.2_5 0e0`, `1.5 1. .5 1e-3 1E+3 1.e5 01.5 1_0.2_5 0e0 EOF`},
	{`2j 1.5j 1e3j 0J 09j .5j`, `2j 1.5j 1e3j 0J 09j .5j EOF`},
	{`1..2`, `1. .2 EOF`},
	// Strings.
	{`"a" 'b' "" ''`, `"a" 'b' "" '' EOF`},
	{`"it's" 'say "hi"' "\"" '\''`, `"it's" 'say "hi"' "\"" '\'' EOF`},
	{"\"\"\"a\nb\"\"\" '''c'''", "\"\"\"a\nb\"\"\" '''c''' EOF"},
	{`"\x41\u00e9\U0001F600\101\0\n\t\\"`, `"\x41\u00e9\U0001F600\101\0\n\t\\" EOF`},
	{"\"a\\\nb\"", "\"a\\\nb\" EOF"},
	// Implicit line joining.
	{"f(1,\n 2)\nx", `f ( 1 , 2 ) NL x EOF`},
	{"[1,\n\n  # c\n 2]", `[ 1 , 2 ] EOF`},
	{"x = 1 +\n 2", `x = 1 + 2 EOF`},
	{"x =\n\n 2", `x = 2 EOF`},
	{"a and\nb", `a and b EOF`},
	{"not\nb", `not b EOF`},
	{"x = 1 \\\n + 2", `x = 1 + 2 EOF`},
	{"x = 1 \\\r\n + 2\r\ny", `x = 1 + 2 NL y EOF`},
	{"x)\ny", `x ) NL y EOF`},
	// Directives.
	{`:policy numpy`, `:policy[numpy] EOF`},
	{"  :policy   numpy  \t\nx", `:policy[numpy] NL x EOF`},
	{`:time sum(x); y`, `:time[sum(x); y] EOF`},
	{`:help`, `:help[] EOF`},
	{`:policy load my.go # c`, `:policy[load my.go # c] EOF`},
	{`%policy jax`, `:policy[jax] EOF`},
	{"x\n:vars\n# c\n  :reset\n", `x NL :vars[] NL :reset[] NL EOF`},
	{"x; :vars", `x ; : vars EOF`},
	{"x[1\n:2]", `x [ 1 : 2 ] EOF`},
	{"x %\n:2", `x % : 2 EOF`},
	{":", `error: x.tsh:1:1: expected directive name after ':'`},
	{"% x", `error: x.tsh:1:1: expected directive name after '%'`},
	// Lexical errors.
	{`$`, `error: x.tsh:1:1: invalid character '$'`},
	{"x\u00a0", `error: x.tsh:1:2: invalid character U+00A0`},
	{`!x`, `error: x.tsh:1:1: invalid character '!'; use 'not' for logical negation`},
	{`a ? b`, `error: x.tsh:1:3: invalid character '?': a '?' must directly follow a name, as in f32?`},
	{`x.T`, `x . T EOF`},
	{`x . 1`, `x . 1 EOF`},
	{`1..T`, `1. . T EOF`},
	{"\xff", `error: x.tsh:1:1: invalid UTF-8 encoding`},
	{"\"a\xffb\"", `error: x.tsh:1:3: invalid UTF-8 encoding`},
	{`0o9`, `error: x.tsh:1:3: invalid digit '9' in octal literal`},
	{`0b102`, `error: x.tsh:1:5: invalid digit '2' in binary literal`},
	{`0xfg`, `error: x.tsh:1:4: invalid digit 'g' in hexadecimal literal`},
	{`0x`, `error: x.tsh:1:1: hexadecimal literal has no digits`},
	{`0b_`, `error: x.tsh:1:1: binary literal has no digits`},
	{`0x1__2`, `error: x.tsh:1:5: '_' must separate successive digits`},
	{`0x1_`, `error: x.tsh:1:4: '_' must separate successive digits`},
	{`0x1.5`, `error: x.tsh:1:4: invalid '.' in hexadecimal literal`},
	{`1__0`, `error: x.tsh:1:3: '_' must separate successive digits`},
	{`1_`, `error: x.tsh:1:2: '_' must separate successive digits`},
	{`1._5`, `error: x.tsh:1:3: '_' must separate successive digits`},
	{`1e_5`, `error: x.tsh:1:3: '_' must separate successive digits`},
	{`1e`, `error: x.tsh:1:1: exponent has no digits`},
	{`1e+`, `error: x.tsh:1:1: exponent has no digits`},
	{`012`, `error: x.tsh:1:1: leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers`},
	{`0_1`, `error: x.tsh:1:1: leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers`},
	{`1abc`, `error: x.tsh:1:2: invalid character 'a' in numeric literal`},
	{`2jj`, `error: x.tsh:1:3: invalid character 'j' in numeric literal`},
	{`"abc`, `error: x.tsh:1:1: unterminated string`},
	{"'abc\ndef'", `error: x.tsh:1:1: unterminated string`},
	{`x = "\q"`, `error: x.tsh:1:6: invalid escape sequence '\q'`},
	{`"\x4"`, `error: x.tsh:1:2: invalid escape sequence '\x': want 2 hex digits`},
	{`"ab\u12"`, `error: x.tsh:1:4: invalid escape sequence '\u': want 4 hex digits`},
	{`"\UFFFFFFFF"`, `error: x.tsh:1:2: invalid Unicode code point U+FFFFFFFF in escape sequence`},
	{`"\ud800"`, `error: x.tsh:1:2: invalid Unicode code point U+D800 in escape sequence`},
	{"\"\"\"a\n\\q\"\"\"", `error: x.tsh:2:1: invalid escape sequence '\q'`},
	{`1 \ 2`, `error: x.tsh:1:3: unexpected character after line continuation '\'`},
	// Incomplete input.
	{`"""abc`, `incomplete: x.tsh:1:1: unexpected end of input: unterminated triple-quoted string`},
	{"x = '''a\nb", `incomplete: x.tsh:1:5: unexpected end of input: unterminated triple-quoted string`},
	{`x = 1 \`, `incomplete: x.tsh:1:7: unexpected end of input after line continuation`},
	{"x = 1 \\\n", `incomplete: x.tsh:1:7: unexpected end of input after line continuation`},
	{`"abc\`, `incomplete: x.tsh:1:1: unexpected end of input: unterminated string`},
}

func TestScan(t *testing.T) {
	for _, tt := range scanTests {
		got, err := scanAll(tt.src)
		if err != nil {
			var ie *IncompleteError
			if errors.As(err, &ie) {
				got = "incomplete: " + err.Error()
			} else {
				got = "error: " + err.Error()
			}
		}
		if got != tt.want {
			t.Errorf("scan %q:\n got %s\nwant %s", tt.src, got, tt.want)
		}
	}
}

func TestTokenPositions(t *testing.T) {
	src := "x = é\n\t:p  arg \ny"
	s := newScanner("", src, Position{}, true)
	var got []string
	for {
		tok := s.next()
		got = append(got, tok.pos.String()+"-"+tok.end.String())
		if tok.tok == DIRECTIVE {
			got = append(got, "name@"+tok.namePos.String(), "arg@"+tok.argPos.String())
		}
		if tok.tok == EOF {
			break
		}
	}
	want := "1:1-1:2 1:3-1:4 1:5-1:6 1:6-2:1 2:2-2:10 name@2:3 arg@2:6 2:10-3:1 3:1-3:2 3:2-3:2"
	if g := strings.Join(got, " "); g != want {
		t.Errorf("positions of %q:\n got %s\nwant %s", src, g, want)
	}
}

func TestTokenString(t *testing.T) {
	for tok := ILLEGAL; tok < numTokens; tok++ {
		if tokenNames[tok] == "" {
			t.Errorf("token %d has no name", tok)
		}
	}
	if got := Token(100).String(); got != "Token(100)" {
		t.Errorf("Token(100).String() = %q", got)
	}
	for _, op := range Operators() {
		got, err := scanAll("x " + op)
		if err != nil || got != "x "+op+" EOF" {
			t.Errorf("operator %q scans as %q, %v", op, got, err)
		}
	}
	for _, kw := range Keywords() {
		if _, ok := keywords[kw]; !ok {
			t.Errorf("Keywords lists %q, which is not a keyword", kw)
		}
	}
}
