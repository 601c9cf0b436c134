package teach

import (
	"strings"
	"testing"
)

func TestExplain(t *testing.T) {
	x := &Explanation{
		Expr: "i16([1, 2]) + 1.5", Policy: "jax", Title: "JAX, x64 off",
		Steps: []Step{
			{Expr: "i16[2] + f32?", Result: "f32[2]", Rule: "int and weak float: the float's default dtype at the int's width " +
				"class, a long rule that wraps onto the next line here", Broadcast: "[2] with [] → [2]"},
			{Expr: "f32[2] * f32[2]", Result: "f32[2]"},
		},
		Result: "f32[2]",
	}
	wantText := `explain i16([1, 2]) + 1.5 under jax (JAX, x64 off)
  1. i16[2] + f32? → f32[2]
     int and weak float: the float's default dtype at the int's width
     class, a long rule that wraps onto the next line here
     broadcast: [2] with [] → [2]
  2. f32[2] * f32[2] → f32[2]
result: f32[2]`
	if got := ExplainText(x); got != wantText {
		t.Errorf("ExplainText:\n%s\nwant\n%s", got, wantText)
	}
	h := ExplainHTML(x)
	for _, want := range []string{
		`<div class="tensorsh-explain"><p><code>i16([1, 2]) + 1.5</code> under <b>jax</b> (JAX, x64 off)</p><ol>`,
		"<li><code>i16[2] + f32?</code> → <code>f32[2]</code><br><small>int and weak float",
		"<br><small>broadcast: [2] with [] → [2]</small></li>",
		"</ol><p>result: <code>f32[2]</code></p></div>",
	} {
		if !strings.Contains(h, want) {
			t.Errorf("ExplainHTML lacks %q:\n%s", want, h)
		}
	}
	if got := ExplainText(&Explanation{Expr: "x", Policy: "jax", Title: "JAX", Result: "f32[3]"}); !strings.Contains(got, "\n  no operation: the value is f32[3]\n") {
		t.Errorf("no steps: %s", got)
	}
}
