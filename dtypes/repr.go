package dtypes

import (
	"math"
	"strconv"
	"strings"
)

// PyFloat returns Python's repr of a float: the shortest digits that read
// back as f, positional when 1e-4 ≤ |f| < 1e16 (with ".0" when integral),
// scientific otherwise with at least two exponent digits ("1e+16",
// "2.5e-05"), and "nan", "inf", "-inf" (CPython's float_repr_style
// 'short': Objects/floatobject.c, float_repr, with mode 'r').
func PyFloat(f float64) string {
	switch {
	case math.IsNaN(f):
		return "nan"
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	}
	if a := math.Abs(f); a != 0 && (a < 1e-4 || a >= 1e16) {
		return strconv.FormatFloat(f, 'e', -1, 64)
	}
	s := strconv.FormatFloat(f, 'f', -1, 64)
	if !strings.Contains(s, ".") {
		s += ".0"
	}
	return s
}

// PyComplex returns Python's repr of a complex number: "(1+2j)", with
// each part as PyFloat writes it but without ".0" for integral values,
// and only the imaginary part, "2j", when the real part is +0
// (Objects/complexobject.c, complex_repr).
func PyComplex(c complex128) string {
	re, im := real(c), imag(c)
	imText := pyComplexPart(im)
	if re == 0 && !math.Signbit(re) {
		return imText + "j"
	}
	if !strings.HasPrefix(imText, "-") {
		imText = "+" + imText
	}
	return "(" + pyComplexPart(re) + imText + "j)"
}

// pyComplexPart is PyFloat without the ".0" of integral values (a NaN
// part keeps no sign, as in Python).
func pyComplexPart(f float64) string {
	s := PyFloat(f)
	return strings.TrimSuffix(s, ".0")
}
