package teach

import (
	"fmt"
	"html"
	"strings"
)

// A Comparison is what compare(expr) found: the expression and, for each
// policy in order, the type and value it gives, or its error.
type Comparison struct {
	Expr string // the expression, as the printer writes it
	Rows []CompareRow
}

// A CompareRow is one policy's answer to a Comparison.
type CompareRow struct {
	Policy string
	Type   string // the value's type and shape, "f32?[1]", or its kind
	Value  string // the values on one line, or the error's message
	Err    bool   // the policy refused the expression; Type is unused
}

// comparePolicyWidth is the width at which a row's list of policies
// wraps, continued below.
const comparePolicyWidth = 30

// A compareGroup is the policies that agree on one type and value.
type compareGroup struct {
	policies []string
	typ      string
	value    string
	err      bool
}

// groupRows merges the rows that agree into the first of them, in the
// order of their first rows, so that seventeen policies stay readable:
// "jax, keras  f32?[1]  [101.5]".
func groupRows(rows []CompareRow) []*compareGroup {
	var out []*compareGroup
	at := map[string]*compareGroup{}
	for _, r := range rows {
		g := &compareGroup{policies: []string{r.Policy}, typ: r.Type, value: r.Value, err: r.Err}
		if r.Err {
			g.typ = "error"
		}
		k := g.typ + "\x00" + g.value
		if into, ok := at[k]; ok {
			into.policies = append(into.policies, r.Policy)
			continue
		}
		at[k] = g
		out = append(out, g)
	}
	return out
}

// wrapList breaks a list into lines of at most width characters, commas
// included (longer items stand alone); lines after the first are meant to
// be indented by two more spaces.
func wrapList(items []string, width int) []string {
	var lines []string
	line, limit := "", width
	for _, item := range items {
		switch {
		case line == "":
			line = item
		case runeLen(line)+len(", ")+runeLen(item)+len(",") <= limit:
			line += ", " + item
		default:
			lines = append(lines, line+",")
			line, limit = item, width-2
		}
	}
	return append(lines, line)
}

// CompareText renders c as the terminal shows it: a header, then one row
// for each group of policies that agree, its list of policies wrapped
// onto indented lines below it.
func CompareText(c *Comparison) string {
	groups := groupRows(c.Rows)
	wp, wt := len("policy"), len("dtype")
	names := make([][]string, len(groups))
	for i, g := range groups {
		names[i] = wrapList(g.policies, comparePolicyWidth)
		for _, l := range names[i] {
			wp = max(wp, runeLen(l))
		}
		wt = max(wt, runeLen(g.typ))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "compare %s", c.Expr)
	fmt.Fprintf(&b, "\n  %s  %s  %s", pad("policy", wp), pad("dtype", wt), "value")
	for i, g := range groups {
		fmt.Fprintf(&b, "\n  %s  %s  %s", pad(names[i][0], wp), pad(g.typ, wt), g.value)
		for _, l := range names[i][1:] {
			fmt.Fprintf(&b, "\n    %s", l)
		}
	}
	return b.String()
}

// CompareHTML renders c as an HTML table with a row for each group of
// policies that agree; the rows of errors have the class "error".
func CompareHTML(c *Comparison) string {
	var b strings.Builder
	fmt.Fprintf(&b, `<div class="tensorsh-compare"><p><code>%s</code> under every policy</p><table><tr><th>policy</th><th>dtype</th><th>value</th></tr>`, html.EscapeString(c.Expr))
	for _, g := range groupRows(c.Rows) {
		cls := ""
		if g.err {
			cls = ` class="error" style="color:#b00"`
		}
		fmt.Fprintf(&b, "<tr%s><td>%s</td><td><code>%s</code></td><td>%s</td></tr>", cls,
			html.EscapeString(strings.Join(g.policies, ", ")), html.EscapeString(g.typ), html.EscapeString(g.value))
	}
	b.WriteString("</table></div>")
	return b.String()
}
