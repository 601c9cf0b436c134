package userpolicy

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tensorsh/tensorsh/dtypes"
	"github.com/tensorsh/tensorsh/promote"
)

// FuzzLoad loads arbitrary policy files and calls what loads: nothing may
// crash or hang the process, every load error names the file, and every
// call's error is an error of the policy.
//
//	go test -run '^$' -fuzz FuzzLoad ./internal/userpolicy/
func FuzzLoad(f *testing.F) {
	f.Add(wider)
	if src, err := os.ReadFile(filepath.Join("..", "..", "examples", "cpolicy.go")); err == nil {
		f.Add(string(src))
	}
	for _, decls := range []string{
		"var rec = recover", "var q = len", "type T [len(T{})]int", "var big [1 << 40]byte",
		"type L[T any] struct{ x T }\n\nvar v L[L[int]]\n\nfunc (L[T]) M() {}",
		"var big = make([]int64, 1<<40)", "const n = 1 << 20\n\ntype row [n]int32\n\nvar big = new([n]row)",
		"type E struct{}\n\nfunc (E) Error() string { for {} }\n\nfunc Literal(k tensorsh.Kind) (tensorsh.Type, error) { return tensorsh.Type{}, E{} }",
		"func FloatResult(a tensorsh.Type) (tensorsh.Type, error) { panic(a) }",
		"func DTypes() []tensorsh.DType { return make([]tensorsh.DType, 3) }",
	} {
		f.Add(hostile("", "\treturn a, nil", decls))
	}
	for _, body := range []string{
		"\tfor {\n\t\ttensorshTicks__ = 0\n\t}", "\ts := \"x\"\n\tfor {\n\t\ts += s\n\t}",
		"\t_ = make([]byte, 1<<40)\n\treturn a, nil", "\tprintln(a, b)\n\treturn Promote(b, a)",
		"\tif a.Weak {\n\t\treturn b, nil\n\t}\n\treturn tensorsh.Parse(\"f32?\")",
	} {
		f.Add(hostile("", body, ""))
	}
	f.Add(hostile("\t\"fmt\"\n\t\"strings\"\n", "\treturn a, fmt.Errorf(strings.Repeat(\"%[1]*[2]d\", 300), 999999, 1)", ""))
	f.Add(hostile("\t\"fmt\"\n", "\tx := []any{nil}\n\tx[0] = x\n\treturn a, fmt.Errorf(\"%v\", x)", ""))

	f.Fuzz(func(t *testing.T, src string) {
		p, err := LoadSource("fuzz.go", []byte(src), Options{Timeout: 50 * time.Millisecond})
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz.go") {
				t.Fatalf("a load error does not name the file: %v", err)
			}
			return
		}
		for _, ab := range [][2]dtypes.DType{{dtypes.I8, dtypes.F32}, {dtypes.U8, dtypes.U8}} {
			_, err := p.Binary(promote.Add, strong(ab[0]), strong(ab[1]))
			checkPolicyErr(t, p, err)
		}
		_, err = p.Literal(promote.Int64Value(1))
		checkPolicyErr(t, p, err)
		_, err = p.Unary(promote.Exp, strong(dtypes.I16))
		checkPolicyErr(t, p, err)
	})
}

func checkPolicyErr(t *testing.T, p *Policy, err error) {
	var pe *promote.Error
	if err != nil && (!errors.As(err, &pe) || pe.Policy != p.Name()) {
		t.Fatalf("%v is not an error of the policy %s", err, p.Name())
	}
}
