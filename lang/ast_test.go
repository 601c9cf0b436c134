package lang

import (
	"math"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"
)

func lit(t *testing.T, src string) *BasicLit {
	t.Helper()
	x, err := ParseExpr(src)
	if err != nil {
		t.Fatalf("ParseExpr(%q): %v", src, err)
	}
	l, ok := x.(*BasicLit)
	if !ok {
		t.Fatalf("ParseExpr(%q) is %T, want *BasicLit", src, x)
	}
	return l
}

func TestBigInt(t *testing.T) {
	tests := []struct{ src, want string }{
		{`0`, "0"},
		{`00`, "0"},
		{`0_0`, "0"},
		{`42`, "42"},
		{`1_000_000`, "1000000"},
		{`0x_ff`, "255"},
		{`0XdeadBEEF`, "3735928559"},
		{`0o17`, "15"},
		{`0O7_7`, "63"},
		{`0b101`, "5"},
		{`0B1_1`, "3"},
		{`999999999999999999`, "999999999999999999"}, // the longest smallDecimal reads
		{`1000000000000000000`, "1000000000000000000"},
		{`9223372036854775807`, "9223372036854775807"},
		{`9223372036854775808`, "9223372036854775808"},
		{`18446744073709551615`, "18446744073709551615"},
		{`0xffffffffffffffffffffffffffffffff`, "340282366920938463463374607431768211455"},
		{`123456789012345678901234567890`, "123456789012345678901234567890"},
	}
	for _, tt := range tests {
		l := lit(t, tt.src)
		if l.Kind != INT {
			t.Errorf("%s: kind %v, want INT", tt.src, l.Kind)
			continue
		}
		z, err := l.BigInt()
		if err != nil || z.String() != tt.want {
			t.Errorf("%s.BigInt() = %v, %v; want %s", tt.src, z, err, tt.want)
		}
		if _, err := l.Float(); err == nil {
			t.Errorf("%s.Float() succeeded on an INT", tt.src)
		}
	}
}

// TestSmallDecimal checks the fast path of BigInt against big.Int's parser
// on every length it takes and the lengths around it.
func TestSmallDecimal(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for n := 0; n <= 22; n++ {
		for range 200 {
			b := make([]byte, n)
			for i := range b {
				b[i] = "0123456789"[r.IntN(10)]
			}
			if r.IntN(4) == 0 {
				for i := range b {
					b[i] = '9'
				}
			}
			s := string(b)
			v, ok := smallDecimal(s)
			if ok != (n >= 1 && n <= 18) {
				t.Fatalf("smallDecimal(%q) ok = %v", s, ok)
			}
			if !ok {
				continue
			}
			want, _ := new(big.Int).SetString(s, 10)
			if got := big.NewInt(v); got.Cmp(want) != 0 {
				t.Fatalf("smallDecimal(%q) = %d, want %s", s, v, want)
			}
		}
	}
	for _, s := range []string{"1_0", "0x1", "-1", "1e3", " 1"} {
		if _, ok := smallDecimal(s); ok {
			t.Errorf("smallDecimal(%q) read it", s)
		}
	}
}

func TestFloat(t *testing.T) {
	tests := []struct {
		src  string
		kind Token
		want float64
	}{
		{`1.5`, FLOAT, 1.5},
		{`1.`, FLOAT, 1},
		{`.5`, FLOAT, 0.5},
		{`1e-3`, FLOAT, 0.001},
		{`1E+3`, FLOAT, 1000},
		{`1.e5`, FLOAT, 1e5},
		{`1_0.2_5`, FLOAT, 10.25},
		{`01.5`, FLOAT, 1.5},
		{`0.1`, FLOAT, 0.1},
		{`1e400`, FLOAT, math.Inf(1)},
		{`1e-400`, FLOAT, 0},
		{`2j`, IMAG, 2},
		{`1.5j`, IMAG, 1.5},
		{`1e3j`, IMAG, 1000},
		{`09J`, IMAG, 9},
		{`.5j`, IMAG, 0.5},
	}
	for _, tt := range tests {
		l := lit(t, tt.src)
		if l.Kind != tt.kind {
			t.Errorf("%s: kind %v, want %v", tt.src, l.Kind, tt.kind)
			continue
		}
		f, err := l.Float()
		if err != nil || f != tt.want {
			t.Errorf("%s.Float() = %v, %v; want %v", tt.src, f, err, tt.want)
		}
		im, err := l.Imag()
		if (err == nil) != (tt.kind == IMAG) || tt.kind == IMAG && im != tt.want {
			t.Errorf("%s.Imag() = %v, %v", tt.src, im, err)
		}
		if _, err := l.BigInt(); err == nil {
			t.Errorf("%s.BigInt() succeeded", tt.src)
		}
	}
}

