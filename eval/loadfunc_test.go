package eval

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/tensorsh/tensorsh/internal/format"
)

// TestSessionLoad checks that :load and :policy load read through
// Session.Load when it is set: the browser playground (web/) has no file
// system and serves the lessons and the user's files from memory.
func TestSessionLoad(t *testing.T) {
	policy, err := os.ReadFile("../examples/cpolicy.go")
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"mem/c.go":      string(policy),
		"mem/script.ts": "i8([100]) + i8([100])\n",
	}
	s, err := New("jax")
	if err != nil {
		t.Fatal(err)
	}
	s.Load = func(name string) ([]byte, error) {
		if f, ok := files[name]; ok {
			return []byte(f), nil
		}
		return nil, errors.New(name + ": not in memory")
	}
	ctx := context.Background()
	for _, tc := range []struct {
		src, want string
	}{
		// The files exist only in memory: textfile.Read would fail.
		{":policy load mem/c.go", "policy c"},
		// C11 §6.3.1.8: the integer promotions make int8 + int8 an int.
		{":load mem/script.ts", "i32[1]"},
		{":policy load mem/none.go", "loading a user policy: mem/none.go: not in memory"},
		{":load mem/none.tsh", "mem/none.tsh: not in memory"},
	} {
		outs, err := s.Execute(ctx, "<test>", tc.src)
		var got strings.Builder
		for _, o := range outs {
			got.WriteString(s.Text(o, format.Options{}))
		}
		if err != nil {
			got.WriteString(err.Error())
		}
		if !strings.Contains(got.String(), tc.want) {
			t.Errorf("%s: %q, want %q", tc.src, got.String(), tc.want)
		}
	}
}
