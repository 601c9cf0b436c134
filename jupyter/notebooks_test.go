package jupyter

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite examples/*.ipynb with the outputs of a fresh run")

// TestExampleNotebooks executes every examples/*.ipynb with nbconvert, as
// a user would, and compares each cell's outputs with those saved in the
// notebook: the notebooks teach promotion, so what they show must stay
// what tensorsh computes. A cell may fail only if it is tagged
// "raises-exception". After a deliberate change, refresh them with
//
//	go test ./jupyter -run TestExampleNotebooks -update
func TestExampleNotebooks(t *testing.T) {
	needPython(t, "nbconvert=jupyter-nbconvert", "nbclient=python3-nbclient")
	books, _ := filepath.Glob(filepath.Join("..", "examples", "*.ipynb"))
	if len(books) == 0 {
		t.Fatal("no examples/*.ipynb")
	}
	j := newJupyterEnv(t)
	for _, book := range books {
		name := filepath.Base(book)
		t.Run(strings.TrimSuffix(name, ".ipynb"), func(t *testing.T) {
			src, err := filepath.Abs(book)
			if err != nil {
				t.Fatal(err)
			}
			j.run(t, 5*time.Minute, "", "/usr/bin/jupyter", "nbconvert", "--to", "notebook", "--execute",
				"--ExecutePreprocessor.timeout=120", "--ExecutePreprocessor.record_timing=False",
				"--output-dir", j.dir, "--output", name, src)
			fresh, err := os.ReadFile(filepath.Join(j.dir, name))
			if err != nil {
				t.Fatal(err)
			}
			if *update {
				if err := os.WriteFile(book, fresh, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			saved, err := os.ReadFile(book)
			if err != nil {
				t.Fatal(err)
			}
			compareNotebooks(t, saved, fresh)
		})
	}
}

type notebook struct {
	Metadata struct {
		Kernelspec struct{ Name string } `json:"kernelspec"`
	} `json:"metadata"`
	Cells []struct {
		CellType string          `json:"cell_type"`
		Source   json.RawMessage `json:"source"`
		Metadata struct {
			Tags []string `json:"tags"`
		} `json:"metadata"`
		Outputs []map[string]any `json:"outputs"`
	} `json:"cells"`
}

// compareNotebooks checks that fresh (just executed) shows what saved
// shows, cell by cell.
func compareNotebooks(t *testing.T, saved, fresh []byte) {
	t.Helper()
	var a, b notebook
	if err := json.Unmarshal(saved, &a); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(fresh, &b); err != nil {
		t.Fatal(err)
	}
	if a.Metadata.Kernelspec.Name != "tensorsh" {
		t.Errorf("kernelspec %q, want tensorsh", a.Metadata.Kernelspec.Name)
	}
	if len(a.Cells) != len(b.Cells) {
		t.Fatalf("%d cells saved, %d run", len(a.Cells), len(b.Cells))
	}
	for i, c := range a.Cells {
		if c.CellType != "code" {
			continue
		}
		var src any
		json.Unmarshal(c.Source, &src)
		want, got := summarize(c.Outputs), summarize(b.Cells[i].Outputs)
		if len(c.Outputs) == 0 {
			t.Errorf("cell %d %q has no saved outputs (run with -update)", i, src)
		}
		if want != got {
			t.Errorf("cell %d %q:\nsaved:\n%s\nnow:\n%s\n(if the change is deliberate: go test ./jupyter -run TestExampleNotebooks -update)",
				i, src, want, got)
		}
		failed := false
		for _, o := range c.Outputs {
			failed = failed || o["output_type"] == "error"
		}
		tagged := false
		for _, tag := range c.Metadata.Tags {
			tagged = tagged || tag == "raises-exception"
		}
		if failed != tagged {
			t.Errorf("cell %d %q: raises-exception tag %v, but failed %v", i, src, tagged, failed)
		}
	}
}

// summarize lists a cell's outputs as text: streams, the text/plain of
// results and displays with the MIME types they carry, errors.
func summarize(outs []map[string]any) string {
	var sb strings.Builder
	for _, o := range outs {
		switch o["output_type"] {
		case "stream":
			fmt.Fprintf(&sb, "stream %v: %s\n", o["name"], joinText(o["text"]))
		case "execute_result", "display_data":
			data, _ := o["data"].(map[string]any)
			var mimes []string
			for m := range data {
				mimes = append(mimes, m)
			}
			sort.Strings(mimes)
			fmt.Fprintf(&sb, "%v %v:\n%s\n", o["output_type"], mimes, joinText(data["text/plain"]))
		case "error":
			// The traceback as the notebook shows it, colours aside.
			fmt.Fprintf(&sb, "error %v: %v\n%s\n", o["ename"], o["evalue"], ansiColour.ReplaceAllString(joinLines(o["traceback"]), ""))
		default:
			fmt.Fprintf(&sb, "%v\n", o["output_type"])
		}
	}
	return sb.String()
}

var ansiColour = regexp.MustCompile("\x1b\\[[0-9;]*m")

// joinLines returns a traceback's lines joined by newlines, as front
// ends show them.
func joinLines(v any) string {
	lines, _ := v.([]any)
	var sb strings.Builder
	for i, s := range lines {
		if i > 0 {
			sb.WriteByte('\n')
		}
		fmt.Fprint(&sb, s)
	}
	return sb.String()
}

// joinText returns notebook text, stored as a string or a list of lines.
func joinText(v any) string {
	switch v := v.(type) {
	case string:
		return v
	case []any:
		var sb strings.Builder
		for _, s := range v {
			fmt.Fprint(&sb, s)
		}
		return sb.String()
	}
	return fmt.Sprint(v)
}
