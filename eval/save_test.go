package eval

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSave checks :save, which writes the last result as a picture, a
// page, JSON or text, so that a teacher can put a lattice or a table on a
// slide; and that --json carries the HTML and SVG forms Jupyter gets.
func TestSave(t *testing.T) {
	dir := t.TempDir()
	s, err := New("jax")
	if err != nil {
		t.Fatal(err)
	}
	run := func(src string) error {
		_, err := s.Execute(context.Background(), "", src)
		return err
	}
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	if err := run(":save " + filepath.Join(dir, "none.txt")); err == nil || !strings.Contains(err.Error(), "there is none yet") {
		t.Errorf(":save before any result: %v", err)
	}
	if err := run("lattice()"); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"l.svg", "l.html", "l.json", "l.txt"} {
		if err := run(":save " + filepath.Join(dir, f)); err != nil {
			t.Fatalf(":save %s: %v", f, err)
		}
	}
	if svg := read("l.svg"); !strings.HasPrefix(svg, "<svg") {
		t.Errorf("l.svg starts %.40q", svg)
	}
	if page := read("l.html"); !strings.Contains(page, "<!DOCTYPE html>") || !strings.Contains(page, "<svg") {
		t.Errorf("l.html has no page or no picture: %.80q", page)
	}
	var obj map[string]string
	if err := json.Unmarshal([]byte(read("l.json")), &obj); err != nil || !strings.HasPrefix(obj["image/svg+xml"], "<svg") || obj["text"] == "" {
		t.Errorf("l.json: %v, keys %v", err, len(obj))
	}
	if txt := read("l.txt"); !strings.Contains(txt, "lattice") {
		t.Errorf("l.txt: %.80q", txt)
	}
	// A tensor: no picture, but text, HTML and JSON.
	if err := run("x = i16([1, 2, 3]) + 1.5\nx"); err != nil {
		t.Fatal(err)
	}
	if err := run(":save " + filepath.Join(dir, "x.svg")); err == nil || !strings.Contains(err.Error(), "not a picture") {
		t.Errorf(":save a tensor as .svg: %v", err)
	}
	if err := run(":save " + filepath.Join(dir, "x.json")); err != nil || !strings.Contains(read("x.json"), `"values":[2.5,3.5,4.5]`) {
		t.Errorf(":save x.json: %v %q", err, read("x.json"))
	}
	if err := run(":save " + filepath.Join(dir, "x.png")); err == nil || !strings.Contains(err.Error(), ".svg, .html, .json or .txt") {
		t.Errorf(":save x.png: %v", err)
	}
	if err := run(":save " + filepath.Join(dir, "no", "such", "dir.txt")); err == nil {
		t.Error(":save into a missing directory succeeded")
	}
}
