package format

import (
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/tensorsh/tensorsh/dtypes"
)

// A floatFormat describes a binary floating-point format well enough to
// find the shortest decimal that rounds back to a value of that format.
type floatFormat struct {
	mant    int // explicit mantissa bits
	emin    int // exponent of the smallest normal number (1 - bias)
	bitSize int // 32 or 64 when strconv knows the format, 0 otherwise
	prec    int // decimal digits of precision, like numpy's finfo.precision
}

// floatFormatOf returns the format of a float dtype, or of the parts of a
// complex one.
func floatFormatOf(d dtypes.DType) floatFormat {
	r := d.Real()
	m, e := r.MantissaBits(), r.ExponentBits()
	f := floatFormat{mant: m, emin: 2 - 1<<(e-1)}
	switch r {
	case dtypes.F32:
		f.bitSize = 32
	case dtypes.F64:
		f.bitSize = 64
	}
	// numpy's finfo.precision is floor(-log10(eps)) = floor(m*log10(2)).
	f.prec = int(math.Floor(float64(m) * math.Log10(2)))
	if f.prec < 1 {
		f.prec = 1 // float8: keep 1., 2., … positional below 10
	}
	return f
}

// A decimal is a finite non-negative number d[0].d[1:] × 10^exp. Its digits
// have no leading or trailing zeros, except that zero is {"0", 0}.
type decimal struct {
	digits string
	exp    int
}

// fracDigits returns the number of digits after the decimal point when d is
// written positionally.
func (d decimal) fracDigits() int {
	n := len(d.digits) - 1 - d.exp
	if n < 0 {
		return 0
	}
	return n
}

// parseDecimal reads the output of strconv.FormatFloat with format 'e' or
// 'f' into a decimal, dropping trailing zeros.
func parseDecimal(s string) decimal {
	exp := 0
	if i := strings.IndexByte(s, 'e'); i >= 0 {
		exp, _ = strconv.Atoi(s[i+1:])
		s = s[:i]
	}
	point := strings.IndexByte(s, '.')
	if point < 0 {
		point = len(s)
	} else {
		s = s[:point] + s[point+1:]
	}
	// Now the value is 0.s × 10^point × 10^exp, scaled: s[0] sits at
	// position point-1.
	lead := 0
	for lead < len(s)-1 && s[lead] == '0' {
		lead++
	}
	s = s[lead:]
	exp += point - 1 - lead
	s = strings.TrimRight(s, "0")
	if s == "" {
		return decimal{"0", 0}
	}
	return decimal{s, exp}
}

// shortest returns the shortest decimal that lies in the rounding interval
// of v in format f (the decimals that read back as v), and among those the
// closest to v: what numpy's Dragon4 prints in unique mode. v must be
// finite, non-negative and a value of format f.
//
// The interval's end points belong to it when round-half-even maps them to
// v, that is when v's significand is even (as in numpy's Dragon4, Go's
// strconv and Python's repr: float64 1e23 prints as 1e+23).
func shortest(v float64, f floatFormat) decimal {
	if v == 0 {
		return decimal{"0", 0}
	}
	if f.bitSize != 0 {
		// strconv's shortest mode follows the same rules.
		return parseDecimal(strconv.FormatFloat(v, 'e', -1, f.bitSize))
	}
	// v = fr × 2^e2 with fr in [0.5, 1): its binade is [2^k, 2^(k+1)).
	fr, e2 := math.Frexp(v)
	k := e2 - 1
	lowUnequal := fr == 0.5 && k > f.emin // a power of two: the gap below is half
	if k < f.emin {
		k = f.emin
	}
	// The formats handled here have at most 10 mantissa bits and exponents
	// far inside float64's, so the interval's ends are exact in float64.
	halfUlp := math.Ldexp(1, k-f.mant-1)
	hi, lo := v+halfUlp, v-halfUlp
	if lowUnequal {
		lo = v - halfUlp/2
	}
	closed := int64(math.Ldexp(v, f.mant-k))%2 == 0
	in := func(m int64, q int) bool {
		cl, ch := cmpDecimal(m, q, lo), cmpDecimal(m, q, hi)
		if closed {
			return cl >= 0 && ch <= 0
		}
		return cl > 0 && ch < 0
	}
	for n := 1; n <= 17; n++ {
		d := parseDecimal(strconv.FormatFloat(v, 'e', n-1, 64))
		// d is the n-digit decimal closest to v; the other candidate of n
		// digits is one unit of the n-th digit away, on v's other side.
		m, q := mantExp(d, n)
		if in(m, q) {
			return d
		}
		m2 := m + 1
		if cmpDecimal(m, q, v) > 0 {
			m2 = m - 1
		}
		if in(m2, q) {
			return fromMantExp(m2, q)
		}
	}
	// Unreachable: 17 digits tell float64 values apart, let alone these.
	return parseDecimal(strconv.FormatFloat(v, 'e', -1, 64))
}

