package userpolicy

import (
	"fmt"
	"io"
	"reflect"
	"strconv"
	"unicode/utf8"
)

// Package fmt builds its whole output in memory before it writes it, and
// its output can be far larger than its arguments: a width of up to 10⁶
// for each verb (fmt.Sprintf(strings.Repeat("%*d", 1<<16), …) is 64 GB),
// or a slice of a million copies of one long string. And it recurses
// through a value with no bound on depth: a []any that holds itself
// overflows the stack, which kills the process. So a policy's fmt
// functions, print and println first bound the length of their output
// from their arguments, and refuse (panic) past allocLimit.

// fmtWidthMax is the largest width or precision fmt accepts (see
// tooLarge in fmt/print.go).
const fmtWidthMax = 1_000_000

// fmtDepthMax bounds how deeply nested a value a policy may format.
const fmtDepthMax = 100

// A fmtBound adds up an upper bound of the length of fmt's output.
type fmtBound struct {
	n     int64
	steps int // values looked at
}

// fmtTooBig is the panic of a formatting past the limits.
func fmtTooBig(what string) string {
	return fmt.Sprintf("%s: the text could be longer than a user policy may allocate (%s)", what, bytesString(allocLimit))
}

// add counts n bytes; it panics past the limit.
func (b *fmtBound) add(what string, n int64) {
	b.n = addSat(b.n, n)
	if b.n > allocLimit {
		panic(fmtTooBig(what))
	}
}

// value bounds the length of v formatted with %v (or %x, %q …, which
// write at most 6 bytes per byte of %v's digits and text, and 0x
// prefixes: a bound of 6 per byte and 80 per number covers them).
func (b *fmtBound) value(what string, v reflect.Value, depth int) {
	b.steps++
	if depth > fmtDepthMax || b.steps > 1<<24 {
		panic(fmt.Sprintf("%s: a value nested more than %d deep, or with more than %d parts, is more than a user policy may format", what, fmtDepthMax, 1<<24))
	}
	if !v.IsValid() {
		b.add(what, 16)
		return
	}
	// A method of a Go type (tensorsh's Type, DType) writes a few
	// bytes; one of the policy's runs under the limits. Neither is
	// looked into.
	if v.Kind() != reflect.Pointer && v.Kind() != reflect.Interface && v.Type().NumMethod() > 0 && v.CanInterface() {
		switch v.Interface().(type) {
		case fmt.Formatter, fmt.Stringer, error, fmt.GoStringer:
			b.add(what, 128)
			return
		}
	}
	switch v.Kind() {
	case reflect.String:
		b.add(what, 6*int64(v.Len())+2)
	case reflect.Slice, reflect.Array:
		if v.Kind() == reflect.Slice && v.IsNil() {
			b.add(what, 16)
			return
		}
		b.add(what, 2)
		if v.Type().Elem().Kind() == reflect.Uint8 { // [1 2 3], or text for %s %x %q
			b.add(what, mulSat(int64(v.Len()), 6))
			return
		}
		for i := range v.Len() {
			b.add(what, 1)
			b.value(what, v.Index(i), depth+1)
		}
	case reflect.Map:
		b.add(what, 8)
		it := v.MapRange()
		for it.Next() {
			b.add(what, 2)
			b.value(what, it.Key(), depth+1)
			b.value(what, it.Value(), depth+1)
		}
	case reflect.Struct:
		b.add(what, 2)
		for i := range v.NumField() {
			b.add(what, int64(len(v.Type().Field(i).Name))+2)
			b.value(what, v.Field(i), depth+1)
		}
	case reflect.Interface:
		b.value(what, v.Elem(), depth+1)
	case reflect.Pointer:
		// fmt writes &{…} for a pointer at the top, an address below.
		if depth == 0 && !v.IsNil() {
			switch v.Elem().Kind() {
			case reflect.Array, reflect.Slice, reflect.Struct, reflect.Map:
				b.add(what, 1)
				b.value(what, v.Elem(), depth+1)
				return
			}
		}
		b.add(what, 24)
	default: // numbers, bools, functions, channels
		b.add(what, 80)
	}
}

// args bounds the length of a, formatted as fmt.Sprint does.
func (b *fmtBound) args(what string, a []any) {
	for _, x := range a {
		b.add(what, 1)
		b.value(what, reflect.ValueOf(x), 0)
	}
}

