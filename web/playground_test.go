package web

import (
	"context"
	"strings"
	"testing"
)

// TestPlayground runs cells as the page does. The promotion results are
// the libraries' (pinned cell by cell in promote/refs_test.go):
//   - JAX: int16 array + Python float is weak float32 with x64 off
//     (https://docs.jax.dev/en/latest/type_promotion.html, i16 ∨ f* = f32,
//     weak_type=True);
//   - NumPy 2: the same is float64, and int8 + 200 raises (NEP 50,
//     https://numpy.org/neps/nep-0050-scalar-promotion.html);
//   - C (examples/cpolicy.go, C11 §6.3.1.8): int8 + int8 is int.
func TestPlayground(t *testing.T) {
	p, err := NewPlayground("jax")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, tc := range []struct {
		code   string
		kinds  string // the items' kinds, space-separated
		text   string // in the last item's text
		html   string // in the last item's HTML
		svg    bool
		policy string
	}{
		{"x = i16([1, 2, 3])", "", "", "", false, "jax"},
		{"x + 1.5", "value", "f32?[3] cpu", `<span class="tsh-weak"`, false, "jax"},
		{"1 + 2", "value", "i32? 3", "policy jax", false, "jax"},
		{"compare(i8([100]) + 1.5)", "value", "numpy, numpy1, julia, c     f64[1]", "<table>", false, "jax"},
		{"lattice()", "value", "lattice", "", true, "jax"},
		{":policy numpy", "text", "policy numpy", "", false, "numpy"},
		{"x + 1.5", "value", "f64[3] cpu", "policy numpy", false, "numpy"},
		{"x + 1\ni8([1]) + 200", "value error", "  i8([1]) + 200\n            ^^^", "", false, "numpy"},
		{":policy load examples/cpolicy.go", "text", "loaded from examples/cpolicy.go", "", false, "c-user"},
		{"i8([100]) + i8([100])", "value", "i32[1] cpu", "policy c", false, "c-user"},
		{":load examples/nope.tsh", "error", "examples/nope.tsh: no such file in the page", "", false, "c-user"},
		{":help", "text", "topics:", "", false, "c-user"},
	} {
		res := p.Run(ctx, tc.code)
		var kinds []string
		for _, it := range res.Items {
			kinds = append(kinds, it.Kind)
		}
		if got := strings.Join(kinds, " "); got != tc.kinds {
			t.Errorf("%q: items %q, want %q (%+v)", tc.code, got, tc.kinds, res.Items)
			continue
		}
		if res.Policy != tc.policy {
			t.Errorf("%q: policy after %q, want %q", tc.code, res.Policy, tc.policy)
		}
		if len(res.Items) == 0 {
			continue
		}
		last := res.Items[len(res.Items)-1]
		if !strings.Contains(last.Text, tc.text) {
			t.Errorf("%q: text %q lacks %q", tc.code, last.Text, tc.text)
		}
		if !strings.Contains(last.HTML, tc.html) {
			t.Errorf("%q: HTML %q lacks %q", tc.code, last.HTML, tc.html)
		}
		if (last.SVG != "") != tc.svg || tc.svg && !strings.HasPrefix(last.SVG, "<svg") {
			t.Errorf("%q: SVG %.40q, want one: %v", tc.code, last.SVG, tc.svg)
		}
		if tc.svg && last.HTML != "" {
			t.Errorf("%q: a picture with HTML too (the kernel sends only the SVG)", tc.code)
		}
	}
	if it := p.Run(ctx, ":policy numpy\ni8([1]) + 200").Items; it[len(it)-1].Name != "PromotionError" {
		t.Errorf("error name %q, want PromotionError", it[len(it)-1].Name)
	}
	p.Run(ctx, ":policy c")

	// A file the user adds can be loaded.
	p.AddFile("./mine.tsh", []byte("y = u8([250]) + 10\ny\n"))
	// C's integer promotions make u8 + int an int: 260, not 4.
	if res := p.Run(ctx, ":load mine.tsh"); len(res.Items) != 1 || res.Items[0].Text != "[260]\ni32[1] cpu" {
		t.Errorf(":load mine.tsh: %+v", res.Items)
	}

	// Reset forgets the variables and takes the policy.
	if err := p.Reset("torch"); err != nil {
		t.Fatal(err)
	}
	if res := p.Run(ctx, "x"); res.Policy != "torch" || len(res.Items) != 1 || res.Items[0].Kind != "error" {
		t.Errorf("after Reset: %+v", res)
	}
	if err := p.Reset("tensorflow"); err == nil || !strings.Contains(err.Error(), "no policy \"tensorflow\"") {
		t.Errorf("Reset(tensorflow): %v", err)
	}
	if _, err := NewPlayground("tensorflow"); err == nil {
		t.Error("NewPlayground(tensorflow) succeeded")
	}
}

