package userpolicy

import (
	"errors"
	"fmt"
	"io"
	"reflect"
	"runtime"
	"runtime/metrics"
	"strconv"
	"strings"
	"unicode/utf8"
)

// allocLimit bounds what one call into a user policy may allocate: one
// allocation (make, strings.Repeat, …) of more is refused with a panic,
// and a call whose allocations keep more than this alive is stopped. Go
// cannot survive running out of memory (fatal error: out of memory is not
// a panic), so the bound is far below what a machine has.
var allocLimit int64 = 256 << 20

// errTimeLimit stops a call past its time limit.
var errTimeLimit = errors.New("time limit exceeded")

// errMemLimit stops a call that keeps more than allocLimit alive.
var errMemLimit = errors.New("memory limit exceeded")

// errStopped is the panic of tensorsh's checks in a policy that was
// stopped, so that what is left of its call unwinds at once.
var errStopped = errors.New("the policy was stopped")

// A crash is a panic of the interpreter itself (a yaegi bug that the
// policy's source triggers), not of the policy's code.
type crash struct{ value any }

func (c *crash) Error() string { return "the interpreter crashed: " + panicText(c.value) }

// panicText writes a panic value without running any of the policy's
// code: an Error or String method of the policy's would run outside the
// time limit. The policy's own panics have been made text already (see
// PanicValue); what is left is Go's runtime errors, text and numbers.
func panicText(v any) string {
	switch v := v.(type) {
	case nil:
		return "nil"
	case string:
		return v
	case runtime.Error:
		return v.Error()
	case *crash:
		return v.Error()
	case error:
		if v == errStopped {
			return v.Error()
		}
		if t := reflect.TypeOf(v); t.Kind() == reflect.Pointer && strings.HasPrefix(t.Elem().PkgPath(), "github.com/traefik/yaegi/") {
			return v.Error() // yaegi's own
		}
	case reflect.Value: // yaegi panics with the reflect.Value of panic's argument
		if !v.IsValid() || !v.CanInterface() {
			return "a value tensorsh cannot show"
		}
		return panicText(v.Interface())
	}
	switch rv := reflect.ValueOf(v); rv.Kind() {
	case reflect.String:
		return rv.String()
	case reflect.Bool:
		return strconv.FormatBool(rv.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return strconv.FormatInt(rv.Int(), 10)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return strconv.FormatUint(rv.Uint(), 10)
	case reflect.Float32, reflect.Float64:
		return strconv.FormatFloat(rv.Float(), 'g', -1, 64)
	default:
		return "a value of type " + typeString(rv.Type())
	}
}

// heapStats reads the bytes allocated since the process started and the
// bytes the last garbage collection found alive.
func heapStats() (allocs, live uint64) {
	s := []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}, {Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() == metrics.KindUint64 {
		allocs = s[0].Value.Uint64()
	}
	if s[1].Value.Kind() == metrics.KindUint64 {
		live = s[1].Value.Uint64()
	}
	return allocs, live
}

// bytesString writes a byte count for messages.
func bytesString(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", n>>30)
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}

// tooBig is the panic of an allocation past allocLimit.
func tooBig(what string, n, size int64) string {
	if n < 0 || mulSat(n, size) == sizeCap {
		return fmt.Sprintf("%s of more than %d bytes is more than a user policy may allocate (%s)", what, sizeCap, bytesString(allocLimit))
	}
	if size == 1 {
		return fmt.Sprintf("%s of %d bytes is more than a user policy may allocate (%s)", what, n, bytesString(allocLimit))
	}
	return fmt.Sprintf("%s of %d elements of %d bytes is more than a user policy may allocate (%s)", what, n, size, bytesString(allocLimit))
}

// mulFits reports whether n·size is at most allocLimit (n, size ≥ 0).
func mulFits(n, size int64) bool {
	return size == 0 || n <= allocLimit/size
}

// checkLen panics unless n elements of size bytes fit allocLimit.
func checkLen(what string, n, size int64) {
	if n > 0 && !mulFits(n, size) {
		panic(tooBig(what, n, size))
	}
}

// The runtime package "tensorshrt" of the interpreted file. Its name and
// the names of the helpers it uses cannot be written in a policy.

// enter counts a call of the policy's functions; past maxDepth, or once
// the policy was stopped, it panics.
func (p *Policy) enter() {
	if p.dead.Load() {
		panic(errStopped)
	}
	if p.depth.Add(1) > maxDepth {
		panic(fmt.Sprintf("calls nested more than %d deep (endless recursion?)", maxDepth))
	}
}

// leave ends the call enter counted.
func (p *Policy) leave() { p.depth.Add(-1) }

// size checks a size argument n of make(T, …): zero is a nil T, or nil
// where the rewriting could not copy T.
func (p *Policy) size(zero any, n any) int {
	if p.dead.Load() {
		panic(errStopped)
	}
	elem := int64(64)
	if t := reflect.TypeOf(zero); t != nil {
		switch t.Kind() {
		case reflect.Slice:
			elem = max(int64(t.Elem().Size()), 1)
		case reflect.Map:
			elem = int64(t.Key().Size()+t.Elem().Size()) + 8
		}
	}
	var size int64
	switch v := reflect.ValueOf(n); v.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		size = v.Int()
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		if v.Uint() > uint64(sizeCap) {
			panic(tooBig("make", -1, elem))
		}
		size = int64(v.Uint())
	case reflect.Float32, reflect.Float64: // an untyped constant, such as 1e3
		f := v.Float()
		if f != float64(int64(f)) || f > float64(sizeCap) {
			panic(fmt.Sprintf("make: size %v is not an integer", f))
		}
		size = int64(f)
	default:
		panic(fmt.Sprintf("make: size of type %s is not an integer", typeString(v.Type())))
	}
	if size < 0 {
		panic(fmt.Sprintf("make: negative size %d", size))
	}
	checkLen("make", size, elem)
	return int(size)
}

