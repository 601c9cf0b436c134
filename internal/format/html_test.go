package format

import (
	"encoding/xml"
	"io"
	"strings"
	"testing"

	"github.com/tensorsh/tensorsh/backend"
	"github.com/tensorsh/tensorsh/dtypes"
)

// An htmlNode is a parsed element of HTML's output.
type htmlNode struct {
	name     string
	attr     map[string]string
	children []*htmlNode
	text     string // all the text inside, children included
}

// parseHTML parses s as strict XML (so it must be well-formed: one root,
// balanced tags, quoted attributes, only XML's entities).
func parseHTML(t *testing.T, s string) *htmlNode {
	t.Helper()
	d := xml.NewDecoder(strings.NewReader(s))
	d.Strict = true
	var stack []*htmlNode
	var root *htmlNode
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("not well-formed: %v\n%s", err, s)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			n := &htmlNode{name: tok.Name.Local, attr: map[string]string{}}
			for _, a := range tok.Attr {
				n.attr[a.Name.Local] = a.Value
			}
			if len(stack) > 0 {
				p := stack[len(stack)-1]
				p.children = append(p.children, n)
			} else if root != nil {
				t.Fatalf("more than one root element:\n%s", s)
			} else {
				root = n
			}
			stack = append(stack, n)
		case xml.EndElement:
			stack = stack[:len(stack)-1]
		case xml.CharData:
			if len(stack) == 0 {
				if strings.TrimSpace(string(tok)) != "" {
					t.Fatalf("text outside the root: %q", tok)
				}
				continue
			}
			for _, n := range stack {
				n.text += string(tok)
			}
		}
	}
	if root == nil {
		t.Fatalf("no element in %q", s)
	}
	return root
}

// find returns the elements under n (n included) that match.
func (n *htmlNode) find(match func(*htmlNode) bool) []*htmlNode {
	var out []*htmlNode
	if match(n) {
		out = append(out, n)
	}
	for _, c := range n.children {
		out = append(out, c.find(match)...)
	}
	return out
}

func byName(name string) func(*htmlNode) bool {
	return func(n *htmlNode) bool { return n.name == name }
}

func byClass(class string) func(*htmlNode) bool {
	return func(n *htmlNode) bool { return strings.Contains(" "+n.attr["class"]+" ", " "+class+" ") }
}