func TestPlaygroundState(t *testing.T) {
	p, err := NewPlayground("max")
	if err != nil {
		t.Fatal(err)
	}
	st := p.State()
	if st.Policy != "max" || st.Version == "" {
		t.Errorf("state %+v", st)
	}
	names := map[string]string{}
	for _, pol := range st.Policies {
		names[pol.Name] = pol.Title
	}
	for _, n := range []string{"jax", "jax64", "numpy", "torch", "triton", "max", "anvil", "array-api"} {
		if names[n] == "" {
			t.Errorf("no policy %s in %v", n, st.Policies)
		}
	}
	lessons := map[string]Lesson{}
	for _, l := range st.Lessons {
		lessons[l.Name] = l
	}
	wl := lessons["weak-literals"]
	if wl.Title != "Weak literals: a Python scalar gives way to the tensor it meets." || len(wl.Cells) < 3 {
		t.Errorf("lesson weak-literals: %+v", wl)
	}
	// Every lesson runs without an error in the page, as examples/*.out
	// show from the command line.
	for _, l := range st.Lessons {
		p.Reset("jax")
		for _, c := range l.Cells {
			for _, it := range p.Run(context.Background(), c).Items {
				if it.Kind == "error" {
					t.Errorf("lesson %s, cell %q: %s", l.Name, c, it.Text)
				}
			}
		}
	}
}

func TestCells(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want []string
	}{
		{"", nil},
		{"1 + 2", []string{"1 + 2"}},
		{"x = 1\nx", []string{"x = 1", "x"}},
		{"# a comment\nx = 1\n\n# another\nx + 1\n", []string{"# a comment\nx = 1", "\n# another\nx + 1"}},
		{"zeros((2,\n3))\n1", []string{"zeros((2,\n3))", "1"}},
		{"x = 1\n# trailing comment", []string{"x = 1", "# trailing comment"}},
		{"zeros((2,", []string{"zeros((2,"}}, // incomplete: one cell, whose error the user sees
	} {
		got := Cells(tc.src)
		if strings.Join(got, "|") != strings.Join(tc.want, "|") || len(got) != len(tc.want) {
			t.Errorf("Cells(%q) = %q, want %q", tc.src, got, tc.want)
		}
	}
}

func TestCompleteOffsets(t *testing.T) {
	p, err := NewPlayground("jax")
	if err != nil {
		t.Fatal(err)
	}
	// Offsets are UTF-16 code units, as in JavaScript: "→" is one unit
	// and three bytes, "𝑥" two units and four bytes.
	for _, tc := range []struct {
		code         string
		cursor       int
		start, end   int
		wantContains string
	}{
		{"latt", 4, 0, 4, "lattice"},
		{"# → \nlatt", 9, 5, 9, "lattice"},
		{"# 𝑥\nlatt", 9, 5, 9, "lattice"},
		{"# 𝑥\nlatt + 1", 9, 5, 9, "lattice"},
	} {
		c := p.Complete(tc.code, tc.cursor)
		found := false
		for _, m := range c.Matches {
			found = found || m == tc.wantContains
		}
		if c.Start != tc.start || c.End != tc.end || !found {
			t.Errorf("Complete(%q, %d) = %+v, want [%d:%d] with %q", tc.code, tc.cursor, c, tc.start, tc.end, tc.wantContains)
		}
	}
	for _, tc := range []struct {
		s      string
		units  int
		bytes_ int
	}{
		{"abc", 2, 2},
		{"→x", 1, 3},
		{"𝑥x", 2, 4},
		{"𝑥x", 9, 5},
	} {
		if got := byteOffset(tc.s, tc.units); got != tc.bytes_ {
			t.Errorf("byteOffset(%q, %d) = %d, want %d", tc.s, tc.units, got, tc.bytes_)
		}
		if tc.units <= 3 {
			if got := utf16Offset(tc.s, tc.bytes_); got != tc.units {
				t.Errorf("utf16Offset(%q, %d) = %d, want %d", tc.s, tc.bytes_, got, tc.units)
			}
		}
	}
}
