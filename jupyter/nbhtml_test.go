package jupyter

import (
	"encoding/json"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/tensorsh/tensorsh/internal/browser"
)

// TestNotebookHTMLShowsLattice runs a notebook whose cell calls lattice()
// in the tensorsh kernel, exports it with nbconvert's HTML exporter (jupyter
// nbconvert --to html --execute, as a teacher publishing a lesson does)
// and renders the page in headless Chromium: the cell's output area must
// show the drawing as an <svg> element of visible size. The kernel sends
// the picture as image/svg+xml with no text/html (SessionEngine.bundle),
// because nbconvert, like Notebook 6, prefers text/html when both are
// present; nbconvert inlines image/svg+xml as markup (nbconvert
// share/templates/lab/index.html.j2 and base/display_priority.j2.
// https://nbconvert.readthedocs.io/en/latest/customizing.html).
func TestNotebookHTMLShowsLattice(t *testing.T) {
	needPython(t, "nbconvert=jupyter-nbconvert", "nbclient=python3-nbclient")
	ctx := browser.New(t, 1000, 800)
	j := newJupyterEnv(t)
	book := map[string]any{
		"nbformat": 4, "nbformat_minor": 5,
		"metadata": map[string]any{
			"kernelspec":    map[string]any{"name": "tensorsh", "display_name": "tensorsh", "language": "tensorsh"},
			"language_info": map[string]any{"name": "tensorsh"},
		},
		"cells": []any{
			codeCell("c1", "%policy max"),
			codeCell("c2", "lattice()"),
		},
	}
	data, err := json.Marshal(book)
	if err != nil {
		t.Fatal(err)
	}
	src := filepath.Join(j.dir, "lattice.ipynb")
	if err := os.WriteFile(src, data, 0o644); err != nil {
		t.Fatal(err)
	}
	j.run(t, 5*time.Minute, "", "/usr/bin/jupyter", "nbconvert", "--to", "html", "--execute",
		"--ExecutePreprocessor.timeout=120", "--output-dir", j.dir, "--output", "lattice", src)
	page := filepath.Join(j.dir, "lattice.html")
	if _, err := os.Stat(page); err != nil {
		t.Fatal(err)
	}
	u := url.URL{Scheme: "file", Path: page}
	if err := chromedp.Do(ctx, chromedp.Navigate(u.String())); err != nil {
		t.Fatal(err)
	}
	// The output areas of the lab template (nbconvert ≥ 6) and the classic
	// one; the last code cell is lattice().
	type shown struct {
		Cells   int     `json:"cells"`
		Tag     string  `json:"tag"`
		Width   float64 `json:"width"`
		Height  float64 `json:"height"`
		Visible bool    `json:"visible"`
		Text    string  `json:"text"`
	}
	got, err := chromedp.Run(ctx, chromedp.Evaluate[shown](`(() => {
		const cells = [...document.querySelectorAll(".jp-CodeCell, .code_cell")];
		const r = {cells: cells.length, tag: "", width: 0, height: 0, visible: false, text: ""};
		if (cells.length === 0) return r;
		const out = cells[cells.length - 1].querySelector(".jp-OutputArea, .output_wrapper");
		const svg = out && out.querySelector("svg");
		if (!svg) { r.text = out ? out.innerText.slice(0, 300) : "no output area"; return r; }
		const b = svg.getBoundingClientRect(), s = getComputedStyle(svg);
		r.tag = svg.tagName; r.width = b.width; r.height = b.height;
		r.visible = s.display !== "none" && s.visibility !== "hidden" && Number(s.opacity) > 0;
		r.text = svg.textContent.slice(0, 5000);
		return r;
	})()`))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("nbconvert HTML: %d code cells; lattice() output <%s> %.0f×%.0f visible=%v", got.Cells, got.Tag, got.Width, got.Height, got.Visible)
	if got.Tag != "svg" || got.Width <= 0 || got.Height <= 0 || !got.Visible {
		t.Fatalf("lattice() cell does not show a visible <svg> in nbconvert's HTML: %+v", got)
	}
	// The drawing is MAX's lattice: every signed int meets u64 at f16
	// (the MAX policy's lattice, promote/max.go).
	for _, want := range []string{"i64 → f16", "u64 → f16", "f16 → bf16"} {
		if !strings.Contains(got.Text, want) {
			t.Errorf("the SVG has no %q: %q", want, got.Text)
		}
	}
}

func codeCell(id, src string) map[string]any {
	return map[string]any{"cell_type": "code", "id": id, "metadata": map[string]any{}, "source": src,
		"outputs": []any{}, "execution_count": nil}
}
