package format

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"

	"github.com/tensorsh/tensorsh/backend"
	"github.com/tensorsh/tensorsh/dtypes"
)

// JSON returns t as one JSON object (SPEC §5):
//
//	{"dtype":"float32","weak":true,"shape":[3],"values":[2.5,3.5,4.5]}
//
// dtype is the full name of typ.DType, which must be t's dtype, and weak is
// typ.Weak. values nests lists like numpy's tolist(), a bare value for a
// 0-d tensor, with every element (no elision). Each float is its exact
// stored value, written as the shortest decimal that rounds back to that
// value as a float64 — Python's repr of float(x), which is what
// json.dumps(a.tolist()) writes for a NumPy array. Every float8, float16,
// bfloat16, tensor_float32 and float32 value is exact in float64, so a
// float32 0.1 is 0.10000000149011612 and a float8_e4m3fn 448 is 448.0
// (the terminal keeps NumPy's shorter per-dtype display). NaN and
// infinities are the strings "nan", "inf" and "-inf";
// complex values are [re, im] pairs; integers are exact (18446744073709551615
// for the largest uint64); bools are true and false.
func JSON(t *backend.Tensor, typ dtypes.Type) ([]byte, error) {
	var b bytes.Buffer
	if err := WriteJSON(&b, t, typ); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// jsonWriter is what the JSON writers write to: a bytes.Buffer or a
// bufio.Writer.
type jsonWriter interface {
	io.Writer
	io.ByteWriter
	io.StringWriter
}

// WriteJSON writes what JSON returns to w as it goes, so that printing a
// tensor of 10^9 elements needs no more memory than the tensor itself.
func WriteJSON(w io.Writer, t *backend.Tensor, typ dtypes.Type) error {
	if err := Check(t); err != nil {
		return err
	}
	if typ.DType != t.DType {
		return fmt.Errorf("format: type %v does not match the tensor's dtype %v", typ, t.DType)
	}
	b, ok := w.(jsonWriter)
	var bw *bufio.Writer
	if !ok {
		bw = bufio.NewWriterSize(w, 64<<10)
		b = bw
	}
	b.WriteString(`{"dtype":`)
	writeJSONString(b, typ.DType.FullName())
	b.WriteString(`,"weak":`)
	b.WriteString(strconv.FormatBool(typ.Weak))
	b.WriteString(`,"shape":[`)
	for i, d := range t.Shape {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(d))
	}
	b.WriteString(`],"values":`)
	e := newElems(t)
	strides := make([]int, len(t.Shape))
	s := 1
	for i := len(t.Shape) - 1; i >= 0; i-- {
		strides[i] = s
		s *= t.Shape[i]
	}
	var rec func(axis, offset int)
	rec = func(axis, offset int) {
		if axis == len(t.Shape) {
			writeJSONElem(b, e, offset)
			return
		}
		b.WriteByte('[')
		for i := 0; i < t.Shape[axis]; i++ {
			if i > 0 {
				b.WriteByte(',')
			}
			rec(axis+1, offset+i*strides[axis])
		}
		b.WriteByte(']')
	}
	rec(0, 0)
	b.WriteByte('}')
	if bw != nil {
		return bw.Flush()
	}
	return nil
}

func writeJSONElem(b jsonWriter, e elems, i int) {
	switch e.kind {
	case kindFloat:
		writeJSONFloat(b, e.floatAt(i))
	case kindComplex:
		re, im := e.complexAt(i)
		b.WriteByte('[')
		writeJSONFloat(b, re)
		b.WriteByte(',')
		writeJSONFloat(b, im)
		b.WriteByte(']')
	default:
		b.WriteString(e.repr(i)) // true, false and integers are JSON as they are
	}
}

// float64Format is the format JSON writes every float in.
var float64Format = floatFormatOf(dtypes.F64)

// writeJSONFloat writes v as a JSON number, the shortest decimal that reads
// back as v in float64 (Python's repr: a valid JSON number), or as a string
// when it is not finite.
func writeJSONFloat(b jsonWriter, v float64) {
	s := floatRepr(v, float64Format, false)
	if math.IsNaN(v) || math.IsInf(v, 0) {
		b.WriteByte('"')
		b.WriteString(s)
		b.WriteByte('"')
		return
	}
	b.WriteString(s)
}

// writeJSONString writes s as a JSON string, leaving <, > and & as they are.
func writeJSONString(b jsonWriter, s string) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	b.Write(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
}

// DTypeJSON returns a dtype value (what promote(…) and dtype(x) give) as
// JSON: {"kind":"dtype","dtype":"int16","weak":false}.
func DTypeJSON(typ dtypes.Type) []byte {
	var b bytes.Buffer
	b.WriteString(`{"kind":"dtype","dtype":`)
	writeJSONString(&b, typ.DType.FullName())
	b.WriteString(`,"weak":`)
	b.WriteString(strconv.FormatBool(typ.Weak))
	b.WriteByte('}')
	return b.Bytes()
}

// ErrorJSON returns an error as JSON: {"error":"…","pos":"1:9"}, without
// "pos" when pos is empty.
func ErrorJSON(msg, pos string) []byte {
	var b bytes.Buffer
	b.WriteString(`{"error":`)
	writeJSONString(&b, msg)
	if pos != "" {
		b.WriteString(`,"pos":`)
		writeJSONString(&b, pos)
	}
	b.WriteByte('}')
	return b.Bytes()
}
