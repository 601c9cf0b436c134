package web

import (
	"context"
	"errors"
	"html"

	"github.com/tensorsh/tensorsh/eval"
	"github.com/tensorsh/tensorsh/internal/format"
)

// An Item is one thing the page shows for a cell, in order: a value (its
// text exactly as the terminal prints it, with the HTML table or the SVG
// drawing the Jupyter kernel sends for it), directive output, a warning,
// or the cell's error.
type Item struct {
	// Kind is "value", "text", "warning" or "error".
	Kind string `json:"kind"`
	// Text is the plain form: a value as the REPL prints it (values and
	// the type line such as "f32?[3] cpu"), an error's report with the
	// source line and a caret under the culprit.
	Text string `json:"text"`
	// HTML is set for tensors, dtypes and tables; SVG for pictures
	// (lattice()). At most one of them is set.
	HTML string `json:"html,omitempty"`
	SVG  string `json:"svg,omitempty"`
	// Name classifies an error (SyntaxError, PromotionError …).
	Name string `json:"name,omitempty"`
}

// Execute runs code in s and returns what the page shows for it. name
// labels error positions ("<cell 3>"). The bundle is the Jupyter kernel's
// (jupyter.SessionEngine): the session renders, the page only places it.
func Execute(ctx context.Context, s *eval.Session, name, code string) []Item {
	outs, err := s.Execute(ctx, name, code)
	items := make([]Item, 0, len(outs)+1)
	for _, o := range outs {
		switch {
		case o.Value != nil:
			items = append(items, value(s, o))
		case o.Warning != "":
			items = append(items, Item{Kind: "warning", Text: o.Text})
		default:
			items = append(items, Item{Kind: "text", Text: o.Text})
		}
	}
	if err != nil {
		it := Item{Kind: "error", Text: "error: " + err.Error()}
		var ee *eval.Error
		if errors.As(err, &ee) {
			it.Text, it.Name = ee.Report(), ee.Name
		}
		items = append(items, it)
	}
	return items
}

// value renders one result: the SVG of a picture, else the HTML of a
// tensor, dtype or table with the policy it was computed under (the
// result depends on it), as the kernel does.
func value(s *eval.Session, o eval.Output) Item {
	it := Item{Kind: "value", Text: s.Text(o, format.Options{})}
	if svg := s.SVG(o); svg != "" {
		it.SVG = svg
		return it
	}
	if h := s.HTML(o); h != "" {
		if k := o.Value.Kind; k == eval.TensorValue || k == eval.LiteralValue || k == eval.DTypeValue {
			p := s.Policy()
			h = `<div class="tsh-result">` + h + `<div class="tsh-policy" title="` +
				html.EscapeString(p.Title()) + `">policy ` + html.EscapeString(p.Name()) + `</div></div>`
		}
		it.HTML = h
	}
	return it
}
