package format

import (
	"math"
	"math/big"
	"testing"
	"time"
)

// TestValuesJSON checks the JSON of literals, timings, shapes, strings and
// text (SPEC §5). Floats are written as tensors' elements are: Python's
// repr, a JSON number, or a string when not finite.
func TestValuesJSON(t *testing.T) {
	big70 := new(big.Int).Lsh(big.NewInt(1), 70)
	for _, tc := range []struct {
		got  []byte
		want string
	}{
		{LiteralJSON("int", true, big70), `{"dtype":"int","weak":true,"shape":[],"values":1180591620717411303424}`},
		{LiteralJSON("float32", true, 1234567.5), `{"dtype":"float32","weak":true,"shape":[],"values":1234567.5}`},
		{LiteralJSON("float32", true, 1e16), `{"dtype":"float32","weak":true,"shape":[],"values":1e+16}`},
		{LiteralJSON("float32", true, math.Inf(-1)), `{"dtype":"float32","weak":true,"shape":[],"values":"-inf"}`},
		{LiteralJSON("complex64", true, complex(0, 2)), `{"dtype":"complex64","weak":true,"shape":[],"values":[0.0,2.0]}`},
		{LiteralJSON("bool", false, true), `{"dtype":"bool","weak":false,"shape":[],"values":true}`},
		{must(TimingJSON(1500*time.Microsecond, 7)), `{"time_ms":1.5,"runs":7}`},
		{must(TextJSON("policy <numpy>")), `{"text":"policy \u003cnumpy\u003e"}`},
		{must(ShapeJSON(nil)), `{"kind":"shape","shape":[]}`},
		{must(ShapeJSON([]int{2, 3})), `{"kind":"shape","shape":[2,3]}`},
		{must(StringJSON("a\"b")), `{"kind":"string","value":"a\"b"}`},
		{must(RichJSON("t", "<b>h</b>", "")), `{"text":"t","text/html":"<b>h</b>"}`},
	} {
		if string(tc.got) != tc.want {
			t.Errorf("got %s, want %s", tc.got, tc.want)
		}
	}
	if got := TypeHTML("f32? <2>"); got != `<code class="tensorsh-type">f32? &lt;2&gt;</code>` {
		t.Errorf("TypeHTML: %s", got)
	}
	if got := PreHTML("a & b"); got != "<pre>a &amp; b</pre>" {
		t.Errorf("PreHTML: %s", got)
	}
}

func must(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}

func TestWithPolicyHTML(t *testing.T) {
	got := WithPolicyHTML("<table></table>", "numpy", `NumPy 2 "NEP 50"`)
	want := `<div class="tsh-result"><table></table><div class="tsh-policy" style="color:#6b7280;font-size:85%" title="NumPy 2 &#34;NEP 50&#34;">policy numpy</div></div>`
	if got != want {
		t.Errorf("got %s\nwant %s", got, want)
	}
}
