package eval

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/tensorsh/tensorsh/backend"
	"github.com/tensorsh/tensorsh/dtypes"
	"github.com/tensorsh/tensorsh/internal/format"
	"github.com/tensorsh/tensorsh/promote"
)

// Text returns an output as the terminal shows it: a tensor's values and
// its type line ("f32?[3] cpu"), a 0-d value on one line ("f32? 2.5"), a
// dtype as its name, directive and teaching output as they are.
func (s *Session) Text(o Output, opts format.Options) string {
	if o.Value == nil {
		return o.Text
	}
	v, err := s.fetch(o.Value)
	if err != nil {
		return "<" + err.Error() + ">"
	}
	switch v.Kind {
	case TensorValue:
		if len(v.Tensor.Shape) == 0 {
			return format.TypeLine(v.Type, nil, "", opts) + " " + format.Scalar(v.Tensor)
		}
		return format.Values(v.Tensor, opts) + "\n" + format.TypeLine(v.Type, v.Tensor.Shape, v.Device, opts)
	case LiteralValue:
		if v.untypedLiteral() {
			return "int " + literalText(v.Lit)
		}
		return format.TypeLine(v.Type, nil, "", opts) + " " + literalText(v.Lit)
	case DTypeValue:
		return format.TypeLine(v.Type, nil, "", opts)
	case ShapeValue:
		return formatShape(v.Shape)
	case StringValue:
		return strconv.Quote(v.Str)
	}
	return v.Str
}

// literalText formats a literal as tensorsh prints values: true/false for
// bools, Python's repr otherwise.
func literalText(l promote.Scalar) string {
	if l.Kind == promote.BoolScalar {
		return strconv.FormatBool(l.Bool)
	}
	return l.String()
}

// HTML returns the rich form of an output for Jupyter's text/html, or ""
// when plain text says it all.
func (s *Session) HTML(o Output) string {
	if o.Value == nil {
		return ""
	}
	v, err := s.fetch(o.Value)
	if err != nil {
		return ""
	}
	switch v.Kind {
	case TensorValue:
		return format.HTML(v.Tensor, v.Type, v.Device)
	case TextValue:
		if v.HTML != "" {
			return v.HTML
		}
		return "<pre>" + html.EscapeString(v.Str) + "</pre>"
	case LiteralValue, DTypeValue:
		return `<code class="tensorsh-type">` + html.EscapeString(s.Text(o, format.Options{})) + "</code>"
	}
	return ""
}

// SVG returns an output's image/svg+xml form (lattice pictures), or "".
func (s *Session) SVG(o Output) string {
	if o.Value == nil {
		return ""
	}
	return o.Value.SVG
}

// WriteJSON writes what JSON returns to w. A tensor is written as it is
// formatted, so that --json output of 10^9 elements takes no memory beyond
// the tensor's own.
func (s *Session) WriteJSON(w io.Writer, o Output) error {
	if o.Value != nil && o.Value.Kind == TensorValue {
		v, err := s.fetch(o.Value)
		if err != nil {
			return err
		}
		return format.WriteJSON(w, v.Tensor, v.Type)
	}
	b, err := s.JSON(o)
	if err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}

// jsonBytesPerElem bounds the bytes JSON writes per element of dtype d:
// "false," for bools, an int64 with its sign, a float64's repr, or a pair.
func jsonBytesPerElem(d dtypes.DType) float64 {
	switch {
	case d.IsBool():
		return 6
	case d.IsInt():
		return 21
	case d.IsComplex():
		return 2*25 + 3
	}
	return 25
}

// JSON returns an output as one JSON object (SPEC §5): tensors as
// {"dtype","weak","shape","values"}, dtypes as {"kind":"dtype",…}, :time
// as {"time_ms","runs"}, text as {"text":…}.
func (s *Session) JSON(o Output) ([]byte, error) {
	if o.Timing != nil {
		ms := float64(o.Timing.Median.Nanoseconds()) / 1e6
		return json.Marshal(struct {
			TimeMS float64 `json:"time_ms"`
			Runs   int     `json:"runs"`
		}{ms, o.Timing.Runs})
	}
	if o.Value == nil {
		return json.Marshal(struct {
			Text string `json:"text"`
		}{o.Text})
	}
	v, err := s.fetch(o.Value)
	if err != nil {
		return nil, err
	}
	switch v.Kind {
	case TensorValue:
		// JSON holds every element, unlike the elided text: count what it
		// will need before building it (WriteJSON streams instead).
		need := float64(backend.Size(v.Tensor.Shape)) * jsonBytesPerElem(v.Type.DType)
		if limit := memoryLimit(); need > limit {
			return nil, fmt.Errorf("out of memory: the JSON of %s elements needs about %s GB (available %.1f GB); write it to a stream instead", countString(float64(backend.Size(v.Tensor.Shape))), gbString(need), limit/1e9)
		}
		return format.JSON(v.Tensor, v.Type)
	case LiteralValue:
		var b bytes.Buffer
		b.WriteString(`{"dtype":`)
		name, _ := json.Marshal(v.Type.DType.FullName())
		if v.untypedLiteral() {
			name = []byte(`"int"`)
		}
		b.Write(name)
		fmt.Fprintf(&b, `,"weak":%t,"shape":[],"values":`, v.Type.Weak || v.untypedLiteral())
		writeLiteralJSON(&b, v.Lit)
		b.WriteByte('}')
		return b.Bytes(), nil
	case DTypeValue:
		return format.DTypeJSON(v.Type), nil
	case ShapeValue:
		dims := v.Shape
		if dims == nil {
			dims = []int{}
		}
		return json.Marshal(struct {
			Kind  string `json:"kind"`
			Shape []int  `json:"shape"`
		}{"shape", dims})
	case StringValue:
		return json.Marshal(struct {
			Kind  string `json:"kind"`
			Value string `json:"value"`
		}{"string", v.Str})
	}
	// Text, with the HTML and SVG forms Jupyter gets (tables, diffs,
	// lattice pictures), written without escaping < > &.
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	err = enc.Encode(struct {
		Text string `json:"text"`
		HTML string `json:"text/html,omitempty"`
		SVG  string `json:"image/svg+xml,omitempty"`
	}{v.Str, v.HTML, v.SVG})
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), err
}

func writeLiteralJSON(b *bytes.Buffer, l promote.Scalar) {
	float := func(f float64) {
		switch {
		case math.IsNaN(f):
			b.WriteString(`"nan"`)
		case math.IsInf(f, 1):
			b.WriteString(`"inf"`)
		case math.IsInf(f, -1):
			b.WriteString(`"-inf"`)
		default:
			s := strconv.FormatFloat(f, 'g', -1, 64)
			if !strings.ContainsAny(s, ".eE") {
				s += ".0"
			}
			b.WriteString(s)
		}
	}
	switch l.Kind {
	case promote.BoolScalar:
		b.WriteString(strconv.FormatBool(l.Bool))
	case promote.IntScalar:
		b.WriteString(l.Int.String())
	case promote.FloatScalar:
		float(l.Float)
	case promote.ComplexScalar:
		b.WriteByte('[')
		float(real(l.Complex))
		b.WriteByte(',')
		float(imag(l.Complex))
		b.WriteByte(']')
	}
}

// ErrorJSON returns err as {"error":…,"pos":"line:col"}.
func ErrorJSON(err error) []byte {
	if e, ok := err.(*Error); ok {
		return format.ErrorJSON(e.Msg, e.Pos())
	}
	return format.ErrorJSON(err.Error(), "")
}
