package eval

import (
	"fmt"
	"io"
	"strconv"

	"github.com/tensorsh/tensorsh/backend"
	"github.com/tensorsh/tensorsh/dtypes"
	"github.com/tensorsh/tensorsh/internal/format"
	"github.com/tensorsh/tensorsh/internal/sysmem"
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
		return format.PreHTML(v.Str)
	case LiteralValue, DTypeValue:
		return format.TypeHTML(s.Text(o, format.Options{}))
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
		return format.TimingJSON(o.Timing.Median, o.Timing.Runs)
	}
	if o.Value == nil {
		return format.TextJSON(o.Text)
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
		if limit := sysmem.LimitFor(need); need > limit {
			return nil, fmt.Errorf("out of memory: the JSON of %s elements needs about %s GB (available %.1f GB); write it to a stream instead", countString(float64(backend.Size(v.Tensor.Shape))), gbString(need), limit/1e9)
		}
		return format.JSON(v.Tensor, v.Type)
	case LiteralValue:
		name := v.Type.DType.FullName()
		if v.untypedLiteral() {
			name = "int"
		}
		return format.LiteralJSON(name, v.Type.Weak || v.untypedLiteral(), literalJSONValue(v.Lit)), nil
	case DTypeValue:
		return format.DTypeJSON(v.Type), nil
	case ShapeValue:
		return format.ShapeJSON(v.Shape)
	case StringValue:
		return format.StringJSON(v.Str)
	}
	return format.RichJSON(v.Str, v.HTML, v.SVG)
}

// literalJSONValue returns a literal's value as format.LiteralJSON takes
// it.
func literalJSONValue(l promote.Scalar) any {
	switch l.Kind {
	case promote.BoolScalar:
		return l.Bool
	case promote.IntScalar:
		return l.Int
	case promote.FloatScalar:
		return l.Float
	}
	return l.Complex
}

// ErrorJSON returns err as {"error":…,"pos":"line:col"}.
func ErrorJSON(err error) []byte {
	if e, ok := err.(*Error); ok {
		return format.ErrorJSON(e.Msg, e.Pos())
	}
	return format.ErrorJSON(err.Error(), "")
}