// mantExp returns d as an integer m of n digits (padding with zeros) and
// the exponent q of its last digit: d = m × 10^q.
func mantExp(d decimal, n int) (int64, int) {
	m, _ := strconv.ParseInt(d.digits+strings.Repeat("0", n-len(d.digits)), 10, 64)
	return m, d.exp - (n - 1)
}

// fromMantExp turns m × 10^q (m > 0) into a decimal.
func fromMantExp(m int64, q int) decimal {
	s := strconv.FormatInt(m, 10)
	return decimal{strings.TrimRight(s, "0"), q + len(s) - 1}
}

// cmpDecimal compares m × 10^q with x exactly: -1, 0 or +1.
func cmpDecimal(m int64, q int, x float64) int {
	s := strconv.FormatInt(m, 10) + "e" + strconv.Itoa(q)
	// ParseFloat rounds correctly, so it keeps the order unless the
	// decimal rounds onto x itself.
	y, _ := strconv.ParseFloat(s, 64)
	switch {
	case y < x:
		return -1
	case y > x:
		return 1
	}
	r, _ := new(big.Rat).SetString(s)
	return r.Cmp(new(big.Rat).SetFloat64(x))
}

// digitsFrac returns the digits numpy's Dragon4 prints positionally in
// unique mode for v (finite, non-negative, of format f): the shortest
// round-tripping decimal, cut to at most prec digits after the point when
// prec ≥ 0, or extended to at least minDigits digits after the point. Cuts
// and extensions round the exact value of v, ties to even.
func digitsFrac(v float64, f floatFormat, prec, minDigits int) decimal {
	d := shortest(v, f)
	switch n := d.fracDigits(); {
	case prec >= 0 && n > prec:
		d = parseDecimal(strconv.FormatFloat(v, 'f', prec, 64))
	case n < minDigits:
		d = parseDecimal(strconv.FormatFloat(v, 'f', minDigits, 64))
	}
	return d
}

// digitsSig is digitsFrac for scientific notation: prec and minDigits
// count the digits after the point of the mantissa.
func digitsSig(v float64, f floatFormat, prec, minDigits int) decimal {
	d := shortest(v, f)
	switch n := len(d.digits) - 1; {
	case prec >= 0 && n > prec:
		d = parseDecimal(strconv.FormatFloat(v, 'e', prec, 64))
	case n < minDigits:
		d = parseDecimal(strconv.FormatFloat(v, 'e', minDigits, 64))
	}
	return d
}

// Trim modes of numpy's Dragon4, for a number with no digits after the
// point.
const (
	trimKeep     = 'k' // "1." (trailing zeros from minDigits are kept)
	trimPoint    = '.' // "1."
	trimOneZero  = '0' // "1.0"
	trimAllZeros = '-' // "1"
)

