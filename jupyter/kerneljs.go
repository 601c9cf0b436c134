package jupyter

import (
	_ "embed"
	"encoding/json"
	"slices"
	"strings"

	"github.com/tensorsh/tensorsh/dtypes"
	"github.com/tensorsh/tensorsh/eval"
)

// kernelJS is the tensorsh language's CodeMirror mode, a RequireJS module
// that the classic Notebook loads from the kernelspec directory and whose
// onload it calls (notebook/static/notebook/js/kernelselector.js,
// KernelSelector._spec_changed).
//
//go:embed kernel.js
var kernelJS string

// codemirrorMode is language_info.codemirror_mode. The classic Notebook
// looks the mode up by name first (notebook/static/base/js/utils.js,
// requireCodeMirrorMode), and finds the one kernel.js defines. JupyterLab
// does not load kernel.js: it looks the name up among its own modes, then
// the mime (packages/codemirror/src/mode.ts, Mode.findBest), and takes R's
// mode, the closest it bundles: '#' comments, Python-like strings and
// numbers, and a tokenizer that marks no character as an error, where
// Python's mode paints the '?' of f32? red.
var codemirrorMode = map[string]any{"name": LanguageName, "mime": "text/x-rsrc"}

// pygmentsLexer is language_info.pygments_lexer, which nbconvert uses to
// colour cells in HTML: R's lexer too, since Python's marks '?' as an
// error token.
const pygmentsLexer = "r"

// KernelJS returns kernel.js with the dtype and function names of this
// tensorsh in place of its two empty lists.
func KernelJS() []byte {
	names := dtypes.Names()
	slices.Sort(names)
	js := strings.Replace(kernelJS, "/*dtypes*/[]", jsonList(names), 1)
	js = strings.Replace(js, "/*functions*/[]", jsonList(eval.Functions()), 1)
	return []byte(js)
}

func jsonList(words []string) string {
	b, err := json.Marshal(words)
	if err != nil {
		panic(err) // strings always marshal
	}
	return string(b)
}
