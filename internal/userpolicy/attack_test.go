package userpolicy

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tensorsh/tensorsh/dtypes"
	"github.com/tensorsh/tensorsh/promote"
)

// Hostile policies (issue 14, part 3). Each attack runs in a child process
// (the test binary again, running only that test), so that one that
// crashes the process, or runs on forever, fails its test instead of
// ending the run.

const childEnv = "TENSORSH_USERPOLICY_ATTACK"

// isolate reports whether the caller is the child process that runs the
// test t. In the parent, it runs that child, bounded by t's deadline,
// and fails t unless the child passed.
func isolate(t *testing.T) bool {
	t.Helper()
	if os.Getenv(childEnv) == t.Name() {
		return true
	}
	timeout := 2 * time.Minute
	if d, ok := t.Deadline(); ok {
		timeout = min(timeout, time.Until(d)*3/4)
	}
	parts := strings.Split(t.Name(), "/")
	for i, p := range parts {
		parts[i] = "^" + regexp.QuoteMeta(p) + "$"
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run="+strings.Join(parts, "/"), "-test.v", "-test.count=1")
	cmd.Env = append(os.Environ(), childEnv+"="+t.Name())
	out, err := cmd.CombinedOutput()
	if len(out) > 4000 {
		out = append([]byte("…"), out[len(out)-4000:]...)
	}
	switch {
	case ctx.Err() != nil:
		t.Fatalf("the attack was still running after %v:\n%s", timeout, out)
	case err != nil:
		t.Fatalf("the attack failed, or ended the process (%v):\n%s", err, out)
	case !strings.Contains(string(out), "--- PASS: "+t.Name()+" "):
		t.Fatalf("the child process did not run %s:\n%s", t.Name(), out)
	}
	return false
}

// hostile is a policy with Promote(a, b) { body } and more declarations.
func hostile(imports, body, decls string) string {
	return "package hostile\n\nimport (\n\t\"tensorsh\"\n" + imports + ")\n\nfunc Promote(a, b tensorsh.Type) (tensorsh.Type, error) {\n" + body + "\n}\n\n" + decls + "\n"
}

// doubling declares first, then 39 declarations of line (with %d for
// the number, and for the one before), then last.
func doubling(first, line, last string) string {
	var b strings.Builder
	b.WriteString(first + "\n\n")
	for i := 1; i < 40; i++ {
		args := []any{i, i - 1, i - 1}[:strings.Count(line, "%d")]
		fmt.Fprintf(&b, line+"\n\n", args...)
	}
	return b.String() + last
}

// promoteI8 runs Promote(i8, i8).
func promoteI8(p *Policy) error {
	_, err := p.Binary(promote.Add, strong(dtypes.I8), strong(dtypes.I8))
	return err
}

// TestAttackLoad: sources that crashed yaegi while it compiled them, or
// that allocate past the limit while loading, give an error naming the
// file.
func TestAttackLoad(t *testing.T) {
	for _, tc := range []struct{ name, decls, want string }{
		// yaegi v0.16.1 dereferences nil in nodeType2 on a builtin used
		// as a value (Go: "recover (built-in) must be called").
		{"recover", "var rec = recover", "hostile.go:11:11: recover and its calls are not allowed in a user policy"},
		{"len", "var q = len", "hostile.go:11:9: len (built-in) must be called"},
		{"recoverkey", "var m = map[any]int{recover: 1}", "hostile.go:11:21: recover and its calls are not allowed"},
		// ... and in gtaRetry on an array type whose length needs itself.
		{"selfarray", "type T [len(T{})]int", "hostile.go:11:9: the length of an array in a user policy must be a constant tensorsh can evaluate"},
		// ... and on an array type of itself; this one passes tensorsh's
		// own checks, so the crash is recovered.
		{"selftype", "type T [2]T\n\nvar t T", "hostile.go: compiling: the interpreter crashed: runtime error: invalid memory address or nil pointer dereference (this is a bug of yaegi"},
		// ... and in its generics, which also compile in exponential
		// time (A[A[A[…]]]), which cannot be stopped.
		{"generic", "type L[T any] struct{ x T }\n\nvar v L[L[int]]\n\nfunc (L[T]) M() {}", "hostile.go:11:7: generic types are not allowed in a user policy"},
		{"genericfunc", "func f[T any](x T) T { return x }", "hostile.go:11:7: generic functions are not allowed in a user policy"},
		// Allocation while loading.
		{"make", "var big = make([]int64, 1<<40)", "hostile.go: loading panicked: make of 1099511627776 elements of 8 bytes is more than a user policy may allocate (256 MiB)"},
		{"makemap", "var big = make(map[int]string, 1<<40)", "hostile.go: loading panicked: make of 1099511627776 elements of 32 bytes"},
		{"array", "var big [1 << 40]byte", "hostile.go:11:9: a type of 1099511627776 bytes is more than a user policy may allocate (256 MiB)"},
		{"arrays", "const n = 1 << 20\n\ntype row [n]int32\n\nvar big = new([n]row)", "hostile.go:15:15: a type of 4398046511104 bytes"},
		{"struct", "type half [200 << 20]byte\n\ntype S struct{ a, b half }\n\nfunc f() { var s S; _ = s }", "hostile.go:13:8: a type of 419430400 bytes"},
		// yaegi folds constants of any size while it compiles, which
		// cannot be stopped: until memory runs out.
		{"shift", "var v = 1 << 1000000000", "hostile.go:11:9: constant overflow: a constant of a user policy has at most 512 bits, as in Go"},
		{"squares", "const c0 = 1 << 500\n\nconst c1 = c0 * c0\n\nconst c2 = c1 * c1", "hostile.go:13:12: constant overflow"},
		{"strings", "const s0 = \"0123456789abcdef\"\n\nconst s1 = s0 + s0 + s0 + s0 + s0 + s0 + s0 + s0\n\nconst s2 = s1 + s1 + s1 + s1 + s1 + s1 + s1 + s1\n\nconst s3 = s2 + s2 + s2 + s2 + s2 + s2 + s2 + s2\n\nconst s4 = s3 + s3 + s3 + s3 + s3 + s3 + s3 + s3\n\nconst s5 = s4 + s4 + s4 + s4 + s4 + s4 + s4 + s4\n\nconst s6 = s5 + s5 + s5 + s5 + s5 + s5 + s5 + s5", "hostile.go:23:12: a string constant of a user policy has at most 1 MiB"},
		// yaegi writes types out in full: doubling them on each line
		// takes exponential time to compile, which cannot be stopped.
		{"ptrtypes", doubling("type P0 struct{ x int }", "type P%d struct{ a, b *P%d }", "var v P39"), "hostile.go:33:6: a type of a user policy has at most 10000 parts written out in full; this one has 14332"},
		{"functypes", doubling("type F0 func(int)", "type F%d func(F%d, F%d)", "var v F39"), "hostile.go:33:6: a type of a user policy has at most 10000 parts"},
		{"interfaces", doubling("type I0 interface{ M() }", "type I%d interface {\n\tI%d\n\tI%d\n}", "type X struct{}\n\nfunc (X) M() {}\n\nvar v I39 = X{}"), "hostile.go:63:6: a type of a user policy has at most 10000 parts"},
		// A keyed literal sets its length.
		{"keyed", "var a = []int{1 << 30: 1}", "hostile.go:11:15: a composite literal of 1073741825 elements of 8 bytes is more than a user policy may allocate (256 MiB)"},
		{"keyed2", "var a = [][]int{{1 << 30: 1}}", "hostile.go:11:18: a composite literal of 1073741825 elements of 64 bytes"},
		// yaegi compiles in time quadratic in the nesting of an
		// expression: a sum of 10⁴ terms takes seconds, 10⁵ minutes.
		{"nesting", "var x = 1" + strings.Repeat(" + 1", 20000), "the source of a user policy nests at most 500 deep"},
		{"source", "var x = 1\n" + strings.Repeat("// a long comment\n", 1<<16), "hostile.go: a user policy has at most 1 MiB of source, this one 1179"},
		{"arraylen", "var n = 3\n\nvar a [n]int", "hostile.go:13:8: the length of an array in a user policy must be a constant"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if !isolate(t) {
				return
			}
			_, err := LoadSource("hostile.go", []byte(hostile("", "\treturn a, nil", tc.decls)), Options{})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %.300v\nwant %s", err, tc.want)
			}
		})
	}
}