func TestHTMLGolden(t *testing.T) {
	got := HTML(f32(sh(3), 2.5, 3.5, 4.5), dtypes.Weak(dtypes.F32), "cpu")
	want := `<div class="tsh-tensor" style="` + styleTensor + `">` +
		`<div class="tsh-badge" style="` + styleBadge + `">` +
		`<span class="tsh-dtype" style="` + styleDType + `">f32</span>` +
		`<span class="tsh-weak" style="` + styleWeak + `" title="` + weakTitle + `">?</span>` +
		`<span class="tsh-shape">[3]</span> <span class="tsh-device" style="` + styleDevice + `">cpu</span></div>` +
		`<table class="tsh-values" style="` + styleTable + `"><tbody><tr>` +
		`<td style="` + styleCell + `">2.5</td><td style="` + styleCell + `">3.5</td><td style="` + styleCell + `">4.5</td>` +
		`</tr></tbody></table></div>`
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

// TestHTML parses the output for tensors of every kind and checks its
// structure: the badge, the weak marker, the cells (the same strings as
// Values), the gaps of elided tensors and the slice captions.
func TestHTML(t *testing.T) {
	tests := []struct {
		name     string
		t        *backend.Tensor
		weak     bool
		device   string
		badge    string   // the badge's text
		cells    []string // the first td texts, in order (nil: don't check)
		nCells   int      // number of td elements, gaps included
		captions []string // the slice captions of an N-D tensor
	}{
		{name: "0-d", t: f32(nil, 2.5), weak: true, device: "cpu", badge: "f32? cpu"},
		{name: "empty", t: f64(sh(0)), device: "cpu", badge: "f64[0] cpu"},
		{name: "vector", t: ints(dtypes.I16, sh(3), 1, -2, 300), device: "cpu", badge: "i16[3] cpu",
			cells: []string{"1", "-2", "300"}, nCells: 3},
		{name: "floats like numpy", t: f64(sh(3), 1, 2.25, nan), device: "cpu", badge: "f64[3] cpu",
			cells: []string{"1.", "2.25", "nan"}, nCells: 3},
		{name: "bools", t: bools(sh(2, 2), true, false, false, true), weak: true, badge: "bool?[2,2]",
			cells: []string{"true", "false", "false", "true"}, nCells: 4},
		{name: "complex", t: c128(sh(2), 1+2i, -1i), device: "cuda", badge: "c128[2] cuda",
			cells: []string{"1.+2.j", "0.-1.j"}, nCells: 2},
		{name: "f8 and bf16 names", t: e4m3(sh(1), 0.1), device: "cpu", badge: "f8e4m3[1] cpu",
			cells: []string{"0.1"}, nCells: 1},
		{name: "escaped device", t: f64(sh(1), 1), device: `<gpu & "0">`, badge: `f64[1] <gpu & "0">`,
			cells: []string{"1."}, nCells: 1},
		// 2000 items: 3 + gap + 3 cells.
		{name: "elided vector", t: ints(dtypes.I64, sh(2000), arangeInt(2000)...), device: "cpu", badge: "i64[2000] cpu",
			cells: []string{"0", "1", "2", "…", "1997", "1998", "1999"}, nCells: 7},
		// A 100×100 matrix: 6 rows of 7 cells plus a gap row of 7.
		{name: "elided matrix", t: ints(dtypes.I64, sh(100, 100), arangeInt(10000)...), device: "cpu", badge: "i64[100,100] cpu",
			cells: []string{"0", "1", "2", "…", "97", "98", "99", "100"}, nCells: 49},
		{name: "3-D", t: ints(dtypes.I8, sh(2, 2, 2), 1, 2, 3, 4, 5, 6, 7, 8), device: "cpu", badge: "i8[2,2,2] cpu",
			cells: []string{"1", "2", "3", "4", "5", "6", "7", "8"}, nCells: 8,
			captions: []string{"[0, :, :]", "[1, :, :]"}},
		{name: "4-D elided", t: f64(sh(10, 2, 10, 10), arange(2000, 1)...), device: "cpu", badge: "f64[10,2,10,10] cpu",
			nCells: 12 * 49, captions: []string{"[0, 0, :, :]", "[0, 1, :, :]", "[1, 0, :, :]"}},
	}
	for _, tc := range tests {
		typ := dtypes.Type{DType: tc.t.DType, Weak: tc.weak}
		s := HTML(tc.t, typ, tc.device)
		root := parseHTML(t, s)
		if root.name != "div" || !byClass("tsh-tensor")(root) {
			t.Errorf("%s: root is %s class %q", tc.name, root.name, root.attr["class"])
		}
		badges := root.find(byClass("tsh-badge"))
		if len(badges) != 1 {
			t.Fatalf("%s: %d badges", tc.name, len(badges))
		}
		if got := badges[0].text; got != tc.badge {
			t.Errorf("%s: badge %q, want %q", tc.name, got, tc.badge)
		}
		weak := root.find(byClass("tsh-weak"))
		if tc.weak != (len(weak) == 1) || len(weak) > 1 {
			t.Errorf("%s: %d weak markers, weak %v", tc.name, len(weak), tc.weak)
		}
		for _, w := range weak {
			if w.name != "span" || w.text != "?" || w.attr["style"] == "" || w.attr["title"] == "" {
				t.Errorf("%s: weak marker %+v", tc.name, w)
			}
		}
		tds := root.find(byName("td"))
		switch len(tc.t.Shape) {
		case 0:
			if sc := root.find(byClass("tsh-scalar")); len(sc) != 1 || sc[0].text != Scalar(tc.t) {
				t.Errorf("%s: no scalar %q", tc.name, Scalar(tc.t))
			}
		}
		if tc.t.Len() == 0 {
			if e := root.find(byClass("tsh-empty")); len(e) != 1 || e[0].text != "[]" {
				t.Errorf("%s: no []", tc.name)
			}
		}
		if len(tds) != tc.nCells {
			t.Errorf("%s: %d cells, want %d", tc.name, len(tds), tc.nCells)
		}
		for i, want := range tc.cells {
			if i >= len(tds) || strings.TrimRight(tds[i].text, " ") != want {
				got := "(none)"
				if i < len(tds) {
					got = tds[i].text
				}
				t.Errorf("%s: cell %d = %q, want %q", tc.name, i, got, want)
			}
		}
		var captions []string
		for _, c := range root.find(byClass("tsh-slice")) {
			captions = append(captions, c.text)
		}
		for i, want := range tc.captions {
			if i >= len(captions) || captions[i] != want {
				t.Errorf("%s: captions %q, want prefix %q", tc.name, captions, tc.captions)
				break
			}
		}
		if tc.captions == nil && len(captions) != 0 {
			t.Errorf("%s: unexpected captions %q", tc.name, captions)
		}
	}
}

// TestHTMLMatrixIndices checks the row and column index headers of an
// elided matrix and the gap row.
func TestHTMLMatrixIndices(t *testing.T) {
	root := parseHTML(t, HTML(ints(dtypes.I64, sh(100, 100), arangeInt(10000)...), dtypes.Strong(dtypes.I64), ""))
	rows := root.find(byName("tr"))
	if len(rows) != 8 { // header, 3 rows, gap row, 3 rows
		t.Fatalf("%d rows", len(rows))
	}
	var head []string
	for _, th := range rows[0].find(byName("th")) {
		head = append(head, th.text)
	}
	if got := strings.Join(head, ","); got != ",0,1,2,,97,98,99" {
		t.Errorf("column indices %q", got)
	}
	var labels []string
	for _, r := range rows[1:] {
		labels = append(labels, r.find(byName("th"))[0].text)
	}
	if got := strings.Join(labels, ","); got != "0,1,2,,97,98,99" {
		t.Errorf("row indices %q", got)
	}
	var gap []string
	for _, td := range rows[4].find(byName("td")) {
		gap = append(gap, td.text)
	}
	if got := strings.Join(gap, ""); got != "⋮⋮⋮⋱⋮⋮⋮" {
		t.Errorf("gap row %q", got)
	}
}

// TestHTMLAllDTypes checks that every dtype gives well-formed HTML whose
// cells are the trimmed cells of Values.
func TestHTMLAllDTypes(t *testing.T) {
	for _, d := range dtypes.All {
		var tt *backend.Tensor
		switch {
		case d.IsBool():
			tt = bools(sh(2, 2), true, false, true, true)
		case d.IsInt():
			tt = ints(d, sh(2, 2), 1, 2, 3, 100)
		case d == dtypes.F16:
			tt = f16(sh(2, 2), 0.1, 2, nan, -inf)
		case d == dtypes.BF16:
			tt = bf16(sh(2, 2), 0.1, 2, nan, -inf)
		case d == dtypes.F8E4M3:
			tt = e4m3(sh(2, 2), 0.1, 2, nan, -1)
		case d == dtypes.F8E5M2:
			tt = e5m2(sh(2, 2), 0.1, 2, nan, -inf)
		case d == dtypes.TF32:
			tt = tf32(sh(2, 2), 0.1, 2, nan, -inf)
		case d == dtypes.F32:
			tt = f32(sh(2, 2), 0.1, 2, nan, -inf)
		case d == dtypes.F64:
			tt = f64(sh(2, 2), 0.1, 2, nan, -inf)
		case d == dtypes.C32:
			tt = c32(sh(2, 2), 0.1, 2i, complex(nan, 1), complex(-inf, 0))
		case d == dtypes.C64:
			tt = c64(sh(2, 2), 0.1, 2i, complex(nan, 1), complex(-inf, 0))
		case d == dtypes.C128:
			tt = c128(sh(2, 2), 0.1, 2i, complex(nan, 1), complex(-inf, 0))
		default:
			t.Fatalf("no test tensor for %v", d)
		}
		root := parseHTML(t, HTML(tt, dtypes.Weak(d), "cpu"))
		var want []string
		for _, line := range strings.Split(Values(tt, Options{}), "\n") {
			line = strings.Trim(line, "[] ")
			// Cells are separated by a space in Values; complex cells may
			// hold padding inside, so split on the numpy layout instead.
			want = append(want, splitCells(line, d)...)
		}
		var got []string
		for _, td := range root.find(byName("td")) {
			got = append(got, strings.TrimRight(td.text, " "))
		}
		if strings.Join(got, "|") != strings.Join(want, "|") {
			t.Errorf("%v: cells %q, want %q", d, got, want)
		}
	}
}

// splitCells splits one line of a 2×2 matrix printed by Values into its
// two cells.
func splitCells(line string, d dtypes.DType) []string {
	if d.IsComplex() {
		// Each complex cell ends in 'j'.
		i := strings.IndexByte(line, 'j')
		return []string{strings.TrimSpace(line[:i+1]), strings.TrimSpace(line[i+1:])}
	}
	return strings.Fields(line)
}

func TestHTMLTypeMismatch(t *testing.T) {
	s := HTML(f32(sh(1), 1), dtypes.Strong(dtypes.I8), "cpu")
	root := parseHTML(t, s)
	if e := root.find(byClass("tsh-error")); len(e) != 1 || !strings.Contains(e[0].text, "does not match") {
		t.Errorf("no error shown: %s", s)
	}
}
