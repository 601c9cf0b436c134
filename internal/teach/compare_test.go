package teach

import (
	"strings"
	"testing"
)

func TestWrapList(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"jax", []string{"jax"}},
		{"jax, anvil", []string{"jax, anvil"}},
		{"jax64, numpy, numpy1, torch, triton, triton-doc, max", []string{"jax64, numpy, numpy1, torch,", "triton, triton-doc, max"}},
		{"a-very-long-policy-name-indeed-yes, b", []string{"a-very-long-policy-name-indeed-yes,", "b"}},
	} {
		got := wrapList(strings.Split(tc.in, ", "), comparePolicyWidth)
		if strings.Join(got, "|") != strings.Join(tc.want, "|") {
			t.Errorf("wrapList(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestCompare checks that the policies that agree share a row, in the
// order of their first policy, that a long list of policies continues on
// indented lines, and that errors are rows of their own.
func TestCompare(t *testing.T) {
	c := &Comparison{Expr: "u8([200]) + 300", Rows: []CompareRow{
		{Policy: "jax", Type: "u8[1]", Value: "[244]"},
		{Policy: "numpy", Err: true, Value: "Python integer 300 out of bounds for uint8"},
		{Policy: "jax64", Type: "u8[1]", Value: "[244]"},
		{Policy: "torch", Type: "u8[1]", Value: "[244]"},
		{Policy: "triton", Type: "u8[1]", Value: "[244]"},
		{Policy: "triton-doc", Type: "u8[1]", Value: "[244]"},
		{Policy: "anvil", Type: "i32[1]", Value: "[500]"},
	}}
	wantText := `compare u8([200]) + 300
  policy                      dtype   value
  jax, jax64, torch, triton,  u8[1]   [244]
    triton-doc
  numpy                       error   Python integer 300 out of bounds for uint8
  anvil                       i32[1]  [500]`
	if got := CompareText(c); got != wantText {
		t.Errorf("CompareText:\n%s\nwant\n%s", got, wantText)
	}
	h := CompareHTML(c)
	for _, want := range []string{
		`<div class="tensorsh-compare"><p><code>u8([200]) + 300</code> under every policy</p><table><tr><th>policy</th><th>dtype</th><th>value</th></tr>`,
		"<tr><td>jax, jax64, torch, triton, triton-doc</td><td><code>u8[1]</code></td><td>[244]</td></tr>",
		`<tr class="error" style="color:#b00"><td>numpy</td><td><code>error</code></td><td>Python integer 300 out of bounds for uint8</td></tr>`,
		"</table></div>",
	} {
		if !strings.Contains(h, want) {
			t.Errorf("CompareHTML lacks %q:\n%s", want, h)
		}
	}
}