// TestAttackForge: the policy cannot reach tensorsh's helpers. Before,
// resetting the tick counter in a loop kept it spinning after the
// "stopped" error, a core at 100% for ever, and resetting the depth
// counter overflowed the stack, which kills the process.
func TestAttackForge(t *testing.T) {
	for _, tc := range []struct{ name, body, decls, want string }{
		{"ticks", "\tfor {\n\t\ttensorshTicks__ = 0\n\t}", "", "hostile.go:9:3: the name tensorshTicks__ is reserved for tensorsh's own helpers in a user policy"},
		{"depth", "\ttensorshDepth__ = 0\n\treturn Promote(a, b)", "", "hostile.go:8:2: the name tensorshDepth__ is reserved"},
		{"shadow", "\treturn a, nil", "func tensorshTick__() {}", "hostile.go:11:6: the name tensorshTick__ is reserved"},
		{"runtime", "\treturn a, nil", "var _ = tensorshrt__.Enter", "hostile.go:11:9: the name tensorshrt__ is reserved"},
		{"import", "\treturn a, nil", "", "hostile.go:5:2: import \"tensorshrt\" is not allowed"},
		{"result", "\ttensorshErr__ = nil\n\treturn a, nil", "", "hostile.go:8:2: the name tensorshErr__ is reserved"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if !isolate(t) {
				return
			}
			imports := ""
			if tc.name == "import" {
				imports = "\t\"tensorshrt\"\n"
			}
			p, err := LoadSource("hostile.go", []byte(hostile(imports, tc.body, tc.decls)), Options{Timeout: 100 * time.Millisecond})
			if err == nil {
				err = promoteI8(p)
				t.Errorf("the policy loaded, and Promote gave %v", err)
				return
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v\nwant %s", err, tc.want)
			}
		})
	}
}

