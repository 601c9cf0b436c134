package format

import (
	"bytes"
	"encoding/json"
	"html"
	"math/big"
	"strconv"
	"time"
)

// The JSON and HTML of what a statement gives besides tensors and dtypes
// (SPEC §5): literals, shapes, strings, timings and text.

// LiteralJSON returns a Python scalar (a literal not yet given an array's
// dtype) as {"dtype":…,"weak":…,"shape":[],"values":v}; v is a bool, an
// integer of any size (*big.Int), a float64 or a complex128, written as a
// tensor's elements are.
func LiteralJSON(dtype string, weak bool, v any) []byte {
	var b bytes.Buffer
	b.WriteString(`{"dtype":`)
	writeJSONString(&b, dtype)
	b.WriteString(`,"weak":`)
	b.WriteString(strconv.FormatBool(weak))
	b.WriteString(`,"shape":[],"values":`)
	switch v := v.(type) {
	case bool:
		b.WriteString(strconv.FormatBool(v))
	case *big.Int:
		b.WriteString(v.String())
	case float64:
		writeJSONFloat(&b, v)
	case complex128:
		b.WriteByte('[')
		writeJSONFloat(&b, real(v))
		b.WriteByte(',')
		writeJSONFloat(&b, imag(v))
		b.WriteByte(']')
	default:
		b.WriteString("null")
	}
	b.WriteByte('}')
	return b.Bytes()
}

// TimingJSON returns what :time and :timeit measured as
// {"time_ms":…,"runs":…}.
func TimingJSON(median time.Duration, runs int) ([]byte, error) {
	return json.Marshal(struct {
		TimeMS float64 `json:"time_ms"`
		Runs   int     `json:"runs"`
	}{float64(median.Nanoseconds()) / 1e6, runs})
}

// TextJSON returns directive output as {"text":…}.
func TextJSON(text string) ([]byte, error) {
	return json.Marshal(struct {
		Text string `json:"text"`
	}{text})
}

// ShapeJSON returns a shape as {"kind":"shape","shape":[…]}.
func ShapeJSON(dims []int) ([]byte, error) {
	if dims == nil {
		dims = []int{}
	}
	return json.Marshal(struct {
		Kind  string `json:"kind"`
		Shape []int  `json:"shape"`
	}{"shape", dims})
}

// StringJSON returns a string value as {"kind":"string","value":…}.
func StringJSON(s string) ([]byte, error) {
	return json.Marshal(struct {
		Kind  string `json:"kind"`
		Value string `json:"value"`
	}{"string", s})
}

// RichJSON returns teaching output as {"text":…} with the HTML and SVG
// forms Jupyter gets (tables, diffs, lattice pictures) when there are
// any, written without escaping < > &.
func RichJSON(text, htmlText, svg string) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	err := enc.Encode(struct {
		Text string `json:"text"`
		HTML string `json:"text/html,omitempty"`
		SVG  string `json:"image/svg+xml,omitempty"`
	}{text, htmlText, svg})
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), err
}

// TypeHTML returns a literal's or dtype's one line ("f32? 2.5") as
// HTML code.
func TypeHTML(line string) string {
	return `<code class="tensorsh-type">` + html.EscapeString(line) + "</code>"
}

// PreHTML returns preformatted text as HTML.
func PreHTML(text string) string {
	return "<pre>" + html.EscapeString(text) + "</pre>"
}

// HTMLPage returns body as a standalone HTML document, as :save writes
// it.
func HTMLPage(body string) string {
	return "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>tensorsh</title></head><body>\n" + body + "\n</body></html>\n"
}

// WithPolicyHTML returns the HTML of a value with a line under it naming
// the policy it was computed under (its title on hover): a notebook's
// result depends on it.
func WithPolicyHTML(value, policy, title string) string {
	return `<div class="tsh-result">` + value + `<div class="tsh-policy" style="color:#6b7280;font-size:85%" title="` +
		html.EscapeString(title) + `">policy ` + html.EscapeString(policy) + `</div></div>`
}