// panicValue is the value of panic(v) in a policy: its text, written
// while the call runs, under its limits. (yaegi gives Go code the
// policy's values without their methods, except through the wrappers of
// the interfaces of package fmt, such as fmt.Stringer.)
func panicValue(v any) string { return fmt.Sprint(v) }

// boundedStrings replaces the functions of package strings whose result
// can be much larger than their arguments (or their arguments' memory:
// strings.Join of a million copies of one long string) by ones that check
// the size first.
func boundedStrings(m map[string]reflect.Value) {
	m["Repeat"] = reflect.ValueOf(func(s string, count int) string {
		if count > 0 && !mulFits(int64(count), int64(len(s))) {
			panic(tooBig("strings.Repeat", mulSat(int64(count), int64(len(s))), 1))
		}
		return strings.Repeat(s, count)
	})
	replaceLen := func(s, old, new string, n int) int64 {
		if len(new) <= len(old) {
			return int64(len(s))
		}
		m := int64(strings.Count(s, old))
		if n >= 0 && int64(n) < m {
			m = int64(n)
		}
		return int64(len(s)) + m*int64(len(new)-len(old))
	}
	m["Replace"] = reflect.ValueOf(func(s, old, new string, n int) string {
		checkLen("strings.Replace", replaceLen(s, old, new, n), 1)
		return strings.Replace(s, old, new, n)
	})
	m["ReplaceAll"] = reflect.ValueOf(func(s, old, new string) string {
		checkLen("strings.ReplaceAll", replaceLen(s, old, new, -1), 1)
		return strings.ReplaceAll(s, old, new)
	})
	m["Join"] = reflect.ValueOf(func(elems []string, sep string) string {
		n := mulSat(int64(len(sep)), int64(max(len(elems)-1, 0)))
		for _, e := range elems {
			n = addSat(n, int64(len(e)))
		}
		checkLen("strings.Join", n, 1)
		return strings.Join(elems, sep)
	})
	m["ToValidUTF8"] = reflect.ValueOf(func(s, replacement string) string {
		if len(replacement) > 1 {
			bad := int64(0)
			for i := 0; i < len(s); {
				r, w := utf8.DecodeRuneInString(s[i:])
				if r == utf8.RuneError && w == 1 {
					bad++
				}
				i += w
			}
			checkLen("strings.ToValidUTF8", int64(len(s))+bad*int64(len(replacement)), 1)
		}
		return strings.ToValidUTF8(s, replacement)
	})
	// A slice of up to len(s)+1 strings: 16 bytes each.
	for _, name := range []string{"Split", "SplitAfter", "SplitN", "SplitAfterN", "Fields", "FieldsFunc"} {
		f := m[name]
		m[name] = reflect.MakeFunc(f.Type(), func(args []reflect.Value) []reflect.Value {
			checkLen("strings."+name, int64(args[0].Len())+1, 16)
			return f.Call(args)
		})
	}
	m["Builder"] = reflect.ValueOf((*stringsBuilder)(nil))
	m["Replacer"] = reflect.ValueOf((*stringsReplacer)(nil))
	m["NewReplacer"] = reflect.ValueOf(func(oldnew ...string) *stringsReplacer {
		r := &stringsReplacer{r: strings.NewReplacer(oldnew...)}
		for i := 1; i < len(oldnew); i += 2 {
			r.maxNew = max(r.maxNew, int64(len(oldnew[i])))
		}
		return r
	})
}

// A stringsBuilder is strings.Builder in a policy: Grow is bounded.
type stringsBuilder struct{ strings.Builder }

// Grow grows the builder's capacity by n bytes, at most allocLimit.
func (b *stringsBuilder) Grow(n int) {
	checkLen("strings.Builder.Grow", int64(n)+int64(b.Len()), 1)
	b.Builder.Grow(n)
}

// A stringsReplacer is strings.Replacer in a policy: what it writes is
// bounded.
type stringsReplacer struct {
	r      *strings.Replacer
	maxNew int64 // the longest replacement
}

func (r *stringsReplacer) check(s string) {
	checkLen("strings.Replacer.Replace", int64(len(s))+1, r.maxNew+1)
}

// Replace returns s with the replacements done.
func (r *stringsReplacer) Replace(s string) string {
	r.check(s)
	return r.r.Replace(s)
}

// WriteString writes s with the replacements done to w.
func (r *stringsReplacer) WriteString(w io.Writer, s string) (int, error) {
	r.check(s)
	return r.r.WriteString(w, s)
}