// A counter counts what a policy prints.
type counter struct{ n atomic.Int64 }

func (c *counter) Write(b []byte) (int, error) { c.n.Add(1); return len(b), nil }

// waitQuiet waits, at most until t's deadline or a minute, for the
// policy's printing to stop; it reports whether it did.
func waitQuiet(t *testing.T, c *counter) bool {
	end := time.Now().Add(time.Minute)
	if d, ok := t.Deadline(); ok && d.Before(end) {
		end = d.Add(-5 * time.Second)
	}
	last := c.n.Load()
	for time.Now().Before(end) {
		time.Sleep(200 * time.Millisecond)
		n := c.n.Load()
		if n == last {
			return true
		}
		last = n
	}
	return false
}

// TestAttackStop: a stopped policy stops: no loop of it runs on, in its
// deferred functions or in functions Go code calls back, after the call
// returned its error.
func TestAttackStop(t *testing.T) {
	for _, tc := range []struct{ name, imports, body, decls string }{
		{"loop", "", "\tfor {\n\t\tprintln(\"spin\")\n\t}", ""},
		{"defer", "", "\tdefer func() {\n\t\tfor {\n\t\t\tprintln(\"deferred\")\n\t\t}\n\t}()\n\tfor {\n\t}", ""},
		{"callback", "\t\"strings\"\n", "\tstrings.Map(func(r rune) rune {\n\t\tfor {\n\t\t\tprintln(\"callback\")\n\t\t}\n\t}, \"abc\")\n\treturn a, nil", ""},
		{"recursion", "", "\tfor {\n\t\tspin(0)\n\t}", "func spin(n int) {\n\tprintln(n)\n\tif n < 900 {\n\t\tspin(n + 1)\n\t}\n}"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if !isolate(t) {
				return
			}
			var out counter
			p := load(t, "hostile.go", hostile(tc.imports, tc.body, tc.decls), Options{Timeout: 100 * time.Millisecond, Output: &out})
			err := promoteI8(p)
			if err == nil || !strings.Contains(err.Error(), "hostile: Promote(i8, i8) did not return within 100ms, so the policy was stopped and is now broken") {
				t.Fatalf("Promote: %v", err)
			}
			if !waitQuiet(t, &out) {
				t.Fatalf("the policy still runs after its call was stopped (%d lines printed)", out.n.Load())
			}
			if err2 := promoteI8(p); err2 == nil || err2.Error() != err.Error() {
				t.Errorf("a stopped policy ran again: %v", err2)
			}
		})
	}
}

