package jupyter

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tensorsh/tensorsh/internal/testenv"
)

// TestKernelJS installs a kernelspec and runs its kernel.js under node as
// the classic Notebook loads it (a RequireJS module whose onload it calls:
// notebook/static/notebook/js/kernelselector.js), with CodeMirror's mode
// API (https://codemirror.net/5/doc/manual.html#modeapi) driven line by
// line as runMode drives it. The '?' of a weak dtype belongs to the name,
// and no token is styled as an error.
func TestKernelJS(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		testenv.Missing(t, "no node: kernel.js is checked by running it (apt-get install nodejs)")
	}
	prefix := t.TempDir()
	if code, _, errs := runMain(t, Config{Command: []string{"/opt/tensorsh", "kernel"}}, "install", "--prefix", prefix); code != 0 {
		t.Fatalf("install: %d %s", code, errs)
	}
	js := filepath.Join(prefix, "share", "jupyter", "kernels", "tensorsh", "kernel.js")
	src := strings.Join([]string{
		"x = f32?(1) + u8([1, 2])  # weak",
		"%policy numpy",
		"  :time x ** 2 // 3",
		"y = x? + 0x_ff * 1e-3 + 2j + .5 @ tanh(x, axis=-1)",
		`s = """a ? b`,
		`c""" and not 'd\'?' != None`,
		"z = nosuch?(1) $ ` ? ;",
	}, "\n")
	cmd := exec.Command(node, testdata(t, "kerneljs.cjs"), js)
	cmd.Stdin = strings.NewReader(src)
	out, err := cmd.Output()
	if err != nil {
		var stderr []byte
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = ee.Stderr
		}
		t.Fatalf("node: %v\n%s", err, stderr)
	}
	var lines [][][2]*string
	if err := json.Unmarshal(out, &lines); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	// styles[line] is "text:style" for each token that is not a space.
	var styles []string
	for _, line := range lines {
		var toks []string
		for _, tok := range line {
			text, style := *tok[0], "-"
			if tok[1] != nil {
				style = *tok[1]
			}
			if strings.TrimSpace(text) != "" {
				toks = append(toks, text+":"+style)
			}
			if style == "error" {
				t.Errorf("%q styled as an error", text)
			}
		}
		styles = append(styles, strings.Join(toks, " "))
	}
	want := []string{
		"x:variable =:operator f32?:type (:- 1:number ):- +:operator u8:type (:- [:- 1:number ,:- 2:number ]:- ):- # weak:comment",
		"%policy:meta numpy:-",
		":time:meta x ** 2 // 3:-",
		"y:variable =:operator x?:variable +:operator 0x_ff:number *:operator 1e-3:number +:operator 2j:number +:operator " +
			".5:number @:operator tanh:builtin (:- x:variable ,:- axis:variable =:operator -:operator 1:number ):-",
		`s:variable =:operator """a ? b:string`,
		`c""":string and:keyword not:keyword 'd\'?':string !=:operator None:atom`,
		"z:variable =:operator nosuch?:variable (:- 1:number ):- $:- `:- ?:- ;:-",
	}
	if len(styles) != len(want) {
		t.Fatalf("%d lines, want %d: %q", len(styles), len(want), styles)
	}
	for i := range want {
		if styles[i] != want[i] {
			t.Errorf("line %d:\n got %s\nwant %s", i+1, styles[i], want[i])
		}
	}
	data, err := os.ReadFile(js)
	if err != nil || !strings.Contains(string(data), `"bf16"`) || !strings.Contains(string(data), `"broadcast_to"`) {
		t.Errorf("kernel.js lacks the dtype and function names: %v", err)
	}
}