// format bounds the length of fmt.Sprintf(format, a...): the text, and
// for each verb its width, its precision and its argument. It reads the
// verbs as fmt's doPrintf does, loosely: any doubt counts more.
func (b *fmtBound) format(what, format string, a []any) {
	b.add(what, int64(len(format)))
	argNum := 0
	used := make([]bool, len(a))
	// index reads an argument index [n] at format[i:].
	index := func(i int) int {
		if i >= len(format) || format[i] != '[' {
			return i
		}
		j := i + 1
		for j < len(format) && format[j] != ']' {
			j++
		}
		if j < len(format) {
			if n, err := strconv.Atoi(format[i+1 : j]); err == nil && n >= 1 {
				argNum = n - 1
			}
			return j + 1
		}
		return j
	}
	// number reads a width or precision at format[i:]: digits, or * for
	// an argument.
	number := func(i int) (int, int64) {
		i = index(i)
		if i < len(format) && format[i] == '*' {
			if argNum < len(a) {
				used[argNum] = true
			}
			argNum++
			return i + 1, fmtWidthMax
		}
		n := int64(0)
		for i < len(format) && '0' <= format[i] && format[i] <= '9' {
			n = min(n*10+int64(format[i]-'0'), fmtWidthMax)
			i++
		}
		return i, n
	}
	for i := 0; i < len(format); {
		if format[i] != '%' {
			i++
			continue
		}
		i++
		for i < len(format) && (format[i] == '#' || format[i] == '0' || format[i] == '+' || format[i] == '-' || format[i] == ' ') {
			i++
		}
		i, width := number(i)
		prec := int64(0)
		if i < len(format) && format[i] == '.' {
			i, prec = number(i + 1)
		}
		i = index(i)
		if i >= len(format) {
			b.add(what, 16) // %!(NOVERB)
			break
		}
		verb, size := utf8.DecodeRuneInString(format[i:])
		i += size
		b.add(what, width+prec+32)
		if verb == '%' {
			continue
		}
		if argNum < len(a) {
			used[argNum] = true
			// A precision cuts strings but pads numbers: count both.
			b.value(what, reflect.ValueOf(a[argNum]), 0)
		}
		argNum++
	}
	for i, x := range a { // %!(EXTRA …)
		if !used[i] {
			b.add(what, 32)
			b.value(what, reflect.ValueOf(x), 0)
		}
	}
}

// boundedFmt replaces the functions of package fmt that format by ones
// that bound their output first.
func boundedFmt(m map[string]reflect.Value) {
	sprint := func(name string, a []any) {
		var b fmtBound
		b.args("fmt."+name, a)
	}
	sprintf := func(name, format string, a []any) {
		var b fmtBound
		b.format("fmt."+name, format, a)
	}
	m["Sprint"] = reflect.ValueOf(func(a ...any) string { sprint("Sprint", a); return fmt.Sprint(a...) })
	m["Sprintln"] = reflect.ValueOf(func(a ...any) string { sprint("Sprintln", a); return fmt.Sprintln(a...) })
	m["Sprintf"] = reflect.ValueOf(func(format string, a ...any) string {
		sprintf("Sprintf", format, a)
		return fmt.Sprintf(format, a...)
	})
	m["Errorf"] = reflect.ValueOf(func(format string, a ...any) error {
		sprintf("Errorf", format, a)
		return fmt.Errorf(format, a...)
	})
	m["Append"] = reflect.ValueOf(func(b []byte, a ...any) []byte { sprint("Append", a); return fmt.Append(b, a...) })
	m["Appendln"] = reflect.ValueOf(func(b []byte, a ...any) []byte { sprint("Appendln", a); return fmt.Appendln(b, a...) })
	m["Appendf"] = reflect.ValueOf(func(b []byte, format string, a ...any) []byte {
		sprintf("Appendf", format, a)
		return fmt.Appendf(b, format, a...)
	})
	m["Fprint"] = reflect.ValueOf(func(w io.Writer, a ...any) (int, error) { sprint("Fprint", a); return fmt.Fprint(w, a...) })
	m["Fprintln"] = reflect.ValueOf(func(w io.Writer, a ...any) (int, error) { sprint("Fprintln", a); return fmt.Fprintln(w, a...) })
	m["Fprintf"] = reflect.ValueOf(func(w io.Writer, format string, a ...any) (int, error) {
		sprintf("Fprintf", format, a)
		return fmt.Fprintf(w, format, a...)
	})
}

// printText is what print(a...) and println(a...) write in a policy,
// as yaegi writes it (%v of each, separated by spaces), bounded first.
func printText(a ...any) string {
	var b fmtBound
	b.args("print", a)
	s := ""
	for i, x := range a {
		if i > 0 {
			s += " "
		}
		s += fmt.Sprintf("%v", x)
	}
	return s
}