// TestAttackAlloc: allocation in a policy is bounded. Before, these ended
// the process with "fatal error: out of memory".
func TestAttackAlloc(t *testing.T) {
	for _, tc := range []struct {
		name, imports, body, want string
		broken                    bool // the call was stopped, not refused
		slow                      bool // seconds of allocation: skipped with -short
	}{
		{"make", "", "\t_ = make([]byte, 1<<40)\n\treturn a, nil", "Promote(i8, i8) panicked: make of 1099511627776 bytes is more than a user policy may allocate (256 MiB)", false, false},
		{"makevar", "", "\tn := uint64(1) << 63\n\t_ = make([]int, 0, n)\n\treturn a, nil", "panicked: make of more than 4611686018427387904 bytes", false, false},
		{"makeneg", "", "\tn := -1\n\t_ = make([]int, n)\n\treturn a, nil", "panicked: make: negative size -1", false, false},
		{"makefloat", "", "\t_ = make([]int, 1e12)\n\treturn a, nil", "panicked: make of 1000000000000 elements of 8 bytes", false, false},
		{"makerows", "", "\t_ = make([][1 << 20]byte, 1<<10)\n\treturn a, nil", "panicked: make of 1024 elements of 1048576 bytes", false, false},
		{"repeat", "\t\"strings\"\n", "\t_ = strings.Repeat(\"x\", 1<<40)\n\treturn a, nil", "panicked: strings.Repeat of 1099511627776 bytes is more than a user policy may allocate (256 MiB)", false, false},
		{"repeatover", "\t\"strings\"\n", "\t_ = strings.Repeat(\"xyz\", 1<<62)\n\treturn a, nil", "panicked: strings.Repeat of more than", false, false},
		{"join", "\t\"strings\"\n", "\tbig := strings.Repeat(\"x\", 1<<20)\n\txs := make([]string, 1<<14)\n\tfor i := range xs {\n\t\txs[i] = big\n\t}\n\t_ = strings.Join(xs, \"\")\n\treturn a, nil", "panicked: strings.Join of 17179869184 bytes", false, false},
		{"replace", "\t\"strings\"\n", "\tbig := strings.Repeat(\"x\", 1<<20)\n\t_ = strings.ReplaceAll(big, \"\", big)\n\treturn a, nil", "panicked: strings.ReplaceAll of 1099513724928 bytes", false, false},
		{"replacer", "\t\"strings\"\n", "\tbig := strings.Repeat(\"x\", 1<<20)\n\t_ = strings.NewReplacer(\"x\", big).Replace(big)\n\treturn a, nil", "panicked: strings.Replacer.Replace of 1048577 elements of 1048577 bytes", false, false},
		{"grow", "\t\"strings\"\n", "\tvar sb strings.Builder\n\tsb.Grow(1 << 40)\n\treturn a, nil", "panicked: strings.Builder.Grow of 1099511627776 bytes", false, false},
		{"split", "\t\"strings\"\n", "\t_ = strings.Split(strings.Repeat(\"x\", 200<<20), \"\")\n\treturn a, nil", "panicked: strings.Split of 209715201 elements of 16 bytes", false, false},
		// fmt builds its output in memory: widths of 10⁶ (64 GB here),
		// copies of one string, a value that holds itself (a stack
		// overflow in fmt).
		{"widths", "\t\"fmt\"\n\t\"strings\"\n", "\targs := make([]any, 2<<16)\n\tfor i := range args {\n\t\targs[i] = 1000000 * (1 - i%2)\n\t}\n\t_ = fmt.Sprintf(strings.Repeat(\"%*d\", 1<<16), args...)\n\treturn a, nil", "panicked: fmt.Sprintf: the text could be longer than a user policy may allocate (256 MiB)", false, false},
		{"errorf", "\t\"fmt\"\n\t\"strings\"\n", "\treturn a, fmt.Errorf(strings.Repeat(\"%[1]*[2]d\", 300), 999999, 1)", "panicked: fmt.Errorf: the text could be longer than a user policy may allocate (256 MiB)", false, false},
		{"fmtok", "\t\"fmt\"\n\t\"strings\"\n", "\treturn a, fmt.Errorf(\"%d %s %v\", len(fmt.Sprintf(\"%*d\", 1000000, 1)), strings.Repeat(\"ab\", 2), []string{\"x\"})", "hostile: 1000000 abab [x]", false, false},
		{"sprint", "\t\"fmt\"\n\t\"strings\"\n", "\tbig := strings.Repeat(\"x\", 1<<20)\n\txs := make([]string, 1<<14)\n\tfor i := range xs {\n\t\txs[i] = big\n\t}\n\t_ = fmt.Sprint(xs)\n\treturn a, nil", "panicked: fmt.Sprint: the text could be longer than a user policy may allocate (256 MiB)", false, false},
		{"println", "\t\"strings\"\n", "\tbig := strings.Repeat(\"x\", 1<<20)\n\txs := make([]string, 1<<14)\n\tfor i := range xs {\n\t\txs[i] = big\n\t}\n\tprintln(\"all:\", xs)\n\treturn a, nil", "panicked: print: the text could be longer than a user policy may allocate (256 MiB)", false, false},
		{"cycle", "\t\"fmt\"\n", "\tx := []any{nil}\n\tx[0] = x\n\t_ = fmt.Sprint(x)\n\treturn a, nil", "panicked: fmt.Sprint: a value nested more than 100 deep", false, false},
		// Doubling a string needs no function: the call is stopped
		// once it keeps more than the limit alive.
		{"double", "", "\ts := \"x\"\n\tfor {\n\t\ts += s\n\t}", "Promote(i8, i8) allocated more than a user policy may (256 MiB), so the policy was stopped and is now broken", true, true},
		{"slices", "", "\tvar keep [][]byte\n\tfor {\n\t\tkeep = append(keep, make([]byte, 64<<20))\n\t}", "allocated more than a user policy may (256 MiB), so the policy was stopped", true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.slow && testing.Short() {
				t.Skip("allocates until the watchdog stops it, seconds; skipped with -short (make test runs it)")
			}
			if !isolate(t) {
				return
			}
			p := load(t, "hostile.go", hostile(tc.imports, tc.body, ""), Options{Timeout: 20 * time.Second})
			err := promoteI8(p)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v\nwant %s", err, tc.want)
			}
			if broken := p.Err() != nil; broken != tc.broken {
				t.Errorf("broken: %v, want %v", broken, tc.broken)
			}
		})
	}
}