// positional writes d in positional notation: sign, integer digits, '.',
// fraction digits padded with zeros to minDigits, then trim for an empty
// fraction. The integer part (with its sign) is right-aligned to padLeft
// columns and the fraction left-aligned to padRight columns with spaces.
func positional(neg bool, d decimal, minDigits int, trim byte, plus bool, padLeft, padRight int) string {
	var ip, fp string
	if d.exp >= 0 {
		if len(d.digits) > d.exp+1 {
			ip, fp = d.digits[:d.exp+1], d.digits[d.exp+1:]
		} else {
			ip = d.digits + strings.Repeat("0", d.exp+1-len(d.digits))
		}
	} else {
		ip, fp = "0", strings.Repeat("0", -d.exp-1)+d.digits
	}
	if len(fp) < minDigits {
		fp += strings.Repeat("0", minDigits-len(fp))
	}
	ip = signed(neg, plus) + ip
	var b strings.Builder
	b.WriteString(strings.Repeat(" ", max(0, padLeft-len(ip))))
	b.WriteString(ip)
	switch {
	case fp != "":
		b.WriteByte('.')
		b.WriteString(fp)
	case trim == trimOneZero:
		b.WriteString(".0")
		fp = "0"
	case trim != trimAllZeros:
		b.WriteByte('.')
	}
	b.WriteString(strings.Repeat(" ", max(0, padRight-len(fp))))
	return b.String()
}

// scientific writes d as a mantissa with minDigits fraction digits at least,
// 'e', and a signed exponent of at least expDigits (and 2) digits.
func scientific(neg bool, d decimal, minDigits int, trim byte, plus bool, padLeft, expDigits int) string {
	ip, fp := d.digits[:1], d.digits[1:]
	if len(fp) < minDigits {
		fp += strings.Repeat("0", minDigits-len(fp))
	}
	ip = signed(neg, plus) + ip
	var b strings.Builder
	b.WriteString(strings.Repeat(" ", max(0, padLeft-len(ip))))
	b.WriteString(ip)
	switch {
	case fp != "":
		b.WriteByte('.')
		b.WriteString(fp)
	case trim == trimOneZero:
		b.WriteString(".0")
	case trim != trimAllZeros:
		b.WriteByte('.')
	}
	e := d.exp
	if d.digits == "0" {
		e = 0
	}
	b.WriteByte('e')
	if e < 0 {
		b.WriteByte('-')
		e = -e
	} else {
		b.WriteByte('+')
	}
	es := strconv.Itoa(e)
	b.WriteString(strings.Repeat("0", max(0, max(2, expDigits)-len(es))))
	b.WriteString(es)
	return b.String()
}

func signed(neg, plus bool) string {
	switch {
	case neg:
		return "-"
	case plus:
		return "+"
	}
	return ""
}

// floatRepr returns numpy's str of a float scalar of format f: the shortest
// round-tripping digits, positional ("2.5", "1.0", "65500.0") when
// 1e-4 ≤ |v| < 1e16 or v is zero, scientific ("1e+16", "2.5e-05")
// otherwise; "nan", "inf", "-inf" for non-finite values. With plus, a
// non-negative value gets a '+' (used for imaginary parts).
func floatRepr(v float64, f floatFormat, plus bool) string {
	switch {
	case math.IsNaN(v):
		return signed(false, plus) + "nan"
	case math.IsInf(v, 0):
		return signed(v < 0, plus) + "inf"
	}
	neg := math.Signbit(v)
	a := math.Abs(v)
	d := shortest(a, f)
	if a == 0 || (a >= 1e-4 && a < 1e16) {
		return positional(neg, d, 0, trimOneZero, plus, 0, 0)
	}
	return scientific(neg, d, 0, trimAllZeros, plus, 0, 0)
}

// complexRepr returns numpy's str of a complex scalar whose parts have
// format f: "(1+2j)", "2j" when the real part is +0, "(nan+infj)".
func complexRepr(re, im float64, f floatFormat) string {
	part := func(v float64, plus bool) string {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return floatRepr(v, f, plus)
		}
		neg := math.Signbit(v)
		a := math.Abs(v)
		d := shortest(a, f)
		if a == 0 || (a >= 1e-4 && a < 1e16) {
			return positional(neg, d, 0, trimAllZeros, plus, 0, 0)
		}
		return scientific(neg, d, 0, trimAllZeros, plus, 0, 0)
	}
	if re == 0 && !math.Signbit(re) {
		return part(im, false) + "j"
	}
	return "(" + part(re, false) + part(im, true) + "j)"
}