func TestStr(t *testing.T) {
	tests := []struct{ src, want string }{
		{`""`, ""},
		{`''`, ""},
		{`"abc"`, "abc"},
		{`'it''s'`, ""}, // two strings: not a single literal, see below
		{`"it's"`, "it's"},
		{`'say "hi"'`, `say "hi"`},
		{`"\"\'\\"`, `"'\`},
		{`"\a\b\f\n\r\t\v"`, "\a\b\f\n\r\t\v"},
		{`"\101\0\7\777"`, "A\x00\a\u01ff"},
		{`"\x41\u00e9\U0001F600"`, "Aé😀"},
		{"\"a\\\nb\"", "ab"},
		{"\"a\\\r\nb\"", "ab"},
		{"\"\"\"a\n\"b\"\n\"\"\"", "a\n\"b\"\n"},
		{"'''x''y'''", "x''y"},
		{`"é"`, "é"},
	}
	for _, tt := range tests {
		if tt.src == `'it''s'` {
			if _, err := ParseExpr(tt.src); err == nil {
				t.Errorf("ParseExpr(%s) succeeded; adjacent strings do not concatenate", tt.src)
			}
			continue
		}
		l := lit(t, tt.src)
		s, err := l.Str()
		if l.Kind != STRING || err != nil || s != tt.want {
			t.Errorf("%s.Str() = %q, %v; want %q", tt.src, s, err, tt.want)
		}
	}
	if _, err := (&BasicLit{Kind: STRING, Raw: `"\q"`}).Str(); err == nil {
		t.Error(`Str of "\q" succeeded`)
	}
	if _, err := (&BasicLit{Kind: INT, Raw: `1`}).Str(); err == nil {
		t.Error(`Str of an INT succeeded`)
	}
}

func TestWalk(t *testing.T) {
	f, err := Parse("", "x = f(a + b, axis=c)[d:e]\n:vars\ng((h, i), [j])")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	Walk(f, func(n Node) bool {
		if id, ok := n.(*Ident); ok {
			names = append(names, id.Name)
		}
		return true
	})
	if got, want := strings.Join(names, " "), "x f a b axis c d e g h i j"; got != want {
		t.Errorf("Walk visits names %q, want %q", got, want)
	}

	// Returning false prunes the children.
	names = nil
	Walk(f, func(n Node) bool {
		if id, ok := n.(*Ident); ok {
			names = append(names, id.Name)
		}
		_, isCall := n.(*CallExpr)
		return !isCall
	})
	if got, want := strings.Join(names, " "), "x d e"; got != want { // f(...)[d:e] is an index of a call
		t.Errorf("pruned Walk visits %q, want %q", got, want)
	}
	Walk(nil, func(Node) bool { t.Error("f called for a nil node"); return true })
}

func TestPosition(t *testing.T) {
	if (Position{}).IsValid() || (Position{}).String() != "-" {
		t.Error("the zero Position is valid")
	}
	p := Position{Offset: 3, Line: 2, Col: 4}
	if !p.IsValid() || p.String() != "2:4" {
		t.Errorf("%+v: valid %v, %q", p, p.IsValid(), p)
	}
	if got := p.add("aé\nbc"); got != (Position{Offset: 9, Line: 3, Col: 3}) {
		t.Errorf("add = %+v", got)
	}
	f, err := Parse("", "")
	if err != nil {
		t.Fatal(err)
	}
	if s, e := f.Span(); s.IsValid() || e.IsValid() {
		t.Errorf("empty File span %v..%v", s, e)
	}
	f, _ = Parse("", "\n  x = 1 ; y\n")
	if s, e := f.Span(); s.String() != "2:3" || e.String() != "2:12" {
		t.Errorf("File span %v..%v, want 2:3..2:12", s, e)
	}
}

func TestKeywordsOperators(t *testing.T) {
	if got := strings.Join(Keywords(), " "); got != "and not or" {
		t.Errorf("Keywords() = %q", got)
	}
	seen := map[string]bool{}
	for _, op := range Operators() {
		if seen[op] {
			t.Errorf("Operators() repeats %q", op)
		}
		seen[op] = true
	}
	if len(seen) != 23 {
		t.Errorf("Operators() has %d operators, want 23", len(seen))
	}
}

func TestUnparen(t *testing.T) {
	x, err := ParseExpr("((a + b))")
	if err != nil {
		t.Fatal(err)
	}
	if b, ok := Unparen(x).(*BinaryExpr); !ok || b.Op != PLUS {
		t.Errorf("Unparen(((a + b))) = %s", dump(Unparen(x)))
	}
	if Unparen(nil) != nil {
		t.Error("Unparen(nil) != nil")
	}
}