// TestAttackError: the Error method of an error the policy returns, and
// the value of its panics, are the policy's code too: they run under the
// limits. Before, a looping Error hung the caller for ever, and a
// panicking one crashed it.
func TestAttackError(t *testing.T) {
	decls := `type loopErr struct{}

func (loopErr) Error() string {
	for {
	}
}

type panicErr struct{}

func (panicErr) Error() string { panic("no message") }

type loopStr struct{}

func (loopStr) String() string {
	for {
	}
}

type panicStr struct{}

func (panicStr) String() string { panic("no text") }

type okErr struct{}

func (okErr) Error() string { return "i8 is not welcome" }
`
	for _, tc := range []struct {
		name, imports, body, want string
		broken                    bool
	}{
		{"loop", "", "\treturn a, loopErr{}", "hostile: the Error method of the error of Promote(i8, i8) did not return within 100ms, so the policy was stopped and is now broken", true},
		{"panic", "", "\treturn a, panicErr{}", "hostile: the Error method of the error of Promote(i8, i8) panicked: no message", false},
		// yaegi hands Go code the policy's values without their methods,
		// except through the wrappers of package fmt's interfaces: then
		// fmt runs the policy's String, under the limits.
		{"stringer", "\t\"fmt\"\n", "\tvar s fmt.Stringer = loopStr{}\n\treturn a, fmt.Errorf(\"%v\", s)", "hostile: Promote(i8, i8) did not return within 100ms", true},
		{"panicvalue", "\t\"fmt\"\n", "\tvar s fmt.Stringer = loopStr{}\n\tpanic(s)", "hostile: Promote(i8, i8) did not return within 100ms", true},
		{"panicvalue2", "\t\"fmt\"\n", "\tvar s fmt.Stringer = panicStr{}\n\tpanic(s)", "hostile: Promote(i8, i8) panicked: %!v(PANIC=String method: no text)", false},
		{"panicerr", "", "\tvar e error = okErr{}\n\tpanic(e)", "hostile: Promote(i8, i8) panicked: {}", false},
		{"ok", "", "\treturn a, okErr{}", "hostile: i8 is not welcome", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if !isolate(t) {
				return
			}
			p := load(t, "hostile.go", hostile(tc.imports, tc.body, decls), Options{Timeout: 100 * time.Millisecond})
			err := promoteI8(p)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v\nwant %s", err, tc.want)
			}
			var pe *promote.Error
			if !errors.As(err, &pe) || pe.Policy != "hostile" {
				t.Errorf("%v is not an error of policy hostile", err)
			}
			if broken := p.Err() != nil; broken != tc.broken {
				t.Errorf("broken: %v, want %v", broken, tc.broken)
			}
		})
	}
}
