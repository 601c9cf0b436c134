package web

import (
	"context"
	"fmt"
	"io/fs"
	"path"
	"strings"
	"time"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/tensorsh/tensorsh/eval"
	"github.com/tensorsh/tensorsh/examples"
	"github.com/tensorsh/tensorsh/promote"
)

// A Playground is the state behind one browser page: an [eval.Session]
// and the files the page can :load (the lessons, examples/cpolicy.go, and
// files the user adds), since a page has no file system. The wasm front
// end (web/wasm) calls its methods; they are plain Go so that they are
// tested without a browser.
type Playground struct {
	s     *eval.Session
	files map[string][]byte
	cells int
}

// NewPlayground returns a playground whose session follows policy.
func NewPlayground(policy string) (*Playground, error) {
	s, err := eval.New(policy)
	if err != nil {
		return nil, err
	}
	p := &Playground{s: s, files: map[string][]byte{}}
	s.Warn = nil // warnings are outputs, shown in order
	s.Load = p.read
	lessons, _ := fs.Glob(examples.FS, "*")
	for _, name := range lessons {
		data, _ := fs.ReadFile(examples.FS, name)
		p.files["examples/"+name] = data
	}
	return p, nil
}

// read is the session's Load: only files the page holds.
func (p *Playground) read(name string) ([]byte, error) {
	clean := path.Clean(strings.TrimPrefix(name, "./"))
	if data, ok := p.files[clean]; ok {
		return data, nil
	}
	return nil, fmt.Errorf("%s: no such file in the page (the page has the lessons examples/*.tsh, examples/cpolicy.go and the files you add with \"Add file…\")", name)
}

// AddFile makes data readable as name by :load and :policy load.
func (p *Playground) AddFile(name string, data []byte) {
	p.files[path.Clean(strings.TrimPrefix(name, "./"))] = data
}

// A Result is what one cell shows, with the policy after it ran (a cell
// may switch it) and how long it took in the page.
type Result struct {
	Items  []Item  `json:"items"`
	Policy string  `json:"policy"`
	Millis float64 `json:"ms"`
}

// Run evaluates one cell.
func (p *Playground) Run(ctx context.Context, code string) Result {
	p.cells++
	start := time.Now()
	items := Execute(ctx, p.s, fmt.Sprintf("<cell %d>", p.cells), code)
	ms := float64(time.Since(start).Microseconds()) / 1000
	return Result{Items: items, Policy: p.s.Policy().Name(), Millis: ms}
}

// Reset forgets the variables and results and switches to policy.
func (p *Playground) Reset(policy string) error {
	if _, err := p.lookup(policy); err != nil {
		return err
	}
	p.s.Reset()
	p.cells = 0
	return p.s.SetPolicy(policy)
}

func (p *Playground) lookup(name string) (string, error) {
	for _, n := range p.s.PolicyNames() {
		if n == name {
			return n, nil
		}
	}
	return "", fmt.Errorf("no policy %q (policies: %s)", name, strings.Join(p.s.PolicyNames(), " "))
}

// A Completion replaces code[Start:End] by one of Matches. Offsets count
// UTF-16 code units, as JavaScript strings do.
type Completion struct {
	Start   int      `json:"start"`
	End     int      `json:"end"`
	Matches []string `json:"matches"`
}

// Complete completes names, functions, dtypes, policies and directives at
// cursor (in UTF-16 code units) with the session's Complete.
func (p *Playground) Complete(code string, cursor int) Completion {
	start, end, found := p.s.Complete(code, byteOffset(code, cursor))
	matches := make([]string, len(found))
	for i, m := range found {
		matches[i] = m.Text
	}
	return Completion{Start: utf16Offset(code, start), End: utf16Offset(code, end), Matches: matches}
}

// byteOffset converts an offset in UTF-16 code units into a byte offset.
func byteOffset(s string, units int) int {
	n := 0
	for i, r := range s {
		if n >= units {
			return i
		}
		n += utf16.RuneLen(r)
	}
	return len(s)
}

// utf16Offset converts a byte offset into UTF-16 code units.
func utf16Offset(s string, b int) int {
	n := 0
	for i, r := range s {
		if i >= b {
			break
		}
		if r == utf8.RuneError {
			n++
			continue
		}
		n += utf16.RuneLen(r)
	}
	return n
}

// IsComplete reports whether code is ready to run ("complete"), needs
// another line ("incomplete", indented by indent) or is "invalid" (run
// it to see the error): Enter runs or continues the cell by it.
func (p *Playground) IsComplete(code string) (status, indent string) {
	st, indent := eval.IsComplete(code)
	return st.String(), indent
}

// A Policy names a policy and the system it follows.
type Policy struct {
	Name  string `json:"name"`
	Title string `json:"title"`
}

// A Lesson is an examples/*.tsh script cut into cells: each cell is one
// statement with the comments above it, so that each output shows under
// its statement.
type Lesson struct {
	Name  string   `json:"name"`
	Title string   `json:"title"`
	Cells []string `json:"cells"`
}

// A State is what the page needs to draw its controls.
type State struct {
	Version  string   `json:"version"`
	Policy   string   `json:"policy"`
	Policies []Policy `json:"policies"`
	Lessons  []Lesson `json:"lessons"`
}

// State describes the session and the lessons.
func (p *Playground) State() State {
	st := State{Version: eval.Version, Policy: p.s.Policy().Name()}
	for _, n := range p.s.PolicyNames() {
		title := n
		if pol, err := promote.Lookup(n); err == nil {
			title = pol.Title()
		}
		st.Policies = append(st.Policies, Policy{Name: n, Title: title})
	}
	names, _ := fs.Glob(examples.FS, "*.tsh")
	for _, name := range names {
		data, _ := fs.ReadFile(examples.FS, name)
		st.Lessons = append(st.Lessons, lesson(strings.TrimSuffix(name, ".tsh"), string(data)))
	}
	return st
}

// Cells cuts src into cells, one statement each with the comments above
// it: a share link's code runs as these cells.
func Cells(src string) []string {
	return lesson("", src).Cells
}

// lesson cuts a script into cells. Its first line, a comment, is the
// title.
func lesson(name, src string) Lesson {
	l := Lesson{Name: name, Title: name}
	lines := strings.Split(strings.TrimRight(src, "\n"), "\n")
	if len(lines) > 0 && strings.HasPrefix(lines[0], "#") {
		l.Title = strings.TrimSpace(strings.TrimPrefix(lines[0], "#"))
	}
	var cell []string
	code := false // the cell has a line that is not a comment
	for _, line := range lines {
		cell = append(cell, line)
		t := strings.TrimSpace(line)
		if t != "" && !strings.HasPrefix(t, "#") {
			code = true
		}
		if !code {
			continue
		}
		if st, _ := eval.IsComplete(strings.Join(cell, "\n")); st.String() == "incomplete" {
			continue
		}
		l.Cells = append(l.Cells, strings.Join(cell, "\n"))
		cell, code = nil, false
	}
	if rest := strings.Join(cell, "\n"); strings.TrimSpace(rest) != "" {
		l.Cells = append(l.Cells, rest)
	}
	return l
}
