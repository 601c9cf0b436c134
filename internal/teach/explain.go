package teach

import (
	"fmt"
	"html"
	"strings"
)

// An Explanation is what explain(expr) found: the expression, the policy
// it was compiled under, each operation that gave it its dtype and shape,
// and the result.
type Explanation struct {
	Expr          string // the expression, as the printer writes it
	Policy, Title string // the policy's name and title
	Steps         []Step
	Result        string // the result's type and shape, "f32?[3]"
}

// A Step is one operation of an Explanation.
type Step struct {
	Expr   string // the operation on its operands' types: "i16[3] + f32?"
	Result string // the result's type and shape
	Rule   string // the rule of the policy that fired, or ""
	// Broadcast is set when the operands' shapes differ: "[3,1] with [4]
	// → [3,4]".
	Broadcast string
}

// ExplainText renders e as the terminal shows it: a header, the steps
// numbered with their rules and broadcasts indented under them, and the
// result.
func ExplainText(e *Explanation) string {
	var b strings.Builder
	fmt.Fprintf(&b, "explain %s under %s (%s)", e.Expr, e.Policy, e.Title)
	if len(e.Steps) == 0 {
		b.WriteString("\n  no operation: the value is " + e.Result)
	}
	for i, st := range e.Steps {
		fmt.Fprintf(&b, "\n%3d. %s → %s", i+1, st.Expr, st.Result)
		if st.Rule != "" {
			b.WriteString("\n     " + Wrap(st.Rule, 70, "     "))
		}
		if st.Broadcast != "" {
			b.WriteString("\n     broadcast: " + st.Broadcast)
		}
	}
	fmt.Fprintf(&b, "\nresult: %s", e.Result)
	return b.String()
}

// ExplainHTML renders e as an HTML ordered list of the steps, for
// notebooks.
func ExplainHTML(e *Explanation) string {
	var b strings.Builder
	fmt.Fprintf(&b, `<div class="tensorsh-explain"><p><code>%s</code> under <b>%s</b> (%s)</p><ol>`,
		html.EscapeString(e.Expr), html.EscapeString(e.Policy), html.EscapeString(e.Title))
	for _, st := range e.Steps {
		fmt.Fprintf(&b, "<li><code>%s</code> → <code>%s</code>", html.EscapeString(st.Expr), html.EscapeString(st.Result))
		if st.Rule != "" {
			fmt.Fprintf(&b, "<br><small>%s</small>", html.EscapeString(st.Rule))
		}
		if st.Broadcast != "" {
			fmt.Fprintf(&b, "<br><small>broadcast: %s</small>", html.EscapeString(st.Broadcast))
		}
		b.WriteString("</li>")
	}
	fmt.Fprintf(&b, "</ol><p>result: <code>%s</code></p></div>", html.EscapeString(e.Result))
	return b.String()
}
